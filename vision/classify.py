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
              top: np.ndarray | None = None) -> np.ndarray:
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
    with the pieces; ``x`` (at the spot itself) is then compared with the empty look only."""
    if isinstance(empty, tuple):  # (lo, hi): the empty look's range under a small misplacement
        lo, hi = empty
        d_empty = (np.maximum(lo - x, 0) + np.maximum(x - hi, 0)).mean(axis=(-2, -1))
    else:
        d_empty = np.abs(x - empty).mean(axis=(-2, -1))
    if len(templates):
        x = x if top is None else top
        if ordered:
            x, templates = by_brightness(x), by_brightness(templates)
        diff = x[:, None] - templates[None]
        if brighter != 1.0:
            diff = np.where(diff > 0, diff * brighter, -diff)
        else:
            diff = np.abs(diff)
        d_cls = _trimmed(diff, keep_class)
    else:
        d_cls = np.zeros((len(x), 0))
    d = np.concatenate([d_empty[:, None], d_cls], axis=1)
    return np.where(np.isfinite(d), d, np.inf)


def class_gap(a: np.ndarray, b: np.ndarray, keep_class: float = 1.0, brighter: float = 1.0,
              ordered: bool = False) -> float:
    """How far apart two piece looks (K, 3) are as the classifier measures it, averaged over the
    two directions (a lighter look counts less against a darker class than the other way round,
    see ``distances``): what calibration checks before it trusts the classes apart."""
    empty = np.zeros_like(a)[None]
    ab = distances(a[None], empty, b[None], keep_class=keep_class, brighter=brighter, ordered=ordered)[0, 1]
    ba = distances(b[None], empty, a[None], keep_class=keep_class, brighter=brighter, ordered=ordered)[0, 1]
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
          max_shift: float = 0.35) -> np.ndarray:
    """The class templates moved by how this frame's clearly read pieces of each class differ.

    The light model (``vision.sampling``) is measured on the flat paper; pieces stand up from it
    and are glossy, so a lamp moved to the side changes a black man's look more than the
    paper's. The pieces of one class in one frame share that change: each class's template is
    shifted by the median colour difference of the pieces confidently read as it (at least
    ``min_members`` of them), and the frame is then classified again. Pieces are judged against
    each other in the same light, not only against the calibration pictures."""
    out = np.array(templates, copy=True)
    for c in range(len(templates)):
        members = (v.choice == c) & (v.confidence >= sure)
        if members.sum() >= min_members:
            per_spot = np.median(x[members] - templates[c][None], axis=1)  # (m, 3)
            out[c] = templates[c] + np.clip(np.median(per_spot, axis=0), -max_shift, max_shift)
    return out
