"""Which classifier a calibration uses unless told: per family, as docs/learned-reader.md's rule
("Which reader is the default") chose on the pooled photoreal validation. Brainmaster's pegs and
Thinking In Circles' tokens are read by the learned reader, and the mills since the twelfth
session (calibrated from the full set, every mills game set plays through the referee with it);
Brain Hanky keeps the hand-set one (one of its game sets does not play through with the learned
reader), as do the two-grid gems. The command line, the owner's web page and ``calibrate``
itself all follow it, and each can be told otherwise; so does the simulated camera of the
tests and of ``arbiter demo``."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import engine
from arbiter.cli import main
from vision.calibration import calibrate, calibration_layout, default_classifier

pytest.importorskip("vision.spotnet")


@pytest.mark.parametrize("game, expected", [("brainmaster", "learned"), ("thinking-in-circles", "learned"),
                                            ("nine-mens-morris", "learned"), ("brain-hanky", "measured"),
                                            ("twin-grids", "measured")])
def test_each_family_has_its_default(game, expected):
    assert default_classifier(engine.load(game)) == expected


def _written(tmp_path, *args):
    out = tmp_path / "cal.json"
    res = CliRunner().invoke(main, ["calibrate", *args, "--sim", "--width", "960", "--height", "720",
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    return json.loads(out.read_text()), res.output


def test_the_command_calibrates_pegs_with_the_learned_reader_from_the_full_set(tmp_path):
    data, said = _written(tmp_path, "brainmaster")
    assert data["classifier"] == "learned" and "Classifier: learned" in said
    full, _ = calibration_layout(engine.load("brainmaster"), full=True)
    one, _ = calibration_layout(engine.load("brainmaster"))
    assert len(full) > len(one)
    # the pieces it learned from are the full layout's, several of each kind
    assert sum(len(c["at"]) for c in data["book"]["classes"]) == len(full)


def test_the_command_is_told_otherwise(tmp_path):
    data, said = _written(tmp_path, "brainmaster", "--classifier", "measured")
    assert data["classifier"] == "measured" and "Classifier: learned" not in said
    data, _ = _written(tmp_path, "tapatan")
    assert data["classifier"] == "learned"
    data, _ = _written(tmp_path, "tapatan", "--classifier", "measured")
    assert data["classifier"] == "measured"
    data, _ = _written(tmp_path, "twin-grids")
    assert data["classifier"] == "measured"


def test_the_layout_shown_is_the_one_the_default_reader_learns_from(tmp_path):
    out = tmp_path / "layout.png"
    full = CliRunner().invoke(main, ["calibrate", "brainmaster", "--layout", "--out", str(out)])
    one = CliRunner().invoke(main, ["calibrate", "brainmaster", "--layout", "--one-each", "--out", str(out)])
    assert full.exit_code == 0 and one.exit_code == 0
    assert full.output != one.output
    _, described = calibration_layout(engine.load("brainmaster"), full=True)
    assert " ".join(described.split()) in " ".join(full.output.split())


def test_calibrate_itself_follows_the_family_and_so_does_the_simulated_camera():
    from arbiter.sim.physical import sim_calibration
    from vision import sim

    game = engine.load("thinking-in-circles")
    layout, _ = calibration_layout(game, full=True)
    settings = sim.CameraSettings(size=(800, 600))
    empty = sim.simulate(sim.printed_scene(game.board, {}), 1, settings).image
    pieces = sim.simulate(sim.printed_scene(game.board, layout), 1, settings).image
    assert calibrate(game, empty, pieces, position=layout).classifier == "learned"
    assert calibrate(game, empty, pieces, position=layout, classifier="measured").classifier == "measured"
    assert sim_calibration(game).classifier == "learned"
    assert sim_calibration(engine.load("nine-mens-morris")).classifier == "learned"
    assert sim_calibration(engine.load("brain-hanky")).classifier == "measured"
    assert sim_calibration(game, classifier="measured").classifier == "measured"


def test_the_web_page_calibrates_pegs_with_the_learned_reader(tmp_path):
    from arbiter.web.calibrate import Calibrator

    c = Calibrator(tmp_path)
    assert c.begin("brainmaster", "sim") is None
    assert c.take() is None and c.take() is None
    data = json.loads((tmp_path / "calibration-brainmaster.json").read_text())
    assert data["classifier"] == "learned"
