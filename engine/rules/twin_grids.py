"""The two-grid gem game (seed 003; rulings GG-1 to GG-3): slides on your own grid, flanking captures.

Red and blue each own one of two offset square grids (``engine.boards.twin_grids``) and start
with 2n - 1 gems along their grid's two outer edges. A turn slides one gem any distance along a
row or column of its own grid (GG-1). The slide stops before another gem of the mover's own
colour, at the grid's edge, and before a *blockade*: a step that would cross the opposite grid's
line between two points that both hold opponent gems. A single opponent gem at one end of the
crossed line does not stop it. Red gems never stand on blue points, so only blockades stand in
a gem's way among the opponent's gems.

After the gem lands, every opponent gem diagonally next to it with another of the mover's gems
directly beyond it on that diagonal is captured, several at once if so (GG-2). A gem that moves
between two opponent gems is not captured: only the mover captures. Captured gems are lifted by
the players after the move (``leftovers``), as the rulebook's players do.

A gem with no legal move is trapped. After each move the opponent is checked first, then the
mover: a side that cannot move, or that has at most one untrapped gem, loses (GG-3). Arbiter
adds the move cap every game has (ruling G-3, option ``move_cap``): so many moves without a
capture draw the game.

Notation: ``r:a1-r:a4`` (a move from a point to a point of the same grid, boards.md's names).

Speed: a position is two integers (a bitmask of each side's gems over the board's point
indices). Everything a move needs is a table built once per board size: for each point and
each of the four directions, the run of points along its grid with the mask of the two
opposite-grid points each step crosses between, and its interned step; for each point its
diagonal (neighbour, beyond) pairs. A state lists its legal steps once, when asked.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..boards.twin_grids import BLUE, RED, SIZES, start_points, twin_grids_board
from ..core import JUMP, MOVE, IllegalStep, Piece, Result, Step, parse_step_text, preflight
from ..protocol import RulesBase, StateBase

DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONALS = ((1, 1), (-1, 1), (1, -1), (-1, -1))
GRID_OF_COLOUR = {1: RED, 2: BLUE}
COLOUR_WORDS = {1: "red", 2: "blue"}


@dataclass(frozen=True)
class TwinSettings:
    gems: int = 11  # 11 (6 x 6 grids) or 15 (8 x 8)
    players: int = 2
    move_cap: int = 200  # moves without a capture before a draw (ruling G-3; 0: none)

    @property
    def board(self) -> str:
        """The board's name: ``twin-grids-6`` (11 gems) or ``twin-grids-8`` (15 gems)."""
        return f"twin-grids-{SIZES.get(self.gems, 0)}"


class TwinRules(RulesBase):
    """The ruleset of one board size: the tables every state of the game shares."""

    family = "twin-grids"
    piece_kinds = ("gem",)

    def __init__(self, name: str, settings: TwinSettings):
        if settings.gems not in SIZES:
            raise ValueError(f"the two-grid gem game has an 11-gem and a 15-gem board, not {settings.gems} gems")
        self.name = name
        self.settings = settings
        self.players = 2
        self.n = n = SIZES[settings.gems]
        self.geometry = geo = twin_grids_board(n)
        self.board = geo.graph
        self.names = self.board.points
        self.index = self.board.index
        count = geo.count
        self.red_mask = (1 << (n * n)) - 1
        # rays[p]: per direction, a tuple of (point, blockade mask, step p-point) along p's grid.
        rays: list[tuple[tuple[tuple[int, int, Step], ...], ...]] = []
        by_text: dict[str, Step] = {}
        for p in range(count):
            grid, i, j = geo.grid_of(p)
            per_dir = []
            for di, dj in DIRECTIONS:
                run = []
                ci, cj = i, j
                while True:
                    q = geo.index(grid, ci + di, cj + dj)
                    if q is None:
                        break
                    a, b = geo.crossed(grid, ci, cj, di, dj)
                    mask = (1 << a | 1 << b) if a is not None and b is not None else 0
                    step = Step(MOVE, self.names[p], self.names[q])
                    by_text[step.text] = step
                    run.append((q, mask, step))
                    ci, cj = ci + di, cj + dj
                per_dir.append(tuple(run))
            rays.append(tuple(per_dir))
        self.rays = tuple(rays)
        # first[p]: per direction, (next point, blockade mask) of the first step, for trapped gems.
        self.first = tuple(tuple((r[0][0], r[0][1]) for r in per_dir if r) for per_dir in rays)
        # flanks[p]: (opponent neighbour, own point beyond) on each diagonal that has both.
        flanks = []
        for p in range(count):
            grid, i, j = geo.grid_of(p)
            pairs = []
            for si, sj in DIAGONALS:
                nb, beyond = geo.diagonal(grid, i, j, si, sj)
                if nb is not None and beyond is not None:
                    pairs.append((nb, beyond))
            flanks.append(tuple(pairs))
        self.flanks = tuple(flanks)
        self.by_text = by_text
        start = start_points(n)
        self.start = tuple(sum(1 << self.index[p] for p in start[GRID_OF_COLOUR[c]]) for c in (1, 2))

    # ------------------------------------------------------------------ protocol facts
    def colour_name(self, colour: int) -> str:
        return COLOUR_WORDS.get(colour, f"player {colour}")

    def grid_word(self, idx: int) -> str:
        return "red" if idx < self.n * self.n else "blue"

    # ------------------------------------------------------------------ steps
    def parse(self, text: str) -> Step:
        """The interned move for ``text`` (``r:a1-r:a4``); IllegalStep with what to write otherwise."""
        if not isinstance(text, str):
            raise IllegalStep(repr(text), "a move is written from-to, e.g. r:a2-r:d2")
        step = self.by_text.get(text)
        if step is not None:
            return step
        t = text.strip()
        step = self.by_text.get(t)
        if step is not None:
            return step
        try:
            kind, src, dst, path = parse_step_text(t)
        except ValueError as exc:
            raise IllegalStep(text, f"{exc}; a move here is written like r:a2-r:d2") from None
        for p in (src, dst, *path):
            if p is not None and p not in self.index:
                raise IllegalStep(text, f"{p} is not a point of this board: red points are r:a1 to "
                                        f"{self.names[self.n * self.n - 1]}, blue b:a1 to {self.names[-1]}")
        if kind != MOVE:
            what = {JUMP: "gems never jump", "remove": "captured gems are lifted after the move that captures "
                    "them: write only the move"}.get(kind, "gems are never placed: every gem starts on the board")
            raise IllegalStep(text, f"{what}; a move here is written like r:a2-r:d2 (GG-1)")
        a, b = self.index[src], self.index[dst]
        if src == dst:
            raise IllegalStep(text, "a move must go somewhere (GG-1)")
        if self.grid_word(a) != self.grid_word(b):
            raise IllegalStep(text, f"{src} and {dst} lie on different grids: a gem moves only along its own "
                                    "grid (GG-1)")
        raise IllegalStep(text, f"{src} and {dst} are not on one row or column of the grid: a gem slides "
                                "straight along its grid's lines (GG-1)")

    # ------------------------------------------------------------------ states
    def new(self, *, draws=None) -> "TwinState":
        if draws is not None:
            raise ValueError(f"{self.name} has no chance draws")
        return TwinState(self, self.start, 1, 0, (0, 0), None, ())

    def setup(self, red: tuple[str, ...] | list[str], blue: tuple[str, ...] | list[str], to_move: int = 1) -> "TwinState":
        """A position built by hand (tests, puzzles): the gems of each side on the points named.

        The result is judged as after a move by the side not to move (GG-3), so a position that is
        already lost says so."""
        masks = []
        for colour, pts in ((1, red), (2, blue)):
            grid = GRID_OF_COLOUR[colour]
            mask = 0
            for p in pts:
                if p not in self.index:
                    raise ValueError(f"{p} is not a point of {self.board.name}")
                if not p.startswith(grid + ":"):
                    raise ValueError(f"a {self.colour_name(colour)} gem cannot stand on {p}: it is on the other grid")
                mask |= 1 << self.index[p]
            masks.append(mask)
        if to_move not in (1, 2):
            raise ValueError("to_move is 1 (red) or 2 (blue)")
        st = TwinState(self, tuple(masks), to_move, 0, (0, 0), None, ())
        st.result = st._judge(3 - to_move)
        return st


class TwinState(StateBase):
    """A position: each side's gems (bitmasks), whose turn, moves since a capture, captures."""

    __slots__ = ("rules", "gems", "turn", "quiet", "taken", "result", "captured", "last", "_legal")

    def __init__(self, rules: TwinRules, gems: tuple[int, int], turn: int, quiet: int, taken: tuple[int, int],
                 result: Result | None, captured: tuple[int, ...]):
        self.rules = rules
        self.gems = gems  # (red mask, blue mask)
        self.turn = turn  # 1 red, 2 blue
        self.quiet = quiet  # moves since the last capture (ruling G-3)
        self.taken = taken  # gems each colour has captured
        self.result = result
        self.captured = captured  # point indices the move that led here captured
        self.last: Step | None = None  # the move that led here (shown by `arbiter replay`)
        self._legal: tuple[Step, ...] | None = None

    # ------------------------------------------------------------------ turn facts
    @property
    def to_move(self) -> int:
        return self.turn

    @property
    def phase(self) -> str:
        return "over" if self.result is not None else "movement"

    @property
    def events(self) -> tuple[str, ...]:
        if not self.captured:
            return ()
        names = self.rules.names
        return (f"captured {', '.join(names[i] for i in self.captured)}",)

    def position(self) -> dict[str, Piece]:
        names = self.rules.names
        out = {}
        for colour in (1, 2):
            mask = self.gems[colour - 1]
            piece = Piece(colour, "gem")
            while mask:
                low = mask & -mask
                out[names[low.bit_length() - 1]] = piece
                mask ^= low
        return out

    def captures(self) -> dict[int, int]:
        return {1: self.taken[0], 2: self.taken[1]}

    def leftovers(self, step: Step, after: "TwinState") -> dict[str, Piece]:
        """Gems the move captured: they stand on the board until the players lift them (GG-2)."""
        if not after.captured:
            return {}
        names = self.rules.names
        piece = Piece(3 - self.turn, "gem")
        return {names[i]: piece for i in after.captured}

    # ------------------------------------------------------------------ moves
    def _moves_of(self, p: int, own: int, opp: int) -> list[Step]:
        out = []
        for run in self.rules.rays[p]:
            for q, mask, step in run:
                if mask and opp & mask == mask:
                    break  # a blockade: the step would cross between two opponent gems
                if own >> q & 1:
                    break  # one's own gem: stop before it
                out.append(step)
        return out

    def legal_steps(self) -> tuple[Step, ...]:
        if self._legal is None:
            if self.result is not None:
                self._legal = ()
            else:
                own, opp = self.gems[self.turn - 1], self.gems[2 - self.turn]
                out: list[Step] = []
                mask = own
                while mask:
                    low = mask & -mask
                    out.extend(self._moves_of(low.bit_length() - 1, own, opp))
                    mask ^= low
                self._legal = tuple(out)
        return self._legal

    def untrapped(self, colour: int) -> int:
        """How many of ``colour``'s gems have a legal move (the others are trapped, GG-3)."""
        own, opp = self.gems[colour - 1], self.gems[2 - colour]
        first = self.rules.first
        n = 0
        mask = own
        while mask:
            low = mask & -mask
            mask ^= low
            for q, block in first[low.bit_length() - 1]:
                if not own >> q & 1 and not (block and opp & block == block):
                    n += 1
                    break
        return n

    def trapped(self) -> tuple[str, ...]:
        """The points of gems with no legal move, both sides' (GG-3)."""
        out = []
        for colour in (1, 2):
            own = self.gems[colour - 1]
            opp = self.gems[2 - colour]
            for name, piece in self.position().items():
                if piece.owner != colour:
                    continue
                p = self.rules.index[name]
                if all(own >> q & 1 or (block and opp & block == block) for q, block in self.rules.first[p]):
                    out.append(name)
        return tuple(sorted(out, key=self.rules.index.__getitem__))

    def why_illegal(self, step: Step | str) -> str | None:
        step, why = preflight(self, step)
        if why:
            return why
        rules = self.rules
        names = rules.names
        a, b = rules.index[step.src], rules.index[step.dst]
        own, opp = self.gems[self.turn - 1], self.gems[2 - self.turn]
        me = rules.colour_name(self.turn)
        if not own >> a & 1:
            if opp >> a & 1:
                return f"{step.src} holds a {rules.colour_name(3 - self.turn)} gem: it is {me}'s turn"
            if rules.grid_word(a) != me:
                return f"{step.src} is a point of the {rules.grid_word(a)} grid: {me} moves a gem on the {me} grid"
            return f"there is no gem on {step.src} to move"
        for run in rules.rays[a]:
            if not run or all(q != b for q, _, _ in run):
                continue
            for q, mask, _ in run:
                if mask and opp & mask == mask:
                    ends = [names[i] for i in range(len(names)) if mask >> i & 1]
                    return (f"the {rules.colour_name(3 - self.turn)} gems on {ends[0]} and {ends[1]} form a blockade: "
                            f"a {me} gem cannot cross between them (GG-1)")
                if own >> q & 1:
                    return f"the {me} gem on {names[q]} is in the way: a gem stops before its own gems (GG-1)"
                if q == b:
                    return None
        return f"{step.src} and {step.dst} are not on one line of the grid (GG-1)"  # pragma: no cover

    def play(self, step: Step | str) -> "TwinState":
        legal = self.legal_steps()
        if step not in legal or self.result is not None:
            why = self.why_illegal(step)
            if why:
                raise IllegalStep(step if isinstance(step, str) else repr(step), why)
        step = self.rules.parse(step)  # the game's own step, also for a Step built by hand
        rules = self.rules
        me = self.turn - 1
        a, b = rules.index[step.src], rules.index[step.dst]
        own = self.gems[me] & ~(1 << a) | 1 << b
        opp = self.gems[1 - me]
        captured = []
        for nb, beyond in rules.flanks[b]:
            if opp >> nb & 1 and own >> beyond & 1:
                captured.append(nb)  # GG-2: flanked on a diagonal by the gem that landed
        for nb in captured:
            opp &= ~(1 << nb)
        gems = (own, opp) if me == 0 else (opp, own)
        taken = list(self.taken)
        taken[me] += len(captured)
        quiet = 0 if captured else self.quiet + 1
        nxt = TwinState(rules, gems, 3 - self.turn, quiet, tuple(taken), None, tuple(sorted(captured)))
        nxt.last = step
        nxt.result = nxt._judge(self.turn)
        return nxt

    def _judge(self, mover: int) -> Result | None:
        """GG-3, checked for the opponent first and then for the mover; then the move cap (G-3)."""
        rules = self.rules
        other = 3 - mover
        for loser in (other, mover):
            left = self.untrapped(loser)
            if left <= 1:
                name = rules.colour_name(loser).capitalize()
                if left == 0 and loser == other:
                    why = f"{name} cannot move (GG-3)"
                elif left == 0:
                    why = f"{name} has no untrapped gem left (GG-3)"
                else:
                    why = f"{name} has only one untrapped gem left (GG-3)"
                return Result(3 - loser, False, why)
        cap = rules.settings.move_cap
        if cap and self.quiet >= cap:
            return Result(None, True, f"{cap} moves without a capture (ruling G-3)")
        return None

    def __repr__(self) -> str:
        return f"<twin-grids {self.phase} {self.rules.colour_name(self.turn)} to move {self.position()}>"


__all__ = ["TwinRules", "TwinSettings", "TwinState"]
