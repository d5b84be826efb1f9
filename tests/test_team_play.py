"""Team play (the HTJB rulebook's last page): games with four or more men each played by two
teams of two, "team members taking turns in playing".

A team shares its colour's men. Turns go A1, B1, A2, B2: partners alternate with opponents.
``to_move`` is the player (1-4), ``colour_to_move`` their team's colour, ``rules.team_of`` the team;
a result's ``winner`` is the winning team's colour (1 or 2), which is also the team's number.
"""

import pytest

import engine
from helpers import owners, play_all, reason_of

TEAM_GAMES = [n for n in engine.names() if "teams" in {o.name for o in engine.spec(n).options}]


def test_team_play_is_offered_for_the_games_with_four_or_more_men():
    for name in TEAM_GAMES:
        rules = engine.load(name).rules
        men = getattr(rules.settings, "men", getattr(rules.settings, "chips", 12))
        assert men >= 4, name
    for name in ("three-mens-morris", "tapatan", "tatu-vyura", "moja-na-nusu", "tatu-ndege"):
        assert name not in TEAM_GAMES  # three men each
    assert {"nine-mens-morris", "morabaraba", "saba", "kuruka-sita", "kubwa-tatu", "sita-nyoka", "ene-vyura",
            "tresillo-conquer", "stack"} <= set(TEAM_GAMES)


@pytest.mark.parametrize("name", [n for n in TEAM_GAMES if n != "stack"])
def test_partners_alternate_with_opponents(name):
    g = engine.load(name, teams=True)
    assert g.players == 4 and g.rules.colours == 2
    s = g.new()
    seen = []
    for _ in range(4):
        seen.append((s.to_move, s.colour_to_move, g.rules.team_of(s.to_move)))
        s = s.play(s.legal_steps()[0])
    assert seen == [(1, 1, 1), (2, 2, 2), (3, 1, 1), (4, 2, 2)]


def test_a_removal_is_made_by_the_player_who_made_the_mill():
    g = engine.load("nine-mens-morris", teams=True)
    s = play_all(g, ["a1", "b2", "d1", "b4", "g1"])  # player 1 (A1) plays a1, player 3 (A2) d1, then A1 g1
    assert s.phase == "removal" and s.to_move == 1 and s.colour_to_move == 1
    s = s.play("xb2")
    assert s.to_move == 2  # then B1: the turn goes on round the table


def test_partners_share_their_men():
    g = engine.load("six-mens-morris", teams=True)
    s = play_all(g, ["a1", "g7"])
    s = s.play("d1")  # player 3 adds to team 1's men
    assert owners(s) == {"a1": 1, "g7": 2, "d1": 1}
    assert s.in_hand(1) == 6 - 2 and s.in_hand(2) == 5


def test_the_winner_is_the_team():
    from test_complete_games import SITA_NYOKA

    s = play_all(engine.load("sita-nyoka", teams=True), SITA_NYOKA)
    assert s.result.winner == 1 and "team 2 cannot move" in s.result.reason


def test_shax_is_not_played_in_teams():
    with pytest.raises(engine.BadOption):
        engine.load("shax", teams=True)


def test_a_team_of_one_colour_moves_in_turn_with_the_same_rules():
    s = play_all(engine.load("tano", teams=True), ["d1", "g4", "g1", "b2", "d7", "d4", "b4", "d2", "f2", "a4"])
    assert s.to_move == 3 and s.phase == "movement"
    assert "opponent" in reason_of(s, "g4-g7")  # player 3 moves team 1's men, not team 2's
