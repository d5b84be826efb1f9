"""The mill family: every HTJB placement-and-movement game as one ruleset with options.

Nine Men's Morris, Morabaraba, Shax, the 3x3 games, Saba, Sita and Tano with their Kuruka and
Lazima forms, Kubwa Tatu and its smaller forms, the Vyura and Nyoka games, Tatu Ndege, Kunjing
and Tresillo's Stay, Pluck and Conquer differ only in a handful of choices: the board graph, how
many men, what a completed line does (remove an opponent piece, win outright, or make the
opponent hand over an unplayed chip), which lines count for whom, whether and when men fly (and
how many flights), whether men jump (capturing or not, one jump or a chain, mandatory or not),
how a broken line may be re-formed, what happens to a player who cannot move, which captures or
counts end the game, how many players take turns (three or four in Kunjing, two teams of two in
team play) and which draws apply. ``MillRules`` holds those choices plus tables precomputed from
the board; a ``MillState`` is an immutable position that answers ``legal_steps`` and ``play``.

Positions are bitmasks over the board's point indices: an occupancy test, a line test or a
neighbour test is one integer operation, and every ``Step`` object is built once per ruleset and
handed out from tables, which is what keeps random playouts and legal-step queries fast.

Ruling ids (``../shared/spec/rulings.md``) are cited where a choice comes from a ruling.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..boards import BoardGraph, board as get_board
from ..core import (CALL, JUMP, MOVE, PLACE, REMOVE, TIMEOUT, IllegalStep, Piece, Result, Step, parse_step_text,
                    preflight)
from ..protocol import RulesBase, StateBase
from .history import record as _record

# What a completed line does.
LINE_REMOVES = "remove"  # a mill/pillar/jare: the maker removes an opponent piece
LINE_WINS = "win"  # first to complete a counting line wins (3x3 games)
LINE_HANDS_OVER = "hand-over"  # Tresillo Stay: the opponent hands over an unplayed chip (T-2)
LINE_HANDS_OVER_OR_REMOVES = "hand-over-or-remove"  # Conquer's Alternative Play: a chip, else a removal (T-3)

# Re-forming a line the same player broke on their previous move (ruling G-5).
REFORM_FREE = "free"  # removes as usual (9MM, Shax, Saba, Vyura, Nyoka)
REFORM_NEVER = "never"  # no removal (6MM, 5MM)
REFORM_UNLESS_OTHER = "unless-other"  # no removal unless the breaking move formed another line (7MM)
REFORM_MORABARABA = "morabaraba"  # removal unless the breaking move formed another line

# A player who cannot move on their turn (ruling G-2, S-2).
BLOCKED_LOSES = "lose"
BLOCKED_PASSES = "pass"
BLOCKED_BESIEGED = "besieged"  # Shax: the besieger must open a way without a jare (S-2)

# Flying (ruling G-6).
FLY_NEVER = "never"
FLY_AT_THREE = "three"  # a player with exactly three men (none in hand) may fly
FLY_ALWAYS = "always"  # every move may go to any empty point (3MM after placement, X-1)

try:  # the optional C kernel (engine/rules/_millkernel.c); the Python code is the reference
    from . import _millkernel as _kernel
except ImportError:  # pragma: no cover - exercised on machines without a compiler
    _kernel = None

_CHUNK = 13
_MASK = (1 << _CHUNK) - 1
_LOW = tuple(tuple(i for i in range(_CHUNK) if m >> i & 1) for m in range(1 << _CHUNK))
_HIGH = tuple(tuple(i + _CHUNK for i in t) for t in _LOW)


def _bits(mask: int) -> tuple[int, ...]:
    """Point indices set in ``mask`` (boards of up to 26 points), via two table look-ups."""
    return _LOW[mask & _MASK] + _HIGH[mask >> _CHUNK]


@dataclass(frozen=True)
class MillSettings:
    """Every choice that tells one mill-family game from another."""

    board: str
    men: int
    players: int = 2
    line_effect: str = LINE_REMOVES
    lines: str = "all"  # "all" | "rows-columns" (Achi) | "through-centre" (Shisima)
    home_rank_counts: bool = True  # False: a player's own home-rank line never counts (Tant Fant, Sabr)
    start: tuple[tuple[str, int], ...] = ()  # fixed start (point, player); men not placed come from hand
    flying: str = FLY_NEVER
    jumps: bool = False  # non-capturing jump over an adjacent opponent piece (G-7)
    reform: str = REFORM_FREE
    protect_lines: bool = True  # G-4: men in a standing line are protected (not in Shax, S-3)
    lose_below: int = 3  # a player left with fewer men than this (board + hand) loses; 0: never
    blocked: str = BLOCKED_LOSES
    shax_opening: bool = False  # S-1: no removals in placement, then the removal order
    ten_move_draw: bool = False  # M-1
    repetition_draw: bool = True  # G-3
    move_cap: int = 200  # G-3: moves (not placements) without a capture before a draw; 0 = no cap
    win_captures: int = 0  # capturing this many opponent men wins (Saba 5, Kubwa Tatu 4 ...); 0: no such rule
    jump_captures: bool = False  # a jumped man is captured (the Kuruka and Lazima forms, G-7)
    chain_jumps: bool = False  # continuous jumps make one move (Kuruka, Lazima, Kunjing; G-7)
    jump_mandatory: bool = False  # Lazima: jump when you can, unless a pillar can be formed (G-8)
    flights: int = 0  # with flying at three: flying moves each player may make (G-6); 0: no limit
    teams: bool = False  # team play: four players, two teams sharing a colour, turns A1 B1 A2 B2
    placement_only: bool = False  # Stay, Pluck: over when the board is full or the mover has no chip (T-2)
    move_after_all_placed: bool = False  # Conquer: moves start when both reserves are empty (T-3)
    move_clock: float = 0  # seconds per step (Rapido, T-5); a ``timeout`` passes the turn; 0: no clock
    match_target: int = 0  # Conquer's Advanced Play: a match of rounds to this many points (T-3)
    line_word: str = "mill"  # what the rulebook page calls a line: mill, pillar, jare, Tresillo


class MillRules(RulesBase):
    """A mill-family game: settings plus every table the states share."""

    family = "mills"
    piece_kinds = ("man",)

    def __init__(self, name: str, settings: MillSettings):
        self.name = name
        self.settings = s = settings
        self.board: BoardGraph = get_board(s.board)
        b = self.board
        n = len(b.points)
        if n > 2 * _CHUNK:
            raise ValueError(f"{b.name}: the mill engine handles boards of up to {2 * _CHUNK} points")
        self.n_points = n
        if s.teams and s.players != 2:
            raise ValueError("team play is for two-sided games: two teams of two players")
        if s.players > 2 and s.line_effect != LINE_WINS:
            raise ValueError("three or four players play only games where the first line wins")
        if (s.jump_captures or s.chain_jumps or s.jump_mandatory) and not s.jumps:
            raise ValueError("capturing, chained or mandatory jumps need jumps")
        # Hot settings copied flat: read on every step.
        self.sides = s.players  # colours in play: one per player, or one per team
        self.players = 4 if s.teams else s.players  # people taking turns
        self.teams = s.teams
        self.has_jumps = s.jumps
        self.line_name = "a jare" if s.shax_opening else f"a {s.line_word}"
        self.two = s.players == 2 and not s.teams  # two players alternating: the common case
        self.track_breaks = s.reform != REFORM_FREE
        self.fly_at_three = s.flying == FLY_AT_THREE
        self.fly_always = s.flying == FLY_ALWAYS
        self.flights = s.flights if s.flying == FLY_AT_THREE else 0
        self.jump_captures = s.jump_captures
        self.chain_jumps = s.chain_jumps
        self.hands_over = s.line_effect in (LINE_HANDS_OVER, LINE_HANDS_OVER_OR_REMOVES)
        # The fused fast path (MillState._apply_quiet) covers two-player games whose quiet steps
        # need no bookkeeping beyond the position: no re-form tracking, no Shax opening, no jumps,
        # no flight counts, and no end or pass that placement alone can bring (Tresillo).
        self.fast = (self.two and not self.track_breaks and not s.shax_opening and not s.jumps
                     and not self.flights and not s.placement_only and not s.move_after_all_placed)
        self.move_cap = s.move_cap
        self.ten_move_draw = s.ten_move_draw
        self.repetition_draw = s.repetition_draw
        self.names = b.points
        self.index = b.index
        self.full = (1 << n) - 1
        self.adj = tuple(sum(1 << b.index[q] for q in b.neighbours[p]) for p in b.points)
        # Jumps: for each point, (over-mask, landing index) pairs along straight lines.
        self.jump_from = tuple(
            tuple((1 << b.index[o], b.index[t]) for a, o, t in b.jumps if a == p) for p in b.points
        )
        self.jump_over = {(b.index[a], b.index[t]): b.index[o] for a, o, t in b.jumps}
        self.chain_steps: dict[tuple[int, tuple[int, ...]], Step] = {}  # (from, landings) -> step
        # Lines that count, per player, as masks, and per point for the completion test.
        home = {1: ("a1", "d1", "g1"), 2: ("a7", "d7", "g7")}
        all_lines = list(b.lines)
        if s.lines == "rows-columns":
            all_lines = [ln for ln in all_lines if len({b.coords[p][0] for p in ln}) == 1
                         or len({b.coords[p][1] for p in ln}) == 1]
        elif s.lines == "through-centre":
            all_lines = [ln for ln in all_lines if "d4" in ln]
        elif s.lines != "all":
            raise ValueError(f"unknown line selection {s.lines!r}")
        self.line_points = tuple(all_lines)
        self.line_mask = tuple(sum(1 << b.index[p] for p in ln) for ln in all_lines)
        counting: list[tuple[int, ...]] = []
        for player in range(self.sides):
            keep = []
            for li, ln in enumerate(all_lines):
                if not s.home_rank_counts and set(ln) == set(home.get(player + 1, ())):
                    continue
                keep.append(li)
            counting.append(tuple(keep))
        self.counting = tuple(counting)
        # lines_at[player][point] = ((line index, mask), ...) for counting lines through point.
        self.lines_at = tuple(
            tuple(tuple((1 << li, self.line_mask[li]) for li in counting[pl] if self.line_mask[li] >> i & 1)
                  for i in range(n))
            for pl in range(self.sides)
        )
        self.counting_masks = tuple(tuple(self.line_mask[li] for li in counting[pl]) for pl in range(self.sides))
        # Interned steps.
        self.place = tuple(Step(PLACE, None, p) for p in b.points)
        self.remove = tuple(Step(REMOVE, None, p) for p in b.points)
        self.move = tuple(tuple(Step(MOVE, p, q) if p != q else None for q in b.points) for p in b.points)
        self.slides = tuple(self._slide_table(i) for i in range(n))
        self.jump_step = {
            (b.index[a], b.index[t]): Step(JUMP, a, t, (t,)) for a, o, t in b.jumps
        } if s.jumps else {}
        self.by_text: dict[str, Step] = {}
        for st in self.place + self.remove:
            self.by_text[st.text] = st
        for row in self.move:
            for st in row:
                if st is not None:
                    self.by_text[st.text] = st
        for st in self.jump_step.values():
            self.by_text[st.text] = st
        self.timeout = Step(CALL, None, TIMEOUT)  # a call: parsed by word, never listed (see calls())
        # Start position.
        men = [0] * self.sides
        placed = [0] * self.sides
        for point, player in s.start:
            if point not in b.index:
                raise ValueError(f"start point {point} is not on {b.name}")
            men[player - 1] |= 1 << b.index[point]
            placed[player - 1] += 1
        self.start_men = tuple(men)
        self.start_hand = tuple(s.men - k for k in placed)
        self.quiet_core = self.quiet_core_py
        if self.fast and _kernel is not None:
            self.quiet_core = _kernel.QuietCore(
                n, self.full, self.adj,
                tuple(tuple(tuple(lm for _b, lm in at) for at in per) for per in self.lines_at),
                self.move, self.place, self.fly_always, self.fly_at_three,
            ).step

    def quiet_core_py(self, m0: int, m1: int, turn: int, src: int, dst: int, opp_hand: int):
        """A quiet step's position arithmetic: the reference for the C kernel (``_millkernel``).

        Moves the mover's man from ``src`` (-1: from hand) to ``dst``. Returns None if that
        completes a counting line; else ``(men, opponent's legal steps, repetition key)``, where
        the steps are in the same order ``_moves`` gives and the key is the one ``_start_turn``
        records with the opponent to move.
        """
        own = m1 if turn else m0
        if src >= 0:
            own &= ~(1 << src)
        own |= 1 << dst
        for _lbit, lm in self.lines_at[turn][dst]:
            if own & lm == lm:
                return None
        if turn:
            m1 = own
        else:
            m0 = own
        opp = 1 - turn
        theirs = m1 if opp else m0
        empty = self.full & ~(m0 | m1)
        if opp_hand:
            place = self.place
            legal = tuple([place[i] for i in _LOW[empty & _MASK] + _HIGH[empty >> _CHUNK]])
        elif self.fly_always or (self.fly_at_three and theirs.bit_count() == 3):
            empties = _LOW[empty & _MASK] + _HIGH[empty >> _CHUNK]
            move = self.move
            out: list[Step] = []
            for i in _LOW[theirs & _MASK] + _HIGH[theirs >> _CHUNK]:
                row = move[i]
                out += [row[j] for j in empties]
            legal = tuple(out)
        else:
            adj = self.adj
            slides = self.slides
            out = []
            for i in _LOW[theirs & _MASK] + _HIGH[theirs >> _CHUNK]:
                m = adj[i] & empty
                if m:
                    out += slides[i][m]
            legal = tuple(out)
        n = self.n_points
        return (m0, m1), legal, ((opp << n | m0) << n) | m1

    # ------------------------------------------------------------------ the family protocol
    @property
    def colours(self) -> int:
        return self.sides

    def colour_of(self, player: int) -> int:
        """Team play: players 1 and 3 play the first team's colour, 2 and 4 the second's."""
        return (player - 1) % 2 + 1 if self.teams else player

    def team_of(self, player: int) -> int | None:
        return (player - 1) % 2 + 1 if self.teams else None

    def chain_step(self, src: int, landings: tuple[int, ...]) -> Step:
        """The interned jump step from ``src`` through ``landings`` (one landing: a single jump)."""
        if len(landings) == 1:
            return self.jump_step[(src, landings[0])]
        key = (src, landings)
        st = self.chain_steps.get(key)
        if st is None:
            names = self.names
            st = self.chain_steps[key] = Step(JUMP, names[src], names[landings[-1]], tuple(names[i] for i in landings))
        return st

    def side_name(self, side: int) -> str:
        return f"{'team' if self.teams else 'player'} {side}"

    def round_points(self, state: "MillState") -> tuple[int, ...]:
        """Conquer's Advanced Play tally (ruling T-3): 1 point per captured chip, 2 per opponent
        chip trapped on the board (one with no open neighbouring point) when play ends."""
        occ = 0
        for m in state.men:
            occ |= m
        empty = self.full & ~occ
        trapped = [sum(1 for i in _bits(m) if not self.adj[i] & empty) for m in state.men]
        return tuple(state.captured_by(c + 1) + 2 * trapped[1 - c] for c in range(self.sides))

    def _slide_table(self, i: int) -> dict[int, tuple[Step, ...]]:
        """For point i: every subset of its neighbours -> the slide steps into that subset."""
        nbrs = _bits(self.adj[i])
        table: dict[int, tuple[Step, ...]] = {}
        for sub in range(1 << len(nbrs)):
            mask = 0
            steps = []
            for k, j in enumerate(nbrs):
                if sub >> k & 1:
                    mask |= 1 << j
                    steps.append(self.move[i][j])
            table[mask] = tuple(steps)
        return table

    # ------------------------------------------------------------------ states
    def new(self, *, draws=None) -> "MillState":
        if draws is not None:
            raise ValueError(f"{self.name} has no chance draws")
        return self.new_round(0)

    def new_round(self, first: int, active=None) -> "MillState":
        """A start position with player ``first`` (0-based) to play: a round of a match (Conquer's
        Advanced Play, where the players take turns to start)."""
        st = MillState.__new__(MillState)
        st.rules = self
        st.men = self.start_men
        st.hand = self.start_hand
        st.lost = (0,) * self.sides
        st.turn = first % self.sides
        st.seat = first
        st.flown = (0,) * self.sides
        st.pending = 0
        st.opening = ()
        st.broke = ((0, False),) * self.sides
        st.quiet = 0
        st.first_line = 0
        st.besieged = False
        st.history = None
        st.depth = 0
        st.result = None
        st.last = None
        st.plies = 0
        st._start_turn(True)
        return st

    def parse(self, text: str) -> Step:
        """The interned step for ``text``; IllegalStep when it names no possible step here."""
        st = self.by_text.get(text.strip())
        if st is not None:
            return st
        if text.strip().lower() == TIMEOUT:
            if self.settings.move_clock:
                return self.timeout
            raise IllegalStep(text, "this game has no clock, so there is no timeout (ruling T-5)")
        try:
            kind, src, dst, path = parse_step_text(text)
        except ValueError as exc:
            raise IllegalStep(text, str(exc)) from None
        for p in ((src,) if src else ()) + (dst,) + path:
            if p not in self.index:
                raise IllegalStep(text, f"{p} is not a point of the {self.board.name} board")
        if kind == MOVE and src == dst:
            raise IllegalStep(text, "a move must end on another point")
        if kind == JUMP:
            if not self.settings.jumps:
                raise IllegalStep(text, "this game has no jumps")
            if len(path) > 1 and not self.chain_jumps:
                raise IllegalStep(text, "this game allows one jump per move, not a chain of jumps (ruling G-7)")
            hops = (src,) + path
            for a, t in zip(hops, hops[1:]):
                if (self.index[a], self.index[t]) not in self.jump_over:
                    raise IllegalStep(text, f"{a} to {t} is not a straight jump over one point")
            return self.chain_step(self.index[src], tuple(self.index[p] for p in path))
        raise IllegalStep(text, "not a step of this game")


class MillState(StateBase):
    """An immutable position of a mill-family game. Playing a step returns a new state.

    Every state knows its legal steps from the moment it exists: they are needed at once to tell
    whether the player to move is blocked, and ``play`` checks a step against them, so legality
    has one source. ``why_illegal`` is only asked on the failure path, to name the rule broken.
    """

    # ``seat`` (team play: the player 0..3 to move), ``flown`` (flights used per colour, where
    # they are counted), ``taken`` (men a jump captured) and ``_events`` are set only by the
    # general path and only in the games that use them: the fast path never touches them.
    __slots__ = ("rules", "men", "hand", "lost", "turn", "pending", "opening", "broke", "quiet",
                 "first_line", "besieged", "history", "depth", "result", "last", "plies", "_legal",
                 "seat", "flown", "taken", "_events")

    # ------------------------------------------------------------------ public queries
    @property
    def to_move(self) -> int:
        """The player (1..n) who makes the next step (team play: 1..4, partners 1 and 3, 2 and 4)."""
        return self.seat + 1 if self.rules.teams else self.turn + 1

    @property
    def events(self) -> tuple[str, ...]:
        """What the last step caused besides itself: men captured by a jump, a chip handed over."""
        return getattr(self, "_events", ())

    @property
    def time_limit(self) -> float | None:
        clock = self.rules.settings.move_clock
        return clock if clock and self.result is None else None

    def calls(self) -> tuple[Step, ...]:
        """``timeout`` where each step is clocked (Rapido, ruling T-5)."""
        if self.result is None and self.rules.settings.move_clock:
            return (self.rules.timeout,)
        return ()

    def flights_left(self, colour: int) -> int | None:
        """Flights the colour may still make where flights are counted (ruling G-6), else None."""
        limit = self.rules.flights
        return limit - self.flown[colour - 1] if limit else None

    def leftovers(self, step: Step, after: "MillState") -> dict[str, Piece]:
        """Men a capturing jump took (Kuruka, Lazima): they stand on the board until lifted."""
        taken = getattr(after, "taken", ())
        if not taken:
            return {}
        before = self.position()
        return {p: before[p] for p in taken if p in before}

    @property
    def phase(self) -> str:
        if self.result is not None:
            return "over"
        if self.pending or self.opening:
            return "removal"
        if self.hand[self.turn]:
            return "placement"
        return "movement"

    def position(self) -> dict[str, Piece]:
        """What stands on each occupied point."""
        names = self.rules.names
        out = {}
        for player, mask in enumerate(self.men):
            for i in _bits(mask):
                out[names[i]] = Piece(player + 1, "man")
        return out

    def in_hand(self, player: int) -> int:
        return self.hand[player - 1]

    def on_board(self, player: int) -> int:
        return self.men[player - 1].bit_count()

    def captured_by(self, player: int) -> int:
        """Opponent men removed by the colour ``player`` (two-sided games; in Stay, chips handed over)."""
        return sum(self.lost) - self.lost[player - 1]

    def captures(self) -> dict[int, int]:
        return {c: self.captured_by(c) for c in range(1, self.rules.sides + 1)}

    def legal_steps(self) -> tuple[Step, ...]:
        """Every legal step, in a fixed order (a tuple: it is shared, not copied)."""
        return self._legal

    def play(self, step: Step | str) -> "MillState":
        """The state after ``step``; raises IllegalStep (naming the rule broken) if it is not legal.

        ``step`` may be a Step or its notation; the old state stays valid.
        """
        if step in self._legal:
            # the game's own step, also for a Step built by hand with the same text
            step = self.rules.by_text.get(step) or self.rules.parse(step)
            if self.rules.fast and not self.pending and not self.besieged:
                nxt = self._apply_quiet(step)
                if nxt is not None:
                    return nxt
            return self._apply(step)
        text = step if isinstance(step, str) else repr(step)
        why = self.why_illegal(step)
        if why is None and isinstance(step, str):
            # Legal but not listed: a call (``timeout``), or a chain of jumps that reaches the
            # same landing as the listed one by another route (legal_steps lists one per result).
            step = step if type(step) is Step else self.rules.parse(step)
            if step.kind == CALL:
                return self._apply_timeout()
            if step.kind == JUMP:
                return self._apply(step)
        raise IllegalStep(text, why or "not a legal step in this position")

    def parse(self, text: str) -> Step:
        return self.rules.parse(text)

    # ------------------------------------------------------------------ generation
    def _empty(self) -> int:
        occ = 0
        for m in self.men:
            occ |= m
        return self.rules.full & ~occ

    def _flights_ok(self, player: int) -> bool:
        """Whether ``player`` has a flight left (ruling G-6: "N flights" is a limit per game)."""
        limit = self.rules.flights
        return not limit or self.flown[player] < limit

    def _can_fly(self, player: int) -> bool:
        fly = self.rules.settings.flying
        if fly == FLY_AT_THREE:
            return self.hand[player] == 0 and self.men[player].bit_count() == 3 and self._flights_ok(player)
        return fly == FLY_ALWAYS

    def _removable(self) -> int:
        """Opponent men the player to move may remove now (G-4; S-1/S-3 in Shax)."""
        rules = self.rules
        opp = 1 - self.turn
        theirs = self.men[opp]
        if not rules.settings.protect_lines or self.opening:
            return theirs
        guarded = 0
        for lm in rules.counting_masks[opp]:
            if theirs & lm == lm:
                guarded |= lm
        free = theirs & ~guarded
        return free if free else theirs

    def _moves(self, player: int) -> list[Step]:
        """Every move (slide, flight, jump) of ``player``, before the besieged constraint."""
        rules = self.rules
        men = self.men
        occ = 0
        for m in men:
            occ |= m
        empty = rules.full & ~occ
        own = men[player]
        out: list[Step] = []
        if rules.fly_always or (rules.fly_at_three and own.bit_count() == 3 and not self.hand[player]
                                and (not rules.flights or self.flown[player] < rules.flights)):
            empties = _bits(empty)
            move = rules.move
            for i in _bits(own):
                row = move[i]
                out.extend([row[j] for j in empties])
        else:
            adj = rules.adj
            slides = rules.slides
            for i in _bits(own):
                m = adj[i] & empty
                if m:
                    out.extend(slides[i][m])
        if rules.jump_step:
            theirs = occ & ~own
            if rules.chain_jumps:
                out.extend(self._chains(own, theirs, empty))
            else:
                jump_step = rules.jump_step
                for i in _bits(own):
                    for over, land in rules.jump_from[i]:
                        if theirs & over and empty >> land & 1:
                            out.append(jump_step[(i, land)])
            if rules.settings.jump_mandatory:
                out = self._lazima(out, player)
        return out

    def _chains(self, own: int, theirs: int, empty: int) -> list[Step]:
        """Every chain of jumps (G-7), each prefix a move of its own (a chain may stop early, G-8).

        Capturing chains (Kuruka, Lazima) take each jumped man off at once, so no man is jumped
        twice and its point is free to land on; every distinct result (landing and men taken) is
        listed once. Non-capturing chains (Kunjing) leave the board as it was, so they may not land
        twice on one point; they are listed once per landing (the shortest route), and
        ``why_illegal`` accepts any other route there.
        """
        rules = self.rules
        jump_from = rules.jump_from
        chain_step = rules.chain_step
        out: list[Step] = []
        if rules.jump_captures:
            for src in _bits(own):
                seen: set[tuple[int, int]] = set()
                todo = [(src, (), theirs, empty | 1 << src)]
                while todo:
                    at, lands, th, em = todo.pop()
                    for over, land in jump_from[at]:
                        if th & over and em >> land & 1:
                            nl = lands + (land,)
                            key = (land, (theirs & ~th) | over)  # where it ends, which men it took
                            if key not in seen:
                                seen.add(key)
                                out.append(chain_step(src, nl))
                            todo.append((land, nl, th & ~over, em | over))
            return out
        for src in _bits(own):
            em = empty  # the start point is the mover's own: never a landing
            reached = 1 << src
            frontier = [(src, ())]
            while frontier:
                nxt = []
                for at, lands in frontier:
                    for over, land in jump_from[at]:
                        if theirs & over and em >> land & 1 and not reached >> land & 1:
                            reached |= 1 << land
                            nl = lands + (land,)
                            out.append(chain_step(src, nl))
                            nxt.append((land, nl))
                frontier = nxt
        return out

    def _lazima(self, moves: list[Step], player: int) -> list[Step]:
        """Ruling G-8: with a capturing jump on and no pillar to form, only jumps may be made."""
        jumps = [m for m in moves if m.kind == JUMP]
        if not jumps or len(jumps) == len(moves):
            return moves
        if any(self._forms_line(m, player) for m in moves):
            return moves
        return jumps

    def _generate(self) -> tuple[Step, ...]:
        rules = self.rules
        if self.pending or self.opening:
            rem = rules.remove
            return tuple([rem[i] for i in _bits(self._removable())])
        if self.hand[self.turn]:
            place = rules.place
            return tuple([place[i] for i in _bits(self._empty())])
        moves = self._moves(self.turn)
        if self.besieged and moves:
            moves = self._way_out(moves)
        return tuple(moves)

    def _way_out(self, moves: list[Step]) -> list[Step]:
        """Ruling S-2: the besieger's moves, narrowed to those that open a way without a jare."""
        blocked = 1 - self.turn
        opening = [m for m in moves if self._apply(m, check_end=False)._can_move(blocked)]
        pool = opening or moves
        quiet = [m for m in pool if not self._forms_line(m)]
        return quiet or pool

    def _can_move(self, player: int) -> bool:
        """Whether ``player`` would have a move here if it were their turn."""
        if self.hand[player]:
            return bool(self._empty())
        return bool(self._moves(player))

    def _forms_line(self, step: Step, player: int | None = None) -> bool:
        rules = self.rules
        turn = self.turn if player is None else player
        i = rules.index[step.dst]
        own = self.men[turn]
        if step.src is not None:
            own &= ~(1 << rules.index[step.src])
        own |= 1 << i
        before = self.men[turn]
        for _bit, lm in rules.lines_at[turn][i]:
            if own & lm == lm and before & lm != lm:
                return True
        return False

    # ------------------------------------------------------------------ checking
    def why_illegal(self, step: Step | str) -> str | None:
        """None if ``step`` is legal now, else the rule it breaks, in a player's words."""
        rules = self.rules
        step, why = preflight(self, step)
        if why:
            return why
        kind = step.kind
        idx = rules.index
        turn = self.turn
        me = self.to_move
        if kind == CALL:
            return None if step.dst == TIMEOUT and rules.settings.move_clock else f"{step} is not a step of this game"
        occ = 0
        for m in self.men:
            occ |= m
        if self.pending or self.opening:
            if kind != REMOVE:
                why = "the opening removals after placement (ruling S-1)" if self.opening else "a completed line"
                return f"player {me} must first remove an opponent piece, for {why}"
            bit = 1 << idx[step.dst]
            if not self.men[1 - turn] & bit:
                return f"there is no opponent piece on {step.dst} to remove"
            if not self._removable() & bit:
                return (f"the piece on {step.dst} stands in a line and is protected while the opponent "
                        f"has pieces outside lines (ruling G-4)")
            return None if step in self._legal else "not a legal removal here"
        if kind == REMOVE:
            if rules.hands_over:
                return "a Tresillo here makes the opponent hand over an unplayed chip; nothing is taken off (ruling T-2)"
            return "no line was completed, so there is nothing to remove"
        if self.hand[turn]:
            if kind != PLACE:
                return f"player {me} still has pieces in hand and must place one (placement phase)"
            if occ >> idx[step.dst] & 1:
                return f"{step.dst} is already occupied"
            return None
        if kind == PLACE:
            return f"player {me} has no pieces left in hand; pieces now move (movement phase)"
        src, dst = idx[step.src], idx[step.dst]
        if not self.men[turn] >> src & 1:
            if occ >> src & 1:
                return f"the piece on {step.src} belongs to the opponent"
            return f"there is no piece on {step.src}"
        if kind == MOVE:
            if occ >> dst & 1:
                return f"{step.dst} is already occupied"
            if not rules.adj[src] >> dst & 1 and not self._can_fly(turn):
                if rules.settings.flying == FLY_AT_THREE:
                    if self.men[turn].bit_count() == 3 and not self.hand[turn] and not self._flights_ok(turn):
                        return (f"{step.dst} is not next to {step.src}, and player {me} has made all "
                                f"{rules.flights} flights the game allows (ruling G-6)")
                    return (f"{step.dst} is not next to {step.src}; men fly only when their player "
                            f"is down to three (ruling G-6)")
                return f"{step.dst} is not next to {step.src} along a line of the board, and this game has no flying"
        elif kind == JUMP:
            why = self._jump_problem(step)
            if why:
                return why
        if rules.settings.jump_mandatory and kind != JUMP and step not in self._legal:
            return ("a capturing jump is open and no move forms a pillar, so the player must jump "
                    "(ruling G-8)")
        if self.besieged and step not in self._legal:
            return ("the besieged opponent asked for a way out: the move must open a space for them "
                    "and, if it can, form no jare (ruling S-2)")
        return None

    def _jump_problem(self, step: Step) -> str | None:
        """Why a jump (or chain of jumps) cannot be made here, hop by hop (G-7); None if it can."""
        rules = self.rules
        if not rules.jump_step:
            return f"{step} is not a jump of this game"
        idx = rules.index
        names = rules.names
        own = self.men[self.turn]
        occ = 0
        for m in self.men:
            occ |= m
        theirs = occ & ~own
        src = idx[step.src]
        empty = (rules.full & ~occ) | 1 << src
        visited = 1 << src
        taken = 0
        hops = (step.src,) + step.path
        for a, t in zip(hops, hops[1:]):
            at = idx[t]
            over = rules.jump_over.get((idx[a], at))
            if over is None:
                return f"{a} to {t} is not a straight jump over one point"
            if not theirs >> over & 1:
                if taken >> over & 1:
                    return f"the man on {names[over]} was already taken in this chain of jumps"
                if own >> over & 1:
                    return f"a man may jump only an opponent's man, and {names[over]} holds one of your own (ruling G-7)"
                return f"a jump must go over an opponent piece on {names[over]} (ruling G-7)"
            if not empty >> at & 1:
                return f"{t} is already occupied, so a jump cannot land there"
            if not rules.jump_captures and visited >> at & 1:
                return f"a chain of jumps may not land on {t} twice (ruling G-7)"
            visited |= 1 << at
            if rules.jump_captures:
                theirs &= ~(1 << over)
                empty |= 1 << over
                taken |= 1 << over
        return None

    # ------------------------------------------------------------------ applying
    def _apply_quiet(self, step: Step) -> "MillState | None":
        """The common step made cheap: a placement or move (slide, flight) that completes no line.

        Returns None when the step is not such a step, and ``_apply`` (the general path, which
        covers every case) takes over. Both paths must agree exactly: a test replays random games
        through each and compares every state.
        """
        rules = self.rules
        kind = step.kind
        turn = self.turn
        hand = self.hand
        if kind == MOVE:
            src = rules.index[step.src]
            history = self.history
            depth = self.depth
        elif kind == PLACE:
            src = -1
            hand = (hand[0], hand[1] - 1) if turn else (hand[0] - 1, hand[1])
            history = None
            depth = 0
        else:
            return None
        opp = 1 - turn
        m0, m1 = self.men
        core = rules.quiet_core(m0, m1, turn, src, rules.index[step.dst], hand[opp])
        if core is None:
            return None  # a line: removal or a win, on the general path
        men, legal, key = core
        quiet = self.quiet + (src >= 0)  # G-3/M-1 count moves, not placements
        nxt = MillState.__new__(MillState)
        nxt.rules = rules
        nxt.men = men
        nxt.hand = hand
        nxt.lost = self.lost
        nxt.opening = ()
        nxt.broke = self.broke
        nxt.quiet = quiet
        nxt.first_line = self.first_line
        nxt.besieged = False
        nxt.history = history
        nxt.depth = depth
        nxt.last = step
        nxt.plies = self.plies + 1
        nxt.pending = 0
        nxt.result = None
        nxt.turn = opp
        if rules.ten_move_draw and quiet >= 10 and not (hand[0] or hand[1]):
            if men[0].bit_count() == 3 or men[1].bit_count() == 3:
                nxt.result = Result(None, True, "ten moves with a player on three cows and no cow shot (ruling M-1)")
                nxt._legal = ()
                return nxt
        if rules.move_cap and quiet >= rules.move_cap:
            nxt.result = Result(None, True, f"{rules.move_cap} moves without a capture (ruling G-3)")
            nxt._legal = ()
            return nxt
        if not legal:
            nxt._start_turn(True)  # blocked: the general rules decide
            return nxt
        nxt._legal = legal
        if rules.repetition_draw:
            if history is not None and len(history.keys) == depth:  # at the tip: append in place
                counts = history.counts
                seen = counts.get(key, 0)
                counts[key] = seen + 1
                history.keys.append(key)
            else:
                history, seen = _record(history, depth, key)
            nxt.history = history
            nxt.depth = depth + 1
            if seen >= 2:
                nxt.result = Result(None, True, "the same position came up a third time (ruling G-3)")
                nxt._legal = ()
        return nxt

    def _apply(self, step: Step, check_end: bool = True) -> "MillState":
        """The general path: every kind of step in every situation (the reference for the fast path)."""
        rules = self.rules
        s = rules.settings
        idx = rules.index
        turn = self.turn
        nxt = MillState.__new__(MillState)
        nxt.rules = rules
        nxt.first_line = self.first_line
        nxt.result = None
        nxt.last = step
        nxt.plies = self.plies + 1
        nxt.besieged = False
        nxt.opening = ()
        nxt.pending = 0
        if rules.teams:
            nxt.seat = self.seat
        if rules.flights:
            nxt.flown = self.flown
        kind = step.kind
        if kind == REMOVE:
            opp = 1 - turn
            nxt.men = _put(self.men, opp, self.men[opp] & ~(1 << idx[step.dst]))
            nxt.lost = _put(self.lost, opp, self.lost[opp] + 1)
            nxt.hand = self.hand
            nxt.broke = self.broke
            nxt.quiet = 0
            nxt.history = None
            nxt.depth = 0
            if self.opening:
                rest = self.opening[1:]
                nxt.opening = rest
                # S-1: after the last opening removal, the first remover starts the movement.
                nxt.turn = rest[0] if rest else 1 - turn
                nxt._start_turn(check_end)
                return nxt
            nxt.turn = turn
            nxt._end_turn(check_end)
            return nxt
        # A placement, slide, flight or jump.
        dst = idx[step.dst]
        own = self.men[turn]
        broken = 0
        if kind == PLACE:
            nxt.hand = _put(self.hand, turn, self.hand[turn] - 1)
            nxt.history = None
            nxt.depth = 0
        else:
            src = idx[step.src]
            if rules.track_breaks:
                for lbit, lm in rules.lines_at[turn][src]:
                    if own & lm == lm:
                        broken |= lbit
            own &= ~(1 << src)
            nxt.hand = self.hand
            nxt.history = self.history
            nxt.depth = self.depth
        own |= 1 << dst
        if rules.two:
            nxt.men = (own, self.men[1]) if turn == 0 else (self.men[0], own)
        else:
            nxt.men = _put(self.men, turn, own)
        nxt.lost = self.lost
        nxt.quiet = self.quiet + (kind != PLACE)  # G-3/M-1 count moves, not placements
        nxt.turn = turn
        if kind == JUMP and rules.jump_captures:
            nxt._take_jumped(step)
        elif kind == MOVE and rules.flights and not rules.adj[src] >> dst & 1:
            nxt.flown = _put(self.flown, turn, self.flown[turn] + 1)  # G-6: one flight used
        formed = 0
        before = self.men[turn]
        for lbit, lm in rules.lines_at[turn][dst]:
            if own & lm == lm and before & lm != lm:  # a chain of jumps back to its start forms nothing
                formed |= lbit
        if rules.track_breaks:
            prev_broken, prev_formed = self.broke[turn]
            nxt.broke = _put(self.broke, turn, (broken, formed != 0))
        else:
            prev_broken, prev_formed = 0, False
            nxt.broke = self.broke
        if formed:
            if s.line_effect == LINE_WINS:
                nxt.result = Result(turn + 1, False, f"{self._who(turn)} completed a line of three")
                nxt._legal = ()
                return nxt
            if s.shax_opening and self.hand[turn] and not self.first_line:
                nxt.first_line = turn + 1  # S-1: remember who made the first jare
            removes = self._line_removes(formed, prev_broken, prev_formed)
            if removes and rules.hands_over and nxt.hand[1 - turn]:
                nxt._hand_over()
            elif removes and s.line_effect != LINE_HANDS_OVER and nxt.men[1 - turn]:
                nxt.pending = 1
                nxt._legal = nxt._generate()
                return nxt
        if s.shax_opening and kind == PLACE and not any(nxt.hand):
            # S-1: placement has filled the board; the maker of the first jare removes first,
            # or the second player when nobody made one.
            first = nxt.first_line
            nxt.opening = (first - 1, 2 - first) if first else (1, 0)
            nxt.turn = nxt.opening[0]
            nxt.quiet = 0
            nxt._legal = nxt._generate()
            return nxt
        nxt._end_turn(check_end)
        return nxt

    def _line_removes(self, formed: int, prev_broken: int, prev_formed: bool) -> bool:
        s = self.rules.settings
        if self.besieged:
            return False  # S-2: a jare made on the way out removes nothing (oodan)
        if s.shax_opening and self.hand[self.turn]:
            return False  # S-1: no removals while placing
        if formed & ~prev_broken:
            return True  # at least one fresh line
        reform = s.reform  # every formed line is one this player broke on their last move (G-5)
        if reform == REFORM_FREE:
            return True
        if reform == REFORM_NEVER:
            return False
        if reform == REFORM_UNLESS_OTHER:
            return prev_formed
        return not prev_formed  # REFORM_MORABARABA

    def _who(self, side: int) -> str:
        """A side in the words of a result: "player 2", or "team 2" in team play."""
        return f"{'team' if self.rules.teams else 'player'} {side + 1}"

    def _advance(self) -> None:
        """The turn goes to the next player: the other one, the next of three or four, or in team
        play the next seat (A1 B1 A2 B2), whose colour is their team's."""
        rules = self.rules
        if rules.teams:
            self.seat = (self.seat + 1) % 4
            self.turn = self.seat % 2
        elif rules.two:
            self.turn = 1 - self.turn
        else:
            self.turn = (self.turn + 1) % rules.players

    def _take_jumped(self, step: Step) -> None:
        """Kuruka and Lazima: every man the jump (or chain) went over is captured (G-7)."""
        rules = self.rules
        idx = rules.index
        hops = (step.src,) + step.path
        opp = 1 - self.turn
        taken = [rules.jump_over[(idx[a], idx[t])] for a, t in zip(hops, hops[1:])]
        mask = 0
        for i in taken:
            mask |= 1 << i
        self.men = _put(self.men, opp, self.men[opp] & ~mask)
        self.lost = _put(self.lost, opp, self.lost[opp] + len(taken))
        self.taken = tuple(rules.names[i] for i in taken)
        self._events = (f"captured {', '.join(self.taken)} by jumping",)
        self.quiet = 0  # a capture: the move cap and the repetition count start again (G-3)
        self.history = None
        self.depth = 0

    def _hand_over(self) -> None:
        """Tresillo Stay (and Conquer's Alternative Play): the opponent hands over a chip (T-2)."""
        opp = 1 - self.turn
        self.hand = _put(self.hand, opp, self.hand[opp] - 1)
        self.lost = _put(self.lost, opp, self.lost[opp] + 1)
        self._events = (f"{self._who(opp)} hands {self._who(self.turn)} one unplayed chip (ruling T-2)",)
        self.quiet = 0

    def _apply_timeout(self) -> "MillState":
        """Rapido: the player to move ran out of time; the turn passes (ruling T-5). A removal
        still owed for a Tresillo is forfeited with it."""
        nxt = MillState.__new__(MillState)
        for name in MillState.__slots__:
            if hasattr(self, name) and name not in ("taken", "_events"):
                setattr(nxt, name, getattr(self, name))
        nxt.last = self.rules.timeout
        nxt.plies = self.plies + 1
        nxt.pending = 0
        nxt._events = (f"{self._who(self.turn)} ran out of time; the turn passes (ruling T-5)",)
        nxt._end_turn(True)
        return nxt

    def _tally(self) -> None:
        """Stay and Pluck end here: whoever holds more of the other's chips wins (ruling T-2)."""
        a, b = self.captured_by(1), self.captured_by(2)
        why = "the board is full" if not self._empty() else f"{self._who(self.turn)} has no chip left to play"
        score = f"{self._who(0)} holds {a} of the other's chips, {self._who(1)} {b}"
        if a == b:
            self.result = Result(None, True, f"{why}; {score}: a tie")
        else:
            self.result = Result(1 if a > b else 2, False, f"{why}; {score}")
        self._legal = ()

    def _end_turn(self, check_end: bool) -> None:
        """Hand the turn on and settle wins and draws that follow from the mover's step."""
        rules = self.rules
        s = rules.settings
        mover = self.turn
        self._advance()
        if check_end:
            men, hand = self.men, self.hand
            if s.win_captures and self.captured_by(mover + 1) >= s.win_captures:
                self.result = Result(mover + 1, False,
                                     f"{self._who(mover)} captured {s.win_captures} of the opponent's men")
                self._legal = ()
                return
            lose_below = s.lose_below
            if lose_below:
                for side in range(rules.sides):
                    if side != mover:
                        left = men[side].bit_count() + hand[side]
                        if left < lose_below:
                            self.result = Result(mover + 1, False, f"{self._who(side)} is down to {left} pieces")
                            self._legal = ()
                            return
            quiet = self.quiet
            if s.ten_move_draw and quiet >= 10 and not any(hand):
                if any(m.bit_count() == 3 for m in men):
                    self.result = Result(None, True, "ten moves with a player on three cows and no cow shot (ruling M-1)")
                    self._legal = ()
                    return
            if s.move_cap and quiet >= s.move_cap:
                self.result = Result(None, True, f"{s.move_cap} moves without a capture (ruling G-3)")
                self._legal = ()
                return
        self._start_turn(check_end)

    def _start_turn(self, check_end: bool) -> None:
        """Generate the legal steps; settle blocked players (G-2, S-2) and repetition (G-3)."""
        rules = self.rules
        s = rules.settings
        if check_end and not self.pending:
            if s.placement_only and (not self.hand[self.turn] or not self._empty()):
                self._tally()  # T-2: the board is full, or the player to move has no chip
                return
            if s.move_after_all_placed and not self.hand[self.turn] and any(self.hand):
                self._advance()  # T-3: moves begin once both reserves are empty; until then, pass
        legal = self._generate()
        if not legal and check_end:
            blocked = self.turn
            if s.blocked == BLOCKED_LOSES:
                self.result = Result((blocked + 1) % rules.sides + 1, False, f"{self._who(blocked)} cannot move")
                self._legal = ()
                return
            # The turn passes (G-2) to the next player who can move, or the besieger must open a
            # way (S-2).
            self.besieged = s.blocked == BLOCKED_BESIEGED
            for _ in range(rules.players - 1):
                self._advance()
                legal = self._generate()
                if legal:
                    break
            if not legal:
                self.result = Result(None, True, "neither player can move" if rules.players == 2
                                     else "no player can move")
                self._legal = ()
                return
        self._legal = legal
        if s.repetition_draw:
            n = rules.n_points
            key = (self.seat if rules.teams else self.turn) | self.besieged << 2
            if rules.flights:
                for f in self.flown:
                    key = key << 4 | f
            for m in self.men:
                key = key << n | m
            self.history, seen = _record(self.history, self.depth, key)
            self.depth += 1
            if check_end and seen >= 2:
                self.result = Result(None, True, "the same position came up a third time (ruling G-3)")
                self._legal = ()

    # ------------------------------------------------------------------ display
    def __repr__(self) -> str:
        pos = " ".join(f"{p}:{pc.owner}" for p, pc in sorted(self.position().items()))
        return f"<{self.rules.name} {self.phase} to_move={self.to_move} {pos}>"


def _put(values: tuple, i: int, v) -> tuple:
    """``values`` with item i replaced (positions and counters are tuples, never mutated)."""
    if len(values) == 2:
        return (v, values[1]) if i == 0 else (values[0], v)
    return values[:i] + (v,) + values[i + 1:]


def all_steps(rules: MillRules) -> Iterable[Step]:
    """Every step object the ruleset can ever produce (for exhaustive checks in tests)."""
    return list(dict.fromkeys(rules.by_text.values()))
