"""Spot patches: one small upright picture per spot, the learned reader's first stage.

The learned reader (issue 31, in the manner of chesscog's pipeline of named stages) reads a
frame in three steps: locate the board (``vision.registration``, through the calibration's
locator), cut a patch round every spot (this module), and let a small network give each patch
its probabilities. A network can only learn pieces, not boards, if every patch it sees shows
the same thing the same way whatever the board, the camera and the frame: so every patch here is

* the same size for every board (``PATCH_SIZE`` pixels square), a network's fixed input;
* centred where the top of a piece standing on the spot is seen (``sampling.lift``: a slanted
  camera sees a man's top a quarter of a spacing from his foot), so a piece sits in the middle
  whatever the camera's tilt;
* drawn in board units, not frame pixels: patch pixel (u, v) is a board point, looked up in the
  frame through the board's homography. So a board turned 40 degrees in the picture, or seen at
  a slant, still gives upright squares with player 1's side at the bottom (board y up, patch
  rows down, as the rendered boards), and a piece is the same size in its patch at 640x480 and
  at 1920x1080.

Scale. A patch spans ``SPAN`` times the spot's *room*: the distance from a spot to its nearest
neighbour (the median over the board), but at most ``ROOM_RADII`` radii of the family's largest
piece. The room is one unit on the mills boards (a man 0.68 across), 0.29 on Brain Hanky's cloth
(a ring 0.28 across), so a patch shows the piece whole, a little board round it and the edges of
its neighbours, alike on both. The cap is for boards whose points lie far apart for their men
(tapatan's nine points are three units apart, its men as wide as nine men's morris'): spanned by
spacing alone, a tapatan man would be a third of the size of every other man. With ``SPAN`` 1.5
a man is 22 pixels across in his patch, a ring 31, a gem 26.

Size. 48 pixels: three halvings (48, 24, 12, 6) for a small network, and about as many pixels
as the camera gives: nine men's morris at 1280x720 shows a patch's span over some 70 frame
pixels (a third of them thrown away), Brain Hanky at 1920x1080 over some 32 (enlarged); 64 would
add 78% more pixels to every patch, all of them made up on the dense boards. Where the frame
gives two or more frame pixels to a patch pixel, the board's part of the frame is first halved
(``cv2.pyrDown``, a proper low-pass) as often as that holds, so thin printed lines do not
flicker in and out of a patch as a bilinear look-up between them would make them.

Speed. One homography per spot (the board's, composed with the patch's own square), every
patch pixel's frame position computed at once with numpy, and one ``cv2.remap`` for all the
patches, one row of its maps per patch. docs/camera.md ("Spot patches") gives the measured
time per frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .families import Family
from . import sampling

PATCH_SIZE = 48
SPAN = 1.5
ROOM_RADII = 3.0
# ``cv2.remap``'s maps must stay under 32767 pixels a side, one row a patch: patches are cut in
# runs of at most this many.
_RUN = 32000
# Halve the frame while it gives this many frame pixels or more to a patch pixel.
HALVE_FROM = 2.0


class PatchError(ValueError):
    """A frame (or homography) patches cannot be cut from; the message says what was wrong."""


@dataclass(frozen=True)
class SpotPatches:
    """One frame's patches: ``images`` (N, S, S, 3) uint8 BGR, in the order of ``spots``.

    ``valid`` (N,): the whole patch lies in the frame (a patch partly or wholly outside it is
    still there, black where the frame ends, but must not be read). ``centres`` (N, 2): the frame
    pixel (col, row) each patch is centred on. ``frame_px``: frame pixels per patch pixel (median
    over the spots, before any halving): above about 1 the camera gives more than the patch keeps,
    below it the patch is enlarged from fewer pixels.
    """

    images: np.ndarray
    spots: tuple[str, ...]
    valid: np.ndarray
    centres: np.ndarray
    frame_px: float

    def __getitem__(self, spot: str) -> np.ndarray:
        """The patch of the spot named ``spot``."""
        return self.images[self.spots.index(spot)]


def check_frame(image) -> np.ndarray:
    """``image`` (or a frame's ``.image``, as ``BoardReader.read`` takes it) if it is a colour
    frame as the camera gives it, (H, W, 3) uint8; else PatchError."""
    image = getattr(image, "image", image)
    if image is None:
        raise PatchError("no frame: the camera gave nothing (None); check that it is open and delivering pictures")
    if not isinstance(image, np.ndarray):
        raise PatchError(f"the frame is a {type(image).__name__}, not a picture (a numpy array of H x W x 3 bytes)")
    if image.size == 0 or image.ndim != 3 or image.shape[2] != 3:
        raise PatchError(f"the frame's shape is {image.shape}, not a colour picture (H x W x 3): give the camera's "
                         f"BGR frame, not a grey or empty one")
    if image.dtype != np.uint8:
        raise PatchError(f"the frame holds {image.dtype} values, not 8-bit colour (uint8, 0-255) as a camera gives "
                         f"them: convert it first, e.g. np.clip(x, 0, 255).astype(np.uint8)")
    return image


def room(family: Family) -> float:
    """A spot's room in board units (see the module's docstring, "Scale")."""
    xy = family.xy
    if len(xy) < 2:
        spacing = np.inf
    else:
        d = np.linalg.norm(xy[:, None, :] - xy[None, :, :], axis=2)
        np.fill_diagonal(d, np.inf)
        spacing = float(np.median(d.min(axis=1)))
    widest = max(p.piece_radius for p in family.patterns.values())
    return min(spacing, ROOM_RADII * widest)


class PatchCutter:
    """Cuts the patches of one board's spots from frames, given each frame's homography.

    ``spot_at`` (N, 2): where the spots are looked for in board units (a calibration's
    ``Layout.spot_at``, with the board surface's bend); the family's own places by default.
    A cutter keeps working room from frame to frame: one per stream of frames, as a reader.
    """

    def __init__(self, family: Family, spot_at: np.ndarray | None = None, *, size: int = PATCH_SIZE,
                 span: float = SPAN, board=None):
        if not 8 <= size <= 181:  # a patch is one row of the remap's maps: under 32767 pixels
            raise ValueError(f"patch size {size}: use 8 to 181 pixels")
        self.family = family
        # the corner markers' squares, painted over with the paper round them, and the board's
        # drawn area (``marker_zones``), when the board is given
        self.zones, self.inside = marker_zones(board) if board is not None else ((), None)
        self.spot_at = np.asarray(family.xy if spot_at is None else spot_at, np.float64)
        self.size = int(size)
        self.step = span * room(family) / self.size  # board units per patch pixel
        self.heights = np.array([family.heights.get(k, 0.0) for k in family.spot_kind], np.float64)
        c = (self.size - 1) / 2.0
        # patch pixel (u, v, 1) -> board point relative to the patch's centre: x right, y up
        self._square = np.array([[self.step, 0, -c * self.step], [0, -self.step, c * self.step], [0, 0, 1]])
        v, u = np.mgrid[0:self.size, 0:self.size].astype(np.float32)
        self._grid = np.stack([u.ravel(), v.ravel(), np.ones(u.size, np.float32)])  # (3, S * S)
        ends = float(self.size - 1)
        self._xyz: np.ndarray | None = None  # ``_warp``'s room, kept from frame to frame
        self._corners = np.array([[0, 0, 1], [ends, 0, 1], [ends, ends, 1], [0, ends, 1]], np.float64)

    @classmethod
    def of(cls, calibration, *, bent: bool = True, **kw) -> PatchCutter:
        """A cutter for a ``vision.calibration.Calibration``'s board, looking where its reader does."""
        import engine

        board = engine.load(calibration.game, **calibration.options).board
        return cls(calibration.family, calibration.layout(bent=bent).spot_at, board=board, **kw)

    def centres(self, board_to_image: np.ndarray, frame_size: tuple[int, int]) -> np.ndarray:
        """(N, 2) board points the patches are centred on: each spot where a piece's top is seen."""
        lift = sampling.lift(board_to_image, frame_size, self.family.xy, self.heights)
        return self.spot_at if lift is None else self.spot_at + lift

    def cut(self, image, board_to_image: np.ndarray) -> SpotPatches:
        """The patches of every spot in ``image``, the board seen through ``board_to_image``
        (3x3, board units -> frame pixels). Spots outside the frame give invalid patches; a frame
        that is not an 8-bit colour picture, or a homography that is not one, raise PatchError."""
        image = check_frame(image)
        H = np.asarray(board_to_image, np.float64)
        if H.shape != (3, 3) or not np.all(np.isfinite(H)) or abs(np.linalg.det(H)) < 1e-12:
            raise PatchError("the board's homography is not a 3x3 invertible matrix: locate the board first "
                             "(vision.registration)")
        h, w = image.shape[:2]
        return self.cut_at(image, H, self.centres(H, (w, h)), self.family.spots, self.spot_at)

    def cut_at(self, image, board_to_image: np.ndarray, at: np.ndarray, names: tuple[str, ...],
               feet: np.ndarray | None = None) -> SpotPatches:
        """Patches centred on the board points ``at`` (N, 2), named ``names``, of the spots whose
        feet are ``feet`` (N, 2; default ``at``): as ``cut``, which centres them where a piece's
        top is seen; calibration also cuts the empty picture about each edge spot at other
        centres (``piece_book.ShiftedEmpty``)."""
        image = check_frame(image)
        H = np.asarray(board_to_image, np.float64)
        h, w = image.shape[:2]
        at = np.asarray(at, np.float64).reshape(-1, 2)
        n, s = len(at), self.size
        # one homography per patch: patch pixel -> board (its square about the centre) -> frame
        shift = np.zeros((n, 3, 3))
        shift[:, 0, 0] = shift[:, 1, 1] = shift[:, 2, 2] = 1.0
        shift[:, :2, 2] = at
        G = H[None] @ shift @ self._square[None]  # (N, 3, 3)
        corners = np.einsum("nij,kj->nki", G, self._corners)  # (N, 4, 3)
        ahead = np.all(corners[..., 2] > 1e-9, axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            px = corners[..., :2] / corners[..., 2:3]
        valid = ahead & np.all(np.isfinite(px), axis=(1, 2)) & np.all(
            (px[..., 0] >= 0) & (px[..., 0] <= w - 1) & (px[..., 1] >= 0) & (px[..., 1] <= h - 1), axis=1)
        centre = G[:, :, 2] + G[:, :, :2] @ np.array([(s - 1) / 2.0] * 2)
        centres = centre[:, :2] / np.where(np.abs(centre[:, 2:3]) > 1e-12, centre[:, 2:3], np.nan)
        # frame pixels per patch pixel: the patch's side in the frame over its side in pixels
        sides = np.linalg.norm(px[:, 1] - px[:, 0], axis=1) + np.linalg.norm(px[:, 3] - px[:, 0], axis=1)
        frame_px = float(np.median(sides[ahead] / (2 * (s - 1)))) if np.any(ahead) else 0.0
        out = np.zeros((n, s, s, 3), np.uint8)
        if not np.any(ahead):
            return SpotPatches(out, tuple(names), valid, centres, frame_px)
        source, G = _source(image, G, px[ahead], frame_px)
        if self._xyz is None or len(self._xyz) < 3 * n:
            self._xyz = np.empty((3 * n, s * s), np.float32)
        for start in range(0, n, _RUN):
            part = slice(start, min(n, start + _RUN))
            m = part.stop - part.start
            _warp(source, G[part], self._grid, self._xyz[:3 * m], out[part])
        if self.zones:
            self._hide_markers(at, at if feet is None else np.asarray(feet, np.float64).reshape(-1, 2), out)
        out[~ahead] = 0
        return SpotPatches(out, tuple(names), valid, centres, frame_px)


    def _hide_markers(self, at: np.ndarray, feet: np.ndarray, out: np.ndarray) -> None:
        """Paint the pixels of patches that fall on a corner marker's square with the paper round
        it as this patch shows it, but for where a piece on the spot is seen (within its radius
        of the line from its foot to its top, the patch's centre): see ``marker_zones``."""
        half = self.step * (self.size - 1) / 2.0
        lo, hi = at - half, at + half
        z = np.asarray(self.zones, np.float64)  # (Z, 4): x0, y0, x1, y1
        # the patches whose square overlaps a marker's: one comparison of every spot with every
        # zone (0.03 ms for Brain Hanky's 373 spots; a loop in Python took 0.3)
        overlap = ((lo[:, None, 0] < z[None, :, 2]) & (hi[:, None, 0] > z[None, :, 0])
                   & (lo[:, None, 1] < z[None, :, 3]) & (hi[:, None, 1] > z[None, :, 1]))
        hits = np.flatnonzero(overlap.any(axis=1))
        if not len(hits):
            return
        x0, y0, x1, y1 = self.inside
        local = (self._square @ self._grid.astype(np.float64))[:2]  # (2, S * S) board offsets from the centre
        radius = 1.1 * max(p.piece_radius for p in self.family.patterns.values())
        for i in hits:
            bx, by = at[i, 0] + local[0], at[i, 1] + local[1]
            inz = np.zeros(bx.shape, bool)
            for zx0, zy0, zx1, zy1 in self.zones:
                inz |= (bx >= zx0) & (bx <= zx1) & (by >= zy0) & (by <= zy1)
            # a piece standing here: its foot's disc, its top's (the patch's centre) and between
            ax, ay = feet[i]
            dx, dy = at[i, 0] - ax, at[i, 1] - ay
            t = np.clip(((bx - ax) * dx + (by - ay) * dy) / max(dx * dx + dy * dy, 1e-12), 0.0, 1.0)
            inz &= np.hypot(bx - ax - t * dx, by - ay - t * dy) > radius
            paper = ~inz & ((bx < x0) | (bx > x1) | (by < y0) | (by > y1))
            if not inz.any() or not paper.any():
                continue
            flat = out[i].reshape(-1, 3)
            flat[inz] = np.median(flat[paper], axis=0).astype(np.uint8)


def marker_zones(board) -> tuple[tuple[tuple[float, float, float, float], ...], tuple[float, float, float, float]]:
    """(the corner markers' squares, the board's drawn area), board units (x0, y0, x1, y1).

    A corner spot's patch reaches a marker: black and white squares where the empty picture and
    the pieces elsewhere on the board show paper or board. Where it falls in the patch depends
    on the camera (a piece's top, where the patch is centred, is seen displaced by the camera's
    slant), and its black is a dark piece's look: on the simulator a white man on a corner point
    read as a grey one under three cameras of ten (docs/learned-reader.md). So the cutter paints
    a patch's pixels that fall on a marker's square with the paper round it (the median of the
    patch's pixels beyond the board's drawn area, the board and half the gap to the markers, and
    off the markers), as the same patch shows it: paper, as beside every edge spot."""
    from . import markers

    zones = []
    for m in markers.marker_layout(board):
        h = m.size / 2
        zones.append((m.centre[0] - h, m.centre[1] - h, m.centre[0] + h, m.centre[1] + h))
    x0, y0, x1, y1 = markers.board_extent(board)
    pad = 0.5 * markers.GAP_FRACTION * max(x1 - x0, y1 - y0)
    return tuple(zones), (x0 - pad, y0 - pad, x1 + pad, y1 + pad)


def _source(image: np.ndarray, G: np.ndarray, px: np.ndarray, frame_px: float) -> tuple[np.ndarray, np.ndarray]:
    """(the part of ``image`` the patches need, halved while it gives two or more pixels per patch
    pixel; ``G`` re-aimed at it). Only the patches' bounding box is copied and halved."""
    h, w = image.shape[:2]
    finite = px[np.all(np.isfinite(px), axis=2)]
    c0 = int(np.clip(np.floor(finite[:, 0].min()) - 2, 0, w - 1))
    r0 = int(np.clip(np.floor(finite[:, 1].min()) - 2, 0, h - 1))
    c1 = int(np.clip(np.ceil(finite[:, 0].max()) + 3, c0 + 1, w))
    r1 = int(np.clip(np.ceil(finite[:, 1].max()) + 3, r0 + 1, h))
    source = image[r0:r1, c0:c1]
    move = np.array([[1.0, 0, -c0], [0, 1, -r0], [0, 0, 1]])
    while frame_px >= HALVE_FROM and min(source.shape[:2]) >= 16:
        # pyrDown's pixel x is the source's 2x (its kernel centred there)
        source = cv2.pyrDown(source)
        move = np.diag([0.5, 0.5, 1.0]) @ move
        frame_px /= 2.0
    return source, move[None] @ G


def _warp(source: np.ndarray, G: np.ndarray, grid: np.ndarray, xyz: np.ndarray, out: np.ndarray) -> None:
    """Fill ``out`` (n, S, S, 3) by one ``cv2.remap`` of ``source`` through every patch homography
    ``G`` (n, 3, 3). ``grid`` (3, S * S): every patch pixel's (u, v, 1); ``xyz`` (3 n, S * S)
    float32: room for every pixel's frame position, kept by the cutter from frame to frame (fresh
    arrays of this size cost page faults on every frame). One product gives the positions:
    ``np.einsum``'s own loop, not a BLAS matrix product, whose helper threads, waiting on a core
    busy with other work, made the same product of three columns cost ten times as long and
    unevenly (docs/camera.md, "Spot patches"). The maps are (n, S * S): one row per patch, which
    is the patches' own layout, so the remap writes straight into ``out``."""
    n = len(G)
    np.einsum("nk,kp->np", G.astype(np.float32).reshape(-1, 3), grid, out=xyz)
    x, y, z = xyz[0::3], xyz[1::3], xyz[2::3]
    with np.errstate(divide="ignore"):
        np.divide(1.0, z, out=z)
    np.multiply(x, z, out=x)
    np.multiply(y, z, out=y)
    dst = out.reshape(n, -1, 3)
    got = cv2.remap(source, x, y, cv2.INTER_LINEAR, dst=dst, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    if not np.shares_memory(got, dst):
        dst[...] = got


def cut_frame(calibration, image, board_to_image: np.ndarray | None = None, *,
              cutter: PatchCutter | None = None) -> SpotPatches:
    """The patches of a calibrated board's spots in ``image``. Without ``board_to_image`` the
    board is located as its reader locates it (the calibration's locator; raises
    ``registration.RegistrationError`` when it is not found). Reading many frames, keep one
    ``PatchCutter.of(calibration)`` and pass it as ``cutter``."""
    image = check_frame(image)
    cutter = cutter or PatchCutter.of(calibration)
    if board_to_image is None:
        import engine

        board = engine.load(calibration.game, **calibration.options).board
        board_to_image = calibration.locator.locate(image, board).board_to_image
    return cutter.cut(image, board_to_image)


def contact_sheet(patches: SpotPatches, *, columns: int | None = None, zoom: int = 2,
                  only: list[str] | None = None) -> np.ndarray:
    """A picture of the patches in a grid, each with its spot's name under it and an invalid one
    crossed out in red: for the docs and for looking at what the network is given. ``zoom``:
    each patch pixel drawn as ``zoom`` x ``zoom``; ``only``: these spots, in this order."""
    names = list(patches.spots) if only is None else list(only)
    index = [patches.spots.index(name) for name in names]
    s = patches.images.shape[1] * zoom
    label = 16
    cols = columns or max(1, min(len(index), int(np.ceil(np.sqrt(len(index) * 1.5)))))
    rows = max(1, -(-len(index) // cols))
    gap = 4
    sheet = np.full((rows * (s + label + gap) + gap, cols * (s + gap) + gap, 3), 255, np.uint8)
    for k, i in enumerate(index):
        r, c = divmod(k, cols)
        y, x = gap + r * (s + label + gap), gap + c * (s + gap)
        tile = cv2.resize(patches.images[i], (s, s), interpolation=cv2.INTER_NEAREST)
        if not patches.valid[i]:
            cv2.line(tile, (0, 0), (s - 1, s - 1), (0, 0, 255), 2)
            cv2.line(tile, (0, s - 1), (s - 1, 0), (0, 0, 255), 2)
        sheet[y:y + s, x:x + s] = tile
        cv2.putText(sheet, names[k], (x + 2, y + s + label - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1,
                    cv2.LINE_AA)
    return sheet
