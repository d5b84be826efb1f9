"""Which sensor cell sits under which spot of the board: the sensor map.

A sensor board reports cells of its matrix by number (row * columns + column). The map says
which spot of the board (a point, or a Brain Hanky gem square) each cell is under. It is a
small JSON file whose ``grid`` is a picture of the matrix, one list per row, ``null`` where a
cell has no sensor::

    {"format": "arbiter-sensor-map", "version": 1, "board": "three", "rows": 3, "cols": 3,
     "grid": [["a3", "b3", "c3"],
              ["a2", "b2", "c2"],
              ["a1", "b1", "c1"]]}

A map is made per *board*, so one sensor board serves every game played on it. One is shipped
for every board the engine has (``firmware_bridge/maps/BOARD.json``), laid out as a builder
would wire it:

- lines-and-points boards (the mill family, the 3x3 boards): the matrix follows the board's
  own rows and columns (row 0 is the top row, column 0 the left), so the sensor under ``a1`` is
  on the bottom row line and the left column line. Crossings with no point stay empty.
- Brain Hanky boards have hundreds of spots on no square grid: 16 columns (one 16-channel
  multiplexer per row of the matrix), spots in reading order (top to bottom, left to right).

``load_map`` checks a map against its board and says exactly what is wrong (a spot missing, a
spot twice, a name the board does not have, a grid of the wrong size) and what to do.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from engine.boards import BoardGraph, board as board_named, board_names

__all__ = ["FORMAT", "SensorMap", "SensorMapError", "default_map", "load_map", "shipped_map"]

FORMAT = "arbiter-sensor-map"
VERSION = 1
MUX_COLUMNS = 16


class SensorMapError(ValueError):
    """A sensor map that does not fit its board or its sensor board; the message says what to do."""


@dataclass(frozen=True)
class SensorMap:
    """``cells``: spot -> cell number (row * cols + col) for every spot of ``board``."""

    board: str
    rows: int
    cols: int
    cells: dict[str, int]

    @property
    def count(self) -> int:
        return self.rows * self.cols

    def spot_of(self) -> dict[int, str]:
        """Cell number -> spot."""
        return {c: s for s, c in self.cells.items()}

    def grid(self) -> list[list[str | None]]:
        rows: list[list[str | None]] = [[None] * self.cols for _ in range(self.rows)]
        for spot, cell in self.cells.items():
            rows[cell // self.cols][cell % self.cols] = spot
        return rows

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "board": self.board, "rows": self.rows, "cols": self.cols,
                "grid": self.grid()}

    def dumps(self) -> str:
        """The map as JSON, one matrix row per line (easy to read and to edit)."""
        rows = ",\n    ".join(json.dumps(r) for r in self.grid())
        head = {k: v for k, v in self.to_json().items() if k != "grid"}
        return json.dumps(head)[:-1] + ',\n  "grid": [\n    ' + rows + "\n  ]\n}\n"

    def check_device(self, rows: int, cols: int) -> None:
        """Refuse a sensor board whose matrix is not the one this map describes."""
        if (rows, cols) != (self.rows, self.cols):
            raise SensorMapError(f"the sensor board has a {rows}x{cols} matrix, but the map for {self.board} is "
                                 f"{self.rows}x{self.cols}: flash the board with `arbiter sensor-firmware {self.board}` "
                                 f"or give the map that fits it with --sensor-map")


def _spots(board: BoardGraph) -> dict[str, tuple[float, float]]:
    """Every spot of a board with its coordinates (points, then Brain Hanky gem squares)."""
    from engine.boards import brain_hanky_for

    out = {p: board.coords[p] for p in board.points}
    out.update(board.cells)
    hboard = brain_hanky_for(board.name)
    if hboard is not None:
        for name in tuple(hboard.whole_squares["O"]) + tuple(hboard.whole_squares["B"]):
            out.setdefault(name, tuple(float(v) for v in hboard.squares[name].centre))
    return out


def default_map(board: BoardGraph | str) -> SensorMap:
    """The map a builder would wire for ``board`` (see the module notes)."""
    b = board_named(board) if isinstance(board, str) else board
    spots = _spots(b)
    xs = sorted({round(x, 6) for x, _ in spots.values()})
    ys = sorted({round(y, 6) for _, y in spots.values()}, reverse=True)
    if b.style == "htjb" and len(xs) * len(ys) <= 255:
        cells = {s: ys.index(round(y, 6)) * len(xs) + xs.index(round(x, 6)) for s, (x, y) in spots.items()}
        return SensorMap(b.name, len(ys), len(xs), cells)
    order = sorted(spots, key=lambda s: (-round(spots[s][1], 6), round(spots[s][0], 6), s))
    rows = -(-len(order) // MUX_COLUMNS)
    return SensorMap(b.name, rows, MUX_COLUMNS, {s: i for i, s in enumerate(order)})


def _folder():
    return resources.files("firmware_bridge") / "maps"


def shipped_map(board: BoardGraph | str) -> SensorMap:
    """The map shipped with arbiter for ``board``, checked."""
    name = board if isinstance(board, str) else board.name
    path = _folder() / f"{name}.json"
    if not path.is_file():
        raise SensorMapError(f"no sensor map is shipped for the {name} board; write one with "
                             f"`arbiter sensor-firmware {name} --out DIR` and edit it")
    return parse_map(json.loads(path.read_text()), name, where=f"the shipped map {name}.json")


def load_map(path: str | Path | None, board: BoardGraph | str) -> SensorMap:
    """The map in ``path`` (None: the shipped one) for ``board``; SensorMapError says what is wrong."""
    name = board if isinstance(board, str) else board.name
    if path is None:
        return shipped_map(name)
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise SensorMapError(f"cannot read the sensor map {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SensorMapError(f"the sensor map {path} is not JSON ({exc}); fix it, or start again from "
                             f"`arbiter sensor-firmware {name} --out DIR`") from None
    return parse_map(data, name, where=str(path))


def parse_map(data: Any, board: str, where: str = "the sensor map") -> SensorMap:
    """Check a map's JSON against ``board`` (a board name)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SensorMapError(f"{where} is not a sensor map (it needs \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise SensorMapError(f"{where} is a version {data.get('version')} sensor map; this arbiter reads "
                             f"version {VERSION}")
    if data.get("board") != board:
        raise SensorMapError(f"{where} is for the {data.get('board')} board, but this game is played on {board}: "
                             f"give the map for {board}")
    if board not in board_names():
        raise SensorMapError(f"{where}: unknown board {board!r}")
    rows, cols, grid = data.get("rows"), data.get("cols"), data.get("grid")
    if not (isinstance(rows, int) and isinstance(cols, int) and 1 <= rows <= 255 and 1 <= cols <= 255):
        raise SensorMapError(f"{where}: rows and cols are whole numbers from 1 to 255, not {rows!r} and {cols!r}")
    if not isinstance(grid, list) or len(grid) != rows:
        raise SensorMapError(f"{where}: the grid has {len(grid) if isinstance(grid, list) else 'no'} rows, "
                             f"and \"rows\" says {rows}")
    spots = _spots(board_named(board))
    cells: dict[str, int] = {}
    unknown: list[str] = []
    for r, row in enumerate(grid):
        if not isinstance(row, list) or len(row) != cols:
            n = len(row) if isinstance(row, list) else "not a list of"
            raise SensorMapError(f"{where}: grid row {r} has {n} cells, and \"cols\" says {cols}")
        for c, spot in enumerate(row):
            if spot is None:
                continue
            if not isinstance(spot, str) or spot not in spots:
                unknown.append(f"{spot!r} (row {r}, column {c})")
                continue
            if spot in cells:
                first = cells[spot]
                raise SensorMapError(f"{where}: {spot} is under two cells, row {first // cols} column {first % cols} "
                                     f"and row {r} column {c}; each spot has one sensor")
            cells[spot] = r * cols + c
    if unknown:
        raise SensorMapError(f"{where}: the {board} board has no spot {', '.join(unknown[:5])}"
                             f"{' ...' if len(unknown) > 5 else ''}; spots are named as in the game's notation")
    missing = [s for s in spots if s not in cells]
    if missing:
        raise SensorMapError(f"{where}: no cell for {', '.join(missing[:8])}{' ...' if len(missing) > 8 else ''} "
                             f"({len(missing)} spot{'s' if len(missing) > 1 else ''} of {board} without a sensor); "
                             f"every spot needs one")
    return SensorMap(board, rows, cols, cells)


def write_shipped(folder: Path | None = None) -> list[Path]:
    """Write the default map of every board (how the shipped files were made)."""
    out = Path(folder) if folder is not None else Path(__file__).parent / "maps"
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in board_names():
        path = out / f"{name}.json"
        path.write_text(default_map(name).dumps())
        written.append(path)
    return written


if __name__ == "__main__":  # python -m firmware_bridge.maps: write the shipped maps again
    for p in write_shipped():
        print(p)
