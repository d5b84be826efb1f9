"""Thinking In Circles (seed 001; rulings TC-1 to TC-4): hand-built positions for each ruling, the
secrets the companion holds, and complete games for every option by seeded random legal play."""

from __future__ import annotations

import random

import pytest

import engine
from engine.boards.circles import BASE_TRACK, circles_board
from engine.core import MOVE

GAME = "thinking-in-circles"
BOARD = circles_board()


def at(circle: int, symbol: str, nth: int = 0) -> int:
    """The ``nth`` space of ``circle`` showing ``symbol``."""
    return [s for s in range(14) if BOARD.symbol(circle, s) == symbol][nth]


def load(**opts):
    return engine.load(GAME, **opts).rules


def turn(s, circle: int, mine: int, theirs: int):
    """One whole turn: the circle named, the other player's beads, the mover's, the token moved."""
    s = s.play(f"C{circle}")
    s = s.play(f"beads={abs(theirs)}{'w' if theirs > 0 else 'b'}")
    s = s.play(f"beads={abs(mine)}{'w' if mine > 0 else 'b'}")
    if s.stage == "move":
        s = s.play(s.legal_steps()[0])
    return s


# ------------------------------------------------------------------ the board (boards.md section 4)
def test_the_board_has_five_tracks_of_the_base_track_turned_three_spaces_each():
    assert len(BOARD.graph.points) == 70 and BOARD.graph.style == "circles"
    assert BASE_TRACK == "NCWTSBPNTWCPBS"
    for k in range(1, 6):
        assert [BOARD.symbol(k, s) for s in range(14)] == [BASE_TRACK[(s + 3 * (k - 1)) % 14] for s in range(14)]
        assert BOARD.graph.adjacent(f"c{k}.13", f"c{k}.0")  # a track is a ring
    for sym in "NWBCTSP":
        assert BASE_TRACK.count(sym) == 2
    # Each token starts on its circle's first neutral space.
    assert BOARD.starts == (0, 4, 1, 5, 2)
    s = load().new()
    assert set(s.position()) == {"c1.0", "c2.4", "c3.1", "c4.5", "c5.2"}
    assert all(sym == "N" for sym in s.symbols())


def test_a_different_print_is_data_and_the_rules_follow_it():
    from engine.rules.circles import CirclesRules, CirclesSettings

    board = circles_board("NWBCTSPNWBCTSP", 2)
    assert board.graph.name != BOARD.graph.name and board.starts == (0, 5, 3, 1, 6)
    rules = CirclesRules(GAME, CirclesSettings(), board)
    s = rules.setup((0, 5, 3, 1, 6), [("CTS",), ("PPP",)])
    s = turn(s, 1, 3, -2)
    assert s.tokens[0] == 1 and s.symbols()[0] == "W"
    with pytest.raises(ValueError):
        circles_board("NWBX")
    with pytest.raises(ValueError):
        circles_board("WBCTS")  # no neutral space to start on


def test_the_five_triples_wrap_round_the_ring():
    assert load().triples == ((1, 2, 3), (2, 3, 4), (3, 4, 5), (4, 5, 1), (5, 1, 2))


# ------------------------------------------------------------------ secret goals (TC-2)
def test_goals_are_given_privately_one_player_after_the_other():
    rules = load()
    s = rules.new()
    assert s.phase == "set-up" and s.to_move == 1 and s.private_to == 1
    assert len(s.legal_steps()) == 64  # every sequence of three of four shapes
    s = s.play("goal=CST")
    assert s.to_move == 2 and s.private_to == 2
    assert s.secrets() == {1: {"goals": "CST"}}
    assert all("CST" not in e and "circle" not in e for e in s.events)
    assert rules.public_text("goal=CST") == "goal"
    s = s.play("goal=ppt")
    assert s.secrets() == {1: {"goals": "CST"}, 2: {"goals": "PPT"}}
    assert s.phase == "choosing" and s.to_move == 1 and s.private_to is None


def test_a_bad_goal_is_refused_without_repeating_it():
    rules = load()
    for text in ("goal=CSX", "goal=CS", "goal=CSTP"):
        with pytest.raises(engine.IllegalStep) as info:
            rules.parse(text)
        assert info.value.step == "goal" and text[5:] not in str(info.value)


def test_uncloned_refuses_a_goal_with_the_same_shape_twice_side_by_side():
    s = load(uncloned=True).new()
    assert len(s.legal_steps()) == 4 * 3 * 3
    assert "UnCloned" in s.why_illegal("goal=CCS")
    assert "UnCloned" in s.why_illegal("goal=SCC")
    assert s.why_illegal("goal=CSC") is None  # not side by side
    assert load().new().why_illegal("goal=CCS") is None  # without the option


def test_spin_cycle_takes_two_or_three_goals_each_and_any_of_them_wins():
    rules = load(spin_cycle=3)
    s = rules.new()
    for g in ("CST", "PPP", "TTS"):
        assert s.to_move == 1
        s = s.play("goal=" + g)
    assert s.to_move == 2
    s = s.play("goal=CCC").play("goal=SSS").play("goal=TPC")
    assert s.phase == "choosing"
    assert s.secrets()[1]["goals"] == "CST, PPP, TTS"
    with pytest.raises(engine.BadOption):
        engine.load(GAME, spin_cycle=4)
    # A win by the third goal: C1 C2 C3 on triangle, triangle and (after the move) square.
    start = (at(1, "T"), at(2, "T"), (at(3, "S") - 1) % 14, at(4, "N"), at(5, "N"))
    s = rules.setup(start, [("CST", "PPP", "TTS"), ("CCC", "SSS", "TPC")])
    s = turn(s, 3, 2, -1)
    assert s.result.winner == 1 and "triangle, triangle, square" in s.result.reason


# ------------------------------------------------------------------ a turn (TC-1)
def test_a_turn_is_a_circle_then_both_secret_bead_choices_then_the_move():
    rules = load()
    s = rules.setup((0, 4, 1, 5, 2), [("CST",), ("PPT",)])
    assert s.to_move == 1 and set(s.legal_steps()) == {"C1", "C2", "C3", "C4", "C5"}
    s = s.play("C3")
    assert s.to_move == 2 and s.private_to == 2  # the other player chooses first
    assert set(s.legal_steps()) == {"beads=1w", "beads=2w", "beads=3w", "beads=1b", "beads=2b", "beads=3b"}
    s = s.play("beads=3w")
    assert s.secrets()[2]["beads"] == "3w" and "beads" not in s.secrets()[1]
    assert not any("3" in e or "white" in e for e in s.events)  # nothing said but that beads were chosen
    assert rules.public_text("beads=3w") == "beads"
    assert s.to_move == 1 and s.private_to == 1
    s = s.play("beads=1b")
    # Revealed together: both choices in the events, and the move asked for.
    assert "3 white beads (+3)" in s.events[0] and "1 black bead (-1)" in s.events[0]
    assert "2 spaces clockwise" in s.events[0]
    assert s.phase == "movement" and s.legal_steps() == ("c3.1-c3.3",)
    assert s.secrets() == {1: {"goals": "CST"}, 2: {"goals": "PPT"}}  # revealed: no longer a secret
    why = s.why_illegal("c3.1-c3.4")
    assert "to c3.3" in why and "TC-1" in why
    assert "not C2" in s.why_illegal("c2.4-c2.6")
    s = s.play("c3.1-c3.3")
    assert s.tokens == (0, 4, 3, 5, 2) and s.to_move == 2 and s.stage == "circle"


def test_bead_choices_are_one_to_three_of_one_colour():
    rules = load()
    for bad in ("beads=0w", "beads=4w", "beads=0", "beads=+4", "beads=2x"):
        with pytest.raises(engine.IllegalStep):
            rules.parse(bad)
    assert rules.parse("beads=+2") == "beads=2w" and rules.parse("beads=-3") == "beads=3b"


def test_a_move_wraps_round_the_track_both_ways():
    rules = load()
    s = rules.setup((12, 4, 1, 5, 2), [("CST",), ("PPT",)])
    s = s.play("C1").play("beads=3w").play("beads=2w")
    assert s.legal_steps() == ("c1.12-c1.3",)
    s = rules.setup((1, 4, 1, 5, 2), [("CST",), ("PPT",)])
    s = s.play("C1").play("beads=3b").play("beads=3b")
    assert s.legal_steps() == ("c1.1-c1.9",)  # six anticlockwise


def test_a_zero_sum_leaves_the_token_and_ends_the_turn_without_a_step_on_the_board():
    s = load().setup((0, 4, 1, 5, 2), [("CST",), ("PPT",)])
    s = s.play("C2").play("beads=2b").play("beads=2w")
    assert s.tokens == (0, 4, 1, 5, 2) and s.stage == "circle" and s.to_move == 2
    assert "sum to 0" in s.events[0]


def test_steps_out_of_turn_are_refused_with_the_rule():
    s = load().setup((0, 4, 1, 5, 2), [("CST",), ("PPT",)])
    assert "names a circle" in s.why_illegal("beads=1w")
    assert "Lockdown" in s.play("C1").why_illegal("block")
    assert "already named" in s.play("C1").why_illegal("C2")
    assert "goals are written down" in s.why_illegal("goal=CST")
    assert "z9" in s.why_illegal("z9-c1.0")
    assert "stays on its circle" in s.why_illegal("c1.0-c2.1")


# ------------------------------------------------------------------ wins (TC-3)
def test_three_adjacent_tokens_on_your_colour_win():
    rules = load()
    start = (at(1, "W"), at(2, "W"), (at(3, "W") - 2) % 14, at(4, "N"), at(5, "N"))
    s = turn(rules.setup(start, [("CST",), ("PPT",)]), 3, 1, 1)
    assert s.result.winner == 1 and "all stand on white" in s.result.reason
    assert s.phase == "over" and s.legal_steps() == ()


def test_a_goal_wins_read_forward_and_read_backward():
    rules = load()
    # Goal circle, square, pentagon on C2 C3 C4, forward.
    start = (at(1, "N"), at(2, "C"), (at(3, "S") + 1) % 14, at(4, "P"), at(5, "N"))
    s = turn(rules.setup(start, [("CSP",), ("TTT",)]), 3, -2, 1)
    assert s.result.winner == 1 and "read forward" in s.result.reason
    # The same goal read backward: C2 C3 C4 show pentagon, square, circle.
    start = (at(1, "N"), at(2, "P"), (at(3, "S") + 1) % 14, at(4, "C"), at(5, "N"))
    s = turn(rules.setup(start, [("CSP",), ("TTT",)]), 3, -2, 1)
    assert s.result.winner == 1 and "read backward" in s.result.reason
    assert "secret goal circle, square, pentagon" in s.result.reason  # the win by a goal is announced


def test_the_order_of_a_goal_matters():
    rules = load()
    # Circle, pentagon, square is neither circle, square, pentagon nor its reverse.
    start = (at(1, "N"), at(2, "C"), (at(3, "P") + 1) % 14, at(4, "S"), at(5, "N"))
    s = turn(rules.setup(start, [("CSP",), ("TTT",)]), 3, -2, 1)
    assert s.result is None and s.symbols()[1:4] == ("C", "P", "S")


def test_a_triple_across_c5_and_c1_counts():
    rules = load()
    start = (at(1, "T"), at(2, "N"), at(3, "N"), at(4, "S"), (at(5, "P") - 3) % 14)
    s = turn(rules.setup(start, [("CCC",), ("SPT",)]), 5, 2, 1)
    assert s.result.winner == 2 and "C4, C5, C1" in s.result.reason


def test_wild_cards_let_your_colour_stand_for_a_shape():
    # Player 2 plays black; goal square, circle, pentagon; tokens on square, black, pentagon.
    start = (at(1, "N"), at(2, "S"), (at(3, "B") - 1) % 14, at(4, "P"), at(5, "N"))
    goals = [("TTT",), ("SCP",)]
    s = turn(load(wild_cards=True).setup(start, goals), 3, 2, -1)
    assert s.result.winner == 2 and "black standing in as a wild card" in s.result.reason
    s = turn(load().setup(start, goals), 3, 2, -1)
    assert s.result is None  # without Wild Cards black is not a shape
    # Black, circle, black wins too; white (the other player's colour) never stands in for player 2.
    start = (at(1, "N"), at(2, "B"), (at(3, "C") - 1) % 14, at(4, "B"), at(5, "N"))
    assert turn(load(wild_cards=True).setup(start, goals), 3, 2, -1).result.winner == 2
    start = (at(1, "N"), at(2, "W"), (at(3, "C") - 1) % 14, at(4, "W"), at(5, "N"))
    assert turn(load(wild_cards=True).setup(start, goals), 3, 2, -1).result is None


def test_when_both_players_win_at_once_the_player_who_named_the_circle_wins():
    # One move makes C1 C2 C3 player 1's goal and C3 C4 C5 player 2's.
    start = (at(1, "C"), at(2, "T"), (at(3, "S") - 2) % 14, at(4, "P"), at(5, "P"))
    goals = [("CTS",), ("SPP",)]
    for mover in (1, 2):
        s = turn(load().setup(start, goals, mover=mover), 3, 1, 1)
        assert s.result.winner == mover, s.result.reason
        assert "also completed a row" in s.result.reason and "TC-3" in s.result.reason
    # When only the other player's row is made, they win, whoever moved.
    s = turn(load().setup(start, [("PPP",), ("SPP",)], mover=1), 3, 1, 1)
    assert s.result.winner == 2


def test_the_goals_are_revealed_only_when_the_game_ends():
    start = (at(1, "W"), at(2, "W"), (at(3, "W") - 2) % 14, at(4, "N"), at(5, "N"))
    s = load().setup(start, [("CST",), ("PPT",)])
    s = s.play("C3").play("beads=1w")
    assert s.revealed_goals == () and s.secrets()[2] == {"goals": "PPT", "beads": "1w"}
    s = s.play("beads=1w").play(s.play("beads=1w").legal_steps()[0])
    assert s.result is not None and s.secrets() == {}
    assert s.revealed_goals == (("CST",), ("PPT",))
    assert any("circle, square, triangle" in e for e in s.events)
    assert any("pentagon, pentagon, triangle" in e for e in s.events)


def test_player_one_may_play_black():
    rules = load(first="black")
    assert rules.colour_name(1) == "black" and rules.colour_name(2) == "white"
    start = (at(1, "B"), at(2, "B"), (at(3, "B") - 2) % 14, at(4, "N"), at(5, "N"))
    assert turn(rules.setup(start, [("CST",), ("PPT",)]), 3, 1, 1).result.winner == 1
    with pytest.raises(engine.BadOption):
        engine.load(GAME, first="red")


# ------------------------------------------------------------------ Lockdown (TC-4)
def test_a_blocker_is_gained_on_a_zero_move_onto_a_neutral_space():
    rules = load(lockdown=True)
    s = rules.setup((0, 4, 1, 5, 2), [("CST",), ("PPT",)])  # every token on neutral
    assert s.blockers == (1, 1)
    s = s.play("C1").play("beads=2w").play("beads=2b")
    assert s.tokens[0] == 0 and s.blockers == (2, 1)
    assert "gains a Blocker" in s.events[-1] and "TC-4" in s.events[-1]


def test_a_blocker_is_gained_by_the_player_to_move_when_the_token_ends_on_neutral():
    rules = load(lockdown=True)
    s = rules.setup(((at(1, "N", 1) - 3) % 14, 4, 1, 5, 2), [("CST",), ("PPT",)], mover=2)
    s = turn(s, 1, 2, 1)
    assert BOARD.symbol(1, s.tokens[0]) == "N" and s.blockers == (1, 2)
    s = turn(s, 2, 1, 1)  # player 1 moves C2's token off neutral: no Blocker
    assert BOARD.symbol(2, s.tokens[1]) != "N" and s.blockers == (1, 2)
    # Without Lockdown nobody holds or gains one.
    s = load().setup((0, 4, 1, 5, 2), [("CST",), ("PPT",)]).play("C1").play("beads=1w").play("beads=1b")
    assert s.blockers == (0, 0)


def test_a_blocker_forces_another_circle_once_a_turn():
    rules = load(lockdown=True)
    s = rules.setup((0, 4, 1, 5, 2), [("CST",), ("PPT",)])
    s = s.play("C3")
    assert "block" in s.legal_steps() and s.to_move == 2
    s = s.play("block")
    assert s.blockers == (1, 0) and s.to_move == 1 and s.stage == "circle"
    assert "C3" not in s.legal_steps() and len(s.legal_steps()) == 4
    assert "Blocker was spent on C3" in s.why_illegal("C3")
    s = s.play("C4")
    assert "block" not in s.legal_steps()
    assert "one Blocker a turn" in s.why_illegal("block")
    s = s.play("beads=1w").play("beads=1w")
    s = s.play(s.legal_steps()[0])
    # Next turn the blocked circle may be named again; player 2 has no Blocker left to spend, player 1 does.
    assert "C3" in s.legal_steps()
    s = s.play("C3")
    assert "block" in s.legal_steps()
    s = rules.setup((0, 4, 1, 5, 2), [("CST",), ("PPT",)], blockers=(1, 0)).play("C3")
    assert "block" not in s.legal_steps() and "no Blocker" in s.why_illegal("block")


# ------------------------------------------------------------------ draws (G-3)
def test_a_third_repetition_of_a_turn_start_draws():
    s = load().setup((0, 4, 1, 5, 2), [("CST",), ("PPT",)])
    for _ in range(3):  # nothing moves; the turn passes: player 2's turn starts twice, player 1's three times
        s = s.play("C1").play("beads=1w").play("beads=1b")
        assert s.result is None
    s = s.play("C1").play("beads=1w").play("beads=1b")
    assert s.result.draw and "third time" in s.result.reason
    assert any("goal" in e for e in s.events)  # the goals are revealed at a draw too


def test_the_move_cap_draws():
    rules = engine.load(GAME, move_cap=4).rules
    s = rules.setup((0, 4, 1, 5, 2), [("CST",), ("PPT",)])
    for k in (1, 2, 3, 4):
        s = turn(s, k, 2, -1)  # each circle's token one space on: no row is made
    assert s.result.draw and "4 moves" in s.result.reason


# ------------------------------------------------------------------ complete games
def has_row(symbols, goals, mine: str, wild: bool) -> bool:
    """TC-3 worked out again, independently of the engine: any of the 5 triples, either way round,
    all on ``mine``, or matching a goal shape for shape (``mine`` standing in when ``wild``)."""
    for i in range(5):
        seen = [symbols[(i + j) % 5] for j in range(3)]
        for order in (seen, seen[::-1]):
            if order == [mine] * 3:
                return True
            for goal in goals:
                if all(x == g or (wild and x == mine) for x, g in zip(order, goal)):
                    return True
    return False


OPTIONS = [{}, {"lockdown": True}, {"spin_cycle": 2}, {"spin_cycle": 3}, {"uncloned": True},
           {"wild_cards": True}, {"lockdown": True, "spin_cycle": 3, "uncloned": True, "wild_cards": True,
                                  "first": "black"}]


@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: ",".join(o) or "base")
def test_complete_games_by_random_legal_play_keep_every_invariant(opts):
    game = engine.load(GAME, **opts)
    rules = game.rules
    ends = {"win": 0, "draw": 0}
    for seed in range(25):
        rng = random.Random(seed)
        s = game.new()
        while s.result is None:
            pos = s.position()
            assert len(pos) == 5 and sorted(p.split(".")[0] for p in pos) == ["c1", "c2", "c3", "c4", "c5"]
            legal = s.legal_steps()
            assert legal and all(s.why_illegal(x) is None for x in legal)
            if s.private_to is not None:  # a secret step: never shown to the other player
                assert all(rules.public_text(x) in ("goal", "beads", "block") for x in legal)
            for p, mine in s.secrets().items():
                for e in s.events:
                    if "beads" in mine and s.stage != "move":
                        assert "revealed" not in e
            before_blockers = s.blockers
            step = rng.choice(legal)
            nxt = s.play(step)
            if nxt.moves > s.moves:  # a move was made (a zero one too): TC-3 after it, worked out again
                wild = rules.settings.wild_cards
                sym = [BOARD.symbol(k, t) for k, t in enumerate(nxt.tokens, 1)]
                rows = [has_row(sym, nxt.goals[p], rules.colour_symbol[p], wild) for p in (0, 1)]
                if nxt.result is None or nxt.result.draw:
                    assert rows == [False, False]
                else:
                    assert rows[nxt.result.winner - 1]
                    assert all(rows) <= (nxt.result.winner == s.mover)
            if step.kind == MOVE:
                total = sum(s.beads)
                assert nxt.tokens[s.circle - 1] == (s.tokens[s.circle - 1] + total) % 14
                assert sum(1 for a, b in zip(s.tokens, nxt.tokens) if a != b) == 1
            if step == "block":
                assert sum(nxt.blockers) == sum(before_blockers) - 1
            assert min(nxt.blockers) >= 0
            if not opts.get("lockdown"):
                assert nxt.blockers == (0, 0)
            s = nxt
        assert s.phase == "over" and s.legal_steps() == () and s.secrets() == {}
        assert len(s.revealed_goals[0]) == len(s.revealed_goals[1]) == rules.settings.goals
        if s.result.draw:
            ends["draw"] += 1
            assert not s.wins_for(1) and not s.wins_for(2)
        else:
            ends["win"] += 1
            assert s.wins_for(s.result.winner)
            if s.wins_for(3 - s.result.winner):
                assert s.result.winner == s.mover  # TC-3
    assert ends["win"] > 15


# ------------------------------------------------------------------ reading the board (circles_explain)
def board_after(state, sees, moves=()):
    ex = state.rules.explainer(sees)
    pos = dict(state.position())
    for a, b in moves:
        pos[b] = pos.pop(a)
    return ex, tuple(ex.value(pos.get(s)) for s in ex.spots)


@pytest.mark.parametrize("sees", ["occupancy", "colour"])
def test_the_explainer_reads_the_token_move_and_offers_no_secret_on_the_buttons(sees):
    s = load(lockdown=True).setup((0, 4, 1, 5, 2), [("CST",), ("PPT",)])
    ex, _ = board_after(s, sees)
    assert sorted(map(str, ex.unseen_steps(s))) == ["C1", "C2", "C3", "C4", "C5"]
    s = s.play("C3")
    assert list(map(str, ex.unseen_steps(s))) == ["block"]  # beads are given privately, never offered
    s = s.play("beads=3w")
    assert ex.unseen_steps(s) == []
    # A token moved before the reveal is refused, saying why.
    ex, key = board_after(s, sees, [("c3.1", "c3.3")])
    assert ex.explain(s, key, {}, 1) == []
    assert "only once the beads are revealed" in ex.reason(s, key)
    s = s.play("beads=1b")
    ex, key = board_after(s, sees, [("c3.1", "c3.3")])
    (found,) = ex.explain(s, key, {}, 1)
    assert found.steps == ("c3.1-c3.3",) and found.state.tokens[2] == 3
    ex, key = board_after(s, sees, [("c3.1", "c3.5")])
    assert "to c3.3" in ex.reason(s, key)
    ex, key = board_after(s, sees, [("c2.4", "c2.6")])
    assert "not C2" in ex.reason(s, key)
    pos = dict(s.position())
    del pos["c3.1"]
    key = tuple(ex.value(pos.get(x)) for x in ex.spots)
    progress = ex.in_progress(s, key)
    assert progress.points == ("c3.3",) and "c3.3" in progress.message
