"""Real NeoPixels on a Raspberry Pi: a GPIO data pin (Blinka + neopixel) or SPI (neopixel_spi).

Imported only when a NeoPixel backend is chosen. Every way this can fail on a builder's Pi (the
library not installed, the machine not a board Blinka knows, a pin the PWM/PCM/SPI hardware
cannot drive, no root for the DMA driver, SPI switched off) becomes one ``LedError`` whose
message says what to install, which pin to use or which backend to pick instead.

Pins: the Pi 1-4 driver (rpi_ws281x, under Blinka) times the data line with the PWM, PCM or SPI
peripheral, which reach the header on GPIO 18 and 12 (PWM0), 21 (PCM) and 10 (SPI MOSI). It
needs root. On a Pi 5 Blinka drives the pin through the RP1's PIO instead (the
Adafruit-Blinka-Raspberry-Pi5-Neopixel library); the SPI backend works on every model without
root once SPI is enabled.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

from .pixels import LedError, Pixels
from .palette import RGB
from .power import Power

ALLOWED_PINS = ("D18", "D10", "D12", "D21")
INSTALL = "pip install 'arbiter[pi]'"
SPI_HINT = ("use --leds neopixel-spi instead (data on GPIO 10 / MOSI, no root; enable SPI with "
            "`sudo raspi-config nonint do_spi 0`)")


def normalise_pin(pin: str | int) -> str:
    """``18``, ``"18"``, ``"GPIO18"``, ``"d18"`` -> ``"D18"``; other pins are refused with the choices."""
    text = str(pin).strip().upper()
    m = re.fullmatch(r"(?:D|GPIO|BCM)?\s*(\d+)", text)
    name = f"D{int(m.group(1))}" if m else text
    if name not in ALLOWED_PINS:
        raise LedError(f"NeoPixels cannot be driven from pin {pin}: use D18 (GPIO 18, header pin 12, the "
                       f"usual one), D12, D21 or D10 (SPI MOSI); or {SPI_HINT}")
    return name


def _import(module: str, package: str) -> Any:
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        missing = exc.name or module
        if missing in (module, "adafruit_pixelbuf", "adafruit_bus_device"):
            raise LedError(f"the NeoPixel backend needs {package}: {INSTALL} (or pip install {package})") from None
        raise LedError(f"the NeoPixel backend needs the Python module {missing!r}: {INSTALL}") from None
    except NotImplementedError:
        raise LedError(NOT_A_PI.format("a board Blinka does not support")) from None
    except RuntimeError as exc:  # Blinka names the platform library it is missing
        raise LedError(f"Blinka cannot drive this board's pins: {exc}") from None


NOT_A_PI = ("this computer ({}) is not a board Blinka can drive LEDs from: run on a Raspberry Pi, or use "
            "--leds terminal or --leds png to simulate the LEDs")


def _board() -> Any:
    """Blinka's ``board`` module, refused on machines Blinka knows only as a generic computer.

    On a PC Blinka still imports (as GENERIC_LINUX_PC, with a few bus pins) but has no NeoPixel
    driver there; saying so here beats a missing-pin or SPI error later.
    """
    board = _import("board", "adafruit-blinka")
    board_id = str(getattr(board, "board_id", "") or "")
    if board_id.startswith("GENERIC"):
        raise LedError(NOT_A_PI.format(board_id))
    return board


def _runtime(exc: Exception) -> LedError:
    text = str(exc)
    if "sudo" in text or "root" in text.lower() or "permission" in text.lower():
        return LedError(f"the GPIO NeoPixel driver needs root: run with sudo, or {SPI_HINT}")
    if "Pi5" in text or "pi5" in text.lower():
        return LedError(f"{text.strip()}; or {SPI_HINT}")
    return LedError(f"the NeoPixels could not be written: {text.strip()}")


class _Strip(Pixels):
    """Shared by both NeoPixel backends: write the frame into the library's buffer, then show."""

    def _write(self, frame: list[RGB], caption: str | None) -> None:
        bpp = self._strip.bpp
        strip = self._strip
        if bpp == 4:
            strip[0:self.count] = [(r, g, b, 0) for r, g, b in frame]
        else:
            strip[0:self.count] = frame
        try:
            strip.show()
        except (RuntimeError, OSError) as exc:
            raise _runtime(exc) from None

    def _release(self) -> None:
        deinit = getattr(self._strip, "deinit", None)
        if deinit is not None:
            try:
                deinit()
            except (RuntimeError, OSError):
                pass


class NeoPixelStrip(_Strip):
    """Pixels on a GPIO data pin through adafruit-circuitpython-neopixel and Blinka."""

    kind = "neopixel"

    def __init__(self, count: int, *, pin: str | int = "D18", pixel_order: str = "GRB",
                 power: Power | None = None) -> None:
        super().__init__(count, power=power)
        self.pin = normalise_pin(pin)
        board = _board()
        neopixel = _import("neopixel", "adafruit-circuitpython-neopixel")
        pin_obj = getattr(board, self.pin, None)
        if pin_obj is None:
            raise LedError(f"this board has no pin {self.pin}: NeoPixels go on D18 (GPIO 18) of a Raspberry Pi")
        try:
            self._strip = neopixel.NeoPixel(pin_obj, count, bpp=len(pixel_order), brightness=1.0,
                                            auto_write=False, pixel_order=pixel_order)
        except (RuntimeError, OSError, ValueError) as exc:
            raise _runtime(exc) from None


class NeoPixelSpiStrip(_Strip):
    """Pixels on the SPI MOSI pin (GPIO 10) through adafruit-circuitpython-neopixel-spi.

    The SPI clock shapes each NeoPixel bit as one byte (``0b11000000`` a zero, ``0b11110000`` a
    one at 6.4 MHz), so no root and no DMA channel are needed, and it works on a Pi 5.
    """

    kind = "neopixel-spi"

    def __init__(self, count: int, *, pixel_order: str = "GRB", power: Power | None = None,
                 frequency: int = 6_400_000) -> None:
        super().__init__(count, power=power)
        board = _board()
        neopixel_spi = _import("neopixel_spi", "adafruit-circuitpython-neopixel-spi")
        try:
            spi = board.SPI()
        except (RuntimeError, OSError, ValueError, AttributeError) as exc:
            raise LedError(f"the SPI bus could not be opened ({exc}): enable SPI with "
                           f"`sudo raspi-config nonint do_spi 0` and reboot") from None
        try:
            self._strip = neopixel_spi.NeoPixel_SPI(spi, count, brightness=1.0, auto_write=False,
                                                    pixel_order=pixel_order, frequency=frequency)
        except (RuntimeError, OSError, ValueError) as exc:
            raise _runtime(exc) from None
