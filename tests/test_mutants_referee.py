"""The referee's verdicts in full, where tests/test_referee.py checked only their kind.

Mutation testing (docs/testing.md) changed what a take-back verdict carries (the spots to
light, the steps, the words), the exact moment a held take-back is confirmed, where the
"lots of pieces have moved" wording starts, what a half-made step and a hidden board say, and
the words of a correction, and the referee's own tests still passed. Each is checked here.
"""

from __future__ import annotations

import pytest

from arbiter import referee as R
from engine.observation import Observation
from test_referee import THREE_OPENING, Table, W, changed


def test_a_takeback_verdict_carries_the_spots_the_steps_and_the_words():
    t = Table("nine-mens-morris", "colour")
    t.play("a1", "g7")
    pending = t.show(t.ref._states[1])
    assert pending.kind == R.TAKEBACK_PENDING and pending.points == ("g7",)
    assert pending.message.startswith("Take back one step? Press the button")
    done = t.ref.confirm_takeback()
    assert done.kind == R.TAKEBACK and done.steps == () and done.undone == ("g7",)
    assert done.points == ("g7",), "the spot that changed, to light"
    assert done.to_remove == ()
    assert done.message.startswith("Took back one step. ")
    assert t.ref.history == ("a1",)


def test_two_steps_taken_back_say_so():
    t = Table("nine-mens-morris", "colour")
    t.play("a1", "g7", "d1")
    t.show(t.ref._states[1])
    done = t.ref.confirm_takeback()
    assert done.message.startswith("Took back 2 steps. ") and set(done.points) == {"g7", "d1"}


def test_a_takeback_held_exactly_the_hold_time_is_confirmed_by_a_look():
    t = Table("tapatan", "colour")
    t.play("a1", "g7")
    earlier = t.ref._states[1]
    assert t.show(earlier, t=10.0).kind == R.TAKEBACK_PENDING
    assert t.show(earlier, t=11.999).kind == R.TAKEBACK_PENDING
    assert t.show(earlier, t=12.0).kind == R.TAKEBACK, "held 2 s, the hold: confirmed"


def test_a_takeback_first_seen_without_a_time_is_timed_from_the_next_look():
    t = Table("tapatan", "colour")
    t.play("a1", "g7")
    earlier = t.ref._states[1]
    assert t.show(earlier).kind == R.TAKEBACK_PENDING
    assert t.show(earlier, t=10.0).kind == R.TAKEBACK_PENDING
    assert t.show(earlier, t=12.0).kind == R.TAKEBACK


def test_four_pieces_wrong_is_explained_five_is_lots():
    t = Table("nine-mens-morris", "colour")
    four = {"a1": W, "d1": W, "g1": W, "b2": W}
    v = t.show(four)
    assert v.kind == R.ILLEGAL and len(v.points) == 4 and v.message.startswith("Not allowed: ")
    t.show(t.ref.state)
    five = dict(four, d2=W)
    v = t.show(five)
    assert v.kind == R.ILLEGAL and len(v.points) == 5
    assert v.message == "Lots of pieces have moved! Put them back where the red lights are."


def test_a_lifted_piece_says_where_it_may_go_and_is_waited_for():
    t = Table("tapatan", "colour")
    t.play(*THREE_OPENING)
    v = t.show(changed(t.ref.state, {"a1": None}))
    assert v.kind == R.IN_PROGRESS and v.message, "the explainer's words come with it"
    assert v.message == t.ref.explainer.in_progress(t.ref.state, t.ref._obs_key(
        t.reader.read(changed(t.ref.state, {"a1": None})))).message
    assert t.ref.waiting_for == R.IN_PROGRESS


def test_a_hidden_board_without_a_reason_is_still_said_plainly():
    t = Table("tapatan", "colour")
    v = t.ref.observe(Observation.blocked(""))
    assert v.kind == R.UNSEEN and v.message == "I can't see the board: something is in the way."


def test_a_correction_says_what_was_meant():
    t = Table("nine-mens-morris", "colour")
    t.play("a7", "g7", "d2")
    v = t.show(changed(t.ref.state, {"d2": None, "d3": W}))
    assert v.kind == R.CORRECTION and v.message.startswith("Got it, you meant: ")



def test_an_unclear_board_names_its_spots_in_words():
    from test_referee_unsure import B as BLACK, WV, reading, referee_after

    # two readings that explain different steps about equally (a likeliest-reading doubt)
    ref = referee_after("d2", "d6")
    pos = dict(ref.state.position())
    v = ref.observe(reading(pos, {"f4": {WV: 0.5, None: 0.5}, "b4": {WV: 0.45, None: 0.55}}))
    assert v.kind == R.UNCLEAR
    named = ", ".join(v.points[:4])
    assert v.message == (f"I can't read {named} clearly (a reflection, or a piece off its point?). "
                         f"Nothing changed yet.")
    # an illegal board a doubted spot would make legal (a held doubt)
    ref = referee_after("d2", "d6")
    pos = dict(ref.state.position())
    pos["f4"] = BLACK
    v = ref.observe(reading(pos, {"b6": {None: 0.9, WV: 0.1}}), t=10.0)
    assert v.kind == R.UNCLEAR and v.message == ("I can't read b6 clearly (a reflection, or a piece off its "
                                                 "point?). Nothing changed yet.")



def test_a_step_told_with_the_buttons_is_accepted_or_refused_with_the_rule():
    import pytest

    t = Table("nine-mens-morris", "colour")
    v = t.ref.enter("d2")
    assert v.kind == R.STEP and v.steps == ("d2",) and t.ref.history == ("d2",)
    with pytest.raises(ValueError, match=r"^d2: "):
        t.ref.enter("d2")  # taken now
    assert t.ref.history == ("d2",)


def test_the_steps_a_reader_cannot_see_are_offered_for_the_buttons():
    import engine

    # Advanced Tableaux: the chips in play are named with the buttons; the clock's timeout is
    # a call the players never make themselves
    ref = R.Referee(engine.load("tableaux", advanced=True), "colour")
    offered = [str(s) for s in ref.unseen_steps()]
    assert "chips=25" in offered and "chips=48" in offered
    calls = [str(c) for c in ref.state.calls() if str(c) != "timeout"]
    unseen = [str(s) for s in ref.explainer.unseen_steps(ref.state)]
    assert "timeout" not in offered, "the clock's call, not a player's"
    assert offered[:len(calls)] == calls, "the declarations first"
    assert set(offered) == set(calls) | set(unseen) and len(offered) == len(set(offered))


def test_the_seat_in_team_play():
    import engine

    game = engine.load("nine-mens-morris", teams=True)
    ref = R.Referee(game, "colour")
    s = game.new()
    seats = []
    for step in ("a1", "g7", "d1", "a7"):
        seats.append((s.to_move, ref.seat(s)))
        s = s.play(step)
    assert seats == [(1, 1), (2, 1), (3, 2), (4, 2)]
    assert R.Referee(engine.load("nine-mens-morris"), "colour").seat(engine.load("nine-mens-morris").new()) is None


def test_an_ambiguity_lists_the_candidates_and_refuses_a_bad_choice_plainly():
    import pytest

    t = Table("nine-mens-morris", "occupancy")
    v = t.show(t.after("a1", "g7"))
    assert v.kind == R.AMBIGUOUS and set(v.points) == {"a1", "g7"}
    assert v.message.startswith("I can't tell which move that was: ")
    assert v.message.endswith(". Press the button to pick the right one.")
    assert " or " in v.message
    n = len(v.candidates)
    with pytest.raises(ValueError, match=f"^there are {n} candidates; choose 0 to {n - 1}$"):
        t.ref.choose(n)
    with pytest.raises(ValueError, match=r"^d2 d6 is not one of the candidates \("):
        t.ref.choose(("d2", "d6"))
    with pytest.raises(ValueError, match=f"^there are {n} candidates; choose 0 to {n - 1}$"):
        t.ref.choose(-1)
    done = t.ref.choose(list(v.candidates[0]))
    assert done.accepted and done.steps == v.candidates[0]


def test_the_words_for_what_comes_next():
    t = Table("nine-mens-morris", "colour")
    assert t.ref.next_words() == "White to play."
    v = t.show(t.after("d2"))
    assert v.message.endswith("Black to play.")
    assert t.show(t.ref.state).message == "Black to play."
    t.show(t.after("a7"))
    # back to the board before black's a7 and then again as it is: restored
    t.show(t.ref._states[-2])
    back = t.show(t.ref.state)
    assert back.kind == R.RESTORED and back.message == "The board is back as it was. White to play."


def test_an_unknown_reader_kind_is_refused_by_name():
    import pytest

    with pytest.raises(ValueError, match="^unknown reader kind 'smell'; one of colour, polarity, occupancy$"):
        R.Referee("tapatan", "smell")


def test_a_referee_by_default_and_resumed_with_settings():
    import engine

    ref = R.Referee("tapatan")
    assert (ref.sees, ref.takeback_hold_s, ref.doubt_hold_s) == ("colour", 2.0, 3.0)
    game = engine.load("nine-mens-morris")
    resumed = R.Referee.from_steps(game, ["d2", "d6"], "occupancy", takeback_hold_s=5.0)
    assert resumed.takeback_hold_s == 5.0 and resumed.sees == "occupancy"
    assert resumed.history == ("d2", "d6")
    start = game.new().play("a1")
    from_there = R.Referee.from_steps(game, ["g7"], state=start)
    assert from_there.history == ("g7",) and from_there.state.position()["a1"].owner == 1


def test_what_the_board_should_show_follows_steps_and_takebacks():
    t = Table("nine-mens-morris", "colour")
    t.play("a1", "g7", "d1")
    assert t.ref.expected()["d1"] == (1, "man")
    t.show(t.ref._states[2])  # back to before d1
    t.ref.confirm_takeback()
    assert t.ref.expected()["d1"] is None and t.ref.expected()["g7"] == (2, "man")
    # the positions before the take-back's end are still known as earlier ones
    v = t.show(t.ref._states[1])
    assert v.kind == R.TAKEBACK_PENDING and v.message.startswith("Take back one step?")
    v = t.show(t.ref._states[0])
    assert v.kind == R.TAKEBACK_PENDING and v.message.startswith("Take back 2 steps?")


def test_a_verdict_without_a_step_carries_none():
    t = Table("tapatan", "colour")
    v = t.ref.observe(Observation.blocked("a hand"))
    assert v.steps == () and v.undone == () and v.reason == "" and not v.accepted


def test_team_play_names_the_player_to_move():
    import engine

    game = engine.load("nine-mens-morris", teams=True)
    ref = R.Referee(game, "colour")
    assert ref.mover_words(game.new()) == "White (player 1)"
    assert ref.mover_words(game.new().play("a1")) == "Black (player 2)"
    assert ref.next_words() == "White (player 1) to play."


def test_a_mill_says_who_made_it_and_whose_piece_comes_off():
    t = Table("nine-mens-morris", "colour")
    v = t.play("a1", "a7", "d1", "b6", "g1")
    assert v.message.endswith("White made a mill! Take one black piece off.")
    assert set(v.to_remove) == {"a7", "b6"}
    # the same board seen again: still waiting for the removal, in the same words
    again = t.show(t.ref.state)
    assert again.kind == R.WAITING_REMOVAL and again.message == "White made a mill! Take one black piece off."
    assert again.steps == () and again.undone == () and again.points == ()


def test_an_unchanged_board_carries_nothing():
    t = Table("tapatan", "colour")
    v = t.show(t.ref.state)
    assert v.kind == R.UNCHANGED and v.steps == () and v.undone == () and v.points == () and v.to_remove == ()


# -- the merged referee: the words for unread spots, the hold times ----------------------------------
# Survivors of the referee's run on the merged code (docs/testing.md).


def test_unread_spots_are_named_grouped_by_the_readers_note():
    words = R.Referee._unread_words(["a1", "a4", "a7"], {"a1": "a fault", "a7": "a fault"})
    assert words == "a1, a7: a fault; a4: unread"


def test_unread_spots_past_six_are_cut_short_with_an_ellipsis():
    six = ["a1", "a4", "a7", "b2", "b4", "b6"]
    notes = {s: "dim" for s in six + ["c3"]}
    assert R.Referee._unread_words(six, notes) == "a1, a4, a7, b2, b4, b6: dim"
    assert R.Referee._unread_words(six + ["c3"], notes) == "a1, a4, a7, b2, b4, b6...: dim"


def test_an_unclear_board_names_the_unread_spot_and_at_most_four_doubted_ones():
    ref = R.Referee("nine-mens-morris")
    words = ref._unclear_words(["a1", "b2", "b4", "b6", "c3", "c4"], {"a1": "dim"})
    assert words == "I can't read a1: dim; nor b2, b4, b6, c3 clearly. Nothing changed yet."
    assert ref._unclear_words(["a1"], {"a1": "dim"}) == "I can't read a1: dim. Nothing changed yet."


@pytest.mark.parametrize("hold", [0, 0.5, 600])
def test_hold_times_from_zero_to_ten_minutes_are_accepted(hold):
    ref = R.Referee("nine-mens-morris", takeback_hold_s=hold, doubt_hold_s=hold)
    assert ref.takeback_hold_s == hold and ref.doubt_hold_s == hold


@pytest.mark.parametrize("hold", [-0.1, 600.1, float("nan")])
def test_hold_times_outside_zero_to_ten_minutes_are_refused(hold):
    with pytest.raises(ValueError, match="takeback_hold_s must be a number of seconds from 0 to 600"):
        R.Referee("nine-mens-morris", takeback_hold_s=hold)


def test_the_first_candidate_is_chosen_by_index_zero_and_a_wrong_choice_lists_them_all():
    t = Table("nine-mens-morris", "occupancy")
    v = t.show(t.after("a1", "g7"))
    listed = "; ".join(" ".join(c) for c in v.candidates)
    with pytest.raises(ValueError) as info:
        t.ref.choose(("d2", "d6"))
    assert str(info.value) == f"d2 d6 is not one of the candidates ({listed})"
    done = t.ref.choose(0)
    assert done.accepted and done.steps == v.candidates[0]


def test_a_bad_doubt_hold_is_refused_by_its_own_name():
    with pytest.raises(ValueError, match="^doubt_hold_s must be a number of seconds from 0 to 600"):
        R.Referee("nine-mens-morris", doubt_hold_s=-1)


def test_a_take_back_of_more_than_one_turn_says_how_many_turns():
    from test_referee_door import NMM, Table as DoorTable

    t = DoorTable(NMM, "colour", "a1", "g7", "d1", "a7", "b2", "f6", "d2", "d6")
    v = t.show(t.ref._states[5], t=10.0)  # three turns back: f6, d2 and d6
    assert v.kind == R.TAKEBACK_PENDING
    assert "Take back 3 steps? That is 3 turns: press the confirm button" in v.message


def test_a_cleared_board_leaves_the_referee_waiting_on_a_board_to_put_right():
    from test_referee_door import NMM, Table as DoorTable

    t = DoorTable(NMM, "colour", "a1", "a7", "d1", "g7", "b2", "f6")
    assert t.show({}, t=10.0).kind == R.CLEARED
    assert t.ref.waiting_for == R.ILLEGAL, "the game waits until the pieces are back"


def test_a_drawn_game_is_announced_with_its_reason_in_plain_words():
    import random

    import engine

    game = engine.load("nine-mens-morris", move_cap=20)
    s, rng = game.new(), random.Random(1)
    while s.result is None:
        s = s.play(rng.choice(s.legal_steps()))
    assert s.result.draw
    ref = R.Referee(game, "colour", state=s)
    assert ref.next_words() == f"The game is a draw: {R.plain(s.result.reason)}."
    assert ref.next_words() == "The game is a draw: 20 moves without a capture."
