"""Sampling a frame at the board's spots and background, with lighting taken out.

The reader never looks at whole images: it looks at a few dozen pixels per spot (the family's
sampling pattern, ``vision.families``) and at *probes*, small patches of plain board background
between the spots and away from the lines, chosen from the empty board at calibration. One
``cv2.remap`` fetches them all, so a frame costs well under a millisecond here.

Lighting: the camera sees reflectance times light. Probes carry no pieces, so the ratio of a
probe now to the same probe on the empty board is the change of light (level, colour cast,
shadows) at that place. Each spot divides its samples by the median ratio of its nearest probes
(the median ignores a probe or two covered by a stray finger) and by the empty board's
background colour there, giving colours *relative to the board's own background*: about 1.0
for the board, above it for a white piece, far below for a black one, whatever the light.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import markers as mk
from .families import Family

PROBE_PATCH = np.array([(0, 0), (0.03, 0), (-0.03, 0), (0, 0.03), (0, -0.03)], np.float64)
# At calibration a probe must be even over a wider ring than it samples later, so that a line
# or a mark a little way off (and a little blur or registration error) never reaches the patch.
def _check_ring(radius: float) -> np.ndarray:
    return np.array([(0, 0)] + [(radius * np.cos(a), radius * np.sin(a))
                                for a in np.linspace(0, 2 * np.pi, 8, endpoint=False)], np.float64)
NEAREST_PROBES = 8
# A raw channel this bright is the camera's top, not the scene's colour: clipped (a gem's mirrored
# lamp, ``Pattern.fill_clipped``; the paper, ``calibration.PAPER_CLIPPED``).
CLIPPED = 250.0


def project(H: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """Board coordinates (..., 2) -> image pixels (..., 2) through homography ``H``."""
    shape = xy.shape
    p = xy.reshape(-1, 2)
    q = p @ H[:2, :2].T + H[:2, 2]
    w = p @ H[2, :2] + H[2, 2]
    return (q / w[:, None]).reshape(shape)


def fetch(image: np.ndarray, pixels: np.ndarray) -> np.ndarray:
    """Bilinear colour at each pixel position (..., 2) -> (..., 3) float32; outside is NaN."""
    shape = pixels.shape[:-1]
    flat = pixels.reshape(-1, 2).astype(np.float32)
    n = len(flat)
    width = 1024  # remap maps must stay under 32767 pixels a side: fold the list into rows
    rows = max(1, -(-n // width))
    grid = np.full((rows * width, 2), -10.0, np.float32)
    grid[:n] = flat
    grid = grid.reshape(rows, width, 2)
    out = cv2.remap(image, grid[..., 0], grid[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                    borderValue=(0, 0, 0)).reshape(-1, 3)[:n].astype(np.float32)
    h, w = image.shape[:2]
    outside = (flat[:, 0] < 0) | (flat[:, 1] < 0) | (flat[:, 0] > w - 1) | (flat[:, 1] > h - 1)
    out[outside] = np.nan
    return out.reshape(*shape, 3)


@dataclass
class Layout:
    """Where to look, in board units: every spot's samples and every probe's patch."""

    family: Family
    probes: np.ndarray  # (P, 2) board coordinates of the probe centres
    kinds: tuple[str, ...]  # the piece kinds, in the order of ``groups``
    groups: dict[str, np.ndarray]  # kind -> indices of the spots of that kind
    near: np.ndarray  # (N, NEAREST_PROBES) indices of each spot's nearest probes
    ink_near: np.ndarray  # (M,) the spot nearest each of ``family.ink``
    # Where the spots, probes and ink marks are looked for (board units, through the frame's
    # homography): their places plus the board surface's bend (``vision.surface``), if any.
    spot_at: np.ndarray  # (N, 2)
    probe_at: np.ndarray  # (P, 2)
    ink_at: np.ndarray  # (M, 2)

    @classmethod
    def build(cls, family: Family, probes: np.ndarray, bend=None) -> Layout:
        """``bend``: a callable (..., 2) board places -> offsets (``vision.surface.Bend``) or None."""
        kinds = tuple(dict.fromkeys(family.spot_kind))
        groups = {k: np.array([i for i, sk in enumerate(family.spot_kind) if sk == k], np.intp) for k in kinds}
        d = np.round(np.linalg.norm(family.xy[:, None, :] - probes[None, :, :], axis=2), 9)
        k = min(NEAREST_PROBES, len(probes))
        near = np.argsort(d, axis=1, kind="stable")[:, :k]  # ties break the same way every time
        ink_near = np.argmin(np.linalg.norm(family.ink[:, None, :] - family.xy[None], axis=2), axis=1) \
            if len(family.ink) else np.zeros(0, np.intp)  # (argmin of an empty axis would fail)
        ink = family.ink.reshape(-1, 2)
        at = (family.xy, probes, ink) if bend is None else \
            tuple(p + bend(p) if len(p) else p for p in (family.xy, probes, ink))
        return cls(family, probes, kinds, groups, near, ink_near, *at)

    def sample_points(self, lift: np.ndarray | None = None) -> np.ndarray:
        """(M, 2) board coordinates of every pixel fetched: spot samples by kind, then (with
        ``lift``, (N, 2) per-spot offsets) the same patterns round where each piece's top is
        seen, then probes, then ink marks; all where the surface has them (``spot_at``...)."""
        parts = [(self.spot_at[idx][:, None, :] + self.family.patterns[k].offsets[None]).reshape(-1, 2)
                 for k, idx in self.groups.items()]
        if lift is not None:
            parts += [(self.spot_at[idx][:, None, :] + lift[idx][:, None, :]
                       + self.family.patterns[k].offsets[None]).reshape(-1, 2) for k, idx in self.groups.items()]
        parts.append((self.probe_at[:, None, :] + PROBE_PATCH[None]).reshape(-1, 2))
        parts.append(self.ink_at)
        return np.concatenate(parts)

    def _kind_slices(self, at: int) -> dict[str, slice]:
        """{kind: where its spots' samples lie in ``sample_points``}, the first starting at ``at``."""
        out = {}
        for k, idx in self.groups.items():
            n = len(idx) * len(self.family.patterns[k].offsets)
            out[k] = slice(at, at + n)
            at += n
        return out

    def top_slices(self, lifted: bool = False) -> dict[str, slice]:
        """{kind: where its samples round the pieces' tops lie in ``sample_points``} (the spots'
        own samples when not ``lifted``)."""
        spots = self._kind_slices(0)
        return self._kind_slices(next(reversed(spots.values())).stop) if lifted else spots

    def split(self, values: np.ndarray, lifted: bool = False):
        """Cut the fetched colours back into {kind: (n, K, 3)} at the spots, the same at the
        pieces' tops (the spots again when not ``lifted``), probes (P, patch, 3) and ink (M, 3)."""
        def cut(slices: dict[str, slice]) -> dict[str, np.ndarray]:
            return {k: values[w].reshape(len(self.groups[k]), len(self.family.patterns[k].offsets), 3)
                    for k, w in slices.items()}

        out = cut(self._kind_slices(0))
        top_at = self.top_slices(lifted)
        tops = cut(top_at) if lifted else out
        at = next(reversed(top_at.values())).stop
        n_ink = len(self.family.ink)
        probes = values[at:len(values) - n_ink].reshape(len(self.probes), len(PROBE_PATCH), 3)
        return out, tops, probes, values[len(values) - n_ink:]


@dataclass
class Samples:
    """One frame's raw colours: per kind (n, K, 3) at the spots and round the pieces' tops, and
    probes (P, 3), plus each probe's spread."""

    spots: dict[str, np.ndarray]
    probes: np.ndarray
    probe_spread: np.ndarray  # (P,) max-min over the probe's patch, relative to its mean
    tops: dict[str, np.ndarray] | None = None  # None: the same as ``spots`` (nothing lifted)
    ink: np.ndarray | None = None  # (M, 3) on the printed lines (``Family.ink``)
    # per kind with ``Pattern.sharp`` (n, K, 3): the tops' samples from the picture unblurred
    unblurred: dict[str, np.ndarray] | None = None

    def __post_init__(self) -> None:
        if self.tops is None:
            self.tops = self.spots


@dataclass
class Relative:
    """One frame's spot colours relative to the board's background: ``base`` where an empty spot
    is (for comparing with the empty board) and ``top`` where a piece's top would be seen (for
    comparing with the pieces; the same as ``base`` for a camera straight overhead)."""

    base: dict[str, np.ndarray]
    top: dict[str, np.ndarray]
    # per kind (n, 3): what the board under each spot shows in this frame, and the frame's light
    # there against the empty board (``vision.tone``: how a light piece's look bends near white)
    scale: dict[str, np.ndarray] | None = None
    light: dict[str, np.ndarray] | None = None
    # (M, 3): the printed lines' ink (``Family.ink``) relative to the board beside it
    ink: np.ndarray | None = None
    # per kind with ``Pattern.sharp``: ``top`` sampled from the picture unblurred
    unblurred: dict[str, np.ndarray] | None = None


def lift(H: np.ndarray, frame_size: tuple[int, int], xy: np.ndarray, heights: np.ndarray) -> np.ndarray | None:
    """(N, 2) board offsets from each spot to where the top of a piece ``heights`` tall is seen.

    A camera at a slant sees a standing piece's top displaced from its foot, away from the point
    straight below the camera, by more the further the piece stands from it: a man 5 mm tall
    seen 35 degrees off vertical shows its top a quarter of a point-spacing away. The camera is
    recovered from the board's homography (principal point at the frame's centre, square pixels,
    the focal length from the two board axes being perpendicular and of one length in space); a
    point ``h`` above each spot is projected with it and brought back to the board plane. None
    when the homography says nothing usable (no piece has height, or a degenerate fit)."""
    if not np.any(heights > 0):
        return None
    w, h = frame_size
    cx, cy = (w - 1) / 2.0, (h - 1) / 2.0
    Hn = H / np.linalg.norm(H[:, 0])
    a = Hn[0] - cx * Hn[2]
    b = Hn[1] - cy * Hn[2]
    c = Hn[2]
    # (a_i, b_i, c_i) for column i is f * K^-1 h_i with the focal length f still in it.
    estimates = []
    if abs(c[0] * c[1]) > 1e-12:
        f2 = -(a[0] * a[1] + b[0] * b[1]) / (c[0] * c[1])
        if f2 > 0:
            estimates.append((abs(c[0] * c[1]), f2))
    if abs(c[1] ** 2 - c[0] ** 2) > 1e-12:
        f2 = ((a[0] ** 2 + b[0] ** 2) - (a[1] ** 2 + b[1] ** 2)) / (c[1] ** 2 - c[0] ** 2)
        if f2 > 0:
            estimates.append((abs(c[1] ** 2 - c[0] ** 2), f2))
    f = np.sqrt(max(estimates)[1]) if estimates else 0.0
    if not (0.3 * w < f < 5.0 * w):
        f = 0.8 * w  # no usable perspective (a camera nearly overhead): a common webcam's lens
    K = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
    M = np.linalg.inv(K) @ H
    scale = 1.0 / np.linalg.norm(M[:, 0])
    r1, r2, t = M[:, 0] * scale, M[:, 1] * scale, M[:, 2] * scale
    if t[2] < 0:  # the board in front of the camera
        r1, r2, t = -r1, -r2, -t
    r3 = np.cross(r1, r2)
    R = np.stack([r1, r2, r3], axis=1)
    centre = -R.T @ t  # the camera in board coordinates (x, y, z)
    up = 1.0 if centre[2] > 0 else -1.0  # the side of the board the camera is on
    pts = np.concatenate([xy, (up * heights)[:, None]], axis=1)
    cam = pts @ R.T + t
    if np.any(cam[:, 2] <= 1e-9):
        return None
    img = cam @ K.T
    img = img[:, :2] / img[:, 2:3]
    back = project(np.linalg.inv(H), img)
    out = back - xy
    return np.where(np.isfinite(out), out, 0.0)


def smoothed(image: np.ndarray, pts: np.ndarray, px_per_unit: float, units: float = 0.03) -> tuple[np.ndarray, np.ndarray]:
    """(blurred crop of ``image`` round ``pts``, ``pts`` in the crop's pixels).

    Blurring by about a line's width turns a thin line into a soft ridge, so an empty spot
    still matches its empty look when the board lands a pixel or two away from where the
    homography says (lens distortion, a slightly bent print); pieces are much larger than the
    blur and keep their colour. Only the board's bounding box is blurred, to save time.
    """
    h, w = image.shape[:2]
    finite = pts[np.all(np.isfinite(pts), axis=1)]
    if not len(finite):
        return image, pts
    sigma = max(0.6, units * px_per_unit)
    pad = int(3 * sigma) + 2
    c0 = int(max(0, np.floor(finite[:, 0].min()) - pad))
    r0 = int(max(0, np.floor(finite[:, 1].min()) - pad))
    c1 = int(min(w, np.ceil(finite[:, 0].max()) + pad + 1))
    r1 = int(min(h, np.ceil(finite[:, 1].max()) + pad + 1))
    if c1 <= c0 or r1 <= r0:
        return image, pts
    crop = cv2.GaussianBlur(image[r0:r1, c0:c1], (0, 0), sigma)
    return crop, pts - np.array([c0, r0], np.float64)


def px_per_unit(board_to_image: np.ndarray, centre: np.ndarray) -> float:
    p = project(board_to_image, np.array([centre, centre + (1, 0), centre + (0, 1)], np.float64))
    return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 2)


def take(layout: Layout, image: np.ndarray, board_to_image: np.ndarray, lifted: np.ndarray | None = None) -> Samples:
    """Fetch ``layout``'s samples from ``image``; ``lifted`` (N, 2): also round the pieces' tops."""
    pts = project(board_to_image, layout.sample_points(lifted))
    scale = px_per_unit(board_to_image, layout.family.xy.mean(axis=0))
    crop, local = smoothed(image, pts, scale, layout.family.smooth)
    values = fetch(crop, local)
    h, w = image.shape[:2]
    outside = (pts[:, 0] < 0) | (pts[:, 1] < 0) | (pts[:, 0] > w - 1) | (pts[:, 1] > h - 1)
    values[outside] = np.nan
    spots, tops, probe_patches, ink = layout.split(values, lifted is not None)
    mean = probe_patches.mean(axis=1)
    grey = probe_patches.mean(axis=2)
    spread = (grey.max(axis=1) - grey.min(axis=1)) / np.maximum(grey.mean(axis=1), 1.0)
    # the sharp kinds' tops again, from the picture itself (``fetch`` leaves what is outside NaN)
    unblurred = {k: fetch(image, pts[w]).reshape(tops[k].shape)
                 for k, w in layout.top_slices(lifted is not None).items() if layout.family.patterns[k].sharp}
    return Samples(spots, mean, spread, tops, ink, unblurred or None)


def candidate_probes(family: Family, board, limit: int = 700) -> np.ndarray:
    """Grid positions inside the play area clear of every spot's piece (before the empty-board test).

    On a board that wraps, pieces near one edge are also drawn (and printed) across the
    opposite edge, so spots count with their copies one period away. At most ``limit``
    candidates are kept, evenly thinned: more probes cost time and add little.
    """
    x0, y0, x1, y1 = mk.board_extent(board)
    step = family.probe_step
    # Rounded, so that the same grid comes back from a saved calibration (nearest-probe ties
    # must break the same way after a round trip through the file).
    xs = np.round(np.arange(x0 + step, x1 - step / 2, step), 6)
    ys = np.round(np.arange(y0 + step, y1 - step / 2, step), 6)
    radius = np.array([family.patterns[k].piece_radius for k in family.spot_kind]) * family.probe_clear
    centres = family.xy
    period = getattr(board, "period", None)
    if period:
        shifts = [(dx, dy) for dx in (-period, 0, period) for dy in (-period, 0, period)]
        centres = np.concatenate([family.xy + s for s in shifts])
        radius = np.tile(radius, len(shifts))
    free = np.ones((len(ys), len(xs)), bool)
    for (cx, cy), r in zip(centres, radius):  # mark only the grid block round each spot
        i0, i1 = np.searchsorted(xs, cx - r), np.searchsorted(xs, cx + r, side="right")
        j0, j1 = np.searchsorted(ys, cy - r), np.searchsorted(ys, cy + r, side="right")
        if i0 < i1 and j0 < j1:
            d2 = (xs[i0:i1][None, :] - cx) ** 2 + (ys[j0:j1][:, None] - cy) ** 2
            free[j0:j1, i0:i1] &= d2 > r * r
    jj, ii = np.nonzero(free)
    grid = np.stack([xs[ii], ys[jj]], axis=1)
    if len(grid) > limit:
        grid = grid[np.linspace(0, len(grid) - 1, limit).round().astype(int)]
    return grid


def choose_probes(family: Family, candidates: np.ndarray, image: np.ndarray, board_to_image: np.ndarray, *,
                  max_spread: float = 0.1, max_off: float = 0.2) -> np.ndarray:
    """Keep the candidates that look like plain background on the empty board: an even patch
    (no line near it) of about the board's usual colour (not a printed mark or a stain).
    ``candidates``: where they are looked for (``Layout.probe_at``: bent with the surface)."""
    check = _check_ring(family.probe_check)
    pts = project(board_to_image, (candidates[:, None, :] + check[None]).reshape(-1, 2))
    patch = fetch(image, pts).reshape(len(candidates), len(check), 3)
    colours = patch.mean(axis=1)
    grey = patch.mean(axis=2)
    spread = (grey.max(axis=1) - grey.min(axis=1)) / np.maximum(grey.mean(axis=1), 1.0)
    ok = np.all(np.isfinite(colours), axis=1) & (spread < max_spread)
    if not np.any(ok):
        return np.zeros(0, bool)
    median = np.median(colours[ok], axis=0)
    off = np.max(np.abs(colours / np.maximum(median, 1.0) - 1), axis=1)
    return ok & (off < max_off)


def nanmedian(a: np.ndarray, axis: int) -> np.ndarray:
    """``np.nanmedian``, which takes a masked array's slow path for short rows even when nothing
    is missing (0.43 ms for Brain Hanky's 373 spots against 0.11, twice a frame): the plain
    median when no value is NaN, the same numbers."""
    a = np.asarray(a)
    if not np.isnan(a).any():
        return np.median(a, axis=axis)
    return np.nanmedian(a, axis=axis)


def spot_light(layout: Layout, ratio: np.ndarray) -> np.ndarray:
    """(N, 3): the frame's light at each spot against the empty picture's, per channel: the
    median light ratio of the background probes nearest it (NaN where none is known)."""
    return nanmedian(np.asarray(ratio, np.float64)[layout.near], axis=1)


def normalise(layout: Layout, samples: Samples, empty_probes: np.ndarray,
              background: np.ndarray) -> tuple[Relative, np.ndarray]:
    """Spot colours relative to the board background, and the light ratio at every probe.

    ``empty_probes`` (P, 3): the probes on the empty board; ``background`` (N, 3): the empty
    board's background colour near each spot. Returns (``Relative``, ratios (P, 3)).
    """
    ratio = samples.probes / np.maximum(empty_probes, 1.0)
    light = spot_light(layout, ratio)  # (N, 3)
    scale = np.maximum(light * background, 1e-3)
    base = {k: samples.spots[k] / scale[idx][:, None, :] for k, idx in layout.groups.items()}

    def as_top(k: str, raw: np.ndarray) -> np.ndarray:
        """A kind's samples round the pieces' tops, relative, the lamp's clipped ones filled."""
        rel = base[k] if raw is samples.spots[k] else raw / scale[layout.groups[k]][:, None, :]
        return _fill_clipped(raw, rel) if layout.family.patterns[k].fill_clipped else rel

    top = {k: as_top(k, raw) for k, raw in samples.tops.items()}
    unblurred = {k: as_top(k, raw) for k, raw in samples.unblurred.items()} if samples.unblurred else None
    ink = None if samples.ink is None or not len(samples.ink) else samples.ink / scale[layout.ink_near]
    return Relative(base, top, {k: scale[idx] for k, idx in layout.groups.items()},
                    {k: light[idx] for k, idx in layout.groups.items()}, ink, unblurred), ratio


def _fill_clipped(raw: np.ndarray, rel: np.ndarray) -> np.ndarray:
    """``rel`` (n, K, 3) with each spot's clipped samples (``raw`` at ``CLIPPED`` in any channel)
    given the mean of its other samples; spots with none, or with nothing else, as they are.

    A metal gem mirrors the lamp white over whichever facets face it, a third of its top or
    more under a large lamp; the metal's tint (gold warmer than silver) shows only in the rest.
    Leaving the clipped part out rather than hoping it falls in the lightest share sampled
    keeps a gem mostly mirroring the lamp from reading as the other metal (photoreal renders:
    gold gems under a warm lamp read as silver)."""
    clip = np.any(raw >= CLIPPED, axis=-1)  # (n, K)
    some = clip.any(axis=1) & ~clip.all(axis=1)
    if not some.any():
        return rel
    out = rel.copy()
    keep = ~clip[some][..., None]
    mean = (rel[some] * keep).sum(axis=1) / keep.sum(axis=1)  # (m, 3)
    out[some] = np.where(keep, rel[some], mean[:, None, :])
    return out
