"""Rulebook-driven tests for the 3x3 games: Jare, Tapatan, Achi, Tant Fant, Shisima and Sabr
(rulings G-2, G-3, G-7, X-1, X-2).

The board is the outer square a1 d1 g1 g4 g7 d7 a7 a4 plus the centre d4. With diagonals
(`three`) every outer point is joined to d4; without them (`three-plain`, Jare) only d1, a4, g4
and d7 are.
"""

import engine
from helpers import HOME, legal, owners, play_all, points_of, reason_of

THREE_POINTS = {"a1", "d1", "g1", "a4", "d4", "g4", "a7", "d7", "g7"}


def won_by(state, player):
    return state.result is not None and state.result.winner == player and not state.result.draw


# ---------------------------------------------------------------------------------------- Jare
# Player 1 ends placement on a1 a4 d1 and player 2 on a7 g1 d4: every neighbour of player 1's men
# is taken, so player 1 cannot move.
JARE_SHUT_IN = ["a1", "a7", "a4", "g1", "d1", "d4"]


def test_jare_row_during_placement_wins():  # ruling X-2
    s = play_all("jare", ["a1", "a4", "d1", "d4", "g1"])
    assert won_by(s, 1) and s.phase == "over"


def test_jare_diagonal_is_not_a_line():
    s = play_all("jare", ["a1", "d1", "d4", "a4", "g7"])  # a1-d4-g7 would win with diagonals
    assert s.result is None and s.to_move == 2


def test_jare_blocked_player_passes():  # ruling G-2 (the Jare text says nothing about losing)
    s = play_all("jare", JARE_SHUT_IN)
    assert s.result is None
    assert s.to_move == 2  # player 1's turn passed
    assert legal(s) == {"a7-d7", "d4-d7", "d4-g4", "g1-g4"}


def test_jare_moves_follow_the_plain_board():
    s = play_all("jare", JARE_SHUT_IN)
    assert "next to" in reason_of(s, "d4-g7")  # no diagonal path
    assert "next to" in reason_of(s, "a7-g7")  # no flying
    s = s.play("d4-g4")
    assert s.to_move == 1 and "a4-d4" in legal(s) and "a1-d4" not in legal(s)


# ------------------------------------------------------------------------------------- Tapatan
TAPATAN_PLACED = ["a1", "d1", "g1", "a4", "a7", "g4"]


def test_tapatan_diagonal_line_wins_in_placement():  # ruling X-2
    s = play_all("tapatan", ["a1", "d1", "d4", "g1", "g7"])
    assert won_by(s, 1)


def test_tapatan_moves_along_diagonals_and_diagonal_line_wins():
    s = play_all("tapatan", TAPATAN_PLACED)
    assert s.phase == "movement" and s.to_move == 1
    assert legal(s) == {"a1-d4", "g1-d4", "a7-d4", "a7-d7"}
    assert "next to" in reason_of(s, "a1-g7")  # no flying
    s = s.play("a1-d4")  # g1-d4-a7
    assert won_by(s, 1)


def test_tapatan_pieces_cannot_move_during_placement():
    s = play_all("tapatan", ["a1", "d1"])
    assert "in hand" in reason_of(s, "a1-d4")


# ---------------------------------------------------------------------------------------- Achi
def test_achi_four_men_each():
    s = engine.load("achi").new()
    assert (s.in_hand(1), s.in_hand(2)) == (4, 4)
    s = play_all("achi", ["a1", "d4", "g1", "d1", "a7", "a4", "g7"])
    assert s.phase == "placement" and s.to_move == 2  # player 2 still has a man to place


def test_achi_diagonal_does_not_win():  # ruling X-1
    s = play_all("achi", ["a1", "d1", "d4", "g1", "g7"])  # a1-d4-g7
    assert s.result is None and s.to_move == 2


def test_achi_column_wins():
    s = play_all("achi", ["a1", "d4", "a4", "g4", "a7"])
    assert won_by(s, 1)


def test_achi_diagonal_made_by_a_move_does_not_win():  # ruling X-1
    s = play_all("achi", ["a1", "d1", "g1", "a4", "d4", "g4", "d7", "a7"])
    assert s.phase == "movement" and s.to_move == 1 and s.result is None
    assert legal(s) == {"d4-g7", "d7-g7"}  # g7 is the only empty point
    s = s.play("d7-g7")  # a1-d4-g7 now belongs to player 1
    assert points_of(s, 1) >= {"a1", "d4", "g7"}
    assert s.result is None and s.to_move == 2


def test_achi_player_who_cannot_move_loses():  # ruling G-2 ("unable to move he has lost")
    s = play_all("achi", ["g1", "d4", "g4", "g7", "a7", "a4", "d7", "d1"])
    # The only empty point is a1, and its neighbours d1 a4 d4 all belong to player 2.
    assert won_by(s, 2)
    assert "move" in s.result.reason.lower()


# ----------------------------------------------------------------------------------- Tant Fant
def test_tant_fant_starts_on_home_ranks():  # ruling X-1
    s = engine.load("tant-fant").new()
    assert owners(s) == {p: 1 for p in HOME[1]} | {p: 2 for p in HOME[2]}
    assert s.phase == "movement" and s.to_move == 1 and s.result is None
    assert s.in_hand(1) == s.in_hand(2) == 0


def test_tant_fant_own_home_rank_never_counts():  # ruling X-1
    s = play_all("tant-fant", ["a1-a4", "a7-d4", "a4-a1"])
    assert points_of(s, 1) == set(HOME[1])
    assert s.result is None and s.to_move == 2


def test_tant_fant_line_on_opponent_home_rank_wins():  # ruling X-1
    steps = ["a1-a4", "g7-g4", "g1-d4", "d7-g7", "d4-d7", "g4-g1", "d1-d4", "g7-g4", "d4-g7",
             "a7-d4"]
    s = play_all("tant-fant", steps)
    assert s.result is None
    s = s.play("a4-a7")
    assert points_of(s, 1) == set(HOME[2])
    assert won_by(s, 1)


def test_tant_fant_moves_are_single_steps():
    s = engine.load("tant-fant").new()
    assert legal(s) == {"a1-a4", "a1-d4", "d1-d4", "g1-d4", "g1-g4"}
    assert "next to" in reason_of(s, "a1-g4")


# ------------------------------------------------------------------------------------- Shisima
def test_shisima_starts_on_home_ranks():  # ruling X-1
    s = engine.load("shisima").new()
    assert owners(s) == {p: 1 for p in HOME[1]} | {p: 2 for p in HOME[2]}
    assert s.phase == "movement" and s.to_move == 1


def test_shisima_line_off_the_centre_does_not_win():  # ruling X-1
    s = play_all("shisima", ["a1-a4", "a7-d4", "d1-a1", "d4-d1", "g1-d4", "d1-g1", "d4-a7"])
    assert points_of(s, 1) == {"a1", "a4", "a7"}
    assert s.result is None and s.to_move == 2


def test_shisima_line_through_the_centre_wins():  # ruling X-1
    s = play_all("shisima", ["a1-a4", "a7-d4", "g1-g4", "d4-a1"])
    assert s.result is None
    s = s.play("d1-d4")  # a4-d4-g4
    assert won_by(s, 1)


def test_shisima_diagonal_through_the_centre_wins():  # ruling X-1
    s = play_all("shisima", ["a1-a4", "a7-d4", "a4-a7", "d4-a1"])
    assert s.result is None
    s = s.play("d1-d4")  # g1-d4-a7
    assert points_of(s, 1) == {"g1", "d4", "a7"}
    assert won_by(s, 1)


def test_shisima_third_repetition_draws():  # rulebook; ruling G-3
    cycle = ["a1-a4", "g7-g4", "a4-a1", "g4-g7"]
    s = play_all("shisima", cycle)
    assert s.result is None  # the start position, second time
    s = play_all("shisima", cycle[:3], state=s)
    assert s.result is None
    s = s.play(cycle[3])
    assert s.result is not None and s.result.draw and s.result.winner is None


# ---------------------------------------------------------------------------------------- Sabr
SABR_START = {"a1": 1, "d1": 2, "g1": 1, "a7": 2, "d7": 1, "g7": 2}


def test_sabr_start_swaps_the_middle_men():  # ruling X-1
    s = engine.load("sabr").new()
    assert owners(s) == SABR_START
    assert s.phase == "movement" and s.to_move == 1


def test_sabr_jump_over_an_opponent_captures_nothing():  # ruling G-7
    s = play_all("sabr", ["a1-a4", "g7-g4"])
    assert "g1*a1" in legal(s)
    s = s.play("g1*a1")
    assert owners(s) == {"a1": 1, "a4": 1, "d7": 1, "d1": 2, "a7": 2, "g4": 2}
    assert s.result is None and s.to_move == 2


def test_sabr_cannot_jump_own_piece():  # ruling G-7
    s = play_all("sabr", ["d7-d4", "g7-g4"])  # a1, d4 (player 1) and an empty g7 in a row
    assert "a1*g7" not in legal(s)
    assert "opponent" in reason_of(s, "a1*g7")


def test_sabr_jump_needs_an_empty_landing_point():  # ruling G-7
    s = engine.load("sabr").new()
    assert "occupied" in reason_of(s, "g1*a1")


def test_sabr_own_home_rank_does_not_count():  # ruling X-1
    s = play_all("sabr", ["d7-d4", "d1*d7"])  # player 2 jumps into a7 d7 g7, its own rank
    assert points_of(s, 2) == set(HOME[2]) and s.result is None
    s = s.play("d4-d1")  # player 1 now holds a1 d1 g1, its own rank
    assert points_of(s, 1) == set(HOME[1]) and s.result is None


def test_sabr_line_on_opponent_home_rank_wins():  # ruling X-1
    s = play_all("sabr", ["a1-a4", "a7*a1", "g1-g4"])
    assert s.result is None
    s = s.play("g7*g1")
    assert points_of(s, 2) == set(HOME[1])
    assert won_by(s, 2)


def test_sabr_jump_can_complete_a_line():
    s = play_all("sabr", ["a1-a4", "a7-d4", "a4-a7", "g7-g4"])
    s = s.play("g1*g7")
    assert won_by(s, 1)


def test_sabr_one_jump_per_move():  # ruling G-7: no chains of jumps in Sabr
    s = play_all("sabr", ["a1-a4", "g7-g4"])
    why = reason_of(s, "g1*a1*a7")
    assert "jump" in why


def test_no_jumping_in_games_without_jumps():  # ruling G-7
    s = play_all("tapatan", ["a1", "d1", "g1", "a4", "a7", "g4"])
    assert "jump" in reason_of(s, "a7*a1")


def test_tant_fant_third_repetition_draws():  # ruling G-3 applies to every game but Morabaraba
    cycle = ["a1-a4", "g7-g4", "a4-a1", "g4-g7"]
    s = play_all("tant-fant", cycle + cycle[:3])
    assert s.result is None
    s = s.play(cycle[3])
    assert s.result is not None and s.result.draw and s.result.winner is None
