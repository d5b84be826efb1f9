"""Rendered sets (``set.json`` + pictures) turned into spot patches with their truth, one setup at a time.

A *setup* is one camera over one board: an empty picture, a pieces picture (the calibration
pair) and frames. Its patches are what one training episode needs, and what play would have:

* ``empty`` (N, 48, 48, 3): every spot of the empty picture (the per-spot empty prototypes);
* ``pieces`` (N, ...) and ``pieces_label`` (N,): every spot of the pieces picture, labelled;
* ``query`` (M, ...) with ``label``, ``spot``, ``covered`` and ``frame`` (M,): spots of the
  frames. In ``keep="some"`` (training) every occupied or covered spot and a seeded sample of the
  empty ones is kept (Brain Hanky's 373 spots are mostly empty); ``keep="all"`` keeps every spot.

Labels are 0 for empty and ``1 + i`` for the setup's ``classes[i]``, the (owner, kind) pairs its
pictures show, sorted: no colour or owner is known to the network, only "the same as that
prototype". ``kinds[spot_kind[s]]`` is the piece kind that may stand on spot ``s``.

Where the patches are cut: ``homography="truth"`` fits each picture's board from the true spot
pixels in ``set.json`` (training: no reader stage can spoil the labels); ``"play"`` locates the
board by its markers in every picture and bends the spots by the surface measured on the empty
picture, exactly as a calibrated reader does (validation).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

import engine
from vision.families import family_for
from vision.patches import PatchCutter


@dataclass
class SetupPatches:
    name: str
    game: str
    classes: list[tuple[int, str]]
    kinds: list[str]
    spot_kind: np.ndarray  # (N,) index into kinds
    empty: np.ndarray
    empty_valid: np.ndarray
    pieces: np.ndarray
    pieces_label: np.ndarray  # (N,) -1 where the patch is not usable
    query: np.ndarray
    label: np.ndarray
    spot: np.ndarray
    covered: np.ndarray
    frame: np.ndarray
    frame_files: list[str]
    frame_hand: np.ndarray  # (F,) the frame shows a hand
    cloth: str | None = None  # Brain Hanky's cloth colour, as set.json names it (None: a printed board)

    def save(self, path: Path) -> None:
        """Write to ``path`` (.npz) whole or not at all: a run stopped half-way leaves no file
        that a later run would take for a cached setup."""
        meta = {"name": self.name, "game": self.game, "classes": self.classes, "kinds": self.kinds,
                "frame_files": self.frame_files, "cloth": self.cloth}
        path = Path(path)
        tmp = path.with_name(path.stem + ".partial.npz")
        np.savez(tmp, meta=json.dumps(meta), spot_kind=self.spot_kind, empty=self.empty, empty_valid=self.empty_valid,
                 pieces=self.pieces, pieces_label=self.pieces_label, query=self.query, label=self.label,
                 spot=self.spot, covered=self.covered, frame=self.frame, frame_hand=self.frame_hand)
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> SetupPatches:
        z = np.load(path)
        meta = json.loads(str(z["meta"]))
        meta["classes"] = [tuple(c) for c in meta["classes"]]
        return cls(**meta, **{k: z[k] for k in z.files if k != "meta"})


def read_set(set_dir: Path) -> dict[str, dict]:
    """{setup: {"game", "empty", "pieces", "frames": [records]}} from ``set_dir/set.json``; the
    frames include the stepped-exposure copies (one stop darker), which are frames too."""
    meta = json.loads((Path(set_dir) / "set.json").read_text())
    out: dict[str, dict] = {}
    for rec in meta["frames"]:
        s = out.setdefault(rec["setup"], {"game": rec["game"], "options": rec.get("options", {}), "empty": None,
                                          "pieces": None, "frames": []})
        if rec["kind"] == "calibration-empty":
            s["empty"] = rec
        elif rec["kind"] == "calibration-pieces":
            s["pieces"] = rec
        else:
            s["frames"].append(rec)
    return out


def _image(set_dir: Path, rec) -> np.ndarray:
    img = cv2.imread(str(Path(set_dir) / rec["file"]), cv2.IMREAD_COLOR)
    if img is None:
        raise FileNotFoundError(f"{set_dir}/{rec['file']}: missing or not an image")
    return img


def truth_homography(game, rec) -> np.ndarray | None:
    """Board -> picture homography fitted to the true spot pixels of ``rec`` (None if too few)."""
    coords = game.board.coords
    names = [n for n in rec.get("pixels", {}) if n in coords]
    if len(names) < 4:
        return None
    H, _ = cv2.findHomography(np.array([coords[n] for n in names], np.float64),
                              np.array([rec["pixels"][n] for n in names], np.float64))
    return H


class _PlayGeometry:
    """The board located as a calibrated reader locates it: markers in every picture, the spots
    bent by the surface measured on the empty picture."""

    def __init__(self, game, family, empty_image):
        from vision import registration as rg
        from vision import surface

        self.game, self.rg = game, rg
        H = rg.register_markers(empty_image, game.board).board_to_image
        bend = surface.measure(empty_image, game.board, H)
        self.spot_at = family.xy if bend is None else family.xy + bend(family.xy)

    def homography(self, image) -> np.ndarray:
        return self.rg.register_markers(image, self.game.board).board_to_image


def setup_patches(set_dir: Path, name: str, s: dict, *, homography: str = "truth", keep: str = "some",
                  seed: int = 0, frames: str = "all") -> SetupPatches | None:
    """The patches of one setup (see the module's docstring); None when the setup lacks a
    calibration pair. ``frames="plain"`` leaves out the stepped-exposure copies."""
    if s["empty"] is None or s["pieces"] is None:
        return None
    game = engine.load(s["game"], **s.get("options", {}))
    family = family_for(game)
    rng = np.random.default_rng(seed)
    kinds = sorted(set(family.spot_kind))
    spot_kind = np.array([kinds.index(k) for k in family.spot_kind], np.int8)
    spots = list(family.spots)
    records = [r for r in s["frames"] if frames == "all" or r["kind"] == "frame"]
    classes = sorted({(int(o), k) for rec in [s["pieces"], *records] for o, k in rec["position"].values()})
    empty_img = _image(set_dir, s["empty"])
    if homography == "play":
        geo = _PlayGeometry(game, family, empty_img)
        cutter = PatchCutter(family, geo.spot_at)
        locate = geo.homography
    else:
        cutter = PatchCutter(family)
        locate = None

    def cut(rec, img):
        H = locate(img) if locate else truth_homography(game, rec)
        if H is None:
            raise ValueError(f"{rec['file']}: no true spot pixels to place the board by")
        p = cutter.cut(img, H)
        outside = set(rec.get("spots_outside_frame", []))
        valid = p.valid & np.array([sp not in outside for sp in spots])
        return p.images, valid

    def labels(rec):
        lab = np.zeros(len(spots), np.int16)
        for sp, (o, k) in rec["position"].items():
            lab[spots.index(sp)] = 1 + classes.index((int(o), k))
        return lab

    empty, empty_valid = cut(s["empty"], empty_img)
    pieces, pv = cut(s["pieces"], _image(set_dir, s["pieces"]))
    pieces_label = np.where(pv, labels(s["pieces"]), -1).astype(np.int16)
    q, lab, sp, cov, fr, files, hand = [], [], [], [], [], [], []
    for f, rec in enumerate(records):
        try:
            img, valid = cut(rec, _image(set_dir, rec))
        except Exception:  # a frame whose board cannot be located (play geometry): not read
            if homography != "play":
                raise
            files.append(rec["file"])
            hand.append(bool(rec.get("hand")))
            continue
        truth = labels(rec)
        covered = np.array([x in set(rec.get("covered", [])) for x in spots])
        take = valid.copy()
        if keep == "some":
            plain = np.flatnonzero(valid & (truth == 0) & ~covered)
            busy = int(np.sum(valid & ((truth > 0) | covered)))
            n = min(len(plain), max(16, 2 * busy))
            take[:] = False
            take[valid & ((truth > 0) | covered)] = True
            take[rng.choice(plain, n, replace=False)] = True
        idx = np.flatnonzero(take)
        q.append(img[idx])
        lab.append(truth[idx])
        sp.append(idx.astype(np.int16))
        cov.append(covered[idx])
        fr.append(np.full(len(idx), len(files), np.int16))
        files.append(rec["file"])
        hand.append(bool(rec.get("hand")))
    cat = (lambda xs, shape, dt: np.concatenate(xs) if xs else np.zeros(shape, dt))
    return SetupPatches(name, s["game"], classes, kinds, spot_kind, empty, empty_valid, pieces, pieces_label,
                        cat(q, (0, 48, 48, 3), np.uint8), cat(lab, (0,), np.int16), cat(sp, (0,), np.int16),
                        cat(cov, (0,), bool), cat(fr, (0,), np.int16), files, np.array(hand, bool),
                        s["empty"].get("cloth"))


def cache_set(set_dir: Path, out_dir: Path, *, homography: str = "truth", keep: str = "some",
              frames: str = "all", say=print) -> list[Path]:
    """Cut every setup of ``set_dir`` into ``out_dir/<setup>.npz`` (skipping those already
    there); the paths. A setup whose board cannot be found is reported and left out."""
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = json.loads((Path(set_dir) / "set.json").read_text())
    # a set still being rendered lists its last setup's frames as they come: wait for them all
    want = 0 if meta.get("complete", True) else int(meta.get("frames_per_setup") or 0)
    paths = []
    for i, (name, s) in enumerate(read_set(set_dir).items()):
        path = out_dir / f"{name}.npz"
        if not path.exists() and len(s["frames"]) < want:
            say(f"{set_dir.name}/{name}: {len(s['frames'])} of {want} frames rendered so far; left for a later run")
            continue
        if not path.exists():
            try:
                sp = setup_patches(set_dir, name, s, homography=homography, keep=keep, seed=i, frames=frames)
            except Exception as exc:
                say(f"{set_dir.name}/{name}: left out ({type(exc).__name__}: {exc})")
                continue
            if sp is None:
                continue
            sp.save(path)
            say(f"{set_dir.name}/{name}: {len(sp.query)} query patches from {len(sp.frame_files)} frames, "
                f"classes {sp.classes}")
        paths.append(path)
    return paths


def recipe_setups(recipe: Path) -> list[str]:
    """The rendered setups a network's recipe (its ``spotnet.json``) says it was trained on, in
    its order: what ``python -m training.train --setups-of`` keeps, so that a committed network
    is remade from one full render (``make train-data``) with exactly its
    setups, though they were rendered into several folders and some left half-done."""
    try:
        meta = json.loads(Path(recipe).read_text())
        names = [s for part in meta["train_sets"] for s in part["setups"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{recipe} is not a network's recipe (a spotnet.json naming its training sets' "
                         f"setups): {exc}") from None
    return names


def keep_setups(got: list[Path], names: list[str]) -> list[Path]:
    """Of the cached setups ``got``, those ``names`` lists (by their stems), in ``got``'s order."""
    want = set(names)
    return [p for p in got if p.stem in want]
