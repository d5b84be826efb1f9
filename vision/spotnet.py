"""The learned spot network at play time: spot patches in, embeddings and two logits out.

The network (trained offline by the ``training`` package, docs/learned-reader.md) is a file,
``vision/models/spotnet.onnx``, with its recipe beside it (``spotnet.json``: data, steps, seed,
validation figures, and the ``scale`` its similarities were trained with). Nothing here needs
PyTorch: the file is run by OpenCV's ``cv2.dnn`` (already a dependency, and on a Raspberry Pi),
or by onnxruntime when that is installed (``pip install arbiter[onnxruntime]``), which measured
about three times faster on one core here for the same file (docs/learned-reader.md, "Speed").

What it gives, per 48x48 patch (``vision.patches``, BGR uint8):

* ``embed(patches)`` -> (N, D) float32, each row of length 1. Patches of the same thing under
  the same light lie close (cosine near 1). The weights know no colours and no owners: the
  reader compares a frame's patches with *prototypes* made at calibration from the players' own
  pieces (``prototype``: the pieces picture's patches of one class, averaged) and from the empty
  board (the empty picture's patch of each spot is that spot's empty prototype). ``similarities``
  and ``probabilities`` do the comparison.
* ``read(patches)`` -> ``SpotOutputs``: the embeddings and, from the same pass, two logits per
  patch: ``occupied`` (something of the game stands on the spot, whatever the board: a prior that
  needs no calibration) and ``foreign`` (the spot is covered by something that is not a piece:
  a hand, an arm, an object; the referee must not read it). A logit above 0 means more likely
  than not.
* ``frame_adapted``: a frame read again with the class prototypes pulled towards the frame's own
  sure pieces, for a lamp that changed colour since calibration.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

MODELS = Path(__file__).resolve().parent / "models"
MODEL = MODELS / "spotnet.onnx"  # the network of every family that names no other (``Family.network``)
PATCH = 48
DEFAULT_SCALE = 10.0


def _advice(path: Path) -> str:
    """What to do about the network file ``path``: remake it (``make train-reader`` for
    ``spotnet.onnx``, ``make train-reader-NAME`` for ``spotnet-NAME.onnx``) or restore the
    committed one."""
    target = "train-reader" + path.stem.removeprefix("spotnet")
    return (f"remake it with `make {target}` (needs the train extra: pip install -e '.[train]'), or restore the "
            f"committed file with `git checkout -- vision/models/{path.name}`")


def model_path(network: str = "spotnet") -> Path:
    """The committed file of the network called ``network`` (``Family.network``: a file's stem in
    ``vision/models``). Raises SpotNetError for a name that is not a plain file name."""
    if not network or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", network) or ".." in network:
        raise SpotNetError(f"{network!r} is not the name of a spot network file (vision/models/NAME.onnx)")
    return MODELS / f"{network}.onnx"


def network_of(name: str) -> str:
    """The network (file stem) an embedder name recorded in a book (``piece_book.embedder_name``:
    the file's stem, a dash and the start of its digest) was made with; ``name`` itself when it
    carries no digest."""
    stem, _, digest = name.rpartition("-")
    return stem if stem and re.fullmatch(r"[0-9a-f]{12}", digest) else name


class SpotNetError(ValueError):
    """The spot network cannot be loaded or run on what it was given; the message says what to do."""


@dataclass(frozen=True)
class SpotOutputs:
    embedding: np.ndarray  # (N, D) float32, rows of length 1
    occupied: np.ndarray  # (N,) float32 logit: a piece of the game is on the spot
    foreign: np.ndarray  # (N,) float32 logit: something else (a hand) covers the spot


class SpotNet:
    """One loaded network. ``backend``: "cv2" (``cv2.dnn``), "onnxruntime", or "auto" (onnxruntime
    if it is installed, else cv2). Keep one per reader: loading takes some milliseconds."""

    def __init__(self, runner, backend: str, path: Path, dim: int, scale: float, recipe: dict):
        self._run = runner
        self.backend = backend
        self.path = path
        self.dim = dim
        self.scale = scale
        self.recipe = recipe

    @classmethod
    def load(cls, path: str | Path | None = None, backend: str = "auto") -> SpotNet:
        path = Path(path) if path is not None else MODEL
        if backend not in ("auto", "cv2", "onnxruntime"):
            raise SpotNetError(f"unknown backend {backend!r}: use auto, cv2 or onnxruntime")
        if not path.is_file():
            raise SpotNetError(f"the spot network {path} is missing: {_advice(path)}")
        runner = None
        if backend in ("auto", "onnxruntime"):
            runner = _onnxruntime(path, required=backend == "onnxruntime")
            if runner is not None:
                backend = "onnxruntime"
        if runner is None:
            backend = "cv2"
            runner = _cv2(path)
        try:
            probe = runner(np.zeros((1, 3, PATCH, PATCH), np.float32))
        except Exception as exc:
            raise SpotNetError(f"the spot network {path} does not run on a {PATCH}x{PATCH} patch "
                               f"({type(exc).__name__}: {exc}): {_advice(path)}") from None
        if probe.ndim != 2 or probe.shape[0] != 1 or probe.shape[1] < 3:
            raise SpotNetError(f"the spot network {path} gives {probe.shape}, not (1, D + 2): it is not a spot "
                               f"network file; {_advice(path)}")
        recipe = {}
        side = path.with_suffix(".json")
        if side.is_file():
            try:
                recipe = json.loads(side.read_text())
            except ValueError as exc:
                raise SpotNetError(f"the spot network's recipe {side} is damaged ({exc}): restore it with "
                                   f"`git checkout -- {side.name}` or `make train-reader`") from None
        return cls(runner, backend, path, probe.shape[1] - 2, float(recipe.get("scale", DEFAULT_SCALE)), recipe)

    def read(self, patches: np.ndarray, batch: int = 512) -> SpotOutputs:
        """Embeddings and logits of ``patches`` (N, 48, 48, 3) uint8 BGR, run ``batch`` at a time."""
        patches = check_patches(patches)
        if len(patches) == 0:
            return SpotOutputs(np.zeros((0, self.dim), np.float32), np.zeros(0, np.float32), np.zeros(0, np.float32))
        outs = []
        for start in range(0, len(patches), batch):
            part = patches[start:start + batch]
            blob = np.ascontiguousarray(part.transpose(0, 3, 1, 2), dtype=np.float32)
            outs.append(self._run(blob))
        out = np.concatenate(outs).astype(np.float32, copy=False)
        emb = out[:, :self.dim]
        # the net normalises; again here so rounding never leaves a row off length 1
        emb = emb / np.maximum(np.linalg.norm(emb, axis=1, keepdims=True), 1e-12)
        return SpotOutputs(np.ascontiguousarray(emb), out[:, self.dim].copy(), out[:, self.dim + 1].copy())

    def embed(self, patches: np.ndarray) -> np.ndarray:
        """(N, D) float32 embeddings of length 1 (see the module's docstring)."""
        return self.read(patches).embedding


def check_patches(patches) -> np.ndarray:
    """``patches`` if (N, 48, 48, 3) uint8; else SpotNetError saying what was given."""
    if not isinstance(patches, np.ndarray):
        raise SpotNetError(f"patches are a {type(patches).__name__}, not a numpy array (N, {PATCH}, {PATCH}, 3)")
    if patches.ndim == 3:
        raise SpotNetError(f"one patch {patches.shape} given: pass a batch, patches[None]")
    if patches.ndim != 4 or patches.shape[1:] != (PATCH, PATCH, 3):
        raise SpotNetError(f"patches of shape {patches.shape}: the network takes (N, {PATCH}, {PATCH}, 3), as "
                           f"vision.patches.PatchCutter cuts them")
    if patches.dtype != np.uint8:
        raise SpotNetError(f"patches hold {patches.dtype}, not uint8 BGR as cut from a camera frame")
    return patches


def prototype(embeddings: np.ndarray) -> np.ndarray:
    """One prototype (D,) from one or more embeddings of the same thing: their mean, length 1."""
    e = np.asarray(embeddings, np.float32).reshape(-1, np.shape(embeddings)[-1])
    if len(e) == 0:
        raise SpotNetError("a prototype needs at least one patch of its class")
    v = e.mean(axis=0)
    return v / max(float(np.linalg.norm(v)), 1e-12)


def similarities(embeddings: np.ndarray, prototypes: np.ndarray) -> np.ndarray:
    """(N, K) cosines of each embedding with each of ``prototypes`` (K, D), or with its own row
    when ``prototypes`` is (N, K, D) (per-spot candidates: the spot's empty prototype first)."""
    p = np.asarray(prototypes, np.float32)
    if p.ndim == 3:
        return np.einsum("nd,nkd->nk", embeddings, p)
    return embeddings @ p.T


def probabilities(sims: np.ndarray, scale: float = DEFAULT_SCALE) -> np.ndarray:
    """Softmax of ``scale`` x cosines along the last axis: the candidates' probabilities, as the
    network was trained to give them (``SpotNet.scale``); ``-inf`` marks a candidate left out."""
    z = scale * np.asarray(sims, np.float64)
    z = z - np.max(z, axis=-1, keepdims=True)
    e = np.exp(z)
    return (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)


def frame_adapted(embeddings: np.ndarray, sims: np.ndarray, prototypes: np.ndarray, allowed: np.ndarray,
                  rounds: int = 2, margin: float = 0.1) -> np.ndarray:
    """One frame's similarities, read again with its class prototypes moved towards the frame's
    own pieces: as a person names a piece by the other pieces in view when the lamp has changed
    colour since calibration (the old reader's "groups in the frame").

    ``embeddings`` (N, D): the frame's spots; ``sims`` (N, 1 + C): each spot's cosine with its
    own empty prototype (column 0) and with the C class ``prototypes`` (C, D), ``-inf`` where
    ``allowed`` (N, 1 + C) says a class may not stand there. Each round, every class prototype
    is averaged with the mean of the spots read as that class by a margin over the runner-up
    above ``margin``, and the class columns computed again. On the photoreal dev set it took the
    mills boards from 0.44% to 0.19% of spots wrong and Brain Hanky on the white cloth from 10.0%
    to 7.9%, but the blue cloth from 1.6% to 1.9%: where many rings of a frame are misread they
    pull a prototype the wrong way (docs/learned-reader.md)."""
    sims = np.array(sims, np.float32, copy=True)
    for _ in range(rounds):
        order = np.sort(sims, axis=1)
        sure = (order[:, -1] - order[:, -2]) > margin
        pred = sims.argmax(1)
        new = np.array(prototypes, np.float32, copy=True)
        for c in range(len(new)):
            members = embeddings[sure & (pred == c + 1)]
            if len(members):
                v = new[c] + members.mean(0)
                new[c] = v / max(float(np.linalg.norm(v)), 1e-12)
        sims[:, 1:] = np.where(allowed[:, 1:], embeddings @ new.T, -np.inf)
    return sims


def _cv2(path: Path):
    try:
        net = cv2.dnn.readNetFromONNX(str(path))
    except cv2.error as exc:
        first = str(exc).strip().splitlines()[-1] if str(exc).strip() else "cv2.error"
        raise SpotNetError(f"the spot network {path} is not a readable ONNX file ({first[:160]}): {_advice(path)}") from None

    def run(blob: np.ndarray) -> np.ndarray:
        net.setInput(blob)
        return net.forward()
    return run


def _onnxruntime(path: Path, required: bool):
    try:
        import onnxruntime as ort
    except ImportError:
        if required:
            raise SpotNetError("onnxruntime is not installed: pip install onnxruntime, or use backend='cv2'") from None
        return None
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1  # the read of a frame is budgeted on one core
    so.inter_op_num_threads = 1
    so.log_severity_level = 3
    try:
        session = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
    except Exception as exc:
        raise SpotNetError(f"the spot network {path} is not a readable ONNX file ({type(exc).__name__}: "
                           f"{str(exc)[:160]}): {_advice(path)}") from None
    name = session.get_inputs()[0].name

    def run(blob: np.ndarray) -> np.ndarray:
        return session.run(None, {name: blob})[0]
    return run
