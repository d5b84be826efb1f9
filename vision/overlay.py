"""The calibration overlay: the camera's picture with what the reader made of every spot.

A new user checks a calibration by looking, not by reading numbers: each spot gets a circle
where the reader sampled it, filled with the colour of the piece it read (hollow for empty),
and a red ring where it was unsure. The background probes show as small dots (red where they
saw something over the board), and red crosses mark the printed lines' marks whose ink the frame
did not show (a hand or an arm over them). A band at the top says in words what happened.
"""

from __future__ import annotations

import cv2
import numpy as np

from engine.observation import Observation

from . import sampling
from .calibration import Calibration

_AA = cv2.LINE_AA
OK_COLOUR = (80, 200, 60)
UNSURE_COLOUR = (40, 40, 230)
PROBE_COLOUR = (220, 200, 40)


def _cloth_colour(owner: int, kind: str) -> tuple[int, int, int]:
    from .render_hanky import HANKY_COLOURS

    return HANKY_COLOURS.get(owner, {}).get(kind, (128, 128, 128))


def _man_colour(owner: int, kind: str) -> tuple[int, int, int]:
    from .render import PLAYER_COLOURS

    return PLAYER_COLOURS.get(owner, (128, 128, 128))


def _gem_colour(owner: int, kind: str) -> tuple[int, int, int]:
    from .twin_look import GEMS

    return GEMS.get(owner, (128, 128, 128))


# The reader's family (``Family.name``) -> the colour a piece is drawn in, as its renderer draws it.
PIECE_COLOURS = {"brain-hanky": _cloth_colour, "htjb": _man_colour, "twin-grids": _gem_colour}


def piece_colour(cal: Calibration, owner: int, kind: str) -> tuple[int, int, int]:
    return PIECE_COLOURS.get(cal.family.name, _man_colour)(owner, kind)


def draw_overlay(image: np.ndarray, cal: Calibration, obs: Observation, diagnostics=None,
                 board_to_image: np.ndarray | None = None, *, unsure: float = 0.25) -> np.ndarray:
    """A copy of ``image`` with ``obs`` drawn over it (see the module text).

    ``board_to_image``: where the board lies; by default the registration the reader used
    (``diagnostics.registration``). Without one (the board was not found) only the banner is drawn.
    """
    out = image.copy()
    H = board_to_image
    if H is None and diagnostics is not None and diagnostics.registration is not None:
        H = diagnostics.registration.board_to_image
    if H is not None:
        # the spots and probes where the reader looked: bent with the board's surface unless the
        # camera had moved too far from where the bend was measured (``Diagnostics.bent``)
        flat = diagnostics is not None and diagnostics.registration is not None and not diagnostics.bent
        layout = cal.layout(bent=not flat)
        scale = sampling.px_per_unit(H, cal.family.xy.mean(axis=0))
        pixels = sampling.project(H, layout.spot_at)
        thick = max(1, round(scale / 40))
        if diagnostics is not None and diagnostics.probe_deviation is not None:
            bad = set(int(i) for i in (diagnostics.deviating_probes if diagnostics.deviating_probes is not None else []))
            for i, (c, r) in enumerate(sampling.project(H, layout.probe_at)):
                colour = UNSURE_COLOUR if i in bad else PROBE_COLOUR
                cv2.circle(out, (round(c), round(r)), max(1, thick), colour, -1, _AA)
        gone = getattr(diagnostics, "ink_gone", None)
        if gone is not None and len(gone):
            # the printed lines' marks whose ink the frame did not show (``BoardReader._ink_hidden``)
            for c, r in sampling.project(H, layout.ink_at[gone]):
                cv2.drawMarker(out, (round(c), round(r)), UNSURE_COLOUR, cv2.MARKER_TILTED_CROSS,
                               max(5, 3 * thick), thick, _AA)
        unknown = set(getattr(diagnostics, "unknown_spots", []) or [])
        for name, kind, (c, r) in zip(cal.family.spots, cal.family.spot_kind, pixels):
            radius = max(3, round(cal.family.patterns[kind].piece_radius * scale * 0.8))
            centre = (round(c), round(r))
            reading = obs.points.get(name)
            if reading is None:  # occluded frame: show where the spots are, and which looked wrong
                cv2.circle(out, centre, radius, UNSURE_COLOUR if name in unknown else (200, 200, 200), thick, _AA)
                continue
            if not reading.known:  # not read (beside a covered corner marker): a cross, not a guess
                cv2.drawMarker(out, centre, UNSURE_COLOUR, cv2.MARKER_TILTED_CROSS, 2 * radius, thick + 1, _AA)
                continue
            if reading.piece is None:
                cv2.circle(out, centre, radius, OK_COLOUR, thick, _AA)
            else:
                fill = piece_colour(cal, reading.piece.owner, reading.piece.kind)
                cv2.circle(out, centre, max(2, radius // 2), fill, -1, _AA)
                cv2.circle(out, centre, max(2, radius // 2), (20, 20, 20), max(1, thick // 2), _AA)
                cv2.circle(out, centre, radius, OK_COLOUR, thick, _AA)
            if reading.confidence < unsure:
                cv2.circle(out, centre, radius + 2 * thick, UNSURE_COLOUR, thick + 1, _AA)
    _banner(out, _summary(cal, obs))
    return out


def _summary(cal: Calibration, obs: Observation) -> str:
    if obs.occluded:
        return f"NO READING: {obs.reason}"
    counts: dict[str, int] = {}
    for r in obs.points.values():
        if r.piece is not None:
            name = cal.family.class_name(r.piece.owner, r.piece.kind)
            counts[name] = counts.get(name, 0) + 1
    pieces = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "no pieces"
    low = sum(1 for r in obs.points.values() if r.known and r.confidence < 0.25)
    tail = f"; {low} unsure" if low else ""
    n, unread = len(obs.points), obs.unread()
    if not unread:
        return f"read {n} spots: {pieces}{tail}"
    return f"read {n - len(unread)} of {n} spots: {pieces}{tail}; {len(unread)} not read ({next(iter(unread.values()))})"


def _banner(img: np.ndarray, text: str) -> None:
    h, w = img.shape[:2]
    scale = max(0.4, w / 1600)
    thick = max(1, round(scale * 1.5))
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    if tw > w - 16:  # long reasons: shrink to fit rather than run off the picture
        scale *= (w - 16) / tw
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    band = th + base + 12
    img[:band] = (img[:band].astype(np.float32) * 0.3).astype(np.uint8)
    cv2.putText(img, text, (8, band - base - 6), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), thick, _AA)
