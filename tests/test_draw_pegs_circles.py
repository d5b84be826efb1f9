"""Brainmaster's and Thinking In Circles' boards drawn: the picture (``arbiter render``), the printed
board with its markers (``arbiter print-board``) and the terminal (``arbiter replay``, the play screen).

Every check looks under a spot for what should be there: a code peg's colour in its hole, a black or
white indicator peg in its small hole, the cover over the code row, a space's symbol, a token's ring.
"""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

import engine
from arbiter.cli import main
from arbiter.textboard import board_text
from engine.boards.brainmaster import brainmaster_for
from engine.boards.circles import circles_for
from vision import markers
from vision.pictures import render_state, state_title
from vision.printable import render_printable
from vision.render_circles import SHAPE_INKS, TOKEN, TOKEN_R, UNIT_PX
from vision.render_circles import spot_pixel as circle_pixel
from vision.render_pegs import CODE_PEG_COLOURS, COVER, HOLE, KEY_PEG_COLOURS
from vision.render_pegs import spot_pixel as peg_pixel

# Brainmaster: the code, then two guesses with their answers; row 3 guessed but not answered.
BRAINMASTER = ["code=RBGY", "1:RRBB", "1:1b1w", "2:YGOB", "2:0b3w", "3:OOOO"]
# Thinking In Circles: the goals, then turns of circle, beads and the token's move.
CIRCLES = ["goal=CST", "goal=TPS", "C3", "beads=2w", "beads=1w", "c3.1-c3.4", "C1", "beads=1b", "beads=3b"]


def _play(name: str, steps: list[str]):
    game = engine.load(name)
    state = game.new()
    for text in steps:
        state = state.play(text)
    return game, state


def _near(pixel, colour, tol: int = 12) -> bool:
    return bool(np.all(np.abs(np.asarray(pixel, int) - np.asarray(colour, int)) <= tol))


@pytest.fixture(scope="module")
def brainmaster():
    game, state = _play("brainmaster", BRAINMASTER)
    title = state_title(game, state)
    return game, state, render_state(game, state), title


@pytest.fixture(scope="module")
def circles():
    game, state = _play("thinking-in-circles", CIRCLES)
    return game, state, render_state(game, state), state_title(game, state)


def test_each_code_peg_shows_its_colour_in_its_hole(brainmaster):
    game, state, image, title = brainmaster
    position = state.position()
    assert {p.owner for s, p in position.items() if s.startswith("r3") and "k" not in s} == {7}  # OOOO
    for spot, piece in position.items():
        c, r = peg_pixel(game.board, spot, title=title)
        # Beside the centre (the dome's highlight sits up and left of it).
        colour = CODE_PEG_COLOURS[piece.owner] if piece.kind == "code" else KEY_PEG_COLOURS[piece.owner]
        assert _near(image[r + 2, c + 2], colour), (spot, image[r + 2, c + 2], colour)


def test_indicator_pegs_fill_their_holes_black_first_and_empty_holes_show(brainmaster):
    game, state, image, title = brainmaster
    keys = {s: p.owner for s, p in state.position().items() if p.kind == "key"}
    assert keys == {"r1k1": 1, "r1k2": 2, "r2k1": 2, "r2k2": 2, "r2k3": 2}
    for spot in ("r1k3", "r2k4", "r3k1", "r4a", "r10d"):  # empty holes: the hole's dark
        c, r = peg_pixel(game.board, spot, title=title)
        assert _near(image[r, c], HOLE), spot


def test_the_code_row_is_covered_whatever_the_code(brainmaster):
    game, state, image, title = brainmaster
    for hole in brainmaster_for(game.board).code_holes:
        c, r = peg_pixel(game.board, hole, title=title)
        below = image[r + 8, c]  # clear of the cover's words
        assert _near(below, COVER), (hole, below)
    with pytest.raises(ValueError, match="no hole"):
        peg_pixel(game.board, "r99z")


def test_each_space_shows_its_symbol_and_a_token_rings_its_space(circles):
    game, state, image, title = circles
    geo = circles_for(game.board)
    expect = {"W": (255, 255, 255), "B": (25, 25, 25), "N": (150, 150, 150), **SHAPE_INKS}
    seen = set()
    for spot, symbol in geo.symbols.items():
        c, r = circle_pixel(game.board, spot, title=title)
        assert _near(image[r, c], expect[symbol]), (spot, symbol, image[r, c])
        seen.add(symbol)
    assert seen == set("NWBCTSP")
    position = state.position()
    assert "c3.4" in position and "c1.0" in position  # moved by 2+1; C1 waits for its move by -4
    for spot in position:
        c, r = circle_pixel(game.board, spot, title=title)
        ring = round(TOKEN_R * UNIT_PX)
        assert _near(image[r, c + ring], TOKEN), spot
    for spot in ("c2.5", "c5.9"):  # no token there: no orange round it
        c, r = circle_pixel(game.board, spot, title=title)
        assert not _near(image[r, c + round(TOKEN_R * UNIT_PX)], TOKEN)


@pytest.mark.parametrize("name", ["brainmaster", "thinking-in-circles"])
def test_render_and_replay_work_from_the_command_line(name, tmp_path):
    steps = BRAINMASTER if name == "brainmaster" else CIRCLES
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"game": name, "options": {}, "steps": steps}))
    out = tmp_path / "board.png"
    runner = CliRunner()
    result = runner.invoke(main, ["render", str(record), "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    image = cv2.imread(str(out))
    assert image is not None and image.shape[0] > 300 and len(np.unique(image.reshape(-1, 3), axis=0)) > 50
    result = runner.invoke(main, ["replay", str(record)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert f"{len(steps)} of {len(steps)} steps applied" in result.output


def test_the_terminal_shows_the_pegs_as_letters_and_the_indicators():
    game, state = _play("brainmaster", BRAINMASTER)
    lines = board_text(game.board, state.position()).plain.splitlines()
    row = {int(line.split()[0]): line.split()[1:] for line in lines if line.strip()[:2].strip().isdigit()}
    assert row[1] == ["R", "R", "B", "B", "●○··"]
    assert row[2] == ["Y", "G", "O", "B", "○○○·"]
    assert row[3] == ["O", "O", "O", "O", "····"]
    assert row[4] == ["·", "·", "·", "·", "····"] and max(row) == 10
    assert "covered" in lines[0] and "G" not in lines[0]  # the code is not shown


def test_the_terminal_shows_every_circle_with_its_symbols_and_the_token():
    game, state = _play("thinking-in-circles", CIRCLES)
    geo = circles_for(game.board)
    glyph = {"N": "·", "W": "○", "B": "●"}
    lines = board_text(game.board, state.position()).plain.splitlines()
    for k in range(1, 6):
        line = next(t for t in lines if t.startswith(f"C{k} "))
        cells = [line[5 + 3 * s:8 + 3 * s] for s in range(geo.size)]
        token = next(s for s in range(geo.size) if geo.spot(k, s) in state.position())
        for s, cell in enumerate(cells):
            sym = geo.symbols[geo.spot(k, s)]
            assert cell[1] == glyph.get(sym, sym), (k, s, cell)
            assert (cell[0], cell[2]) == (("[", "]") if s == token else (" ", " ")), (k, s, cell)


@pytest.mark.parametrize("name, ids", [("brainmaster", (44, 45, 46, 47)), ("thinking-in-circles", (48, 49, 50, 51))])
def test_the_printed_boards_carry_their_own_markers_and_read_back(name, ids):
    image, layout = render_printable(name, dpi=100)
    assert markers.marker_ids(layout.board) == ids
    found, got, _ = cv2.aruco.ArucoDetector(markers.dictionary()).detectMarkers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    assert sorted(got.ravel().tolist()) == list(ids)
    if name == "brainmaster":
        geo = brainmaster_for(layout.board)
        # Every hole, the code row's too, is printed as an inked ring (where the peg's edge goes).
        for name, xy in [*geo.graph.coords.items(), *geo.code_holes.items()]:
            c, r = layout.to_pixel(xy)
            ring = (0.14 if "k" in name[1:] else 0.36) * layout.px_per_unit
            dark = min(int(image[round(r), round(c + ring) + d].min()) for d in (-1, 0, 1))
            assert dark < 100, xy
        # ... and the code row lies inside the area the markers frame.
        x0, y0, x1, y1 = markers.board_extent(layout.board)
        assert all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in geo.code_holes.values())
        # The wide code hole pitch (room for the camera's hand check) still prints on one A4 sheet.
        from vision.printable import plan_pages

        assert plan_pages(layout, "a4").pages == 1
    else:
        geo = circles_for(layout.board)
        for spot, symbol in geo.symbols.items():
            c, r = layout.to_pixel(geo.graph.coords[spot])
            want = {"W": (255, 255, 255), "B": (25, 25, 25), "N": (150, 150, 150), **SHAPE_INKS}[symbol]
            assert _near(image[round(r), round(c)], want, 20), (spot, symbol)


def test_the_larger_marker_dictionary_keeps_the_old_boards_markers():
    small = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50).bytesList
    assert np.array_equal(markers.dictionary().bytesList[:50], small)


@pytest.mark.parametrize("name, steps", [("brainmaster", BRAINMASTER), ("thinking-in-circles", CIRCLES)])
def test_the_play_screen_draws_the_board_in_colour(name, steps):
    from io import StringIO

    from rich.console import Console

    from arbiter.textboard import game_text

    game, state = _play(name, steps)
    text = game_text(game, state.position(), layout=None, spots=None)
    out = StringIO()
    Console(file=out, force_terminal=True, color_system="truecolor", width=100).print(text)
    assert "\x1b[" in out.getvalue()  # every style named is one rich knows, or printing raises
    assert text.plain == board_text(game.board, state.position()).plain
