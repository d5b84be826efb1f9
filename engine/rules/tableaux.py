"""Tableaux: chips on every spot of the board; players take 1 to 3 in turn; the last chip loses.

The basic game (ruling TB-1): 25 chips, one on each of the 25 spots (the 24 points and the
centre); the players take turns removing 1, 2 or 3; whoever has to take the last chip loses.

Advanced Play, a match of rounds to 50 points (``engine.rules.match``): each round opens with two
choices, the round's first player naming the chips in play (``chips=30``, 25-48; chips above 25
stand two high on spots) and the other player the draw size (``draw=5``, 3-9: a play takes 1 to
that many). The first play of a round has 10 seconds, every later one 5: the engine never reads a
clock, it tells the session the limit (``time_limit``) and takes ``timeout`` when it runs out. A
round ends when the last chip is taken or on a timeout. Tally: after a last-chip round the winner
scores the chips they took; after a timeout the other player scores the chips they took plus the
greater of the chips left on the board and the chips the late player took.

What a camera can see, and the notation
---------------------------------------
A play is written as the number of chips taken: ``3``. Where chips stand two high a camera (or a
sensor grid) sees only whether a spot holds any chip, so the state keeps exactly that: which
spots are occupied and how many chips are left in all (``position()`` shows one chip on every
occupied spot). A play may also name the spots it left empty, ``3:a1,d4``: that is what the
companion journals when it judges a board, so a replay puts the same spots back. Without spots
(a record typed by hand), the engine takes from stacked chips first and then empties spots from
the end of the board's list, so a replay is still exact. The count is the rule; the spots only
keep the picture true.

From a board alone the count is certain only when nothing stands two high any more (each chip
taken empties a spot). Otherwise several counts fit what the camera saw, and the companion asks
(``engine.rules.tableaux_explain``): the referee offers the counts that fit and the players pick
one with the buttons. A play that takes only chips off the top of stacks changes nothing a camera
can see at all; the players then tell the count with the buttons as well (docs/rules.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..boards import BoardGraph, board as get_board
from ..core import (CALL, NEXT_ROUND, TAKE, TIMEOUT, IllegalStep, Piece, Result, Step, parse_take_or_call,
                    preflight)
from ..protocol import RulesBase, StateBase

CHIPS = "chips="
DRAW = "draw="
MIN_CHIPS, MAX_CHIPS = 25, 48
MIN_DRAW, MAX_DRAW = 3, 9


@dataclass(frozen=True)
class TableauxSettings:
    board: str = "tableaux"
    players: int = 2
    advanced: bool = False
    chips: int = 25  # basic play (TB-1)
    draw: int = 3  # basic play: take 1-3 (TB-1)
    first_clock: float = 10.0  # advanced: seconds for a round's first play
    clock: float = 5.0  # advanced: seconds for every later play
    match_target: int = 0  # advanced: 50 (engine.rules.match); 0: one game
    move_cap: int = 0  # unused: every play takes a chip, so a round always ends


class TableauxRules(RulesBase):
    family = "tableaux"
    piece_kinds = ("man",)
    has_jumps = False
    stack_limit = 2  # chips above 25 stand two high
    reads_as = "occupancy"  # chips belong to nobody: only whether a spot holds one matters
    # A player may lift the chips of one play one at a time: the board must rest this long
    # before a play is read, or a play of three would read as three plays.
    settle_s = 1.5

    def __init__(self, name: str, settings: TableauxSettings):
        s = settings
        self.name = name
        self.settings = s
        self.board: BoardGraph = get_board(s.board)
        self.players = 2
        self.sides = 2
        self.names = self.board.points
        self.index = self.board.index
        self.n_spots = len(self.names)
        if not s.advanced and s.chips != self.n_spots:
            raise ValueError(f"basic Tableaux has one chip on each of the {self.n_spots} spots")
        self.full = (1 << self.n_spots) - 1
        self.takes = {n: Step(TAKE, None, str(n)) for n in range(1, MAX_DRAW + 1)}
        self.chip_calls = {n: Step(CALL, None, f"{CHIPS}{n}") for n in range(MIN_CHIPS, MAX_CHIPS + 1)}
        self.draw_calls = {n: Step(CALL, None, f"{DRAW}{n}") for n in range(MIN_DRAW, MAX_DRAW + 1)}
        self.timeout = Step(CALL, None, TIMEOUT)
        self._spot_takes: dict[str, Step] = {}

    # ------------------------------------------------------------------ steps
    def parse(self, text: str) -> Step:
        if not isinstance(text, str):
            raise IllegalStep(repr(text), "a play is written as the number of chips taken, e.g. 3")
        try:
            got = parse_take_or_call(text, (CHIPS, DRAW, TIMEOUT))
        except ValueError as exc:
            raise IllegalStep(text, str(exc)) from None
        if got is None:
            raise IllegalStep(text, "a Tableaux play is the number of chips taken, e.g. 3 "
                                    "(or 3:a1,d4 naming the spots it emptied)")
        kind, dst, path = got
        if kind == CALL:
            if dst == TIMEOUT:
                return self.timeout
            word, _, value = dst.partition("=")
            table = self.chip_calls if word + "=" == CHIPS else self.draw_calls
            st = table.get(int(value))
            if st is None:
                lo, hi = (MIN_CHIPS, MAX_CHIPS) if word + "=" == CHIPS else (MIN_DRAW, MAX_DRAW)
                raise IllegalStep(text, f"{word} must be {lo} to {hi} (Advanced Play)")
            return st
        n = int(dst)
        if n < 1:
            raise IllegalStep(text, "a play takes at least one chip")
        if not path:
            st = self.takes.get(n)
            if st is None:
                raise IllegalStep(text, f"a play takes at most {MAX_DRAW} chips")
            return st
        for p in path:
            if p not in self.index:
                raise IllegalStep(text, f"{p} is not a spot of the Tableaux board")
        if len(set(path)) != len(path):
            raise IllegalStep(text, "a spot is named twice")
        path = tuple(sorted(path, key=self.index.__getitem__))
        return self.take_emptying(n, path)

    def take_emptying(self, n: int, spots: tuple[str, ...]) -> Step:
        """The (interned) play of ``n`` chips that left ``spots`` empty (in board order)."""
        if not spots:
            return self.takes[n]
        text = f"{n}:{','.join(spots)}"
        st = self._spot_takes.get(text)
        if st is None:
            st = self._spot_takes[text] = Step(TAKE, None, str(n), spots)
        return st

    def _make_explainer(self, sees: str):
        from .tableaux_explain import TableauxExplainer

        return TableauxExplainer(self, sees)

    def match_explainer(self, match_rules, sees: str):
        """The same explainer judges the rounds of a match (``engine.rules.match``)."""
        from .tableaux_explain import TableauxExplainer

        return TableauxExplainer(match_rules, sees)

    # ------------------------------------------------------------------ states
    def new(self, *, draws=None) -> "TableauxState":
        if draws is not None:
            raise ValueError(f"{self.name} has no chance draws")
        return self.new_round(0)

    def new_round(self, first: int, active=None) -> "TableauxState":
        s = self.settings
        st = TableauxState.__new__(TableauxState)
        st.rules = self
        st.first = first
        st.turn = first
        st.occupied = self.full
        st.left = s.chips
        st.draw = s.draw
        st.chosen = (not s.advanced, not s.advanced)  # chip count and draw size settled
        st.taken = (0, 0)
        st.plays = 0
        st.result = None
        st.timed_out = None
        st.last = None
        st.events = ()
        return st

    def round_points(self, state: "TableauxState") -> tuple[int, int]:
        """Advanced tally: the round's winner scores their chips; after a timeout, also the
        greater of the chips left and the chips the late player took."""
        r = state.result
        if r is None or r.winner is None:
            return (0, 0)
        w = r.winner - 1
        pts = state.taken[w]
        if state.timed_out is not None:
            pts += max(state.left, state.taken[1 - w])
        return (pts, 0) if w == 0 else (0, pts)


class TableauxState(StateBase):
    """A Tableaux position: which spots hold chips, how many chips are left, who plays."""

    __slots__ = ("rules", "first", "turn", "occupied", "left", "draw", "chosen", "taken", "plays", "result",
                 "timed_out", "last", "events")

    @property
    def to_move(self) -> int:
        if self.chosen[0] and not self.chosen[1]:
            return 2 - self.first  # the other player names the draw size
        return self.turn + 1

    @property
    def phase(self) -> str:
        if self.result is not None:
            return "over"
        return "taking" if all(self.chosen) else "set-up"

    @property
    def time_limit(self) -> float | None:
        s = self.rules.settings
        if not s.advanced or self.result is not None or not all(self.chosen):
            return None
        return s.first_clock if self.plays == 0 else s.clock

    def position(self) -> dict[str, Piece]:
        """One chip on every spot that holds any (a camera cannot see a second one beneath)."""
        names = self.rules.names
        occ = self.occupied
        return {names[i]: Piece(1, "man") for i in range(self.rules.n_spots) if occ >> i & 1}

    def stack(self, spot: str) -> tuple[Piece, ...]:
        """One chip, or two where chips stand two high: the state knows only how many stand on
        others, so they are laid on the first occupied spots in the board's order (the picture a
        set-up or a resumed game is laid out as)."""
        i = self.rules.index.get(spot)
        if i is None or not self.occupied >> i & 1:
            return ()
        rank = (self.occupied & ((1 << i) - 1)).bit_count()
        return (Piece(1, "man"),) * (2 if rank < self.stacked else 1)

    @property
    def stacked(self) -> int:
        """Chips standing on top of another chip (the ones no camera can see)."""
        return self.left - self.occupied.bit_count()

    def legal_steps(self) -> tuple[Step, ...]:
        rules = self.rules
        if self.result is not None:
            return ()
        if not self.chosen[0]:
            return tuple(rules.chip_calls.values())
        if not self.chosen[1]:
            return tuple(rules.draw_calls.values())
        return tuple(rules.takes[n] for n in range(1, min(self.draw, self.left) + 1))

    def calls(self) -> tuple[Step, ...]:
        return (self.rules.timeout,) if self.time_limit is not None else ()

    def captures(self) -> dict[int, int]:
        return {1: self.taken[0], 2: self.taken[1]}

    def why_illegal(self, step: Step | str) -> str | None:
        rules = self.rules
        step, why = preflight(self, step)
        if why:
            return why
        if step.kind == CALL:
            if step.dst == TIMEOUT:
                if not rules.settings.advanced:
                    return "basic Tableaux has no clock (the time limits are Advanced Play's, ruling TB-1)"
                if not all(self.chosen):
                    return "the clock starts once the chips and the draw size are chosen"
                return None
            if step.dst == NEXT_ROUND:
                return "there is no next round here"
            if not rules.settings.advanced:
                return "the chip count and draw size are chosen only in Advanced Play (basic: 25 chips, take 1-3; ruling TB-1)"
            if step.dst.startswith(CHIPS):
                if self.chosen[0]:
                    return "the chips in play are already chosen for this round"
                return None
            if not self.chosen[0]:
                return f"player {self.first + 1} first names the chips in play (chips=25 to chips=48, ruling TB-1)"
            if self.chosen[1]:
                return "the draw size is already chosen for this round"
            return None
        if not all(self.chosen):
            what = "chips in play (chips=N)" if not self.chosen[0] else "draw size (draw=N)"
            return f"the round starts once the {what} is chosen"
        n = step.count
        if n > self.draw:
            return f"a play takes 1 to {self.draw} chips (ruling TB-1)"
        if n > self.left:
            return f"only {self.left} chip{'s' * (self.left != 1)} left"
        if step.path:
            return self._spots_problem(n, step.path)
        return None

    def _spots_problem(self, n: int, spots: tuple[str, ...]) -> str | None:
        """Whether taking ``n`` chips can leave exactly ``spots`` newly empty."""
        idx = self.rules.index
        mask = 0
        for p in spots:
            bit = 1 << idx[p]
            if not self.occupied & bit:
                return f"{p} was already empty"
            mask |= bit
        k = len(spots)
        if n < k:
            return f"{k} spots were emptied, which takes at least {k} chips, not {n}"
        left = self.left - n
        occ = self.occupied.bit_count() - k
        if left < occ:
            return (f"{n} chips cannot leave only {k} spot{'s' * (k != 1)} empty: "
                    f"every other spot still holds a chip, so at most {self.left - occ} could come off")
        if left > 2 * occ:
            return (f"{n} chips cannot have emptied {k} spot{'s' * (k != 1)}: chips stand at most two high, "
                    f"so {occ} occupied spots cannot hold the {left} chips left")
        return None

    def play(self, step: Step | str) -> "TableauxState":
        why = self.why_illegal(step)
        if why:
            raise IllegalStep(step if isinstance(step, str) else repr(step), why)
        step = self.rules.parse(step)  # the game's own step, also for a Step built by hand
        nxt = TableauxState.__new__(TableauxState)
        for name in TableauxState.__slots__:
            setattr(nxt, name, getattr(self, name))
        nxt.last = step
        nxt.events = ()
        rules = self.rules
        if step.kind == CALL:
            if step.dst == TIMEOUT:
                late = self.turn
                nxt.timed_out = late + 1
                nxt.result = Result(2 - late, False, f"player {late + 1} ran out of time (Advanced Play)")
                return nxt
            word, _, value = step.dst.partition("=")
            if word + "=" == CHIPS:
                nxt.left = int(value)
                nxt.chosen = (True, False)
            else:
                nxt.draw = int(value)
                nxt.chosen = (True, True)
            return nxt
        n = step.count
        spots = step.path or self._canonical_empties(n)
        mask = 0
        for p in spots:
            mask |= 1 << rules.index[p]
        nxt.occupied = self.occupied & ~mask
        nxt.left = self.left - n
        taken = list(self.taken)
        taken[self.turn] += n
        nxt.taken = tuple(taken)
        nxt.plays = self.plays + 1
        if nxt.left == 0:
            nxt.result = Result(2 - self.turn, False, f"player {self.turn + 1} took the last chip")
            return nxt
        nxt.turn = 1 - self.turn
        return nxt

    def _canonical_empties(self, n: int) -> tuple[str, ...]:
        """A play given as a bare count: chips come off stacks first, then spots empty from the
        end of the board's list (any fixed choice would do; this one keeps replays exact)."""
        singles_needed = max(0, n - self.stacked)
        names = self.rules.names
        out = []
        for i in reversed(range(self.rules.n_spots)):
            if len(out) == singles_needed:
                break
            if self.occupied >> i & 1:
                out.append(names[i])
        return tuple(reversed(out))

    def __repr__(self) -> str:
        return f"<tableaux {self.phase} player {self.to_move} left={self.left} draw={self.draw}>"


def losing(left: int, draw: int) -> bool:
    """Whether the player to move loses with best play: ``left`` chips, takes of 1..``draw``,
    the last chip loses. They lose exactly when ``left`` is one more than a multiple of draw + 1."""
    return left % (draw + 1) == 1


__all__ = ["TableauxRules", "TableauxSettings", "TableauxState", "losing"]
