"""Rulebook-driven tests for Tableaux, basic and advanced (ruling TB-1), and how the companion
reads a play off the board when chips stand two high.

Notation: a play is the number of chips taken, ``3``; the companion records the spots a play left
empty as well, ``3:a1,d4``. Calls: ``chips=30``, ``draw=5``, ``timeout``, ``next-round``.
"""

import pytest

import engine
from engine.observation import OCCUPIED
from helpers import legal, play_all, reason_of


def occupancy(state, gone=()):
    """The board as a sensor grid sees it after the spots in ``gone`` were emptied."""
    spots = state.rules.spots
    pos = state.position()
    return tuple(OCCUPIED if s in pos and s not in gone else None for s in spots)


# ---------------------------------------------------------------------------------------- basic
def test_basic_starts_with_a_chip_on_every_spot():
    s = engine.load("tableaux").new()
    assert len(s.position()) == 25 and s.left == 25 and s.phase == "taking"
    assert legal(s) == {"1", "2", "3"} and s.time_limit is None and s.calls() == ()


def test_a_play_takes_one_to_three_chips():
    s = engine.load("tableaux").new()
    assert "1 to 3" in reason_of(s, "4")
    assert "at least one" in reason_of(s, "0")
    s = s.play("3")
    assert s.left == 22 and s.to_move == 2 and len(s.position()) == 22 and s.captures() == {1: 3, 2: 0}


def test_whoever_takes_the_last_chip_loses():  # TB-1
    s = play_all("tableaux", ["3"] * 8)  # 24 taken, one left, player 1 to take it
    assert s.left == 1 and s.to_move == 1 and legal(s) == {"1"}
    s = s.play("1")
    assert s.result.winner == 2 and "last chip" in s.result.reason


def test_a_play_may_name_the_spots_it_emptied():
    s = engine.load("tableaux").new().play("2:a1,d4")
    assert "a1" not in s.position() and "d4" not in s.position() and s.left == 23
    assert "already empty" in reason_of(s, "1:a1")
    assert "at least 2" in reason_of(s, "1:b2,d2")
    assert "cannot leave only" in reason_of(s, "3:b2")  # no chip is stacked: three chips empty three spots


def test_basic_has_no_clock_and_no_set_up():
    s = engine.load("tableaux").new()
    assert "no clock" in reason_of(s, "timeout")
    assert "advanced play" in reason_of(s, "chips=30")


# ------------------------------------------------------------------------------------ advanced
def test_advanced_round_opens_with_the_chip_count_then_the_draw_size():  # TB-1
    s = engine.load("tableaux", advanced=True).new()
    assert s.phase == "set-up" and s.to_move == 1 and len(s.legal_steps()) == 24  # chips=25 .. chips=48
    assert "chips in play" in reason_of(s, "3")  # no play before the round is set up
    s = s.play("chips=30")
    assert s.to_move == 2 and legal(s) == {f"draw={n}" for n in range(3, 10)}
    assert "48" in reason_of(engine.load("tableaux", advanced=True).new(), "chips=49")
    s = s.play("draw=5")
    assert s.phase == "taking" and s.to_move == 1 and legal(s) == {"1", "2", "3", "4", "5"}
    assert s.round.left == 30 and s.round.stacked == 5 and len(s.position()) == 25


def test_advanced_clocks_ten_seconds_then_five():  # TB-1
    s = play_all(engine.load("tableaux", advanced=True), ["chips=25", "draw=3"])
    assert s.time_limit == 10 and [str(c) for c in s.calls()] == ["timeout"]
    s = s.play("2")
    assert s.time_limit == 5


def test_a_timeout_ends_the_round_and_scores_the_greater_pile():  # TB-1 forfeit scoring
    s = play_all(engine.load("tableaux", advanced=True), ["chips=30", "draw=5", "5", "2", "timeout"])
    # player 1 took 5 and ran out of time; player 2 took 2; 23 chips are left on the board
    assert s.phase == "round-over"
    assert s.scores == (0, 2 + max(23, 5))


def test_a_last_chip_round_scores_the_winners_chips():  # TB-1 tally
    s = play_all(engine.load("tableaux", advanced=True), ["chips=25", "draw=9"] + ["9", "9", "6", "1"])
    assert s.phase == "round-over" and s.round.result.winner == 1  # player 2 took the last chip
    assert s.scores == (9 + 6, 0)


def test_rounds_go_on_to_fifty_taking_turns_to_start():
    g = engine.load("tableaux", advanced=True)
    s = play_all(g, ["chips=25", "draw=9", "9", "9", "6", "1", "next-round"])
    assert s.round_no == 2 and s.to_move == 2 and s.phase == "set-up"  # player 2 names the chips now
    # round 2: player 2 takes 9 three times, player 1 twice and then the last 3 chips
    s = play_all(g, ["chips=48", "draw=9", "9", "9", "9", "9", "9", "3"], state=s)
    assert s.phase == "round-over" and s.scores == (15, 27)
    while s.result is None:
        if s.phase == "round-over":
            s = s.play("next-round")
        elif s.phase == "set-up":
            s = s.play(s.legal_steps()[-1])
        else:
            s = s.play(s.legal_steps()[-1] if s.round.left > 10 else s.legal_steps()[0])
    assert max(s.scores) >= 50 and "50" in s.result.reason


# --------------------------------------------------------------------------------- the camera
def test_without_stacks_the_emptied_spots_give_the_count():
    s = engine.load("tableaux").new()
    ex = s.rules.explainer("occupancy")
    found = ex.explain(s, occupancy(s, ("a1", "d4")), {}, 1)
    assert [str(e.steps[0]) for e in found] == ["2:a1,d4"]
    assert found[0].state.position() == {p: v for p, v in s.position().items() if p not in ("a1", "d4")}


def test_with_stacks_several_counts_fit_and_the_players_say_which():
    g = engine.load("tableaux", advanced=True)
    s = play_all(g, ["chips=30", "draw=5"])
    ex = g.rules.explainer("colour")
    found = ex.explain(s, occupancy(s, ("a1",)), {}, 1)
    assert [e.steps[0].count for e in found] == [1, 2, 3, 4, 5]  # a single chip, or a stack, and more
    assert all(e.steps[0].path == ("a1",) for e in found)


def test_chips_do_not_come_back():
    s = engine.load("tableaux").new().play("1:a1")
    ex = s.rules.explainer("occupancy")
    key = occupancy(engine.load("tableaux").new())
    assert ex.explain(s, key, {}, 1) == []
    assert "do not come back" in ex.reason(s, key)


def test_the_next_round_is_seen_when_every_spot_is_filled_again():
    g = engine.load("tableaux", advanced=True)
    s = play_all(g, ["chips=25", "draw=9", "9", "9", "6", "1"])
    ex = g.rules.explainer("occupancy")
    full = tuple(OCCUPIED for _ in s.rules.spots)
    found = ex.explain(s, full, {}, 1)
    assert [str(e.steps[0]) for e in found] == ["next-round"]


def test_advanced_options_need_advanced_play():
    with pytest.raises(engine.BadOption):
        engine.load("tableaux", target=40)
    assert engine.load("tableaux", advanced=True, target=40).rules.target == 40
