"""Pixels: one small interface for every way of showing LED frames.

A backend is a row of ``count`` pixels. Set them (``pixels[i] = (r, g, b)``, ``fill``,
``set_frame``), then ``show()`` sends the frame out, through the brightness cap and power budget
of ``hardware.power.Power``. The backends:

``neopixel``      WS2812/SK6812 pixels on a Raspberry Pi GPIO pin (D18 by default; D10, D12,
                  D21 also work), through adafruit-circuitpython-neopixel and Blinka
``neopixel-spi``  the same pixels driven from the SPI MOSI pin (GPIO 10): works on a Pi 5 and
                  without root, through adafruit-circuitpython-neopixel-spi
``terminal``      the board drawn in colour in the terminal, lit spots in their LED colour
``png``           pictures of the board with the lit LEDs: one PNG, numbered PNGs or a GIF
``memory``        keeps every shown frame in a list, for tests

As with gpiozero's pin factories, the choice is made at run time and the real libraries are
imported only when their backend is chosen, so this package imports, and its tests run, on any
machine. ``open_pixels`` is the one way in:

    >>> from hardware.layout import default_map
    >>> px = open_pixels("memory", default_map("three"))
    >>> px[0] = (255, 0, 0)
    >>> px.show()[0]
    (255, 0, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .layout import LayoutMap, Spots
from .palette import OFF, RGB
from .power import Power

BACKENDS = ("neopixel", "neopixel-spi", "terminal", "png", "memory")


class LedError(RuntimeError):
    """LEDs that cannot be driven, with a message that says what to install or change."""


def _colour(value: Any) -> RGB:
    """Accept (r, g, b) with 0..255 values, or 0xRRGGBB; refuse anything else clearly."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 0xFFFFFF:
        return ((value >> 16) & 255, (value >> 8) & 255, value & 255)
    if isinstance(value, (tuple, list)) and len(value) == 3 and all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in value):
        return (value[0], value[1], value[2])
    raise ValueError(f"a pixel colour is (r, g, b) with values 0..255 or 0xRRGGBB, not {value!r}")


class Pixels:
    """A row of ``count`` pixels with a frame buffer; subclasses say how a frame goes out.

    Brightness is applied here, not by the LED library (which is always run at 1.0), so the
    power estimate sees exactly the values that are sent.
    """

    kind = "base"

    def __init__(self, count: int, *, power: Power | None = None) -> None:
        if count < 1:
            raise ValueError("a pixel backend needs at least one pixel")
        self.count = count
        self.power = power if power is not None else Power()
        self._buffer: list[RGB] = [OFF] * count
        self.shown: list[RGB] = [OFF] * count  # the last frame sent, after brightness and power
        self.last_amps = 0.0  # estimated current of that frame
        self.closed = False

    # ---------------------------------------------------------------- the interface
    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index: int) -> RGB:
        return self._buffer[index]

    def __setitem__(self, index: int, colour: Any) -> None:
        if not -self.count <= index < self.count:
            raise IndexError(f"pixel {index} is past the end of a {self.count}-pixel strip")
        self._buffer[index] = _colour(colour)

    def fill(self, colour: Any) -> None:
        c = _colour(colour)
        self._buffer = [c] * self.count

    def set_frame(self, frame: Sequence[Any]) -> None:
        """Set every pixel at once from a sequence of ``count`` colours."""
        if len(frame) != self.count:
            raise ValueError(f"a frame for this strip has {self.count} colours, not {len(frame)}")
        self._buffer = [_colour(c) for c in frame]

    @property
    def brightness(self) -> float:
        return self.power.brightness

    @brightness.setter
    def brightness(self, value: float) -> None:
        """Set the brightness (0..1); values over the configured cap are held to the cap."""
        self.power.brightness = self.power.clamp(value)

    def show(self, caption: str | None = None) -> list[RGB]:
        """Send the frame out; returns what was sent. ``caption`` is shown by the renderers."""
        if self.closed:
            raise LedError("these pixels were closed; open them again")
        out = self.power.apply(self._buffer)
        self.last_amps = self.power.estimate_amps(out)
        self._write(out, caption)
        self.shown = out
        return out

    def close(self) -> None:
        """Turn every pixel off and release the hardware. Safe to call twice."""
        if self.closed:
            return
        self._buffer = [OFF] * self.count
        try:
            self.show()
        finally:
            self._release()
            self.closed = True

    def __enter__(self) -> Pixels:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---------------------------------------------------------------- for subclasses
    def _write(self, frame: list[RGB], caption: str | None) -> None:
        raise NotImplementedError

    def _release(self) -> None:
        pass


class MemoryPixels(Pixels):
    """Records every shown frame (``frames``) and caption (``captions``): the test backend."""

    kind = "memory"

    def __init__(self, count: int, *, power: Power | None = None) -> None:
        super().__init__(count, power=power)
        self.frames: list[tuple[RGB, ...]] = []
        self.captions: list[str | None] = []

    def _write(self, frame: list[RGB], caption: str | None) -> None:
        self.frames.append(tuple(frame))
        self.captions.append(caption)


# ---------------------------------------------------------------------------- choosing a backend
def raspberry_pi_model(path: str | Path = "/proc/device-tree/model") -> str | None:
    """The Raspberry Pi model this runs on ("Raspberry Pi 4 Model B Rev 1.4"), None elsewhere."""
    try:
        model = Path(path).read_bytes().rstrip(b"\x00").decode("ascii", "replace").strip()
    except OSError:
        return None
    return model if model.startswith("Raspberry Pi") else None


def default_backend(model_path: str | Path = "/proc/device-tree/model") -> str:
    """``neopixel`` on a Raspberry Pi, ``terminal`` anywhere else (simulator mode)."""
    return "neopixel" if raspberry_pi_model(model_path) else "terminal"


def open_pixels(backend: str, layout: LayoutMap, spots: Spots | Any | None = None, *,
                power: Power | None = None, pin: str = "D18", out: str | Path | None = None,
                console: Any = None, labels: bool | None = None, frame_ms: int = 400) -> Pixels:
    """The pixels of ``backend`` for a board wired as ``layout``.

    ``spots`` (a ``Spots``, game, board or name; default: the layout's board) is what the
    terminal and png renderers draw. ``pin`` is the NeoPixel data pin; ``out`` the png backend's
    file (``x.png``: the latest frame, ``x.gif``: every frame animated on close, a name with
    ``{n}`` such as ``f{n:03}.png``: one file per frame); ``console`` the terminal backend's
    rich Console.
    """
    if backend not in BACKENDS:
        raise LedError(f"unknown LED backend {backend!r}; one of {', '.join(BACKENDS)}")
    if backend == "memory":
        return MemoryPixels(layout.count, power=power)
    if backend == "neopixel":
        from .neopixels import NeoPixelStrip

        return NeoPixelStrip(layout.count, pin=pin, pixel_order=layout.pixel_order, power=power)
    if backend == "neopixel-spi":
        from .neopixels import NeoPixelSpiStrip

        return NeoPixelSpiStrip(layout.count, pixel_order=layout.pixel_order, power=power)
    from .layout import spots_for

    where = spots_for(spots if spots is not None else layout.board)
    if backend == "terminal":
        from .terminal import TerminalPixels

        return TerminalPixels(layout, where, power=power, console=console)
    from .picture import ImagePixels

    return ImagePixels(layout, where, power=power, out=out, labels=labels, frame_ms=frame_ms)
