"""The board's surface beyond the homography (vision.surface): measured on the empty picture,
followed at every spot, kept in the calibration file.

The simulator's lens distortion (``CameraSettings.k1``) bends every board the way a fold bends
a cloth: smoothly, by more than a ring's band is wide at the worst places. The truth is
``SimFrame.project``. (The simulator draws each point half a scene pixel off its own truth,
about 0.4 frame pixels; a bend cannot and need not follow that, so it is in every figure here.)
"""

from __future__ import annotations

import dataclasses
import json
from functools import cache

import cv2
import numpy as np
import pytest

import engine
from engine.boards import board
from vision import registration as rg, surface
from vision.calibration import calibrate, calibration_layout, load_calibration
from vision.reader import BoardReader
from vision.sim import CameraSettings, simple_scene, simulate

GRID = np.array([(x, y) for x in np.linspace(0, 6, 9) for y in np.linspace(0, 6, 9)], np.float64)


def smooth_field(xy: np.ndarray) -> np.ndarray:
    """A fold-like field: a ridge across the board and a gentle sag, a few hundredths of a unit."""
    x, y = xy[..., 0], xy[..., 1]
    return np.stack([0.02 * np.exp(-((x - 2.5) ** 2) / 1.5), 0.015 * np.sin(y / 2.0) - 0.01 * (x / 6) ** 2], -1)


def test_a_smooth_bend_is_followed_between_the_points_measured():
    bend = surface.fit(GRID, smooth_field(GRID))
    between = np.random.default_rng(1).uniform(0.3, 5.7, (200, 2))
    err = np.linalg.norm(bend(between) - smooth_field(between), axis=1)
    assert err.max() < 0.004, err.max()  # a tenth of the field's size, or better
    assert bend(between[0]).shape == (2,) and bend(between.reshape(20, 10, 2)).shape == (20, 10, 2)


def test_a_flat_board_is_not_bent():
    bend = surface.fit(GRID, np.zeros_like(GRID))
    assert np.abs(bend(GRID + 0.37)).max() < 1e-9


def test_a_point_matched_to_the_wrong_thing_is_left_out():
    offsets = smooth_field(GRID)
    stray = 40
    offsets[stray] += (0.12, -0.08)  # a junction next to it, a stain
    bend = surface.fit(GRID, offsets)
    assert len(bend.points) == len(GRID) - 1
    assert np.linalg.norm(bend(GRID[stray]) - smooth_field(GRID[stray])) < 0.005


def test_a_bend_round_trips_through_its_file_form_and_a_damaged_one_is_refused():
    bend = surface.fit(GRID, smooth_field(GRID))
    again = surface.Bend.from_json(json.loads(json.dumps(bend.to_json())))
    probe = np.random.default_rng(2).uniform(0, 6, (50, 2))
    assert np.abs(again(probe) - bend(probe)).max() < 1e-4
    good = bend.to_json()
    for bad in ("nonsense", {**good, "offsets": good["offsets"][:-1]}, {**good, "points": [[0, 0]] * 3},
                {**good, "points": [[float("nan"), 0]] + good["points"][1:]}, {**good, "smoothing": -1}):
        with pytest.raises(ValueError):
            surface.Bend.from_json(bad)


@cache
def distorted(name: str, k1: float, seed: int = 3):
    settings = CameraSettings(k1=(k1, k1), size=(1280, 720))
    if name.startswith("brain-hanky"):  # the flat look, as in test_reader (FLAT_HANKY)
        settings = dataclasses.replace(settings, outlines=True)
    return simulate(simple_scene(board(name), None), seed, settings)


def _errors(b, frame, H, bend=None) -> np.ndarray:
    xy = np.array([b.coords[p] for p in b.points], np.float64)
    at = xy if bend is None else xy + bend(xy)
    return np.linalg.norm(cv2.perspectiveTransform(at[None], H)[0] - frame.project(xy), axis=1)


@pytest.mark.parametrize("name", ["morris9", "brain-hanky-6"])
def test_lens_distortion_is_measured_and_followed(name):
    b = board(name)
    f = distorted(name, -0.25)
    H = rg.register_markers(f.image, b).board_to_image
    bend = surface.measure(f.image, b, H)
    assert bend is not None and len(bend.points) >= 0.9 * len(b.points)
    flat, bent = _errors(b, f, H), _errors(b, f, H, bend)
    assert flat.max() > 1.4, flat.max()  # the distortion is there to follow
    assert bent.max() < 0.65 and bent.max() < 0.45 * flat.max(), (flat.max(), bent.max())
    assert bend.largest_px(H) > 0.8


def test_a_board_too_covered_to_measure_gives_no_bend():
    b = board("morris9")
    f = distorted("morris9", -0.25)
    H = rg.register_markers(f.image, b).board_to_image
    dark = f.image.copy()
    dark[:] = 90  # nothing of the drawing left to find
    assert surface.measure(dark, b, H) is None


def test_calibration_keeps_the_bend_and_reads_through_it(tmp_path):
    """Calibrated on a distorted camera, the spots are looked for where the lens puts them, the
    calibration says how far that is, and the file keeps it."""
    game = engine.load("nine-mens-morris")
    layout, _ = calibration_layout(game)
    settings = CameraSettings(k1=(-0.25, -0.25), size=(1280, 720))
    scene = lambda pos: simulate(simple_scene(game.board, pos), 3, settings)  # noqa: E731
    empty, pieces = scene({}), scene(layout)
    cal = calibrate(game, empty.image, pieces.image, position=layout)
    assert cal.bend is not None
    assert any(n.startswith("board surface: bent up to") for n in cal.notes), cal.notes
    H = rg.register_markers(empty.image, game.board).board_to_image
    truth = empty.project(cal.family.xy)
    flat = np.linalg.norm(cv2.perspectiveTransform(cal.family.xy[None], H)[0] - truth, axis=1)
    spots = np.linalg.norm(cv2.perspectiveTransform(cal.layout().spot_at[None], H)[0] - truth, axis=1)
    assert spots.max() < 0.5 * flat.max(), (flat.max(), spots.max())
    loaded = load_calibration(cal.save(tmp_path / "cal.json"))
    assert np.abs(loaded.layout().spot_at - cal.layout().spot_at).max() < 1e-4
    assert np.abs(loaded.layout().probe_at - cal.layout().probe_at).max() < 1e-4
    data = json.loads((tmp_path / "cal.json").read_text())
    data["bend"]["offsets"] = data["bend"]["offsets"][:3]
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(Exception, match="damaged"):
        load_calibration(tmp_path / "bad.json")


def test_the_bend_holds_only_for_the_view_it_was_measured_from():
    """Part of a bend is the lens's: a camera moved far sees the board bent otherwise, and is read
    through its homography alone."""
    b = board("morris9")
    f = distorted("morris9", -0.25)
    H = rg.register_markers(f.image, b).board_to_image
    bend = surface.measure(f.image, b, H)
    corners = np.array([(0, 0), (6, 0), (6, 6), (0, 6)], np.float64)
    nudged = np.array([[1, 0, 3.0], [0, 1, -2.0], [0, 0, 1]]) @ H  # a few pixels: markers' jitter, a bump
    moved = np.array([[1, 0, 60.0], [0, 1, 0], [0, 0, 1]]) @ H  # the camera somewhere else
    assert bend.holds_for(H, corners) and bend.holds_for(nudged, corners)
    assert not bend.holds_for(moved, corners)
    assert surface.Bend(bend.points, bend.offsets).holds_for(moved, corners)  # no view kept: always


def test_the_reader_follows_the_bend_from_the_calibrated_camera_only():
    game = engine.load("nine-mens-morris")
    layout, _ = calibration_layout(game)
    settings = CameraSettings(k1=(-0.25, -0.25), size=(1280, 720), rotation_deg=(0, 0))
    empty = simulate(simple_scene(game.board, {}), 3, settings)
    pieces = simulate(simple_scene(game.board, layout), 3, settings)
    reader = BoardReader(calibrate(game, empty.image, pieces.image, position=layout))
    assert not reader.read(empty.image).occluded and reader.last.bent
    turned = dataclasses.replace(settings, rotation_deg=(25, 25))  # the camera turned round the board
    elsewhere = simulate(simple_scene(game.board, {}), 3, turned)
    assert not reader.read(elsewhere.image).occluded and not reader.last.bent


def test_arbiter_calibrate_says_how_far_the_board_is_bent(tmp_path):
    """The command line tells the user what was measured: a board bent beyond a flat fit is
    followed, and by how much (the lens of this camera bends it by more than a pixel)."""
    import cv2 as _cv2
    from click.testing import CliRunner

    from arbiter.cli import main

    game = engine.load("nine-mens-morris")
    layout, _ = calibration_layout(game)
    settings = CameraSettings(k1=(-0.25, -0.25), size=(1280, 720))
    for name, pos in (("empty", {}), ("pieces", layout)):
        _cv2.imwrite(str(tmp_path / f"{name}.png"), simulate(simple_scene(game.board, pos), 3, settings).image)
    result = CliRunner().invoke(main, ["calibrate", "nine-mens-morris", "--empty", str(tmp_path / "empty.png"),
                                       "--pieces", str(tmp_path / "pieces.png"), "--classifier", "measured",
                                       "--out", str(tmp_path / "cal.json")])
    text = " ".join(result.output.split())
    assert result.exit_code == 0, text
    assert "measuring the board's surface" in text and "Board surface: bent up to" in text and "followed" in text, text
