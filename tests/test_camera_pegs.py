"""The camera's side of Brainmaster's pegs and Thinking In Circles' tokens: the reader's data for
them (``vision.families``), the simulated camera's drawing of them (``vision.sim``), their
calibration layouts (``vision.calibration``) and frames read back through the real reader."""

from __future__ import annotations

import numpy as np
import pytest

import engine
from arbiter.sim.physical import _settings, camera_size, sim_calibration
from engine.core import Piece
from vision import sim
from vision.calibration import calibration_layout
from vision.families import family_for
from vision.reader import BoardReader
from vision.render_circles import PENNY, TOKEN_R
from vision.render_pegs import CODE_PEG_R, KEY_HOLE_FILL, KEY_PEG_COLOURS, KEY_PEG_R


def test_brainmaster_reads_only_the_pegs_in_play():
    fam = family_for(engine.load("brainmaster", colours=6))
    assert fam.name == "brainmaster"
    assert [(c.owner, c.kind) for c in fam.classes] == [(1, "key"), (2, "key")] + [(o, "code") for o in range(3, 9)]
    assert [c.name for c in fam.classes[:3]] == ["black indicator peg", "white indicator peg", "red code peg"]
    assert fam.spot_kind[fam.spots.index("r1a")] == "code" and fam.spot_kind[fam.spots.index("r1k1")] == "key"
    assert fam.patterns["key"].piece_radius == KEY_PEG_R and fam.patterns["code"].piece_radius == CODE_PEG_R


def test_thinking_in_circles_reads_one_token_class():
    fam = family_for(engine.load("thinking-in-circles"))
    assert fam.name == "circles" and [(c.owner, c.kind, c.name) for c in fam.classes] == [(1, "token", "token")]
    assert len(fam.spots) == 70 and fam.patterns["token"].piece_radius == TOKEN_R


def test_brainmaster_calibration_layout_puts_one_peg_of_every_colour_down_a_staircase():
    pos, words = calibration_layout(engine.load("brainmaster"))
    assert pos == {"r1a": Piece(3, "code"), "r2b": Piece(4, "code"), "r3c": Piece(5, "code"), "r4d": Piece(6, "code"),
                   "r5a": Piece(7, "code"), "r1k1": Piece(1, "key"), "r10k4": Piece(2, "key")}
    assert "red code peg on r1a" in words and "white indicator peg on r10k4" in words
    pos8, _ = calibration_layout(engine.load("brainmaster", colours=8, rows=8))
    assert pos8["r8d"] == Piece(10, "code") and pos8["r8k4"] == Piece(2, "key")


def test_thinking_in_circles_calibrates_on_its_start_position():
    g = engine.load("thinking-in-circles")
    pos, words = calibration_layout(g)
    assert words == "the game's start position" and pos == dict(g.new().position()) and len(pos) == 5


def test_the_simulated_camera_draws_pegs_and_pennies_sized_to_their_holes_and_spaces():
    bm = engine.load("brainmaster")
    scene = sim.printed_scene(bm.board, {"r1a": Piece(4, "code"), "r1k1": Piece(2, "key")})
    by_spot = {p.spot: p for p in scene.pieces}
    assert by_spot["r1a"].kind == by_spot["r1k1"].kind == "peg"
    assert by_spot["r1a"].radius == CODE_PEG_R and by_spot["r1k1"].radius == KEY_PEG_R
    assert by_spot["r1k1"].colour == KEY_PEG_COLOURS[2] and by_spot["r1a"].xy == bm.board.coords["r1a"]
    # The bare print shows an indicator hole grey inside (a white peg stands out against it),
    # round the inked dot at its centre.
    x, y = bm.board.coords["r2k1"]
    c, r = scene.to_pixel((x + 0.07, y))
    assert np.abs(scene.bare[round(r), round(c)].astype(int) - KEY_HOLE_FILL).max() < 20
    # The flat look (CameraSettings.outlines) shows the peg drawn on the print; the bare print not.
    c, r = scene.to_pixel(bm.board.coords["r1a"])
    assert np.abs(scene.image[round(r), round(c)].astype(int) - scene.bare[round(r), round(c)]).max() > 60
    tc = engine.load("thinking-in-circles")
    scene = sim.printed_scene(tc.board, {"c1.0": Piece(1, "token")})
    (penny,) = scene.pieces
    assert penny.kind == "man" and penny.colour == PENNY and penny.radius == TOKEN_R
    # Neighbouring spaces are 0.45 apart: a penny covers its own space and leaves the next one clear.
    a, b = np.array(tc.board.coords["c1.0"]), np.array(tc.board.coords["c1.1"])
    assert np.linalg.norm(a - b) > 2 * TOKEN_R


@pytest.mark.parametrize("name, seeds", [("brainmaster", (11, 12, 13)), ("thinking-in-circles", (11, 12, 13))])
def test_simulated_frames_of_games_in_progress_read_exactly(name, seeds):
    from vision.docs_pictures import random_position

    g = engine.load(name)
    reader = BoardReader(sim_calibration(g))
    size = camera_size(g)
    for seed in seeds:
        position = random_position(g, seed, 60)
        frame = sim.simulate(sim.printed_scene(g.board, position), seed, _settings(size, False))
        obs = reader.read(frame.image)
        assert not obs.occluded, (seed, obs.reason)
        truth = {s: (p.owner, p.kind) for s, p in position.items()}
        got = {s: v for s, v in obs.view().items() if v is not None}
        assert got == truth, (seed, sorted(set(got.items()) ^ set(truth.items())))


def test_brainmaster_board_leaves_paper_for_the_hand_check_clear_of_leaning_code_peg_heads():
    """The hand check's probes must find paper that a code peg's head leaning at a slant does not
    reach (on simulated frames, probes up to 0.75 of a row pitch from a hole changed with its head): in every gap between
    two rows and two columns of code holes, and beside the indicator block of every row. With
    code holes a pitch apart and the indicator block 0.55 from them, the paper between four holes
    lay 0.71 from each, and full boards under a slanted camera were refused as a hand."""
    from vision.sampling import candidate_probes

    g = engine.load("brainmaster")
    fam = family_for(g)
    probes = candidate_probes(fam, g.board)
    geo = g.rules.geometry
    code = np.array([geo.graph.coords[s] for r in range(1, geo.rows + 1) for s in geo.row_spots(r)])
    reach = 0.76  # probes changed by a leaning head lay up to 0.75 from its hole
    assert fam.patterns["code"].piece_radius * fam.probe_clear > reach
    far = probes[np.linalg.norm(probes[:, None] - code[None], axis=2).min(axis=1) > reach]
    for row in range(1, geo.rows):
        corners = [geo.graph.coords[s] for s in geo.row_spots(row)]
        for (xa, y), (xb, _) in zip(corners, corners[1:]):
            centre = np.array([(xa + xb) / 2, y + 0.5])
            assert (np.linalg.norm(far - centre, axis=1) < 0.3).any(), (row, xa)
    last = max(x for x, _ in corners)
    first_key = min(geo.graph.coords[s][0] for s in geo.key_spots(1))
    for row in range(1, geo.rows + 1):
        beside = far[(far[:, 0] > last) & (far[:, 0] < first_key) & (np.abs(far[:, 1] - (row - 1)) < 0.5)]
        assert len(beside) >= 2, row


def test_an_empty_indicator_hole_differs_from_both_indicator_pegs_in_colour_not_only_brightness():
    """In a bright frame the paper, a white peg and a light grey hole all clip to white together:
    the empty hole's print keeps a colour neither peg has, so it stays apart from the white peg
    however bright the frame (and from the black one however dark)."""
    fill = np.array(KEY_HOLE_FILL, float)
    for gain in (1.0, 1.5, 2.5, 0.3):
        seen = np.clip(fill * gain, 0, 255)
        white = np.clip(np.array(KEY_PEG_COLOURS[2], float) * gain, 0, 255)
        black = np.clip(np.array(KEY_PEG_COLOURS[1], float) * gain, 0, 255)
        assert np.abs(seen - white).max() > 100 * min(1.0, gain), gain
        assert seen.max() - seen.min() > 2.5 * (black.max() - black.min() + 4), gain  # hue, not only level


def test_no_space_of_the_circles_print_looks_like_a_penny():
    """A penny on a space must differ from the bare space: every space's symbol ink and fill lies
    far from the penny's copper in colour (a red circle symbol read pennies on it as empty)."""
    from vision.render_circles import BLACK_FILL, NEUTRAL_FILL, SHAPE_INKS, SPACE_FILL, WHITE_FILL

    penny = np.array(PENNY, float)
    for name, ink in {**SHAPE_INKS, "space": SPACE_FILL, "neutral": NEUTRAL_FILL, "white": WHITE_FILL,
                      "black": BLACK_FILL}.items():
        # the mean difference over the channels, as the reader compares a spot with a look: the
        # nearest, the neutral grey, is 52 levels from the copper; the red circle was 38
        assert np.abs(np.array(ink, float) - penny).mean() > 45, name
