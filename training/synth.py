"""Procedural training episodes: drawn boards, drawn pieces, cut into spot patches.

Rendering a varied scene in Blender takes minutes; drawing one here takes milliseconds. These
episodes are not photographs and are not meant to stand in for the rendered sets: they teach the
network the task's shape early and keep every colour, shape and light equally likely, so that
no colour is special (the players' pieces are learnt at calibration, from prototypes).

An episode is one imagined setup, in the layout of ``patchsets.SetupPatches``: a board (paper,
wood or cloth of any colour; its lines, dots and rings joining a grid of spots one *room* apart,
32 pixels at patch scale, as ``vision.patches`` cuts them), two to four piece classes (flat,
bevelled, domed, stones, rings, gems; any colours, with side walls, shading, a highlight and a
shadow from the episode's lamp), an empty picture, a pieces picture (each class on one or two
spots) and a few frames: random positions, the lamp a little changed, sometimes a hand (a large
skin- or sleeve-coloured shape, the *foreign* class) or another object's shadow across the board.
Everything is drawn at twice the size and halved, then blurred, noised and JPEG-compressed a
little, as a camera would.
"""

from __future__ import annotations

import cv2
import numpy as np

from .patchsets import SetupPatches

ROOM = 32  # pixels between neighbouring spots at patch scale (vision.patches: a patch spans 1.5 rooms)
PATCH = 48
GRID = 5
# Bumped whenever drawing changes, so cached episodes of an older drawing are not reused.
VERSION = 3
UP = 2  # drawn at this many times the size


def _colour(rng, *, light=None) -> np.ndarray:
    """A random BGR colour (0-255 floats): any hue, or a grey, or (``light``) a light/dark one."""
    hsv = np.array([[[rng.uniform(0, 180), rng.uniform(0, 255) * (rng.random() < 0.75), rng.uniform(20, 255)]]],
                   np.float32)
    if light is True:
        hsv[0, 0, 1] *= 0.5
        hsv[0, 0, 2] = rng.uniform(150, 250)
    elif light is False:
        hsv[0, 0, 2] = rng.uniform(10, 90)
    return cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def _distinct(rng, n: int) -> list[np.ndarray]:
    """``n`` colours a person tells apart (far enough apart in Lab)."""
    out: list[np.ndarray] = []
    while len(out) < n:
        c = _colour(rng, light=rng.choice([None, True, False], p=[0.6, 0.2, 0.2]))
        lab = cv2.cvtColor(c.reshape(1, 1, 3).astype(np.uint8), cv2.COLOR_BGR2LAB)[0, 0].astype(float)
        if all(np.linalg.norm(lab - cv2.cvtColor(o.reshape(1, 1, 3).astype(np.uint8),
                                                 cv2.COLOR_BGR2LAB)[0, 0].astype(float)) > 40 for o in out):
            out.append(c)
    return out


class Style:
    """One episode's board, pieces and lamp."""

    def __init__(self, rng: np.random.Generator, n_classes: int):
        self.rng = rng
        self.ground = _colour(rng, light=rng.choice([True, None, False], p=[0.55, 0.3, 0.15]))
        self.ink = _colour(rng, light=bool(self.ground.mean() < 110))
        self.line = int(rng.integers(1, 5)) * UP // 2 + 1
        self.texture = rng.uniform(0, 18)
        self.light_dir = rng.uniform(0, 2 * np.pi)
        self.gloss = rng.uniform(0, 1)
        self.tilt = rng.uniform(0, 7)  # pixels of side wall shown (camera slant x piece height)
        same_shape = rng.random() < 0.5
        shapes = ["flat", "bevel", "dome", "stone", "ring", "gem", "coin"]
        base = rng.choice(shapes)
        colours = _distinct(rng, n_classes)
        if not same_shape and rng.random() < 0.3 and n_classes == 2:
            colours = [colours[0], colours[0]]  # told apart by shape alone (a ring and a gem)
            kinds = list(rng.choice(shapes, 2, replace=False))
        else:
            kinds = [base if same_shape else rng.choice(shapes) for _ in range(n_classes)]
        # spots one patch-room apart (the mills boards, Brain Hanky), or far apart for their men
        # (tapatan: the patch is sized by the man, its neighbours out of sight)
        self.room = ROOM if rng.random() < 0.75 else int(rng.integers(48, 72))
        radius = rng.uniform(0.28, 0.5) * ROOM if rng.random() < 0.8 else rng.uniform(0.5, 0.72) * ROOM
        self.classes = [{"shape": k, "colour": c,
                         "radius": radius * rng.uniform(0.9, 1.1) if not same_shape else radius}
                        for k, c in zip(kinds, colours)]
        # the board's drawing: which neighbours each spot is joined to, dots, rings round spots
        self.h_edges = rng.random((GRID, GRID - 1)) < rng.uniform(0.4, 1.0)
        self.v_edges = rng.random((GRID - 1, GRID)) < rng.uniform(0.4, 1.0)
        self.diag = rng.random((GRID - 1, GRID - 1)) < rng.uniform(0, 0.5)
        self.dots = rng.random((GRID, GRID)) < rng.uniform(0, 1)
        self.circles = rng.random((GRID, GRID)) < rng.uniform(0, 0.6)
        self.circle_r = rng.uniform(0.25, 0.48) * ROOM


def _canvas_size(room: int = ROOM) -> int:
    return (GRID + 1) * room * UP


def spot_centres(room: int = ROOM) -> np.ndarray:
    """(GRID * GRID, 2) spot centres (col, row) in the halved picture."""
    r, c = np.mgrid[0:GRID, 0:GRID]
    return np.stack([(c.ravel() + 1) * room - 0.5, (r.ravel() + 1) * room - 0.5], axis=1).astype(np.float32)


def _board(style: Style) -> np.ndarray:
    rng = style.rng
    n = _canvas_size(style.room)
    img = np.empty((n, n, 3), np.float32)
    img[:] = style.ground
    if style.texture > 0:
        noise = cv2.resize(rng.normal(0, 1, (n // 16, n // 16, 1)).astype(np.float32), (n, n))[..., None]
        if rng.random() < 0.4:  # grain: stretched along one axis
            noise = cv2.resize(rng.normal(0, 1, (n // 2, 6, 1)).astype(np.float32), (n, n))[..., None]
        img += style.texture * noise
    ink = tuple(float(v) for v in style.ink)
    p = lambda i, j: (int((j + 1) * style.room * UP), int((i + 1) * style.room * UP))  # noqa: E731
    for i in range(GRID):
        for j in range(GRID - 1):
            if style.h_edges[i, j]:
                cv2.line(img, p(i, j), p(i, j + 1), ink, style.line, cv2.LINE_AA)
    for i in range(GRID - 1):
        for j in range(GRID):
            if style.v_edges[i, j]:
                cv2.line(img, p(i, j), p(i + 1, j), ink, style.line, cv2.LINE_AA)
    for i in range(GRID - 1):
        for j in range(GRID - 1):
            if style.diag[i, j]:
                a, b = (p(i, j), p(i + 1, j + 1)) if (i + j) % 2 == 0 else (p(i, j + 1), p(i + 1, j))
                cv2.line(img, a, b, ink, style.line, cv2.LINE_AA)
    for i in range(GRID):
        for j in range(GRID):
            if style.dots[i, j]:
                cv2.circle(img, p(i, j), int(style.line * 1.8) + 2, ink, -1, cv2.LINE_AA)
            if style.circles[i, j]:
                cv2.circle(img, p(i, j), int(style.circle_r * UP), ink, style.line, cv2.LINE_AA)
    return img


def _disc_mask(shape, centre, r, squash=1.0) -> np.ndarray:
    m = np.zeros(shape, np.float32)
    cv2.ellipse(m, (int(centre[0] * 8), int(centre[1] * 8)), (int(r * 8), int(r * squash * 8)), 0, 0, 360, 1.0, -1,
                cv2.LINE_AA, 3)
    return m


def _piece(img: np.ndarray, style: Style, cls: dict, centre, rng) -> None:
    """Draw one piece of ``cls`` whose top is seen at ``centre`` (canvas pixels), in place; all
    the work in a window round it."""
    n = img.shape[0]
    r = cls["radius"] * UP * rng.uniform(0.97, 1.03)
    shape = cls["shape"]
    lx, ly = np.cos(style.light_dir), np.sin(style.light_dir)
    wall = style.tilt * UP * (0.4 if shape in ("ring", "coin") else 1.0)
    reach = int(r * 1.8 + wall + 8)
    X, Y = int(centre[0]), int(centre[1])
    x0, y0, x1, y1 = max(X - reach, 0), max(Y - reach, 0), min(X + reach, n), min(Y + reach, n)
    win = img[y0:y1, x0:x1]
    hw = win.shape[:2]
    cx, cy = centre[0] + rng.normal(0, 0.6) * UP - x0, centre[1] + rng.normal(0, 0.6) * UP - y0
    colour = cls["colour"] * rng.uniform(0.93, 1.07)
    # shadow on the board, away from the lamp
    sh = _disc_mask(hw, (cx - lx * r * 0.35, cy - ly * r * 0.35 + wall), r * 1.05)
    sh = cv2.GaussianBlur(sh, (0, 0), r * 0.2 + 1)
    win *= (1 - 0.45 * sh)[..., None]
    # the side wall (seen below the top on a slanted camera), darker
    if wall > 0.5:
        side = _disc_mask(hw, (cx, cy + wall), r)
        for t in np.linspace(0, wall, 4):
            side = np.maximum(side, _disc_mask(hw, (cx, cy + t), r))
        win[:] = win * (1 - side[..., None]) + side[..., None] * colour * 0.55
    top = _disc_mask(hw, (cx, cy), r)
    yy, xx = np.mgrid[0:hw[0], 0:hw[1]].astype(np.float32)
    dx, dy = (xx - cx) / r, (yy - cy) / r
    d = np.sqrt(dx * dx + dy * dy)
    if shape == "ring":
        top = top * (1 - _disc_mask(hw, (cx, cy), r * rng.uniform(0.45, 0.7)))
    if shape == "gem":
        pts = np.array([[cx + r * np.cos(a), cy + r * np.sin(a)] for a in
                        np.linspace(0, 2 * np.pi, int(rng.integers(5, 9)), endpoint=False) + rng.uniform(0, 1)])
        top = np.zeros(hw, np.float32)
        cv2.fillPoly(top, [np.round(pts * 8).astype(np.int32)], 1.0, cv2.LINE_AA, 3)
    # shading: lit towards the lamp; domes and stones more, bevels at their edge
    lit = 1.0 + 0.12 * (-(dx * lx + dy * ly))
    if shape in ("dome", "stone"):
        lit = 1.0 + 0.35 * (-(dx * lx + dy * ly)) - 0.25 * np.clip(d, 0, 1) ** 2
    elif shape == "bevel":
        lit = lit - 0.3 * np.clip((d - 0.75) / 0.25, 0, 1)
    elif shape == "gem":
        facets = np.floor((np.arctan2(dy, dx) + np.pi) / (2 * np.pi) * 6)
        lit = lit + 0.15 * np.cos(facets * 2.1)
    elif shape == "coin":
        lit = lit + 0.2 * np.clip((d - 0.85) / 0.15, 0, 1)
    body = colour[None, None, :] * lit[..., None]
    if style.gloss > 0.3:
        hl = np.exp(-(((dx + lx * 0.4) ** 2 + (dy + ly * 0.4) ** 2) / (0.04 + 0.1 * (1 - style.gloss))))
        body = body + (255 - body) * (style.gloss * 0.8 * hl)[..., None]
    win[:] = win * (1 - top[..., None]) + top[..., None] * body


def _hand(img: np.ndarray, rng) -> np.ndarray:
    """Draw a hand or sleeve across the canvas; the mask (canvas pixels) of what it covers."""
    n = img.shape[0]
    skin = np.array(rng.choice([[140, 170, 225], [90, 120, 170], [60, 80, 120], [170, 190, 230]]), np.float32)
    colour = skin if rng.random() < 0.7 else _colour(rng)
    colour = colour * rng.uniform(0.8, 1.15)
    m = np.zeros((n, n), np.float32)
    start = rng.uniform(0, n, 2)
    ang = rng.uniform(0, 2 * np.pi)
    length = rng.uniform(0.3, 0.8) * n
    end = start + length * np.array([np.cos(ang), np.sin(ang)])
    width = rng.uniform(0.12, 0.25) * n
    cv2.line(m, tuple(int(v) for v in start), tuple(int(v) for v in end), 1.0, int(width), cv2.LINE_AA)
    cv2.circle(m, tuple(int(v) for v in end), int(width * 0.8), 1.0, -1, cv2.LINE_AA)
    for k in range(int(rng.integers(0, 5))):  # fingers
        a = ang + rng.uniform(-0.8, 0.8)
        tip = end + rng.uniform(0.6, 1.2) * width * np.array([np.cos(a), np.sin(a)])
        cv2.line(m, tuple(int(v) for v in end), tuple(int(v) for v in tip), 1.0, int(width * 0.25), cv2.LINE_AA)
    m = cv2.GaussianBlur(m, (0, 0), 1.5)
    yy = np.linspace(-1, 1, n, dtype=np.float32)[:, None]
    shade = 1.0 + 0.15 * yy * rng.normal()
    # a shadow beside it
    sh = cv2.GaussianBlur(np.roll(m, (int(rng.normal(0, 20)), int(rng.normal(0, 20))), (0, 1)), (0, 0), 10)
    img *= (1 - 0.4 * sh)[..., None]
    img[:] = img * (1 - m[..., None]) + m[..., None] * colour * shade[..., None]
    return m


def _shadow(img: np.ndarray, rng) -> None:
    """Another object's soft shadow (a cup, an arm out of the picture) across part of the board."""
    n = img.shape[0]
    m = np.zeros((n, n), np.float32)
    c = rng.uniform(0, n, 2)
    cv2.ellipse(m, (int(c[0]), int(c[1])), (int(rng.uniform(0.1, 0.5) * n), int(rng.uniform(0.05, 0.3) * n)),
                rng.uniform(0, 180), 0, 360, 1.0, -1)
    m = cv2.GaussianBlur(m, (0, 0), rng.uniform(4, 30))
    img *= (1 - rng.uniform(0.2, 0.6) * m)[..., None]


def _light(img: np.ndarray, rng, base: dict | None = None, change: float = 0.0) -> dict:
    """Apply a lamp: a colour gain and a brightness gradient across the board. ``base``: the
    calibration's lamp, changed by about ``change``."""
    n = img.shape[0]
    if base is None:
        lamp = {"gain": rng.uniform(0.55, 1.3) * np.exp(rng.normal(0, 0.12, 3)),
                "grad": rng.normal(0, 0.25, 2), "gamma": rng.uniform(0.8, 1.25)}
    else:
        # the frame's lamp: mostly brighter or darker (exposure), its colour nearly kept: a lamp
        # does not turn yellow pieces white between calibration and play
        lamp = {"gain": base["gain"] * np.exp(rng.normal(0, change, 3) * 0.08 + rng.normal(0, change)),
                "grad": base["grad"] + rng.normal(0, change, 2), "gamma": base["gamma"]}
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n - 0.5
    field = np.exp(lamp["grad"][0] * xx + lamp["grad"][1] * yy)
    img *= field[..., None] * lamp["gain"][None, None, :].astype(np.float32)
    return lamp


def _camera(img: np.ndarray, rng, blur: float, noise: float, quality: int) -> np.ndarray:
    """Halve the canvas, blur, add sensor noise, clip, JPEG: the picture a camera gives."""
    img = np.clip(img, 0, 255)
    small = cv2.resize(img, None, fx=1 / UP, fy=1 / UP, interpolation=cv2.INTER_AREA)
    if blur > 0.3:
        small = cv2.GaussianBlur(small, (0, 0), blur)
    small = small + rng.normal(0, noise, small.shape).astype(np.float32) * np.sqrt(np.maximum(small, 1) / 128)
    out = np.clip(small, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _cut(img: np.ndarray, centres: np.ndarray, jitter: float, rng) -> np.ndarray:
    """48x48 patches centred on ``centres`` (halved picture), each shifted by up to ``jitter``."""
    out = np.empty((len(centres), PATCH, PATCH, 3), np.uint8)
    c = (PATCH - 1) / 2.0
    for i, (x, y) in enumerate(centres):
        dx, dy = rng.normal(0, jitter, 2)
        M = np.array([[1, 0, x + dx - c], [0, 1, y + dy - c]], np.float32)
        out[i] = cv2.warpAffine(img, M, (PATCH, PATCH), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                borderMode=cv2.BORDER_REFLECT)
    return out


def episode(seed: int, frames: int = 3) -> SetupPatches:
    """One drawn setup (see the module's docstring), as ``patchsets.SetupPatches``."""
    rng = np.random.default_rng(seed)
    n_classes = int(rng.choice([2, 2, 3, 4]))
    style = Style(rng, n_classes)
    board = _board(style)
    centres = spot_centres(style.room)
    n_spots = len(centres)
    blur, noise, quality = rng.uniform(0, 1.2), rng.uniform(0, 6), int(rng.integers(60, 96))
    rot = int(rng.integers(0, 4))
    # the patch is centred on a piece's top, which a slanted camera sees above its foot: the
    # printed point then lies below the patch's middle (vision.patches, sampling.lift)
    lift = rng.uniform(0, 5) if rng.random() < 0.7 else 0.0
    tops = centres - np.array([0.0, lift], np.float32)

    def picture(position: dict[int, int], lamp=None, change=0.0, hand=False, shadow=False):
        img = board.copy()
        for s, c in position.items():
            _piece(img, style, style.classes[c - 1], (tops[s] + 0.5) * UP, rng)
        if shadow:
            _shadow(img, rng)
        mask = _hand(img, rng) if hand else None
        lamp = _light(img, rng, lamp, change)
        img = np.rot90(img, rot).copy()  # the whole board turned: lamp, walls and shadows with it
        return _camera(img, rng, blur, noise, quality), lamp, (None if mask is None else np.rot90(mask, rot))

    turned = _turn_centres(tops, rot, style.room)
    empty, lamp, _ = picture({})
    spots = rng.permutation(n_spots)
    layout = {int(spots[i]): 1 + i % n_classes for i in range(n_classes * int(rng.choice([1, 1, 2])))}
    pieces_img, _, _ = picture(layout, lamp, 0.03)
    q, lab, sp, cov, fr, hands = [], [], [], [], [], []
    for f in range(frames):
        occupied = rng.random(n_spots) < rng.uniform(0.2, 0.7)
        position = {s: int(rng.integers(1, n_classes + 1)) for s in np.flatnonzero(occupied)}
        hand = rng.random() < 0.25
        img, _, mask = picture(position, lamp, rng.uniform(0.02, 0.35), hand, rng.random() < 0.3)
        covered = np.zeros(n_spots, bool)
        if mask is not None:
            small = cv2.resize(mask.astype(np.float32), None, fx=1 / UP, fy=1 / UP, interpolation=cv2.INTER_AREA)
            for s, (x, y) in enumerate(turned):
                r0, c0 = int(y) - 10, int(x) - 10
                covered[s] = small[max(r0, 0):r0 + 21, max(c0, 0):c0 + 21].mean() > 0.25
        label = np.array([position.get(s, 0) for s in range(n_spots)], np.int16)
        q.append(_cut(img, turned, 1.0, rng))
        lab.append(label)
        sp.append(np.arange(n_spots, dtype=np.int16))
        cov.append(covered)
        fr.append(np.full(n_spots, f, np.int16))
        hands.append(hand)
    pieces_label = np.array([layout.get(s, 0) for s in range(n_spots)], np.int16)
    return SetupPatches(f"synth-{seed}", "synthetic", [(i + 1, "piece") for i in range(n_classes)], ["piece"],
                        np.zeros(n_spots, np.int8), _cut(empty, turned, 0.5, rng), np.ones(n_spots, bool),
                        _cut(pieces_img, turned, 0.5, rng), pieces_label, np.concatenate(q), np.concatenate(lab),
                        np.concatenate(sp), np.concatenate(cov), np.concatenate(fr), [f"f{i}" for i in range(frames)],
                        np.array(hands, bool))


def _turn_centres(centres: np.ndarray, rot: int, room: int) -> np.ndarray:
    """Where the spot centres land after ``np.rot90(picture, rot)`` (counter-clockwise quarters)."""
    n = _canvas_size(room) // UP
    out = centres.copy()
    for _ in range(rot):
        out = np.stack([out[:, 1], n - 1 - out[:, 0]], axis=1)
    return out
