"""Draw a Brainmaster board (board style ``brainmaster``): guess rows of code holes, indicator holes
beside them, and the code row under its cover at the far end.

The same drawing serves the screen picture (``render_pegs``: a cream tray, pegs in their colours)
and the printed board (``draw_pegs_print``: white paper, every hole as an inked ring where a peg
goes, the code row's holes printed too, so a camera can read the code before the cover goes on).

Pieces (``engine.rules.code_pegs``): kind ``code`` with owner 3.. the code colours (R B G Y O P C M),
kind ``key`` with owner 1 black and 2 white. Sizes are in code-hole pitches (the board's unit).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import cv2
import numpy as np

from engine.boards import BoardGraph
from engine.boards.brainmaster import brainmaster_for

from .board_frame import Frame
from .render import DEFAULT_STYLE, _owner_and_kind, _put_centred

BGR = tuple[int, int, int]
_AA = cv2.LINE_AA
_FONT = cv2.FONT_HERSHEY_SIMPLEX

CODE_PEG_COLOURS: dict[int, BGR] = {  # Piece.owner -> BGR, in code_pegs.LETTERS order from 3
    3: (40, 40, 215),  # red
    4: (190, 90, 20),  # blue
    5: (60, 165, 40),  # green
    6: (30, 215, 245),  # yellow
    7: (20, 135, 250),  # orange
    8: (150, 45, 125),  # purple
    9: (215, 200, 40),  # cyan
    10: (190, 40, 215),  # magenta
}
KEY_PEG_COLOURS: dict[int, BGR] = {1: (22, 22, 22), 2: (245, 245, 245)}  # black, white
TRAY: BGR = (196, 212, 222)  # the board's plastic, a pale cream
HOLE: BGR = (70, 74, 80)
COVER: BGR = (110, 112, 118)
INK: BGR = (20, 20, 20)

CODE_PEG_R = 0.36  # a code peg's head, in hole pitches
CODE_HOLE_R = 0.13
KEY_PEG_R = 0.14
KEY_HOLE_R = 0.05
# The printed indicator hole's inside: a mid blue, with no dot. The black and the white pegs are
# both grey, so the empty hole differs from either in colour, not only in brightness: in a bright
# frame the paper, a white peg and a light grey fill all clip to white together, while the blue's
# red and green stay low. (A light grey fill read white pegs as empty holes in bright simulated
# frames; on white paper with a dot, also empty holes in a code peg's shadow as black pegs.)
KEY_HOLE_FILL: BGR = (235, 150, 40)
KEY_HOLE_FILL_R = 0.13  # to the ring: a fit a little off lands on the fill or the ring, never on white paper
ROW_HALF = 0.48  # half a row's height: the cover and the tray reach this far round a row
# Plain paper beside the holes, left of the first column and right of the indicator block (where
# the row numbers stand, ``LABEL_GAP`` beyond it): the play area the camera watches for a hand
# reaches this far beyond the holes (``vision.markers``), so a hand coming over the first column
# from the side crosses paper that no leaning peg head covers before it reaches a hole. (With
# the code holes' wider pitch, the 10-row board still prints on one A4 sheet: 188 mm wide.)
SIDE_PAPER = (1.1, 0.85)
LABEL_GAP = 0.5


def geometry(board: BoardGraph):
    """The ``BrainmasterBoard`` drawn as ``board``: its code row lies off the graph."""
    return brainmaster_for(board)


def extent(geo) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of everything drawn: the guess rows, the indicator block and the code row."""
    xs = [x for x, _ in geo.graph.coords.values()]
    top = max(y for _, y in geo.code_holes.values())
    return (min(xs) - SIDE_PAPER[0] - 0.1, -ROW_HALF, max(xs) + SIDE_PAPER[1] + 0.1, top + ROW_HALF)


def label_x(geo) -> float:
    """Where the row numbers stand: right of the indicator block."""
    return max(x for x, _ in geo.graph.coords.values()) + LABEL_GAP


def _lighter(colour: BGR, by: int) -> BGR:
    return tuple(int(v) for v in np.clip(np.array(colour) + by, 0, 255))


def _draw_peg(img: np.ndarray, frame: Frame, xy, piece: Any) -> None:
    owner, kind = _owner_and_kind(piece)
    c = frame.at(xy)
    if kind == "key":
        colour = KEY_PEG_COLOURS.get(owner)
        r = frame.px(KEY_PEG_R, 3)
    else:
        colour = CODE_PEG_COLOURS.get(owner)
        r = frame.px(CODE_PEG_R, 4)
    if colour is None:
        raise ValueError(f"no Brainmaster peg of colour {owner} and kind {kind}")
    cv2.circle(img, c, r, colour, -1, _AA)
    cv2.circle(img, c, r, INK, max(1, r // 9), _AA)
    if kind != "key":  # a highlight on the dome: a peg, not a painted disc
        hl = (c[0] - round(0.35 * r), c[1] - round(0.35 * r))
        cv2.circle(img, hl, max(2, r // 4), _lighter(colour, 70), -1, _AA)


# How far a peg's head stands above the board, in hole pitches (the simulated camera's solids
# and the reader's parallax, ``vision.families.pegs_in_holes``): a code peg's head about 4.5 mm
# and an indicator peg's about 2 mm above a board printed at 15 mm a pitch.
CODE_PEG_HEIGHT = 0.3
KEY_PEG_HEIGHT = 0.14


def solids(board: BoardGraph, position: Mapping[str, Any]) -> list[tuple]:
    """Each peg of ``position`` as the simulated camera draws it (``vision.sim``): (spot, centre,
    "peg", BGR colour, head radius, height), in board units, a code peg's head as wide as the
    printed ring round its hole, an indicator peg's as its small one."""
    out = []
    for spot, piece in position.items():
        if spot not in board.coords:
            raise ValueError(f"position names hole {spot!r} that board {board.name} does not have")
        owner, kind = _owner_and_kind(piece)
        key = kind == "key"
        colour = (KEY_PEG_COLOURS if key else CODE_PEG_COLOURS).get(owner)
        if colour is None:
            raise ValueError(f"no Brainmaster peg of colour {owner} and kind {kind}")
        xy = tuple(float(v) for v in board.coords[spot])
        out.append((spot, xy, "peg", colour, KEY_PEG_R if key else CODE_PEG_R,
                    KEY_PEG_HEIGHT if key else CODE_PEG_HEIGHT))
    return out


def _holes(geo):
    """(name, xy, is_code_hole) for every hole, the code row's included."""
    for name in geo.graph.points:
        yield name, geo.graph.coords[name], "k" not in name[1:]
    for name, xy in geo.code_holes.items():
        yield name, xy, True


def _row_labels(img: np.ndarray, frame: Frame, geo, colour: BGR, scale: float) -> None:
    for row in range(1, geo.rows + 1):
        _put_centred(img, str(row), frame.at((label_x(geo), row - 1)), scale, colour, 1)


def render_pegs(board: BoardGraph, position: Mapping[str, Any] | None = None, *, title: str | None = None,
                highlights: Mapping[str, BGR] | None = None, labels: bool = True,
                unit_px: float | None = None, **_: Any) -> np.ndarray:
    """The board with ``position`` (spot -> Piece) on it: code pegs in their colours, indicator
    pegs black and white in their small holes, the code row covered (it is hidden in play)."""
    geo = geometry(board)
    position = position or {}
    unknown = [s for s in position if s not in board.coords]
    if unknown:
        raise ValueError(f"position names spot(s) {', '.join(unknown)} that board {board.name} does not have")
    ppu = float(unit_px or 64.0)
    frame = Frame.around(extent(geo), ppu, round(0.3 * ppu), title)
    img = frame.canvas(DEFAULT_STYLE.background, title)
    x0, y0, x1, y1 = extent(geo)
    x1 = label_x(geo) - 0.3  # the row numbers stand on the table, right of the tray
    cv2.rectangle(img, frame.at((x0 + 0.05, y1 - 0.02)), frame.at((x1 - 0.05, y0 + 0.02)), TRAY, -1, _AA)
    cv2.rectangle(img, frame.at((x0 + 0.05, y1 - 0.02)), frame.at((x1 - 0.05, y0 + 0.02)), INK, 2, _AA)
    line_y = geo.rows - 1 + ROW_HALF + 0.08  # between the last guess row and the code row
    cv2.line(img, frame.at((x0 + 0.05, line_y)), frame.at((x1 - 0.05, line_y)), INK, 2, _AA)
    for name, xy, code in _holes(geo):
        cv2.circle(img, frame.at(xy), frame.px(CODE_HOLE_R if code else KEY_HOLE_R, 2), HOLE, -1, _AA)
    for name, colour in (highlights or {}).items():
        if name in board.coords:
            r = frame.px((CODE_PEG_R if "k" not in name[1:] else KEY_PEG_R) + 0.06, 5)
            cv2.circle(img, frame.at(board.coords[name]), r, tuple(int(v) for v in colour), 3, _AA)
    for name, piece in position.items():
        _draw_peg(img, frame, board.coords[name], piece)
    # The cover over the code row: the code is the maker's secret until the code ends.
    cy = next(iter(geo.code_holes.values()))[1]
    last = max(x for x, _ in geo.code_holes.values())
    a, b = frame.at((-0.45, cy + 0.42)), frame.at((last + 0.45, cy - 0.42))
    cv2.rectangle(img, a, b, COVER, -1, _AA)
    cv2.rectangle(img, a, b, INK, 2, _AA)
    _put_centred(img, "code (covered)", ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), 0.012 * ppu,
                 (235, 235, 235), 1 if ppu < 80 else 2)
    if labels:
        _row_labels(img, frame, geo, INK, 0.008 * ppu)
    return img


def spot_pixel(board: BoardGraph, spot: str, *, title: str | None = None, unit_px: float | None = None) -> tuple[int, int]:
    """Where ``render_pegs`` (same title and unit_px) draws ``spot``: a guess hole or a code hole."""
    geo = geometry(board)
    xy = board.coords.get(spot) or geo.code_holes.get(spot)
    if xy is None:
        raise ValueError(f"board {board.name} has no hole {spot!r}")
    ppu = float(unit_px or 64.0)
    return Frame.around(extent(geo), ppu, round(0.3 * ppu), title).at(xy)


def draw_pegs_print(canvas: np.ndarray, frame: Frame, board: BoardGraph, labels: bool) -> None:
    """The printed board on white: each hole an inked ring the size of its peg, a code hole with a
    dot at its centre and an indicator hole blue inside, the rows numbered, the code row apart
    beyond a line and marked "code"."""
    geo = geometry(board)
    line = frame.px(0.025, 1)
    for name, xy, code in _holes(geo):
        c = frame.at(xy)
        cv2.circle(canvas, c, frame.px(CODE_PEG_R if code else KEY_PEG_R, 3), INK, line, _AA)
        if code:
            cv2.circle(canvas, c, frame.px(0.04, 1), INK, -1, _AA)
        else:  # blue inside, no dot: a white peg shows against it as a black one does
            cv2.circle(canvas, c, frame.px(KEY_HOLE_FILL_R, 2), KEY_HOLE_FILL, -1, _AA)
    # No frame round the board or the code row: the markers' quiet zones reach in just beyond its
    # corners. A line parts the guess rows from the code row (where the cover goes).
    line_y = geo.rows - 1 + ROW_HALF + 0.08
    last = max(x for x, _ in geo.code_holes.values())
    cv2.line(canvas, frame.at((-0.45, line_y)), frame.at((last + 0.95, line_y)), INK, line, _AA)
    if labels:
        scale = 0.3 * frame.ppu / 22.0  # capitals 0.3 of a hole pitch tall
        _row_labels(canvas, frame, geo, INK, scale)
        cy = next(iter(geo.code_holes.values()))[1]
        _put_centred(canvas, "code", frame.at((last + 0.85, cy)), 0.2 * frame.ppu / 22.0, INK, 1)


__all__ = ["CODE_PEG_COLOURS", "CODE_PEG_HEIGHT", "KEY_PEG_COLOURS", "KEY_PEG_HEIGHT", "draw_pegs_print", "extent",
           "geometry", "render_pegs", "solids", "spot_pixel"]
