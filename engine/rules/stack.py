"""Tresillo Stack: chips stack up to five high; a Tresillo confiscates a whole stack.

One round of Stack as the HTJB rulebook gives it and ruling T-4 settles it. Each colour has 12
chips on the ``morabaraba`` board (T-1). A stack is an ordered list of chips, bottom first, at
most five; only its top chip counts: its colour controls the stack (moves it, counts it for a
Tresillo) and is what a camera sees. A round of play:

- **Placing**: a colour with chips in reserve puts one on an empty point or on a stack that is
  not topped by its own colour and holds fewer than five.
- **Moving**: a colour with none in reserve moves the top chip of a stack it controls to a
  neighbouring point that is empty or topped by another colour (fewer than five); with exactly
  three stacks under its control it may fly there from anywhere.
- **Tresillo**: three stacks in a row topped by one colour. The colour that makes one removes a
  whole stack topped by an opponent's chip (``xg7``); stacks in a standing Tresillo are protected
  unless nothing else can be taken. The remover's own chips from that stack go back to its
  reserve, the rest are kept as captured. A move that uncovers another colour's chip and so
  completes a Tresillo for that colour gives it "second priority": after the mover's own
  removal, that colour removes a stack too, if its Tresillo still stands.
- **No step to make**: that colour is skipped, and play passes to the following colour.
- **End of the round**: when every reserve is empty and one colour (one team in team play) tops
  every stack, or by ``impasse`` (a call the players make when no colour can dominate; the chips
  on the board are then left uncounted).
- **Tally**: a side scores the chips it holds: reserve, captured and its own chips on the board.

Three ways to seat the players: 2-4 players each with a colour; two players each playing two
colours in turn (player 1 colours 1 and 3, player 2 colours 2 and 4: a player may stack on their
other colour, and confiscates only the other player's stacks); and team play, four players in
two teams (partners 1 and 3, 2 and 4), where a player may stack on and confiscate a partner's
stack too, and confiscated partner chips are kept, not returned. Rounds, the match to 50 and
elimination are ``engine.rules.match``'s; this module plays one round.

Choices where the rulebook and T-4 are silent (docs/rules.md lists them): a colour with chips in
reserve must place (it moves only when its reserve is empty); a Tresillo completed by
uncovering one's own chip is an ordinary Tresillo of the mover; the move cap and the third
repetition end the round as an impasse, and so does a board where no colour can play at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..boards import BoardGraph, board as get_board
from ..core import (CALL, IMPASSE, MOVE, PLACE, REMOVE, IllegalStep, Piece, Result, Step, parse_step_text,
                    preflight)
from ..protocol import COLOUR_WORDS, RulesBase, StateBase
from .history import record as _record

SINGLE, TWO_COLOURS, TEAMS = "single", "two-colours", "teams"


@dataclass(frozen=True)
class StackSettings:
    board: str = "morabaraba"
    chips: int = 12  # per colour (T-1)
    players: int = 2  # people: 2-4, or 2 with two colours each, or 4 in two teams
    seating: str = SINGLE
    limit: int = 5  # chips in a stack at most
    fly_at: int = 3  # a colour controlling exactly this many stacks (none in reserve) flies (T-4)
    match_target: int = 50  # points that win the match (engine.rules.match)
    elimination: bool = False  # hold your man: the player before the winner is out (match)
    move_cap: int = 200  # G-3: moves without a confiscation before the round ends as an impasse
    repetition_draw: bool = True  # G-3: a third repetition ends the round as an impasse

    @property
    def colours(self) -> int:
        return 4 if self.seating == TWO_COLOURS else self.players


class StackRules(RulesBase):
    """Stack's tables: points, lines, neighbours, the relations between colours, interned steps."""

    family = "stack"
    piece_kinds = ("man",)
    has_jumps = False
    line_name = "a Tresillo"

    @property
    def stack_limit(self) -> int:
        return self.settings.limit

    def __init__(self, name: str, settings: StackSettings):
        s = settings
        if s.seating == SINGLE and not 2 <= s.players <= 4:
            raise ValueError("Stack takes 2 to 4 players")
        if s.seating == TWO_COLOURS and s.players != 2:
            raise ValueError("two colours each is the two-player form of Stack")
        if s.seating == TEAMS and s.players != 4:
            raise ValueError("team play is four players in two teams")
        if s.seating not in (SINGLE, TWO_COLOURS, TEAMS):
            raise ValueError(f"unknown seating {s.seating!r}")
        self.name = name
        self.settings = s
        self.board: BoardGraph = get_board(s.board)
        b = self.board
        self.players = s.players
        self.n_colours = s.colours
        self.names = b.points
        self.index = b.index
        n = len(b.points)
        self.n_points = n
        self.adj = tuple(tuple(b.index[q] for q in b.neighbours[p]) for p in b.points)
        self.lines = tuple(tuple(b.index[p] for p in ln) for ln in b.lines)
        self.lines_at = tuple(tuple(li for li, ln in enumerate(self.lines) if i in ln) for i in range(n))
        self.place = tuple(Step(PLACE, None, p) for p in b.points)
        self.remove = tuple(Step(REMOVE, None, p) for p in b.points)
        self.move = tuple(tuple(Step(MOVE, p, q) if p != q else None for q in b.points) for p in b.points)
        self.impasse = Step(CALL, None, IMPASSE)
        self.by_text = {st.text: st for st in self.place + self.remove}
        for row in self.move:
            for st in row:
                if st is not None:
                    self.by_text[st.text] = st
        self.by_text[IMPASSE] = self.impasse

    # ------------------------------------------------------------------ who is who
    @property
    def colours(self) -> int:
        return self.n_colours

    @property
    def sides(self) -> int:
        """Who scores: each colour, each player (two colours each) or each team."""
        return self.players if self.settings.seating == SINGLE else 2

    def side_of(self, colour: int) -> int:
        """The side (1-based) a colour (1-based) scores for."""
        return colour if self.settings.seating == SINGLE else (colour - 1) % 2 + 1

    def side_colours(self, side: int) -> tuple[int, ...]:
        return tuple(c for c in range(1, self.n_colours + 1) if self.side_of(c) == side)

    def side_name(self, side: int) -> str:
        word = {SINGLE: "player", TWO_COLOURS: "player", TEAMS: "team"}[self.settings.seating]
        return f"{word} {side}"

    def player_of(self, colour: int) -> int:
        """The person who plays ``colour``: the colour itself, except with two colours each."""
        return (colour - 1) % 2 + 1 if self.settings.seating == TWO_COLOURS else colour

    def colour_of(self, player: int) -> int:
        return player  # with two colours each, the colour in play is the state's colour_to_move

    def team_of(self, player: int) -> int | None:
        return (player - 1) % 2 + 1 if self.settings.seating == TEAMS else None

    def colour_name(self, colour: int) -> str:
        return COLOUR_WORDS.get(colour, f"colour {colour}")

    def may_confiscate(self, remover: int, top: int) -> bool:
        """Whether ``remover`` may take a stack topped by ``top`` (colours, 1-based).

        "Topped by an opponent's chip"; with two colours each the opponent is the other player;
        in team play "not topped by his colour", so a partner's stack too."""
        if top == remover:
            return False
        if self.settings.seating == TWO_COLOURS:
            return self.side_of(top) != self.side_of(remover)
        return True

    def returned(self, remover: int, chip: int) -> bool:
        """Whether a confiscated chip goes back to a reserve (the remover's own; with two colours
        each, either of the player's colours) rather than into the remover's captured pile."""
        if chip == remover:
            return True
        return self.settings.seating == TWO_COLOURS and self.side_of(chip) == self.side_of(remover)

    # ------------------------------------------------------------------ steps
    def parse(self, text: str) -> Step:
        t = text.strip() if isinstance(text, str) else text
        st = self.by_text.get(t)
        if st is not None:
            return st
        if isinstance(t, str) and t.lower() == IMPASSE:
            return self.impasse
        try:
            kind, src, dst, path = parse_step_text(text)
        except ValueError as exc:
            raise IllegalStep(text, str(exc)) from None
        for p in ((src,) if src else ()) + (dst,) + path:
            if p not in self.index:
                raise IllegalStep(text, f"{p} is not a point of the {self.board.name} board")
        if kind == MOVE:
            raise IllegalStep(text, "a move must end on another point")
        raise IllegalStep(text, "Stack has no jumps: chips move to a neighbouring point, or fly at three")

    # ------------------------------------------------------------------ states
    def new(self, *, draws=None) -> "StackState":
        if draws is not None:
            raise ValueError(f"{self.name} has no chance draws")
        return self.new_round(0)

    def new_round(self, first: int, active: tuple[bool, ...] | None = None) -> "StackState":
        """A round's start: an empty board, every active colour with its chips in reserve, the
        colour ``first`` (0-based) to play. ``active``: colours still in the match (elimination)."""
        n_col = self.n_colours
        if active is None:
            active = (True,) * n_col
        st = StackState.__new__(StackState)
        st.rules = self
        st.stacks = ((),) * self.n_points
        st.reserve = tuple(self.settings.chips if a else 0 for a in active)
        st.captured = (0,) * n_col
        st.active = tuple(active)
        st.seat = first
        st.pending = ()
        st.resume = first
        st.quiet = 0
        st.history = None
        st.depth = 0
        st.result = None
        st.impassed = False
        st.last = None
        st.events = ()
        st._begin_turn(skip_events=[])
        return st

    def round_points(self, state: "StackState") -> tuple[int, ...]:
        """Each side's tally for the round (T-4): reserve + captured + own chips on the board;
        after an impasse the chips on the board are left uncounted."""
        out = [0] * self.sides
        for c in range(self.n_colours):
            side = self.side_of(c + 1) - 1
            out[side] += state.reserve[c] + state.captured[c]
        if not state.impassed:
            for stack in state.stacks:
                for chip in stack:
                    out[self.side_of(chip) - 1] += 1
        return tuple(out)


class StackState(StateBase):
    """One position of a Stack round. Immutable: ``play`` returns a new state."""

    __slots__ = ("rules", "stacks", "reserve", "captured", "active", "seat", "pending", "resume", "quiet",
                 "history", "depth", "result", "impassed", "last", "events", "_legal")

    # ------------------------------------------------------------------ the protocol
    @property
    def colour_to_move(self) -> int:
        return self.seat + 1

    @property
    def to_move(self) -> int:
        """The player to move: with two colours each, the person playing the colour in turn."""
        return self.rules.player_of(self.seat + 1)

    @property
    def phase(self) -> str:
        if self.result is not None:
            return "over"
        if self.pending:
            return "removal"
        return "placement" if self.reserve[self.seat] else "movement"

    def position(self) -> dict[str, Piece]:
        """The top chip of every stack: what a camera sees."""
        names = self.rules.names
        return {names[i]: Piece(st[-1], "man") for i, st in enumerate(self.stacks) if st}

    def stack(self, spot: str) -> tuple[Piece, ...]:
        """Every chip on ``spot``, bottom first (the screen and LEDs show what lies beneath)."""
        return tuple(Piece(c, "man") for c in self.stacks[self.rules.index[spot]])

    def stacks_by_spot(self) -> dict[str, tuple[int, ...]]:
        """Every non-empty stack as its colours, bottom first."""
        names = self.rules.names
        return {names[i]: st for i, st in enumerate(self.stacks) if st}

    def in_reserve(self, colour: int) -> int:
        return self.reserve[colour - 1]

    def captures(self) -> dict[int, int]:
        return {c + 1: self.captured[c] for c in range(self.rules.n_colours)}

    def scores(self) -> dict[int, int]:
        """The round's tally so far, per side (what ``round_points`` will give at the end)."""
        return {i + 1: v for i, v in enumerate(self.rules.round_points(self))}

    def legal_steps(self) -> tuple[Step, ...]:
        return self._legal

    def calls(self) -> tuple[Step, ...]:
        """``impasse`` once every chip is played (the players agree no colour can dominate)."""
        if self.result is None and not self.pending and not any(self.reserve):
            return (self.rules.impasse,)
        return ()

    def play(self, step: Step | str) -> "StackState":
        if step in self._legal:
            step = self.rules.by_text[step]  # the game's own step, also for one built by hand
            return self._apply(step)
        why = self.why_illegal(step)
        text = step if isinstance(step, str) else repr(step)
        if why is None:
            step = step if type(step) is Step else self.rules.parse(step)
            if step.kind == CALL:
                return self._apply_impasse()
        raise IllegalStep(text, why or "not a legal step in this position")

    # ------------------------------------------------------------------ queries on the board
    def _tops(self) -> list[int]:
        return [st[-1] if st else 0 for st in self.stacks]

    def _line_of(self, tops: list[int], li: int) -> int:
        """The colour of line ``li`` if all three points are topped by one colour, else 0."""
        a, b, c = self.rules.lines[li]
        t = tops[a]
        return t if t and tops[b] == t and tops[c] == t else 0

    def _protected(self, tops: list[int]) -> set[int]:
        """Points of every standing Tresillo (their stacks are protected from confiscation)."""
        out: set[int] = set()
        for li, ln in enumerate(self.rules.lines):
            if self._line_of(tops, li):
                out.update(ln)
        return out

    def _confiscatable(self, remover: int) -> list[int]:
        """Stacks ``remover`` (1-based colour) may take: opponent-topped, unprotected first (T-4)."""
        rules = self.rules
        tops = self._tops()
        targets = [i for i, t in enumerate(tops) if t and rules.may_confiscate(remover, t)]
        guarded = self._protected(tops)
        free = [i for i in targets if i not in guarded]
        return free if free else targets

    def _flies(self, colour: int) -> bool:
        """T-4: a colour with no chip in reserve and exactly three stacks under it may fly."""
        tops = self._tops()
        return not self.reserve[colour - 1] and tops.count(colour) == self.rules.settings.fly_at

    def _open_for(self, colour: int, i: int) -> bool:
        """Whether ``colour`` may put a chip on point ``i``: empty, or not its own top, below the limit."""
        st = self.stacks[i]
        return not st or (st[-1] != colour and len(st) < self.rules.settings.limit)

    def _steps_for(self, colour: int) -> list[Step]:
        rules = self.rules
        c = colour - 1
        if not self.active[c]:
            return []
        n = rules.n_points
        if self.reserve[c]:
            return [rules.place[i] for i in range(n) if self._open_for(colour, i)]
        own = [i for i, st in enumerate(self.stacks) if st and st[-1] == colour]
        out: list[Step] = []
        if len(own) == rules.settings.fly_at:
            for i in own:
                row = rules.move[i]
                out += [row[j] for j in range(n) if j != i and self._open_for(colour, j)]
        else:
            for i in own:
                row = rules.move[i]
                out += [row[j] for j in rules.adj[i] if self._open_for(colour, j)]
        return out

    def _generate(self) -> tuple[Step, ...]:
        if self.pending:
            remover = self.pending[0][0]
            return tuple(self.rules.remove[i] for i in self._confiscatable(remover))
        return tuple(self._steps_for(self.seat + 1))

    # ------------------------------------------------------------------ checking
    def why_illegal(self, step: Step | str) -> str | None:
        rules = self.rules
        step, why = preflight(self, step)
        if why:
            return why
        kind = step.kind
        colour = self.seat + 1
        name = rules.colour_name(colour)
        if kind == CALL:
            if self.pending:
                return f"{name} must first take a stack off for the Tresillo"
            if any(self.reserve):
                return "an impasse may be declared only once every chip has been played"
            return None
        if self.pending:
            if kind != REMOVE:
                return f"{name} must first take a stack off for the Tresillo"
            i = rules.index[step.dst]
            st = self.stacks[i]
            if not st:
                return f"there is no stack on {step.dst}"
            if not rules.may_confiscate(colour, st[-1]):
                return f"the stack on {step.dst} is topped by {rules.colour_name(st[-1])}: take a stack topped by an opponent's chip (ruling T-4)"
            if i not in self._confiscatable(colour):
                return (f"the stack on {step.dst} stands in a Tresillo and is protected while other stacks "
                        f"can be taken (ruling T-4)")
            return None
        if kind == REMOVE:
            return "no Tresillo was made, so there is no stack to take"
        if self.reserve[self.seat]:
            if kind != PLACE:
                return f"{name} still has chips in reserve and must place one"
            return self._landing_problem(colour, rules.index[step.dst])
        if kind == PLACE:
            return f"{name} has no chip left in reserve; chips now move"
        src, dst = rules.index[step.src], rules.index[step.dst]
        st = self.stacks[src]
        if not st:
            return f"there is no chip on {step.src}"
        if st[-1] != colour:
            return f"the stack on {step.src} is topped by {rules.colour_name(st[-1])}; only its top chip's colour moves it (ruling T-4)"
        why = self._landing_problem(colour, dst)
        if why:
            return why
        if dst not in rules.adj[src] and not self._flies(colour):
            return (f"{step.dst} is not next to {step.src}; chips fly only when their colour is down to "
                    f"{rules.settings.fly_at} stacks (ruling T-4)")
        return None

    def _landing_problem(self, colour: int, i: int) -> str | None:
        rules = self.rules
        st = self.stacks[i]
        spot = rules.names[i]
        if st and st[-1] == colour:
            return f"{spot} is topped by {rules.colour_name(colour)}'s own chip: stack only on another colour (ruling T-4)"
        if len(st) >= rules.settings.limit:
            return f"the stack on {spot} already holds {rules.settings.limit} chips, the most a stack may hold (ruling T-4)"
        return None

    # ------------------------------------------------------------------ applying
    def _copy(self, step: Step) -> "StackState":
        nxt = StackState.__new__(StackState)
        for name in StackState.__slots__:
            setattr(nxt, name, getattr(self, name))
        nxt.last = step
        nxt.events = ()
        return nxt

    def _apply(self, step: Step) -> "StackState":
        rules = self.rules
        nxt = self._copy(step)
        colour = self.seat + 1
        c = self.seat
        stacks = list(self.stacks)
        events: list[str] = []
        if step.kind == REMOVE:
            i = rules.index[step.dst]
            taken = stacks[i]
            stacks[i] = ()
            reserve = list(self.reserve)
            captured = list(self.captured)
            back = kept = 0
            for chip in taken:
                if rules.returned(colour, chip):
                    reserve[chip - 1] += 1
                    back += 1
                else:
                    captured[c] += 1
                    kept += 1
            nxt.stacks = tuple(stacks)
            nxt.reserve = tuple(reserve)
            nxt.captured = tuple(captured)
            nxt.quiet = 0
            nxt.history = None
            nxt.depth = 0
            events.append(f"{rules.colour_name(colour)} confiscated the stack on {step.dst}: "
                          f"{back} chip{'s' * (back != 1)} back to reserve, {kept} kept")
            nxt.pending = self.pending[1:]
            nxt._after_removals(events)
            return nxt
        dst = rules.index[step.dst]
        tops_before = self._tops()
        uncovered = 0
        if step.kind == PLACE:
            reserve = list(self.reserve)
            reserve[c] -= 1
            nxt.reserve = tuple(reserve)
            nxt.history = None
            nxt.depth = 0
        else:
            src = rules.index[step.src]
            stacks[src] = stacks[src][:-1]
            uncovered = stacks[src][-1] if stacks[src] else 0
            nxt.quiet = self.quiet + 1
        stacks[dst] = stacks[dst] + (colour,)
        nxt.stacks = tuple(stacks)
        tops = nxt._tops()
        pending = []
        if any(nxt._line_of(tops, li) == colour for li in rules.lines_at[dst]):
            pending.append((colour, ()))
        if uncovered and uncovered != colour:
            made = tuple(li for li in rules.lines_at[src]
                         if nxt._line_of(tops, li) == uncovered and nxt._line_of(tops_before, li) != uncovered)
            if made:
                pending.append((uncovered, made))
                events.append(f"uncovering {step.src} made a Tresillo for {rules.colour_name(uncovered)}, "
                              f"who removes a stack after {rules.colour_name(colour)} (second priority)")
        nxt.pending = tuple(pending)
        nxt.resume = self._next_seat(c)
        nxt._after_removals(events)
        return nxt

    def _apply_impasse(self) -> "StackState":
        nxt = self._copy(self.rules.impasse)
        nxt._end_round(impasse=True, why="the players declared an impasse")
        return nxt

    def _next_seat(self, c: int) -> int:
        """The next colour (0-based) in turn order after ``c`` that is still in the match."""
        n = self.rules.n_colours
        for k in range(1, n + 1):
            nc = (c + k) % n
            if self.active[nc]:
                return nc
        return c

    def _after_removals(self, events: list[str]) -> None:
        """Serve the removals still owed (each only while its Tresillo stands and a stack can be
        taken); then the turn passes on."""
        rules = self.rules
        while self.pending:
            remover, lines = self.pending[0]
            tops = self._tops()
            if lines and not any(self._line_of(tops, li) == remover for li in lines):
                events.append(f"{rules.colour_name(remover)}'s Tresillo no longer stands: no second removal")
            elif not self._confiscatable(remover):
                events.append(f"{rules.colour_name(remover)} made a Tresillo but has no stack to take")
            else:
                self.seat = remover - 1
                self.events = tuple(events)
                self._legal = self._generate()
                return
            self.pending = self.pending[1:]
        self.seat = self.resume
        self._begin_turn(events)

    def _begin_turn(self, skip_events: list[str]) -> None:
        """Settle the end of the round, then find the colour to play (a colour that cannot play
        loses its turn); record the position for the repetition rule."""
        rules = self.rules
        s = rules.settings
        events = skip_events
        tops = [t for t in self._tops() if t]
        if not any(self.reserve):
            owners = {rules.side_of(t) if s.seating == TEAMS else t for t in tops}
            if len(owners) <= 1:
                self.events = tuple(events)
                self._end_round(impasse=False, why="every chip is played and one "
                                + ("team" if s.seating == TEAMS else "colour") + " tops every stack")
                return
        if s.move_cap and self.quiet >= s.move_cap:
            self.events = tuple(events)
            self._end_round(impasse=True, why=f"{s.move_cap} moves without a confiscation (ruling G-3): an impasse")
            return
        for _ in range(rules.n_colours):
            legal = self._generate()
            if legal:
                break
            if self.active[self.seat]:
                events.append(f"{rules.colour_name(self.seat + 1)} has no step and is skipped")
            self.seat = self._next_seat(self.seat)
        else:
            self.events = tuple(events)
            self._end_round(impasse=True, why="no colour can play: an impasse")
            return
        self._legal = legal
        self.events = tuple(events)
        if s.repetition_draw and not any(self.reserve):
            key = (self.seat, self.stacks)
            self.history, seen = _record(self.history, self.depth, key)
            self.depth += 1
            if seen >= 2:
                self._end_round(impasse=True, why="the same position came up a third time (ruling G-3): an impasse")

    def _end_round(self, impasse: bool, why: str) -> None:
        rules = self.rules
        self.impassed = impasse
        self.pending = ()
        pts = rules.round_points(self)
        text = ", ".join(f"{rules.side_name(i + 1)} {v}" for i, v in enumerate(pts))
        best = max(pts)
        top = [i for i, v in enumerate(pts) if v == best]
        uncounted = "; the chips on the board are left uncounted" if impasse else ""
        reason = f"{why}{uncounted}; tally: {text}"
        self.result = Result(top[0] + 1, False, reason) if len(top) == 1 else Result(None, True, reason)
        self._legal = ()

    def __repr__(self) -> str:
        st = " ".join(f"{p}:{''.join(map(str, cs))}" for p, cs in sorted(self.stacks_by_spot().items()))
        return f"<{self.rules.name} {self.phase} colour={self.seat + 1} {st}>"


__all__ = ["SINGLE", "StackRules", "StackSettings", "StackState", "TEAMS", "TWO_COLOURS"]
