"""Spot patches (``vision.patches``), the learned reader's first stage, on simulated frames.

What the later stages rely on: a piece stands in the middle of its own patch and nowhere else;
a board turned in the picture gives the same upright patches; every board gives patches of one
size; a spot outside the frame is flagged, never an exception; a bad frame is refused clearly.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import engine
from engine.core import Piece
from vision import patches, sampling, sim
from vision.calibration import calibrate, calibration_layout
from vision.families import family_for
from vision.patches import PATCH_SIZE, PatchCutter, PatchError, contact_sheet, cut_frame, room

MORRIS = engine.load("nine-mens-morris")
HANKY = engine.load("brain-hanky")
# A slanted camera (so a man's top is seen off his foot) with no lens distortion, so the
# simulator's homography is exact and any difference is the patches' own.
SLANTED = dict(tilt_deg=25.0, rotation_deg=10.0, k1=0.0, fill=0.6, noise_sigma=1.0, blur_px=0.3,
               jpeg_quality=95.0, shadows=0.0)


def _frame(game, position, size, seed=5, **settings):
    return sim.simulate(sim.printed_scene(game.board, position), seed,
                        sim.CameraSettings(size=size, **{**SLANTED, **settings}))


def _middle(kind: str) -> np.ndarray:
    """The patch pixels a piece of ``kind`` centred in it surely covers: a man's middle, a ring's
    band (its hole shows the cloth)."""
    inner, outer = {"man": (0, 6), "ring": (9, 13)}[kind]
    c = (PATCH_SIZE - 1) / 2
    v, u = np.mgrid[0:PATCH_SIZE, 0:PATCH_SIZE]
    r2 = (u - c) ** 2 + (v - c) ** 2
    return (r2 >= inner ** 2) & (r2 <= outer ** 2)


@pytest.mark.parametrize("game, size, on, empty_near, piece", [
    (MORRIS, (640, 480), "d2", ("d1", "d3", "b2", "f2"), Piece(1, "man")),
    (MORRIS, (640, 480), "f4", ("e4", "g4", "f2", "f6"), Piece(2, "man")),
    (HANKY, (800, 600), "Oc3.e", ("Oc3.n", "Oc3.s", "Oc3.w"), Piece(1, "ring")),
])
def test_a_piece_shows_in_its_own_patch_centre_and_not_in_an_empty_neighbours(game, size, on, empty_near, piece):
    empty = _frame(game, {}, size)
    full = _frame(game, {on: piece}, size)  # the same seed: the same camera and light
    cutter = PatchCutter(family_for(game))
    before, after = cutter.cut(empty.image, empty.board_to_frame), cutter.cut(full.image, full.board_to_frame)
    diff = np.abs(after.images.astype(np.float32) - before.images.astype(np.float32)).mean(axis=3)
    i = after.spots.index(on)
    centre = _middle(piece.kind)
    assert diff[i][centre].mean() > 40, "the piece does not show in its patch's centre"
    for name in empty_near:
        assert diff[after.spots.index(name)][centre].mean() < 8, f"the piece on {on} shows in {name}'s centre"
    # centred where the simulator draws the piece's top (its own parallax, from its own camera)
    assert np.linalg.norm(after.centres[i] - _seen_top(full, game, on, piece.kind)) < 1.0


def _seen_top(frame, game, spot: str, kind: str) -> np.ndarray:
    """The frame pixel where the simulator drew the top of a ``kind`` on ``spot``: the point
    where the ray from its camera through the top meets the board (``vision.sim``, parallax)."""
    scene = sim.printed_scene(game.board, {})
    to_scene = scene.board_to_scene()
    xy = np.array(game.rules.spot_xy(spot), np.float64)
    base = sampling.project(to_scene, xy[None])[0]
    nadir, camera = np.array(frame.params["nadir_px"]), frame.params["height_px"]
    height = {"man": sim.MAN_HEIGHT, "ring": sim.RING_HEIGHT}[kind] * sampling.px_per_unit(to_scene, xy)
    top = nadir + (base - nadir) * camera / (camera - height)
    return frame.project(sampling.project(np.linalg.inv(to_scene), top[None])[0])


def _turned(image: np.ndarray, H: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """The frame turned about its centre (the board turned in the picture), and its homography."""
    h, w = image.shape[:2]
    A = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), degrees, 1.0)
    turned = cv2.warpAffine(image, A, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return turned, np.vstack([A, [0, 0, 1]]) @ H


@pytest.mark.parametrize("degrees", [40.0, -130.0])
def test_a_board_turned_in_the_picture_gives_the_same_upright_patches(degrees):
    """Today's reader misreads boards turned about 40 degrees in the picture; patches must not
    care. (Cut square to the frame instead, centred and scaled the same, the turned board's
    patches differ from the upright ones by up to 57 and 77 grey levels, a median 26 and 30;
    these differ by 3 at most, the turned frame's own resampling.)"""
    state = MORRIS.new().play("d2").play("d6").play("a1").play("g7")
    f = _frame(MORRIS, state.position(), (640, 480), fill=0.5)
    cutter = PatchCutter(family_for(MORRIS))
    upright = cutter.cut(f.image, f.board_to_frame)
    image, H = _turned(f.image, f.board_to_frame, degrees)
    turned = cutter.cut(image, H)
    assert upright.valid.all() and turned.valid.all()
    mad = np.abs(turned.images.astype(np.float32) - upright.images.astype(np.float32)).mean(axis=(1, 2, 3))
    assert mad.max() < 6, dict(zip(upright.spots, mad.round(1)))
    # and a turned patch is not merely alike by being dull: turned a quarter it no longer matches
    quarter = np.abs(np.rot90(turned.images, 1, axes=(1, 2)).astype(np.float32)
                     - upright.images.astype(np.float32)).mean(axis=(1, 2, 3))
    assert np.median(quarter) > 3 * np.median(mad)


def test_the_calibrations_own_locator_gives_the_patches_of_the_true_board():
    """``cut_frame`` finds the board as the reader does (markers) and looks where it looks."""
    layout, _ = calibration_layout(MORRIS)
    settings = dict(size=(640, 480), tilt_deg=15.0)
    empty = _frame(MORRIS, {}, seed=1, **settings)
    pieces = _frame(MORRIS, layout, seed=1, **settings)
    cal = calibrate(MORRIS, empty.image, pieces.image, position=layout)
    frame = _frame(MORRIS, {"d2": Piece(1, "man")}, seed=9, **settings)
    found = cut_frame(cal, frame.image)
    true = PatchCutter(family_for(MORRIS), board=MORRIS.board).cut(frame.image, frame.board_to_frame)
    assert found.spots == cal.family.spots and found.valid.all()
    mad = np.abs(found.images.astype(np.float32) - true.images.astype(np.float32)).mean(axis=(1, 2, 3))
    assert mad.max() < 10, dict(zip(found.spots, mad.round(1)))


@pytest.mark.parametrize("name, size", [("tapatan", (640, 480)), ("nine-mens-morris", (640, 480)),
                                        ("morabaraba", (800, 600)), ("brain-hanky", (800, 600))])
def test_every_board_family_gives_patches_of_one_size(name, size):
    game = engine.load(name)
    family = family_for(game)
    f = _frame(game, {}, size)
    patches = PatchCutter(family).cut(f.image, f.board_to_frame)
    assert patches.images.shape == (len(family.spots), PATCH_SIZE, PATCH_SIZE, 3)
    assert patches.images.dtype == np.uint8
    assert patches.spots == family.spots and patches.valid.all()


def test_a_man_is_as_big_in_his_patch_on_every_mills_board():
    """Tapatan's points lie three units apart, its men as wide as nine men's morris': the patch
    follows the men, not the spacing, so both boards' men fill their patches alike."""
    rooms = {name: room(family_for(engine.load(name))) for name in ("tapatan", "nine-mens-morris", "morabaraba")}
    assert max(rooms.values()) - min(rooms.values()) < 0.05, rooms
    hanky = family_for(HANKY)
    d = np.linalg.norm(hanky.xy[:, None] - hanky.xy[None], axis=2) + np.eye(len(hanky.xy)) * 9
    assert room(hanky) == pytest.approx(np.median(d.min(axis=1)))  # dense: its spacing


def test_spots_outside_the_frame_are_flagged_not_raised():
    f = _frame(MORRIS, {"a1": Piece(1, "man")}, (640, 480), rotation_deg=0.0, tilt_deg=0.0)
    cutter = PatchCutter(family_for(MORRIS))
    whole = cutter.cut(f.image, f.board_to_frame)
    w = f.image.shape[1]
    half = cutter.cut(np.ascontiguousarray(f.image[:, : w // 2]), f.board_to_frame)  # the left half only
    right = whole.centres[:, 0] > w // 2
    assert not half.valid[right].any()
    assert half.valid[whole.centres[:, 0] < w // 2 - 60].all()
    inside = half.valid
    assert 0 < inside.sum() < len(inside)
    assert (half.images[inside] > 0).all(axis=3).mean() > 0.99  # a valid patch is all picture, no black
    gone = cutter.cut(f.image, np.array([[1, 0, 1e5], [0, 1, 0], [0, 0, 1.0]]) @ f.board_to_frame)
    assert not gone.valid.any() and gone.images.shape == whole.images.shape


@pytest.mark.parametrize("frame, says", [
    (None, "no frame"),
    ("frame.png", "not a picture"),
    (np.zeros((48, 64), np.uint8), "not a colour picture"),
    (np.zeros((0, 0, 3), np.uint8), "not a colour picture"),
    (np.zeros((48, 64, 3), np.float32), "not 8-bit colour"),
])
def test_a_bad_frame_is_refused_with_what_was_wrong(frame, says):
    cutter = PatchCutter(family_for(MORRIS))
    with pytest.raises(PatchError, match=says):
        cutter.cut(frame, np.eye(3))


def test_a_bad_homography_is_refused():
    cutter = PatchCutter(family_for(MORRIS))
    for H in (np.zeros((3, 3)), np.full((3, 3), np.nan), np.eye(2)):
        with pytest.raises(PatchError, match="homography"):
            cutter.cut(np.zeros((48, 64, 3), np.uint8), H)


def test_the_contact_sheet_shows_every_patch_and_crosses_out_the_invalid():
    f = _frame(MORRIS, {}, (640, 480), rotation_deg=0.0, tilt_deg=0.0)
    w = f.image.shape[1]
    patches = PatchCutter(family_for(MORRIS)).cut(np.ascontiguousarray(f.image[:, : w // 2]), f.board_to_frame)
    sheet = contact_sheet(patches, columns=6, zoom=2)
    assert sheet.shape[1] == 6 * (2 * PATCH_SIZE + 4) + 4 and sheet.shape[0] > 4 * 2 * PATCH_SIZE
    red = (sheet[..., 2] > 200) & (sheet[..., 1] < 60) & (sheet[..., 0] < 60)
    assert red.any() and not patches.valid.all()
    only = contact_sheet(patches, only=["d2"], zoom=1)
    assert only.shape[:2] == (PATCH_SIZE + 16 + 8, PATCH_SIZE + 8)


def test_a_frame_giving_many_pixels_per_patch_pixel_is_halved_first_and_still_lines_up(monkeypatch):
    """Tapatan filling a 1920x1080 frame gives some three frame pixels to a patch pixel: the
    board's part is halved (``cv2.pyrDown``) before the look-up, and the patches stay where they
    were: as the same look-up, without halving, in the frame smoothed as much (a pixel's shift
    either way makes them differ ten times as much)."""
    game = engine.load("tapatan")
    f = _frame(game, {"d4": Piece(1, "man")}, (1920, 1080), fill=0.9)
    cutter = PatchCutter(family_for(game))
    halved = cutter.cut(f.image, f.board_to_frame)
    assert halved.frame_px >= 2.0
    monkeypatch.setattr(patches, "HALVE_FROM", np.inf)
    direct = cutter.cut(cv2.GaussianBlur(f.image, (0, 0), 1.3), f.board_to_frame)
    inner = (slice(None), slice(3, -3), slice(3, -3))
    mad = np.abs(halved.images[inner].astype(np.float32) - direct.images[inner]).mean(axis=(1, 2, 3))
    assert mad.max() < 1.5, dict(zip(halved.spots, mad.round(1)))
    for axis in (1, 2):
        shifted = np.roll(halved.images, 1, axis=axis)[inner].astype(np.float32)
        assert np.abs(shifted - direct.images[inner]).mean() > 5 * mad.mean()


def test_a_frame_object_is_cut_as_its_picture():
    """As ``BoardReader.read``, a frame from the camera or the simulator is taken by its ``.image``."""
    f = _frame(MORRIS, {}, (640, 480))
    cutter = PatchCutter(family_for(MORRIS))
    assert np.array_equal(cutter.cut(f, f.board_to_frame).images, cutter.cut(f.image, f.board_to_frame).images)
    with pytest.raises(ValueError, match="8 to 181"):
        PatchCutter(family_for(MORRIS), size=256)


def test_a_corner_patch_shows_paper_where_the_marker_is():
    """A corner spot's patch reaches the corner marker; with the board given, the cutter paints
    the marker's square with the paper round it (``marker_zones``): no black marker cell is left
    in a1's patch, the middle spots' patches are untouched, and without the board the marker
    shows as before."""
    f = _frame(MORRIS, {}, (640, 480), seed=3)
    plain = PatchCutter(family_for(MORRIS)).cut(f.image, f.board_to_frame)
    hidden = PatchCutter(family_for(MORRIS), board=MORRIS.board).cut(f.image, f.board_to_frame)
    # near-black pixels in the patch's lower left, where a1's marker lies (the board's lines, dark
    # too, run up and right from the point)
    dark = lambda p: int((p[30:, :18].astype(int).sum(axis=2) < 150).sum())  # noqa: E731
    assert dark(plain["a1"]) > 40 and dark(hidden["a1"]) < 5, (dark(plain["a1"]), dark(hidden["a1"]))
    for spot in ("d3", "c4", "e5", "b2"):
        assert np.array_equal(plain[spot], hidden[spot])
