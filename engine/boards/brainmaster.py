"""The Brainmaster board (boards.md section 5): guess rows of code holes with indicator holes beside.

Each guess row has ``pegs`` large code holes in a line and as many small indicator holes in a
block of two columns beside them; the rows run up the board from the code breaker's end, and the
hidden code row sits beyond the last one, under the code cover, at the code maker's end.

Names: the code holes of row 3 are ``r3a``, ``r3b``, ``r3c``, ``r3d`` (left to right, as the
breaker sees them); its indicator holes ``r3k1`` .. ``r3k4`` (left column top to bottom, then the
right one). The code row's holes are ``ca`` .. ``cd``: they are kept apart from the board's spots
(``BrainmasterBoard.code_holes``), because under the cover no reader sees them during play; a
printed board and a camera that reads the code before the cover goes on find them there.

Units: the rows' pitch (15 mm printed). Row 1 is at y = 0, nearest the breaker; x grows to the
right. The code holes of a row lie ``CODE_PITCH`` apart, wider than the rows: a camera's hand check
watches the paper between the holes, and at a slant a code peg's domed head leans over the paper
beside it (docs/brainmaster.md, "The camera"). The board is the project's own (boards.md section 5
fixes the holes, not their spacing), so the gaps are made wide enough for that paper to stay clear.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .graph import BoardGraph

CODE_PITCH = 1.5  # code holes in a row sit this far apart (in rows' pitches)
KEY_PITCH = 0.36  # indicator holes sit this far apart (small pegs)
KEY_GAP = 1.2  # from the last code hole to the indicator block's first column


@dataclass(frozen=True)
class BrainmasterBoard:
    """A Brainmaster board: its graph (every code and indicator hole, no edges) and the code row."""

    rows: int
    pegs: int
    graph: BoardGraph
    code_holes: dict[str, tuple[float, float]]  # the hidden code row: name -> centre

    def code_spot(self, row: int, hole: int) -> str:
        """Row ``row`` (1-based), code hole ``hole`` (0-based)."""
        return f"r{row}{chr(97 + hole)}"

    def key_spot(self, row: int, hole: int) -> str:
        """Row ``row`` (1-based), indicator hole ``hole`` (0-based)."""
        return f"r{row}k{hole + 1}"

    def row_spots(self, row: int) -> tuple[str, ...]:
        return tuple(self.code_spot(row, i) for i in range(self.pegs))

    def key_spots(self, row: int) -> tuple[str, ...]:
        return tuple(self.key_spot(row, i) for i in range(self.pegs))


def _key_xy(pegs: int, row: int, hole: int) -> tuple[float, float]:
    """Indicator hole ``hole`` of ``row``: two columns, holes filling each column top to bottom."""
    per_col = (pegs + 1) // 2
    col, k = divmod(hole, per_col)
    x = (pegs - 1) * CODE_PITCH + KEY_GAP + col * KEY_PITCH
    y = (row - 1) + (k - (per_col - 1) / 2) * KEY_PITCH
    return (round(x, 6), round(y, 6))


@lru_cache(maxsize=None)
def brainmaster_board(rows: int = 10, pegs: int = 4) -> BrainmasterBoard:
    """The board with ``rows`` guess rows of ``pegs`` code holes (8-12 rows and 4 pegs in play)."""
    if not 1 <= rows <= 20 or not 2 <= pegs <= 6:
        raise ValueError(f"a Brainmaster board has 1-20 rows of 2-6 holes, not {rows} of {pegs}")
    points: list[str] = []
    coords: dict[str, tuple[float, float]] = {}
    for row in range(1, rows + 1):
        for i in range(pegs):
            name = f"r{row}{chr(97 + i)}"
            points.append(name)
            coords[name] = (round(i * CODE_PITCH, 6), float(row - 1))
        for i in range(pegs):
            name = f"r{row}k{i + 1}"
            points.append(name)
            coords[name] = _key_xy(pegs, row, i)
    code_holes = {f"c{chr(97 + i)}": (round(i * CODE_PITCH, 6), float(rows) + 0.4) for i in range(pegs)}
    graph = BoardGraph(
        name=f"brainmaster-{rows}x{pegs}", points=tuple(points), coords=coords, edges=(), lines=(),
        description=f"{rows} guess rows of {pegs} code holes, each with {pegs} indicator holes, and a covered "
                    f"code row", style="brainmaster")
    return BrainmasterBoard(rows, pegs, graph, code_holes)


def brainmaster_for(graph: BoardGraph) -> BrainmasterBoard:
    """The ``BrainmasterBoard`` whose graph is ``graph`` (rows and pegs read off its name): what a
    picture or a print of the graph needs beyond it (the code row). ValueError for another board."""
    try:
        rows, pegs = (int(v) for v in graph.name.removeprefix("brainmaster-").split("x"))
        geo = brainmaster_board(rows, pegs)
    except ValueError:
        raise ValueError(f"{graph.name} is not a Brainmaster board (brainmaster-<rows>x<pegs>)") from None
    if geo.graph.name != graph.name:
        raise ValueError(f"{graph.name} is not a Brainmaster board")
    return geo


__all__ = ["CODE_PITCH", "KEY_GAP", "KEY_PITCH", "BrainmasterBoard", "brainmaster_board", "brainmaster_for"]
