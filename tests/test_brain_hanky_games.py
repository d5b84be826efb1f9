"""Brain Hanky: complete seeded games, checked step by step against the rulings.

Games are short on purpose: a small board, ``gems=4`` per side and ``move_cap=60`` (G-3), played
by a seeded player that mostly picks the move bringing its rings closest to surrounding an
opponent gem (so captures, extra turns and wins happen), otherwise a random legal step.

Each step is checked against invariants taken from the rulings, not from the engine's tables:
rings appear only in Phase I clusters (BH-2) and vanish only by ring capture (BH-7); every ring
of a string steps one place forward (BH-3); gems on the board plus captured gems make the total
(BH-5); the side to move matches the player (BH-8 teams); a finished game has a winner or is a
draw. A few positions per game are also checked against an independent brute-force list of
string moves (BH-3, BH-4): the engine must reach exactly the same set of resulting boards, one
step per distinct board.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import engine
from engine.core import CLUSTER, MOVE

SEEDS = st.integers(0, 2**32 - 1)
# (players, size): three players get a 4x4 board, otherwise 3x3 so that the webs are crowded.
CONFIGS = [(2, 3), (3, 4), (4, 3)]


def sides_of(players):
    return 2 if players == 4 else players


def ring_counts(state):
    counts = {side: 0 for side in range(1, state.rules.sides + 1)}
    for pc in state.position().values():
        if pc.kind == "ring":
            counts[pc.owner] += 1
    return counts


def gem_counts(state):
    counts = {side: 0 for side in range(1, state.rules.sides + 1)}
    for pc in state.position().values():
        if pc.kind == "gem":
            counts[pc.owner] += 1
    return counts


def rings_map(state):
    return {p: pc.owner for p, pc in state.position().items() if pc.kind == "ring"}


def closeness(state, side):
    """How near ``side`` is to surrounding opponent gems: sum of squares of its rings per square."""
    pos = state.position()
    squares = state.rules.hboard.squares
    score = 100 * state.piles_by_side()[side]
    for sq, pc in pos.items():
        if pc.kind == "gem" and pc.owner != side:
            mine = sum(1 for p in squares[sq].points.values() if p in pos and pos[p].owner == side)
            score += mine * mine
    return score


def choose(state, rng):
    steps = state.legal_steps()
    if state.phase == "movement" and rng.random() < 0.7:
        me = state.side + 1
        scored = [(closeness(state.play(step), me), step) for step in steps]
        best = max(v for v, _ in scored)
        steps = [step for v, step in scored if v == best]
    return rng.choice(steps)


# ---------------------------------------------------------------------------- brute force (BH-3, BH-4)
def brute_force_results(state, limit=20000):
    """Every board reachable by one ring move of the side to move, by plain enumeration of
    simple paths (BH-3) with the crossing rule checked for each stepping ring (BH-4).
    Returns None if there are too many paths to enumerate."""
    hb = state.rules.hboard
    nb = hb.graph.neighbours
    web = hb.point_web
    owner = rings_map(state)
    me = state.side + 1
    results = set()
    count = 0

    def blocked(a, b, ring_side):
        for c, d in hb.crossing.get((a, b), ()):
            oc, od = owner.get(c), owner.get(d)
            if oc and od and oc != ring_side and od != ring_side:
                return True
        return False

    def extend(path):
        nonlocal count
        last = path[-1]
        for x in nb[last]:
            if x in path or web[x] != web[path[0]]:
                continue
            if blocked(last, x, owner[last]):
                continue
            count += 1
            if count > limit:
                raise OverflowError
            if x not in owner:
                after = dict(owner)
                del after[path[0]]
                for a, b in zip(path, path[1:] + [x]):
                    after[b] = owner[a]
                results.add(tuple(sorted(after.items())))
            else:
                extend(path + [x])

    try:
        for p0, side in owner.items():
            if side == me:
                extend([p0])
    except OverflowError:
        return None
    return results


def check_moves_against_brute_force(state):
    expected = brute_force_results(state)
    if expected is None:
        return
    steps = state.legal_steps()
    got = {}
    for step in steps:
        after = state.play(step)
        # compare boards before any capture: rebuild from the path (BH-3)
        owner = rings_map(state)
        board = dict(owner)
        del board[step.path[0]]
        for a, b in zip(step.path, step.path[1:]):
            board[b] = owner[a]
        got.setdefault(tuple(sorted(board.items())), []).append(step)
        assert after is not None
    assert set(got) == expected, "legal_steps must reach exactly the boards the rules allow"
    dupes = {k: v for k, v in got.items() if len(v) > 1}
    assert not dupes, f"one step per distinct resulting position: {list(dupes.values())[:2]}"


# ---------------------------------------------------------------------------- invariants
def check_step(before, step, after, players, gems_each, ring_capture):
    sides = sides_of(players)
    # BH-8: the side to move follows from the player (teams alternate with four players).
    for s in (before, after):
        if s.result is None:
            assert 1 <= s.to_move <= players
            assert s.side == ((s.to_move - 1) % 2 if players == 4 else s.to_move - 1)
    assert before.why_illegal(step) is None
    rb, ra = ring_counts(before), ring_counts(after)
    gb, ga = gem_counts(before), gem_counts(after)
    mover = before.side + 1
    if step.kind == CLUSTER:
        # BH-2: a cluster is the mover's gem and four rings on a whole empty square.
        assert before.phase == "placement"
        for side in range(1, sides + 1):
            if side == mover:
                assert ra[side] == rb[side] + 4
                assert ga[side] == gb[side] + 1
            elif not ring_capture:
                assert ra[side] == rb[side]
        pos = after.position()
        assert pos[step] == engine.Piece(mover, "gem")
    else:
        assert step.kind == MOVE and before.phase == "movement"
        owner, now = rings_map(before), rings_map(after)
        assert owner[step.path[0]] == mover, "a move starts with the mover's ring (BH-3)"
        assert step.path[0] not in now
        for a, b in zip(step.path, step.path[1:]):
            if b in now:
                assert now[b] == owner[a], "every ring steps one place forward, in order (BH-3)"
            else:
                assert ring_capture, "a ring vanished without ring capture"
        assert ra[mover] == rb[mover], "the mover never loses rings on its own move"
        for side in range(1, sides + 1):
            if not ring_capture:
                assert ra[side] == rb[side], "rings appear or vanish only by ring capture (BH-7)"
            assert ra[side] <= rb[side]
            assert ga[side] <= gb[side]
        # BH-5: only the mover captures, and only opponent gems.
        assert ga[mover] == gb[mover]
        gained = after.piles_by_side()[mover] - before.piles_by_side()[mover]
        assert gained == sum(gb.values()) - sum(ga.values())
        for side in range(1, sides + 1):
            if side != mover:
                assert after.piles_by_side()[side] == before.piles_by_side()[side]
        if after.result is None:
            if gained and not after.rules.settings.extra_move:
                # BH-6: the capturing player finishes the turn, then gets one more turn.
                assert after.to_move == before.to_move
            if before.moves_left > 1 and not gained:
                assert after.to_move == before.to_move and after.moves_left == before.moves_left - 1
    # Gems: on the board plus captured = placed so far; moves never add or lose one (BH-5), and
    # once Phase I is over every gem is placed if both webs had room for them (BH-2).
    placed = sum(ga.values()) + sum(after.piles_by_side().values())
    if step.kind == MOVE:
        assert placed == sum(gb.values()) + sum(before.piles_by_side().values())
        whole = after.rules.hboard.whole_squares
        if all(len(whole[web]) >= sides * gems_each // 2 for web in "OB"):
            assert placed == gems_each * sides
    # Rings: on the board plus captured = four per placed cluster.
    assert sum(ra.values()) + sum(after.rings_captured_by_side().values()) == 4 * placed
    if after.result is not None:
        r = after.result
        assert r.draw != (r.winner is not None)
        if r.winner is not None:
            assert 1 <= r.winner <= sides
        assert after.legal_steps() == ()
        assert after.phase == "over"
    else:
        assert after.legal_steps(), "a running game always has a step (G-2 passes a blocked player)"
        if after.phase == "movement":
            assert 1 <= after.moves_left <= 3
            assert ga[after.side + 1] > 0, "a side with no gems left is out and does not move (BH-8)"


def play_game(players, size, periodic, seed, ring_capture=False, extra_move=False, brute_every=7):
    gems_each = 4
    g = engine.load("brain-hanky", players=players, size=size, periodic=periodic, gems=gems_each,
                    move_cap=60, ring_capture=ring_capture, extra_move=extra_move)
    rng = random.Random(seed)
    s = g.new()
    n = 0
    while s.result is None:
        assert n < 2000, "a gems=4, move_cap=60 game must end long before this"
        if s.phase == "movement" and n % brute_every == 0:
            check_moves_against_brute_force(s)
        step = choose(s, rng)
        nxt = s.play(step)
        check_step(s, step, nxt, players, gems_each, ring_capture)
        if nxt.phase == "movement" and s.phase == "placement":
            assert nxt.to_move == 1 and nxt.moves_left == 2  # BH-2
        s = nxt
        n += 1
    return s


# ---------------------------------------------------------------------------- the games
@pytest.mark.parametrize("players,size", CONFIGS)
@pytest.mark.parametrize("periodic", [False, True], ids=["plain", "periodic"])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_complete_random_games_end_with_a_winner_or_a_draw(players, size, periodic, seed):
    end = play_game(players, size, periodic, seed)
    assert end.result is not None
    assert end.result.winner is not None or end.result.draw


@pytest.mark.parametrize("players,size", [(2, 3), (3, 4)])
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_complete_games_with_ring_capture_and_extra_move(players, size, seed):
    # BH-7 and the BH-6 variant together: rings may vanish, but only the mover's opponents'
    end = play_game(players, size, False, seed, ring_capture=True, extra_move=True)
    assert end.result is not None


@pytest.mark.parametrize("players,size", [(2, 3), (4, 3)])
@pytest.mark.parametrize("periodic", [False, True], ids=["plain", "periodic"])
def test_a_decisive_game(players, size, periodic):
    # BH-8: the first seeded game (of a few) that does not hit the move cap ends with every
    # opponent gem captured, and the winner's pile holds all of them
    for seed in range(16):
        end = play_game(players, size, periodic, seed, brute_every=10**9)
        if end.result.winner is not None:
            break
    else:
        pytest.fail("no decisive game in 16 seeds")
    loser = 3 - end.result.winner
    assert gem_counts(end)[loser] == 0
    assert end.piles_by_side()[end.result.winner] == 4
    assert "every opponent gem" in end.result.reason


def test_a_decisive_three_player_game():
    # BH-8: with three players the game ends once one side is out: the side left with the bigger
    # pile wins (a tie plays on until the next gem capture)
    for seed in range(12):
        end = play_game(3, 3, False, seed, brute_every=10**9)
        if end.result.winner is not None:
            break
    else:
        pytest.fail("no decisive three-player game in 12 seeds")
    gems = gem_counts(end)
    out = [side for side in (1, 2, 3) if gems[side] == 0]
    assert out, "someone must be out of gems"
    assert end.result.winner not in out
    alive = [side for side in (1, 2, 3) if side not in out]
    if len(alive) == 2 and "tie" not in end.result.reason:
        piles = end.piles_by_side()
        other = [side for side in alive if side != end.result.winner][0]
        assert piles[end.result.winner] > piles[other]
