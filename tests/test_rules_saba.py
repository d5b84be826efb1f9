"""Rulebook-driven tests for Saba, Sita and Tano and their Kuruka and Lazima forms (rulings G-2,
G-4, G-5, G-7, G-8).

The Saba board is the two squares of Six Men's Morris with the corner links and the centre d4
joined to all eight points of the middle square. Pillars form only on the squares' sides; the
straight runs through the centre (b4-d4-f4, b2-d4-f6 ...) carry men and jumps but make no pillar.
Every position is reached by legal play from the start.
"""

import pytest

import engine
from helpers import legal, owners, play_all, points_of, reason_of

# Tano after placement: player 1 holds d1 g1 d7 b4 f2, player 2 g4 b2 d4 d2 a4. Player 1 can jump
# b4 over d4 to f4, f2 over d4 to b6, g1 over g4 to g7, and no move of theirs makes a pillar.
JUMPS_ONLY = ["d1", "g4", "g1", "b2", "d7", "d4", "b4", "d2", "f2", "a4"]
# Tano after placement: player 1 holds g7 a7 f4 d6 a4, player 2 g1 d1 f6 f2 g4. Player 1 can jump
# g7 over f6 to d4, and d6-d7 (or a7-d7) would make the pillar a7-d7-g7.
JUMP_OR_PILLAR = ["g7", "g1", "a7", "d1", "f4", "f6", "d6", "f2", "a4", "g4"]
# Tano: player 1 breaks the pillar g1-g4-g7 with g1-d1, player 2 moves, and player 1 moves back.
OUT_AND_BACK = ["g7", "b4", "a7", "f4", "g1", "d7", "a4", "d6", "g4", "xd7", "f2", "g1-d1", "f4-f6", "d1-g1"]


# ------------------------------------------------------------------------------------ the board
def test_pillars_form_only_on_the_squares():
    s = play_all("saba", ["b4", "a1", "d4", "a7", "f4"])  # b4-d4-f4 runs through the centre
    assert s.phase == "placement" and s.to_move == 2
    s = play_all("saba", ["a1", "b2", "d1", "d2", "g1"])  # a1-d1-g1: a side of the outer square
    assert s.phase == "removal" and s.to_move == 1


def test_men_are_placed_before_any_moves_or_jumps():
    s = play_all("tano", JUMPS_ONLY[:9])
    assert s.phase == "placement"
    assert "in hand" in reason_of(s, "b4*f4")


@pytest.mark.parametrize("game,men", [("saba", 7), ("sita", 6), ("tano", 5), ("kuruka-saba", 7),
                                      ("lazima-sita", 6), ("kuruka-tano", 5)])
def test_men_per_player(game, men):
    s = engine.load(game).new()
    assert (s.in_hand(1), s.in_hand(2)) == (men, men)


# ------------------------------------------------------------------ plain forms: jumps stay
def test_a_jump_over_an_opponent_does_not_remove_it():  # G-7
    s = play_all("tano", JUMPS_ONLY)
    assert {"b4*f4", "f2*b6", "g1*g7"} <= legal(s) and "d1-a1" in legal(s)  # jumping is a choice
    after = s.play("b4*f4")
    assert owners(after)["d4"] == 2 and owners(after)["f4"] == 1 and "b4" not in owners(after)
    assert after.captured_by(1) == 0 and after.events == ()


def test_a_jump_must_go_over_an_opponent_man_to_an_empty_point_in_a_straight_line():  # G-7
    s = play_all("tano", JUMPS_ONLY)
    assert "straight" in reason_of(s, "b4*g4")  # not a straight run of two edges
    assert "opponent" in reason_of(s, "d7*d4")  # d7 over d6: nothing there
    s2 = s.play("d1-a1").play("g4-f4")  # player 2 moves next to player 1's own man
    assert "own" in reason_of(s2, "d1*d7") or "straight" in reason_of(s2, "d1*d7")


def test_plain_saba_allows_one_jump_per_move():
    s = play_all("tano", JUMPS_ONLY)
    assert "chain" in reason_of(s, "b4*f4*f6")


def test_saba_is_won_by_capturing_five():
    steps = ["f2", "b4", "a4", "d7", "a7", "f6", "d6", "d2", "g1", "d4", "b2", "b6", "g4", "f4",
             "b2-a1", "xb6", "d2-d1", "a7*g7", "xd1", "d4-b6", "g7*a7", "xb4", "f4-d4", "a7*g7", "xf6",
             "d4-d2", "g7*a7"]
    s = play_all("saba", steps)
    assert s.result is None and s.captured_by(1) == 4 and s.phase == "removal"
    s = s.play("xd7")
    assert s.result.winner == 1 and "captured 5" in s.result.reason


def test_plain_forms_remove_again_when_a_pillar_is_re_formed_in_two_moves():  # G-5
    s = play_all("tano", OUT_AND_BACK)
    assert s.phase == "removal" and s.to_move == 1


# ------------------------------------------------------------- Kuruka: jumps capture and chain
def test_kuruka_jump_captures_the_jumped_man_and_leaves_it_to_lift():  # G-7
    s = play_all("kuruka-tano", JUMPS_ONLY)
    step = s.parse("b4*f4")
    after = s.play(step)
    assert "d4" not in owners(after) and after.captured_by(1) == 1
    assert after.events == ("captured d4 by jumping",)
    assert s.leftovers(step, after) == {"d4": engine.Piece(2, "man")}  # still on the board until lifted


def test_kuruka_jumping_is_not_mandatory():
    s = play_all("kuruka-tano", JUMPS_ONLY)
    assert "d1-a1" in legal(s) and "b4*f4" in legal(s)


def test_kuruka_chain_of_jumps_is_one_move_and_may_stop_early():  # G-7, G-8
    steps = ["f4", "a4", "d4", "b2", "f6", "d7", "f2", "xb2", "d1", "a7", "g4"]
    s = play_all("kuruka-tano", steps)
    assert {"a7*g7", "a7*g7*g1", "a7*g7*g1*a1", "a7*g7*g1*a1*a7"} <= legal(s)
    after = s.play("a7*g7*g1*a1*a7")  # round the outer square, back to the start
    assert after.captured_by(1) == 5  # b2 by the pillar f2-f4-f6, then d7 g4 d1 a4 in one move
    assert after.result is not None and after.result.winner == 1
    assert sorted(s.leftovers(s.parse("a7*g7*g1*a1*a7"), after)) == ["a4", "d1", "d7", "g4"]


def test_kuruka_a_man_is_jumped_only_once_in_a_chain():
    s = play_all("kuruka-tano", ["f4", "a4", "d4", "b2", "f6", "d7", "f2", "xb2", "d1", "a7", "g4"])
    assert "already taken" in reason_of(s, "a7*g7*a7")


def test_kuruka_is_won_by_capturing_every_man():
    s = play_all("kuruka-sita", ["g4", "b6", "d2", "b2", "f4", "b4", "xd2", "f2", "a7", "f6", "xa7", "d2",
                                 "d1", "a4"])
    s = s.play("d1*d4*a7*a1*d4*a4")
    assert s.result.winner == 1 and "0 pieces" in s.result.reason


def test_kuruka_pillar_re_formed_on_the_next_move_removes_nothing():  # G-5
    s = play_all("kuruka-tano", OUT_AND_BACK)
    assert s.phase == "movement" and s.to_move == 2  # no removal: the turn simply passed


def test_a_chain_back_to_its_start_forms_no_pillar():
    # Player 1 stands in a1-a4-a7; the chain leaves a1 over b2, f2 and d1 and lands on a1 again.
    # The pillar stood before the move and after it: nothing was formed, so nothing is removed.
    steps = ["a4", "b6", "f6", "f2", "a7", "g1", "a1", "xg1", "d6", "g7", "d1", "g4", "d7", "b4", "b2"]
    s = play_all("kuruka-saba", steps)
    after = s.play("a1*d4*g1*a1")
    assert sorted(s.leftovers(s.parse("a1*d4*g1*a1"), after)) == ["b2", "d1", "f2"]
    assert after.result is None and after.phase == "movement" and after.to_move == 2


# --------------------------------------------------------------- Lazima: jumping is mandatory
def test_lazima_must_jump_when_no_pillar_can_be_formed():  # G-8
    s = play_all("lazima-tano", JUMPS_ONLY)
    assert legal(s) == {"b4*f4", "f2*b6", "g1*g7"}
    why = reason_of(s, "d1-a1")
    assert "must jump" in why and "g-8" in why


def test_lazima_need_not_jump_when_a_pillar_can_be_formed():  # G-8
    s = play_all("lazima-tano", JUMP_OR_PILLAR)
    assert "g7*d4" in legal(s) and "d6-d7" in legal(s) and "a4-a1" in legal(s)


def test_lazima_a_chain_may_stop_early():  # G-8
    steps = ["f4", "a4", "d4", "b2", "f6", "d7", "f2", "xb2", "d1", "a7", "g4"]
    s = play_all("lazima-tano", steps)
    assert "a7*g7" in legal(s) and "a7*g7*g1*a1*a7" in legal(s)
    assert all("*" in m for m in legal(s))
    s = s.play("a7*g7")  # stops after one jump, over d7
    assert s.to_move == 2 and s.captured_by(1) == 2 and "d7" not in owners(s)


# ------------------------------------------------------------------------ the end of the game
def test_a_player_who_cannot_move_loses():  # G-2: "inhibiting opponent's ability to move"
    from test_complete_games import SITA_NYOKA

    s = play_all("sita-nyoka", SITA_NYOKA)
    assert s.result.winner == 1 and "cannot move" in s.result.reason


def test_team_play_in_saba_keeps_the_rules():
    s = play_all("tano", JUMPS_ONLY)
    t = play_all(engine.load("tano", teams=True), JUMPS_ONLY)
    assert legal(s) == legal(t) and owners(s) == owners(t)
    assert t.to_move == 3  # after ten placements the seat A2 (team 1's second player) moves
    assert points_of(t, 1) == points_of(s, 1)
