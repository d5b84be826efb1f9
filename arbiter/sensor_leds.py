"""The sensor board's own NeoPixels as a ``Pixels`` backend: LED frames over the serial protocol.

A sensor board built with LEDs (docs/sensor-board.md) drives them itself from the frames the
host sends (``firmware_bridge.host.SensorLink.show``). This backend lets the session's signals
go there exactly as they would to NeoPixels on the Pi: brightness and the power budget are
applied here, on the host, and the board shows the result.

It lives in ``arbiter`` because ``firmware_bridge`` may import only ``engine``, and ``Pixels``
is ``hardware``'s.
"""

from __future__ import annotations

from hardware.leds import Pixels
from hardware.palette import RGB

__all__ = ["BoardPixels"]


class BoardPixels(Pixels):
    """``count`` pixels on the sensor board at the other end of ``link``. Never raises for a
    board that is unplugged: the link keeps the latest frame and sends it when the board is back."""

    kind = "sensor-board"

    def __init__(self, link, count: int, **kwargs):
        super().__init__(count, **kwargs)
        self.link = link

    def _write(self, frame: list[RGB], caption: str | None) -> None:
        self.link.show(frame)
