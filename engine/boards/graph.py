"""Board graphs: named points with coordinates, edges, lines and jump triples.

A board is data, not code: the rules engine walks its edges, the renderer draws at its
coordinates, and later the camera samples there and the LED map is laid out from it. Keeping one
definition per board is what lets all of those agree.

Every graph is validated when it is built (no edge to an unknown point, every line made of
edges along one straight run), so a typo in board data fails at import, not in a game.

Points are also given a bit index (their position in ``points``), which the rules use to keep
positions as integer bitmasks: that is what makes legal-step generation cheap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import isclose


class BoardError(ValueError):
    """Board data that does not describe a consistent graph."""


def wrapped_delta(a: tuple[float, float], b: tuple[float, float], period: float | None) -> tuple[float, float]:
    """b - a, taken the short way round on a board whose axes wrap with ``period`` (None: flat)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if period:
        dx = (dx + period / 2) % period - period / 2
        dy = (dy + period / 2) % period - period / 2
    return dx, dy


def _direction(a: tuple[float, float], b: tuple[float, float], period: float | None = None) -> tuple[float, float]:
    dx, dy = wrapped_delta(a, b, period)
    length = (dx * dx + dy * dy) ** 0.5
    return (dx / length, dy / length)


@dataclass(frozen=True)
class BoardGraph:
    """An immutable board graph.

    ``lines`` are the rows that count (mills, pillars, jare, Tresillo), each a tuple of point
    names in order along the row. ``jumps`` are every (from, over, to) triple where both edges
    exist and the three points lie on one straight line, which is what a jump or a capture by
    leaping needs; they are derived from the coordinates, so they can never disagree with them.
    """

    name: str
    points: tuple[str, ...]
    coords: dict[str, tuple[float, float]]
    edges: tuple[tuple[str, str], ...]
    lines: tuple[tuple[str, ...], ...]
    description: str = ""
    period: float | None = None  # both axes wrap modulo this (periodic boards); None: a flat board
    # Places off the graph where a piece can stand (Brain Hanky's gem squares): name -> centre.
    cells: dict[str, tuple[float, float]] = field(default_factory=dict)
    # How the board is drawn, printed and read: "htjb" (lines and points), "brain-hanky" (two
    # webs on a cloth) or "twin-grids" (lines and points, two grids in two colours). Vision and hardware look their per-style parts up by it.
    style: str = "htjb"
    # Derived tables, filled by __post_init__.
    index: dict[str, int] = field(init=False, repr=False, compare=False)
    neighbours: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    jumps: tuple[tuple[str, str, str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = self.points
        if len(set(names)) != len(names):
            raise BoardError(f"{self.name}: a point is listed twice")
        missing = [p for p in names if p not in self.coords]
        if missing:
            raise BoardError(f"{self.name}: no coordinates for {', '.join(missing)}")
        index = {p: i for i, p in enumerate(names)}
        neighbours: dict[str, list[str]] = {p: [] for p in names}
        seen: set[frozenset[str]] = set()
        for a, b in self.edges:
            for p in (a, b):
                if p not in index:
                    raise BoardError(f"{self.name}: edge {a}-{b} names unknown point {p}")
            if a == b:
                raise BoardError(f"{self.name}: edge {a}-{b} joins a point to itself")
            key = frozenset((a, b))
            if key in seen:
                raise BoardError(f"{self.name}: edge {a}-{b} is listed twice")
            seen.add(key)
            neighbours[a].append(b)
            neighbours[b].append(a)
        for line in self.lines:
            if len(line) < 3:
                raise BoardError(f"{self.name}: line {'-'.join(line)} is shorter than three points")
            for p in line:
                if p not in index:
                    raise BoardError(f"{self.name}: line {'-'.join(line)} names unknown point {p}")
            for a, b in zip(line, line[1:]):
                if frozenset((a, b)) not in seen:
                    raise BoardError(f"{self.name}: line {'-'.join(line)} uses {a}-{b}, which is not an edge")
            d0 = _direction(self.coords[line[0]], self.coords[line[1]], self.period)
            for a, b in zip(line[1:], line[2:]):
                d = _direction(self.coords[a], self.coords[b], self.period)
                if not (isclose(d[0], d0[0], abs_tol=1e-9) and isclose(d[1], d0[1], abs_tol=1e-9)):
                    raise BoardError(f"{self.name}: line {'-'.join(line)} is not straight")
        jumps = []
        for over in names:
            for a in neighbours[over]:
                for b in neighbours[over]:
                    if a == b:
                        continue
                    d1 = _direction(self.coords[a], self.coords[over], self.period)
                    d2 = _direction(self.coords[over], self.coords[b], self.period)
                    if isclose(d1[0], d2[0], abs_tol=1e-9) and isclose(d1[1], d2[1], abs_tol=1e-9):
                        jumps.append((a, over, b))
        clash = [c for c in self.cells if c in index]
        if clash:
            raise BoardError(f"{self.name}: {', '.join(clash)} is both a point and a cell")
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "neighbours", {p: tuple(n) for p, n in neighbours.items()})
        object.__setattr__(self, "jumps", tuple(sorted(jumps, key=lambda t: (index[t[0]], index[t[2]]))))

    # ------------------------------------------------------------------ queries
    @property
    def spots(self) -> tuple[str, ...]:
        """Every place a piece can stand: the points, then the cells off the graph."""
        return self.points + tuple(self.cells)

    @property
    def spot_coords(self) -> dict[str, tuple[float, float]]:
        """Coordinates of every spot (points and cells), in ``spots`` order."""
        out = {p: self.coords[p] for p in self.points}
        out.update(self.cells)
        return out

    def __contains__(self, point: object) -> bool:
        return point in self.index

    def __len__(self) -> int:
        return len(self.points)

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours.get(a, ())

    def straight_runs(self) -> list[tuple[str, str, str]]:
        """Every unordered straight three-point run along edges (a candidate line)."""
        out = set()
        for a, o, b in self.jumps:
            out.add((a, o, b) if self.index[a] < self.index[b] else (b, o, a))
        return sorted(out, key=lambda t: tuple(self.index[p] for p in t))

    def bounds(self) -> tuple[float, float, float, float]:
        xs = [c[0] for c in self.coords.values()]
        ys = [c[1] for c in self.coords.values()]
        return (min(xs), min(ys), max(xs), max(ys))
