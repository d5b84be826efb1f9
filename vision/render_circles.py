"""Draw the Thinking In Circles board (board style ``circles``): five circular tracks, each space
showing its symbol, and the tokens on them.

A space is a disc on its track: neutral (plain), white, black, or one of the four shapes (circle,
triangle, square, pentagon) inked inside it. A token is drawn as a thick ring round its space, so
the symbol it stands on stays visible in the picture. The same symbols serve the printed board
(``draw_circles_print``, on white paper) and the screen picture (``render_circles``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import cv2
import numpy as np

from engine.boards import BoardGraph
from engine.boards.circles import CIRCLES, RING_RADIUS, circles_for

from .board_frame import Frame
from .render import DEFAULT_STYLE, _put_centred

BGR = tuple[int, int, int]
_AA = cv2.LINE_AA

INK: BGR = (25, 25, 25)
SPACE_FILL: BGR = (214, 226, 232)  # a shape space: pale, so the shape's ink reads on it
NEUTRAL_FILL: BGR = (150, 150, 150)  # mid grey: apart from the white and the black spaces
WHITE_FILL: BGR = (255, 255, 255)
BLACK_FILL: BGR = (25, 25, 25)
SHAPE_INKS: dict[str, BGR] = {  # each shape its own ink as well as its own outline
    "C": (150, 130, 0),  # circle: teal (a red one looked like the copper of a penny on it)
    "T": (40, 140, 30),  # triangle: green
    "S": (170, 90, 20),  # square: blue
    "P": (130, 40, 130),  # pentagon: purple
}
TOKEN: BGR = (0, 140, 255)  # orange: apart from every symbol's ink
SPACE_R = 0.19  # a space's disc, in track radii (spaces are 0.45 apart round a track of 14)
TOKEN_R = 0.2
UNIT_PX = 100.0  # pixels a track radius by default: a space's symbol about 24 px across


def geometry(board: BoardGraph):
    """The ``CirclesBoard`` drawn as ``board``: each space's symbol."""
    return circles_for(board)


def extent(geo) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = geo.graph.bounds()
    pad = SPACE_R + 0.08
    return (x0 - pad, y0 - pad, x1 + pad, y1 + pad)


def _polygon(c: tuple[int, int], r: float, sides: int) -> np.ndarray:
    """A regular polygon, one vertex straight up."""
    return np.array([(round(c[0] + r * math.sin(2 * math.pi * k / sides)),
                      round(c[1] - r * math.cos(2 * math.pi * k / sides))) for k in range(sides)], np.int32)


def draw_symbol(img: np.ndarray, c: tuple[int, int], symbol: str, r: int) -> None:
    """A space of ``symbol`` at pixel ``c``, its disc ``r`` pixels in radius."""
    line = max(1, r // 8)
    fill = {"W": WHITE_FILL, "B": BLACK_FILL, "N": NEUTRAL_FILL}.get(symbol, SPACE_FILL)
    cv2.circle(img, c, r, fill, -1, _AA)
    cv2.circle(img, c, r, INK, line, _AA)
    ink = SHAPE_INKS.get(symbol)
    if ink is None:
        return
    s = 0.62 * r
    if symbol == "C":
        cv2.circle(img, c, round(s), ink, -1, _AA)
    elif symbol == "S":
        h = round(s * 0.85)
        cv2.rectangle(img, (c[0] - h, c[1] - h), (c[0] + h, c[1] + h), ink, -1, _AA)
    else:
        pts = _polygon((c[0], c[1] + (round(0.12 * s) if symbol == "T" else 0)), s * (1.15 if symbol == "T" else 1.0),
                       3 if symbol == "T" else 5)
        cv2.fillConvexPoly(img, pts, ink, _AA)


def _draw_tracks(img: np.ndarray, frame: Frame, geo, labels: bool, numbers: bool) -> None:
    line = frame.px(0.02, 1)
    for k in range(1, CIRCLES + 1):
        a = math.pi / 2 - 2 * math.pi * (k - 1) / CIRCLES
        centre = (RING_RADIUS * math.cos(a), RING_RADIUS * math.sin(a))
        cv2.circle(img, frame.at(centre), frame.px(1.0), INK, line, _AA)
        if labels:
            _put_centred(img, f"C{k}", frame.at(centre), 0.32 * frame.ppu / 22.0, INK, max(1, frame.px(0.04)))
        for s in range(geo.size):
            spot = geo.spot(k, s)
            draw_symbol(img, frame.at(geo.graph.coords[spot]), geo.symbols[spot], frame.px(SPACE_R, 4))
            if numbers:  # inside the track: the tracks are too close for numbers between them
                t = math.pi / 2 - 2 * math.pi * s / geo.size
                xy = (centre[0] + 0.64 * math.cos(t), centre[1] + 0.64 * math.sin(t))
                _put_centred(img, str(s), frame.at(xy), 0.1 * frame.ppu / 22.0, (80, 80, 80), 1)


def render_circles(board: BoardGraph, position: Mapping[str, Any] | None = None, *, title: str | None = None,
                   highlights: Mapping[str, BGR] | None = None, labels: bool = True,
                   unit_px: float | None = None, **_: Any) -> np.ndarray:
    """The five tracks with their space symbols and ``position``'s tokens as orange rings."""
    geo = geometry(board)
    position = position or {}
    unknown = [s for s in position if s not in board.coords]
    if unknown:
        raise ValueError(f"position names spot(s) {', '.join(unknown)} that board {board.name} does not have")
    ppu = float(unit_px or UNIT_PX)
    frame = Frame.around(extent(geo), ppu, round(0.12 * ppu), title)
    img = frame.canvas(DEFAULT_STYLE.background, title)
    _draw_tracks(img, frame, geo, labels, labels)
    for name, colour in (highlights or {}).items():
        if name in board.coords:
            cv2.circle(img, frame.at(board.coords[name]), frame.px(TOKEN_R + 0.08, 6),
                       tuple(int(v) for v in colour), frame.px(0.04, 2), _AA)
    for name in position:
        c = frame.at(board.coords[name])
        r, band = frame.px(TOKEN_R, 5), frame.px(0.07, 3)
        cv2.circle(img, c, r, TOKEN, band, _AA)
        cv2.circle(img, c, r + band // 2, INK, 1, _AA)
        cv2.circle(img, c, r - band // 2, INK, 1, _AA)
    return img


# A token is a penny (the rulebook's): copper, lying flat on its space, as wide as the space's
# printed disc and a little more, so it hides the symbol under it; 1.5 mm thick on tracks printed
# at 21 mm a track radius (``vision.printable``).
PENNY: BGR = (70, 115, 190)
PENNY_HEIGHT = 0.07


def solids(board: BoardGraph, position: Mapping[str, Any]) -> list[tuple]:
    """Each token of ``position`` as the simulated camera draws it (``vision.sim``): (space,
    centre, "man", BGR colour, radius, height) in track radii: a penny on its space."""
    out = []
    for spot in position:
        if spot not in board.coords:
            raise ValueError(f"position names space {spot!r} that board {board.name} does not have")
        out.append((spot, tuple(float(v) for v in board.coords[spot]), "man", PENNY, TOKEN_R, PENNY_HEIGHT))
    return out


def spot_pixel(board: BoardGraph, spot: str, *, title: str | None = None, unit_px: float | None = None) -> tuple[int, int]:
    """Where ``render_circles`` (same title and unit_px) draws ``spot``."""
    geo = geometry(board)
    if spot not in board.coords:
        raise ValueError(f"board {board.name} has no space {spot!r}")
    ppu = float(unit_px or UNIT_PX)
    return Frame.around(extent(geo), ppu, round(0.12 * ppu), title).at(board.coords[spot])


def draw_circles_print(canvas: np.ndarray, frame: Frame, board: BoardGraph, labels: bool) -> None:
    """The printed board on white: the tracks, every space's symbol, circle names and space numbers."""
    _draw_tracks(canvas, frame, geometry(board), labels, labels)


__all__ = ["PENNY", "PENNY_HEIGHT", "SHAPE_INKS", "TOKEN", "draw_circles_print", "draw_symbol", "extent", "geometry",
           "render_circles", "solids", "spot_pixel", "UNIT_PX", "TOKEN_R"]
