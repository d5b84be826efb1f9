"""The Pico's firmware (firmware_bridge/firmware/main.py), run on the host with a fake ``machine``.

The fake chip has a reed-switch matrix or hall sensors behind multiplexers wired to its pins,
NeoPixels and a watchdog; the firmware's real code scans them and talks through a real pty to
the real host driver (``SensorLink`` over pyserial). Time is the fake chip's own clock.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
import tty
import types
from types import SimpleNamespace

import pytest

from firmware_bridge import wire
from firmware_bridge.host import SensorLink


# ============================================================================ the fake chip
class Chip:
    """Pins, ADC, watchdog and NeoPixels of one fake Pico, with the sensors wired to them."""

    def __init__(self):
        self.levels: dict[int, int] = {}  # output pins' levels
        self.closed: set[tuple[int, int]] = set()  # (row pin, col pin) switches closed
        self.hall: dict[tuple[int, int], int] = {}  # (row, col) -> ADC reading; others read mid
        self.select_pins: list[int] = []
        self.mux_pins: list[int] = []
        self.mid = 20000
        self.feeds = 0
        self.watchdog_ms = None
        self.cause = 1
        self.pixels: list[tuple[int, int, int]] = []
        self.writes = 0

    def bits(self, pins) -> int:
        return sum(self.levels.get(p, 0) << k for k, p in enumerate(pins))

    def module(self) -> types.ModuleType:
        chip = self
        m = types.ModuleType("machine")

        class Pin:
            OUT, IN, PULL_UP = 1, 0, 2

            def __init__(self, n, mode=0, pull=None, value=None):
                self.n, self.mode = n, mode
                if value is not None:
                    chip.levels[n] = value

            def value(self, v=None):
                if v is not None:
                    chip.levels[self.n] = v
                    return None
                if self.mode == Pin.OUT:
                    return chip.levels.get(self.n, 0)
                # an input column: low if a driven-low row closes a switch onto it
                return 0 if any(chip.levels.get(r) == 0 and c == self.n for r, c in chip.closed) else 1

        class ADC:
            def __init__(self, pin):
                self.pin = pin

            def read_u16(self):
                return chip.hall.get((chip.bits(chip.select_pins), chip.bits(chip.mux_pins)), chip.mid)

        class WDT:
            def __init__(self, timeout):
                chip.watchdog_ms = timeout

            def feed(self):
                chip.feeds += 1

        m.Pin, m.ADC, m.WDT = Pin, ADC, WDT
        m.WDT_RESET, m.PWRON_RESET = 3, 1
        m.reset_cause = lambda: chip.cause
        return m

    def neopixel_module(self) -> types.ModuleType:
        chip = self
        m = types.ModuleType("neopixel")

        class NeoPixel:
            def __init__(self, pin, n):
                chip.pixels = [(0, 0, 0)] * n

            def __setitem__(self, i, c):
                chip.pixels[i] = c

            def write(self):
                chip.writes += 1

        m.NeoPixel = NeoPixel
        return m


class Clock:
    """MicroPython's ticks on a clock that moves only when the firmware sleeps (or the test says)."""

    def __init__(self):
        self.us = 0

    def ticks_ms(self):
        return (self.us // 1000) & ((1 << 30) - 1)

    def ticks_us(self):
        return self.us

    @staticmethod
    def ticks_diff(a, b):
        return ((a - b + (1 << 29)) & ((1 << 30) - 1)) - (1 << 29)

    @staticmethod
    def ticks_add(a, d):
        return (a + d) & ((1 << 30) - 1)

    def sleep_ms(self, n):
        self.us += n * 1000

    def sleep_us(self, n):
        self.us += n


class PtyLink:
    """The Pico's USB port, as the master side of a pty (the host opens the other side)."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.port = os.ttyname(self.slave)

    def read(self):
        try:
            return os.read(self.master, 512)
        except (BlockingIOError, OSError):
            return b""

    def write(self, data):
        os.write(self.master, data)

    def close(self):
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def chip(monkeypatch):
    c = Chip()
    monkeypatch.setitem(sys.modules, "machine", c.module())
    monkeypatch.setitem(sys.modules, "neopixel", c.neopixel_module())
    sys.modules.pop("firmware_bridge.firmware.main", None)
    yield c
    sys.modules.pop("firmware_bridge.firmware.main", None)


def config(**kw):
    from firmware_bridge.firmware import config as defaults

    values = {k: getattr(defaults, k) for k in dir(defaults) if k.isupper()}
    values.update(kw)
    return SimpleNamespace(**values)


class Bench:
    """The firmware on the fake chip, and the host driver on the other end of the pty."""

    def __init__(self, chip, cfg):
        self.main = importlib.import_module("firmware_bridge.firmware.main")
        self.chip = chip
        self.clock = Clock()
        self.link = PtyLink()
        self.fw = self.main.Firmware(cfg, link=self.link, clock=self.clock)
        self.fw.start()
        self.host = SensorLink(self.link.port, now=lambda: self.clock.us / 1e6)
        self.host._connect(raise_errors=True)

    def run(self, ms: float) -> None:
        """Let ``ms`` of chip time pass, the host reading (and answering) as it goes."""
        end = self.clock.us + ms * 1000
        while self.clock.us < end:
            self.fw.step()
            self.host.poll(0)
        deadline = time.monotonic() + 1.0  # bytes still in the pty reach the host
        while time.monotonic() < deadline:
            got = self.host.poll(0.02)
            self.fw.step()
            if not got and self.host.ready:
                break

    def close(self):
        self.host.close()
        self.link.close()


def test_the_firmware_scans_its_reed_matrix_and_the_host_reads_every_cell(chip):
    cfg = config()
    bench = Bench(chip, cfg)
    try:
        bench.run(60)
        assert bench.host.ready and bench.host.info.firmware == bench.main.FIRMWARE
        assert (bench.host.info.rows, bench.host.info.cols, bench.host.info.sensing) == (7, 7, "occupancy")
        assert bench.host.cells == [0] * 49
        # a magnet over the point on row 6 (a1's row line), column 0, and one on row 0, column 3
        chip.closed |= {(cfg.ROW_PINS[6], cfg.COL_PINS[0]), (cfg.ROW_PINS[0], cfg.COL_PINS[3])}
        bench.run(30)
        want = [0] * 49
        want[42] = want[3] = wire.NORTH
        assert bench.host.cells == want
        chip.closed.clear()
        bench.run(60)
        assert bench.host.cells == [0] * 49
        assert chip.feeds >= 14 and chip.watchdog_ms == cfg.WATCHDOG_MS  # fed on every scan
        assert bench.host.stats["lost"] == 0 and bench.host.decoder.errors() == 0
    finally:
        bench.close()


def test_the_hosts_led_frames_light_the_boards_neopixels(chip):
    bench = Bench(chip, config(LED_COUNT=5))
    try:
        bench.run(20)
        bench.host.show([(255, 0, 0), (0, 255, 0), (0, 0, 255), (10, 20, 30), (0, 0, 0)])
        bench.run(20)
        assert chip.pixels[:4] == [(255, 0, 0), (0, 255, 0), (0, 0, 255), (10, 20, 30)]
        bench.host.set_brightness(0.5)
        bench.run(20)
        assert chip.pixels[0] == (128, 0, 0)
        assert not bench.host._led_pending, "every LED frame was acknowledged"
    finally:
        bench.close()


def test_hall_sensors_behind_multiplexers_tell_the_two_polarities_apart(chip):
    cfg = config(SCANNER="hall-mux", SENSING="polarity", ROWS=3, COLS=3)
    chip.select_pins, chip.mux_pins = cfg.ROW_SELECT_PINS, cfg.MUX_PINS
    chip.hall = {(0, 0): 30000, (2, 1): 9000, (1, 2): 100}  # north, south, a broken wire
    bench = Bench(chip, cfg)
    try:
        bench.run(30)
        assert bench.host.info.sensing == "polarity"
        assert bench.host.cells == [wire.NORTH, 0, 0, 0, 0, wire.FAULT, 0, wire.SOUTH, 0]
    finally:
        bench.close()


def test_after_a_watchdog_restart_the_host_hears_why(chip):
    chip.cause = 3  # machine.WDT_RESET
    bench = Bench(chip, config())
    try:
        bench.run(30)
        assert bench.host.stats["watchdog_restarts"] == 1  # the HELLO says so, even if its ERROR was missed
        assert "watchdog" in bench.host.last_errors[-1]
    finally:
        bench.close()


def test_a_matrix_config_that_does_not_match_its_pins_is_refused(chip):
    main = importlib.import_module("firmware_bridge.firmware.main")
    with pytest.raises(ValueError, match="ROW_PINS and COL_PINS"):
        main.make_scanner(config(ROWS=8), Clock())


def test_holding_bootsel_stops_the_firmware_so_mpremote_can_reach_the_prompt(chip, monkeypatch):
    rp2 = types.ModuleType("rp2")
    rp2.bootsel_button = lambda: 1
    monkeypatch.setitem(sys.modules, "rp2", rp2)
    bench = Bench(chip, config())
    try:
        with pytest.raises(SystemExit, match="BOOTSEL"):
            bench.run(1000)
    finally:
        bench.close()
