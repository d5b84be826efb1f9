"""Draw Brain Hanky bandannas and positions: two coloured webs, rings on points, gems on squares.

``vision.render.render_board`` draws any ``BoardGraph`` in one ink, which loses what matters on
this board: which web a line belongs to. Here both webs are drawn in their own colour from a
``BrainHankyBoard`` (``engine.boards.brain_hanky``), rings sit on points, gems on the squares'
centres (gem spots), and captured gems are shown in a strip below the board.

Periodic boards wrap: a point on the board's edge (blue points of the edge squares) is drawn at
every place the edge shows it (both opposite edges, or all four corners), and an edge whose ends
lie on opposite sides of the board is drawn as the pieces of it that fall on the board, each
running from an endpoint to the boundary, never as a line across the whole board. A thin frame
marks the boundary [0, N] x [0, N] so it is clear where a wrapped line leaves and comes back.

``hanky_point_to_pixel`` says where a point or gem spot is drawn (its first copy, at the
coordinates the board gives), so tests and the camera simulator ask rather than re-derive it.

Images are ``numpy`` arrays (H, W, 3), uint8, BGR; board y points up, image rows run down.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import cv2
import numpy as np

from engine.boards.brain_hanky import R
from engine.boards.graph import wrapped_delta

from .render import BoardStyle, _draw_title, _header_px

BGR = tuple[int, int, int]

HANKY_COLOURS: dict[int, dict[str, BGR]] = {
    # Side 1, white rings and silver gems as in the set. White on a light cloth reads only by the
    # dark outline every piece gets; the silver is a mid grey, darker than the ring, so a gem and a
    # ring of side 1 differ in brightness as well as in shape.
    1: {"ring": (250, 250, 250), "gem": (178, 178, 170)},
    # Side 2, yellow rings and gold gems: a clear lemon yellow for the ring and a deeper, browner
    # gold for the gem, both well away from the orange web's hue and brightness.
    2: {"ring": (20, 215, 255), "gem": (30, 150, 205)},
    # Side 3, green rings and emerald gems: a grass green ring and a darker, bluish emerald.
    3: {"ring": (60, 175, 50), "gem": (100, 120, 0)},
    # Sides 4-6 (expanded-board games) are not in the three-player set. Blue, purple and orange
    # would be mistaken for the webs, so: red rings / ruby gems, black rings / onyx gems, and
    # magenta rings / pink gems. They differ from sides 1-3 and from each other in hue or in
    # brightness (black), which also helps viewers who confuse red and green.
    4: {"ring": (45, 30, 210), "gem": (75, 15, 140)},
    5: {"ring": (38, 36, 36), "gem": (100, 90, 85)},
    6: {"ring": (170, 60, 230), "gem": (200, 150, 250)},
}
"""Piece colours (BGR) per side: ``HANKY_COLOURS[side]["ring" | "gem"]``."""

WEB_COLOURS: dict[str, BGR] = {
    "O": (0, 120, 240),  # orange: saturated, so its lines stand out from the cream cloth
    "B": (200, 95, 25),  # blue: a mid blue, as dark as the orange is bright, so the webs separate
}
"""Line and point colours of the orange (``O``) and blue (``B``) webs."""

HANKY_BACKGROUND: BGR = (222, 238, 247)
"""A light cream cloth: both webs and dark piece outlines contrast with it, as on a bandanna."""
FRAME_COLOUR: BGR = (110, 120, 130)  # the board's boundary: a thin neutral grey
LABEL_COLOUR: BGR = (90, 90, 90)

@dataclass(frozen=True)
class Cloth:
    """A printed Brain Hanky's colours: the cloth's ground, each web's lines and points, the
    board's frame and the square labels."""

    background: BGR
    webs: dict[str, BGR]
    frame: BGR
    label: BGR


CLOTHS: dict[str, Cloth] = {
    # A mid blue, as bandannas often are: every piece colour stands apart from it for a camera.
    # White and yellow rings are far lighter. Silver and gold gems are metal mirrors of the room,
    # whose light is near neutral: on a neutral grey ground a silver gem can show the very same
    # grey (measured on photoreal renders), on a blue one never its hue; gold is warmer still.
    # On a light cloth a white ring differs from the empty cloth only by its rim's shading
    # (photoreal renders: 0.04-0.065 against the 0.08 calibration needs). So this is what
    # ``arbiter print-board`` prints.
    "blue": Cloth(background=(185, 105, 60), webs={"O": (20, 140, 250), "B": (250, 205, 150)},
                  frame=(230, 220, 210), label=(235, 225, 215)),
    # No ground at all: the webs on white paper or printed on a light bandanna. Saves ink and
    # suits people, but a camera tells white rings and silver gems from it only if they are
    # outlined (``vision.sim`` draws them so; real pieces are not).
    "white": Cloth(background=(255, 255, 255), webs=WEB_COLOURS, frame=FRAME_COLOUR, label=LABEL_COLOUR),
}
"""Printable cloths by name (``vision.printable.render_printable(cloth=...)``)."""
PRINT_CLOTH = "blue"
CREAM = Cloth(background=HANKY_BACKGROUND, webs=WEB_COLOURS, frame=FRAME_COLOUR, label=LABEL_COLOUR)
"""The cream cloth of the docs' pictures and of ``vision.sim`` by default (not a print)."""


def cloth_look(cloth: str | None) -> Cloth:
    """The colours of printable cloth ``cloth`` (``CLOTHS``), or ``CREAM`` for None."""
    if cloth is None:
        return CREAM
    try:
        return CLOTHS[cloth]
    except KeyError:
        raise ValueError(f"unknown cloth {cloth!r}: choose one of {', '.join(sorted(CLOTHS))}") from None

OUTLINE: BGR = (30, 30, 30)  # piece outlines: what makes white rings and silver gems readable
TEXT_COLOUR: BGR = (20, 20, 20)

_FONT = cv2.FONT_HERSHEY_SIMPLEX
_AA = cv2.LINE_AA
_EPS = 1e-9
_TITLE_STYLE = BoardStyle()  # only its title settings are used: titles look as in render.py


# ---------------------------------------------------------------------------- layout
@dataclass(frozen=True)
class _Layout:
    """Pixel sizes for one picture, all derived from ``unit_px`` (pixels per board unit).

    Neighbouring points of one web are 1 - 2r ~= 0.41 units apart (square sides and bridges
    alike), but a point of one web can be only r ~= 0.29 from a point of the other (Oc3.n and
    Bd4.w), and a gem spot is r from its square's points. So a ring's radius stays under r / 2
    and a gem's half-width under r minus the ring radius: two clusters side by side, of either
    web, then show every piece apart.
    """

    unit: float
    n: int
    header: int

    @property
    def margin(self) -> int:
        return max(12, round(0.45 * self.unit))

    @property
    def line_width(self) -> int:
        return max(1, round(self.unit / 30))

    @property
    def dot_radius(self) -> int:
        return max(2, round(0.045 * self.unit))

    @property
    def ring_radius(self) -> int:
        return max(5, round(0.135 * self.unit))

    @property
    def ring_band(self) -> int:
        return max(3, round(0.065 * self.unit))

    @property
    def outline(self) -> int:
        return max(1, round(self.unit / 60))

    @property
    def gem_radius(self) -> int:
        return max(4, round(0.12 * self.unit))

    @property
    def board_px(self) -> int:
        return round(self.n * self.unit)

    def pixel(self, x: float, y: float) -> tuple[int, int]:
        return (round(self.margin + x * self.unit),
                round(self.header + self.margin + (self.n - y) * self.unit))


def _layout(hboard, unit_px: float, title: str | None) -> _Layout:
    if unit_px <= 0:
        raise ValueError(f"unit_px must be positive, not {unit_px}")
    return _Layout(float(unit_px), hboard.size, _header_px(title, _TITLE_STYLE))


def _wraps(hboard, web: str) -> bool:
    return bool(hboard.periodic if web == "O" else hboard.blue_periodic)


def _spot(hboard, name: str) -> tuple[tuple[float, float], str]:
    """Board coordinates and web of a point or of a square's gem spot (centre modulo N if it wraps)."""
    if name in hboard.graph.coords:
        return hboard.graph.coords[name], hboard.point_web[name]
    sq = hboard.squares.get(name)
    if sq is None:
        raise ValueError(f"board {hboard.name} has no point or square {name!r}")
    x, y = sq.centre
    if _wraps(hboard, sq.web):
        x, y = x % hboard.size, y % hboard.size
    return (x, y), sq.web


def _copies(hboard, xy: tuple[float, float], web: str) -> list[tuple[float, float]]:
    """Every place on the board where a spot shows: one, or two/four on the edges of a wrapping web."""
    if not _wraps(hboard, web):
        return [xy]
    n = hboard.size
    xs = [xy[0]] + ([xy[0] + n] if abs(xy[0]) < _EPS else [xy[0] - n] if abs(xy[0] - n) < _EPS else [])
    ys = [xy[1]] + ([xy[1] + n] if abs(xy[1]) < _EPS else [xy[1] - n] if abs(xy[1] - n) < _EPS else [])
    return [(x, y) for x in xs for y in ys]


def _clip(p: tuple[float, float], q: tuple[float, float], n: float):
    """The part of segment p-q inside [0, n] x [0, n] (Liang-Barsky), or None if there is none."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    # p + t*(dx, dy) is inside when every  pk * t <= qk  holds.
    for pk, qk in ((-dx, p[0]), (dx, n - p[0]), (-dy, p[1]), (dy, n - p[1])):
        if abs(pk) < _EPS:
            if qk < -_EPS:
                return None
        elif pk < 0:
            t0 = max(t0, qk / pk)
        else:
            t1 = min(t1, qk / pk)
    if t1 - t0 < _EPS:
        return None
    return (p[0] + t0 * dx, p[1] + t0 * dy), (p[0] + t1 * dx, p[1] + t1 * dy)


def edge_segments(hboard, a: str, b: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The straight pieces (board coordinates) that draw edge a-b on the board.

    A flat edge is one segment. On a wrapping web the edge runs the short way round; every copy
    of it shifted by a multiple of N is clipped to the board, so an edge across the boundary
    becomes two pieces, each from an endpoint to the boundary, and an edge lying along the
    boundary shows on both opposite edges.
    """
    web = hboard.point_web[a]
    pa, pb = hboard.graph.coords[a], hboard.graph.coords[b]
    if not _wraps(hboard, web):
        return [(pa, pb)]
    n = hboard.size
    dx, dy = wrapped_delta(pa, pb, n)
    out = []
    for kx in (-n, 0, n):
        for ky in (-n, 0, n):
            piece = _clip((pa[0] + kx, pa[1] + ky), (pa[0] + dx + kx, pa[1] + dy + ky), n)
            if piece is not None:
                out.append(piece)
    return out


def hanky_image_size(hboard, unit_px: float = 90, title: str | None = None,
                     piles: Mapping[int, int] | None = None) -> tuple[int, int]:
    """(width, height) in pixels of ``render_hanky`` with the same arguments."""
    lay = _layout(hboard, unit_px, title)
    width = lay.board_px + 2 * lay.margin
    height = lay.header + lay.board_px + 2 * lay.margin + _piles_height(lay, piles)
    return width, height


def hanky_point_to_pixel(hboard, name: str, unit_px: float = 90, title: str | None = None) -> tuple[int, int]:
    """Pixel (column, row) where ``render_hanky`` draws point or gem spot (square) ``name``.

    A spot on the edge of a wrapping web is drawn at each place the edge shows it; this is the
    copy at the coordinates the board gives (in [0, N)). Pass the same ``unit_px`` and ``title``
    as to ``render_hanky``. Raises ValueError for a name the board does not have.
    """
    xy, _ = _spot(hboard, name)
    return _layout(hboard, unit_px, title).pixel(*xy)


# ---------------------------------------------------------------------------- pieces
def _owner_and_kind(piece: Any, default_kind: str) -> tuple[int, str]:
    if isinstance(piece, (int, np.integer)) and not isinstance(piece, bool):
        return int(piece), default_kind
    owner = getattr(piece, "owner", None)
    if owner is None:
        raise ValueError(f"cannot draw {piece!r}: give a piece (owner, kind) or an int owner")
    kind = str(getattr(piece, "kind", "") or default_kind)
    return int(owner), kind if kind in ("ring", "gem") else default_kind


def _side_colours(side: int) -> dict[str, BGR]:
    try:
        return HANKY_COLOURS[side]
    except KeyError:
        raise ValueError(f"no colours for side {side}; sides are {min(HANKY_COLOURS)}.."
                         f"{max(HANKY_COLOURS)}") from None


def _draw_ring(img: np.ndarray, c: tuple[int, int], colour: BGR, lay: _Layout) -> None:
    """A hollow ring: a coloured band between two dark outlines; the point shows in the hole."""
    r, band = lay.ring_radius, lay.ring_band
    cv2.circle(img, c, r - band // 2, colour, band, _AA)
    cv2.circle(img, c, r, OUTLINE, lay.outline, _AA)
    cv2.circle(img, c, r - band, OUTLINE, lay.outline, _AA)


def _draw_gem(img: np.ndarray, c: tuple[int, int], colour: BGR, radius: int, outline: int) -> None:
    """A cut gem: a filled diamond with a dark outline and a light facet near its top."""
    x, y = c
    pts = np.array([(x, y - radius), (x + radius, y), (x, y + radius), (x - radius, y)], np.int32)
    cv2.fillConvexPoly(img, pts, colour, _AA)
    shine = tuple(int(v) for v in np.clip(np.array(colour, int) + 70, 0, 255))
    f = max(2, radius // 3)
    facet = np.array([(x, y - radius + max(1, outline)), (x + f, y - radius + f + 1),
                      (x - f, y - radius + f + 1)], np.int32)
    cv2.fillConvexPoly(img, facet, shine, _AA)
    cv2.polylines(img, [pts], True, OUTLINE, outline, _AA)


def _put_centred(img: np.ndarray, text: str, centre: tuple[float, float], scale: float,
                 colour: BGR, thickness: int = 1) -> None:
    (w, h), _ = cv2.getTextSize(text, _FONT, scale, thickness)
    cv2.putText(img, text, (round(centre[0] - w / 2), round(centre[1] + h / 2)), _FONT, scale,
                colour, thickness, _AA)


# ---------------------------------------------------------------------------- capture piles
def _check_piles(piles: Mapping[int, int] | None) -> dict[int, int]:
    out = {}
    for side, count in dict(piles or {}).items():
        _side_colours(side)
        if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 0:
            raise ValueError(f"pile of side {side} must be a whole number >= 0, not {count!r}")
        out[int(side)] = int(count)
    return dict(sorted(out.items()))


def _pile_row_px(lay: _Layout) -> int:
    return max(16, round(0.34 * lay.unit))


def _piles_height(lay: _Layout, piles: Mapping[int, int] | None) -> int:
    rows = len(_check_piles(piles))
    return rows * _pile_row_px(lay) + 2 * (lay.margin // 4) if rows else 0


def _draw_piles(img: np.ndarray, lay: _Layout, piles: dict[int, int]) -> None:
    """One row per side under the board: "side k: count" and that many small gems in its colour."""
    if not piles:
        return
    row_h = _pile_row_px(lay)
    top = lay.header + lay.board_px + 2 * lay.margin  # the strip starts under the board's margin
    cv2.line(img, (lay.margin, top), (img.shape[1] - lay.margin, top), FRAME_COLOUR, 1)
    top += lay.margin // 4
    scale = max(0.3, 0.5 * lay.unit / 90)
    gem_r = max(3, round(0.1 * lay.unit))
    step = 2 * gem_r + max(3, round(0.05 * lay.unit))
    label_w = cv2.getTextSize("side 6: 99", _FONT, scale, 1)[0][0]
    for i, (side, count) in enumerate(piles.items()):
        cy = top + i * row_h + row_h // 2
        text = f"side {side}: {count}"
        (_, h), _ = cv2.getTextSize(text, _FONT, scale, 1)
        cv2.putText(img, text, (lay.margin, cy + h // 2), _FONT, scale, TEXT_COLOUR, 1, _AA)
        x = lay.margin + label_w + step
        room = max(0, (img.shape[1] - lay.margin - x) // step)
        shown = min(count, room)
        for k in range(shown):
            _draw_gem(img, (x + k * step, cy), HANKY_COLOURS[side]["gem"], gem_r, 1)
        if shown < count:
            _put_centred(img, "+", (x + shown * step - step / 2 + gem_r, cy), scale, TEXT_COLOUR)


# ---------------------------------------------------------------------------- the board
def _check_names(hboard, names, what: str) -> None:
    unknown = [str(p) for p in names if p not in hboard.graph.coords and p not in hboard.squares]
    if unknown:
        raise ValueError(f"{what} names {', '.join(unknown)}, which board {hboard.name} does not have "
                         f"(points look like 'Oa1.n', squares like 'Oa1')")


def render_hanky(hboard, position: Mapping[str, Any] | None = None, *,
                 piles: Mapping[int, int] | None = None, highlights: Mapping[str, BGR] | None = None,
                 unit_px: float = 90, labels: bool = False, title: str | None = None,
                 cloth: str | None = None) -> np.ndarray:
    """Draw a Brain Hanky board with ``position`` on it; returns a BGR uint8 image.

    ``cloth``: draw the board in a printable cloth's colours (``CLOTHS``, as ``arbiter
    print-board`` prints it); by default the cream cloth of the docs' pictures.
    ``position`` maps point names (``"Oc3.n"``) to rings and square names (``"Oc3"``) to gems:
    a piece with ``.owner`` and ``.kind`` ("ring" or "gem"), or an int owner (the kind then
    follows from the name). ``piles`` maps a side to the number of gems it has captured, drawn
    in that side's gem colour in a strip under the board. ``highlights`` maps a point or square
    name to a BGR colour: a halo round the point, or round the whole square. ``labels`` writes
    the square names at the gem spots; ``title`` (may contain newlines) goes in a top band.
    Unknown names raise ValueError, so a misspelt name never vanishes silently.
    """
    position = dict(position or {})
    highlights = dict(highlights or {})
    _check_names(hboard, position, "position")
    _check_names(hboard, highlights, "highlights")
    pile_counts = _check_piles(piles)
    pieces = []
    for name, piece in position.items():
        owner, kind = _owner_and_kind(piece, "ring" if name in hboard.graph.coords else "gem")
        pieces.append((name, _side_colours(owner)[kind], kind))

    lay = _layout(hboard, unit_px, title)
    width, height = hanky_image_size(hboard, unit_px, title, pile_counts)
    img = np.empty((height, width, 3), np.uint8)
    look = cloth_look(cloth)
    webs = look.webs
    img[:] = look.background
    n = hboard.size

    def places(name: str) -> list[tuple[int, int]]:
        xy, web = _spot(hboard, name)
        return [lay.pixel(*c) for c in _copies(hboard, xy, web)]

    cv2.rectangle(img, lay.pixel(0, n), lay.pixel(n, 0), look.frame, 1, _AA)
    for web in ("B", "O"):  # orange on top where bridges cross; neither web hides the other
        colour = webs[web]
        for a, b in hboard.web_edges(web):
            for p, q in edge_segments(hboard, a, b):
                cv2.line(img, lay.pixel(*p), lay.pixel(*q), colour, lay.line_width, _AA)
    for name in hboard.graph.points:
        for c in places(name):
            cv2.circle(img, c, lay.dot_radius, webs[hboard.point_web[name]], -1, _AA)
    if labels:
        scale = 0.3 * lay.unit / 90
        for web in ("O", "B"):
            for name in hboard.whole_squares[web]:
                for c in places(name):
                    _put_centred(img, name, c, scale, look.label)
    halo_w = max(2, round(lay.unit / 30))
    for name, colour in highlights.items():
        colour = tuple(int(v) for v in colour)
        if name in hboard.squares:  # the whole square: its gem spot and the four points round it
            radius = round(R * lay.unit) + lay.ring_radius + halo_w + 2
        else:
            radius = lay.ring_radius + halo_w // 2 + 3
        for c in places(name):
            cv2.circle(img, c, radius, colour, halo_w, _AA)
    for name, colour, kind in pieces:
        for c in places(name):
            if kind == "ring":
                _draw_ring(img, c, colour, lay)
            else:
                _draw_gem(img, c, colour, lay.gem_radius, lay.outline)
    _draw_piles(img, lay, pile_counts)
    if title:
        if look is not CREAM:  # a print's title on paper above the cloth, where it reads
            img[:lay.header] = 255
        _draw_title(img, title, _TITLE_STYLE)
    return img
