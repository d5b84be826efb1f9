"""LED backends: choosing one of the ways of showing LED frames (``open_pixels``).

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

Every backend is a ``hardware.pixels.Pixels`` (re-exported here). As with gpiozero's pin
factories, the choice is made at run time and the real libraries are
imported only when their backend is chosen, so this package imports, and its tests run, on any
machine. ``open_pixels`` is the one way in:

    >>> from hardware.layout import default_map
    >>> px = open_pixels("memory", default_map("three"))
    >>> px[0] = (255, 0, 0)
    >>> px.show()[0]
    (255, 0, 0)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .layout import LayoutMap, Spots
from .pixels import LedError, MemoryPixels, Pixels
from .power import Power

BACKENDS = ("neopixel", "neopixel-spi", "terminal", "png", "memory")


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


__all__ = ["BACKENDS", "LedError", "MemoryPixels", "Pixels", "default_backend", "open_pixels", "raspberry_pi_model"]
