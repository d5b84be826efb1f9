"""The ``Pixels`` interface: a row of pixels with a frame buffer, and the in-memory twin.

Every LED backend (``hardware.neopixels``, ``hardware.terminal``, ``hardware.picture``, and any
device that shows frames of its own) subclasses ``Pixels`` and says only how a frame goes out
(``_write``). The interface lives apart from the registry that picks a backend
(``hardware.leds``), as gpiozero keeps its pin interface apart from its pin factories: backends
import this module, the registry imports the backends, and nothing imports back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .palette import OFF, RGB
from .power import Power


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


__all__ = ["LedError", "MemoryPixels", "Pixels"]
