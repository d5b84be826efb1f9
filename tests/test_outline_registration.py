"""Registration from the board's own drawing (no markers), checked against the simulator's truth.

Every board the engine has today looks the same turned by a quarter, so the outline can only
place the points up to that symmetry: each predicted point must sit on *some* true point. With a
hint (an earlier registration) the names themselves must be right.
"""

import numpy as np
import pytest

import engine
from vision import sim
from vision.calibration import calibrate, calibration_layout
from vision.markers import board_extent
from vision.outline import board_symmetry, register_outline
from vision.reader import BoardReader
from vision.registration import RegistrationError
from engine.observation import spots_of, view

BOARDS = ["nine-mens-morris", "morabaraba", "tapatan", "brain-hanky"]


def _unit(frame):
    return float(np.linalg.norm(frame.project((1, 0)) - frame.project((0, 0))))


@pytest.mark.parametrize("name", BOARDS)
@pytest.mark.parametrize("seed", [3, 8])
def test_outline_places_every_point_up_to_the_boards_symmetry(name, seed):
    board = engine.load(name).board
    frame = sim.simulate(sim.simple_scene(board, {}, markers=False), seed, sim.CameraSettings.mild())
    reg = register_outline(frame.image, board)
    assert reg.method == "outline"
    got = np.array(list(reg.point_pixels(board).values()))
    truth = frame.project(np.array([board.coords[p] for p in board.points]))
    nearest = np.linalg.norm(got[:, None] - truth[None], axis=2).min(axis=1)
    assert nearest.max() < 0.15 * _unit(frame)
    assert 0 in board_symmetry(board)


def test_a_hint_keeps_the_point_names():
    """With an earlier frame's fit as a hint (here the true one, turned by a quarter's worth of
    rotation away from upright), the outline keeps that rotation: the names are right."""
    board = engine.load("nine-mens-morris").board
    frame = sim.simulate(sim.simple_scene(board, {}, markers=False), 5, sim.CameraSettings.mild())
    reg = register_outline(frame.image, board, hint=frame.board_to_frame)
    got = reg.point_pixels(board)
    for p in board.points:
        assert np.linalg.norm(np.subtract(got[p], frame.project(board.coords[p]))) < 0.15 * _unit(frame)


def test_no_board_in_view_is_a_clear_error():
    board = engine.load("nine-mens-morris").board
    frame = sim.simulate(sim.simple_scene(board, {}, markers=False), 2, sim.CameraSettings.mild())
    table = np.full_like(frame.image, (60, 90, 120))
    with pytest.raises(RegistrationError, match="board"):
        register_outline(table, board)


def test_calibrate_and_read_a_board_without_markers_by_its_outline():
    """The whole path for a store-bought board: outline at calibration, then the camera stays put."""
    game = engine.load("nine-mens-morris")
    layout, _ = calibration_layout(game)
    settings = sim.CameraSettings.mild()
    shot = lambda pos, seed=4: sim.simulate(sim.simple_scene(game.board, pos, markers=False), seed, settings).image
    cal = calibrate(game, shot({}), shot(layout), position=layout, method="outline")
    state = game.new()
    for step in ("d2", "f4", "b4", "d6"):
        state = state.play(step)
    obs = BoardReader(cal).read(shot(state.position()))
    assert not obs.occluded, obs.reason
    assert obs.view() == view(state.position(), spots_of(game))


def test_outline_calibration_with_the_a1_corner_keeps_names_and_colours():
    """On a board that looks the same turned round, the outline alone may take player 2's side for
    player 1's: the layout's white and black then swap (tapatan, seed 4, read d4 as black). Given
    the a1 corner, calibration pins the turn and every spot reads right."""
    game = engine.load("tapatan")
    layout, _ = calibration_layout(game)
    settings = sim.CameraSettings.mild()
    frames = {k: sim.simulate(sim.simple_scene(game.board, pos, markers=False), 4, settings)
              for k, pos in (("empty", {}), ("layout", layout))}
    x0, y0, _x1, _y1 = board_extent(game.board)
    a1 = tuple(frames["empty"].project((x0, y0)))
    cal = calibrate(game, frames["empty"].image, frames["layout"].image, position=layout, method="outline",
                    a1=a1)
    state = game.new()
    for step in ("d4", "a1", "g7"):
        state = state.play(step)
    image = sim.simulate(sim.simple_scene(game.board, state.position(), markers=False), 4, settings).image
    obs = BoardReader(cal).read(image)
    assert not obs.occluded, obs.reason
    assert obs.view() == view(state.position(), spots_of(game))


def _striped_table(image, board_to_frame, board, margin: float = 0.7, period_px: int = 14) -> np.ndarray:
    """``image`` with the table beyond the board's print (more than ``margin`` units outside the
    play area) painted in dark and light stripes, like a corrugated or grained table top."""
    import cv2

    img = image.copy()
    h, w = img.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w]
    pix = np.stack([xs.ravel(), ys.ravel()], 1).astype(np.float64)
    bxy = cv2.perspectiveTransform(pix[None], np.linalg.inv(board_to_frame))[0].reshape(h, w, 2)
    x0, y0, x1, y1 = board_extent(board)
    table = ((bxy[..., 0] < x0 - margin) | (bxy[..., 0] > x1 + margin)
             | (bxy[..., 1] < y0 - margin) | (bxy[..., 1] > y1 + margin))
    stripes = ((xs + ys) // (period_px // 2)) % 2 == 0
    img[table & stripes] = (60, 80, 110)
    img[table & ~stripes] = (150, 180, 210)
    return img


def test_the_blue_cloth_is_found_by_its_light_webs_on_a_striped_table():
    """The printed blue cloth's webs are lighter than its ground, so the drawing is looked for
    turned over; a striped table, whose strokes join the board's when looked for everywhere, is
    kept out by the cloth's own colour (photoreal renders: every empty picture placed, median
    0.2-1.5 px off at 1920x1080)."""
    board = engine.load("brain-hanky").board
    frame = sim.simulate(sim.simple_scene(board, {}, markers=False, cloth="blue"), 4, sim.CameraSettings.mild())
    img = _striped_table(frame.image, frame.board_to_frame, board)
    reg = register_outline(img, board, hint=frame.board_to_frame)
    got = reg.point_pixels(board)
    worst = max(np.linalg.norm(np.subtract(got[p], frame.project(board.coords[p]))) for p in board.points)
    assert worst < 0.1 * _unit(frame), worst
