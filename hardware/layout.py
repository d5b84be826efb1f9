"""Which LED lights which spot of the board: the layout map.

A map names, for every spot a piece can stand on, the pixel index (or indices) that light it,
and the three status pixels: ``turn`` (whose move), ``clock`` (time warnings) and ``error`` (an
illegal change). It is a small JSON file the builder keeps beside the board, because wiring
differs between builds: a strip laid in serpentine rows under the board, a small ring round each
point, or an LED matrix.

What a map covers: every *spot* of the board (``BoardGraph.spots``), meaning its points and
any cells off the graph where a piece stands (a Brain Hanky board's gem squares). Maps are made
per board, not per game, so one wired board serves every game played on it: a Brain Hanky map
includes the gem squares even when the game played is gemless, and the extra pixels stay dark.

Maps are laid out from the engine's own coordinates (one geometry source per board):

* ``serpentine_map``: one strip, row by row from the top, each row running the other way to the
  one before (the short way to lay a strip under a board). With ``leds_per_unit`` the strip's
  fixed pitch is honoured and the LEDs between points stay dark.
* ``ring_map``: a ring of N pixels round every spot, rings chained in serpentine order.
* ``matrix_map``: a W x H matrix under the board, each spot lit by its nearest matrix cell.

Status pixels follow the board's pixels on the chain (a short stick or three single pixels at
the board's edge) unless the file says otherwise.

    >>> m = default_map("three")
    >>> m.count, m.points["a7"], m.status["turn"]
    (12, (0,), (9,))
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import engine
from engine.boards import BoardGraph, board as board_named, board_names

FORMAT = "arbiter-led-map"
VERSION = 1
STATUS = ("turn", "clock", "error")
WIRINGS = ("serpentine", "rings", "matrix", "custom")
PIXEL_ORDERS = ("GRB", "RGB", "GRBW", "RGBW", "BRG", "BGR")


class LayoutError(ValueError):
    """A map that does not fit its board (a spot with no pixel, an index past the strip)."""


# ---------------------------------------------------------------------------- spots
@dataclass(frozen=True)
class Spots:
    """Every place on a board that can hold a piece, with its coordinates (board units, y up).

    ``coords`` lists the board's points first, in the board's order, then its cells off the graph
    (``gems``: Brain Hanky's gem squares). ``board`` is the graph, for renderers that draw its lines.
    """

    board: BoardGraph
    coords: dict[str, tuple[float, float]]
    gems: frozenset[str] = frozenset()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.coords)

    @property
    def name(self) -> str:
        return self.board.name

    def extent(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the area to draw: one whole period on a board that wraps."""
        period = getattr(self.board, "period", None)
        if period:
            return (0.0, 0.0, float(period), float(period))
        xs = [c[0] for c in self.coords.values()]
        ys = [c[1] for c in self.coords.values()]
        return (min(xs), min(ys), max(xs), max(ys))


def spots_for(target: Any) -> Spots:
    """The spots of a game (``engine.Game`` or game name) or a board (``BoardGraph`` or name).

    A board gives its points and its cells (a Brain Hanky board's gem squares), so a board's map
    serves all its games; a game gives the board of its rules (``Rules.spots``).
    """
    if isinstance(target, Spots):
        return target
    if isinstance(target, str):
        if target in engine.names():
            target = engine.load(target)
        elif target in board_names():
            target = board_named(target)
        else:
            raise LayoutError(f"{target!r} is neither a game nor a board; games: "
                              f"{', '.join(engine.names())}; boards: {', '.join(board_names())}")
    rules = getattr(target, "rules", None)
    board = target if isinstance(target, BoardGraph) else getattr(target, "board", None)
    if not isinstance(board, BoardGraph):
        raise LayoutError(f"cannot find the spots of {target!r}: give a game, a board or their name")
    names = tuple(rules.spots) if rules is not None else board.spots
    every = board.spot_coords
    coords = {n: tuple(float(v) for v in every[n]) for n in names}
    return Spots(board, coords, frozenset(n for n in names if n in board.cells))  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- the map
def _indices(value: Any, where: str) -> tuple[int, ...]:
    if isinstance(value, bool):
        raise LayoutError(f"{where}: a pixel index must be a whole number, not {value!r}")
    if isinstance(value, int):
        return (value,)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, int) and not isinstance(v, bool)
                                                          for v in value):
        return tuple(value)
    raise LayoutError(f"{where}: give a pixel index or a non-empty list of them, not {value!r}")


@dataclass(frozen=True)
class LayoutMap:
    """Spot name -> pixel indices, status role -> pixel indices, for a strip of ``count`` pixels.

    Indices count from 0 along the data line. A spot may have several pixels (a ring); a pixel
    belongs to one spot or role at most. Indices no spot uses stay dark (a strip's pitch gaps).
    """

    board: str
    count: int
    points: dict[str, tuple[int, ...]]
    status: dict[str, tuple[int, ...]] = field(default_factory=dict)
    wiring: str = "custom"
    pixel_order: str = "GRB"
    description: str = ""

    def __post_init__(self) -> None:
        if self.count < 1:
            raise LayoutError(f"map for {self.board}: the strip must have at least one pixel")
        if self.wiring not in WIRINGS:
            raise LayoutError(f"map for {self.board}: wiring {self.wiring!r} is not one of {', '.join(WIRINGS)}")
        if self.pixel_order not in PIXEL_ORDERS:
            raise LayoutError(f"map for {self.board}: pixel order {self.pixel_order!r} is not one of "
                              f"{', '.join(PIXEL_ORDERS)}")
        unknown = [r for r in self.status if r not in STATUS]
        if unknown:
            raise LayoutError(f"map for {self.board}: unknown status pixel {unknown[0]!r}; "
                              f"status pixels are {', '.join(STATUS)}")
        owner: dict[int, str] = {}
        for label, idx in [(p, i) for p, i in self.points.items()] + \
                          [(f"status {r}", i) for r, i in self.status.items()]:
            for i in idx:
                if not 0 <= i < self.count:
                    raise LayoutError(f"map for {self.board}: {label} uses pixel {i}, but the strip has "
                                      f"pixels 0..{self.count - 1}; raise \"count\" or fix the index")
                if i in owner:
                    raise LayoutError(f"map for {self.board}: pixel {i} is given to both {owner[i]} and {label}")
                owner[i] = label

    # ---------------------------------------------------------------- queries
    def pixels_of(self, name: str) -> tuple[int, ...]:
        """The pixels of spot ``name`` (or of status role ``turn``/``clock``/``error``)."""
        if name in self.points:
            return self.points[name]
        if name in self.status:
            return self.status[name]
        raise LayoutError(f"the LED map for {self.board} has no pixel for {name!r}")

    def name_of(self, index: int) -> str | None:
        """The spot (or ``status:ROLE``) lit by pixel ``index``; None for an unused pixel."""
        for p, idx in self.points.items():
            if index in idx:
                return p
        for r, idx in self.status.items():
            if index in idx:
                return f"status:{r}"
        return None

    def order(self) -> list[tuple[str, tuple[int, ...]]]:
        """Every spot and status role with its pixels, in the order of their first pixel on the strip."""
        items = list(self.points.items()) + [(f"status:{r}", i) for r, i in self.status.items()]
        return sorted(items, key=lambda item: min(item[1]))

    def check_covers(self, spots: Iterable[str]) -> None:
        """Raise LayoutError unless every one of ``spots`` has a pixel (the map fits the game)."""
        missing = [s for s in spots if s not in self.points]
        if missing:
            shown = ", ".join(missing[:8]) + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
            raise LayoutError(f"the LED map for {self.board} has no pixel for {shown}; "
                              f"write a fresh one with `arbiter leds map`")

    # ---------------------------------------------------------------- files
    def to_json(self) -> dict[str, Any]:
        def plain(idx: tuple[int, ...]) -> int | list[int]:
            return idx[0] if len(idx) == 1 else list(idx)

        return {
            "format": FORMAT,
            "version": VERSION,
            "board": self.board,
            "wiring": self.wiring,
            "pixel_order": self.pixel_order,
            "count": self.count,
            "description": self.description,
            "status": {r: plain(i) for r, i in self.status.items()},
            "points": {p: plain(i) for p, i in self.points.items()},
        }

    @classmethod
    def from_json(cls, data: Any, source: str = "map") -> LayoutMap:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise LayoutError(f"{source} is not an LED map (no \"format\": \"{FORMAT}\")")
        if data.get("version") != VERSION:
            raise LayoutError(f"{source}: LED map version {data.get('version')!r} is not {VERSION}")
        for key in ("board", "count", "points"):
            if key not in data:
                raise LayoutError(f"{source}: the LED map has no \"{key}\"")
        count = data["count"]
        if not isinstance(count, int) or isinstance(count, bool):
            raise LayoutError(f"{source}: \"count\" must be a whole number")
        points = data["points"]
        status = data.get("status", {})
        if not isinstance(points, dict) or not isinstance(status, dict):
            raise LayoutError(f"{source}: \"points\" and \"status\" must be objects (name: index)")
        try:
            return cls(
                board=str(data["board"]),
                count=count,
                points={str(p): _indices(v, f"{source}: point {p}") for p, v in points.items()},
                status={str(r): _indices(v, f"{source}: status {r}") for r, v in status.items()},
                wiring=str(data.get("wiring", "custom")),
                pixel_order=str(data.get("pixel_order", "GRB")),
                description=str(data.get("description", "")),
            )
        except LayoutError as exc:
            msg = str(exc)
            raise LayoutError(msg if msg.startswith(source) else f"{source}: {msg}") from None

    def dumps(self) -> str:
        """The map file's text; ``arbiter leds map`` writes it through ``arbiter.files`` (hardware
        may not import arbiter, so it only gives the text)."""
        return json.dumps(self.to_json(), indent=1) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the text straight to ``path``: for tools and tests; the CLI writes atomically."""
        Path(path).write_text(self.dumps())

    @classmethod
    def load(cls, path: str | Path) -> LayoutMap:
        try:
            text = Path(path).read_text()
        except OSError as exc:
            raise LayoutError(f"cannot read LED map {path}: {exc.strerror or exc}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LayoutError(f"{path} is not valid JSON (line {exc.lineno}): {exc.msg}") from None
        return cls.from_json(data, str(path))


# ---------------------------------------------------------------------------- generators
def _rows(coords: Mapping[str, tuple[float, float]], start: str) -> list[list[str]]:
    """Spots grouped into rows of equal y, ordered for a serpentine strip from ``start``."""
    if start not in ("top-left", "top-right", "bottom-left", "bottom-right"):
        raise LayoutError(f"start must be top-left, top-right, bottom-left or bottom-right, not {start!r}")
    by_y: dict[float, list[str]] = {}
    for name, (x, y) in coords.items():
        by_y.setdefault(round(y, 6), []).append(name)
    ys = sorted(by_y, reverse=start.startswith("top"))
    rows = []
    leftwards = start.endswith("right")
    for y in ys:
        row = sorted(by_y[y], key=lambda n: coords[n][0], reverse=leftwards)
        rows.append(row)
        leftwards = not leftwards
    return rows


def _with_status(points: dict[str, tuple[int, ...]], next_free: int, status: bool) -> tuple[dict, int]:
    if not status:
        return {}, next_free
    roles = {r: (next_free + k,) for k, r in enumerate(STATUS)}
    return roles, next_free + len(STATUS)


def serpentine_map(target: Any, *, start: str = "top-left", leds_per_unit: int | None = None,
                   status: bool = True) -> LayoutMap:
    """One strip laid row by row, turning at each row's end.

    Without ``leds_per_unit`` each spot gets the next pixel (a strip cut into pieces joined by
    wires, or single pixels). With it, the strip's pitch is kept: a row of the board is one run
    of ``round(width * leds_per_unit) + 1`` pixels, each spot takes the pixel under it and the
    rest stay dark; two spots under one pixel are an error that asks for a denser strip.
    """
    spots = spots_for(target)
    rows = _rows(spots.coords, start)
    points: dict[str, tuple[int, ...]] = {}
    x0, _, x1, _ = spots.extent()
    base = 0
    for r, row in enumerate(rows):
        if leds_per_unit is None:
            for name in row:
                points[name] = (base,)
                base += 1
            continue
        if leds_per_unit < 1:
            raise LayoutError("leds_per_unit must be at least 1")
        length = round((x1 - x0) * leds_per_unit) + 1
        leftwards = (r % 2 == 1) != start.endswith("right")  # as _rows ordered this row
        taken: dict[int, str] = {}
        for name in row:
            k = round((spots.coords[name][0] - x0) * leds_per_unit)
            k = length - 1 - k if leftwards else k
            if k in taken:
                raise LayoutError(f"{name} and {taken[k]} fall under one LED at {leds_per_unit} LEDs per "
                                  f"board unit; use a denser strip or leave leds_per_unit out")
            taken[k] = name
            points[name] = (base + k,)
        base += length
    status_map, count = _with_status(points, base, status)
    how = f"{leds_per_unit} LEDs per board unit" if leds_per_unit else "one pixel per spot"
    return LayoutMap(spots.name, count, points, status_map, "serpentine",
                     description=f"one strip in serpentine rows from the {start}, {how}; "
                                 f"status pixels after the board")


def ring_map(target: Any, *, ring_size: int = 8, start: str = "top-left", status: bool = True) -> LayoutMap:
    """A ring of ``ring_size`` pixels round every spot, the rings chained in serpentine order."""
    if ring_size < 1:
        raise LayoutError("a ring needs at least one pixel")
    spots = spots_for(target)
    order = [n for row in _rows(spots.coords, start) for n in row]
    points = {n: tuple(range(k * ring_size, (k + 1) * ring_size)) for k, n in enumerate(order)}
    status_map, count = _with_status(points, len(order) * ring_size, status)
    return LayoutMap(spots.name, count, points, status_map, "rings",
                     description=f"a {ring_size}-pixel ring round every spot, chained row by row from the "
                                 f"{start}; status pixels after the last ring")


def matrix_size_needed(target: Any, limit: int = 64) -> tuple[int, int]:
    """The smallest square matrix (n, n) on which every spot gets a cell of its own."""
    for n in range(2, limit + 1):
        try:
            matrix_map(target, width=n, height=n)
            return n, n
        except LayoutError:
            continue
    raise LayoutError(f"no matrix up to {limit}x{limit} gives every spot of {spots_for(target).name} a cell")


def matrix_map(target: Any, *, width: int, height: int, serpentine: bool = True, status: bool = True) -> LayoutMap:
    """A ``width`` x ``height`` LED matrix under the board, wired from its top-left corner.

    The board's extent is stretched over the matrix; each spot takes its nearest cell. A
    ``serpentine`` matrix (the usual flexible panel) runs every other row backwards.
    """
    if width < 2 or height < 2:
        raise LayoutError("a matrix needs at least 2 x 2 cells")
    spots = spots_for(target)
    x0, y0, x1, y1 = spots.extent()
    taken: dict[tuple[int, int], str] = {}
    points: dict[str, tuple[int, ...]] = {}
    for name, (x, y) in spots.coords.items():
        col = round((x - x0) / ((x1 - x0) or 1) * (width - 1))
        row = round((y1 - y) / ((y1 - y0) or 1) * (height - 1))
        if (col, row) in taken:
            raise LayoutError(f"{name} and {taken[(col, row)]} fall on one cell of a {width}x{height} "
                              f"matrix; use a larger one")
        taken[(col, row)] = name
        index = row * width + (width - 1 - col if serpentine and row % 2 else col)
        points[name] = (index,)
    status_map, count = _with_status(points, width * height, status)
    return LayoutMap(spots.name, count, points, status_map, "matrix",
                     description=f"a {width}x{height} {'serpentine ' if serpentine else ''}matrix from its "
                                 f"top-left corner; status pixels chained after it")


def default_map(target: Any) -> LayoutMap:
    """The map used when none is given: one pixel per spot in serpentine rows, then status pixels."""
    return serpentine_map(target)


def load_map(path: str | Path | None, target: Any) -> LayoutMap:
    """The map in ``path`` checked against ``target`` (a game or board), or its default map.

    This is what `arbiter play` and the referee use: a map for another board, or one that misses
    a spot of the game, is refused with a message that says so.
    """
    spots = spots_for(target)
    if path is None:
        return default_map(spots)
    layout = LayoutMap.load(path)
    if layout.board != spots.name:
        raise LayoutError(f"{path} is a map for board {layout.board}, but {spots.name} is being played")
    layout.check_covers(spots.names)
    return layout


def nearest_spacing(spots: Spots) -> float:
    """The smallest distance between two spots (board units): how crowded the board is to draw."""
    pts = np.array(list(spots.coords.values()), dtype=float)
    if len(pts) < 2:
        return 1.0
    d = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
    d[d <= 1e-9] = np.inf
    return float(d.min())
