"""The camera simulator: reproducible frames whose ground truth matches what a detector finds."""

from functools import cache

import cv2
import numpy as np
import pytest

from engine.boards import board
from vision import markers
from vision.sim import (
    CameraSettings,
    Distortion,
    SimFrame,
    scene_from_image,
    simple_scene,
    simulate,
)

DARK = {"d1": 2, "a4": 2, "g7": 1}  # morris9 pieces: black at d1 and a4, white at g7


@cache
def scene(name="morris9"):
    return simple_scene(board(name), DARK if name == "morris9" else None)


def moderate(**kw):
    """No hand, little noise: the marker corners must come out where ``project`` says."""
    base = {"noise_sigma": (0.0, 1.5), "blur_px": (0.0, 0.6), "jpeg_quality": (80, 95), "k1": (-0.15, 0.05)}
    base.update(kw)
    return CameraSettings.mild(**base)


def marker_errors(frame: SimFrame, b) -> dict[int, float]:
    """Largest corner distance (px) per detected marker between the detector and ``project``."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    corners, ids, _ = cv2.aruco.ArucoDetector(markers.dictionary(), params).detectMarkers(frame.image)
    layout = {m.id: m for m in markers.marker_layout(b)}
    out = {}
    for c, i in zip(corners, [] if ids is None else ids.ravel()):
        assert int(i) in layout, f"detected marker {i} that board {b.name} does not have"
        out[int(i)] = float(np.abs(c.reshape(4, 2) - frame.project(layout[int(i)].corners())).max())
    return out


def test_same_seed_and_settings_give_the_same_frame():
    s = CameraSettings(hand=True)
    a, b = simulate(scene(), 7, s), simulate(scene(), 7, s)
    assert np.array_equal(a.image, b.image)
    assert np.array_equal(a.board_to_frame, b.board_to_frame)
    assert a.occluded_points == b.occluded_points and np.array_equal(a.hand_mask, b.hand_mask)


def test_different_seeds_give_different_frames():
    a, b = simulate(scene(), 1), simulate(scene(), 2)
    assert not np.allclose(a.board_to_frame, b.board_to_frame)
    assert np.abs(a.image.astype(int) - b.image.astype(int)).mean() > 5


@pytest.mark.parametrize("seed, settings", [
    (0, moderate()),
    (1, moderate()),
    (2, moderate(size=(640, 480))),
    (3, moderate(tilt_deg=35, rotation_deg=70)),
    (4, moderate(tilt_deg=40, rotation_deg=-135, k1=-0.15)),
    (5, moderate(tilt_deg=38, rotation_deg=20, k1=0.05, size=(640, 480))),
])
def test_projected_marker_corners_match_the_detector(seed, settings):
    frame = simulate(scene(), seed, settings)
    errors = marker_errors(frame, board("morris9"))
    assert sorted(errors) == sorted(markers.marker_ids(board("morris9"))), errors
    assert max(errors.values()) < 3.0, errors


def test_projected_points_land_on_their_pieces():
    b = board("morris9")
    for seed in (0, 3):
        frame = simulate(scene(), seed, moderate(tilt_deg=30))
        for name, owner in DARK.items():
            col, row = np.round(frame.project(b.coords[name])).astype(int)
            grey = frame.image[row, col].astype(int).mean()
            assert (grey < 110) if owner == 2 else (grey > 150), (seed, name, grey)


@pytest.mark.parametrize("size", [(640, 480), (1280, 720)])
def test_output_size(size):
    frame = simulate(scene(), 9, CameraSettings(size=size))
    assert frame.image.shape == (size[1], size[0], 3) and frame.image.dtype == np.uint8


def test_hand_covers_points_in_skin_colour():
    s = CameraSettings.mild(hand=True, brightness=1.0, gradient=0.0, shadows=0, cast=1.0)
    for seed in range(4):
        frame = simulate(scene(), seed, s)
        assert frame.hand_mask is not None and frame.hand_mask.shape == frame.image.shape[:2]
        assert frame.occluded_points, seed
        b = board("morris9")
        for name in frame.occluded_points:
            assert name in b.coords
        # Every occluded point has hand within a piece's radius; a point well clear of it is not listed.
        near = cv2.dilate(frame.hand_mask.astype(np.uint8), np.ones((61, 61), np.uint8)).astype(bool)
        for name in b.points:
            col, row = np.round(frame.project(b.coords[name])).astype(int)
            inside = 0 <= row < near.shape[0] and 0 <= col < near.shape[1] and near[row, col]
            if name in frame.occluded_points:
                assert inside, (seed, name)
        core = cv2.erode(frame.hand_mask.astype(np.uint8), np.ones((7, 7), np.uint8)).astype(bool)
        bgr = np.median(frame.image[core].astype(float), axis=0)
        skin = np.array(frame.params["hand"]["skin"])
        assert bgr[2] > bgr[1] > bgr[0], (seed, bgr)  # skin: red over green over blue
        assert np.all(bgr > 0.6 * skin) and np.all(bgr < 1.1 * skin), (seed, bgr, skin)


def test_without_hand_nothing_is_occluded_and_the_camera_is_the_same():
    with_hand = simulate(scene(), 5, CameraSettings(hand=True))
    without = simulate(scene(), 5, CameraSettings(hand=False))
    assert without.hand_mask is None and without.occluded_points == set()
    assert np.array_equal(with_hand.board_to_frame, without.board_to_frame)


@pytest.mark.parametrize("brightness, cast", [((1.2, 1.2), (1.15, 1.15)), ((0.5, 0.5), (0.85, 0.85)),
                                              ((0.3, 1.3), (0.8, 1.2))])
def test_extreme_lighting_stays_in_uint8(brightness, cast):
    s = CameraSettings.harsh(brightness=brightness, cast=cast, noise_sigma=6, gradient=0.5, shadow_depth=0.6)
    frame = simulate(scene(), 3, s)
    img = frame.image
    assert img.dtype == np.uint8 and img.shape == (720, 1280, 3)
    if brightness[0] >= 1.2:  # over-exposed paper saturates instead of wrapping round to black
        paper = frame.project(np.array(markers.print_extent(board("morris9"))[:2]) + 0.1)
        col, row = np.round(paper).astype(int)
        assert img[row, col].min() > 200


@pytest.mark.parametrize("name", ["morris9", "three", "brain-hanky-6"])
def test_boards(name):
    b = board(name)
    frame = simulate(scene(name), 21, moderate(tilt_deg=25))
    errors = marker_errors(frame, b)
    assert sorted(errors) == sorted(markers.marker_ids(b)), errors
    assert max(errors.values()) < 3.0
    hand = simulate(scene(name), 21, CameraSettings(hand=True))
    assert hand.occluded_points <= set(b.points) and hand.occluded_points


def test_scene_from_image_maps_the_extent_to_the_image_edges():
    img = np.zeros((100, 200, 3), np.uint8)
    s = scene_from_image(img, board("three"), (-1.0, -1.0, 7.0, 3.0))
    assert np.allclose(s.to_pixel((-1.0, 3.0)), (-0.5, -0.5))  # top-left corner of the image
    assert np.allclose(s.to_pixel((7.0, -1.0)), (199.5, 99.5))  # bottom-right corner


def test_simple_scene_draws_markers_where_the_layout_says():
    b = board("morris9")
    s = scene("morris9")
    corners, ids, _ = cv2.aruco.ArucoDetector(markers.dictionary()).detectMarkers(s.image)
    layout = {m.id: m for m in markers.marker_layout(b)}
    assert sorted(ids.ravel()) == sorted(layout)
    for c, i in zip(corners, ids.ravel()):
        want = np.array([s.to_pixel(tuple(p)) for p in layout[int(i)].corners()])
        assert np.abs(c.reshape(4, 2) - want).max() < 1.5


def test_distortion_round_trip():
    d = Distortion(-0.25, (640.0, 360.0), 900.0)
    pts = np.array([(0.0, 0.0), (1279.0, 719.0), (640.0, 360.0), (100.0, 600.0)])
    assert np.allclose(d.undistort(d.distort(pts)), pts, atol=1e-6)


def test_settings_out_of_range_are_refused():
    with pytest.raises(ValueError):
        CameraSettings(tilt_deg=(0, 45))
    with pytest.raises(ValueError):
        CameraSettings(k1=-0.4)
    assert CameraSettings(tilt_deg=30).tilt_deg == (30.0, 30.0)
