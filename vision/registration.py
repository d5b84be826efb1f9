"""Registration: where the board lies in a camera frame, as a homography from board coordinates.

Every later step (sampling each point, telling a hand from a piece) needs to know where each
board point appears in the image. The printed board carries four ArUco markers at known board
coordinates (``vision.markers``); OpenCV's detector finds their corners and ``findHomography``
fits the plane. A fit is accepted only if it reprojects the marker corners within a tolerance:
a misdetected marker, a folded print or a board lifted off the table shows up as a large error
and is refused rather than used.

Without markers (a store-bought board, the real bandanna) the user can give the play area's
four corners instead (``register_corners``).

Finding the markers takes two passes (``detect_markers``). The first looks over the whole frame
with detector settings chosen for small, foreshortened, unevenly lit markers (many threshold
window sizes, small perimeters, a looser polygon fit). When some of the board's markers are still
missing but their places are known (from the markers already found, or from the last good fit) a
second pass looks again only there: a crop round each expected place, enlarged and with its
contrast stretched, and accepts nothing but the expected id near the expected place. A frame
1600 px or more across is first looked at half size, each marker found there confirmed at full
size in a crop round it (``_half_look``); only when that finds every marker of the board once is
the whole look spared.

``MarkerLocator`` (one per stream of frames, e.g. per ``BoardReader``) keeps the last good fit,
and looks for each marker first where that fit puts it; a marker whose pixels there are as when
the detector last found it keeps its corners without another look (``_Sighting``).
A frame with fewer than three markers is read through that fit when every marker it does see
lies within a few pixels of where the fit puts it (``method`` "markers-held"); a marker seen
elsewhere means the camera moved, and the frame is refused with that reason. With no marker in
view at all the fit is held only while patches round the print still match the last good frame,
and for a bounded number of frames.

``RegistrationTracker`` refreshes the fit on every frame in which enough markers are visible,
so a camera that is bumped is followed; when too few markers are visible it says so (status
"lost", with the ids missing) and offers no registration rather than guessing from an old one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from . import markers as mk


class RegistrationError(ValueError):
    """The board could not be located; the message says what to do about it."""


@dataclass(frozen=True)
class Registration:
    board_to_image: np.ndarray  # 3x3 homography: board (x, y) -> image (col, row)
    reprojection_error: float  # RMS pixels over the correspondences used
    markers_seen: tuple[int, ...]
    method: str  # "markers", "markers-held" (the last good fit, confirmed), "corners" or "outline"
    note: str = ""  # for diagnostics: e.g. why a held fit was trusted

    def to_image(self, xy) -> tuple[float, float]:
        pts = cv2.perspectiveTransform(np.array([[xy]], np.float64), self.board_to_image)
        return float(pts[0, 0, 0]), float(pts[0, 0, 1])

    def point_pixels(self, board) -> dict[str, tuple[float, float]]:
        """Where every point of ``board`` appears in the image."""
        names = list(board.points)
        src = np.array([[board.coords[p] for p in names]], np.float64)
        dst = cv2.perspectiveTransform(src, self.board_to_image)[0]
        return {p: (float(c), float(r)) for p, (c, r) in zip(names, dst)}

    def pixels_per_unit(self, board) -> float:
        """Rough scale at the board's centre (pixels per board unit), for choosing sample sizes."""
        x0, y0, x1, y1 = mk.board_extent(board)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        a, b = np.array(self.to_image((cx, cy))), np.array(self.to_image((cx + 1, cy)))
        c = np.array(self.to_image((cx, cy + 1)))
        return float((np.linalg.norm(b - a) + np.linalg.norm(c - a)) / 2)


def _grey(image: np.ndarray) -> np.ndarray:
    if image is None or not isinstance(image, np.ndarray) or image.size == 0:
        raise RegistrationError("the camera frame is empty or unreadable: check the camera connection")
    if image.ndim == 3:
        return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return image


def _params(*, min_perimeter_rate: float = 0.015, error_correction: float = 0.6) -> cv2.aruco.DetectorParameters:
    """Detector settings for small, foreshortened, unevenly lit markers (measured on ``vision.sim``
    frames, docs/calibration.md): six threshold windows from 3 to 33 px instead of three up to 23
    (a shadow edge or a glare ramp across a marker), markers down to a 1.5% perimeter (about 5 px a
    side at 1280 wide), a looser polygon fit and corner distance (blur rounds a tiny marker's
    corners), the bits read from the middle of each cell at 8 px a cell, and corners refined
    within a smaller share of a cell."""
    p = cv2.aruco.DetectorParameters()
    p.adaptiveThreshWinSizeMin = 3
    p.adaptiveThreshWinSizeMax = 33
    p.adaptiveThreshWinSizeStep = 6
    p.minMarkerPerimeterRate = min_perimeter_rate
    p.polygonalApproxAccuracyRate = 0.05
    p.minCornerDistanceRate = 0.03
    p.perspectiveRemovePixelPerCell = 8
    p.perspectiveRemoveIgnoredMarginPerCell = 0.25
    p.errorCorrectionRate = error_correction
    p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX  # sub-pixel corners: a steadier fit
    # The refinement window: at most 3 px, and at most 0.6 of a cell (OpenCV's 0.3 leaves a
    # 12 px marker's corners unrefined): mean corner error 0.38 px instead of 0.56 on sim frames.
    p.cornerRefinementWinSize = 3
    p.relativeCornerRefinmentWinSize = 0.6
    return p


_KINDS = {
    "frame": {},
    "crop": {"min_perimeter_rate": 0.1},  # a crop round one expected marker: it fills much of it
    # a second look over a whole frame with no idea where the markers are: fewer corrected bits,
    # so an enlarged, contrast-equalised frame shows no phantom ids
    "rescan": {"error_correction": 0.3},
}


def _detect(grey: np.ndarray, kind: str, scale: float = 1.0, origin=(0.0, 0.0)) -> list[tuple[int, np.ndarray]]:
    """(id, (4, 2) corners in the frame's pixels) for every marker in ``grey``, which was cut from
    the frame at ``origin`` and enlarged ``scale`` times."""
    detector = cv2.aruco.ArucoDetector(mk.dictionary(), _params(**_KINDS[kind]))  # cheap; no shared state
    corners, ids, _rejected = detector.detectMarkers(grey)
    if ids is None:
        return []
    off = np.asarray(origin, np.float64)
    return [(int(i), (c.reshape(4, 2).astype(np.float64) + 0.5) / scale - 0.5 + off)
            for i, c in zip(ids.ravel(), corners)]


def _stretch(grey: np.ndarray) -> np.ndarray:
    """Contrast stretched between the 1st and 99th percentile: an over-exposed marker's black
    shows as mid grey, a shadowed one's white as mid grey; both come back to black and white."""
    lo, hi = np.percentile(grey, (1, 99))
    if hi - lo < 12:
        return grey
    return cv2.convertScaleAbs(grey, alpha=255.0 / (hi - lo), beta=-lo * 255.0 / (hi - lo))


_CLAHE = cv2.createCLAHE(clipLimit=3.0, tileGridSize=(8, 8))


def _side(quad: np.ndarray) -> float:
    return float(np.mean(np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)))


def _places(grey: np.ndarray, want: dict[int, np.ndarray]):
    """For each expected marker (``want``: id -> the (4, 2) corners where it should be), in the
    frame: (id, its side, its centre, the crop round it with a marker's side of slack each way,
    the crop's top-left corner). Places off the frame or too small to look at are skipped."""
    h, w = grey.shape
    for mid, quad in want.items():
        if not np.all(np.isfinite(quad)):
            continue
        side = _side(quad)
        centre = quad.mean(axis=0)
        if side < 4 or not (0 <= centre[0] < w and 0 <= centre[1] < h):
            continue
        reach = float(np.max(np.abs(quad - centre))) + max(side, 12.0)
        x0, y0 = max(int(centre[0] - reach), 0), max(int(centre[1] - reach), 0)
        x1, y1 = min(int(centre[0] + reach) + 1, w), min(int(centre[1] + reach) + 1, h)
        if x1 - x0 >= 8 and y1 - y0 >= 8:
            yield mid, side, centre, grey[y0:y1, x0:x1], (x0, y0)


def _look_again(grey: np.ndarray, want: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """Markers found by a closer look at each expected place (``_places``): the crop enlarged so
    the marker is about 64 px a side, contrast stretched (then CLAHE if that fails); only the
    expected id, its centre within a marker's side of the expected centre, is accepted."""
    out: dict[int, np.ndarray] = {}
    for mid, side, centre, crop, origin in _places(grey, want):
        scale = float(np.clip(64.0 / side, 1.0, 4.0))
        if scale > 1.0:
            crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        for look in (_stretch, _CLAHE.apply):
            hits = [c for i, c in _detect(look(crop), "crop", scale, origin) if i == mid]
            hits = [c for c in hits if np.linalg.norm(c.mean(axis=0) - centre) < side]
            if hits:
                out[mid] = min(hits, key=lambda c: np.linalg.norm(c.mean(axis=0) - centre))
                break
    return out


def _near(grey: np.ndarray, want: dict[int, np.ndarray], sightings: dict | None = None) -> dict[int, np.ndarray]:
    """The markers found by a plain look at each expected place (``_places``; ``want`` from the
    last fit): for a camera that has not moved, four small looks cost a fraction of one over
    the whole frame. Only the expected id within half a side of its place counts.

    ``sightings`` (id -> ``_Sighting``, kept by the caller from frame to frame): a marker whose
    pixels are as when it was last found in the same place keeps those corners without a look;
    each marker looked for is remembered there, or forgotten when missed."""
    out: dict[int, np.ndarray] = {}
    for mid, side, centre, crop, origin in _places(grey, want):
        seen = None if sightings is None else sightings.get(mid)
        if seen is not None and seen.still(crop, origin):
            out[mid] = seen.corners
            continue
        hits = [c for i, c in _detect(crop, "frame", 1.0, origin) if i == mid]
        hits = [c for c in hits if np.linalg.norm(c.mean(axis=0) - centre) < side / 2]
        if hits:
            out[mid] = hits[0]
        if sightings is not None:
            if hits:
                sightings[mid] = _Sighting.of(crop, origin, hits[0])
            else:
                sightings.pop(mid, None)
    return out


# A marker whose own pixels have not changed since the detector found it there is not looked for
# again (``MarkerLocator``): the detector costs about 2 ms a marker at 1920x1080, a seventh of a
# Brain Hanky frame's read, and would find the same corners. "Not changed": the crop and the
# sighting's crop, each smoothed over 5x5 pixels, differ nowhere on the marker (its square grown
# by a tenth) by more than 3% of the marker's contrast. On simulated 1920x1080 Brain Hanky frames
# (contrast about 240 grey levels) a shift of a tenth of a pixel changes the smoothed marker by up
# to 3% of that contrast, a fifth of a pixel by 5%, a still camera's fresh noise by about 1%: a
# nudge of more than a tenth of a pixel is looked at again (docs/learned-reader.md, "Speed").
_SMOOTH = (5, 5)
_UNCHANGED = 0.03


@dataclass(frozen=True)
class _Sighting:
    """One marker as the detector last found it: where its crop was cut, the crop smoothed, the
    marker's own pixels in it, how much change still counts as none, and its corners."""

    origin: tuple[int, int]
    smooth: np.ndarray
    inside: np.ndarray
    tolerance: float
    corners: np.ndarray

    @classmethod
    def of(cls, crop: np.ndarray, origin, corners: np.ndarray) -> "_Sighting":
        smooth = cv2.blur(crop.astype(np.float32), _SMOOTH)
        centre = corners.mean(axis=0)
        quad = centre + (corners - centre) * 1.1 - np.asarray(origin, np.float64)
        inside = np.zeros(crop.shape, np.uint8)
        cv2.fillConvexPoly(inside, np.round(quad).astype(np.int32), 1)
        inside = inside.astype(bool)
        lo, hi = np.percentile(smooth[inside], (5, 95)) if inside.any() else (0.0, 0.0)
        return cls(tuple(origin), smooth, inside, _UNCHANGED * float(hi - lo), corners)

    def still(self, crop: np.ndarray, origin) -> bool:
        """Whether ``crop``, cut at ``origin``, shows this marker as it was (see ``_UNCHANGED``)."""
        if tuple(origin) != self.origin or crop.shape != self.smooth.shape or self.tolerance <= 0:
            return False
        change = np.abs(cv2.blur(crop.astype(np.float32), _SMOOTH) - self.smooth)
        return float(change[self.inside].max()) <= self.tolerance


def _predict(H: np.ndarray, layout: dict) -> dict[int, np.ndarray]:
    """Where ``H`` puts each marker's corners (id -> (4, 2) pixels)."""
    return {i: cv2.perspectiveTransform(m.corners().astype(np.float64).reshape(-1, 1, 2), H).reshape(4, 2)
            for i, m in layout.items()}


# Frames this wide or tall, or more, are first looked at half size (``_half_look``).
HALF_LOOK_FROM = 1600


def _half_look(grey: np.ndarray, layout: dict) -> dict[int, np.ndarray] | None:
    """Every marker of the board found on the frame at half size, each then found again at full
    size in a crop round it (``_near``, so its corners are the full frame's, refined as ever); or
    None when any of the board's markers is missing, seen twice, or not confirmed, and the whole
    frame must be looked at. Why: OpenCV's detector costs about as much as the pixels it is given,
    and at 1920x1080 its look over the whole frame took half of a Brain Hanky frame's read (43 of
    87 ms on one core, docs/learned-reader.md, "Speed"); a quarter of the pixels finds the same
    markers when they are 20 px a side or more."""
    small = cv2.resize(grey, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    hits = _detect(small, "frame", 0.5)
    ours: dict[int, list[np.ndarray]] = {}
    for i, c in hits:
        if i in layout:
            ours.setdefault(i, []).append(c)
    if set(ours) != set(layout) or any(len(cs) > 1 for cs in ours.values()):
        return None
    sharp = _near(grey, {i: cs[0] for i, cs in ours.items()})
    if set(sharp) != set(layout):
        return None
    return {**{i: c for i, c in hits if i not in layout}, **sharp}


def detect_markers(image: np.ndarray, board=None, hint: np.ndarray | None = None) -> dict[int, np.ndarray]:
    """Every ArUco marker in ``image``: id -> (4, 2) corner pixels (OpenCV's corner order).

    With ``board``, its markers missed by the first look are looked for again where they should
    be: placed by the board's markers already found (two or more), else by ``hint`` (a board to
    image homography, e.g. the last good fit); with neither, the whole frame is looked at again
    enlarged (a small frame) or contrast-equalised, keeping only the board's ids.
    """
    grey = _grey(image)
    layout = {} if board is None else {m.id: m for m in mk.marker_layout(board)}
    if layout and max(grey.shape) >= HALF_LOOK_FROM:
        quick = _half_look(grey, layout)
        if quick is not None:
            return quick
    hits = _detect(grey, "frame")
    found = dict(hits)
    if board is None:
        return found
    found.update(_unique(hits, layout))
    if all(i in found for i in layout):
        return found
    ours = {i: found[i] for i in layout if i in found}
    if len(ours) < 2 and hint is None:  # no idea where to look: the whole frame again, harder
        scale = 2.0 if max(grey.shape) <= 1024 else 1.0
        big = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC) if scale > 1 else grey
        for i, c in _detect(_CLAHE.apply(big), "rescan", scale):
            if i in layout and i not in ours:
                ours[i] = found[i] = c
    guesses = []
    if len(ours) >= 2:
        ids = sorted(ours)
        H, _ = cv2.findHomography(np.concatenate([layout[i].corners().astype(np.float64) for i in ids]),
                                  np.concatenate([ours[i] for i in ids]), 0)
        if H is not None:
            guesses.append(H)
    if hint is not None:
        guesses.append(np.asarray(hint, np.float64))
    for H in guesses:
        missing = [i for i in layout if i not in found]
        if not missing:
            break
        predicted = _predict(H, {i: layout[i] for i in missing})
        found.update(_look_again(grey, predicted))
    return found


def _unique(hits: list[tuple[int, np.ndarray]], layout: dict) -> dict[int, np.ndarray]:
    """For each of the board's ids seen more than once, the sighting that sits where the board's
    other markers (seen once each, two or more) put it; the first one when they cannot say.

    A board's own drawing can pass for a marker: the blue cloth's light webs on their darker
    ground made a second "37" inside the board in one simulated frame of forty, and a dict of
    sightings kept whichever came last, so the fit was 250 px off and the frame was refused."""
    seen: dict[int, list[np.ndarray]] = {}
    for i, c in hits:
        if i in layout:
            seen.setdefault(i, []).append(c)
    twice = [i for i, cs in seen.items() if len(cs) > 1]
    if not twice:
        return {}
    once = sorted(i for i, cs in seen.items() if len(cs) == 1)
    out = {i: seen[i][0] for i in twice}
    if len(once) >= 2:
        H, _ = cv2.findHomography(np.concatenate([layout[i].corners().astype(np.float64) for i in once]),
                                  np.concatenate([seen[i][0] for i in once]), 0)
        if H is not None:
            where = _predict(H, {i: layout[i] for i in twice})
            for i in twice:
                out[i] = min(seen[i], key=lambda c: float(np.linalg.norm(c - where[i], axis=1).mean()))
    return out


_MARKER_PX = 48  # a straightened marker's side, pixels (``marker_likeness``)
# How far (in the marker's cells, a sixth of its side) ``marker_likeness`` looks round the place
# the fit gives. A marker the detector missed (small and blurred: 20-35 px a side at a slant, or
# beyond the lens's focus) is placed by the other markers, or by the last frame's fit while the
# camera has moved a little, up to about half a marker off: on the photoreal validation
# (docs/learned-reader.md, fourteenth session) five markers in plain view scored 0.10-0.48 within
# one cell and 0.67-0.80 within two, while no marker under an arm rose past 0.5 within two (one
# did within three).
LIKENESS_CELLS = 2


def marker_likeness(image: np.ndarray, H: np.ndarray, marker) -> float:
    """How much the picture where ``marker`` should be (through board -> image homography ``H``,
    straightened to a square) looks like the marker's own black-and-white pattern: the best
    normalised correlation over the four turns and shifts of up to ``LIKENESS_CELLS`` cells (the
    fit is off at a corner it did not see: lens distortion, a fit from the other markers)."""
    corners = np.asarray(marker.corners(), np.float64)
    src = cv2.perspectiveTransform(corners[None], H)[0].astype(np.float32)
    s, m = _MARKER_PX, LIKENESS_CELLS * (_MARKER_PX // 6)  # the search's margin all round
    dst = np.array([(m, m), (s + m, m), (s + m, s + m), (m, s + m)], np.float32)
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    seen = cv2.warpPerspective(grey, cv2.getPerspectiveTransform(src, dst), (s + 2 * m, s + 2 * m),
                               flags=cv2.INTER_AREA, borderValue=0).astype(np.float32)
    want = cv2.aruco.generateImageMarker(mk.dictionary(), marker.id, s).astype(np.float32)
    best = 0.0
    for k in range(4):  # whichever way round the print turned it
        score = cv2.matchTemplate(seen, np.ascontiguousarray(np.rot90(want, k)), cv2.TM_CCOEFF_NORMED)
        best = max(best, float(np.nanmax(score)))
    return best


def _fit(board_pts: np.ndarray, image_pts: np.ndarray) -> tuple[np.ndarray, float]:
    H, _mask = cv2.findHomography(board_pts, image_pts, 0)
    if H is None:
        raise RegistrationError("the markers' positions do not fit a flat board: is the print folded?")
    proj = cv2.perspectiveTransform(board_pts.reshape(-1, 1, 2), H).reshape(-1, 2)
    err = float(np.sqrt(np.mean(np.sum((proj - image_pts) ** 2, axis=1))))
    return H, err


def register_markers(image: np.ndarray, board, *, min_markers: int = 3,
                     max_error_px: float = 4.0, hint: np.ndarray | None = None) -> Registration:
    """Locate ``board`` from its printed markers; RegistrationError says what is wrong.

    Three markers are needed by default: two on the same side of the board fit their own corners
    well yet tilt the far side by many pixels, an error their own reprojection cannot show.
    ``hint``: a board to image homography (the last good fit) telling where to look again for
    markers the first look missed.
    """
    return _register(board, detect_markers(image, board, hint), min_markers, max_error_px)


def _register(board, found: dict[int, np.ndarray], min_markers: int, max_error_px: float) -> Registration:
    layout = {m.id: m for m in mk.marker_layout(board)}
    ours = {i: c for i, c in found.items() if i in layout}
    if not ours:
        others = sorted({mk.board_for_marker(i) for i in found if mk.board_for_marker(i)})
        if others:
            raise RegistrationError(f"the markers in view belong to a {', '.join(others)} board, "
                                    f"not {board.name}: check the game or the print")
        raise RegistrationError("no board markers found: make sure all four corner markers are in the "
                                "picture, lit, and not covered")
    if len(ours) < min_markers:
        missing = [f"#{i} ({_corner_name(i, layout)})" for i in layout if i not in ours]
        raise RegistrationError(f"only {len(ours)} of the 4 markers are visible; missing {', '.join(missing)}: "
                                f"move the camera or uncover them")
    board_pts = np.concatenate([layout[i].corners().astype(np.float64) for i in sorted(ours)])
    image_pts = np.concatenate([ours[i] for i in sorted(ours)])
    H, err = _fit(board_pts, image_pts)
    if err > max_error_px:
        raise RegistrationError(f"the markers do not agree on where the board is (error {err:.1f} px, "
                                f"limit {max_error_px:.1f}): flatten the board or check for a damaged marker")
    return Registration(H, err, tuple(sorted(ours)), "markers")


def _corner_name(marker_id: int, layout: dict) -> str:
    order = ("bottom left", "bottom right", "top right", "top left")
    return order[list(layout).index(marker_id)]


def register_corners(board, corners_px) -> Registration:
    """Locate ``board`` from the play area's four corners clicked or typed by the user.

    ``corners_px``: image pixels of the extent's bottom-left, bottom-right, top-right and top-left
    corners (as the board is seen from player 1's side), e.g. for a board without markers.
    """
    pts = np.asarray(corners_px, np.float64)
    if pts.shape != (4, 2) or not np.all(np.isfinite(pts)):
        raise RegistrationError("give exactly four corner points as (column, row) pixel pairs")
    x0, y0, x1, y1 = mk.board_extent(board)
    board_pts = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float64)
    area = cv2.contourArea(pts.astype(np.float32))
    if area < 100:
        raise RegistrationError("the four corners enclose almost no area: give them in order round the board")
    H, err = _fit(board_pts, pts)
    if not cv2.isContourConvex(pts.astype(np.float32).reshape(-1, 1, 2)):
        raise RegistrationError("the four corners cross over: give them in order bottom-left, bottom-right, "
                                "top-right, top-left")
    return Registration(H, err, (), "corners")


@dataclass
class TrackStatus:
    status: str  # "tracking" | "lost"
    registration: Registration | None
    message: str
    moved_px: float = 0.0  # how far the board moved since the last good fit (its centre, pixels)


@dataclass
class RegistrationTracker:
    """Follows the board frame by frame; never hands out a registration it could not confirm."""

    board: object
    min_markers: int = 3
    max_error_px: float = 4.0
    last: Registration | None = field(default=None, init=False)
    lost_frames: int = field(default=0, init=False)

    def update(self, image: np.ndarray) -> TrackStatus:
        try:
            reg = register_markers(image, self.board, min_markers=self.min_markers, max_error_px=self.max_error_px)
        except RegistrationError as exc:
            self.lost_frames += 1
            return TrackStatus("lost", None, str(exc))
        moved = 0.0
        if self.last is not None:
            x0, y0, x1, y1 = mk.board_extent(self.board)
            centre = ((x0 + x1) / 2, (y0 + y1) / 2)
            moved = float(np.hypot(*np.subtract(reg.to_image(centre), self.last.to_image(centre))))
        self.last = reg
        self.lost_frames = 0
        note = f"board located from markers {list(reg.markers_seen)} (error {reg.reprojection_error:.2f} px)"
        if moved > 3:
            note += f"; it moved {moved:.0f} px since the last frame (camera bumped?)"
        return TrackStatus("tracking", reg, note, moved)


@dataclass
class MarkerLocator:
    """Locates one board in a stream of frames from one camera, keeping the last good fit.

    A frame with ``min_markers`` or more agreeing markers is fitted afresh (method "markers").
    With fewer, the last good fit is reused (method "markers-held", its ``note`` says why) when

    * every marker the frame does show lies within ``hold_px`` (mean corner distance) of where the
      last fit puts it: the camera has not moved, the others are covered or missed; or
    * no marker is in view at all, but patches round the print (its paper corners, the markers'
      places, the board's corners) still match the last good frame, for at most
      ``max_blind_frames`` frames in a row.

    A marker seen away from its place means the camera moved: the frame is refused, and the last
    fit dropped, until enough markers are in view again. ``locate`` has the signature of
    ``vision.calibration.Locator.locate``, so a reader can use either.
    """

    board: object = None
    min_markers: int = 3
    max_error_px: float = 4.0
    hold_px: float = 4.0
    max_blind_frames: int = 30
    patch_agreement: float = 0.7  # normalised cross-correlation a patch needs to count as unchanged
    last: Registration | None = field(default=None, init=False)
    held_frames: int = field(default=0, init=False)  # frames in a row read through the held fit
    blind_frames: int = field(default=0, init=False)  # of those, frames with no marker in view
    _patches: list = field(default_factory=list, init=False, repr=False)
    _shape: tuple = field(default=(), init=False, repr=False)
    _sightings: dict = field(default_factory=dict, init=False, repr=False)  # id -> _Sighting

    def reset(self) -> None:
        self.last, self.held_frames, self.blind_frames, self._patches, self._shape = None, 0, 0, [], ()
        self._sightings = {}

    def start_from(self, board, H: np.ndarray, frame_size: tuple[int, int]) -> None:
        """Take ``H`` (board to image, frames of ``frame_size`` (width, height)) as the last good
        fit before any frame: the calibration picture's, from the same camera. It is held only
        as any last fit is (the markers in view where it puts them); with no marker in view it is
        not (no frame's patches to compare), and a frame of another size drops it."""
        self.board = board
        self.reset()
        w, h = frame_size
        self.last = Registration(np.asarray(H, np.float64), 0.0, (), "markers", "the calibration picture's fit")
        self._shape = (int(h), int(w))

    def locate(self, image: np.ndarray, board=None) -> Registration:
        board = board if board is not None else self.board
        if board is None:
            raise RegistrationError("no board given to locate")
        if board is not self.board:
            self.board = board
            self.reset()
        grey = _grey(image)
        if self.last is not None and grey.shape != self._shape:
            self.reset()  # another camera mode: nothing carries over
        hint = None if self.last is None else self.last.board_to_image
        layout = {m.id: m for m in mk.marker_layout(board)}
        if hint is not None:
            # The camera has most likely not moved: look where the markers were first. Three or
            # more found there make a fresh fit; anything less takes the full look below.
            near = _near(grey, _predict(hint, layout), self._sightings)
            if len(near) >= self.min_markers:
                try:
                    reg = _register(board, near, self.min_markers, self.max_error_px)
                except RegistrationError:
                    pass
                else:
                    self._keep(grey, reg, board)
                    return reg
        found = detect_markers(grey, board, hint)
        ours = {i: c for i, c in found.items() if i in layout}
        if len(ours) >= self.min_markers or self.last is None:
            reg = _register(board, found, self.min_markers, self.max_error_px)  # raises as before
            self._keep(grey, reg, board)
            return reg
        return self._hold(grey, ours, layout)

    def _keep(self, grey: np.ndarray, reg: Registration, board) -> None:
        self.last, self.held_frames, self.blind_frames = reg, 0, 0
        self._shape = grey.shape
        self._patches = _reference_patches(grey, reg.board_to_image, board)

    def _hold(self, grey: np.ndarray, ours: dict[int, np.ndarray], layout: dict) -> Registration:
        assert self.last is not None
        expected = _predict(self.last.board_to_image, layout)
        missing = [f"#{i} ({_corner_name(i, layout)})" for i in layout if i not in ours]
        moved = {i: float(np.mean(np.linalg.norm(c - expected[i], axis=1))) for i, c in ours.items()}
        away = {i: d for i, d in moved.items() if d > self.hold_px}
        if away:
            self.reset()
            raise RegistrationError(f"the camera has moved (markers in view are up to {max(away.values()):.0f} px "
                                    f"from where they were) and only {len(ours)} of the 4 markers are visible; "
                                    f"missing {', '.join(missing)}: uncover them so the board can be found again")
        if ours:
            err = float(np.sqrt(np.mean([np.sum((ours[i] - expected[i]) ** 2, axis=1).mean() for i in ours])))
            self.held_frames += 1
            self.blind_frames = 0
            note = (f"held the last good fit: markers {sorted(ours)} are where it puts them (within "
                    f"{max(moved.values()):.1f} px); missing {', '.join(missing)}")
            return Registration(self.last.board_to_image, err, tuple(sorted(ours)), "markers-held", note)
        if self.blind_frames >= self.max_blind_frames:
            raise RegistrationError(f"no board markers seen for {self.blind_frames + 1} frames: the last position "
                                    f"is no longer trusted; uncover the corner markers")
        # The markers must still be there, only unread (blur, glare), and the rest of the print
        # must not have moved: covered markers or a moved camera fail one or the other.
        (m_agree, m_total), (agree, total) = (_patches_agree(grey, [p for p in self._patches if p[0] == "marker"],
                                                             self.patch_agreement),
                                              _patches_agree(grey, self._patches, self.patch_agreement))
        if m_agree * 2 < m_total or m_agree == 0 or agree * 2 < total or agree < 3:
            raise RegistrationError(f"no board markers found, and the picture round them has changed since the "
                                    f"last good frame ({m_agree} of {m_total} marker places and {agree} of {total} "
                                    f"places in all match): make sure all four corner markers are in the picture, "
                                    f"lit, and not covered")
        self.held_frames += 1
        self.blind_frames += 1
        note = (f"held the last good fit with no marker in view ({self.blind_frames} of at most "
                f"{self.max_blind_frames} frames): {agree} of {total} places round the board match the last good frame")
        return Registration(self.last.board_to_image, float("nan"), (), "markers-held", note)


def _reference_patches(grey: np.ndarray, H: np.ndarray, board) -> list[tuple[str, tuple[int, int, int, int], np.ndarray]]:
    """Textured patches of a good frame that show whether the camera has moved since: round the
    print's paper corners, the board's corners and the markers. (kind "print" or "marker", box,
    float32 patch) each."""
    layout = mk.marker_layout(board)
    side = float(np.mean([_side(q) for q in _predict(H, {m.id: m for m in layout}).values()]))
    half = int(np.clip(0.8 * side, 6, 40))
    X0, Y0, X1, Y1 = mk.print_extent(board)
    x0, y0, x1, y1 = mk.board_extent(board)
    places = [(X0, Y0), (X1, Y0), (X1, Y1), (X0, Y1), (x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    places += [m.centre for m in layout]
    kinds = ["print"] * 8 + ["marker"] * len(layout)
    px = cv2.perspectiveTransform(np.array([places], np.float64), H)[0]
    h, w = grey.shape
    out = []
    for kind, (c, r) in zip(kinds, px):
        if not (np.isfinite(c) and np.isfinite(r)):
            continue
        c, r = int(round(c)), int(round(r))
        box = (c - half, r - half, c + half + 1, r + half + 1)
        if box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h:
            continue
        patch = grey[box[1]:box[3], box[0]:box[2]].astype(np.float32)
        if patch.std() >= 8:  # plain paper or table tells nothing about a move
            out.append((kind, box, patch))
    return out


def _patches_agree(grey: np.ndarray, patches, threshold: float) -> tuple[int, int]:
    """(how many of ``patches`` still match ``grey`` at their place, how many there are)."""
    agree = 0
    for _kind, (c0, r0, c1, r1), ref in patches:
        now = grey[r0:r1, c0:c1].astype(np.float32)
        a, b = now - now.mean(), ref - ref.mean()
        den = float(np.sqrt(np.sum(a * a) * np.sum(b * b)))
        if den > 0 and float(np.sum(a * b)) / den >= threshold:
            agree += 1
    return agree, len(patches)
