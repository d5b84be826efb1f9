"""Registration without markers (vision.outline), against seeded simulated frames with known truth.

Frames come from ``vision.sim`` with ``markers=False``: the board's drawing is all there is to
find. A board point counts as placed when the fit puts it within 0.15 board units (measured with
the frame's own scale at that point) of ``SimFrame.project``. Every board in the repository looks
the same turned by 90 degrees, so without a hint the fit may name the points of a turned board;
``placed_turn`` finds which of the board's look-alike turns the fit chose.
"""

import dataclasses
from functools import cache

import cv2
import numpy as np
import pytest

from engine.boards import BoardGraph, board
from vision import markers as mk
from vision.outline import board_symmetry, register_outline
from vision.registration import Registration, RegistrationError, register_corners
from vision.sim import CameraSettings, scene_from_image, simple_scene, simulate

TOLERANCE = 0.15  # board units
POSITIONS = {
    "morris9": {"d1": 2, "a4": 2, "g7": 1, "a1": 1, "g1": 2},  # pieces on corners and edges bulge the outline
    "three": {"a1": 1, "d4": 2},
    "tableaux": {"a1": 1, "g7": 2, "d4": 1},  # a dark piece hides a corner dot
    "brain-hanky-6": {"Oa1.w": 1, "Oc3.n": 2, "Bb2": 1, "Oa1": 2},  # rings and gems
}
SETTINGS = {"mild": CameraSettings.mild(), "default": CameraSettings(),
            "small": CameraSettings(size=(640, 480))}


@cache
def frame(name: str, seed: int, settings: str = "default", pieces: bool = True):
    position = POSITIONS.get(name) if pieces else None
    camera = SETTINGS[settings]
    if name.startswith("brain-hanky"):  # the flat look, as in test_reader (FLAT_HANKY)
        camera = dataclasses.replace(camera, outlines=True)
    return simulate(simple_scene(board(name), position, markers=False), seed, camera)


def turned(b, xy, k: int) -> np.ndarray:
    """Board coordinates ``xy`` (N, 2) turned by k quarter turns about the extent's centre."""
    x0, y0, x1, y1 = mk.board_extent(b)
    c = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    d = np.asarray(xy, np.float64) - c
    for _ in range(k % 4):
        d = np.column_stack([-d[:, 1], d[:, 0]])
    return d + c


def errors_in_units(reg: Registration, b, f, k: int = 0) -> np.ndarray:
    """Per point: distance between the fit and the truth (turned by k), in board units there."""
    xy = np.array([b.coords[p] for p in b.points], np.float64)
    pred = cv2.perspectiveTransform(xy[None], reg.board_to_image)[0]
    truth_xy = turned(b, xy, k)
    truth = f.project(truth_xy)
    e = 0.05
    scale = (np.linalg.norm(f.project(truth_xy + (e, 0)) - f.project(truth_xy - (e, 0)), axis=1)
             + np.linalg.norm(f.project(truth_xy + (0, e)) - f.project(truth_xy - (0, e)), axis=1)) / (4 * e)
    return np.linalg.norm(pred - truth, axis=1) / scale


def placed_turn(reg: Registration, b, f) -> tuple[int, float]:
    """(turn, worst error in units) of the look-alike turn the fit matches best."""
    worst = {k: float(errors_in_units(reg, b, f, k).max()) for k in range(4)}
    k = min(worst, key=worst.get)
    return k, worst[k]


@pytest.mark.parametrize("name, seed, settings, pieces", [
    ("morris9", 1, "mild", True),
    ("morris9", 2, "default", True),
    ("morabaraba", 3, "default", False),
    ("three", 4, "mild", True),
    ("tableaux", 5, "default", True),
    ("saba", 6, "mild", False),
    ("brain-hanky-6", 7, "default", True),
    ("brain-hanky-6", 8, "mild", False),
])
def test_every_point_is_placed_within_tolerance(name, seed, settings, pieces):
    b = board(name)
    f = frame(name, seed, settings, pieces)
    reg = register_outline(f.image, b)
    assert reg.method == "outline" and reg.markers_seen == ()
    assert reg.reprojection_error < 1.5
    k, worst = placed_turn(reg, b, f)
    assert worst < TOLERANCE, (k, worst)
    assert k in board_symmetry(b)  # a turn no camera could tell from the truth, never another
    assert reg.pixels_per_unit(b) > 20


def test_without_a_hint_the_board_is_named_upright():
    """Of the look-alike turns, the one with board +y up the picture (player 1 at the bottom)."""
    for name, seed in (("morris9", 2), ("brain-hanky-6", 7)):
        b = board(name)
        reg = register_outline(frame(name, seed).image, b)
        x0, y0, x1, y1 = mk.board_extent(b)
        c = ((x0 + x1) / 2, (y0 + y1) / 2)
        up = np.subtract(reg.to_image((c[0], c[1] + 1)), reg.to_image(c))
        assert -up[1] / np.hypot(*up) > 0.6  # within about 50 degrees of straight up


def test_a_hint_names_the_points_exactly():
    for name, seed in (("morris9", 2), ("brain-hanky-6", 7), ("tableaux", 5)):
        b = board(name)
        f = frame(name, seed)
        x0, y0, x1, y1 = mk.board_extent(b)
        by_corner = register_outline(f.image, b, hint=f.project((x0, y0)))
        assert errors_in_units(by_corner, b, f).max() < TOLERANCE
        corners = f.project(np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]))
        tracked = register_outline(f.image, b, hint=register_corners(b, corners))
        assert errors_in_units(tracked, b, f).max() < TOLERANCE


def test_a_board_that_differs_when_turned_is_turned_by_its_content():
    """One extra diagonal in one corner: the content alone must pick the right turn, no hint."""
    m = board("morris9")
    marked = BoardGraph("morris9-marked", m.points, dict(m.coords), m.edges + (("a1", "b2"),), m.lines)
    assert board_symmetry(marked) == (0,)
    assert board_symmetry(m) == (0, 1, 2, 3)
    for seed, pieces in ((11, None), (12, {"c3": 2, "g7": 1, "d2": 2})):
        f = simulate(simple_scene(marked, pieces, markers=False), seed, SETTINGS["small"])
        reg = register_outline(f.image, marked)
        assert errors_in_units(reg, marked, f).max() < TOLERANCE


def test_a_table_without_a_board_says_what_to_do():
    b = board("morris9")
    table = np.full((300, 300, 3), (70, 110, 150), np.uint8)  # a wooden table, nothing on it
    f = simulate(scene_from_image(table, b, mk.print_extent(b)), 3, SETTINGS["small"])
    with pytest.raises(RegistrationError, match="no board found: make sure the whole board is in view"):
        register_outline(f.image, b)


def test_a_board_cut_off_by_the_frame_edge_is_named():
    b = board("morris9")
    f = frame("morris9", 2)
    left = int(f.project(np.array([(0.0, 0.0), (0.0, 6.0), (6.0, 0.0), (6.0, 6.0)]))[:, 0].min())
    shifted = np.roll(f.image, -(left + 40), axis=1)  # the board's left part slides out of view
    with pytest.raises(RegistrationError, match="runs off the edge of the picture"):
        register_outline(shifted, b)


def test_the_wrong_board_is_refused():
    hanky = frame("brain-hanky-6", 7).image
    with pytest.raises(RegistrationError, match="does not look like the morris9 board.*check the game"):
        register_outline(hanky, board("morris9"))
    with pytest.raises(RegistrationError, match="does not look like the brain-hanky-6 board"):
        register_outline(frame("morris9", 2).image, board("brain-hanky-6"))


def test_two_boards_in_view_are_refused():
    a, b = frame("morris9", 1, "mild").image, frame("morris9", 2).image
    both = np.hstack([cv2.resize(a, (640, 720)), cv2.resize(b, (640, 720))])
    with pytest.raises(RegistrationError, match="2 places in the picture look like the morris9 board"):
        register_outline(both, board("morris9"))


def test_a_folded_board_is_refused():
    """Half the picture shifted across a crease through the board's middle: no flat board fits."""
    b = board("morris9")
    f = frame("morris9", 2)
    c = f.project((3.0, 3.0))
    n = f.project((3.0, 4.0)) - c
    n = n / np.linalg.norm(n)
    h, w = f.image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    beyond = ((xx - c[0]) * n[0] + (yy - c[1]) * n[1]) > 0
    shift = 12.0  # pixels, about a fifth of a unit
    mx = (xx - beyond * shift * n[0]).astype(np.float32)
    my = (yy - beyond * shift * n[1]).astype(np.float32)
    folded = cv2.remap(f.image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    with pytest.raises(RegistrationError, match="flat board"):
        register_outline(folded, b)


def test_a_board_mostly_covered_is_refused_or_right_never_wrong():
    """Tableaux draws only its dots: with 16 of 25 covered, too little may show to place it."""
    b = board("tableaux")
    names = list(b.points)
    crowded = {p: 1 + i % 2 for i, p in enumerate(names) if i % 3 != 1}
    assert len(crowded) == 17
    for seed in (1, 2):
        f = simulate(simple_scene(b, crowded, markers=False), seed, SETTINGS["small"])
        try:
            reg = register_outline(f.image, b)
        except RegistrationError as exc:
            assert any(why in str(exc) for why in ("covered", "does not look like", "could not be matched"))
        else:
            assert placed_turn(reg, b, f)[1] < TOLERANCE


def test_bad_input_is_a_clear_error():
    b = board("morris9")
    with pytest.raises(RegistrationError, match="empty or unreadable"):
        register_outline(np.zeros((0, 0, 3), np.uint8), b)
    with pytest.raises(RegistrationError, match="hint must be"):
        register_outline(frame("morris9", 2).image, b, hint=(1, 2, 3))


def test_simple_scene_can_leave_the_markers_out_and_nothing_else():
    b = board("morris9")
    with_markers = simple_scene(b, POSITIONS["morris9"]).image
    without = simple_scene(b, POSITIONS["morris9"], markers=False).image
    differs = np.any(with_markers != without, axis=2)
    assert differs.any()
    # Only inside the markers and their quiet zones.
    scene = simple_scene(b, markers=False)
    allowed = np.zeros_like(differs)
    for m in mk.marker_layout(b):
        reach = m.size / 2 + m.size / 4  # the marker and its quiet zone
        (cx, cy) = m.centre
        c0, r0 = scene.to_pixel((cx - reach, cy + reach))
        c1, r1 = scene.to_pixel((cx + reach, cy - reach))
        allowed[max(int(r0) - 1, 0):int(r1) + 2, max(int(c0) - 1, 0):int(c1) + 2] = True
    assert not (differs & ~allowed).any()
