"""Telling what stands on each spot: the nearest template, and how clear the choice was.

Each spot is compared, sample by sample, with the look of that same spot on the empty board
(lines, the point's dot and all) and with the look of every piece class that may stand there
(learned at calibration). Colours are relative to the board's background (``vision.sampling``),
so one threshold serves every light. The distance is the mean absolute difference per sample
and channel: a number near 0 for a match, about 0.3 or more between a white chip and the board.

The confidence compares the best and second-best distances: 1 when the best is far ahead, 0
when two explanations fit equally. A best distance above ``unknown`` means nothing fits (a
finger, a coin, a piece pushed off its point).
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


def _trimmed(diff: np.ndarray, keep: float) -> np.ndarray:
    """Mean over the best ``keep`` share of samples of the per-sample mean |difference|.

    Used for the empty look only: a thin line a pixel off its place spoils a few samples, while
    a piece or a finger changes most of them, so dropping the worst samples keeps the first
    from mattering while the second still does."""
    per_sample = diff.mean(axis=-1)
    k = max(1, int(round(per_sample.shape[-1] * keep)))
    part = np.partition(per_sample, k - 1, axis=-1)[..., :k]
    return part.mean(axis=-1)


def distances(x: np.ndarray, empty: np.ndarray, templates: np.ndarray, keep: float = 1.0) -> np.ndarray:
    """(n, 1 + c): column 0 against each spot's empty look, then against each class template."""
    d_empty = _trimmed(np.abs(x - empty), keep)
    if len(templates):
        # A piece is even all over: every sample must match it, so no trimming here.
        d_cls = np.mean(np.abs(x[:, None] - templates[None]), axis=(2, 3))
    else:
        d_cls = np.zeros((len(x), 0))
    d = np.concatenate([d_empty[:, None], d_cls], axis=1)
    return np.where(np.isfinite(d), d, np.inf)


def decide(d: np.ndarray) -> Verdicts:
    order = np.argsort(d, axis=1)
    rows = np.arange(len(d))
    best = d[rows, order[:, 0]]
    second = d[rows, order[:, 1]] if d.shape[1] > 1 else np.full(len(d), np.inf)
    with np.errstate(invalid="ignore", divide="ignore"):
        conf = np.where(np.isfinite(second), (second - best) / np.maximum(second, 1e-6), 1.0)
    conf = np.where(np.isfinite(best), np.clip(conf, 0.0, 1.0), 0.0)
    return Verdicts(order[:, 0] - 1, best, second, conf)
