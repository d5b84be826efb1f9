"""The board's surface as the camera sees it: a smooth bend, learned once at calibration.

Every frame is placed by a homography (its markers, or its outline), which is exact only for a
flat board seen through a lens without distortion. A bandanna is neither flat nor stiff: the
photoreal Brain Hanky cloths (folds a few millimetres high, wrinkles, a 782 mm cloth at
1920x1080) put the homography's spots a median 0.2-2.0 px and up to 4.3 px from where the webs
really cross, while a ring's band is 2-3 px wide there; the ring's samples fall off the band and
it reads as empty, gems beside a fold misread. Lens distortion (k1 down to -0.12) adds to it.

What the homography misses is smooth over the board, so it is measured where the board shows
it and interpolated in between. On the empty calibration picture every board point is looked
for near where the homography puts it, by matching the rendering's drawing round it (the
outline registration's point finder, ``vision.outline.find_points``); its offset from where the
homography puts it, taken back into board units, is what the surface adds there. A thin-plate
spline through those offsets (a little smoothed, so one point matched a pixel off does not
ripple its neighbours; then fitted again without the points it could not follow) gives the
bend anywhere: at every spot's samples, at the tops of the pieces, at the probes.

The bend is kept in board units, not pixels, so it rides on each frame's own homography: a
camera nudged between frames, followed by its markers, still finds the fold where the cloth has
it. Part of what is measured is the lens's own distortion, though, which belongs to the
picture, not the cloth: seen from elsewhere it bends the board differently. So the bend keeps
the view it was measured from (``view``) and holds only for frames that see the board nearly
so (``holds_for``: its corners within ``MOVED`` of the board's size of where they were); a
camera moved further is read through its homography alone, as without a bend. A board moved or
re-folded after calibration is not followed either; calibrate again.

Measured on the photoreal sets' empty calibration pictures (docs/photoreal.md; Blender's spot
positions, whose common 3 mm lift above the surface is taken out): on the 18 blue Brain Hanky
cloths (1920x1080) the spots lay a median 0.2-2.0 px and at most 0.8-4.3 px from the truth through
the homography, and a median 0.2-0.6 px, at most 0.6-3.0 px, bent; on the 28 printed HTJB boards
with 17 points or more (1280x720, one 1920x1080; paper bowed, lens distortion), a median 0.3-2.4 and at most
1.0-3.4 px, against 0.2-1.0 and 0.4-1.6 px bent. A board with fewer points than ``MIN_POINTS``
(tapatan's nine) is read through its homography alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SMOOTHING = 1.0  # thin-plate spline regularisation, board units squared (0.1 and 10 read no better)
MIN_FOUND = 0.5  # share of the board's points that must be found to measure the surface at all
MIN_POINTS = 12  # and never fewer than this many (a spline through fewer follows noise)
STRAY = 3.0  # a point the spline misses by this many times the median misfit is left out (worst first)
STRAY_FLOOR = 0.01  # board units: a misfit below this is never called stray
MOVED = 0.05  # share of the board's size its corners may move in the picture for the bend to hold


def _kernel(d2: np.ndarray) -> np.ndarray:
    """The thin-plate kernel r^2 log r, written in r^2 (zero at r = 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(d2 > 0, 0.5 * d2 * np.log(np.where(d2 > 0, d2, 1.0)), 0.0)


@dataclass(frozen=True)
class Bend:
    """Board offsets (units) from where a homography puts each place to where the surface has it,
    interpolated by a thin-plate spline through ``points`` (K, 2) with ``offsets`` (K, 2)."""

    points: np.ndarray
    offsets: np.ndarray
    smoothing: float = SMOOTHING
    view: np.ndarray | None = None  # 3x3 board -> picture homography it was measured through

    def __post_init__(self) -> None:
        n = len(self.points)
        K = _kernel(((self.points[:, None] - self.points[None]) ** 2).sum(-1)) + self.smoothing * np.eye(n)
        P = np.hstack([np.ones((n, 1)), self.points])
        A = np.zeros((n + 3, n + 3))
        A[:n, :n], A[:n, n:], A[n:, :n] = K, P, P.T
        b = np.zeros((n + 3, 2))
        b[:n] = self.offsets
        try:
            weights = np.linalg.solve(A, b)
        except np.linalg.LinAlgError:  # points all on one line: no plane through them
            weights = np.linalg.lstsq(A, b, rcond=None)[0]
        object.__setattr__(self, "_weights", weights)

    def __call__(self, xy: np.ndarray) -> np.ndarray:
        """(..., 2) board places -> (..., 2) board offsets the surface adds there."""
        q = np.asarray(xy, np.float64).reshape(-1, 2)
        w = self._weights
        n = len(self.points)
        out = np.empty_like(q)
        for i in range(0, len(q), 2048):  # a block at a time: (block, K) distances stay small
            qq = q[i:i + 2048]
            out[i:i + 2048] = (_kernel(((qq[:, None] - self.points[None]) ** 2).sum(-1)) @ w[:n]
                               + w[n] + qq @ w[n + 1:])
        return out.reshape(np.shape(xy))

    def largest_px(self, H: np.ndarray) -> float:
        """How far (frame pixels under ``H``) the bend moves the place it moves most."""
        a = cv2.perspectiveTransform(self.points[None], H)[0]
        b = cv2.perspectiveTransform((self.points + self(self.points))[None], H)[0]
        return float(np.max(np.hypot(*(b - a).T))) if len(a) else 0.0

    def holds_for(self, H: np.ndarray, corners: np.ndarray) -> bool:
        """Does a frame placed by ``H`` see the board as the bend was measured? ``corners``: the
        board's extent (4, 2). Always, for a bend that does not say where it was measured from."""
        if self.view is None:
            return True
        then = cv2.perspectiveTransform(corners[None].astype(np.float64), self.view)[0]
        now = cv2.perspectiveTransform(corners[None].astype(np.float64), H)[0]
        size = float(np.hypot(*(then[2] - then[0])))
        return bool(np.mean(np.hypot(*(now - then).T)) <= MOVED * size)

    def to_json(self) -> dict:
        return {"points": np.round(self.points, 5).tolist(), "offsets": np.round(self.offsets, 5).tolist(),
                "smoothing": self.smoothing, "view": None if self.view is None else np.asarray(self.view).tolist()}

    @classmethod
    def from_json(cls, data) -> Bend:
        """Raises ValueError for anything that is not a bend this module wrote."""
        if not isinstance(data, dict):
            raise ValueError("the board's surface bend is not a mapping")
        pts = np.asarray(data.get("points"), np.float64)
        off = np.asarray(data.get("offsets"), np.float64)
        smoothing = float(data.get("smoothing", SMOOTHING))
        view = None if data.get("view") is None else np.asarray(data["view"], np.float64)
        if view is not None and (view.shape != (3, 3) or not np.all(np.isfinite(view))):
            raise ValueError("the board's surface bend's view is malformed")
        if (pts.ndim != 2 or pts.shape[1:] != (2,) or off.shape != pts.shape or len(pts) < MIN_POINTS
                or not np.all(np.isfinite(pts)) or not np.all(np.isfinite(off)) or not smoothing > 0):
            raise ValueError("the board's surface bend is malformed")
        return cls(pts, off, smoothing, view)


def fit(board_xy: np.ndarray, offsets: np.ndarray, smoothing: float = SMOOTHING, view=None) -> Bend:
    """A ``Bend`` through measured ``offsets`` at ``board_xy``, without the strays: the point the
    spline follows worst is left out while it misses by ``STRAY`` times the median misfit (a
    stray pulls its neighbours a little too, so only the worst goes each time), up to a tenth."""
    keep = np.ones(len(board_xy), bool)
    bend = Bend(board_xy, offsets, smoothing, view)
    for _ in range(len(board_xy) // 10):
        misfit = np.hypot(*(bend(board_xy[keep]) - offsets[keep]).T)
        worst = int(np.argmax(misfit))
        if misfit[worst] <= max(STRAY * float(np.median(misfit)), STRAY_FLOOR) or keep.sum() <= MIN_POINTS:
            break
        keep[np.flatnonzero(keep)[worst]] = False
        bend = Bend(board_xy[keep], offsets[keep], smoothing, view)
    return bend


def measure(image: np.ndarray, board, H: np.ndarray) -> Bend | None:
    """The bend of ``board`` in ``image`` (an empty board) beyond homography ``H``; None when too
    few of its points can be found to say (then the homography is all there is)."""
    from .outline import find_points

    board_xy, pixels = find_points(image, board, H)
    if len(board_xy) < max(MIN_POINTS, MIN_FOUND * len(board.points)):
        return None
    back = cv2.perspectiveTransform(pixels[None].astype(np.float64), np.linalg.inv(H))[0]
    return fit(board_xy, back - board_xy, view=np.asarray(H, np.float64))
