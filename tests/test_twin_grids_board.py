"""The two-grid gem game's boards (boards.md section 3) and how they are drawn: geometry, the
printed board's two inks, the terminal drawing, the camera markers and the LED layout."""

from __future__ import annotations

import numpy as np
import pytest

import engine
from arbiter.textboard import twin_grids_text
from engine.boards import board
from engine.core import Piece
from hardware.layout import load_map, spots_for
from vision import markers, twin_look
from vision.printable import mm_per_unit, render_printable


@pytest.mark.parametrize("name,n", [("twin-grids-6", 6), ("twin-grids-8", 8)])
def test_the_boards_are_two_offset_grids_at_twice_boards_md_coordinates(name, n):
    b = board(name)
    files = "abcdefgh"
    for i in range(n):
        for j in range(n):
            assert b.coords[f"r:{files[i]}{j + 1}"] == (2.0 * i, 2.0 * j)
            assert b.coords[f"b:{files[i]}{j + 1}"] == (2.0 * i + 1, 2.0 * j + 1)
    assert len(b.points) == 2 * n * n and len(b.edges) == 2 * 2 * n * (n - 1)
    assert all(a[:2] == c[:2] for a, c in b.edges), "an edge joins two points of one grid"
    assert b.style == "twin-grids" and b.lines == ()


def test_the_printed_board_draws_each_grid_in_its_colour():
    b = board("twin-grids-6")
    assert mm_per_unit(b) == 11.25
    img, layout = render_printable(b, dpi=100, labels=False)
    for name, ink in (("r:c3", twin_look.RED_INK), ("b:c3", twin_look.BLUE_INK)):
        c, r = (round(v) for v in layout.to_pixel(b.coords[name]))
        seen = img[r - 1:r + 2, c - 1:c + 2].reshape(-1, 3).astype(int)
        assert np.abs(seen - np.array(ink)).sum(axis=1).min() < 40, (name, seen[:3])
    assert markers.board_for_marker(markers.marker_ids(b)[0]) == "twin-grids"
    assert markers.marker_ids(b) == markers.marker_ids(board("twin-grids-8"))


def test_the_terminal_drawing_shows_both_grids_and_both_gems():
    g = engine.load("twin-grids")
    text = twin_grids_text(g.board, g.new().position()).plain.splitlines()
    assert text[0].startswith("b6") and text[-2].startswith("r1")
    assert text[-2].count("◆") == 6 and text[0].count("◇") == 6  # the bottom and top rows
    assert sum(line.count("◆") for line in text) == 11 and sum(line.count("◇") for line in text) == 11
    assert text[-1].split() == list("aabbccddeeff")


def test_every_point_has_an_led():
    g = engine.load("twin-grids", gems=15)
    layout = load_map(None, spots_for(g))
    assert set(layout.points) == set(g.rules.spots) and len(layout.points) == 128
    assert sorted(i for ix in layout.points.values() for i in ix) == list(range(128)), "one pixel each"


def test_a_record_replays_and_renders_from_the_command_line(tmp_path):
    import json

    from click.testing import CliRunner

    from arbiter.cli import main
    from test_complete_games import TWIN_GRIDS_11

    f = tmp_path / "game.json"
    f.write_text(json.dumps({"game": "twin-grids", "options": {}, "steps": TWIN_GRIDS_11}))
    out = CliRunner().invoke(main, ["replay", str(f)])
    assert out.exit_code == 0, out.output
    assert "25 of 25 steps applied" in out.output and "only one untrapped gem" in out.output
    assert "r1 " in out.output and "◆" in out.output, "drawn as the play screen draws it"
    out = CliRunner().invoke(main, ["render", str(f), "--out", str(tmp_path / "end.png")])
    assert out.exit_code == 0 and (tmp_path / "end.png").stat().st_size > 0
