"""Rulebook-driven tests for the Men's Morris games (9, 7, 6, 5 and 3 men).

Every position is reached by legal play from the start (see helpers.play_all). The scenarios are
worked out by hand on the board of boards.md section 1; comments say why each step is harmless or
what it sets up. Where rulings.md settles a question the ruling id is cited.
"""

import pytest

import engine
from helpers import (CORNER_DIAGONALS, MORRIS9_LINES, MORRIS9_POINTS, interleave, legal, owners,
                     play_all, points_of, reason_of)

NMM = "nine-mens-morris"

# A full 9MM placement with no line for either side: player 1 holds the outer corners, the middle
# square's midpoints and c3; player 2 holds the outer midpoints, the middle corners and e5.
QUIET_P1 = ["a1", "g1", "g7", "a7", "d2", "f4", "d6", "b4", "c3"]
QUIET_P2 = ["d1", "g4", "d7", "a4", "b2", "f2", "f6", "b6", "e5"]
QUIET_FILL = interleave(QUIET_P1, QUIET_P2)

# Player 2 builds three mills while placing (b6-d6-f6, b2-d2-f2, c5-d5-e5) and takes three of
# player 1's men; player 1 starts moving with six men: a1 g1 g7 c3 e4 c4.
HEAVY_PLACEMENT = [
    "a1", "b6", "g1", "d6", "g7", "f6", "xg7",
    "a7", "b2", "c3", "d2", "e3", "f2", "xe3",
    "e4", "c5", "g7", "d5", "c4", "e5", "xa7",
]
# Player 1 shuffles c3<->d3; player 2 opens its top middle mill with d6-d7 and closes it again.
SHUFFLE_AND_REFORM = ["c3-d3", "d6-d7", "d3-c3", "d7-d6"]


def heavy_after_removals(removed):
    """The heavy scenario after len(removed) re-formings of b6-d6-f6, each taking ``removed[i]``."""
    steps = list(HEAVY_PLACEMENT)
    for point in removed:
        steps += SHUFFLE_AND_REFORM + ["x" + point]
    return play_all(NMM, steps)


# ---------------------------------------------------------------------------------------- 9MM
def test_nine_placement_alternates_between_players():
    s = engine.load(NMM).new()
    assert (s.phase, s.to_move, s.in_hand(1), s.in_hand(2)) == ("placement", 1, 9, 9)
    s = s.play("d2")
    assert s.to_move == 2 and owners(s) == {"d2": 1} and s.in_hand(1) == 8
    s = s.play("a1")
    assert s.to_move == 1 and owners(s) == {"d2": 1, "a1": 2} and s.in_hand(2) == 8
    s = play_all(NMM, QUIET_FILL)
    assert s.phase == "movement" and s.to_move == 1
    assert s.on_board(1) == s.on_board(2) == 9 and s.in_hand(1) == s.in_hand(2) == 0


def test_nine_placement_on_an_occupied_point_is_refused():
    s = play_all(NMM, ["d2"])
    assert "occupied" in reason_of(s, "d2")


def test_nine_no_sliding_while_men_remain_in_hand():
    s = play_all(NMM, ["d2", "a1"])
    assert "in hand" in reason_of(s, "d2-d3")


def test_nine_mill_gives_a_removal_step_to_the_same_player():
    s = play_all(NMM, ["a1", "b2", "d1", "d2", "g1"])  # a1-d1-g1 is a mill
    assert s.phase == "removal" and s.to_move == 1
    assert legal(s) == {"xb2", "xd2"}
    assert "remove" in reason_of(s, "a7")  # a placement cannot skip the removal
    s = s.play("xb2")
    assert s.phase == "placement" and s.to_move == 2
    assert "b2" not in owners(s) and s.captured_by(1) == 1
    assert s.on_board(2) == 1 and s.in_hand(2) == 7


def test_nine_removal_without_a_mill_is_refused():
    s = play_all(NMM, ["a1", "b2"])
    assert "remove" in reason_of(s, "xb2")


def test_nine_men_in_a_mill_are_protected():  # ruling G-4
    s = play_all(NMM, ["a1", "b6", "d1", "d6", "c3", "f6", "xc3", "e4", "e3", "g1"])
    assert s.phase == "removal" and s.to_move == 1
    assert legal(s) == {"xe3"}  # b6 d6 f6 stand in a mill; e3 does not
    assert "protected" in reason_of(s, "xb6")


def test_nine_mill_men_may_go_when_every_man_is_in_a_mill():  # ruling G-4
    s = play_all(NMM, ["a1", "b6", "d1", "d6", "e4", "f6", "xe4", "g1"])
    assert s.phase == "removal" and s.to_move == 1
    assert legal(s) == {"xb6", "xd6", "xf6"}
    s = s.play("xd6")
    assert "d6" not in owners(s)


def test_nine_two_mills_at_once_still_remove_one_man():  # ruling G-4
    s = play_all(NMM, ["a1", "b6", "d1", "c4", "g4", "e3", "g7", "d5", "g1"])  # g1 closes two mills
    assert s.phase == "removal" and s.to_move == 1
    s = s.play("xb6")
    assert s.phase == "placement" and s.to_move == 2
    assert s.captured_by(1) == 1


@pytest.mark.parametrize("line", MORRIS9_LINES, ids="-".join)
def test_nine_every_board_line_is_a_mill(line):
    others = [p for p in MORRIS9_POINTS if p not in line][:2]
    s = play_all(NMM, [line[0], others[0], line[1], others[1], line[2]])
    assert s.phase == "removal" and s.to_move == 1


@pytest.mark.parametrize("line", CORNER_DIAGONALS, ids="-".join)
def test_nine_corner_diagonals_are_not_mills(line):
    others = [p for p in MORRIS9_POINTS if p not in line][:2]
    s = play_all(NMM, [line[0], others[0], line[1], others[1], line[2]])
    assert s.phase == "placement" and s.to_move == 2


def test_nine_slides_follow_the_drawn_lines_only():
    s = play_all(NMM, QUIET_FILL)
    # Player 1's outer corners are boxed in; the others may step to an empty neighbour only.
    assert legal(s) == {"d2-d3", "f4-e4", "d6-d5", "b4-c4", "c3-d3", "c3-c4"}
    assert "next to" in reason_of(s, "c3-e3")  # two points along the inner square
    assert "next to" in reason_of(s, "c3-e4")
    reason_of(s, "a1-b2")  # no corner diagonals on this board
    reason_of(s, "d2-d4")  # d4 is not a point of the three-square board
    assert "occupied" in reason_of(s, "d2-d1")
    assert "opponent" in reason_of(s, "e5-e4")
    s = s.play("c3-c4")
    assert legal(s) == {"e5-e4", "e5-d5"}


def test_nine_flying_starts_at_exactly_three_men():  # ruling G-6
    four = heavy_after_removals(["a1", "g1"])
    assert four.on_board(1) == 4 and four.to_move == 1 and four.phase == "movement"
    assert "fly" in reason_of(four, "c3-a1")
    three = heavy_after_removals(["a1", "g1", "g7"])
    assert three.on_board(1) == 3 and three.to_move == 1
    assert points_of(three, 1) == {"c3", "e4", "c4"}
    moves = legal(three)
    empties = {p for p in MORRIS9_POINTS if p not in owners(three)}
    assert moves == {f"{a}-{b}" for a in ("c3", "e4", "c4") for b in empties}
    s = three.play("c3-a1")  # a flight across the board
    assert owners(s)["a1"] == 1 and s.to_move == 2
    # Player 2 still has nine men and may only slide.
    assert "next to" in reason_of(s, "d6-a7")
    assert all(s.play(m) for m in legal(s))  # every listed move is playable
    assert not any(m.startswith("d6-") and m != "d6-d7" for m in legal(s))


def test_nine_player_left_with_two_men_loses():
    three = heavy_after_removals(["a1", "g1", "g7"])
    s = play_all(NMM, ["c3-a1", "d6-d7", "a1-c3", "d7-d6"], state=three)
    assert s.phase == "removal" and s.to_move == 2
    s = s.play("xe4")
    assert s.result is not None and s.phase == "over"
    assert s.result.winner == 2 and not s.result.draw
    assert "2" in s.result.reason
    assert s.legal_steps() == ()


def test_nine_player_who_cannot_move_loses():  # ruling G-2 ("unable to move ... lost")
    p1 = ["g1", "g4", "d7", "a7", "a4", "b2", "f2", "f6", "b6"]
    p2 = ["a1", "g7", "f4", "b4", "d1", "d2", "d6", "c4", "e4"]
    s = play_all(NMM, interleave(p1, p2))
    assert s.result is not None
    assert s.result.winner == 2 and not s.result.draw
    assert "move" in s.result.reason.lower()


def test_nine_third_repetition_is_a_draw():  # ruling G-3
    s = play_all(NMM, QUIET_FILL)
    cycle = ["c3-d3", "e5-e4", "d3-c3", "e4-e5"]
    s = play_all(NMM, cycle, state=s)
    assert s.result is None  # second time this position comes up
    s = play_all(NMM, cycle[:3], state=s)
    assert s.result is None
    s = s.play(cycle[3])  # third time, player 1 to move again
    assert s.result is not None and s.result.draw and s.result.winner is None
    reason = s.result.reason.lower()
    assert "third" in reason or "repet" in reason or "three" in reason


def test_nine_move_cap_draws():  # ruling G-3
    # The cap is 7; no stretch of placements without a capture is longer than six here, and the
    # count restarts at the capture that follows the first re-formed mill.
    steps = HEAVY_PLACEMENT + SHUFFLE_AND_REFORM + ["xa1"]
    quiet = ["g1-d1", "d6-d7", "d1-a1", "d2-d3", "a1-a4", "b2-d2", "a4-a7"]
    s = play_all(NMM, steps + quiet[:6], move_cap=7)
    assert s.result is None
    s = s.play(quiet[6])
    assert s.result is not None and s.result.draw and s.result.winner is None
    assert "capture" in s.result.reason.lower() or "7" in s.result.reason


def test_nine_reformed_mill_removes_again():  # ruling G-5: 9MM says nothing, so it removes
    s = play_all(NMM, HEAVY_PLACEMENT + ["c3-d3", "d6-d7"])
    assert s.phase == "movement"  # opening the mill removes nothing
    s = play_all(NMM, ["d3-c3", "d7-d6"], state=s)
    assert s.phase == "removal" and s.to_move == 2
    s = play_all(NMM, ["xa1", "c3-d3", "d6-d7", "d3-c3", "d7-d6"], state=s)
    assert s.phase == "removal" and s.to_move == 2  # and again on the next round trip


# ---------------------------------------------------------------------------------------- 7MM
SMM = "seven-mens-morris"
# Player 1 makes b2-d2-f2 while placing (taking a1); the other 12 men are harmless.
SEVEN_A = ["b2", "a1", "d2", "g1", "f2", "xa1", "a1", "a7", "d7", "g7", "a4", "b6", "g4", "f6", "d6"]
# Player 1 makes a1-d1-g1 while placing (taking a7) and also holds b2 and f2, so d1<->d2 swaps
# between the outer and the middle bottom rows.
SEVEN_B = ["a1", "a7", "d1", "g7", "g1", "xa7", "a7", "b2", "b6", "f2", "f6", "a4", "g4", "d4", "f4"]


def test_seven_centre_cross_is_not_a_mill():
    s = play_all(SMM, ["b4", "a1", "d4", "g7", "f4"])  # b4-d4-f4 runs through the centre
    assert s.phase == "placement" and s.to_move == 2
    s = play_all(SMM, ["d2", "a1", "d4", "g7", "d6"])  # so does d2-d4-d6
    assert s.phase == "placement" and s.to_move == 2


def test_seven_square_side_is_a_mill():
    s = play_all(SMM, ["b2", "a1", "d2", "g7", "f2"])
    assert s.phase == "removal" and s.to_move == 1


def test_seven_centre_point_is_on_the_board():
    s = play_all(SMM, SEVEN_A)
    assert s.phase == "movement" and s.to_move == 1
    assert "d2-d4" in legal(s)


def test_seven_reforming_on_the_next_move_removes_nothing():  # ruling G-5
    s = play_all(SMM, SEVEN_A + ["d2-d4", "a4-b4", "d4-d2"])
    assert points_of(s, 1) >= {"b2", "d2", "f2"}
    assert s.phase == "movement" and s.to_move == 2


def test_seven_reforming_after_a_move_that_made_another_mill_removes():  # ruling G-5
    s = play_all(SMM, SEVEN_B + ["d1-d2"])  # leaves a1-d1-g1, completes b2-d2-f2
    assert s.phase == "removal" and s.to_move == 1
    s = play_all(SMM, ["xg4", "f4-g4", "d2-d1"], state=s)  # back into a1-d1-g1
    assert s.phase == "removal" and s.to_move == 1


def test_seven_no_flying_by_default():  # ruling G-6 ("flying is optional": off by default)
    s = play_all(SMM, SEVEN_B + ["d1-d2", "xg4", "f4-g4", "d2-d1", "xg4", "f6-f4", "d1-d2", "xf4"])
    assert s.to_move == 2 and s.on_board(2) == 3 and s.phase == "movement"
    assert legal(s) == {"a7-d7", "b6-b4", "b6-d6", "g7-d7", "g7-g4"}
    assert "fly" in reason_of(s, "b6-d1")


def test_seven_flying_with_the_option():  # ruling G-6
    s = play_all(SMM, SEVEN_B + ["d1-d2", "xg4", "f4-g4", "d2-d1", "xg4", "f6-f4", "d1-d2", "xf4"],
                 flying=True)
    assert s.to_move == 2 and s.on_board(2) == 3
    assert "b6-d1" in legal(s)
    s = s.play("b6-d1")
    assert owners(s)["d1"] == 2
    # Player 1 has six men and still slides.
    assert "fly" in reason_of(s, "a4-d6")


def test_seven_option_is_checked():
    with pytest.raises(engine.BadOption):
        engine.load(SMM, flying="sometimes")
    with pytest.raises(engine.BadOption):
        engine.load(NMM, flying=True)  # 9MM always flies at three: no such option


# ----------------------------------------------------------------------------------- 6MM / 5MM
SIX = "six-mens-morris"
FIVE = "five-mens-morris"
# Player 1 builds a1-d1-g1 and g1-g4-g7 while placing and takes a4 and a7; player 2 keeps the
# four middle corners. Player 1 then has a1 d1 g1 g4 g7 d7.
SIX_PLACEMENT = ["a1", "a4", "d1", "a7", "g1", "xa4", "b2", "g4", "f2", "g7", "xa7", "f6", "d7", "b6"]
FIVE_PLACEMENT = ["a1", "a4", "d1", "a7", "g1", "xa4", "b2", "g4", "f2", "g7", "xa7", "f6"]


def test_six_no_flying_at_three():
    s = play_all(SIX, SIX_PLACEMENT + ["a1-a4", "b2-d2", "a4-a7"])  # a7-d7-g7 is a new mill
    assert s.phase == "removal" and s.to_move == 1
    s = s.play("xd2")
    assert s.on_board(2) == 3 and s.to_move == 2 and s.phase == "movement"
    assert legal(s) == {"b6-b4", "b6-d6", "f2-d2", "f2-f4", "f6-d6", "f6-f4"}
    assert "fly" in reason_of(s, "b6-a1")


def test_five_no_flying_at_three():
    s = play_all(FIVE, FIVE_PLACEMENT)
    assert s.phase == "movement" and s.on_board(2) == 3 and s.in_hand(2) == 0
    s = s.play("a1-a4")
    assert legal(s) == {"b2-b4", "b2-d2", "f2-d2", "f2-f4", "f6-d6", "f6-f4"}
    assert "fly" in reason_of(s, "b2-a7")


@pytest.mark.parametrize("game,placement", [(SIX, SIX_PLACEMENT), (FIVE, FIVE_PLACEMENT)])
def test_six_five_reformed_mill_on_the_next_move_removes_nothing(game, placement):  # ruling G-5
    s = play_all(game, placement + ["a1-a4", "b2-d2", "a4-a1"])
    assert points_of(s, 1) >= {"a1", "d1", "g1"}
    assert s.phase == "movement" and s.to_move == 2


def test_six_reformed_mill_after_another_move_removes():  # ruling G-5 ("on the next move" only)
    s = play_all(SIX, SIX_PLACEMENT + ["a1-a4", "b2-d2", "d7-d6", "d2-b2", "a4-a1"])
    assert s.phase == "removal" and s.to_move == 1


# ---------------------------------------------------------------------------------------- 3MM
TMM = "three-mens-morris"


def test_three_men_fly_after_placement():  # ruling X-1
    s = play_all(TMM, ["a1", "d4", "g1", "d1", "a7", "a4"])
    assert s.phase == "movement" and s.to_move == 1
    assert legal(s) == {f"{a}-{b}" for a in ("a1", "g1", "a7") for b in ("g4", "g7", "d7")}
    s = s.play("a1-g4")  # not a neighbour of a1: a flight
    assert owners(s)["g4"] == 1


def test_three_men_no_moving_during_placement():
    s = play_all(TMM, ["a1", "d4"])
    assert "in hand" in reason_of(s, "a1-g7")


def test_three_men_first_line_in_movement_wins():
    s = play_all(TMM, ["a1", "d4", "g1", "d1", "a7", "a4", "a1-g4"])
    assert s.result is None
    s = s.play("a4-d7")  # d1-d4-d7
    assert s.result is not None and s.result.winner == 2 and not s.result.draw
    assert s.phase == "over" and s.legal_steps() == ()


def test_three_men_line_during_placement_wins():  # ruling X-2
    s = play_all(TMM, ["a1", "d4", "d1", "a4", "g1"])
    assert s.result is not None and s.result.winner == 1 and not s.result.draw
    assert s.phase == "over"


def test_three_men_diagonal_counts():
    s = play_all(TMM, ["a1", "d1", "d4", "g1", "g7"])
    assert s.result is not None and s.result.winner == 1
