"""Registration without markers: find a board by its own drawing, then fit that drawing exactly.

A store-bought board or the real Brain Hanky bandanna carries no ArUco markers, so
``vision.registration.register_markers`` cannot place it. ``register_outline`` finds it from what
every board does carry, its lines and point dots, in three steps.

1. **Outline.** The board's ink (lines, dots, Brain Hanky's webs) is what is thin and darker than
   its surroundings: a morphological black-hat, taken relative to the local brightness, picks it
   out in light or shadow, while the table, the paper, the board's plain background and the inside
   of a piece, all broad, drop out. The ink is grouped into clusters at a few spacings (tableaux,
   only dots, needs 1.5 units), and a cluster's convex hull is the board's outline. Every board's
   outermost ink lies on its play area's extent (``markers.board_extent``): the outer square of the
   three-square boards, the edge dots of tableaux, the boundary of Brain Hanky's blue web. The hull
   is not a clean quadrilateral, though: it cuts a corner where nothing is drawn in it (Brain
   Hanky's corner octagons; a dark piece hiding a corner dot of tableaux) and bulges where a piece
   sits on an outer point. So the four sides are found by direction (``_quad``: hull edges vote,
   a side is the line in its direction touching the hull from outside) and the corners where they
   meet are taken as the extent's corners, or as the extent grown by a piece's radius: two
   starting guesses, good to a third of a unit, no more.

   Not used for the outline, though it is the obvious one: the board's coloured background patch.
   Its edge on white paper is a few grey levels for Brain Hanky's cream cloth under a colour cast,
   how far it reaches beyond the extent differs from board to board (``vision.sim.simple_scene``
   paints 0.15 units, a wooden board has its own margin, the printable board has no patch at all),
   and so the board coordinates of its corners are not known. Fitting lines to the ink along each
   side (``cv2.fitLine``) was tried too: Brain Hanky has no straight line along its edge (its web
   dips in between the boundary points) and pieces on the edge points pull the fit, while the next
   step makes the corners exact anyway.

2. **Fit the rendering.** The frame, warped into the board's own coordinates by the guess, is
   compared with the empty board as ``vision.render.render_board`` (``render_hanky`` for Brain
   Hanky) draws it, both turned into the same ink map, and OpenCV's ECC alignment
   (``cv2.findTransformECC``, a full homography) moves the guess until they line up: at 16 pixels
   per unit from both guesses (and in every turn the drawing can tell apart; see below), then from
   the best at 40 pixels per unit with the discs of points that do not look like the drawing (a
   piece on them) left out. The correlation it ends with says whether this really is the board:
   a drawing that matches worse than ``min_correlation`` is refused, and a second place in the
   picture that matches means two boards in view.

3. **Points and the check.** Each board point is then looked for near where the fit puts it, by
   matching the rendering's surroundings of that point (its dot and the lines meeting there) to
   the frame; a point under a piece or a hand does not match and drops out. The homography is
   refitted to the points found (RANSAC), which is what keeps tableaux, whose drawing is nothing but
   its dots, right when pieces hide half of them. As for markers, the reprojection error reported
   is the RMS distance (frame pixels) between where the fit puts those points and where they were
   found; it and the share of points off the fit are the check: a folded or curled board, or a fit
   gone wrong, is refused. Where pieces hide most points but the lines still show (a crowded
   morris board), the rendering fit stands and is checked against the points that do show.

Light strokes on a dark ground. Brain Hanky printed on the blue cloth (what ``arbiter
print-board`` prints) has webs lighter than its ground, so a black-hat finds none of them. Each
board is tried in every way its drawing may show (``_looks``): dark ink as above, then, for
Brain Hanky, the frame's grey turned over against the blue cloth's rendering turned over. There
the table's own strokes (a corrugated or grained top turned over) may join the webs across the
print's narrow white margin, so ink is looked for only where the cloth's colour is
(``_on_ground``). Measured on the photoreal renders (1920x1080, folded cloths, tilt 4-29
degrees, a striped table): all six blue-cloth empty pictures placed, the spots a median 0.2-1.5
px and at most 5.1 px from the truth (a homography cannot follow the cloth's folds).

Rotation. A square board looks the same turned by 90 degrees, so the outline leaves four
candidate turns. ``board_symmetry`` tells from the rendering which turns look alike; among turns
that look different the board's content decides (the one whose rendering matches best after the
fine fit). Every board in the repository today (all HTJB boards, Brain Hanky's webs, the periodic
ones as drawn) looks the same under all four turns, so for them the content cannot decide, and the
turn that shows the board most nearly upright in the picture (board +y pointing up the frame,
player 1's side at the bottom) is chosen. **Point names are then defined only up to the board's
symmetry**: harmless for an empty board, not once pieces are on it. ``hint`` fixes that: a
``Registration`` or 3x3 homography from an earlier frame (tracking: names stay put as the camera
moves) or from a marker fit, or the image pixel (col, row) where the extent's (x0, y0) corner is
(the corner at a1 on the three-square boards, player 1's left), and the nearest of the look-alike
turns is taken; ``register_corners`` names all four corners by hand. A mirrored view (a camera
seeing the board in a mirror, or from underneath) is not considered.

Measured on seeded ``vision.sim`` frames without markers (1280 x 720; morris9, morabaraba, three,
saba, tableaux, morris6, morris7, brain-hanky-6 and its periodic board, with pieces on most; 100
seeds each with ``CameraSettings.mild()`` and with the defaults): all 1800 placed, every board point
within 0.052 board units of the truth (median 0.011 mild, 0.014 default), reprojection error at
most 0.8 px; 40-65 ms a frame on one desktop core. Also all placed, within 0.08 units, with tilt
38-40 degrees, ``harsh()`` light and noise, the board filling 0.3 to 0.98 of the frame, 640 x 480
frames; within 0.13 units with k1 = -0.25. It works down to about 15 pixels per board unit; below
that it says the board is too small or that none was found.

Limits. The whole board must be in view, on a table or paper plainer than its lines (something
drawn touching the board joins its outline). A hand over the board makes it refuse about one frame
in three (tableaux, Brain Hanky) to one in ten, and is not a misplacement in the frames tried:
register from a still frame. With its ArUco markers in view (a printed board) it may refuse, since
the markers join the outline: use ``register_markers``. Tableaux with most of its dots covered
(16 pieces of 25) is refused. A board whose drawing contains another's is placed as that one too
(a morabaraba board registered as morris9, morris6 as morris9, saba as three): registration finds
where the board lies, it does not check which game is set up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from . import markers as mk
from .registration import Registration, RegistrationError, _grey

RENDER_PPU = 80  # the empty board is drawn once at this scale (as vision.sim draws), then shrunk
TEMPLATE_BORDER = 0.12  # board units of rendering kept round the extent (under sim's 0.15 patch)
COARSE_PPU = 16  # pixels per board unit of the first ECC fit (and of the symmetry test)
FINE_PPU = 40  # and of the last, precise one (and of the search for points)
LEVELS = ((COARSE_PPU, 60), (FINE_PPU, 30))  # ECC (pixels per unit, iterations), coarse to fine
START_GROWTH = (0.0, 0.35)  # board units the outline may lie beyond the extent (a piece's radius)
MIN_CORRELATION = 0.6  # below this the drawing is not this board (true: 0.77 up; wrong: 0.41 at most)
POINT_MATCH = 0.6  # normalised correlation at which a point's surroundings count as found
MIN_POINTS_SEEN = 0.3  # share of the board's points that must be found (the rest under pieces)
MAX_STRAY_POINTS = 0.15  # share of found points off the fitted plane beyond which the board is not flat
CONFIDENT_CORRELATION = 0.7  # above this, other outlines over the same place are not tried
MIN_PPU = 12.0  # pixels per board unit below which lines and dots are too thin to fit
# The biggest ink clusters tried at each grouping spacing, down to this share of the biggest: a
# striped or grained table can outweigh the board (those touch the frame's edge and cost nothing).
CLUSTERS_TRIED = 4
CLUSTER_SHARE = 0.15
SYMMETRY_CORRELATION = 0.99  # a rendering turned by 90 degrees that correlates this well looks the same
# (the boards in the repository score 0.995 or more; one extra diagonal in one corner, 0.98)


# ---------------------------------------------------------------------------- the rendering
@dataclass(frozen=True)
class _Template:
    """The empty board's ink map (``_inkmap``) at ``ppu`` pixels per unit, and where it lies.

    ``to_px``: 3x3 affine board (x, y) -> template pixel (col, row). ``image``: float32, covering
    the extent plus ``TEMPLATE_BORDER`` on every side.
    """

    image: np.ndarray
    to_px: np.ndarray
    ppu: int


_TEMPLATES: dict[tuple, _Template] = {}
_SYMMETRY: dict[tuple, tuple[int, ...]] = {}


def _board_key(board) -> tuple:
    return (board.name, tuple(board.points))


def _hanky_for(board):
    """The Brain Hanky board behind ``board``, or None for an HTJB board (as vision.sim does)."""
    if board.style != "brain-hanky":
        return None
    from engine.boards import brain_hanky_for

    hboard = brain_hanky_for(board.name)
    return hboard if hboard is not None and hboard.graph.points == board.points else None


_RENDERS: dict[tuple, tuple[np.ndarray, int]] = {}


# How a board's drawing may show, tried in this order: "dark" ink on a light ground (every HTJB
# print, Brain Hanky's cream or white cloth), and, for Brain Hanky, "light" webs on the blue cloth
# ``arbiter print-board`` prints (its webs are lighter than the ground, so the frame's grey is
# turned over and the rendering drawn on the blue cloth and turned over too: strokes are dark again).
DARK, LIGHT = "dark", "light"
LIGHT_CLOTH = "blue"
GROUND_HUE = 15  # OpenCV hue steps (of 180) a lit cloth may stray from its printed hue
GROUND_SATURATION = 40  # of 255: the blue cloth shows 60-170 under the photoreal lamps


def _looks(board) -> tuple[str, ...]:
    return (DARK, LIGHT) if _hanky_for(board) is not None else (DARK,)


def _as_look(grey: np.ndarray, look: str) -> np.ndarray:
    """The frame's grey as ``look`` reads it: turned over for light strokes on a dark ground."""
    return cv2.bitwise_not(grey) if look == LIGHT else grey


def _on_ground(image: np.ndarray, look: str) -> np.ndarray | None:
    """For a board printed on a coloured ground (LIGHT: the blue cloth), the mask of the picture
    the ground covers, webs included, grown by a little; None for other looks.

    The ink of a light-on-dark board is found in the turned-over grey, where a striped or grained
    table shows thin dark strokes too, and, the board's white margin being narrow, they can join
    the board's webs into one cluster running off the picture (photoreal renders on a corrugated
    table). The cloth's own colour says where the board is: pixels near its hue and saturated,
    closed over the webs, the biggest such region."""
    if look != LIGHT or image.ndim != 3:
        return None
    from .render_hanky import CLOTHS

    b, g, r = CLOTHS[LIGHT_CLOTH].background
    want = int(cv2.cvtColor(np.uint8([[[b, g, r]]]), cv2.COLOR_BGR2HSV)[0, 0, 0])
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    hue = hsv[..., 0].astype(np.int16)
    near = np.minimum(np.abs(hue - want), 180 - np.abs(hue - want)) <= GROUND_HUE
    mask = (near & (hsv[..., 1] >= GROUND_SATURATION) & (hsv[..., 2] >= 40)).astype(np.uint8)
    h, w = mask.shape
    k = max(5, round(min(h, w) / 40)) | 1  # wider than a web's line and point, narrower than a cell
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return None
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    grown = cv2.dilate((labels == biggest).astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return grown.astype(bool)


def _render_empty(board, look: str = DARK) -> tuple[np.ndarray, int]:
    """(grey rendering of the empty board at RENDER_PPU, pixel margin before the extent's (x0, y1)).

    Drawn once at the scale vision.sim draws at and then shrunk for each level (``_template``), not
    drawn again at each level's scale: the renderers keep lines and dots at least a pixel or two
    wide, which at 16 pixels per unit would make dots blobs and the drawing unlike the board.
    ``look`` (``_looks``): for LIGHT, Brain Hanky on the blue cloth, turned over.
    """
    key = (_board_key(board), look)
    if key in _RENDERS:
        return _RENDERS[key]
    hboard = _hanky_for(board)
    if hboard is not None:
        from .render_hanky import render_hanky

        cloth = LIGHT_CLOTH if look == LIGHT else None
        img = render_hanky(hboard, None, unit_px=RENDER_PPU, labels=False, cloth=cloth)
        margin = round(0.45 * RENDER_PPU)
    else:
        from . import render

        style = render.BoardStyle(unit_px=RENDER_PPU, margin_px=round(0.45 * RENDER_PPU), labels=False)
        img, margin = render.render_board(board, None, labels=False, style=style), style.margin_px
    _RENDERS[key] = (_as_look(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), look), margin)
    return _RENDERS[key]


def _inkmap(grey: np.ndarray, ppu: float) -> np.ndarray:
    """How much darker than its surroundings each pixel is, for strokes up to about 0.3 units wide.

    (closing - image) / closing: a line or a dot scores its contrast whatever the light, broad
    things score nothing: the plain background, and the inside of a piece, which is wider than
    any line (only a piece's outline ring is left, centred on its point like the dot it hides).
    The frame and the rendering are compared in this form, so shading, colour casts and the
    pieces on the board matter little.
    """
    g = grey.astype(np.float32)
    k = max(5, round(0.25 * ppu)) | 1
    closed = cv2.morphologyEx(g, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return (closed - g) / np.maximum(closed, 1.0)


def _template(board, ppu: int, look: str = DARK) -> _Template:
    """The rendering at ``ppu`` pixels per unit (cached per board, scale and look)."""
    key = (_board_key(board), ppu, look)
    cached = _TEMPLATES.get(key)
    if cached is not None:
        return cached
    x0, y0, x1, y1 = mk.board_extent(board)
    grey, margin = _render_empty(board, look)
    border = round(TEMPLATE_BORDER * ppu)
    # One more pixel than the span: the extent's edges land on pixel centres at both ends, so a
    # board symmetric under a quarter turn gives a rendering symmetric under np.rot90.
    w, h = round((x1 - x0) * ppu) + 2 * border + 1, round((y1 - y0) * ppu) + 2 * border + 1
    r = RENDER_PPU / ppu  # rendering pixels per template pixel
    if r > 1:
        grey = cv2.GaussianBlur(grey, (0, 0), 0.45 * r)  # shrink without aliasing thin lines
    to_render = np.array([[r, 0, margin - border * r], [0, r, margin - border * r]], np.float64)
    small = cv2.warpAffine(grey, to_render, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                           borderMode=cv2.BORDER_REPLICATE)
    to_px = np.array([[ppu, 0, border - x0 * ppu], [0, -ppu, border + y1 * ppu], [0, 0, 1]], np.float64)
    tpl = _Template(_inkmap(small, ppu), to_px, ppu)
    _TEMPLATES[key] = tpl
    return tpl


def _turn(board, k: int) -> np.ndarray:
    """3x3 board -> board: a turn by k * 90 degrees (counter-clockwise) about the extent's centre."""
    x0, y0, x1, y1 = mk.board_extent(board)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    c, s = [(1, 0), (0, 1), (-1, 0), (0, -1)][k % 4]
    return np.array([[c, -s, cx - c * cx + s * cy], [s, c, cy - s * cx - c * cy], [0, 0, 1]], np.float64)


def _corr(a: np.ndarray, b: np.ndarray) -> float:
    a = a - a.mean()
    b = b - b.mean()
    d = math.sqrt(float((a * a).sum()) * float((b * b).sum()))
    return float((a * b).sum()) / d if d > 0 else 0.0


def board_symmetry(board) -> tuple[int, ...]:
    """The quarter turns (0..3) under which ``board``'s drawing looks the same; always includes 0.

    Decided from the rendering itself (turned with ``np.rot90``), so colours and the frame count,
    not just the graph: those turns are what no camera can tell apart.
    """
    key = _board_key(board)
    if key not in _SYMMETRY:
        img = _template(board, COARSE_PPU).image
        if img.shape[0] != img.shape[1]:
            _SYMMETRY[key] = (0,)
        else:
            _SYMMETRY[key] = tuple(k for k in range(4)
                                   if k == 0 or _corr(img, np.rot90(img, k)) > SYMMETRY_CORRELATION)
    return _SYMMETRY[key]


# ---------------------------------------------------------------------------- the outline
def _ink(grey: np.ndarray) -> np.ndarray:
    """uint8 mask of thin dark strokes (lines, dots): the black-hat, relative to local brightness."""
    h, w = grey.shape
    smooth = cv2.GaussianBlur(grey, (0, 0), 1.0)  # sensor noise would otherwise speckle the table
    k = max(5, round(min(h, w) / 60)) | 1  # wider than any line the board shows, narrower than a piece
    se = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    closed = cv2.morphologyEx(smooth, cv2.MORPH_CLOSE, se)
    hat = cv2.subtract(closed, smooth)
    # Relative depth, so a line in shadow counts like one in light; an absolute floor against noise.
    deep = hat.astype(np.float32) > 0.15 * np.maximum(closed.astype(np.float32), 1)
    mask = (deep & (hat > 12)).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    keep = np.zeros(n, np.uint8)
    keep[1:] = stats[1:, cv2.CC_STAT_AREA] >= max(6, h * w // 100_000)  # specks of noise go
    return keep[labels]


def _clusters(ink: np.ndarray) -> list[np.ndarray]:
    """Candidate boards: (N, 2) ink pixels of the biggest ink clusters, at a few grouping spacings.

    Strokes closer than the spacing join one cluster. A drawn board is one dense cluster at some
    spacing (tableaux, only dots, needs about 1.5 units); the smallest spacing that holds it keeps
    other things on the table apart from it. A second cluster nearly as big as the first is kept
    too: two boards in view must be reported, not averaged. The grouping runs on a mask shrunk
    four times (any ink in a 4 x 4 block counts), which is as good for grouping and much cheaper
    to dilate; the pixels returned are the full-resolution ones.
    """
    h, w = ink.shape
    f = 4
    small = cv2.resize(ink * 255, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    small = (small > 0).astype(np.uint8)
    ys, xs = np.nonzero(ink)
    sy, sx = np.minimum(ys // f, small.shape[0] - 1), np.minimum(xs // f, small.shape[1] - 1)
    out: list[np.ndarray] = []
    seen: set[tuple[int, int]] = set()
    for frac in (0.02, 0.045, 0.1, 0.2):
        k = max(1, round(frac * min(h, w) / f)) | 1
        grown = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        n, labels = cv2.connectedComponents(grown, connectivity=8)
        if n <= 1:
            continue
        of_ink = labels[sy, sx]
        counts = np.bincount(of_ink, minlength=n)
        counts[0] = 0
        order = np.argsort(counts)[::-1]
        for rank, lab in enumerate(order[:CLUSTERS_TRIED]):
            if counts[lab] == 0 or (rank >= 1 and counts[lab] < CLUSTER_SHARE * counts[order[0]]):
                break
            sel = of_ink == lab
            sig = (int(sel.sum()), int(xs[sel].sum() % 100_003))
            if sig not in seen:
                seen.add(sig)
                out.append(np.column_stack([xs[sel], ys[sel]]).astype(np.float32))
    return out


def _quad(pts: np.ndarray) -> np.ndarray | None:
    """A quadrilateral enclosing the board outlined by ink pixels ``pts``, or None if none fits.

    The convex hull of the ink is the board's outline, but not exactly a quadrilateral: the hull
    cuts a corner where nothing is drawn right in it (Brain Hanky's corner octagons stop a fifth
    of a unit short of the corner; a dark piece on a corner dot of tableaux hides the dot, and the
    hull then cuts across to the next dots), and a piece on an outer point bulges it out by the
    piece's radius. So the sides are found by direction, not by vertex: the hull's edges, weighted
    by length, vote for their direction; the four strongest directions (at least 30 degrees apart)
    are the sides, each refined to the length-weighted mean of the edges within 20 degrees (so a
    side bent into a tent by a piece on its midpoint keeps its direction), and each side is the
    line in that direction that touches the hull from outside. The corners, where neighbouring
    sides meet, are then found even where they are cut off or hidden, and the quadrilateral lies
    on or outside the board's extent: outside by at most a piece's radius where a piece sticks
    out, which ``_fit_candidate`` allows for.

    The corners come in the order the extent's (x0,y0), (x1,y0), (x1,y1), (x0,y1) corners take in
    an unmirrored view: negative signed area in image coordinates (rows run down, board y up).
    """
    hull = cv2.convexHull(pts).reshape(-1, 2).astype(np.float64)
    if len(hull) < 4:
        return None
    vec = np.roll(hull, -1, axis=0) - hull
    length = np.hypot(vec[:, 0], vec[:, 1])
    angle = np.degrees(np.arctan2(vec[:, 1], vec[:, 0])) % 360
    votes = np.zeros(360)
    np.add.at(votes, np.round(angle).astype(int) % 360, length)
    kernel = np.exp(-0.5 * (np.arange(-12, 13) / 4.0) ** 2)
    votes = np.convolve(np.concatenate([votes[-12:], votes, votes[:12]]), kernel, "valid")
    directions = []
    for _ in range(4):
        peak = int(np.argmax(votes))
        if votes[peak] <= 0:
            return None
        near = np.abs((angle - peak + 180) % 360 - 180) < 20
        if length[near].sum() < 0.05 * length.sum():
            return None  # a fourth side with hardly any outline: not a quadrilateral
        # Length-weighted mean direction of the edges near the peak.
        rad = np.radians(angle[near])
        weight = length[near]
        mean = math.atan2(float((weight * np.sin(rad)).sum()), float((weight * np.cos(rad)).sum()))
        directions.append(math.degrees(mean) % 360)
        votes[np.abs((np.arange(360) - peak + 180) % 360 - 180) < 30] = 0
    directions.sort()  # the hull turns one way all round, so sorted directions are in order round it
    centre = hull.mean(0)
    lines = []
    for d in directions:
        u = np.array([math.cos(math.radians(d)), math.sin(math.radians(d))])
        n = np.array([u[1], -u[0]])
        near = np.abs((angle - d + 180) % 360 - 180) < 20
        mids = hull[near] + vec[near] / 2
        if float(((mids - centre) @ n).mean()) < 0:
            n = -n  # outward
        c = float((hull @ n).max())  # the line in direction u touching the hull from outside
        lines.append((n * c, u))
    corners = []
    for i in range(4):  # where side i-1 meets side i
        (p, v), (q, w) = lines[i - 1], lines[i]
        m = np.array([v, -w]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        k, _ = np.linalg.solve(m, q - p)
        corners.append(p + k * v)
    corners = np.array(corners)
    if not cv2.isContourConvex(corners.astype(np.float32).reshape(-1, 1, 2)):
        return None
    # A board seen at up to 40 degrees of tilt stays a fair quadrilateral hugging its ink; sides
    # found on a few stray strokes do not.
    sides = np.hypot(*(np.roll(corners, -1, axis=0) - corners).T)
    if sides.min() < 0.3 * sides.max():
        return None
    if cv2.contourArea(corners.astype(np.float32)) > 2.0 * cv2.contourArea(hull.astype(np.float32)):
        return None
    if cv2.contourArea(corners.astype(np.float32), oriented=True) > 0:
        corners = corners[::-1]
    return corners


# ---------------------------------------------------------------------------- fitting
def _rectify(grey: np.ndarray, H: np.ndarray, tpl: _Template) -> tuple[np.ndarray, np.ndarray]:
    """(ink map of the frame on the template's grid, M: template pixel -> frame pixel) under fit ``H``."""
    M = H @ np.linalg.inv(tpl.to_px)
    th, tw = tpl.image.shape
    corners = cv2.perspectiveTransform(np.array([[(0, 0), (tw, 0), (tw, th), (0, th)]], np.float64), M)[0]
    # Work on the frame's crop round the board only, shrunk first if it is much finer than the template.
    pad = 4
    c0, r0 = np.floor(corners.min(0)).astype(int) - pad
    c1, r1 = np.ceil(corners.max(0)).astype(int) + pad
    c0, r0 = max(c0, 0), max(r0, 0)
    c1, r1 = min(c1, grey.shape[1]), min(r1, grey.shape[0])
    crop = grey[r0:r1, c0:c1]
    M = np.array([[1, 0, -c0], [0, 1, -r0], [0, 0, 1]], np.float64) @ M
    scale = math.sqrt(abs(np.linalg.det(M[:2, :2] / M[2, 2])))  # frame px per template px, roughly
    shrink = 1.0
    if scale > 1.5 and crop.size:  # average down first, so thin lines do not alias (and it is cheaper)
        shrink = 1.2 / scale
        size = (max(1, round(crop.shape[1] * shrink)), max(1, round(crop.shape[0] * shrink)))
        crop = cv2.resize(crop, size, interpolation=cv2.INTER_AREA)
        sx, sy = crop.shape[1] / (c1 - c0), crop.shape[0] / (r1 - r0)
        M = np.array([[sx, 0, 0.5 * sx - 0.5], [0, sy, 0.5 * sy - 0.5], [0, 0, 1]], np.float64) @ M
    rect = cv2.warpPerspective(crop, M, (tw, th), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)
    if shrink != 1.0:
        M = np.array([[1 / sx, 0, 0.5 / sx - 0.5], [0, 1 / sy, 0.5 / sy - 0.5], [0, 0, 1]], np.float64) @ M
    M = np.array([[1, 0, c0], [0, 1, r0], [0, 0, 1]], np.float64) @ M
    return _inkmap(rect, tpl.ppu), M


def _ecc(grey: np.ndarray, H: np.ndarray, tpl: _Template, iterations: int,
         mask: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """Refine board->frame homography ``H`` by ECC against the rendering; (H, correlation).

    ``mask`` (uint8, template-sized, 0 = ignore) leaves out pixels, e.g. under pieces.
    Raises cv2.error when ECC does not converge (nothing like the board where H says).
    """
    rect, M = _rectify(grey, H, tpl)
    warp = np.eye(3, dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, iterations, 1e-4)
    cc, warp = cv2.findTransformECC(tpl.image, rect, warp, cv2.MOTION_HOMOGRAPHY, criteria, mask, 5)
    H = M @ warp.astype(np.float64) @ tpl.to_px
    return H / H[2, 2], float(cc)


def _piece_radius(board) -> float | None:
    """Board units round a point that a piece may cover, or None where pieces hide too little to matter.

    HTJB pieces are about a third of a unit across each way (``render.DEFAULT_STYLE``), wider
    than anything the board draws at a point. Brain Hanky's rings and gems are small beside its
    webs, whose points are closer together than a piece's reach, so nothing is masked there.
    """
    if board.style not in ("htjb", "twin-grids"):  # the two-grid gems are drawn as HTJB men's size
        return None
    from . import render

    return render.DEFAULT_STYLE.piece_radius / render.DEFAULT_STYLE.unit_px + 0.08


def _piece_mask(grey: np.ndarray, H: np.ndarray, tpl: _Template, board) -> np.ndarray | None:
    """Mask (0 = ignore) of the points under fit ``H`` whose surroundings do not look like the rendering.

    A piece on a point is no part of the board's drawing: a white piece shows as a ring of its
    outline where the rendering has a dot, and many of them (tableaux, whose only drawing is its
    dots) pull the fit off by a tenth of a unit. Points whose disc correlates poorly with the
    rendering, after the coarse fit has put them within a few pixels, are left out of the fine fit.
    """
    radius = _piece_radius(board)
    if radius is None:
        return None
    rect, _ = _rectify(grey, H, tpl)
    img = tpl.image
    th, tw = img.shape
    r = radius * tpl.ppu
    mask = np.full((th, tw), 255, np.uint8)
    yy, xx = np.mgrid[0:th, 0:tw]
    for name in board.points:
        u, v = (tpl.to_px @ np.array([*board.coords[name], 1.0]))[:2]
        c0, c1 = max(int(u - r), 0), min(int(u + r) + 2, tw)
        r0, r1 = max(int(v - r), 0), min(int(v + r) + 2, th)
        disc = (xx[r0:r1, c0:c1] - u) ** 2 + (yy[r0:r1, c0:c1] - v) ** 2 <= r * r
        if _corr(img[r0:r1, c0:c1][disc], rect[r0:r1, c0:c1][disc]) < 0.5:
            cv2.circle(mask, (round(u), round(v)), round(r), 0, -1)
    return mask


@dataclass
class _Points:
    """Board points found in the frame: their names, board coordinates and frame pixels."""

    names: list[str]
    board_xy: np.ndarray  # (N, 2)
    pixels: np.ndarray  # (N, 2)


def _find_points(grey: np.ndarray, H: np.ndarray, board, look: str = DARK) -> _Points:
    """Look for every board point near where fit ``H`` puts it, by what the board draws there.

    Each point's surroundings in the rendering (a dot, with the lines or web that meet there; 0.4
    units square) are matched (normalised correlation) within 0.2 units of the predicted place
    in the frame, warped by ``H`` to the rendering's grid; the best match, refined to a fraction
    of a pixel, is where the point is. A point under a piece or a hand looks nothing like the
    rendering and is left out (weak match), which is what makes the correspondences, unlike a fit
    over the whole picture, blind to pieces.
    """
    tpl = _template(board, FINE_PPU, look)
    rect, M = _rectify(grey, H, tpl)
    img = tpl.image
    half = round(0.2 * tpl.ppu)
    reach = round(0.2 * tpl.ppu)
    names, xy, found = [], [], []
    for name in board.points:
        u, v = (tpl.to_px @ np.array([*board.coords[name], 1.0]))[:2]
        cu, cv_ = round(u), round(v)
        patch = cv2.getRectSubPix(img, (2 * half + 1, 2 * half + 1), (float(u), float(v)))
        if float(patch.std()) < 1e-3:
            continue
        r0, c0 = cv_ - half - reach, cu - half - reach
        size = 2 * (half + reach) + 1
        region = cv2.getRectSubPix(rect, (size, size), (float(cu), float(cv_)))
        if float(region.std()) < 1e-3:
            continue
        score = cv2.matchTemplate(region, patch, cv2.TM_CCOEFF_NORMED)
        _, peak, _, (px, py) = cv2.minMaxLoc(score)
        if peak < POINT_MATCH or not (0 < px < score.shape[1] - 1 and 0 < py < score.shape[0] - 1):
            continue
        # Parabola through the peak and its neighbours, per axis: sub-pixel.
        dx = _vertex(score[py, px - 1], score[py, px], score[py, px + 1])
        dy = _vertex(score[py - 1, px], score[py, px], score[py + 1, px])
        # The patch's centre is the point, (u, v) in the rendering; the match puts it here:
        mu = c0 + px + dx + half
        mv = r0 + py + dy + half
        names.append(name)
        xy.append(board.coords[name])
        found.append((mu, mv))
    if not names:
        return _Points([], np.zeros((0, 2)), np.zeros((0, 2)))
    pixels = cv2.perspectiveTransform(np.array([found], np.float64), M)[0]
    return _Points(names, np.array(xy, np.float64), pixels)


def find_points(image: np.ndarray, board, H: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(board coordinates (N, 2), frame pixels (N, 2)) of the board points found near where ``H``
    puts them, in whichever way the drawing shows (``_looks``) finds the most. For
    ``vision.surface``, which measures from them what a homography cannot follow."""
    grey = _grey(image)
    best = None
    for look in _looks(board):
        pts = _find_points(_as_look(grey, look), H, board, look)
        if best is None or len(pts.names) > len(best.names):
            best = pts
    return best.board_xy, best.pixels


def _vertex(a: float, b: float, c: float) -> float:
    """Offset (-0.5..0.5) of the top of the parabola through (-1, a), (0, b), (1, c)."""
    d = a - 2 * b + c
    return 0.0 if d >= 0 else float(np.clip(0.5 * (a - c) / d, -0.5, 0.5))


def _upright_score(H: np.ndarray, board) -> float:
    """How nearly board +y points up the picture under ``H`` (1: straight up, -1: straight down)."""
    x0, y0, x1, y1 = mk.board_extent(board)
    c = ((x0 + x1) / 2, (y0 + y1) / 2)
    a, b = cv2.perspectiveTransform(np.array([[c, (c[0], c[1] + 1)]], np.float64), H)[0]
    v = b - a
    return float(-v[1] / (np.hypot(*v) + 1e-12))


def _hint_measure(hint, board):
    """A function H -> how far fit ``H`` is from what ``hint`` says (pixels); None for no hint.

    A ``Registration`` or 3x3 homography: the mean distance between where the two put the
    extent's corners. A (col, row) pixel: the distance from where H puts the extent's (x0, y0).
    """
    if hint is None:
        return None
    x0, y0, x1, y1 = mk.board_extent(board)
    corners = np.array([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], np.float64)
    raw = hint.board_to_image if isinstance(hint, Registration) else hint
    try:
        arr = np.asarray(raw, np.float64)
    except (TypeError, ValueError):
        arr = np.zeros(0)
    if arr.shape == (3, 3) and np.all(np.isfinite(arr)):
        want = cv2.perspectiveTransform(corners, arr)[0]
        return lambda H: float(np.mean(np.hypot(*(cv2.perspectiveTransform(corners, H)[0] - want).T)))
    if arr.shape == (2,) and np.all(np.isfinite(arr)):
        return lambda H: float(np.hypot(*(cv2.perspectiveTransform(corners[:, :1], H)[0, 0] - arr)))
    raise RegistrationError("hint must be a Registration, a 3x3 board-to-image homography, or the "
                            "(column, row) pixel of the board's (x0, y0) corner")


# ---------------------------------------------------------------------------- entry point
@dataclass
class _Fit:
    H: np.ndarray
    cc: float
    seen: float = 1.0  # share of the rendering's ink the fit could use (not under pieces)


def _fit_candidate(grey: np.ndarray, board, quad: np.ndarray, look: str = DARK) -> _Fit | None:
    """ECC fit starting from the outline ``quad``, coarse to fine, in the turn the content likes best.

    The outline is the extent's own only when nothing sticks out of the board: a piece on an
    outer point pushes the outline out by its radius there. So the coarse fit starts from two
    guesses, the outline as the extent and as the extent grown by a piece's radius, and in each
    turn the content can tell apart; the best-matching start goes on to the finer levels.
    """
    x0, y0, x1, y1 = mk.board_extent(board)
    (ppu0, iters0), *finer = LEVELS
    sym = board_symmetry(board)
    # One turn per class of turns that look alike: the content can only choose among classes.
    reps: list[int] = []
    for k in range(4):
        if not any((k - r) % 4 in sym for r in reps):
            reps.append(k)
    best: _Fit | None = None
    for grow in START_GROWTH:
        ext = np.array([(x0 - grow, y0 - grow), (x1 + grow, y0 - grow), (x1 + grow, y1 + grow),
                        (x0 - grow, y1 + grow)], np.float32)
        H0 = cv2.getPerspectiveTransform(ext, quad.astype(np.float32)).astype(np.float64)
        for k in reps:
            try:
                H, cc = _ecc(grey, H0 @ _turn(board, k), _template(board, ppu0, look), iters0)
            except cv2.error:
                continue
            if best is None or cc > best.cc:
                best = _Fit(H, cc)
    if best is None:
        return None
    mask = None
    seen = 1.0
    for ppu, iters in finer:
        tpl = _template(board, ppu, look)
        mask = _piece_mask(grey, best.H, tpl, board)
        if mask is not None:
            seen = float(tpl.image[mask > 0].sum() / max(float(tpl.image.sum()), 1e-9))
        try:
            best = _Fit(*_ecc(grey, best.H, tpl, iters, mask), seen)
        except cv2.error:
            return None
    if len(reps) > 1:
        # Decide the turn again on the precise fit: the outline lines up in every turn, so only the
        # content that differs between turns changes the match, and it does so reliably only now.
        fine = _template(board, FINE_PPU, look)
        keep = slice(None) if mask is None else mask > 0
        scores = {k: _corr(fine.image[keep], _rectify(grey, best.H @ _turn(board, k), fine)[0][keep])
                  for k in reps}
        k = max(scores, key=scores.get)
        best = _Fit(best.H @ _turn(board, k), scores[k], seen)
    return best


def register_outline(image: np.ndarray, board, *, hint=None, max_error_px: float = 3.0,
                     min_correlation: float = MIN_CORRELATION) -> Registration:
    """Locate ``board`` (no markers needed) from its drawn outline and lines; see the module notes.

    ``hint``: a ``Registration`` or 3x3 board->image homography (e.g. the previous frame's), or
    the (col, row) pixel of the extent's (x0, y0) corner; it picks among the turns the board's
    drawing cannot tell apart (without it, the most upright). ``max_error_px``: refuse a fit whose
    board points lie further from where they were found than this (RMS, frame pixels).
    ``min_correlation``: refuse a drawing that matches the rendering of ``board`` worse (0..1).

    Returns a ``Registration`` with ``method="outline"`` and no markers; raises
    ``RegistrationError`` saying what to change when the board cannot be placed.
    """
    grey0 = _grey(image)
    closeness = _hint_measure(hint, board)  # a malformed hint is refused before any work
    first: RegistrationError | None = None
    for look in _looks(board):
        try:
            return _register_look(_as_look(grey0, look), board, closeness, max_error_px, min_correlation, look,
                                  _on_ground(image, look))
        except RegistrationError as exc:
            first = first or exc  # the usual look's reason is the one to report
    raise first


def _register_look(grey: np.ndarray, board, closeness, max_error_px: float, min_correlation: float,
                   look: str, ground: np.ndarray | None = None) -> Registration:
    """``register_outline`` for one way the drawing may show (``_looks``), on the grey as it reads
    it; ``ground``: where a coloured ground lies (``_on_ground``), the only place ink is looked for."""
    h, w = grey.shape
    ink = _ink(grey)
    if ground is not None:
        ink = ink & ground.astype(ink.dtype)
    clusters = _clusters(ink)
    if not clusters:
        raise RegistrationError("no board found: make sure the whole board is in view, lit, and lying "
                                "on a plain table or paper that contrasts with it")
    x0, y0, x1, y1 = mk.board_extent(board)
    span = max(x1 - x0, y1 - y0)
    accepted: list[tuple[_Fit, np.ndarray]] = []  # fits that match, with their extent in the frame
    problems: list[str] = []  # what went wrong with each cluster tried, the biggest first
    best_rejected = 0.0
    for pts in sorted(clusters, key=len, reverse=True):  # the most ink first: a whole board beats a part
        same = [i for i, (_, poly) in enumerate(accepted) if _share_inside(pts, poly) > 0.5]
        if any(accepted[i][0].cc >= CONFIDENT_CORRELATION for i in same):
            continue  # ink of a board already placed, and placed well
        lo, hi = pts.min(0), pts.max(0)
        if lo[0] <= 1 or lo[1] <= 1 or hi[0] >= w - 2 or hi[1] >= h - 2:
            problems.append("edge")
            continue
        quad = _quad(pts)
        if quad is None:
            problems.append("shape")
            continue
        if math.sqrt(cv2.contourArea(quad.astype(np.float32))) / span < MIN_PPU:
            problems.append("small")
            continue
        fit = _fit_candidate(grey, board, quad, look)
        if fit is None:
            problems.append("nomatch")
        elif fit.cc < min_correlation:
            problems.append("weak")
            best_rejected = max(best_rejected, fit.cc)
        elif same:
            if fit.cc > accepted[same[0]][0].cc:
                accepted[same[0]] = (fit, _extent_in_frame(fit.H, board))
        else:
            accepted.append((fit, _extent_in_frame(fit.H, board)))
    if not accepted:
        raise RegistrationError(_not_found(board, problems, best_rejected, min_correlation))
    if len(accepted) > 1:
        raise RegistrationError(f"{len(accepted)} places in the picture look like the {board.name} board: "
                                f"leave only one board in view")
    fit = accepted[0][0]
    H, err = _fit_points(grey, _Fit(_choose_turn(fit.H, board, closeness), fit.cc, fit.seen), board,
                         max_error_px, look)
    return Registration(H, err, (), "outline")


def _fit_points(grey: np.ndarray, fit: _Fit, board, max_error_px: float, look: str = DARK
                ) -> tuple[np.ndarray, float]:
    """The final fit and its check, from the board points found near the fit's homography.

    Like the marker fit, it rests on correspondences (board point <-> pixel), and the RMS
    reprojection error over them is what is reported and checked. With enough points found the
    homography is fitted to them (RANSAC drops one matched to the wrong thing: a junction next to
    it, a piece's rim); that is what keeps a board drawn only with dots (tableaux) right when
    pieces hide many of them, since the rendering fit is pulled by the pieces while a hidden
    point simply drops out. When pieces hide most points but the board's lines still show most
    of its drawing (a crowded three-square board), the rendering fit stands, checked against the
    points that can be seen. Too few of either means too much is hidden, too large an error a
    board that is not flat (or a fit gone wrong): both are refused.
    """
    H = fit.H
    pts = _find_points(grey, H, board, look)
    n, total = len(pts.names), len(board.points)
    need = max(6, math.ceil(MIN_POINTS_SEEN * total))
    x0, y0, x1, y1 = mk.board_extent(board)
    spread = cv2.contourArea(cv2.convexHull(pts.board_xy.astype(np.float32))) if n >= 3 else 0.0
    ppu = math.sqrt(abs(np.linalg.det(H[:2, :2] / H[2, 2])))  # rough frame pixels per board unit
    tol = max(2.0, 0.06 * ppu)
    if n >= need and spread >= 0.25 * (x1 - x0) * (y1 - y0):
        G, inliers = cv2.findHomography(pts.board_xy, pts.pixels, cv2.RANSAC, tol)
        keep = inliers.ravel() > 0 if inliers is not None else np.zeros(n, bool)
        if G is None or int(keep.sum()) < need:
            raise RegistrationError(f"the {board.name} board's points do not fit a flat board: flatten it "
                                    f"and keep hands off it")
        H, _ = cv2.findHomography(pts.board_xy[keep], pts.pixels[keep], 0)
        H = H / H[2, 2]
    elif fit.seen >= 0.5 and n >= 3:
        keep = np.hypot(*(cv2.perspectiveTransform(pts.board_xy[None], H)[0] - pts.pixels).T) < tol
        if int(keep.sum()) < 3:
            raise RegistrationError(f"the {board.name} board's points do not fit a flat board: flatten it "
                                    f"and keep hands off it")
    else:
        raise RegistrationError(f"only {n} of the {board.name} board's {total} points can be seen (need "
                                f"{need}, spread over the board): too much of it is covered; register it "
                                f"with fewer pieces on it, and keep hands off it")
    if keep.sum() < (1 - MAX_STRAY_POINTS) * n:
        raise RegistrationError(f"{n - int(keep.sum())} of the {n} board points seen are not where a flat "
                                f"board would put them: flatten the board or cloth (is it folded?) and keep "
                                f"hands off it")
    proj = cv2.perspectiveTransform(pts.board_xy[keep][None], H)[0]
    err = float(np.sqrt(np.mean(np.sum((proj - pts.pixels[keep]) ** 2, axis=1))))
    if not err <= max_error_px:
        raise RegistrationError(f"the board's points do not fit a flat board (error {err:.1f} px, limit "
                                f"{max_error_px:.1f}): flatten the board or cloth and keep hands off it")
    return H, err


def _not_found(board, problems: list[str], best_rejected: float, min_correlation: float) -> str:
    """What to say when nothing fitted: a near miss first, else what was wrong with the biggest cluster."""
    if "weak" in problems:
        return (f"found a drawn shape, but it does not look like the {board.name} board (match "
                f"{best_rejected:.2f}, need {min_correlation:.2f}): check the game chosen, and that the "
                f"board is flat, evenly lit and not covered")
    first = problems[0] if problems else None
    if first == "nomatch":
        return (f"found a board-shaped outline, but the {board.name} board's lines could not be matched to "
                f"it: check the game chosen, keep hands off the board and light it evenly")
    if first == "edge":
        return ("the board runs off the edge of the picture: move the camera back or centre it so the "
                "whole board is in view")
    if first == "small":
        return ("the board is too small in the picture to fit its lines: move the camera closer or zoom in "
                "so the board fills most of the frame")
    if first == "shape":
        return ("the board's outline is not a four-sided shape: is it folded, partly covered, or touching "
                "another drawn object?")
    return ("no board found: make sure the whole board is in view, lit, and lying on a plain table or "
            "paper that contrasts with it")


def _extent_in_frame(H: np.ndarray, board) -> np.ndarray:
    """(4, 2) float32: the extent's corners in the frame under ``H``."""
    x0, y0, x1, y1 = mk.board_extent(board)
    return cv2.perspectiveTransform(np.array([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], np.float64),
                                    H)[0].astype(np.float32)


def _share_inside(pts: np.ndarray, poly: np.ndarray) -> float:
    """The share of pixels ``pts`` that lie inside polygon ``poly`` (a little grown)."""
    centre = poly.mean(0)
    grown = centre + (poly - centre) * 1.1
    lo = np.floor(np.minimum(pts.min(0), grown.min(0))).astype(int)
    hi = np.ceil(np.maximum(pts.max(0), grown.max(0))).astype(int)
    mask = np.zeros((hi[1] - lo[1] + 1, hi[0] - lo[0] + 1), np.uint8)
    cv2.fillConvexPoly(mask, np.round(grown - lo).astype(np.int32), 1)
    idx = np.round(pts - lo).astype(int)
    return float(mask[idx[:, 1], idx[:, 0]].mean())


def _choose_turn(H: np.ndarray, board, closeness) -> np.ndarray:
    """Of the turns the drawing cannot tell apart: the one the hint is closest to, else the most upright."""
    options = [H @ _turn(board, k) for k in board_symmetry(board)]
    if closeness is not None:
        return min(options, key=closeness)
    return max(options, key=lambda G: _upright_score(G, board))
