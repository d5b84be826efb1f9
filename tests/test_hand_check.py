"""The checks that keep a moving or covered board away from the referee, at their exact limits.

Two gates stand between a reader and the referee: the camera's hand check
(``vision.occlusion.HandCheck``: background probes whose light changed unlike their neighbours',
a few of them side by side) and the stabiliser (the same board for a number of readings over a
window, sure enough). A limit moved by one (``>`` for ``>=``, two probes for three, a window a
hair longer) passed the whole suite: nothing tested the limits themselves. Each is tested here
just inside and just outside, on a probe grid built by hand so the numbers are the test's own.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from arbiter.stabiliser import Stabiliser
from engine.core import Piece
from engine.observation import Observation, Reading
from vision.occlusion import HandCheck

# The hand check's threshold in these tests: a probe's log-light change off its neighbours'.
# 1/8, so that exp and log round-trip it exactly and "exactly at the threshold" is exact.
T = 0.125
GRID = 9  # probes on a 9 x 9 grid of spacing 1
PROBES = np.array([(x, y) for y in range(GRID) for x in range(GRID)], dtype=float)
SPOTS = ("centre", "corner")
SPOT_XY = np.array([(4.0, 4.0), (0.0, 0.0)])
JUST = 1e-6  # relative: how far past (or short of) a limit "just" is


def probe(x: int, y: int) -> int:
    return y * GRID + x


def check(count: int = 2) -> HandCheck:
    return HandCheck(PROBES, SPOTS, SPOT_XY, T, count)


def ratio_with(changes: dict[int, float], channel: int | None = None) -> np.ndarray:
    """The light ratio since calibration: 1 everywhere (no change) but at the given probes,
    whose log ratio is the given value (in every channel, or in one)."""
    r = np.ones((len(PROBES), 3))
    for i, log_change in changes.items():
        if channel is None:
            r[i, :] = math.exp(log_change)
        else:
            r[i, channel] = math.exp(log_change)
    return r


# ------------------------------------------------------------------ the probe threshold
@pytest.mark.parametrize("sign", [1, -1], ids=["brighter", "darker"])
def test_a_probe_off_by_just_over_the_threshold_deviates_and_just_under_does_not(sign):
    pair = (probe(4, 4), probe(5, 4))
    over = check().check(ratio_with({i: sign * T * (1 + JUST) for i in pair}))
    assert over.reason and sorted(over.deviating) == sorted(pair)
    under = check().check(ratio_with({i: sign * T * (1 - JUST) for i in pair}))
    assert under.reason == "" and len(under.deviating) == 0
    # the deviation is reported in the threshold's units: the probe's own change here
    assert under.deviation[pair[0]] == pytest.approx(T * (1 - JUST), rel=1e-9)


@pytest.mark.parametrize("sign", [1, -1], ids=["brighter", "darker"])
def test_a_probe_off_by_exactly_the_threshold_does_not_deviate(sign):
    # "off by more than the threshold": equal is not more. Darker is made as the rest of the
    # board brightening by exp(T) round two unchanged probes, which keeps the arithmetic exact.
    pair = (probe(4, 4), probe(5, 4))
    if sign > 0:
        ratio = ratio_with({i: T for i in pair})
    else:
        ratio = np.full((len(PROBES), 3), math.exp(T))
        ratio[list(pair)] = 1.0
    assert float(np.log(ratio).max() - np.log(ratio).min()) == T, "the test's own arithmetic must be exact"
    verdict = check().check(ratio)
    assert verdict.deviation[pair[0]] == T
    assert verdict.reason == "" and len(verdict.deviating) == 0


def test_one_channel_alone_past_the_threshold_is_enough():
    # skin is redder than the board's change of light: a change in one channel counts
    pair = (probe(4, 4), probe(4, 5))
    assert check().check(ratio_with({i: T * (1 + JUST) for i in pair}, channel=0)).reason
    assert not check().check(ratio_with({i: T * (1 - JUST) for i in pair}, channel=0)).reason


def test_light_changing_evenly_over_the_board_is_no_hand():
    # a lamp switched on: every probe brighter by far more than the threshold, alike
    r = np.full((len(PROBES), 3), math.exp(5 * T))
    verdict = check().check(r)
    assert verdict.reason == "" and len(verdict.deviating) == 0


# ------------------------------------------------------------------ how many probes make a hand
@pytest.mark.parametrize("count", [2, 3, 4])
def test_exactly_count_neighbouring_probes_make_a_hand_and_one_fewer_does_not(count):
    row = [probe(2 + k, 4) for k in range(count)]
    off = 2 * T
    enough = check(count).check(ratio_with({i: off for i in row}))
    assert enough.reason, f"{count} neighbouring deviating probes are a hand"
    assert len(enough.deviating) == count
    fewer = check(count).check(ratio_with({i: off for i in row[:-1]}))
    assert fewer.reason == "", f"{count - 1} deviating probes are not ({count} are needed)"


def test_the_reader_default_is_two_probes():
    # BoardReader's probe_count: two neighbouring probes make a hand, one is noise
    from vision.reader import BoardReader

    assert BoardReader.__init__.__kwdefaults__["probe_count"] == 2
    one = check().check(ratio_with({probe(4, 4): 3 * T}))
    assert one.reason == "" and len(one.deviating) == 0, "a probe alone never makes a hand"


def test_deviating_probes_count_only_beside_another():
    # two far-apart deviating probes: each alone, so no hand (a speck of glare, a crumb)
    far = {probe(1, 1): 3 * T, probe(7, 7): 3 * T}
    assert check().check(ratio_with(far)).reason == ""
    # diagonal neighbours are beside each other (1.41 spacings, under the 1.5 limit)
    diagonal = {probe(3, 3): 3 * T, probe(4, 4): 3 * T}
    assert check().check(ratio_with(diagonal)).reason
    # two spacings apart is not beside
    gap = {probe(3, 4): 3 * T, probe(5, 4): 3 * T}
    assert check().check(ratio_with(gap)).reason == ""


def test_the_reason_names_the_spot_nearest_the_hand():
    near_corner = {probe(0, 1): 3 * T, probe(1, 1): 3 * T}
    assert "corner" in check().check(ratio_with(near_corner)).reason
    near_centre = {probe(4, 4): 3 * T, probe(4, 5): 3 * T}
    assert "centre" in check().check(ratio_with(near_centre)).reason


def test_a_pieces_shadow_is_forgiven_only_where_a_shadow_can_fall():
    pair = (probe(4, 4), probe(5, 4))
    shadow = ratio_with({i: -3 * T for i in pair})  # darker, same colour: a shadow
    reach = np.zeros(len(PROBES), dtype=bool)
    reach[list(pair)] = True
    assert check().check(shadow, reach).reason == "", "a standing piece's shadow is no hand"
    assert check().check(shadow, ~reach).reason, "the same darkening out of a piece's reach is"
    # brighter, or darker with the colour changed, is not a shadow even within reach
    brighter = ratio_with({i: 3 * T for i in pair})
    assert check().check(brighter, reach).reason
    tinted = ratio_with({i: -3 * T for i in pair})
    tinted[list(pair), 0] = 1.0  # the red channel unchanged: the colour moved
    assert check().check(tinted, reach).reason


def test_a_coloured_pieces_shadow_may_take_the_pieces_own_tint_and_no_other():
    """A red man's shadow is reddish (the paper there is lit by light the man throws back): with
    the standing pieces' tints (``piece_tints``) a shadow tinted along the nearest piece's own
    colour is forgiven; the same shadow beside a man of another colour, a tint against the
    piece's, or any tint without the pieces' colours, still counts."""
    from vision.occlusion import piece_tints

    pair = (probe(4, 4), probe(5, 4))
    reach = np.zeros(len(PROBES), dtype=bool)
    reach[list(pair)] = True
    reddish = ratio_with({i: -3 * T for i in pair})
    reddish[list(pair), 2] = math.exp(-T)  # BGR: red darkened a third as much as blue and green
    red, blue = np.array([-1.0, -1.0, 2.0]) / math.sqrt(6), np.array([2.0, -1.0, -1.0]) / math.sqrt(6)
    standing = np.array([True, False])
    assert check().check(reddish, reach).reason, "without the pieces' colours a tinted shadow counts"
    assert check().check(reddish, reach, np.stack([red, np.zeros(3)]), standing).reason == ""
    assert check().check(reddish, reach, np.stack([blue, np.zeros(3)]), standing).reason
    assert check().check(reddish, reach, np.stack([-red, np.zeros(3)]), standing).reason
    # a tint beside the pieces' own: a reddish shadow that also turned green is not the man's
    greener = reddish.copy()
    greener[list(pair), 1] = math.exp(2 * T)
    assert check().check(greener, reach, np.stack([red, np.zeros(3)]), standing).reason

    # the tints themselves: a red disc on grey paper points red, a white or black one nowhere,
    # an empty spot nowhere
    paper = np.full((3, 48, 48, 3), 180, np.uint8)
    paper[0, 19:30, 19:30] = (40, 40, 200)
    paper[1, 19:30, 19:30] = (30, 30, 30)
    tints = piece_tints(paper, np.array([True, True, False]))
    assert tints[0] @ red > 0.9 and np.linalg.norm(tints[0]) == pytest.approx(1.0)
    assert not tints[1].any() and not tints[2].any()


def test_a_piece_seen_over_the_probes_beside_it_is_forgiven_only_as_its_own_look():
    """Calibration knows where its pieces stand: a probe a standing piece may cover from a
    slanted camera (``covers``: that piece's look against the board) is not counted when its
    change is part of the piece's look, shaded or not, whichever way the light went (a yellow
    ring over blue cloth: lighter in red, darker in blue); a change of another colour beside it,
    or the same change with no piece covering, still counts."""
    from vision.occlusion import in_cover

    pair = (probe(4, 4), probe(5, 4))
    ring = np.array([-0.8, 0.1, 0.9])  # BGR: a yellow ring against blue cloth
    covers = np.full((len(PROBES), 3), np.nan)
    covers[list(pair)] = ring
    half = np.ones((len(PROBES), 3))
    half[list(pair)] = np.exp(0.5 * ring)  # half the probe covered by the ring
    assert check().check(half).reason, "without the covering piece it counts"
    assert check().check(half, covers=covers).reason == ""
    shaded = half.copy()
    shaded[list(pair)] *= math.exp(-2 * T)  # ... and in its shadow
    assert check().check(shaded, covers=covers).reason == ""
    green = np.ones((len(PROBES), 3))
    green[list(pair)] = np.exp([-2 * T, 4 * T, -2 * T])  # a change the ring cannot make
    assert check().check(green, covers=covers).reason
    # the rule itself, probe by probe: none of a piece, all of it, more than all of it
    d = np.array([[0.0, 0.0, 0.0], ring, 1.6 * ring, 0.5 * ring])
    w = np.array([ring, ring, ring, [np.nan] * 3])
    assert list(in_cover(d, w, np.full(3, T))) == [True, True, False, False]


def test_the_probes_a_piece_may_cover_reach_as_far_as_its_radius_and_slanted_height():
    """``covering_looks``: a probe within a standing piece's radius plus the slant times its
    height gets that piece's look (the nearest such piece's); beyond it, or beside an empty
    spot, none."""
    import engine
    from vision.families import family_for
    from vision.layouts import COVER_SLANT, cover_reach
    from vision.occlusion import covering_looks

    fam = family_for(engine.load("nine-mens-morris"))
    i, j = fam.spots.index("a1"), fam.spots.index("d1")
    reach = fam.patterns[fam.spot_kind[i]].piece_radius + COVER_SLANT * fam.heights.get(fam.spot_kind[i], 0.0)
    assert cover_reach(fam)[i] == pytest.approx(reach)
    probes = fam.xy[[i, i, j]] + np.array([[reach - 0.01, 0.0], [0.0, reach + 0.01], [0.3, 0.0]])
    standing = np.zeros(len(fam.spots), bool)
    standing[i] = True
    looks = np.zeros((len(fam.spots), 3))
    looks[i] = (0.1, 0.2, 0.3)
    got = covering_looks(probes, fam.xy, cover_reach(fam), standing, looks)
    assert np.allclose(got[0], looks[i]) and np.isnan(got[1]).all() and np.isnan(got[2]).all()


# ------------------------------------------------------------------ lines that still show
def test_a_deviation_whose_printed_lines_all_still_show_is_a_cast_shadow_not_a_hand():
    """A shadow cast from off the board (a cup, a blind) leaves the printed lines showing: a
    probe with ``LINES_LEAST`` or more measured marks within ``LINES_REACH``, none gone, is not
    counted, darker or brighter (a shadow's edge makes both). One mark gone near it (a hand's
    edge hides the lines beside it), marks the frame could not measure, too few marks, or a
    mark just beyond the reach: counted as before."""
    from vision.occlusion import LINES_LEAST, LINES_REACH

    assert LINES_LEAST == 2
    pair = (probe(4, 4), probe(5, 4))
    # marks on a line through y = 4.5: two within reach of each probe of the pair
    marks = np.array([(3.5, 4.5), (4.5, 4.5), (5.5, 4.5), (0.5, 8.0)])
    hc = HandCheck(PROBES, SPOTS, SPOT_XY, T, 2, marks)
    seen, none_gone = np.ones(4, bool), np.zeros(4, bool)
    for sign in (1, -1):
        moved = ratio_with({i: sign * 3 * T for i in pair})
        assert hc.check(moved).reason, "without the lines' word it is a hand, as before"
        assert hc.check(moved, ink_seen=seen, ink_gone=none_gone).reason == ""
        one_gone = none_gone.copy()
        one_gone[1] = True  # (4.5, 4.5): near both probes
        assert hc.check(moved, ink_seen=seen, ink_gone=one_gone).reason
        unmeasured = seen.copy()
        unmeasured[[0, 2]] = False  # each probe keeps one measured mark: too few
        assert hc.check(moved, ink_seen=unmeasured, ink_gone=none_gone).reason
    moved = ratio_with({i: -3 * T for i in pair})
    # a board without marks: the ink arguments change nothing
    assert check().check(moved, ink_seen=seen, ink_gone=none_gone).reason

    # the reach, just inside and just outside: a second mark for probe (4, 4) alone
    def one_more(distance: float) -> bool:
        probe_xy = PROBES[probe(4, 4)]
        m = np.array([probe_xy + (0.0, 0.5), probe_xy + (0.0, -distance)])
        p = HandCheck(PROBES, SPOTS, SPOT_XY, T, 2, m)
        return p.lines_show(np.ones(2, bool), np.zeros(2, bool))[probe(4, 4)]

    assert one_more(LINES_REACH * (1 - JUST))
    assert not one_more(LINES_REACH * (1 + JUST))


# ------------------------------------------------------------------ the stabiliser's limits
BOARD = Observation({"a1": Reading(Piece(1, "man"), 1.0), "b2": Reading(None, 1.0)}, "colour")
OTHER = Observation({"a1": Reading(None, 1.0), "b2": Reading(None, 1.0)}, "colour")


def sure(confidence: float) -> Observation:
    return Observation({s: Reading(r.piece, confidence) for s, r in BOARD.points.items()}, "colour")


def test_a_board_passes_exactly_at_the_window_and_not_a_little_before():
    stab = Stabiliser(window_s=0.5, min_readings=2)
    assert stab.feed(BOARD, 10.0) is None
    assert stab.feed(BOARD, 10.499) is None, "0.499 s is short of the 0.5 s window"
    assert stab.feed(BOARD, 10.5) is BOARD, "0.5 s is the window: the board has held still long enough"


def test_a_board_passes_exactly_at_min_readings_and_not_one_before():
    stab = Stabiliser(window_s=0.0, min_readings=4)
    assert [stab.feed(BOARD, t) is not None for t in (0.0, 0.1, 0.2, 0.3)] == [False, False, False, True]


def test_readings_exactly_as_sure_as_asked_count_and_a_hair_less_do_not():
    stab = Stabiliser(window_s=0.0, min_readings=2, min_confidence=0.8)
    assert stab.feed(sure(0.8), 0.0) is None
    assert stab.feed(sure(0.8), 0.1) is not None, "confidence equal to min_confidence is sure enough"
    stab = Stabiliser(window_s=0.0, min_readings=2, min_confidence=0.8)
    assert stab.feed(sure(0.79), 0.0) is None
    assert stab.feed(sure(0.79), 0.1) is None, "less sure than min_confidence counts as not seen"


def test_two_readings_at_the_same_time_are_not_time_going_backwards():
    # a reader may stamp two readings with the same clock tick; only going back is an error
    stab = Stabiliser(window_s=0.0, min_readings=2)
    assert stab.feed(BOARD, 1.0) is None
    assert stab.feed(BOARD, 1.0) is BOARD


def test_a_fresh_stabiliser_passes_the_first_settled_board_and_has_none_before():
    stab = Stabiliser(window_s=0.0, min_readings=1)
    assert stab.stable is None
    assert stab.feed(OTHER, 0.0) is OTHER and stab.stable is OTHER
    stab.reset()
    assert stab.stable is None, "reset forgets the last stable board"


def test_the_defaults_are_a_quarter_second_and_three_readings():
    stab = Stabiliser()
    assert (stab.window_s, stab.min_readings, stab.min_confidence) == (0.25, 3, 0.0)


def test_bad_settings_say_what_was_given():
    with pytest.raises(ValueError, match="window_s must be a number of seconds from 0 to 60, not -1"):
        Stabiliser(window_s=-1)
    with pytest.raises(ValueError, match="min_readings must be a whole number from 1 to .*, not 0"):
        Stabiliser(min_readings=0)
    with pytest.raises(ValueError, match="unknown reader kind 'smell'; one of colour, polarity, occupancy"):
        Stabiliser.for_reader("smell")
