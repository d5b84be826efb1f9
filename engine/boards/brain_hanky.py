"""Brain Hanky's bandanna: two offset octagon-square webs, generated from N and the wrap flag.

Orange (``O``) and blue (``B``) are the same truncated-square web, the blue one shifted by half a
period, so every octagon of one web sits round a square of the other and every bridge of one web
crosses a bridge of the other at their common midpoint (boards.md section 2).

Everything here is derived from coordinates rather than listed by hand: crossings are bridges
of different webs with the same midpoint, an octagon is the eight points of the other web round
a square's centre. One generator therefore gives the plain board, the periodic board (both axes
wrap modulo N) and the 4x expanded board (a 2N x 2N periodic board) with no special cases, and
the sanity figures of boards.md are checked by tests rather than trusted.

Names: square ``O<file><rank>`` / ``B<file><rank>``, file letter from the column index (a = 0),
rank = row index + 1; a point adds its compass letter: ``Oa1.n``. Orange square (i, j) is
centred at (i + 0.5, j + 0.5), blue square (i, j) at (i, j).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from math import atan2, hypot, isclose, sqrt

from .graph import BoardError, BoardGraph, wrapped_delta

R = 1 / (2 + sqrt(2))  # centre-to-point distance that makes the octagons regular
WEBS = ("O", "B")
COMPASS = {"e": (R, 0.0), "n": (0.0, R), "w": (-R, 0.0), "s": (0.0, -R)}
SIDES = (("e", "n"), ("n", "w"), ("w", "s"), ("s", "e"))
OCTAGON_RADIUS = hypot(0.5 - R, 0.5)  # distance from an octagon's centre to its eight points
FILES = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Square:
    """A square of one web: its gem spot (centre) and the ring points that exist on this board."""

    name: str
    web: str
    col: int
    row: int
    centre: tuple[float, float]
    points: dict[str, str]  # compass letter -> point name, for the points on the board
    whole: bool  # all four points exist: a cluster and a gem may go here


@dataclass(frozen=True)
class Octagon:
    """Eight points of one web round a square of the other web (the square it encloses)."""

    web: str
    points: tuple[str, ...]
    encloses: str


@dataclass(frozen=True)
class BrainHankyBoard:
    size: int
    periodic: bool  # the orange web wraps
    blue_periodic: bool  # the blue web wraps (differs from ``periodic`` only for orange-periodic-only)
    graph: BoardGraph
    squares: dict[str, Square]
    whole_squares: dict[str, tuple[str, ...]]  # web -> names of the squares that can hold a cluster
    point_web: dict[str, str]
    point_square: dict[str, str]
    bridges: tuple[tuple[str, str], ...]
    crossing: dict[tuple[str, str], tuple[tuple[str, str], ...]]  # bridge (both orders) -> bridges it crosses
    octagons: tuple[Octagon, ...]
    sides: tuple[tuple[str, str], ...] = field(default=())

    @property
    def name(self) -> str:
        return self.graph.name

    def web_points(self, web: str) -> tuple[str, ...]:
        return tuple(p for p in self.graph.points if self.point_web[p] == web)

    def web_edges(self, web: str, kind: str = "all") -> list[tuple[str, str]]:
        pool = {"all": self.graph.edges, "bridges": self.bridges, "sides": self.sides}[kind]
        return [e for e in pool if self.point_web[e[0]] == web]


def _square_name(web: str, col: int, row: int) -> str:
    if col >= len(FILES):
        raise BoardError(f"Brain Hanky boards have at most {len(FILES)} columns")
    return f"{web}{FILES[col]}{row + 1}"


def build(size: int = 6, periodic: bool = False, blue_periodic: bool | None = None) -> BrainHankyBoard:
    """Generate the two webs on an N x N bandanna, flat or wrapping at the edges.

    ``blue_periodic`` defaults to ``periodic``; Battle Lines' variation wraps the orange web only.
    On such a board an orange bridge that wraps across the edge crosses two flat blue bridges,
    one along each edge, so a bridge may have two crossings.
    """
    if not 2 <= size <= 25:
        raise BoardError(f"Brain Hanky board size must be 2..25, not {size}")
    n = size
    if blue_periodic is None:
        blue_periodic = periodic
    wraps = {"O": periodic, "B": blue_periodic}
    period = float(n) if (periodic or blue_periodic) else None
    eps = 1e-9

    def on_board(x: float, y: float) -> bool:
        return -eps <= x <= n + eps and -eps <= y <= n + eps

    def wrap(v: float, web: str) -> float:
        return v % n if wraps[web] else v

    squares: dict[str, Square] = {}
    coords: dict[str, tuple[float, float]] = {}
    point_web: dict[str, str] = {}
    point_square: dict[str, str] = {}
    grid: dict[tuple[str, int, int], Square] = {}
    for web in WEBS:
        offset = 0.5 if web == "O" else 0.0
        count = n if (web == "O" or wraps[web]) else n + 1
        for col in range(count):
            for row in range(count):
                cx, cy = col + offset, row + offset
                name = _square_name(web, col, row)
                pts = {}
                for letter, (dx, dy) in COMPASS.items():
                    x, y = cx + dx, cy + dy
                    if wraps[web] or on_board(x, y):
                        p = f"{name}.{letter}"
                        pts[letter] = p
                        coords[p] = (wrap(x, web), wrap(y, web))
                        point_web[p] = web
                        point_square[p] = name
                sq = Square(name, web, col, row, (cx, cy), pts, len(pts) == 4)
                squares[name] = sq
                grid[(web, col, row)] = sq

    sides = []
    for sq in squares.values():
        for a, b in SIDES:
            if a in sq.points and b in sq.points:
                sides.append((sq.points[a], sq.points[b]))
    bridges = []
    for (web, col, row), sq in grid.items():
        count = n if (web == "O" or wraps[web]) else n + 1
        for (dc, dr), (here, there) in (((1, 0), ("e", "w")), ((0, 1), ("n", "s"))):
            c2, r2 = col + dc, row + dr
            if wraps[web]:
                c2, r2 = c2 % n, r2 % n
            elif c2 >= count or r2 >= count:
                continue
            other = grid[(web, c2, r2)]
            if here in sq.points and there in other.points:
                bridges.append((sq.points[here], other.points[there]))

    kind = "periodic" if periodic and blue_periodic else "orange web periodic" if periodic else "plain"
    # Gem spots: the centres of whole squares, orange web first (the order readers report them).
    cells = {sq.name: (float(sq.centre[0]), float(sq.centre[1]))
             for web in WEBS for sq in squares.values() if sq.web == web and len(sq.points) == 4}
    graph = BoardGraph(
        name=f"brain-hanky-{n}" + ("-periodic" if blue_periodic else "-orange-periodic" if periodic else ""),
        points=tuple(coords),
        coords=coords,
        edges=tuple(sides + bridges),
        lines=(),
        description=f"Brain Hanky bandanna, {n}x{n} cells, {kind}: orange and blue webs",
        period=period,
        cells=cells,
        style="brain-hanky",
    )

    # Crossings: bridges of different webs that share their midpoint (taken modulo N when any
    # web wraps, so a bridge split across the edge meets the bridges it crosses on either side).
    def midpoint(a: str, b: str) -> tuple[int, int]:
        ax, ay = coords[a]
        dx, dy = wrapped_delta(coords[a], coords[b], n if wraps[point_web[a]] else None)
        mx, my = ax + dx / 2, ay + dy / 2
        if period:
            mx, my = mx % n, my % n
        return round(mx * 2), round(my * 2)  # midpoints sit on half-integers

    by_mid: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for br in bridges:
        by_mid.setdefault(midpoint(*br), []).append(br)
    crossing: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}
    for group in by_mid.values():
        per_web = {w: [br for br in group if point_web[br[0]] == w] for w in WEBS}
        if any(len(v) > 2 for v in per_web.values()):
            raise BoardError(f"bridges {group} meet at one midpoint: the webs are not offset correctly")
        for w, other in (("O", "B"), ("B", "O")):
            if per_web[w] and per_web[other]:
                for br in per_web[w]:
                    crossing[br] = crossing[(br[1], br[0])] = tuple(per_web[other])

    # Octagons: the eight points of one web round each whole square of the other.
    octagons = []
    for sq in squares.values():
        if not sq.whole:
            continue
        other = "B" if sq.web == "O" else "O"
        ring_period = n if wraps[other] else None
        ring = [p for p, web in point_web.items() if web == other
                and isclose(hypot(*wrapped_delta(sq.centre, coords[p], ring_period)), OCTAGON_RADIUS, abs_tol=1e-6)]
        if len(ring) == 8:
            ring.sort(key=lambda p: atan2(*reversed(wrapped_delta(sq.centre, coords[p], ring_period))))
            octagons.append(Octagon(other, tuple(ring), sq.name))
        elif len(ring) > 8:
            raise BoardError(f"{len(ring)} points round {sq.name}: the geometry is wrong")

    whole = {web: tuple(s.name for s in squares.values() if s.web == web and s.whole) for web in WEBS}
    return BrainHankyBoard(n, periodic, blue_periodic, graph, squares, whole, point_web, point_square,
                           tuple(bridges), crossing, tuple(octagons), tuple(sides))


@lru_cache(maxsize=None)
def brain_hanky_board(size: int = 6, periodic: bool = False, blue_periodic: bool | None = None) -> BrainHankyBoard:
    """The (cached) board; the 4x expanded board is ``(2N, True)``."""
    return build(size, periodic, blue_periodic)
