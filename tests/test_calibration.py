"""Calibration (``vision.calibration``): learning a board from two pictures, keeping it in a
file, and refusing, with a message that says what to do, everything it cannot use.

The pictures come from the seeded camera simulator (``vision.sim``), so what the calibration
learned is checked the only way that matters: frames from *other* cameras (other seeds), with
known positions, must read exactly. Failure cases are made the way they happen at a table: the
pieces not laid out, two sets of pieces of one colour, a dim room, a lamp's reflection, two
pictures from different camera modes, the board half out of view, a damaged or foreign file.

Each calibration costs up to a second, so the few this module needs are made once by fixtures.
"""

from __future__ import annotations

import json
import math

import cv2
import numpy as np
import pytest

import engine
from engine.observation import spots_of, view
from vision import markers, registration, render, sim
from vision.piece_book import PixelEmbedder
from vision.docs_pictures import random_position
from vision.calibration import (
    VERSION,
    CalibrationError,
    ExposureError,
    calibration_layout,
    load_calibration,
)
from vision.calibration import calibrate as calibrate_as_told
from vision.reader import BoardReader


def calibrate(*args, **kw):
    """The hand-set reader's calibration, which this module tests, said outright so the tests do
    not follow a family's default (``Family.classifier``); the learned one is tested in
    ``test_piece_book``, ``test_piece_looks`` and ``test_default_classifier``."""
    kw.setdefault("classifier", "measured")
    return calibrate_as_told(*args, **kw)


HD = (1280, 720)
VGA = (640, 480)
CAL_SEED = 1000


def shoot(game, position, seed: int, size=VGA, *, marked: bool = True, **settings) -> sim.SimFrame:
    if game.rules.family == "brain-hanky":  # the flat look, as in test_reader (FLAT_HANKY)
        settings = {"outlines": True, **settings}
    return sim.simulate(sim.simple_scene(game.board, position, markers=marked), seed,
                        sim.CameraSettings(size=size, **settings))


def assert_reads(reader: BoardReader, game, image, position, where: str):
    obs = reader.read(image)
    assert not obs.occluded, f"{where}: flagged occluded: {obs.reason}"
    truth, got = view(position, spots_of(game)), obs.view()
    wrong = {s: (truth[s], got[s]) for s in truth if truth[s] != got[s]}
    assert not wrong, f"{where}: misread (spot: (true, read)) {dict(list(wrong.items())[:6])}"
    return obs


class Setup:
    """One game calibrated from seed ``CAL_SEED`` pictures at one frame size."""

    def __init__(self, name: str, size):
        self.name, self.size = name, size
        self.game = engine.load(name)
        self.layout, self.layout_text = calibration_layout(self.game)
        self.empty = shoot(self.game, {}, CAL_SEED, size)
        self.pieces = shoot(self.game, self.layout, CAL_SEED, size)
        self.stages: list[str] = []
        self.cal = calibrate(self.game, self.empty.image, self.pieces.image, progress=self.stages.append)


@pytest.fixture(scope="module")
def morris() -> Setup:
    return Setup("nine-mens-morris", VGA)


@pytest.fixture(scope="module")
def hanky() -> Setup:
    return Setup("brain-hanky", HD)


_SAME = object()


def fails(setup: Setup, empty=_SAME, pieces=_SAME, **kw) -> str:
    """The CalibrationError message for calibrating ``setup``'s game from these pictures
    (``setup``'s own pictures where none is given)."""
    kw.setdefault("position", setup.layout)
    with pytest.raises(CalibrationError) as info:
        calibrate(setup.game, setup.empty.image if empty is _SAME else empty,
                  setup.pieces.image if pieces is _SAME else pieces, **kw)
    return str(info.value)


# ---------------------------------------------------------------------------- end to end
@pytest.mark.parametrize("which,seeds", [("morris", (301, 302, 303)), ("hanky", (311,))])
def test_calibration_reads_frames_from_other_cameras(request, which, seeds):
    """Calibrated from the two pictures alone (the default layout of ``calibration_layout``),
    the reader reads random positions under other cameras, lights and poses exactly."""
    s: Setup = request.getfixturevalue(which)
    assert s.stages and s.stages[-1] == "calibration checked"
    reader = BoardReader(s.cal)
    for seed in seeds:
        position = random_position(s.game, seed)
        assert_reads(reader, s.game, shoot(s.game, position, seed, s.size).image, position, f"{s.name} seed {seed}")


def test_layout_shows_every_piece_class(morris, hanky):
    """What the pieces picture must show holds one piece of every class (gems and rings of each
    Brain Hanky side), on distinct spots, and says so in words a player can follow."""
    for s in (morris, hanky):
        keys = {(p.owner, p.kind) for p in s.layout.values()}
        assert keys == {c.key for c in s.cal.family.classes}
        assert set(s.layout) <= set(spots_of(s.game))
        for c in s.cal.family.classes:
            assert c.name in s.layout_text
    assert "white man on a1" in morris.layout_text and "black man on g7" in morris.layout_text


def test_saved_calibration_reads_the_same(morris, hanky, tmp_path):
    """A calibration saved and loaded again (the file a user keeps between games) reads frames
    exactly as the one made in memory: same view (or the same occluded verdict and reason), and
    the frames read are read right. (Confidences: see the next test.)"""
    for s, seeds in ((morris, (321, 322, 323)), (hanky, (324,))):
        path = s.cal.save(tmp_path / f"{s.name}.json")
        data = json.loads(path.read_text())
        assert data["format"] == "arbiter-calibration" and data["version"] == VERSION and data["game"] == s.name
        loaded = load_calibration(path, game=s.name)
        assert loaded.game == s.name and loaded.frame_size == s.cal.frame_size
        assert loaded.locator.method == "markers" and set(loaded.templates) == set(s.cal.templates)
        before, after = BoardReader(s.cal), BoardReader(loaded)
        read = 0
        for seed in seeds:
            position = random_position(s.game, seed)
            image = shoot(s.game, position, seed, s.size).image
            a, b = before.read(image), after.read(image)
            assert (a.occluded, a.reason) == (b.occluded, b.reason), f"{s.name} seed {seed}"
            assert a.view() == b.view(), f"{s.name} seed {seed}"
            if not a.occluded:
                read += 1
                assert a.view() == view(position, spots_of(s.game)), f"{s.name} seed {seed} misread"
        assert read >= len(seeds) - 1, f"{s.name}: too few frames read to compare the two calibrations"
        assert load_calibration(path).game == s.name  # no game given: any game is accepted


def test_saved_calibration_gives_the_same_confidences(morris, tmp_path):
    """Loaded, a calibration should be the same calibration: same neighbourhood of background
    probes per spot, so the same light estimate and confidences up to the file's rounding."""
    loaded = load_calibration(morris.cal.save(tmp_path / "cal.json"))
    before, after = morris.cal.layout(), loaded.layout()
    changed = [morris.cal.family.spots[i] for i in range(len(before.near))
               if set(before.near[i]) != set(after.near[i])]
    position = random_position(morris.game, 322)
    image = shoot(morris.game, position, 322).image
    a, b = BoardReader(morris.cal).read(image), BoardReader(loaded).read(image)
    assert not a.occluded and a.view() == b.view()
    off = {s: (round(a.points[s].confidence, 3), round(b.points[s].confidence, 3)) for s in a.points
           if abs(a.points[s].confidence - b.points[s].confidence) > 2e-3}
    assert not changed and not off, f"probe neighbourhoods changed at {changed}; confidences {off}"


def test_corner_calibration_without_markers(tmp_path):
    """A board without markers, located by its four corners (as a user clicks them): calibrated
    from the simulator's true corners, it reads new positions from the same fixed camera, sees a
    hand, and survives the file round trip (its board position is stored in the file)."""
    g = engine.load("nine-mens-morris")
    layout, _ = calibration_layout(g)
    seed = 2024  # one camera for everything: a corners calibration assumes the camera stays put
    empty = shoot(g, {}, seed, marked=False)
    x0, y0, x1, y1 = markers.board_extent(g.board)
    corners = empty.project([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    cal = calibrate(g, empty.image, shoot(g, layout, seed, marked=False).image, position=layout,
                    method="corners", corners=corners)
    assert cal.locator.method == "corners" and cal.locator.board_to_image is not None
    loaded = load_calibration(cal.save(tmp_path / "corners.json"), game=g.name)
    assert loaded.locator.method == "corners"
    np.testing.assert_allclose(loaded.locator.corners, corners, atol=1e-6)
    for c in (cal, loaded):
        reader = BoardReader(c)
        for pseed in (331, 332):
            position = random_position(g, pseed)
            image = shoot(g, position, seed, marked=False).image
            assert_reads(reader, g, image, position, f"corners, position {pseed}")
    hand = shoot(g, random_position(g, 331), seed, marked=False, hand=True)
    assert hand.occluded_points
    obs = BoardReader(cal).read(hand.image)
    assert obs.occluded and obs.points == {}


# ---------------------------------------------------------------------------- refusing pictures
def test_pieces_picture_of_an_empty_board_names_the_class(morris):
    """The pieces were never laid out: the message names the piece it cannot find and where."""
    msg = fails(morris, pieces=morris.empty.image)
    assert "white man" in msg and "a1" in msg, msg


def test_missing_piece_names_the_missing_class(morris):
    """Only the white man laid out: the message names the black man (not the white one)."""
    only_white = {s: p for s, p in morris.layout.items() if p.owner == 1}
    msg = fails(morris, pieces=shoot(morris.game, only_white, CAL_SEED).image)
    assert "black man" in msg and "white man" not in msg, msg


def test_layout_without_a_class_names_it(morris):
    """A position (what the player says is on the board) lacking a class names that class and
    points to ``--layout``."""
    only_white = {s: p for s, p in morris.layout.items() if p.owner == 1}
    msg = fails(morris, pieces=shoot(morris.game, only_white, CAL_SEED).image, position=only_white)
    assert "black man" in msg and "--layout" in msg, msg


def test_two_players_alike(morris, monkeypatch):
    """Player 2's pieces drawn in player 1's colour (two sets of white men): refused as too
    alike, naming both classes, rather than reading every black man as white."""
    monkeypatch.setitem(render.PLAYER_COLOURS, 2, render.PLAYER_COLOURS[1])
    pieces = shoot(morris.game, morris.layout, CAL_SEED).image
    monkeypatch.undo()
    msg = fails(morris, pieces=pieces)
    assert "too alike" in msg and "white man" in msg and "black man" in msg, msg


def test_too_dark(morris):
    """Both pictures at a tenth of their light: refused as too dark, with the level and the fix."""
    def dim(image):
        return (image.astype(np.float32) * 0.1).astype(np.uint8)

    msg = fails(morris, dim(morris.empty.image), dim(morris.pieces.image))
    assert "too dark" in msg and "light" in msg, msg


def test_too_dark_asks_for_more_exposure(morris):
    """A dark room is an exposure problem: the error says to raise it, so a camera that allows
    it can be turned up and the pictures taken again."""
    def dim(image):
        return (image.astype(np.float32) * 0.1).astype(np.uint8)

    with pytest.raises(ExposureError) as info:
        calibrate(morris.game, dim(morris.empty.image), dim(morris.pieces.image), position=morris.layout)
    assert info.value.change == "raise"


def _overexpose(image, gain):
    return np.clip(image.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def test_over_exposed_pictures_are_not_called_glare(morris):
    """Automatic exposure over a white print: the paper clips to 255 everywhere. The cause is
    the exposure, not a lamp's reflection, and the fix is to lower it: the message says so and
    names no point as glare."""
    with pytest.raises(ExposureError) as info:
        calibrate(morris.game, _overexpose(morris.empty.image, 2.0), _overexpose(morris.pieces.image, 2.0),
                  position=morris.layout)
    msg = str(info.value)
    assert info.value.change == "lower"
    assert "over-exposed" in msg and "lower the camera's exposure" in msg and "glare" not in msg, msg


def test_over_exposed_pieces_picture_alone(morris):
    """The camera's automatic exposure changed between the two pictures and clipped the second."""
    with pytest.raises(ExposureError) as info:
        calibrate(morris.game, morris.empty.image, _overexpose(morris.pieces.image, 2.0), position=morris.layout)
    assert "pieces picture is over-exposed" in str(info.value), str(info.value)


def test_over_exposed_corner_is_named(morris):
    """Part of the board washed out (a lamp too close on one side): over-exposure round the
    points it covers, not glare."""
    image = morris.empty.image.astype(np.float32)
    c = morris.empty.project(np.array(morris.game.board.coords["a1"], np.float64))
    yy, xx = np.mgrid[:image.shape[0], :image.shape[1]]
    r = np.hypot(xx - c[0], yy - c[1])
    reach = np.linalg.norm(morris.empty.project(np.array(morris.game.board.coords["d1"], np.float64)) - c)
    gain = np.where(r < 0.8 * reach, 2.6, 1.0)[..., None]
    washed = np.clip(image * gain, 0, 255).astype(np.uint8)
    msg = fails(morris, empty=washed)
    assert "over-exposed round" in msg and "a1" in msg and "glare" not in msg, msg


def test_mildly_bright_pictures_still_calibrate(morris):
    """A bright picture whose paper is not clipped is no problem: calibration succeeds and
    reads other cameras' frames."""
    cal = calibrate(morris.game, _overexpose(morris.empty.image, 1.12), _overexpose(morris.pieces.image, 1.12),
                    position=morris.layout)
    assert cal.templates


def test_glare_on_a_point(morris):
    """A saturated white patch over d2 in the empty picture (a lamp reflected in the print):
    refused, naming d2 and what to do."""
    image = morris.empty.image.copy()
    xy = np.array(morris.game.board.coords["d2"], np.float64)
    c = morris.empty.project(xy)
    r = np.linalg.norm(morris.empty.project(xy + (0.4, 0)) - c)
    cv2.circle(image, (round(float(c[0])), round(float(c[1]))), round(float(r)), (255, 255, 255), -1)
    msg = fails(morris, empty=image)
    assert "glare on d2" in msg and "lamp" in msg, msg


def test_pictures_of_different_sizes(morris):
    msg = fails(morris, pieces=shoot(morris.game, morris.layout, CAL_SEED, HD).image)
    assert "differ in size" in msg and "640x480" in msg and "1280x720" in msg, msg


@pytest.mark.parametrize("bad", ["none", "grey", "empty array"])
def test_picture_that_is_not_an_image(morris, bad):
    image = {"none": None, "grey": morris.empty.image[:, :, 0].copy(),
             "empty array": np.zeros((0, 0, 3), np.uint8)}[bad]
    assert "not a colour image" in fails(morris, empty=image)


def test_board_half_out_of_view(morris):
    """Both pictures cut through the board's middle: the markers on the far side are missing,
    and the message names them and says to move the camera."""
    centre = morris.empty.project(np.mean([m.centre for m in markers.marker_layout(morris.game.board)], axis=0))
    col = round(float(centre[0]))
    msg = fails(morris, morris.empty.image[:, :col].copy(), morris.pieces.image[:, :col].copy())
    assert "marker" in msg and "missing" in msg and "camera" in msg, msg


def test_corners_with_the_board_out_of_view(morris):
    """Corners that put part of the board outside the picture: refused, naming spots that are out."""
    x0, y0, x1, y1 = markers.board_extent(morris.game.board)
    corners = morris.empty.project([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]) + (400, 0)
    msg = fails(morris, method="corners", corners=corners)
    assert "outside the picture" in msg and "move the camera" in msg, msg


@pytest.mark.parametrize("bad,words", [("three", "four corner points"), ("crossed", "cross over")])
def test_bad_corners(morris, bad, words):
    x0, y0, x1, y1 = markers.board_extent(morris.game.board)
    corners = morris.empty.project([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    corners = corners[:3] if bad == "three" else corners[[0, 2, 1, 3]]
    assert words in fails(morris, method="corners", corners=corners)


def test_unknown_method(morris):
    assert "unknown way to find the board" in fails(morris, method="guess")


def test_pictures_of_another_board(morris):
    """Pictures of a morabaraba print for a nine-mens-morris calibration: the message says which
    board the camera sees."""
    other = engine.load("morabaraba")
    image = shoot(other, {}, CAL_SEED).image
    assert "morabaraba" in fails(morris, image, image)


def test_hand_in_the_empty_picture_is_refused():
    """A hand over the board in the empty picture would teach the reader a hand as the empty
    look; calibration must refuse it (it checks its own work) rather than spoil every game."""
    g = engine.load("tapatan")
    layout, _ = calibration_layout(g)
    empty = shoot(g, {}, CAL_SEED, HD, hand=True)
    assert empty.occluded_points
    with pytest.raises(CalibrationError):
        calibrate(g, empty.image, shoot(g, layout, CAL_SEED, HD).image, position=layout)


# ---------------------------------------------------------------------------- refusing files
def _edit(fn):
    """A case that changes the saved JSON document with ``fn(data)``."""
    return ("json", fn)


def _set(path, value):
    def fn(d):
        *head, last = path
        for k in head:
            d = d[k]
        d[last] = value(d[last]) if callable(value) else value
    return _edit(fn)


def _other_spots(d):
    d["spots"] = list(spots_of(engine.load("seven-mens-morris")))


def _gem_class(d):
    d["classes"].append(dict(d["classes"][0], kind="gem"))


def _too_few_probes(d):
    d["probes"], d["probe_empty"] = d["probes"][:5], d["probe_empty"][:5]


def _nan(d):
    d["probe_empty"][0][0] = math.nan


def _infinity(d):
    d["classes"][0]["template"][0][1] = math.inf


def _drop_probes(d):
    del d["probes"]


BAD_FILES = {
    "not JSON": (("text", "{this is not json"), ("not a readable calibration file", "arbiter calibrate")),
    "an empty file": (("text", ""), ("not a readable calibration file",)),
    "binary garbage": (("bytes", b"\xff\xfe\x00\x81garbage"), ("not a readable calibration file",)),
    "a JSON list": (("text", "[1, 2, 3]"), ("not an arbiter calibration file",)),
    "another format": (_set(["format"], "arbiter-journal"), ("not an arbiter calibration file", "calibrate")),
    "a newer version": (_set(["version"], VERSION + 1), ("newer arbiter", f"version {VERSION + 1}", "update arbiter")),
    "version zero": (_set(["version"], 0), ("unknown calibration version",)),
    "version as text": (_set(["version"], "1"), ("unknown calibration version",)),
    "truncated probe colours": (_set(["probe_empty"], lambda v: v[:-1]), ("damaged", "shape")),
    "truncated backgrounds": (_set(["background"], lambda v: v[:-3]), ("damaged", "shape")),
    "truncated empty looks": (_set(["empty", "man"], lambda v: v[:-1]), ("damaged", "shape")),
    "truncated template": (_set(["classes", 0, "template"], lambda v: v[:-2]), ("damaged", "shape")),
    "a NaN": (_edit(_nan), ("damaged", "non-numbers")),
    "an infinity": (_edit(_infinity), ("damaged", "non-numbers")),
    "no probes": (_edit(_drop_probes), ("damaged", "probes")),
    "too few probes": (_edit(_too_few_probes), ("damaged", "too few background probes")),
    "an unknown locator": (_set(["locator", "method"], "lidar"), ("damaged", "lidar")),
    "a gem on a morris board": (_edit(_gem_class), ("damaged", "'gem' does not belong")),
    "another board's spots": (_edit(_other_spots), ("different nine-mens-morris board",)),
    "another board's name": (_set(["board"], "morabaraba"), ("different nine-mens-morris board",)),
    "an unknown game": (_set(["game"], "chess"), ("game cannot be loaded", "chess")),
    "an unknown option": (_set(["options"], {"no_such_option": 1}), ("game cannot be loaded",)),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_damaged_file_is_refused_with_a_message(morris, tmp_path, case):
    """Every damaged or foreign file is a CalibrationError naming the file and what is wrong,
    and saying to calibrate again (or update arbiter): never a crash, never a half-loaded
    calibration that misreads."""
    (how, what), words = BAD_FILES[case]
    path = tmp_path / "cal.json"
    if how == "text":
        path.write_text(what)
    elif how == "bytes":
        path.write_bytes(what)
    else:
        data = json.loads(json.dumps(morris.cal.to_json()))
        what(data)
        path.write_text(json.dumps(data))  # NaN and Infinity are written as JSON's extensions
    with pytest.raises(CalibrationError) as info:
        load_calibration(path, game="nine-mens-morris" if case not in ("an unknown game",) else None)
    msg = str(info.value)
    assert str(path) in msg, msg
    for w in words:
        assert w in msg, f"{w!r} not in {msg!r}"
    assert "calibrate" in msg or "update arbiter" in msg, msg


def test_file_for_another_game(morris, tmp_path):
    """The right kind of file for the wrong game: the message names both games and the command
    that makes the right file."""
    path = morris.cal.save(tmp_path / "cal.json")
    with pytest.raises(CalibrationError) as info:
        load_calibration(path, game="morabaraba")
    msg = str(info.value)
    assert "calibration for nine-mens-morris, not morabaraba" in msg and "arbiter calibrate morabaraba" in msg, msg


def test_missing_file(tmp_path):
    with pytest.raises(CalibrationError) as info:
        load_calibration(tmp_path / "nowhere.json")
    assert "no such calibration file" in str(info.value) and "arbiter calibrate" in str(info.value)


def test_untouched_file_loads(morris, tmp_path):
    """The control for the cases above: the same document, unedited, loads and reads."""
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(json.loads(json.dumps(morris.cal.to_json()))))
    loaded = load_calibration(path, game="nine-mens-morris")
    assert_reads(BoardReader(loaded), morris.game, morris.pieces.image, morris.layout, "the calibration's own picture")


def test_a_piece_is_held_against_its_own_point_not_every_point():
    """A piece is "like the empty board" only where it stands. Two photoreal setups seen from
    nearly overhead showed a white man as light as the paper: 0.106-0.111 from its own point's
    empty look, but within 0.073 of some other points' (their dots lighter), and calibration was
    refused although every frame reads right once it is not. Whether a piece can be told from
    the other points is the read-back's to check (every point of the empty picture reads empty)."""
    from vision.calibration import ALIKE, like_their_points

    empty = np.full((3, 12, 3), 0.90)
    empty[0, :4] = 0.60  # a1: a dark dot under the man
    empty[2] = 0.95  # a point whose dot barely shows
    man = np.full((12, 3), 0.97)  # a white man, as light as the paper
    assert np.mean(np.abs(empty[2] - man)) < ALIKE < np.mean(np.abs(empty[0] - man))
    assert like_their_points(empty, [(0, man)]) == []
    assert like_their_points(empty, [(0, man), (2, man)]) == [2]  # a man on the faint point: unseen
    assert like_their_points(empty, [(0, empty[0] + 0.01)]) == [0]  # no man there at all


def test_a_piece_off_its_point_is_named_with_its_point(morris):
    """The white man left off its point in the pieces picture: the message says which point shows
    nothing, and asks whether the piece is on it."""
    off = {s: p for s, p in morris.layout.items() if p.owner != 1}
    msg = fails(morris, pieces=shoot(morris.game, off, CAL_SEED).image)
    assert "white man on" in msg and "looks like the empty board there" in msg and "on its point" in msg, msg


# ---------------------------------------------------------------------------- the full layout and the markers
@pytest.mark.parametrize("name,options", [("nine-mens-morris", {}), ("kunjing", {"players": 3}), ("tapatan", {}),
                                          ("saba", {}), ("brain-hanky", {})])
def test_full_layout_keeps_clear_of_the_markers(name, options):
    """No piece of the full layout stands where a camera slanted up to ``COVER_SLANT`` heights
    could see it over a corner marker or its quiet zone, measured here from the print's own
    geometry (every marker's square grown by a quarter of its side, every piece's radius plus
    twice its height); the mills boards' four corner points are such spots."""
    from vision.layouts import COVER_SLANT, covers_marker, full_layout
    from vision.families import family_for

    game = engine.load(name, **options)
    fam = family_for(game)
    pos = full_layout(game)
    for spot, piece in pos.items():
        x, y = fam.xy[fam.spots.index(spot)]
        reach = fam.patterns[piece.kind].piece_radius + COVER_SLANT * fam.heights.get(piece.kind, 0.0)
        for m in markers.marker_layout(game.board):
            h = 0.75 * m.size
            gap = math.hypot(max(m.centre[0] - h - x, 0, x - m.centre[0] - h),
                             max(m.centre[1] - h - y, 0, y - m.centre[1] - h))
            assert gap >= reach, (spot, m.id, gap, reach)
    if fam.name == "htjb":
        assert {"a1", "g1", "a7", "g7"} <= set(covers_marker(game))


def test_full_layout_pieces_picture_shows_every_marker_to_a_tilted_camera():
    """The simulated camera of seed 5303 (tilted, the board off centre) sees all four markers in
    the empty picture; with the full layout's Kunjing men on the board it saw only two while the
    layout put men on the corner points. Now the pieces picture shows all four, and the learned
    calibration from it takes."""
    game = engine.load("kunjing", players=3)
    layout, _ = calibration_layout(game, full=True)
    assert not {"a1", "g1", "a7", "g7"} & set(layout)

    def shot(position):
        return sim.simulate(sim.printed_scene(game.board, position), 5303, sim.CameraSettings(size=VGA)).image

    empty, pieces = shot({}), shot(layout)
    assert len(registration.detect_markers(empty, game.board)) == 4
    assert len(registration.detect_markers(pieces, game.board)) == 4
    Piece = engine.core.Piece
    corners = {**layout, "a1": Piece(1, "man"), "a7": Piece(1, "man"), "g1": Piece(3, "man"), "g7": Piece(2, "man")}
    assert len(registration.detect_markers(shot(corners), game.board)) == 2  # the old layout's corner men
    cal = calibrate(game, empty, pieces, position=layout, classifier="learned", embedder=PixelEmbedder())
    assert cal.classifier == "learned"


def test_a_coloured_mans_tinted_shadow_is_no_hand_but_another_colour_is():
    """A red or blue man throws his own colour onto the paper he shades (photoreal renders: the
    paper beside matte red and blue men darkened up to three times as much in two channels as in
    the third). Play's hand check allows a shadow tinted along the nearest piece's own colour;
    calibration's check of the pieces picture must too, or a full layout of coloured men is
    refused as "a hand over the board" (seed 50450's red and blue morabaraba men). A tint along
    no piece's colour is still something over the board."""
    from vision.occlusion import shadow_reach

    g = engine.load("nine-mens-morris")
    layout, _ = calibration_layout(g, full=True)
    looks = {(1, "man"): {"colour": (40, 40, 190)}, (2, "man"): {"colour": (190, 70, 40)}}  # BGR: red, blue
    settings = sim.CameraSettings(size=HD)
    empty = sim.simulate(sim.simple_scene(g.board, {}, looks=looks), CAL_SEED, settings)
    pieces = sim.simulate(sim.simple_scene(g.board, layout, looks=looks), CAL_SEED, settings)
    cal = calibrate(g, empty.image, pieces.image, position=layout)
    fam = cal.family
    occupied = np.array([s in layout for s in fam.spots])
    near = shadow_reach(cal.probes, fam) & occupied[None, :]

    def shaded(gain_of) -> np.ndarray:
        """The pieces picture with each man's shadow on the probes beside him (one side, within
        0.7 of a unit), the paper there multiplied by ``gain_of(owner)`` (B, G, R)."""
        img = pieces.image.astype(np.float64)
        rows, cols = np.mgrid[0:img.shape[0], 0:img.shape[1]]
        hit = 0
        for p, row in zip(cal.probes, near):
            on = np.flatnonzero(row)
            if not len(on):
                continue
            i = on[np.argmin(np.linalg.norm(fam.xy[on] - p, axis=1))]
            if p[0] <= fam.xy[i][0] or np.linalg.norm(p - fam.xy[i]) > 0.7:
                continue
            c = pieces.project(p)
            img[(cols - c[0]) ** 2 + (rows - c[1]) ** 2 <= 16] *= gain_of(layout[fam.spots[i]].owner)
            hit += 1
        assert hit >= 20
        return np.clip(img, 0, 255).astype(np.uint8)

    own = {1: (0.6, 0.6, 0.85), 2: (0.85, 0.65, 0.6)}  # red men redden their shadows, blue men blue
    calibrate(g, empty.image, shaded(lambda owner: own[owner]), position=layout)
    calibrate(g, empty.image, shaded(lambda owner: (0.7, 0.7, 0.7)), position=layout)  # plain shade
    with pytest.raises(CalibrationError, match="disagree on the board between the points"):
        calibrate(g, empty.image, shaded(lambda owner: (0.6, 0.85, 0.6)), position=layout)  # green: no man's


def test_brain_hankys_full_set_calibrates_where_its_rings_stand_over_the_probes():
    """Brain Hanky's full set (clusters of four rings round a gem) seen by the simulator's own
    camera: the rings of a corner cluster stand over the probes at its edge, which change to the
    rings' colours, lighter in one channel and darker in another, and calibration called that a
    hand in one of the pictures. It knows where its pieces stand, and a probe a piece may cover
    may take that piece's look (``occlusion.in_cover``); a hand over the board is still refused
    (the tests above)."""
    from vision import sim

    g = engine.load("brain-hanky")
    layout, _ = calibration_layout(g, full=True)
    settings = sim.CameraSettings(size=(1280, 720))
    empty = sim.simulate(sim.printed_scene(g.board, {}), 4, settings).image
    pieces = sim.simulate(sim.printed_scene(g.board, layout), 4, settings).image
    cal = calibrate(g, empty, pieces, position=layout, classifier="measured")
    assert cal.family.name == "brain-hanky"
