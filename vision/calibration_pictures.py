"""Write the pictures of the calibration guide (docs/calibration.md).

    python -m vision.calibration_pictures OUT_DIR

Everything comes from the simulated camera with fixed seeds, through the same calibration and
reader a user runs, so the pictures show what the code really does: the layout to copy, the
two calibration pictures, the overlay after calibration, a game position read back, and a
frame with a hand over the board that gives no reading.
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2

import engine

from . import sim
from .calibration import calibrate, calibration_layout
from .docs_pictures import sample_state
from .overlay import draw_overlay
from .reader import BoardReader
from .render import save_png

SEED = 11


def _small(img, width: int = 960):
    h, w = img.shape[:2]
    return cv2.resize(img, (width, round(h * width / w)), interpolation=cv2.INTER_AREA) if w > width else img


def write(out_dir: Path) -> list[Path]:
    from .pictures import layout_picture

    out_dir.mkdir(parents=True, exist_ok=True)
    written = []

    def save(img, name):
        path = out_dir / name
        save_png(_small(img), path)
        written.append(path)

    for name, steps in (("nine-mens-morris", 22), ("brain-hanky", 8)):
        game = engine.load(name)
        layout, _ = calibration_layout(game)
        # The bandanna is large: a user mounts the camera so that it fills the picture.
        fill = (0.85, 0.9) if game.board.style == "brain-hanky" else (0.6, 0.9)
        settings = sim.CameraSettings(size=(1280, 720), fill=fill)
        empty = sim.simulate(sim.printed_scene(game.board, {}), SEED, settings).image
        pieces = sim.simulate(sim.printed_scene(game.board, layout), SEED, settings).image
        cal = calibrate(game, empty, pieces, position=layout, classifier="measured")
        reader = BoardReader(cal)
        save(layout_picture(game, layout), f"{name}-layout.png")
        save(empty, f"{name}-empty.png")
        obs = reader.read(pieces)
        save(draw_overlay(pieces, cal, obs, reader.last), f"{name}-overlay.png")
        pos = sample_state(game, steps, SEED).position()
        frame = sim.simulate(sim.printed_scene(game.board, pos), SEED + 1, settings).image
        obs = reader.read(frame)
        save(draw_overlay(frame, cal, obs, reader.last), f"{name}-read.png")
        if name == "nine-mens-morris":
            hand = sim.simulate(sim.printed_scene(game.board, pos), SEED + 2,
                                sim.CameraSettings(size=(1280, 720), hand=True)).image
            obs = reader.read(hand)
            save(draw_overlay(hand, cal, obs, reader.last), f"{name}-hand.png")
    return written


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    for path in write(Path(argv[0])):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
