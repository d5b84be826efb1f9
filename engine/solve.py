"""Solved games: the game-theoretic value of every position of the small games, for hints.

The 3x3 games (Three Men's Morris, Tapatan, Achi, Tant Fant, Shisima, Sabr, Jare) and the small
two-square games won by the first line with three men each (Tatu Vyura, Tatu Nyoka, Tatu Ndege,
Moja na Nusu: 372,281 positions) have few enough positions to solve outright by retrograde
analysis. (With four men, Ene Vyura and Ene Nyoka have 2.3 million: a minute and a half and
well over a gigabyte in pure Python, too much for the Pi, so ``solvable`` says no.) The analysis: every position reachable from the start is listed, the ended ones are valued, and
values flow back along the moves until nothing changes. A position is a win (the player to move
can force one), a loss, or a draw (neither can force a win: play can go round for ever, which the
repetition rule G-3 ends as a draw), with the number of steps to the end under best play (the
winner hurrying, the loser holding out). Tableaux needs no table: with ``n`` chips left and takes
of 1..``d``, the player to move loses exactly when ``n`` is one more than a multiple of ``d`` + 1.

Pure and deterministic: ``solve(game)`` returns a ``Solution`` (two flat arrays, sorted keys and
values) that the caller may keep anywhere; ``arbiter.hints`` keeps them on disk. ``hint(...)``
reads a position's value and every best step from a solution, asking the engine only for the
legal steps and the positions they lead to.

What the values leave out, on purpose: the move cap (G-3: 200 moves) never binds a game this
small when it is played well, and repetition only turns into a draw what the analysis already
calls one.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections import deque
from dataclasses import dataclass
from typing import Any

from .rules import mills
from .rules.tableaux import losing as tableaux_losing

WIN, LOSS, DRAW = "win", "loss", "draw"
VERSION = 1  # of the solver and its key and value encoding: stored solutions of another version are stale
MAX_STATES = 1_000_000  # the most positions (estimated) this module will list: about half a minute, 0.7 GB


@dataclass(frozen=True)
class Hint:
    """A position's value for the player to move, and every step that keeps it.

    ``plies``: steps (both players') to the end with best play; None for a draw.
    """

    outcome: str
    plies: int | None
    best: tuple[str, ...]

    def words(self) -> str:
        if self.outcome == DRAW:
            return "a draw with best play"
        n = self.plies
        return f"a {self.outcome} in {n} step{'s' * (n != 1)} with best play"


@dataclass
class Solution:
    """Every reachable position's value, as sorted position keys and values side by side.

    A value ``v`` is a win in ``v`` steps (``v`` > 0), a loss in ``-v - 1`` steps (``v`` < 0), or a
    draw (0). ``keys`` and ``values`` are ``array('q')`` and ``array('h')``: compact, and written to
    and read from disk as they are.
    """

    game: str
    keys: Any
    values: Any
    start_value: int = 0

    def __len__(self) -> int:
        return len(self.keys)

    def lookup(self, key: int) -> int | None:
        keys = self.keys
        i = bisect_left(keys, key)
        if i < len(keys) and keys[i] == key:
            return int(self.values[i])
        return None


def decode(v: int) -> tuple[str, int | None]:
    if v > 0:
        return WIN, v
    if v < 0:
        return LOSS, -v - 1
    return DRAW, None


def solvable(game) -> bool:
    """Whether ``game`` (an ``engine.Game``) is one this module solves."""
    if game.spec.family == "tableaux":
        return True
    if game.spec.family != "mills":
        return False
    s = game.settings
    return (s.line_effect == mills.LINE_WINS and s.players == 2 and not s.teams and not s.chain_jumps
            and not s.jump_captures and s.flying in (mills.FLY_NEVER, mills.FLY_ALWAYS)
            and estimate(game) <= MAX_STATES)


def fingerprint(game) -> str:
    """What a stored solution depends on: the solver's version and the rules that shape the
    positions (everything in the settings but the move cap, which the analysis ignores)."""
    import hashlib
    from dataclasses import replace

    s = replace(game.settings, move_cap=0)
    return hashlib.sha256(f"{VERSION}:{game.name}:{s!r}".encode()).hexdigest()[:16]


def estimate(game) -> int:
    """An upper bound on the positions with all men on the board (the bulk of the state space)."""
    from math import comb

    n = len(game.board.points)
    men = game.settings.men
    return 2 * comb(n, men) * comb(n - men, men)


def _key(men0: int, men1: int, hand0: int, hand1: int, turn: int, n: int) -> int:
    return (((turn << 3 | hand1) << 3 | hand0) << n | men1) << n | men0


def state_key(state) -> int:
    """The solver's key of an engine state of a solvable mill-family game."""
    n = state.rules.n_points
    return _key(state.men[0], state.men[1], state.hand[0], state.hand[1], state.turn, n)


class _Game:
    """The move rules of a solvable game on bitmasks, mirroring ``engine.rules.mills`` exactly."""

    def __init__(self, rules):
        s = rules.settings
        self.n = rules.n_points
        self.full = rules.full
        self.adj = rules.adj
        self.fly = s.flying == mills.FLY_ALWAYS
        self.jump_from = rules.jump_from if s.jumps else None
        self.lines = rules.counting_masks  # per player
        self.blocked_loses = s.blocked == mills.BLOCKED_LOSES

    def has_line(self, men: int, player: int) -> bool:
        for lm in self.lines[player]:
            if men & lm == lm:
                return True
        return False

    def can_move(self, men: tuple[int, int], hand: tuple[int, int], player: int) -> bool:
        """Whether ``player`` has any legal step (the cheap question behind G-2's pass)."""
        own, opp = men[player], men[1 - player]
        empty = self.full & ~(own | opp)
        if not empty:
            return False
        if hand[player] or self.fly:
            return True
        adj = self.adj
        jump_from = self.jump_from
        m = own
        while m:
            low = m & -m
            i = low.bit_length() - 1
            if adj[i] & empty:
                return True
            if jump_from:
                for over, land in jump_from[i]:
                    if opp & over and empty >> land & 1:
                        return True
            m ^= low
        return False

    def children(self, men: tuple[int, int], hand: tuple[int, int], turn: int) -> list[tuple]:
        """(men, hand) after each legal step of ``turn``, in the engine's sense of legal."""
        n = self.n
        own, opp = men[turn], men[1 - turn]
        empty = self.full & ~(own | opp)
        empties = [i for i in range(n) if empty >> i & 1]
        out = []
        if hand[turn]:
            h = (hand[0] - 1, hand[1]) if turn == 0 else (hand[0], hand[1] - 1)
            for j in empties:
                o = own | 1 << j
                out.append(((o, opp) if turn == 0 else (opp, o), h))
            return out
        mine = [i for i in range(n) if own >> i & 1]
        for i in mine:
            base = own & ~(1 << i)
            if self.fly:
                targets = empties
            else:
                a = self.adj[i] & empty
                targets = [j for j in empties if a >> j & 1]
            for j in targets:
                o = base | 1 << j
                out.append(((o, opp) if turn == 0 else (opp, o), hand))
            if self.jump_from:
                for over, land in self.jump_from[i]:
                    if opp & over and empty >> land & 1:
                        o = base | 1 << land
                        out.append(((o, opp) if turn == 0 else (opp, o), hand))
        return out


def solve(game, max_states: int = MAX_STATES) -> Solution:
    """Retrograde analysis of a solvable mill-family game (``engine.Game``) from its start."""
    if game.spec.family == "tableaux":
        raise ValueError("Tableaux is solved by its formula: see tableaux_hint()")
    if not solvable(game):
        raise ValueError(f"{game.name} is not a game this solver handles (see engine.solve.solvable)")
    rules = game.rules
    g = _Game(rules)
    n = g.n

    # 1. Every reachable position, its successors, and the ended ones.
    start = (rules.start_men, rules.start_hand, 0)
    index: dict[int, int] = {}
    nodes: list[tuple] = []
    succ_at = array("q", [0])
    succ = array("i")
    value = array("h")  # 0 unknown / draw, else encoded
    fixed = bytearray()  # 1 once known

    def add(node: tuple) -> int:
        men, hand, turn = node
        k = _key(men[0], men[1], hand[0], hand[1], turn, n)
        i = index.get(k)
        if i is None:
            i = index[k] = len(nodes)
            nodes.append(node)
            value.append(0)
            fixed.append(0)
        return i

    add(start)
    i = 0
    terminal_loss: list[int] = []
    while i < len(nodes):
        men, hand, turn = nodes[i]
        if g.has_line(men[1 - turn], 1 - turn):
            terminal_loss.append(i)  # the last step completed a counting line: the mover won
            succ_at.append(len(succ))
        else:
            kids = g.children(men, hand, turn)
            if not kids:
                if g.blocked_loses:
                    terminal_loss.append(i)  # G-2: a blocked player loses
                else:
                    fixed[i] = 1  # passing into a position where the other is blocked too: drawn
            for cm, ch in kids:
                if not g.blocked_loses and not g.has_line(cm[turn], turn) and not g.can_move(cm, ch, 1 - turn):
                    # G-2: the opponent is blocked and passes, as the engine does without a step;
                    # the same player moves again, so this edge keeps the point of view (~index)
                    succ.append(~add((cm, ch, turn)))
                else:
                    succ.append(add((cm, ch, 1 - turn)))
            succ_at.append(len(succ))
        i += 1
        if len(nodes) > max_states:
            raise ValueError(f"{game.name} has more than {max_states} positions: too many to solve here")

    # 2. Predecessors (counting sort of the edges by target).
    count = len(nodes)
    pred_at = array("q", [0]) * (count + 1)
    for t in succ:
        pred_at[(t if t >= 0 else ~t) + 1] += 1
    for k in range(count):
        pred_at[k + 1] += pred_at[k]
    fill = array("q", pred_at)
    pred = array("i", [0]) * len(succ)
    for src in range(count):
        for e in range(succ_at[src], succ_at[src + 1]):
            t = succ[e]
            if t >= 0:
                pred[fill[t]] = src
                fill[t] += 1
            else:
                pred[fill[~t]] = ~src  # a pass: the same player moves in both
                fill[~t] += 1
    left = array("i", (succ_at[k + 1] - succ_at[k] for k in range(count)))

    # 3. Values flow back, nearest ends first (so win distances are shortest, loss distances longest).
    queue: deque[int] = deque()
    for k in terminal_loss:
        value[k] = -1  # lost, 0 steps to go
        fixed[k] = 1
        queue.append(k)
    while queue:
        c = queue.popleft()
        v = value[c]
        for e in range(pred_at[c], pred_at[c + 1]):
            p = pred[e]
            same = p < 0
            if same:
                p = ~p
            if fixed[p]:
                continue
            if (v > 0) if same else (v < 0):  # the step leads to a win for the parent's mover
                value[p] = _via(v, same)
                fixed[p] = 1
                queue.append(p)
            else:
                left[p] -= 1
                if left[p] == 0:  # every step leads to a loss for the parent's mover
                    value[p] = _via(v, same)
                    fixed[p] = 1
                    queue.append(p)

    keys = sorted(index)
    keys_arr = array("q", keys)
    values_arr = array("h", (value[index[k]] for k in keys))
    return Solution(game.name, keys_arr, values_arr, start_value=value[0])


def _via(child: int, same: bool) -> int:
    """A parent's value through one step to a child of value ``child`` (one step more to the end).

    ``same``: the child has the same player to move (the opponent had to pass)."""
    if child == 0:
        return 0
    if same:
        return child + 1 if child > 0 else child - 1
    return -child if child < 0 else -child - 2  # loss in d -> win in d + 1; win in d -> loss in d + 1


def hint(solution: Solution, state) -> Hint | None:
    """The value of ``state`` (a position of ``solution``'s game) and its best steps; None if the
    position is not in the table (it cannot be reached from the start) or the game is over."""
    if state.result is not None:
        return None
    v = solution.lookup(state_key(state))
    if v is None:
        return None
    outcome, plies = decode(v)
    best = []
    for step in state.legal_steps():
        after = state.play(step)
        if after.result is not None:
            through = 0 if after.result.winner is None else (1 if after.result.winner == state.colour_to_move else -1)
        else:
            cv = solution.lookup(state_key(after))
            if cv is None:
                continue
            through = _via(cv, after.turn == state.turn)
        if through == v:
            best.append(str(step))
    return Hint(outcome, plies, tuple(best))


def tableaux_hint(state) -> Hint | None:
    """Tableaux by its formula: the last chip loses, so leave the opponent one more than a
    multiple of the draw size + 1. Steps to the end: the loser takes one chip at a time at most
    and the winner answers to keep the count, so the play lasts a fixed number of steps."""
    rnd = getattr(state, "round", state)
    if state.result is not None or getattr(state, "between", False) or rnd.phase != "taking":
        return None
    n, d = rnd.left, rnd.draw
    period = d + 1

    def plies_from_losing(m: int) -> int:
        return 2 * ((m - 1) // period) + 1  # each round of play removes d + 1; then the last chip

    if tableaux_losing(n, d):
        if n == 1:
            return Hint(LOSS, 1, ("1",))
        moves = tuple(str(t) for t in range(1, min(d, n - 1) + 1))
        return Hint(LOSS, plies_from_losing(n), moves)
    t = (n - 1) % period
    return Hint(WIN, 1 + plies_from_losing(n - t), (str(t),))


__all__ = ["DRAW", "Hint", "LOSS", "MAX_STATES", "Solution", "VERSION", "WIN", "decode", "estimate", "fingerprint",
           "hint", "solvable", "solve", "state_key", "tableaux_hint"]
