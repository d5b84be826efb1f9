"""Draw a board graph and a position as an image, with OpenCV only.

The renderer is the picture side of the board data in ``engine.boards``: it takes any
``BoardGraph`` (HTJB grid boards today, other families later) and a mapping of point -> piece,
and draws at the graph's own coordinates. Nothing here knows about a 7x7 grid; the transform
comes from ``board.bounds()`` plus a margin, so a new family only needs its graph.

Uses:

* documentation pictures (``vision.docs_pictures``);
* synthetic frames for testing the camera pipeline, which is why ``point_to_pixel`` is public:
  tests and vision code ask the same function where a point lands instead of re-deriving it;
* previews of LED hints (``highlights``: a coloured ring per point).

Images are ``numpy`` arrays of shape (H, W, 3), dtype uint8, in OpenCV's BGR order.
Board coordinates have y pointing up (as in the engine); image rows run down, so y is flipped.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine.boards.graph import wrapped_delta

from . import twin_look

BGR = tuple[int, int, int]

PLAYER_COLOURS: dict[int, BGR] = {
    1: (236, 244, 248),  # ivory: the "white" side, read by its dark outline on a light board
    2: (40, 34, 34),  # near-black: the "black" side, strongest contrast with both board and ivory
    3: (40, 40, 200),  # crimson: distinct from 1 and 2 in hue, not only brightness
    4: (190, 110, 20),  # deep blue: distinct from crimson for red-green colour-blind viewers
}
"""Piece colours (BGR) for players 1..4, chosen for contrast on the light board background.

Players 1 and 2 follow the usual white/black convention of physical sets; 3 and 4 (four-player
games to come) differ from those in hue and from each other in both hue and brightness.
"""

# Board style -> the ink of a point and of the lines from it, for boards whose lines are not all one
# colour (None: the style's ``line_colour``). The two-grid gem game prints each grid in its side's
# colour (``vision.twin_look``).
POINT_INKS: dict[str, Any] = {"twin-grids": twin_look.grid_ink}
# Board style -> owner -> piece colour, for families whose pieces have colours of their own.
STYLE_PIECE_COLOURS: dict[str, dict[int, BGR]] = {"twin-grids": twin_look.GEMS}

# Suggested ``highlights`` colours, matching what the LEDs will show on the physical board.
HINT_LEGAL: BGR = (60, 170, 40)  # green: a step the rules allow here
HINT_ILLEGAL: BGR = (30, 30, 220)  # red: a change on the board the rules do not allow
HINT_REMOVABLE: BGR = (0, 140, 255)  # orange: a piece that may be taken

_FONT = cv2.FONT_HERSHEY_SIMPLEX
_AA = cv2.LINE_AA


@dataclass(frozen=True)
class BoardStyle:
    """How a board is drawn. Sizes are in pixels except ``unit_px``, pixels per board unit.

    The defaults suit the HTJB boards (neighbouring spots one unit apart): a piece's radius is
    about a third of the spacing, so neighbouring pieces and their labels stay apart, and the
    margin leaves room for the labels of the outermost points. A family whose coordinates use
    other units passes its own style.
    """

    unit_px: float = 80.0
    margin_px: int = 64
    background: BGR = (176, 212, 232)  # light wood
    line_colour: BGR = (40, 62, 92)  # dark brown ink
    line_width: int = 3
    point_radius: int = 6
    piece_radius: int = 27
    piece_outline: BGR = (25, 25, 25)
    outline_width: int = 2
    label_colour: BGR = (50, 50, 50)
    label_scale: float = 0.45
    highlight_width: int = 4
    title_colour: BGR = (20, 20, 20)
    title_scale: float = 0.7
    labels: bool = True


DEFAULT_STYLE = BoardStyle()


# ---------------------------------------------------------------------------- geometry
def _title_lines(title: str | None) -> list[str]:
    return title.split("\n") if title else []


def _header_px(title: str | None, style: BoardStyle) -> int:
    """Height of the band above the board reserved for the title (0 without a title)."""
    n = len(_title_lines(title))
    if n == 0:
        return 0
    (_, h), base = cv2.getTextSize("Ag", _FONT, style.title_scale, 2)
    return n * (h + base + 8) + 8


def _period(board) -> float | None:
    """The wrap period of a periodic board (both axes wrap modulo it), None for a flat one."""
    return getattr(board, "period", None) or None


def _delta(board, a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    """b - a in board units, the short way round on a periodic board."""
    return wrapped_delta(a, b, _period(board))


def board_extent(board) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) in board units of the area drawn.

    A flat board's points span ``board.bounds()``. A periodic board is drawn as one period,
    [0, period] on both axes: its points sit in [0, period) and an edge that wraps leaves at one
    side and comes back at the other, so the whole period must show.
    """
    period = _period(board)
    if period:
        return (0.0, 0.0, float(period), float(period))
    return board.bounds()


def image_size(board, style: BoardStyle | None = None, *, title: str | None = None) -> tuple[int, int]:
    """(width, height) in pixels of ``render_board(board, style=style, title=title)``."""
    style = style or DEFAULT_STYLE
    x0, y0, x1, y1 = board_extent(board)
    width = round((x1 - x0) * style.unit_px) + 2 * style.margin_px
    height = round((y1 - y0) * style.unit_px) + 2 * style.margin_px + _header_px(title, style)
    return width, height


def point_to_pixel(board, name: str, style: BoardStyle | None = None, *,
                   title: str | None = None) -> tuple[int, int]:
    """Pixel (column, row) where ``render_board`` draws point ``name``.

    Pass the same ``style`` and ``title`` as to ``render_board``: a title adds a band at the top,
    which moves the board down. Raises ValueError for a point the board does not have.
    """
    if name not in board.coords:
        raise ValueError(f"board {board.name} has no point {name!r}")
    return xy_to_pixel(board, board.coords[name], style, title=title)


def xy_to_pixel(board, xy: tuple[float, float], style: BoardStyle | None = None, *,
                title: str | None = None) -> tuple[int, int]:
    """Pixel (column, row) of board coordinates ``xy`` in ``render_board``'s image (y flipped)."""
    style = style or DEFAULT_STYLE
    x0, _, _, y1 = board_extent(board)
    col = style.margin_px + (xy[0] - x0) * style.unit_px
    row = _header_px(title, style) + style.margin_px + (y1 - xy[1]) * style.unit_px
    return round(col), round(row)


# ---------------------------------------------------------------------------- pieces
def _owner_and_kind(piece: Any) -> tuple[int, str]:
    """Accept an engine ``Piece`` (or anything with ``.owner``) or a plain int owner."""
    if isinstance(piece, (int, np.integer)) and not isinstance(piece, bool):
        return int(piece), "man"
    owner = getattr(piece, "owner", None)
    if owner is None:
        raise ValueError(f"cannot draw {piece!r}: give a Piece (owner, kind) or an int owner")
    return int(owner), str(getattr(piece, "kind", "man") or "man")


def piece_colour(owner: int, board_style: str = "") -> BGR:
    """The colour pieces of ``owner`` are drawn in on a board of ``board_style``."""
    own = STYLE_PIECE_COLOURS.get(board_style, {}).get(owner)
    return own if own is not None else _player_colour(owner)


def _point_ink(board, name: str, style: "BoardStyle") -> BGR:
    ink = POINT_INKS.get(getattr(board, "style", ""))
    colour = ink(name) if ink is not None else None
    return colour if colour is not None else style.line_colour


def _player_colour(owner: int) -> BGR:
    try:
        return PLAYER_COLOURS[owner]
    except KeyError:
        raise ValueError(f"no colour for player {owner}; players are {min(PLAYER_COLOURS)}.."
                         f"{max(PLAYER_COLOURS)}") from None


def _draw_man(img: np.ndarray, c: tuple[int, int], colour: BGR, style: BoardStyle) -> None:
    r = style.piece_radius
    cv2.circle(img, c, r, colour, -1, _AA)
    cv2.circle(img, c, r, style.piece_outline, style.outline_width, _AA)
    # An inner ring in a shifted shade makes even a near-black piece read as a raised piece,
    # not as a hole in the board.
    inner = tuple(int(v) for v in np.clip(np.array(colour) + (40 if sum(colour) < 384 else -40), 0, 255))
    cv2.circle(img, c, round(r * 0.62), inner, 2, _AA)


def _draw_gem(img: np.ndarray, c: tuple[int, int], colour: BGR, style: BoardStyle) -> None:
    r = style.piece_radius
    pts = np.array([(c[0], c[1] - r), (c[0] + r, c[1]), (c[0], c[1] + r), (c[0] - r, c[1])], np.int32)
    cv2.fillConvexPoly(img, pts, colour, _AA)
    cv2.polylines(img, [pts], True, style.piece_outline, style.outline_width, _AA)


def _draw_ring(img: np.ndarray, c: tuple[int, int], colour: BGR, style: BoardStyle) -> None:
    r = style.piece_radius
    band = max(4, r // 3)
    cv2.circle(img, c, r - band // 2, colour, band, _AA)
    cv2.circle(img, c, r, style.piece_outline, style.outline_width, _AA)
    cv2.circle(img, c, r - band, style.piece_outline, style.outline_width, _AA)


def _draw_other(img: np.ndarray, c: tuple[int, int], colour: BGR, style: BoardStyle, kind: str) -> None:
    """A kind with no shape of its own: a man marked with the kind's first letter."""
    cv2.circle(img, c, style.piece_radius, colour, -1, _AA)
    cv2.circle(img, c, style.piece_radius, style.piece_outline, style.outline_width, _AA)
    ink = (255, 255, 255) if sum(colour) < 384 else (0, 0, 0)
    _put_centred(img, kind[:1].upper() or "?", c, 0.7, ink, 2)


_SHAPES = {"man": _draw_man, "gem": _draw_gem, "ring": _draw_ring}


def draw_piece(img: np.ndarray, centre: tuple[int, int], owner: int, kind: str = "man",
               style: BoardStyle | None = None, colour: BGR | None = None) -> None:
    """Draw one piece in place; ``kind`` picks the shape (man, gem, ring; others get a letter);
    ``colour`` overrides the owner's usual colour (``piece_colour``)."""
    style = style or DEFAULT_STYLE
    colour = colour if colour is not None else _player_colour(owner)
    shape = _SHAPES.get(kind)
    if shape is None:
        _draw_other(img, centre, colour, style, kind)
    else:
        shape(img, centre, colour, style)


# ---------------------------------------------------------------------------- text
def _put_centred(img: np.ndarray, text: str, centre: tuple[float, float], scale: float,
                 colour: BGR, thickness: int = 1) -> None:
    (w, h), _ = cv2.getTextSize(text, _FONT, scale, thickness)
    org = (round(centre[0] - w / 2), round(centre[1] + h / 2))
    cv2.putText(img, text, org, _FONT, scale, colour, thickness, _AA)


def _label_direction(board, name: str) -> tuple[float, float, float]:
    """Where a label clashes least with the point's edges: (dx, dy, clearance).

    (dx, dy) is a unit vector in image axes (y down); clearance is the angle in radians between
    it and the nearest edge (pi for a point without edges). Of sixteen compass directions, the
    one furthest from every edge wins (sixteen, so that even the eight-way star at the centre of
    ``three`` leaves a gap); ties go to the direction pointing away from the board's centre
    (labels then sit outside the figure), then to the lower right. A point without edges is
    labelled at its lower right. Works for any graph.
    """
    px, py = board.coords[name]
    edge_angles = [math.atan2(-dy, dx) for dx, dy in
                   (_delta(board, (px, py), board.coords[o]) for o in board.neighbours.get(name, ()))]
    if not edge_angles:  # a lone spot: one fixed side for all, so a row's labels read alike
        return math.sqrt(0.5), math.sqrt(0.5), math.pi
    x0, y0, x1, y1 = board_extent(board)
    out = (px - (x0 + x1) / 2, -(py - (y0 + y1) / 2))

    def score(angle: float) -> tuple[float, float, float]:
        clearance = min((abs(math.remainder(angle - e, math.tau)) for e in edge_angles), default=math.pi)
        outward = math.cos(angle) * out[0] + math.sin(angle) * out[1]
        lower_right = math.cos(angle - math.pi / 4)
        return (round(clearance, 6), round(outward, 6), lower_right)

    best = max((k * math.pi / 8 for k in range(16)), key=score)
    return math.cos(best), math.sin(best), score(best)[0]


def _draw_label(img: np.ndarray, board, name: str, centre: tuple[int, int], style: BoardStyle) -> None:
    """Point name beside the point, clear of its piece and edges, on a patch of board colour.

    The patch keeps the label legible should it still touch a line.
    """
    (w, h), base = cv2.getTextSize(name, _FONT, style.label_scale, 1)
    half_w, half_h = w / 2 + 2, (h + base) / 2 + 2  # the patch, padding included
    dx, dy, clearance = _label_direction(board, name)
    # Far enough along (dx, dy) that the patch clears the piece ...
    dist = style.piece_radius + 3 + abs(dx) * half_w + abs(dy) * half_h
    # ... and the nearest edge: half_w + half_h bounds how far the patch reaches towards a line.
    if 1e-6 < clearance < math.pi / 2:
        dist = max(dist, (half_w + half_h + style.line_width) / math.sin(clearance))
    cx, cy = centre[0] + dx * dist, centre[1] + dy * dist
    cv2.rectangle(img, (round(cx - half_w), round(cy - half_h)), (round(cx + half_w), round(cy + half_h)),
                  style.background, -1)
    org = (round(cx - w / 2), round(cy + (h - base) / 2))  # centres ascenders and descenders alike
    cv2.putText(img, name, org, _FONT, style.label_scale, style.label_colour, 1, _AA)


def _draw_title(img: np.ndarray, title: str, style: BoardStyle) -> None:
    """Title lines across the top band, shrunk to fit the image width if need be."""
    y = 8
    for line in _title_lines(title):
        scale, thick = style.title_scale, 2
        (w, h), base = cv2.getTextSize(line, _FONT, scale, thick)
        limit = img.shape[1] - 16
        if w > limit:  # shrink a long line, and thin it so small letters stay open
            scale *= limit / w
            thick = 1
        w = cv2.getTextSize(line, _FONT, scale, thick)[0][0]
        y += h + base + 8
        cv2.putText(img, line, ((img.shape[1] - w) // 2, y - base), _FONT, scale, style.title_colour, thick, _AA)


# ---------------------------------------------------------------------------- boards
def _check_points(board, names, what: str) -> None:
    unknown = [p for p in names if p not in board.coords]
    if unknown:
        raise ValueError(f"{what} names point(s) {', '.join(map(str, unknown))} "
                         f"that board {board.name} does not have")


def _draw_edges(img: np.ndarray, board, style: BoardStyle, title: str | None) -> None:
    """Every edge as a line; on a periodic board a wrapping edge is drawn as its two pieces.

    Each piece runs from an endpoint, the short way round, to where it leaves the drawn period
    (clipped with ``cv2.clipLine``): never as a line back across the whole board.
    """
    x0, y0, x1, y1 = board_extent(board)
    left, top = xy_to_pixel(board, (x0, y1), style, title=title)
    right, bottom = xy_to_pixel(board, (x1, y0), style, title=title)
    frame = (left, top, right - left + 1, bottom - top + 1)

    def line(p: tuple[float, float], q: tuple[float, float]) -> None:
        a, b = xy_to_pixel(board, p, style, title=title), xy_to_pixel(board, q, style, title=title)
        inside, a, b = cv2.clipLine(frame, a, b)
        if inside:
            cv2.line(img, a, b, colour, style.line_width, _AA)

    for a, b in board.edges:
        colour = _point_ink(board, a, style)
        (ax, ay), (bx, by) = board.coords[a], board.coords[b]
        dx, dy = _delta(board, (ax, ay), (bx, by))
        if math.isclose(ax + dx, bx, abs_tol=1e-9) and math.isclose(ay + dy, by, abs_tol=1e-9):
            line((ax, ay), (bx, by))
        else:  # wraps: each end's half, towards where the other end's copy would be
            line((ax, ay), (ax + dx, ay + dy))
            line((bx, by), (bx - dx, by - dy))


def render_board(board, position: Mapping[str, Any] | None = None, *,
                 highlights: Mapping[str, BGR] | None = None, style: BoardStyle | None = None,
                 labels: bool = True, title: str | None = None) -> np.ndarray:
    """Draw ``board`` with ``position`` on it and return a BGR uint8 image.

    ``position`` maps point names to an engine ``Piece`` (or anything with ``.owner`` and
    ``.kind``) or to a plain int owner. ``highlights`` maps point names to a BGR colour, drawn as
    a ring round the point, as the LEDs would light it. Labels are drawn when both ``labels`` and
    ``style.labels`` are true; ``title`` (may contain newlines) goes in a band at the top.
    Unknown points in ``position`` or ``highlights`` raise ValueError: a misspelt point would
    otherwise vanish silently from the picture.
    """
    style = style or DEFAULT_STYLE
    position = dict(position or {})
    highlights = dict(highlights or {})
    _check_points(board, position, "position")
    _check_points(board, highlights, "highlights")
    width, height = image_size(board, style, title=title)
    img = np.empty((height, width, 3), np.uint8)
    img[:] = style.background

    def at(name: str) -> tuple[int, int]:
        return point_to_pixel(board, name, style, title=title)

    _draw_edges(img, board, style, title)
    for name in board.points:
        cv2.circle(img, at(name), style.point_radius, _point_ink(board, name, style), -1, _AA)
    for name, colour in highlights.items():
        radius = style.piece_radius + style.highlight_width // 2 + 3
        cv2.circle(img, at(name), radius, tuple(int(v) for v in colour), style.highlight_width, _AA)
    for name, piece in position.items():
        owner, kind = _owner_and_kind(piece)
        draw_piece(img, at(name), owner, kind, style, piece_colour(owner, getattr(board, "style", "")))
    if labels and style.labels:
        for name in board.points:
            _draw_label(img, board, name, at(name), style)
    if title:
        _draw_title(img, title, style)
    return img


def save_png(image: np.ndarray, path: str | Path, compression: int | None = None) -> Path:
    """Write ``image`` as a PNG at ``path`` (parent folders are created); returns the path.

    ``compression`` 0-9 (OpenCV's default when None, fast): 9 for pictures kept in the repository,
    whose size counts more than the time to write them.

    ``cv2.imwrite`` reports failure only by returning False, so it is turned into an OSError
    here rather than leaving a missing file to be found later.
    """
    path = Path(path)
    if path.suffix.lower() != ".png":
        raise ValueError(f"{path}: save_png writes .png files only")
    path.parent.mkdir(parents=True, exist_ok=True)
    params = [cv2.IMWRITE_PNG_COMPRESSION, int(compression)] if compression is not None else []
    if not cv2.imwrite(str(path), image, params):
        raise OSError(f"could not write image to {path}")
    return path
