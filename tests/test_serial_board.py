"""A sensor board over serial, end to end: players act on the simulated board, the virtual
device under it scans it and speaks the protocol through a real pty, the real host driver reads
it with pyserial, and the referee judges what arrives.

Runs are in lockstep with the simulated clock (``arbiter.sim.sensor``): deterministic for a
seed, whatever the machine's load, and no assertion here depends on wall-clock time.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

import engine
from arbiter import referee as R
from arbiter.journal import Journal, load_journal
from arbiter.sim.physical import PhysicalBoard
from arbiter.sim.scenario import Player
from arbiter.sim.sensor import SensorRig, cells_of, serial_table
from arbiter.session import SimClock
from firmware_bridge.host import USB_IDS, NoDevice, ProtocolMismatch, SensorLink, find_port

ROOT = Path(__file__).resolve().parent.parent
DEMO = json.loads((ROOT / "arbiter" / "data" / "demo-nine-mens-morris.json").read_text())["steps"]


def played(table) -> list[str]:
    return [str(s) for s in table.session.history]


def journalled(tmp_path, game="nine-mens-morris"):
    return Journal.new(game, {}, directory=tmp_path, reader="occupancy")


class Watch:
    """Checks, at every reading, that the host's copy of the cells is the physical board's, and
    measures for how long (simulated time) it ever is not."""

    def __init__(self, table, rig):
        self.table, self.rig = table, rig
        self.wrong_since: float | None = None
        self.worst = 0.0
        self.reads = 0
        read = rig.reader.read

        def watched():
            obs = read()
            self.check()
            return obs

        rig.reader.read = watched
        table.session.reader = rig.reader

    def check(self) -> None:
        self.reads += 1
        t = self.table.time.t
        truth = cells_of(self.rig.board.position, self.rig.map, self.rig.sensing)
        if self.rig.link.ready and self.rig.link.cells == truth:
            self.wrong_since = None
            return
        if self.wrong_since is None:
            self.wrong_since = t
        self.worst = max(self.worst, t - self.wrong_since)


# ============================================================================ a whole game
def test_a_whole_game_arrives_through_the_pty_and_is_refereed_step_for_step(tmp_path):
    table, rig = serial_table("nine-mens-morris", journal=journalled(tmp_path))
    try:
        watch = Watch(table, rig)
        Player(table, DEMO).play()
        assert played(table) == DEMO
        assert load_journal(table.session.journal.path).steps == DEMO
        assert rig.link.stats["frames"] > 100 and rig.link.decoder.errors() == 0 and rig.link.stats["lost"] == 0
        # a clean line: the host's copy lags the board by one scan and the wire, no more
        assert watch.worst <= 0.021
    finally:
        rig.stop()


def test_every_game_the_grid_can_referee_is_read_step_for_step():
    for name in ("tapatan", "three-mens-morris", "six-mens-morris", "morabaraba"):
        g = engine.load(name)
        state, steps, rnd = g.new(), [], random.Random(5)
        while state.result is None and len(steps) < 14:
            step = rnd.choice(state.legal_steps())
            steps.append(str(step))
            state = state.play(step)
        table, rig = serial_table(g)
        try:
            Player(table, steps).play()
            assert played(table) == steps, name
        finally:
            rig.stop()


# ============================================================================ a bad line
def test_with_one_percent_bit_errors_and_dropped_bytes_the_board_is_right_within_one_full_scan_period(tmp_path):
    noise = {"bit_errors": 0.01, "drop_bytes": 0.01, "bounce_ms": 3.0, "seed": 11}
    table, rig = serial_table("nine-mens-morris", device=noise, journal=journalled(tmp_path))
    try:
        watch = Watch(table, rig)
        Player(table, DEMO).play()
        assert played(table) == DEMO
        link = rig.link
        assert rig.device.stats["corrupted"] > 20 and rig.device.stats["dropped"] > 20  # the noise was real
        assert link.decoder.errors() > 20 and link.stats["lost"] > 20 and link.stats["scan_requests"] > 20
        assert watch.worst <= rig.device.full_scan_ms / 1000 + table.frame_s, watch.worst
    finally:
        rig.stop()


def test_garbage_on_the_line_costs_one_frame_at_most():
    table, rig = serial_table("tapatan")
    try:
        table.wait(0.1)
        os.write(rig.device._master, bytes(random.Random(2).randbytes(300)).replace(b"\x00", b"\x01"))
        table.run("put a1 white")
        assert played(table) == ["a1"]
        assert rig.link.decoder.garbage >= 300 and rig.link.ready
    finally:
        rig.stop()


# ============================================================================ unplugging, restarts, versions
def test_unplugged_and_plugged_in_again_in_mid_game_nothing_is_lost(tmp_path):
    table, rig = serial_table("nine-mens-morris", journal=journalled(tmp_path))
    try:
        players = Player(table, DEMO)
        players.play(max_steps=10)
        rig.device.unplug()
        log = table.run("wait 1")
        assert any(a.kind == "unseen" and "unplugged" in a.message for a in log)
        assert rig.reader.read().occluded  # and read() did not raise
        players.turn()  # a step made while the board is unplugged ...
        table.wait(1.0)
        rig.device.plug(table.time.t)
        players.play()  # ... is seen when it is back, and the game goes on to the end
        assert played(table) == DEMO
        assert load_journal(table.session.journal.path).steps == DEMO
        assert rig.link.stats["reconnects"] >= 1
        assert any(a.kind == "seen" for a in table.session.log)
    finally:
        rig.stop()


def test_a_board_restarted_by_its_watchdog_is_told_its_leds_again_and_play_goes_on():
    from hardware.layout import load_map, spots_for

    count = load_map(None, spots_for("tapatan")).count
    table, rig = serial_table("tapatan", led_count=count, pixels="device")
    try:
        table.run("put a1 white")
        assert any(c != (0, 0, 0) for c in rig.device.leds), "the step shows on the board's own LEDs"
        rig.device.reset(table.time.t)
        assert all(c == (0, 0, 0) for c in rig.device.leds)
        table.run("wait 0.5")
        assert rig.link.stats["resets"] == 1 and rig.link.stats["watchdog_restarts"] == 1
        assert any(c != (0, 0, 0) for c in rig.device.leds), "the host sent the LEDs again"
        table.run("put d1 black")
        assert played(table) == ["a1", "d1"]
    finally:
        rig.stop()


def test_a_board_that_speaks_another_protocol_version_is_refused_with_what_to_flash():
    board = PhysicalBoard(engine.load("tapatan"))
    rig = SensorRig(board, clock=SimClock(), protocol_version=2)
    try:
        with pytest.raises(ProtocolMismatch) as err:
            rig.open()
        text = str(err.value)
        assert "protocol version 2" in text and "version 1" in text
        assert "arbiter sensor-firmware" in text and "mpremote" in text and "update arbiter" in text
    finally:
        rig.stop()


def test_a_different_board_plugged_in_is_refused():
    clock = SimClock()
    rig = SensorRig(PhysicalBoard(engine.load("tapatan")), clock=clock)
    try:
        rig.open()
        rig.device.unplug()
        rig.device.rows, rig.device.cols, rig.device.count = 1, 9, 9  # same cells, another matrix
        rig.device.plug(clock())
        for _ in range(100):
            clock.advance(0.02)
            obs = rig.reader.read()
        assert obs.occluded and "different sensor board" in obs.reason
    finally:
        rig.stop()


# ============================================================================ what polarity adds
def test_a_polarity_board_sees_a_piece_of_the_wrong_colour_and_an_occupancy_board_cannot():
    for sensing, verdict in (("polarity", R.ILLEGAL), ("occupancy", R.STEP)):
        table, rig = serial_table("tapatan", sensing=sensing)
        try:
            assert table.session.sees == sensing
            log = table.run("put a1 black")  # white's turn
            assert [a.verdict.kind for a in log if a.verdict is not None][-1] == verdict, sensing
        finally:
            rig.stop()


# ============================================================================ finding the board
class FakePort:
    def __init__(self, device, vid, pid, description):
        self.device, self.vid, self.pid, self.description = device, vid, pid, description


def test_the_board_is_found_by_its_usb_id(monkeypatch):
    from serial.tools import list_ports

    rig = SensorRig(PhysicalBoard(engine.load("tapatan")))
    try:
        port = rig.start()
        ports = [FakePort("/dev/ttyS0", None, None, "n/a"), FakePort(port, *USB_IDS[0], "Board in FS mode")]
        monkeypatch.setattr(list_ports, "comports", lambda: ports)
        assert find_port() == port
        link = SensorLink()  # no port given: found by USB id
        info = link.open()
        assert info.port == port and info.sensing == "occupancy" and (info.rows, info.cols) == (3, 3)
        link.close()
        monkeypatch.setattr(list_ports, "comports", lambda: ports[:1])
        with pytest.raises(NoDevice, match=r"no sensor board found on USB .*/dev/ttyS0"):
            SensorLink().open()
    finally:
        rig.stop()


def test_a_port_that_is_not_there_is_refused_with_what_to_do():
    with pytest.raises(NoDevice, match="cannot open /nonexistent/tty.*plugged in"):
        SensorLink("/nonexistent/tty").open()
