"""Is something over the board? The background probes' light, compared with their neighbours'.

Light changes smoothly across a board; a hand or an arm (or its shadow's edge) does not. Each
background probe's change of light since calibration (in log terms, per channel) is compared
with the median of its nearest probes; a probe off by more than the family's threshold in any
channel, or in the balance between channels (skin is redder than the board's change of light),
deviates, and a few deviating probes next to each other mean something is over the board.
A shadow cast from off the board (a cup beside it, a window's blind) deviates at its edge as a
hand does, but leaves the printed lines showing through it; a hand, a sleeve or a card hides
them. So a probe whose nearby lines all still show (``LINES_REACH``) is not counted.

Shared by the reader (every frame) and by calibration (the two calibration pictures must agree
on the background, or a hand was in one of them), so it lives in a module of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PROBE_NEIGHBOURS = 16
# A channel whose probes scatter more than usual (a dark channel in a dim frame: the red of a
# blue cloth; JPEG's coarse colour smearing a saturated ground into the lines beside it) has
# its threshold raised to this many times its frame-wide scatter (the probes' median absolute
# deviation, scaled to a standard deviation), up to ``NOISE_CAP`` times the family's threshold:
# the probes next to a hand's edge are off by far more, and a hand's inside, uniform itself,
# leaves the scatter of the rest of the board as it was.
NOISE_K = 4.0
NOISE_CAP = 2.5
# A deviating probe is a shadow's, not a cover's, when the printed lines' marks (``Family.ink``)
# within this many board units of it all still show their ink in the frame, and at least
# ``LINES_LEAST`` of them were seen: a hand over the probe, or an arm's edge beside it, hides
# some of the lines round it, while a shadow keeps them (the reader measures each mark's ink
# against the board beside it, so a darker board with darker lines still shows them). One unit
# (a point-spacing on the mills' boards) reaches the lines from most probes between them. On the
# photoreal validation 13 clear mills frames were refused by the probes (cast shadows of cups and
# blinds, lines in plain view): 7 are read with this, none wrong, and no hand frame is
# (docs/learned-reader.md, "Shadows cast from off the board").
LINES_REACH = 1.0
LINES_LEAST = 2


@dataclass
class ProbeVerdict:
    """What the probes said: the reason (empty when nothing is over the board), each probe's
    deviation, and the probes found deviating."""

    reason: str
    deviation: np.ndarray
    deviating: np.ndarray


def shadow_reach(probes: np.ndarray, family) -> np.ndarray:
    """(P, N): whether each probe lies within a standing piece's shadow reach of each spot
    (``Family.shadow_reach``), where a darkening that keeps the paper's colour is no hand."""
    return np.linalg.norm(probes[:, None, :] - family.xy[None, :, :], axis=2) <= family.shadow_reach


class HandCheck:
    """The probe neighbourhoods of one calibration, built once; ``check(ratio)`` per frame."""

    def __init__(self, probes: np.ndarray, spots: tuple[str, ...], spot_xy: np.ndarray,
                 threshold: float, count: int = 2, marks: np.ndarray | None = None):
        self.probes = probes
        self.spots = spots
        self.spot_xy = spot_xy
        self.threshold = threshold
        self.count = count
        d = np.round(np.linalg.norm(probes[:, None, :] - probes[None, :, :], axis=2), 9)
        k = min(PROBE_NEIGHBOURS + 1, len(probes))
        self.near = np.argsort(d, axis=1, kind="stable")[:, 1:k]
        spacing = float(np.sort(d, axis=1)[:, 1].max()) if len(probes) > 1 else 1.0
        self.adjacent = (d > 0) & (d <= 1.5 * spacing)
        # (P, N) each probe's distance to each spot: whose standing piece is nearest (``check``)
        self.to_spot = np.linalg.norm(probes[:, None, :] - spot_xy[None, :, :], axis=2)
        # (P, M) the printed lines' marks (``marks``, board units) within ``LINES_REACH`` of each
        # probe, or None for a board with no marks (Brain Hanky's cloth)
        self.marks_near = None
        if marks is not None and len(marks):
            gap = np.linalg.norm(probes[:, None, :] - np.asarray(marks, np.float64)[None], axis=2)
            self.marks_near = gap <= LINES_REACH

    @classmethod
    def of(cls, cal, threshold: float | None = None, count: int = 2) -> "HandCheck":
        fam = cal.family
        return cls(cal.probes, fam.spots, fam.xy, threshold or fam.probe_threshold, count, fam.ink)

    def check(self, ratio: np.ndarray, shade_ok: np.ndarray | None = None,
              tints: np.ndarray | None = None, standing: np.ndarray | None = None,
              ink_seen: np.ndarray | None = None, ink_gone: np.ndarray | None = None,
              covers: np.ndarray | None = None) -> ProbeVerdict:
        """``shade_ok``: probes where a darkening that keeps the paper's colour is expected (a
        standing piece's shadow can reach them) and is not counted; a hand or an arm changes
        the colour as well, and its shadow reaches further than a piece's.

        ``tints`` (N, 3), with ``standing`` (N,) the spots read as holding a piece: each such
        piece's colour as a direction in log colour (``piece_tints``). A coloured piece tints its
        own shadow: the paper there is lit by light the piece threw back, so a red man's shadow
        is reddish and a blue man's bluish (photoreal renders of matte red and blue men: the
        paper beside them darkened up to three times as much in two channels as in the third).
        With them, a shadow probe's change of colour along the nearest standing piece's own
        tint is allowed too; any other change of colour still counts.

        ``ink_seen`` and ``ink_gone`` (M,) over the marks given at construction: the marks the
        frame could measure, and those of them whose ink it did not show (``BoardReader._ink_hidden``).
        With them, a probe whose nearby lines all show (``lines_show``) is not counted, however
        its light changed: a shadow cast from off the board.

        ``covers`` (P, 3): for a probe a standing piece may hide from a slanted camera, that
        piece's own look against the board (log colour, ``covering_looks``), NaN elsewhere. Such a
        probe is not counted when its change is the piece seen over part of it, darkened by a
        shadow or not (``in_cover``): calibration knows where its pieces stand."""
        lr = np.log(np.maximum(ratio, 1e-3))
        local = np.median(lr[self.near], axis=1)
        d = lr - local
        scatter = 1.4826 * np.median(np.abs(d), axis=0)  # (3,) per channel, this frame
        limit = np.clip(NOISE_K * scatter, self.threshold, NOISE_CAP * self.threshold)
        score = np.abs(d / limit).max(axis=1) * self.threshold  # in the threshold's units
        off = score > self.threshold
        if shade_ok is not None:
            level = d.mean(axis=1)
            t = (d - level[:, None]) / limit
            if tints is not None and standing is not None and np.any(standing):
                at = np.flatnonzero(standing)
                nearest = at[np.argmin(self.to_spot[:, at], axis=1)]
                u = np.asarray(tints, np.float64)[nearest]  # (P, 3), unit or zero
                along = np.maximum(np.einsum("pc,pc->p", t, u), 0.0)
                t = t - along[:, None] * u
            tint = np.abs(t).max(axis=1)
            off &= ~(shade_ok & (level < 0) & (tint <= 1.0))
        if covers is not None and off.any():
            off &= ~in_cover(d, np.asarray(covers, np.float64), limit)
        if ink_seen is not None and ink_gone is not None and off.any():
            off &= ~self.lines_show(ink_seen, ink_gone)
        bad = np.flatnonzero(off & (self.adjacent[:, off].sum(axis=1) > 0))
        reason = ""
        if len(bad) >= self.count:
            where = self.probes[bad].mean(axis=0)
            near = self.spots[int(np.argmin(np.linalg.norm(self.spot_xy - where, axis=1)))]
            reason = f"something is over the board near {near} (a hand or arm?)"
        return ProbeVerdict(reason, score, bad)

    def lines_show(self, ink_seen: np.ndarray, ink_gone: np.ndarray) -> np.ndarray:
        """(P,) the probes with ``LINES_LEAST`` or more measured marks within ``LINES_REACH``, none
        of them gone (``check``); all False for a board without marks."""
        if self.marks_near is None or len(ink_seen) != self.marks_near.shape[1]:
            return np.zeros(len(self.probes), bool)
        seen = self.marks_near & np.asarray(ink_seen, bool)[None, :]
        gone = (seen & np.asarray(ink_gone, bool)[None, :]).any(axis=1)
        return (seen.sum(axis=1) >= LINES_LEAST) & ~gone


def covering_looks(probes: np.ndarray, spot_xy: np.ndarray, reach: np.ndarray, standing: np.ndarray,
                   looks: np.ndarray) -> np.ndarray:
    """(P, 3): for each probe within ``reach`` (N,) of a standing piece's spot (``spot_xy`` (N, 2);
    ``layouts.cover_reach``: what a slanted camera may see of the piece over the board beside it)
    the nearest such piece's look (``looks`` (N, 3), log colour against the board), NaN for a
    probe no standing piece may cover."""
    out = np.full((len(probes), 3), np.nan)
    at = np.flatnonzero(np.asarray(standing, bool))
    if not len(at):
        return out
    dist = np.linalg.norm(np.asarray(probes)[:, None, :] - spot_xy[at][None, :, :], axis=2)  # (P, n)
    dist = np.where(dist <= reach[at][None, :], dist, np.inf)
    near = np.argmin(dist, axis=1)
    hit = np.isfinite(dist[np.arange(len(probes)), near])
    out[hit] = np.asarray(looks, np.float64)[at[near[hit]]]
    return out


def in_cover(d: np.ndarray, w: np.ndarray, limit: np.ndarray) -> np.ndarray:
    """(P,) whether each probe's change ``d`` (P, 3, log colour against its neighbours) is a share
    ``a`` (0 to 1) of the covering piece's look ``w`` (P, 3; NaN: no piece) plus a darkening
    ``b`` (0 or more, alike in every channel: its shadow), within ``limit`` (3,) in every channel:
    the piece seen over part of the probe, in its shadow or not. The least-squares ``a`` and
    ``b`` are taken within their bounds (the best of the free fit and each bound's)."""
    d = np.asarray(d, np.float64)
    ok = np.all(np.isfinite(w), axis=1)
    out = np.zeros(len(d), bool)
    if not ok.any():
        return out
    dd, ww = d[ok], w[ok]
    s = np.full(3, -1.0 / np.sqrt(3.0))
    best = np.full(len(dd), np.inf)

    def consider(a: np.ndarray, b: np.ndarray) -> None:
        fine = (a >= -1e-9) & (a <= 1 + 1e-9) & (b >= -1e-9)
        r = np.abs(dd - a[:, None] * ww - b[:, None] * s[None, :]) / limit[None, :]
        np.minimum(best, np.where(fine, r.max(axis=1), np.inf), out=best)

    wsq = np.einsum("pc,pc->p", ww, ww)
    ws = ww @ s
    ds = dd @ s
    dw = np.einsum("pc,pc->p", dd, ww)
    det = wsq - ws ** 2  # s is of unit length
    with np.errstate(divide="ignore", invalid="ignore"):
        a_free = np.where(det > 1e-12, (dw - ws * ds) / det, -1.0)
    consider(a_free, ds - a_free * ws)
    for a in (0.0, 1.0):
        a_fix = np.full(len(dd), a)
        consider(a_fix, np.maximum(0.0, ds - a * ws))
    with np.errstate(divide="ignore", invalid="ignore"):
        consider(np.clip(np.where(wsq > 1e-12, dw / wsq, 0.0), 0.0, 1.0), np.zeros(len(dd)))
    out[np.flatnonzero(ok)] = best <= 1.0
    return out


# A piece whose colour differs from the paper round it by less than this (log colour, its tint
# part's length) throws back no colour worth allowing for: white, grey and black men.
TINT_LEAST = 0.1


def piece_tints(patches: np.ndarray, standing: np.ndarray) -> np.ndarray:
    """(N, 3): for each spot read as holding a piece (``standing``), the piece's colour against
    the paper round it, as a unit direction in log colour with its mean taken out (zero for a
    piece of no colour, ``TINT_LEAST``, and for an empty spot). ``patches`` (N, S, S, 3): the
    spots' patches with the frame's light taken out; the middle fifth of a patch is the piece's
    top, its outermost pixels the board round it."""
    patches = np.asarray(patches)
    standing = np.asarray(standing, bool)
    n, size = patches.shape[:2]
    out = np.zeros((n, 3))
    rows = np.flatnonzero(standing)
    if not len(rows):
        return out
    p = patches[rows]  # only the standing pieces' patches: Brain Hanky has 1170 spots
    m = len(rows)
    c, r = size // 2, max(1, size // 10)
    top = p[:, c - r:c + r + 1, c - r:c + r + 1].reshape(m, -1, 3).mean(axis=1, dtype=np.float64)
    rim = np.concatenate([p[:, :2].reshape(m, -1, 3), p[:, -2:].reshape(m, -1, 3),
                          p[:, :, :2].reshape(m, -1, 3), p[:, :, -2:].reshape(m, -1, 3)], axis=1)
    paper = np.median(rim, axis=1).astype(np.float64)
    v = np.log(top + 1.0) - np.log(paper + 1.0)
    v -= v.mean(axis=1, keepdims=True)
    norm = np.linalg.norm(v, axis=1)
    keep = norm >= TINT_LEAST
    out[rows[keep]] = v[keep] / norm[keep, None]
    return out
