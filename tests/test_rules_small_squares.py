"""Rulebook-driven tests for Kubwa Tatu and its smaller forms, the Vyura and Nyoka games, Tatu
Ndege and Kunjing (rulings G-2, G-6, G-7).

Kubwa Tatu's board (`morris6`) joins the two squares at their midpoints; the Vyura and Nyoka
board (`morris6x`) also at the corners. Vyura and Kubwa Tatu men jump (the jumped man stays);
Nyoka men only slide; Ndege men go anywhere. Kunjing is for 3 or 4 players on the large board.
"""

import pytest

import engine
from helpers import legal, owners, play_all, reason_of

# Sita Vyura (and Kubwa Tatu) after placement: player 1 holds f6 a7 d7 f2 a4 g4, player 2 d6 a1
# f4 d2 g7 b4; player 1 can jump f2 over d2 to b2 and f6 over d6 to b6.
VYURA_JUMPS = ["f6", "d6", "a7", "a1", "d7", "f4", "f2", "d2", "a4", "g7", "g4", "b4"]
# Mbili with the flying option: player 2 makes the pillar b2-d2-f2 while placing and takes g7, so
# player 1 starts moving with three men (a1 a7 d7) and four flights.
MBILI_AT_THREE = ["a1", "b2", "g7", "d2", "a7", "f2", "xg7", "d7", "f6"]
# ... then player 1 flies four times (a7-b4, b4-d6, d6-b4, b4-d6) while player 2 shuffles.
MBILI_FOUR_FLIGHTS = MBILI_AT_THREE + ["a7-b4", "d2-d1", "b4-d6", "d1-g1", "d6-b4", "g1-d1", "b4-d6", "d1-g1"]


# --------------------------------------------------------------------------- boards and men
@pytest.mark.parametrize("game,men,points", [
    ("kubwa-tatu", 6, 16), ("mbili-na-nusu", 5, 16), ("mbili", 4, 16), ("moja-na-nusu", 3, 16),
    ("sita-vyura", 6, 16), ("tano-vyura", 5, 16), ("ene-vyura", 4, 16), ("tatu-vyura", 3, 16),
    ("sita-nyoka", 6, 16), ("tano-nyoka", 5, 16), ("ene-nyoka", 4, 16), ("tatu-nyoka", 3, 16),
    ("tatu-ndege", 3, 16), ("kunjing", 4, 24),
])
def test_men_and_board(game, men, points):
    s = engine.load(game).new()
    assert s.in_hand(1) == men and len(s.legal_steps()) == points


def test_kubwa_tatu_moves_between_squares_only_through_the_midpoints():
    s = play_all("kubwa-tatu", VYURA_JUMPS)
    assert "next to" in reason_of(s, "f2-g1")  # no corner link on Kubwa Tatu's board
    s = play_all("sita-vyura", VYURA_JUMPS)
    assert "f2-g1" in legal(s)  # the Vyura board links the corners


@pytest.mark.parametrize("game", ["kubwa-tatu", "sita-vyura"])
def test_vyura_and_kubwa_tatu_jump_without_capturing(game):  # G-7
    s = play_all(game, VYURA_JUMPS)
    assert {"f2*b2", "f6*b6"} <= legal(s)
    after = s.play("f2*b2")
    assert owners(after)["d2"] == 2 and owners(after)["b2"] == 1 and after.captured_by(1) == 0


def test_nyoka_men_do_not_jump():
    s = play_all("sita-nyoka", VYURA_JUMPS)
    assert not any("*" in m for m in legal(s))
    assert "no jumps" in reason_of(s, "f2*b2")


def test_the_removal_count_wins():
    from test_complete_games import MBILI

    s = play_all("mbili", MBILI[:-1])
    assert s.result is None and s.captured_by(1) == 1
    s = s.play(MBILI[-1])
    assert s.result.winner == 1 and "captured 2" in s.result.reason


@pytest.mark.parametrize("game", ["moja-na-nusu", "tatu-vyura", "tatu-nyoka", "ene-vyura", "ene-nyoka"])
def test_the_smallest_forms_are_won_by_the_first_line(game):
    s = play_all(game, ["a1", "b2", "d1", "d2", "g1"])
    assert s.result.winner == 1 and "line" in s.result.reason


def test_first_line_games_pass_when_blocked():  # G-2: no "inhibiting" on these pages
    assert engine.load("tatu-nyoka").settings.blocked == "pass"
    assert engine.load("sita-nyoka").settings.blocked == "lose"


# ------------------------------------------------------------------------------------ flying
def test_flying_is_an_option_off_by_default():  # G-6
    s = play_all("mbili", MBILI_AT_THREE)
    assert s.on_board(1) == 3 and "next to" in reason_of(s, "a7-b4")
    s = play_all(engine.load("mbili", flying=True), MBILI_AT_THREE)
    assert "a7-b4" in legal(s) and s.flights_left(1) == 4


def test_flights_run_out():  # G-6: "flying option (4 flights)"
    s = play_all(engine.load("mbili", flying=True), MBILI_FOUR_FLIGHTS)
    assert s.flights_left(1) == 0 and s.to_move == 1
    assert legal(s) == {"a1-d1", "a1-a4", "d7-g7", "d7-a7", "d6-b6"}  # slides only
    why = reason_of(s, "d6-f4")
    assert "all 4 flights" in why and "g-6" in why


def test_a_slide_at_three_men_is_not_a_flight():
    s = play_all(engine.load("mbili", flying=True), MBILI_AT_THREE)
    s = s.play("a7-a4")
    assert s.flights_left(1) == 4


def test_tatu_ndege_men_move_to_any_open_spot():
    s = play_all("tatu-ndege", ["b4", "a1", "g4", "b2", "g1", "d1"])
    assert "b4-g7" in legal(s) and "b4-f6" in legal(s)
    assert play_all("tatu-ndege", ["b4", "a1", "g4", "b2", "g1", "d1", "b4-g7"]).result.winner == 1


# ------------------------------------------------------------------------------------ Kunjing
KUNJING_3 = ["a4", "f2", "g4", "b4", "e4", "d7", "g1", "g7", "a1", "d6", "d3", "f4"]
KUNJING_4 = ["b2", "f2", "c4", "d7", "d2", "g7", "f6", "a4", "a7", "d1", "d3", "f4", "c5", "b6", "a1", "e4"]


def test_kunjing_three_or_four_players_take_turns():
    g = engine.load("kunjing")
    assert g.players == 3 and g.rules.colours == 3
    s = g.new()
    assert [s.to_move, s.play("a1").to_move, s.play("a1").play("d1").to_move,
            s.play("a1").play("d1").play("g1").to_move] == [1, 2, 3, 1]
    s4 = play_all(engine.load("kunjing", players=4), KUNJING_4)
    assert s4.phase == "movement" and s4.to_move == 1
    assert {pc.owner for pc in s4.position().values()} == {1, 2, 3, 4}
    with pytest.raises(engine.BadOption):
        engine.load("kunjing", players=5)


def test_kunjing_multiple_jumps_over_any_opponent():  # G-7
    s = play_all("kunjing", KUNJING_3)
    assert {"g1*e3", "g1*e3*c3", "g1*e3*e5"} <= legal(s)
    after = s.play("g1*e3*c3")  # over f2, then d3: both player 2's, both stay
    assert owners(after)["f2"] == 2 and owners(after)["d3"] == 2 and owners(after)["c3"] == 1
    s4 = play_all(engine.load("kunjing", players=4), KUNJING_4)
    assert "c5*c3*e3*g1" in legal(s4)  # over players 3, 3 and 2


def test_kunjing_a_chain_never_lands_twice_on_one_point():  # G-7
    s = play_all("kunjing", KUNJING_3)
    assert "twice" in reason_of(s, "g1*e3*c3*e3")


def test_kunjing_lists_one_chain_per_landing():
    s = play_all(engine.load("kunjing", players=4), KUNJING_4)
    listed = [m for m in s.legal_steps() if m.src == "c5" and m.dst == "e5"]
    assert [str(m) for m in listed] == ["c5*c3*e3*e5"]


def test_kunjing_first_line_wins():
    from test_complete_games import KUNJING_4 as GAME

    s = play_all(engine.load("kunjing", players=4), GAME)
    assert s.result.winner == 1 and "line" in s.result.reason
