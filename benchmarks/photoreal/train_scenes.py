"""Training scenes: photoreal pictures with everything a club's table varies, and held-out sets.

    .venv/bin/python benchmarks/photoreal/make_set.py train --setups 60 --out build/train-data
    .venv/bin/python benchmarks/photoreal/make_set.py heldout --factor wood --setups 6 --out DIR
    .venv/bin/python benchmarks/photoreal/make_set.py train --hold-out turn30,wood,colours:red-blue ...

The evaluation sets (``make_set.py``'s ``SETS``) keep to one look of men, one ring size, black
and white, a board turned at most 4 degrees in the picture: a reader learnt on them would learn
those. Here every setup draws, from its own seed (``random.Random(f"{seed}-{index}")``, so a
larger run keeps the smaller run's setups): the game, the men's shape (``SHAPES``), height and
width, their material (``MATERIALS``) and colours (``PALETTE``, ``WOOD_TONES``, ``METALS``; any
two or three or four a person tells apart, ``distinct``), the Brain Hanky cloth's colour
(``CLOTH_COLOURS``), the camera (lens, tilt, the board's turn in the picture, resolution) and
lens distortion. Every frame draws its lighting (one to three lamps of 2700-6500 K, daylight
from a window, or both), exposure, white balance, focus and motion blur, sensor noise, JPEG,
maybe a hand, cups beside the board and an arm's shadow.

A **held-out factor** (``Factor``, parsed by ``parse_hold_out``) is a value a trainer must not
see: training setups that draw it are drawn again (``draw_setup``), and a ``heldout`` set has it
in every setup (``Factor.force``) and none of the other held-out factors. The rendering is
``scene.py`` inside Blender, as for the evaluation sets; the camera's faults are added here
(``finish``). Runs are resumable: pictures already in the output's ``set.json`` are kept.
"""

from __future__ import annotations

import functools
import json
import math
import os
import random
import re
import shutil
import sys
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import make_set as ms  # noqa: E402  (the evaluation sets' boards, draws and camera faults)

import engine  # noqa: E402
from engine.rules.code_pegs import BLACK, FIRST_CODE_COLOUR  # noqa: E402
from vision.calibration import calibration_layout  # noqa: E402

MM = 0.001
TRAIN_SEED = 40040
FRAMES = 8  # frames per setup, besides its two calibration pictures

# ---------------------------------------------------------------------------- what is drawn
# (game, weight, family): the mills boards ("men") and Brain Hanky ("hanky"). "four-players" is
# nine men's morris's board with men of four colours, as a four-player game would set them.
GAMES = [
    ("nine-mens-morris", 3, "men"), ("morabaraba", 2, "men"), ("three-mens-morris", 1, "men"),
    ("six-mens-morris", 1, "men"), ("seven-mens-morris", 1, "men"), ("tapatan", 1, "men"),
    ("saba", 1, "men"), ("shax", 1, "men"), ("kunjing", 1, "men"), ("four-players", 1, "men"),
    ("brain-hanky", 4, "hanky"), ("brain-hanky-gemless", 1, "hanky"),
]
# Issue 33's pieces, drawn only when a run asks for them (``--family new``, ``make train-data-new``):
# adding them to ``GAMES`` would change every later draw of the runs already made. "pegs":
# Brainmaster's code pegs (five colours drawn apart) and indicator pegs in their holes; "tokens":
# Thinking In Circles' one token kind (a coin of a drawn metal, or a bead of a drawn colour).
NEW_GAMES = [("brainmaster", 2, "pegs"), ("thinking-in-circles", 1, "tokens")]
PEG_MATERIALS = ("matte", "glossy", "glass")
PEG_ACROSS = (0.24, 0.34)  # a code peg's radius, of the hole pitch (the print's holes: 0.36)
PEG_MM = (4.0, 8.0)  # a code peg's height
KEY_ACROSS = (0.10, 0.13)  # an indicator peg's radius, of the hole pitch (the print's: 0.14)
KEY_MM = (2.5, 4.5)
TOKEN_MM = (3.3, 3.9)  # a token's radius (mm): the tracks' spaces lie 9.4 mm apart
FOUR_PLAYERS_BOARD = "nine-mens-morris"
FOUR_PLAYERS_CALIBRATION = ("a1", "g1", "a7", "g7")  # one man of each colour, owners 1-4 in turn
# A held-out set's four-player setups are Kunjing for four players instead (its own print and
# calibration layout): a reader can be calibrated and scored only for a game with four colours,
# and nine men's morris has two. The training runs keep nine men's morris's board (their draws
# and pictures stay what they were).
FOUR_PLAYERS_EVALUATED = "kunjing"


def board_game(s: dict) -> tuple[str, dict]:
    """(the engine game whose print the setup shows, its options) for setup ``s``."""
    if s["game"] != "four-players":
        return s["game"], {}
    if s.get("four_game"):
        return s["four_game"], {"players": 4}
    return FOUR_PLAYERS_BOARD, {}

SHAPES = ("flat", "bevelled", "domed", "stone", "coin")
MATERIALS = ("matte", "glossy", "metal", "wood", "glass")
HEIGHT_MM = (2.0, 12.0)  # men's height
COIN_MM = (2.0, 3.5)  # a coin's height (within HEIGHT_MM)
ACROSS = (0.50, 0.95)  # men's width, of the spacing between the nearest spots (at most one board unit)
TILT = (0.0, 45.0)  # camera from vertical, degrees
TURN = (-180.0, 180.0)  # the board's turn in the picture, degrees (counter-clockwise)
ROLL = (-8.0, 8.0)  # of it, the camera's roll about its axis
LENS = (20.0, 50.0)  # mm on a 36 mm-wide sensor (full-frame equivalent)
KELVIN = (2700.0, 6500.0)
LAMPS = (1, 3)
RING_SCALE = (0.65, 1.1)  # Brain Hanky rings and gems, of the evaluation sets' size
RESOLUTIONS = [(640, 480), (800, 600), (1024, 768), (1280, 720), (1280, 960), (1600, 900), (1920, 1080)]
HANKY_RESOLUTIONS = [(1280, 720), (1280, 960), (1600, 900), (1920, 1080)]  # 373 spots need the pixels
EXPOSURE = (-1.8, 1.5)  # EV, frames; the calibration pictures within -0.4..0.5

# linear RGB; any two (three, four) of a setup stand apart by ``DISTINCT`` (CIE76 Delta E)
PALETTE = {
    "white": (0.80, 0.80, 0.78), "black": (0.012, 0.012, 0.014), "red": (0.55, 0.03, 0.03),
    "blue": (0.03, 0.08, 0.45), "green": (0.05, 0.35, 0.08), "yellow": (0.85, 0.62, 0.03),
    "orange": (0.85, 0.30, 0.02), "purple": (0.25, 0.04, 0.40), "pink": (0.85, 0.35, 0.45),
    "teal": (0.02, 0.33, 0.38), "grey": (0.18, 0.18, 0.18), "cream": (0.75, 0.62, 0.42),
    "brown": (0.20, 0.08, 0.03), "navy": (0.01, 0.02, 0.12), "light-blue": (0.35, 0.55, 0.85),
}
WOOD_TONES = {
    "maple": (0.72, 0.56, 0.36), "beech": (0.62, 0.42, 0.24), "oak": (0.45, 0.29, 0.14),
    "cherry": (0.40, 0.14, 0.06), "walnut": (0.16, 0.08, 0.04), "ebony": (0.035, 0.025, 0.02),
}
METALS = {
    "silver": (0.85, 0.85, 0.88), "gold": (1.0, 0.72, 0.30), "copper": (0.95, 0.55, 0.40),
    "gunmetal": (0.22, 0.22, 0.24), "brass": (0.85, 0.75, 0.40),
}
DISTINCT = 30.0
# Brain Hanky cloths (BGR bytes of the print's ground); "blue" is the print itself
CLOTH_COLOURS = {
    "blue": (185, 105, 60), "white": (250, 250, 250), "cream": (200, 230, 245), "light-grey": (200, 200, 200),
    "yellow": (90, 220, 245), "pink": (200, 185, 245), "light-blue": (240, 215, 170), "green": (60, 130, 40),
    "red": (40, 40, 170), "black": (30, 30, 30), "navy": (90, 40, 20), "khaki": (120, 170, 190),
}
DEFAULT_HOLD_OUT = "turn30,wood,colours:red-blue,lens:45-50,cloth:green"


# ---------------------------------------------------------------------------- colour distance
def lab(rgb) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of a linear sRGB colour: how far apart a person sees two colours."""
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a, b) -> float:
    return math.dist(lab(a), lab(b))


def distinct(rgbs) -> bool:
    """Every two of these colours stand ``DISTINCT`` or more apart."""
    return all(delta_e(a, b) >= DISTINCT for i, a in enumerate(rgbs) for b in rgbs[i + 1:])


def colour_table(material: str) -> dict:
    return WOOD_TONES if material == "wood" else METALS if material == "metal" else PALETTE


# ---------------------------------------------------------------------------- held-out factors
@dataclass(frozen=True)
class Factor:
    """One held-out factor: ``kind`` and its argument, as written (``parse_hold_out``).

    ``turn30`` the board turned more than 30 degrees in the picture (``turn:A-B``: its size
    between A and B); ``wood`` wooden men (``material:M``, ``shape:S`` likewise); ``colours:A-B``
    men (or rings) of these two colours, in either order; ``lens:A-B`` a lens of A-B mm;
    ``res:WxH`` a resolution; ``cloth:C`` a Brain Hanky cloth; ``tilt:A-B`` a camera tilt."""

    kind: str
    arg: tuple

    @property
    def name(self) -> str:
        if self.kind == "turn" and self.arg == (30.0, 180.0):
            return "turn30"
        if self.kind == "material" and self.arg == ("wood",):
            return "wood"
        if self.kind in ("turn", "lens", "tilt"):
            return f"{self.kind}:{self.arg[0]:g}-{self.arg[1]:g}"
        if self.kind == "res":
            return f"res:{self.arg[0]}x{self.arg[1]}"
        return f"{self.kind}:{'-'.join(self.arg)}"

    @property
    def slug(self) -> str:
        """The name as a folder name: ``heldout-<slug>``."""
        return re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-")

    def applies(self, family: str) -> bool:
        """Whether setups of this family ("men", "hanky") can have the factor."""
        if self.kind in ("material", "shape"):
            return family == "men"
        if self.kind == "cloth":
            return family == "hanky"
        return True

    def matches(self, s: dict) -> bool:
        k, a = self.kind, self.arg
        if k == "turn":
            return a[0] < abs(s["turn"]) <= a[1]
        if k in ("lens", "tilt"):
            return a[0] <= s[k] <= a[1]
        if k == "res":
            return tuple(s["res"]) == a
        if k == "colours":
            return set(a) <= set(s["colours"])
        if k == "material":
            return s.get("material") == a[0]
        if k == "shape":
            return s.get("shape") == a[0]
        if k == "cloth":
            return s.get("cloth") == a[0]
        raise AssertionError(k)

    def force(self, s: dict, rng: random.Random) -> dict:
        """The setup ``s`` changed to have this factor (its other draws kept)."""
        s = dict(s)
        k, a = self.kind, self.arg
        if k == "turn":
            s["turn"] = rng.choice((-1, 1)) * rng.uniform(max(a[0], 1e-3), a[1])
        elif k in ("lens", "tilt"):
            s[k] = rng.uniform(*a)
        elif k == "res":
            s["res"] = list(a)
        elif k == "colours":  # the pair, and for three or four players others apart from it
            rest = [c for c in sorted(PALETTE) if c not in a]
            for _ in range(500):
                chosen = list(a) + rng.sample(rest, len(s["colours"]) - 2)
                if distinct([PALETTE[c] for c in chosen]):
                    break
            else:
                raise RuntimeError(f"no colours apart from {a}")
            rng.shuffle(chosen)
            s["colours"] = chosen
            if s["family"] == "men" and s["material"] not in ("matte", "glossy", "glass"):
                s["material"] = rng.choice(("matte", "glossy"))
        elif k == "material":
            s["material"] = a[0]
            table = colour_table(a[0])
            if not all(c in table for c in s["colours"]):
                s["colours"] = draw_colours(rng, table, len(s["colours"]))
        elif k == "shape":
            s["shape"] = a[0]
            s["height_mm"] = rng.uniform(*(COIN_MM if a[0] == "coin" else HEIGHT_MM))
        elif k == "cloth":
            s["cloth"] = a[0]
        return s


def parse_hold_out(text: str | None) -> list[Factor]:
    """``turn30,wood,colours:red-blue,lens:45-50,cloth:green`` as factors; "" or "none": none."""
    out = []
    for word in (text or "").split(","):
        word = word.strip().lower()
        if not word or word == "none":
            continue
        kind, _, arg = word.partition(":")
        try:
            if word == "turn30":
                f = Factor("turn", (30.0, 180.0))
            elif word == "wood":
                f = Factor("material", ("wood",))
            elif kind in ("turn", "lens", "tilt") and arg:
                lo, hi = (float(v) for v in arg.split("-"))
                if not lo < hi:
                    raise ValueError
                f = Factor(kind, (lo, hi))
            elif kind == "res" and arg:
                w, h = (int(v) for v in arg.split("x"))
                if (w, h) not in RESOLUTIONS:
                    raise SystemExit(f"hold-out {word!r}: resolution not drawn; choose one of "
                                     + ", ".join(f"{a}x{b}" for a, b in RESOLUTIONS))
                f = Factor("res", (w, h))
            elif kind == "colours" and arg:
                pair = tuple(_colour_names(arg))
                f = Factor("colours", pair)
            elif kind == "material" and arg in MATERIALS:
                f = Factor("material", (arg,))
            elif kind == "shape" and arg in SHAPES:
                f = Factor("shape", (arg,))
            elif kind == "cloth" and arg in CLOTH_COLOURS:
                f = Factor("cloth", (arg,))
            else:
                raise ValueError
        except ValueError:
            raise SystemExit(
                f"hold-out factor {word!r} not understood: use turn30, turn:A-B, wood, material:M "
                f"({', '.join(MATERIALS)}), shape:S ({', '.join(SHAPES)}), colours:A-B (of {', '.join(PALETTE)}), "
                f"lens:A-B (mm, within {LENS[0]:g}-{LENS[1]:g}), tilt:A-B, res:WxH, "
                f"cloth:C ({', '.join(CLOTH_COLOURS)})"
            ) from None
        out.append(f)
    return out


def _colour_names(arg: str) -> list[str]:
    """``red-blue`` or ``light-blue-navy``: two palette names (some names hold a dash)."""
    parts = arg.split("-")
    for i in range(1, len(parts)):
        a, b = "-".join(parts[:i]), "-".join(parts[i:])
        if a in PALETTE and b in PALETTE and a != b:
            return [a, b]
    raise ValueError(arg)


# ---------------------------------------------------------------------------- setups
def draw_colours(rng: random.Random, table: dict, n: int) -> list[str]:
    """``n`` colours of ``table`` that stand apart (``distinct``)."""
    names = sorted(table)
    for _ in range(500):
        pick = rng.sample(names, n)
        if distinct([table[c] for c in pick]):
            return pick
    raise RuntimeError(f"no {n} distinct colours in {names}")


def draw_game(rng: random.Random, family: str | None = None) -> tuple[str, str]:
    """A game and its family, by weight: of ``GAMES`` (no ``family``), of one family ("men",
    "hanky", "pegs", "tokens"), or of ``NEW_GAMES`` ("new")."""
    games = NEW_GAMES if family == "new" else GAMES if family is None else \
        [g for g in GAMES + NEW_GAMES if g[2] == family]
    name, _, fam = rng.choices(games, weights=[g[1] for g in games])[0]
    return name, fam


@functools.lru_cache(maxsize=None)
def players(game_name: str) -> int:
    """How many colours of men the game has (loading a game is slow for thousands of draws)."""
    return 4 if game_name == "four-players" else engine.load(game_name).rules.colours


def draw_new_pieces(rng: random.Random, s: dict) -> dict:
    """The pieces of a "pegs" or "tokens" setup (``NEW_GAMES``): colours a person tells apart
    and sizes round the prints' (Brainmaster's code colours as many as the game has)."""
    if s["family"] == "pegs":
        s["material"] = rng.choice(PEG_MATERIALS)
        n = s["players"] - FIRST_CODE_COLOUR + 1
        s["colours"] = draw_colours(rng, PALETTE, n)
        # the box's black and white indicator pegs in most setups, else any two apart from the
        # code colours' nearest (a club may use other small pegs)
        s["keys"] = ["black", "white"] if rng.random() < 0.7 else draw_colours(rng, PALETTE, 2)
        s["across"], s["height_mm"] = rng.uniform(*PEG_ACROSS), rng.uniform(*PEG_MM)
        s["key_across"], s["key_mm"] = rng.uniform(*KEY_ACROSS), rng.uniform(*KEY_MM)
        s["shape"] = "peg"
    else:
        s["shape"] = rng.choice(("coin", "bead"))
        if s["shape"] == "coin":
            s["material"] = "metal"
            s["colours"] = [rng.choice(sorted(METALS))]
        else:
            s["material"] = rng.choice(("matte", "glossy", "glass"))
            s["colours"] = [rng.choice(sorted(PALETTE))]
        s["across"] = rng.uniform(*TOKEN_MM)
    s["cloth"] = None
    s["res"] = list(rng.choice(HANKY_RESOLUTIONS))  # indicator pegs 5 mm apart need the pixels
    return s


def draw_factors(rng: random.Random, family: str | None = None) -> dict:
    """One setup's factors, all drawn here (no file is read or written)."""
    game, fam = draw_game(rng, family)
    n = players(game)
    s = {"game": game, "family": fam, "players": n}
    if fam in ("pegs", "tokens"):
        draw_new_pieces(rng, s)
    elif fam == "men":
        s["shape"] = rng.choice(SHAPES)
        # wood tones and metals hold too few colours far enough apart for three or four players
        s["material"] = rng.choice(MATERIALS if n == 2 else ("matte", "glossy", "glass"))
        s["height_mm"] = rng.uniform(*(COIN_MM if s["shape"] == "coin" else HEIGHT_MM))
        s["across"] = rng.uniform(*ACROSS)
        # black and white in a quarter of the setups, as most sets are; else any that stand apart
        if s["material"] in ("matte", "glossy") and n == 2 and rng.random() < 0.25:
            s["colours"] = rng.sample(["white", "black"], 2)
        else:
            s["colours"] = draw_colours(rng, colour_table(s["material"]), n)
        s["cloth"] = None
        s["res"] = list(rng.choice(RESOLUTIONS))
    else:
        s["shape"], s["material"] = "ring", "hanky"
        s["ring_scale"] = rng.uniform(*RING_SCALE)
        s["colours"] = ["white", "yellow"] if rng.random() < 0.6 else draw_colours(rng, PALETTE, 2)
        s["gems"] = ["silver", "gold"] if rng.random() < 0.7 else draw_colours(rng, METALS, 2)
        s["cloth"] = "blue" if rng.random() < 0.3 else rng.choice(sorted(CLOTH_COLOURS))
        s["res"] = list(rng.choice(HANKY_RESOLUTIONS))
    s["lens"] = rng.uniform(*LENS)
    s["tilt"] = rng.uniform(*TILT)
    s["turn"] = rng.uniform(*TURN)
    s["roll"] = rng.uniform(*ROLL)
    s["k1"] = rng.uniform(-0.15, 0.06)
    return s


def draw_setup(seed: int, index: int, hold_out: list[Factor], only: Factor | None = None,
               family: str | None = None) -> dict:
    """Setup ``index`` of the run seeded ``seed``: no held-out factor, or (``only``) exactly that one.

    Drawn again (from the same random stream, so the result is fixed) while it has a held-out
    factor; an evaluation setup is drawn of a family the factor applies to and then forced to it.
    ``family``: draw only games of that family (``draw_game``; "new": issue 33's pieces)."""
    rng = random.Random(f"{seed}-{index}")
    others = [f for f in hold_out if f != only]
    asked = family
    for _ in range(10000):
        family = asked
        if only is not None and asked is None:
            family = "hanky" if only.applies("hanky") and not only.applies("men") else \
                "men" if not only.applies("hanky") else None
        s = draw_factors(rng, family)
        if only is not None:
            if not only.applies(s["family"]):
                continue
            try:
                s = only.force(s, rng)
            except RuntimeError:  # e.g. wood for four players: too few distinct tones
                continue
        if not any(f.applies(s["family"]) and f.matches(s) for f in others):
            s["seed"] = rng.randint(0, 2 ** 30)
            if only is not None and s["game"] == "four-players":
                s["four_game"] = FOUR_PLAYERS_EVALUATED
            return s
    raise RuntimeError(f"no setup without {', '.join(f.name for f in others)} in 10000 draws")


# ---------------------------------------------------------------------------- men
def profile(shape: str, r: float, h: float, rng: random.Random) -> tuple[list, list | None]:
    """A man's lathe profile ([[r, z], ...] bottom to top, ``scene.lathe_mesh``) and, for a
    stone, its stretch along x and y."""
    if shape == "flat":
        b = min(0.0004, 0.2 * h)
        return [[0, 0], [r, 0], [r, h - b], [r - b, h], [0, h]], None
    if shape == "bevelled":  # a rounded chamfer of 30-50% of the height
        b = min(h * rng.uniform(0.3, 0.5), 0.45 * r)
        arc = [[r - b + b * math.cos(a), h - b + b * math.sin(a)] for a in np.linspace(0, math.pi / 2, 6)]
        return [[0, 0], [r, 0]] + arc + [[0, h]], None
    if shape == "domed":
        side = h * rng.uniform(0.2, 0.5)
        cap = [[r * math.cos(a), side + (h - side) * math.sin(a)] for a in np.linspace(0, math.pi / 2, 9)]
        return [[0, 0], [r, 0]] + cap[:-1] + [[0, h]], None
    if shape == "coin":  # a raised rim round a sunk face
        return [[0, 0], [r, 0], [r, h], [0.9 * r, h], [0.86 * r, 0.8 * h], [0, 0.8 * h]], None
    if shape == "stone":  # a pebble: an ellipse turned, stretched unevenly
        pts = [[r * math.sin(t), h / 2 * (1 - math.cos(t))] for t in np.linspace(0, math.pi, 13)]
        pts[0], pts[-1] = [0, 0], [0, h]
        return pts, [rng.uniform(0.9, 1.0), rng.uniform(0.75, 0.9)]
    raise ValueError(shape)


def men_material(material: str, colour: str, rng: random.Random) -> dict:
    rgb = list(colour_table(material)[colour])
    if material == "matte":
        return {"type": "plastic", "rgb": rgb, "rough": rng.uniform(0.5, 0.9), "clearcoat": 0.0}
    if material == "glossy":
        return {"type": "plastic", "rgb": rgb, "rough": rng.uniform(0.03, 0.25), "clearcoat": rng.uniform(0.2, 1.0)}
    if material == "metal":
        return {"type": "metal", "rgb": rgb, "rough": rng.uniform(0.08, 0.4)}
    if material == "wood":  # varnished or oiled, with grain
        return {"type": "wood", "rgb": rgb, "rough": rng.uniform(0.25, 0.6), "clearcoat": rng.uniform(0.0, 1.0),
                "seed": rng.uniform(0, 10)}
    if material == "glass":  # clear to frosted, a third to a half seen through
        return {"type": "glass", "rgb": rgb, "rough": rng.uniform(0.02, 0.3), "opacity": rng.uniform(0.5, 0.7)}
    raise ValueError(material)


def spacing(spots: dict) -> float:
    """The distance (m) between the nearest two spots: how wide a man may be."""
    pts = np.array(list(spots.values()))
    d = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(-1))
    d[np.diag_indices(len(pts))] = np.inf
    return float(d.min())


def looks_of(s: dict, game, tex: dict, rng: random.Random) -> dict:
    """How the setup's pieces look, per ``owner/kind`` (the evaluation sets' ``looks``)."""
    looks = {}
    kinds = ("man",) if s["game"] == "four-players" else game.rules.piece_kinds
    if s["family"] in ("pegs", "tokens"):
        return new_piece_looks(s, game, tex, rng)
    if s["family"] == "men":
        # of the spacing, but no wider than a board unit allows: tapatan's and three men's
        # morris's points lie three units apart, and their players use the other boards' men
        r = s["across"] * min(spacing(tex["spots"]), tex["mm_per_unit"] * MM) / 2
        h = s["height_mm"] * MM
        prof, stretch = profile(s["shape"], r, h, rng)
        for owner in range(1, s["players"] + 1):
            colour = s["colours"][owner - 1]
            look = {"shape": "lathe", "form": s["shape"], "size": [r, h], "profile": prof,
                    "material": men_material(s["material"], colour, rng), "colour": colour}
            if stretch:
                look["scale"] = stretch
            looks[f"{owner}/man"] = look
        return looks
    mpu = tex["mm_per_unit"] * MM
    k = s["ring_scale"]
    for owner in (1, 2):
        for kind in kinds:
            if kind == "ring":
                colour = s["colours"][owner - 1]
                looks[f"{owner}/ring"] = {"shape": "ring", "size": [0.1025 * mpu * k, 0.0325 * mpu * k],
                                          "material": {"type": "plastic", "rgb": list(PALETTE[colour]),
                                                       "rough": rng.uniform(0.1, 0.6)}, "colour": colour}
            else:
                colour = s["gems"][owner - 1]
                looks[f"{owner}/gem"] = {"shape": "gem", "size": [0.12 * mpu * k, 0.07 * mpu * k],
                                         "material": {"type": "metal", "rgb": list(METALS[colour]),
                                                      "rough": rng.uniform(0.05, 0.25)}, "colour": colour}
    return looks


def new_piece_looks(s: dict, game, tex: dict, rng: random.Random) -> dict:
    """Looks of a "pegs" or "tokens" setup's pieces (``draw_new_pieces``), per class in play
    (``make_set.in_play``): lathe-turned pegs with rounded tops, a coin or a bead."""
    mpu = tex["mm_per_unit"] * MM
    looks = {}
    for owner in range(1, game.rules.colours + 1):
        for kind in game.rules.piece_kinds:
            if not ms.in_play(game, owner, kind):
                continue
            if kind == "token":
                r = s["across"] * MM
                colour = s["colours"][0]
                if s["shape"] == "coin":
                    h = rng.uniform(1.0, 1.6) * MM
                    prof = ms.coin_profile(r, h)
                else:
                    h = rng.uniform(4.5, 6.5) * MM
                    prof = ms.bead_profile(r, h)
                mat = men_material(s["material"], colour, rng)
                jitter = 0.0008
            else:
                if kind == "key":
                    colour = s["keys"][0 if owner == BLACK else 1]
                    r, h, jitter = s["key_across"] * mpu, s["key_mm"] * MM, 0.0003
                else:
                    colour = s["colours"][owner - FIRST_CODE_COLOUR]
                    r, h, jitter = s["across"] * mpu, s["height_mm"] * MM, 0.0006
                prof = ms.peg_profile(r, h, min(r, h) * rng.uniform(0.5, 0.9))
                mat = men_material(s["material"], colour, rng)
            looks[f"{owner}/{kind}"] = {"shape": "lathe", "form": s["shape"], "size": [r, h], "profile": prof,
                                        "material": mat, "colour": colour, "jitter": jitter}
    return looks


# ---------------------------------------------------------------------------- boards
@functools.lru_cache(maxsize=None)
def printed(game_name: str, work: Path, cloth: str = "white") -> dict:
    """``make_set.board_texture``, written once per game, cloth and folder."""
    return ms.board_texture(game_name, work, cloth)


def cloth_texture(game_name: str, work: Path, cloth: str) -> dict:
    """The Brain Hanky print on a cloth of colour ``cloth``: the blue print's ground recoloured,
    with the white print's webs on light cloths (where the blue print's light webs would vanish)
    and the blue print's on dark ones; the markers' white stays white."""
    blue = printed(game_name, work, "blue")
    if cloth == "blue":
        return blue
    white = printed(game_name, work, "white")
    path = work / "textures" / f"{game_name}-{cloth}.png"
    if not path.exists():
        b = cv2.imread(blue["texture"]).astype(np.float32)
        w = cv2.imread(white["texture"]).astype(np.float32)
        ground = np.array(CLOTH_COLOURS["blue"], np.float32)
        share = 1 - np.clip(np.abs(b - ground).max(axis=2, keepdims=True) / 90.0, 0, 1)
        target = np.array(CLOTH_COLOURS[cloth], np.float32)
        light = float(np.dot(target[::-1], (0.2126, 0.7152, 0.0722))) > 128
        out = share * target + (1 - share) * (w if light else b)
        cv2.imwrite(str(path), np.clip(out + 0.5, 0, 255).astype(np.uint8))
    return {**blue, "texture": str(path.resolve())}


def texture(s: dict, work: Path) -> dict:
    """The setup's board print."""
    board = board_game(s)[0]
    return cloth_texture(board, work, s["cloth"]) if s["family"] == "hanky" else printed(board, work)


def place(position: dict, tex: dict, looks: dict, rng: random.Random) -> list[dict]:
    """The pieces where ``position`` puts them (``make_set.place``), with the training men's
    lathe profile and a stone's stretch."""
    pieces = ms.place(position, tex, looks, rng)
    for p, (spot, (owner, kind)) in zip(pieces, sorted(position.items())):
        look = looks[f"{owner}/{kind}"]
        for k in ("profile", "scale"):
            if k in look:
                p[k] = look[k]
    return pieces


# ---------------------------------------------------------------------------- frames
def four_player_position(spots: list[str], rng: random.Random) -> dict:
    """Men of four colours on a random 0-16 of the board's spots (no game's rules: the
    classifier's truth only needs which colour stands where)."""
    chosen = rng.sample(sorted(spots), rng.randint(0, 16))
    return {s: [rng.randint(1, 4), "man"] for s in sorted(chosen)}


def lighting(d: "ms.Draw", centre_h: float, extent: float, kind: str | None = None) -> dict:
    """One to three lamps of 2700-6500 K ("lamps"), a window's daylight ("daylight", with a
    brighter sky), or both ("mixed"). Each lamp's power shares a normal exposure."""
    r = d.r
    kind = kind or r.choice(("lamps", "lamps", "daylight", "mixed"))
    n = 0 if kind == "daylight" else r.randint(*LAMPS) if kind == "lamps" else r.randint(1, 2)
    lamps = []
    for _ in range(n):
        lamp = d.lamp(centre_h, extent)
        k = d.u(*KELVIN)
        lamp.update(kelvin=k, rgb=ms.kelvin_rgb(k), power=lamp["power"] / (n if kind == "lamps" else n + 1) ** 0.5)
        lamps.append(lamp)
    window = None
    if kind != "lamps":
        az = d.u(0, 2 * math.pi)
        dist, h = d.u(1.0, 1.8), d.u(0.5, 1.2)
        window = {"pos": [dist * math.cos(az), dist * math.sin(az), h], "size": [d.u(0.8, 1.4), d.u(0.9, 1.5)],
                  "power": d.u(150, 500) * (dist * dist + h * h) / 2.0 * (1.3 if kind == "daylight" else 1.0),
                  "rgb": ms.kelvin_rgb(6500), "kelvin": 6500}
    world = {"rgb": [0.8, 0.85, 1.0], "strength": d.u(0.1, 0.35) if kind != "lamps" else d.u(0.03, 0.15)}
    return {"light": kind, "lamps": lamps, "window": window, "world": world,
            "kelvins": [round(lp["kelvin"]) for lp in lamps] + ([6500] if window else [])}


def cups(d: "ms.Draw", extent: float, yaw: float) -> list[dict]:
    """One or two cups on the table beyond the board's far edge (as the camera sees it), so
    they shade it but rarely stand between the camera and a spot."""
    out = []
    for _ in range(d.r.randint(1, 2)):
        az = math.radians(yaw + 90) + d.u(-1.3, 1.3)
        dist = extent * d.u(0.62, 0.85)
        r, h = d.u(0.03, 0.045), d.u(0.07, 0.12)
        prof = [[0, 0], [r * 0.85, 0], [r, h], [r * 0.92, h], [r * 0.8, 0.01], [0, 0.01]]
        out.append({"kind": "cup", "pos": [dist * math.cos(az), dist * math.sin(az), 0.0], "profile": prof,
                    "rgb": [d.u(0.05, 0.85) for _ in range(3)], "rough": d.u(0.1, 0.5)})
    return out


def arm(d: "ms.Draw", light: dict, extent: float, cam: dict) -> dict | None:
    """An arm held over the board between its light and the board, higher than the camera (so
    out of the picture: a camera looking down sees nothing above itself): a broad soft shadow.
    None where the light is not that far above the camera."""
    src = light["lamps"][0]["pos"] if light["lamps"] else light["window"]["pos"]
    cam_z = cam["distance"] * math.cos(math.radians(cam["tilt"]))
    if src[2] < cam_z + 0.15:
        return None
    q = [d.u(-0.3, 0.3) * extent, d.u(-0.3, 0.3) * extent, 0.0]
    t = d.u(cam_z + 0.05, src[2] - 0.08) / src[2]
    pos = [q[i] + t * (src[i] - q[i]) for i in range(3)]
    return {"kind": "arm", "pos": pos, "size": [0.045, 0.25, 0.04], "heading": d.u(0, 360),
            "pitch": d.u(-15, 15), "rgb": [d.u(0.05, 0.8) for _ in range(3)], "rough": 0.8}


def table(d: "ms.Draw") -> dict:
    """What the board lies on: a wooden table, or (two in five) a plain tablecloth."""
    if d.r.random() < 0.6:
        return {"light": [d.u(0.3, 0.7), d.u(0.18, 0.4), d.u(0.06, 0.2)],
                "dark": [d.u(0.08, 0.2), d.u(0.04, 0.1), d.u(0.02, 0.05)],
                "rough": d.u(0.3, 0.6), "scale": d.u(4, 9), "seed": d.u(0, 100)}
    light = [d.u(0.03, 0.7) for _ in range(3)]
    return {"light": light, "dark": [c * 0.85 for c in light], "rough": d.u(0.6, 0.95), "scale": d.u(4, 9),
            "seed": d.u(0, 100)}


def camera(d: "ms.Draw", s: dict, extent: float, size: tuple[float, float] | None = None) -> dict:
    """The setup's camera: the board turned ``turn`` degrees in the picture (counter-clockwise),
    from a camera turned ``yaw`` about the vertical and rolled ``roll`` about its axis.

    ``share`` of the picture's height is what the turned print would take seen square on; a tilted
    camera sees the print's near edge larger, which at 45 degrees and a share near the top put a
    corner marker out of the picture (a held-out set's whole setup then could not be calibrated).
    So the camera backs off until every corner of the print (``size``, metres; a square of
    ``extent`` when not given) lies inside ``IN_PICTURE`` of the picture (``print_in_picture``)."""
    lens, tilt, res = s["lens"], s["tilt"], s["res"]
    yaw = -(s["turn"] + s["roll"])
    share = d.u(0.65, 0.95)  # of the picture's height taken by the turned print, before tilting
    sensor_h = 36.0 * res[1] / res[0]
    t = math.radians(s["turn"])
    turned = extent * (abs(math.cos(t)) + abs(math.sin(t)))
    dist = (turned / share) / 2 / (sensor_h / 2 / lens)
    cam = {"lens": lens, "tilt": tilt, "yaw": yaw, "roll": s["roll"], "distance": dist, "turn": s["turn"],
           "target": [d.u(-0.04, 0.04) * extent, d.u(-0.04, 0.04) * extent, 0.0], "share": share}
    width, height = size if size is not None else (extent, extent)
    while print_in_picture(cam, width, height, res) > IN_PICTURE:
        cam["distance"] *= 1.02
    return cam


IN_PICTURE = 0.97  # of the picture's half width and half height a print's corner may reach


def print_in_picture(cam: dict, width: float, height: float, res) -> float:
    """How far out the print's farthest corner lies in the picture: the largest of its |x| over
    half the picture's width and |y| over half its height (1 is the picture's edge), by the
    pinhole camera ``scene.py`` sets (Euler XYZ tilt then yaw, roll about the camera's own axis,
    looking down its -Z, the 36 mm sensor fitted to the width). Infinite for a corner behind it."""
    tilt, yaw, roll = (math.radians(cam[k]) for k in ("tilt", "yaw", "roll"))
    ct, st, cy, sy, cr, sr = math.cos(tilt), math.sin(tilt), math.cos(yaw), math.sin(yaw), math.cos(roll), math.sin(roll)
    rx = np.array([[1, 0, 0], [0, ct, -st], [0, st, ct]])
    rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    rr = np.array([[cr, -sr, 0], [sr, cr, 0], [0, 0, 1]])
    rot = rz @ rx @ rr  # the camera's axes in the world, as columns
    target = np.asarray(cam["target"], dtype=float)
    eye = target - (rz @ rx @ np.array([0.0, 0.0, -1.0])) * cam["distance"]
    half_w = 18.0 / cam["lens"]  # tan of half the horizontal field
    half_h = half_w * res[1] / res[0]
    worst = 0.0
    for x in (-width / 2, width / 2):
        for y in (-height / 2, height / 2):
            v = rot.T @ (np.array([x, y, 0.0]) - eye)
            if v[2] >= 0:
                return math.inf
            worst = max(worst, abs(v[0] / -v[2]) / half_w, abs(v[1] / -v[2]) / half_h)
    return worst


def faults(d: "ms.Draw", res, calibration: bool) -> dict:
    """The camera's faults in one picture, added by ``finish``: white balance gains (red, blue),
    focus blur (Gaussian sigma, px), motion blur (px, degrees), sensor noise, JPEG quality."""
    scale = res[0] / 1280
    r = d.r
    return {"wb": [math.exp(d.u(-0.2, 0.2)), math.exp(d.u(-0.2, 0.2))],
            "focus": 0.0 if calibration or r.random() < 0.6 else d.u(0.4, 2.0) * scale,
            "motion": None if calibration or r.random() < 0.8 else [d.u(2, 8) * scale, d.u(0, 180)],
            "noise": {"full_well": d.u(600, 6000), "read": d.u(1.0, 6.0)}, "jpeg_quality": r.randint(70, 95)}


def setup_frames(name: str, s: dict, work: Path, n_frames: int, out_tag: str) -> tuple[dict, list[dict]]:
    """The board and the frames (two calibration pictures, then ``n_frames``) of setup ``s``."""
    rng = random.Random(s["seed"])
    d = ms.Draw(rng)
    tex = texture(s, work)
    game_name, options = board_game(s)
    game = engine.load(game_name, **options)
    hanky = s["family"] == "hanky"
    extent = max(tex["width"], tex["height"])
    looks = looks_of(s, game, tex, rng)
    board = {"texture": tex["texture"], "width": tex["width"], "height": tex["height"],
             "surface": "cloth" if hanky else "paper",
             "tint": [d.u(0.92, 1.0)] * 3 if hanky else [d.u(0.9, 0.97), d.u(0.9, 0.96), d.u(0.85, 0.93)],
             "rough": d.u(0.75, 0.95) if hanky else d.u(0.45, 0.7), "shape": ms.surface(tex, rng),
             "spots": tex["spots"], "rest": True, "bounces": {"max": 12, "transmission": 8},
             "table": table(d)}
    cam = camera(d, s, extent, (tex["width"], tex["height"]))
    centre_h = 1.3 if hanky else 0.7
    cal_light = lighting(d, centre_h, extent, "lamps")
    cal_exposure = d.u(-0.4, 0.5)
    pieces_h = max(lk["size"][1] for lk in looks.values()) if not hanky else 0.008
    factors = {k: v for k, v in s.items() if k not in ("seed",)}
    base = {"board": name, "res": s["res"], "samples": 8, "camera": cam, "k1": s["k1"],
            "game": game_name, "setup": name,
            "looks": looks, "factors": factors, **({"cloth": s["cloth"]} if hanky else {}),
            **({"options": options} if options else {})}
    if s["game"] == "four-players":
        base["players"] = 4

    def frame(kind, idx, position, light, exposure, hand, occluders):
        fname = f"{name}/{kind if kind != 'frame' else f'f{idx:02d}'}"
        lamp = light["lamps"][0] if light["lamps"] else {**light["window"], "target": [0, 0, 0]}
        return {**base, "kind": kind, "name": fname, "out": str(work / "raw" / out_tag / fname),
                "seed": rng.randint(0, 2 ** 30), "position": position,
                "pieces": place(position, tex, looks, rng), "lamp": lamp, "lamps": light["lamps"],
                "window": light["window"], "world": light["world"], "light": light["light"],
                "kelvins": light["kelvins"], "exposure": exposure, "hand": hand, "occluders": occluders,
                **faults(d, s["res"], kind != "frame")}

    if s["game"] == "four-players" and not options:
        cal_pos = {spot: [k + 1, "man"] for k, spot in enumerate(FOUR_PLAYERS_CALIBRATION)}
    elif s["family"] in ("pegs", "tokens"):
        cal_pos = ms.as_truth(ms.calibration_pieces(game)[0])
    else:
        cal_pos = ms.as_truth(calibration_layout(game)[0])
    frames = [frame("calibration-empty", 0, {}, cal_light, cal_exposure, None, []),
              frame("calibration-pieces", 0, cal_pos, cal_light, cal_exposure, None, [])]
    for i in range(n_frames):
        if s["game"] == "four-players":
            position = four_player_position(list(game.rules.spots), rng)
        elif s["family"] == "pegs":
            position = ms.as_truth(ms.playout(game, rng, 21, 3))
        elif s["family"] == "tokens":
            position = ms.as_truth(ms.playout(game, rng, 80, 10))
        else:
            position = ms.as_truth(ms.playout(game, rng, 60 if hanky else 30))
        if i % 3 == 0:
            light, exposure = cal_light, cal_exposure + d.u(-0.3, 0.3)
        else:
            light, exposure = lighting(d, centre_h, extent), d.u(*EXPOSURE)
        hand = d.hand(tex["spots"], extent, pieces_h) if rng.random() < 1 / 6 else None
        occ = cups(d, extent, cam["yaw"]) if rng.random() < 0.3 else []
        if rng.random() < 0.25 and (a := arm(d, light, extent, cam)):
            occ.append(a)
        frames.append(frame("frame", i, position, light, exposure, hand, occ))
    if out_tag != "train" and s["family"] in ("men", "hanky") and not (s["game"] == "four-players" and not options):
        # An evaluation set's setup also shows the full set (``calibration_layout(full=True)``:
        # several pieces of each class), as docs/calibration.md tells a user of the learned reader
        # to calibrate; drawn last, so every other picture of the setup is as it was without it.
        full = ms.as_truth(calibration_layout(game, full=True)[0])
        frames.append(frame("calibration-full", 0, full, cal_light, cal_exposure, None, []))
    return board, frames


def setup_name(index: int, s: dict) -> str:
    short = "bh" if s["game"].startswith("brain-hanky") else re.sub(r"[^a-z0-9]+", "", s["game"].replace(
        "mens-morris", "mm"))[:10]
    return f"s{index:04d}-{short}"


def make_specs(seed: int, n_setups: int, hold_out: list[Factor], work: Path, n_frames: int = FRAMES,
               only: Factor | None = None, tag: str = "train", family: str | None = None,
               first: int = 0) -> tuple[dict, list[dict]]:
    """Boards and frames of setups ``first`` to ``n_setups - 1`` (``draw_setup``; ``only``: a
    held-out set; ``family``: of that family's games only). Setup ``i`` is the same whatever
    ``first`` is, so two processes may render one run's setups into two folders."""
    boards, frames = {}, []
    for i in range(first, n_setups):
        s = draw_setup(seed, i, hold_out, only, family)
        name = setup_name(i, s)
        board, fr = setup_frames(name, s, work, n_frames, tag)
        boards[name] = board
        frames += fr
    return boards, frames


# ---------------------------------------------------------------------------- the camera's faults
def board_turn(pixels: dict, spots: dict) -> float:
    """The board's turn in the picture (degrees, counter-clockwise, image y up), measured: the
    direction of the board's +x axis in a least-squares affine fit of world to pixels."""
    names = [n for n in spots if n in pixels]
    a = np.array([[spots[n][0], spots[n][1], 1.0] for n in names])
    b = np.array([pixels[n] for n in names])
    m, *_ = np.linalg.lstsq(a, b, rcond=None)
    du, dv = m[0]
    return math.degrees(math.atan2(-dv, du))


def finish(fr: dict, out_dir: Path, spots: dict) -> dict:
    """Lens distortion, white balance, focus and motion blur, sensor noise and JPEG on the
    raw render; returns the picture's record (the evaluation sets' fields and the factors)."""
    img, side, f_px = ms.raw_render(fr)
    h, w = img.shape[:2]
    lin = (img.astype(np.float32) / 255.0) ** 2.2
    lin[..., 2] *= fr["wb"][0]  # BGR: red
    lin[..., 0] *= fr["wb"][1]  # blue
    if fr["focus"] > 0:
        lin = cv2.GaussianBlur(lin, (0, 0), fr["focus"])
    if fr["motion"]:
        length, angle = fr["motion"]
        n = max(3, int(round(length)) | 1)
        k = np.zeros((n, n), np.float32)
        c = n // 2
        dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        for t in np.linspace(-length / 2, length / 2, 4 * n):
            k[int(round(c + t * dy)) % n, int(round(c + t * dx)) % n] += 1
        lin = cv2.filter2D(lin, -1, k / k.sum())
    img = np.clip(np.clip(lin, 0, 1) ** (1 / 2.2) * 255 + 0.5, 0, 255).astype(np.uint8)
    img = ms.sensor_noise(img, fr["noise"]["full_well"], fr["noise"]["read"], np.random.default_rng(fr["seed"]))
    path = out_dir / (fr["name"] + ".jpg")
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, fr["jpeg_quality"]])
    pixels = {s: [round(c, 1) for c in ms.distort_point(p, fr["k1"], f_px, w, h)] for s, p in side["pixels"].items()}
    rec = {k: fr[k] for k in ("game", "setup", "kind", "position", "exposure", "camera", "lamp", "window", "world",
                              "k1", "noise", "jpeg_quality", "res", "samples", "looks", "factors", "lamps", "light",
                              "kelvins", "wb", "focus", "motion", "occluders")}
    rec["file"] = fr["name"] + ".jpg"
    rec["covered"] = sorted(side["covered"])
    # something over the board: a hand, or an arm or cup that hides a spot from the camera
    rec["hand"] = fr["hand"] is not None or bool(rec["covered"])
    rec["hand_pose"] = fr["hand"]
    rec["spots_outside_frame"] = [s for s, (x, y) in pixels.items() if not (0 <= x < w and 0 <= y < h)]
    rec["pixels"] = pixels
    rec["turn_measured"] = round(board_turn(pixels, spots), 2)
    for k in ("cloth", "players", "options"):
        if k in fr:
            rec[k] = fr[k]
    return rec


# ---------------------------------------------------------------------------- the run
def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) process ``pid`` has used: a picture's cost on a shared machine,
    where its wall time depends on what else runs (0 where /proc is not there)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def render(boards: dict, frames: list[dict], out_dir: Path, work: Path, threads: int, meta: dict,
           blender: str) -> int:
    """Render the frames not yet in ``out_dir/set.json`` (resumable), one Blender process,
    finishing and recording each picture as it comes; prints progress and an ETA."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stored = out_dir / "set.json"
    have = {}
    if stored.exists():
        have = {r["file"]: r for r in json.loads(stored.read_text())["frames"] if (out_dir / r["file"]).exists()}
    records = {f["name"]: have[f["name"] + ".jpg"] for f in frames if f["name"] + ".jpg" in have}
    todo = [f for f in frames if f["name"] not in records]

    def save():
        recs = [records[f["name"]] for f in frames if f["name"] in records]
        body = {**meta, "frames": recs, "complete": len(recs) == len(frames)}
        tmp = stored.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(body, separators=(",", ":")) + "\n")
        os.replace(tmp, stored)

    print(f"{meta['set']}: {len(frames)} pictures in {len(boards)} setups, {len(records)} already made, "
          f"{len(todo)} to render into {out_dir}", flush=True)
    if not todo:
        save()
        return 0
    for f in todo:
        Path(f["out"]).parent.mkdir(parents=True, exist_ok=True)
    jobs = work / f"jobs-{meta['set']}.json"
    used = {f["board"] for f in todo}
    jobs.write_text(json.dumps({"boards": {k: v for k, v in boards.items() if k in used}, "frames": todo}))
    by_out = {f["out"]: f for f in todo}
    t0 = time.time()

    def done_one(f, render_s, done, pid):
        records[f["name"]] = finish(f, out_dir, boards[f["board"]]["spots"])
        for ext in (".png", ".json"):
            Path(f["out"] + ext).unlink(missing_ok=True)
        save()
        spent = time.time() - t0
        left = spent / done * (len(todo) - done)
        cpu = cpu_seconds(pid)
        print(f"picture {len(records)} of {len(frames)}: {f['name']} {f['res'][0]}x{f['res'][1]} "
              f"{render_s:.1f} s render, {spent / done:.1f} s each ({cpu / done:.1f} s CPU), "
              f"ETA {left / 60:.0f} min", flush=True)

    log = work / f"blender-{meta['set']}.log"
    rc = ms.run_blender(blender, threads, jobs, log, by_out, done_one)
    done = sum(f["name"] in records for f in todo)
    save()
    if rc != 0:
        print(f"blender failed (exit {rc}); see {log}", file=sys.stderr)
        return 1
    size = sum(p.stat().st_size for p in out_dir.rglob("*") if p.is_file())
    print(f"{meta['set']}: {len(records)} pictures in {out_dir} ({size / 1e6:.1f} MB), "
          f"{(time.time() - t0) / max(done, 1):.1f} s per picture", flush=True)
    return 0


def main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="make_set.py train|heldout", description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=("train", "heldout"))
    ap.add_argument("--setups", type=int, default=60, help="setups (each: two calibration pictures and --frames)")
    ap.add_argument("--frames", type=int, default=FRAMES, help="frames per setup besides its calibration pictures")
    ap.add_argument("--from", dest="first", type=int, default=0,
                    help="train: render setups FROM to --setups - 1 only (the same setups as in a full run), "
                         "so that a second core can render the last ones into another folder")
    ap.add_argument("--seed", type=int, default=TRAIN_SEED)
    ap.add_argument("--hold-out", default=DEFAULT_HOLD_OUT,
                    help=f"factors no training setup has (default {DEFAULT_HOLD_OUT}; 'none' for none)")
    ap.add_argument("--factor", default=None,
                    help="heldout: the held-out factors to make sets of (default: every --hold-out factor), "
                         "each into OUT/<slug>")
    ap.add_argument("--out", required=True, help="the set's folder (heldout: the folder of the sets)")
    ap.add_argument("--work", default=None, help="textures and raw renders (default OUT/.work)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--family", default=None, choices=("men", "hanky", "pegs", "tokens", "new"),
                    help="only that family's games (default: the mills boards and Brain Hanky, GAMES; "
                         "'new': Brainmaster's pegs and Thinking In Circles' tokens, NEW_GAMES)")
    ap.add_argument("--dry-run", action="store_true", help="draw and print the setups' factors; render nothing")
    args = ap.parse_args(argv)
    if args.setups < 1 or args.frames < 0:
        raise SystemExit("--setups must be 1 or more and --frames 0 or more")
    if not 0 <= args.first < args.setups or (args.first and args.mode != "train"):
        raise SystemExit("--from must lie below --setups, and is for train sets only")
    hold = parse_hold_out(args.hold_out)
    out = Path(args.out)
    work = Path(args.work) if args.work else out / ".work"
    work.mkdir(parents=True, exist_ok=True)
    blender = ms.blender_exe()
    if not blender and not args.dry_run:
        print("blender is not installed: `sudo apt-get install blender`, or set BLENDER=/path/to/blender",
              file=sys.stderr)
        return 2
    runs = []
    if args.mode == "train":
        runs.append(("train", args.seed, None, out))
    else:
        wanted = parse_hold_out(args.factor) if args.factor else hold
        hold = list(dict.fromkeys(hold + wanted))
        for f in wanted:
            # each held-out set its own seed, from the factor's name: adding one changes no other
            runs.append((f"heldout-{f.slug}", args.seed + 1 + zlib.crc32(f.name.encode()) % 100000, f, out / f.slug))
    for set_name, seed, only, where in runs:
        boards, frames = make_specs(seed, args.setups, hold, work, args.frames, only, set_name, args.family,
                                    args.first if only is None else 0)
        if args.dry_run:
            for name in boards:
                fr = next(f for f in frames if f["setup"] == name)
                print(name, json.dumps(fr["factors"]))
            continue
        meta = {"set": set_name, "seed": seed, "hold_out": [f.name for f in hold],
                "factor": only.name if only else None, "family": args.family, "setups": args.setups, "from": args.first, "frames_per_setup": args.frames,
                "made_by": "benchmarks/photoreal/make_set.py " + " ".join(sys.argv[1:] if argv is None else argv)}
        rc = render(boards, frames, where, work, args.threads, meta, blender)
        if rc:
            return rc
    if not args.dry_run:
        shutil.rmtree(work / "raw", ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
