"""What a camera over a printed board would see: seeded, reproducible synthetic frames.

The simulator starts from a *flat scene*: a top-down picture of the printed board (``Scene.image``)
and where board coordinates land in it (``Scene.to_pixel``). How the scene was drawn does not
matter here: ``simple_scene`` draws a small stand-in (paper, board, four ArUco markers), and the
true printable board can be passed through ``scene_from_image`` instead.

``simulate(scene, seed, settings)`` then picks a plausible camera from the seed and returns a
``SimFrame``: the picture plus the ground truth needed to test the vision code against it.

The camera is a pinhole of random field of view looking at the scene plane, which is rotated in
3D (a real tilt, so far edges shrink) and turned about the optical axis. The pipeline is:

0. the pieces (``Scene.pieces``) drawn onto the bare print as solids seen by that camera under
   one lamp: shadows cast on the board away from the lamp and a contact shadow at each foot,
   shading of rounded edges, ring tori and gem facets, specular highlights, and each piece's top
   where a point at its height projects (the ray from the camera through the top, followed to
   the board), with its side wall between top and foot (``CameraSettings`` switches each off;
   ``outlines=True`` keeps the flat, outlined pieces of ``Scene.image``);
1. perspective warp of the scene onto a table (one ``cv2.remap`` that also applies the lens
   distortion, so the scene is resampled once);
2. an optional hand and arm over the board, with a soft shadow;
3. uneven lighting (a smooth gradient and soft shadow blobs), a colour cast, Gaussian sensor noise,
   blur, and a JPEG round trip.

Everything random comes from ``numpy.random.default_rng`` streams derived from the seed, one per
stage, so the same seed and settings give the same frame bit for bit, and switching the hand on
does not move the camera.

Pixel convention: (col, row) with integer values at pixel centres, as OpenCV uses for warps and
the ArUco detector reports corners.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from . import markers

Range = tuple[float, float]
PAPER: tuple[int, int, int] = (250, 250, 250)

# Table colours (BGR) round the paper: wood tones and a grey desk.
_TABLES = ((70, 110, 150), (50, 80, 115), (95, 140, 175), (110, 110, 105), (40, 55, 70))
# Skin tones (BGR), light to dark.
_SKINS = ((150, 175, 225), (120, 155, 205), (95, 130, 185), (70, 100, 150), (50, 70, 105))


# ---------------------------------------------------------------------------- scene
# Piece heights in board units: a man is a thick disc, a ring a flat torus, a gem a low cut stone.
MAN_HEIGHT, RING_HEIGHT, GEM_HEIGHT = 0.2, 0.07, 0.1
PEG_BEVEL = 0.7  # the share of a peg head's radius that curves down (a man's rounded edge: 0.22)


@dataclass(frozen=True)
class ScenePiece:
    """One piece standing on the scene, in board units: ``xy`` its spot (one copy of it: a spot
    on the edge of a wrapping Brain Hanky web gives one piece per place it shows), ``kind`` "man",
    "ring", "gem" or "peg" (a domed head: Brainmaster's pegs), ``colour`` its BGR albedo,
    ``radius`` (a gem's half-diagonal), ``height``, ``band`` a ring's band width (outer minus
    inner radius), ``spot`` the point or square name. ``look``: how a man's top is shaped and
    what it is made of (``PieceLook``'s ``bevel``, ``dome``, ``rim``, ``metal``, ``gloss``); None
    draws the simulator's usual man."""

    xy: tuple[float, float]
    kind: str
    colour: tuple[int, int, int]
    radius: float
    height: float
    band: float = 0.0
    spot: str = ""
    look: PieceLook | None = None


# The usual man's top: the outer share of its radius that turns down to the wall, and how much
# its face domes (the tilt of its normal at the edge, radians).
_BEVEL, _FACE_DOME = 0.22, 0.1
_SHAPES = ("man", "ring", "gem")


@dataclass(frozen=True)
class PieceLook:
    """What the pieces of one class look like, as data: the simulator draws any set of pieces a
    table may have (four colours of men, coins, beads, wooden stones) from these numbers alone,
    so a test can put pieces on the board that no code names (``simple_scene(..., looks=)``).

    ``colour``: BGR albedo (0-255 each). ``shape``: the drawing it is made from, "man" (a
    solid of revolution standing on its foot: a disc, a coin, a bead), "ring" (a torus) or "gem"
    (a cut stone). ``size``: its radius as a share of the usual piece's on that board (1.0 the
    usual). ``height``: board units (None: the shape's usual, ``MAN_HEIGHT`` ...). For a man:
    ``bevel`` the outer share of the radius rounding down to the wall, ``dome`` from 0 (a flat
    face) to 1 (a sphere's cap: a bead), ``rim`` the share of the radius a raised rim takes at the
    edge (a coin; 0 none), ``metal`` from 0 (paint, plastic, wood: white highlights over a
    coloured body) to 1 (metal: dark body, highlights in its own colour, a broad sheen).
    ``gloss``: the strength of its highlights (None: the frame's, ``CameraSettings.gloss``)."""

    colour: tuple[int, int, int]
    shape: str = "man"
    size: float = 1.0
    height: float | None = None
    bevel: float = _BEVEL
    dome: float = 0.0
    rim: float = 0.0
    metal: float = 0.0
    gloss: float | None = None

    def __post_init__(self) -> None:
        if self.shape not in _SHAPES:
            raise ValueError(f"piece shape {self.shape!r}: one of {', '.join(_SHAPES)}")
        c = tuple(self.colour)
        if len(c) != 3 or not all(0 <= float(v) <= 255 for v in c):
            raise ValueError(f"piece colour {self.colour!r}: three numbers 0-255 (blue, green, red)")
        object.__setattr__(self, "colour", tuple(int(round(float(v))) for v in c))
        if not 0.2 <= self.size <= 2.0:
            raise ValueError(f"piece size {self.size}: a share of the usual piece's radius, 0.2 to 2")
        if self.height is not None and not 0.005 <= self.height <= 1.0:
            raise ValueError(f"piece height {self.height}: board units, 0.005 to 1")
        for name in ("bevel", "dome", "rim", "metal"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"piece {name} {getattr(self, name)}: 0 to 1")
        if self.gloss is not None and not 0.0 <= self.gloss <= 1.0:
            raise ValueError(f"piece gloss {self.gloss}: 0 to 1")

    @classmethod
    def of(cls, value: PieceLook | Mapping[str, Any]) -> PieceLook:
        """A look from itself or from a plain mapping of its fields (``{"colour": (40, 160, 40),
        "dome": 1.0}``); an unknown field is an error that names it."""
        if isinstance(value, PieceLook):
            return value
        if not isinstance(value, Mapping):
            raise ValueError(f"a piece look is a mapping of its fields, not {value!r}")
        known = set(cls.__dataclass_fields__)
        bad = sorted(set(value) - known)
        if bad:
            raise ValueError(f"unknown piece look field(s) {', '.join(bad)}: use {', '.join(sorted(known))}")
        return cls(**value)

    @property
    def usual(self) -> bool:
        """True when a man of this look is drawn exactly as the simulator's usual man."""
        return (self.bevel == _BEVEL and self.dome == 0.0 and self.rim == 0.0 and self.metal == 0.0
                and self.gloss is None)


Looks = Mapping[Any, "PieceLook | Mapping[str, Any]"]


def looks_of(looks: Looks | None) -> dict[tuple[int, str], PieceLook]:
    """``looks`` keyed by (owner, kind) (a ``Piece``, or a plain ``(owner, kind)`` pair), each a
    ``PieceLook``: the form ``simple_scene`` takes them in."""
    out: dict[tuple[int, str], PieceLook] = {}
    for key, value in (looks or {}).items():
        owner, kind = (key.owner, key.kind) if hasattr(key, "owner") else key
        out[(int(owner), str(kind))] = PieceLook.of(value)
    return out


def frozen_looks(looks: Looks | None) -> tuple:
    """``looks`` as a hashable value (for caches keyed by what a frame depends on)."""
    return tuple(sorted(looks_of(looks).items()))


@dataclass
class Scene:
    """A top-down picture of the printed board and where board coordinates land in it.

    ``image``: BGR uint8, the print with white paper round the board and its markers, and the
    pieces drawn flat, as the docs renderer draws them (dark outlines): the old look,
    photographed when ``CameraSettings.outlines`` is true.
    ``to_pixel``: board (x, y) -> scene pixel (col, row), floats (board y up, rows down).
    ``board``: the ``BoardGraph`` whose points the picture shows.
    ``bare``: the same print without the pieces (None if unknown: ``image`` is then all there is).
    ``pieces``: the pieces standing on it, which ``simulate`` draws as solid objects on ``bare``
    (shaded, glossy, casting shadows, seen in parallax) unless ``CameraSettings.outlines``.
    """

    image: np.ndarray
    to_pixel: Callable[[tuple[float, float]], tuple[float, float]]
    board: Any
    bare: np.ndarray | None = None
    pieces: tuple[ScenePiece, ...] = ()

    def px_per_unit(self) -> float:
        """Scene pixels per board unit (the mean of both axes)."""
        o = np.array(self.to_pixel((0.0, 0.0)))
        return float(np.linalg.norm(np.array(self.to_pixel((1.0, 0.0))) - o) +
                     np.linalg.norm(np.array(self.to_pixel((0.0, 1.0))) - o)) / 2

    def board_to_scene(self) -> np.ndarray:
        """3x3 homography board -> scene pixels, fitted to ``to_pixel`` (exact for a flat print)."""
        x0, y0, x1, y1 = markers.print_extent(self.board)
        src = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float64)
        dst = np.array([self.to_pixel((float(x), float(y))) for x, y in src], np.float64)
        return cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32)).astype(np.float64)


def scene_from_image(image: np.ndarray, board, extent: tuple[float, float, float, float]) -> Scene:
    """A scene from a picture covering the board rectangle ``extent`` = (x0, y0, x1, y1) exactly.

    The image's left edge is x0 and its right edge x1, its top edge y1 and its bottom edge y0
    (board y up, rows down); pixel centres sit half a pixel in from the edges.
    """
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError("scene image must be BGR uint8 (H, W, 3)")
    x0, y0, x1, y1 = map(float, extent)
    if not (x1 > x0 and y1 > y0):
        raise ValueError(f"empty extent {extent}")
    h, w = image.shape[:2]
    sx, sy = w / (x1 - x0), h / (y1 - y0)

    def to_pixel(xy: tuple[float, float]) -> tuple[float, float]:
        return (xy[0] - x0) * sx - 0.5, (y1 - xy[1]) * sy - 0.5

    return Scene(image, to_pixel, board)


def _hanky_for(board):
    """The ``BrainHankyBoard`` behind a Brain Hanky graph, or None if it cannot be found."""
    if board.style != "brain-hanky":
        return None
    from engine.boards import brain_hanky_for

    hboard = brain_hanky_for(board.name)
    # Same name, same geometry: boards are generated deterministically from their name's size
    # and wrap flags, though a game may hold its own copy of the graph.
    return hboard if hboard is not None and hboard.graph.points == board.points else None


def _board_render(board, position, ppu: float, cloth: str | None = None):
    """(image, background colour, col0, row0): the board drawn at ``ppu`` pixels per unit, and
    the pixel of board point (x0, y1) of ``render.board_extent`` in it (the top-left corner).
    ``cloth``: a Brain Hanky board in that printable cloth's colours (``render_hanky.CLOTHS``)."""
    from . import render

    hboard = _hanky_for(board)
    if hboard is not None:
        from .render_hanky import cloth_look, hanky_point_to_pixel, render_hanky

        img = render_hanky(hboard, position, unit_px=ppu, labels=False, cloth=cloth)
        name = hboard.graph.points[0]
        px, py = hboard.graph.coords[name]
        c, r = hanky_point_to_pixel(hboard, name, unit_px=ppu)
        n = hboard.size
        return img, cloth_look(cloth).background, round(c - px * ppu), round(r - (n - py) * ppu)
    k = ppu / render.DEFAULT_STYLE.unit_px
    d = render.DEFAULT_STYLE
    style = render.BoardStyle(unit_px=ppu, margin_px=max(4, round(0.45 * ppu)),
                              line_width=max(1, round(d.line_width * k)),
                              point_radius=max(2, round(d.point_radius * k)),
                              piece_radius=max(4, round(d.piece_radius * k)),
                              outline_width=max(1, round(d.outline_width * k)), labels=False)
    img = render.render_board(board, position, labels=False, style=style)
    x0, _, _, y1 = render.board_extent(board)
    c, r = render.xy_to_pixel(board, (x0, y1), style)
    return img, style.background, c, r


def simple_scene(board, position: Mapping[str, Any] | None = None, px_per_unit: float = 80, *,
                 markers: bool = True, cloth: str | None = None, looks: Looks | None = None) -> Scene:
    """A stand-in print: white paper over ``markers.print_extent(board)``, the board, four markers.

    The board is drawn by ``vision.render`` (``render_hanky`` for Brain Hanky boards) without
    labels, on a patch of its own background colour reaching a little past the play area; the
    markers are drawn upright at ``Marker.corners()`` with a white quiet zone round them.
    ``markers=False`` leaves them and their quiet zones out (a board without markers, for outline
    registration); everything else in the picture is the same, and the default draws as before.
    ``cloth`` draws a Brain Hanky board in a printable cloth's colours (``"slate"``, what
    ``arbiter print-board`` prints); by default the cream cloth the simulator always drew.
    ``Scene.image`` has the pieces drawn flat (the docs look); ``Scene.bare`` is the print without
    them and ``Scene.pieces`` lists them, sized as drawn, for ``simulate`` to draw as solids.
    ``looks``: {(owner, kind): ``PieceLook`` or a mapping of its fields} for the solids of those
    classes (colour, shape, size, material); the others look as usual. ``Scene.image``'s flat
    pieces keep the docs renderer's colours.
    """
    draw_markers = markers
    from . import markers  # the module: the keyword above shadows its name here
    ppu = float(px_per_unit)
    X0, Y0, X1, Y1 = markers.print_extent(board)
    w, h = round((X1 - X0) * ppu), round((Y1 - Y0) * ppu)
    scene = scene_from_image(np.full((h, w, 3), PAPER, np.uint8), board, (X0, Y0, X1, Y1))
    img = scene.image

    def px(xy):  # integer pixel whose top-left edge is nearest to board point xy
        c, r = scene.to_pixel(xy)
        return round(c + 0.5), round(r + 0.5)

    bx0, by0, bx1, by1 = markers.board_extent(board)
    layout = markers.marker_layout(board)
    gap = markers.GAP_FRACTION * max(bx1 - bx0, by1 - by0)
    pad = 0.5 * gap  # the board's own colour reaches half way to the markers
    own = _own_drawing(board)
    if own is None:
        render_img, background, rc, rr = _board_render(board, position, ppu, cloth)
        c0, r0 = px((bx0 - pad, by1 + pad))
        c1, r1 = px((bx1 + pad, by0 - pad))
        img[r0:r1, c0:c1] = background
    # Markers first, so a piece drawn near a corner may overlap the quiet zone, never the marker.
    for m in layout if draw_markers else ():
        tl = m.corners()[0]
        side = round(m.size * ppu)
        quiet = round(m.size / 4 * ppu)
        c, r = px(tuple(tl))
        img[max(r - quiet, 0):r + side + quiet, max(c - quiet, 0):c + side + quiet] = PAPER
        tag = cv2.aruco.generateImageMarker(markers.dictionary(), m.id, side)
        img[r:r + side, c:c + side] = tag[:, :, None]
    if own is not None:
        return _own_scene(scene, own, position or {})
    # Paste everything the renderer drew in ink (lines, points, pieces) at its place: once
    # without the pieces (``bare``, for the simulator's own pieces), once with them drawn flat.
    from . import render
    x0, _, _, y1 = render.board_extent(board)
    cx, cy = scene.to_pixel((x0, y1))
    oc, orow = round(cx - rc), round(cy - rr)

    def paste(target: np.ndarray, drawn: np.ndarray) -> None:
        ink = np.any(drawn != np.array(background, np.uint8), axis=2)
        hh, ww = drawn.shape[:2]
        sc0, sr0 = max(oc, 0), max(orow, 0)
        sc1, sr1 = min(oc + ww, w), min(orow + hh, h)
        sub = ink[sr0 - orow:sr1 - orow, sc0 - oc:sc1 - oc]
        target[sr0:sr1, sc0:sc1][sub] = drawn[sr0 - orow:sr1 - orow, sc0 - oc:sc1 - oc][sub]

    pieces = _scene_pieces(board, position, ppu, looks) if position else ()
    bare = img.copy() if pieces else img
    if pieces:
        paste(bare, _board_render(board, {}, ppu, cloth)[0])
    paste(img, render_img)
    scene.bare = bare
    scene.pieces = pieces
    return scene


# Board style -> (module, its print drawing, its pieces) for boards whose print is not lines and
# points: Brainmaster's holes and Thinking In Circles' tracks. The drawing is called as
# ``draw(canvas, frame, board, labels)`` (the board as ``arbiter print-board`` prints it); the
# pieces as ``solids(board, position)``: each piece's spot, centre, solid kind, colour, radius and
# height in board units (pegs and pennies sized to their holes and spaces).
OWN_DRAWINGS = {"brainmaster": ("vision.render_pegs", "draw_pegs_print", "solids"),
                "circles": ("vision.render_circles", "draw_circles_print", "solids")}


def _own_drawing(board):
    """(draw, solids) of ``board``'s style (``OWN_DRAWINGS``), or None: drawn by ``vision.render``."""
    entry = OWN_DRAWINGS.get(getattr(board, "style", ""))
    if entry is None:
        return None
    import importlib

    module = importlib.import_module(entry[0])
    return getattr(module, entry[1]), getattr(module, entry[2])


def _own_scene(scene: Scene, own, position: Mapping[str, Any]) -> Scene:
    """``scene`` (paper and markers) with the printed board of ``own``'s drawing (``OWN_DRAWINGS``)
    at its place, and ``position``'s pieces as solids; ``Scene.image`` shows them flat as discs."""
    from .board_frame import Frame

    img = scene.image
    h, w = img.shape[:2]
    X0, _, X1, Y1 = markers.print_extent(scene.board)
    ppu = w / (X1 - X0)
    # Frame.at rounds to whole pixels; scene.to_pixel puts pixel centres half a pixel in.
    frame = Frame(X0, Y1, ppu, -0.5, -0.5, w, h)
    draw, solids = own
    draw(img, frame, scene.board, True)
    pieces = tuple(ScenePiece(xy, kind, colour, radius, height, 0.0, spot)
                   for spot, xy, kind, colour, radius, height in sorted(solids(scene.board, position)))
    bare = img.copy()
    for p in pieces:  # the flat look (``CameraSettings.outlines``): a disc with a dark outline
        r = frame.px(p.radius, 2)
        cv2.circle(img, frame.at(p.xy), r, p.colour, -1, cv2.LINE_AA)
        cv2.circle(img, frame.at(p.xy), r, (20, 20, 20), max(1, r // 8), cv2.LINE_AA)
    scene.bare = bare
    scene.pieces = pieces
    return scene


def printed_scene(board, position: Mapping[str, Any] | None = None, px_per_unit: float = 80, *,
                  looks: Looks | None = None) -> Scene:
    """``simple_scene`` of the board as ``arbiter print-board`` prints it (Brain Hanky on the
    blue cloth): what a user's camera sees, for the simulated table, the calibration pictures
    and the benchmarks. ``simple_scene``'s own default keeps the cream cloth the simulator
    always drew, which the flat, outlined look of the unit tests needs."""
    from .render_hanky import PRINT_CLOTH

    return simple_scene(board, position, px_per_unit, cloth=PRINT_CLOTH, looks=looks)


def _by_name(item) -> str:
    return str(item[0])


def _looked(piece: ScenePiece, look: PieceLook | None) -> ScenePiece:
    """``piece`` as ``look`` says (its colour, shape, size, height and material), or as it is."""
    if look is None:
        return piece
    heights = {"man": MAN_HEIGHT, "ring": RING_HEIGHT, "gem": GEM_HEIGHT}
    radius = piece.radius * look.size
    band = piece.band * look.size if piece.band else max(radius / 3, 0.02)
    return ScenePiece(piece.xy, look.shape, look.colour, radius,
                      heights[look.shape] if look.height is None else look.height,
                      band if look.shape == "ring" else 0.0, piece.spot,
                      None if look.usual else look)


def _scene_pieces(board, position: Mapping[str, Any], ppu: float,
                  looks: Looks | None = None) -> tuple[ScenePiece, ...]:
    """The pieces of ``position`` as solids, sized as the flat renderer draws them at ``ppu``.

    In order of their spots' names, whatever order ``position`` came in: each piece takes its
    own random draws (gloss, highlight) in this order, and a position rebuilt from a set (as the
    simulated table caches its frames) would otherwise pair pieces and draws differently in each
    process, as Python's string hashing changes."""
    from . import render

    out = []
    table = looks_of(looks)
    hboard = _hanky_for(board)
    if hboard is not None:
        from . import render_hanky as rh

        ring_r = max(5, round(0.135 * ppu)) / ppu
        band = max(3, round(0.065 * ppu)) / ppu
        gem_r = max(4, round(0.12 * ppu)) / ppu
        for name, piece in sorted(position.items(), key=_by_name):
            owner, kind = rh._owner_and_kind(piece, "ring" if name in hboard.graph.coords else "gem")
            look = table.get((owner, kind))
            colour = look.colour if look else tuple(int(v) for v in rh._side_colours(owner)[kind])
            xy, web = rh._spot(hboard, name)
            for c in rh._copies(hboard, xy, web):
                c = (float(c[0]), float(c[1]))
                if kind == "ring":
                    out.append(_looked(ScenePiece(c, "ring", colour, ring_r, RING_HEIGHT, band, name), look))
                else:
                    out.append(_looked(ScenePiece(c, "gem", colour, gem_r, GEM_HEIGHT, 0.0, name), look))
        return tuple(out)
    k = ppu / render.DEFAULT_STYLE.unit_px
    r_px = max(4, round(render.DEFAULT_STYLE.piece_radius * k))
    r = r_px / ppu
    for name, piece in sorted(position.items(), key=_by_name):
        if name not in board.coords:
            raise ValueError(f"position names point {name!r} that board {board.name} does not have")
        owner, kind = render._owner_and_kind(piece)
        look = table.get((owner, kind))
        colour = look.colour if look else tuple(int(v) for v in render.piece_colour(owner, board.style))
        xy = tuple(float(v) for v in board.coords[name])
        if kind == "ring":
            p = ScenePiece(xy, "ring", colour, r, RING_HEIGHT, max(4, r_px // 3) / ppu, name)
        elif kind == "gem":
            p = ScenePiece(xy, "gem", colour, r, GEM_HEIGHT, 0.0, name)
        else:  # a man, or a kind without a shape of its own (drawn as a man)
            p = ScenePiece(xy, "man", colour, r, MAN_HEIGHT, 0.0, name)
        out.append(_looked(p, look))
    return tuple(out)


# ---------------------------------------------------------------------------- settings
# Allowed bounds for each range setting: the simulator stays within plausible cameras.
_LIMITS: dict[str, Range] = {
    "tilt_deg": (0.0, 40.0),
    "rotation_deg": (-360.0, 360.0),
    "fill": (0.2, 0.98),
    "k1": (-0.25, 0.1),
    "fov_deg": (40.0, 90.0),
    "brightness": (0.3, 1.3),
    "gradient": (0.0, 0.5),
    "shadows": (0.0, 2.0),
    "shadow_depth": (0.0, 0.6),
    "cast": (0.8, 1.2),
    "noise_sigma": (0.0, 8.0),
    "blur_px": (0.0, 2.0),
    "jpeg_quality": (30.0, 100.0),
    "gloss": (0.0, 1.0),
    "lamp_elevation_deg": (15.0, 90.0),
}


@dataclass(frozen=True)
class CameraSettings:
    """Ranges from which ``simulate`` draws each frame's camera. A number means a fixed value.

    ``size`` (width, height) of the output. ``tilt_deg``: camera axis off vertical (max 40).
    ``rotation_deg``: the board turned about the optical axis. ``fill``: the share of the
    frame's width or height (whichever is tighter) the scene's bounding box covers. ``k1``:
    radial distortion (negative: barrel), radius normalised by the focal length. ``fov_deg``:
    horizontal field of view. ``brightness``: the lighting field is clipped to this range;
    ``gradient``: its linear fall-off across the frame; ``shadows``: how many soft dark blobs
    (rounded), each ``shadow_depth`` deep. ``cast``: per-channel gain. ``noise_sigma``: Gaussian
    sensor noise in grey levels. ``blur_px``: Gaussian blur sigma. ``jpeg_quality``: JPEG round
    trip quality. ``hand``: draw a skin-coloured hand and arm over part of the board.

    Pieces (of a scene that lists them, as ``simple_scene``'s does) are drawn as solid objects
    under one lamp, on the side the light's gradient comes from, ``lamp_elevation_deg`` above the
    table: no dark outlines. Each effect can be switched off to isolate it: ``gloss`` (0 = matt)
    scales the specular highlights (a soft near-white patch on a man's top, an arc on a ring's
    band, glints on a gem's facets); ``piece_shadows``: a soft contact shadow round each piece and
    a cast shadow away from the lamp; ``shading``: rounded edges and ring bands lit on the lamp's
    side and darker on the other, gem facets each lit by its slope; ``parallax``: a piece's top is
    drawn where a point at its height projects, with its side wall showing between the top and
    its foot. ``outlines=True`` photographs the flat, outlined pieces of ``Scene.image`` instead
    (the look of ``vision.render``; the other piece settings then do nothing).
    """

    size: tuple[int, int] = (1280, 720)
    tilt_deg: Range = (0.0, 30.0)
    rotation_deg: Range = (-180.0, 180.0)
    fill: Range = (0.6, 0.9)
    k1: Range = (-0.15, 0.05)
    fov_deg: Range = (55.0, 75.0)
    brightness: Range = (0.6, 1.15)
    gradient: Range = (0.0, 0.25)
    shadows: Range = (0.0, 2.0)
    shadow_depth: Range = (0.1, 0.35)
    cast: Range = (0.9, 1.1)
    noise_sigma: Range = (0.0, 4.0)
    blur_px: Range = (0.0, 1.0)
    jpeg_quality: Range = (60.0, 95.0)
    hand: bool = False
    gloss: Range = (0.5, 1.0)
    lamp_elevation_deg: Range = (30.0, 70.0)
    piece_shadows: bool = True
    shading: bool = True
    parallax: bool = True
    outlines: bool = False

    def __post_init__(self) -> None:
        w, h = self.size
        if int(w) < 64 or int(h) < 64:
            raise ValueError(f"frame size {self.size} too small")
        object.__setattr__(self, "size", (int(w), int(h)))
        for name, (lo_lim, hi_lim) in _LIMITS.items():
            v = getattr(self, name)
            lo, hi = (float(v), float(v)) if isinstance(v, (int, float)) else (float(v[0]), float(v[1]))
            if lo > hi:
                raise ValueError(f"{name}: range {v} runs backwards")
            if lo < lo_lim - 1e-9 or hi > hi_lim + 1e-9:
                raise ValueError(f"{name}: {v} outside the allowed {lo_lim}..{hi_lim}")
            object.__setattr__(self, name, (lo, hi))

    @classmethod
    def mild(cls, **kw: Any) -> CameraSettings:
        """A gentle camera: little tilt, distortion, noise and blur; no hand."""
        base = {"tilt_deg": (0.0, 15.0), "k1": (-0.05, 0.02), "brightness": (0.85, 1.05),
                "gradient": (0.0, 0.1), "shadows": (0.0, 1.0), "shadow_depth": (0.05, 0.2),
                "cast": (0.95, 1.05), "noise_sigma": (0.0, 1.5),
                "blur_px": (0.0, 0.5), "jpeg_quality": (85.0, 95.0)}
        base.update(kw)
        return cls(**base)

    @classmethod
    def harsh(cls, **kw: Any) -> CameraSettings:
        """The far end of every range: steep tilt, strong distortion, dim patchy light, noise."""
        base = {"tilt_deg": (30.0, 40.0), "k1": (-0.25, 0.1), "brightness": (0.5, 1.2),
                "gradient": (0.2, 0.4), "shadows": (1.0, 2.0), "shadow_depth": (0.25, 0.45),
                "cast": (0.85, 1.15), "noise_sigma": (3.0, 6.0),
                "blur_px": (0.5, 1.5), "jpeg_quality": (50.0, 70.0)}
        base.update(kw)
        return cls(**base)


# ---------------------------------------------------------------------------- distortion
@dataclass(frozen=True)
class Distortion:
    """Radial lens distortion about ``centre``: r_d = r_u (1 + k1 r_u^2), r in units of ``scale``.

    Points are frame pixels (col, row); ``distort`` maps an ideal (undistorted) pixel to where it
    shows in the frame, ``undistort`` goes back (Newton's method).
    """

    k1: float
    centre: tuple[float, float]
    scale: float  # the focal length in pixels: r = distance / scale

    def distort(self, pts: np.ndarray) -> np.ndarray:
        p = np.asarray(pts, np.float64)
        c = np.asarray(self.centre)
        d = (p - c) / self.scale
        r2 = np.sum(d * d, axis=-1, keepdims=True)
        return c + d * (1 + self.k1 * r2) * self.scale

    def undistort(self, pts: np.ndarray) -> np.ndarray:
        p = np.asarray(pts, np.float64)
        c = np.asarray(self.centre)
        d = (p - c) / self.scale
        rd = np.sqrt(np.sum(d * d, axis=-1, keepdims=True))
        ru = rd.copy()
        for _ in range(12):  # solve ru + k1 ru^3 = rd
            f = ru + self.k1 * ru ** 3 - rd
            ru = ru - f / (1 + 3 * self.k1 * ru * ru)
        ratio = np.divide(ru, rd, out=np.ones_like(rd), where=rd > 1e-12)
        return c + d * ratio * self.scale


# ---------------------------------------------------------------------------- frame
@dataclass
class SimFrame:
    """One simulated camera frame and its ground truth.

    ``board_to_frame``: 3x3 homography from board coordinates to *undistorted* frame pixels;
    ``distortion`` turns those into the pixels of ``image``; ``project`` does both.
    ``occluded_points``: names of board points the hand covers (within about a piece's radius).
    ``hand_mask``: bool (H, W) of hand pixels, None without a hand. ``params``: the values drawn.
    """

    image: np.ndarray
    board_to_frame: np.ndarray
    distortion: Distortion
    occluded_points: set[str]
    hand_mask: np.ndarray | None
    seed: int
    settings: CameraSettings
    params: dict[str, Any] = field(default_factory=dict)

    def project(self, xy) -> np.ndarray:
        """Board coordinates -> frame pixel (col, row) in ``image``; (2,) for one point, (N, 2) for many."""
        p = np.asarray(xy, np.float64)
        single = p.ndim == 1
        p = p.reshape(-1, 2)
        q = np.hstack([p, np.ones((len(p), 1))]) @ self.board_to_frame.T
        out = self.distortion.distort(q[:, :2] / q[:, 2:3])
        return out[0] if single else out


def _rot_axis(axis: np.ndarray, angle: float) -> np.ndarray:
    return cv2.Rodrigues((np.asarray(axis, np.float64) * angle).reshape(3, 1))[0]


def _uniform(rng: np.random.Generator, r: Range) -> float:
    return float(rng.uniform(r[0], r[1])) if r[1] > r[0] else float(r[0])


def _camera(rng: np.random.Generator, settings: CameraSettings, scene_wh: tuple[int, int]):
    """(H scene->undistorted frame, focal length, params) for a random camera pose."""
    W, H = settings.size
    sw, sh = scene_wh
    tilt = math.radians(_uniform(rng, settings.tilt_deg))
    azimuth = float(rng.uniform(0, 2 * math.pi))
    rotation = math.radians(_uniform(rng, settings.rotation_deg))
    fill = _uniform(rng, settings.fill)
    fov = math.radians(_uniform(rng, settings.fov_deg))
    offset = rng.uniform(-0.8, 0.8, 2)  # share of the slack the scene's centre moves by
    f = W / (2 * math.tan(fov / 2))
    K = np.array([[f, 0, (W - 1) / 2], [0, f, (H - 1) / 2], [0, 0, 1]])
    R = _rot_axis([math.cos(azimuth), math.sin(azimuth), 0], tilt) @ _rot_axis([0, 0, 1], rotation)
    # Scene pixels -> plane coordinates (one unit = the scene's larger side), centred.
    s = 1.0 / max(sw, sh)
    S = np.array([[s, 0, -s * (sw - 1) / 2], [0, s, -s * (sh - 1) / 2], [0, 0, 1]])
    corners = np.array([(-0.5, -0.5, 1), (sw - 0.5, -0.5, 1), (sw - 0.5, sh - 0.5, 1), (-0.5, sh - 0.5, 1)]).T
    t = np.array([0.0, 0.0, f / (fill * min(W, H))])
    for _ in range(12):
        Hm = K @ np.column_stack([R[:, 0], R[:, 1], t]) @ S
        q = Hm @ corners
        q = q[:2] / q[2]
        bw, bh = np.ptp(q[0]), np.ptp(q[1])
        now = max(bw / W, bh / H)
        t[2] *= now / fill  # farther away if too big
        bw, bh = bw * fill / now, bh * fill / now  # approximately, after the move
        want = np.array([W / 2 + offset[0] * max(W - bw, 0) / 2, H / 2 + offset[1] * max(H - bh, 0) / 2])
        have = np.array([(q[0].min() + q[0].max()) / 2, (q[1].min() + q[1].max()) / 2])
        have = K[:2, 2] + (have - K[:2, 2]) * fill / now
        t[:2] += (want - have) * t[2] / f
    Hm = K @ np.column_stack([R[:, 0], R[:, 1], t]) @ S
    params = {"tilt_deg": math.degrees(tilt), "tilt_azimuth_deg": math.degrees(azimuth),
              "rotation_deg": math.degrees(rotation), "fill": fill, "fov_deg": math.degrees(fov),
              "focal_px": f, "distance": float(t[2])}
    # Where the camera is, for parallax and highlights: its centre above the scene plane, in
    # scene pixels (nadir: the scene pixel straight below it; height: its distance above).
    centre = -R.T @ t
    nadir = np.array([(centre[0] - S[0, 2]) / s, (centre[1] - S[1, 2]) / s])
    params.update(nadir_px=(float(nadir[0]), float(nadir[1])), height_px=float(abs(centre[2]) / s))
    return Hm / Hm[2, 2], f, params


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    """Smooth random field in [-1, 1] of ``shape``: a coarse grid upsampled bicubically."""
    h, w = shape
    grid = rng.uniform(-1, 1, (cells, max(2, round(cells * w / h)))).astype(np.float32)
    return np.clip(cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC), -1, 1)


def _table(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    h, w = shape
    base = np.array(_TABLES[int(rng.integers(len(_TABLES)))], np.float32) * rng.uniform(0.9, 1.1)
    grain = _smooth_noise(rng, (h, w), 6) * 0.06 + _smooth_noise(rng, (h, w), 40) * 0.03
    return base[None, None, :] * (1 + grain[:, :, None])


def _lighting(rng: np.random.Generator, settings: CameraSettings,
              shape: tuple[int, int]) -> tuple[np.ndarray, dict]:
    h, w = shape
    lo, hi = settings.brightness
    level = _uniform(rng, settings.brightness)
    gradient = _uniform(rng, settings.gradient)
    angle = float(rng.uniform(0, 2 * math.pi))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ramp = ((xx / w - 0.5) * math.cos(angle) + (yy / h - 0.5) * math.sin(angle)) * 2  # about -1..1
    field_ = level * (1 + gradient * ramp)
    n_shadows = round(_uniform(rng, settings.shadows))
    blobs = []
    for i in range(2):  # always draw two, so the stream does not depend on the count
        cx, cy = rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h
        sx, sy = rng.uniform(0.12, 0.3) * w, rng.uniform(0.12, 0.3) * h
        depth = _uniform(rng, settings.shadow_depth)
        theta = float(rng.uniform(0, math.pi))
        if i >= n_shadows:
            continue
        dx, dy = xx - cx, yy - cy
        u = dx * math.cos(theta) + dy * math.sin(theta)
        v = -dx * math.sin(theta) + dy * math.cos(theta)
        field_ = field_ * (1 - depth * np.exp(-0.5 * ((u / sx) ** 2 + (v / sy) ** 2)))
        blobs.append({"centre": (cx, cy), "sigma": (sx, sy), "depth": depth})
    field_ = np.clip(field_, lo, hi)
    return field_, {"brightness": level, "gradient": gradient, "gradient_angle_deg": math.degrees(angle),
                    "shadows": blobs}


def _capsule(mask: np.ndarray, a, b, width: float) -> None:
    cv2.line(mask, tuple(round(v * 4) for v in a), tuple(round(v * 4) for v in b), 255,
             max(1, round(width)), cv2.LINE_AA, shift=2)


def _hand(rng: np.random.Generator, board, board_to_frame: np.ndarray, dist: Distortion,
          shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, dict]:
    """(alpha in 0..1, colour image, params) of a hand reaching from a frame edge onto the board."""
    h, w = shape
    names = list(board.points)
    target = names[int(rng.integers(len(names)))]
    edge = int(rng.integers(4))
    along = float(rng.uniform(0.2, 0.8))
    spread = float(rng.uniform(-0.4, 0.4))
    curl = rng.uniform(0.55, 1.0, 4)
    skin = np.array(_SKINS[int(rng.integers(len(_SKINS)))], np.float32) * rng.uniform(0.92, 1.08, 3)
    size_k = float(rng.uniform(0.9, 1.15))
    thumb_side = 1 if rng.uniform() < 0.5 else -1

    def proj(xy):
        q = board_to_frame @ np.array([xy[0], xy[1], 1.0])
        return dist.distort(q[:2] / q[2])

    # Pixels per board unit near the target, from the projection itself.
    tx, ty = board.coords[target]
    palm = proj((tx, ty))
    unit = float(np.linalg.norm(proj((tx + 0.5, ty)) - proj((tx - 0.5, ty))) +
                 np.linalg.norm(proj((tx, ty + 0.5)) - proj((tx, ty - 0.5)))) / 2
    x0, y0, x1, y1 = markers.board_extent(board)
    unit *= 6.0 / max(x1 - x0, y1 - y0) * size_k  # a hand is sized for a board about six units across
    # The arm comes in from beyond the chosen edge (0 top, 1 right, 2 bottom, 3 left).
    entry = {0: (along * w, -0.3 * h), 1: (w * 1.3, along * h), 2: (along * w, 1.3 * h),
             3: (-0.3 * w, along * h)}[edge]
    entry = np.array(entry) + np.array([spread * w, spread * h]) * ((0, 1) if edge % 2 else (1, 0))
    d = palm - entry
    d = d / (np.linalg.norm(d) + 1e-9)
    n = np.array([-d[1], d[0]])
    mask = np.zeros((h, w), np.uint8)
    palm_len, palm_w = 1.8 * unit, 1.55 * unit
    centre = palm + d * palm_len * 0.05
    wrist = centre - d * palm_len * 0.45
    # Forearm: a slowly widening quadrilateral from inside the palm back past the frame edge,
    # rounded at the wrist by an ellipse.
    far = wrist - d * (w + h)
    arm = np.array([wrist + n * 0.36 * palm_w, wrist - n * 0.36 * palm_w, far - n * 0.75 * palm_w,
                    far + n * 0.75 * palm_w])
    cv2.fillPoly(mask, [np.round(arm * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
    angle = math.degrees(math.atan2(d[1], d[0]))
    cv2.ellipse(mask, ((float(wrist[0]), float(wrist[1])), (0.5 * palm_len, 0.74 * palm_w), angle),
                255, -1, cv2.LINE_AA)
    cv2.ellipse(mask, ((float(centre[0]), float(centre[1])), (palm_len, palm_w), angle), 255, -1, cv2.LINE_AA)
    finger_w = 0.3 * unit
    base_line = centre + d * palm_len * 0.36
    lengths = np.array([1.05, 1.25, 1.15, 0.9]) * unit * curl
    for i, length in enumerate(lengths):
        off = (i - 1.5) * 0.34 * unit
        a = base_line + n * off
        fan = d + n * (i - 1.5) * 0.08
        fan = fan / np.linalg.norm(fan)
        _capsule(mask, a, a + fan * length, finger_w)
    ta = centre + n * thumb_side * palm_w * 0.42 - d * palm_len * 0.1
    tdir = d * 0.6 + n * thumb_side * 0.8
    tdir = tdir / np.linalg.norm(tdir)
    _capsule(mask, ta, ta + tdir * 0.95 * unit, finger_w * 1.2)
    alpha = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), 0.8)
    # Shading: darker towards the outline (a rounded limb), a little texture.
    inside = (mask > 127).astype(np.uint8)
    depth = cv2.distanceTransform(inside, cv2.DIST_L2, 3)
    depth = np.clip(depth / max(0.35 * unit, 1.0), 0, 1)
    shade = 0.72 + 0.28 * np.sqrt(depth)
    shade = shade * (1 + 0.04 * _smooth_noise(rng, (h, w), 24))
    colour = skin[None, None, :] * shade[:, :, None]
    params = {"target": target, "edge": ["top", "right", "bottom", "left"][edge],
              "skin": tuple(float(v) for v in skin),
                  "unit_px": unit}
    return alpha, colour, params


def _occluded(board, project: Callable, mask: np.ndarray) -> set[str]:
    """Points whose piece-sized neighbourhood the hand mask touches."""
    pts = list(board.points)
    coords = np.array([board.coords[p] for p in pts], np.float64)
    if len(coords) > 1:
        dd = np.linalg.norm(coords[:, None] - coords[None], axis=2)
        dd[dd == 0] = np.inf
        rho = min(0.35, 0.4 * float(dd.min()))
    else:
        rho = 0.35
    angles = np.linspace(0, 2 * math.pi, 8, endpoint=False)
    ring = [(0.0, 0.0)] + [(rho * math.cos(a), rho * math.sin(a)) for a in angles]
    h, w = mask.shape
    out = set()
    for name, (x, y) in zip(pts, coords):
        q = project(np.array([(x + dx, y + dy) for dx, dy in ring]))
        c = np.round(q).astype(int)
        ok = (c[:, 0] >= 0) & (c[:, 0] < w) & (c[:, 1] >= 0) & (c[:, 1] < h)
        if np.any(mask[c[ok, 1], c[ok, 0]]):
            out.add(name)
    return out


# ---------------------------------------------------------------------------- pieces
# Lambert shading, normalised so a flat top facing up keeps its albedo (calibration learns it).
_AMBIENT, _DIFFUSE = 0.45, 0.55
_SPEC_WHITE = 250.0  # a highlight's added brightness at full strength: the lamp's near-white


def _cov(sd: np.ndarray) -> np.ndarray:
    """Signed distance in pixels (negative inside) -> anti-aliased coverage in 0..1."""
    return np.clip(0.5 - sd, 0.0, 1.0)


def _capsule_sd(xx, yy, a, b, ra: float, rb: float):
    """(signed distance, t) to the swept disc from centre ``a`` (radius ra) to ``b`` (radius rb):
    the outline of a disc seen at both ends of a short cylinder. t in 0..1 is the nearest point
    along a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    l2 = dx * dx + dy * dy
    if l2 < 1e-9:
        t = np.zeros_like(xx)
    else:
        t = np.clip(((xx - a[0]) * dx + (yy - a[1]) * dy) / l2, 0.0, 1.0)
    d = np.hypot(xx - a[0] - t * dx, yy - a[1] - t * dy)
    return d - (ra + (rb - ra) * t), t


def _diamond_sd(xx, yy, c, r: float):
    """Signed distance (approximately, in pixels) to the diamond |dx| + |dy| <= r round ``c``."""
    return (np.abs(xx - c[0]) + np.abs(yy - c[1]) - r) * 0.7071


def _swept_diamond_sd(xx, yy, a, b, ra: float, rb: float):
    n = max(1, min(12, int(math.hypot(b[0] - a[0], b[1] - a[1]) / max(0.25 * min(ra, rb), 0.5)) + 1))
    sd = _diamond_sd(xx, yy, a, ra)
    for i in range(1, n + 1):
        t = i / n
        c = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
        sd = np.minimum(sd, _diamond_sd(xx, yy, c, ra + t * (rb - ra)))
    return sd


def _unit(v) -> np.ndarray:
    v = np.asarray(v, np.float64)
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-12 else v


@dataclass
class _Lamp:
    """The lamp and camera as the pieces see them, in scene pixels: axes (col, row, up)."""

    L: np.ndarray  # unit vector towards the lamp
    nadir: np.ndarray  # scene pixel under the camera's centre
    height: float  # the camera's height above the board, scene pixels
    gloss: float
    shading: bool
    parallax: bool

    def lambert(self, nx, ny, nz):
        if not self.shading:
            return np.ones_like(nx)
        L = self.L
        lit = np.maximum(nx * L[0] + ny * L[1] + nz * L[2], 0.0)
        return (_AMBIENT + _DIFFUSE * lit) / (_AMBIENT + _DIFFUSE * max(L[2], 0.05))

    def half(self, at, z: float) -> np.ndarray:
        """Blinn's half vector between the lamp and the camera, seen from scene pixel ``at``."""
        v = _unit([self.nadir[0] - at[0], self.nadir[1] - at[1], self.height - z])
        return _unit(self.L + v)


def _blinn(n, H, power: float):
    nx, ny, nz = n
    return np.maximum(nx * H[0] + ny * H[1] + nz * H[2], 0.0) ** power


def _wall_normal(xx, yy, base, top, r: float):
    """Horizontal normals of a cylinder's wall seen between its top and its foot: facing the
    camera (from top to foot) in the middle, turning sideways towards the outline."""
    d = _unit([base[0] - top[0], base[1] - top[1]])
    if not np.any(d):
        d = np.array([1.0, 0.0])
    a = np.array([-d[1], d[0]])
    w = np.clip(((xx - top[0]) * a[0] + (yy - top[1]) * a[1]) / max(r, 1e-6), -1.0, 1.0)
    c = np.sqrt(1.0 - w * w)
    return a[0] * w + d[0] * c, a[1] * w + d[1] * c, np.zeros_like(w)


def _draw_man(out, xx, yy, base, top, r, rt, colour, lamp: _Lamp, h: float, u, look: PieceLook | None = None,
              bevel: float | None = None) -> None:
    """A man: a solid of revolution on its foot, its wall seen between foot and top. ``look``
    (None: the usual man, a disc with a rounded edge and a slightly domed face) shapes its top
    (``bevel``, ``dome``, ``rim``) and sets its material (``metal``, ``gloss``). ``bevel`` without a
    look: the outer share of the radius that turns down to the wall (a peg's head: a dome, near 1)."""
    sd, _ = _capsule_sd(xx, yy, base, top, r, rt)
    a_sil = _cov(sd)
    dx, dy = xx - top[0], yy - top[1]
    dt = np.hypot(dx, dy)
    a_top = _cov(dt - rt)
    ux, uy = dx / np.maximum(dt, 1e-6), dy / np.maximum(dt, 1e-6)
    rho = dt / rt
    if look is not None:  # the outer share turning down to the wall
        bevel = max(look.bevel, 1e-3)
    elif bevel is None:
        bevel = _BEVEL
    rim = np.clip((rho - (1 - bevel)) / bevel, 0.0, 1.0)
    tilt = rim * math.radians(70) + _FACE_DOME * np.minimum(rho, 1.0)  # and a slightly domed face
    metal, gloss = 0.0, lamp.gloss
    if look is not None:
        if look.dome > 0:  # towards a sphere's cap: the normal tilts as the surface of a ball
            tilt = (1 - look.dome) * tilt + look.dome * np.arcsin(np.minimum(rho, 0.995))
        if look.rim > 0:  # a raised rim: its inner side faces the middle, its outer side away
            w = look.rim
            s = np.clip((rho - (1 - w / 2)) / (w / 2), -1.0, 1.0)
            band = (rho >= 1 - w) & (rho < 1 - bevel * 0.5)
            tilt = np.where(band, np.arcsin(s) * 0.9, tilt)
        metal = look.metal
        gloss = lamp.gloss if look.gloss is None else look.gloss
    st = np.sin(tilt)
    n_top = (st * ux, st * uy, np.cos(tilt))
    n_wall = _wall_normal(xx, yy, base, top, r)
    albedo = np.array(colour, np.float32)
    body = 1.0 - 0.55 * metal  # metal shows little of its colour diffusely, most in its sheen
    top_c = albedo * (body * lamp.lambert(*n_top))[..., None]
    wall_c = albedo * (0.9 * body * lamp.lambert(*n_wall))[..., None]
    col = wall_c * (1 - a_top[..., None]) + top_c * a_top[..., None]
    if metal > 0:  # a broad sheen in the metal's own colour, from the room as much as the lamp
        H = lamp.half(top, h)
        n = tuple(np.where(dt < rt, a, b) for a, b in zip(n_top, n_wall))
        sheen = 0.35 + 0.65 * _blinn(n, H, 6)
        col = col + albedo * (0.9 * metal * sheen)[..., None]
    if gloss > 0:
        H = lamp.half(top, h)
        # The lamp's reflection on the face: a soft patch where the dome's normal meets the half
        # vector (towards the lamp and camera), held inside the face; a streak when it lies off
        # centre, drawn out along the rim.
        hxy = math.hypot(H[0], H[1])
        direction = np.array([H[0], H[1]]) / hxy if hxy > 1e-6 else np.array([1.0, 0.0])
        reach = min(0.6, (hxy / max(H[2], 1e-3)) / 0.5)
        centre = np.array(top) + direction * rt * reach
        minor = rt * (0.19 + 0.11 * u[0])
        major = minor * (1.0 + 1.0 * u[1])
        px, py = xx - centre[0], yy - centre[1]
        along = px * direction[0] + py * direction[1]
        across = -px * direction[1] + py * direction[0]
        patch = np.exp(-0.5 * ((along / minor) ** 2 + (across / major) ** 2)) * _cov(dt - rt * 0.97)
        peak = 0.6 + 0.4 * u[2]
        on_rim = np.where(dt < rt, np.clip(rim * 3, 0, 1), 1.0)
        edge = _blinn(tuple(np.where(dt < rt, n, m) for n, m in zip(n_top, n_wall)), H, 40) * on_rim
        if metal > 0:  # metal's highlights take its colour
            spec = (1 - metal) * _SPEC_WHITE + metal * np.minimum(albedo * 1.6, 255.0)
            col = col + (gloss * (peak * patch + 0.6 * edge))[..., None] * spec
        else:
            col = col + (gloss * _SPEC_WHITE * (peak * patch + 0.6 * edge))[..., None]
    out[:] = out * (1 - a_sil[..., None]) + col * a_sil[..., None]


def _draw_ring(out, xx, yy, base, top, r, rt, band, k, colour, lamp: _Lamp, h: float, u) -> None:
    r_in, rt_in = r - band, (r - band) * k
    sd, _ = _capsule_sd(xx, yy, base, top, r, rt)
    a_sil = _cov(sd)
    dx, dy = xx - top[0], yy - top[1]
    dt = np.hypot(dx, dy)
    db = np.hypot(xx - base[0], yy - base[1])
    a_hole = np.minimum(_cov(dt - rt_in), _cov(db - r_in))  # seen through both ends: the board
    a_out, a_in = _cov(dt - rt), _cov(dt - rt_in)
    ux, uy = dx / np.maximum(dt, 1e-6), dy / np.maximum(dt, 1e-6)
    # The band is a torus: its normal turns from pointing inwards to pointing outwards across it.
    rc, tube = (rt + rt_in) / 2, max((rt - rt_in) / 2, 1e-6)
    s = np.clip((dt - rc) / tube, -1.0, 1.0)
    n_band = (ux * s, uy * s, np.sqrt(1.0 - s * s))
    n_wall = _wall_normal(xx, yy, base, top, r)
    n_in = (-ux, -uy, np.zeros_like(ux))
    albedo = np.array(colour, np.float32)
    band_c = albedo * lamp.lambert(*n_band)[..., None]
    wall_c = albedo * (0.9 * lamp.lambert(*n_wall))[..., None]
    in_c = albedo * (0.75 * lamp.lambert(*n_in))[..., None]
    col = wall_c * (1 - a_out[..., None]) + band_c * a_out[..., None]
    col = col * (1 - a_in[..., None]) + in_c * a_in[..., None]
    if lamp.gloss > 0:
        H = lamp.half(top, h)
        n = tuple(np.where(dt < rt, nb, nw) for nb, nw in zip(n_band, n_wall))
        col = col + (lamp.gloss * _SPEC_WHITE * (0.5 + 0.3 * u[0]) * _blinn(n, H, 30) * (1 - a_in))[..., None]
    a = a_sil * (1 - a_hole)
    out[:] = out * (1 - a[..., None]) + col * a[..., None]


def _draw_gem(out, xx, yy, base, top, r, rt, colour, lamp: _Lamp, h: float, u) -> None:
    a_sil = _cov(_swept_diamond_sd(xx, yy, base, top, r, rt))
    a_top = _cov(_diamond_sd(xx, yy, top, rt))
    dx, dy = xx - top[0], yy - top[1]
    l1 = (np.abs(dx) + np.abs(dy)) / rt
    # Crown: eight triangular facets round a flat table, two per side of the diamond.
    qaz = np.arctan2(np.where(dy < 0, -1.0, 1.0), np.where(dx < 0, -1.0, 1.0))
    phi = np.arctan2(dy, dx)
    sub = np.where(np.remainder(phi - qaz + math.pi, 2 * math.pi) - math.pi < 0, 0, 1)
    quadrant = np.round((qaz + math.pi) / (math.pi / 2)).astype(int) % 4
    facet = quadrant * 2 + sub
    jitter = (np.asarray(u[:8]) - 0.5) * 0.5
    az = qaz + (sub * 2 - 1) * 0.38 + jitter[facet]
    tilt = np.where(l1 < 0.45, 0.0, 0.62 + 0.25 * jitter[(facet + 3) % 8])
    n_top = (np.sin(tilt) * np.cos(az), np.sin(tilt) * np.sin(az), np.cos(tilt))
    # Pavilion below the girdle, seen on the side wall: steep facets, facing outwards.
    wx, wy = xx - base[0], yy - base[1]
    waz = np.arctan2(np.where(wy < 0, -1.0, 1.0), np.where(wx < 0, -1.0, 1.0))
    n_wall = (0.94 * np.cos(waz), 0.94 * np.sin(waz), np.full_like(waz, 0.34))
    albedo = np.array(colour, np.float32)
    lit = np.ones(facet.shape + (1,), np.float32)
    if lamp.shading:  # cut stone: strong contrast from facet to facet
        lit = (0.55 + 0.9 * (lamp.lambert(*n_top) - 0.5))[..., None] * (0.85 + 0.3 * np.asarray(u[8:16])[facet])[..., None]
    wall_c = albedo * (0.8 * lamp.lambert(*n_wall))[..., None]
    col = wall_c * (1 - a_top[..., None]) + albedo * lit * a_top[..., None]
    if lamp.gloss > 0:
        H = lamp.half(top, h)
        spec = _blinn(n_top, H, 60) * a_top
        # A few glints: tiny bright stars where facets meet.
        corners = [(1, 0), (0, 1), (-1, 0), (0, -1), (0.45, 0), (0, 0.45), (-0.45, 0), (0, -0.45),
                   (0.5, 0.5), (-0.5, 0.5), (-0.5, -0.5), (0.5, -0.5)]
        sigma = max(0.7, 0.1 * rt)
        for i in range(1 + int(u[16] * 3)):
            cx, cy = corners[int(u[17 + i] * len(corners)) % len(corners)]
            gx, gy = top[0] + cx * rt * 0.85, top[1] + cy * rt * 0.85
            spec = spec + (0.6 + 0.4 * u[20 + i]) * np.exp(-0.5 * ((xx - gx) ** 2 + (yy - gy) ** 2) / sigma ** 2)
        col = col + (lamp.gloss * _SPEC_WHITE * np.minimum(spec, 1.2))[..., None]
    out[:] = out * (1 - a_sil[..., None]) + col * a_sil[..., None]


def _swept_box(a, b, reach: float, W: int, H: int) -> tuple[int, int, int, int] | None:
    """(c0, c1, r0, r1): the pixels within ``reach`` of the segment from ``a`` to ``b``, clipped
    to a W x H image; None when that is empty."""
    c0 = max(0, int(math.floor(min(a[0], b[0]) - reach)))
    c1 = min(W, int(math.ceil(max(a[0], b[0]) + reach)) + 1)
    r0 = max(0, int(math.floor(min(a[1], b[1]) - reach)))
    r1 = min(H, int(math.ceil(max(a[1], b[1]) + reach)) + 1)
    return None if c0 >= c1 or r0 >= r1 else (c0, c1, r0, r1)


def _shadow_masks(pieces, cast: np.ndarray, contact: np.ndarray, shift) -> None:
    """Rasterise each piece's cast shadow (its outline swept away from the lamp by its height)
    and its contact shadow (its foot) into the two masks, maximum-combined."""
    H, W = cast.shape
    for base, r, band, kind, h in pieces:
        s = np.asarray(shift) * h
        far = (base[0] + s[0], base[1] + s[1])
        box = _swept_box(base, far, r + 3.0, W, H)
        if box is None:
            continue
        c0, c1, r0, r1 = box
        yy, xx = np.mgrid[r0:r1, c0:c1].astype(np.float32)
        if kind == "gem":
            sh = _cov(_swept_diamond_sd(xx, yy, base, far, r, r))
            foot = _cov(_diamond_sd(xx, yy, base, r * 1.04))
        else:
            sh = _cov(_capsule_sd(xx, yy, base, far, r, r)[0])
            foot = _cov(np.hypot(xx - base[0], yy - base[1]) - r * 1.04)
            if kind == "ring":  # light falls through the hole where it lines up at both ends
                ri = r - band
                hole = np.minimum(_cov(np.hypot(xx - base[0], yy - base[1]) - ri),
                                  _cov(np.hypot(xx - far[0], yy - far[1]) - ri))
                sh = sh * (1 - hole)
                foot = foot * (1 - _cov(np.hypot(xx - base[0], yy - base[1]) - ri * 0.96))
        np.maximum(cast[r0:r1, c0:c1], sh, out=cast[r0:r1, c0:c1])
        np.maximum(contact[r0:r1, c0:c1], foot, out=contact[r0:r1, c0:c1])


def _solid_pieces(scene: Scene, rng: np.random.Generator, settings: CameraSettings,
                  nadir: np.ndarray, cam_height: float, lamp_dir: np.ndarray) -> tuple[np.ndarray, dict]:
    """``scene.bare`` with ``scene.pieces`` drawn on it as solids (BGR float32), and the draws."""
    img = scene.bare.astype(np.float32)
    ppu = scene.px_per_unit()
    gloss = _uniform(rng, settings.gloss)
    cast_depth = float(rng.uniform(0.3, 0.5))
    contact_depth = float(rng.uniform(0.25, 0.4))
    penumbra = float(rng.uniform(0.02, 0.05))  # board units
    draws = [rng.uniform(size=24) for _ in scene.pieces]  # always drawn: switches never move them
    lamp = _Lamp(lamp_dir, nadir, cam_height, gloss, settings.shading, settings.parallax)
    placed = []
    for piece, u in zip(scene.pieces, draws):
        base = np.array(scene.to_pixel(piece.xy), np.float64)
        r, h = piece.radius * ppu, piece.height * ppu
        k = 1.0
        top = base
        if settings.parallax and cam_height > 2 * h:
            k = cam_height / (cam_height - h)  # where the ray through the top meets the board
            top = nadir + (base - nadir) * k
        placed.append((piece, base, top, r, h, k, u))
    if settings.piece_shadows:
        cast = np.zeros(img.shape[:2], np.float32)
        contact = np.zeros(img.shape[:2], np.float32)
        shift = -lamp_dir[:2] / max(lamp_dir[2], 0.05)  # per unit of height, away from the lamp
        _shadow_masks([(tuple(b), r, p.band * ppu, p.kind, h) for p, b, _, r, h, _, _ in placed],
                      cast, contact, shift)
        cast = cv2.GaussianBlur(cast, (0, 0), max(0.8, penumbra * ppu))
        contact = cv2.GaussianBlur(contact, (0, 0), max(0.8, 0.035 * ppu))
        img *= ((1 - cast_depth * cast) * (1 - contact_depth * contact))[..., None]
    H, W = img.shape[:2]
    # Far from the camera first: a nearer piece's top leans over the foot of one behind it.
    order = sorted(range(len(placed)), key=lambda i: -float(np.hypot(*(placed[i][1] - nadir))))
    for i in order:
        piece, base, top, r, h, k, u = placed[i]
        rt = r * k
        box = _swept_box(base, top, rt + 3.0 + (0.2 * rt if piece.kind == "gem" else 0.0), W, H)
        if box is None:
            continue
        c0, c1, r0, r1 = box
        yy, xx = np.mgrid[r0:r1, c0:c1].astype(np.float32)
        out = img[r0:r1, c0:c1]
        b, t = (float(base[0]), float(base[1])), (float(top[0]), float(top[1]))
        if piece.kind == "ring":
            _draw_ring(out, xx, yy, b, t, r, rt, piece.band * ppu, k, piece.colour, lamp, h, u)
        elif piece.kind == "gem":
            _draw_gem(out, xx, yy, b, t, r, rt, piece.colour, lamp, h, u)
        elif piece.kind == "peg":  # a peg's head: a dome, lit round its whole face
            _draw_man(out, xx, yy, b, t, r, rt, piece.colour, lamp, h, u, bevel=PEG_BEVEL)
        else:
            _draw_man(out, xx, yy, b, t, r, rt, piece.colour, lamp, h, u, piece.look)
    return img, {"gloss": gloss, "cast_depth": cast_depth, "contact_depth": contact_depth}


def _lamp_direction(rng: np.random.Generator, settings: CameraSettings, Hs: np.ndarray,
                    scene_wh: tuple[int, int], frame_wh: tuple[int, int], gradient_deg: float) -> np.ndarray:
    """Unit vector (col, row, up) in scene axes towards the lamp: on the side the frame's light
    gradient rises towards (give or take 25 degrees), ``lamp_elevation_deg`` above the board."""
    W, H = frame_wh
    a = math.radians(gradient_deg)
    jitter = math.radians(float(rng.uniform(-25, 25)))
    elevation = math.radians(_uniform(rng, settings.lamp_elevation_deg))
    centre = np.array([(scene_wh[0] - 1) / 2, (scene_wh[1] - 1) / 2, 1.0])
    cf = Hs @ centre
    cf = cf[:2] / cf[2]
    step = np.array([math.cos(a) / W, math.sin(a) / H])  # the ramp's direction in pixels
    step = step / np.linalg.norm(step) * 0.05 * min(W, H)
    back = np.linalg.inv(Hs) @ np.array([cf[0] + step[0], cf[1] + step[1], 1.0])
    d = back[:2] / back[2] - centre[:2]
    az = math.atan2(d[1], d[0]) + jitter
    return np.array([math.cos(az) * math.cos(elevation), math.sin(az) * math.cos(elevation),
                     math.sin(elevation)])


def simulate(scene: Scene, seed: int, settings: CameraSettings | None = None,
             grain_seed: int | None = None) -> SimFrame:
    """A camera frame of ``scene`` for ``seed``: same seed and settings give the same frame.

    ``grain_seed`` draws the sensor's noise pattern alone from another seed (the camera, its lamp,
    noise level, blur and JPEG quality stay ``seed``'s): a still camera's successive frames, which
    never repeat a pixel's noise as the same seed would."""
    settings = settings or CameraSettings()
    W, H = settings.size
    # Seven streams; the first six are those of the simulator before it drew pieces itself, so
    # a frame with ``outlines=True`` is the frame it drew then, bit for bit.
    streams = [np.random.default_rng(s) for s in np.random.SeedSequence(int(seed)).spawn(7)]
    pose_rng, table_rng, light_rng, noise_rng, hand_rng, lens_rng, piece_rng = streams
    sh, sw = scene.image.shape[:2]
    Hs, f, params = _camera(pose_rng, settings, (sw, sh))
    k1 = _uniform(lens_rng, settings.k1)
    centre = ((W - 1) / 2 + float(lens_rng.normal(0, 0.01 * W)),
              (H - 1) / 2 + float(lens_rng.normal(0, 0.01 * H)))
    dist = Distortion(k1, centre, f)
    params["k1"] = k1

    light, light_params = _lighting(light_rng, settings, (H, W))
    params.update(light_params)
    cast = np.array([_uniform(light_rng, settings.cast) for _ in range(3)], np.float32)
    params["cast"] = tuple(float(c) for c in cast)

    # Resample the scene once: frame pixel -> undistorted pixel -> scene pixel.
    Hinv = np.linalg.inv(Hs)
    src = scene.image
    if scene.pieces and scene.bare is not None and not settings.outlines:
        lamp = _lamp_direction(piece_rng, settings, Hs, (sw, sh), (W, H), light_params["gradient_angle_deg"])
        drawn, piece_params = _solid_pieces(scene, piece_rng, settings, np.array(params["nadir_px"]),
                                            params["height_px"], lamp)
        src = np.clip(np.rint(drawn), 0, 255).astype(np.uint8)
        to_board = np.linalg.inv(scene.board_to_scene())
        flat = to_board[:2, :2] / to_board[2, 2]  # scene -> board directions, near enough (linear)
        lb = flat @ lamp[:2]
        lb = lb / max(float(np.linalg.norm(lb)), 1e-12) * math.hypot(lamp[0], lamp[1])
        params["lamp"] = {"scene": tuple(float(v) for v in lamp),
                          "board": (float(lb[0]), float(lb[1]), float(lamp[2])),
                          "elevation_deg": math.degrees(math.asin(min(1.0, float(lamp[2])))), **piece_params}
    scale = math.sqrt(abs(np.linalg.det(Hs[:2, :2] / Hs[2, 2])))  # rough frame px per scene px
    if scale < 0.7:  # shrink the scene first, so thin lines do not alias
        k = min(1.0, scale * 1.4)
        src = cv2.resize(src, (max(1, round(sw * k)), max(1, round(sh * k))), interpolation=cv2.INTER_AREA)
        kx, ky = src.shape[1] / sw, src.shape[0] / sh
        Hinv = np.array([[kx, 0, 0.5 * kx - 0.5], [0, ky, 0.5 * ky - 0.5], [0, 0, 1]]) @ Hinv
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float64)
    und = dist.undistort(np.stack([xx, yy], axis=-1))
    q = und @ Hinv[:, :2].T + Hinv[:, 2]
    mapx = (q[..., 0] / q[..., 2]).astype(np.float32)
    mapy = (q[..., 1] / q[..., 2]).astype(np.float32)
    warped = cv2.remap(src, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                       borderValue=(0, 0, 0))
    cover = cv2.remap(np.full(src.shape[:2], 255, np.uint8), mapx, mapy, cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_CONSTANT, borderValue=0).astype(np.float32)[..., None] / 255
    table = _table(table_rng, (H, W))
    img = warped.astype(np.float32) * cover + table * (1 - cover)  # warped is black where cover is 0

    board_to_frame = Hs @ scene.board_to_scene()
    board_to_frame = board_to_frame / board_to_frame[2, 2]

    def project(pts):
        p = np.asarray(pts, np.float64).reshape(-1, 2)
        r = np.hstack([p, np.ones((len(p), 1))]) @ board_to_frame.T
        return dist.distort(r[:, :2] / r[:, 2:3])

    # Hand (drawn from its own stream always, so the rest of the frame does not depend on it).
    alpha, hand_colour, hand_params = _hand(hand_rng, scene.board, board_to_frame, dist, (H, W))
    hand_mask = None
    occluded: set[str] = set()
    if settings.hand:
        # A soft shadow offset from the hand, then the hand itself.
        lift = 0.12 * hand_params["unit_px"]  # light from the upper left: shadow down and right
        shift = np.float32([[1, 0, lift], [0, 1, lift]])
        shadow = cv2.warpAffine(alpha, shift, (W, H))
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(2.0, 0.25 * hand_params["unit_px"]))
        img = img * (1 - 0.35 * shadow[..., None])
        img = img * (1 - alpha[..., None]) + hand_colour * alpha[..., None]
        hand_mask = alpha > 0.5
        occluded = _occluded(scene.board, project, hand_mask)
        params["hand"] = hand_params

    img = img * light[..., None] * cast[None, None, :]
    sigma = _uniform(noise_rng, settings.noise_sigma)
    blur = _uniform(noise_rng, settings.blur_px)
    quality = round(_uniform(noise_rng, settings.jpeg_quality))
    grain_rng = noise_rng if grain_seed is None else np.random.default_rng(int(grain_seed))
    noise = grain_rng.standard_normal((H, W, 3), dtype=np.float32)
    if blur >= 0.05:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    img = img + noise * sigma
    out = np.clip(np.rint(img), 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    params.update(noise_sigma=sigma, blur_px=blur, jpeg_quality=quality)
    return SimFrame(out, board_to_frame, dist, occluded, hand_mask, int(seed), settings, params)
