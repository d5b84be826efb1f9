"""Telling what stands on each spot: the nearest template, and how clear the choice was.

Each spot is compared, sample by sample, with the look of that same spot on the empty board
(lines, the point's dot and all) and with the look of every piece class that may stand there
(learned at calibration). Colours are relative to the board's background (``vision.sampling``),
so one threshold serves every light. The distance is the mean absolute difference per sample
and channel: a number near 0 for a match, about 0.3 or more between a white chip and the board.

The confidence compares the best and second-best distances: 1 when the best is far ahead, 0
when two explanations fit equally; ``probabilities`` turns the distances into a likelihood per
class for the referee. A best distance above ``unknown`` means nothing fits (a finger, a coin,
a piece pushed off its point). How gloss, parallax and a slightly misplaced print are allowed
for is in ``distances``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np


@dataclass
class Verdicts:
    """Per spot of one kind: ``choice`` (-1 empty, else an index into the kind's classes),
    the best and second distances, and the confidence."""

    choice: np.ndarray
    best: np.ndarray
    second: np.ndarray
    confidence: np.ndarray
    probs: np.ndarray  # (n, 1 + c): empty, then each class, summing to 1 per spot


def _trimmed(diff: np.ndarray, keep: float) -> np.ndarray:
    """Mean over the best ``keep`` share of samples of the per-sample mean |difference|.

    Used against a piece's look: a highlight spoils a few samples, in a different place under
    every lamp, while another piece changes most of them; dropping the worst samples keeps the
    first from mattering while the second still does."""
    per_sample = diff.mean(axis=-1)
    k = max(1, int(round(per_sample.shape[-1] * keep)))
    part = np.partition(per_sample, k - 1, axis=-1)[..., :k]
    return part.mean(axis=-1)


def by_brightness(x: np.ndarray) -> np.ndarray:
    """Each spot's samples (..., K, 3) in order of brightness: what a piece looks like, whatever
    part of it the highlight, the shaded side or the side wall fell on in this view."""
    order = np.argsort(x.sum(axis=-1), axis=-1, kind="stable")
    return np.take_along_axis(x, order[..., None], axis=-2)


def distances(x: np.ndarray, empty, templates: np.ndarray, keep_class: float = 1.0, brighter: float = 1.0, ordered: bool = False,
              top: np.ndarray | None = None, relative: bool = False, chroma: bool = False,
              hue_weight: float = 0.0) -> np.ndarray:
    """(n, 1 + c): column 0 against each spot's empty look, then against each class template.

    ``empty`` is either each spot's empty look (n, K, 3) or the pair (lowest, highest) of what
    each sample showed on the empty board when the board was placed a little off (the fine lines
    of a print land a pixel or two from where the fit says, with lens distortion or a warped
    sheet). A sample inside that range costs nothing; so no sample need be thrown away for the
    lines' sake, and the point's own dot, which a piece hides, keeps counting.

    Against a piece, two allowances for gloss. A lamp's highlight only ever *adds* light, and on
    a glossy black man it can cover half its top, looking just like white plastic; but the rest
    of that top stays black, while a white man is light all over. So a sample (channel by
    channel) lighter than a class's look counts ``brighter`` (below 1) times what a darker one
    does: a black man with a highlight stays nearer black than white. (Not for Brain Hanky's
    rings: the cream cloth is lighter than a yellow ring in blue, and would pass for one.) And
    ``keep_class`` below 1 drops the worst-matching samples, where the highlight lands
    differently under every lamp.

    ``ordered``: compare a spot's samples with a piece's in order of brightness rather than
    place by place. A piece is one colour all over, but where its highlight, its shaded side and
    (seen at a slant) its side wall fall depends on the lamp and on where the piece stands in
    the picture; sorted, those parts line up wherever they fall.

    ``top``: the samples round where a piece's top would be seen (``sampling.lift``), compared
    with the pieces; ``x`` (at the spot itself) is then compared with the empty look only.

    For pieces much lighter than their board, and for metal (``Pattern``'s ``relative``,
    ``hue_weight`` and ``chroma``): ``relative`` divides a piece's distance by how light its look
    is (a white ring on the blue cloth is several times the ground, and gloss and shading change
    it by a share of that); ``hue_weight`` adds that much of the difference in hue between the
    spot's mean colour and the look (white and yellow rings differ in one channel, which the
    other two's shading drowns); ``chroma`` compares by hue and only a little by brightness
    (``_by_hue``: metal gems, mirrors of the room)."""
    if isinstance(empty, tuple):  # (lo, hi): the empty look's range under a small misplacement
        lo, hi = empty
        d_empty = (np.maximum(lo - x, 0) + np.maximum(x - hi, 0)).mean(axis=(-2, -1))
    else:
        d_empty = np.abs(x - empty).mean(axis=(-2, -1))
    if len(templates):
        x = x if top is None else top
        if chroma:
            d = np.concatenate([d_empty[:, None], _by_hue(x, templates, keep_class)], axis=1)
            return np.where(np.isfinite(d), d, np.inf)
        if hue_weight:
            d_hue = np.abs(hue(x.mean(axis=-2))[:, None]
                           - _spotwise(hue(templates.mean(axis=-2)), templates)).mean(axis=-1)
        if ordered:
            x, templates = by_brightness(x), by_brightness(templates)
        diff = x[:, None] - _spotwise(templates, templates)
        if brighter != 1.0:
            diff = np.where(diff > 0, diff * brighter, -diff)
        else:
            diff = np.abs(diff)
        d_cls = _trimmed(diff, keep_class)
        if relative:
            d_cls = d_cls / np.maximum(1.0, _spotwise(templates.mean(axis=(-2, -1)), templates))
        if hue_weight:
            d_cls = d_cls + hue_weight * d_hue
    else:
        d_cls = np.zeros((len(x), 0))
    d = np.concatenate([d_empty[:, None], d_cls], axis=1)
    return np.where(np.isfinite(d), d, np.inf)


def _spotwise(a: np.ndarray, templates: np.ndarray) -> np.ndarray:
    """``a``, computed from ``templates``, ready to meet each spot: templates are one look per
    class (c, K, 3), or, where a frame's light bends light pieces' looks (``vision.tone``), one
    per spot and class (n, c, K, 3); the former gains a leading axis."""
    return a if templates.ndim == 4 else a[None]


def band_mean(x: np.ndarray, band: tuple[float, float]) -> np.ndarray:
    """The mean colour of each spot's samples (..., K, 3) within ``band``, a share of them taken
    darkest to lightest: (0, 2/3) leaves out the lightest third (a metal's mirrored lamp)."""
    n = x.shape[-2]
    lo = min(int(round(n * band[0])), n - 1)
    hi = max(lo + 1, int(round(n * band[1])))
    return by_brightness(x)[..., lo:hi, :].mean(axis=-2)


def log_band(x: np.ndarray, band: tuple[float, float]) -> np.ndarray:
    """The log of ``band_mean``: where a lamp's or exposure's change is a shift, as hues compare."""
    return np.log(np.maximum(band_mean(x, band), 1e-3))


def hue(x: np.ndarray) -> np.ndarray:
    """A colour with its brightness divided out (channels summing to 3)."""
    return 3 * x / np.maximum(x.sum(axis=-1, keepdims=True), 0.05)


# How much a difference in brightness (log of the ratio) adds to a hue difference for a metal
# gem: enough that the empty cloth, several times lighter than a gem's facets, never passes for
# a gem of its hue; little enough that a lamp that darkens or lights every facet leaves the gem.
GEM_BRIGHTNESS = 0.3


def _by_hue(x: np.ndarray, templates: np.ndarray, keep: float) -> np.ndarray:
    """(n, c) distances of metal pieces: the hue of each spot's darker ``keep`` share of samples
    against each class's, plus ``GEM_BRIGHTNESS`` x how much lighter or darker they are.

    A metal gem is a mirror: where its facets show the lamp they are clipped white whatever the
    metal, and which facets do that changes with every lamp. The rest show the room tinted by
    the metal, gold warmer than silver; that tint is what tells them apart."""
    xm, tm = band_mean(x, (0.0, keep)), _spotwise(band_mean(templates, (0.0, keep)), templates)  # (n, 3), (1|n, c, 3)
    d_hue = np.abs(hue(xm)[:, None] - hue(tm)).mean(axis=-1)
    lx = np.log(np.maximum(xm.mean(axis=-1), 1e-3))
    lt = np.log(np.maximum(tm.mean(axis=-1), 1e-3))
    return d_hue + GEM_BRIGHTNESS * np.abs(lx[:, None] - lt)


def class_gap(a: np.ndarray, b: np.ndarray, **look) -> float:
    """How far apart two piece looks (K, 3) are as the classifier measures it, averaged over the
    two directions (a lighter look counts less against a darker class than the other way round,
    see ``distances``): what calibration checks before it trusts the classes apart."""
    empty = np.zeros_like(a)[None]
    ab = distances(a[None], empty, b[None], **look)[0, 1]
    ba = distances(b[None], empty, a[None], **look)[0, 1]
    return float((ab + ba) / 2)


def probabilities(d: np.ndarray, scale: float) -> np.ndarray:
    """Per spot, how likely each explanation is from its distance: ``exp(-d / scale)``, normalised.

    ``scale`` is how far a right explanation typically lies from what is seen (measured at
    calibration on the pictures whose contents are known), so a runner-up one ``scale`` further
    away is about a third as likely and one four ``scale`` further about one in fifty."""
    d = np.where(np.isfinite(d), d, 1e6)
    w = np.exp(-(d - d.min(axis=1, keepdims=True)) / max(scale, 1e-4))
    return w / w.sum(axis=1, keepdims=True)


def decide(d: np.ndarray, scale: float = 0.03) -> Verdicts:
    order = np.argsort(d, axis=1)
    rows = np.arange(len(d))
    best = d[rows, order[:, 0]]
    second = d[rows, order[:, 1]] if d.shape[1] > 1 else np.full(len(d), np.inf)
    with np.errstate(invalid="ignore", divide="ignore"):
        conf = np.where(np.isfinite(second), (second - best) / np.maximum(second, 1e-6), 1.0)
    conf = np.where(np.isfinite(best), np.clip(conf, 0.0, 1.0), 0.0)
    return Verdicts(order[:, 0] - 1, best, second, conf, probabilities(d, scale))


def adapt(x: np.ndarray, templates: np.ndarray, v: Verdicts, *, min_members: int = 2, sure: float = 0.5,
          max_shift: float = 0.35, ordered: bool = False) -> np.ndarray:
    """The class templates moved by how this frame's clearly read pieces of each class differ.

    The light model (``vision.sampling``) is measured on the flat paper; pieces stand up from it
    and are glossy, so a lamp moved to the side changes a black man's look more than the
    paper's. The pieces of one class in one frame share that change: each class's template is
    shifted by the median colour difference of the pieces confidently read as it (at least
    ``min_members`` of them), and the frame is then classified again. Pieces are judged against
    each other in the same light, not only against the calibration pictures.

    ``ordered``: the pattern is compared in order of brightness (``distances``), so the
    difference is taken in that order too; place by place, a ring's highlight or shaded side
    falling elsewhere than at calibration would pass for a change of colour. The shift is at
    most ``max_shift`` times the template's brightness (at least 1): a white ring on a dark
    cloth is several times the ground, and its changes are in proportion."""
    out = np.array(templates, copy=True)
    xs, ts = (by_brightness(x), by_brightness(templates)) if ordered else (x, templates)
    spotwise = templates.ndim == 4  # one look per spot and class (``vision.tone``)
    for c in range(templates.shape[1] if spotwise else len(templates)):
        members = (v.choice == c) & (v.confidence >= sure)
        if members.sum() >= min_members:
            looks = ts[members, c] if spotwise else ts[c][None]
            per_spot = np.median(xs[members] - looks, axis=1)  # (m, 3)
            look = templates[:, c] if spotwise else templates[c]
            cap = max_shift * max(1.0, float(look.mean()))
            shift = np.clip(np.median(per_spot, axis=0), -cap, cap)
            if spotwise:
                out[:, c] = look + shift
            else:
                out[c] = look + shift
    return out


# A frame's pieces of one kind split in two groups only if the best cut into two explains this
# share of their spread along the separating hue or more (Otsu's between-group share: one group
# of 20 normal values reaches 0.80 one time in twenty, 0.83 one in a hundred; for more pieces,
# ``split_share``) ...
SPLIT_SHARE = 0.8


def split_share(n: int) -> float:
    """The share of their spread the best cut must explain for ``n`` pieces to split in two:
    ``SPLIT_SHARE``, or, for many pieces, what one normal group of ``n`` reaches one time in
    twenty, whichever is lower.

    One group's best cut explains less the more pieces it has (about 2/pi of it for very many):
    simulated, one time in twenty it explains 0.79 of 20 values, 0.765 of 28, 0.73 of 50, which
    2/pi + 0.68/sqrt(n) follows to within 0.01 from 10 pieces up. A fixed 0.8 asked a frame of
    28 gems for a split that chance alone gives one time in a hundred: a blind photoreal frame's
    28 gems under a bright window were cut at 0.79993, refused by that, and named by their looks,
    five of them the wrong metal; cut at this share, one (a gold gem between the groups, with
    odds of 0.2 on gold). Over the twenty-three stored sets no other frame read otherwise, and
    the simulator's Brain Hanky rows read the same frames right (in one frame read wrong either
    way, another gem is the wrong one). Frames of fewer than 18 pieces keep 0.8."""
    return min(SPLIT_SHARE, 2 / np.pi + 0.68 / np.sqrt(n))
# ... and the two groups' means lie at least this share of the two looks' own difference apart.
# (0.4 was tried early on: it read two dim photoreal frames' white and yellow rings by their
# groups, whose means lay 0.46-0.47 of it apart, and split a third frame's white rings in two. At
# 0.5 a blind frame's yellow rings, paled by a window, lay 0.48 from its white ones in two clean
# groups, and one was read white by the looks alone; with the reader of 2026-11-26, 0.45 and 0.4
# both put it and a blind5 frame right, split no frame wrongly over the thirteen stored sets, and
# in the simulator read one more frame right and halved the 640x480 rows' wrong spots.)
SPLIT_GAP = 0.45
# The way a lamp's colour temperature moves a colour, in log (B, G, R): by Wien's law a source at
# temperature T gives log radiance -c2 / (lambda T) + const, so going warmer or cooler moves the
# channels in proportion to 1 / lambda at the camera's primaries (about 460, 540 and 610 nm),
# brightness taken out. The lamps of a club (and the photoreal set's, 3000-6500 K) span far more
# of it than gold differs from silver, and a metal gem mirrors the lamp itself while the light
# model measures it on the cloth: within one frame the photoreal gems of one class spread along
# this direction most (their blue and red channels' changes correlate at -0.97).
LAMP_HUE = 1 / np.array([460.0, 540.0, 610.0])
LAMP_HUE = (LAMP_HUE - LAMP_HUE.mean()) / np.linalg.norm(LAMP_HUE - LAMP_HUE.mean())
# How much of the looks' difference along LAMP_HUE the split leaves out: as if the lamp's spread
# were ten times the variance of every other change of hue (k / (1 + k), k = 10). Chosen on the
# stored photoreal sets among k = 0 to 30 (frames split right, of the 195 with both classes, the
# game set's among them: gems by their darker half 189 -> 193, rings 187 -> 190); leaving it out
# entirely (k infinite) split gems worse: gold and silver differ along it too.
LAMP_DISCOUNT = 10 / 11
# Each group's spread in ``split_pair`` is estimated from its pieces plus this many pieces' worth
# of the spread both groups show together, the one group's taken ``wide`` times the other's
# (``_prior_variances``, ``Pattern.split_wide``). Gold gems spread more than silver ones (a gold
# tint on every facet, moving with the lamp and the camera's tone curve), and a gem mirroring the
# lamp over its top, or the rings round it, can lie between the groups. With each group's own
# spread alone the wide gold group took three silver gems of the early photoreal sets; drawn
# towards a pooled spread taken alike for both by half a piece's worth, two of them read silver
# (0.5 stood until 2026-11-27). Alike, a stronger pull is worse (the 24 stored sets' gems split
# wrong in 11 frames at 0.5, 17 at 2, 20 at 5): it narrows gold's group and widens silver's. With
# gold taken twice as wide (its measured ratio) 2 split 8 wrong and 5 split 8, against 11 at 0.5;
# through the whole reader the sets read 573 of 581 Brain Hanky frames right at 2, 572 at 5.
SPREAD_PRIOR = 2.0


def split_pair(x: np.ndarray, v: Verdicts, templates: np.ndarray, band: tuple[float, float] = (0.0, 1.0),
               wide: float = 1.0) -> np.ndarray | None:
    """For a kind with two piece classes: each occupied spot's class found by splitting this
    frame's pieces in two along the hue that tells the two looks apart; None when the frame
    does not show two clear groups (then the templates decide).

    The look of a metal gem or a glossy ring changes with the lamp and the camera's tone curve
    by more than silver differs from gold, but in one frame all pieces share that change: on
    the photoreal renders every frame's silver gems are cooler than every one of its gold gems,
    while from frame to frame both move by as much as their difference (docs/photoreal.md).
    The hue is the log of each spot's mean colour (the ``band`` share of its samples, darkest
    to lightest: clear of mirrored highlights, or of the cloth at a ring's edges) along the
    difference of the two looks, brightness and most of a lamp's colour temperature taken out
    (``LAMP_HUE``). The pieces are cut in two where the cut
    explains most of their spread (Otsu), and the groups are then refined allowing each its own
    spread (``_two_groups``); the split is used only if the cut explains ``split_share`` of the
    spread, the groups' means lie ``SPLIT_GAP`` of the looks' difference apart, and each group
    has two pieces or more (fewer say nothing about groups). The lower group is the class whose
    look lies lower. ``wide``: the upper group's spread expected, as a multiple of the lower
    group's (``Pattern.split_wide``; the second class's look always lies upper). Returns an
    (n,) array of class indices (-1 for empty)."""
    if len(templates) != 2:
        return None
    occ = np.flatnonzero(v.choice >= 0)
    if len(occ) < SPLIT_LEAST:
        return None
    axis = _hue_axis(templates, band)
    if axis is None:
        return None
    w, ft = axis  # the two looks along w, ft[1] > ft[0]
    f = log_band(x[occ], band) @ w
    order = np.argsort(f)
    fs = f[order]
    n = len(fs)
    # within-group sum of squares for every cut with two or more on each side, from prefix sums
    c1, c2 = np.cumsum(fs), np.cumsum(fs * fs)
    k = np.arange(2, n - 1)
    left = c2[k - 1] - c1[k - 1] ** 2 / k
    right = (c2[-1] - c2[k - 1]) - (c1[-1] - c1[k - 1]) ** 2 / (n - k)
    total = float(c2[-1] - c1[-1] ** 2 / n)
    if total <= 1e-12:
        return None
    best = int(np.argmin(left + right))
    cut = int(k[best])
    share = 1.0 - float(left[best] + right[best]) / total
    if share < split_share(n):
        return None
    floor = 0.05 * float(ft[1] - ft[0])
    # where the two groups, each with its own spread, are likeliest: Otsu's cut assumes one
    # spread for both and may cut into the wider group
    low_prior, high_prior = _prior_variances(left, right, n, wide)
    sd_left, sd_right = _group_spread(left, k, low_prior), _group_spread(right, n - k, high_prior)
    nll = k * np.log(np.maximum(sd_left, floor)) + (n - k) * np.log(np.maximum(sd_right, floor))
    cut = int(k[int(np.argmin(nll))])
    high = _two_groups(fs, cut, floor=floor, wide=wide)
    if high is None or min(int(high.sum()), int((~high).sum())) < 2:
        return None
    if float(fs[high].mean() - fs[~high].mean()) < SPLIT_GAP * float(ft[1] - ft[0]):
        return None
    out = np.full(len(v.choice), -1)
    out[occ[order]] = np.where(high, 1, 0)
    return out


# How heavy the tails of a group's spread are taken to be when ``split_doubt`` says how likely a
# piece belongs to the other group: a Student t with this many degrees of freedom. A normal
# curve (infinitely many) is far too sure: over the twenty stored photoreal sets' 14342 gems
# named by their groups it expected 1.7 of them in the wrong group where 12 were, and gave 9 of
# those 12 under one chance in a thousand. With 4 it expected 29 (2 expected 101). Through the
# whole reader over the twenty-two sets (16398 gems read as gems, 15 of them the wrong metal):
# the gems it gave under 0.95 held 9 wrong where it expected 12.3, 0.95-0.99 3 (8.4), 0.99-0.999
# 3 (10.6), 0.999 or more none of 12444 (3.7): modest, not bold. The rings, split alike, were
# all right (65691; 48 expected wrong): the odds err on the side of doubt.
SPLIT_TAILS = 4.0
# ... and however sure the curves are, a piece named by its group is left at least this chance
# of being the other class: of the 15860 gems the reader gave 0.99 or more, 3 were the other
# metal (a gold gem mirroring a window deep in the silver group), about 2 in 10000.
SPLIT_FLOOR = 2e-4


def split_doubt(x: np.ndarray, split: np.ndarray, templates: np.ndarray, band: tuple[float, float] = (0.0, 1.0),
                wide: float = 1.0) -> np.ndarray:
    """(n,) how likely each piece named by ``split`` (``split_pair``) belongs to the other group:
    its hue along the line that tells the two looks apart, under each group's curve (its mean
    and spread as ``_two_groups`` takes them, heavy-tailed: ``SPLIT_TAILS``); 0 for empty spots,
    and for every spot when a group has fewer than two pieces.

    The groups name each piece surely, and nearly always rightly; but a gem mirroring a window
    or the rings round it can lie between them, and the referee, which weighs what else each
    spot may be (``arbiter.referee``), should hear that a piece there is in doubt rather than
    certain. Only the odds change; no piece is named otherwise."""
    out = np.zeros(len(split))
    axis = _hue_axis(templates, band) if len(templates) == 2 else None
    named = np.flatnonzero(split >= 0)
    high = split[named] == 1
    if axis is None or min(int(high.sum()), int((~high).sum())) < 2:
        return out
    w, ft = axis
    low_fit, high_fit = _group_fits(log_band(x[named], band) @ w, high, 0.05 * float(ft[1] - ft[0]), SPLIT_TAILS,
                                     wide=wide)
    own_over_other = np.where(high, high_fit - low_fit, low_fit - high_fit)
    out[named] = np.maximum(1.0 / (1.0 + np.exp(np.clip(own_over_other, -50.0, 50.0))), SPLIT_FLOOR)
    return out


def _hue_axis(templates: np.ndarray, band: tuple[float, float]) -> tuple[np.ndarray, np.ndarray] | None:
    """(w, the two looks along it) for ``split_pair`` and ``named_by_hue``: the direction in log
    colour that tells the two looks apart by hue, brightness and most of a lamp's colour
    temperature taken out; None if the looks differ by no hue."""
    lt = log_band(templates, band)  # (2, 3)
    d = lt[1] - lt[0]
    d = d - d.mean()  # hue only: a change of brightness moves every channel alike
    d = d - LAMP_DISCOUNT * float(d @ LAMP_HUE) * LAMP_HUE  # most of the lamp's own hue out
    norm = float(np.linalg.norm(d))
    if norm < 1e-3:
        return None
    w = d / norm
    return w, lt @ w


# Fewer pieces than this make no groups (``split_pair``).
SPLIT_LEAST = 4
# A piece the frame has too few of to group is named by its hue alone when it lies within this
# share of the looks' difference of one look (``named_by_hue``); between, the looks decide. Over
# the twenty-five stored sets the gems of frames with one to three of them lay at 0.28 or less
# (46 silver) and 0.47 or more (9 gold); at 0.25, blind23's gold gem at 0.69 (a 3030 K lamp) was
# left to the looks in the white rings' tint and read silver. 0.35 names it, and every other gem
# of such frames as before (the one at 0.47 still by the tint, which reads it right).
HUE_SURE = 0.35


def named_by_hue(x: np.ndarray, v: Verdicts, templates: np.ndarray, band: tuple[float, float],
                 sure: float = HUE_SURE) -> np.ndarray | None:
    """For a frame with too few pieces to group (under ``SPLIT_LEAST``): each piece ``v`` reads
    whose hue along the line that tells the two looks apart (``_hue_axis``, the lamp's colour
    temperature mostly out) lies within ``sure`` of that line's length from one look, named by
    that look (0 or 1); -1 for the others and for empty spots. None without two looks.

    With too few gems to group, the looks in the white rings' tint decide (``lamp_shift``), and
    they can be wrong where the hue is not: on photoreal frames with two or three gems, a silver
    gem at -0.13 to 0.05 of the way from silver's look to gold's was read as gold (under a
    window, a lamp at +1.5 EV, a 3550 K lamp), while the hue of every gem in such frames of the
    stored sets lay on its own side of the middle but one, a gold gem at 0.47, which the tint
    reads right. So the hue names the pieces it is sure of and leaves the middle to the looks.
    Where there are pieces enough to group and they show no two groups, the hue is no guide: the
    simulator's gold gems then spread from 0.1 to 0.8 of the way, and named by hue some read
    silver; None then, as without two looks."""
    if len(templates) != 2 or int((v.choice >= 0).sum()) >= SPLIT_LEAST:
        return None
    axis = _hue_axis(templates, band)
    if axis is None:
        return None
    w, ft = axis
    f = (log_band(x, band) @ w - ft[0]) / (ft[1] - ft[0])
    out = np.full(len(v.choice), -1)
    read = v.choice >= 0
    out[read & (f <= sure)] = 0
    out[read & (f >= 1.0 - sure)] = 1
    return out


def _prior_variances(low_sum_sq, high_sum_sq, n, wide: float = 1.0):
    """The variances the lower and the upper group's spreads are drawn towards: one scale from
    both groups' sums of squared deviations (``n`` pieces in all), the upper group's ``wide``
    times the lower's in spread (arrays or floats)."""
    low = (low_sum_sq + high_sum_sq / (wide * wide)) / n
    return low, low * (wide * wide)


def _group_spread(sum_sq, count, prior):
    """A group's spread from its sum of squared deviations over ``count`` pieces, drawn towards
    the ``prior`` variance (``_prior_variances``) by ``SPREAD_PRIOR`` pieces' worth (arrays or
    floats)."""
    return np.sqrt(np.maximum((sum_sq + SPREAD_PRIOR * prior) / (count + SPREAD_PRIOR), 0.0))


def _two_groups(fs: np.ndarray, cut: int, floor: float, rounds: int = 10, wide: float = 1.0) -> np.ndarray | None:
    """Sorted values ``fs`` in two groups, starting from the cut at ``cut``: each value goes to the
    group under whose normal curve (its own mean and spread, at least ``floor``) it is likelier,
    until nothing moves. One group's pieces may vary more than the other's (yellow rings whose
    gloss catches the lamp, against white ones that stay white), which a cut at equal distance
    from the two means would split wrongly; each spread is drawn towards the pooled one, the
    upper group's taken ``wide`` times the lower's, by ``SPREAD_PRIOR`` pieces' worth. Returns a
    mask of the upper group, or None if one group empties."""
    high = np.arange(len(fs)) >= cut
    for _ in range(rounds):
        if high.all() or not high.any():
            return None
        low_fit, high_fit = _group_fits(fs, high, floor, wide=wide)
        new = high_fit > low_fit
        if np.array_equal(new, high):
            break
        high = new
    return high


def _group_fits(fs: np.ndarray, high: np.ndarray, floor: float, tails: float | None = None, wide: float = 1.0
                ) -> tuple[np.ndarray, np.ndarray]:
    """Each value's log likelihood (up to a constant) under the lower and the upper group's curve
    (``high`` marks the upper group; each has its own mean and spread, drawn towards the pooled
    one by ``SPREAD_PRIOR``, the upper group's ``wide`` times the lower's, at least ``floor``):
    normal, or a Student t with ``tails`` degrees of freedom. Both groups must have members."""
    fits = []
    groups = (~high, high)
    means = [float(fs[g].mean()) for g in groups]
    sums = [float(((fs[g] - m) ** 2).sum()) for g, m in zip(groups, means)]
    priors = _prior_variances(sums[0], sums[1], len(fs), wide)
    for g, m, ss, prior in zip(groups, means, sums, priors):
        sd = max(float(_group_spread(ss, int(g.sum()), prior)), floor)
        z2 = (fs - m) ** 2 / (sd * sd)
        fits.append(-np.log(sd) - (z2 / 2 if tails is None else (tails + 1) / 2 * np.log1p(z2 / tails)))
    return fits[0], fits[1]


def lamp_shift(x: np.ndarray, templates: np.ndarray, v: Verdicts, band: tuple[float, float] = (0.0, 1.0), *,
               sure: float = 0.5, least: int = 2) -> np.ndarray | None:
    """How this frame's lamp tints a glossy white piece against its calibrated look: the median,
    over the pieces of the lightest class read surely (``sure``, at least ``least`` of them), of
    the difference in log hue (brightness divided out) of their ``band`` share of samples,
    returned as a factor per channel (3,) to multiply another kind's looks by; None when too few.

    The light model measures the lamp on the board's ground, which scatters it; a metal gem
    mirrors the lamp itself, and so, in their gloss, do white rings. On the photoreal sets the
    white rings' tint, given to the gems' looks, brought the gems the looks alone misread from
    272 to 95 (of 3252), and read right a frame's three gems, too few to split, that a warm lamp
    had turned one of silver."""
    c = int(np.argmax(templates.reshape(len(templates), -1).mean(axis=1)))
    members = (v.choice == c) & (v.confidence >= sure)
    if members.sum() < least:
        return None

    def log_hue(a: np.ndarray) -> np.ndarray:
        lg = log_band(a, band)
        return lg - lg.mean(axis=-1, keepdims=True)

    shift = np.median(log_hue(x[members]) - log_hue(templates[c])[None], axis=0)
    return np.exp(shift)


def rank_by(plain: np.ndarray, ranking: np.ndarray) -> np.ndarray:
    """Distances (n, 1 + c) whose piece classes are ranked as ``ranking`` ranks them but keep
    the distances ``plain`` measured: a second look (the looks in the frame's lamp tint,
    ``lamp_shift``; a man's foot, ``with_feet``) that tells the classes apart but says nothing
    of whether a piece is there, or of something unlike every piece (a hand).

    A silver gem mirrors the cloth, and a tint that brings silver's hue near the cloth's would
    let bare squares pass for silver (a photoreal frame a stop darker, where 33 empty squares
    did); a foot's distance added to a man's would make a tenth of the photoreal frames look
    like hands."""
    out = plain.copy()
    order = np.argsort(ranking[:, 1:], axis=1)
    values = np.sort(plain[:, 1:], axis=1)
    np.put_along_axis(out[:, 1:], order, values, axis=1)
    return out


def with_feet(d: np.ndarray, v: Verdicts, foot: np.ndarray, *, weight: float, brighter: float = 1.0,
              least: int = 2) -> np.ndarray:
    """``d`` with each piece class's distance raised by ``weight`` x how far the spot's foot lies
    from the feet of this frame's other pieces read as that class, for the pieces with ``least``
    others of every class to compare with (the others as they are).

    A man is read by its top, and a glossy black top can mirror a large lamp whole, as white as a
    white man's; its foot (the samples at the spot itself: the side wall, seen at a slant, and the
    top's near edge) stays dark where a white man's is light, shaded or not. Which brightness a
    foot has depends on the lamp, the tilt and where the piece stands, so feet are compared with
    the frame's own, brightness in order (``by_brightness``), a lighter sample counting
    ``brighter`` times a darker one as against the tops. Only to rank the classes (``rank_by``):
    the foot's distance added outright made a tenth of the photoreal frames look like hands."""
    n, c = len(d), d.shape[1] - 1
    if c < 2:
        return d
    feet = np.sort(foot.mean(axis=-1), axis=-1)  # (n, K) brightness in order
    extra = np.zeros((n, c))
    known = np.ones(n, bool)
    for k in range(c):
        members = np.flatnonzero(v.choice == k)
        ref = np.zeros_like(feet)
        if len(members) >= least:
            ref[:] = np.median(feet[members], axis=0)
        else:
            known[:] = False
        for j in members:  # each member against the others
            rest = members[members != j]
            if len(rest) >= least:
                ref[j] = np.median(feet[rest], axis=0)
            else:
                known[j] = False
        diff = feet - ref
        extra[:, k] = np.where(diff > 0, diff * brighter, -diff).mean(axis=1)
    out = d.copy()
    rows = known & (v.choice >= 0)
    out[rows, 1:] += weight * extra[rows]
    return out


def follow_split(v: Verdicts, split: np.ndarray, d: np.ndarray, doubt: np.ndarray | None = None) -> Verdicts:
    """``v`` with each piece it reads named by its group in ``split`` (``split_pair``): the
    class, its distance as the best, and the other class's probability given to it, or, with
    ``doubt`` (``split_doubt``), that share of the pieces' probability left to the other class.
    Spots ``v`` reads as empty stay empty (the groups were formed before the second look)."""
    choice = v.choice.copy()
    best = v.best.copy()
    probs = v.probs.copy()
    rows = np.flatnonzero((choice >= 0) & (split >= 0))
    c = split[rows]
    choice[rows] = c
    best[rows] = d[rows, 1 + c]
    other = 1 + (1 - c)
    piece = probs[rows, 1 + c] + probs[rows, other]
    left = np.zeros(len(rows)) if doubt is None else np.clip(doubt[rows], 0.0, 0.5)
    probs[rows, 1 + c] = piece * (1.0 - left)
    probs[rows, other] = piece * left
    return Verdicts(choice, best, v.second, v.confidence, probs)


def _empty_spread(d: np.ndarray, v: Verdicts, sure: float, least: int) -> tuple[float, float] | None:
    """(median, robust spread, at least 0.003) of how far the feet of this frame's clearly empty
    spots (read empty, ``sure`` or surer) lie from their empty look; None with fewer than
    ``least`` of them: what ``empty_like_frame`` and ``unlike_empty`` measure a spot against."""
    empties = (v.choice < 0) & (v.confidence >= sure)
    if empties.sum() < least:
        return None
    foot = d[empties, 0]
    m = float(np.median(foot))
    return m, max(1.4826 * float(np.median(np.abs(foot - m))), 0.003)


# A spot read, unsurely, as the lightest piece is called empty when its foot looks no further
# from the empty board than this many times the scatter of the frame's clearly empty spots
# beyond their median (measured on the photoreal dev set: 5 to 8 put every empty point right
# and no white man wrong; 12 began to lose white men).
EMPTY_SPREAD = 5.0
# How much less likely a light piece is where the spot's foot shows the dot and lines as the
# frame's empty points do (``empty_like_frame``): a quarter (the photoreal nine men's morris game
# was followed to its end with this and with a tenth; with no change it stopped at "unclear").
FOOT_ODDS = 0.25


def empty_like_frame(d: np.ndarray, v: Verdicts, light: int, *, unsure: float = 0.5, least: int = 5) -> Verdicts:
    """``v`` with a spot read, unsurely, as the lightest class turned empty when its foot looks
    like this frame's empty spots, and the lightest class made ``FOOT_ODDS`` times less likely
    at every spot whose foot looks so.

    A white man on white paper and the paper itself differ at the man's top by little: in a
    dim or washed-out frame the camera's tone curve can make an empty point's lifted samples
    match a white man as well as the empty look (the photoreal renders: an empty g7 read as a
    white man at -1.0 EV). But at the point itself a man hides the dot and the lines meeting
    there, while an empty point shows them as the frame's other empty points do. So the foot's
    distance from the empty look (``d[:, 0]``) is compared with the frame's clearly empty spots
    (``least`` of them or more): within their median plus ``EMPTY_SPREAD`` times their spread,
    the spot is empty; its odds of being empty and of the light piece change places. The same
    evidence weighs on the odds the referee is given (``Reading.probs``) wherever the spot
    reads empty: the lifted samples alone gave such empty points of a photoreal nine men's
    morris game 3-15% odds of a white man, frame after frame, and the referee, seeing a rival
    explanation that close, kept answering "unclear"."""
    spread = _empty_spread(d, v, unsure, least)
    if spread is None:
        return v
    m, s = spread
    foot = d[:, 0]
    like = foot <= m + EMPTY_SPREAD * s
    turn = (v.choice == light) & (v.confidence < unsure) & like
    shown = like & ((v.choice == -1) | turn)
    if not shown.any():
        return v
    choice = np.where(turn, -1, v.choice)
    best = np.where(turn, foot, v.best)
    probs = v.probs.copy()
    a, b = probs[turn, 0].copy(), probs[turn, 1 + light].copy()
    probs[turn, 0], probs[turn, 1 + light] = np.maximum(a, b), np.minimum(a, b)
    probs[shown, 1 + light] *= FOOT_ODDS
    probs[shown] /= probs[shown].sum(axis=1, keepdims=True)
    return Verdicts(choice, best, v.second, v.confidence, probs)


# A spot read as empty is taken as a piece, for finding the frame's groups, when its foot lies
# this many times the frame's empty scatter beyond their median, and at least ``UNLIKE_FLOOR``.
UNLIKE_SPREAD = 8.0
UNLIKE_FLOOR = 0.1


def split_pieces(d: np.ndarray, v: Verdicts, x: np.ndarray, templates: np.ndarray,
                 band: tuple[float, float] = (0.0, 1.0), wide: float = 1.0) -> np.ndarray | None:
    """``split_pair`` of a frame's pieces, counting among them the spots read as empty that look
    nothing like its empty ones (``unlike_empty``: silver gems under a lamp far warmer than
    calibration's). The pieces read as such are named by the split of those pieces alone when
    it finds two groups; the odd spots take their group from the split that counts them.

    What is unlike the frame's empty squares is not always a piece: on a photoreal frame two
    empty squares by the cloth's edge, lit by a lamp close to it, lay 0.13 from the empty look
    (the frame's empties within 0.06) and showed the bare cloth, no metal's hue at all; counted
    among the gems they left no two groups, and two gold gems leaning towards silver were read by
    the templates as silver. On another, one bright empty square counted among the gems widened
    the silver group enough to take in a gold gem that lay between the groups, nearer gold. So
    the odd spots do not move the pieces' own groups, only join them, while they are no more
    than the smaller of those groups. When they are more, the pieces' own split rests on fewer
    pieces than it leaves out, and the split that counts them decides every piece: on a
    photoreal blind frame, a stop and a third dark, 9 of 11 silver gems were read empty and
    unlike the empty squares; the 2 read as silver and a gold gem leaning cool made a group of
    3, and that gold gem was read as silver, which the split counting the 9 put right (over the
    fifteen stored sets, no other frame's reading changed)."""
    alone = split_pair(x, v, templates, band, wide)
    odd = unlike_empty(d, v)
    if not odd.any():
        return alone
    pieces = Verdicts(np.where(odd, np.argmin(d[:, 1:], axis=1), v.choice), v.best, v.second, v.confidence,
                      v.probs)
    counted = split_pair(x, pieces, templates, band, wide)
    if counted is None or alone is None:
        return alone if counted is None else counted
    if odd.sum() > np.bincount(alone[alone >= 0], minlength=2).min():
        return counted
    out = alone.copy()
    out[odd] = counted[odd]
    return out


def unlike_empty(d: np.ndarray, v: Verdicts, *, sure: float = 0.5, least: int = 5) -> np.ndarray:
    """The spots ``v`` reads as empty whose foot looks nothing like this frame's empty spots: a
    mask, for ``split_pair`` to count them among the pieces.

    A metal gem mirrors the room, not the lamp on the cloth: under a lamp much warmer than the
    calibration's, the cloth (and so every look measured against it) turns warm while a silver
    gem stays grey, and it can lie nearer the empty look than its own (the photoreal renders,
    a +0.8 EV frame: every silver gem 0.20-0.27 from the empty look and 0.29-0.31 from its
    own, while the frame's empty squares lay within 0.05). Such a spot is no empty square;
    counted among the pieces it falls into its group with the other silver gems, whose look
    the frame then learns (``adapt``)."""
    spread = _empty_spread(d, v, sure, least)
    if spread is None:
        return np.zeros(len(v.choice), bool)
    m, s = spread
    return (v.choice < 0) & (d[:, 0] > max(m + UNLIKE_SPREAD * s, UNLIKE_FLOOR))


def odd_in_group(d: np.ndarray, v: Verdicts, x: np.ndarray, ground: np.ndarray, band: tuple[float, float], *,
                 members: int = 2, sure: float = 0.5, least: int = 5) -> Verdicts:
    """``v`` with a spot read as empty turned into the piece it is nearest, when it looks like
    none of the frame's empty spots (``unlike_empty``), is no further from that piece's look than
    the furthest of the frame's own pieces read as it (``members`` of them or more), and shows
    the pattern's ``band`` of samples (``band_mean``; its brightness against the board under it,
    ``ground``, the spot's calibrated empty samples) nearer the brightness of that group than of
    the frame's empty spots.

    After the second look (``adapt``) a spot is judged by two distances on different scales:
    the empty look compared in full, a metal gem by its hue alone. A silver gem at the cloth's
    edge, lit from the side, lay 0.176 from the empty look and 0.189 from silver's and was read
    empty (a photoreal blind frame), although the frame's empty squares lay within 0.05 of their
    look and its other silver gems up to 0.211 from theirs. Its darkest tenth (``Pattern.join_band``),
    the facets mirroring the dark room, was nearly as dark against the cloth as the group's (0.30
    of the way from the group's median to the empties'). Over the thirteen stored sets' clear frames, 17 other gem
    spots read empty and unlike the empty ones had a group to join: all were empty squares, lit
    by a lamp close to the cloth's edge or paled by a sheen, and all lay 0.59 of that way or
    further (one of them as near silver's look as that group's furthest gem: the distances alone
    do not tell). A hand over the board makes several such spots at once, each as dark as a
    gem's facets: only a spot alone in its frame joins a group, and a hand's stay unknown."""
    odd = unlike_empty(d, v, sure=sure, least=least)
    if not odd.any():
        return v
    lum = band_mean(x, band).mean(axis=-1) / np.maximum(band_mean(ground, band).mean(axis=-1), 1e-6)
    empties = float(np.median(lum[(v.choice < 0) & (v.confidence >= sure)]))
    joins = []
    for j in np.flatnonzero(odd):
        c = int(np.argmin(d[j, 1:]))
        group = v.choice == c
        if group.sum() < members or d[j, 1 + c] > d[group, 1 + c].max():
            continue
        if abs(lum[j] - float(np.median(lum[group]))) < abs(lum[j] - empties):
            joins.append((j, c))
    if len(joins) != 1:
        return v
    (j, c), = joins
    return _turned(v, d, [j], [c])


def _turned(v: Verdicts, d: np.ndarray, rows, to) -> Verdicts:
    """``v`` with each spot of ``rows`` read as the matching class of ``to`` (-1 for empty), its
    best distance that class's in ``d``, and the odds of what it was read as and of what it is
    now read as changing places (what the referee is given, ``Reading.probs``)."""
    choice, best, probs = v.choice.copy(), v.best.copy(), v.probs.copy()
    for j, c in zip(rows, to):
        was = int(choice[j])
        choice[j], best[j] = c, d[j, 1 + c]
        probs[j, 1 + was], probs[j, 1 + c] = probs[j, 1 + c], probs[j, 1 + was]
    return Verdicts(choice, best, v.second, v.confidence, probs)


# A spot read as a piece shows the printed board under it, as calibration saw it, when its samples
# follow the calibration's empty samples of that spot (correlation at least ``PRINT_FOLLOWED``)
# with a smooth shading taken out of both, and stray from that shaded print no more than
# ``PRINT_SPREAD`` times the median of the frame's clearly empty spots. Measured over the
# eighteen stored photoreal sets' clear frames (12239 gems, 22775 empty squares): no gem does
# both (those following the print at 0.85-0.88 stray 3.7 times or more; those straying under
# 2.5 times follow it at 0.76 or less); the nine empty squares read as silver gems (in five
# frames, two of them darker twins the benchmark has no need of) do both (0.86-0.99, 0.5-2.1
# times). Looser (0.80 and 3.0) took one silver gem; stricter (0.90 and 2.0) left one empty
# square: the margin is that wide.
PRINT_FOLLOWED = 0.85
PRINT_SPREAD = 2.5
# The print is evidence only in a frame that shows it sharply: its clearly empty spots follow
# their print at this median or more. The photoreal frames' medians: 0.92-0.99 for rings (1%
# under 0.954; there the print has no say) and 0.97-0.99 for gems; the simulator's, whose camera
# moves from its calibration's a pixel or two every frame, 0.63-0.97 for rings, and in its frames
# at 0.90 and under, empty ring spots in close calls followed their print as little as rings
# do (two were read as rings without this).
PRINT_SHARP = 0.95
# The least stray of the frame's empty spots a spot's is measured in (log brightness, the
# shading out): a camera's noise. The photoreal frames' empty spots stray 0.0066-0.040 at the
# median for gems, 0.0074-0.062 for rings; a noiseless simulated frame, its empty spots the very
# calibration picture, strays next to nothing, and against that every gem square was "far".
PRINT_NOISE = 0.005


def _print_measures(x: np.ndarray, ground: np.ndarray, offsets: np.ndarray, v: Verdicts, sure: float = 0.5,
                    least: int = 5) -> tuple[np.ndarray, np.ndarray] | None:
    """(how closely each spot follows its print, how far it strays from it in units of the
    frame's clearly empty spots), or None with fewer than ``least`` of those or when they do not
    follow their own print at ``PRINT_SHARP`` (their median) or more (``print_shown``).

    The log brightness of the frame's samples and of calibration's, each less the plane that
    fits it best over the pattern's ``offsets`` (a smooth change of light across the spot): how
    closely those follow is their correlation; how far the frame's strays is the root mean
    square of their difference (the plane of the log ratio is the difference of the planes)."""
    empties = (v.choice < 0) & (v.confidence >= sure)
    if empties.sum() < least:
        return None
    shading = _shading(np.ascontiguousarray(offsets, np.float64).tobytes(), len(offsets))
    lx = np.log(np.maximum(x.mean(axis=-1), 1e-4))
    lg = np.log(np.maximum(ground.mean(axis=-1), 1e-4))
    rx, rg = lx - lx @ shading.T, lg - lg @ shading.T
    follows = (rx * rg).sum(axis=1) / np.sqrt((rx ** 2).sum(axis=1) * (rg ** 2).sum(axis=1) + 1e-12)
    if float(np.median(follows[empties])) < PRINT_SHARP:
        return None
    stray = np.sqrt(((rx - rg) ** 2).mean(axis=1))
    return follows, stray / max(float(np.median(stray[empties])), PRINT_NOISE)


@functools.lru_cache(maxsize=16)
def _shading(offsets: bytes, k: int) -> np.ndarray:
    """(k, k): what projects a spot's k samples at the pattern's offsets (given as their bytes,
    to be cached: the same few patterns every frame) onto the plane that fits them best."""
    off = np.frombuffer(offsets, np.float64).reshape(k, -1)
    A = np.c_[np.ones(k), off / (float(np.abs(off).max()) or 1.0)]
    return A @ np.linalg.pinv(A)


def _shows(m: tuple[np.ndarray, np.ndarray], v: Verdicts) -> np.ndarray:
    follows, stray = m
    return (v.choice >= 0) & (follows >= PRINT_FOLLOWED) & (stray <= PRINT_SPREAD)


def _hides(m: tuple[np.ndarray, np.ndarray], d: np.ndarray, v: Verdicts, far: float, sure: float = 0.5,
           least: int = 5) -> np.ndarray:
    follows, stray = m
    close = d[:, 1:].min(axis=1) <= PRINT_CLOSE * d[:, 0]
    hidden = close & (follows < PRINT_HIDDEN) & (stray > PRINT_STRAY)
    if far > 0:
        hidden |= (stray > far) & unlike_empty(d, v, sure=sure, least=least)
    return (v.choice < 0) & hidden


def print_shown(x: np.ndarray, ground: np.ndarray, offsets: np.ndarray, v: Verdicts, *, sure: float = 0.5,
                least: int = 5) -> np.ndarray:
    """The spots ``v`` reads as pieces that show the printed board as the empty spot showed it
    at calibration, only shaded: a mask.

    ``x`` (n, k, 3): the frame's samples of each spot, relative to the board's light; ``ground``:
    the same spots' samples on the empty board at calibration; ``offsets``: where the k
    samples lie round a spot (board units). On the log of each sample's brightness a plane is
    fitted and taken out (a fold's shading, a lamp's slope across one spot); what remains of the
    frame's spot is compared with what remains of the calibration's: the printed lines and
    label under the spot make a pattern that an empty spot repeats (correlation 0.96 or more for
    99% of the stored sets' empty squares) and a piece covers. The residual of the frame's own
    log ratio to calibration after its plane is measured against the frame's clearly empty
    spots (``least`` or more, read empty ``sure`` or surer), whose median it may exceed by
    ``PRINT_SPREAD`` times at most.

    Why: on photoreal frames empty squares under a lamp's sheen or on a fold lit anew lay
    nearer silver's look than the empty look (blind14: 0.142 against 0.197, where the frame's
    empty squares lay within 0.03-0.20 of theirs), and neither their brightness nor its spread
    told them from 1% of silver gems. What a gem cannot do is show the print it stands on: a
    facet mirrors the room, not the label and lines under it. A hand over a spot shows no print
    either, so it is never turned empty here."""
    m = _print_measures(x, ground, offsets, v, sure, least)
    return np.zeros(len(v.choice), bool) if m is None else _shows(m, v)


# A spot read as empty in a close call (a piece's look no further than ``PRINT_CLOSE`` times the
# empty look) is that piece when it hides the print under it: follows it at under
# ``PRINT_HIDDEN`` and strays from it more than ``PRINT_STRAY`` times the frame's clearly empty
# spots. Measured over the eighteen stored sets' clear frames: the four rings read as empty (a
# yellow ring a stop and a half dark, three rings sunk into a fold) followed their print at
# 0.27-0.33, strayed 1.8-3.5 times and lay 1.03-1.15 times as far from their look as from the
# empty one; of the 130076 empty ring spots only two were such close calls at all (1.21, 1.23
# times), following their print at 0.49 and 0.93. Gems' empty squares never come near (the
# least of them followed its print at 0.78).
PRINT_CLOSE = 1.25
PRINT_HIDDEN = 0.4
PRINT_STRAY = 1.5


def print_hidden(d: np.ndarray, x: np.ndarray, ground: np.ndarray, offsets: np.ndarray, v: Verdicts, *,
                 far: float = 0.0, sure: float = 0.5, least: int = 5) -> np.ndarray:
    """The spots ``v`` reads as empty, in a close call with a piece, that hide the print under
    them (``PRINT_CLOSE``, ``PRINT_HIDDEN``, ``PRINT_STRAY``; measured as in ``print_shown``):
    a mask.

    Why: a yellow ring in a dark frame, or one tilted on a fold, can lie as near the empty
    look as its own (blind16: 0.129 from the empty look, 0.133 from yellow's). An empty spot
    shows the printed lines under it however it is lit (its correlation with calibration's,
    the shading taken out, was 0.985 at the median); a ring's band covers them.

    ``far`` (``Pattern.print_far``; 0: not used): a spot read as empty that strays from its
    print more than ``far`` times the frame's clearly empty spots, and looks like none of them
    (``unlike_empty``), is no empty spot, close call or not. Silver gems at +0.8 to +1.1 EV
    (blind18, found after it was read blind) lay 1.45 times as far from silver's look as from
    the empty one and were read empty, straying 9.4 to 14.7 times; of the 22775 empty gem
    squares of the eighteen sets before it none strayed more than 4.7 times. A hand strays as
    far: read as the nearest piece, it is still unlike that piece's look and refused
    (``BoardReader.read``); no hand frame was read with this."""
    m = _print_measures(x, ground, offsets, v, sure, least)
    return np.zeros(len(v.choice), bool) if m is None else _hides(m, d, v, far, sure, least)


def by_print_under(d: np.ndarray, v: Verdicts, x: np.ndarray, ground: np.ndarray, offsets: np.ndarray, *,
                   far: float = 0.0) -> Verdicts:
    """``v`` with each spot read as a piece that shows the printed board (``print_shown``) read
    empty, and each read as empty in a close call that hides it (``print_hidden``) read as the
    piece it is nearest: in both, the odds of the two change places. The measures are made
    once for both."""
    m = _print_measures(x, ground, offsets, v)
    if m is None:
        return v
    rows = np.flatnonzero(_shows(m, v) | _hides(m, d, v, far))
    return _turned(v, d, rows, np.where(v.choice[rows] >= 0, -1, np.argmin(d[rows, 1:], axis=1)))
