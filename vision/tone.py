"""How a camera's tone curve flattens what is lighter than its paper: the looks of light pieces
in a brighter frame.

The reader measures a frame's light on the board itself (``vision.sampling``: each probe's
colour against the empty board) and expects a piece to change by the same factor. That holds
for colours in the middle of the camera's range, not near its top: a camera's picture rolls
off towards white (a sensor clips; phones, the Pi's ISP and the Filmic view of the photoreal
renders bend the curve over well before that), so a white ring already near 215 of 255 at
calibration cannot show half as bright again when the blue cloth beside it does. Predicted
linearly it would be past white and compared as such, and the ring, flattened against the
cloth, reads nearer the empty cloth than its own look (measured on the photoreal renders: every
Brain Hanky ring of a +1 EV frame read as empty).

So a piece's look in a frame is predicted through a tone curve: linear up to ``KNEE`` and then
bending smoothly to 255 (``compress``). The calibrated look is first taken back through the
curve (``expand``), scaled by the frame's light in linear terms (the board's own colour taken
back through the curve too: the blue cloth's blue channel is itself near the top), and bent
again. Only looks ``LIGHTER`` than their board are predicted so. The knee was fitted on the
photoreal dev set's rings (Filmic, lit from -1.5 to +1.5 EV): the median difference between a
ring's predicted and seen look, in frames brighter than calibration, is 0.126 of the board's
brightness by the linear rule, 0.053 with the knee at 200 and 0.032 at 100; in dimmer frames
0.076, 0.073 and 0.042. (For men on white paper the linear rule measured as well, so they keep
it; bending them too in brighter frames was tried and gave no clear gain: docs/photoreal.md.)
"""

from __future__ import annotations

import numpy as np

KNEE = 100.0  # below this a camera's picture is taken as linear in the light
TOP = 255.0
# Only looks this many times their board in some channel are bent (white and yellow rings on the
# blue cloth):
# for pieces no lighter than the board (men on white paper) the linear rule measured as well.
LIGHTER = 1.5
# A look bent to less than this share of its calibrated distance from the board is flattened.
FLATTENED = 0.5
# ``ink_gamma`` trusts a frame's ink only when its samples' powers lie this close to their median.
INK_AGREE = 0.3


def compress(v: np.ndarray) -> np.ndarray:
    """A linear value (any size) as the camera shows it: itself up to ``KNEE``, then bending
    towards ``TOP`` with the same slope at the knee."""
    v = np.asarray(v, dtype=float)
    room = TOP - KNEE
    over = np.maximum(v - KNEE, 0.0)
    return np.where(v > KNEE, KNEE + room * (1.0 - np.exp(-over / room)), v)


def expand(v: np.ndarray) -> np.ndarray:
    """``compress`` undone: the linear value behind a shown one (values at the top are taken as
    just below it, so the result stays finite)."""
    v = np.asarray(v, dtype=float)
    room = TOP - KNEE
    frac = np.clip((v - KNEE) / room, 0.0, 1.0 - 1e-3)
    return np.where(v > KNEE, KNEE - room * np.log1p(-frac), v)


def light_looks(templates: np.ndarray) -> np.ndarray:
    """(C,) which class looks (C, K, 3) are ``LIGHTER`` than their board in some channel."""
    if not len(templates):
        return np.zeros(0, bool)
    return templates.mean(axis=1).max(axis=-1) > LIGHTER


def looks_in_frame(templates: np.ndarray, scale: np.ndarray, light: np.ndarray) -> np.ndarray:
    """The class looks ``templates`` (C, K, 3; relative to the board at calibration) as each
    spot should show them in this frame: (n, C, K, 3), or ``templates`` itself when no look
    comes near the top of the curve at any spot (the common case, and then nothing changes).

    ``scale`` (n, 3): what the board under each spot shows now (its calibrated colour times the
    frame's light there); ``light`` (n, 3): that light, the frame's probes against the empty
    board's. A look is relative, so its colour now is ``look * scale``; taken back to the linear
    light at calibration (``look * scale / light``), scaled by ``light``, bent by the curve, and
    divided by ``scale`` again."""
    templates = np.asarray(templates, dtype=float)
    light = np.maximum(light, 1e-3)
    board_then = scale / light  # (n, 3): the board under each spot at calibration, as shown
    bent = light_looks(templates)
    if not bent.any() or float(templates[bent].max()) * float(max(np.max(scale), np.max(board_then))) <= KNEE:
        return templates
    # the light in linear terms: the board's own colour may already be bent (white paper)
    linear = (expand(scale) / np.maximum(expand(board_then), 1e-3))[:, None, None, :]
    then = templates[None, bent] * board_then[:, None, None, :]
    out = np.repeat(templates[None], len(scale), axis=0)
    out[:, bent] = compress(expand(then) * linear) / np.maximum(scale[:, None, None, :], 1e-3)
    return out

def apart(looks: np.ndarray) -> np.ndarray:
    """How far each look (..., K, 3) lies from the bare board (1 in every channel), as the
    classifier weighs a light piece (``classify.distances`` with ``relative``): the mean
    difference over its samples and channels, divided by its brightness when over 1."""
    looks = np.asarray(looks, dtype=float)
    return np.abs(looks - 1.0).mean(axis=(-2, -1)) / np.maximum(1.0, looks.mean(axis=(-2, -1)))


def washed_out(templates: np.ndarray, looks: np.ndarray, least: float) -> np.ndarray:
    """(C,) for each class look ``templates``, the share of spots at which this frame's light
    bends it (``looks``: ``looks_in_frame``'s answer) to within ``least`` of the bare board
    (``apart``) and to less than half its distance at calibration (a look that was never far
    from the board, a cream man on a cream board, is not flattened by the frame); 0 for looks
    that are not bent."""
    if looks.ndim != 4:
        return np.zeros(len(templates))
    gap = apart(looks)  # (n, C)
    limit = np.minimum(least, FLATTENED * apart(templates))  # (C,)
    return np.where(light_looks(templates), (gap < limit[None]).mean(axis=0), 0.0)


# ---------------------------------------------------------------------------- the frame's own curve
# The curve above serves light pieces, and it is assumed. Everything darker than the board (the
# printed lines and dots, black men) also changes with exposure, by the camera's own curve: on the
# photoreal renders the lines of an empty point showed at 0.5 of the paper in one frame and 0.7
# in the next, with the lamp and exposure changed, while a black man went from 0.41 to 0.19 of
# the paper. Relative colours do not stay put, so a frame compared with calibration's looks as
# they were read empty points as black men, and white men, shaded, as black. The printed ink is
# always there to measure how far the frame has moved: ``ink_gamma`` fits one power per channel
# from the ink's look now and at calibration, and ``bend`` moves every look by it.


def ink_gamma(seen: np.ndarray, then: np.ndarray, *, lo: float = 0.2, hi: float = 0.85, least: int = 20,
              most: float = 5.0, agree: float = INK_AGREE) -> np.ndarray | None:
    """(3,) per channel, the power ``g`` with ``seen ~ then ** g``: how this frame shows what the
    empty board showed at calibration, measured on its printed ink.

    ``seen`` and ``then`` (..., 3) are the same samples relative to the board, now and at
    calibration; only those that were ``lo`` to ``hi`` of the board then count (lines and dots,
    not the paper, whose log is near 0). Each sample gives its own power; their median is the
    frame's. None when fewer than ``least`` samples count in a channel, or when the samples
    disagree (their median distance from it over ``agree``), or when a power lies beyond
    ``most`` or below its inverse (ink washed out to the paper's white, or drowned in the dark:
    at 0.2 a line printed at half the paper's brightness shows at 0.87 of it; the photoreal
    frames read right down to 0.24). When the samples disagree the ink changed by something
    other than the tone curve, such as a camera moved, refocused or shaken, which thins or
    thickens the lines' look in pixels (the simulator moves its camera every frame: 0.25-0.55
    there at 640x480; the photoreal renders, camera still, 0.02-0.31)."""
    powers = _powers(seen, then, lo, hi)
    g = np.ones(3)
    for c in range(3):
        r = powers[:, c][np.isfinite(powers[:, c])]
        if len(r) < least:
            return None
        g[c] = np.median(r)
        if np.median(np.abs(r - g[c])) > agree or not 1.0 / most <= g[c] <= most:
            return None
    return g


def _powers(seen: np.ndarray, then: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """(M, 3) each sample's power per channel, ``log(seen) / log(then)``, where the ink was ``lo``
    to ``hi`` of the board at calibration (ink lighter than the board: its inverse) and shows at
    all now; NaN elsewhere."""
    seen = np.asarray(seen, float).reshape(-1, 3)
    then = np.asarray(then, float).reshape(-1, 3)
    t = np.where(then > 1, 1 / np.maximum(then, 1e-3), then)  # ink lighter than the board too
    use = (t >= lo) & (t <= hi) & (seen > 1e-3)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(use, np.log(np.where(use, seen, 0.5)) / np.log(np.where(use, then, 0.5)), np.nan)


def ink_powers(seen: np.ndarray, then: np.ndarray, *, lo: float = 0.2, hi: float = 0.85) -> np.ndarray:
    """(M,) per ink mark, the power ``g`` with ``seen ~ then ** g`` (``ink_gamma``'s, mark by
    mark: the median over the channels whose calibrated ink was ``lo`` to ``hi`` of the board,
    ink lighter than the board counted the other way up); NaN for a mark with no such channel.
    A mark at 0 shows the board's own colour where a line was printed: its ink is hidden."""
    r = _powers(seen, then, lo, hi)
    out = np.full(len(r), np.nan)
    some = np.isfinite(r).any(axis=1)
    out[some] = np.nanmedian(r[some], axis=1)
    return out


def bend(looks: np.ndarray, g: np.ndarray) -> np.ndarray:
    """``looks`` (..., 3) relative to the board, as a frame whose ink follows ``g`` shows them
    (the board itself, 1, stays 1)."""
    return np.power(np.maximum(looks, 1e-4), g)
