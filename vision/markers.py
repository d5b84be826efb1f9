"""Where the four ArUco markers of a printed board sit, in the board's own coordinates.

The printable board, the simulated camera and registration must agree exactly on this, so it is
one small module. Markers lie outside the play area, one beyond each corner of the board's
extent, so pieces never cover them. Their ids also say which board is in view: each board gets
a block of four ids (``marker_ids``), so a camera pointed at the wrong board is told so.

Corner order follows OpenCV's detector: top-left, top-right, bottom-right, bottom-left as seen
in an upright print (image rows run down; board y runs up, so "top" is the larger y).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# DICT_4X4_100's first 50 markers are DICT_4X4_50's (OpenCV's 4x4 dictionaries are prefixes of each
# other), so boards printed when the project used the 50-marker one still read; 100 ids leave room
# for 25 blocks of four.
DICTIONARY_ID = cv2.aruco.DICT_4X4_100
MARKER_FRACTION = 0.12  # marker side as a share of the board's larger span
GAP_FRACTION = 0.05  # gap between the board's extent and a marker, as a share of the span

# Stable id blocks per board family (ids 0..99 exist in DICT_4X4_100: 25 blocks of four). Append only:
# a block once printed keeps its ids.
_ID_BLOCKS = ("morris9", "morabaraba", "morris6", "morris6x", "morris7", "saba", "three",
              "three-plain", "tableaux", "brain-hanky", "twin-grids", "brainmaster", "circles")


@dataclass(frozen=True)
class Marker:
    id: int
    centre: tuple[float, float]  # board units
    size: float  # side length, board units

    def corners(self) -> np.ndarray:
        """(4, 2) float32 board coordinates: top-left, top-right, bottom-right, bottom-left."""
        cx, cy = self.centre
        h = self.size / 2
        return np.array([(cx - h, cy + h), (cx + h, cy + h), (cx + h, cy - h), (cx - h, cy - h)], np.float32)


def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(DICTIONARY_ID)


def _peg_holes(board) -> list[tuple[float, float]]:
    """The corners of Brainmaster's holes with their pegs' reach, the code row's included, and the
    paper beside them that the hand check watches (``render_pegs.SIDE_PAPER``)."""
    from .render_pegs import CODE_PEG_R, SIDE_PAPER, geometry  # lazily: the renderer is not needed otherwise

    x0, y0, x1, y1 = board.bounds()
    top = max(y for _, y in geometry(board).code_holes.values())
    r = CODE_PEG_R + 0.04  # a ring's ink too
    return [(x0 - SIDE_PAPER[0], y0 - r), (x1 + SIDE_PAPER[1], top + r)]


# Board style -> places beyond the graph's points that a print and the camera must still cover:
# Brainmaster's code row (under its cover in play, but printed and read before the cover goes on),
# and its printed holes' rings, which reach further out than their centres.
OFF_GRAPH_HOLES = {"brainmaster": _peg_holes}


def board_extent(board) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1): the play area. A periodic board shows one whole period; a style's holes
    off the graph (``OFF_GRAPH_HOLES``) are inside it."""
    period = getattr(board, "period", None)
    if period:
        return (0.0, 0.0, float(period), float(period))
    x0, y0, x1, y1 = board.bounds()
    extra = OFF_GRAPH_HOLES.get(getattr(board, "style", ""))
    for x, y in (extra(board) if extra else ()):
        x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
    return (x0, y0, x1, y1)


def marker_ids(board) -> tuple[int, int, int, int]:
    """The four ids for ``board`` (bottom-left, bottom-right, top-right, top-left)."""
    # HTJB boards each have their own block; boards of another style share their style's block
    # (every Brain Hanky cloth size uses the "brain-hanky" ids, both two-grid boards "twin-grids").
    family = board.name if board.style == "htjb" else board.style
    block = _ID_BLOCKS.index(family) if family in _ID_BLOCKS else len(_ID_BLOCKS)
    base = 4 * block
    return (base, base + 1, base + 2, base + 3)


def board_for_marker(marker_id: int) -> str | None:
    """The board family a detected marker id belongs to (None for an id no board uses)."""
    block = marker_id // 4
    return _ID_BLOCKS[block] if block < len(_ID_BLOCKS) else None


def marker_layout(board) -> list[Marker]:
    """The four markers of ``board``: one beyond each corner of its extent, outside play."""
    x0, y0, x1, y1 = board_extent(board)
    span = max(x1 - x0, y1 - y0)
    size = MARKER_FRACTION * span
    off = GAP_FRACTION * span + size / 2
    centres = [(x0 - off, y0 - off), (x1 + off, y0 - off), (x1 + off, y1 + off), (x0 - off, y1 + off)]
    return [Marker(i, c, size) for i, c in zip(marker_ids(board), centres)]


def print_extent(board) -> tuple[float, float, float, float]:
    """The area a print must cover: the board and its markers, with a white quiet zone round them."""
    layout = marker_layout(board)
    quiet = layout[0].size / 4  # ArUco wants a white border round each marker
    xs = [m.centre[0] for m in layout]
    ys = [m.centre[1] for m in layout]
    h = layout[0].size / 2 + quiet
    return (min(xs) - h, min(ys) - h, max(xs) + h, max(ys) + h)
