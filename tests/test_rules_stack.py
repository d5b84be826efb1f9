"""Rulebook-driven tests for Tresillo Stack (rulings T-1, T-4, G-2, G-3, G-4).

Stacks are written bottom first: ``a4: (1, 2, 1)`` is a white chip, a black one on it, and a white
one on top. Colours: 1 white, 2 black, 3 red, 4 blue. A Stack game is a match of rounds to 50
points, so ``state.round`` is the round being played.
"""

import random

import pytest

import engine
from helpers import legal, owners, play_all, reason_of

# White builds the five-high stack a1: white, black, white, black, white.
FIVE_HIGH = ["a1", "a1", "a1", "a1", "a1"]
# White makes d1-d2-d3 and may confiscate; a1 is black on white, b2 f2 d6 plain black.
CONFISCATE = ["a1", "a1", "d1", "b2", "g1", "f2", "d2", "d6", "d3"]
# Black makes b6-d6-f6 and keeps a7 outside it; then white makes d1-d2-d3.
PROTECTED = ["d1", "b6", "d2", "d6", "a1", "f6", "xa1", "g1", "a7", "d3"]
# Twelve placements each, then white moves the top chip off f2 (white on black) to d2: the black
# chip uncovered on f2 completes black's g1-f2-e3, so black removes a stack (second priority).
UNCOVER = ["a4", "a7", "d6", "f2", "a7", "a1", "g4", "g4", "g7", "g1", "f2", "d6", "e3", "b4", "b2", "e3", "d5",
           "a4", "g4", "g7", "e4", "e5", "a4", "d2", "f2-d2"]


def rnd(state):
    return state.round


def stacks(state):
    return rnd(state).stacks_by_spot()


# ----------------------------------------------------------------------------------- stacking
def test_each_colour_has_twelve_chips_and_two_to_four_players():  # T-1, T-4
    for players in (2, 3, 4):
        s = engine.load("stack", players=players).new()
        assert [rnd(s).in_reserve(c) for c in range(1, players + 1)] == [12] * players
        assert s.to_move == 1 and len(s.legal_steps()) == 24
    with pytest.raises(engine.BadOption):
        engine.load("stack", players=5)


def test_a_chip_goes_on_an_empty_point_or_on_another_colour():
    s = play_all("stack", ["a1", "a1"])  # black stacks on white
    assert stacks(s) == {"a1": (1, 2)} and owners(s) == {"a1": 2}  # the camera sees the top chip
    assert s.stack("a1") == (engine.Piece(1, "man"), engine.Piece(2, "man"))
    assert "own chip" in reason_of(s.play("d1"), "a1")  # black may not stack on black


def test_a_stack_holds_at_most_five_chips():  # the stack limit of 5
    s = play_all("stack", FIVE_HIGH)
    assert stacks(s) == {"a1": (1, 2, 1, 2, 1)}
    why = reason_of(s, "a1")
    assert "5 chips" in why and "a1" not in legal(s)


def test_turns_go_round_to_the_right():  # T-4
    s = play_all(engine.load("stack", players=3), ["a1", "d1", "g1"])
    assert s.to_move == 1 and {p: pc.owner for p, pc in s.position().items()} == {"a1": 1, "d1": 2, "g1": 3}


# -------------------------------------------------------------------- Tresillo and confiscation
def test_a_tresillo_confiscates_a_whole_stack_topped_by_an_opponent():  # T-4
    s = play_all("stack", CONFISCATE)
    assert s.phase == "removal" and s.to_move == 1
    assert set(s.removable()) == {"a1", "b2", "f2", "d6"}
    assert "topped by white" in reason_of(s, "xg1")  # white's own stack
    s = s.play("xa1")
    assert "a1" not in stacks(s) and s.to_move == 2
    # white gets its own chip back to play again, and keeps the black one
    assert rnd(s).in_reserve(1) == 12 - 5 + 1 and rnd(s).captures()[1] == 1
    assert "1 chip back to reserve, 1 kept" in s.events[0]


def test_stacks_in_a_tresillo_are_protected_unless_no_other_can_be_taken():  # T-4
    s = play_all("stack", PROTECTED)
    assert s.phase == "removal" and s.removable() == ("a7",)
    assert "protected" in reason_of(s, "xd6")


def test_a_tresillo_is_counted_by_the_top_chips():
    # white stacks on black's d1 and g1, black covers white's a1, black also holds f6
    s = play_all("stack", ["a1", "d1", "d1", "g1", "g1", "a1", "b6", "f6"])
    assert s.phase == "placement" and owners(s)["a1"] == 2  # a1 is black on top: no Tresillo for white
    s = s.play("a1")  # white covers a1 again: a1-d1-g1 all white on top
    assert s.phase == "removal" and s.to_move == 1 and s.removable() == ("f6",)


def test_a_tresillo_with_no_stack_to_take_takes_nothing():
    s = play_all("stack", ["a1", "d1", "d1", "g1", "g1", "a1", "a1"])  # every black chip is covered
    assert s.phase == "placement" and s.to_move == 2
    assert "no stack to take" in s.events[0]


# ------------------------------------------------------------------------------------ moving
def test_chips_move_once_the_reserve_is_empty():
    s = play_all("stack", UNCOVER[:-1])
    r = rnd(s)
    assert r.phase == "movement" and r.in_reserve(1) == 0
    assert all("-" in m for m in legal(s))
    assert "reserve" in reason_of(s, "c3") or "no chip left" in reason_of(s, "c3")


def test_only_the_top_chip_moves_and_what_it_uncovers_shows():  # T-4
    s = play_all("stack", UNCOVER[:-1])
    assert stacks(s)["f2"] == (2, 1)
    s = s.play("f2-d2")
    assert stacks(s)["f2"] == (2,) and stacks(s)["d2"] == (2, 1)
    assert owners(s)["f2"] == 2  # the camera now sees black on f2


def test_uncovering_a_tresillo_gives_its_colour_a_removal_second():
    s = play_all("stack", UNCOVER)
    assert s.phase == "removal" and s.to_move == 2  # black, whose chip was uncovered
    assert "second priority" in s.events[0]
    s = s.play("xd2")  # black takes the stack white just moved onto: its own chip comes back
    assert s.to_move == 2 and rnd(s).in_reserve(2) == 1 and rnd(s).captures()[2] == 1
    assert s.phase == "placement"  # then black's own turn, replaying the chip


def test_a_move_to_a_stack_of_the_movers_colour_is_refused():
    s = play_all("stack", UNCOVER[:-1])
    assert "own chip" in reason_of(s, "a4-a7")  # both topped by white
    assert "not next to" in reason_of(s, "b2-e5")  # white controls seven stacks: no flying
    assert "topped by black" in reason_of(s, "a1-b2")


def test_flying_at_three_stacks():  # T-4
    g = engine.load("stack")
    rng = random.Random(0)
    for seed in range(200):
        rng = random.Random(seed)
        s = g.new()
        while s.result is None and s.phase != "round-over":
            r = rnd(s)
            if r.phase == "movement" and r._flies(r.seat + 1):
                far = [m for m in s.legal_steps() if m.kind == "move" and m.dst not in g.board.neighbours[m.src]]
                assert far, "a colour at three stacks may fly"
                return
            s = s.play(rng.choice(s.legal_steps()))
    pytest.fail("no random round reached three stacks")


# -------------------------------------------------------------------------- end of the round
def test_a_colour_that_cannot_play_loses_its_turn():  # G-2: Stack says so
    g = engine.load("stack")
    for seed in range(60):
        rng = random.Random(seed)
        s = g.new()
        while s.result is None and s.phase != "round-over":
            s = s.play(rng.choice(s.legal_steps()))
            if any("has no step and is skipped" in e for e in s.events):
                assert s.result is None and s.legal_steps()
                return
    pytest.fail("no random round lost a turn")


def test_impasse_once_every_chip_is_played():
    s = play_all("stack", CONFISCATE)
    assert s.calls() == () and "every chip" in reason_of(s.play("xa1"), "impasse")
    s = play_all("stack", UNCOVER[:-1])
    assert [str(c) for c in s.calls()] == ["impasse"] and "impasse" not in legal(s)
    ended = s.play("impasse")
    assert ended.phase == "round-over" and "uncounted" in ended.events[-1]
    r = ended.round
    assert ended.scores == tuple(r.reserve[c] + r.captured[c] for c in range(2))  # board chips not counted


def test_a_round_ends_when_one_colour_tops_every_stack_and_scores_every_chip_held():  # T-4
    g = engine.load("stack")
    rng = random.Random(7)
    s = g.new()
    while s.phase != "round-over":
        s = s.play(rng.choice(s.legal_steps()))
    r = s.round
    assert not any(r.reserve)
    assert "one colour tops every stack" in r.result.reason
    assert len({st[-1] for st in r.stacks if st}) == 1
    held = [r.captured[c] + sum(st.count(c + 1) for st in r.stacks) for c in range(2)]
    assert list(s.scores) == held and sum(held) <= 24


def test_the_match_goes_on_to_fifty_and_the_next_player_starts_each_round():
    g = engine.load("stack", players=3)
    rng = random.Random(3)
    s = g.new()
    firsts = [s.to_move]
    while s.result is None:
        if s.phase == "round-over":
            assert s.legal_steps() == ("next-round",)
            s = s.play("next-round")
            assert s.position() == {}  # the board was cleared
            firsts.append(s.to_move)
        else:
            s = s.play(rng.choice(s.legal_steps()))
    assert len(firsts) >= 2 and firsts == [1, 2, 3, 1, 2, 3, 1, 2, 3][:len(firsts)]
    assert max(s.scores) >= 50 and s.result.winner == s.scores.index(max(s.scores)) + 1


def test_hold_your_man_eliminates_the_player_before_the_winner():
    g = engine.load("stack", players=3, elimination=True, target=20)
    rng = random.Random(2)
    s = g.new()
    while s.result is None:
        before = s.eliminated
        s = s.play(rng.choice(s.legal_steps()))
        if s.eliminated != before:
            out = s.eliminated[-1]
            if s.result is None:
                assert s.scores == (0, 0, 0) and s.phase == "round-over"  # the rest play on from nothing
            assert any("failed to hold" in e for e in s.events)
            assert not s.active[out - 1]
    assert len(s.eliminated) == 2 and s.result.winner not in s.eliminated


# ---------------------------------------------------------------------- two colours, teams
def test_two_players_each_play_two_colours_in_turn():
    g = engine.load("stack", two_colours=True)
    assert g.players == 2 and g.rules.colours == 4
    s = g.new()
    seen = []
    for spot in ("a1", "d1", "g1", "g4"):
        seen.append((s.to_move, s.colour_to_move))
        s = s.play(spot)
    assert seen == [(1, 1), (2, 2), (1, 3), (2, 4)]


def test_with_two_colours_a_player_may_stack_on_their_other_colour():
    s = play_all(engine.load("stack", two_colours=True), ["a1", "d1", "a1"])  # red (player 1) on white
    assert stacks(s)["a1"] == (1, 3)


def test_with_two_colours_only_the_other_players_stacks_are_confiscated():
    # white d1, black a7, red b2, blue b6, white g1, black f2, red d2, blue f6, white a1: a1-d1-g1
    g = engine.load("stack", two_colours=True)
    s = play_all(g, ["d1", "a7", "b2", "b6", "g1", "f2", "d2", "f6", "a1"])
    assert s.phase == "removal" and s.to_move == 1 and s.colour_to_move == 1
    assert set(s.removable()) == {"a7", "f2", "b6", "f6"}  # black and blue: red is player 1's own
    assert "topped by red" in reason_of(s, "xb2")


def test_team_play_partners_may_stack_on_and_confiscate_each_other():
    g = engine.load("stack", teams=True)
    assert g.players == 4 and g.rules.team_of(1) == g.rules.team_of(3) == 1 and g.rules.team_of(2) == 2
    s = play_all(g, ["a1", "d7", "a1"])  # red (white's partner) stacks on white's chip
    assert stacks(s)["a1"] == (1, 3)
    # white d1, black a7, red b2, blue b6, white g1, black f2, red d2, blue f6, white a1: a1-d1-g1
    s = play_all(g, ["d1", "a7", "b2", "b6", "g1", "f2", "d2", "f6", "a1"])
    assert s.phase == "removal" and set(s.removable()) == {"a7", "b2", "b6", "f2", "d2", "f6"}
    s = s.play("xb2")  # "a stack not topped by his colour": a partner's too
    r = rnd(s)
    assert r.in_reserve(3) == 12 - 2 and r.captures()[1] == 1  # not returned to the partner
