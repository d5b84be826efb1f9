"""Sensor maps: one shipped for every board, checked on load with errors that say what to do."""

from __future__ import annotations

import json

import pytest

import engine
from engine.boards import board_names
from engine.observation import spots_of
from firmware_bridge.maps import SensorMapError, default_map, load_map, shipped_map


@pytest.mark.parametrize("name", engine.names())
def test_every_game_has_a_map_for_its_board_with_a_cell_under_every_spot(name):
    g = engine.load(name)
    m = shipped_map(g.board.name)
    assert set(spots_of(g)) <= set(m.cells)
    assert len(set(m.cells.values())) == len(m.cells) and max(m.cells.values()) < m.count


@pytest.mark.parametrize("name", board_names())
def test_the_shipped_maps_are_what_the_generator_writes(name):
    assert shipped_map(name) == default_map(name)


def test_a_lines_and_points_board_is_wired_by_its_own_rows_and_columns():
    m = shipped_map("morris9")
    assert (m.rows, m.cols) == (7, 7)
    assert m.cells["a7"] == 0 and m.cells["g7"] == 6 and m.cells["a1"] == 42 and m.cells["d5"] == 2 * 7 + 3
    bh = shipped_map("brain-hanky-6")
    assert bh.cols == 16 and bh.rows * 16 >= len(bh.cells) > (bh.rows - 1) * 16


def _write(tmp_path, data) -> str:
    p = tmp_path / "map.json"
    p.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(p)


def test_a_map_file_round_trips_and_bad_ones_say_what_is_wrong(tmp_path):
    good = shipped_map("three").to_json()
    assert load_map(_write(tmp_path, good), "three") == shipped_map("three")
    cases = [
        ("{not json", "is not JSON"),
        ({**good, "format": "x"}, "is not a sensor map"),
        ({**good, "version": 9}, "version 9"),
        ({**good, "board": "morris9"}, "for the morris9 board, but this game is played on three"),
        ({**good, "rows": 4}, "the grid has 3 rows"),
        ({**good, "grid": [["a7", "d7", "g7"], ["a4", "d4"], ["a1", "d1", "g1"]]}, "grid row 1 has 2 cells"),
        ({**good, "grid": [["a7", "d7", "g7"], ["a4", "d4", "a7"], ["a1", "d1", "g1"]]}, "a7 is under two cells"),
        ({**good, "grid": [["a7", "d7", "g7"], ["a4", "d4", "z9"], ["a1", "d1", "g1"]]}, "no spot 'z9'"),
        ({**good, "grid": [["a7", "d7", "g7"], ["a4", "d4", None], ["a1", "d1", "g1"]]}, "no cell for g4"),
    ]
    for data, message in cases:
        with pytest.raises(SensorMapError, match=message):
            load_map(_write(tmp_path, data), "three")
    with pytest.raises(SensorMapError, match="cannot read"):
        load_map(str(tmp_path / "missing.json"), "three")


def test_a_device_with_another_matrix_is_refused_with_what_to_flash():
    with pytest.raises(SensorMapError, match="7x7 matrix.*3x3.*arbiter sensor-firmware three"):
        shipped_map("three").check_device(7, 7)
