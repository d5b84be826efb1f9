"""The piece book: how the players' own pieces, and every empty spot, look to this camera.

A learned spot classifier (``vision.learned_reader``) does not carry the pieces in its weights.
An *embedder* turns each spot's patch (``vision.patches``: 48x48, upright, centred where a
piece's top is seen) into a vector, and calibration writes down, in that vector space,

* every spot's own empty look (from the empty picture, or several: their mean), because a
  corner point, a crossing and a cloth's web all look different with nothing on them;
* the spots near the board's edge also empty about their feet on a grid of offsets
  (``ShiftedEmpty``), so a frame whose camera sees a piece's top displaced otherwise than
  calibration's is compared with the empty spot as its own patch shows it;
* every piece class's *exemplars*: the pieces of the pieces picture, as many of each class as
  it shows (one of each in the corners layout, every piece of a set in the full layout), any
  number of classes (two sides, three or four for Kunjing).

A frame's spot is then read by its distance to its own empty look and to each class's nearest
exemplar (only the classes whose kind may stand on that spot; ``class_distance``: the looks, or
the changes each made from its own spot's empty look, whichever are nearer). The distances
become probabilities by a softmax of ``-d / temperature``, the temperature fitted at
calibration to what is known there (``fit_temperature``): the pieces picture's empty spots, and
each piece read against the *other* exemplars of its class; never sharper than ``TEMPERATURE_LEAST``
of how far a piece lies from the board, because two calm pictures do not show what the next
lamp does. A spot farther than ``unknown`` from everything it could be is
*foreign* (a hand, a cup): the reader gives no reading for such a frame, as for a hand.

Calibration refuses a piece that looks like the empty spot under it (``ALIKE_SPREADS`` times
the empty board's noise), and two classes that lie no farther apart than ``ALIKE_SPREADS``
times what one class's looks vary by over the board (or ``ALIKE_SHARE`` of what a piece differs
from the board): then a person at that camera could not tell them apart either, and the message
says what to change. The few constants here are ratios to what calibration measured, none a
distance tuned on one renderer's frames.

The book names the embedder it was made with (``embedder_name``: a network by its model file's
digest); a book read with another embedder means nothing, and ``PieceBook.check_embedder`` says
to calibrate again.

``PixelEmbedder`` is the baseline without learning: a patch's colour in rings about its middle,
in CIE Lab. It makes the whole path work (and testable) without a trained model, and measures
what a network adds. ``JointEmbedder`` sets two side by side: the default is the spot network
beside the baseline's colours, so that men of like lightness and different colours (Kunjing's
four) are told apart by the players' own pieces. docs/piece-book.md has the figures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import cv2
import numpy as np

from . import sampling

FORMAT = "arbiter-piece-book"
VERSION = 1
# A piece no farther from the empty spot it stands on than this many times the empty board's
# noise cannot be told from it by this camera; nor, shown once each, two classes.
ALIKE_SPREADS = 3.0
# Two classes shown by several pieces each are too alike when a piece of either lies, typically,
# less than this many times as far from the nearest piece of the other as from the nearest of
# its own: at 1 the nearest is as likely the other colour as its own.
ALIKE_RATIO = 1.5
# ... and two classes closer than this share of how far pieces lie from the empty board are too
# alike whatever the noise: a spread measured on two still pictures does not see what the next
# lamp will do, and a person would call two such pieces the same colour.
ALIKE_SHARE = 0.15
# A spot farther than this many spreads from everything it may hold is foreign (a hand, a cup),
# when every class was shown by ``UNKNOWN_LEAST`` pieces or more, so that the spread holds how a
# piece's look varies from spot to spot (the farthest any lay from the others of its class).
UNKNOWN_SPREADS = 3.0
UNKNOWN_LEAST = 3
# With a class shown by fewer, its variation is not known (with two, one distance stands for it),
# and a piece on another spot, under another lamp, may lie farther from its exemplars than any
# noise measured: then foreign is beyond this many times how far the pieces lie from the empty
# spots they stand on, if that is farther. Measured on the photoreal dev set with an early spot
# network (one piece per class): at 1.0, 27 of 120 clear frames refused and no hand frame read;
# at 1.5, 4 refused and a hand over Brain Hanky's white cloth read as a board; at 2.0, the same
# hand read. A refusal costs a frame, a hand read can cost the game: 1.0, and the full layout
# (``UNKNOWN_LEAST`` pieces of each class) for a limit measured on the pieces themselves.
UNKNOWN_GAP = 1.0
# The temperature is at least this share of how far a piece lies from the empty board: a rival
# look nearer than a tenth of that is still 13% likely, one nearer than a third 0.1%. With
# one piece per class nothing at calibration shows how a class varies over the board, and the
# fit alone would make every reading certain. Measured on the photoreal dev set with the pixel
# baseline: the mean log-loss of the truth fell from 1.16 (0.01) to 0.43 (0.05).
TEMPERATURE_LEAST = 0.05
# The spread is at least this share of the typical gap between empty and pieces: a perfectly
# still synthetic pair of pictures would otherwise give a spread of nothing, and every frame with
# a speck of noise would read as foreign.
SPREAD_FLOOR = 0.02
# How much the pixel baseline's colours weigh beside the spot network's vector in the default
# embedder (``JointEmbedder``), and the lightness among them (``PixelEmbedder(lightness=)``):
# enough colour to tell men of like lightness apart, little enough lightness that a glossy black
# man mirroring the lamp is not called white. How they were chosen, and on which frames:
# docs/learned-reader.md, "Pieces by calibration alone".
JOINT_WEIGHT = 2.0
JOINT_LIGHTNESS = 0.25
# A class's probability below this is left out of a reading (as ``reader.PROB_LEAST``).
PROB_LEAST = 1e-4
# A class whose pieces differ in colour from the board under them by less than this (the colour
# part of the embedding, ``colour_part``: Lab in 0..1 units, lightness weighed as the joint embedder
# weighs it; the median over the pieces picture's pieces of the class) is told from the board by its
# shape and shading alone, which the learned reader does not read well enough to referee: on the
# photoreal dev set's white Brain Hanky print, white rings at 0.016 and 0.030 of the cloth, 1.9% of
# points wrong and 19% of frames right (every other board reads at 0.0-0.7%). Every other class of
# the dev set differs by 0.073 or more (white men on the white paper); this lies between.
SHAPE_ONLY = 0.045
# The weights calibration may give the colours instead of ``JOINT_WEIGHT``, lightest first, when
# the pieces picture shows several pieces of each class and two classes are too alike at the
# default (``weigh_colours``). A network taught that no colour is special tells two hues of like
# lightness (Brainmaster's yellow and orange pegs) apart by nothing, and its vector varies from
# spot to spot several times as much as the colours do: at the default weight a yellow peg lay
# 0.9 times as far from the nearest orange as from the nearest yellow, in a picture where anyone
# tells them apart. The lightest weight that sets every pair apart is taken, so a set the default
# tells apart keeps it, and the colours, which a lamp changed after calibration moves more than it
# moves the network, weigh no more than the players' own pieces need.
COLOUR_WEIGHTS = (3.0, 4.0, 6.0, 8.0, 12.0)
# How the book's note on a heavier weight begins (``arbiter calibrate`` shows that note).
COLOURS_WEIGHED = "colours weighed"
# A spot network's own foreign logit (``vision.spotnet``: a hand over the spot) counts above 0,
# the odds it was trained to, unless the calibration pictures, which show nothing foreign (their
# hand checks say so), already reach near that: the head learned hands on the tables of
# training, and on a table unlike them (a cloth of a colour it never saw, the simulator's flat
# drawings) it says "foreign" of bare cloth and pieces alike. Then the level is the highest logit
# the calibration pictures gave plus this margin (``foreign_level``): what this table's clear
# spots reach, and a little more for the next lamp. Measured on the simulator's Brain Hanky
# (docs/learned-reader.md, "The network's hand sense measured on the calibration pictures").
FOREIGN_MARGIN = 1.0
# How the book's note on a raised foreign level begins (``arbiter calibrate`` shows that note).
FOREIGN_RAISED = "hand sense raised"


class PieceBookError(ValueError):
    """A piece book cannot be made or used; the message says what to change."""


class TooAlike(PieceBookError):
    """Two classes of one kind cannot be told apart in the embedding as weighed
    (``build_book``'s last checks); ``measured`` when each was shown by several pieces, so that
    how each varies over the board was measured rather than assumed."""

    def __init__(self, message: str, measured: bool = False):
        super().__init__(message)
        self.measured = measured


class LikeTheBoard(PieceBookError):
    """A class of pieces cannot be told from the board it stands on (by this camera, or by this
    reader): the family's advice on the board (``Family.contrast_hint``) belongs after it."""


@runtime_checkable
class Embedder(Protocol):
    """Patches (N, S, S, 3) uint8 BGR -> (N, D) float32 vectors. ``name`` identifies the
    embedding (for a network, its model file's digest): a book is only good with its own. An
    embedder with ``wants_evened`` true is given the patches with the light taken out
    (``evened``), others the patches as the camera gives them."""

    name: str

    def embed(self, patches: np.ndarray) -> np.ndarray: ...


def embedder_name(embedder) -> str:
    """The name a book records for ``embedder``: its ``name``; else, for one run from a model
    file (``path``, as ``vision.spotnet.SpotNet``), the file's name and the start of its SHA-256,
    so that a book made with another model is known for one; else its class's name."""
    name = getattr(embedder, "name", None)
    if name:
        return str(name)
    path = getattr(embedder, "path", None)
    if path is not None:
        from pathlib import Path

        p = Path(path)
        if p.is_file():
            return f"{p.stem}-{_digest(p)}"
    return type(embedder).__name__


_DIGESTS: dict = {}


def _digest(path) -> str:
    """The first 12 hex digits of a file's SHA-256 (kept per path, size and time)."""
    import hashlib

    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key not in _DIGESTS:
        _DIGESTS[key] = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    return _DIGESTS[key]


def colour_part_of(embedder):
    """The function that takes an embedder's vectors (n, D) to the part holding colours (n, k)
    (``build_book``'s ``colour_part``), or None when its vectors hold none apart: a
    ``PixelEmbedder``'s are all colour; a ``JointEmbedder``'s, its second part's when that is a
    ``PixelEmbedder`` (the vector's last ``dim`` values, the joint weight divided out); a
    network's none."""
    if isinstance(embedder, PixelEmbedder):
        return np.asarray
    if isinstance(embedder, JointEmbedder) and isinstance(embedder.parts[1], PixelEmbedder):
        width, weight = embedder.parts[1].dim, embedder.weight
        return lambda emb: np.asarray(emb)[:, -width:] / weight
    return None


class PixelEmbedder:
    """The baseline embedder, without learning: each patch's colour in ``rings`` concentric
    rings about its middle out to ``reach`` of its width (where a piece stands, short of its
    neighbours), as the mean CIE Lab colour (0..1 units) and the spread of lightness in each.

    Lab so that a colour cast moves a and b and a change of light mostly L; rings so that a
    highlight or a shadow falling on another side of a piece changes little, and a ring's
    hole shows as a ring of the board's colour. No L2 normalisation: a black and a white piece
    differ in brightness alone. It is given the patches with the light taken out
    (``wants_evened``): raw, it misread 4000 of the dev set's 18263 spots, evened 1500."""

    wants_evened = True

    def __init__(self, rings: int = 4, reach: float = 0.35, lightness: float = 1.0):
        if not 1 <= rings <= 24 or not 0.05 <= reach <= 0.5 or not 0 <= lightness <= 1:
            raise ValueError(f"PixelEmbedder(rings={rings}, reach={reach}, lightness={lightness}): use 1-24 rings, "
                             f"a reach of 0.05-0.5 and a lightness weight of 0-1")
        self.rings = int(rings)
        self.reach = float(reach)
        # ``lightness`` below 1: the lightness and its spread weigh that much beside the chroma (0:
        # left out), which a change of exposure or a glossy top mirroring the lamp moves most; the
        # colour part of the default ``JointEmbedder``, beside a network that tells light from dark
        self.lightness = float(lightness)
        space = "lab" if self.lightness == 1 else "ab" if self.lightness == 0 else f"l{self.lightness:g}ab"
        self.name = f"pixels-{space}-{self.rings}-{self.reach:g}"
        self._masks: dict[int, np.ndarray] = {}

    @property
    def dim(self) -> int:
        """The length of its vectors: per ring the mean colour (a and b, and L unless left out)
        and the lightness's spread (unless left out)."""
        return (4 if self.lightness else 2) * self.rings

    def _crop(self, s: int) -> int:
        """The side of the middle square of an S-pixel patch that holds every ring (of S's parity,
        so that it is centred)."""
        m = min(s, int(np.ceil(2 * self.reach * s)) + 2)
        return m + ((s - m) % 2)

    def _ring_masks(self, s: int) -> np.ndarray:
        """(rings, M * M) weights over the middle square (``_crop``) of an S-pixel patch: each
        ring's pixels, each row summing to 1."""
        if s not in self._masks:
            m = self._crop(s)
            c = (m - 1) / 2.0
            y, x = np.mgrid[0:m, 0:m]
            r = np.hypot(x - c, y - c) / (self.reach * s)
            ring = np.floor(r * self.rings).astype(int).ravel()
            w = np.stack([ring == k for k in range(self.rings)]).astype(np.float32)
            w[w.sum(axis=1) == 0, (m * m) // 2] = 1.0  # a ring too thin for any pixel: the middle one
            self._masks[s] = w / w.sum(axis=1, keepdims=True)
        return self._masks[s]

    def embed(self, patches: np.ndarray) -> np.ndarray:
        patches = np.asarray(patches)
        if patches.ndim != 4 or patches.shape[3] != 3 or patches.dtype != np.uint8 or patches.shape[1] != patches.shape[2]:
            raise ValueError(f"patches must be (N, S, S, 3) uint8, not {patches.shape} {patches.dtype}")
        n, s = len(patches), patches.shape[1]
        if n == 0:
            return np.zeros((0, (4 if self.lightness else 2) * self.rings), np.float32)
        k = self._crop(s)
        a = (s - k) // 2
        mid = np.ascontiguousarray(patches[:, a:a + k, a:a + k])
        lab = cv2.cvtColor(mid.reshape(n * k, k, 3), cv2.COLOR_BGR2LAB)
        lab = lab.reshape(n, k * k, 3).astype(np.float32) / 255.0
        m = self._ring_masks(s)  # (R, K*K)
        # a stacked matrix product, not ``np.einsum``: the same sums, 20 times faster here (1.5
        # against 29 ms for Brain Hanky's 1170 patches on one core)
        mean = np.matmul(m, lab)  # (N, R, 3)
        if not self.lightness:
            return np.ascontiguousarray(mean[..., 1:].reshape(n, -1), dtype=np.float32)
        sq = np.einsum("rp,np->nr", m, lab[..., 0] ** 2)
        spread = np.sqrt(np.maximum(sq - mean[..., 0] ** 2, 0.0))
        if self.lightness != 1:
            mean[..., 0] *= self.lightness
            spread *= self.lightness
        return np.concatenate([mean.reshape(n, -1), spread], axis=1).astype(np.float32)


class JointEmbedder:
    """Two embedders' vectors side by side: a spot network's (what stands on the spot, its shape,
    whether a hand covers it) beside the pixel baseline's colours (``PixelEmbedder``), so that the
    book's distances weigh both. A network taught that no colour is special (its training permutes
    the colour channels and turns patches grey) tells a piece from the board and one shape from
    another better than it tells a red man from a black one of like lightness; the baseline's
    mean colours tell any two colours apart that differ in the patch. Neither names a colour: the
    players' own pieces, at calibration, say which looks are which class.

    ``weight`` scales the second part (1: both as they come, a network's unit vectors beside Lab
    colours in 0..1 units: a black and a white man differ by about as much in either). Each part
    gets its patches as it wants them (``wants_evened``); the first part's ``read`` gives the
    foreign logit, when it has one. Its name joins the parts' (``embedder_for`` takes it back)."""

    takes_both = True

    def __init__(self, first, second, weight: float = 1.0):
        if not 0 < weight < 100:
            raise ValueError(f"JointEmbedder weight {weight}: a positive scale for the second part")
        self.parts = (first, second)
        self.weight = float(weight)
        self.name = f"{embedder_name(first)}+{embedder_name(second)}" + ("" if weight == 1 else f"*{weight:g}")

    def with_weight(self, weight: float) -> JointEmbedder:
        """The same parts with the second weighed ``weight``."""
        return JointEmbedder(self.parts[0], self.parts[1], weight)

    def reweigh(self, emb: np.ndarray, weight: float) -> np.ndarray:
        """Vectors (N, D) this embedder made, as ``with_weight(weight)`` would make them (the
        second part is the vector's last ``dim`` values; nothing is embedded again)."""
        out = np.array(emb, np.float32, copy=True)
        width = int(self.parts[1].dim)
        out[:, -width:] *= float(weight) / self.weight
        return out

    def read_both(self, raw: np.ndarray, even: np.ndarray):
        """(embedding (N, D1 + D2), foreign (N,) or None) from the patches as the camera gave them
        (``raw``) and with the light taken out (``even``)."""
        from types import SimpleNamespace

        embs, foreign = [], None
        for j, part in enumerate(self.parts):
            p = even if getattr(part, "wants_evened", False) else raw
            if callable(getattr(part, "read", None)):
                out = part.read(p)
                e = out.embedding
                if j == 0 and getattr(out, "foreign", None) is not None:
                    foreign = out.foreign
            else:
                e = part.embed(p)
            embs.append(np.asarray(e, np.float32) * (self.weight if j else 1.0))
        return SimpleNamespace(embedding=np.concatenate(embs, axis=1), foreign=foreign)

    def read(self, patches: np.ndarray):
        """``read_both`` with the same patches for both parts (no light to take out known)."""
        return self.read_both(patches, patches)

    def embed(self, patches: np.ndarray) -> np.ndarray:
        return self.read(patches).embedding


def class_distance(x: np.ndarray, x_empty: np.ndarray, ex: np.ndarray, ex_empty: np.ndarray) -> np.ndarray:
    """(n, m): how far each of ``x`` (n, D), seen on spots whose empty looks are ``x_empty``,
    lies from each exemplar ``ex`` (m, D) seen on spots whose empty looks are ``ex_empty``: the
    nearer of the looks themselves and of the changes from the empty looks.

    A piece hides the printed board under it but leaves the board round it in the patch: a man
    on a corner point shows two lines beside him, on a crossing four. Where an embedding adds
    up those parts (the pixel baseline nearly does) the change from the empty spot takes the
    spot's own board out; where it does not (a network that looks at the piece alone), the
    looks themselves are near already. Either way an empty spot stays far: its change is
    nothing, a piece's change is the piece."""
    direct = np.linalg.norm(x[:, None, :] - ex[None, :, :], axis=2)
    change = np.linalg.norm((x - x_empty)[:, None, :] - (ex - ex_empty)[None, :, :], axis=2)
    return np.minimum(direct, change)


@dataclass
class BookReading:
    """One frame's spots read by a book: ``choice`` (N,) -1 empty or an index into the book's
    ``classes``; ``probs`` (N, 1 + C) over (empty, each class), 0 where a class may not stand;
    ``best`` (N,) the distance to the chosen look; ``foreign`` (N,) nothing near enough."""

    choice: np.ndarray
    probs: np.ndarray
    best: np.ndarray
    foreign: np.ndarray
    distances: np.ndarray  # (N, 1 + C), inf where a class may not stand

    def confidence(self) -> np.ndarray:
        return self.probs.max(axis=1)


@dataclass
class ShiftedEmpty:
    """The empty look of the spots near the board's edge, cut from the empty picture(s) about
    each spot's foot at a grid of offsets: ``looks`` (M, (2 half + 1)^2, D) for the spots
    ``spots`` (M,) (indices), offset (i step, j step) board units for i, j in -half..half (j
    the faster).

    Why: a spot's patch is centred where a piece's top is seen (``patches``), which a camera
    elsewhere sees displaced by another lift; an empty spot's patch then shows the board moved
    by the difference. In the middle of the board that moves a line; at its edge it moves the
    print's border, and white paper (or the table) fills a part of the patch that showed the
    board at calibration: a light piece's look. Measured on the simulator (``make
    bench-piece-looks``, tuning seeds), every point misread under other cameras was an empty
    edge spot read as a white man, a white bead or a silver coin (docs/learned-reader.md). So
    the reader compares such a spot with its empty look seen *where this frame's patch is
    centred* (``empty_for``: the grid's looks, interpolated), which geometry gives exactly."""

    spots: np.ndarray
    step: float
    half: int
    looks: np.ndarray

    def empty_for(self, empty: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        """(N, D): ``empty`` with the rows of ``spots`` replaced by their look at ``offsets``
        (N, 2: each patch's centre less its spot's foot, board units), bilinear between the
        grid's looks and held at the grid's edge beyond it."""
        out = np.array(empty, np.float32, copy=True)
        if not len(self.spots):
            return out
        k = 2 * self.half + 1
        grid = self.looks.reshape(len(self.spots), k, k, -1)
        f = np.clip(np.asarray(offsets, np.float64)[self.spots] / self.step + self.half, 0, k - 1)  # (M, 2)
        i0 = np.minimum(np.floor(f).astype(int), k - 2) if k > 1 else np.zeros_like(f, int)
        t = f - i0
        m = np.arange(len(self.spots))
        ix, iy = i0[:, 0], i0[:, 1]
        tx, ty = t[:, 0:1], t[:, 1:2]
        nx, ny = np.minimum(ix + 1, k - 1), np.minimum(iy + 1, k - 1)
        out[self.spots] = ((1 - tx) * (1 - ty) * grid[m, ix, iy] + tx * (1 - ty) * grid[m, nx, iy]
                           + (1 - tx) * ty * grid[m, ix, ny] + tx * ty * grid[m, nx, ny])
        return out

    def to_json(self) -> dict[str, Any]:
        return {"spots": [int(i) for i in self.spots], "step": self.step, "half": self.half,
                "looks": np.round(np.asarray(self.looks, np.float64), 5).tolist()}

    @classmethod
    def from_json(cls, data: Any, n_spots: int, dim: int) -> ShiftedEmpty:
        spots = np.asarray(data["spots"], np.int64)
        half, step = int(data["half"]), float(data["step"])
        looks = np.asarray(data["looks"], np.float32)
        k = (2 * half + 1) ** 2
        if (spots.ndim != 1 or (len(spots) and (spots.min() < 0 or spots.max() >= n_spots)) or not 0 <= half <= 8
                or not (np.isfinite(step) and step > 0) or looks.shape != (len(spots), k, dim)
                or not np.all(np.isfinite(looks))):
            raise ValueError("the piece book's shifted empty looks do not match its spots")
        return cls(spots, step, half, looks)


@dataclass
class PieceBook:
    """See the module's text. ``spot_kind`` (N,): the piece kind that may stand on each spot;
    ``classes``: (owner, kind) keys, in the order of ``exemplars`` and of readings' columns."""

    embedder: str
    spots: tuple[str, ...]
    spot_kind: tuple[str, ...]
    empty: np.ndarray  # (N, D) each spot's empty look
    classes: list[tuple[int, str]]
    exemplars: list[np.ndarray]  # per class (m, D)
    exemplar_spots: list[np.ndarray]  # per class (m,) the spot (index) each exemplar stood on
    temperature: float
    unknown: float
    notes: list[str] = field(default_factory=list)
    shifted: ShiftedEmpty | None = None  # the edge spots' empty looks about their feet
    # the embedder's foreign logit above which a spot is foreign (``foreign_level``): 0 unless the
    # calibration pictures showed the network calling clear spots of this table foreign
    foreign_level: float = 0.0

    def foreign_of(self, logits: np.ndarray | None) -> np.ndarray | None:
        """(N,) bool: the spots the embedder's own foreign logits (N,) call foreign at this book's
        level; None without logits."""
        return None if logits is None else np.asarray(logits) > self.foreign_level

    def empty_for(self, offsets: np.ndarray | None) -> np.ndarray:
        """(N, D): every spot's empty look as seen by a patch centred ``offsets`` (N, 2, board
        units) from its foot (``ShiftedEmpty``); the calibration's own without offsets or
        shifted looks."""
        if offsets is None or self.shifted is None:
            return self.empty
        return self.shifted.empty_for(self.empty, offsets)

    def __post_init__(self) -> None:
        kinds = np.array(self.spot_kind)
        self._allowed = np.stack([kinds == k for _o, k in self.classes], axis=1) if self.classes \
            else np.zeros((len(self.spots), 0), bool)

    @property
    def dim(self) -> int:
        return int(self.empty.shape[1])

    def check_embedder(self, embedder) -> None:
        """Raise PieceBookError unless ``embedder`` is the one this book was made with."""
        got = embedder_name(embedder)
        if got != self.embedder:
            raise PieceBookError(f"the calibration's piece book was made with the embedder {self.embedder!r}, and "
                                 f"this arbiter reads with {got!r} (a new model?): run `arbiter calibrate` again")

    def distances(self, emb: np.ndarray, empty: np.ndarray | None = None) -> np.ndarray:
        """(N, 1 + C): each spot's distance to its own empty look (``empty``, default the
        calibration's; ``empty_for`` gives a frame's) and to each class's nearest exemplar; inf
        for a class that may not stand on that spot.

        An exemplar is compared twice, and the nearer counts: as it was seen, and as the change
        it made to its own spot's empty look, against the change this spot shows from its own
        (``class_distance``)."""
        emb = np.asarray(emb, np.float32)
        if emb.shape != self.empty.shape:
            raise PieceBookError(f"embeddings of shape {emb.shape}, the book wants {self.empty.shape}")
        here = self.empty if empty is None else np.asarray(empty, np.float32)
        d = np.full((len(emb), 1 + len(self.classes)), np.inf)
        d[:, 0] = np.linalg.norm(emb - here, axis=1)
        for c, (ex, at) in enumerate(zip(self.exemplars, self.exemplar_spots)):
            rows = self._allowed[:, c]
            if rows.any():
                d[rows, 1 + c] = class_distance(emb[rows], here[rows], ex, self.empty[at]).min(axis=1)
        return d

    def read(self, emb: np.ndarray, offsets: np.ndarray | None = None) -> BookReading:
        """Read one frame's spot embeddings (N, D), in the book's spot order; ``offsets`` (N, 2):
        where each patch was centred from its spot's foot (``empty_for``)."""
        d = self.distances(emb, self.empty_for(offsets))
        return self.read_distances(d)

    def read_distances(self, d: np.ndarray) -> BookReading:
        z = -d / self.temperature
        z -= np.max(z, axis=1, keepdims=True)
        with np.errstate(invalid="ignore"):
            p = np.where(np.isfinite(d), np.exp(z), 0.0)
        p /= p.sum(axis=1, keepdims=True)
        p = np.where(p < PROB_LEAST, 0.0, p)
        p /= p.sum(axis=1, keepdims=True)
        choice = np.argmin(d, axis=1)
        best = d[np.arange(len(d)), choice]
        return BookReading(choice - 1, p, best, best > self.unknown, d)

    def probs_of(self, reading: BookReading, i: int) -> dict:
        """Spot ``i``'s probabilities as a ``Reading.probs`` mapping (None: empty)."""
        out = {}
        for c, p in enumerate(reading.probs[i]):
            if p >= PROB_LEAST:
                out[None if c == 0 else self.classes[c - 1]] = float(p)
        return out

    # ------------------------------------------------------------------ file
    def to_json(self) -> dict[str, Any]:
        def arr(a):
            return np.round(np.asarray(a, np.float64), 5).tolist()

        return {"format": FORMAT, "version": VERSION, "embedder": self.embedder, "spots": list(self.spots),
                "spot_kind": list(self.spot_kind), "empty": arr(self.empty),
                "classes": [{"owner": o, "kind": k, "exemplars": arr(ex), "at": [int(i) for i in at]}
                            for (o, k), ex, at in zip(self.classes, self.exemplars, self.exemplar_spots)],
                "temperature": self.temperature, "unknown": self.unknown, "notes": self.notes,
                **({"foreign_level": round(float(self.foreign_level), 5)} if self.foreign_level else {}),
                **({"shifted": self.shifted.to_json()} if self.shifted is not None else {})}

    @classmethod
    def from_json(cls, data: Any) -> PieceBook:
        """A book from ``to_json``'s dict; ValueError (saying what) for anything else."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("not a piece book")
        if not isinstance(data.get("version"), int) or not 1 <= data["version"] <= VERSION:
            raise ValueError(f"piece book version {data.get('version')!r} (this arbiter reads {VERSION})")
        spots = tuple(str(s) for s in data["spots"])
        empty = np.asarray(data["empty"], np.float32)
        if empty.ndim != 2 or len(empty) != len(spots) or not np.all(np.isfinite(empty)):
            raise ValueError("the piece book's empty looks do not match its spots")
        classes, exemplars, at_spots = [], [], []
        for c in data["classes"]:
            ex = np.asarray(c["exemplars"], np.float32)
            if ex.ndim != 2 or ex.shape[1] != empty.shape[1] or len(ex) == 0 or not np.all(np.isfinite(ex)):
                raise ValueError(f"class {c.get('owner')}/{c.get('kind')}: exemplars of shape {ex.shape}")
            at = np.asarray(c["at"], np.int64)
            if at.shape != (len(ex),) or at.min() < 0 or at.max() >= len(spots):
                raise ValueError(f"class {c.get('owner')}/{c.get('kind')}: exemplar spots {c['at']!r}")
            classes.append((int(c["owner"]), str(c["kind"])))
            exemplars.append(ex)
            at_spots.append(at)
        temperature, unknown = float(data["temperature"]), float(data["unknown"])
        if not (np.isfinite(temperature) and temperature > 0 and np.isfinite(unknown) and unknown > 0):
            raise ValueError(f"temperature {temperature} and unknown {unknown} must be positive numbers")
        kinds = tuple(str(k) for k in data["spot_kind"])
        if len(kinds) != len(spots):
            raise ValueError("the piece book's spot kinds do not match its spots")
        shifted = ShiftedEmpty.from_json(data["shifted"], len(spots), empty.shape[1]) if "shifted" in data else None
        level = data.get("foreign_level", 0.0)
        if isinstance(level, bool) or not isinstance(level, (int, float)) or not np.isfinite(level) or level < 0:
            raise ValueError(f"the piece book's foreign level {level!r} must be a number of 0 or more")
        return cls(str(data["embedder"]), spots, kinds, empty, classes, exemplars, at_spots, temperature, unknown,
                   [str(n) for n in data.get("notes", [])], shifted, float(level))


def build_book(embedder_id: str, spots: Sequence[str], spot_kind: Sequence[str], empty: Sequence[np.ndarray],
               pieces: np.ndarray, position: Mapping[str, tuple[int, str]], *,
               classes: Sequence[tuple[int, str]] | None = None,
               name_of=None, colour_part=None, temperature_least: float | None = None) -> PieceBook:
    """A book from embeddings: ``empty`` one or more (N, D) arrays (the empty picture(s), spots in
    ``spots`` order), ``pieces`` (N, D) the pieces picture, ``position`` {spot: (owner, kind)} what
    stands where in it. ``classes``: the classes to learn (default: those in ``position``); each
    must have at least one piece there. ``name_of(key)`` names a class in messages.
    ``colour_part(emb)``: the part of embeddings (n, D) that holds colours, (n, k) (the
    embedder's ``colour_part``), or None when the embedder has none. ``temperature_least``: the
    least temperature as a share of how far pieces lie from the board (default
    ``TEMPERATURE_LEAST``; ``Family.temperature_least``).

    Raises PieceBookError when a class is missing, or when two classes of one kind look alike
    (see the module's text); ``LikeTheBoard`` when a piece looks like the empty spot it stands
    on, or a class differs from the board under it by its shape alone (``SHAPE_ONLY``)."""
    name_of = name_of or (lambda key: f"player {key[0]}'s {key[1]}")
    spots = tuple(spots)
    index = {s: i for i, s in enumerate(spots)}
    frames = [np.asarray(e, np.float32) for e in empty]
    if not frames or any(f.shape != frames[0].shape for f in frames) or frames[0].shape[0] != len(spots):
        raise PieceBookError("the empty pictures' embeddings do not match the board's spots")
    pieces = np.asarray(pieces, np.float32)
    if pieces.shape != frames[0].shape:
        raise PieceBookError("the pieces picture's embeddings do not match the empty picture's")
    unknown_spots = [s for s in position if s not in index]
    if unknown_spots:
        raise PieceBookError(f"the layout names spots this board does not have: {', '.join(unknown_spots[:6])}")
    empty_look = np.mean(frames, axis=0)
    keys = list(classes) if classes is not None else sorted({tuple(k) for k in position.values()})
    where: dict[tuple[int, str], list[int]] = {k: [] for k in keys}
    for s, key in position.items():
        key = tuple(key)
        if key not in where:
            raise PieceBookError(f"the layout puts a {name_of(key)} on {s}, a piece this game does not have")
        if spot_kind[index[s]] != key[1]:
            raise PieceBookError(f"the layout puts a {name_of(key)} on {s}, where only a {spot_kind[index[s]]} stands")
        where[key].append(index[s])
    missing = [name_of(k) for k in keys if not where[k]]
    if missing:
        raise PieceBookError(f"the pieces picture shows no {', '.join(missing)}: lay out the pieces as "
                             f"`arbiter calibrate GAME --layout` shows")
    exemplars = [pieces[where[k]] for k in keys]
    occupied = np.zeros(len(spots), bool)
    occupied[[i for k in keys for i in where[k]]] = True

    # What a right answer's distance looks like here: the pieces picture's empty spots against
    # their empty look, each further empty picture against the others' mean, and each piece
    # against the other exemplars of its class (when there are several).
    right = [np.linalg.norm(pieces[~occupied] - empty_look[~occupied], axis=1)]
    if len(frames) > 1:
        for j, f in enumerate(frames):
            rest = np.mean([g for i, g in enumerate(frames) if i != j], axis=0)
            right.append(np.linalg.norm(f - rest, axis=1))
    within = []
    nearest_own: dict[tuple[int, str], np.ndarray] = {}  # per piece, its nearest other piece of its class
    for k, ex in zip(keys, exemplars):
        if len(ex) > 1:
            at = np.asarray(where[k])
            dd = class_distance(ex, empty_look[at], ex, empty_look[at])
            np.fill_diagonal(dd, np.inf)
            nearest_own[k] = dd.min(axis=1)
            within.append(nearest_own[k])
    # how far pieces lie from the empty spot they stand on: the scale of what is to be told apart
    gaps_empty = np.concatenate([np.linalg.norm(pieces[where[k]] - empty_look[where[k]], axis=1) for k in keys])
    typical = float(np.median(gaps_empty))
    floor = max(SPREAD_FLOOR * typical, 1e-6)
    empty_right = np.concatenate(right)
    # an empty spot's noise (its tail); how far a piece lay from the nearest other of its class (the
    # farthest), measured only when a class was shown by several pieces
    noise = max(float(np.percentile(empty_right, 90)) if len(empty_right) else 0.0, floor)
    # the camera's own noise, for telling a piece from the board under it: the median empty spot's
    # change, not the tail, which in the full layout is the spots beside pieces (a neighbour's
    # edge or shadow in their patches), as far from their empty looks as a dark man is from his
    calm = max(float(np.median(empty_right)) if len(empty_right) else 0.0, floor)
    within_all = np.concatenate(within) if within else np.zeros(0)
    vary_most = max(float(within_all.max()), noise) if len(within_all) else noise

    # refuse what this camera cannot tell apart
    for k, idx in zip(keys, [where[k] for k in keys]):
        d = np.linalg.norm(pieces[idx] - empty_look[idx], axis=1)
        close = [spots[i] for i, x in zip(idx, d) if x <= ALIKE_SPREADS * calm]
        if close:
            raise LikeTheBoard(f"the {name_of(k)} on {', '.join(close[:6])} looks like the empty board there "
                                 f"(difference {float(d.min()) / calm:.1f} times the camera's noise on the empty "
                                 f"board, {ALIKE_SPREADS:g} needed): is it on its point? Use pieces that stand out "
                                 f"from the board, or more even light")
        if colour_part is not None:
            tint = float(np.median(np.linalg.norm(colour_part(pieces[idx]) - colour_part(empty_look[idx]), axis=1)))
            if tint < SHAPE_ONLY:
                raise LikeTheBoard(f"the {name_of(k)} is the colour of the board under it (colour difference "
                                   f"{tint:.3f}, {SHAPE_ONLY:g} needed): only its shape and shading show it, which "
                                   f"this reader does not read reliably. Use pieces of a colour that stands out "
                                   f"from the board")
    gaps = []
    for a in range(len(keys)):
        for b in range(a + 1, len(keys)):
            if keys[a][1] != keys[b][1]:
                continue
            ab = class_distance(exemplars[a], empty_look[where[keys[a]]], exemplars[b], empty_look[where[keys[b]]])
            g = float(ab.min())
            gaps.append(g)
            if keys[a] in nearest_own and keys[b] in nearest_own:
                # each piece: how much farther the other colour's nearest piece lies than its own's
                ratio = float(np.median(np.concatenate([ab.min(axis=1) / np.maximum(nearest_own[keys[a]], 1e-9),
                                                        ab.min(axis=0) / np.maximum(nearest_own[keys[b]], 1e-9)])))
                alike = ratio < ALIKE_RATIO
                why = (f"a piece of either lies a median {ratio:.1f} times as far from the nearest of the other "
                       f"as from the nearest of its own, {ALIKE_RATIO:g} needed")
            else:
                alike = g <= ALIKE_SPREADS * noise
                why = (f"their pieces differ by {g / noise:.1f} times the camera's noise on the empty board, "
                       f"{ALIKE_SPREADS:g} needed")
            if alike or g <= ALIKE_SHARE * typical:
                raise TooAlike(
                    f"the {name_of(keys[a])} and the {name_of(keys[b])} look too alike to this camera ({why}; "
                    f"their closest differ by {g / typical:.2f} of what a piece differs from the board, "
                    f"{ALIKE_SHARE:g} needed): use pieces of clearly different colours or shades, light the "
                    f"board more evenly (no coloured lamp), or lay out more pieces of each so calibration sees "
                    f"how each varies (`arbiter calibrate GAME --layout --full-set`)",
                    measured=keys[a] in nearest_own and keys[b] in nearest_own)
    unknown = UNKNOWN_SPREADS * vary_most
    if min(len(ex) for ex in exemplars) < UNKNOWN_LEAST:
        unknown = max(unknown, UNKNOWN_GAP * typical)
    spread = vary_most
    notes = [f"{len(frames)} empty picture(s); {sum(len(e) for e in exemplars)} pieces of {len(keys)} classes; "
             f"spread {spread:.4f}, temperature {{t:.4f}}, foreign beyond {unknown:.4f}; classes apart by at least "
             f"{min(gaps) / typical if gaps else float('nan'):.2f} of a piece's difference from the board"]
    book = PieceBook(embedder_id, spots, tuple(spot_kind), empty_look, [tuple(k) for k in keys], exemplars,
                     [np.asarray(where[k], np.int64) for k in keys], 1.0, unknown, notes)
    # the temperature: fitted to the pieces picture read as calibration reads it back
    truth = np.zeros(len(spots), np.int64)
    for k in keys:
        truth[where[k]] = 1 + book.classes.index(tuple(k))
    d = leave_one_out(book, pieces, truth)
    least = TEMPERATURE_LEAST if temperature_least is None else float(temperature_least)
    book.temperature = fit_temperature(d, truth, least * typical)
    book.notes = [n.format(t=book.temperature) for n in notes]
    return book


def foreign_level(calibration_logits: Sequence[np.ndarray | None]) -> tuple[float, str]:
    """(the level above which the embedder's foreign logit calls a spot foreign, a note or "")
    from its logits on the calibration pictures (each (N,), or None for an embedder without a
    foreign head): 0, the head's own, unless those pictures, clear by their hand checks, reach
    within ``FOREIGN_MARGIN`` of it; then their highest plus the margin, said in the note."""
    given = [np.asarray(x, np.float64).ravel() for x in calibration_logits if x is not None]
    given = [x[np.isfinite(x)] for x in given if x.size]
    if not any(len(x) for x in given):
        return 0.0, ""
    most = max(float(x.max()) for x in given if len(x))
    level = most + FOREIGN_MARGIN
    if level <= 0.0:
        return 0.0, ""
    return level, (f"{FOREIGN_RAISED} to {level:.2f}: the network took clear spots of the calibration pictures "
                   f"for something over the board (up to {most:.2f}, above 0 a hand), as it does on tables "
                   f"unlike its training's; hands are still refused by the board's lines and light, and by "
                   f"spots unlike every piece")


def weigh_colours(embedder, embs: Mapping[str, np.ndarray], build):
    """(embedder, book, embs): ``build(embedder, embs)``'s book, or, when it finds two classes
    too alike after measuring how each varies (``TooAlike.measured``) and ``embedder`` is the
    network beside the colours, the book at the lightest of ``COLOUR_WEIGHTS`` that sets every
    pair apart, with the embedder that weighs them so (its name, and so the book's, carries the
    weight: play reads frames as calibration did) and ``embs`` (label: (N, D) vectors) weighed
    alike. Nothing is embedded again.

    When no weight sets them apart, or a heavier weight refuses the pieces for another reason,
    the first refusal is raised: it speaks of the pieces as the default embedder sees them."""
    try:
        return embedder, build(embedder, embs), embs
    except TooAlike as exc:
        if not (exc.measured and isinstance(embedder, JointEmbedder) and isinstance(embedder.parts[1], PixelEmbedder)):
            raise
        first = exc
    for w in COLOUR_WEIGHTS:
        if w <= embedder.weight:
            continue
        heavier = embedder.with_weight(w)
        weighed = {label: embedder.reweigh(e, w) for label, e in embs.items()}
        try:
            book = build(heavier, weighed)
        except TooAlike as exc:
            if exc.measured:
                continue
            break
        except PieceBookError:
            break
        book.notes.append(f"{COLOURS_WEIGHED} {w:g} (not {embedder.weight:g}): at {embedder.weight:g} {first}")
        return heavier, book, weighed
    raise first


def leave_one_out(book: PieceBook, emb: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """``book.distances(emb)``, each piece of the pieces picture (``truth`` (N,): 0 empty, else
    1 + its class) held against the *other* exemplars of its class only: a piece is always
    nearest itself, so only the others say whether it is known by its class. A class shown once
    keeps its one exemplar (distance 0)."""
    d = book.distances(emb)
    for i in np.flatnonzero(truth > 0):
        c = int(truth[i]) - 1
        others = book.exemplar_spots[c] != i
        if others.any() and not others.all():
            d[i, 1 + c] = float(class_distance(emb[i:i + 1], book.empty[i:i + 1], book.exemplars[c][others],
                                               book.empty[book.exemplar_spots[c][others]]).min())
    return d


def fit_temperature(d: np.ndarray, truth: np.ndarray, least: float) -> float:
    """The temperature (at least ``least``) under which the softmax of ``-d / t`` gives the known
    ``truth`` (N,) the highest mean log-likelihood, searched over a log grid."""
    least = max(float(least), 1e-9)
    finite = d[np.isfinite(d)]
    top = max(float(finite.max()) if len(finite) else least, least) * 2
    best_t, best_ll = least, -np.inf
    for t in np.geomspace(least, top, 40):
        z = np.where(np.isfinite(d), -d / t, -np.inf)
        z = z - z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        ll = float(np.mean(logp[np.arange(len(d)), truth]))
        if ll > best_ll + 1e-12:
            best_t, best_ll = float(t), ll
    return best_t


# ---------------------------------------------------------------------------- frames to embeddings
def spot_light(layout, ratio: np.ndarray) -> np.ndarray:
    """(N, 3): the light at each spot relative to the empty picture's, per channel
    (``sampling.spot_light``, ``sampling.normalise``'s own measure), 1 where none is known."""
    with np.errstate(all="ignore"):
        light = sampling.spot_light(layout, ratio)
    return np.where(np.isfinite(light) & (light > 0), light, 1.0)


def evened(patches: np.ndarray, light: np.ndarray) -> np.ndarray:
    """The patches (N, S, S, 3) with each spot's light (N, 3) taken out: as they would look under
    the empty picture's light. Geometry and tone, not classification: a dimmer frame or a warmer
    lamp scales the paper and the pieces on it alike (for a camera whose tone curve is a power,
    exactly), so dividing by the paper's change brings every frame back to calibration's light
    and the embedder is asked to tell pieces apart, not lamps."""
    gain = 1.0 / np.asarray(light, np.float64)  # (N, 3)
    # one look-up table per patch (256 levels x 3 channels): four times faster than the arithmetic
    # on Brain Hanky's 1170 patches (47 against 177 ms on one core)
    luts = np.clip(np.rint(np.arange(256.0)[None, :, None] * gain[:, None, :]), 0, 255).astype(np.uint8)
    out = np.empty_like(patches)
    for i in range(len(patches)):
        cv2.LUT(patches[i], luts[i][:, None, :], dst=out[i])
    return out


@dataclass
class FrameLooks:
    """One frame's spots as the embedder sees them: ``emb`` (N, D); ``valid`` (N,) the patch lies
    wholly in the frame; ``foreign`` (N,) the embedder's own foreign logit (above 0: a hand or
    an object over the spot), or None for an embedder without one; ``patches`` the patches it
    was given; ``offsets`` (N, 2) where each patch was centred from its spot's foot, board units
    (the lift: ``PieceBook.read``'s ``offsets``)."""

    emb: np.ndarray
    valid: np.ndarray
    foreign: np.ndarray | None
    patches: np.ndarray
    offsets: np.ndarray | None = None


def embed_patches(embedder, raw: np.ndarray, light: np.ndarray) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """(embeddings (N, D), foreign logits (N,) or None, the patches given) of patches ``raw``
    as the camera gave them, each spot's ``light`` (N, 3) known (``evened`` for an embedder
    that wants it)."""
    both = getattr(embedder, "takes_both", False)
    patches = evened(raw, light) if both or getattr(embedder, "wants_evened", False) else raw
    foreign = None
    if both:  # a ``JointEmbedder``: each part as it wants them
        out = embedder.read_both(raw, patches)
        emb = np.asarray(out.embedding, np.float32)
        if out.foreign is not None:
            foreign = np.asarray(out.foreign, np.float32).reshape(-1)
    elif callable(getattr(embedder, "read", None)):
        out = embedder.read(patches)
        emb = np.asarray(out.embedding, np.float32)
        if getattr(out, "foreign", None) is not None:
            foreign = np.asarray(out.foreign, np.float32).reshape(-1)
    else:
        emb = np.asarray(embedder.embed(patches), np.float32)
    if emb.ndim != 2 or len(emb) != len(patches) or (foreign is not None and len(foreign) != len(patches)):
        raise PieceBookError(f"the embedder gave {emb.shape} for {len(patches)} patches")
    return emb, foreign, patches


def embed_frame(embedder, cutter, image: np.ndarray, board_to_image: np.ndarray, layout,
                ratio: np.ndarray) -> FrameLooks:
    """One frame's spots through ``embedder`` (``FrameLooks``).

    ``cutter``: a ``patches.PatchCutter`` for the spots where ``layout`` looks for them;
    ``ratio`` (P, 3): the frame's probe light ratios (``sampling.normalise``), by which the
    patches are ``evened`` for an embedder that ``wants_evened`` (the pixel baseline); a network
    trained on patches as the camera gives them gets them so (the early spot network misread
    1234 of the dev set's 18263 spots given them raw, 1528 evened). An embedder with a ``read``
    giving ``embedding`` and ``foreign`` (``vision.spotnet.SpotNet``) gives both in one pass."""
    image = np.asarray(getattr(image, "image", image))
    H = np.asarray(board_to_image, np.float64)
    at = cutter.centres(H, (image.shape[1], image.shape[0])) if image.ndim == 3 else cutter.spot_at
    cut = cutter.cut(image, H)
    emb, foreign, patches = embed_patches(embedder, cut.images, spot_light(layout, ratio))
    return FrameLooks(emb, cut.valid, foreign, patches, at - cutter.spot_at)


# The edge spots' empty looks (``ShiftedEmpty``): a grid of (2 SHIFT_HALF + 1)^2 offsets reaching
# ``calibration.COVER_SLANT`` heights of the spot's pieces from its foot (the farthest a camera
# sees a piece's top displaced).
SHIFT_HALF = 2


def shifted_empty(embedder, cutter, board_extent, images: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]],
                  layout, reach: np.ndarray) -> ShiftedEmpty | None:
    """The ``ShiftedEmpty`` of the empty picture(s) ``images`` ((image, board_to_image, probe
    ratios) each; their looks averaged): for each spot whose patch, moved by up to its ``reach``
    (N,) board units, comes within a patch's half-width of the board's edge (``board_extent``
    (x0, y0, x1, y1), board units), its empty look about its foot on a grid of offsets of step
    ``reach / SHIFT_HALF``. None when no spot's pieces have height (no lift: nothing moves) or
    no spot lies so near the edge."""
    reach = np.asarray(reach, np.float64)
    if not np.any(reach > 0):
        return None
    half_width = cutter.step * cutter.size / 2
    x0, y0, x1, y1 = board_extent
    p = cutter.spot_at
    margin = np.minimum.reduce([p[:, 0] - x0, x1 - p[:, 0], p[:, 1] - y0, y1 - p[:, 1]])
    edge = np.flatnonzero((reach > 0) & (margin < half_width + reach))
    if not len(edge):
        return None
    step = float(np.max(reach[edge])) / SHIFT_HALF
    k = np.arange(-SHIFT_HALF, SHIFT_HALF + 1) * step
    grid = np.stack(np.meshgrid(k, k, indexing="ij"), axis=-1).reshape(-1, 2)  # (K, 2), j the faster
    at = (p[edge][:, None, :] + grid[None]).reshape(-1, 2)
    names = tuple(cutter.family.spots[i] for i in np.repeat(edge, len(grid)))
    looks = []
    for image, H, ratio in images:
        cut = cutter.cut_at(image, H, at, names, np.repeat(p[edge], len(grid), axis=0))
        light = np.repeat(spot_light(layout, ratio)[edge], len(grid), axis=0)
        looks.append(embed_patches(embedder, cut.images, light)[0])
    emb = np.mean(looks, axis=0).astype(np.float32)
    return ShiftedEmpty(edge.astype(np.int64), step, SHIFT_HALF, emb.reshape(len(edge), len(grid), -1))


def embedder_for(name: str | None = None, network: str = "spotnet"):
    """The embedder called ``name`` (a book's ``embedder``), or with None the default for pieces
    read by the spot network ``network`` (``Family.network``): that network (``vision.spotnet``)
    beside the pixel baseline's colours (``JointEmbedder``, ``JOINT_WEIGHT``) when its model
    loads, else ``PixelEmbedder``. A named network is loaded from the file its name gives
    (``spotnet.network_of``).

    Raises PieceBookError when the named one cannot be had, saying what to do."""
    if name is not None and "+" in name:  # a JointEmbedder's: "FIRST+SECOND" or "FIRST+SECOND*WEIGHT"
        first, _, second = name.partition("+")
        second, _, weight = second.partition("*")
        try:
            w = float(weight) if weight else 1.0
        except ValueError:
            raise PieceBookError(f"unknown embedder {name!r}: run `arbiter calibrate` again") from None
        joint = JointEmbedder(embedder_for(first), embedder_for(second), w)
        if joint.name != name:
            raise PieceBookError(f"the calibration was made with the embedder {name!r}, and this arbiter has "
                                 f"{joint.name!r}: run `arbiter calibrate` again")
        return joint
    if name is not None and name.startswith("pixels-"):
        try:
            _p, space, rings, reach = name.split("-")
            light = 1.0 if space == "lab" else 0.0 if space == "ab" else float(space.removeprefix("l").removesuffix("ab"))
            return PixelEmbedder(int(rings), float(reach), lightness=light)
        except ValueError:
            raise PieceBookError(f"unknown embedder {name!r}: run `arbiter calibrate` again") from None
    try:
        from . import spotnet
    except ImportError as exc:
        if name is None:
            return PixelEmbedder()
        raise PieceBookError(f"the calibration was made with the spot network {name!r}, which this arbiter does "
                             f"not have ({exc}): run `arbiter calibrate` again") from None
    try:
        net = spotnet.SpotNet.load(spotnet.model_path(network if name is None else spotnet.network_of(name)))
    except spotnet.SpotNetError as exc:
        if name is not None:
            raise PieceBookError(f"the calibration was made with the spot network {name!r}, which cannot be loaded "
                                 f"({exc}): run `arbiter calibrate` again") from None
        if network != "spotnet":
            raise PieceBookError(f"the spot network {network!r} these pieces are read with cannot be loaded "
                                 f"({exc})") from None
        return PixelEmbedder()
    return JointEmbedder(net, PixelEmbedder(lightness=JOINT_LIGHTNESS), JOINT_WEIGHT) if name is None else net
