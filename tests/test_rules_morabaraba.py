"""Rulebook-driven tests for Morabaraba (12 cows each, board with the four corner diagonals).

Positions come from legal play only. The long scenario below is worked out by hand: player 2
builds six mills while placing, so player 1 starts moving with six cows, and then player 2 opens
and closes its b6-b4-b2 mill (b4<->a4) while player 1 shuffles g7<->d7.
"""

import pytest

import engine
from helpers import MORABARABA_LINES, adjacent, MORRIS9_POINTS, legal, owners, play_all, points_of, reason_of

MB = "morabaraba"

PLACEMENT = [
    "a1", "b2", "g1", "d2", "g7", "f2", "xa1",  # b2-d2-f2
    "a7", "f4", "a1", "f6", "xg7",  # f2-f4-f6
    "e4", "d6", "e5", "b6", "xa7",  # f6-d6-b6
    "d5", "b4", "xa1",  # b6-b4-b2
    "c4", "c3", "g7", "d3", "a7", "e3", "xa7",  # c3-d3-e3
    "a1", "d1", "xa1",  # d1-d2-d3
]
P1_AFTER_PLACEMENT = {"g1", "g7", "e4", "e5", "d5", "c4"}
ROUND_TRIP = ["g7-d7", "b4-a4", "d7-g7", "a4-b4"]  # b6-b4-b2 opened and closed again


def after_round_trips(removed):
    steps = list(PLACEMENT)
    for point in removed:
        steps += ROUND_TRIP + ["x" + point]
    return play_all(MB, steps)


def three_cows():
    s = after_round_trips(["g1", "c4", "d5"])
    assert points_of(s, 1) == {"g7", "e4", "e5"} and s.on_board(2) == 12
    assert s.to_move == 1 and s.phase == "movement"
    return s


def test_start_has_twelve_cows_each_in_hand():
    s = engine.load(MB).new()
    assert (s.phase, s.to_move, s.in_hand(1), s.in_hand(2), owners(s)) == ("placement", 1, 12, 12, {})


def test_placement_scenario_reaches_movement_with_six_cows():
    s = play_all(MB, PLACEMENT)
    assert s.phase == "movement" and s.to_move == 1
    assert points_of(s, 1) == P1_AFTER_PLACEMENT and s.on_board(2) == 12
    assert s.in_hand(1) == s.in_hand(2) == 0
    assert s.captured_by(2) == 6


@pytest.mark.parametrize("line", MORABARABA_LINES, ids="-".join)
def test_all_twenty_lines_are_mills(line):
    others = [p for p in MORRIS9_POINTS if p not in line][:2]
    s = play_all(MB, [line[0], others[0], line[1], others[1], line[2]])
    assert s.phase == "removal" and s.to_move == 1


def test_twenty_lines_in_total():
    assert len(set(map(frozenset, MORABARABA_LINES))) == 20


def test_cows_slide_along_the_diagonals():
    s = play_all(MB, PLACEMENT)
    s = s.play("g7-d7")
    assert "b6-a7" in legal(s)  # a corner diagonal is a path on this board
    assert "b2-a1" in legal(s)


def test_cow_in_a_mill_is_protected():  # rulebook; ruling G-4
    s = play_all(MB, ["a1", "b6", "b2", "d6", "e4", "f6", "xe4", "e4", "e3", "c3"])  # a1-b2-c3
    assert s.phase == "removal" and s.to_move == 1
    assert legal(s) == {"xe3"}
    assert "protected" in reason_of(s, "xd6")


def test_two_mills_with_one_cow_shoot_once():  # ruling G-4
    s = play_all(MB, ["a1", "g7", "c3", "e4", "d2", "e5", "f2", "a4", "b2"])
    # b2 closes the diagonal a1-b2-c3 and the row b2-d2-f2 together
    assert s.phase == "removal" and s.to_move == 1
    s = s.play("xg7")
    assert s.phase == "placement" and s.to_move == 2 and s.captured_by(1) == 1


def test_out_and_back_shoots_each_time():  # ruling G-5 (Morabaraba)
    s = play_all(MB, PLACEMENT + ROUND_TRIP)
    assert s.phase == "removal" and s.to_move == 2
    s = play_all(MB, ["xg1"] + ROUND_TRIP, state=s)
    assert s.phase == "removal" and s.to_move == 2
    s = play_all(MB, ["xc4"] + ROUND_TRIP, state=s)
    assert s.phase == "removal" and s.to_move == 2


def test_breaking_a_mill_to_form_another_then_reforming_it_shoots_nothing():  # ruling G-5
    s = play_all(MB, PLACEMENT + ["g7-d7", "d1-a1"])  # leaves d1-d2-d3, closes a1-b2-c3
    assert s.phase == "removal" and s.to_move == 2
    s = play_all(MB, ["xc4", "d7-g7", "a1-d1"], state=s)  # d1-d2-d3 again at once
    assert points_of(s, 2) >= {"d1", "d2", "d3"}
    assert s.phase == "movement" and s.to_move == 1
    assert s.captured_by(2) == 7


def test_flying_at_three_only_for_that_player():  # ruling M-1
    s = three_cows()
    moves = legal(s)
    empties = {p for p in MORRIS9_POINTS if p not in owners(s)}
    assert moves == {f"{a}-{b}" for a in ("g7", "e4", "e5") for b in empties}
    s = s.play("e4-a1")
    assert owners(s)["a1"] == 1
    assert "fly" in reason_of(s, "b4-c5")  # player 2 has twelve cows and must slide
    assert legal(s) and all(adjacent(MORABARABA_LINES, *m.split("-")) for m in legal(s))


def test_no_flying_with_four_cows():  # ruling M-1
    s = after_round_trips(["g1", "c4"])
    assert s.on_board(1) == 4 and s.to_move == 1
    assert "fly" in reason_of(s, "g7-a1")


def test_ten_moves_without_a_shot_draw_when_a_player_has_three():  # ruling M-1
    s = three_cows()
    quiet = ["g7-g1", "b4-a4", "g1-g7", "a4-a7", "g7-g1", "a7-d7", "g1-g7", "d7-a7", "g7-g1", "a7-a4"]
    s = play_all(MB, quiet[:9], state=s)
    assert s.result is None
    s = s.play(quiet[9])
    assert s.result is not None and s.result.draw and s.result.winner is None


def test_ten_quiet_moves_do_not_draw_when_nobody_has_three():  # ruling M-1
    s = play_all(MB, PLACEMENT)
    quiet = ["g1-g4", "b4-a4", "g4-g1", "a4-a7", "g1-g4", "a7-d7", "g4-g1", "d7-a7", "g1-g4", "a7-a4"]
    s = play_all(MB, quiet, state=s)
    assert s.result is None
    s = s.play("g4-g1")
    assert s.result is None


def test_no_draw_by_repetition_in_morabaraba():  # ruling G-3: its own ten-move end instead
    s = play_all(MB, PLACEMENT)
    s = play_all(MB, ["g1-g4", "b4-a4", "g4-g1"], state=s)
    cycle = ["a4-a7", "g1-g4", "a7-a4", "g4-g1"]  # back to the same position, player 2 to move
    s = play_all(MB, cycle * 3, state=s)
    assert s.result is None


def test_reduced_to_two_cows_loses():
    s = play_all(MB, ["g7-g1", "b4-a4", "g1-g7", "a4-b4"], state=three_cows())
    assert s.phase == "removal" and s.to_move == 2
    s = s.play("xe4")
    assert s.result is not None and s.result.winner == 2 and not s.result.draw
    assert s.phase == "over"
