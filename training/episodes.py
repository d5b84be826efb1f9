"""Training episodes from setups, and their loss: prototypical (metric) learning.

An episode is one setup (``patchsets.SetupPatches``): the *support* is what calibration has (the
empty picture's patch of every spot used, the pieces picture's patches of each class), the
*queries* are spots of its frames with their truth. Each query is compared, by cosine, with its
spot's empty prototype and with every class prototype of the spot's piece kind; the loss is the
cross-entropy of those similarities (times a learnt scale) against the truth. So the network
learns to put *the same thing under the same light* close together, whatever its colour: owners
and colours are never learnt, only matched. An optional owner term (``loss(owner=)``) adds each
piece's cross-entropy among its own kind's classes alone.

Two heads are trained beside it with a logistic loss: *occupied* (any piece on the spot) on
every patch, *foreign* (the spot is covered by a hand or other object, ``covered`` in set.json)
on the queries.

Augmentation, in 2D where it is cheaper than rendering. For a whole episode alike (so support
and queries still match, as under one lamp and camera): a permutation of the colour channels
(no colour is special), a colour gain per channel (white balance), gamma, a quarter turn or a
mirror of every patch. For each frame: an exposure (a gain of about 30%, clipped at white
as a camera clips) and a lamp colour of its own (``tint``: a gain per channel), the calibration
pictures nearly unchanged. For every patch on its own (what changes from frame to frame): brightness,
a shift of up to two pixels, a small turn and scale, blur, noise; optionally (``highlight``) a
lamp's highlight on some pieces, first, so that the frame's light and clipping apply to it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from .patchsets import SetupPatches


@dataclass
class Episode:
    patches: np.ndarray  # (P, 48, 48, 3) uint8: support first, then queries
    n_empty: int  # the first n_empty are empty prototypes, one per spot in ``empty_spot``
    n_pieces: int  # then the pieces picture's patches, class ``piece_label``
    empty_spot: np.ndarray  # (n_empty,) spot index
    piece_label: np.ndarray  # (n_pieces,) class label (1..C)
    q_spot: np.ndarray  # (Q,) index into the n_empty prototypes
    q_label: np.ndarray  # (Q,) 0 empty, 1..C a class; -1 covered / no prototype for it
    q_covered: np.ndarray  # (Q,) bool
    allowed: np.ndarray  # (Q, 1 + C) bool: which candidates a query is compared with
    occupied: np.ndarray  # (P,) float, 1 if a piece is there, -1 unknown (covered)


FRAME_TINT = 0.1  # per-channel spread (log) of a frame's colour gain against the calibration's


def sample(sp: SetupPatches, rng: np.random.Generator, queries: int = 40, augment: bool = True,
           tint: float = FRAME_TINT, highlight: float = 0.0) -> Episode | None:
    """One episode from ``sp``: up to ``queries`` query patches (about half occupied, a few
    covered when there are any), with the support they need."""
    C = len(sp.classes)
    have = set(int(x) for x in sp.pieces_label[sp.pieces_label > 0])
    clear = ~sp.covered & sp.empty_valid[sp.spot]
    occ = np.flatnonzero(clear & (sp.label > 0) & np.isin(sp.label, list(have)))
    emp = np.flatnonzero(clear & (sp.label == 0))
    cov = np.flatnonzero(sp.covered & sp.empty_valid[sp.spot])
    if len(occ) + len(emp) == 0 or not have:
        return None
    n_cov = min(len(cov), queries // 8)
    n_occ = min(len(occ), (queries - n_cov) // 2)
    n_emp = min(len(emp), queries - n_cov - n_occ)
    pick = np.concatenate([rng.choice(occ, n_occ, replace=False), rng.choice(emp, n_emp, replace=False),
                           rng.choice(cov, n_cov, replace=False)]).astype(np.intp)
    spots = np.unique(sp.spot[pick])
    piece_idx = np.flatnonzero(sp.pieces_label > 0)
    q_spot = np.searchsorted(spots, sp.spot[pick])
    q_label = sp.label[pick].astype(np.int64)
    q_cov = sp.covered[pick]
    q_label[q_cov] = -1
    allowed = np.zeros((len(pick), 1 + C), bool)
    allowed[:, 0] = True
    class_kind = [sp.kinds.index(k) if k in sp.kinds else -1 for _o, k in sp.classes]
    for c in range(C):
        if (c + 1) in have:
            allowed[:, 1 + c] = sp.spot_kind[sp.spot[pick]] == class_kind[c]
    if sp.kinds == ["piece"]:  # synthetic: one kind
        allowed[:, 1:] = [(c + 1) in have for c in range(C)]
    q_label[(q_label > 0) & ~allowed[np.arange(len(pick)), np.maximum(q_label, 0)]] = -1
    patches = np.concatenate([sp.empty[spots], sp.pieces[piece_idx], sp.query[pick]])
    occupied = np.concatenate([np.zeros(len(spots)), np.ones(len(piece_idx)),
                               np.where(q_cov, -1.0, (sp.label[pick] > 0).astype(float))]).astype(np.float32)
    if augment:
        group = np.concatenate([np.zeros(len(spots) + len(piece_idx), np.intp), 1 + sp.frame[pick].astype(np.intp)])
        patches = augment_episode(patches, rng, n_support=len(spots) + len(piece_idx), group=group, tint=tint,
                                  shiny=occupied > 0, highlight=highlight)
    return Episode(patches, len(spots), len(piece_idx), spots, sp.pieces_label[piece_idx].astype(np.int64), q_spot,
                   q_label, q_cov, allowed, occupied)


def add_highlight(patch: np.ndarray, rng: np.random.Generator) -> None:
    """A lamp's mirror image on a piece's top, in place on a float patch (48, 48, 3): a soft
    white blob near the middle, bright enough to clip once the frame's light is applied. Where
    it falls moves with the lamp and the camera, so calibration's pieces show it elsewhere or
    not at all: a gold gem with a clipped highlight must still match the gold gems."""
    cy, cx = 23.5 + rng.normal(0, 4, 2)
    r = rng.uniform(1.5, 5.0)
    rx, ry = r * float(np.exp(rng.normal(0, 0.3))), r
    yy, xx = np.mgrid[0:48, 0:48].astype(np.float32)
    blob = np.exp(-0.5 * (((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2))
    patch += float(rng.uniform(100, 400)) * blob[..., None]


def augment_episode(patches: np.ndarray, rng: np.random.Generator, n_support: int,
                    group: np.ndarray | None = None, tint: float = FRAME_TINT,
                    shiny: np.ndarray | None = None, highlight: float = 0.0) -> np.ndarray:
    """The module's augmentations: a lamp's highlight on some pieces (``shiny`` (P,) the
    patches a piece stands on: each query with probability ``highlight``, each calibration piece
    with half that), episode-wide colour and turn, then per frame (``group``: 0 for the
    calibration pictures, one number per frame) an exposure and white balance of its own,
    clipped as a camera clips, then per patch."""
    x = patches.astype(np.float32)
    if highlight > 0 and shiny is not None:
        for i in np.flatnonzero(shiny):
            if rng.random() < (highlight if i >= n_support else highlight / 2):
                add_highlight(x[i], rng)
    if group is not None:
        for g in np.unique(group):
            m = group == g
            # a lamp of another colour over the whole frame, board and pieces alike (the photoreal
            # frames change lamps, 3000 to 6400 K, after calibration): the board round a piece
            # tells its colour, as it tells a person's eye
            spread, colour = (0.04, 0.01) if g == 0 else (0.3, tint)
            gain = np.exp(rng.normal(0, spread) + rng.normal(0, colour, 3)).astype(np.float32)
            x[m] = np.clip(x[m] * gain, 0, 255)
    if rng.random() < 0.7:
        x = x[..., rng.permutation(3)]
    if rng.random() < 0.15:  # grey camera / colourless light: pieces by brightness and shape only
        x[:] = x.mean(axis=3, keepdims=True)
    x *= np.exp(rng.normal(0, 0.12, 3) + rng.normal(0, 0.25)).astype(np.float32)
    gamma = float(np.exp(rng.normal(0, 0.2)))
    x = 255.0 * (np.clip(x, 0, 255) / 255.0) ** gamma
    k = int(rng.integers(0, 4))
    if k:
        x = np.rot90(x, k, axes=(1, 2))
    if rng.random() < 0.5:
        x = x[:, :, ::-1]
    x = np.ascontiguousarray(x)
    out = np.empty_like(x)
    c = 23.5
    for i in range(len(x)):
        strength = 0.5 if i < n_support else 1.0
        ang = rng.normal(0, 6) * strength
        scale = float(np.exp(rng.normal(0, 0.05) * strength))
        M = cv2.getRotationMatrix2D((c, c), ang, scale)
        M[:, 2] += rng.normal(0, 1.0 * strength, 2)
        p = cv2.warpAffine(x[i], M, (48, 48), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        if rng.random() < 0.25:
            p = cv2.GaussianBlur(p, (0, 0), rng.uniform(0.4, 1.2))
        p = p * float(np.exp(rng.normal(0, 0.08 * strength)))
        if rng.random() < 0.5:
            p = p + rng.normal(0, rng.uniform(1, 6), p.shape).astype(np.float32)
        out[i] = p
    return np.clip(out, 0, 255).astype(np.uint8)


def to_tensor(patches: np.ndarray) -> torch.Tensor:
    """(N, 48, 48, 3) uint8 BGR -> (N, 3, 48, 48) float 0..255, as ``vision.spotnet`` feeds the net."""
    return torch.from_numpy(np.ascontiguousarray(patches.transpose(0, 3, 1, 2), dtype=np.float32))


def prototypes(emb: torch.Tensor, ep: Episode, C: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(empty prototypes (n_empty, D), class prototypes (C, D), zero where the class is absent)."""
    empty = emb[:ep.n_empty]
    pieces = emb[ep.n_empty:ep.n_empty + ep.n_pieces]
    lab = torch.from_numpy(ep.piece_label)
    protos = torch.zeros(C, emb.shape[1])
    for c in range(1, C + 1):
        m = lab == c
        if m.any():
            protos[c - 1] = F.normalize(pieces[m].mean(0), dim=0)
    return empty, protos


def logits(emb_q: torch.Tensor, empty: torch.Tensor, protos: torch.Tensor, q_spot, allowed, scale) -> torch.Tensor:
    """(Q, 1 + C) scaled cosines of each query with its spot's empty prototype and each class's,
    -inf where a class may not stand on the query's spot."""
    e = (emb_q * empty[torch.from_numpy(q_spot)]).sum(1, keepdim=True)
    c = emb_q @ protos.T
    out = scale * torch.cat([e, c], dim=1)
    return out.masked_fill(~torch.from_numpy(allowed), float("-inf"))


def loss(out: torch.Tensor, eps: list[Episode], C_of: list[int], scale: torch.Tensor,
         D: int, owner: float = 0.0) -> tuple[torch.Tensor, dict]:
    """The summed loss of a batch of episodes whose patches were run together (``out`` rows in
    episode order), and figures for the log.

    ``owner`` above 0 adds, weighed so, the cross-entropy of each occupied query among the classes
    of its own kind alone (its owner, the empty look left out): the main loss is mostly paid for
    telling pieces from the board, and an owner confused within one shape (a gold gem read as
    silver, a yellow ring as white) costs a game its referee as surely as a missed piece."""
    total, at = 0.0, 0
    right = n = 0
    head_losses = []
    for ep, C in zip(eps, C_of):
        P = len(ep.patches)
        o = out[at:at + P]
        at += P
        emb, heads = o[:, :D], o[:, D:]
        empty, protos = prototypes(emb, ep, C)
        q = emb[ep.n_empty + ep.n_pieces:]
        lg = logits(q, empty, protos, ep.q_spot, ep.allowed, scale)
        lab = torch.from_numpy(ep.q_label)
        ok = lab >= 0
        if ok.any():
            total = total + F.cross_entropy(lg[ok], lab[ok], reduction="sum") / max(1, len(lab))
            right += int((lg[ok].argmax(1) == lab[ok]).sum())
            n += int(ok.sum())
        piece = lab > 0
        if owner > 0 and piece.any():
            total = total + owner * F.cross_entropy(lg[piece][:, 1:], lab[piece] - 1, reduction="sum") / max(1, len(lab))
        occ = torch.from_numpy(ep.occupied)
        known = occ >= 0
        occ_loss = F.binary_cross_entropy_with_logits(heads[known, 0], occ[known])
        foreign_t = torch.zeros(P)
        foreign_t[ep.n_empty + ep.n_pieces:] = torch.from_numpy(ep.q_covered.astype(np.float32))
        foreign_loss = F.binary_cross_entropy_with_logits(heads[:, 1], foreign_t)
        head_losses.append(float(occ_loss.detach() + foreign_loss.detach()))
        total = total + 0.3 * occ_loss + 0.5 * foreign_loss
    return total / len(eps), {"right": right, "n": n, "heads": float(np.mean(head_losses))}
