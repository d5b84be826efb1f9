"""Rulebook-driven tests for Tresillo's Stay, Pluck, Conquer and Rapido (rulings T-1 to T-3, T-5).

All are played on the large board (three squares joined at midpoints and corners) with 12 chips
each; a Tresillo is three chips in a row on any of its 20 lines.
"""

import random

import pytest

import engine
from helpers import legal, owners, play_all, reason_of

TRESILLO_GAMES = ["tresillo-stay", "tresillo-pluck", "tresillo-conquer", "tresillo-rapido"]
D_FILE = ["d2", "c3", "d3", "e3", "d1"]  # player 1 completes d1-d2-d3


@pytest.mark.parametrize("game", TRESILLO_GAMES)
def test_twelve_chips_on_the_large_board(game):  # T-1
    s = engine.load(game).new()
    assert s.in_hand(1) == s.in_hand(2) == 12 and len(s.legal_steps()) == 24
    assert len(s.rules.line_points) == 20


@pytest.mark.parametrize("game", TRESILLO_GAMES)
def test_diagonals_make_a_tresillo(game):
    s = play_all(game, ["a1", "d1", "b2", "d2", "c3"])
    assert s.phase == "removal" or s.events  # a removal (Pluck, Conquer) or a chip handed over (Stay)


# ------------------------------------------------------------------------------------- Stay
def test_stay_a_tresillo_makes_the_opponent_hand_over_a_chip():  # T-2
    s = play_all("tresillo-stay", D_FILE)
    assert s.phase == "placement" and s.to_move == 2  # no removal step
    assert s.in_hand(2) == 9 and s.captured_by(1) == 1  # two placed, one handed over
    assert len(owners(s)) == 5  # nothing left the board
    assert "hands" in s.events[0] and "T-2" in s.events[0]


def test_stay_nothing_is_removed_from_the_board():  # T-2
    s = play_all("tresillo-stay", D_FILE)
    assert "hand over" in reason_of(s, "xc3")


def test_stay_opponent_without_chips_hands_over_nothing_and_the_game_ends():  # T-2
    steps = ["b2", "d7", "e4", "c5", "d2", "f2", "f6", "a7", "c3", "d5", "c4", "b6", "d1", "d6", "a4", "e5", "e3"]
    s = play_all("tresillo-stay", steps)
    assert s.to_move == 2 and s.in_hand(1) == 0
    before = s.captured_by(2)
    s = s.play("g7")  # a7-d7-g7: a Tresillo, but player 1 has no unplayed chip to hand over
    assert s.captured_by(2) == before and not s.events
    assert s.result is not None and "no chip left" in s.result.reason  # player 1 cannot play


def test_stay_tally_most_chips_collected_wins():
    from test_complete_games import TRESILLO_STAY

    s = play_all("tresillo-stay", TRESILLO_STAY)
    assert (s.captured_by(1), s.captured_by(2)) == (3, 4) and s.result.winner == 2


# ------------------------------------------------------------------------------------ Pluck
def test_pluck_removes_an_opponent_chip_from_the_board():  # T-2
    s = play_all("tresillo-pluck", D_FILE)
    assert s.phase == "removal" and s.removable() == ("c3", "e3")
    s = s.play("xc3")
    assert "c3" not in owners(s) and s.captured_by(1) == 1 and s.to_move == 2


def test_pluck_protects_chips_in_a_tresillo():  # G-4
    # Player 2 makes a7-d7-g7 and takes c4; player 1 then makes d1-d2-d3. Of player 2's chips only
    # f4 stands outside a Tresillo, so only f4 may be taken.
    s = play_all("tresillo-pluck", ["d1", "a7", "d2", "d7", "e4", "f4", "c4", "g7", "xc4", "d3"])
    assert s.phase == "removal" and s.removable() == ("f4",)
    why = reason_of(s, "xa7")
    assert "protected" in why and "g-4" in why


def test_pluck_ends_when_the_player_to_move_has_no_chip():
    from test_complete_games import TRESILLO_PLUCK

    s = play_all("tresillo-pluck", TRESILLO_PLUCK)
    assert s.result.winner == 2 and "no chip left" in s.result.reason
    assert "2 of" in s.result.reason or s.captured_by(2) == 2


# ---------------------------------------------------------------------------------- Conquer
def test_conquer_moves_start_once_every_chip_is_played():  # T-3
    from test_complete_games import TRESILLO_CONQUER

    s = play_all("tresillo-conquer", TRESILLO_CONQUER[:-1])
    assert s.phase == "movement" and s.in_hand(1) == s.in_hand(2) == 0
    assert all("-" in m for m in legal(s))  # adjacent moves: no jumps
    assert "jumps" in reason_of(s, "g4*g1") or "jump" in reason_of(s, "g4*g1")


def test_conquer_a_blocked_player_loses():  # T-3: "inhibited his opponent's ability to move"
    from test_complete_games import TRESILLO_CONQUER

    s = play_all("tresillo-conquer", TRESILLO_CONQUER)
    assert s.result.winner == 1 and "cannot move" in s.result.reason


def test_conquer_no_flying():
    assert engine.load("tresillo-conquer").settings.flying == "never"


def test_conquer_alternative_play_hands_over_a_chip():  # T-3
    s = play_all(engine.load("tresillo-conquer", alternative=True), D_FILE)
    assert s.phase == "placement" and s.captured_by(1) == 1 and s.in_hand(2) == 9


def test_conquer_alternative_play_removes_when_the_opponent_has_no_chip():  # T-3
    steps = ["b4", "e5", "a4", "d5", "e4", "c5", "b6", "g7", "e3", "d7", "d3", "f4", "g1", "f6", "d2", "d6",
             "b2", "f2"]
    s = play_all(engine.load("tresillo-conquer", alternative=True), steps)
    assert s.phase == "removal" and s.to_move == 2 and s.in_hand(1) == 0


def test_conquer_a_player_whose_chips_are_all_played_waits_for_the_other():  # T-3
    steps = ["d3", "b6", "d7", "f2", "d5", "d2", "c5", "b2", "a1", "a7", "g4", "b4", "e3", "c4", "e5", "a4", "f4"]
    s = play_all(engine.load("tresillo-conquer", alternative=True), steps)
    assert s.to_move == 2 and s.in_hand(1) == 0 and s.in_hand(2) == 3
    quiet = next(m for m in s.legal_steps() if s._forms_line(m) is False)
    s = s.play(quiet)
    assert s.to_move == 2 and s.phase == "placement"  # player 1 passes until player 2 has placed all


def test_conquer_advanced_play_is_a_match_of_rounds():  # T-3
    g = engine.load("tresillo-conquer", advanced=True)
    assert g.rules.target == 30
    rng = random.Random(4)
    s = g.new()
    while not (s.phase == "round-over" or s.result is not None):
        s = s.play(rng.choice(s.legal_steps()))
    assert s.phase == "round-over" and s.legal_steps() == ("next-round",)
    rnd = s.round
    pts = g.rules.inner.round_points(rnd)
    assert s.scores == pts and max(pts) < 30
    assert pts[0] >= rnd.captured_by(1) and pts[1] >= rnd.captured_by(2)
    assert "next-round" in reason_of(s, "a1")
    s = s.play("next-round")
    assert s.round_no == 2 and s.to_move == 2 and s.position() == {}  # players take turns to start
    assert "round 2 begins" in s.events


def test_conquer_advanced_points_count_trapped_chips_double():  # T-3
    from test_complete_games import TRESILLO_CONQUER

    g = engine.load("tresillo-conquer", advanced=True)
    s = play_all(g, TRESILLO_CONQUER)
    assert s.phase == "round-over" and s.result is None
    rnd = s.round
    pos = owners(rnd)
    nbrs = g.board.neighbours

    def trapped(player):
        return sum(1 for p, o in pos.items() if o == player and all(q in pos for q in nbrs[p]))

    assert trapped(2) == rnd.on_board(2)  # player 2 lost because every one of its chips is shut in
    assert s.scores == (rnd.captured_by(1) + 2 * trapped(2), rnd.captured_by(2) + 2 * trapped(1))


def test_a_target_needs_advanced_play():
    with pytest.raises(engine.BadOption, match="advanced"):
        engine.load("tresillo-conquer", target=20)


# ----------------------------------------------------------------------------------- Rapido
def test_rapido_each_play_has_a_clock():  # T-5
    s = engine.load("tresillo-rapido").new()
    assert s.time_limit == 5 and [str(c) for c in s.calls()] == ["timeout"]
    assert engine.load("tresillo-rapido", clock=3).new().time_limit == 3
    assert engine.load("tresillo-pluck").new().time_limit is None
    assert "no clock" in reason_of(engine.load("tresillo-pluck").new(), "timeout")


def test_rapido_timeout_passes_the_turn():  # T-5
    s = play_all("tresillo-rapido", ["a1", "timeout"])
    assert s.to_move == 1 and s.in_hand(2) == 12 and "ran out of time" in s.events[0]
    assert "timeout" not in legal(s)  # a call, never read off a board


def test_rapido_timeout_forfeits_a_removal_owed():  # T-5
    s = play_all("tresillo-rapido", D_FILE)
    assert s.phase == "removal"
    s = s.play("timeout")
    assert s.phase == "placement" and s.to_move == 2 and s.captured_by(1) == 0


def test_rapido_on_stay():
    s = play_all(engine.load("tresillo-rapido", base="stay"), D_FILE)
    assert s.phase == "placement" and s.captured_by(1) == 1
    with pytest.raises(engine.BadOption):
        engine.load("tresillo-rapido", base="conquer")
