"""Solved games (engine.solve) and their hints (arbiter.hints, `arbiter hint`).

The solver works on bitmasks for speed; these tests check it against a second, plain analysis
that knows nothing but the engine's public API (``legal_steps``, ``play``, ``result``), over every
reachable position of each 3x3 game.
"""

import json
import pytest
from click.testing import CliRunner

import engine
from arbiter.cli import main
from arbiter.hints import HintError, HintStore, solved_games
from engine import solve as solver

THREE_BY_THREE = ["three-mens-morris", "tapatan", "achi", "tant-fant", "shisima", "sabr", "jare"]


def plain_values(game):
    """Win/loss/draw of every position reachable from the start, by the engine's own rules:
    positions are keyed by the pieces, hands and turn; values found by iterating to a fixed point."""
    start = game.new()
    states = {solver.state_key(start): start}
    order = [start]
    kids = {}
    for s in order:
        k = solver.state_key(s)
        kids[k] = []
        for step in s.legal_steps():
            after = s.play(step)
            if after.result is not None:
                kids[k].append(("end", after.result.winner == s.colour_to_move, after.result.draw))
                continue
            ak = solver.state_key(after)
            kids[k].append(("pos", ak, after.turn == s.turn))
            if ak not in states:
                states[ak] = after
                order.append(after)
    value = {}
    changed = True
    while changed:
        changed = False
        for k, options in kids.items():
            if k in value:
                continue
            outs = []
            for o in options:
                if o[0] == "end":
                    outs.append(0 if o[2] else (1 if o[1] else -1))
                elif o[1] in value:
                    outs.append(value[o[1]] if o[2] else -value[o[1]])
                else:
                    outs.append(None)
            if 1 in outs:
                value[k], changed = 1, True
            elif outs and all(v == -1 for v in outs):
                value[k], changed = -1, True
    return {k: value.get(k, 0) for k in kids}


@pytest.mark.parametrize("name", THREE_BY_THREE)
def test_the_solver_agrees_with_a_plain_analysis_of_the_engine(name):
    game = engine.load(name)
    sol = solver.solve(game)
    plain = plain_values(game)
    sign = {solver.WIN: 1, solver.LOSS: -1, solver.DRAW: 0}
    for k, v in plain.items():
        got = sol.lookup(k)
        assert got is not None
        assert sign[solver.decode(got)[0]] == v, (name, k)


def test_known_values_from_the_start():
    assert solver.decode(solver.solve(engine.load("tapatan")).start_value)[0] == solver.WIN  # the centre wins
    assert solver.decode(solver.solve(engine.load("three-mens-morris")).start_value)[0] == solver.DRAW


@pytest.mark.parametrize("name", ["tapatan", "achi"])
def test_best_play_wins_in_the_number_of_steps_promised(name):
    game = engine.load(name)
    sol = solver.solve(game)
    s = game.new()
    first = solver.hint(sol, s)
    assert first.outcome == solver.WIN
    plies = 0
    while s.result is None:
        h = solver.hint(sol, s)
        assert h.best, "every undecided position has a best step"
        expected = first.plies - plies
        assert h.plies == expected
        s = s.play(h.best[-1])
        plies += 1
    assert plies == first.plies and s.result.winner == 1


def test_every_best_step_keeps_the_value():
    game = engine.load("sabr")
    sol = solver.solve(game)
    s = game.new().play("a1-a4").play("a7*a1")
    h = solver.hint(sol, s)
    for step in h.best:
        after = s.play(step)
        if after.result is None:
            child = solver.hint(sol, after)
            assert (child.outcome, h.outcome) in {(solver.LOSS, solver.WIN), (solver.WIN, solver.LOSS),
                                                  (solver.DRAW, solver.DRAW)}


def test_which_games_are_solved():
    names = set(solved_games())
    assert set(THREE_BY_THREE) <= names
    assert {"tatu-vyura", "tatu-nyoka", "tatu-ndege", "moja-na-nusu", "tableaux"} <= names
    assert not names & {"ene-vyura", "ene-nyoka", "saba", "nine-mens-morris", "kunjing", "stack"}


@pytest.mark.parametrize("chips,draw", [(25, 3), (30, 5), (17, 4), (48, 9)])
def test_tableaux_formula_matches_a_plain_search(chips, draw):
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def value(n):  # (wins?, plies) for the player to move with n chips left
        best = None
        for t in range(1, min(draw, n) + 1):
            if t == n:
                cand = (False, 1)  # taking the last chip loses at once
            else:
                w, p = value(n - t)
                cand = (not w, p + 1)
            if best is None or (cand[0] and (not best[0] or cand[1] < best[1])) or \
                    (not cand[0] and not best[0] and cand[1] > best[1]):
                best = cand
        return best

    g = engine.load("tableaux", advanced=True)
    s = g.new().play(f"chips={chips}").play(f"draw={draw}") if chips >= 25 else None
    for n in range(1, chips + 1):
        wins, plies = value(n)
        assert solver.tableaux_losing(n, draw) == (not wins)
        if s is not None and n == chips:
            h = solver.tableaux_hint(s)
            assert (h.outcome == solver.WIN) == wins and h.plies == plies


# ------------------------------------------------------------------------------ the disk cache
def test_a_solution_is_written_once_and_read_back(tmp_path):
    game = engine.load("tapatan")
    store = HintStore(tmp_path)
    first = store.hint(game, game.new())
    files = sorted(p.name for p in tmp_path.iterdir())
    assert len(files) == 3 and any(f.endswith(".keys") for f in files)
    again = HintStore(tmp_path)
    sol = again._read(game)
    assert sol is not None and list(sol.keys) == list(store.solution(game).keys)
    assert again.hint(game, game.new()) == first


def test_a_damaged_cache_file_is_solved_again(tmp_path):
    game = engine.load("jare")
    HintStore(tmp_path).solution(game)
    for p in tmp_path.glob("*.values"):
        p.write_bytes(b"\x00")
    store = HintStore(tmp_path)
    assert store._read(game) is None
    assert store.hint(game, game.new()).outcome == solver.DRAW


def test_an_unwritable_cache_warns_once_and_keeps_the_solution_in_memory(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    said = []
    store = HintStore(blocker / "solved", warn=said.append)
    for name in ("jare", "tapatan", "jare"):
        game = engine.load(name)
        assert store.hint(game, game.new()).outcome in (solver.WIN, solver.DRAW)
    assert len(said) == 1 and "ARBITER_CACHE_DIR" in said[0] and "memory" in said[0]


def test_no_hint_for_an_unsolved_game(tmp_path):
    with pytest.raises(HintError, match="not a solved game"):
        HintStore(tmp_path).hint(engine.load("saba"), engine.load("saba").new())


def test_the_fingerprint_follows_the_rules():
    assert solver.fingerprint(engine.load("tapatan")) == solver.fingerprint(engine.load("tapatan", move_cap=50))
    assert solver.fingerprint(engine.load("tapatan")) != solver.fingerprint(engine.load("achi"))


# ----------------------------------------------------------------------------- arbiter hint
def _record(tmp_path, data):
    p = tmp_path / "game.json"
    p.write_text(json.dumps(data))
    return str(p)


def test_arbiter_hint_prints_the_value_and_the_best_steps(tmp_path):
    run = CliRunner().invoke
    f = _record(tmp_path, {"game": "tapatan", "steps": ["d4", "a1"]})
    out = run(main, ["hint", f, "--cache-dir", str(tmp_path / "c")])
    assert out.exit_code == 0, out.output
    assert "player 1 to move; a win in 7 steps" in out.output and "best steps: g4 d7" in out.output
    out = run(main, ["hint", f, "--json", "--cache-dir", str(tmp_path / "c")])
    assert json.loads(out.output) == {"game": "tapatan", "to_move": 1, "value": "win", "steps": 7,
                                      "best": ["g4", "d7"]}


def test_arbiter_hint_refuses_what_it_cannot_answer(tmp_path):
    run = CliRunner().invoke
    out = run(main, ["hint", _record(tmp_path, {"game": "saba", "steps": []})])
    assert out.exit_code == 2 and "not a solved game" in out.output
    out = run(main, ["hint", _record(tmp_path, {"game": "tapatan", "steps": ["d4", "d4"]})])
    assert out.exit_code == 1 and "occupied" in out.output
    out = run(main, ["hint", _record(tmp_path, {"game": "tapatan", "steps": ["a1", "d1", "d4", "g1", "g7"]})])
    assert out.exit_code == 2 and "over" in out.output


def test_arbiter_hint_tableaux_by_its_formula(tmp_path):
    out = CliRunner().invoke(main, ["hint", _record(tmp_path, {"game": "tableaux", "steps": ["2"]})])
    assert out.exit_code == 0 and "player 2 to move; a win in 12 steps" in out.output and "best step: 2" in out.output
