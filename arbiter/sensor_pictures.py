"""The sensor board's wiring diagram for docs/sensor-board.md, drawn from the board's own data.

    python -m arbiter.sensor_pictures docs/sensor

The matrix is laid out from the shipped sensor map (which cell is under which point) and the
pins from the config.py that ``arbiter sensor-firmware`` writes for the board, so the picture
cannot disagree with the firmware or the map.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from firmware_bridge.flash import config_text
from firmware_bridge.maps import shipped_map

INK, GREY, RED, BLUE, GREEN, PAPER = (30, 30, 30), (150, 150, 150), (200, 40, 40), (40, 80, 200), (20, 130, 60), (255, 255, 255)


def _font(size: int):
    try:
        return ImageFont.truetype("DejaVuSans.ttf", size)
    except OSError:
        return ImageFont.load_default(size=size)


def _config(board: str, leds: int) -> dict:
    values: dict = {}
    exec(config_text(shipped_map(board), "occupancy", leds), values)  # the firmware's own settings
    return values


def wiring_picture(board: str = "morris9", leds: int = 27) -> Image.Image:
    """A reed-switch matrix board on a Pico: rows, columns, a switch and diode at every point,
    the NeoPixel chain through a level shifter, and the power."""
    smap = shipped_map(board)
    cfg = _config(board, leds)
    rows, cols = smap.rows, smap.cols
    step, x0, y0 = 90, 330, 170
    w, h = max(1240, x0 + cols * step + 120), y0 + rows * step + 330
    img = Image.new("RGB", (w, h), PAPER)
    d = ImageDraw.Draw(img)
    f, small, big = _font(18), _font(14), _font(24)
    d.text((20, 20), f"Reed-switch sensor board for {board}: {rows}x{cols} matrix on a Raspberry Pi Pico",
           fill=INK, font=big)
    d.text((20, 58), "Each row pin is driven low in turn; a closed switch pulls its column low (the columns have "
                     "pull-ups inside the Pico).\nThe diode (1N4148, its band towards the row) stops current sneaking "
                     "through other closed switches: no ghost pieces. Red and blue lines cross without joining.",
           fill=INK, font=small)
    # the Pico
    px, py, pw, ph = 30, y0 - 20, 150, rows * step + 40
    d.rounded_rectangle((px, py, px + pw, py + ph), radius=12, outline=GREEN, width=4)
    d.text((px + 20, py + 10), "Raspberry Pi\nPico (RP2040)", fill=GREEN, font=f)
    d.rectangle((px + 50, py - 18, px + 100, py), outline=INK, width=2)
    d.text((px + 58, py - 40), "USB to the Pi", fill=INK, font=small)
    grid = smap.grid()
    # rows: horizontal lines from the Pico's right edge
    for r, pin in enumerate(cfg["ROW_PINS"]):
        y = y0 + r * step + step // 2
        d.line((px + pw, y, x0 + cols * step, y), fill=RED, width=3)
        d.text((px + pw - 58, y - 10), f"GP{pin}", fill=RED, font=f)
        d.text((x0 + cols * step + 8, y - 10), f"row {r}", fill=RED, font=small)
    # columns: vertical lines, wired back to the Pico along the bottom
    bus_y = y0 + rows * step + 30
    for c, pin in enumerate(cfg["COL_PINS"]):
        x = x0 + c * step + step // 2
        d.line((x, y0, x, bus_y + c * 12), fill=BLUE, width=3)
        d.line((px + pw - 30 + 0 * c, bus_y + c * 12, x, bus_y + c * 12), fill=BLUE, width=2)
        d.text((x - 10, y0 - 26), f"col {c}", fill=BLUE, font=small)
        d.text((px + pw - 70, bus_y + c * 12 - 8), f"GP{pin}", fill=BLUE, font=small)
    d.line((px + pw - 30, bus_y, px + pw - 30, bus_y + (cols - 1) * 12), fill=PAPER, width=1)
    # a switch and a diode at every point of the board
    for r in range(rows):
        for c in range(cols):
            spot = grid[r][c]
            x, y = x0 + c * step + step // 2, y0 + r * step + step // 2
            if spot is None:
                d.ellipse((x - 3, y - 3, x + 3, y + 3), outline=GREY)
                continue
            # from the row line: a diode (anode at the row? no: cathode towards the row, driven low)
            d.rectangle((x - 34, y - 30, x - 4, y - 4), fill=PAPER)
            d.line((x - 19, y, x - 19, y - 12), fill=INK, width=2)
            d.polygon([(x - 27, y - 24), (x - 11, y - 24), (x - 19, y - 12)], outline=INK, fill=PAPER)
            d.line((x - 27, y - 12, x - 11, y - 12), fill=INK, width=2)
            # the reed switch, from the diode to the column line
            d.line((x - 19, y - 24, x - 19, y - 34, x - 2, y - 34), fill=INK, width=2)
            d.ellipse((x - 17, y - 42, x + 1, y - 26), outline=INK, width=1)
            d.line((x - 12, y - 34, x - 3, y - 38), fill=INK, width=2)
            d.line((x - 2, y - 34, x, y - 34), fill=INK, width=2)
            d.text((x - 30, y + 8), spot, fill=INK, font=f)
    # LEDs and power
    ly = bus_y + cols * 12 + 40
    d.text((30, ly), f"NeoPixels ({leds}: one under each point, then the turn, clock and error pixels):",
           fill=INK, font=f)
    ly += 34
    d.text((30, ly), f"GP{cfg['LED_PIN']} -> 74AHCT125 (3.3 V to 5 V) -> 330 ohm -> DIN of the first pixel",
           fill=INK, font=f)
    for k in range(8):
        x = 760 + k * 40
        d.rectangle((x, ly - 4, x + 26, ly + 22), outline=INK, width=2)
        d.ellipse((x + 7, ly + 3, x + 19, ly + 15), fill=[(255, 60, 60), (60, 220, 60), (80, 120, 255)][k % 3])
        if k:
            d.line((x - 14, ly + 9, x, ly + 9), fill=INK, width=2)
    ly += 40
    d.text((30, ly), "5 V supply (2 A or more) -> the pixels' 5 V and GND, 1000 uF across it; Pico VSYS from the "
                     "same 5 V through a Schottky diode, or from USB; all grounds joined.", fill=INK, font=small)
    ly += 26
    d.text((30, ly), f"Firmware: arbiter sensor-firmware {board} --out pico/ writes these pins into config.py; "
                     "check every sensor with arbiter sensor-monitor --test.", fill=INK, font=small)
    return img


def main(argv: list[str]) -> None:
    out = Path(argv[0] if argv else "docs/sensor")
    out.mkdir(parents=True, exist_ok=True)
    path = out / "wiring-reed-matrix-morris9.png"
    wiring_picture().save(path)
    print(path)


if __name__ == "__main__":
    main(sys.argv[1:])
