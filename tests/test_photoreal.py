"""The camera reader on the stored photoreal set (Blender/Cycles renders; docs/photoreal.md).

These frames were not made by the project's simulator: printed boards as image textures on
paper or cloth, 3D pieces with gloss, area lamps and windows, tilted and turned cameras, a
hand over the board, lens distortion, sensor noise and JPEG. What must hold now: every stored
frame decodes and matches its record, no frame with a hand in it is read as a board, and every
frame of the regression sample (``SAMPLE`` in benchmarks/photoreal.py: what git's work tree
keeps, docs/photoreal.md) reads as measured. The figures measured over whole sets, and the
issue's targets per family over every set, are checked where the whole sets are in the work tree
(``make photoreal-fetch``) and skipped, saying so, where only the sample is.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

import engine
from vision.reader import BoardReader

ROOT = Path(__file__).resolve().parent.parent
# Brain Hanky on the blue cloth, dev set, as measured (test_brain_hanky_on_the_blue_cloth_...):
# point error %, frames fully right %, clear frames refused for a reason other than exposure.
BLUE_HANKY = {"point_err": 0.05, "right": 90.0, "refused": 2, "refused_other": 1}
FETCH = "`make photoreal-fetch` restores the whole sets from git history, `make bench-photoreal` reads them"


def _harness():
    """benchmarks/photoreal.py, loaded by path (benchmarks/ holds an engine.py that must not shadow engine)."""
    if "photoreal_bench" not in sys.modules:
        spec = importlib.util.spec_from_file_location("photoreal_bench", ROOT / "benchmarks" / "photoreal.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["photoreal_bench"] = mod
        spec.loader.exec_module(mod)
    return sys.modules["photoreal_bench"]


# The stored sets (PHOTOREAL_DATA points these tests at another copy, e.g. one cut to the sample).
DEV = _harness().DATA / "dev"

pytestmark = pytest.mark.skipif(not (DEV / "set.json").exists(), reason="the photoreal dev set is not stored")


@pytest.fixture(scope="module")
def meta():
    return json.loads((DEV / "set.json").read_text())


@pytest.fixture(scope="module")
def sample():
    """The dev set's regression sample read as the benchmark reads (``evaluate(..., sample=True)``):
    the same whether the whole set or only the sample is in the work tree."""
    return _harness().evaluate(DEV, sample=True)


@pytest.fixture(scope="module")
def result():
    """The whole dev set read: the figures measured over it. Where the set is cut to its sample
    (a clone: docs/photoreal.md) they cannot be judged: skip, saying how to bring it back."""
    if not _harness().load_set(DEV)["complete_here"]:
        pytest.skip(f"the photoreal dev set is cut to its regression sample: {FETCH}")
    return _harness().evaluate(DEV)


@pytest.fixture(scope="module", params=["sample", "result"], ids=["sample", "whole set"])
def read(request):
    """The sample, and the whole set where it is stored."""
    return request.getfixturevalue(request.param)


def _stored_sets():
    return [d for d in (DEV.parent / n for n in _harness().SCORED) if (d / "set.json").exists()]


@pytest.mark.parametrize("where", _stored_sets(), ids=lambda d: d.name)
def test_every_frame_decodes_and_matches_its_record(where):
    import engine

    meta = json.loads((where / "set.json").read_text())
    assert meta["frames"], "empty set"
    kinds = {}
    for rec in meta["frames"]:
        img = cv2.imread(str(where / rec["file"]), cv2.IMREAD_COLOR)
        assert img is not None, rec["file"]
        assert (img.shape[1], img.shape[0]) == tuple(rec["res"]), rec["file"]
        game = engine.load(rec["game"])
        spots = set(game.rules.spots)
        assert set(rec["position"]) <= spots, rec["file"]
        assert set(rec["covered"]) <= spots
        assert rec["hand"] or not rec["covered"]
        kinds.setdefault(rec["setup"], []).append(rec["kind"])
    for setup, ks in kinds.items():
        assert ks.count("calibration-empty") == 1 and ks.count("calibration-pieces") == 1, setup
        # a set cut to its sample may keep a setup's calibration alone (the white print's)
        assert ks.count("frame") >= 1 or "sample" in meta, setup
    # a set cut to its regression sample keeps only the setups named here, hands or not
    assert "sample" in meta or any(rec["hand"] for rec in meta["frames"]), "no hand frames"


def test_the_evaluation_runs(read, meta):
    frames = sum(1 for r in meta["frames"] if r["kind"] == "frame")
    assert read["setups"], "no setups"
    calibrated = [s for s in read["setups"].values() if s["calibrated"]]
    seen = sum(1 for f in read["frames"] if "occluded" in f)
    assert seen == sum(s["frames"] for s in calibrated) <= frames
    assert not [f for f in read["frames"] if f.get("crash")], "the reader crashed on a frame"


def _hand_frames_read(result):
    return {f["file"] for f in result["frames"] if f.get("hand") and f.get("occluded") is False}


def test_no_hand_frame_is_read_as_a_board(read):
    """Never a board read with a hand over it. (tapatan-0/f08, a finger over a7 and the corner
    marker, read as a white man until the reader checked where missing markers should be; the
    sample keeps it and ten other hand frames.)"""
    assert sum(1 for f in read["frames"] if f.get("hand")) >= 11
    seen = _hand_frames_read(read)
    assert not seen, f"frames with a hand over the board were read as a board: {sorted(seen)}"


# What the dev sample was measured to do (2026-11-28, the reader of blind26): every frame read
# as its record says, the over-exposed ones after the exposure step (these five, each read right a
# stop darker: one per HTJB game and Brain Hanky's white ring flattened into the cloth).
SAMPLE_STEPPED = {"ninemm-1/f01.jpg", "morabaraba-1/f01.jpg", "tapatan-0/f02.jpg", "saba-0/f10.jpg",
                  "bhblue-2/f08.jpg"}


def test_every_sample_frame_reads_as_its_record_says(sample):
    """The dev set's regression sample, frame by frame: every setup calibrates (but the white
    print's, next test); every clear frame is read fully right, as it is or, when the reader
    asks for a darker picture, through its twins as ``arbiter play`` steps the camera down; every
    hand frame is refused. A reader change that misreads or refuses one of them fails here, with
    the whole sets out of the work tree (the figures over them: ``test_htjb_reads_no_worse...``,
    ``make bench-photoreal``)."""
    h = _harness()
    assert {k for k, v in sample["setups"].items() if not v["calibrated"]} == {"brainhanky-0"}, \
        [(k, v["error"]) for k, v in sample["setups"].items() if not v["calibrated"]]
    wrong = {}
    for f in sample["frames"]:
        if f.get("hand"):
            if not f["occluded"]:
                wrong[f["file"]] = "a hand frame read as a board"
        elif f["occluded"] and f.get("stepped") != "right":
            wrong[f["file"]] = f"refused ({f['reason']}), " + (f"{f['stepped']} after {f['steps']} steps"
                                                            if "stepped" in f else "no darker twin read")
        elif not f["occluded"] and f["wrong"]:
            wrong[f["file"]] = f["wrong"]
    assert not wrong, wrong
    # every frame the sample names was read (its twins only through the exposure step)
    assert {f["file"] for f in sample["frames"]} == {n for n in h.sample_files("dev") if "-s" not in n}
    for name in ("HTJB", "brain-hanky (blue cloth)"):
        fam = h.pooled([sample])[name]
        assert fam["after_step"]["right"] == fam["clear"] and fam["after_step"]["refused"] == 0, (name, fam)
    # the exposure step is exercised: these frames are refused as over-exposed and read right
    # after it (a reader that reads one of them as it is should move the frame's name out)
    stepped = {f["file"] for f in sample["frames"] if f.get("stepped")}
    assert stepped == SAMPLE_STEPPED, stepped


def _stored_game_sets():
    return [d for d in (DEV.parent / n for n in _harness().GAME_SETS) if (d / "set.json").exists()]


# What each game set's setups were measured to do short of a perfect record (docs/photoreal.md):
# ``short``, steps left unclear at the game's end (game2's morabaraba: the last frame, a mill's
# removal, which four rival readings came within the 20 times the referee asks: d5 still there,
# 16 times less likely, or white's next man already on f4, e4 or d7); ``illegal``, frames called
# illegal, and ``swapped``, steps recorded in the other order: none now. game3's Brain Hanky had
# two illegal frames (a gem just placed, or beside the move, read surely as the other metal)
# until the gems' odds were made honest (unclear now), and after the first the two moves of one
# turn, seen at once, were recorded in the other order until the referee kept the order the
# doubted look had shown (``Referee._in_order_seen``).
GAME_MEASURED = {"game2": {"morabaraba-0": {"short": 1}}, "game3": {"bhblue-0": {"misread": 1}}}


@pytest.mark.parametrize("where", _stored_game_sets(), ids=lambda d: d.name)
def test_whole_photoreal_games_through_the_referee_accept_no_wrong_step(where):
    """The issue's "through the referee, over whole simulated games rendered photoreal: no wrong
    step ever accepted": each game set's frames in order through the real ``Referee``. After
    every frame the referee's game (position and player to move) is the true game's after as
    many steps; no step is accepted that is not the true one, no frame is called illegal, and
    each game is followed to its end, but for what was measured (``GAME_MEASURED``). Measured
    2026-11-26: ``game``: tapatan 15 of 15, nine men's morris 14 of 14, Brain Hanky 16 of 16;
    ``game2`` and ``game3``, each rendered after the reader was frozen and played once:
    morabaraba 23 of 24 (its last step unclear), saba 16 of 16, Brain Hanky 30 of 30; nine men's
    morris 30 of 30, tapatan 17 of 17, Brain Hanky 40 of 40. Two Brain Hanky frames with a gem
    read surely as the other metal were called illegal until the reader's odds for gems named by
    their groups were made honest (``classify.split_doubt``) and the referee let such a doubt
    stop an illegal call (``Referee._doubted``): now they are unclear, naming that gem, no frame
    is illegal, and the turn seen whole after one is recorded in the order it was made.
    ``game4``, rendered after that: Brain Hanky 24 of 24, no frame unclear."""
    res = _harness().evaluate_game(where)
    assert res["games"], "no game setups"
    for name, g in res["games"].items():
        known = GAME_MEASURED.get(where.name, {}).get(name, {})
        assert not g["calibration_error"], (name, g["calibration_error"])
        assert g["wrong_state_frames"] == 0, (name, g["events"])
        assert g["wrong_accepted"] <= known.get("swapped", 0), (name, g["events"])
        assert g["illegal_frames"] <= known.get("illegal", 0), (name, g["events"])
        # frames with a spot read wrong, each named in the events (measured 2026-12-07: one of
        # game3's Brain Hanky frames, a gem the referee held unclear until a clearer look)
        assert g["misread_frames"] <= known.get("misread", 0), (name, g["events"])
        assert sum(": read " in e for e in g["events"]) == g["misread_frames"], g["events"]
        assert g["final_history"] >= g["true_steps"] - known.get("short", 0), (name, g["final_history"], g["true_steps"])
        if g["final_history"] < g["true_steps"]:
            assert g["unclear_frames"] >= g["true_steps"] - g["final_history"], (name, g["kinds"])


def test_htjb_reads_no_worse_than_measured(result):
    """The HTJB games on the dev set read at least as well as this reader was measured to
    (2026-11-26, with the full-HD setup and the frame's ink curve: 0.068% of points wrong, 90.2%
    of clear frames fully right, 8.5% refused, all as over-exposed; before the ink curve 0.14%
    and 86.6%; the reader before issue 11 got 10.4%, 51% and 16%): a change that makes the
    reader worse on real-looking frames fails here, not only on the simulator."""
    games = [g for name, g in result["games"].items() if not name.startswith("brain-hanky")]
    read = sum(g["spots_read"] for g in games)
    wrong = sum(g["spots_wrong"] for g in games)
    clear = sum(g["clear"] for g in games)
    right = sum(g["right"] for g in games)
    refused = sum(g["refused"] for g in games)
    assert 100.0 * wrong / read <= 0.1, (wrong, read)
    assert 100.0 * right / clear >= 89.0, (right, clear)
    assert 100.0 * refused / clear <= 10.0, (refused, clear)


def test_brain_hanky_on_the_blue_cloth_reads_no_worse_than_measured(result):
    """Brain Hanky printed on the blue cloth (``arbiter print-board``'s default), 1920x1080:
    calibrated in every setup, and read at least as well as measured once the reader predicted
    light rings through the camera's tone curve rather than refusing every frame that would show
    them past white (2026-11-26, dev: 0.018% of points wrong, 87.1% of 31 clear frames fully
    right, 2 refused, where refusing cost 9; later 0.009%, 93.5% and 1 refused, with a lone gem
    unlike every look read rather than refused; docs/photoreal.md). On the white print no setup
    calibrates at all (the next test)."""
    g = result["games"].get("brain-hanky (blue cloth)")
    assert g is not None and g["setups"] >= 2, sorted(result["games"])
    assert g["calibrated"] == g["setups"], [(k, v["error"]) for k, v in result["setups"].items()
                                           if v["game"] == "brain-hanky" and not v["calibrated"]]
    assert g["hand_read"] == 0
    assert g["point_err"] is not None and g["point_err"] <= BLUE_HANKY["point_err"], g
    assert g["right_pct"] >= BLUE_HANKY["right"], g
    assert g["refused"] <= BLUE_HANKY["refused"], g["refused_reasons"]
    over = sum(n for why, n in g["refused_reasons"].items() if "over-exposed" in why)
    assert g["refused"] - over <= BLUE_HANKY["refused_other"], g["refused_reasons"]


def test_over_exposed_frames_have_their_darker_twins(meta):
    """Every clear frame at +0.4 EV or more, and every darker one whose board the picture shows
    5% clipped white or more, has its twins one and two stops darker (what the camera shows
    once ``arbiter play`` has stepped it down); twins are chosen by exposure or by the clipped
    share only. Holds for the set cut to its sample too: it keeps its frames' twins."""
    clear = [r for r in meta["frames"] if r["kind"] == "frame" and not r["hand"]]
    for k, bright in enumerate((0.4, 0.4), start=1):
        stepped = [r for r in meta["frames"] if r["kind"] == "frame-stepped" and r["file"].endswith(f"-s{k}.jpg")]
        twins = {r["file"][:-4].rsplit("-s", 1)[0] for r in stepped if "blown" not in r and "asked" not in r}
        want = {r["file"][:-4] for r in clear if r["exposure"] >= bright}
        assert want and want == twins, k
        # and the darker frames' twins chosen by how much of their board the picture clips
        # (make_set.BLOWN), from the picture alone
        blown = [r for r in stepped if "blown" in r]
        assert all(r["blown"] >= 0.05 and r["exposure"] < bright - k for r in blown), blown


def test_one_exposure_step_reads_most_over_exposed_frames(result):
    """With the twins read in place of the frames refused as over-exposed, the whole dev set
    reads as measured (see docs/photoreal.md)."""
    t = result["totals"]
    after = t["after_step"]
    assert t["no_step"] == 0 and after["stepped"] >= 6, (t["no_step"], after)
    # measured 2026-11-26: 8 frames stepped (16 before light rings were read through the tone
    # curve), refusals from 11 to 3, fully right 86.7% -> 92.9%; later, with the frame's ink
    # curve, the lone gem read and the twins of frames clipped at any exposure: 98.2%, none refused
    assert after["refused"] <= 1 and after["right_pct"] >= 97.0, after
    assert after["point_err"] <= 0.1, after


def test_brain_hanky_on_the_white_print_says_to_print_the_blue_cloth():
    """On the white print a white ring differs from the cloth by its rim's shading only, which
    calibration will not trust: the message names the fix, the blue cloth."""
    photoreal = _harness()
    meta = photoreal.load_set(DEV)
    s = photoreal.setups(meta)["brainhanky-0"]
    import engine

    cal, err = photoreal.calibrate_setup(meta["dir"], engine.load(s["game"]), s)
    assert cal is None
    assert "white ring on" in err and "looks like the empty board there" in err, err
    assert "arbiter print-board brain-hanky" in err, err


def test_the_learned_reader_refuses_the_white_print_too_saying_why():
    """The learned reader read the white print's rings at 1.9% of points wrong and 19% of frames
    right on the dev set (docs/learned-reader.md): its calibration refuses rings the colour of the
    cloth, names the colour difference and the blue cloth; the blue cloth's calibrates."""
    photoreal = _harness()
    meta = photoreal.load_set(DEV)
    import engine

    got = {}
    for name in ("brainhanky-0", "bhblue-2"):
        s = photoreal.setups(meta)[name]
        got[name] = photoreal.calibrate_setup(meta["dir"], engine.load(s["game"]), s, classifier="learned")
    cal, err = got["brainhanky-0"]
    assert cal is None
    assert "the white ring is the colour of the board under it (colour difference 0.0" in err, err
    assert "arbiter print-board brain-hanky" in err, err
    cal, err = got["bhblue-2"]
    assert cal is not None, err


def _missing_scored_sets():
    """Scored sets not whole in the work tree: absent, or cut to a regression sample (their
    set.json's ``sample``: the setups the tests here name, and no other)."""
    h = _harness()
    return [n for n in h.SCORED if not (DEV.parent / n / "set.json").exists()
            or not h.load_set(DEV.parent / n).get("complete_here", True)]


@pytest.fixture(scope="module")
def every_set():
    """Every scored set read with today's reader, pooled per family after the exposure steps:
    the figures the issue's targets are judged on (``benchmarks/photoreal.py`` prints them).
    The targets were set over all of them, so with some sets out of the work tree (a fresh
    clone keeps a few; docs/photoreal.md) the pooled figures would judge a different sample:
    skip, and say how to bring the sets back."""
    missing = _missing_scored_sets()
    if missing:
        pytest.skip(f"{len(missing)} of the {len(_harness().SCORED)} scored photoreal sets are not in the "
                    f"work tree ({', '.join(missing)}): `make photoreal-fetch` restores them from git history, "
                    "`make photoreal` renders them again")
    h = _harness()
    return h.pooled([h.evaluate(d) for d in _stored_sets()])


@pytest.mark.parametrize("family", ["HTJB", "brain-hanky (blue cloth)"])
def test_the_issue_targets(every_set, family):
    """The issue's targets per family over every stored set, after the exposure steps: point
    error at most 0.05%, 99% of clear frames fully right, under 1% refused, no hand frame read.
    Measured 2026-11-27: HTJB 0.022%, 99.6% of 482, none refused, 0/101; Brain Hanky on the
    blue cloth 0.003%, 99.1% (692 of 698, where 99% asks 692), none refused, 0/121. Brain Hanky
    holds it by no frame to spare: one more frame misread fails it. As first read blind, the
    resting-piece sets' Brain Hanky frames were about 96% right (docs/photoreal.md)."""
    photoreal = _harness()
    t = every_set[family]
    a = t["after_step"]
    assert t["clear"] > 0 and t["sets"] >= 2, t
    assert t["hand_read"] == 0, t
    assert a["point_err"] <= photoreal.TARGET_POINT_ERR, a
    assert a["right_pct"] >= photoreal.TARGET_RIGHT, a
    assert a["refused_pct"] < photoreal.TARGET_REFUSED, a


# Frames of the blind sets a reader change put right, each read again here: the change breaking
# fails on the frame it was made for (docs/photoreal.md says what each showed).
ONCE_MISREAD = [
    # a bright empty square counted among the gems widened the silver group over a gold gem
    ("blind3", "bhblue-1/f08.jpg"),
    # three gems, too few to split, under a lamp warmer than calibration's: the white rings'
    # tint ranks the gold gem gold (``Pattern.lamp_from``)
    ("blind7", "bhblue-1/f07.jpg"),
    # a silver gem mirroring the yellow rings round it, between the groups and nearer silver: the
    # wide gold group took it until each group's spread was drawn towards the pooled one
    # (``classify.SPREAD_PRIOR``); the second a stop darker (the twin ``arbiter play`` reads)
    ("blind", "bhblue-0/f08.jpg"),
    ("blind8", "bhblue-1/f07-s1.jpg"),
    # a window pales the yellow rings: two clean groups whose means lie 0.48 of the looks'
    # difference apart, split since ``classify.SPLIT_GAP`` is 0.45
    ("blind11", "bhblue-3/f01.jpg"),
    # a silver gem by the cloth's edge, as far from the empty look as from silver's, read empty
    # after the second look: it joins its group by the darkness of its facets
    # (``classify.odd_in_group``)
    ("blind11", "bhblue-2/f04.jpg"),
    # nine of eleven silver gems read empty and unlike the empty squares, outnumbering the group
    # of three the pieces read as such made with a gold gem leaning cool: the split counting the
    # nine names every gem (``classify.split_pieces``)
    ("blind13", "bhblue-1/f07.jpg"),
    # two and three gems, too few to group, silver by their hue and read gold by the looks in the
    # white rings' tint: named by the hue (``classify.named_by_hue``)
    ("blind16", "bhblue-0/f05.jpg"),
    ("blind16", "bhblue-0/f08.jpg"),
    # a warm lamp moved the gold gems far from their look (median 0.26) and not the silver
    # (0.09): two gold gems at 0.31-0.32 passed twice the frame's median piece and the frame was
    # refused as "something unexpected"; against their own group they are not odd
    # (``reader.odd_limits``)
    ("blind16", "bhblue-1/f07.jpg"),
    # empty squares under a lamp's sheen or on a fold lit anew, nearer silver's look than the
    # empty one: they show the printed square under them, only shaded (``classify.print_shown``)
    ("blind6", "bhblue-0/f05.jpg"),
    ("blind12", "bhblue-2/f04.jpg"),
    ("blind14", "bhblue-0/f04.jpg"),
    # rings as near the empty look as their own, hiding the print under them: a yellow ring a
    # stop and a half dark, rings sunk into a fold (``classify.print_hidden``)
    ("blind16", "bhblue-0/f01-s1.jpg"),
    ("blind5", "bhblue-0/f02.jpg"),
    ("blind6", "bhblue-1/f04.jpg"),
    ("blind7", "bhblue-1/f05-s1.jpg"),
    # silver gems washed out at +0.8 to +1.1 EV, read empty though they stray from the square's
    # print nine to fifteen times as far as its empty squares (``Pattern.print_far``)
    ("blind18", "bhblue-0/f05.jpg"),
    ("blind18", "bhblue-0/f08.jpg"),
    # gold gems between the groups, nearer the silver group's edge than the gold group's (one
    # mirroring the lamp over its top, three a window): the gold group is expected to spread
    # twice as wide as the silver one (``Pattern.split_wide``)
    ("blind13", "bhblue-1/f01.jpg"),
    ("blind15", "bhblue-1/f02.jpg"),
    ("blind20", "bhblue-3/f07.jpg"),
    ("blind22", "bhblue-1/f02.jpg"),
    # three gems under a 3030 K lamp, too few to group: the gold one at 0.69 of the way from
    # silver's look to gold's, left to the looks in the rings' tint and read silver, is named by
    # its hue (``classify.HUE_SURE``)
    ("blind23", "bhblue-2/f07.jpg"),
    # silver gems between the groups (one mirroring the yellow rings round it, one the farthest
    # any silver gem of the sets strays), put with the gold group until the groups were told by
    # samples taken unblurred (``Pattern.sharp``); the third is the twin a stop darker that
    # ``arbiter play`` reads
    ("blind8", "bhblue-0/f05.jpg"),
    ("blind14", "bhblue-3/f02.jpg"),
    ("blind17", "bhblue-2/f08-s1.jpg"),
]


def _read_stored(set_name: str, file: str):
    """(the frame's record, its observation): one stored frame read by a reader calibrated on its
    setup's two pictures, as the benchmark does; skipped when the set is not stored."""
    where = DEV.parent / set_name
    if not (where / "set.json").exists():
        pytest.skip(f"the photoreal set {set_name} is not stored")
    h = _harness()
    meta = h.load_set(where)
    rec = next(r for r in meta["frames"] if r["file"] == file)
    s = h.setups(meta)[rec["setup"]]
    cal, err = h.calibrate_setup(meta["dir"], engine.load(s["game"]), s)
    assert cal is not None, err
    return rec, BoardReader(cal).read(h.load_image(meta["dir"], rec))


@pytest.mark.parametrize("set_name,file", ONCE_MISREAD, ids=lambda v: str(v))
def test_frames_once_misread_read_right(set_name, file):
    rec, obs = _read_stored(set_name, file)
    assert not obs.occluded, obs.reason
    want = _harness().truth(rec)
    wrong = {spot: (want.get(spot), r.piece) for spot, r in obs.points.items() if r.piece != want.get(spot)}
    assert not wrong, wrong


# Hand frames of the blind sets once read as a board, each read again here (docs/photoreal.md).
ONCE_READ_HANDS = [
    # a pale arm over 18 of morabaraba's 24 points, changing every probe's light alike: read as
    # light wooden men on all of them until the board's hidden lines refused it
    ("blind8", "morabaraba-0/f10.jpg"),
]


@pytest.mark.parametrize("set_name,file", ONCE_READ_HANDS, ids=lambda v: str(v))
def test_hand_frames_once_read_are_refused(set_name, file):
    rec, obs = _read_stored(set_name, file)
    assert rec["hand"] and rec["covered"]
    assert obs.occluded and obs.points == {}, "a hand frame was read as a board"


def test_every_frame_the_tests_name_is_in_the_regression_sample():
    """The frames read above one by one stay in git's work tree when the sets are cut to the
    sample (``SAMPLE``, benchmarks/photoreal_sample.py): a frame named here and not there would
    turn its test into a skip in every clone."""
    h = _harness()
    outside = [(s, f) for s, f in ONCE_MISREAD + ONCE_READ_HANDS if f not in h.sample_files(s)]
    assert not outside, f"add these to SAMPLE in benchmarks/photoreal.py: {outside}"


def _scene_module():
    """benchmarks/photoreal/scene.py without Blender: its surface and resting arithmetic is plain
    Python; the Blender modules it imports are stood in for by empty ones."""
    import types

    stubs = {n: types.ModuleType(n) for n in ("bpy", "bmesh", "bpy_extras", "bpy_extras.object_utils", "mathutils")}
    stubs["bpy_extras.object_utils"].world_to_camera_view = None
    for name in ("Euler", "Matrix", "Vector"):
        setattr(stubs["mathutils"], name, None)
    saved = {n: sys.modules.get(n) for n in stubs}
    sys.modules.update(stubs)
    try:
        spec = importlib.util.spec_from_file_location("photoreal_scene", ROOT / "benchmarks" / "photoreal" / "scene.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        for n, m in saved.items():
            if m is None:
                sys.modules.pop(n, None)
            else:
                sys.modules[n] = m
    return mod


def test_a_piece_rests_on_a_fold_instead_of_sinking_into_it():
    """The renderer tilts a piece to the slope under its centre; a fold narrower than the piece
    would rise through one side of it (blind6's yellow ring, 3.6 mm in). ``rest_lift`` is how far
    it must rise to lie on the fold's crest: the fold's height above the tilted plane, nothing
    on flat or evenly sloping cloth."""
    scene = _scene_module()
    ring = {"shape": "ring", "size": [0.0095, 0.003]}
    assert abs(scene.footprint(ring) - 0.0125) < 1e-12
    flat = {"base": 0.001, "waves": [], "folds": []}
    assert scene.rest_lift(flat, 0.0, 0.0, 0.0, 0.0, 0.0125) == 0.0
    # a 3 mm fold, 6 mm wide, its crest 10 mm from the ring's centre along x
    fold = {"base": 0.001, "waves": [], "folds": [[0.003, 0.010, 0.0, 1.0, 0.0, 0.006]]}
    e = 0.004
    gx = (scene.surface_z(fold, e, 0.0) - scene.surface_z(fold, -e, 0.0)) / (2 * e)
    lift = scene.rest_lift(fold, 0.0, 0.0, gx, 0.0, 0.0125)
    z0 = scene.surface_z(fold, 0.0, 0.0)
    assert 0.0015 < lift < 0.003
    assert abs(lift - (scene.surface_z(fold, 0.010, 0.0) - (z0 + gx * 0.010))) < 2e-4


def _make_set_module():
    """benchmarks/photoreal/make_set.py, loaded by path (plain Python until it runs Blender)."""
    if "photoreal_make_set" not in sys.modules:
        spec = importlib.util.spec_from_file_location("photoreal_make_set",
                                                      ROOT / "benchmarks" / "photoreal" / "make_set.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["photoreal_make_set"] = mod
        spec.loader.exec_module(mod)
    return sys.modules["photoreal_make_set"]


def test_twins_are_rendered_for_the_frames_a_reader_asked_to_step_down():
    """``make_set.py --twins`` renders a stored clear frame again one and two stops darker, as
    the camera shows it after ``arbiter play`` has stepped it down; only for frames that have no
    twins yet, and never for a hand frame or a name the set does not hold."""
    ms = _make_set_module()

    def frame(name, exposure, hand=None):
        return {"kind": "frame", "name": name, "out": f"/w/{name}", "exposure": exposure, "seed": 7,
                "hand": hand, "setup": name.split("/")[0]}

    frames = [frame("bh-0/f01", 0.1), frame("bh-0/f02", 0.2), frame("bh-0/f03", -0.3, hand={"x": 0})]
    stored = [{"kind": "frame", "file": f["name"] + ".jpg", "hand": f["hand"], "setup": f["setup"]} for f in frames]
    stored.append({"kind": "frame-stepped", "file": "bh-0/f02-s1.jpg", "stepped_from": "bh-0/f02", "hand": None,
                   "setup": "bh-0"})
    twins = ms.asked_twins(frames, stored, {"bh-0/f01.jpg", "bh-0/f02"})
    assert [t["name"] for t in twins] == ["bh-0/f01-s1", "bh-0/f01-s2"]
    assert [t["stepped_from"] for t in twins] == ["bh-0/f01", "bh-0/f01-s1"]
    assert [t["exposure"] for t in twins] == pytest.approx([-0.9, -1.9])
    assert all(t["asked"] and t["kind"] == "frame-stepped" for t in twins)
    for bad in ("bh-0/f03", "bh-0/f09"):  # a hand frame; a frame the set does not hold
        with pytest.raises(SystemExit, match=bad):
            ms.asked_twins(frames, stored, {bad})


def test_full_set_pictures_are_added_to_the_stored_setups_that_lack_them(tmp_path):
    """``make_set.py GAMESET --full-set`` renders only the full-set calibration pictures a stored
    game set lacks (it was rendered before they were drawn), for the setups it holds: none for a
    setup the set was cut without (a regression sample), none twice."""
    ms = _make_set_module()
    _boards, frames = ms.make_specs("game3", tmp_path)
    setups = sorted({f["setup"] for f in frames})
    assert len(setups) == 3
    stored = [{"kind": f["kind"], "setup": f["setup"], "file": f["name"] + ".jpg"} for f in frames
              if f["kind"] != "calibration-full" and f["setup"] != setups[0]]
    stored.append({"kind": "calibration-full", "setup": setups[1], "file": f"{setups[1]}/calibration-full.jpg"})
    todo = ms.missing_full_sets(frames, stored)
    assert [(f["setup"], f["kind"]) for f in todo] == [(setups[2], "calibration-full")]
    assert ms.missing_full_sets(frames, stored + [{**stored[-1], "setup": setups[2]}]) == []


def test_game_sets_are_whole_games_one_step_a_frame(tmp_path):
    """A game set (``play``) renders a game in order, one legal step a frame, so that the referee
    can be played through it: each frame's position is the game's after its steps; last, the full
    set (``calibration_layout(full=True)``) under the calibration's camera and lamp, from which the
    learned reader is calibrated as docs/calibration.md tells its user. The stored ``game`` set is
    planned today exactly as it was rendered (the same steps, frame for frame)."""
    from vision.calibration import calibration_layout

    ms = _make_set_module()
    games = [n for n, conf in ms.SETS.items() if conf.get("play")]
    assert {"game", "game2", "game3"} <= set(games), games
    for name in games:
        _boards, frames = ms.make_specs(name, tmp_path)
        by_setup: dict[str, list] = {}
        for f in frames:
            by_setup.setdefault(f["setup"], []).append(f)
        for setup, fs in by_setup.items():
            assert [f["kind"] for f in fs[:2]] == ["calibration-empty", "calibration-pieces"], setup
            game = engine.load(fs[0]["game"])
            full = fs[-1]
            assert full["kind"] == "calibration-full", setup
            assert full["position"] == ms.as_truth(calibration_layout(game, full=True)[0]), setup
            assert all(full[k] == fs[1][k] for k in ("camera", "lamp", "world", "exposure")), setup
            s = game.new()
            for i, f in enumerate(fs[2:-1]):
                assert f["kind"] == "frame" and f["hand"] is None and len(f["steps"]) == i + 1, (setup, i)
                step = next((st for st in s.legal_steps() if str(st) == f["step"]), None)
                assert step is not None, (setup, i, f["step"])
                s = s.play(step)
                assert f["position"] == ms.as_truth(s.position()), (setup, i)
    stored = DEV.parent / "game" / "set.json"
    if stored.exists():
        _boards, frames = ms.make_specs("game", tmp_path)
        rendered = [r for r in json.loads(stored.read_text())["frames"] if r["kind"] == "frame"]
        # a set cut to its sample keeps whole setups (its games from the first step): those
        kept = {r["setup"] for r in rendered}
        planned = [f for f in frames if f["kind"] == "frame" and f["setup"] in kept]
        assert [(r["setup"], r["step"]) for r in rendered] == [(f["setup"], f["step"]) for f in planned]


def test_make_set_prints_its_help(capsys):
    """``make_set.py --help`` is how a newcomer learns the re-render options: it must print them
    (a bare ``%`` in one help text once made argparse crash on it)."""
    ms = _make_set_module()
    with pytest.raises(SystemExit) as done:
        ms.main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for option in ("--twins", "--blown", "--setups", "--stepped", "--full-set"):
        assert option in out


def test_the_sets_are_pooled_per_family_after_the_exposure_steps():
    """``benchmarks/photoreal.py`` over several sets ends with every set's counts added up per
    family (HTJB games together, Brain Hanky's cloth on its own), after the exposure steps, each
    figure marked against the issue's targets: the numbers a closing note gives."""
    h = _harness()

    def game(clear, right, refused=0, stepped=0, stepped_right=0, spots=100, wrong=0, hand=2, hand_read=0):
        return {"spots_read": spots, "spots_wrong": wrong, "clear": clear, "right": right, "refused": refused,
                "hand": hand, "hand_read": hand_read, "stepped": stepped, "stepped_right": stepped_right,
                "stepped_refused": 0, "stepped_spots": 10 * stepped, "stepped_wrong": 0, "no_step": 0}

    a = {"set": "a", "games": {"nine-mens-morris": game(10, 9, refused=1, stepped=1, stepped_right=1),
                               "tapatan": game(10, 10), "brain-hanky (blue cloth)": game(20, 19, wrong=1)}}
    b = {"set": "b", "games": {"brain-hanky (blue cloth)": game(30, 30, hand_read=1)}}
    pool = h.pooled([a, b])
    assert set(pool) == {"HTJB", "brain-hanky (blue cloth)"}
    htjb, bh = pool["HTJB"], pool["brain-hanky (blue cloth)"]
    assert (htjb["sets"], htjb["clear"], htjb["after_step"]["right"]) == (1, 20, 20)
    assert htjb["after_step"]["refused"] == 0 and htjb["after_step"]["right_pct"] == 100.0
    assert (bh["sets"], bh["clear"], bh["after_step"]["right"], bh["hand_read"]) == (2, 50, 49, 1)
    assert bh["after_step"]["point_err"] == pytest.approx(0.5)  # 1 of 200 points
    text = h.pooled_table(pool)
    htjb_line = next(ln for ln in text.splitlines() if ln.strip().startswith("HTJB"))
    bh_line = next(ln for ln in text.splitlines() if ln.strip().startswith("brain-hanky"))
    assert "MISSES" not in htjb_line and "100.0% (20)" in htjb_line
    # 0.5% of points wrong, 98% right and a hand read: three targets missed, refusals met
    assert bh_line.count("MISSES") == 3 and "98.0% (49)" in bh_line


def test_spots_left_unread_are_neither_read_nor_right_and_are_said():
    """A spot the reader gives as unread (beside a corner marker a cup covers) is not scored as a
    reading, right or wrong; its frame is not counted fully right; and the pooled table says how
    many there were."""
    from engine.core import Piece
    from engine.observation import Observation, Reading

    h = _harness()
    man = Piece(0, "man")
    want = {"a7": man, "d7": None, "g7": man}
    g = {"stepped": 0, "stepped_spots": 0, "stepped_wrong": 0, "stepped_right": 0, "stepped_refused": 0}
    part = Observation({"a7": Reading.unknown("something covers the corner marker"), "d7": Reading(None, 1.0),
                        "g7": Reading(man, 1.0)})
    assert h._score_step(g, part, want) == "in part"
    assert (g["stepped_spots"], g["stepped_wrong"], g["stepped_right"]) == (2, 0, 0)
    whole = Observation({"a7": Reading(man, 1.0), "d7": Reading(None, 1.0), "g7": Reading(man, 1.0)})
    assert h._score_step(g, whole, want) == "right" and g["stepped_right"] == 1
    counts = {k: 0 for k in h.COUNTS} | {"clear": 4, "right": 3, "spots_read": 40, "spots_unread": 1,
                                         "partial": 1, "hand": 1, "hand_unread": 1}
    text = h.pooled_table(h.pooled([{"set": "s", "games": {"nine-mens-morris": counts}}]))
    assert "left unread beside a covered corner marker: 1 spots" in text and "1 frames with a cup" in text


# ---------------------------------------------------------------------------- issue 33's pieces
def _placed(frame):
    """{spot: (x, y, radius)} of a frame's pieces as ``scene.py`` will stand them (metres)."""
    return {p["spot"]: (p["x"], p["y"], p["size"][0]) for p in frame["pieces"]}


@pytest.fixture(scope="module")
def new_sets(tmp_path_factory):
    ms = _make_set_module()
    work = tmp_path_factory.mktemp("newpieces")
    return {name: ms.make_specs(name, work) for name in ms.NEW_PIECES}


def test_peg_coin_and_bead_profiles_are_closed_and_as_drawn():
    """A Brainmaster peg is a cylinder with a rounded top: its lathe profile starts at the foot's
    centre and ends at the top's, reaches its radius and height and no further, and narrows
    only as it rises through the rounded top. The token's coin and bead likewise."""
    ms = _make_set_module()
    for r, h, dome in ((0.005, 0.0065, 0.004), (0.0018, 0.0035, 0.0016)):
        prof = ms.peg_profile(r, h, dome)
        assert prof[0] == [0.0, 0.0] and prof[-1] == [0.0, h]
        assert max(p[0] for p in prof) == pytest.approx(r) and max(p[1] for p in prof) == pytest.approx(h)
        zs = [p[1] for p in prof]
        assert zs == sorted(zs), "a peg's profile must rise from foot to top"
        top = [p for p in prof if p[1] >= h - dome - 1e-12]
        assert [p[0] for p in top] == sorted((p[0] for p in top), reverse=True), "the top must round inwards"
        # the straight side stands up to where the rounding begins
        assert any(p == pytest.approx([r, h - dome]) for p in prof)
    with pytest.raises(ValueError, match="rounded top"):
        ms.peg_profile(0.002, 0.003, 0.0025)  # a dome wider than the peg
    coin, bead = ms.coin_profile(0.0037, 0.0013), ms.bead_profile(0.0037, 0.0055)
    for prof, r, h in ((coin, 0.0037, 0.0013), (bead, 0.0037, 0.0055)):
        assert prof[0] == [0.0, 0.0] and prof[-1][0] == 0.0
        assert max(p[0] for p in prof) == pytest.approx(r, rel=0.01)
        assert max(p[1] for p in prof) == pytest.approx(h)
    assert bead[-1][1] == pytest.approx(0.0055) and bead[1][1] == 0.0


def test_new_piece_sets_are_seeded_apart_and_whole(new_sets, tmp_path):
    """The sets of issue 33's pieces (twin-grids' gems, Thinking In Circles' tokens,
    Brainmaster's pegs) each draw from a seed no other set uses, hold two setups of one game,
    each its calibration pictures then seven frames at 1280x720, with exposure twins; the same
    seed plans the same frames again."""
    ms = _make_set_module()
    seeds = [conf["seed"] for conf in ms.SETS.values()]
    assert len(seeds) == len(set(seeds))
    games = {"twingrids": "twin-grids", "circles": "thinking-in-circles", "pegs": "brainmaster"}
    assert set(ms.NEW_PIECES) == set(games)
    for name, (boards, frames) in new_sets.items():
        assert {f["game"] for f in frames} == {games[name]} and len(boards) == 2
        for setup in boards:
            fs = [f for f in frames if f["setup"] == setup]
            assert [f["kind"] for f in fs[:2]] == ["calibration-empty", "calibration-pieces"]
            assert sum(f["kind"] == "frame" for f in fs) == 7
            assert all(f["res"] == [1280, 720] for f in fs)
        assert any(f["kind"] == "frame-stepped" for f in frames)
    again = ms.make_specs("pegs", tmp_path)[1]
    assert [f["position"] for f in again] == [f["position"] for f in new_sets["pegs"][1]]


def test_new_pieces_stand_on_their_own_spots_apart(new_sets):
    """Every piece stands on a spot of its kind, near its centre (within its jitter), and clear
    of every other piece: gems on their own grid's points, one token on each track, code pegs in
    code holes and indicator pegs in indicator holes, no two overlapping."""
    for name, (_boards, frames) in new_sets.items():
        game = engine.load(frames[0]["game"])
        for f in frames:
            looks = f["looks"]
            for spot, (owner, kind) in f["position"].items():
                assert game.rules.kind_at(spot) == kind, (f["name"], spot)
                assert f"{owner}/{kind}" in looks, (f["name"], spot)
            for p in f["pieces"]:
                spot = p["spot"]
                look = looks["/".join(map(str, f["position"][spot]))]
                x, y = _boards[f["board"]]["spots"][spot]
                assert abs(p["x"] - x) <= 2 * look["jitter"] + 1e-12 and abs(p["y"] - y) <= 2 * look["jitter"] + 1e-12
                assert p["shape"] == look["shape"] and p.get("profile") == look.get("profile")
            placed = list(_placed(f).values())
            for i, (x1, y1, r1) in enumerate(placed):
                for x2, y2, r2 in placed[i + 1:]:
                    assert math.hypot(x1 - x2, y1 - y2) > r1 + r2, (f["name"], "pieces overlap")


def test_new_pieces_positions_come_from_legal_play(new_sets):
    """The frames show positions legal play reaches: red gems on red points and blue on blue,
    at most the set-up's eleven each; one token on each of the five tracks; Brainmaster's rows
    filled from row 1 up, each guessed row's four code pegs whole, its indicator pegs black
    before white and no more than four, the rows past the last guess empty."""
    from engine.boards.brainmaster import brainmaster_for

    for name, (_boards, frames) in new_sets.items():
        game = engine.load(frames[0]["game"])
        for f in (f for f in frames if f["kind"] in ("frame", "frame-stepped")):
            pos = f["position"]
            if name == "twingrids":
                for spot, (owner, _kind) in pos.items():
                    assert spot.startswith("r:" if owner == 1 else "b:"), (f["name"], spot)
                assert all(sum(o == side for o, _k in pos.values()) <= 11 for side in (1, 2))
            elif name == "circles":
                assert sorted(s.split(".")[0] for s in pos) == ["c1", "c2", "c3", "c4", "c5"], f["name"]
                assert all(v == [1, "token"] for v in pos.values())
            else:
                geo = brainmaster_for(game.board)
                guessed = [row for row in range(1, geo.rows + 1) if any(s in pos for s in geo.row_spots(row))]
                assert guessed == list(range(1, len(guessed) + 1)), f["name"]
                for row in guessed:
                    assert all(s in pos for s in geo.row_spots(row)), (f["name"], row)
                    keys = [pos[s][0] for s in geo.key_spots(row) if s in pos]
                    assert keys == sorted(keys), (f["name"], row, "black indicator pegs first")
                    assert [s for s in geo.key_spots(row) if s in pos] == list(geo.key_spots(row))[:len(keys)]
                for row in range(len(guessed) + 1, geo.rows + 1):
                    assert not any(s in pos for s in geo.key_spots(row))
    # and the positions differ from frame to frame: play moved on between them
    for name, (_boards, frames) in new_sets.items():
        shown = {json.dumps(f["position"], sort_keys=True) for f in frames if f["kind"] == "frame"}
        assert len(shown) >= 10, name


def test_new_pieces_calibration_shows_every_piece_class_in_play(new_sets):
    """The calibration-pieces picture of each new set shows every class legal play can put
    down, and only those: both gem colours; the token; each of the five code colours and both
    indicator colours (Brainmaster has no red indicator peg or black code peg). Each setup's
    looks are drawn for exactly those classes."""
    ms = _make_set_module()
    for name, (_boards, frames) in new_sets.items():
        game = engine.load(frames[0]["game"])
        in_play = {f"{o}/{k}" for o in range(1, game.rules.colours + 1) for k in game.rules.piece_kinds
                   if ms.in_play(game, o, k)}
        for cal in (f for f in frames if f["kind"] == "calibration-pieces"):
            shown = {f"{o}/{k}" for o, k in cal["position"].values()}
            assert shown == in_play == set(cal["looks"]), (name, shown, in_play)
    pegs = new_sets["pegs"][1][1]["position"]
    assert {k for k in pegs if "k" in k[1:]} == {f"r{r}k{i}" for r in (1, 2, 3) for i in (1, 2, 3, 4)}
    assert sum(v == [3, "code"] for v in pegs.values()) >= 2


def test_a_new_piece_frame_records_its_truth(new_sets, tmp_path):
    """``post`` turns a rendered frame into its set.json record: the position played, the
    pieces' looks (a peg's lathe profile included) and every spot's pixel, as for every other
    game's frames."""
    ms = _make_set_module()
    frame = next(f for f in new_sets["pegs"][1] if f["kind"] == "frame" and len(f["position"]) > 8)
    spots = new_sets["pegs"][0][frame["board"]]["spots"]
    frame = {**frame, "out": str(tmp_path / "f"), "res": [64, 36], "k1": 0.0}
    cv2.imwrite(frame["out"] + ".png", np.zeros((36, 64, 3), np.uint8))
    Path(frame["out"] + ".json").write_text(json.dumps({"pixels": {s: [10.0, 5.0] for s in spots}, "covered": []}))
    rec = ms.post(frame, tmp_path / "set")
    assert rec["position"] == frame["position"] and rec["game"] == "brainmaster"
    assert rec["looks"]["3/code"]["profile"][-1][1] == pytest.approx(rec["looks"]["3/code"]["size"][1])
    assert set(rec["pixels"]) == set(spots) and (tmp_path / "set" / rec["file"]).exists()


def test_new_pieces_are_pooled_apart_from_the_men_on_points():
    """Pooled over several sets, each of issue 33's games keeps its own line: their gems, tokens
    and pegs would otherwise be counted with the HTJB men and hide their own figures."""
    h = _harness()
    assert [h._family(n) for n in ("nine-mens-morris", "saba", "nine-mens-morris (1920x1080)")] == ["HTJB"] * 3
    assert h._family("brain-hanky (blue cloth)") == "brain-hanky (blue cloth)"
    for game in ("twin-grids", "thinking-in-circles", "brainmaster"):
        assert h._family(game) == game
    g = {"spots_read": 10, "spots_wrong": 0, "clear": 1, "right": 1, "refused": 0, "hand": 0, "hand_read": 0}
    pool = h.pooled([{"set": "pegs", "games": {"brainmaster": g, "tapatan": g}}])
    assert set(pool) == {"brainmaster", "HTJB"}


def test_a_frame_misread_after_an_exposure_step_keeps_its_misread_spots_and_the_report_lists_them():
    """The frame play reads after stepping the exposure down is scored, and its misreads are
    kept by spot as a first frame's are (the ninth session had to read the stepped circles
    frames again to learn which spots they were): a spot given as unread is no misread."""
    from engine.core import Piece
    from engine.observation import Observation, Reading

    h = _harness()
    game = engine.load("nine-mens-morris")
    white, black = Piece(1, "man"), Piece(2, "man")
    want = {"a7": white, "d7": None, "g7": black}
    obs = Observation({"a7": Reading(None, 1.0), "d7": Reading(black, 1.0),
                       "g7": Reading.unknown("something covers the corner marker")})
    got = h._misreads(game, obs, want)
    assert got == [f"a7: {h._name(game, white)} read as empty", f"d7: empty read as {h._name(game, black)}"]
    lines = h._misread_lines([{"file": "s/f04.jpg", "stepped": "wrong", "steps": 1, "stepped_misread": got},
                              {"file": "s/f05.jpg", "stepped": "right", "steps": 2}])
    assert lines[0].startswith("misread after the exposure was stepped down")
    assert len(lines) == 2 and "s/f04.jpg (1 stop darker)" in lines[1] and "d7: empty read as" in lines[1]
    assert h._misread_lines([]) == []


def test_scored_sets_draw_a_full_set_picture_last_and_every_other_picture_as_stored(tmp_path):
    """The scored sets draw each setup's full-set calibration picture too (the learned reader is
    calibrated from it, as docs/calibration.md tells a user), after every other picture of the
    setup, so that the stored pictures are drawn as they were rendered before: the regression
    sample's records (seeds, positions, exposures) are drawn again unchanged."""
    ms = _make_set_module()
    for name in ("blind6", "dev"):  # sets whose regression sample git holds
        stored = json.loads((ROOT / "benchmarks" / "data" / "photoreal" / name / "set.json").read_text())["frames"]
        _boards, frames = ms.make_specs(name, tmp_path)
        by_name = {f["name"]: f for f in frames}
        for rec in stored:
            if rec["kind"] == "frame-stepped":  # twins a reader asked for (``--twins``) are drawn apart
                continue
            f = by_name[rec["file"].rsplit(".", 1)[0]]
            assert (f["exposure"], f["position"]) == (rec["exposure"], rec["position"]), rec["file"]
        setups = {f["setup"] for f in frames}
        full = [f for f in frames if f["kind"] == "calibration-full"]
        assert {f["setup"] for f in full} == setups and len(full) == len(setups)
        for f in full:
            own = [g for g in frames if g["setup"] == f["setup"] and g["kind"] != "frame-stepped"]
            assert own[-1] is f and len(f["position"]) > 2


def test_the_validation_names_sets_make_set_renders():
    """``benchmarks/validation.py`` names only sets ``make_set.py`` can render, held-out seeds once."""
    spec = importlib.util.spec_from_file_location("validation_sets", ROOT / "benchmarks" / "validation.py")
    val = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(val)
    ms = _make_set_module()
    sets = val.sets()
    assert len(val.HELDOUT_SEEDS) == len(set(val.HELDOUT_SEEDS))
    for name, args in sets.items():
        assert args[0] == "heldout" or args[0] in ms.SETS, name
    assert val.main(["read", "--out", "/nonexistent-validation"]) == 2


def test_a_set_without_the_game_asked_for_totals_nothing():
    """``photoreal.py --only GAME`` over several sets: a set that holds no setup of that game
    totals nothing (no figures, no crash) and the others pool as before."""
    pr = _harness()
    t = pr._totals({})
    assert t["spots_read"] == 0 and t["point_err"] is None and t["right_pct"] is None


def test_one_game_of_a_set_is_drawn_as_the_whole_set_draws_it(tmp_path):
    """``make_set.py SET --only GAME`` (and ``--full-set --only GAME``, which adds pictures to a
    stored set) draws that game's setups exactly as the whole set does: the same camera, lamp,
    pieces and seeds, not a scene of its own beside the stored pictures."""
    ms = _make_set_module()
    _b, whole = ms.make_specs("blind10", tmp_path)
    by_name = {f["name"]: f for f in whole}
    for game in ("morabaraba", "saba"):
        _b, only = ms.make_specs("blind10", tmp_path, game)
        assert only and all(f["game"] == game for f in only)
        for f in only:
            assert {k: f[k] for k in ("seed", "camera", "lamp", "position")} == \
                {k: by_name[f["name"]][k] for k in ("seed", "camera", "lamp", "position")}, f["name"]
