"""Boards to print at true scale, with the four ArUco markers the camera registers against.

``render_printable`` draws a board on white paper covering ``markers.print_extent(board)``: the
board itself at a physical scale (``UNIT_MM``), the four markers of ``markers.marker_layout``
upright at their board coordinates with their white quiet zone, and a footer with the board's
name, "print at 100% scale" and a 50 mm bar to check the print with a ruler.

``PrintLayout`` is the pixel transform of that image (board y up, image rows down), so tests,
builders and the camera code ask where a point or a marker corner lands instead of re-deriving
it. ``write_png`` writes the image (with its dpi in the PNG header) and ``<stem>.points.json``
beside it; ``write_pdf`` writes a true-scale PDF, tiled over several pages with overlap and
alignment marks when the board does not fit one sheet (Brain Hanky's bandanna on A4).

Pixel convention: integer (col, row) is the centre of a pixel, as for OpenCV drawing.
"""

from __future__ import annotations

import json
import math
import re
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from . import markers
from .render import BoardStyle, render_board

BGR = tuple[int, int, int]
MM_PER_INCH = 25.4
WHITE: BGR = (255, 255, 255)
INK: BGR = (20, 20, 20)
_FONT = cv2.FONT_HERSHEY_SIMPLEX
_AA = cv2.LINE_AA

UNIT_MM: dict[str, float] = {
    # HTJB boards: a 7x7 grid, one unit = the spacing of neighbouring spots (the inner ring's
    # side). The brief asked for 35 mm ("the universal board is 21 cm across and fits A4"), but the
    # markers (``markers.print_extent``) make the print 1.4 x the board's span: 8.4 units, which at
    # 35 mm is 294 mm, more than A4 (or even A3's short side) holds inside 10 mm margins. 22.5 mm
    # makes the whole print 189 mm square, so it fits one A4 sheet (190 x 277 mm printable); the
    # board is then 13.5 cm across and takes pieces up to about 20 mm. Pass ``unit_mm=35`` to
    # ``render_printable``/``write_pdf`` for the larger board (tiled over four A4 or two A3 pages).
    "htjb": 22.5,
    # Brain Hanky: 6 x 6 cells on a 22-inch (558.8 mm) bandanna, one unit = one cell. The
    # periodic boards and the 12 x 12 expanded board keep the same cell size.
    "brain-hanky": 558.8 / 6,
    # The two-grid gem game: its coordinates are boards.md's times two (engine.boards.twin_grids),
    # so a step along a grid is two units: 22.5 mm, like an HTJB board's, and a diagonal step
    # between the grids 15.9 mm, room for gems up to about 13 mm across. The 11-gem board prints
    # 173 mm square with its markers (one A4 sheet); the 15-gem board 236 mm (A3, or tiled on A4).
    "twin-grids": 11.25,
    # Brainmaster: one unit = the rows' pitch (code holes lie 1.5 units apart in a row). 15 mm takes
    # code pegs up to about 11 mm across and indicator pegs up to 4.5 mm; the 12-row board prints
    # about 240 mm tall and 140 mm wide with its markers (A4).
    "brainmaster": 15.0,
    # Thinking In Circles: one unit = a track's radius, its 14 spaces 0.45 units apart. At 21 mm the
    # five tracks and markers make a 188 mm square (one A4 sheet) and a space is 9.4 mm from the
    # next, room for tokens up to about 8 mm; ``unit_mm`` prints it larger, tiled.
    "circles": 21.0,
}
"""Millimetres per board unit, per board family."""

PAPER_MM: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "a3": (297.0, 420.0),
    "letter": (215.9, 279.4),
}
"""Paper sizes (width, height) in millimetres, portrait."""

PAGE_MARGIN_MM = 10.0
TILE_OVERLAP_MM = 10.0
SCALE_BAR_MM = 50.0

_HANKY_NAME = re.compile(r"brain-hanky-(\d+)(-periodic|-orange-periodic)?$")


# ---------------------------------------------------------------------------- boards
def family(board) -> str:
    """The ``UNIT_MM`` key of ``board`` (a ``BoardGraph`` or its name)."""
    if isinstance(board, str):
        from engine.boards import board as board_by_name

        board = board_by_name(board)
    return board.style


def mm_per_unit(board) -> float:
    """Millimetres per board unit when ``board`` is printed at true scale."""
    return UNIT_MM[family(board)]


def _hanky_for(graph):
    """The ``BrainHankyBoard`` whose graph is ``graph`` (found from its name), or None."""
    m = _HANKY_NAME.match(graph.name)
    if not m:
        return None
    from engine.boards import brain_hanky_board

    size, wrap = int(m.group(1)), m.group(2)
    hboard = brain_hanky_board(size, wrap is not None, False if wrap == "-orange-periodic" else None)
    return hboard if hboard.graph is graph or hboard.graph.name == graph.name else None


def resolve(game_or_board) -> tuple[Any, Any]:
    """(BoardGraph, BrainHankyBoard or None) for a game name, a board name or a board object.

    Game names (``engine.names()``) are tried first, then board names
    (``engine.boards.board_names()``); anything else raises ValueError naming both lists.
    """
    import engine
    from engine.boards import BrainHankyBoard, board_names
    from engine.boards import board as board_by_name

    if isinstance(game_or_board, BrainHankyBoard):
        return game_or_board.graph, game_or_board
    if not isinstance(game_or_board, str):
        graph = game_or_board
        if not hasattr(graph, "coords") or not hasattr(graph, "edges"):
            raise TypeError(f"cannot print {game_or_board!r}: give a game or board name or a board")
        return graph, (_hanky_for(graph) if family(graph) == "brain-hanky" else None)
    name = game_or_board
    if name in engine.names():
        graph = engine.load(name).board
        return graph, (_hanky_for(graph) if family(graph) == "brain-hanky" else None)
    if name in board_names():
        graph = board_by_name(name)
        return graph, (_hanky_for(graph) if family(graph) == "brain-hanky" else None)
    raise ValueError(f"unknown game or board {name!r}; games: {', '.join(engine.names())}; "
                     f"boards: {', '.join(board_names())}")


# ---------------------------------------------------------------------------- layout
@dataclass(frozen=True)
class PrintLayout:
    """Where board coordinates land in a ``render_printable`` image.

    ``col = col0 + x * px_per_unit`` and ``row = row0 - y * px_per_unit`` (board y up, rows
    down). The image covers ``markers.print_extent(board)``: ``width`` x ``height`` pixels.
    ``col0``/``row0`` are chosen so the corner of the board's extent falls on a whole pixel.
    """

    board: Any  # BoardGraph
    dpi: float
    mm_per_unit: float
    px_per_unit: float
    col0: float
    row0: float
    width: int
    height: int
    extent: tuple[float, float, float, float]  # markers.print_extent(board), board units

    @classmethod
    def for_board(cls, board, dpi: float = 150, unit_mm: float | None = None) -> "PrintLayout":
        if dpi <= 0:
            raise ValueError(f"dpi must be positive, not {dpi}")
        mpu = float(unit_mm) if unit_mm is not None else mm_per_unit(board)
        if mpu <= 0:
            raise ValueError(f"unit_mm must be positive, not {unit_mm}")
        ppu = mpu * dpi / MM_PER_INCH
        ex0, ey0, ex1, ey1 = markers.print_extent(board)
        bx0, _, _, by1 = markers.board_extent(board)
        col0 = round((bx0 - ex0) * ppu) - bx0 * ppu
        row0 = round((ey1 - by1) * ppu) + by1 * ppu
        return cls(board, float(dpi), mpu, ppu, col0, row0, round((ex1 - ex0) * ppu),
                   round((ey1 - ey0) * ppu), (ex0, ey0, ex1, ey1))

    @property
    def px_per_mm(self) -> float:
        return self.dpi / MM_PER_INCH

    def to_pixel(self, xy) -> tuple[float, float]:
        """(col, row), floats, of board coordinates ``xy``."""
        return (self.col0 + float(xy[0]) * self.px_per_unit, self.row0 - float(xy[1]) * self.px_per_unit)

    def point_pixels(self) -> dict[str, tuple[float, float]]:
        """Every point of the board: {name: (col, row)}."""
        return {p: self.to_pixel(self.board.coords[p]) for p in self.board.points}

    def marker_pixel_corners(self) -> dict[int, np.ndarray]:
        """{marker id: (4, 2) float array of (col, row)}: top-left, top-right, bottom-right, bottom-left."""
        return {m.id: np.array([self.to_pixel(c) for c in m.corners()], np.float64)
                for m in markers.marker_layout(self.board)}


def _ipt(p) -> tuple[int, int]:
    return round(p[0]), round(p[1])


def _mm(layout: PrintLayout, mm: float, least: int = 1) -> int:
    return max(least, round(mm * layout.px_per_mm))


def _text_scale(layout: PrintLayout, cap_mm: float) -> float:
    """Hershey font scale whose capitals are ``cap_mm`` tall (22 px at scale 1)."""
    return cap_mm * layout.px_per_mm / 22.0


# ---------------------------------------------------------------------------- drawing
def _paste_dark(canvas: np.ndarray, img: np.ndarray, left: int, top: int) -> None:
    """Lay ``img`` on ``canvas`` at (left, top), keeping the darker pixel (ink over white paper)."""
    h, w = img.shape[:2]
    c0, r0 = max(0, left), max(0, top)
    c1, r1 = min(canvas.shape[1], left + w), min(canvas.shape[0], top + h)
    if c1 <= c0 or r1 <= r0:
        return
    region = canvas[r0:r1, c0:c1]
    np.minimum(region, img[r0 - top:r1 - top, c0 - left:c1 - left], out=region)


def _draw_htjb(canvas: np.ndarray, layout: PrintLayout, labels: bool) -> None:
    """``render_board`` at the layout's scale, on white, pasted so its points land on ``to_pixel``."""
    ppu = layout.px_per_unit
    margin = round(0.6 * ppu)
    style = BoardStyle(
        unit_px=ppu, margin_px=margin, background=WHITE,
        line_width=_mm(layout, 1.0), point_radius=_mm(layout, 2.5, 2),
        piece_radius=round(0.33 * ppu),  # labels clear a piece of two thirds of the spacing
        label_scale=_text_scale(layout, 2.8), labels=labels)
    img = render_board(layout.board, style=style, labels=False)
    bx0, _, _, by1 = markers.board_extent(layout.board)
    left, top = _ipt(layout.to_pixel((bx0, by1)))  # whole pixels by construction of col0/row0
    _paste_dark(canvas, img, left - margin, top - margin)
    if labels:
        _draw_htjb_labels(canvas, layout, style)


def _own_drawing(draw):
    """A style's own print drawing (``draw(canvas, frame, board, labels)``) at the layout's transform."""
    def drawer(canvas: np.ndarray, layout: PrintLayout, labels: bool) -> None:
        from .board_frame import Frame

        frame = Frame(0.0, 0.0, layout.px_per_unit, layout.col0, layout.row0, layout.width, layout.height)
        draw(canvas, frame, layout.board, labels)
    return drawer


def _print_drawers() -> dict[str, Any]:
    """Board style -> how its board is printed; a style not named here prints as lines and points
    (``_draw_htjb``). Brainmaster's holes and the circles' symbols have drawings of their own."""
    from .render_circles import draw_circles_print
    from .render_pegs import draw_pegs_print

    return {"brainmaster": _own_drawing(draw_pegs_print), "circles": _own_drawing(draw_circles_print)}


def _label_directions(board, name: str) -> list[tuple[float, float, float]]:
    """render.py's sixteen label directions (dx, dy, clearance), best first, by its own ranking."""
    from .render import _delta, board_extent

    px, py = board.coords[name]
    edge_angles = [math.atan2(-dy, dx) for dx, dy in
                   (_delta(board, (px, py), board.coords[o]) for o in board.neighbours.get(name, ()))]
    x0, y0, x1, y1 = board_extent(board)
    out = (px - (x0 + x1) / 2, -(py - (y0 + y1) / 2))

    def score(angle: float) -> tuple[float, float, float]:
        clearance = min((abs(math.remainder(angle - e, math.tau)) for e in edge_angles), default=math.pi)
        outward = math.cos(angle) * out[0] + math.sin(angle) * out[1]
        return (round(clearance, 6), round(outward, 6), math.cos(angle - math.pi / 4))

    ranked = sorted((k * math.pi / 8 for k in range(16)), key=score, reverse=True)
    return [(math.cos(a), math.sin(a), score(a)[0]) for a in ranked]


def _draw_htjb_labels(canvas: np.ndarray, layout: PrintLayout, style: BoardStyle) -> None:
    """Point names placed as ``render_board`` places them, unless that spot is taken by a marker.

    A corner point's label goes diagonally outwards, which is where a marker and its quiet zone
    sit; such a label moves to the next best direction of render.py's ranking that is clear.
    """
    keep_out = []
    for m in markers.marker_layout(layout.board):
        (c0, r0), (c1, r1) = layout.to_pixel(m.corners()[0]), layout.to_pixel(m.corners()[2])
        q = (c1 - c0) / 4 + 2
        keep_out.append((c0 - q, r0 - q, c1 + q, r1 + q))
    H, W = canvas.shape[:2]
    for name in layout.board.points:
        centre = layout.to_pixel(layout.board.coords[name])
        (w, h), base = cv2.getTextSize(name, _FONT, style.label_scale, 1)
        half_w, half_h = w / 2 + 2, (h + base) / 2 + 2
        chosen = None
        for dx, dy, clearance in _label_directions(layout.board, name):
            dist = style.piece_radius + 3 + abs(dx) * half_w + abs(dy) * half_h
            if 1e-6 < clearance < math.pi / 2:
                dist = max(dist, (half_w + half_h + style.line_width) / math.sin(clearance))
            cx, cy = centre[0] + dx * dist, centre[1] + dy * dist
            box = (cx - half_w, cy - half_h, cx + half_w, cy + half_h)
            clear = all(box[2] < k[0] or box[0] > k[2] or box[3] < k[1] or box[1] > k[3] for k in keep_out)
            if clear and box[0] >= 0 and box[1] >= 0 and box[2] < W and box[3] < H:
                chosen = (cx, cy)
                break
        if chosen is None:
            continue
        cx, cy = chosen
        cv2.rectangle(canvas, (round(cx - half_w), round(cy - half_h)), (round(cx + half_w), round(cy + half_h)),
                      style.background, -1)
        org = (round(cx - w / 2), round(cy + (h - base) / 2))
        cv2.putText(canvas, name, org, _FONT, style.label_scale, style.label_colour, 1, _AA)


def _draw_hanky(canvas: np.ndarray, layout: PrintLayout, hboard, labels: bool, look) -> None:
    """Both webs in the cloth's colours, drawn straight at the layout's transform, on the cloth's
    ground (a border of a fifth of a cell round the play area; the markers keep white paper)."""
    from .render_hanky import _copies, _spot, edge_segments

    n = hboard.size
    at = layout.to_pixel
    line_w = _mm(layout, 1.5)
    dot_r = max(2, round(0.045 * layout.px_per_unit))
    if look.background != WHITE:
        cv2.rectangle(canvas, _ipt(at((-0.2, n + 0.2))), _ipt(at((n + 0.2, -0.2))), look.background, -1)
    cv2.rectangle(canvas, _ipt(at((0, n))), _ipt(at((n, 0))), look.frame, _mm(layout, 0.4), _AA)
    for web in ("B", "O"):  # orange on top where bridges cross, as in render_hanky
        for a, b in hboard.web_edges(web):
            for p, q in edge_segments(hboard, a, b):
                cv2.line(canvas, _ipt(at(p)), _ipt(at(q)), look.webs[web], line_w, _AA)
    for name in hboard.graph.points:
        xy, web = _spot(hboard, name)
        for c in _copies(hboard, xy, web):
            cv2.circle(canvas, _ipt(at(c)), dot_r, look.webs[web], -1, _AA)
    if labels:
        scale = _text_scale(layout, 4.0)
        for web in ("O", "B"):
            for name in hboard.whole_squares[web]:
                xy, _ = _spot(hboard, name)
                for c in _copies(hboard, xy, web):
                    _put_centred(canvas, name, at(c), scale, look.label, 1)


def _put_centred(img: np.ndarray, text: str, centre, scale: float, colour: BGR, thickness: int = 1) -> None:
    (w, h), _ = cv2.getTextSize(text, _FONT, scale, thickness)
    cv2.putText(img, text, (round(centre[0] - w / 2), round(centre[1] + h / 2)), _FONT, scale, colour,
                thickness, _AA)


def _draw_markers(canvas: np.ndarray, layout: PrintLayout) -> None:
    """Each marker upright, its top-left at the marker's top-left corner, with a white quiet zone."""
    dictionary = markers.dictionary()
    for m in markers.marker_layout(layout.board):
        side = round(m.size * layout.px_per_unit)
        # The block's outer edge (half a pixel before the first pixel's centre) on the corner.
        c, r = layout.to_pixel(m.corners()[0])
        left, top = round(c + 0.5), round(r + 0.5)
        quiet = math.ceil(side / 4)
        canvas[max(0, top - quiet):top + side + quiet, max(0, left - quiet):left + side + quiet] = WHITE
        img = cv2.aruco.generateImageMarker(dictionary, m.id, side)
        canvas[top:top + side, left:left + side] = img[:, :, None]


def _draw_footer(canvas: np.ndarray, layout: PrintLayout) -> None:
    """Under the board, between the bottom markers: name, scale note and a 50 mm bar."""
    bx0, by0, bx1, _ = markers.board_extent(layout.board)
    ey0 = layout.extent[1]
    ppu = layout.px_per_unit
    # The band from the bottom of the print up to half a unit under the board (clear of labels).
    band_top = layout.to_pixel((0, by0 - 0.5))[1]
    band_bottom = layout.to_pixel((0, ey0))[1]
    cx = layout.to_pixel(((bx0 + bx1) / 2, 0))[0]
    room = (bx1 - bx0) * ppu  # between the bottom markers' quiet zones, roughly
    text = (f"{layout.board.name} - print at 100% scale ({layout.mm_per_unit:.2f} mm per board unit, "
            f"{layout.dpi:g} dpi)")
    cap_mm = max(3.0, 0.06 * layout.mm_per_unit)  # 3 mm on an A4 board, larger on a bandanna
    scale = _text_scale(layout, cap_mm)
    thick = _mm(layout, 0.1 * cap_mm)
    (w, h), base = cv2.getTextSize(text, _FONT, scale, thick)
    if w > 0.95 * room:
        scale *= 0.95 * room / w
        (w, h), base = cv2.getTextSize(text, _FONT, scale, thick)
    bar_px = SCALE_BAR_MM * layout.px_per_mm
    bar_h = _mm(layout, 2.0, 2)
    small = _text_scale(layout, 0.75 * cap_mm)
    (lw, lh), _ = cv2.getTextSize("50 mm", _FONT, small, 1)
    gap = _mm(layout, cap_mm)
    block = h + base + gap + bar_h
    # Bottom of the block level with the bottom markers' lower edge (their quiet zone below it).
    quiet = markers.marker_layout(layout.board)[0].size / 4 * ppu
    top = max(band_top, band_bottom - quiet - block)
    cv2.putText(canvas, text, (round(cx - w / 2), round(top + h)), _FONT, scale, INK, thick, _AA)
    bar_top = round(top + h + base + gap)
    total = bar_px + _mm(layout, 2.0) + lw
    x0 = round(cx - total / 2)
    # A bar of five 10 mm blocks, alternately filled, so its ends and tenths read with a ruler.
    for k in range(5):
        a = round(x0 + k * bar_px / 5)
        b = round(x0 + (k + 1) * bar_px / 5)
        cv2.rectangle(canvas, (a, bar_top), (b, bar_top + bar_h), INK, -1 if k % 2 == 0 else 1)
    cv2.putText(canvas, "50 mm", (round(x0 + bar_px + _mm(layout, 2.0)), bar_top + bar_h), _FONT, small,
                INK, 1, _AA)


def render_printable(game_name_or_board, dpi: float = 150, labels: bool = True, *,
                     unit_mm: float | None = None, cloth: str | None = None) -> tuple[np.ndarray, PrintLayout]:
    """A true-scale printable image of a board and its markers, and its ``PrintLayout``.

    ``game_name_or_board``: a game name (``"nine-mens-morris"``), a board name (``"morris9"``,
    ``"brain-hanky-6-periodic"``), a ``BoardGraph`` or a ``BrainHankyBoard``. ``unit_mm``
    overrides ``mm_per_unit(board)``. ``cloth``: a Brain Hanky board's colours, a name in
    ``render_hanky.CLOTHS`` (default ``PRINT_CLOTH``, the blue ground a camera reads every
    piece on); other boards print on white. Returns (BGR uint8 image, layout).
    """
    from .render_hanky import PRINT_CLOTH, cloth_look

    look = cloth_look(cloth or PRINT_CLOTH)  # an unknown name is a ValueError saying the known ones
    graph, hboard = resolve(game_name_or_board)
    layout = PrintLayout.for_board(graph, dpi, unit_mm)
    canvas = np.full((layout.height, layout.width, 3), 255, np.uint8)
    if hboard is not None:
        _draw_hanky(canvas, layout, hboard, labels, look)
    else:
        _print_drawers().get(graph.style, _draw_htjb)(canvas, layout, labels)
    _draw_footer(canvas, layout)
    _draw_markers(canvas, layout)  # last: nothing may draw over a marker or its quiet zone
    return canvas, layout


# ---------------------------------------------------------------------------- files
def _png_with_dpi(image: np.ndarray, dpi: float) -> bytes:
    """PNG bytes of ``image`` with a pHYs chunk, so viewers print it at its true size."""
    ok, buf = cv2.imencode(".png", image)
    if not ok:
        raise OSError("could not encode PNG")
    data = buf.tobytes()
    ppm = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    ihdr_end = 8 + 8 + 13 + 4  # signature, IHDR length+type, IHDR data, CRC
    return data[:ihdr_end] + chunk + data[ihdr_end:]


def points_record(layout: PrintLayout, hboard=None) -> dict[str, Any]:
    """What ``write_png`` puts in ``<stem>.points.json`` (pixel positions in that image)."""
    record: dict[str, Any] = {
        "board": layout.board.name,
        "dpi": layout.dpi,
        "mm_per_unit": layout.mm_per_unit,
        "points": {p: [c, r] for p, (c, r) in layout.point_pixels().items()},
        "markers": {str(i): corners.tolist() for i, corners in layout.marker_pixel_corners().items()},
    }
    if hboard is not None:  # gem spots: the squares' centres (first copy on a wrapping web)
        from .render_hanky import _spot

        record["gem_spots"] = {s: list(layout.to_pixel(_spot(hboard, s)[0])) for s in hboard.squares}
    return record


def write_png(game, out_path: str | Path, dpi: float = 150, *, labels: bool = True,
              unit_mm: float | None = None, cloth: str | None = None) -> tuple[Path, Path]:
    """Write the printable PNG (dpi recorded in it) and ``<stem>.points.json`` beside it.

    Returns (png path, json path). The json holds ``{"board", "dpi", "mm_per_unit", "points":
    {point: [col, row]}, "markers": {id: [[col, row] x 4]}}`` (and "gem_spots" for Brain Hanky).
    """
    out_path = Path(out_path)
    if out_path.suffix.lower() != ".png":
        raise ValueError(f"{out_path}: write_png writes .png files only")
    _, hboard = resolve(game)
    image, layout = render_printable(game, dpi, labels, unit_mm=unit_mm, cloth=cloth)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_bytes(_png_with_dpi(image, dpi))
    json_path = out_path.with_name(out_path.stem + ".points.json")
    json_path.write_text(json.dumps(points_record(layout, hboard), indent=1) + "\n")
    return out_path, json_path


@dataclass(frozen=True)
class Tiling:
    """How a print is laid over sheets: orientation, grid and the page size in pixels."""

    paper: str
    landscape: bool
    rows: int
    cols: int
    page_px: tuple[int, int]  # (width, height)

    @property
    def pages(self) -> int:
        return self.rows * self.cols


def _count(length_mm: float, avail_mm: float) -> int:
    if length_mm <= avail_mm + 1e-6:
        return 1
    return math.ceil((length_mm - TILE_OVERLAP_MM) / (avail_mm - TILE_OVERLAP_MM) - 1e-9)


def plan_pages(layout: PrintLayout, paper: str = "a4") -> Tiling:
    """The tiling with fewest sheets (portrait on a tie) that holds the print inside 10 mm margins."""
    try:
        pw, ph = PAPER_MM[paper.lower()]
    except KeyError:
        raise ValueError(f"unknown paper {paper!r}; choose from {', '.join(PAPER_MM)}") from None
    w_mm, h_mm = layout.width / layout.px_per_mm, layout.height / layout.px_per_mm
    best = None
    for landscape in (False, True):
        sw, sh = (ph, pw) if landscape else (pw, ph)
        cols = _count(w_mm, sw - 2 * PAGE_MARGIN_MM)
        rows = _count(h_mm, sh - 2 * PAGE_MARGIN_MM)
        page_px = (round(sw * layout.px_per_mm), round(sh * layout.px_per_mm))
        t = Tiling(paper.lower(), landscape, rows, cols, page_px)
        if best is None or t.pages < best.pages:
            best = t
    return best


def _crop_mark(page: np.ndarray, corner: tuple[int, int], dx: int, dy: int, length: int, gap: int) -> None:
    """An L of two short lines in the margin, pointing at ``corner`` from outside (dx, dy = -1/1)."""
    x, y = corner
    cv2.line(page, (x + dx * gap, y), (x + dx * (gap + length), y), INK, 1)
    cv2.line(page, (x, y + dy * gap), (x, y + dy * (gap + length)), INK, 1)


def _is_white(canvas: np.ndarray, c: int, r: int, half: int) -> bool:
    patch = canvas[max(0, r - half):r + half + 1, max(0, c - half):c + half + 1]
    return patch.size > 0 and bool((patch >= 250).all())


def _tile_pages(canvas: np.ndarray, layout: PrintLayout, tiling: Tiling) -> list[np.ndarray]:
    pw, ph = tiling.page_px
    margin = round(PAGE_MARGIN_MM * layout.px_per_mm)
    avail_w, avail_h = pw - 2 * margin, ph - 2 * margin
    overlap = round(TILE_OVERLAP_MM * layout.px_per_mm)
    H, W = canvas.shape[:2]
    label_scale = _text_scale(layout, 2.2)
    # Crop marks stay in the lower part of the top margin (1 to 4.5 mm from the print), the
    # page label in the upper part (its baseline 4.5 mm from the sheet's edge): they never touch.
    mark_len, mark_gap = _mm(layout, 3.5), _mm(layout, 1.0)
    cross = _mm(layout, 3.0)
    pages = []
    if tiling.pages == 1:  # centred on the sheet
        page = np.full((ph, pw, 3), 255, np.uint8)
        left, top = (pw - W) // 2, (ph - H) // 2
        page[top:top + H, left:left + W] = canvas
        pages.append(page)
        return pages
    step_x = avail_w - overlap if tiling.cols > 1 else avail_w
    step_y = avail_h - overlap if tiling.rows > 1 else avail_h
    # Alignment crosses, in canvas pixels, in the middle of every overlap strip: each shows on
    # both pages of a seam, so the pages line up when their crosses cover each other. Only on
    # white paper, never over the board or a marker.
    crosses = []
    for c in range(1, tiling.cols):
        x = c * step_x + overlap // 2
        for frac in (0.1, 0.3, 0.5, 0.7, 0.9):
            y = round(frac * H)
            if _is_white(canvas, x, y, cross):
                crosses.append((x, y))
    for r in range(1, tiling.rows):
        y = r * step_y + overlap // 2
        for frac in (0.1, 0.3, 0.5, 0.7, 0.9):
            x = round(frac * W)
            if _is_white(canvas, x, y, cross):
                crosses.append((x, y))
    for r in range(tiling.rows):
        for c in range(tiling.cols):
            x0, y0 = c * step_x, r * step_y
            tile = canvas[y0:min(H, y0 + avail_h), x0:min(W, x0 + avail_w)].copy()
            for (cx, cy) in crosses:
                tx, ty = cx - x0, cy - y0
                if 0 <= tx < tile.shape[1] and 0 <= ty < tile.shape[0]:
                    cv2.line(tile, (tx - cross, ty), (tx + cross, ty), INK, 1)
                    cv2.line(tile, (tx, ty - cross), (tx, ty + cross), INK, 1)
                    cv2.circle(tile, (tx, ty), cross // 2, INK, 1, _AA)
            page = np.full((ph, pw, 3), 255, np.uint8)
            th, tw = tile.shape[:2]
            page[margin:margin + th, margin:margin + tw] = tile
            l, t, rr, b = margin, margin, margin + tw - 1, margin + th - 1
            for corner, dx, dy in (((l, t), -1, -1), ((rr, t), 1, -1), ((rr, b), 1, 1), ((l, b), -1, 1)):
                _crop_mark(page, corner, dx, dy, mark_len, mark_gap)
            # Dashed lines where the neighbouring page's print begins: overlap the sheets up to them.
            dash = _mm(layout, 2.0)
            if c + 1 < tiling.cols:
                xs = l + tw - overlap
                for yy in range(t, b, 2 * dash):
                    cv2.line(page, (xs, yy), (xs, min(b, yy + dash)), (150, 150, 150), 1)
            if r + 1 < tiling.rows:
                ys = t + th - overlap
                for xx in range(l, rr, 2 * dash):
                    cv2.line(page, (xx, ys), (min(rr, xx + dash), ys), (150, 150, 150), 1)
            label = (f"{layout.board.name}: row {r + 1}, column {c + 1} of {tiling.rows} x {tiling.cols}"
                     f" - print at 100% scale; overlap the dashed strip ({TILE_OVERLAP_MM:g} mm) on the next page")
            lx = margin + 2 * mark_len  # clear of the top-left crop mark
            (w, h), _ = cv2.getTextSize(label, _FONT, label_scale, 1)
            scale = label_scale * min(1.0, (pw - lx - margin - 2 * mark_len) / max(1, w))
            cv2.putText(page, label, (lx, round(4.5 * layout.px_per_mm)), _FONT, scale, INK, 1, _AA)
            pages.append(page)
    return pages


def render_pages(game, paper: str = "a4", dpi: float = 150, *, labels: bool = True,
                 unit_mm: float | None = None, cloth: str | None = None
                 ) -> tuple[list[np.ndarray], Tiling, PrintLayout]:
    """The sheets ``write_pdf`` writes, as BGR images (each exactly the paper size at ``dpi``)."""
    canvas, layout = render_printable(game, dpi, labels, unit_mm=unit_mm, cloth=cloth)
    tiling = plan_pages(layout, paper)
    return _tile_pages(canvas, layout, tiling), tiling, layout


def write_pdf(game, out_path: str | Path, paper: str = "a4", dpi: float = 150, *, labels: bool = True,
              unit_mm: float | None = None, cloth: str | None = None) -> Tiling:
    """Write a true-scale PDF of the printable board: one sheet if it fits, else a taped-together grid.

    Needs Pillow. Returns the ``Tiling`` used (``.pages`` sheets, ``.rows`` x ``.cols``).
    """
    from PIL import Image

    out_path = Path(out_path)
    if out_path.suffix.lower() != ".pdf":
        raise ValueError(f"{out_path}: write_pdf writes .pdf files only")
    pages, tiling, _ = render_pages(game, paper, dpi, labels=labels, unit_mm=unit_mm, cloth=cloth)
    images = [Image.fromarray(cv2.cvtColor(p, cv2.COLOR_BGR2RGB)) for p in pages]
    out_path.parent.mkdir(parents=True, exist_ok=True)
    images[0].save(out_path, "PDF", resolution=float(dpi), save_all=True, append_images=images[1:])
    return tiling


__all__ = ["MM_PER_INCH", "PAPER_MM", "PrintLayout", "Tiling", "UNIT_MM", "family", "mm_per_unit",
           "plan_pages", "points_record", "render_pages", "render_printable", "resolve", "write_pdf",
           "write_png"]
