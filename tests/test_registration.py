"""Registration from markers and from given corners, against frames with a known homography."""

import cv2
import numpy as np
import pytest

from engine.boards import board
from vision import markers as mk
from vision.registration import (RegistrationError, RegistrationTracker, register_corners,
                                 register_markers)

PX = 60  # pixels per board unit in the flat scene


def flat_scene(b, hide=()):
    """White paper with the board's markers drawn upright; returns (image, board->scene homography)."""
    x0, y0, x1, y1 = mk.print_extent(b)
    w, h = int((x1 - x0) * PX), int((y1 - y0) * PX)
    img = np.full((h, w, 3), 255, np.uint8)
    to_px = np.array([[PX, 0, -x0 * PX], [0, -PX, y1 * PX], [0, 0, 1]], np.float64)
    for m in mk.marker_layout(b):
        if m.id in hide:
            continue
        side = int(round(m.size * PX))
        tile = cv2.aruco.generateImageMarker(mk.dictionary(), m.id, side)
        c, r = (to_px @ np.array([*m.corners()[0], 1.0]))[:2]
        c, r = int(round(c)), int(round(r))
        img[r:r + side, c:c + side] = tile[:, :, None]
    for p in b.points:  # a dot per point, for looking at the frames
        c, r = (to_px @ np.array([*b.coords[p], 1.0]))[:2]
        cv2.circle(img, (int(c), int(r)), 4, (60, 60, 60), -1)
    return img, to_px


def camera(img, to_px, tilt_seed, size=(1280, 720)):
    """Warp the flat scene into a frame with a random perspective; returns frame and board->frame H."""
    rng = np.random.default_rng(tilt_seed)
    h, w = img.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    W, Hh = size
    margin = 0.12
    dst = np.float32([[W * margin, Hh * margin], [W * (1 - margin), Hh * margin],
                      [W * (1 - margin), Hh * (1 - margin)], [W * margin, Hh * (1 - margin)]])
    dst += rng.uniform(-0.08, 0.08, dst.shape).astype(np.float32) * np.float32([W, Hh])
    M = cv2.getPerspectiveTransform(src, dst)
    frame = cv2.warpPerspective(img, M, size, borderValue=(90, 110, 120))
    return frame, M @ to_px


def max_point_error(reg, b, truth):
    worst = 0.0
    for p in b.points:
        want = cv2.perspectiveTransform(np.array([[b.coords[p]]], np.float64), truth)[0, 0]
        worst = max(worst, float(np.hypot(*(np.array(reg.to_image(b.coords[p])) - want))))
    return worst


@pytest.mark.parametrize("name", ["morris9", "three", "saba", "brain-hanky-6", "brain-hanky-6-periodic"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_markers_register_every_point_within_a_pixel(name, seed):
    b = board(name)
    img, to_px = flat_scene(b)
    frame, truth = camera(img, to_px, seed)
    reg = register_markers(frame, b)
    assert reg.method == "markers" and len(reg.markers_seen) == 4
    assert reg.reprojection_error < 1.0
    assert max_point_error(reg, b, truth) < 2.0  # points are ~100 px apart here


def test_three_markers_are_enough_and_fewer_is_a_clear_error():
    b = board("morris9")
    ids = mk.marker_ids(b)
    img, to_px = flat_scene(b, hide=ids[:1])
    frame, truth = camera(img, to_px, 4)
    reg = register_markers(frame, b)
    assert reg.markers_seen == tuple(ids[1:]) and max_point_error(reg, b, truth) < 2.0
    # two markers on one side fit themselves but not the far side: refused by default
    img, to_px = flat_scene(b, hide=ids[:2])
    frame, _ = camera(img, to_px, 4)
    with pytest.raises(RegistrationError, match=r"only 2 of the 4 markers.*missing #0 \(bottom left\), #1 \(bottom right\)"):
        register_markers(frame, b)


def test_no_markers_and_wrong_board_are_named():
    b = board("morris9")
    blank = np.full((480, 640, 3), 255, np.uint8)
    with pytest.raises(RegistrationError, match="no board markers found"):
        register_markers(blank, b)
    img, to_px = flat_scene(board("three"))
    frame, _ = camera(img, to_px, 5)
    with pytest.raises(RegistrationError, match="belong to a three board, not morris9"):
        register_markers(frame, b)


def test_unreadable_frame_is_a_clear_error():
    with pytest.raises(RegistrationError, match="empty or unreadable"):
        register_markers(np.zeros((0, 0, 3), np.uint8), board("morris9"))
    with pytest.raises(RegistrationError, match="empty or unreadable"):
        register_markers(None, board("morris9"))


def test_a_marker_that_disagrees_is_refused():
    """A marker moved off its printed place (a damaged or re-stuck sticker) breaks the fit."""
    b = board("morris9")
    img, to_px = flat_scene(b)
    m = mk.marker_layout(b)[2]
    side = int(round(m.size * PX))
    c, r = (to_px @ np.array([*m.corners()[0], 1.0]))[:2]
    c, r = int(round(c)), int(round(r))
    tile = img[r:r + side, c:c + side].copy()
    img[r:r + side, c:c + side] = 255
    img[r + 40:r + 40 + side, c - 40:c - 40 + side] = tile  # the sticker slipped
    frame, _ = camera(img, to_px, 6)
    with pytest.raises(RegistrationError, match="do not agree"):
        register_markers(frame, b)


def test_corners_given_by_the_user():
    b = board("morris9")
    img, to_px = flat_scene(b)
    frame, truth = camera(img, to_px, 7)
    x0, y0, x1, y1 = mk.board_extent(b)
    corners = cv2.perspectiveTransform(np.array([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], np.float64), truth)[0]
    reg = register_corners(b, corners)
    assert reg.method == "corners" and max_point_error(reg, b, truth) < 1e-3
    with pytest.raises(RegistrationError, match="exactly four"):
        register_corners(b, corners[:3])
    with pytest.raises(RegistrationError, match="cross over"):
        register_corners(b, corners[[0, 2, 1, 3]])


def test_tracker_follows_a_bumped_camera_and_reports_a_loss():
    b = board("morris9")
    img, to_px = flat_scene(b)
    tracker = RegistrationTracker(b)
    frame1, truth1 = camera(img, to_px, 8)
    frame2, truth2 = camera(img, to_px, 9)  # the camera was knocked
    s1 = tracker.update(frame1)
    s2 = tracker.update(frame2)
    assert s1.status == s2.status == "tracking"
    assert max_point_error(s2.registration, b, truth2) < 1.5 and s2.moved_px > 3
    assert "moved" in s2.message
    hidden = frame2.copy()
    hidden[:] = 255
    s3 = tracker.update(hidden)
    assert s3.status == "lost" and s3.registration is None and "no board markers" in s3.message
