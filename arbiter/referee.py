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

Unsure readings. A reader that says how likely each class is on each spot (``Reading.probs``)
is weighed, not just believed: the boards its reading could be (up to two unsure spots read as
their runner-up class) are explained as above, each costing how much less likely the reader
found it, and the cheapest wins only when it is clearly cheaper (``MARGIN``, 20 times as likely)
than any explanation leading elsewhere and than "something else happened" (``SURPRISE``). A
misread spot that no legal step explains then reads as the board it should be; a board two
readings explain about equally gives ``unclear`` and nothing changes until a clearer look. A
board no likely reading explains is not called illegal while a reading the reader found unlikely
but possible (``DOUBT_P``) makes it legal: ``unclear`` at those spots, for ``doubt_hold_s``.

At the door. Every board is checked first (``engine.observation.check``): a reading that lacks
a spot, names one the board does not have, or carries a wrong type or a NaN raises
``ReadingError`` naming the spot, never read as empty. A spot the reader could not read
(``Reading.unknown``) is weighed as every value the game allows there (``Explainer.values``),
each equally likely: a step it alone decides is ``unclear`` with the reader's note, a step every
reading shares is accepted, and more such boards than ``MAX_UNREAD_BOARDS`` is ``unseen``. A board
that lost most of its pieces is ``cleared`` ("put the pieces back"), never a take-back; holding
still confirms a take-back of one turn only, more needs the button.

Fewer assumed steps win: a board that one correction explains is not read as two new steps.
When two explanations fit equally (an occupancy grid cannot tell whose piece went where) the
verdict is ``ambiguous`` with the candidates; ``choose(candidate)`` settles it. A step that leaves
something to take off (a mill's removal, a captured gem still on the cloth) makes the verdict
``waiting-removal`` with those spots in ``to_remove``.

How a board is explained
------------------------
The referee knows no game. It asks the game's family, through the engine's family protocol
(``engine.protocol``), how a board could have come about: ``rules.explainer(sees)`` explains a
board from a position in one or two steps, names the rule broken when nothing does, and
recognises a step half made. The mill family predicts the board after each legal step and looks
the observed board up in a table; Brain Hanky, whose crowded positions have thousands of string
moves, searches only the moves consistent with the change (``engine.explain``,
``engine.rules.brain_hanky_explain``). ``benchmarks/referee.py`` measures both.

What each reader can referee
----------------------------
Colour and polarity readers referee every game. An occupancy-only reader referees a game when
whose turn it is says whose piece went down and the board shows which piece was removed (the
mill family), except that two quick steps may be ambiguous (a1-a4 and d7-g7 or a1-g7 and d7-a4).
Where a step recolours pieces it passes (a Brain Hanky string move) an occupancy grid sees only
its ends, so most such steps are ambiguous and need a button answer.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Any, Iterable, Sequence

import engine
from engine.core import REMOVE, Step
from engine.explain import Explanation
from engine.observation import OCCUPIED, SEES, UNREAD, Observation, check
from engine.words import describe_step, step_words

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
UNCLEAR = "unclear"
CLEARED = "cleared"
KINDS = (UNCHANGED, RESTORED, STEP, STEPS, CORRECTION, WAITING_REMOVAL, TAKEBACK_PENDING, TAKEBACK,
         IN_PROGRESS, ILLEGAL, AMBIGUOUS, UNSEEN, UNCLEAR, CLEARED)

# Weighing an unsure reading (``Referee._likeliest``), in natural-log units of likelihood.
UNSURE_P = 0.02  # a class the reader gives at least this probability may be what stands there
# ... and one it gives at least this, though never read through to anything, keeps a board that
# a legal reading explains with it from being called illegal (``Referee._doubted``)
DOUBT_P = 1e-4
MAX_UNSURE = 8  # the most likely such alternatives considered per board
MAX_FLIPS = 2  # spots read otherwise than the reader's best guess, at most, in one explanation
MARGIN = math.log(20)  # how much likelier the winner must be than any rival outcome
SURPRISE = math.log(1000)  # "something else happened": a board no legal step explains
STEP_DOUBT = math.log(4)  # a step is read through a doubt only if the reader found it this close

# Spots the reader could not read (``Reading.unknown``): every value the game allows on each is
# weighed, so k unread spots cost up to (values per spot)^k explanations. Past this many boards
# (4 unread spots of a two-colour game, 6 of an occupancy grid) the board is not seen at all.
MAX_UNREAD_BOARDS = 32
# A board that lost this many of its pieces at once was cleared or covered, never taken back:
# more than half of them, and at least ``CLEARED_LEAST``.
CLEARED_LEAST = 3

# Where an explanation starts from.
CURRENT = "current"
PREVIOUS = "previous"  # the position before the last accepted group of steps: a correction

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
class _Group:
    """Steps accepted by one verdict: a correction replaces the whole group."""

    start: int  # index in the history of its first step
    lift: dict[str, Any]  # pieces still to lift before it


@dataclass
class _Pending:
    """What the referee is waiting for besides the next step."""

    kind: str  # ILLEGAL, AMBIGUOUS, TAKEBACK_PENDING, IN_PROGRESS, UNCLEAR (a doubted board)
    candidates: list[Explanation] = field(default_factory=list)
    index: int = 0  # take-back: the history length to go back to
    since: float | None = None  # take-back, unclear: when the board was first seen
    board: tuple = ()  # unclear: the board as read, called illegal if held unchanged
    seen: tuple = ()  # unclear: a step the doubted reading showed made (``Unclear.seen``)
    hold: bool = True  # take-back: whether holding still confirms it (one turn), or only the button


def _coarsen(value: Any, sees: str, to: str) -> Any:
    """A view value of a ``sees`` reader as a coarser ``to`` reader would see it."""
    if value is None or value is UNREAD or sees == to:
        return value
    if to == "occupancy":
        return OCCUPIED
    return value[0]  # colour -> polarity: the owner


def _finite(x: Any) -> bool:
    """A finite real number (a time on any monotonic base; not a bool, NaN or infinity)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _seconds(x: Any) -> bool:
    """A finite, non-negative real number: a duration."""
    return _finite(x) and x >= 0


def _flipped(key: tuple, flips: list[tuple[int, Any, float]], most: int):
    """(cost, key) for ``key`` with up to ``most`` of ``flips`` applied (one value per spot), cheapest first."""
    options = []
    for k in range(1, most + 1):
        for combo in combinations(flips, k):
            if len({i for i, _v, _c in combo}) < k:
                continue
            new = list(key)
            for i, v, _c in combo:
                new[i] = v
            options.append((sum(c for _i, _v, c in combo), tuple(new)))
    options.sort(key=lambda o: o[0])
    return options


def plain(reason: str) -> str:
    """An engine reason without its ruling id, for a message a child reads."""
    return _RULING.sub("", reason)


@dataclass(frozen=True)
class Unclear:
    """``Referee._likeliest``'s answer when readings of a board that lead to different outcomes
    explain it about equally: the indices of the spots on which the likeliest differs from its
    close rivals, so that the players are shown where to look, not every spot the reader doubted."""
    spots: tuple[int, ...]
    # the single steps the doubted reading showed made (``Referee._doubted``): if two steps are
    # then seen at once, in an order that either way leaves the same game, these went first
    seen: tuple = ()


class Referee:
    """Referees one game of ``game`` (a name or an ``engine.Game``) through a ``sees`` reader.

    ``state``: the start (default ``game.new()``; Brain Hanky with the move chooser needs one).
    ``takeback_hold_s``: how long an earlier position must be held to confirm a take-back.
    """

    def __init__(self, game, sees: str = "colour", state=None, takeback_hold_s: float = 2.0,
                 doubt_hold_s: float = 3.0):
        if sees not in SEES:
            raise ValueError(f"unknown reader kind {sees!r}; one of {', '.join(SEES)}")
        for name, value in (("takeback_hold_s", takeback_hold_s), ("doubt_hold_s", doubt_hold_s)):
            if not _seconds(value) or value > 600:
                raise ValueError(f"{name} must be a number of seconds from 0 to 600, not {value!r}")
        self.game = engine.load(game) if isinstance(game, str) else game
        self.sees = sees
        self.takeback_hold_s = takeback_hold_s
        self.doubt_hold_s = doubt_hold_s
        self.rules = self.game.rules
        self.explainer = self.rules.explainer(sees)
        self.spots = self.explainer.spots
        self._index = self.explainer.index
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
        """Judge one stable board. ``t`` (seconds, any monotonic base) times a take-back hold.

        Raises ``engine.observation.ReadingError`` naming the spot for a malformed reading (a
        reader's bug: a spot missing or unknown, a piece that is not a ``Piece``, a NaN), and
        ValueError for a ``t`` that is not a finite number; the game is left as it was."""
        if t is not None and not _finite(t):
            raise ValueError(f"the time {t!r} is not a finite number of seconds")
        check(observation, self.spots)
        if observation.occluded:
            why = observation.reason or "something is in the way"
            return self._verdict(UNSEEN, message=f"I can't see the board: {why}.")
        okey = self._obs_key(observation)
        unread = [i for i, v in enumerate(okey) if v is UNREAD]
        notes = observation.unread()
        if unread:
            bases = self._fillings(okey, unread)
            if bases is None:
                names = [self.spots[i] for i in unread]
                return self._verdict(UNSEEN, message=f"I can't see the board: {len(names)} spots can't be read "
                                                     f"({self._unread_words(names, notes)}).")
        else:
            bases = [okey]
        board = bases[0]  # unread spots as they should be: what the board is judged as otherwise
        unsure = self._unsure_spots(observation, okey)
        if unread or unsure:
            match = self._likeliest(bases, unsure)
        else:
            match = self._match(okey)
        if (match is None or isinstance(match, Unclear) or match[0] == "back") and self._cleared(board):
            return self._cleared_verdict(board)
        if isinstance(match, Unclear):
            spots = tuple(self.spots[i] for i in match.spots)
            return self._verdict(UNCLEAR, spots, message=self._unclear_words(spots, notes))
        if match is not None:
            return self._act(match, t)
        nkey, _kept = self._normalise(board, self._lift)
        progress = self._in_progress(nkey)
        if progress is not None:
            self._pending = _Pending(IN_PROGRESS)
            return progress
        doubted = self._doubted(observation, board)
        if doubted is not None:
            # only for a while: a board held as it is past ``doubt_hold_s`` is called illegal
            self._pending = _Pending(UNCLEAR, since=t, board=nkey, seen=doubted.seen)
            spots = tuple(self.spots[i] for i in doubted.spots)
            return self._verdict(UNCLEAR, spots, message=self._unclear_words(spots, notes))
        self._pending = _Pending(ILLEGAL)
        return self._illegal(nkey)

    # ------------------------------------------------------------------ unread spots, a cleared board
    def _fillings(self, okey: tuple, unread: list[int]) -> list[tuple] | None:
        """The boards ``okey`` may be, with each unread spot (``Reading.unknown``) given every
        value the game allows there (``Explainer.values``), the value it should have now first:
        so the first board assumes nothing changed where the reader is blind. None when there are
        more than ``MAX_UNREAD_BOARDS``."""
        now = self._keys[-1]
        options = []
        count = 1
        for i in unread:
            values = self.explainer.values(self.spots[i])
            values = (now[i],) + tuple(v for v in values if v != now[i])
            count *= len(values)
            if count > MAX_UNREAD_BOARDS:
                return None
            options.append(values)
        out = []
        for combo in product(*options):
            key = list(okey)
            for i, v in zip(unread, combo):
                key[i] = v
            out.append(tuple(key))
        return out

    @staticmethod
    def _unread_words(spots: Sequence[str], notes: dict[str, str]) -> str:
        """``a7, b4: the sensor under it reports a fault``: spots grouped by the reader's note."""
        by_note: dict[str, list[str]] = {}
        for s in spots:
            by_note.setdefault(notes.get(s, "unread"), []).append(s)
        return "; ".join(f"{', '.join(names[:6])}{'...' if len(names) > 6 else ''}: {note}"
                         for note, names in by_note.items())

    def _unclear_words(self, spots: Sequence[str], notes: dict[str, str]) -> str:
        """What an ``unclear`` verdict says: the reader's own note for a spot it could not read
        ("I can't read a7: the sensor under it reports a fault"), else why a spot may be misread."""
        unread = [s for s in spots if s in notes]
        doubted = ", ".join([s for s in spots if s not in notes][:4])
        if unread:
            nor = f"; nor {doubted} clearly" if doubted else ""
            return f"I can't read {self._unread_words(unread, notes)}{nor}. Nothing changed yet."
        return f"I can't read {doubted} clearly (a reflection, or a piece off its point?). Nothing changed yet."

    def _cleared(self, board: tuple) -> tuple[str, ...]:
        """The spots emptied, when ``board`` has lost more than half of the pieces the game has
        on it and at least ``CLEARED_LEAST``: the board was swept or covered (a cloth, a tray),
        which is never a take-back, however well an earlier position (the start) fits it. Else ().
        Pieces knocked off their points but still on the board are not lost: that board is
        illegal, with every spot to put right lit."""
        now = self._keys[-1]
        pieces = sum(v is not None for v in now)
        lost = pieces - sum(v is not None for v in board)
        if lost >= CLEARED_LEAST and 2 * lost > pieces:
            return tuple(s for s, a, b in zip(self.spots, now, board) if a is not None and b is None)
        return ()

    def _cleared_verdict(self, board: tuple) -> Verdict:
        self._pending = _Pending(ILLEGAL)  # put back, it is ``restored``
        return self._verdict(CLEARED, self._cleared(board),
                             message="The board was cleared or covered: put the pieces back.")

    def _match(self, okey: tuple) -> tuple | None:
        """What explains the board ``okey`` exactly, without acting on it: ("same", pieces still to
        lift), ("back", history length), ("found", explanations), or None."""
        nkey, kept = self._normalise(okey, self._lift)
        if nkey == self._keys[-1]:
            return ("same", kept)
        found = self._explain(okey, first=True)
        if not found:
            k = self._past.get(okey, self._past.get(nkey))
            if k is not None:
                return ("back", k)
            found = self._explain(okey, first=False)
        return ("found", found) if found else None

    def _act(self, match: tuple, t: float | None) -> Verdict:
        kind, what = match
        if kind == "same":
            self._lift = what
            was, self._pending = self._pending, None
            return self._settled(RESTORED if was is not None and was.kind != UNCLEAR else UNCHANGED)
        if kind == "back":
            return self._takeback_seen(what, t)
        if len(what) == 1:
            return self._accept(what[0])
        self._pending = _Pending(AMBIGUOUS, what)
        return self._ambiguous(what)

    # ------------------------------------------------------------------ weighing an unsure reading
    def _likeliest(self, bases: list[tuple], flips: list) -> tuple | Unclear | None:
        """The explanation that fits an unsure reading best, if it fits clearly best.

        ``bases``: the boards the reading is, as read (one; or, where the reader could not read
        some spots, one for each value the game allows on them, all equally likely: cost 0).

        A reader that gives each spot's class probabilities (``Reading.probs``) says where it
        may be wrong: a black man under a lamp's highlight may be 0.6 black and 0.4 white. The
        boards the reading could be are its own best guess (``okey``, explained as ``match``)
        and those with up to ``MAX_FLIPS`` unsure spots read as another class, each costing the
        log of how much less likely the reader found it; each is explained as an exact board
        would be. The cheapest explanation wins only when it is ``MARGIN`` cheaper than any
        explanation leading elsewhere and than "something else happened" (a board no legal
        step explains, at ``SURPRISE``); and a step or take-back wins through doubts of at
        most ``STEP_DOUBT`` only (the reader found the class it needs at least a quarter as
        likely as its choice), while the board left as it was may be read through any doubt. So a misread spot that no legal step explains reads as
        the board it should be (unchanged, or the step made with it), and a board that two
        readings explain about equally is not guessed at: ``Unclear``, naming the spots on which
        they differ (those the players should look at), and the game waits for a clearer look.
        None when nothing fits.
        """
        found: list[tuple[float, tuple, tuple, tuple]] = []  # (cost, outcome, match, board read)
        for key in bases:
            m = self._match(key)
            if m is not None:
                found.append((0.0, self._outcome(m), m, key))
        if len(found) > 1:
            # Of the values an unread spot may hold, those that need two steps at once to explain
            # the board give way to those that need one or none, as fewer assumed steps win on a
            # board read whole: a man put on d1 beside an unread a7 is that step, not "d1, and
            # the other player's man on a7" (which the next look that sees a7 would show).
            fewest = min(self._assumed(f[2]) for f in found)
            found = [f for f in found if self._assumed(f[2]) <= max(fewest, 1)]
        for base in bases:
            for cost, key in _flipped(base, flips, MAX_FLIPS):
                if cost >= SURPRISE or (found and cost >= found[0][0] + MARGIN):
                    break  # nothing from here on can win, nor stop the best so far from winning
                m = self._match(key)
                if m is not None:
                    found.append((cost, self._outcome(m), m, key))
                    found.sort(key=lambda c: c[0])  # stable: of equal costs, the earlier base first
        # A board left as it was may be read through any doubt short of a surprise (nothing is
        # accepted); a step, or a take-back, only through doubts the reader itself found close.
        eligible = [f for f in found if f[0] <= (SURPRISE if f[1] == ("same",) else STEP_DOUBT)]
        if not eligible:
            return None
        cost, outcome, best, board = eligible[0]
        rivals = [f for f in found if f[1] != outcome]
        rival = min((f[0] for f in rivals), default=SURPRISE)
        if cost + MARGIN <= min(rival, SURPRISE):
            return best
        # the rival readings that come close, or (when only "something else happened" does) the
        # board as read: the spots on which they differ from the best one are the question
        close = [f[3] for f in rivals if f[0] < cost + MARGIN] or [bases[0]]
        return Unclear(tuple(i for i in range(len(board)) if any(board[i] != other[i] for other in close)))

    def _doubted(self, observation: Observation, okey: tuple) -> Unclear | None:
        """The spots to look at, when a board no likely reading explains is explained by a
        reading the reader found unlikely but not too unlikely to be what stands there.

        "Something else happened" (``SURPRISE``) is then not clearly likelier than that legal
        reading (``MARGIN``), so the board is not called illegal, nor is anything accepted: a
        glass gem read surely as the other metal is one such (on the photoreal renders about 2 in
        10000 gems read at 0.99 or surer are the other metal, ``vision.classify.split_doubt``), and the players
        are shown where to look rather than told that the pieces are wrong. Classes the reader
        gives at least ``DOUBT_P`` are tried, up to ``MAX_FLIPS`` spots at once."""
        flips = self._unsure_spots(observation, okey, least=DOUBT_P)
        for cost, key in _flipped(okey, flips, MAX_FLIPS):
            if cost >= SURPRISE + MARGIN:
                break
            match = self._match(key)
            if match is not None:
                kind, what = match
                seen = tuple(e.steps[0] for e in what if len(e.steps) == 1 and e.base == CURRENT) if kind == "found" else ()
                return Unclear(tuple(i for i in range(len(key)) if key[i] != okey[i]), seen)
        return None

    @staticmethod
    def _assumed(match: tuple) -> int:
        """How many steps a match assumes were made: none for the same board, else its longest."""
        kind, what = match
        if kind == "same":
            return 0
        if kind == "back":
            return 1
        return max(len(e.steps) for e in what)

    def _outcome(self, match: tuple) -> tuple:
        """What a match would make of the game: two matches with the same outcome agree."""
        kind, what = match
        if kind == "same":
            return ("same",)
        if kind == "back":
            return ("back", what)
        return ("found",) + tuple(tuple(e.steps) for e in what)

    def _unsure_spots(self, observation: Observation, okey: tuple, least: float = UNSURE_P
                      ) -> list[tuple[int, Any, float]]:
        """(spot index, another value it may be, cost in log units) for every class a reader
        found at least ``least`` likely besides the one it chose, the ``MAX_UNSURE`` likeliest."""
        out = []
        for i, spot in enumerate(self.spots):
            reading = observation.points.get(spot)
            probs = getattr(reading, "probs", None)
            if not probs:
                continue
            coarse: dict[Any, float] = {}
            for value, p in probs.items():
                v = value if observation.sees == self.sees else _coarsen(value, observation.sees, self.sees)
                coarse[v] = coarse.get(v, 0.0) + float(p)
            chosen = max(coarse.get(okey[i], 0.0), 1e-6)
            for value, p in coarse.items():
                if value != okey[i] and p >= least:
                    out.append((i, value, math.log(chosen / p) if p < chosen else 0.0))
        out.sort(key=lambda f: f[2])
        return out[:MAX_UNSURE]

    def unseen_steps(self) -> list[Step]:
        """Steps the players may make now that the reader cannot see (see ``Explainer.unseen_steps``),
        and the declarations the rules allow (``State.calls``: Stack's impasse), for the buttons."""
        st = self.state
        calls = [c for c in st.calls() if str(c) != "timeout"]  # the clock's, not a player's
        return calls + [s for s in self.explainer.unseen_steps(st) if s not in calls]

    def enter(self, step: Step | str) -> Verdict:
        """Accept ``step`` told with the buttons or by the clock (a step no reader can see, a
        ``timeout``). ValueError if it is not legal now; the board is not looked at."""
        st = self.state
        step = st.parse(step) if not isinstance(step, Step) else step
        why = st.why_illegal(step)
        if why:
            raise ValueError(f"{step}: {why}")
        return self._accept(Explanation((step,), (st.play(step),), dict(self._lift)))

    def tick(self, t: float) -> Verdict | None:
        """Time passes with the board as last seen: confirms a take-back of one turn held for
        ``takeback_hold_s`` (more than one turn needs ``confirm_takeback``), and calls illegal a
        board left unclear by a doubt (``_doubted``) for ``doubt_hold_s``.

        The hold is timed from the ``t`` given to ``observe`` when the board was seen, or else
        from the first tick after it. A doubted reading that a clearer look does not replace
        within the hold is taken as read: what is on the board breaks the rules.
        """
        if not _finite(t):
            raise ValueError(f"the time {t!r} is not a finite number of seconds")
        p = self._pending
        if p is None or p.kind not in (TAKEBACK_PENDING, UNCLEAR):
            return None
        if p.since is None:
            p.since = t
            return None
        if p.kind == UNCLEAR:
            if t - p.since < self.doubt_hold_s:
                return None
            self._pending = _Pending(ILLEGAL)
            return self._illegal(p.board)
        if p.hold and t - p.since >= self.takeback_hold_s:
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
        return self.explainer.key(state)

    def _obs_key(self, obs: Observation) -> tuple:
        """The reading as a key in ``spots`` order (``UNREAD`` where the reader could not read);
        every spot is there (``check``)."""
        seen = obs.view()
        if obs.sees != self.sees:
            if SEES.index(obs.sees) > SEES.index(self.sees):
                raise ValueError(f"a {obs.sees} reading cannot be refereed as {self.sees}: the reader sees less")
            seen = {s: _coarsen(v, obs.sees, self.sees) for s, v in seen.items()}
        return tuple([seen[s] for s in self.spots])

    def _normalise(self, okey: tuple, lift: dict[str, Any]) -> tuple[tuple, dict[str, Any]]:
        """The board with captured pieces that are still on it taken off, and which those are."""
        return self.explainer.normalise(okey, lift)

    # ------------------------------------------------------------------ explaining a board
    def _explain(self, okey: tuple, first: bool) -> list[Explanation]:
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
            found = self.explainer.explain(base, okey, lift, depth, thorough=where == CURRENT)
            if found:
                for e in found:
                    e.base = where
                return self._distinct(found)
        return []

    def _distinct(self, found: list[Explanation]) -> list[Explanation]:
        """Explanations that end in the same game (same board, same player, same phase) are one."""
        if len(found) == 1:
            return found
        out, seen = [], set()
        for e in found:
            sig = self._game(e.state, e.lift)
            if sig not in seen:
                seen.add(sig)
                out.append(e)
        return out

    def _game(self, st, lift: dict[str, Any]) -> tuple:
        """What makes two explanations' ends one game: board, stacks, captures, player, phase."""
        pos = st.position()
        stacked = self.rules.stack_limit > 1  # stack() costs a position() per spot: only where pieces stack
        return (tuple(sorted(pos.items())), tuple(st.stack(s) for s in sorted(pos)) if stacked else (),
                tuple(sorted(st.captures().items())), st.to_move, st.phase, st.result,
                st.moves_left, tuple(sorted(lift.items())))

    def _in_order_seen(self, exp: Explanation) -> Explanation:
        """``exp`` with its two steps the other way round, when a doubted look before it showed
        the second made alone (``_Pending.seen``) and that order is legal and ends in the same
        game: two moves of one turn seen at once are recorded in the order they were made, as
        far as any look showed it. (A gem misread beside a Brain Hanky cluster leaves the frame
        unclear; the next frame shows that cluster and the turn's second one together.)"""
        p = self._pending
        if p is None or p.kind != UNCLEAR or len(exp.steps) != 2 or exp.base != CURRENT:
            return exp
        first, second = exp.steps
        if first in p.seen or second not in p.seen:
            return exp
        base = self.state
        if base.why_illegal(second):
            return exp
        mid = base.play(second)
        if mid.why_illegal(first):
            return exp
        end = mid.play(first)
        if self._game(end, exp.lift) != self._game(exp.state, exp.lift):
            return exp
        return Explanation((second, first), (mid, end), dict(exp.lift), exp.base)

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

    def _accept(self, exp: Explanation) -> Verdict:
        exp = self._in_order_seen(exp)
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
            for p in self.step_spots(s):
                if p not in points:
                    points.append(p)
        said = self._describe_steps(before, exp.steps, exp.states)
        message = ("Got it, you meant: " + said) if undone else said
        return Verdict(kind, self.state, tuple(exp.steps), undone, tuple(points), to_remove,
                       message=f"{message} {self.next_words()}".strip())

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
                       message=f"Took back {words}. {self.next_words()}")

    # ------------------------------------------------------------------ verdicts without a step
    def _verdict(self, kind: str, points: Iterable[str] = (), reason: str = "", message: str = "",
                 candidates: tuple = ()) -> Verdict:
        return Verdict(kind, self.state, (), (), tuple(points), self._to_remove(), candidates, reason, message)

    def _settled(self, kind: str) -> Verdict:
        to_remove = self._to_remove()
        if kind == UNCHANGED and to_remove:
            kind = WAITING_REMOVAL
        first = "The board is back as it was. " if kind == RESTORED else ""
        return Verdict(kind, self.state, (), (), (), to_remove, message=(first + self.next_words()).strip())

    def _ambiguous(self, found: list[Explanation]) -> Verdict:
        points = []
        for e in found:
            for s in e.steps:
                for p in self.step_spots(s):
                    if p not in points:
                        points.append(p)
        options = " or ".join(", then ".join(self.step_words(e.steps, self._base_state(e))) for e in found[:3])
        more = f" (and {len(found) - 3} more)" if len(found) > 3 else ""
        return self._verdict(AMBIGUOUS, points, candidates=tuple(e.steps for e in found),
                             message=f"I can't tell which move that was: {options}{more}. "
                                     f"Press the button to pick the right one.")

    def _turns_since(self, k: int) -> int:
        """How many turns the steps from the k-th on make: runs of steps by one player (a mill
        and its removal are one turn, as are the moves of one Brain Hanky turn)."""
        turns, last = 0, None
        for st in self._states[k:-1]:  # the state each step was made from: its player
            if st.to_move != last:
                turns, last = turns + 1, st.to_move
        return turns

    def _takeback_seen(self, k: int, t: float | None) -> Verdict:
        # Holding the board still confirms a take-back of one turn only: a board that happens to
        # match a position many turns back (pieces swept off in the placement phase) must not
        # undo the game unasked. More than one turn needs the button.
        hold = self._turns_since(k) <= 1
        p = self._pending
        if p is not None and p.kind == TAKEBACK_PENDING and p.index == k:
            if p.since is None:
                p.since = t
            elif hold and t is not None and t - p.since >= self.takeback_hold_s:
                return self._take_back(k)
        else:
            self._pending = _Pending(TAKEBACK_PENDING, index=k, since=t, hold=hold)
        count = len(self._history) - k
        diff = tuple(s for s, a, b in zip(self.spots, self._keys[-1], self._keys[k]) if a != b)
        words = "one step" if count == 1 else f"{count} steps"
        if hold:
            message = f"Take back {words}? Press the button, or keep the board still to say yes."
        else:
            message = (f"Take back {words}? That is {self._turns_since(k)} turns: press the confirm button "
                       f"to say yes, or put the pieces back.")
        return self._verdict(TAKEBACK_PENDING, diff, message=message)

    def _in_progress(self, nkey: tuple) -> Verdict | None:
        """A step half made: a piece lifted that may move from there, a cluster partly placed."""
        progress = self.explainer.in_progress(self.state, nkey)
        if progress is None:
            return None
        return self._verdict(IN_PROGRESS, progress.points, message=progress.message)

    # ------------------------------------------------------------------ illegal boards
    def _illegal(self, nkey: tuple) -> Verdict:
        diff = tuple(s for s, a, b in zip(self.spots, self._keys[-1], nkey) if a != b)
        reason = self.explainer.reason(self.state, nkey)
        if len(diff) > 4:
            message = "Lots of pieces have moved! Put them back where the red lights are."
        else:
            message = f"Not allowed: {plain(reason)}. Put it back where the red lights are."
        return self._verdict(ILLEGAL, diff, reason=reason, message=message)

    # ------------------------------------------------------------------ words
    def colour_name(self, colour: int) -> str:
        """What players call the pieces of ``colour`` ("white", "yellow")."""
        return self.rules.colour_name(colour)

    def seat(self, state) -> int | None:
        """In team play, which of its team's players (1, 2, ...) is to move in ``state``; else None."""
        rules = self.rules
        team = rules.team_of(state.to_move)
        if team is None:
            return None
        mates = [p for p in range(1, rules.players + 1) if rules.team_of(p) == team]
        return mates.index(state.to_move) + 1 if state.to_move in mates else None

    def mover_words(self, state) -> str:
        """Who is to move, as players say it: "White", or in team play "White (player 3)"."""
        who = self.colour_name(state.colour_to_move).capitalize()
        if self.rules.team_of(state.to_move) is not None:
            who += f" (player {state.to_move})"
        return who

    def step_spots(self, step: Step) -> tuple[str, ...]:
        """The spots a step touches (lit on the LEDs)."""
        return self.rules.step_spots(step)

    def step_words(self, steps: Sequence[Step], start=None) -> list[str]:
        """Each step as a short phrase, for a list of candidates. ``start``: the position the
        steps are made from (default the current one). Each step's mover is read off the
        position that step is made from, so a push names what it moves ("(4 rings)") when it
        corrects an earlier move or follows another step of its candidate."""
        out = []
        st = self.state if start is None else start
        for i, s in enumerate(steps):
            mover = st.position().get(s.src) if s.src else None
            out.append(step_words(s, mover.kind if mover else "piece"))
            if i + 1 < len(steps):
                st = st.play(s)
        return out

    def _base_state(self, exp: Explanation):
        """The position ``exp``'s steps are made from: the current one, or (a correction) the
        one before the last accepted group of steps."""
        if exp.base == PREVIOUS and self._groups:
            return self._states[self._groups[-1].start]
        return self.state

    def _describe_steps(self, before, steps: Sequence[Step], states: Sequence[Any]) -> str:
        parts = []
        st = before
        for step, after in zip(steps, states):
            who = self.colour_name(st.colour_to_move).capitalize()
            text = describe_step(self.rules, st, step)
            for event in after.events:
                text += f" {who} {event}!"
            parts.append(text)
            st = after
        return " ".join(parts)

    def _to_remove(self) -> tuple[str, ...]:
        out = list(self._lift)
        out += [s for s in self.state.removable() if s not in out]
        return tuple(out)

    def next_words(self) -> str:
        """What happens next, for the player: the result, a removal or lift to make, whose turn."""
        state = self.state
        rules = self.rules
        if state.result is not None:
            r = state.result
            if r.winner is None:
                return f"The game is a draw: {plain(r.reason)}."
            return f"{self.colour_name(r.winner).capitalize()} wins: {plain(r.reason)}."
        parts = []
        for spot, v in self._lift.items():
            kind = v[1] if self.sees == "colour" else rules.kind_at(spot)
            parts.append(f"Lift the captured {kind} off {spot}.")
        me = state.colour_to_move
        who = self.mover_words(state)
        prev = self._states[-2] if len(self._states) > 1 else None
        same = prev is not None and prev.colour_to_move == me
        if state.phase == "removal":
            pos = state.position()
            victims = {pos[s].owner for s in self._to_remove() if s in pos}
            whose = self.colour_name(victims.pop()) + " " if len(victims) == 1 else ""
            if same and self._history[-1].kind != REMOVE:
                parts.append(f"{who} made {rules.line_name}! Take one {whose}piece off.")
            else:
                parts.append(f"{who}: take one {whose}piece off.")
        else:
            left = state.moves_left if state.phase == "movement" else 0
            if same and prev.to_move == state.to_move and prev.moves_left > left >= 1:
                parts.append(f"{who}: {'one more move' if left == 1 else f'{left} more moves'}.")
            else:
                parts.append(f"{who} to play.")
        return " ".join(parts)


__all__ = ["AMBIGUOUS", "CORRECTION", "ILLEGAL", "IN_PROGRESS", "KINDS", "RESTORED", "STEP", "STEPS", "TAKEBACK",
           "TAKEBACK_PENDING", "UNCHANGED", "UNCLEAR", "UNSEEN", "WAITING_REMOVAL", "Referee", "Verdict"]
