"""The frame's own tone curve, measured on the board's printed ink (vision.tone.ink_gamma, the
ink points of vision.families.line_ink, calibration's ink_empty): a frame whose dark tones the
camera shows darker or lighter than at calibration is read as at calibration."""

from __future__ import annotations

import dataclasses
import json

import cv2
import numpy as np
import pytest

import engine
from vision import calibration as C
from vision import sim
from vision.families import INK_CLEAR, HTJB_MAN, family_for
from vision.reader import BoardReader


def test_ink_points_lie_on_the_lines_clear_of_every_piece():
    for name in ("nine-mens-morris", "tapatan", "morabaraba", "six-mens-morris"):
        game = engine.load(name)
        fam = family_for(game)
        assert len(fam.ink) >= 8, name
        d = np.linalg.norm(fam.ink[:, None] - fam.xy[None], axis=2).min(axis=1)
        assert d.min() >= INK_CLEAR * HTJB_MAN.piece_radius - 1e-9
        # every ink point lies on one of the board's edges
        board = game.board
        on = np.zeros(len(fam.ink), bool)
        for a, b in board.edges:
            pa, pb = np.asarray(board.coords[a], float), np.asarray(board.coords[b], float)
            t = np.clip(((fam.ink - pa) @ (pb - pa)) / ((pb - pa) @ (pb - pa)), 0, 1)
            on |= np.linalg.norm(pa + t[:, None] * (pb - pa) - fam.ink, axis=1) < 1e-9
        assert on.all(), name
    assert len(family_for(engine.load("brain-hanky")).ink) == 0  # the cloth's webs are not lines of ink


def _calibrated(game, seed=7):
    layout, _ = C.calibration_layout(game)
    st = sim.CameraSettings(size=(1280, 720))
    empty = sim.simulate(sim.printed_scene(game.board, {}), seed, st).image
    pieces = sim.simulate(sim.printed_scene(game.board, layout), seed, st).image
    return C.calibrate(game, empty, pieces, position=layout), st


def test_calibration_keeps_the_ink_and_older_files_still_load(tmp_path):
    game = engine.load("tapatan")
    cal, _ = _calibrated(game)
    assert cal.ink_empty is not None and cal.ink_empty.shape == (len(cal.family.ink), 3)
    # the ink is darker than the paper beside it
    assert float(np.median(cal.ink_empty)) < 0.9
    data = cal.to_json()
    back = C.calibration_from_json(json.loads(json.dumps(data)))
    assert np.allclose(back.ink_empty, cal.ink_empty, atol=1e-3)
    data.pop("ink_empty")
    assert C.calibration_from_json(data).ink_empty is None


def _curved(image: np.ndarray, power: float) -> np.ndarray:
    """The picture through a steeper tone curve (a dim frame whose camera pushes its darks down)."""
    lut = np.clip(255.0 * (np.arange(256) / 255.0) ** power, 0, 255).astype(np.uint8)
    return cv2.LUT(image, lut)


def test_a_frame_with_darker_darks_is_read_through_its_ink_curve():
    """Every tone of a simulated frame pushed down by a power of 1.8 (paper 230 -> 211, a printed
    line at 130 -> 76): the lines and a black man move further from the paper than at
    calibration. The ink curve is measured, the frame read right, and its empty points lie
    nearer their looks than when compared with the looks as calibration saw them."""
    game = engine.load("nine-mens-morris")
    cal, st = _calibrated(game)
    position = {"a1": (1, "man"), "d2": (2, "man"), "g7": (2, "man"), "b4": (1, "man"), "f4": (2, "man")}
    scene = sim.printed_scene(game.board, {s: engine.core.Piece(*p) for s, p in position.items()})
    frame = _curved(sim.simulate(scene, 7, st).image, 1.8)
    seen = []
    real = C.tone.ink_gamma
    C.tone.ink_gamma = lambda *a, **k: seen.append(real(*a, **k)) or seen[-1]
    try:
        reader = BoardReader(cal)
        obs = reader.read(frame)
    finally:
        C.tone.ink_gamma = real
    assert not obs.occluded, obs.reason
    assert seen and seen[-1] is not None and np.all(seen[-1] > 1.3), seen
    view = {s: (r.piece.owner, r.piece.kind) for s, r in obs.points.items() if r.piece is not None}
    assert view == position
    # the same frame against the looks as calibration saw them
    fam = cal.family
    plain = dataclasses.replace(cal, family=dataclasses.replace(
        fam, patterns={k: dataclasses.replace(p, ink=False) for k, p in fam.patterns.items()}))
    old = BoardReader(plain)
    old.read(frame)
    empties = [s for s in fam.spots if s not in position]
    now_d = np.median([reader.last.best[s] for s in empties])
    then_d = np.median([old.last.best[s] for s in empties])
    assert now_d < 0.8 * then_d, (now_d, then_d)  # the empty points are explained better
