"""The two-grid gem game's boards (boards.md section 3): two square grids, one offset into the other.

A red grid of n x n points and a blue grid of n x n points shifted half a step right and up, so
every blue point sits in the middle of a red square and the other way round. Red gems stand and
move only on red points, along red lines; blue gems likewise on blue. n = 6 is the 11-gem board,
n = 8 the 15-gem board (2n - 1 gems each).

Names: ``r:<file><rank>`` and ``b:<file><rank>`` from the grid indices (``r:a1`` is red (0, 0),
``b:a1`` blue (0, 0), which lies up and right of ``r:a1``).

Coordinates are boards.md's times two: red (2i, 2j), blue (2i + 1, 2j + 1). The scale is a free
choice (boards.md: "the printed size is a scale factor"); at this one a diagonal step between the
grids is 1.41 units and a step along a grid 2, so the renderer's and the camera reader's sizes,
made for boards whose nearest points are one unit apart (an HTJB man is 0.34 units in radius),
fit without sizes of their own. Its style, ``twin-grids``, is lines and points like an HTJB board's,
each grid in its side's colour (``vision.twin_look``).

The board graph holds both grids' lines as edges (a red edge joins two red points, a blue edge
two blue points); it has no lines that count (nothing is won by a row here). The rules
(``engine.rules.twin_grids``) build their own tables from ``TwinGeometry``: for each point, the
run of points along its grid in each direction with the two opposite-grid points each step
crosses between, and the diagonal neighbours a capture looks at.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .graph import BoardError, BoardGraph

FILES = "abcdefghijklmnopqrstuvwxyz"
RED, BLUE = "r", "b"
SIZES = {11: 6, 15: 8}  # gems each -> points per side of each grid (boards.md section 3)
SCALE = 2.0  # board units per step along a grid (boards.md's coordinates times two)


def point_name(grid: str, i: int, j: int) -> str:
    """``r:a1`` for red (0, 0); ``b:c2`` for blue (2, 1)."""
    return f"{grid}:{FILES[i]}{j + 1}"


def point_xy(grid: str, i: int, j: int) -> tuple[float, float]:
    """Board coordinates: red (i, j) at (2i, 2j), blue (i, j) at (2i + 1, 2j + 1)."""
    off = 0.0 if grid == RED else 0.5
    return ((i + off) * SCALE, (j + off) * SCALE)


@dataclass(frozen=True)
class TwinGeometry:
    """A twin-grid board of ``n`` points a side per grid: its graph and the rules' raw tables.

    Point indices are the graph's: red (i, j) is ``j * n + i``, blue (i, j) is ``n * n + j * n + i``.
    """

    n: int
    graph: BoardGraph

    @property
    def count(self) -> int:
        return 2 * self.n * self.n

    def index(self, grid: str, i: int, j: int) -> int | None:
        """The index of grid point (i, j), or None off the grid."""
        n = self.n
        if not (0 <= i < n and 0 <= j < n):
            return None
        return (0 if grid == RED else n * n) + j * n + i

    def grid_of(self, idx: int) -> tuple[str, int, int]:
        n = self.n
        grid = RED if idx < n * n else BLUE
        k = idx % (n * n)
        return grid, k % n, k // n

    def crossed(self, grid: str, i: int, j: int, di: int, dj: int) -> tuple[int | None, int | None]:
        """The two opposite-grid points at the ends of the segment that the step from (i, j) by
        (di, dj) on ``grid`` crosses (None where that end is off the board).

        A red step right, (i, j) to (i + 1, j), crosses the blue column at x = i + 0.5 between blue
        (i, j - 1) and (i, j); a red step up crosses the blue row at y = j + 0.5 between blue
        (i - 1, j) and (i, j). A blue step right, (i, j) to (i + 1, j), crosses the red column
        x = i + 1 between red (i + 1, j) and (i + 1, j + 1); a blue step up crosses the red row
        y = j + 1 between red (i, j + 1) and (i + 1, j + 1). Steps left and down cross what the
        step back the other way crosses.
        """
        if di < 0 or dj < 0:
            return self.crossed(grid, i + di, j + dj, -di, -dj)
        if grid == RED:
            other = BLUE
            ends = ((i, j - 1), (i, j)) if di else ((i - 1, j), (i, j))
        else:
            other = RED
            ends = ((i + 1, j), (i + 1, j + 1)) if di else ((i, j + 1), (i + 1, j + 1))
        return tuple(self.index(other, a, b) for a, b in ends)  # type: ignore[return-value]

    def diagonal(self, grid: str, i: int, j: int, si: int, sj: int) -> tuple[int | None, int | None]:
        """Along the diagonal (si, sj) from grid point (i, j): the opposite-grid point next to it
        and the same-grid point beyond that (None off the board). Red (i, j)'s up-right neighbour
        is blue (i, j); a blue (i, j)'s is red (i + 1, j + 1)."""
        if grid == RED:
            nb = self.index(BLUE, i + (0 if si > 0 else -1), j + (0 if sj > 0 else -1))
        else:
            nb = self.index(RED, i + (1 if si > 0 else 0), j + (1 if sj > 0 else 0))
        return nb, self.index(grid, i + si, j + sj)


def _build(n: int) -> BoardGraph:
    if n < 2 or n > len(FILES):
        raise BoardError(f"a twin-grid board needs 2 to {len(FILES)} points a side, not {n}")
    points, coords, edges = [], {}, []
    for grid in (RED, BLUE):
        for j in range(n):
            for i in range(n):
                name = point_name(grid, i, j)
                points.append(name)
                coords[name] = point_xy(grid, i, j)
        for j in range(n):
            for i in range(n):
                if i + 1 < n:
                    edges.append((point_name(grid, i, j), point_name(grid, i + 1, j)))
                if j + 1 < n:
                    edges.append((point_name(grid, i, j), point_name(grid, i, j + 1)))
    gems = 2 * n - 1
    return BoardGraph(
        f"twin-grids-{n}", tuple(points), coords, tuple(edges), (),
        description=f"two offset {n}x{n} grids, red and blue ({gems} gems each)", style="twin-grids")


@lru_cache(maxsize=None)
def twin_grids_board(n: int) -> TwinGeometry:
    """The twin-grid board with ``n`` points a side per grid (built once per size)."""
    return TwinGeometry(n, _build(n))


def start_points(n: int) -> dict[str, tuple[str, ...]]:
    """Each side's set-up (boards.md section 3): red fills its column i = 0 and row j = 0, the two
    edges the blue grid does not surround; blue its column i = n - 1 and row j = n - 1."""
    red = [point_name(RED, 0, j) for j in range(n)] + [point_name(RED, i, 0) for i in range(1, n)]
    blue = [point_name(BLUE, n - 1, j) for j in range(n)] + [point_name(BLUE, i, n - 1) for i in range(n - 1)]
    return {RED: tuple(red), BLUE: tuple(blue)}


__all__ = ["BLUE", "RED", "SCALE", "SIZES", "TwinGeometry", "point_name", "point_xy", "start_points",
           "twin_grids_board"]
