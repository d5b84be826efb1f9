"""Registration: where the board lies in a camera frame, as a homography from board coordinates.

Every later step (sampling each point, telling a hand from a piece) needs to know where each
board point appears in the image. The printed board carries four ArUco markers at known board
coordinates (``vision.markers``); OpenCV's detector finds their corners and ``findHomography``
fits the plane. A fit is accepted only if it reprojects the marker corners within a tolerance:
a misdetected marker, a folded print or a board lifted off the table shows up as a large error
and is refused rather than used.

Without markers (a store-bought board, the real bandanna) the user can give the play area's
four corners instead (``register_corners``).

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
    method: str  # "markers" or "corners"

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


def detect_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Every ArUco marker in ``image``: id -> (4, 2) corner pixels (OpenCV's corner order)."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX  # sub-pixel corners: a steadier fit
    detector = cv2.aruco.ArucoDetector(mk.dictionary(), params)
    corners, ids, _rejected = detector.detectMarkers(_grey(image))
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2).astype(np.float64) for i, c in zip(ids.ravel(), corners)}


def _fit(board_pts: np.ndarray, image_pts: np.ndarray) -> tuple[np.ndarray, float]:
    H, _mask = cv2.findHomography(board_pts, image_pts, 0)
    if H is None:
        raise RegistrationError("the markers' positions do not fit a flat board: is the print folded?")
    proj = cv2.perspectiveTransform(board_pts.reshape(-1, 1, 2), H).reshape(-1, 2)
    err = float(np.sqrt(np.mean(np.sum((proj - image_pts) ** 2, axis=1))))
    return H, err


def register_markers(image: np.ndarray, board, *, min_markers: int = 3,
                     max_error_px: float = 4.0) -> Registration:
    """Locate ``board`` from its printed markers; RegistrationError says what is wrong.

    Three markers are needed by default: two on the same side of the board fit their own corners
    well yet tilt the far side by many pixels, an error their own reprojection cannot show.
    """
    found = detect_markers(image)
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
