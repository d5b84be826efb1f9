"""The pixel frame of a board drawn by a style's own renderer (Brainmaster's pegs, the circles).

``render.render_board`` places a board from its graph's bounds; a style whose drawing reaches past
its spots (Brainmaster's covered code row lies off the graph) needs a frame from its own extent.
``Frame`` is that transform, y flipped (board y up, image rows down), with the title band on top,
so a renderer and the tests that look under a spot agree on where it lands.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .render import DEFAULT_STYLE, _draw_title, _header_px


@dataclass(frozen=True)
class Frame:
    """Board coordinates -> pixels: ``col = left + (x - x0) * ppu``, ``row = top + (y1 - y) * ppu``."""

    x0: float
    y1: float
    ppu: float
    left: float
    top: float
    width: int
    height: int

    @classmethod
    def around(cls, extent: tuple[float, float, float, float], ppu: float, margin_px: int,
               title: str | None = None) -> "Frame":
        """The frame of an image showing ``extent`` (x0, y0, x1, y1) with ``margin_px`` round it
        and a band for ``title`` above (``render``'s title band)."""
        x0, y0, x1, y1 = extent
        header = _header_px(title, DEFAULT_STYLE)
        width = round((x1 - x0) * ppu) + 2 * margin_px
        height = round((y1 - y0) * ppu) + 2 * margin_px + header
        return cls(x0, y1, ppu, margin_px, margin_px + header, width, height)

    def at(self, xy) -> tuple[int, int]:
        """Whole-pixel (col, row) of board coordinates ``xy``."""
        return (round(self.left + (float(xy[0]) - self.x0) * self.ppu),
                round(self.top + (self.y1 - float(xy[1])) * self.ppu))

    def px(self, units: float, least: int = 1) -> int:
        """A length in board units as whole pixels (at least ``least``)."""
        return max(least, round(units * self.ppu))

    def canvas(self, background, title: str | None = None) -> np.ndarray:
        img = np.empty((self.height, self.width, 3), np.uint8)
        img[:] = background
        if title:
            _draw_title(img, title, DEFAULT_STYLE)
        return img


__all__ = ["Frame"]
