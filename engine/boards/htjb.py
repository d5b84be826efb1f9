"""The HTJB family of boards: subsets of one 7x7 grid of named spots.

Every graph here is built from the same universal board (three concentric squares and the
centre). Points are named like chess squares, files a..g for x = 0..6 and ranks 1..7 for
y = 0..6, so ``d4`` is the centre and ``a1`` the bottom-left corner.

The pieces below (square sides, cross links, corner links, spokes) are combined per graph as
boards.md section 1 describes; lines are listed explicitly because on some graphs a straight run
through the centre is a path pieces travel but not a row that counts (7MM, Saba).
"""

from __future__ import annotations

from .graph import BoardGraph

FILES = "abcdefg"


def _xy(name: str) -> tuple[float, float]:
    return (float(FILES.index(name[0])), float(int(name[1:]) - 1))


# The three squares, each listed corner-to-corner round the ring (8 points each).
OUTER = ("a1", "d1", "g1", "g4", "g7", "d7", "a7", "a4")
MIDDLE = ("b2", "d2", "f2", "f4", "f6", "d6", "b6", "b4")
INNER = ("c3", "d3", "e3", "e4", "e5", "d5", "c5", "c4")


def _ring_edges(ring: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(ring[i], ring[(i + 1) % len(ring)]) for i in range(len(ring))]


def _square_sides(ring: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """The four sides of a square as three-point lines (corner, midpoint, corner)."""
    return [(ring[i], ring[i + 1], ring[(i + 2) % 8]) for i in (0, 2, 4, 6)]


def _chain_edges(*chains: str) -> list[tuple[str, str]]:
    out = []
    for chain in chains:
        pts = chain.split("-")
        out.extend(zip(pts, pts[1:]))
    return out


CROSS_LINES = [("d1", "d2", "d3"), ("d5", "d6", "d7"), ("a4", "b4", "c4"), ("e4", "f4", "g4")]
DIAGONALS = [("a1", "b2", "c3"), ("g1", "f2", "e3"), ("g7", "f6", "e5"), ("a7", "b6", "c5")]
MID_LINKS = _chain_edges("a4-b4", "d1-d2", "g4-f4", "d7-d6")
CORNER_LINKS = _chain_edges("a1-b2", "g1-f2", "g7-f6", "a7-b6")
CENTRE_CROSS = _chain_edges("b4-d4", "d2-d4", "f4-d4", "d6-d4")
CENTRE_DIAGONALS = _chain_edges("b2-d4", "f2-d4", "f6-d4", "b6-d4")

THREE_POINTS = ("a1", "d1", "g1", "a4", "d4", "g4", "a7", "d7", "g7")
THREE_SIDES = _ring_edges(OUTER)
THREE_STAR_CROSS = _chain_edges("d1-d4", "a4-d4", "g4-d4", "d7-d4")
THREE_STAR_DIAGONALS = _chain_edges("a1-d4", "g1-d4", "g7-d4", "a7-d4")
THREE_ROWS = [("a1", "d1", "g1"), ("a4", "d4", "g4"), ("a7", "d7", "g7")]
THREE_COLUMNS = [("a1", "a4", "a7"), ("d1", "d4", "d7"), ("g1", "g4", "g7")]
THREE_DIAGONALS = [("a1", "d4", "g7"), ("g1", "d4", "a7")]


def _graph(name: str, points, edges, lines, description: str) -> BoardGraph:
    points = tuple(points)
    return BoardGraph(
        name=name,
        points=points,
        coords={p: _xy(p) for p in points},
        edges=tuple(edges),
        lines=tuple(tuple(line) for line in lines),
        description=description,
    )


def _cross_edges() -> list[tuple[str, str]]:
    return [e for line in CROSS_LINES for e in zip(line, line[1:])]


def _diagonal_edges() -> list[tuple[str, str]]:
    return [e for line in DIAGONALS for e in zip(line, line[1:])]


def build_all() -> dict[str, BoardGraph]:
    """Build every HTJB board graph (validated as each is built)."""
    squares3 = OUTER + MIDDLE + INNER
    squares2 = OUTER + MIDDLE
    sides3 = _ring_edges(OUTER) + _ring_edges(MIDDLE) + _ring_edges(INNER)
    sides2 = _ring_edges(OUTER) + _ring_edges(MIDDLE)
    lines3 = _square_sides(OUTER) + _square_sides(MIDDLE) + _square_sides(INNER)
    lines2 = _square_sides(OUTER) + _square_sides(MIDDLE)
    boards = [
        _graph("morris9", squares3, sides3 + _cross_edges(), lines3 + CROSS_LINES,
               "three squares joined at their midpoints (Nine Men's Morris, Shax)"),
        _graph("morabaraba", squares3, sides3 + _cross_edges() + _diagonal_edges(),
               lines3 + CROSS_LINES + DIAGONALS,
               "three squares joined at midpoints and corners (Morabaraba, Tresillo, Kunjing)"),
        _graph("morris6", squares2, sides2 + MID_LINKS, lines2,
               "two squares joined at their midpoints (Six and Five Men's Morris, Shax-8)"),
        _graph("morris6x", squares2, sides2 + MID_LINKS + CORNER_LINKS, lines2,
               "two squares joined at midpoints and corners (Vyura and Nyoka families)"),
        _graph("morris7", squares2 + ("d4",), sides2 + MID_LINKS + CENTRE_CROSS, lines2,
               "two squares and the centre, joined by the cross (Seven Men's Morris)"),
        _graph("saba", squares2 + ("d4",), sides2 + MID_LINKS + CORNER_LINKS + CENTRE_CROSS + CENTRE_DIAGONALS,
               lines2, "two squares and the centre star of eight paths (Saba, Sita, Tano)"),
        _graph("three", THREE_POINTS, THREE_SIDES + THREE_STAR_CROSS + THREE_STAR_DIAGONALS,
               THREE_ROWS + THREE_COLUMNS + THREE_DIAGONALS,
               "3x3 board with diagonals (Three Men's Morris, Tapatan, Achi, Tant Fant, Shisima, Sabr)"),
        _graph("three-plain", THREE_POINTS, THREE_SIDES + THREE_STAR_CROSS, THREE_ROWS + THREE_COLUMNS,
               "3x3 board without diagonals (Jare)"),
        _graph("tableaux", squares3 + ("d4",), [], [], "all 25 spots, no paths (Tableaux)"),
    ]
    return {b.name: b for b in boards}


HOME_RANKS = {1: ("a1", "d1", "g1"), 2: ("a7", "d7", "g7")}
