"""Brightness cap and power budget: no frame may draw more current than the supply gives.

A WS2812-type pixel draws about 20 mA per colour channel at full duty, 60 mA at full white, so
a Brain Hanky board of 360 pixels could ask for over 21 A; a Pi's USB supply gives 3 A in all.
Every backend passes each frame through ``Power.apply`` before it goes out: first the
brightness (never above the cap the builder set), then, if the estimated current is still over
``amp_limit``, every channel is scaled down by one common factor, so colours keep their hue and
the relative brightness of signals is kept. Scaling rounds down, so the estimate of what is sent
is never over the limit.

    >>> p = Power(brightness=1.0, amp_limit=0.12)
    >>> p.estimate_amps([(255, 255, 255)] * 4)
    0.24
    >>> p.estimate_amps(p.apply([(255, 255, 255)] * 4)) <= 0.12
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .palette import RGB

MA_PER_CHANNEL = 20.0  # full duty on one of R, G, B: 60 mA for full white


@dataclass
class Power:
    """How bright frames may be and how much current they may draw.

    ``brightness`` is what the user asked for (0..1), held to ``max_brightness``;
    ``amp_limit`` (amps, None for no limit) is what the LED supply can give to the pixels;
    ``idle_ma`` is what each pixel draws when dark (about 1 mA for a WS2812B), counted against
    the limit so a long strip's standing current is not forgotten.
    """

    brightness: float = 1.0
    max_brightness: float = 1.0
    amp_limit: float | None = None
    ma_per_channel: float = MA_PER_CHANNEL
    idle_ma: float = 0.0

    def __post_init__(self) -> None:
        if not 0.0 < self.max_brightness <= 1.0:
            raise ValueError(f"the brightness cap must be in (0, 1], not {self.max_brightness}")
        if self.amp_limit is not None and self.amp_limit <= 0:
            raise ValueError(f"the current limit must be positive, not {self.amp_limit} A")
        self.brightness = self.clamp(self.brightness)

    def clamp(self, value: float) -> float:
        """``value`` held to 0..``max_brightness``."""
        return min(self.max_brightness, max(0.0, float(value)))

    def estimate_amps(self, frame: Sequence[RGB]) -> float:
        """Estimated current (A) of ``frame`` as sent: 20 mA per full channel plus idle draw."""
        duty = sum(r + g + b for r, g, b in frame) / 255.0
        return round((duty * self.ma_per_channel + self.idle_ma * len(frame)) / 1000.0, 6)

    def scale_for_limit(self, frame: Sequence[RGB]) -> float:
        """The factor (0..1) that brings ``frame`` within ``amp_limit``."""
        if self.amp_limit is None:
            return 1.0
        lit = self.estimate_amps(frame) - self.idle_ma * len(frame) / 1000.0
        budget = self.amp_limit - self.idle_ma * len(frame) / 1000.0
        if budget <= 0:
            return 0.0
        return 1.0 if lit <= budget else budget / lit

    def apply(self, frame: Sequence[RGB]) -> list[RGB]:
        """``frame`` at the allowed brightness and within the current limit."""
        k = self.brightness
        scaled = [(int(r * k), int(g * k), int(b * k)) for r, g, b in frame]
        f = self.scale_for_limit(scaled)
        if f >= 1.0:
            return scaled
        return [(int(r * f), int(g * f), int(b * f)) for r, g, b in scaled]

    def supply_advice(self, pixels: int) -> str:
        """One line on what a board of ``pixels`` pixels draws, for the map and wiring commands."""
        full = pixels * 3 * self.ma_per_channel / 1000.0
        line = f"{pixels} pixels draw up to {full:.1f} A at full white"
        if self.amp_limit is not None:
            line += f"; frames are scaled to stay under {self.amp_limit:g} A"
        return line
