"""The camera simulator: reproducible frames whose ground truth matches what a detector finds."""

import math
from dataclasses import replace
from functools import cache

import cv2
import numpy as np
import pytest

from engine.boards import board
from vision import markers
from vision.sim import (
    CameraSettings,
    Distortion,
    Scene,
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


def test_a_grain_seed_changes_the_sensor_noise_alone():
    """A still camera's next frame: the same camera, lamp and noise level, another noise pattern."""
    s = CameraSettings()
    a, b, c = simulate(scene(), 7, s), simulate(scene(), 7, s, grain_seed=8), simulate(scene(), 7, s, grain_seed=8)
    assert np.array_equal(b.image, c.image) and not np.array_equal(a.image, b.image)
    assert np.array_equal(a.board_to_frame, b.board_to_frame) and a.params == b.params
    assert np.abs(a.image.astype(int) - b.image.astype(int)).mean() < 4
    assert np.array_equal(simulate(scene(), 7, s, grain_seed=None).image, a.image)


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
        # Matt pieces: a glossy man's highlight may lie right over its point (see the gloss tests).
        frame = simulate(scene(), seed, moderate(tilt_deg=30, gloss=0))
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


# ---------------------------------------------------------------------------- solid pieces
# A still camera for the piece tests: no noise, blur, light gradient or shadow blobs.
STILL = {"noise_sigma": 0, "blur_px": 0, "jpeg_quality": 95, "gradient": 0, "shadows": 0, "cast": 1.0,
         "brightness": 1.0, "k1": 0, "tilt_deg": 5, "fill": 0.8}
FLAT = {"gloss": 0, "piece_shadows": False, "shading": False, "parallax": False}


def still(**kw):
    return CameraSettings(**{**STILL, **kw})


@cache
def lone(name, spot, piece):
    """A scene with one piece on it."""
    return simple_scene(board(name), {spot: piece})


def disc_samples(frame, xy, radius, n=15):
    """Frame pixels (N, 3) of the board disc of ``radius`` round board point ``xy``."""
    g = np.linspace(-radius, radius, n)
    pts = np.array([(xy[0] + dx, xy[1] + dy) for dx in g for dy in g if dx * dx + dy * dy <= radius * radius])
    cr = np.round(frame.project(pts)).astype(int)
    return frame.image[cr[:, 1], cr[:, 0]].astype(float)


def test_settings_default_to_solid_pieces_and_switch_off_one_by_one():
    s = CameraSettings()
    assert (s.piece_shadows, s.shading, s.parallax, s.outlines) == (True, True, True, False)
    assert s.gloss[1] > 0
    assert CameraSettings(gloss=0).gloss == (0.0, 0.0)
    with pytest.raises(ValueError):
        CameraSettings(gloss=1.5)


def test_no_piece_setting_moves_the_camera_or_the_light():
    base = simulate(scene(), 4, CameraSettings())
    for kw in ({"gloss": 0}, {"piece_shadows": False}, {"shading": False}, {"parallax": False},
               {"outlines": True}):
        other = simulate(scene(), 4, CameraSettings(**kw))
        assert np.array_equal(base.board_to_frame, other.board_to_frame), kw
        assert base.params["brightness"] == other.params["brightness"], kw
        assert not np.array_equal(base.image, other.image), kw  # and each one shows


def test_outlines_photograph_the_flat_print_as_before():
    """``outlines=True``: the pieces exactly as ``vision.render`` draws them (the old frames)."""
    for name, position in (("morris9", DARK), ("brain-hanky-6", {"Oc3.n": 1, "Oc3": 2})):
        sc = simple_scene(board(name), position)
        flat_only = Scene(sc.image, sc.to_pixel, sc.board)  # a scene that knows no pieces
        s = CameraSettings(outlines=True, hand=True)
        assert np.array_equal(simulate(sc, 6, s).image, simulate(flat_only, 6, s).image)
        assert not np.array_equal(simulate(sc, 6, replace(s, outlines=False)).image, simulate(sc, 6, s).image)


def test_solid_pieces_are_bit_reproducible():
    g = {"Oc3.n": 1, "Od3.e": 2, "Bc2.w": 3, "Oc3": 1, "Ob2": 2}
    for name, position in (("morris9", DARK), ("brain-hanky-6", g)):
        s = CameraSettings(hand=True)
        a = simulate(simple_scene(board(name), position), 11, s)
        b = simulate(simple_scene(board(name), position), 11, s)
        assert np.array_equal(a.image, b.image) and a.params == b.params


def test_a_glossy_black_man_shows_a_highlight_on_its_top():
    b = board("morris9")
    sc = lone("morris9", "d2", 2)
    offsets = []
    for seed in (1, 2, 3):
        glossy = simulate(sc, seed, still(gloss=1, parallax=False, piece_shadows=False))
        matt = simulate(sc, seed, replace(glossy.settings, gloss=0))
        top = disc_samples(glossy, b.coords["d2"], 0.25).mean(axis=1)
        flat = disc_samples(matt, b.coords["d2"], 0.25).mean(axis=1)
        # Some of the top much brighter than the rest; the matt man is dark all over.
        assert np.percentile(top, 97) > np.median(top) + 80, (seed, np.percentile(top, 97), np.median(top))
        assert np.percentile(flat, 97) < 90, (seed, np.percentile(flat, 97))
        bright = top > np.median(top) + 0.5 * (top.max() - np.median(top))
        assert 0.02 < bright.mean() < 0.45, (seed, bright.mean())  # a patch, not the whole face
        # Where it lies: the brightest samples' mean offset from the point, in board units.
        g = np.linspace(-0.25, 0.25, 15)
        pts = np.array([(dx, dy) for dx in g for dy in g if dx * dx + dy * dy <= 0.25 ** 2])
        offsets.append(pts[bright].mean(axis=0))
    # Each seed puts the lamp elsewhere, so the highlight moves.
    assert max(np.linalg.norm(a - c) for a in offsets for c in offsets) > 0.05, offsets


def test_a_man_casts_a_shadow_away_from_the_lamp():
    b = board("morris9")
    sc = lone("morris9", "d2", 1)
    for seed in (1, 5):
        s = still(lamp_elevation_deg=40, parallax=False, gloss=0)
        lit = simulate(sc, seed, s)
        unshadowed = simulate(sc, seed, replace(s, piece_shadows=False))
        lx, ly, _ = lit.params["lamp"]["board"]
        d = np.array([lx, ly]) / math.hypot(lx, ly)
        x, y = b.coords["d2"]
        away, towards = (x - 0.46 * d[0], y - 0.46 * d[1]), (x + 0.46 * d[0], y + 0.46 * d[1])
        ratio = lambda xy: (disc_samples(lit, xy, 0.04, 5).mean() / disc_samples(unshadowed, xy, 0.04, 5).mean())
        assert ratio(away) < 0.85, (seed, ratio(away))
        assert ratio(towards) > 0.97, (seed, ratio(towards))


def test_a_white_ring_on_the_cloth_has_no_dark_outline():
    """On the lamp's side, from the band out onto the cloth, nothing is much darker than the
    cloth (or web) there without the ring: the old drawing had a near-black line round the ring;
    the new one has shading, a soft contact shadow, and its cast shadow on the far side."""
    b = board("brain-hanky-6")
    sc = lone("brain-hanky-6", "Oc3.n", 1)
    empty_scene = simple_scene(b, {})
    x, y = b.coords["Oc3.n"]
    r = 0.135
    for seed in (2, 7):
        s = still(lamp_elevation_deg=45)
        lx, ly, _ = simulate(sc, seed, s).params["lamp"]["board"]
        a0 = math.atan2(ly, lx)
        empty = simulate(empty_scene, seed, s)
        for outlines in (False, True):
            f = simulate(sc, seed, replace(s, outlines=outlines))
            lows = []
            for a in a0 + np.radians(np.linspace(-40, 40, 9)):
                pts = [(x + t * r * math.cos(a), y + t * r * math.sin(a)) for t in np.linspace(0.85, 1.5, 14)]
                cr = np.round(f.project(np.array(pts))).astype(int)
                # The brightest channel, so an orange or blue web line counts as bright as the cloth.
                here = f.image[cr[:, 1], cr[:, 0]].max(axis=1).astype(float)
                there = empty.image[cr[:, 1], cr[:, 0]].max(axis=1).astype(float)
                lows.append(float((here / there).min()))
            if outlines:
                assert min(lows) < 0.5, (seed, lows)
            else:
                assert min(lows) > 0.6, (seed, lows)


def test_a_ring_shows_the_board_through_its_hole():
    b = board("brain-hanky-6")
    empty = simulate(simple_scene(b, {}), 3, still(tilt_deg=20, lamp_elevation_deg=65))
    ring = simulate(lone("brain-hanky-6", "Oc3.n", 1), 3, still(tilt_deg=20, lamp_elevation_deg=65))
    band = simulate(lone("brain-hanky-6", "Oc3.n", 1), 3, still(tilt_deg=20, outlines=True))
    x, y = b.coords["Oc3.n"]
    hole = np.abs(disc_samples(ring, (x, y), 0.02, 3) - disc_samples(empty, (x, y), 0.02, 3)).mean()
    assert hole < 25, hole  # the point and cloth under it, a little shaded
    assert np.abs(disc_samples(ring, (x + 0.1, y), 0.015, 3) - disc_samples(empty, (x + 0.1, y), 0.015, 3)).mean() > 25
    assert band.image.shape == ring.image.shape


def test_parallax_moves_a_mans_top_further_the_more_the_camera_tilts():
    b = board("morris9")
    sc = lone("morris9", "b4", 2)
    xy = b.coords["b4"]

    def centroid(frame):
        c, r = np.round(frame.project(xy)).astype(int)
        win = frame.image[r - 60:r + 61, c - 60:c + 61].astype(float).mean(axis=2)
        rows, cols = np.nonzero(win < 90)
        return np.array([cols.mean() + c - 60, rows.mean() + r - 60])

    shifts = {}
    for tilt in (0, 20, 38):
        s = still(tilt_deg=tilt, rotation_deg=30, **{**FLAT, "parallax": True})
        on, off = simulate(sc, 4, s), simulate(sc, 4, replace(s, parallax=False))
        shift = centroid(on) - centroid(off)
        shifts[tilt] = float(np.linalg.norm(shift))
        if tilt == 38:  # away from where vertical lines meet (the image of the point under the camera)
            Hs = on.board_to_frame @ np.linalg.inv(sc.board_to_scene())
            v = Hs @ np.array([*on.params["nadir_px"], 1.0])
            out = centroid(off) - v[:2] / v[2]
            assert shift @ out > 0.9 * np.linalg.norm(shift) * np.linalg.norm(out), (shift, out)
    assert shifts[0] < shifts[20] < shifts[38], shifts
    assert shifts[38] > 2.0, shifts


def test_the_frame_does_not_depend_on_the_order_of_the_position():
    """Each piece takes its own random draws (gloss, highlight); they are dealt in the order of the
    spots' names, so a position given in another order (rebuilt from a set, whose order changes
    with Python's string hashing from one process to the next) makes the very same frame. It did
    not once, and a scenario test failed in one run in three."""
    import engine
    from engine.core import Piece

    g = engine.load("kunjing", players=4)
    pos = {"d2": Piece(1, "man"), "d6": Piece(2, "man"), "b4": Piece(3, "man"), "f4": Piece(4, "man")}
    frames = [simulate(simple_scene(g.board, dict(items)), 1, CameraSettings.mild(size=(480, 360))).image
              for items in (list(pos.items()), list(reversed(pos.items())))]
    assert np.array_equal(frames[0], frames[1])
