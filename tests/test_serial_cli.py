"""The sensor board's commands as a user runs them: ``arbiter play --reader serial``,
``sensor-sim``, ``sensor-monitor`` and ``sensor-firmware``.

The first test is a real-time one, two processes as on a bench: ``arbiter sensor-sim`` plays a
record on a virtual board, ``arbiter play`` referees it through the pty. It waits generously
and asserts nothing about time.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import engine
from arbiter.cli import main
from arbiter.cli.sensor import Monitor
from arbiter.journal import load_journal
from arbiter.sim.physical import PhysicalBoard
from arbiter.sim.sensor import SensorRig
from arbiter.session import SimClock
from engine.core import Piece

ROOT = Path(__file__).resolve().parent.parent
TAPATAN_WIN = ["a1", "d1", "a4", "d4", "a7"]


def _env(tmp_path) -> dict:
    env = dict(os.environ, ARBITER_JOURNAL_DIR=str(tmp_path / "journals"), PYTHONPATH=str(ROOT))
    env.pop("COLUMNS", None)
    return env


def test_sensor_sim_plays_a_record_and_arbiter_play_referees_it_over_the_pty(tmp_path):
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"game": "tapatan", "options": {}, "steps": TAPATAN_WIN}))
    sim = subprocess.Popen([sys.executable, "-m", "arbiter.cli", "sensor-sim", "tapatan", "--script", str(record),
                            "--every", "0.6", "--seconds", "60"], cwd=ROOT, env=_env(tmp_path),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        port = None
        for line in sim.stdout:
            m = re.search(r"on port: (\S+)", line)
            if m:
                port = m.group(1)
                break
        assert port and os.path.exists(port)
        play = subprocess.run([sys.executable, "-m", "arbiter.cli", "play", "tapatan", "--reader", "serial",
                               "--port", port, "--buttons", "none"], cwd=ROOT, env=_env(tmp_path),
                              capture_output=True, text=True, timeout=120)
        assert play.returncode == 0, play.stdout + play.stderr
        assert "Game over: player 1 wins" in play.stdout
        assert "Sensor board on" in play.stdout and "3x3 occupancy grid" in play.stdout
        journal = next((tmp_path / "journals").glob("*.jsonl"))
        assert load_journal(journal).steps == TAPATAN_WIN
        assert json.loads(journal.read_text().splitlines()[0]).get("reader") == "occupancy"
    finally:
        sim.terminate()
        sim.wait(timeout=10)


@pytest.fixture
def board():
    """A virtual tapatan board running in real time on its own thread."""
    rig = SensorRig(PhysicalBoard(engine.load("tapatan")), led_count=12)
    rig.start()
    yield rig
    rig.stop()


def test_play_refuses_a_board_that_speaks_another_protocol_version_and_starts_no_game(tmp_path, monkeypatch):
    rig = SensorRig(PhysicalBoard(engine.load("tapatan")), protocol_version=3)
    port = rig.start()
    try:
        monkeypatch.setenv("ARBITER_JOURNAL_DIR", str(tmp_path))
        r = CliRunner().invoke(main, ["play", "tapatan", "--reader", "serial", "--port", port, "--buttons", "none"])
        assert r.exit_code == 2
        assert "protocol version 3" in r.output and "arbiter sensor-firmware" in r.output
        assert not list(tmp_path.glob("*.jsonl")), "a refused start leaves no game behind"
    finally:
        rig.stop()


def test_play_serial_options_are_checked_before_anything_starts(tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_JOURNAL_DIR", str(tmp_path))
    r = CliRunner().invoke(main, ["play", "tapatan", "--port", "/dev/ttyACM0"])
    assert r.exit_code == 2 and "add --reader serial" in r.output
    r = CliRunner().invoke(main, ["play", "tapatan", "--reader", "serial", "--port", "/nonexistent/tty"])
    assert r.exit_code == 2 and "cannot open /nonexistent/tty" in r.output
    r = CliRunner().invoke(main, ["play", "tapatan", "--reader", "serial", "--script", "x.json"])
    assert r.exit_code == 2 and "--script is for the simulated players" in r.output


def test_play_refuses_a_board_whose_matrix_is_not_the_maps(board, tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_JOURNAL_DIR", str(tmp_path))
    r = CliRunner().invoke(main, ["play", "nine-mens-morris", "--reader", "serial", "--port", board.port,
                                  "--buttons", "none"])
    assert r.exit_code == 2 and "3x3 matrix" in r.output and "morris9 is 7x7" in r.output


def test_sensor_monitor_shows_the_cells_and_the_counters(board):
    board.board.put("a1", Piece(1, "man"))
    r = CliRunner().invoke(main, ["sensor-monitor", "--port", board.port, "--game", "tapatan", "--once"])
    assert r.exit_code == 0, r.output
    assert "3x3 occupancy grid, 12 LEDs" in r.output and "frames/s" in r.output and "lost 0" in r.output
    assert "●" in r.output


def test_sensor_monitor_test_lists_the_sensors_never_closed(board):
    r = CliRunner().invoke(main, ["sensor-monitor", "--port", board.port, "--game", "tapatan", "--test",
                                  "--seconds", "0.3"])
    assert r.exit_code == 1
    assert "9 sensors never closed" in r.output and "a1 (row 2 column 0)" in r.output


def test_the_test_mode_finds_a_dead_and_a_stuck_sensor():
    clock = SimClock()
    rig = SensorRig(PhysicalBoard(engine.load("tapatan"), {"d4": Piece(1, "man")}), clock=clock)
    try:
        rig.open()
        mon = Monitor(rig.link, rig.map)
        for spot in ("a1", "d1", "g1", "a4", "g4", "a7", "d7"):  # every point but g7 (dead) and d4 (stuck)
            rig.board.put(spot, Piece(1, "man"))
            for _ in range(5):
                clock.advance(0.02)
                rig.sync()
                mon.update()
            rig.board.take(spot)
            for _ in range(5):
                clock.advance(0.02)
                rig.sync()
                mon.update()
        f = mon.findings()
        assert f["dead"] == ["g7 (row 0 column 2)"] and f["stuck"] == ["d4 (row 1 column 1)"]
        assert f["chattering"] == [] and f["faulty"] == []
    finally:
        rig.stop()


def test_sensor_firmware_writes_what_the_pico_needs(tmp_path):
    r = CliRunner().invoke(main, ["sensor-firmware", "nine-mens-morris", "--out", str(tmp_path / "pico")])
    assert r.exit_code == 0, r.output
    files = sorted(p.name for p in (tmp_path / "pico").iterdir())
    assert files == ["config.py", "debounce.py", "device.py", "main.py", "sensor-map-morris9.json", "wire.py"]
    cfg: dict = {}
    exec((tmp_path / "pico" / "config.py").read_text(), cfg)
    assert (cfg["ROWS"], cfg["COLS"], cfg["SCANNER"], cfg["SENSING"]) == (7, 7, "matrix", "occupancy")
    assert len(cfg["ROW_PINS"]) == 7 and len(set(cfg["ROW_PINS"] + cfg["COL_PINS"])) == 14
    assert cfg["LED_PIN"] not in cfg["ROW_PINS"] + cfg["COL_PINS"]
    r = CliRunner().invoke(main, ["sensor-firmware", "brain-hanky", "--out", str(tmp_path / "bh")])
    cfg = {}
    exec((tmp_path / "bh" / "config.py").read_text(), cfg)
    assert (cfg["SCANNER"], cfg["SENSING"], cfg["COLS"]) == ("hall-mux", "polarity", 16)
    r = CliRunner().invoke(main, ["sensor-firmware", "brain-hanky", "--sensing", "occupancy", "--out",
                                  str(tmp_path / "bh2")])
    assert r.exit_code == 2 and "use hall sensors through multiplexers" in r.output
    r = CliRunner().invoke(main, ["sensor-firmware", "nine-mens-morris", "--out", str(tmp_path / "pico")])
    assert r.exit_code == 2 and "--force" in r.output


def test_sensor_monitor_shows_cells_the_board_does_not_have_and_a_noisy_line():
    clock = SimClock()
    rig = SensorRig(PhysicalBoard(engine.load("tapatan")), clock=clock, seed=5)
    try:
        rig.open()
        mon = Monitor(rig.link, rig.map)
        rig.device.report_cells([(999, 1), (65535, 1)])
        clock.advance(0.05)
        rig.sync()
        rig.device.bit_errors = 0.12  # the line goes bad after the handshake
        for _ in range(150):  # 3 s: enough frames to judge it
            clock.advance(0.02)
            rig.sync()
            mon.update()
        text = mon.status()
        assert "cells the board does not have 2 (999, 65535)" in text
        assert "line: about" in text and "of bytes spoilt" in text
        assert "Warning: the line to the sensor board is too noisy" in text and "cable" in text
        assert "reported cells it does not have (999, 65535" in text
    finally:
        rig.stop()


def test_sensor_sim_typed_commands_break_and_mend_a_board():
    from arbiter.cli.sensor import _do

    clock = SimClock()
    rig = SensorRig(PhysicalBoard(engine.load("tapatan")), clock=clock)
    try:
        rig.open()
        assert "reading a fault: 1" in _do(rig, ["fault", "a1"]) and rig.faults == {rig.map.cells["a1"]}
        assert "reading a fault: 0" in _do(rig, ["mend", "a1"]) and not rig.faults
        assert "not a point" in _do(rig, ["fault", "z9"])
        assert "10.0% of bytes" in _do(rig, ["noise", "0.1"]) and rig.device.bit_errors == 0.1
        assert "from 0 to 0.5" in _do(rig, ["noise", "2"])
        assert "999" in _do(rig, ["ghost", "999"])
        clock.advance(0.05)
        rig.sync()
        assert rig.link.stats["bad_cells"] == 1 and rig.link.bad_cells == [999]
        assert "fault SPOT" in _do(rig, ["help"])
    finally:
        rig.stop()


def test_sensor_sim_takes_a_seed():
    r = CliRunner().invoke(main, ["sensor-sim", "tapatan", "--seed", "7", "--seconds", "0.1", "--bit-errors", "0.05"])
    assert r.exit_code == 0, r.output
    assert "seed 7" in r.output and "bytes spoilt" in r.output
    assert "--seed" in CliRunner().invoke(main, ["sensor-sim", "--help"]).output


def test_the_same_seed_spoils_the_same_bytes():
    def run(seed: int) -> tuple[int, int]:
        clock = SimClock()
        rig = SensorRig(PhysicalBoard(engine.load("tapatan")), clock=clock, bit_errors=0.05, seed=seed)
        try:
            rig.open()
            for _ in range(50):
                clock.advance(0.02)
                rig.sync()
            return rig.device.stats["corrupted"], rig.link.decoder.errors()
        finally:
            rig.stop()

    assert run(3) == run(3) != run(4)
