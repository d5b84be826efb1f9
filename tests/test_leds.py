"""Pixel backends: memory, terminal, png, and the real NeoPixel libraries driven through fakes.

The NeoPixel tests put fake ``board``, ``digitalio`` and ``neopixel_write`` modules (the
hardware edge Blinka would provide on a Pi) into ``sys.modules``; the real
adafruit-circuitpython-neopixel, neopixel-spi, pixelbuf and bus-device code runs on top of them,
so the bytes checked here are the bytes a strip would receive.
"""

from __future__ import annotations

import importlib
import re
import sys
import types

import pytest
from click.testing import CliRunner
from PIL import Image
from rich.console import Console

from arbiter.cli.leds import leds
from hardware.layout import default_map, ring_map, spots_for
from hardware.leds import (LedError, MemoryPixels, default_backend, open_pixels, raspberry_pi_model)
from hardware.neopixels import normalise_pin
from hardware.picture import BoardPicture
from hardware.power import Power

RED, GREEN, BLUE, WHITE, OFF = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0)
THREE = default_map("three")  # 9 points + 3 status pixels


# ---------------------------------------------------------------------------- the interface
def test_memory_backend_records_each_shown_frame_and_caption():
    px = open_pixels("memory", THREE)
    px[0] = RED
    px[1] = 0x00FF00
    px.show(caption="first")
    px.fill(BLUE)
    px.show()
    assert px.frames[0][:3] == (RED, GREEN, OFF)
    assert px.frames[1] == (BLUE,) * THREE.count
    assert px.captions == ["first", None]


def test_set_frame_needs_one_colour_per_pixel():
    px = MemoryPixels(3)
    px.set_frame([RED, GREEN, BLUE])
    assert px.show() == [RED, GREEN, BLUE]
    with pytest.raises(ValueError, match="3 colours, not 2"):
        px.set_frame([RED, GREEN])


@pytest.mark.parametrize("bad", [(256, 0, 0), (1, 2), "red", (1.0, 0, 0), -1, True])
def test_a_bad_colour_is_refused(bad):
    px = MemoryPixels(2)
    with pytest.raises(ValueError, match="pixel colour"):
        px[0] = bad


def test_an_index_past_the_strip_is_refused():
    with pytest.raises(IndexError, match="past the end of a 2-pixel strip"):
        MemoryPixels(2)[5] = RED


def test_close_turns_every_pixel_off_and_later_shows_are_refused():
    px = MemoryPixels(2)
    px.fill(WHITE)
    px.show()
    px.close()
    assert px.frames[-1] == (OFF, OFF)
    px.close()  # twice is harmless
    with pytest.raises(LedError, match="closed"):
        px.show()


def test_brightness_scales_what_is_sent_and_never_passes_the_cap():
    px = MemoryPixels(1, power=Power(brightness=0.5, max_brightness=0.6))
    px[0] = (200, 100, 50)
    assert px.show() == [(100, 50, 25)]
    assert px[0] == (200, 100, 50)  # the buffer keeps the colour asked for
    px.brightness = 1.0
    assert px.brightness == 0.6
    assert px.show() == [(120, 60, 30)]


def test_open_pixels_names_the_backends_it_knows():
    with pytest.raises(LedError, match="one of neopixel, neopixel-spi, terminal, png, memory"):
        open_pixels("dotstar", THREE)


def test_raspberry_pi_is_recognised_by_its_device_tree_model(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\x00")
    assert raspberry_pi_model(model) == "Raspberry Pi 4 Model B Rev 1.4"
    assert default_backend(model) == "neopixel"
    other = tmp_path / "other"
    other.write_bytes(b"Some Other Board\x00")
    assert raspberry_pi_model(other) is None
    assert default_backend(other) == "terminal"
    assert default_backend(tmp_path / "missing") == "terminal"


# ---------------------------------------------------------------------------- power budget
def test_a_full_white_pixel_is_estimated_at_60_milliamps():
    assert Power().estimate_amps([WHITE]) == pytest.approx(0.060)
    assert Power().estimate_amps([RED, OFF]) == pytest.approx(0.020)
    assert Power(idle_ma=1.0).estimate_amps([OFF] * 10) == pytest.approx(0.010)


def test_frames_over_the_current_limit_are_scaled_under_it_keeping_their_hue():
    layout = default_map("brain-hanky")  # 376 pixels: 22.6 A at full white
    power = Power(amp_limit=2.0)
    px = open_pixels("memory", layout, power=power)
    px.fill((255, 128, 0))
    sent = px.show()
    assert px.last_amps <= 2.0
    assert px.last_amps > 1.9  # scaled down, not switched off
    r, g, b = sent[0]
    assert b == 0 and g / r == pytest.approx(128 / 255, abs=0.02)


def test_a_frame_within_the_limit_is_sent_unchanged():
    px = MemoryPixels(3, power=Power(amp_limit=1.0))
    px.set_frame([RED, GREEN, BLUE])
    assert px.show() == [RED, GREEN, BLUE]


def test_idle_current_counts_against_the_limit():
    power = Power(amp_limit=0.5, idle_ma=1.0)
    frame = power.apply([WHITE] * 100)  # 6 A asked; 0.1 A goes to idle draw
    assert power.estimate_amps(frame) <= 0.5
    with pytest.raises(ValueError, match="positive"):
        Power(amp_limit=0)
    with pytest.raises(ValueError, match="cap"):
        Power(max_brightness=1.5)


# ---------------------------------------------------------------------------- terminal
def _console() -> Console:
    return Console(record=True, width=120, force_terminal=False, color_system="truecolor")


def test_terminal_backend_draws_the_board_with_the_lit_points_in_colour():
    console = _console()
    px = open_pixels("terminal", THREE, "three", console=console)
    px[THREE.points["a7"][0]] = RED
    px[THREE.status["turn"][0]] = WHITE
    px.show(caption="pixel 0: a7")
    text = console.export_text(styles=False, clear=False)
    ansi = console.export_text(styles=True)
    lines = text.splitlines()
    assert lines[0] == "pixel 0: a7"
    assert lines[1].startswith("●") and lines[1].count("·") == 2  # a7 lit, d7 and g7 dark
    assert "● turn" in text and "○ clock" in text and "○ error" in text
    assert "38;2;255;0;0m●" in ansi  # a7 in its LED colour


@pytest.mark.parametrize("target", ["brain-hanky", "brain-hanky-battle-lines", "nine-mens-morris"])
def test_terminal_grid_gives_every_spot_a_cell_of_its_own(target):
    spots = spots_for(target)
    px = open_pixels("terminal", default_map(spots), spots, console=_console())
    cells = px.board_text.cell
    assert len(set(cells.values())) == len(spots.names)


def test_terminal_marks_lit_gem_squares_with_a_diamond():
    layout = default_map("brain-hanky")
    console = _console()
    px = open_pixels("terminal", layout, "brain-hanky", console=console)
    px[layout.points["Oc3"][0]] = BLUE
    px.show()
    text = console.export_text(styles=False)
    assert text.count("◆") == 1 and "◇" in text


# ---------------------------------------------------------------------------- png
def _pixel_at(img: Image.Image, xy) -> tuple[int, int, int]:
    return img.getpixel((round(xy[0]), round(xy[1])))


def test_png_backend_draws_each_lit_pixel_where_its_point_is(tmp_path):
    out = tmp_path / "frame.png"
    px = open_pixels("png", THREE, "three", out=out)
    px[THREE.points["d4"][0]] = RED
    px.show(caption="d4 red")
    img = Image.open(out).convert("RGB")
    picture = px.picture
    r, g, b = _pixel_at(img, picture.xy(spots_for("three").coords["d4"]))
    assert r > 200 and g < 150 and b < 150
    dark = _pixel_at(img, picture.xy(spots_for("three").coords["a1"]))
    assert max(dark) < 80


def test_png_backend_writes_an_animated_gif_of_every_frame_on_close(tmp_path):
    out = tmp_path / "test.gif"
    with open_pixels("png", THREE, out=out, frame_ms=200) as px:
        for i in range(4):
            px.fill(OFF)
            px[i] = GREEN
            px.show()
    gif = Image.open(out)
    assert gif.n_frames == 4
    assert px.written == [str(out)]


def test_png_backend_writes_numbered_frames(tmp_path):
    px = open_pixels("png", THREE, out=str(tmp_path / "f{n:02}.png"))
    px.show()
    px.show()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f01.png", "f02.png"]


def test_png_backend_refuses_an_unknown_file_kind(tmp_path):
    with pytest.raises(LedError, match="FILE.png, FILE.gif"):
        open_pixels("png", THREE, out=tmp_path / "x.jpg")


def test_status_pixels_and_gems_are_drawn_on_brain_hanky():
    spots = spots_for("brain-hanky")
    layout = default_map(spots)
    picture = BoardPicture(layout, spots)
    frame = [OFF] * layout.count
    frame[layout.points["Oc3"][0]] = BLUE
    frame[layout.status["error"][0]] = RED
    img = picture.draw(frame)
    assert _pixel_at(img, picture.xy(spots.coords["Oc3"]))[2] > 200
    assert _pixel_at(img, picture.status_xy("error"))[0] > 200


# ---------------------------------------------------------------------------- NeoPixel (real library)
class FakePin:
    def __init__(self, number: int) -> None:
        self.id = number


class FakeSPI:
    """What adafruit_bus_device asks of a busio.SPI: lock, configure, write."""

    def __init__(self) -> None:
        self.frequency = 6_400_000
        self.writes: list[bytes] = []

    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None:
        pass

    def configure(self, baudrate=100000, polarity=0, phase=0, bits=8) -> None:
        self.frequency = baudrate

    def write(self, buf, start=0, end=None) -> None:
        self.writes.append(bytes(buf[start:end]))


@pytest.fixture
def fake_pi(monkeypatch):
    """A Raspberry Pi's Blinka modules, down to the wire: every buffer sent is recorded."""
    sent: list[tuple[int, bytes]] = []
    spi = FakeSPI()
    board = types.ModuleType("board")
    for n in (10, 12, 18, 21, 5):
        setattr(board, f"D{n}", FakePin(n))
    board.SPI = lambda: spi
    digitalio = types.ModuleType("digitalio")

    class Direction:
        OUTPUT, INPUT = "output", "input"

    class DigitalInOut:
        def __init__(self, pin):
            self._pin = pin
            self.direction = None
            self.released = False

        def deinit(self):
            self.released = True

    digitalio.Direction, digitalio.DigitalInOut = Direction, DigitalInOut
    neopixel_write = types.ModuleType("neopixel_write")
    neopixel_write.failure = None

    def write(gpio, buf):
        if neopixel_write.failure:
            raise RuntimeError(neopixel_write.failure)
        sent.append((gpio._pin.id, bytes(buf)))

    neopixel_write.neopixel_write = write
    for name, mod in (("board", board), ("digitalio", digitalio), ("neopixel_write", neopixel_write)):
        monkeypatch.setitem(sys.modules, name, mod)
    fresh = ("neopixel", "neopixel_spi")  # imported anew, bound to the fakes above, and forgotten after
    for name in fresh:
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield types.SimpleNamespace(sent=sent, spi=spi, writer=neopixel_write)
    for name in fresh:
        sys.modules.pop(name, None)


def test_neopixel_backend_sends_grb_bytes_through_the_real_library(fake_pi):
    px = open_pixels("neopixel", THREE, power=Power(brightness=0.5))
    px[0] = (200, 100, 50)
    px[1] = BLUE
    px.show()
    pin, buf = fake_pi.sent[-1]
    assert pin == 18
    assert len(buf) == 3 * THREE.count
    assert buf[:6] == bytes([50, 100, 25, 0, 0, 127])  # G R B, at half brightness
    assert importlib.import_module("neopixel").__file__.endswith("neopixel.py")


def test_neopixel_backend_takes_another_pin_and_pixel_order(fake_pi):
    layout = default_map("three")
    layout = type(layout)(layout.board, layout.count, layout.points, layout.status, layout.wiring, "RGB")
    px = open_pixels("neopixel", layout, pin="GPIO21")
    px[0] = (1, 2, 3)
    px.show()
    pin, buf = fake_pi.sent[-1]
    assert pin == 21 and buf[:3] == bytes([1, 2, 3])


def test_neopixel_backend_drives_rgbw_pixels_with_white_off(fake_pi):
    layout = default_map("three")
    layout = type(layout)(layout.board, layout.count, layout.points, layout.status, layout.wiring, "GRBW")
    px = open_pixels("neopixel", layout)
    px[0] = (10, 20, 30)
    px.show()
    assert fake_pi.sent[-1][1][:4] == bytes([20, 10, 30, 0])


def test_neopixel_close_darkens_the_strip_and_releases_the_pin(fake_pi):
    px = open_pixels("neopixel", THREE)
    px.fill(WHITE)
    px.show()
    px.close()
    assert fake_pi.sent[-1][1] == bytes(3 * THREE.count)
    assert px._strip.pin.released


@pytest.mark.parametrize("pin, name", [("D18", "D18"), (18, "D18"), ("gpio12", "D12"), ("BCM21", "D21"),
                                       ("10", "D10")])
def test_neopixel_pins_are_named_any_usual_way(pin, name):
    assert normalise_pin(pin) == name


@pytest.mark.parametrize("pin", ["D5", "D17", "A0", "x"])
def test_a_pin_that_cannot_drive_neopixels_is_refused_with_the_ones_that_can(pin):
    with pytest.raises(LedError, match="use D18 .* D12, D21 or D10") as info:
        normalise_pin(pin)
    assert "neopixel-spi" in str(info.value)


def test_the_gpio_driver_needing_root_says_sudo_or_spi(fake_pi):
    fake_pi.writer.failure = "NeoPixel support requires running with sudo, please try again!"
    px = open_pixels("neopixel", THREE)
    with pytest.raises(LedError, match="needs root: run with sudo, or use --leds neopixel-spi"):
        px.show()


def test_neopixel_spi_backend_sends_each_bit_as_an_spi_byte(fake_pi):
    px = open_pixels("neopixel-spi", THREE)
    px[0] = (0x80, 0x01, 0xFF)
    px.show()
    data = fake_pi.spi.writes[-1]
    bits = [b for b in data if b]  # the reset bytes around the frame are zeros
    assert len(bits) == 8 * 3 * THREE.count
    decoded = []
    for k in range(3):
        byte = 0
        for b in bits[8 * k:8 * k + 8]:
            assert b in (0b11000000, 0b11110000)
            byte = byte << 1 | (b == 0b11110000)
        decoded.append(byte)
    assert decoded == [0x01, 0x80, 0xFF]  # G R B


def test_a_missing_neopixel_library_says_what_to_install(fake_pi, monkeypatch):
    monkeypatch.setitem(sys.modules, "neopixel", None)
    with pytest.raises(LedError, match=r"needs adafruit-circuitpython-neopixel: pip install 'arbiter\[pi\]'"):
        open_pixels("neopixel", THREE)
    monkeypatch.setitem(sys.modules, "neopixel_spi", None)
    with pytest.raises(LedError, match="adafruit-circuitpython-neopixel-spi"):
        open_pixels("neopixel-spi", THREE)


@pytest.mark.parametrize("backend", ["neopixel", "neopixel-spi"])
def test_a_computer_blinka_cannot_drive_leds_from_is_told_to_simulate(monkeypatch, backend):
    """Real Blinka, on this (non-Pi) machine: it knows it only as a generic computer."""
    if raspberry_pi_model():
        pytest.skip("this is a Raspberry Pi: Blinka supports it")
    for name in ("board", "neopixel", "neopixel_spi", "neopixel_write", "digitalio"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    for var in ("BLINKA_FORCEBOARD", "BLINKA_FORCECHIP", "BLINKA_OS_AGNOSTIC"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(LedError, match=r"is not a board Blinka can drive LEDs from.*--leds terminal"):
        open_pixels(backend, THREE)
    for name in ("board", "neopixel", "neopixel_spi"):
        sys.modules.pop(name, None)


def test_blinka_unable_to_write_neopixels_here_is_told_to_simulate(fake_pi, monkeypatch):
    """neopixel_write raises NotImplementedError on a board without a NeoPixel driver."""
    class Refusing(types.ModuleType):
        def __getattr__(self, name):
            raise NotImplementedError("Board not supported")

    monkeypatch.setitem(sys.modules, "neopixel_write", Refusing("neopixel_write"))
    with pytest.raises(LedError, match="not a board Blinka can drive"):
        open_pixels("neopixel", THREE)


# ---------------------------------------------------------------------------- arbiter leds test
def test_leds_test_lights_every_point_in_strip_order_with_its_name():
    result = CliRunner().invoke(leds, ["test", "three-mens-morris", "--backend", "terminal", "--delay", "0"])
    assert result.exit_code == 0, result.output
    captions = [ln for ln in result.output.splitlines() if ln.startswith("pixel ")]
    assert captions == [f"pixel {i}: {n}" for i, n in enumerate(
        ["a7", "d7", "g7", "g4", "d4", "a4", "a1", "d1", "g1",
         "status pixel turn", "status pixel clock", "status pixel error"])]


def test_leds_test_to_a_gif_has_one_frame_per_point(tmp_path):
    out = tmp_path / "leds.gif"
    result = CliRunner().invoke(leds, ["test", "three-mens-morris", "--backend", "png", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert Image.open(out).n_frames == 12
    assert "12. pixel 11: status pixel error" in result.output


def test_leds_test_with_rings_lights_a_whole_ring_at_a_time(tmp_path):
    path = tmp_path / "rings.json"
    ring_map("three", ring_size=12).save(path)
    result = CliRunner().invoke(leds, ["test", "three", "--map", str(path), "--backend", "png",
                                       "--out", str(tmp_path / "r.png")])
    assert result.exit_code == 0, result.output
    assert "1. pixels 0-11: a7" in result.output


def test_leds_test_step_mode_waits_for_enter_and_stops_on_q():
    result = CliRunner().invoke(leds, ["test", "three", "--backend", "terminal", "--step"], input="\n\nq\n")
    assert result.exit_code == 0, result.output
    assert re.findall(r"pixel \d+: \w+", result.output) == ["pixel 0: a7", "pixel 1: d7", "pixel 2: g7"]


def test_leds_test_without_hardware_fails_in_one_line():
    if raspberry_pi_model():
        pytest.skip("this is a Raspberry Pi")
    result = CliRunner().invoke(leds, ["test", "three", "--backend", "neopixel"])
    assert result.exit_code == 2
    assert "not a board Blinka can drive" in result.output


@pytest.mark.parametrize("args, message", [
    (["test", "no-such-game"], "neither a game nor a board"),
    (["test", "three", "--leds", "png"], "needs --leds-out"),
    (["test", "three", "--backend", "neopixel", "--pin", "D5"], "cannot be driven from pin D5"),
])
def test_leds_test_errors_are_one_line_with_status_2(args, message):
    result = CliRunner().invoke(leds, args)
    assert result.exit_code == 2
    assert message in result.output
