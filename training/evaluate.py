"""Nearest-prototype reading of cached setups, scored against their truth.

Play's way: per setup, the empty picture's patch of every spot gives that spot's empty
prototype and the pieces picture's patches give one prototype per class (their embeddings
averaged); every spot of every frame is read as the nearest (by cosine) of its own empty
prototype and the prototypes of the classes that may stand on it. Scored on the frames without
a hand (clear frames): spots wrong, frames fully right, a confusion table. On the hand frames:
how many covered spots the *foreign* head flags, and how many clear frames it would have
refused (any spot flagged).

``embed`` is any callable (N, 48, 48, 3) uint8 -> (N, D + 2) array: the torch model during
training, ``vision.spotnet.SpotNet.outputs`` for the figures in docs/learned-reader.md.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np

from vision.spotnet import frame_adapted

from .patchsets import SetupPatches


def class_prototypes(emb: np.ndarray, labels: np.ndarray, C: int) -> np.ndarray:
    """(C, D): each class's patches' embeddings averaged and normalised (zero if absent)."""
    out = np.zeros((C, emb.shape[1]), np.float32)
    for c in range(1, C + 1):
        m = labels == c
        if m.any():
            v = emb[m].mean(0)
            out[c - 1] = v / max(np.linalg.norm(v), 1e-12)
    return out


def read_setup(sp: SetupPatches, embed, D: int, empty_from: str = "empty", adapt: bool = False) -> dict:
    """Per query: (prediction, foreign logit, occupied logit), with the setup's figures.
    ``empty_from="both"``: a spot's empty prototype is its empty-picture patch averaged with its
    pieces-picture patch where the pieces picture leaves it empty (two looks instead of one)."""
    C = len(sp.classes)
    sup = embed(np.concatenate([sp.empty, sp.pieces]))
    n = len(sp.empty)
    empty = sup[:n, :D]
    if empty_from == "both":
        also = sp.pieces_label == 0
        empty = empty.copy()
        empty[also] = empty[also] + sup[n:, :D][also]
        empty /= np.maximum(np.linalg.norm(empty, axis=1, keepdims=True), 1e-12)
    protos = class_prototypes(sup[n:, :D], sp.pieces_label, C)
    have = np.array([(sp.pieces_label == c + 1).any() for c in range(C)])
    out = embed(sp.query) if len(sp.query) else np.zeros((0, D + 2), np.float32)
    q = out[:, :D]
    sims = np.concatenate([(q * empty[sp.spot]).sum(1, keepdims=True), q @ protos.T], axis=1)
    class_kind = np.array([sp.kinds.index(k) if k in sp.kinds else -1 for _o, k in sp.classes])
    allowed = np.ones_like(sims, bool)
    allowed[:, 1:] = (sp.spot_kind[sp.spot][:, None] == class_kind[None, :]) & have[None, :]
    sims = np.where(allowed, sims, -np.inf)
    if adapt:
        for f in np.unique(sp.frame):
            rows = np.flatnonzero(sp.frame == f)
            sims[rows] = frame_adapted(q[rows], sims[rows], protos, allowed[rows])
    return {"pred": sims.argmax(1), "sims": sims, "foreign": out[:, D + 1], "occupied": out[:, D]}



def score(paths: list[Path], embed, D: int, say=None, empty_from: str = "empty", adapt: bool = False) -> dict:
    """Figures over every cached setup in ``paths`` (see the module's docstring)."""
    tot = Counter()
    confusion: Counter = Counter()
    per_setup = {}
    groups: dict[str, Counter] = {}
    worst = []
    for path in paths:
        sp = SetupPatches.load(path)
        r = read_setup(sp, embed, D, empty_from, adapt)
        names = ["empty"] + [f"{o}:{k}" for o, k in sp.classes]
        hand = sp.frame_hand[sp.frame]
        clear = ~hand & ~sp.covered
        wrong = clear & (r["pred"] != sp.label)
        for t, p in zip(sp.label[clear], r["pred"][clear]):
            confusion[(sp.game.split("-")[0] + " " + names[t], names[p])] += 1
        frames_clear = [f for f in range(len(sp.frame_files)) if not sp.frame_hand[f] and (sp.frame == f).any()]
        frames_right = sum(1 for f in frames_clear if not wrong[sp.frame == f].any())
        flagged = r["foreign"] > 0
        refused = sum(1 for f in frames_clear if flagged[sp.frame == f].any())
        hand_frames = [f for f in range(len(sp.frame_files)) if sp.frame_hand[f] and (sp.frame == f).any()]
        hand_caught = sum(1 for f in hand_frames if flagged[sp.frame == f].any())
        s = {"spots": int(clear.sum()), "wrong": int(wrong.sum()), "frames": len(frames_clear),
             "frames_right": frames_right, "refused_by_foreign": refused, "hand_frames": len(hand_frames),
             "hand_frames_flagged": hand_caught, "covered": int(sp.covered.sum()),
             "covered_flagged": int((flagged & sp.covered).sum()),
             "clear_flagged": int((flagged & clear).sum())}
        per_setup[sp.name] = s
        for k, v in s.items():
            tot[k] += v
        board = "htjb" if sp.game != "brain-hanky" else f"brain-hanky ({sp.cloth or 'print'})"
        for k, v in s.items():
            groups.setdefault(board, Counter())[k] += v
        for i in np.flatnonzero(wrong):
            worst.append(f"{sp.name} {sp.frame_files[sp.frame[i]]} spot#{sp.spot[i]}: {names[sp.label[i]]} read as "
                         f"{names[r['pred'][i]]}")
        if say:
            say(f"  {sp.name}: {s['wrong']} of {s['spots']} spots wrong, "
                f"{frames_right}/{len(frames_clear)} frames right")
    tot = dict(tot)
    tot["point_err_pct"] = 100.0 * tot.get("wrong", 0) / max(1, tot.get("spots", 0))
    tot["frames_right_pct"] = 100.0 * tot.get("frames_right", 0) / max(1, tot.get("frames", 0))
    by_board = {}
    for board, g in groups.items():
        g = dict(g)
        g["point_err_pct"] = 100.0 * g["wrong"] / max(1, g["spots"])
        g["frames_right_pct"] = 100.0 * g["frames_right"] / max(1, g["frames"])
        by_board[board] = g
    return {"total": tot, "boards": by_board, "setups": per_setup,
            "confusion": {f"{a} -> {b}": n for (a, b), n in sorted(confusion.items())},
            "wrong": worst}
