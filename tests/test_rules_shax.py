"""Rulebook-driven tests for Shax (12 each on the three-square board) and Shax-8 (8 each on the
two-square board), rulings S-1 to S-3.

Two full placements are used. In JARE_FILL player 2 makes the first jare (c3-d3-e3, at its
third placement) and player 1 makes one later (c5-d5-e5); no other row is ever completed. In
QUIET_FILL nobody makes a jare: every square alternates owners round its ring.
"""

import engine
from helpers import MORRIS9_POINTS, interleave, legal, owners, play_all, points_of, reason_of

SHAX = "shax"
SHAX8 = "shax-8"

JARE_P1 = ["a1", "g1", "g7", "a7", "d2", "f4", "d6", "b4", "e5", "d5", "c5", "c4"]
JARE_P2 = ["c3", "d3", "e3", "d1", "g4", "d7", "a4", "b2", "f2", "f6", "b6", "e4"]
JARE_FILL = interleave(JARE_P1, JARE_P2)  # P2's jare at step 6, P1's at step 21
# The same final position, but player 1 completes c5-d5-e5 (step 5) before player 2's c3-d3-e3.
P1_FIRST_P1 = ["e5", "d5", "c5", "a1", "g1", "g7", "a7", "d2", "f4", "d6", "b4", "c4"]
P1_FIRST_P2 = ["c3", "d3", "d1", "g4", "d7", "a4", "b2", "f2", "f6", "b6", "e3", "e4"]
P1_FIRST_FILL = interleave(P1_FIRST_P1, P1_FIRST_P2)
QUIET_P1 = ["a1", "g1", "g7", "a7", "d2", "f4", "d6", "b4", "c3", "e3", "e5", "c5"]
QUIET_P2 = ["d1", "g4", "d7", "a4", "b2", "f2", "f6", "b6", "d3", "e4", "d5", "c4"]
QUIET_FILL = interleave(QUIET_P1, QUIET_P2)


def test_start_has_twelve_each_in_hand():
    s = engine.load(SHAX).new()
    assert (s.phase, s.to_move, s.in_hand(1), s.in_hand(2), owners(s)) == ("placement", 1, 12, 12, {})


def test_placement_jare_removes_nothing():  # ruling S-1
    s = play_all(SHAX, JARE_FILL[:6])  # player 2 has just made c3-d3-e3
    assert points_of(s, 2) == {"c3", "d3", "e3"}
    assert s.phase == "placement" and s.to_move == 1
    assert "remove" in reason_of(s, "xa1")
    s = play_all(SHAX, JARE_FILL[6:21], state=s)  # player 1 makes c5-d5-e5
    assert s.phase == "placement" and s.to_move == 2
    assert s.on_board(1) == 11 and s.on_board(2) == 10


def test_placement_fills_every_point():  # ruling S-1
    s = play_all(SHAX, JARE_FILL)
    assert set(owners(s)) == set(MORRIS9_POINTS)
    assert s.in_hand(1) == s.in_hand(2) == 0
    assert s.captured_by(1) == s.captured_by(2) == 0
    assert s.phase == "removal"


def test_first_jare_maker_removes_first_player_two():  # ruling S-1
    s = play_all(SHAX, JARE_FILL)
    assert s.phase == "removal" and s.to_move == 2
    s = s.play("xa1")
    assert s.phase == "removal" and s.to_move == 1  # then the other player removes
    s = s.play("xd1")
    assert s.phase == "movement" and s.to_move == 2  # and the first remover moves first
    assert s.on_board(1) == 11 and s.on_board(2) == 11


def test_first_jare_maker_removes_first_player_one():  # ruling S-1
    s = play_all(SHAX, P1_FIRST_FILL)
    assert owners(s) == owners(play_all(SHAX, JARE_FILL))
    assert s.phase == "removal" and s.to_move == 1
    s = s.play("xd1")
    assert s.phase == "removal" and s.to_move == 2
    s = s.play("xa1")
    assert s.phase == "movement" and s.to_move == 1


def test_without_a_jare_player_two_removes_first():  # ruling S-1
    s = play_all(SHAX, QUIET_FILL)
    assert set(owners(s)) == set(MORRIS9_POINTS)
    assert s.phase == "removal" and s.to_move == 2
    assert legal(s) == {"x" + p for p in QUIET_P1}
    s = s.play("xa1")
    assert s.phase == "removal" and s.to_move == 1
    assert legal(s) == {"x" + p for p in QUIET_P2}
    s = s.play("xd7")
    assert s.phase == "movement" and s.to_move == 2


def test_opening_removals_may_take_pieces_in_a_jare():  # ruling S-1
    s = play_all(SHAX, JARE_FILL)
    assert legal(s) == {"x" + p for p in JARE_P1}  # d5 stands in c5-d5-e5 but may go
    s = s.play("xd5")
    assert legal(s) == {"x" + p for p in JARE_P2}  # likewise d3 in c3-d3-e3
    s = s.play("xd3")
    assert "d5" not in owners(s) and "d3" not in owners(s)


def test_moves_are_slides_in_movement():  # ruling S-3: no flying
    s = play_all(SHAX, JARE_FILL + ["xd2", "xd3"])
    assert s.to_move == 2
    assert legal(s) == {"d1-d2", "b2-d2", "f2-d2", "c3-d3", "e3-d3"}
    assert "next to" in reason_of(s, "a4-d2")


def test_jare_in_movement_removes_any_piece():  # ruling S-3
    s = play_all(SHAX, JARE_FILL + ["xd2", "xd3", "d1-d2"])  # b2-d2-f2
    assert s.phase == "removal" and s.to_move == 2
    # c5, d5 and e5 stand in player 1's jare, yet every piece of player 1 may be taken.
    assert legal(s) == {"x" + p for p in JARE_P1 if p != "d2"}
    s = s.play("xd5")
    assert "d5" not in owners(s) and s.to_move == 1 and s.phase == "movement"


def test_reformed_jare_removes_again():  # ruling G-5: the Shax page says nothing
    s = play_all(SHAX, JARE_FILL + ["xd2", "xd3", "d1-d2", "xb4", "g1-d1", "a4-b4", "xf4",
                                    "a7-a4", "f6-f4", "xd5", "d6-f6", "d2-d3", "xe5", "c5-d5"])
    s = s.play("d3-d2")  # back into b2-d2-f2, left on the previous move
    assert s.phase == "removal" and s.to_move == 2


def test_besieged_player_gets_a_way_out_without_jare():  # ruling S-2
    # After the opening removals the only empty points are d5 and d1, and every neighbour of
    # both is player 1's: player 2 (first to move) is shut in.
    s = play_all(SHAX, JARE_FILL + ["xd5", "xd1"])
    assert s.result is None
    assert s.to_move == 1  # the besieger has to move for them
    # e5-d5, a1-d1 and g1-d1 free a point next to a player 2 piece without a jare; d6-d5 and d2-d1
    # would make a jare, c5-d5 frees nothing for player 2.
    assert legal(s) == {"e5-d5", "a1-d1", "g1-d1"}
    why = reason_of(s, "d6-d5").lower()
    assert "jare" in why or "way" in why
    reason_of(s, "c5-d5")
    s = s.play("e5-d5")
    assert s.to_move == 2 and s.phase == "movement"
    assert legal(s) == {"e4-e5"}


# A placement found by a small search: player 1 makes the first jare (c3-c4-c5, step 15); after
# the opening removals (player 1 takes g4, player 2 takes g1) player 1 is shut in, and the only
# move that frees a point for player 1 is g7-g4, which completes e4-f4-g4 for player 2.
OODAN_FILL = ["e5", "e4", "a4", "g7", "e3", "d6", "b6", "d2", "c4", "b4", "a7", "g4",
              "c5", "d1", "c3", "f2", "b2", "f6", "d3", "a1", "d7", "f4", "g1", "d5"]


def test_oodan_jare_made_for_a_way_out_removes_nothing():  # ruling S-2
    s = play_all(SHAX, OODAN_FILL)
    assert s.phase == "removal" and s.to_move == 1
    s = play_all(SHAX, ["xg4", "xg1"], state=s)
    assert s.result is None and s.to_move == 2  # player 1 cannot move
    assert legal(s) == {"g7-g4"}
    s = s.play("g7-g4")
    assert points_of(s, 2) >= {"e4", "f4", "g4"}
    assert s.phase == "movement" and s.to_move == 1  # no removal: oodan
    assert s.on_board(1) == 11


SHAX_TWO_LEFT = JARE_FILL + [
    "xd2", "xd3", "d1-d2", "xb4", "g1-d1", "a4-b4", "xf4", "a7-a4", "f6-f4", "xd5", "d6-f6",
    "d2-d3", "xe5", "c5-d5", "d3-d2", "xf6", "a4-a7", "d2-d3", "xd1", "c4-c5", "d3-d2", "xc5",
    "a7-a4", "d2-d3", "xa4", "a1-d1", "d3-d2",
]


def test_win_when_opponent_is_down_to_two():  # ruling S-3
    s = play_all(SHAX, SHAX_TWO_LEFT)
    assert s.phase == "removal" and s.to_move == 2 and s.on_board(1) == 3
    s = s.play("xd5")
    assert s.result is not None and s.result.winner == 2 and not s.result.draw
    assert s.on_board(1) == 2


def test_no_flying_at_three_in_shax():  # ruling S-3
    s = play_all(SHAX, SHAX_TWO_LEFT[:-2])  # player 1 has three pieces and is to move
    assert s.on_board(1) == 3 and s.to_move == 1
    far = [f"{a}-{b}" for a in points_of(s, 1) for b in MORRIS9_POINTS
           if b not in owners(s) and f"{a}-{b}" not in legal(s)]
    assert far
    why = reason_of(s, far[0])
    assert "fly" in why or "next to" in why


# ----------------------------------------------------------------------------------- shax-8
SQUARES2 = ["a1", "d1", "g1", "g4", "g7", "d7", "a7", "a4", "b2", "d2", "f2", "f4", "f6", "d6", "b6", "b4"]
S8_P1 = ["a1", "g1", "g7", "a7", "d2", "f4", "d6", "b4"]
S8_P2 = ["d1", "g4", "d7", "a4", "b2", "f2", "f6", "b6"]


def test_shax8_has_eight_each_on_two_squares():
    s = engine.load(SHAX8).new()
    assert (s.phase, s.to_move, s.in_hand(1), s.in_hand(2)) == ("placement", 1, 8, 8)
    assert set(legal(s)) == set(SQUARES2)
    reason_of(s, "c3")  # the inner square is not on this board
    reason_of(s, "d4")


def test_shax8_fill_and_opening():  # ruling S-1
    s = play_all(SHAX8, interleave(S8_P1, S8_P2))
    assert set(owners(s)) == set(SQUARES2)
    assert s.phase == "removal" and s.to_move == 2  # nobody made a jare
    s = play_all(SHAX8, ["xa1", "xd1"], state=s)
    assert s.phase == "movement" and s.to_move == 2


def test_shax8_placement_jare_decides_first_remover():  # ruling S-1
    p1 = ["a1", "d1", "g1", "f4", "d6", "b4", "b2", "g4"]  # a1-d1-g1 at step 5
    p2 = ["a7", "d7", "g7", "a4", "d2", "f2", "f6", "b6"]  # a7-d7-g7 at step 6
    s = play_all(SHAX8, interleave(p1, p2))
    assert s.phase == "removal" and s.to_move == 1
