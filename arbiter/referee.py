"""The referee: holds the game, and judges every stable board against what the rules allow.

The referee is pure logic: it is handed stable observations (``arbiter.stabiliser``), asks the
engine what may happen, and answers with a ``Verdict``. It never touches a journal, a clock or an
LED; the caller does, in this order, so that nothing announced can be lost in a power cut::

    verdict = referee.observe(observation)    # the referee's state has moved on
    journal.write(verdict.undone, verdict.steps)   # flushed to disk first ...
    signals.show(verdict)                           # ... then announced

How a board is judged
---------------------
A board is compared with the positions the engine predicts, *as the reader sees them*
(``engine.observation.view``): a camera sees owner and kind, a hall grid owners, a reed grid only
occupancy. The first of these that explains the board decides:

1. the current position: ``unchanged`` (or ``restored`` after a problem was put right);
2. one legal step from the current position: ``step``;
3. an earlier position of this game: ``takeback-pending``, confirmed by ``confirm_takeback()``
   (a button) or by holding the board still for ``takeback_hold_s`` (``tick(t)``). It comes
   before corrections because where a turn has several moves (Brain Hanky) a move and its
   reverse would otherwise read a take-back as a correction;
4. one step from the position before the last accepted step(s), in place of them: ``correction``
   (the classic: a piece put down on a point, then slid one point further);
5. two steps from the current position: ``steps`` (two quick moves, a mill and its removal at
   once, two moves of one Brain Hanky turn);
6. two steps in place of the last accepted ones: ``correction``;
7. a step half made (a piece lifted, a cluster half placed): ``in-progress``, nothing is wrong;
8. anything else: ``illegal``, with the rule broken and the points that differ. The game waits
   until the board is put back (``restored``) or shows a legal step.

Fewer assumed steps win: a board that one correction explains is not read as two new steps.
When two explanations fit equally (an occupancy grid cannot tell whose piece went where) the
verdict is ``ambiguous`` with the candidates; ``choose(candidate)`` settles it. A step that leaves
something to take off (a mill's removal, a captured gem still on the cloth) makes the verdict
``waiting-removal`` with those spots in ``to_remove``.

Speed
-----
For the mill family every state's legal steps are few (at most a few dozen), so the referee keeps
for each state a table from predicted view to steps, built once and cached: judging a board is a
dict look-up, and two-step explanations look only at first steps whose result differs from the
board in at most two spots (a mill step changes at most two spots). Brain Hanky cannot list its
steps (a crowded position has thousands of string moves), so it asks the engine's
``matching_steps(observed)`` instead, which searches only paths consistent with the board; two
steps are found by guessing the first step's two ends from the net change (see
``_hanky_first_steps``). ``benchmarks/referee.py`` measures both.

What each reader can referee
----------------------------
Colour and polarity readers referee every game. An occupancy-only reader referees the mill
family fully (whose turn it is says whose piece went down; which piece was removed is visible),
except that two quick steps may be ambiguous (a1-a4 and d7-g7 or a1-g7 and d7-a4). For Brain
Hanky it is not enough: a string move recolours the rings it pushes and the start and end points
are all an occupancy grid sees, so most string moves are ambiguous and need a button answer.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Iterable, Iterator, Sequence

import engine
from engine.core import CLUSTER, JUMP, MOVE, PLACE, REMOVE, Piece, Step
from engine.observation import OCCUPIED, SEES, Observation, spots_of, view
from vision.families import HANKY_NAMES, HTJB_NAMES  # the colour words players know the pieces by

# Verdict kinds.
UNCHANGED = "unchanged"
RESTORED = "restored"
STEP = "step"
STEPS = "steps"
CORRECTION = "correction"
WAITING_REMOVAL = "waiting-removal"
TAKEBACK_PENDING = "takeback-pending"
TAKEBACK = "takeback"
IN_PROGRESS = "in-progress"
ILLEGAL = "illegal"
AMBIGUOUS = "ambiguous"
UNSEEN = "unseen"
KINDS = (UNCHANGED, RESTORED, STEP, STEPS, CORRECTION, WAITING_REMOVAL, TAKEBACK_PENDING, TAKEBACK,
         IN_PROGRESS, ILLEGAL, AMBIGUOUS, UNSEEN)

# Where an explanation starts from.
CURRENT = "current"
PREVIOUS = "previous"  # the position before the last accepted group of steps: a correction

MAX_FIRST_STEPS = 64  # Brain Hanky: first steps tried when looking for two steps at once
MAX_CANDIDATES = 12  # Brain Hanky, occupancy only: string moves checked against one board
MAX_CACHE = 512  # states whose predicted views are kept

_RULING = re.compile(r"\s*\((?:ruling )?[A-Z]{1,2}-\d+\)")


@dataclass(frozen=True)
class Verdict:
    """The referee's answer to one stable board.

    ``kind``        what happened (one of ``KINDS``); says what to announce.
    ``state``       the referee's engine state after this verdict.
    ``steps``       steps newly accepted: journal them (after ``undone``) before announcing.
    ``undone``      accepted steps withdrawn, last first in the game but listed in play order:
                    a correction or a take-back. Journal the withdrawal before announcing.
    ``points``      spots to light: the accepted steps' points, the points that differ from the
                    expected board (illegal, take-back), the candidates' points (ambiguous), where
                    a lifted piece may go (in-progress).
    ``to_remove``   pieces still to take off: those a mill's removal may take, captured pieces
                    still on the board.
    ``candidates``  for ``ambiguous``: each explanation as its sequence of steps.
    ``reason``      for ``illegal``: the rule broken, in the engine's words.
    ``message``     one plain sentence or two for the player.
    """

    kind: str
    state: Any
    steps: tuple[Step, ...] = ()
    undone: tuple[Step, ...] = ()
    points: tuple[str, ...] = ()
    to_remove: tuple[str, ...] = ()
    candidates: tuple[tuple[Step, ...], ...] = ()
    reason: str = ""
    message: str = ""

    @property
    def accepted(self) -> bool:
        """Whether this verdict changed the game record (something to journal)."""
        return bool(self.steps or self.undone)


@dataclass
class _Explanation:
    """Steps that turn a base position into the observed board, and what is still to lift after."""

    steps: tuple[Step, ...]
    states: tuple[Any, ...]  # the state after each step
    lift: dict[str, Any]  # spot -> view value of a captured piece still on the board
    base: str = CURRENT

    @property
    def state(self):
        return self.states[-1]


@dataclass
class _Group:
    """Steps accepted by one verdict: a correction replaces the whole group."""

    start: int  # index in the history of its first step
    lift: dict[str, Any]  # pieces still to lift before it


@dataclass
class _Pending:
    """What the referee is waiting for besides the next step."""

    kind: str  # ILLEGAL, AMBIGUOUS, TAKEBACK_PENDING, IN_PROGRESS
    candidates: list[_Explanation] = field(default_factory=list)
    index: int = 0  # take-back: the history length to go back to
    since: float | None = None  # take-back: when the earlier position was first seen


class _Memo:
    """What the referee has worked out about one state: its view, and for tables its steps by view."""

    __slots__ = ("state", "key", "table", "entries")

    def __init__(self, state, key):
        self.state = state
        self.key = key
        self.table: dict[tuple, list] | None = None  # view -> [(step, after)]
        self.entries: list | None = None  # [(step, after, view)]


def _coarsen(value: Any, sees: str, to: str) -> Any:
    """A view value of a ``sees`` reader as a coarser ``to`` reader would see it."""
    if value is None or sees == to:
        return value
    if to == "occupancy":
        return OCCUPIED
    return value[0]  # colour -> polarity: the owner


def _near(a: tuple, b: tuple, limit: int) -> bool:
    """Whether two views differ in at most ``limit`` spots."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            n += 1
            if n > limit:
                return False
    return True


def _plain(reason: str) -> str:
    """An engine reason without its ruling id, for a message a child reads."""
    return _RULING.sub("", reason)


class Referee:
    """Referees one game of ``game`` (a name or an ``engine.Game``) through a ``sees`` reader.

    ``state``: the start (default ``game.new()``; Brain Hanky with the move chooser needs one).
    ``takeback_hold_s``: how long an earlier position must be held to confirm a take-back.
    """

    def __init__(self, game, sees: str = "colour", state=None, takeback_hold_s: float = 2.0):
        if sees not in SEES:
            raise ValueError(f"unknown reader kind {sees!r}; one of {', '.join(SEES)}")
        self.game = engine.load(game) if isinstance(game, str) else game
        self.sees = sees
        self.takeback_hold_s = takeback_hold_s
        self.spots = spots_of(self.game)
        self._index = {s: i for i, s in enumerate(self.spots)}
        rules = self.game.rules
        self._hanky = getattr(rules, "hboard", None) is not None
        self._colours = sees != "occupancy"
        if self._hanky:
            self._point_spots = tuple(s for s in self.spots if s in rules.index)
            self._square_spots = {name: tuple(sq.points.values()) for name, sq in rules.hboard.squares.items()}
            self._web_of = rules.hboard.point_web  # point -> "O" or "B"
        self._neighbours = self.game.board.neighbours
        self._memo: dict[int, _Memo] = {}
        start = self.game.new() if state is None else state
        self._history: list[Step] = []
        self._states: list[Any] = [start]
        self._keys: list[tuple] = [self._key(start)]
        self._past: dict[tuple, int] = {}
        self._groups: list[_Group] = []
        self._lift: dict[str, Any] = {}
        self._pending: _Pending | None = None

    # ------------------------------------------------------------------ public
    @classmethod
    def from_steps(cls, game, steps: Iterable[str], sees: str = "colour", state=None, **kwargs) -> "Referee":
        """A referee resumed from a journal: ``steps`` replayed from the start (or ``state``).

        Each step is its own group, so the last one can still be corrected. Raises
        engine.IllegalStep naming the step if the journal does not replay.
        """
        ref = cls(game, sees, state, **kwargs)
        st = ref.state
        for text in steps:
            step = text if isinstance(text, Step) else st.parse(text)
            nxt = st.play(step)
            ref._groups.append(_Group(len(ref._history), {}))
            ref._append(step, nxt)
            st = nxt
        return ref

    @property
    def state(self):
        """The engine state the game is in (the last accepted step's result)."""
        return self._states[-1]

    @property
    def history(self) -> tuple[Step, ...]:
        """Every accepted step, in order: what the journal holds."""
        return tuple(self._history)

    @property
    def waiting_for(self) -> str | None:
        """The problem the referee is waiting on (illegal, ambiguous, takeback-pending, in-progress) or None."""
        return self._pending.kind if self._pending else None

    def expected(self) -> dict[str, Any]:
        """The board as the reader should see it now (spot -> view value), e.g. to light what to put back."""
        return dict(zip(self.spots, self._keys[-1]))

    def observe(self, observation: Observation, t: float | None = None) -> Verdict:
        """Judge one stable board. ``t`` (seconds, any monotonic base) times a take-back hold."""
        if observation.occluded:
            why = observation.reason or "something is in the way"
            return self._verdict(UNSEEN, message=f"I can't see the board: {why}.")
        okey = self._obs_key(observation)
        nkey, kept = self._normalise(okey, self._lift)
        if nkey == self._keys[-1]:
            self._lift = kept
            was, self._pending = self._pending, None
            return self._settled(RESTORED if was is not None else UNCHANGED)
        found = self._explain(okey, first=True)
        if not found:
            k = self._past.get(okey, self._past.get(nkey))
            if k is not None:
                return self._takeback_seen(k, t)
            found = self._explain(okey, first=False)
        if found:
            if len(found) == 1:
                return self._accept(found[0])
            self._pending = _Pending(AMBIGUOUS, found)
            return self._ambiguous(found)
        progress = self._in_progress(nkey)
        if progress is not None:
            self._pending = _Pending(IN_PROGRESS)
            return progress
        self._pending = _Pending(ILLEGAL)
        return self._illegal(nkey)

    def tick(self, t: float) -> Verdict | None:
        """Time passes with the board as last seen: confirms a take-back held for ``takeback_hold_s``.

        The hold is timed from the ``t`` given to ``observe`` when the earlier position was
        seen, or else from the first tick after it.
        """
        p = self._pending
        if p is None or p.kind != TAKEBACK_PENDING:
            return None
        if p.since is None:
            p.since = t
            return None
        if t - p.since >= self.takeback_hold_s:
            return self._take_back(p.index)
        return None

    def confirm_takeback(self) -> Verdict | None:
        """The player pressed the button to confirm the take-back on the board; None if none is pending."""
        p = self._pending
        if p is None or p.kind != TAKEBACK_PENDING:
            return None
        return self._take_back(p.index)

    def choose(self, choice: int | str | Sequence[str]) -> Verdict | None:
        """Settle an ambiguity: a candidate's index, its step (one-step candidates) or its steps.

        None if nothing is ambiguous; ValueError if ``choice`` is not one of the candidates.
        """
        p = self._pending
        if p is None or p.kind != AMBIGUOUS:
            return None
        cands = p.candidates
        if isinstance(choice, int):
            if not 0 <= choice < len(cands):
                raise ValueError(f"there are {len(cands)} candidates; choose 0 to {len(cands) - 1}")
            return self._accept(cands[choice])
        want = (choice,) if isinstance(choice, str) else tuple(choice)
        for c in cands:
            if tuple(map(str, c.steps)) == tuple(map(str, want)):
                return self._accept(c)
        listed = "; ".join(" ".join(c.steps) for c in cands)
        raise ValueError(f"{' '.join(map(str, want))} is not one of the candidates ({listed})")

    # ------------------------------------------------------------------ views
    def _key(self, state) -> tuple:
        memo = self._memo.get(id(state))
        if memo is not None:
            return memo.key
        key = tuple(view(state.position(), self.spots, self.sees).values())
        self._remember(_Memo(state, key))
        return key

    def _remember(self, memo: _Memo) -> _Memo:
        if len(self._memo) >= MAX_CACHE:
            for k in list(self._memo)[: MAX_CACHE // 4]:  # the oldest quarter; they are rebuilt if asked
                del self._memo[k]
        self._memo[id(memo.state)] = memo
        return memo

    def _memo_of(self, state) -> _Memo:
        memo = self._memo.get(id(state))
        if memo is None:
            self._key(state)
            memo = self._memo[id(state)]
        return memo

    def _obs_key(self, obs: Observation) -> tuple:
        seen = obs.view()
        if obs.sees != self.sees:
            if SEES.index(obs.sees) > SEES.index(self.sees):
                raise ValueError(f"a {obs.sees} reading cannot be refereed as {self.sees}: the reader sees less")
            seen = {s: _coarsen(v, obs.sees, self.sees) for s, v in seen.items()}
        return tuple([seen.get(s) for s in self.spots])

    def _normalise(self, okey: tuple, lift: dict[str, Any]) -> tuple[tuple, dict[str, Any]]:
        """The board with captured pieces that are still on it taken off, and which those are."""
        if not lift:
            return okey, {}
        k = list(okey)
        kept = {}
        for spot, v in lift.items():
            i = self._index[spot]
            if k[i] == v:
                k[i] = None
                kept[spot] = v
        return tuple(k), kept

    def _value(self, piece: Piece | None) -> Any:
        if piece is None:
            return None
        if self.sees == "colour":
            return (piece.owner, piece.kind)
        return piece.owner if self.sees == "polarity" else OCCUPIED

    # ------------------------------------------------------------------ explaining a board
    def _explain(self, okey: tuple, first: bool) -> list[_Explanation]:
        """The first tier of explanations that has any (see the module notes), duplicates merged.

        ``first``: only the first tier, one step from the current position; else the others.
        An earlier position of the game is looked for in between, by the caller: where a turn
        has several moves (Brain Hanky) a move and its reverse would otherwise explain a
        take-back as a correction.
        """
        prev = self._groups[-1] if self._groups else None
        if first:
            tiers = [(self.state, self._lift, 1, CURRENT)]
        else:
            tiers = []
            if prev is not None:
                tiers.append((self._states[prev.start], prev.lift, 1, PREVIOUS))
            tiers.append((self.state, self._lift, 2, CURRENT))
            if prev is not None:
                tiers.append((self._states[prev.start], prev.lift, 2, PREVIOUS))
        for base, lift, depth, where in tiers:
            found = self._matches(base, okey, lift, depth)
            if found:
                for e in found:
                    e.base = where
                return self._distinct(found)
        return []

    def _distinct(self, found: list[_Explanation]) -> list[_Explanation]:
        """Explanations that end in the same game (same board, same player, same phase) are one."""
        if len(found) == 1:
            return found
        out, seen = [], set()
        for e in found:
            st = e.state
            sig = (tuple(sorted(st.position().items())), st.to_move, st.phase, st.result,
                   getattr(st, "moves_left", None), tuple(sorted(e.lift.items())))
            if sig not in seen:
                seen.add(sig)
                out.append(e)
        return out

    def _matches(self, base, okey: tuple, lift: dict[str, Any], depth: int) -> list[_Explanation]:
        if self._hanky:
            return self._hanky_matches(base, okey, lift, depth)
        return self._table_matches(base, okey, depth)

    # The mill family: tables of predicted views.
    def _table(self, state) -> _Memo:
        memo = self._memo_of(state)
        if memo.table is None:
            table: dict[tuple, list] = {}
            entries = []
            for step in state.legal_steps():
                after = state.play(step)
                k = self._key(after)
                table.setdefault(k, []).append((step, after))
                entries.append((step, after, k))
            memo.table, memo.entries = table, entries
        return memo

    def _table_matches(self, base, okey: tuple, depth: int) -> list[_Explanation]:
        memo = self._table(base)
        out = [_Explanation((s,), (after,), {}) for s, after in memo.table.get(okey, ())]
        if depth == 2:
            # A second step changes at most two spots (a move's two ends), so only first steps
            # whose result is that close to the board can start an explanation.
            for s1, after1, k1 in memo.entries:
                if _near(k1, okey, 2):
                    for s2, after2 in self._table(after1).table.get(okey, ()):
                        out.append(_Explanation((s1, s2), (after1, after2), {}))
        return out

    # Brain Hanky: the engine's matching_steps.
    def _hanky_matches(self, base, okey: tuple, lift: dict[str, Any], depth: int) -> list[_Explanation]:
        nkey, kept = self._normalise(okey, lift)
        out = []
        # With colours the engine returns at most one step; without, every colour pattern that
        # fits, possibly dozens on a dense board: no player could pick among them with a button,
        # so only the first few (shortest paths first) are checked and offered.
        for step in base.matching_steps(self._rings_seen(nkey), colours=self._colours, limit=MAX_CANDIDATES):
            after = base.play(step)
            still = self._fits(base, step, after, nkey, kept)
            if still is not None:
                out.append(_Explanation((step,), (after,), still))
        if depth == 2:
            for first in self._hanky_first_steps(base, nkey):
                after1 = base.play(first)
                caps = self._captured(base, first, after1)
                for e in self._hanky_matches(after1, okey, {**kept, **caps}, 1):
                    out.append(_Explanation((first,) + e.steps, (after1,) + e.states, e.lift))
                if out and self._colours:
                    # Seen in colour, two moves that leave the same board leave the same game
                    # (the same two moves in either order): the first found is the answer, and
                    # the guesses left, each a search, need not run.
                    break
        return out

    def _rings_seen(self, key: tuple) -> dict[str, Any]:
        """The rings of a view as ``matching_steps`` takes them (gem squares are not points)."""
        idx = self._index
        out = {}
        for p in self._point_spots:
            v = key[idx[p]]
            if v is not None:
                out[p] = Piece(*v) if self.sees == "colour" else (v if self.sees == "polarity" else True)
        return out

    def _captured(self, base, step: Step, after) -> dict[str, Any]:
        """Pieces the engine took off by ``step`` that are still on the physical board.

        The engine removes a captured gem (or, with ring capture, captured rings) at once; the
        players lift them by hand afterwards, so until then the board shows them.
        """
        if not getattr(after, "events", ()):
            return {}
        before = base.position()
        now = after.position()
        physical = dict(before)
        if step.kind == MOVE:
            physical.pop(step.path[0], None)
            for src, dst in zip(step.path, step.path[1:]):
                physical[dst] = before[src]
        elif step.kind == CLUSTER:
            for spot in (step.dst,) + self._square_spots[step.dst]:
                if spot in now:
                    physical[spot] = now[spot]
        return {spot: self._value(pc) for spot, pc in physical.items() if spot not in now}

    def _fits(self, base, step: Step, after, nkey: tuple, kept: dict[str, Any]) -> dict[str, Any] | None:
        """Whether the board is ``after`` (captured pieces may still stand); the pieces still to lift."""
        want = self._key(after)
        caps = self._captured(base, step, after)
        if want == nkey and not caps:
            return dict(kept)
        idx = self._index
        for i, (w, g) in enumerate(zip(want, nkey)):
            if w != g and not (self.spots[i] in caps and caps[self.spots[i]] == g):
                return None
        still = dict(kept)
        still.update({s: v for s, v in caps.items() if nkey[idx[s]] == v})
        return still

    def _ring_diff(self, base, nkey: tuple) -> tuple[dict, dict, list, list, list]:
        """(rings now, rings seen, emptied points, filled points, recoloured points)."""
        now = {p: pc for p, pc in base.position().items() if pc.kind == "ring"}
        seen = self._rings_seen(nkey)
        emptied = [p for p in now if p not in seen]
        filled = [p for p in seen if p not in now]
        recoloured = []
        if self._colours:
            for p, v in seen.items():
                pc = now.get(p)
                if pc is not None and getattr(v, "owner", v) != pc.owner:
                    recoloured.append(p)
        return now, seen, emptied, filled, recoloured

    def _ring_value(self, owner: int) -> Any:
        """A ring of ``owner`` as ``matching_steps`` takes it from this reader."""
        if self.sees == "colour":
            return Piece(owner, "ring")
        return owner if self.sees == "polarity" else True

    def _hanky_first_steps(self, base, nkey: tuple) -> Iterator[Step]:
        """First steps that could begin a two-step explanation of the board.

        A move empties its first point and fills its last. Two moves with four different ends
        show as two emptied and two filled points, and the first move joins one of each. When the
        second move starts where the first ended (the same ring moved twice, BH-6) or ends where
        the first began, only one point is emptied and one filled, and the point in between is
        looked for among the neighbours of those two and of the recoloured rings.

        With colours, each guess of the first move's ends, together with a guess of which
        recoloured rings it recoloured, is a board the engine's colour-pruned ``matching_steps``
        answers in a fraction of a millisecond. Without colours the engine cannot prune (a dense
        board has thousands of string paths), so only single-ring first moves are tried, each
        checked directly. Missed: two moves whose paths cross each other's recoloured rings, and
        (occupancy) a string pushed first.
        """
        if base.phase == "placement":
            now, seen, _emptied, filled, _re = self._ring_diff(base, nkey)
            hit = set(filled)
            yield from (s for s in base.legal_steps() if set(self._square_spots[s]) <= hit)
            return
        if base.phase != "movement":
            return
        now, seen, emptied, filled, recoloured = self._ring_diff(base, nkey)
        nb = self._neighbours
        web = self._web_of
        mine = self._ring_value(base.side + 1)
        me = base.side + 1
        # Who may make the second move: the mover again while the turn has moves left; after
        # its last move, the next player (or the mover again after a capture).
        def may_move_second(point: str) -> bool:
            return getattr(base, "moves_left", 1) <= 1 or now[point].owner == me

        if len(emptied) == 2 and len(filled) == 2:
            # (first move's start, its end, the colour it leaves there, the other move's ends)
            ends = [(e, f, seen[f], [x for x in emptied + filled if x not in (e, f)])
                    for e in emptied for f in filled if web[e] == web[f] and now[e].owner == me
                    and may_move_second(emptied[1] if e == emptied[0] else emptied[0])]
        elif len(emptied) == 1 and len(filled) == 1:
            e, f = emptied[0], filled[0]
            if web[e] != web[f]:
                return  # both guesses below keep both moves on one web
            near = {x for x in nb[e]} | {x for x in nb[f]}
            for r in recoloured:
                near.update(nb[r])
            ends = []
            if now[e].owner == me:  # one ring moved twice: e -> x, then x -> f
                ends += [(e, x, mine, [f]) for x in sorted(near) if x not in now and x != f]
            if may_move_second(e):  # a ring moved on to f, then the ring on e into its place
                ends += [(y, f, seen[f], [e]) for y in sorted(near) if y != e and y in now and now[y].owner == me]
        else:
            return
        found: set[Step] = set()
        if not self._colours:
            for a, b, _colour, _other in ends:
                if b in nb[a] and base.why_illegal(f"{a}-{b}") is None:
                    step = base.parse(f"{a}-{b}")
                    if step not in found:
                        found.add(step)
                        yield step
            return
        base_rings = {p: self._ring_value(pc.owner) for p, pc in now.items()}
        for a, b, colour, other in ends:
            for part in self._recoloured_by_first(recoloured, (a, b), other):
                hypo = dict(base_rings)
                del hypo[a]
                hypo[b] = colour
                for r in part:
                    hypo[r] = seen[r]
                for step in base.matching_steps(hypo, colours=True):
                    if step not in found:
                        found.add(step)
                        yield step
                if len(found) >= MAX_FIRST_STEPS:
                    return

    def _recoloured_by_first(self, recoloured: list[str], ends: tuple[str, str], other: list[str]):
        """Guesses of which recoloured rings the first of two moves recoloured.

        Only rings on its own web (a move stays on one web): when the other move is on the other
        web, exactly those. Otherwise the likeliest first, those nearer its ends than the other
        move's; then, up to four rings, every other subset; more (two long mixed strings on one
        web), none or all.
        """
        web = self._web_of[ends[0]]
        mine = tuple(r for r in recoloured if self._web_of[r] == web)
        same_web = [o for o in other if self._web_of[o] == web]
        if not same_web or not mine:
            return [mine]
        near_mine = self._distances(ends)
        near_other = self._distances(same_web)
        far = len(self._web_of)
        split = tuple(r for r in mine if near_mine.get(r, far) <= near_other.get(r, far))
        rest = ([c for k in range(len(mine) + 1) for c in combinations(mine, k)] if len(mine) <= 4
                else [(), mine])
        return [split] + [c for c in rest if c != split]

    def _distances(self, sources: Iterable[str]) -> dict[str, int]:
        """Steps along the web from the nearest of ``sources`` to every point."""
        dist = {s: 0 for s in sources}
        queue = deque(dist)
        nb = self._neighbours
        while queue:
            p = queue.popleft()
            for q in nb[p]:
                if q not in dist:
                    dist[q] = dist[p] + 1
                    queue.append(q)
        return dist

    # ------------------------------------------------------------------ accepting
    def _append(self, step: Step, state) -> None:
        self._past[self._keys[-1]] = len(self._states) - 1
        self._history.append(step)
        self._states.append(state)
        self._keys.append(self._key(state))

    def _truncate(self, n: int) -> None:
        """Forget every step from the n-th on (a correction or a take-back)."""
        del self._history[n:]
        del self._states[n + 1:]
        del self._keys[n + 1:]
        self._past = {}
        for i, k in enumerate(self._keys[:-1]):
            self._past[k] = i
        self._groups = [g for g in self._groups if g.start < n]

    def _accept(self, exp: _Explanation) -> Verdict:
        undone: tuple[Step, ...] = ()
        if exp.base == PREVIOUS:
            group = self._groups.pop()
            undone = tuple(self._history[group.start:])
            self._truncate(group.start)
            lift_before = group.lift
        else:
            lift_before = dict(self._lift)
        before = self.state
        self._groups.append(_Group(len(self._history), lift_before))
        for step, st in zip(exp.steps, exp.states):
            self._append(step, st)
        self._lift = dict(exp.lift)
        self._pending = None
        to_remove = self._to_remove()
        if undone:
            kind = CORRECTION
        elif to_remove:
            kind = WAITING_REMOVAL
        else:
            kind = STEP if len(exp.steps) == 1 else STEPS
        points = []
        for s in exp.steps:
            for p in self._step_spots(s):
                if p not in points:
                    points.append(p)
        said = self._describe_steps(before, exp.steps, exp.states)
        message = ("Got it, you meant: " + said) if undone else said
        return Verdict(kind, self.state, tuple(exp.steps), undone, tuple(points), to_remove,
                       message=f"{message} {self._next_words()}".strip())

    def _take_back(self, n: int) -> Verdict:
        old = self._keys[-1]
        undone = tuple(self._history[n:])
        self._truncate(n)
        self._lift = {}
        self._pending = None
        count = len(undone)
        diff = tuple(s for s, a, b in zip(self.spots, old, self._keys[-1]) if a != b)
        words = "one step" if count == 1 else f"{count} steps"
        return Verdict(TAKEBACK, self.state, (), undone, diff, self._to_remove(),
                       message=f"Took back {words}. {self._next_words()}")

    # ------------------------------------------------------------------ verdicts without a step
    def _verdict(self, kind: str, points: Iterable[str] = (), reason: str = "", message: str = "",
                 candidates: tuple = ()) -> Verdict:
        return Verdict(kind, self.state, (), (), tuple(points), self._to_remove(), candidates, reason, message)

    def _settled(self, kind: str) -> Verdict:
        to_remove = self._to_remove()
        if kind == UNCHANGED and to_remove:
            kind = WAITING_REMOVAL
        first = "The board is back as it was. " if kind == RESTORED else ""
        return Verdict(kind, self.state, (), (), (), to_remove, message=(first + self._next_words()).strip())

    def _ambiguous(self, found: list[_Explanation]) -> Verdict:
        points = []
        for e in found:
            for s in e.steps:
                for p in self._step_spots(s):
                    if p not in points:
                        points.append(p)
        options = " or ".join(", then ".join(self._step_words(e.steps)) for e in found[:3])
        more = f" (and {len(found) - 3} more)" if len(found) > 3 else ""
        return self._verdict(AMBIGUOUS, points, candidates=tuple(e.steps for e in found),
                             message=f"I can't tell which move that was: {options}{more}. "
                                     f"Press the button to pick the right one.")

    def _takeback_seen(self, k: int, t: float | None) -> Verdict:
        p = self._pending
        if p is not None and p.kind == TAKEBACK_PENDING and p.index == k:
            if p.since is None:
                p.since = t
            elif t is not None and t - p.since >= self.takeback_hold_s:
                return self._take_back(k)
        else:
            self._pending = _Pending(TAKEBACK_PENDING, index=k, since=t)
        count = len(self._history) - k
        diff = tuple(s for s, a, b in zip(self.spots, self._keys[-1], self._keys[k]) if a != b)
        words = "one step" if count == 1 else f"{count} steps"
        return self._verdict(TAKEBACK_PENDING, diff,
                             message=f"Take back {words}? Press the button, or keep the board still to say yes.")

    def _in_progress(self, nkey: tuple) -> Verdict | None:
        """A step half made: a piece lifted that may move from there, a cluster partly placed."""
        state = self.state
        if state.result is not None:
            return None
        diff = [s for s, a, b in zip(self.spots, self._keys[-1], nkey) if a != b]
        pos = state.position()
        me = self._owner_to_move(state)
        if len(diff) == 1 and nkey[self._index[diff[0]]] is None:
            spot = diff[0]
            piece = pos.get(spot)
            if piece is None or piece.owner != me:
                return None
            if self._hanky:
                if state.phase != "movement" or spot not in state.rules.index:
                    return None
                to = [x for x in self._neighbours[spot] if x not in pos and state.why_illegal(f"{spot}-{x}") is None]
            else:
                to = [s.dst for s in state.legal_steps() if s.src == spot]
            if not to:
                return None
            return self._verdict(IN_PROGRESS, to, message="Where will it go? The lights show where it may move.")
        if self._hanky and state.phase == "placement" and diff:
            if any(nkey[self._index[s]] is None or self._seen_owner(nkey, s) not in (None, me) for s in diff):
                return None
            for step in state.legal_steps():
                spots = (step.dst,) + self._square_spots[step.dst]
                missing = [s for s in spots if s not in diff]
                if missing and set(diff) <= set(spots):
                    return self._verdict(IN_PROGRESS, missing,
                                         message=f"Finish the cluster on {step.dst}: a gem and four rings.")
        return None

    # ------------------------------------------------------------------ illegal boards
    def _illegal(self, nkey: tuple) -> Verdict:
        diff = tuple(s for s, a, b in zip(self.spots, self._keys[-1], nkey) if a != b)
        reason = self._reason(self.state, nkey)
        if len(diff) > 4:
            message = "Lots of pieces have moved! Put them back where the red lights are."
        else:
            message = f"Not allowed: {_plain(reason)}. Put it back where the red lights are."
        return self._verdict(ILLEGAL, diff, reason=reason, message=message)

    def _reason(self, state, nkey: tuple, depth: int = 0) -> str:
        """The rule a board breaks, in the engine's words where a step can be read off the change."""
        if state.result is not None:
            return f"the game is over ({state.result.reason})"
        key = self._key(state)
        diff = [i for i, (a, b) in enumerate(zip(key, nkey)) if a != b]
        spots = self.spots
        emptied = [spots[i] for i in diff if nkey[i] is None]
        filled = [spots[i] for i in diff if key[i] is None]
        swapped = [spots[i] for i in diff if key[i] is not None and nkey[i] is not None]
        if self._hanky:  # a string move recolours rings: read the move first
            why = self._hanky_reason(state, nkey, emptied, filled)
        elif swapped:
            why = None
        else:
            why = self._mill_reason(state, nkey, emptied, filled, depth)
        if why:
            return why
        if swapped:
            return f"the piece on {swapped[0]} is not the one that stood there"
        if len(diff) > 4:
            return f"{len(diff)} points changed at once"
        return "the board does not match any move allowed now"

    def _mill_reason(self, state, nkey, emptied, filled, depth) -> str | None:
        me = state.to_move
        if len(filled) == 1 and not emptied:
            who = self._seen_owner(nkey, filled[0])
            if who is not None and who != me and state.phase != "removal":
                return f"it is {self._name(me)}'s turn, not {self._name(who)}'s"
            return state.why_illegal(filled[0])
        if len(emptied) == 1 and not filled:
            spot = emptied[0]
            if state.position()[spot].owner != me:
                return state.why_illegal("x" + spot)
            if state.phase == "removal":
                return f"take one of the other player's pieces off, not your own ({spot})"
            if state.phase == "placement":
                return f"pieces stay where they are put until all are placed: put {spot} back"
            return f"the piece on {spot} has nowhere to go"
        if len(emptied) == 1 and len(filled) == 1:
            src, dst = emptied[0], filled[0]
            owner = state.position()[src].owner
            if owner != me and state.phase != "removal":
                return f"it is {self._name(me)}'s turn, not {self._name(owner)}'s"
            why = state.why_illegal(f"{src}-{dst}")
            if why and "not next to" in why and getattr(state.rules, "jump_step", None):
                why = state.why_illegal(f"{src}*{dst}") or why
            if why is None:
                who = self._seen_owner(nkey, dst)
                if who is not None and who != me:
                    return f"it is {self._name(me)}'s turn, not {self._name(who)}'s"
            return why
        if depth == 0 and len(emptied) + len(filled) <= 4:
            # Two steps at once, the second not allowed: name the first and what is wrong after it.
            for s1, after1, k1 in self._table(state).entries:
                if _near(k1, nkey, 2):
                    why = self._reason(after1, nkey, depth + 1)
                    return f"after {self._step_words((s1,))[0]}: {why}"
        return None

    def _hanky_reason(self, state, nkey, emptied, filled) -> str | None:
        rules = state.rules
        gems_gone = [s for s in emptied if s not in rules.index]
        gems_new = [s for s in filled if s not in rules.index]
        rings_gone = [s for s in emptied if s in rules.index]
        rings_new = [s for s in filled if s in rules.index]
        if state.phase == "placement":
            if gems_gone or rings_gone:
                return "in Phase I pieces are only put down, one cluster at a time"
            new = set(gems_new) | set(rings_new)
            for sq, pts in self._square_spots.items():
                if new <= {sq, *pts}:
                    why = state.why_illegal(sq)
                    return why or f"a cluster on {sq} is a gem and four rings of the player to move"
            return "a cluster is a gem on a whole square and a ring on each of its four points"
        if gems_gone:
            return f"the gem on {gems_gone[0]} has not been captured: it stays until it is"
        if gems_new:
            return f"gems are not put down in Phase II ({gems_new[0]})"
        if len(rings_gone) == 1 and len(rings_new) == 1:
            src, dst = rings_gone[0], rings_new[0]
            path = self._guess_path(state, src, dst)
            why = state.why_illegal("-".join(path)) if path else state.why_illegal(f"{src}-{dst}")
            if why is None and path:
                return f"the rings between {src} and {dst} do not show the colours that move leaves"
            return why
        if len(rings_gone) == 1 and not rings_new:
            return f"a ring was taken off {rings_gone[0]}: rings move along the lines, they are not removed"
        if len(rings_new) == 1 and not rings_gone:
            return f"a ring was added on {rings_new[0]}: in Phase II rings only move"
        return None

    def _guess_path(self, state, src: str, dst: str) -> list[str] | None:
        """The shortest line of rings from ``src`` to ``dst`` (the path a player most likely pushed)."""
        pos = state.position()
        nb = self._neighbours
        parent = {src: None}
        queue = deque([src])
        while queue:
            p = queue.popleft()
            for q in nb[p]:
                if q in parent:
                    continue
                if q == dst:
                    path = [dst, p]
                    while parent[path[-1]] is not None:
                        path.append(parent[path[-1]])
                    return path[::-1]
                if q in pos:
                    parent[q] = p
                    queue.append(q)
        return None

    # ------------------------------------------------------------------ words
    def _owner_to_move(self, state) -> int:
        """The owner number (colour) of the pieces of the player to move."""
        if self._hanky:
            return state.side + 1
        return state.to_move

    def _name(self, owner: int, kind: str = "ring") -> str:
        if self._hanky:
            names = HANKY_NAMES.get(owner)
            if names is None:
                return f"side {owner}"
            return names["gem" if kind == "gem" else "ring"]
        return HTJB_NAMES.get(owner, f"player {owner}")

    def _seen_owner(self, key: tuple, spot: str) -> int | None:
        v = key[self._index[spot]]
        if v is None or self.sees == "occupancy":
            return None
        return v[0] if self.sees == "colour" else v

    def _step_spots(self, step: Step) -> tuple[str, ...]:
        if step.kind == CLUSTER:
            return (step.dst,) + self._square_spots[step.dst]
        if step.kind == MOVE and step.path:
            return step.path
        if step.kind == JUMP:
            return (step.src,) + step.path
        return tuple(p for p in (step.src, step.dst) if p)

    def _step_words(self, steps: Sequence[Step]) -> list[str]:
        out = []
        for s in steps:
            if s.kind == PLACE:
                out.append(f"a piece on {s.dst}")
            elif s.kind == REMOVE:
                out.append(f"take off {s.dst}")
            elif s.kind == CLUSTER:
                out.append(f"a cluster on {s.dst}")
            elif s.kind == JUMP:
                out.append(f"jump {s.src} to {s.dst}")
            elif s.kind == MOVE and len(s.path) > 2:
                out.append(f"push {s.src} to {s.dst} ({len(s.path) - 1} rings)")
            else:
                out.append(f"{s.src} to {s.dst}")
        return out

    def _describe_steps(self, before, steps: Sequence[Step], states: Sequence[Any]) -> str:
        parts = []
        st = before
        for step, after in zip(steps, states):
            who = self._name(self._owner_to_move(st)).capitalize()
            if step.kind == PLACE:
                text = f"{who} put a piece on {step.dst}."
            elif step.kind == REMOVE:
                victim = st.position().get(step.dst)
                whose = f"{self._name(victim.owner)} " if victim else ""
                text = f"{who} took the {whose}piece off {step.dst}."
            elif step.kind == CLUSTER:
                text = f"{who} placed a cluster on {step.dst}."
            elif step.kind == JUMP:
                text = f"{who} jumped from {step.src} to {step.dst}."
            elif self._hanky and len(step.path) > 2:
                text = f"{who} pushed {len(step.path) - 1} rings from {step.src} to {step.dst}."
            else:
                text = f"{who} moved {step.src} to {step.dst}."
            for event in getattr(after, "events", ()):
                if "gem" in event:
                    sq = event.split()[-1]
                    gem = st.position().get(sq)
                    colour = self._name(gem.owner, "gem") if gem else "the"
                    text += f" {who} captured the {colour} gem on {sq}!"
                else:
                    text += f" {who} {event}."
            parts.append(text)
            st = after
        return " ".join(parts)

    def _to_remove(self) -> tuple[str, ...]:
        state = self.state
        out = list(self._lift)
        if state.phase == "removal":
            out += [s.dst for s in state.legal_steps() if s.kind == REMOVE and s.dst not in out]
        return tuple(out)

    def _next_words(self) -> str:
        """What happens next, for the player: the result, a removal or lift to make, whose turn."""
        state = self.state
        if state.result is not None:
            r = state.result
            if r.winner is None:
                return f"The game is a draw: {_plain(r.reason)}."
            return f"{self._name(r.winner).capitalize()} wins: {_plain(r.reason)}."
        parts = []
        if self._lift:
            for spot, v in self._lift.items():
                kind = v[1] if self.sees == "colour" else ("gem" if spot not in state.rules.index else "ring")
                parts.append(f"Lift the captured {kind} off {spot}.")
        me = self._owner_to_move(state)
        if state.phase == "removal":
            pos = state.position()
            victims = {pos[s].owner for s in self._to_remove() if s in pos}
            whose = self._name(victims.pop()) + " " if len(victims) == 1 else ""
            milled = (len(self._states) > 1 and self._history[-1].kind != REMOVE
                      and self._owner_to_move(self._states[-2]) == me)
            who = self._name(me).capitalize()
            if milled:
                parts.append(f"{who} made a mill! Take one {whose}piece off.")
            else:
                parts.append(f"{who}: take one {whose}piece off.")
        else:
            who = self._name(me).capitalize()
            left = getattr(state, "moves_left", 0) if state.phase == "movement" else 0
            same = len(self._states) > 1 and self._owner_to_move(self._states[-2]) == me
            if self._hanky and same and left == 1 and self._states[-2].to_move == state.to_move \
                    and getattr(self._states[-2], "moves_left", 0) > 1:
                parts.append(f"{who}: one more move.")
            else:
                parts.append(f"{who} to play.")
        return " ".join(parts)


__all__ = ["AMBIGUOUS", "CORRECTION", "ILLEGAL", "IN_PROGRESS", "KINDS", "RESTORED", "STEP", "STEPS", "TAKEBACK",
           "TAKEBACK_PENDING", "UNCHANGED", "UNSEEN", "WAITING_REMOVAL", "Referee", "Verdict"]
