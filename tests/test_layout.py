"""LED layout maps: a default for every board and game, the three wirings, the file format."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import engine
from arbiter.cli.leds import leds
from engine.boards import board_names
from engine.observation import spots_of
from hardware.layout import (STATUS, LayoutError, LayoutMap, default_map, load_map, matrix_map,
                             matrix_size_needed, ring_map, serpentine_map, spots_for)


@pytest.mark.parametrize("name", board_names() + engine.names())
def test_every_board_and_game_has_a_default_map_covering_every_spot(name):
    spots = spots_for(name)
    layout = default_map(name)
    layout.check_covers(spots.names)
    assert set(layout.points) == set(spots.names)
    used = [i for idx in list(layout.points.values()) + list(layout.status.values()) for i in idx]
    assert sorted(used) == list(range(layout.count))  # one pixel each, none shared, no gaps
    assert set(layout.status) == set(STATUS)


@pytest.mark.parametrize("game", [g for g in engine.names() if g.startswith("brain-hanky")])
def test_a_brain_hanky_map_covers_the_games_gem_squares(game):
    g = engine.load(game)
    spots = spots_for(g)
    assert set(spots.names) == set(spots_of(g))
    assert spots.gems and all(s not in g.board.coords for s in spots.gems)
    board_map = default_map(g.board.name)  # a board's map serves every game on it
    board_map.check_covers(spots_of(g))


def test_serpentine_rows_run_from_the_top_left_and_turn_at_each_end():
    m = serpentine_map("morris9")
    assert [m.points[p][0] for p in ("a7", "d7", "g7")] == [0, 1, 2]
    assert [m.points[p][0] for p in ("f6", "d6", "b6")] == [3, 4, 5]
    assert m.points["a4"][0] == 14 and m.points["g4"][0] == 9  # the middle row runs right to left
    assert m.status == {"turn": (24,), "clock": (25,), "error": (26,)}


@pytest.mark.parametrize("start, first, second", [
    ("top-left", "a7", "d7"), ("top-right", "g7", "d7"), ("bottom-left", "a1", "d1"), ("bottom-right", "g1", "d1")])
def test_the_strip_can_start_at_any_corner(start, first, second):
    m = serpentine_map("morris9", start=start)
    assert m.name_of(0) == first and m.name_of(1) == second


def test_a_pitched_strip_leaves_the_pixels_between_points_dark():
    m = serpentine_map("morris9", leds_per_unit=2)  # 13 pixels per row of 6 units
    assert m.points["a7"] == (0,) and m.points["d7"] == (6,) and m.points["g7"] == (12,)
    assert m.points["f6"] == (13 + 2,)  # second row runs back: f6 is 2 pixels from its start
    assert m.name_of(1) is None
    assert m.count == 7 * 13 + 3
    with pytest.raises(LayoutError, match="fall under one LED"):
        serpentine_map("brain-hanky-6", leds_per_unit=1)


def test_rings_give_each_point_its_own_run_of_pixels():
    m = ring_map("three", ring_size=12)
    assert m.points["a7"] == tuple(range(12))
    assert m.points["d7"] == tuple(range(12, 24))
    assert m.count == 9 * 12 + 3
    assert m.order()[1] == ("d7", tuple(range(12, 24)))
    assert m.name_of(13) == "d7"


def test_a_matrix_lights_each_point_at_its_nearest_cell():
    m = matrix_map("morris9", width=7, height=7)
    assert m.points["a7"] == (0,) and m.points["g7"] == (6,)
    assert m.points["b6"] == (7 + 5,)  # row 1 of a serpentine matrix runs right to left
    assert m.points["g1"] == (6 * 7 + 6,)
    assert m.status["turn"] == (49,)
    progressive = matrix_map("morris9", width=7, height=7, serpentine=False)
    assert progressive.points["b6"] == (8,)
    with pytest.raises(LayoutError, match="use a larger one"):
        matrix_map("morris9", width=4, height=4)
    assert matrix_size_needed("morris9") == (7, 7)


def test_a_map_survives_a_round_trip_through_its_file(tmp_path):
    path = tmp_path / "m.json"
    original = ring_map("morris9", ring_size=4)
    original.save(path)
    assert LayoutMap.load(path) == original
    data = json.loads(path.read_text())
    assert data["format"] == "arbiter-led-map" and data["points"]["a7"] == [0, 1, 2, 3]
    single = serpentine_map("three")
    single.save(path)
    assert json.loads(path.read_text())["points"]["a7"] == 0  # one pixel: a plain number


def _data(**changes):
    data = default_map("three").to_json()
    data.update(changes)
    return data


@pytest.mark.parametrize("data, message", [
    ([], "not an LED map"),
    (_data(version=2), "version 2"),
    (_data(count=5), "uses pixel 5, but the strip has pixels 0..4"),
    (_data(points={"a7": 0, "d7": 0}), "pixel 0 is given to both a7 and d7"),
    (_data(status={"beep": 9}), "unknown status pixel 'beep'"),
    (_data(points={"a7": "zero"}), "point a7: give a pixel index"),
    (_data(wiring="spiral"), "wiring 'spiral'"),
    (_data(pixel_order="XYZ"), "pixel order 'XYZ'"),
])
def test_a_bad_map_is_refused_with_the_reason(data, message):
    with pytest.raises(LayoutError, match=message):
        LayoutMap.from_json(data, "m.json")


def test_load_map_checks_the_map_fits_the_game(tmp_path):
    path = tmp_path / "m.json"
    default_map("morris6").save(path)
    with pytest.raises(LayoutError, match="is a map for board morris6, but morris9 is being played"):
        load_map(path, "nine-mens-morris")
    partial = default_map("morris9")
    LayoutMap("morris9", partial.count, {p: i for p, i in partial.points.items() if p != "d1"},
              partial.status).save(path)
    with pytest.raises(LayoutError, match="no pixel for d1"):
        load_map(path, "nine-mens-morris")
    assert load_map(None, "nine-mens-morris") == default_map("morris9")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(LayoutError, match="not valid JSON"):
        load_map(tmp_path / "bad.json", "nine-mens-morris")
    with pytest.raises(LayoutError, match="cannot read LED map"):
        load_map(tmp_path / "none.json", "nine-mens-morris")


def test_an_unknown_name_lists_games_and_boards():
    with pytest.raises(LayoutError, match="neither a game nor a board; games: nine-mens-morris"):
        spots_for("chess")


def test_pixels_of_names_points_and_status_roles():
    m = default_map("three")
    assert m.pixels_of("a7") == (0,) and m.pixels_of("error") == (11,)
    assert m.name_of(10) == "status:clock"
    with pytest.raises(LayoutError, match="no pixel for 'z9'"):
        m.pixels_of("z9")


# ---------------------------------------------------------------------------- arbiter leds map
def test_leds_map_writes_a_starter_map_that_leds_test_accepts(tmp_path):
    out = tmp_path / "board.json"
    runner = CliRunner()
    result = runner.invoke(leds, ["map", "nine-mens-morris", "--out", str(out), "--wiring", "matrix"])
    assert result.exit_code == 0, result.output
    assert "24 spots on 52 pixels" in result.output and "A at full white" in result.output
    assert LayoutMap.load(out).wiring == "matrix"
    check = runner.invoke(leds, ["test", "nine-mens-morris", "--map", str(out), "--backend", "terminal"])
    assert check.exit_code == 0, check.output
    again = runner.invoke(leds, ["map", "nine-mens-morris", "--out", str(out)])
    assert again.exit_code == 2 and "--force" in again.output


@pytest.mark.parametrize("args, check", [
    (["--wiring", "rings", "--ring-size", "12"], lambda m: m.points["a7"] == tuple(range(12))),
    (["--leds-per-unit", "2", "--start", "bottom-left"], lambda m: m.points["a1"] == (0,) and m.name_of(1) is None),
    (["--no-status", "--pixel-order", "RGB"], lambda m: m.status == {} and m.pixel_order == "RGB"),
    (["--wiring", "matrix", "--matrix", "8x8"], lambda m: m.status["turn"] == (64,)),
])
def test_leds_map_options_shape_the_map(tmp_path, args, check):
    out = tmp_path / "m.json"
    result = CliRunner().invoke(leds, ["map", "morris9", "--out", str(out)] + args)
    assert result.exit_code == 0, result.output
    assert check(LayoutMap.load(out))


@pytest.mark.parametrize("args, message", [
    (["map", "chess", "--out", "x.json"], "neither a game nor a board"),
    (["map", "morris9", "--out", "x.json", "--wiring", "matrix", "--matrix", "3x3"], "use a larger one"),
    (["map", "morris9", "--out", "x.json", "--wiring", "matrix", "--matrix", "big"], "WIDTHxHEIGHT"),
])
def test_leds_map_errors_are_one_line_with_status_2(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(leds, args)
    assert result.exit_code == 2
    assert message in result.output


def test_leds_is_a_command_of_arbiter(tmp_path):
    from arbiter.cli import main

    result = CliRunner().invoke(main, ["leds", "map", "three", "--out", str(tmp_path / "m.json")])
    assert result.exit_code == 0, result.output
