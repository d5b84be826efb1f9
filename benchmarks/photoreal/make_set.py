"""Make a photoreal evaluation set: frame specs, Blender renders, camera post-processing.

    .venv/bin/python benchmarks/photoreal/make_set.py dev        # or holdout, game
    .venv/bin/python benchmarks/photoreal/make_set.py dev --threads 1 --work /tmp/photoreal
    .venv/bin/python benchmarks/photoreal/make_set.py pegs --out DIR     # issue 33's pieces: twingrids, circles, pegs
    .venv/bin/python benchmarks/photoreal/make_set.py train --setups 60 --out DIR   # training scenes
    .venv/bin/python benchmarks/photoreal/make_set.py heldout --setups 6 --out DIR  # held-out factors

(``train`` and ``heldout``: ``train_scenes.py``, docs/training-data.md.)

Draws everything random from the set's seed (camera poses, lamps, exposures, piece sets, the
positions: random legal playouts of ``engine``), writes the boards as users print them
(``vision.printable.write_png``), renders every frame with ``scene.py`` inside Blender, then
adds what a real camera adds (radial lens distortion, shot and read noise, JPEG) and stores the
set in ``benchmarks/data/photoreal/<set>/``: JPEG frames and ``set.json`` with the truth.

It never touches ``vision.sim`` or ``vision.render*``: the point of this set is to be made
independently of the simulator the reader was tuned on.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from vision import printable  # noqa: E402
from vision.calibration import calibration_layout  # noqa: E402

HERE = Path(__file__).resolve().parent
DATA = ROOT / "benchmarks" / "data" / "photoreal"
MM = 0.001

HTJB_DPI = 200
HANKY_DPI = 72
LAMP_W = float(os.environ.get("PHOTOREAL_LAMP_W", 7.0))  # lamp power (W) at 0.6 m: a normal exposure
RES_SCALE = float(os.environ.get("PHOTOREAL_RES_SCALE", 1.0))  # only for trying the scene quickly

# ---------------------------------------------------------------------------- the sets
# A clear frame this bright (EV) or brighter is rendered again one stop darker, one per value,
# each from the last (``stepped``): two stops, from +0.4 EV.
STEPS = (0.4, 0.4)
# ... and so is a clear frame below that whose board shows this share or more clipped white
# (``blown_share``): a bright lamp near the board clips the paper at any exposure. Chosen from
# the rendered picture alone, after the set's frames are made (``--blown``), not by any reader.
BLOWN = 0.05

# The blind sets' recipe: one setup of each HTJB board family (wooden men at a 30-degree tilt on
# morabaraba) and two Brain Hanky blue cloths; each blind set draws it from a seed of its own.
BLIND = [
    ("nine-mens-morris", 1, 11, (1280, 720), {}),
    ("morabaraba", 1, 11, (1280, 720), {"wood": True, "tilt30": True}),
    ("tapatan", 1, 11, (1280, 720), {}),
    ("saba", 1, 11, (1280, 720), {}),
    ("brain-hanky", 2, 9, (1920, 1080), {"cloth": "blue", "name": "bhblue"}),
]
# The blind sets from the eleventh on: Brain Hanky alone, the family short of its targets.
HANKY_ALONE = [("brain-hanky", 4, 9, (1920, 1080), {"cloth": "blue", "name": "bhblue"})]

# (game, setups, frames per setup, resolution, options)
# Issue 33's games as its sets render them: 2 setups of 7 frames each at 1280x720, with the
# exposure twins, positions after ``least`` to ``most`` random legal steps.
NEW_PIECE_GAMES = {
    "twingrids": ("twin-grids", {"least": 4, "most": 30}),
    "circles": ("thinking-in-circles", {"least": 10, "most": 80}),
    "pegs": ("brainmaster", {"least": 3, "most": 21}),
}


def new_pieces_set(seed: int, kind: str) -> dict:
    """A set of one of issue 33's games (``NEW_PIECE_GAMES``), seeded ``seed``."""
    game, steps = NEW_PIECE_GAMES[kind]
    return dict(seed=seed, step_from=STEPS, rest=True, games=[(game, 2, 7, (1280, 720), {"name": kind, **steps})])


SETS = {
    "dev": dict(seed=1001, step_from=STEPS, games=[
        ("nine-mens-morris", 2, 11, (1280, 720), {}),
        ("morabaraba", 2, 11, (1280, 720), {"wood": True, "tilt30": True}),
        ("tapatan", 2, 11, (1280, 720), {}),
        ("saba", 2, 11, (1280, 720), {}),
        ("brain-hanky", 2, 9, (1920, 1080), {}),
        # the board as ``arbiter print-board`` prints it now: the blue cloth (added after the rest,
        # so the setups above draw the same random numbers as before)
        ("brain-hanky", 4, 9, (1920, 1080), {"cloth": "blue", "name": "bhblue"}),
        # an HTJB board at a camera's full HD resolution too (the rest are at 1280x720)
        ("nine-mens-morris", 1, 11, (1920, 1080), {"name": "ninemmhd"}),
    ]),
    "holdout": dict(seed=2002, step_from=STEPS, games=[
        ("nine-mens-morris", 1, 11, (1280, 720), {}),
        ("morabaraba", 1, 11, (1280, 720), {"wood": True, "tilt30": True}),
        ("tapatan", 1, 11, (1280, 720), {}),
        ("saba", 1, 11, (1280, 720), {}),
        ("brain-hanky", 1, 9, (1920, 1080), {}),
        ("brain-hanky", 2, 9, (1920, 1080), {"cloth": "blue", "name": "bhblue"}),
    ]),
    # Rendered after the reader of 2026-11-26 was frozen and read once, as it stood: frames nobody
    # here had seen (docs/photoreal.md).
    "blind": dict(seed=4004, step_from=STEPS, games=BLIND),
    # The second blind set: rendered on 2026-11-26 outside the project while the reader was being
    # changed, and not read until it was frozen again (docs/photoreal.md); the recipe of "blind".
    "blind2": dict(seed=5005, step_from=STEPS, games=BLIND),
    # The third: rendered the same way after blind2 had been read, and read once with the reader
    # frozen again (docs/photoreal.md).
    "blind3": dict(seed=6006, step_from=STEPS, games=BLIND),
    # The fourth: rendered the same way after blind3 had been read, and read once with the reader
    # frozen again (docs/photoreal.md).
    "blind4": dict(seed=7007, step_from=STEPS, games=BLIND),
    # The fifth: rendered the same way after blind4 had been read (with the twins of frames whose
    # board is clipped white, ``BLOWN``, from the start), and read once with the reader frozen again.
    "blind5": dict(seed=8008, step_from=STEPS, games=BLIND),
    # The sixth: rendered the same way after blind5 had been read, read once with the reader frozen.
    "blind6": dict(seed=9009, step_from=STEPS, games=BLIND),
    # The seventh: rendered the same way after blind6 had been read, while the board's surface bend
    # (``vision.surface``) was built, and read once with the reader frozen.
    "blind7": dict(seed=10010, step_from=STEPS, games=BLIND),
    # The eighth: rendered the same way after blind7 had been read, while the men's and gems'
    # misreads were worked on, and read once with the reader frozen at the end of that work.
    "blind8": dict(seed=11011, step_from=STEPS, games=BLIND),
    # The ninth: pieces rest on a fold's crest instead of sinking into it (``scene.rest_lift``;
    # blind6 had a yellow ring 3.6 mm into one, read as empty); rendered after the reader was
    # frozen at commit 76bd5cf and read once, as it stood.
    "blind9": dict(seed=12012, step_from=STEPS, games=BLIND, rest=True),
    # The tenth: the ninth's recipe with a third Brain Hanky setup (the family still short of its
    # targets); rendered while the reader was changed on 2026-11-26 and read once, frozen, after.
    "blind10": dict(seed=13013, step_from=STEPS, rest=True, games=BLIND[:-1] + [
        ("brain-hanky", 3, 9, (1920, 1080), {"cloth": "blue", "name": "bhblue"})]),
    # The eleventh: Brain Hanky alone, four setups on the blue cloth, pieces resting on the folds;
    # rendered after the groups' spreads were drawn together (classify.SPREAD_PRIOR, commit
    # 9cef402) and read once with the reader frozen there.
    "blind11": dict(seed=14014, step_from=STEPS, rest=True, games=HANKY_ALONE),
    # The twelfth: like the eleventh with a new seed, rendered while the reader stood at d65da10
    # and read once with it frozen there.
    "blind12": dict(seed=15015, step_from=STEPS, rest=True, games=HANKY_ALONE),
    # The thirteenth: the same with a new seed, rendered while the reader stood at fae25e8 (a gem
    # unlike every empty square joins its group, ``classify.odd_in_group``) and read once, frozen.
    "blind13": dict(seed=16016, step_from=STEPS, rest=True, games=HANKY_ALONE),
    # The fourteenth: the same with a new seed, rendered while the reader stood at f0869ee and
    # then e46982d (a split counting the odd spots when they outnumber a group, ``split_pieces``),
    # and read once with it frozen at e46982d.
    "blind14": dict(seed=17017, step_from=STEPS, rest=True, games=HANKY_ALONE),
    # The fifteenth: the same with a new seed, rendered after blind14 while the reader stood at
    # e46982d and read once with it frozen there (with one flattened frame's twins, ``--twins``).
    "blind15": dict(seed=18018, step_from=STEPS, rest=True, games=HANKY_ALONE),
    # The sixteenth: the same with a new seed, rendered and read once with the reader frozen at
    # e46982d (with two flattened frames' twins, ``--twins``).
    "blind16": dict(seed=19019, step_from=STEPS, rest=True, games=HANKY_ALONE),
    # The seventeenth: the same with a new seed, rendered while the reader moved from b82f6f1 to
    # 0ab29f8 (the print under a piece) and read once with it frozen at 0ab29f8.
    "blind17": dict(seed=20020, step_from=STEPS, rest=True, games=HANKY_ALONE),
    # The eighteenth: the same with a new seed, rendered and read once with the reader frozen at
    # 0ab29f8 (with one flattened frame's twins, ``--twins``).
    "blind18": dict(seed=21021, step_from=STEPS, rest=True, games=HANKY_ALONE),
    # The nineteenth: the same with a new seed, rendered and read once with the reader frozen at
    # bded8fd (a gem square straying far from its print is the gem; review mends).
    "blind19": dict(seed=22022, step_from=STEPS, rest=True, games=HANKY_ALONE),
    # The twentieth: the same with a new seed, rendered beside blind19 and read once with the
    # same frozen reader.
    "blind20": dict(seed=23023, step_from=STEPS, rest=True, games=HANKY_ALONE),
    # The twenty-first: the same with a new seed, rendered and read once with the reader frozen
    # at 9b15685 (gem metals unchanged since bded8fd; the referee names only the doubted spots).
    "blind21": dict(seed=26026, step_from=STEPS, rest=True, games=HANKY_ALONE),
    # The twenty-second: the same with a new seed, rendered and read once with the reader frozen
    # at 8ae2e8d (the gems' odds, split_share).
    "blind22": dict(seed=28028, step_from=STEPS, rest=True, games=HANKY_ALONE),
    # The twenty-third: the same with a new seed, rendered while the groups' spreads were given
    # their measured ratio (a gold gem's hue spreads twice a silver one's, ``Pattern.split_wide``)
    # and read once with the reader frozen at 7a9aa67, after that change.
    "blind23": dict(seed=29029, step_from=STEPS, rest=True, games=HANKY_ALONE),
    # The twenty-fourth: the same with a new seed, rendered and read once with the reader frozen
    # at fc08481 (blind23's miss mended: gems too few to group named by their hue within 0.35).
    "blind24": dict(seed=30030, step_from=STEPS, rest=True, games=HANKY_ALONE),
    # The twenty-fifth: the same with a new seed, rendered while the gems' groups were moved to
    # samples taken unblurred (``Pattern.sharp``) and read once with the reader frozen at 98585fd.
    "blind25": dict(seed=31031, step_from=STEPS, rest=True, games=HANKY_ALONE),
    # The twenty-sixth: the same with a new seed, rendered and read once with the reader frozen
    # at 98585fd, as blind25 (its refused frames all had their darker twins).
    "blind26": dict(seed=32032, step_from=STEPS, rest=True, games=HANKY_ALONE),
    # The game set: whole games in order, each frame one step on from the last, under the
    # calibration's lamp moved a little (``play``), for the referee (``photoreal.py --game``).
    "game": dict(seed=3003, play=True, games=[
        ("tapatan", 1, "whole", (1280, 720), {}),
        ("nine-mens-morris", 1, 14, (1280, 720), {}),
        ("brain-hanky", 1, 16, (1920, 1080), {"cloth": "blue", "name": "bhblue"}),
    ]),
    # The second game set: longer games of other boards (wooden men at a 30-degree tilt, saba's
    # grid, thirty Brain Hanky steps), rendered after the reader was frozen at bded8fd and played
    # once through the referee with it.
    "game2": dict(seed=24024, play=True, rest=True, games=[
        ("morabaraba", 1, 24, (1280, 720), {"wood": True, "tilt30": True}),
        ("saba", 1, 16, (1280, 720), {}),
        ("brain-hanky", 1, 30, (1920, 1080), {"cloth": "blue", "name": "bhblue"}),
    ]),
    # The third: nine men's morris well into moving, a tapatan game to its end and forty Brain
    # Hanky steps; rendered after game2 was played, the reader still frozen at bded8fd.
    "game3": dict(seed=25025, play=True, rest=True, games=[
        ("nine-mens-morris", 1, 30, (1280, 720), {}),
        ("tapatan", 1, "whole", (1280, 720), {}),
        ("brain-hanky", 1, 40, (1920, 1080), {"cloth": "blue", "name": "bhblue"}),
    ]),
    # The fourth: a Brain Hanky game of 24 steps, rendered after the gems' odds were made honest
    # and the referee let a doubt stop an illegal call (6c4fbd3), and played once.
    "game4": dict(seed=27027, play=True, rest=True, games=[
        ("brain-hanky", 1, 24, (1920, 1080), {"cloth": "blue", "name": "bhblue"}),
    ]),
    # The new pieces of issue 33, one small set per game (2 setups of 7 frames, with the exposure
    # twins), rendered before the reader could read them and to be read once with it frozen
    # (docs/photoreal.md, "The new pieces"): gems on the two-grid game's points (faceted acrylic,
    # then glass), Thinking In Circles' tokens on the tracks (a copper coin, then a bead) and
    # Brainmaster's code pegs and indicator pegs standing in their printed holes.
    "twingrids": new_pieces_set(33033, "twingrids"),
    "circles": new_pieces_set(34034, "circles"),
    "pegs": new_pieces_set(35035, "pegs"),
    # The same two games on their second prints (Brainmaster's holes spaced for the hand check,
    # azure indicator holes; Thinking In Circles' circle symbol teal), new seeds: the first sets
    # were read once on the first prints and are seen.
    "circles2": new_pieces_set(34134, "circles"),
    "pegs2": new_pieces_set(35135, "pegs"),
    # Third seeds (chosen 2026-11-28 06:30, before the network saw any peg or token): for the
    # first read of a network trained with them (``train_scenes`` ``--family new``); the second
    # sets were read once and are seen.
    "circles3": new_pieces_set(34234, "circles"),
    "pegs3": new_pieces_set(35235, "pegs"),
    # Fourth seeds (chosen 2026-11-28 09:10, before run 12 was trained): for the first read of a
    # network trained on more mills and Brain Hanky setups beside the pegs and tokens; the third
    # sets were read once by runs 9 and 10 and are seen (validation since).
    "circles4": new_pieces_set(34334, "circles"),
    "pegs4": new_pieces_set(35335, "pegs"),
    # Fifth seeds (chosen 2026-12-06, before the fourth sets were read by run 9): run 12 was never
    # trained (its machine and data were lost), so the fourth sets are read by the committed
    # network and are seen after; these wait for the next trained network's first read.
    "circles5": new_pieces_set(34434, "circles"),
    "pegs5": new_pieces_set(35435, "pegs"),
    # Sixth seeds (chosen 2026-12-07, after the fifth sets were read once by runs 9 and 12 and the
    # hand-set reader): for the first read of the next network or reader change.
    "circles6": new_pieces_set(34534, "circles"),
    "pegs6": new_pieces_set(35535, "pegs"),
    # Seventh seeds (chosen 2026-12-07 in the ninth session, after the sixth sets were read once by
    # runs 12 and 13 and the hand-set reader): for the next first read.
    "circles7": new_pieces_set(34634, "circles"),
    "pegs7": new_pieces_set(35635, "pegs"),
    # Eighth seeds (chosen 2026-12-07 in the eleventh session, after the seventh sets were read
    # once by both readers at 456d5bb): for the next first read.
    "circles8": new_pieces_set(34734, "circles"),
    "pegs8": new_pieces_set(35735, "pegs"),
    # Ninth seeds (chosen 2026-12-07 at the eleventh session's end, after the eighth sets were
    # read once at 2f543ae): for the next first read, beside held-out seed 50750.
    "circles9": new_pieces_set(34834, "circles"),
    "pegs9": new_pieces_set(35835, "pegs"),
    # Tenth seeds (chosen 2026-12-07 in the twelfth session, after the ninth sets were read once
    # at 35ba3f2): for the next first read, beside held-out seed 50850.
    "circles10": new_pieces_set(34934, "circles"),
    "pegs10": new_pieces_set(35935, "pegs"),
    # Eleventh seeds (chosen 2026-12-07 in the thirteenth session, after the tenth sets were read
    # once at 9b16976): for the next first read, beside held-out seed 50950.
    "circles11": new_pieces_set(35034, "circles"),
    "pegs11": new_pieces_set(36035, "pegs"),
    # Twelfth seeds (chosen 2026-12-07 in the fourteenth session, after the eleventh sets were read
    # once at f43c4f3): for the next first read, beside held-out seed 51050.
    "circles12": new_pieces_set(35134, "circles"),
    "pegs12": new_pieces_set(36135, "pegs"),
    # A second two-grid gem set (chosen 2026-12-07 in the fourteenth session): the first was read
    # once on 2026-11-28, by readers much changed since; read once by the readers of then.
    "twingrids2": new_pieces_set(33133, "twingrids"),
    # Thirteenth seeds (chosen 2026-12-07 at the fourteenth session's end, after the twelfth sets
    # and twingrids2 were read once at d10f97d): for the next first read, beside held-out seed 51150.
    "circles13": new_pieces_set(35234, "circles"),
    "pegs13": new_pieces_set(36235, "pegs"),
    # Fourteenth seeds (chosen 2026-12-07 at the fifteenth session's end, after the thirteenth sets
    # were read once at 7eb4a22): for the next first read, beside held-out seed 51250.
    "circles14": new_pieces_set(35334, "circles"),
    "pegs14": new_pieces_set(36335, "pegs"),
    # Fifteenth seeds (chosen 2026-12-08 in the sixteenth session, after the fourteenth sets were
    # read once at ddb583c): for the next first read, beside held-out seed 51350.
    "circles15": new_pieces_set(35434, "circles"),
    "pegs15": new_pieces_set(36435, "pegs"),
}
# The sets of the new pieces (``make_set.py newpieces`` renders the three in turn).
NEW_PIECES = ("twingrids", "circles", "pegs")

COLOURS = {"white": (0.80, 0.80, 0.78), "black": (0.012, 0.012, 0.014), "red": (0.55, 0.03, 0.03),
           "blue": (0.03, 0.08, 0.45), "green": (0.05, 0.35, 0.08), "yellow": (0.85, 0.62, 0.03),
           "orange": (0.85, 0.3, 0.02), "silver": (0.85, 0.85, 0.88), "gold": (1.0, 0.72, 0.30),
           # Brainmaster's code colours past the box's five (``--colours 6..8``)
           "purple": (0.25, 0.04, 0.35), "cyan": (0.03, 0.45, 0.55), "magenta": (0.6, 0.03, 0.3)}
WOOD = {"white": (0.72, 0.56, 0.36), "black": (0.07, 0.04, 0.025)}


def kelvin_rgb(k: float) -> list[float]:
    """Linear RGB of a black body near ``k`` kelvin (Tanner Helland's fit), green normalised to 1."""
    t = k / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = 99.4708025861 * math.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307)
    rgb = [min(255.0, max(0.0, c)) / 255.0 for c in (r, g, b)]
    lin = [c ** 2.2 for c in rgb]
    lum = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    return [c / max(lum, 1e-6) for c in lin]


# ---------------------------------------------------------------------------- boards
def board_texture(game_name: str, work: Path, cloth: str = "white") -> dict:
    """Write the printable PNG once per game and cloth; its size and every spot in world metres.

    ``cloth``: a Brain Hanky print's ground (``vision.render_hanky.CLOTHS``). The first sets were
    made on the white print (tinted cream in the scene), before the blue one was the printed
    default; they keep it so their frames stay what they were."""
    game = engine.load(game_name)
    hanky = printable.family(game.board) == "brain-hanky"
    dpi = HANKY_DPI if hanky else HTJB_DPI
    png = work / "textures" / (f"{game_name}-{cloth}.png" if hanky and cloth != "white" else f"{game_name}.png")
    png_path, json_path = printable.write_png(game_name, png, dpi=dpi, cloth=cloth if hanky else None)
    layout = printable.PrintLayout.for_board(game.board, dpi)
    img = cv2.imread(str(png_path))
    H, W = img.shape[:2]
    assert (W, H) == (layout.width, layout.height), (W, H, layout.width, layout.height)
    px_mm = dpi / 25.4
    width, height = W / px_mm * MM, H / px_mm * MM

    def world(col, row):
        return [((col + 0.5) / W - 0.5) * width, (0.5 - (row + 0.5) / H) * height]

    spots = {s: world(*layout.to_pixel(game.rules.spot_xy(s))) for s in game.rules.spots}
    # cross-check with the points.json users get: the named points must land where the truth says
    pts = json.loads(Path(json_path).read_text())["points"]
    for name, (c, r) in pts.items():
        if name in spots:
            wx, wy = world(c, r)
            assert abs(wx - spots[name][0]) < 1e-6 and abs(wy - spots[name][1]) < 1e-6, name
    return {"texture": str(png_path.resolve()), "width": width, "height": height, "spots": spots,
            "mm_per_unit": layout.mm_per_unit, "hanky": hanky}


# ---------------------------------------------------------------------------- positions
def playout(game, rng: random.Random, most: int, least: int = 0) -> dict:
    """The position after ``least`` to ``most`` random legal steps from the start (fewer when
    the game ends first)."""
    s = game.new()
    for _ in range(rng.randint(least, most)):
        steps = s.legal_steps()
        if not steps:
            break
        s = s.play(rng.choice(list(steps)))
    return s.position()


def as_truth(position) -> dict:
    return {s: [p.owner, p.kind] for s, p in sorted(position.items())}


def colour_of(game, owner: int, kind: str) -> str:
    name = game.rules.piece_name(owner, kind)
    for word in COLOURS:
        if name.startswith(word):
            return word
    raise ValueError(f"no colour for {name!r}")


# ---------------------------------------------------------------------------- draws
class Draw:
    def __init__(self, rng: random.Random):
        self.r = rng

    def u(self, a, b):
        return self.r.uniform(a, b)

    def lamp(self, centre_h: float, extent: float) -> dict:
        r = self.r
        h = centre_h * self.u(0.8, 1.6)
        off = self.u(0.0, 0.9) * h
        az = self.u(0, 2 * math.pi)
        pos = [off * math.cos(az), off * math.sin(az), h]
        target = [self.u(-0.15, 0.15) * extent, self.u(-0.15, 0.15) * extent, 0.0]
        size = self.u(0.04, 0.45) * max(0.4, h)
        # power scaled with the squared distance, so brightness varies by the chosen factor only
        d2 = sum((p - t) ** 2 for p, t in zip(pos, target))
        bright = math.exp(self.u(math.log(0.5), math.log(1.6)))
        kelvin = self.u(3000, 6500)
        return {"pos": pos, "target": target, "size": size, "power": LAMP_W * d2 / 0.36 * bright,
                "kelvin": kelvin, "rgb": kelvin_rgb(kelvin), "brightness": bright}

    def window(self, extent: float) -> dict | None:
        if self.r.random() > 0.35:
            return None
        az = self.u(0, 2 * math.pi)
        dist = self.u(1.0, 1.8)
        h = self.u(0.5, 1.2)
        return {"pos": [dist * math.cos(az), dist * math.sin(az), h], "size": [self.u(0.8, 1.4), self.u(0.9, 1.5)],
                "power": self.u(150, 500) * (dist * dist + h * h) / 2.0, "rgb": [0.75, 0.86, 1.0]}

    def world(self) -> dict:
        return {"rgb": [0.8, 0.85, 1.0], "strength": self.u(0.03, 0.15)}

    def camera(self, extent: float, res, tilt=None) -> dict:
        lens = self.u(24, 35)
        tilt = self.u(0, 35) if tilt is None else tilt
        yaw = self.u(-40, 40)
        share = self.u(0.72, 0.9)  # of the frame's height taken by the print, as turned by the yaw
        sensor_h = 36.0 * res[1] / res[0]
        turned = extent * (abs(math.cos(math.radians(yaw))) + abs(math.sin(math.radians(yaw))))
        dist = (turned / share) / 2 / (sensor_h / 2 / lens)
        dist *= 1 + 0.3 * math.sin(math.radians(tilt))  # the near edge of a tilted board looms larger
        return {"lens": lens, "tilt": tilt, "yaw": yaw, "roll": self.u(-4, 4), "distance": dist,
                "target": [self.u(-0.04, 0.04) * extent, self.u(-0.04, 0.04) * extent, 0.0], "share": share}

    def hand(self, spots: dict, extent: float, pieces_h: float) -> dict:
        names = sorted(spots)
        x, y = spots[self.r.choice(names)]
        x += self.u(-0.03, 0.03) * extent
        y += self.u(-0.03, 0.03) * extent
        rest = self.r.random() < 0.4
        z = pieces_h + self.u(0.02, 0.03) if rest else self.u(0.04, 0.14)
        out = math.atan2(y, x) if math.hypot(x, y) > 0.02 else self.u(-math.pi, math.pi)
        heading = math.degrees(out) + 90 + self.u(-35, 35)
        tones = [(0.85, 0.62, 0.5), (0.7, 0.48, 0.36), (0.45, 0.28, 0.18), (0.22, 0.13, 0.08)]
        sleeves = [(0.2, 0.25, 0.4), (0.5, 0.1, 0.1), (0.05, 0.05, 0.05), (0.6, 0.6, 0.58), (0.15, 0.35, 0.2)]
        return {"pos": [x, y, z], "heading": heading, "pitch": self.u(-10, 5), "roll": self.u(-15, 15),
                "scale": self.u(0.9, 1.1), "skin": list(self.r.choice(tones)), "sleeve": list(self.r.choice(sleeves)),
                "resting": rest}


# ---------------------------------------------------------------------------- pieces
# The games of issue 33, whose pieces are not the mills' men or Brain Hanky's rings and gems.
NEW_FAMILIES = ("twin-grids", "circles", "brainmaster")
COPPER = (0.95, 0.64, 0.54)  # a copper coin's metal (linear RGB)


def in_play(game, owner: int, kind: str) -> bool:
    """Whether legal play can put a piece of this colour and kind down: Brainmaster's indicator
    pegs are black or white and its code pegs never are (``engine.rules.code_pegs``); Thinking
    In Circles' tokens belong to nobody (``Piece(1, "token")``). Every other game: all of them."""
    family = game.rules.family
    if family == "brainmaster":
        from engine.rules.code_pegs import BLACK, KEY, WHITE

        return (kind == KEY) == (owner in (BLACK, WHITE))
    if family == "circles":
        return owner == 1
    return True


def peg_profile(r: float, h: float, dome: float, steps: int = 8) -> list[list[float]]:
    """A peg's lathe profile (``scene.lathe_mesh``): a cylinder of radius ``r`` whose top is
    rounded over ``dome`` of its height (a quarter ellipse, ``dome`` at most ``r``), its foot's
    edge eased by a tenth of a millimetre. Bottom centre first, top centre last."""
    if not (0 < dome <= min(r, h) and r > 0 and h > 0):
        raise ValueError(f"a peg of radius {r}, height {h} cannot have a rounded top of {dome}")
    e = min(0.0001, 0.1 * r)
    side = h - dome
    cap = [[r * math.cos(a), side + dome * math.sin(a)]
           for a in (math.pi / 2 * i / steps for i in range(steps))]
    return [[0.0, 0.0], [r - e, 0.0], [r, e]] + cap + [[0.0, h]]


def coin_profile(r: float, h: float) -> list[list[float]]:
    """A coin's lathe profile: a raised rim round a face sunk by a fifth of its thickness."""
    return [[0.0, 0.0], [r, 0.0], [r, h], [0.9 * r, h], [0.86 * r, 0.8 * h], [0.0, 0.8 * h]]


def bead_profile(r: float, h: float, steps: int = 12) -> list[list[float]]:
    """A round bead standing on one end of its hole: a turned ellipse ``2 r`` wide and ``h``
    tall, cut flat where the hole's ends are (a third of ``r`` round the axis)."""
    t0 = math.asin(1 / 3)
    c = h / (2 * math.cos(t0))  # the ellipse's half height, so that the cut bead stands h tall
    arc = [[r * math.sin(t), c * (math.cos(t0) - math.cos(t))]
           for t in (t0 + (math.pi - 2 * t0) * i / steps for i in range(steps + 1))]
    arc[0][1], arc[-1][1] = 0.0, h
    return [[0.0, 0.0]] + arc + [[0.0, h]]


def new_piece_look(game, owner: int, kind: str, mpu: float, d: Draw, variant: int) -> dict:
    """How a piece of issue 33's games looks in a setup (``variant``: the setup's number, which
    picks between the two kinds of gem or token a player may own). Sizes follow the prints
    (``vision.printable.UNIT_MM``) and what fits between their spots:

    * twin-grids gems: faceted, 11-12.5 mm across on grid points 15.9 mm apart diagonally;
      acrylic (variant 0) or coloured glass (variant 1), red and blue;
    * Thinking In Circles tokens: the rulebook's pennies cannot fit spaces 9.4 mm apart, so a
      small copper coin (variant 0) or an orange bead (variant 1), 7.2-7.8 mm across;
    * Brainmaster: code pegs 9-10 mm across and 5.5-7 mm tall, indicator pegs 3.3-3.75 mm across
      and 3-4 mm tall, each a cylinder with a rounded top standing in its printed hole (rings of
      0.36 and 0.14 hole pitches). Pieces are jittered less than men (``jitter``): an indicator
      peg's hole is 5.4 mm from the next."""
    if kind == "gem":
        colour = colour_of(game, owner, kind)
        r, h = d.u(5.5, 6.25) * MM, d.u(4.5, 5.5) * MM
        if variant % 2 == 0:
            mat = {"type": "plastic", "rgb": list(COLOURS[colour]), "rough": d.u(0.03, 0.12),
                   "clearcoat": d.u(0.6, 1.0)}
        else:
            mat = {"type": "glass", "rgb": list(COLOURS[colour]), "rough": d.u(0.02, 0.1), "opacity": d.u(0.55, 0.75)}
        return {"shape": "gem", "size": [r, h], "material": mat, "colour": colour, "jitter": 0.0008}
    if kind == "token":
        r = d.u(3.6, 3.9) * MM
        if variant % 2 == 0:
            h = d.u(1.1, 1.4) * MM
            return {"shape": "lathe", "size": [r, h], "profile": coin_profile(r, h), "colour": "copper",
                    "material": {"type": "metal", "rgb": list(COPPER), "rough": d.u(0.2, 0.4)}, "jitter": 0.0008}
        h = d.u(5.0, 6.0) * MM
        return {"shape": "lathe", "size": [r, h], "profile": bead_profile(r, h), "colour": "orange",
                "material": {"type": "plastic", "rgb": list(COLOURS["orange"]), "rough": d.u(0.1, 0.3),
                             "clearcoat": d.u(0.2, 0.6)}, "jitter": 0.0008}
    if kind in ("code", "key"):
        colour = colour_of(game, owner, kind)
        if kind == "code":
            r, h, jitter = d.u(0.30, 0.333) * mpu, d.u(5.5, 7.0) * MM, 0.0006
        else:
            r, h, jitter = d.u(0.11, 0.125) * mpu, d.u(3.0, 4.0) * MM, 0.0003
        dome = min(r, h) * d.u(0.5, 0.9)
        return {"shape": "lathe", "size": [r, h], "profile": peg_profile(r, h, dome), "colour": colour,
                "material": {"type": "plastic", "rgb": list(COLOURS[colour]), "rough": d.u(0.1, 0.3),
                             "clearcoat": d.u(0.2, 0.6)}, "jitter": jitter}
    raise ValueError(f"no look for a {kind} of {game.name}")


def piece_set(game, tex: dict, rng: random.Random, wood: bool, variant: int = 0) -> dict:
    """How this setup's pieces look: shape sizes (m) and materials per (owner, kind).
    ``variant``: the setup's number, for issue 33's games (``new_piece_look``)."""
    d = Draw(rng)
    mpu = tex["mm_per_unit"] * MM
    looks = {}
    new = game.rules.family in NEW_FAMILIES
    for owner in range(1, game.rules.colours + 1):
        for kind in game.rules.piece_kinds:
            if new:
                if in_play(game, owner, kind):
                    looks[f"{owner}/{kind}"] = new_piece_look(game, owner, kind, mpu, d, variant)
                continue
            colour = colour_of(game, owner, kind)
            if kind == "man":
                shape = {"shape": "man", "size": [0.34 * mpu * d.u(0.93, 1.0), d.u(0.004, 0.006)]}
                if wood and colour in WOOD:
                    mat = {"type": "wood", "rgb": list(WOOD[colour]), "rough": d.u(0.3, 0.5),
                           "clearcoat": d.u(0.3, 0.7), "seed": d.u(0, 10)}
                else:
                    mat = {"type": "plastic", "rgb": list(COLOURS[colour]), "rough": d.u(0.08, 0.3),
                           "clearcoat": d.u(0.0, 0.3)}
            elif kind == "ring":
                shape = {"shape": "ring", "size": [0.1025 * mpu, 0.0325 * mpu]}
                mat = {"type": "plastic", "rgb": list(COLOURS[colour]), "rough": d.u(0.1, 0.3)}
            elif kind == "gem":
                shape = {"shape": "gem", "size": [0.12 * mpu, 0.07 * mpu]}
                mat = {"type": "metal", "rgb": list(COLOURS[colour]), "rough": d.u(0.08, 0.2)}
            else:
                raise ValueError(kind)
            looks[f"{owner}/{kind}"] = {**shape, "material": mat, "colour": colour}
    return looks


def place(position: dict, tex: dict, looks: dict, rng: random.Random) -> list[dict]:
    out = []
    for spot, (owner, kind) in sorted(position.items()):
        x, y = tex["spots"][spot]
        look = looks[f"{owner}/{kind}"]
        jitter = look.get("jitter", 0.0012 if not tex["hanky"] else 0.0015)
        out.append({"spot": spot, "x": x + max(-2, min(2, rng.gauss(0, 0.5))) * jitter,
                    "y": y + max(-2, min(2, rng.gauss(0, 0.5))) * jitter, "rot": rng.uniform(0, 2 * math.pi),
                    "shape": look["shape"], "size": look["size"], "material": look["material"],
                    **({"profile": look["profile"]} if "profile" in look else {})})
    return out


def calibration_pieces(game) -> tuple[dict, str]:
    """(position, description) of a setup's calibration-pieces picture: ``calibration_layout``'s
    (the game's start, or one piece of each class) for every game but two of issue 33's, whose
    layouts the reader does not give yet and this set fixes itself, every class in play shown:

    * Thinking In Circles: the five tokens on their start spaces (the tokens are one class);
    * Brainmaster: guess rows 1-3 filled with the code colours in turn (R B G Y / O R B G / Y O R B
      with the box's five: each colour twice or more) and each of those rows answered with two
      black indicator pegs (holes k1, k2) and two white ones (k3, k4), rows 4 on empty.
    """
    family = game.rules.family
    if family == "circles":
        return dict(game.new().position()), "the five tokens on their start spaces"
    if family == "brainmaster":
        from engine.boards.brainmaster import brainmaster_for
        from engine.core import Piece
        from engine.rules.code_pegs import BLACK, CODE, FIRST_CODE_COLOUR, KEY, WHITE

        geo = brainmaster_for(game.board)
        n = game.rules.colours - FIRST_CODE_COLOUR + 1
        pos, i = {}, 0
        for row in (1, 2, 3):
            for hole in range(geo.pegs):
                pos[geo.code_spot(row, hole)] = Piece(FIRST_CODE_COLOUR + i % n, CODE)
                i += 1
            for hole in range(geo.pegs):
                pos[geo.key_spot(row, hole)] = Piece(BLACK if hole < geo.pegs // 2 else WHITE, KEY)
        return pos, "rows 1-3: the code colours in turn, two black and two white indicator pegs each"
    return calibration_layout(game)


def surface(tex: dict, rng: random.Random) -> dict:
    """The sheet's shape: paper bows gently; a bandanna has wrinkles and a fold or two."""
    d = Draw(rng)
    w = max(tex["width"], tex["height"])
    if tex["hanky"]:
        waves = [[d.u(0.0008, 0.0025), *polar(d.u(2 * math.pi / 0.35, 2 * math.pi / 0.12), d.u(0, math.pi)),
                  d.u(0, 6.3)] for _ in range(5)]
        folds = []
        for _ in range(rng.randint(1, 3)):
            a = d.u(0, math.pi)
            folds.append([d.u(0.002, 0.004), d.u(-0.4, 0.4) * w, d.u(-0.4, 0.4) * w, math.cos(a), math.sin(a),
                          d.u(0.006, 0.015)])
        # the lowest the cloth dips stays above the table
        return {"base": 0.0005 + sum(w[0] for w in waves), "waves": waves, "folds": folds}
    waves = [[d.u(0.0003, 0.0012), *polar(d.u(2 * math.pi / 0.6, 2 * math.pi / 0.25), d.u(0, math.pi)),
              d.u(0, 6.3)] for _ in range(2)]
    return {"base": 0.0003 + sum(w[0] for w in waves), "waves": waves, "folds": []}


def polar(k, a):
    return k * math.cos(a), k * math.sin(a)


# ---------------------------------------------------------------------------- specs
def make_specs(set_name: str, work: Path, only: str | None = None, limit: int | None = None):
    conf = SETS[set_name]
    rng = random.Random(conf["seed"])
    boards, frames = {}, []
    for gi, (game_name, n_setups, n_frames, res, opts) in enumerate(conf["games"]):
        if only and game_name != only:
            # the setups' seeds still drawn, so that a setup of the game asked for is the one the
            # whole set renders (its camera, lamp and pieces), as ``--full-set --only`` needs
            for _ in range(n_setups):
                rng.random()
            continue
        game = engine.load(game_name)
        tex = board_texture(game_name, work, opts.get("cloth", "white"))
        extent = max(tex["width"], tex["height"])
        short = opts.get("name") or re.sub(r"[^a-z0-9]+", "", game_name.replace("mens-morris", "mm"))[:10]
        for k in range(n_setups):
            srng = random.Random(rng.random())
            d = Draw(srng)
            setup = f"{short}-{k}"
            wood = bool(opts.get("wood")) and k == 0
            tilt = 30.0 + d.u(-2, 2) if opts.get("tilt30") and k == n_setups - 1 else None
            looks = piece_set(game, tex, srng, wood, k)
            tint = [d.u(0.9, 0.97), d.u(0.9, 0.96), d.u(0.85, 0.93)]
            boards[setup] = {"texture": tex["texture"], "width": tex["width"], "height": tex["height"],
                             "surface": "cloth" if tex["hanky"] else "paper", "tint": tint,
                             "rough": d.u(0.75, 0.95) if tex["hanky"] else d.u(0.45, 0.7),
                             "shape": surface(tex, srng), "spots": tex["spots"], "rest": bool(conf.get("rest")),
                             "table": {"light": [d.u(0.35, 0.6), d.u(0.2, 0.35), d.u(0.08, 0.18)],
                                       "dark": [d.u(0.1, 0.2), d.u(0.05, 0.1), d.u(0.02, 0.05)],
                                       "rough": d.u(0.3, 0.6), "scale": d.u(4, 9), "seed": d.u(0, 100)}}
            if any(look["material"]["type"] == "glass" for look in looks.values()):
                # light through a glass gem's faces and back from the paper (``train_scenes.py``'s glass)
                boards[setup]["bounces"] = {"max": 12, "transmission": 8}
            camera = d.camera(extent, res, tilt)
            cal_lamp = d.lamp(0.7 if not tex["hanky"] else 1.3, extent)
            cal_lamp["power"] *= 1.0 / cal_lamp["brightness"]  # the calibration lamp: normal light
            cal_lamp["brightness"] = 1.0
            cal_world = d.world()
            cal_exposure = d.u(-0.3, 0.4)
            k1 = d.u(-0.12, 0.05)
            pieces_h = max(l["size"][1] for l in looks.values()) if not tex["hanky"] else 0.008
            base = {"board": setup, "res": [round(r * RES_SCALE) for r in res], "samples": 16 if not tex["hanky"] else 12,
                    "camera": camera, "k1": k1, "game": game_name, "setup": setup, "looks": looks,
                    **({"cloth": opts.get("cloth", "white")} if tex["hanky"] else {})}

            def frame(kind, idx, position, lamp, window, world, exposure, hand, **extra):
                name = f"{setup}/{kind if kind != 'frame' else f'f{idx:02d}'}"
                return {**base, "kind": kind, "name": name, "out": str(work / "raw" / set_name / name),
                        "seed": srng.randint(0, 2 ** 30), "position": as_truth(position),
                        "pieces": place(as_truth(position), tex, looks, srng), "lamp": lamp, "window": window,
                        "world": world, "exposure": exposure, "hand": hand,
                        "noise": {"full_well": d.u(1500, 6000), "read": d.u(1.0, 4.0)},
                        "jpeg_quality": srng.randint(80, 95), **extra}

            cal_pos, _ = calibration_pieces(game)
            frames.append(frame("calibration-empty", 0, {}, cal_lamp, None, cal_world, cal_exposure, None))
            frames.append(frame("calibration-pieces", 0, cal_pos, cal_lamp, None, cal_world, cal_exposure, None))
            if n_frames == "whole" or conf.get("play"):
                if n_frames == "whole":  # a seeded random game that ends in 10-24 steps
                    for _ in range(500):
                        grng = random.Random(srng.random())
                        s, line = game.new(), []
                        while len(line) < 24 and s.legal_steps():
                            st = grng.choice(list(s.legal_steps()))
                            line.append(st)
                            s = s.play(st)
                        if not s.legal_steps() and len(line) >= 10:
                            break
                    else:
                        raise RuntimeError(f"no random {game_name} game ended within 24 steps")
                else:
                    s, line = game.new(), []
                    for _ in range(n_frames):
                        st = srng.choice(list(s.legal_steps()))
                        line.append(st)
                        s = s.play(st)
                s = game.new()
                steps: list[str] = []
                for i, step in enumerate(line):
                    s = s.play(step)
                    steps.append(str(step))
                    lamp = dict(cal_lamp)
                    lamp["pos"] = [p + d.u(-0.05, 0.05) for p in cal_lamp["pos"]]
                    lamp["power"] = cal_lamp["power"] * d.u(0.85, 1.15)
                    frames.append(frame("frame", i, s.position(), lamp, None, cal_world,
                                        cal_exposure + d.u(-0.2, 0.2), None, step=str(step), steps=list(steps)))
            else:
                for i in range(n_frames):
                    position = playout(game, srng, opts.get("most", 60 if tex["hanky"] else 30),
                                       opts.get("least", 0))
                    if i % 3 == 0:
                        lamp, window, world, exposure = cal_lamp, None, cal_world, cal_exposure + d.u(-0.3, 0.3)
                    else:
                        lamp, window = d.lamp(0.7 if not tex["hanky"] else 1.3, extent), d.window(extent)
                        world, exposure = d.world(), d.u(-1.5, 1.5)
                    hand = d.hand(tex["spots"], extent, pieces_h) if srng.random() < 1 / 6 else None
                    frames.append(frame("frame", i, position, lamp, window, world, exposure, hand))
            # The full set too (``calibration_layout(full=True)``: several pieces of each class),
            # under the calibration lamp, from which docs/calibration.md tells a user of the learned
            # reader to calibrate; drawn last, so every other picture of the setup is as it was
            # rendered before it was added (``--full-set`` adds it to a stored set).
            full = calibration_layout(game, full=True)[0]
            frames.append(frame("calibration-full", 0, full, cal_lamp, None, cal_world, cal_exposure, None))
    if conf.get("step_from") is not None:
        frames += stepped(frames, conf["step_from"])
    if limit:
        frames = frames[:limit]
    return boards, frames


def stepped(frames: list[dict], at_least: tuple[float, ...]) -> list[dict]:
    """The same scenes one stop darker (``-s1``), for every clear frame at ``at_least[0]`` EV or
    more, and two stops darker (``-s2``, from the ``-s1`` frame) from ``at_least[1]`` on.

    ``arbiter play`` answers "over-exposed: lower the camera's exposure" by stepping a camera
    that can be set down a stop, and again two seconds later if the frames still say so; the
    next frames are these. Chosen by exposure alone, not by what any reader says, so the set
    stays independent of the reader. No random numbers are drawn (the noise seed is the frame's
    own plus the step): every other frame stays as it was."""
    out = []
    for f in frames:
        if f["kind"] != "frame" or f["hand"] is not None:
            continue
        prev = f["name"]
        for k, bright in enumerate(at_least, start=1):
            if f["exposure"] < bright:
                break
            out.append({**f, "kind": "frame-stepped", "name": f"{f['name']}-s{k}", "out": f"{f['out']}-s{k}",
                        "exposure": f["exposure"] - k, "seed": f["seed"] + k, "stepped_from": prev})
            prev = f"{f['name']}-s{k}"
    return out


def blown_share(image: np.ndarray, pixels: dict) -> float:
    """The share of the board (the hull of its points' pixels) clipped white: 250 or more in
    every channel, as a camera's histogram would show it."""
    pts = np.array(list(pixels.values()), np.float32)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, cv2.convexHull(pts).astype(np.int32), 1)
    inside = mask > 0
    return float(np.mean(image[inside].min(axis=1) >= 250)) if inside.any() else 0.0


def blown_twins(frames: list[dict], stored: list[dict], out_dir: Path) -> list[dict]:
    """Darker twins (``stepped``, one and two stops) of the stored clear frames that have none
    and whose board is ``BLOWN`` or more clipped white; each twin says how much (``blown``)."""
    have = {r["stepped_from"] for r in stored if r["kind"] == "frame-stepped"}
    shares = {}
    for r in stored:
        name = r["file"][:-4]
        if r["kind"] == "frame" and not r["hand"] and name not in have:
            img = cv2.imread(str(out_dir / r["file"]), cv2.IMREAD_COLOR)
            if img is not None and (share := blown_share(img, r["pixels"])) >= BLOWN:
                shares[name] = round(share, 3)
    base = [f for f in frames if f["kind"] == "frame" and f["name"] in shares]
    return [{**t, "blown": shares[t["name"].rsplit("-s", 1)[0]]} for t in stepped(base, (-math.inf, -math.inf))]


def asked_twins(frames: list[dict], stored: list[dict], names: set[str]) -> list[dict]:
    """Darker twins (``stepped``, one and two stops) of the stored clear frames ``names`` that
    have none: frames a reader answered with "over-exposed: lower the camera's exposure" under
    a lamp bright on the pieces but not on the paper (neither ``STEPS`` nor ``BLOWN`` picks
    them). The benchmark reads a twin only when the reader asks for a darker picture, so
    twins of every clear frame would give the same figures as twins of the frames it asks
    about; these are what the camera shows after ``arbiter play`` has stepped it down."""
    have = {r["stepped_from"] for r in stored if r["kind"] == "frame-stepped"}
    clear = {r["file"][:-4] for r in stored if r["kind"] == "frame" and not r["hand"]}
    wanted = {n[:-4] if n.endswith(".jpg") else n for n in names}
    unknown = wanted - clear
    if unknown:
        raise SystemExit(f"not clear frames of the stored set: {', '.join(sorted(unknown))}")
    base = [f for f in frames if f["kind"] == "frame" and f["name"] in wanted - have]
    return [{**t, "asked": True} for t in stepped(base, (-math.inf, -math.inf))]


# ---------------------------------------------------------------------------- post-processing
def missing_full_sets(frames: list[dict], stored: list[dict]) -> list[dict]:
    """The full-set calibration pictures (``calibration-full``) of ``frames`` that the stored set's
    records ``stored`` lack, for the setups it holds (a set cut to its sample keeps a few)."""
    setups = {r["setup"] for r in stored}
    have = {r["setup"] for r in stored if r["kind"] == "calibration-full"}
    return [f for f in frames if f["kind"] == "calibration-full" and f["setup"] in setups - have]


def distort(img: np.ndarray, k1: float, f_px: float) -> np.ndarray:
    """Radial lens distortion: a point at normalised radius r_u appears at r_u (1 + k1 r_u^2)."""
    h, w = img.shape[:2]
    cx, cy = (w - 1) / 2, (h - 1) / 2
    u, v = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    xd, yd = (u - cx) / f_px, (v - cy) / f_px
    xu, yu = xd.copy(), yd.copy()
    for _ in range(8):  # invert x_d = x_u (1 + k1 r_u^2)
        s = 1 + k1 * (xu * xu + yu * yu)
        xu, yu = xd / s, yd / s
    return cv2.remap(img, xu * f_px + cx, yu * f_px + cy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def distort_point(p, k1, f_px, w, h):
    cx, cy = (w - 1) / 2, (h - 1) / 2
    x, y = (p[0] - cx) / f_px, (p[1] - cy) / f_px
    s = 1 + k1 * (x * x + y * y)
    return [x * s * f_px + cx, y * s * f_px + cy]


def sensor_noise(img: np.ndarray, full_well: float, read: float, rng: np.random.Generator) -> np.ndarray:
    lin = (img.astype(np.float32) / 255.0) ** 2.2
    e = lin * full_well
    e = e + rng.normal(0, 1, e.shape).astype(np.float32) * np.sqrt(np.maximum(e, 0) + read * read)
    out = np.clip(e / full_well, 0, 1) ** (1 / 2.2)
    return np.clip(out * 255 + 0.5, 0, 255).astype(np.uint8)


def raw_render(fr: dict) -> tuple[np.ndarray, dict, float]:
    """Blender's picture of ``fr`` bent by the lens (``k1``), the side file ``scene.py`` wrote
    beside it (the spots' pixels, what is covered), and the focal length in pixels: where
    every set's finishing starts (``post`` here, ``train_scenes.finish``)."""
    img = cv2.imread(fr["out"] + ".png")
    if img is None:
        raise RuntimeError(f"Blender did not write {fr['out']}.png")
    side = json.loads(Path(fr["out"] + ".json").read_text())
    f_px = fr["camera"]["lens"] / 36.0 * img.shape[1]
    return distort(img, fr["k1"], f_px), side, f_px


def post(fr: dict, out_dir: Path) -> dict:
    img, side, f_px = raw_render(fr)
    h, w = img.shape[:2]
    rng = np.random.default_rng(fr["seed"])
    img = sensor_noise(img, fr["noise"]["full_well"], fr["noise"]["read"], rng)
    path = out_dir / (fr["name"] + ".jpg")
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, fr["jpeg_quality"]])
    pixels = {s: [round(c, 1) for c in distort_point(p, fr["k1"], f_px, w, h)] for s, p in side["pixels"].items()}
    rec = {k: fr[k] for k in ("game", "setup", "kind", "position", "exposure", "camera", "lamp", "window", "world",
                              "k1", "noise", "jpeg_quality", "res", "samples")}
    rec["file"] = fr["name"] + ".jpg"
    rec["hand"] = fr["hand"] is not None
    rec["hand_pose"] = fr["hand"]
    rec["covered"] = sorted(side["covered"])
    in_frame = [s for s, (x, y) in pixels.items() if not (0 <= x < w and 0 <= y < h)]
    rec["spots_outside_frame"] = in_frame
    rec["pixels"] = pixels
    rec["looks"] = fr["looks"]
    for k in ("step", "steps", "cloth", "stepped_from", "blown"):
        if k in fr:
            rec[k] = fr[k]
    return rec


# ---------------------------------------------------------------------------- main
FRAME_DONE = re.compile(r"PHOTOREAL frame (\d+)/(\d+) (\S+) ([\d.]+) s")  # scene.py's line per picture


def run_blender(blender: str, threads: int, jobs: Path, log: Path, by_out: dict, done_one) -> int:
    """Render ``jobs`` (``scene.py``'s boards and frames) in one Blender process of ``threads``
    threads, its output appended to ``log``; ``done_one(frame, render seconds, pictures done,
    Blender's pid)`` for each picture as Blender finishes it (``by_out``: frames by their
    ``out``), its error lines echoed. Blender's exit code."""
    cmd = [blender, "-b", "--factory-startup", "-t", str(threads), "-P", str(HERE / "scene.py"), "--", str(jobs)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    done = 0
    with open(log, "a") as out:
        for line in proc.stdout:
            out.write(line)
            m = FRAME_DONE.match(line)
            if m:
                done += 1
                done_one(by_out[m.group(3)], float(m.group(4)), done, proc.pid)
            elif "Error" in line or "Traceback" in line:
                print("blender: " + line.rstrip(), flush=True)
    return proc.wait()


def blender_exe() -> str | None:
    return os.environ.get("BLENDER") or shutil.which("blender")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("train", "heldout"):  # training scenes and held-out sets (train_scenes.py)
        # named train_scenes, not training: the repository's root (on sys.path above) holds the
        # spot network's ``training`` package, which an ``import training`` found first
        import train_scenes

        return train_scenes.main(argv)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("set", choices=sorted(SETS))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--work", default=None, help="folder for textures and raw renders (default: a temp folder)")
    ap.add_argument("--out", default=None, help=f"where the set goes (default {DATA}/<set>)")
    ap.add_argument("--only", default=None, help="one game only (for trying the scene)")
    ap.add_argument("--limit", type=int, default=None, help="the first N frames only")
    ap.add_argument("--resume", action="store_true", help="keep frames already rendered in --work")
    ap.add_argument("--stepped", action="store_true",
                    help="render only the frames one stop darker (kind frame-stepped) and merge them into the stored set")
    ap.add_argument("--blown", action="store_true",
                    help="render only the darker twins of stored clear frames whose board is clipped white "
                         f"({BLOWN * 100:.0f}%% or more) and that have none, and merge them into the stored set "
                         "(a full run does this at its end)")
    ap.add_argument("--twins", default=None,
                    help="render only the darker twins (one and two stops) of these stored clear frames "
                         "(comma-separated, e.g. bhblue-0/f02,bhblue-1/f05): frames a reader asked to step "
                         "down that have none; merged into the stored set")
    ap.add_argument("--full-set", action="store_true",
                    help="render only the full-set calibration pictures (kind calibration-full) the stored set "
                         "lacks and merge them into it (a game set rendered before they were drawn)")
    ap.add_argument("--setups", default=None,
                    help="render only these setups (comma-separated, e.g. bhblue-0,bhblue-1) and merge them "
                         "into the stored set, keeping its other setups as they are")
    args = ap.parse_args(argv)
    blender = blender_exe()
    if not blender:
        print("blender is not installed: `sudo apt-get install blender` (Cycles on CPU is enough), "
              "or set BLENDER=/path/to/blender", file=sys.stderr)
        return 2
    work = Path(args.work or tempfile.mkdtemp(prefix="photoreal-")).resolve()
    out_dir = Path(args.out) if args.out else DATA / args.set
    boards, frames = make_specs(args.set, work, args.only, args.limit)
    kept: list[dict] = []  # records of the stored set's other setups (--setups) or frames (--stepped)
    stored = out_dir / "set.json"
    # a run that adds to the stored set rather than making it anew
    merging = bool(args.stepped or args.blown or args.twins or args.setups or args.full_set)
    stored_meta = json.loads(stored.read_text()) if merging and stored.exists() else None
    if args.full_set:
        if stored_meta is None:
            print(f"--full-set needs a stored set ({stored})", file=sys.stderr)
            return 2
        kept = stored_meta["frames"]
        frames = missing_full_sets(frames, kept)
        if not frames:
            print(f"{args.set}: every setup has its full-set picture already (or the set draws none)")
            return 0
    elif args.stepped:
        frames = [f for f in frames if f["kind"] == "frame-stepped"]
        if stored_meta is not None:
            kept = [r for r in stored_meta["frames"] if r["kind"] != "frame-stepped"]
    elif args.blown or args.twins:
        if stored_meta is None or (args.blown and "step_from" not in SETS[args.set]):
            print(f"--{'blown' if args.blown else 'twins'} needs a stored set"
                  f"{' with exposure steps' if args.blown else ''} ({stored})", file=sys.stderr)
            return 2
        kept = stored_meta["frames"]
        frames = blown_twins(frames, kept, out_dir) if args.blown else \
            asked_twins(frames, kept, set(args.twins.split(",")))
    elif args.setups:
        wanted = set(args.setups.split(","))
        unknown = wanted - {f["setup"] for f in frames}
        if unknown:
            print(f"no setup {', '.join(sorted(unknown))} in set {args.set}", file=sys.stderr)
            return 2
        frames = [f for f in frames if f["setup"] in wanted]
        if stored_meta is not None:
            kept = [r for r in stored_meta["frames"] if r["setup"] not in wanted]
    boards = {k: v for k, v in boards.items() if any(f["setup"] == k for f in frames)}
    todo = [f for f in frames if not (args.resume and Path(f["out"] + ".json").exists() and Path(f["out"] + ".png").exists())]
    for f in frames:
        Path(f["out"]).parent.mkdir(parents=True, exist_ok=True)
    jobs = work / f"jobs-{args.set}.json"
    jobs.write_text(json.dumps({"boards": boards, "frames": todo}))
    print(f"{args.set}: {len(frames)} frames ({len(todo)} to render) in {len(boards)} setups; work folder {work}",
          flush=True)
    if out_dir.exists() and not args.resume and not merging:
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    records: dict[str, dict] = {}
    by_out = {f["out"]: f for f in frames}

    # what else the stored set says of itself (a regression sample's ``sample``), kept when merging
    extra = {k: v for k, v in (stored_meta or {}).items() if k not in ("set", "seed", "frames", "made_by", "complete")}

    def save():
        recs = kept + [records[f["name"]] for f in frames if f["name"] in records]
        meta = {**extra, "set": args.set, "seed": SETS[args.set]["seed"], "frames": recs,
                "made_by": "benchmarks/photoreal/make_set.py (Blender/Cycles, scene.py); not vision.sim",
                "complete": len(recs) == len(frames) + len(kept)}
        (out_dir / "set.json").write_text(json.dumps(meta, indent=None, separators=(",", ":")) + "\n")

    for f in frames:
        if f not in todo:
            records[f["name"]] = post(f, out_dir)
    t0 = time.time()
    if todo:
        def done_one(f, render_s, done, _pid):
            records[f["name"]] = post(f, out_dir)
            save()
            left = (time.time() - t0) / done * (len(todo) - done)
            print(f"frame {done}/{len(todo)} {f['name']} ({f['kind']}) {render_s:.1f} s, "
                  f"about {left / 60:.0f} min left", flush=True)

        log = work / f"blender-{args.set}.log"
        if run_blender(blender, args.threads, jobs, log, by_out, done_one) != 0:
            print(f"blender failed; see {log}", file=sys.stderr)
            save()
            return 1
    save()
    keep = {out_dir / r["file"] for r in [*records.values(), *kept]} | {out_dir / "set.json"}
    for p in list(out_dir.rglob("*.jpg")):  # frames of an earlier, larger run of this set
        if p not in keep:
            p.unlink()
    size = sum(p.stat().st_size for p in out_dir.rglob("*") if p.is_file())
    print(f"{args.set}: {len(records) + len(kept)} frames in {out_dir} ({size / 1e6:.1f} MB), {time.time() - t0:.0f} s")
    if "step_from" in SETS[args.set] and not (args.blown or args.twins or args.stepped or args.only or args.limit):
        return main([args.set, "--blown", "--threads", str(args.threads), "--work", str(work), "--out", str(out_dir)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
