"""The files to copy onto a Pico for one board: the firmware, and a config.py written for it.

``firmware_files(sensor_map, sensing, led_count)`` returns {file name: text}; ``arbiter
sensor-firmware BOARD --out DIR`` writes them, and ``mpremote cp DIR/*.py :`` puts them on the
chip (docs/protocol.md, section Flashing).

Pins. A reed-switch board is a diode matrix: one Pico pin per row and per column, from GP2 up
(GP0 and GP1 stay free for the UART link, GP16 drives the NeoPixels, GP26-28 are the analog
inputs), which fits a matrix of up to 20 lines, such as the 7x7 of the morris boards. A
polarity board, or a matrix too big for that, is read through 16-channel multiplexers: the row
number in binary on the row-select pins, the column on four multiplexer address pins, the
voltage on GP26.
"""

from __future__ import annotations

import re
from pathlib import Path

from .maps import SensorMap

__all__ = ["FIRMWARE_FILES", "MATRIX_PINS", "FirmwareError", "firmware_files"]

HERE = Path(__file__).parent
FIRMWARE_FILES = {"main.py": HERE / "firmware" / "main.py", "wire.py": HERE / "wire.py",
                  "debounce.py": HERE / "debounce.py", "device.py": HERE / "device.py"}
MATRIX_PINS = list(range(2, 16)) + list(range(17, 23))  # GP2-GP15, GP17-GP22: 20 lines


class FirmwareError(ValueError):
    """A board that this firmware cannot scan as asked; the message says what would work."""


def _setting(text: str, name: str, value) -> str:
    new, n = re.subn(rf"^{name} = .*$", f"{name} = {value!r}", text, count=1, flags=re.M)
    if n != 1:  # pragma: no cover - the template lost a setting: a bug here, not the user's
        raise RuntimeError(f"config.py has no {name} setting")
    return new


def config_text(sensor_map: SensorMap, sensing: str, led_count: int, link: str = "usb") -> str:
    """config.py for ``sensor_map``'s matrix: the template's settings, filled in."""
    rows, cols = sensor_map.rows, sensor_map.cols
    text = (HERE / "firmware" / "config.py").read_text()
    text = text.replace("These defaults are for a Nine Men's Morris reed-switch board",
                        f"Written for the {sensor_map.board} board ({rows}x{cols}, {sensing})")
    settings: dict[str, object] = {"BOARD": sensor_map.board, "SENSING": sensing, "ROWS": rows, "COLS": cols,
                                   "LED_COUNT": led_count, "LINK": link,
                                   # MicroPython reads a few hundred sensors in ~20 ms: a big board scans slower
                                   "SCAN_HZ": 100 if rows * cols <= 100 else 30}
    if sensing == "occupancy" and rows + cols <= len(MATRIX_PINS):
        settings.update(SCANNER="matrix", ROW_PINS=MATRIX_PINS[:rows], COL_PINS=MATRIX_PINS[rows:rows + cols])
    elif sensing == "occupancy":
        raise FirmwareError(f"a {rows}x{cols} reed-switch matrix needs {rows + cols} pins and a Pico has "
                            f"{len(MATRIX_PINS)} free: use hall sensors through multiplexers (--sensing polarity)")
    else:
        if cols > 16:
            raise FirmwareError(f"a {rows}x{cols} matrix has more columns than a 16-channel multiplexer; "
                                f"lay the map out with 16 columns or fewer")
        bits = max(1, (rows - 1).bit_length())
        if bits > 8:
            raise FirmwareError(f"{rows} multiplexer rows need more than 8 row-select lines")
        settings.update(SCANNER="hall-mux", ROW_SELECT_PINS=MATRIX_PINS[:bits], MUX_PINS=MATRIX_PINS[bits:bits + 4])
    for name, value in settings.items():
        text = _setting(text, name, value)
    return text


def firmware_files(sensor_map: SensorMap, sensing: str, led_count: int, link: str = "usb") -> dict[str, str]:
    """Every file the Pico needs, by name."""
    if sensing not in ("occupancy", "polarity"):
        raise FirmwareError(f"sensing is occupancy or polarity, not {sensing!r}")
    out = {name: path.read_text() for name, path in FIRMWARE_FILES.items()}
    out["config.py"] = config_text(sensor_map, sensing, led_count, link)
    return out
