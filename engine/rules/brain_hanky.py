"""Brain Hanky: two webs, clusters, string moves, blocked crossings, gem and ring captures.

Rulings BH-1 to BH-10 (``shared/spec/rulings.md``) are cited where they decide something.

Model
- Rings and gems belong to *sides*: each player's colour, or with four players each team's
  colour (BH-8: partners A1 B1 A2 B2 share a colour, so partners' rings are never hostile).
- A step is one physical transition: a cluster placement in Phase I (``Oc3``: a gem on the
  square and four rings on its points) or one ring move in Phase II, written as the path of
  points from the ring that starts it to the empty point it reaches (``Ob2.s-Ob2.e-Oc2.w``: every
  ring on the path steps one place forward, BH-3). Captures follow automatically (BH-5, BH-7).
- A turn is two cluster placements (one per web, BH-2) or k ring moves (k = 2, or drawn 1..3
  by the move chooser, BH-6).

String moves and their number
In a crowded Phase II position the number of *paths* through occupied points can grow
exponentially, but many paths leave exactly the same board (a string of one colour pushed
along any route looks the same afterwards), and a camera cannot tell them apart. So
``legal_steps()`` lists one step per distinct resulting position: the shortest path, found
breadth-first, with a sound prune: a partial path that reaches the same point with the same
colour changes as an earlier one, having visited a superset of its points, can reach nothing the
earlier one cannot. ``play()`` accepts every legal path (checked directly along the path), so a
player's actual route is always accepted.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from itertools import islice
from typing import Any, Iterable, Iterator, Mapping, Sequence

from ..boards.brain_hanky import BrainHankyBoard, brain_hanky_board
from ..core import CLUSTER, MOVE, IllegalStep, Piece, Result, SearchCut, Step, preflight
from ..protocol import Draws, RulesBase, StateBase
from .history import record

WEB_NAMES = ("orange", "blue")
# What players call each side's pieces: ring colour and gem colour (white rings go with silver gems).
PIECE_WORDS = {1: {"ring": "white", "gem": "silver"}, 2: {"ring": "yellow", "gem": "gold"},
               3: {"ring": "green", "gem": "emerald"}, 4: {"ring": "red", "gem": "ruby"},
               5: {"ring": "black", "gem": "onyx"}, 6: {"ring": "magenta", "gem": "pink"}}


@dataclass(frozen=True)
class HankySettings:
    """Every choice that tells one Brain Hanky game from another (options and variants)."""

    size: int = 6
    periodic: bool = False
    orange_periodic_only: bool = False  # Battle Lines variation: the orange web wraps, the blue does not
    players: int = 2
    gems: int = 14  # per side; rings = 4 per gem (BH-2)
    gemless: bool = False  # BH-9
    gemless_rings: int = 48
    ring_capture: bool = False  # BH-7
    scoring: bool = False  # BH-7: 1 point per ring, 5 per gem
    extra_move: bool = False  # BH-6 variant: a capturing move adds one move instead of a whole turn
    move_chooser: bool = False  # BH-6: k drawn 1..3 per turn from an injected chooser
    moves_per_turn: int = 2
    battle_lines: bool = False  # BH-10 fixed start, Phase II at once
    move_cap: int = 200  # G-3: Phase II moves without a capture before a draw
    repetition_draw: bool = True  # G-3

    @property
    def sides(self) -> int:
        return 2 if self.players == 4 else self.players

    @property
    def board(self) -> str:
        return board_name(self)

    @property
    def clusters_per_web(self) -> int:
        per_side = self.gemless_rings // 4 if self.gemless else self.gems
        return per_side // 2


def board_name(s: HankySettings) -> str:
    if s.orange_periodic_only:
        return f"brain-hanky-{s.size}-orange-periodic"
    return f"brain-hanky-{s.size}" + ("-periodic" if s.periodic else "")


def battle_lines_start(hb: BrainHankyBoard, per_web: int = 7) -> dict[int, dict[str, tuple[str, ...]]]:
    """BH-10's fixed start: per side (0-based) and web, the squares that hold a cluster.

    Side 1 takes the whole squares of the row nearest its edge (the bottom), then the squares of
    the next row nearest the centre column, until it has ``per_web`` on each web. The blue web's
    row 0 is skipped: it lies on the edge itself (split between top and bottom on a wrapping web,
    partial on a flat one), so it belongs to neither side. Side 2 has side 1's squares turned half
    a revolution round the board's centre. docs/brain-hanky.md shows the result.
    """
    n = hb.size
    out: dict[int, dict[str, tuple[str, ...]]] = {0: {}, 1: {}}
    for web in "OB":
        wraps = hb.periodic if web == "O" else hb.blue_periodic
        squares = [hb.squares[name] for name in hb.whole_squares[web]]
        by_centre = {((sq.centre[0] % n) if wraps else sq.centre[0], (sq.centre[1] % n) if wraps else sq.centre[1]): sq
                     for sq in squares}
        first = 1 if web == "B" else 0
        chosen: list = []
        for row in sorted({sq.row for sq in squares if sq.row >= first}):
            in_row = sorted((sq for sq in squares if sq.row == row), key=lambda sq: (abs(sq.centre[0] - n / 2), sq.col))
            chosen += in_row[: per_web - len(chosen)]
            if len(chosen) == per_web:
                break
        mirrored = []
        for sq in chosen:
            x, y = n - sq.centre[0], n - sq.centre[1]
            if wraps:
                x, y = x % n, y % n
            mirrored.append(by_centre[(x, y)])
        out[0][web] = tuple(sq.name for sq in chosen)
        out[1][web] = tuple(sq.name for sq in mirrored)
    return out


class Chooser:
    """The move chooser's draws (BH-6): given values (a record's ``chooser`` list) and/or an RNG.

    Values are memoised by turn number, so every line of play from one start sees the same k
    for the same turn and a finished game's draws can be written into its record.
    """

    def __init__(self, values: Sequence[int] | None = None, rng: random.Random | None = None):
        vals = list(values or [])
        bad = [v for v in vals if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 3]
        if bad:
            raise ValueError(f"move chooser values must be 1, 2 or 3, not {bad[0]!r}")
        self.values = vals
        self.rng = rng

    def k(self, turn_no: int) -> int:
        while turn_no >= len(self.values):
            if self.rng is None:
                raise IllegalStep("", f"the move chooser has no value for turn {turn_no + 1}: "
                                      f"give the drawn values (a record's \"chooser\" list) or an RNG")
            self.values.append(self.rng.randint(1, 3))
        return self.values[turn_no]


class HankyRules(RulesBase):
    """A Brain Hanky game: settings plus the tables its states share."""

    family = "brain-hanky"

    def __init__(self, name: str, settings: HankySettings):
        s = settings
        if s.players not in (2, 3, 4, 5, 6):
            raise ValueError("Brain Hanky takes 2 to 6 players")
        self.name = name
        self.settings = s
        blue_wraps = s.periodic and not s.orange_periodic_only
        hb = brain_hanky_board(s.size, s.periodic or s.orange_periodic_only, blue_wraps)
        self.hboard: BrainHankyBoard = hb
        self.board = hb.graph
        self.players = s.players
        self.sides = s.sides
        names = hb.graph.points
        self.names = names
        self.index = {p: i for i, p in enumerate(names)}
        idx = self.index
        self.n_points = len(names)
        self.web_of = tuple(0 if hb.point_web[p] == "O" else 1 for p in names)
        self.web_mask = tuple(sum(1 << i for i, w in enumerate(self.web_of) if w == web) for web in (0, 1))
        self.bits = 3  # bits per point in a colour-change key (sides up to 6)
        nbrs: dict[int, list[tuple[int, tuple[int, ...]]]] = {i: [] for i in range(len(names))}
        for a, b in hb.graph.edges:
            for x, y in ((a, b), (b, a)):
                crosses = tuple((1 << idx[c]) | (1 << idx[d]) for c, d in hb.crossing.get((x, y), ()))
                nbrs[idx[x]].append((idx[y], crosses))
        self.nbrs = tuple(tuple(sorted(nbrs[i])) for i in range(len(names)))
        self.edge_crosses = {(i, j): cr for i in nbrs for j, cr in nbrs[i]}
        # Whole squares (cluster and gem spots), both webs, in a fixed order.
        sq_names = hb.whole_squares["O"] + hb.whole_squares["B"]
        self.sq_names = sq_names
        self.sq_index = {n: k for k, n in enumerate(sq_names)}
        self.sq_web = tuple(0 if n[0] == "O" else 1 for n in sq_names)
        self.sq_points = tuple(tuple(idx[hb.squares[n].points[c]] for c in "enws") for n in sq_names)
        self.sq_mask = tuple(sum(1 << i for i in pts) for pts in self.sq_points)
        self.sq_by_web = tuple(tuple(k for k in range(len(sq_names)) if self.sq_web[k] == w) for w in (0, 1))
        self.cluster_step = tuple(Step(CLUSTER, None, n) for n in sq_names)
        # Octagons: (mask of the eight points, mask of the enclosed square's points).
        self.octagons = tuple(
            (sum(1 << idx[p] for p in o.points), sum(1 << idx[p] for p in hb.squares[o.encloses].points.values()))
            for o in hb.octagons
        )
        per_web = s.clusters_per_web
        if not s.gemless and (s.gems < 2 or s.gems % 2):
            raise ValueError(f"gems must be an even number of at least 2 per player (BH-2), not {s.gems}")
        self.start_left = tuple((per_web, per_web) for _ in range(self.sides))

    # ------------------------------------------------------------------ the family protocol
    @property
    def colours(self) -> int:
        return self.sides

    @property
    def piece_kinds(self) -> tuple[str, ...]:
        return ("ring",) if self.settings.gemless else ("ring", "gem")

    def kind_at(self, spot: str) -> str:
        """Rings stand on points, gems on the squares' centres."""
        return "ring" if spot in self.index else "gem"

    @property
    def draw_values(self) -> tuple[int, ...] | None:
        return (1, 2, 3) if self.settings.move_chooser else None

    def colour_of(self, player: int) -> int:
        return self.side_of(player - 1) + 1

    def team_of(self, player: int) -> int | None:
        return (player - 1) % 2 + 1 if self.players == 4 else None

    def colour_name(self, colour: int) -> str:
        words = PIECE_WORDS.get(colour)
        return words["ring"] if words else f"side {colour}"

    def piece_name(self, colour: int, kind: str) -> str:
        words = PIECE_WORDS.get(colour)
        if words is None or kind not in words:
            return f"side {colour} {kind}"
        return f"{words[kind]} {kind}"

    def step_spots(self, step: Step) -> tuple[str, ...]:
        if step.kind == CLUSTER:
            return (str(step.dst),) + tuple(self.hboard.squares[step.dst].points.values())
        return super().step_spots(step)

    def _make_explainer(self, sees: str):
        from .brain_hanky_explain import HankyExplainer

        return HankyExplainer(self, sees)

    # ------------------------------------------------------------------ helpers
    def side_of(self, player: int) -> int:
        """The side (colour) a player index plays: teams alternate with four players (BH-8)."""
        return player % 2 if self.players == 4 else player

    def parse(self, text: str) -> Step:
        t = text.strip() if isinstance(text, str) else text
        if not isinstance(t, str) or not t:
            raise IllegalStep(str(text), "empty step: write a square (Oc3) or a path (Oc3.n-Oc3.e)")
        if "-" in t:
            path = tuple(t.split("-"))
            for p in path:
                if p not in self.index:
                    if p in self.sq_index or p in self.hboard.squares:
                        raise IllegalStep(t, f"{p} is a square; a ring move names points such as {p}.n")
                    raise IllegalStep(t, f"{p} is not a point of the {self.board.name} board")
            if len(path) < 2:
                raise IllegalStep(t, "a move needs at least two points")
            return Step(MOVE, path[0], path[-1], path)
        k = self.sq_index.get(t)
        if k is not None:
            return self.cluster_step[k]
        if t in self.hboard.squares:
            raise IllegalStep(t, f"{t} is a partial square at the board's edge: no cluster fits there (BH-1)")
        if t in self.index:
            raise IllegalStep(t, f"{t} is a single point: a move is a path such as {t}-<next point>")
        raise IllegalStep(t, f"{t!r} is neither a square nor a path of points on the {self.board.name} board")

    def new(self, chooser: Chooser | Sequence[int] | random.Random | None = None, *,
            draws: Sequence[int] | random.Random | None = None) -> "HankyState":
        """The start state; with the move chooser, ``draws`` (or ``chooser``) gives its values:
        a record's list of drawn k, a ``random.Random`` to draw them, or a ``Chooser``."""
        s = self.settings
        if draws is not None:
            if chooser is not None:
                raise ValueError("give the move chooser's values once: draws= or chooser=, not both")
            chooser = draws
        if s.move_chooser:
            if chooser is None:
                raise ValueError("move_chooser needs chooser=[k1, k2, ...] (a record's draws) or "
                                 "chooser=random.Random(seed)")
            if isinstance(chooser, Draws):
                chooser = Chooser(chooser.values, chooser.rng)
            elif not isinstance(chooser, Chooser):
                chooser = Chooser(rng=chooser) if isinstance(chooser, random.Random) else Chooser(chooser)
        else:
            chooser = None
        st = HankyState.__new__(HankyState)
        st.rules = self
        st.owner = bytes(self.n_points)
        st.masks = (0,) * self.sides
        st.gems = bytes(len(self.sq_names))
        st.piles = (0,) * self.sides
        st.ring_piles = (0,) * self.sides
        st.left = self.start_left
        st.turn = 0
        st.placed = 0
        st.moves_left = 0
        st.captured = False
        st.turn_no = 0
        st.chooser = chooser
        st.out = (False,) * self.sides
        st.tie = False
        st.quiet = 0
        st.history = None
        st.depth = 0
        st.result = None
        st.last = None
        st.plies = 0
        st.stage = "placement"
        st._legal = None
        st.events = ()
        if s.battle_lines:
            start = battle_lines_start(self.hboard, s.clusters_per_web)
            owner = bytearray(self.n_points)
            gems = bytearray(len(self.sq_names))
            for side, webs in start.items():
                for squares in webs.values():
                    for sq in squares:
                        k = self.sq_index[sq]
                        gems[k] = side + 1
                        for i in self.sq_points[k]:
                            owner[i] = side + 1
            st._set_board(bytes(owner))
            st.gems = bytes(gems)
            st.left = ((0, 0),) * self.sides
            st._begin_phase_two()
        else:
            st._begin_placement_turn()
        return st


    def setup(self, rings: Mapping[str, int], gems: Mapping[str, int] | None = None, *, to_move: int = 1,
              moves_left: int | None = None, piles: Mapping[int, int] | None = None,
              chooser: Chooser | Sequence[int] | random.Random | None = None,
              draws: Draws | Sequence[int] | random.Random | None = None) -> "HankyState":
        """A Phase II position built by hand: rings (point -> side 1..n), gems (square -> side).

        For tests, puzzles and a referee resuming from a photograph; the state then plays by the
        ordinary rules. Raises ValueError for unknown names, a gem on a partial square, or a side
        or player out of range.
        """
        chooser = draws if draws is not None else chooser
        st = self.new(chooser=chooser) if self.settings.move_chooser else self.new()
        owner = bytearray(self.n_points)
        for name, side in rings.items():
            if name not in self.index:
                raise ValueError(f"{name} is not a point of {self.board.name}")
            if not 1 <= side <= self.sides:
                raise ValueError(f"side {side} does not exist (1..{self.sides})")
            owner[self.index[name]] = side
        gem_bytes = bytearray(len(self.sq_names))
        for name, side in (gems or {}).items():
            if name not in self.sq_index:
                raise ValueError(f"{name} is not a whole square of {self.board.name}")
            if not 1 <= side <= self.sides:
                raise ValueError(f"side {side} does not exist (1..{self.sides})")
            gem_bytes[self.sq_index[name]] = side
        if not 1 <= to_move <= self.players:
            raise ValueError(f"player {to_move} does not exist (1..{self.players})")
        st._set_board(bytes(owner))
        st.gems = bytes(gem_bytes)
        st.left = ((0, 0),) * self.sides
        st.piles = tuple((piles or {}).get(side + 1, 0) for side in range(self.sides))
        st.stage = "movement"
        st.out = tuple(False for _ in range(self.sides))
        st.result = None
        st.turn_no = 0
        st.history = None
        st.depth = 0
        st._legal = None
        st._start_turn(to_move - 1)
        if moves_left is not None and st.result is None:
            st.moves_left = moves_left
        return st


class HankyState(StateBase):
    """An immutable Brain Hanky position. ``play`` returns a new state."""

    __slots__ = ("rules", "owner", "masks", "gems", "piles", "ring_piles", "left", "turn", "placed",
                 "moves_left", "captured", "turn_no", "chooser", "out", "tie", "quiet", "history", "depth",
                 "result", "last", "plies", "stage", "_legal", "events")

    # ------------------------------------------------------------------ public queries
    @property
    def to_move(self) -> int:
        return self.turn + 1

    @property
    def side(self) -> int:
        """The side (0-based colour) of the player to move."""
        return self.rules.side_of(self.turn)

    @property
    def phase(self) -> str:
        return "over" if self.result is not None else self.stage

    def position(self) -> dict[str, Piece]:
        """Rings on points (kind "ring") and gems on their squares (kind "gem"), by side 1..n."""
        rules = self.rules
        out = {rules.names[i]: Piece(o, "ring") for i, o in enumerate(self.owner) if o}
        for k, o in enumerate(self.gems):
            if o:
                out[rules.sq_names[k]] = Piece(o, "gem")
        return out

    def piles_by_side(self) -> dict[int, int]:
        """Gems each side has captured (its capture pile)."""
        return {s + 1: n for s, n in enumerate(self.piles)}

    def rings_captured_by_side(self) -> dict[int, int]:
        return {s + 1: n for s, n in enumerate(self.ring_piles)}

    def scores(self) -> dict[int, int]:
        """BH-7 scoring: one point per captured ring, five per captured gem."""
        return {s + 1: self.ring_piles[s] + 5 * self.piles[s] for s in range(self.rules.sides)}

    def chooser_draws(self) -> list[int]:
        """The move chooser's k values for the Phase II turns begun so far (for the record)."""
        if self.chooser is None:
            return []
        return self.chooser.values[: self.turn_no]

    def draws(self) -> list[int]:
        return self.chooser_draws()

    def captures(self) -> dict[int, int]:
        return self.piles_by_side()

    def leftovers(self, step: Step, after: "HankyState") -> dict[str, Piece]:
        """Pieces the rules took with ``step`` (a gem, rings inside an octagon) that the players
        lift by hand afterwards: the board as hands leave it has them still."""
        if not after.events:
            return {}
        before = self.position()
        now = after.position()
        physical = dict(before)
        if step.kind == MOVE:
            physical.pop(step.path[0], None)
            for src, dst in zip(step.path, step.path[1:]):
                physical[dst] = before[src]
        elif step.kind == CLUSTER:
            for spot in self.rules.step_spots(step):
                if spot in now:
                    physical[spot] = now[spot]
        return {spot: pc for spot, pc in physical.items() if spot not in now}

    def iter_steps(self) -> Iterator[Step]:
        """The legal steps one at a time, as found (the same steps ``legal_steps`` lists).

        For callers that need only some (hints, a few candidates): a crowded Phase II position
        can have hundreds of thousands of distinct string moves, and this yields the first at once.
        """
        if self._legal is not None or self.result is not None or self.stage == "placement":
            yield from self.legal_steps()
        else:
            yield from self._iter_ring_moves()

    def legal_steps(self) -> tuple[Step, ...]:
        """Every legal step, one per distinct resulting position (see the module notes)."""
        if self._legal is None:
            self._legal = self._generate()
        return self._legal

    def random_step(self, rng: random.Random, per_ring: int = 32) -> Step | None:
        """A random legal step, cheaply: for simulations and random games, not uniform over steps.

        Phase II picks a random ring of the mover that can move, then one of the first
        ``per_ring`` distinct results from it (shortest paths first), so a crowded position never
        needs its full (possibly huge) list of string moves. None when the game is over.
        """
        if self.result is not None:
            return None
        if self.stage == "placement":
            return rng.choice(self.legal_steps())
        roots = _bits(self.masks[self.side])
        rng.shuffle(roots)
        for p0 in roots:
            options = self._ring_moves(roots=(p0,), limit=per_ring)
            if options:
                return rng.choice(options)
        return None

    def play(self, step: Step | str) -> "HankyState":
        """The state after ``step`` (any legal path, not only the listed one); IllegalStep if not legal."""
        rules = self.rules
        if not isinstance(step, str):
            raise IllegalStep(repr(step), "a step is written as text: a square (Oc3) or a path (Oc3.n-Oc3.e)")
        step = rules.parse(step)  # the game's own step, also for a Step built by hand (its path read from its text)
        reason = self.why_illegal(step)
        if reason:
            raise IllegalStep(str(step), reason)
        if step.kind == CLUSTER:
            return self._apply_cluster(rules.sq_index[step])
        return self._apply_move(tuple(rules.index[p] for p in step.path), step)

    def parse(self, text: str) -> Step:
        return self.rules.parse(text)

    # ------------------------------------------------------------------ board helpers
    def _set_board(self, owner: bytes) -> None:
        masks = [0] * self.rules.sides
        for i, o in enumerate(owner):
            if o:
                masks[o - 1] |= 1 << i
        self.owner = owner
        self.masks = tuple(masks)

    def _change(self, changes: dict[int, int]) -> None:
        """Set the given points to new owners (0: empty), updating the side masks in place of a rescan."""
        owner = bytearray(self.owner)
        masks = list(self.masks)
        for i, new in changes.items():
            old = owner[i]
            if old == new:
                continue
            bit = 1 << i
            if old:
                masks[old - 1] &= ~bit
            if new:
                masks[new - 1] |= bit
            owner[i] = new
        self.owner = bytes(owner)
        self.masks = tuple(masks)

    def _occupied(self) -> int:
        occ = 0
        for m in self.masks:
            occ |= m
        return occ

    def _hostile(self) -> list[int]:
        """For each side, the points holding rings hostile to it (every other side's rings)."""
        occ = self._occupied()
        return [occ & ~m for m in self.masks]

    # ------------------------------------------------------------------ generation
    def _generate(self) -> tuple[Step, ...]:
        if self.result is not None:
            return ()
        if self.stage == "placement":
            return tuple(self._cluster_steps())
        return tuple(self._ring_moves())

    def _cluster_steps(self, side: int | None = None, placed: int | None = None) -> list[Step]:
        rules = self.rules
        side = self.side if side is None else side
        placed = self.placed if placed is None else placed
        occ = self._occupied()
        gems = self.gems
        out = []
        for web in (0, 1):
            if placed >> web & 1 or not self.left[side][web]:
                continue
            for k in rules.sq_by_web[web]:
                if not gems[k] and not occ & rules.sq_mask[k]:
                    out.append(rules.cluster_step[k])
        return out

    def _ring_moves(self, roots: Iterable[int] | None = None, target: int | None = None,
                    want: dict[int, int] | None = None, limit: int = 0, side: int | None = None) -> list[Step]:
        """The list form of ``_iter_ring_moves`` (``limit``: stop after that many; 0: all)."""
        gen = self._iter_ring_moves(roots, target, want, side)
        return list(islice(gen, limit)) if limit else list(gen)

    def _iter_ring_moves(self, roots: Iterable[int] | None = None, target: int | None = None,
                         want: dict[int, int] | None = None, side: int | None = None,
                         budget: int = 0) -> Iterator[Step]:
        """String and simple moves of the side to move, one per distinct resulting position.

        ``roots`` limits the starting rings; ``target`` keeps only moves ending on that empty point;
        ``want`` (point -> new side, 1-based) keeps only paths whose colour changes are exactly
        those (the referee's observed board), which prunes the search to almost nothing.
        ``side`` searches for another side than the one to move. Steps are yielded as found,
        shortest paths first for each starting ring. ``budget`` (0: none) caps the partial
        paths examined; past it ``SearchCut`` is raised, so a caller with a deadline (the
        referee) can say it cannot tell rather than stall.
        """
        rules = self.rules
        owner = self.owner
        nbrs = rules.nbrs
        hostile = self._hostile()
        shift = rules.bits
        side = self.side if side is None else side
        if roots is None:
            roots = _bits(self.masks[side])
        want_key = None
        if want is not None:
            want_key = 0
            for i, o in want.items():
                want_key |= o << (shift * i)
        name_of = rules.names.__getitem__
        mask7 = (1 << shift) - 1
        for p0 in roots:
            results: set = set()
            memo: dict[tuple[int, int], list[int]] = {}
            # Queue entries are (point, visited mask, colour changes, parent entry): paths are
            # rebuilt from parent links only for results, never copied on every extension.
            queue = deque([(p0, 1 << p0, 0, None)])
            popleft, push = queue.popleft, queue.append
            while queue:
                if budget:
                    budget -= 1
                    if not budget:
                        raise SearchCut("the search for matching moves ran past its budget")
                entry = popleft()
                k, visited, changes, _parent = entry
                o = owner[k]
                hos = hostile[o - 1]
                for x, crosses in nbrs[k]:
                    xb = 1 << x
                    if visited & xb:
                        continue
                    for cm in crosses:  # BH-4: no step between two hostile rings on the other web
                        if hos & cm == cm:
                            break
                    else:
                        ox = owner[x]
                        if not ox:
                            if target is not None and x != target:
                                continue
                            if want_key is not None and changes != want_key:
                                continue
                            key = (x, o, changes)
                            if key not in results:
                                results.add(key)
                                path = [x]
                                e = entry
                                while e is not None:
                                    path.append(e[0])
                                    e = e[3]
                                path.reverse()
                                yield Step(MOVE, name_of(p0), name_of(x), tuple(map(name_of, path)))
                            continue
                        if ox == o:
                            if want_key is not None and want_key >> (shift * x) & mask7:
                                continue  # the board shows a change here that this path would not make
                            nchanges = changes
                        else:
                            flip = o << (shift * x)
                            if want_key is not None and want_key & (mask7 << (shift * x)) != flip:
                                continue  # this point would take a colour the board does not show
                            nchanges = changes | flip
                        nvisited = visited | xb
                        mk = (x, nchanges)
                        seen = memo.get(mk)
                        if seen is None:
                            memo[mk] = [nvisited]
                        else:
                            for v in seen:
                                if not v & ~nvisited:
                                    break  # dominated: an earlier partial path can do all this one can
                            else:
                                seen.append(nvisited)
                                push((x, nvisited, nchanges, entry))
                            continue
                        push((x, nvisited, nchanges, entry))

    def _has_ring_move(self, side: int) -> bool:
        """Cheap test first (a single step to an empty neighbour), the full search only if needed."""
        rules = self.rules
        owner = self.owner
        hostile = self._hostile()[side]
        for k in _bits(self.masks[side]):
            for x, crosses in rules.nbrs[k]:
                if not owner[x] and not any(hostile & cm == cm for cm in crosses):
                    return True
        return bool(self._ring_moves(side=side, limit=1))  # strings may free a way no single step does

    # ------------------------------------------------------------------ checking
    def why_illegal(self, step: Step | str) -> str | None:
        """None if ``step`` is legal now, else the rule it breaks, in a player's words."""
        rules = self.rules
        step, why = preflight(self, step)
        if why:
            return why
        me = self.to_move
        if step.kind == CLUSTER:
            if self.stage != "placement":
                return "clusters are placed only in Phase I; now rings move (Phase II)"
            k = rules.sq_index[step]
            web = rules.sq_web[k]
            if self.placed >> web & 1:
                return f"player {me} has already placed a cluster on the {WEB_NAMES[web]} web this turn (BH-2)"
            if not self.left[self.side][web]:
                return f"player {me} has no clusters left for the {WEB_NAMES[web]} web"
            if self.gems[k]:
                return f"{step} already holds a gem"
            if self._occupied() & rules.sq_mask[k]:
                return f"a cluster needs all four points of {step} empty (BH-2)"
            return None
        if self.stage != "movement":
            return "rings move only in Phase II; Phase I places clusters (e.g. Oc3)"
        return self._path_problem(tuple(rules.index[p] for p in step.path))

    def _path_problem(self, path: tuple[int, ...]) -> str | None:
        rules = self.rules
        names = rules.names
        owner = self.owner
        if self.owner[path[0]] != self.side + 1:
            if owner[path[0]]:
                return f"the ring on {names[path[0]]} is not player {self.to_move}'s: a move starts with your own ring"
            return f"there is no ring on {names[path[0]]}"
        if len(set(path)) != len(path):
            return "a string move may not visit a point twice (BH-3)"
        web = rules.web_of[path[0]]
        for a, b in zip(path, path[1:]):
            if rules.web_of[b] != web:
                return f"{names[a]} and {names[b]} are on different webs: a move stays on one web"
            if (a, b) not in rules.edge_crosses:
                return f"{names[a]} and {names[b]} are not joined by a line of the web"
        for i in path[1:-1]:
            if not owner[i]:
                return (f"{names[i]} is empty: a string runs through occupied points and ends on the "
                        f"first empty one (BH-3)")
        if owner[path[-1]]:
            return f"{names[path[-1]]} is occupied: a move ends on an empty point"
        hostile = self._hostile()
        for a, b in zip(path, path[1:]):
            o = owner[a]
            for cm in rules.edge_crosses[(a, b)]:
                if hostile[o - 1] & cm == cm:
                    c, d = (names[i] for i in _bits(cm))
                    whose = "the mover's" if o == self.side + 1 else f"side {o}'s"
                    return (f"the ring on {names[a]} ({whose}) may not cross between the two hostile rings on "
                            f"{c} and {d} on the other web (BH-4)")
        return None

    # ------------------------------------------------------------------ applying
    def _copy(self, step: Step) -> "HankyState":
        nxt = HankyState.__new__(HankyState)
        for name in HankyState.__slots__:
            setattr(nxt, name, getattr(self, name))
        nxt.last = step
        nxt.plies = self.plies + 1
        nxt._legal = None
        nxt.events = ()
        return nxt

    def _apply_cluster(self, k: int) -> "HankyState":
        rules = self.rules
        side = self.side
        nxt = self._copy(rules.cluster_step[k])
        nxt._change({i: side + 1 for i in rules.sq_points[k]})
        if not rules.settings.gemless:
            gems = bytearray(self.gems)
            gems[k] = side + 1
            nxt.gems = bytes(gems)
        web = rules.sq_web[k]
        left = list(self.left)
        pair = list(left[side])
        pair[web] -= 1
        left[side] = tuple(pair)
        nxt.left = tuple(left)
        nxt.placed = self.placed | (1 << web)
        nxt.history = None
        nxt.depth = 0
        nxt._capture(side, phase_one=True)
        if nxt.result is None:
            if nxt._cluster_steps():
                return nxt  # the other half of the turn (BH-2)
            nxt._next_placement_turn()
        return nxt

    def _apply_move(self, path: tuple[int, ...], step: Step) -> "HankyState":
        rules = self.rules
        side = self.side
        nxt = self._copy(step)
        moved = {path[0]: 0}  # every ring steps one place along the path (BH-3)
        moved.update(zip(path[1:], (self.owner[i] for i in path[:-1])))
        nxt._change(moved)
        nxt.quiet = self.quiet + 1
        took = nxt._capture(side, phase_one=False)
        if nxt.result is not None:
            return nxt
        s = rules.settings
        moves_left = self.moves_left - 1
        if nxt.events:  # any capture: the G-3 count restarts and no earlier position can return
            nxt.quiet = 0
            nxt.history = None
            nxt.depth = 0
        if took:
            if s.extra_move:
                moves_left += 1  # BH-6 variant: one more move in this turn
            else:
                nxt.captured = True
        nxt.moves_left = moves_left
        if moves_left > 0 and nxt._has_ring_move(side):
            nxt._note_position()
            return nxt
        # The turn ends: a capturing turn earns one more turn (BH-6), else the next player.
        if nxt.captured:
            nxt.captured = False
            nxt._start_turn(self.turn)
        else:
            nxt._start_turn(nxt._next_player(self.turn))
        return nxt

    def _capture(self, side: int, phase_one: bool) -> bool:
        """Captures by the mover after a step (BH-5, BH-7); True if it earns an extra turn."""
        rules = self.rules
        s = rules.settings
        mine = self.masks[side]
        events = []
        extra = False
        gems = None
        for k, g in enumerate(self.gems):
            if g and g != side + 1 and mine & rules.sq_mask[k] == rules.sq_mask[k]:
                if gems is None:
                    gems = bytearray(self.gems)
                gems[k] = 0
                events.append(f"captured the {PIECE_WORDS.get(g, {}).get('gem', f'side {g}')} gem "
                              f"on {rules.sq_names[k]}")
        if gems is not None:
            self.gems = bytes(gems)
            piles = list(self.piles)
            piles[side] += len(events)
            self.piles = tuple(piles)
            extra = True
        if s.ring_capture or s.gemless:
            taken = 0
            for oct_mask, enclosed in rules.octagons:
                if mine & oct_mask == oct_mask:
                    victims = enclosed & self._occupied() & ~mine
                    if victims:
                        self._change({i: 0 for i in _bits(victims)})
                        taken += victims.bit_count()
                        n = victims.bit_count()
                        events.append(f"captured {n} ring{'s' if n != 1 else ''} inside the octagon")
            if taken:
                rp = list(self.ring_piles)
                rp[side] += taken
                self.ring_piles = tuple(rp)
                if s.gemless and not phase_one:
                    extra = True  # BH-9: a capture in Phase II earns an extra turn
        self.events = tuple(events)
        if events:
            self._check_winner(side)
        return extra and not phase_one

    def _check_winner(self, mover: int) -> None:
        """Out sides and the winner (BH-8, BH-9)."""
        rules = self.rules
        s = rules.settings
        if self.stage == "placement" and not s.gemless:
            return  # every gem is either placed or still to place: nobody is out yet
        out = list(self.out)
        newly = []
        for side in range(rules.sides):
            if out[side]:
                continue
            if s.gemless:  # BH-9: rings on the board plus rings still to place
                gone = self.masks[side].bit_count() + 4 * sum(self.left[side]) < 8
            else:
                gone = not any(g == side + 1 for g in self.gems)
            if gone:
                out[side] = True
                newly.append(side)
        self.out = tuple(out)
        alive = [side for side in range(rules.sides) if not out[side]]
        if s.gemless and newly:
            self._finish(mover + 1, f"side {newly[0] + 1} is down to fewer than eight rings (BH-9)")
            return
        if self.tie and self.events and any("gem" in e for e in self.events):
            self._finish(mover + 1, "broke the tie with the next gem capture (BH-8)")
            return
        if len(alive) == 1:
            self._finish(alive[0] + 1, "captured every opponent gem")
            return
        if rules.players == 3 and newly and len(alive) == 2:
            a, b = alive
            if self.piles[a] != self.piles[b]:
                win = a if self.piles[a] > self.piles[b] else b
                self._finish(win + 1, f"side {newly[0] + 1} is out; side {win + 1} holds more captured gems (BH-8)")
            else:
                self.tie = True  # BH-8: play on until the next gem capture

    def _finish(self, winner: int | None, reason: str) -> None:
        if self.rules.settings.scoring:
            scores = self.scores()
            best = max(scores.values())
            top = [side for side, v in scores.items() if v == best]
            text = ", ".join(f"side {k}: {v}" for k, v in scores.items())
            if len(top) == 1:
                self.result = Result(top[0], False, f"{reason}; scores {text} (BH-7)")
            else:
                self.result = Result(None, True, f"{reason}; scores tied, {text} (BH-7)")
        elif winner is None:
            self.result = Result(None, True, reason)
        else:
            self.result = Result(winner, False, reason)
        self._legal = ()

    # ------------------------------------------------------------------ turns
    def _next_player(self, player: int) -> int:
        rules = self.rules
        for step in range(1, rules.players + 1):
            cand = (player + step) % rules.players
            if not self.out[rules.side_of(cand)]:
                return cand
        return player

    def _begin_placement_turn(self) -> None:
        """Phase I turn start; skips players with nothing placeable and ends Phase I (BH-2)."""
        self.placed = 0
        for _ in range(self.rules.players):
            if self._cluster_steps():
                return
            self.turn = (self.turn + 1) % self.rules.players
        self._begin_phase_two()

    def _next_placement_turn(self) -> None:
        self.turn = (self.turn + 1) % self.rules.players
        self._begin_placement_turn()

    def _begin_phase_two(self) -> None:
        """BH-2: player 1 starts Phase II once no cluster is left to place."""
        self.stage = "movement"
        self.placed = 0
        self.history = None
        self.depth = 0
        self._check_winner(0)
        if self.result is None:
            self._start_turn(0)

    def _start_turn(self, player: int) -> None:
        """A Phase II turn: draw k, pass players who cannot move (G-2), settle draws (G-3)."""
        rules = self.rules
        s = rules.settings
        if s.move_cap and self.quiet >= s.move_cap:
            self._finish(None, f"{s.move_cap} moves without a capture (ruling G-3)")
            return
        for _ in range(rules.players):
            self.turn = player
            if self._has_ring_move(rules.side_of(player)):
                self.moves_left = self.chooser.k(self.turn_no) if self.chooser else s.moves_per_turn
                self.turn_no += 1
                self.captured = False
                self._note_position()
                return
            player = self._next_player(player)
        self._finish(None, "no player can move")

    def _note_position(self) -> None:
        if not self.rules.settings.repetition_draw or self.result is not None:
            return
        key = (self.owner, self.gems, self.turn, self.moves_left)
        self.history, seen = record(self.history, self.depth, key)
        self.depth += 1
        if seen >= 2:
            self._finish(None, "the same position came up a third time (ruling G-3)")

    # ------------------------------------------------------------------ referee support
    def matching_steps(self, observed: Mapping[str, Any], colours: bool = True, *,
                       limit: int = 0, budget: int = 0) -> list[Step]:
        """Steps whose resulting rings equal ``observed`` (point -> piece/owner; absent = empty).

        With ``colours`` the observed owners must match too; without (an occupancy-only reader),
        every distinct result with the same occupancy is returned. Gems are ignored: a captured
        gem is still on the cloth until its captor lifts it. The difference pins the step down
        (the emptied point starts it, the filled point ends it, recoloured points lie on its
        path), so only paths consistent with it are searched.

        Without colours a packed board can have very many paths between the same two points:
        ``limit`` stops after that many results (two already make a reading ambiguous) and
        ``budget`` caps the search, raising ``SearchCut`` past it (see ``_iter_ring_moves``).
        """
        rules = self.rules
        if self.result is not None:
            return []
        seen_owner = bytearray(rules.n_points)
        for name, piece in observed.items():
            i = rules.index.get(name)
            if i is None:
                continue  # gem spots and unknown names carry no ring
            if piece is None or piece is False:
                continue
            o = getattr(piece, "owner", piece)
            if getattr(piece, "kind", "ring") == "gem":
                continue
            seen_owner[i] = o if (colours and isinstance(o, int) and not isinstance(o, bool)) else 255
        now = self.owner
        emptied = [i for i in range(rules.n_points) if now[i] and not seen_owner[i]]
        filled = [i for i in range(rules.n_points) if not now[i] and seen_owner[i]]
        if self.stage == "placement":
            if emptied or len(filled) != 4:
                return []
            hit = set(filled)
            for st in self.legal_steps():
                k = rules.sq_index[st]
                if set(rules.sq_points[k]) == hit and all(
                        seen_owner[i] in (255, self.side + 1) for i in rules.sq_points[k]):
                    return [st]
            return []
        if len(emptied) != 1 or len(filled) != 1:
            return []
        p0, q = emptied[0], filled[0]
        if now[p0] != self.side + 1 or rules.web_of[p0] != rules.web_of[q]:
            return []
        if colours:
            want = {i: seen_owner[i] for i in range(rules.n_points)
                    if now[i] and seen_owner[i] and seen_owner[i] != now[i]}
            # start, end and every colour change are fixed: at most one result, so stop at it
            steps = self._ring_moves(roots=(p0,), target=q, want=want, limit=1)
            return [st for st in steps if seen_owner[q] == self.owner[rules.index[st.path[-2]]]]
        gen = self._iter_ring_moves(roots=(p0,), target=q, budget=budget)
        return list(islice(gen, limit)) if limit else list(gen)

    def __repr__(self) -> str:
        return (f"<{self.rules.name} {self.phase} to_move={self.to_move} rings={bin(self._occupied()).count('1')} "
                f"gems={sum(1 for g in self.gems if g)}>")


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
