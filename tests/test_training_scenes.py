"""The training scenes' draws (benchmarks/photoreal/train_scenes.py), without Blender.

What a trainer relies on: a seed gives the same setups; every drawn value lies in the ranges
docs/training-data.md gives; a held-out factor never reaches a training setup and is in every
setup of its evaluation set; every picture's record holds the evaluation sets' fields and the
factors it was drawn with.
"""

from __future__ import annotations

import importlib.util
import json
import math
import random
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

import engine

ROOT = Path(__file__).resolve().parent.parent
N = 150  # setups drawn per check: every game, shape and material comes up


def _training():
    if "photoreal_training" not in sys.modules:
        spec = importlib.util.spec_from_file_location("photoreal_training",
                                                      ROOT / "benchmarks" / "photoreal" / "train_scenes.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["photoreal_training"] = mod
        spec.loader.exec_module(mod)
    return sys.modules["photoreal_training"]


@pytest.fixture(scope="module")
def t():
    return _training()


@pytest.fixture(scope="module")
def drawn(t):
    return [t.draw_setup(7, i, t.parse_hold_out("none")) for i in range(N)]


def test_a_seed_gives_the_same_setups_and_another_seed_others(t, drawn):
    hold = t.parse_hold_out(t.DEFAULT_HOLD_OUT)
    again = [t.draw_setup(7, i, t.parse_hold_out("none")) for i in range(N)]
    assert again == drawn
    assert [t.draw_setup(8, i, []) for i in range(10)] != drawn[:10]
    # a setup depends on its index alone: a longer run keeps the shorter run's setups
    assert t.draw_setup(7, 5, hold) == t.draw_setup(7, 5, hold)


def test_a_run_split_at_from_renders_the_same_setups_and_frames(t, tmp_path):
    """``--from K`` (a second core rendering a run's last setups into a folder of its own) gives
    exactly the setups and frame specs of those setups in the full run, and nothing else."""
    hold = t.parse_hold_out(t.DEFAULT_HOLD_OUT)
    boards, frames = t.make_specs(40040, 6, hold, tmp_path / "all")
    tail_boards, tail_frames = t.make_specs(40040, 6, hold, tmp_path / "tail", first=4)
    assert list(tail_boards) == list(boards)[4:]

    def spec(f):  # where the work folder's files go is the only difference
        return json.dumps(f, sort_keys=True).replace(str(tmp_path / "all"), "").replace(str(tmp_path / "tail"), "")

    assert [spec(f) for f in tail_frames] == [spec(f) for f in frames if f["setup"] in tail_boards]
    assert all(f["setup"] in tail_boards for f in tail_frames)


def test_every_drawn_value_lies_in_its_range(t, drawn):
    for s in drawn:
        assert s["family"] in ("men", "hanky")
        assert len(s["colours"]) == s["players"] == (4 if s["game"] == "four-players" else
                                                      engine.load(s["game"]).rules.colours)
        assert t.LENS[0] <= s["lens"] <= t.LENS[1]
        assert t.TILT[0] <= s["tilt"] <= t.TILT[1]
        assert -180 <= s["turn"] <= 180 and t.ROLL[0] <= s["roll"] <= t.ROLL[1]
        if s["family"] == "men":
            assert tuple(s["res"]) in t.RESOLUTIONS
            assert s["shape"] in t.SHAPES and s["material"] in t.MATERIALS
            low, high = t.COIN_MM if s["shape"] == "coin" else t.HEIGHT_MM
            assert t.HEIGHT_MM[0] <= low <= s["height_mm"] <= high <= t.HEIGHT_MM[1]
            assert t.ACROSS[0] <= s["across"] <= t.ACROSS[1]
            table = t.colour_table(s["material"])
            assert all(c in table for c in s["colours"])
            assert t.distinct([table[c] for c in s["colours"]]), s["colours"]
            assert s["cloth"] is None
        else:
            assert tuple(s["res"]) in t.HANKY_RESOLUTIONS
            assert s["cloth"] in t.CLOTH_COLOURS
            assert t.RING_SCALE[0] <= s["ring_scale"] <= t.RING_SCALE[1]
            assert t.distinct([t.PALETTE[c] for c in s["colours"]])


def test_the_draws_cover_every_game_shape_material_and_colour_count(t, drawn):
    assert {s["game"] for s in drawn} == {g for g, _, _ in t.GAMES}
    men = [s for s in drawn if s["family"] == "men"]
    assert {s["shape"] for s in men} == set(t.SHAPES)
    assert {s["material"] for s in men} == set(t.MATERIALS)
    assert {len(s["colours"]) for s in men} == {2, 3, 4}
    assert any(set(s["colours"]) - {"white", "black"} for s in men)
    assert any(s["colours"] in (["white", "black"], ["black", "white"]) for s in men)
    assert len({s["cloth"] for s in drawn if s["family"] == "hanky"}) >= 5
    turns = [abs(s["turn"]) for s in drawn]
    assert max(turns) > 150 and min(turns) < 20
    assert len({tuple(s["res"]) for s in drawn}) == len(t.RESOLUTIONS)


def test_held_out_factors_never_reach_training_and_fill_their_own_sets(t):
    hold = t.parse_hold_out(t.DEFAULT_HOLD_OUT + ",res:800x600,shape:coin")
    assert [f.name for f in hold] == ["turn30", "wood", "colours:red-blue", "lens:45-50", "cloth:green",
                                      "res:800x600", "shape:coin"]
    train = [t.draw_setup(11, i, hold) for i in range(N)]
    for s in train:
        assert not [f.name for f in hold if f.applies(s["family"]) and f.matches(s)], s
        assert abs(s["turn"]) <= 30 and s["lens"] < 45 and s.get("material") != "wood"
    for f in hold:
        sets = [t.draw_setup(12, i, hold, only=f) for i in range(30)]
        for s in sets:
            assert f.applies(s["family"]) and f.matches(s), (f.name, s)
            table = t.colour_table(s["material"]) if s["family"] == "men" else t.PALETTE
            assert t.distinct([table[c] for c in s["colours"]]), (f.name, s["colours"])
            others = [g.name for g in hold if g != f and g.applies(s["family"]) and g.matches(s)]
            assert not others, (f.name, others)
    # the factor's meaning, checked by hand for two of them
    s = t.draw_setup(12, 0, hold, only=hold[0])
    assert abs(s["turn"]) > 30
    s = t.draw_setup(12, 0, hold, only=hold[2])
    assert sorted(s["colours"][:2]) == ["blue", "red"] or {"red", "blue"} <= set(s["colours"])


def test_factor_names_read_back_and_bad_ones_are_refused(t):
    for text in ("turn30", "turn:10-40", "wood", "material:glass", "shape:stone", "colours:light-blue-navy",
                 "lens:20-25", "tilt:30-45", "res:1920x1080", "cloth:white"):
        [f] = t.parse_hold_out(text)
        assert t.parse_hold_out(f.name) == [f]
        assert "/" not in f.slug and ":" not in f.slug
    assert t.parse_hold_out("none") == [] == t.parse_hold_out("")
    for bad in ("turn", "colours:red-red", "colours:red-mauve", "lens:50-45", "cloth:plaid", "res:100x100", "x"):
        with pytest.raises(SystemExit):
            t.parse_hold_out(bad)


def test_men_profiles_are_closed_and_as_tall_and_wide_as_drawn(t):
    rng = random.Random(3)
    for shape in t.SHAPES:
        prof, stretch = t.profile(shape, 0.008, 0.006, rng)
        assert prof[0] == [0, 0] and prof[-1][0] == 0
        assert max(r for r, _ in prof) == pytest.approx(0.008)
        assert max(z for _, z in prof) == pytest.approx(0.006)
        assert (stretch is not None) == (shape == "stone")


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """One folder for the module's board prints (a Brain Hanky print takes a second to write)."""
    return tmp_path_factory.mktemp("train")


@pytest.fixture(scope="module")
def setups(t, work):
    """One men and one Brain Hanky setup's board and frames (textures written, nothing rendered)."""
    out = {}
    for i in range(40):
        s = t.draw_setup(21, i, [])
        if s["family"] not in out and s["game"] != "four-players":
            out[s["family"]] = (s, *t.setup_frames(t.setup_name(i, s), s, work, 6, "train"))
        if len(out) == 2:
            return out
    raise AssertionError("no men and hanky setups in 40 draws")


def test_a_setup_has_its_calibration_pictures_then_frames_with_drawn_light_and_faults(t, setups):
    for family, (s, board, frames) in setups.items():
        kinds = [f["kind"] for f in frames]
        assert kinds == ["calibration-empty", "calibration-pieces"] + ["frame"] * 6
        assert frames[0]["position"] == {} and frames[1]["position"]
        game = engine.load(frames[0]["game"])
        for f in frames:
            assert set(f["position"]) <= set(game.rules.spots) == set(board["spots"])
            assert len(f["pieces"]) == len(f["position"])
            assert f["factors"]["game"] == s["game"] and f["res"] == s["res"]
            assert 0 <= len(f["lamps"]) <= 3 and f["light"] in ("lamps", "daylight", "mixed")
            assert all(t.KELVIN[0] <= lp["kelvin"] <= t.KELVIN[1] for lp in f["lamps"])
            assert f["lamps"] or f["window"]
            assert 70 <= f["jpeg_quality"] <= 95 and f["focus"] >= 0
            for o in f["occluders"]:
                assert o["kind"] in ("cup", "arm")
        assert all(f["focus"] == 0 and f["motion"] is None and f["hand"] is None for f in frames[:2])
        if family == "men":
            look = next(iter(frames[0]["looks"].values()))
            assert look["shape"] == "lathe" and look["form"] == s["shape"]
            assert look["size"][1] == pytest.approx(s["height_mm"] / 1000)
            assert 2 * look["size"][0] <= s["across"] * 0.0225 + 1e-9


def test_men_are_no_wider_than_a_board_unit_where_points_lie_far_apart(t, work):
    """Tapatan's points lie three units (67.5 mm) apart: its men are as wide as other boards'."""
    s = {**t.draw_factors(random.Random(1), "men"), "game": "tapatan", "players": 2, "across": 0.9,
         "colours": ["white", "black"], "material": "matte"}
    tex = t.texture(s, work)
    assert t.spacing(tex["spots"]) == pytest.approx(0.0675)
    looks = t.looks_of(s, engine.load("tapatan"), tex, random.Random(2))
    assert all(lk["size"][0] == pytest.approx(0.9 * 0.0225 / 2) for lk in looks.values())


def test_a_finished_picture_records_the_evaluation_sets_fields_and_its_factors(t, setups, tmp_path):
    """``finish`` on a stand-in render: a grey picture and the spots' pixels of a board turned
    40 degrees counter-clockwise in it."""
    s, board, frames = setups["men"]
    f = dict(frames[3], out=str(tmp_path / "f03"), k1=0.0)
    w, h = f["res"]
    cv2.imwrite(f["out"] + ".png", np.full((h, w, 3), 128, np.uint8))
    a = math.radians(40)
    scale = 0.5 * h / max(board["width"], board["height"])
    pixels = {n: [w / 2 + (x * math.cos(a) - y * math.sin(a)) * scale,
                  h / 2 - (x * math.sin(a) + y * math.cos(a)) * scale] for n, (x, y) in board["spots"].items()}
    Path(f["out"] + ".json").write_text(json.dumps({"pixels": pixels, "covered": []}))
    rec = t.finish(f, tmp_path / "set", board["spots"])
    img = cv2.imread(str(tmp_path / "set" / rec["file"]))
    assert img is not None and (img.shape[1], img.shape[0]) == (w, h)
    evaluation_fields = {"game", "setup", "kind", "position", "exposure", "camera", "lamp", "window", "world", "k1",
                         "noise", "jpeg_quality", "res", "samples", "file", "hand", "hand_pose", "covered",
                         "spots_outside_frame", "pixels", "looks"}
    assert evaluation_fields <= set(rec)
    assert {"factors", "lamps", "kelvins", "light", "wb", "focus", "motion", "occluders", "turn_measured"} <= set(rec)
    assert rec["turn_measured"] == pytest.approx(40, abs=0.1)
    assert set(rec["pixels"]) == set(board["spots"]) and rec["hand"] is False
    json.dumps(rec)  # a set.json record: plain JSON


def test_a_cloth_of_another_colour_keeps_the_prints_webs_and_markers(t, work):
    blue = cv2.imread(t.cloth_texture("brain-hanky", work, "blue")["texture"])
    ground = np.all(blue == t.CLOTH_COLOURS["blue"], axis=2)
    white = np.all(blue == 255, axis=2)  # the markers' quiet zones and the margins
    for cloth in ("yellow", "black"):
        img = cv2.imread(t.cloth_texture("brain-hanky", work, cloth)["texture"])
        assert img.shape == blue.shape
        assert np.abs(img[ground].astype(int) - t.CLOTH_COLOURS[cloth]).max() <= 1
        assert img[white].min() >= 254
        # the webs (neither ground nor white) still differ from the ground
        webs = ~ground & ~white
        assert np.abs(img[webs].astype(int) - t.CLOTH_COLOURS[cloth]).max(axis=1).mean() > 60


def test_a_forced_colour_pair_keeps_three_and_four_colours_apart(t):
    [pair] = t.parse_hold_out("colours:red-blue")
    rng = random.Random(5)
    many = []
    while len(many) < 40:
        s = t.draw_factors(rng, "men")
        if s["players"] > 2:
            many.append(pair.force(s, rng))
    for s in many:
        assert {"red", "blue"} <= set(s["colours"]) and len(s["colours"]) == s["players"]
        assert t.distinct([t.PALETTE[c] for c in s["colours"]]), s["colours"]


def test_the_camera_keeps_every_corner_of_the_print_in_the_picture(t):
    """A tilted camera sees the print's near edge larger than ``share`` allows for: at 45 degrees
    with the print near the picture's height, a corner marker fell outside the picture and a
    held-out setup could not be calibrated. ``camera`` backs off until every corner lies inside
    ``IN_PICTURE``; without that, some of these draws put a corner out."""
    import random

    # the pinhole model, checked square on: a corner at (w/2, h/2) seen from straight above
    cam = {"lens": 36.0, "tilt": 0.0, "yaw": 0.0, "roll": 0.0, "distance": 1.0, "target": [0.0, 0.0, 0.0]}
    assert abs(t.print_in_picture(cam, 0.4, 0.2, (1600, 900)) - max(0.2 / 0.5, 0.1 / (0.5 * 900 / 1600))) < 1e-9
    # a wide lens close to the print: tilted, its near edge comes closer and looks larger than
    # the whole print seen square on (it does when the half print over the distance passes
    # tan(tilt / 2), here 0.5 against 0.41)
    cam.update(lens=18.0, distance=0.4)
    square_on = t.print_in_picture(cam, 0.4, 0.4, (1600, 900))
    cam["tilt"] = 45.0
    assert t.print_in_picture(cam, 0.4, 0.4, (1600, 900)) > square_on * 1.05
    hold = t.parse_hold_out(t.DEFAULT_HOLD_OUT)
    turned = [t.draw_setup(12, i, hold, only=hold[0]) for i in range(60)]
    trained = [t.draw_setup(11, i, hold) for i in range(60)]
    out_before = 0
    for i, s in enumerate(turned + trained):
        for size in ((0.5, 0.5), (0.62, 0.44), (0.44, 0.62)):
            d = t.ms.Draw(random.Random(i))
            cam = t.camera(d, s, max(size), size)
            assert t.print_in_picture(cam, *size, s["res"]) <= t.IN_PICTURE, (s, size, cam)
            d = t.ms.Draw(random.Random(i))
            first = dict(t.camera(d, s, max(size), size))
            first["distance"] = (max(size) * (abs(math.cos(math.radians(s["turn"]))) + abs(math.sin(math.radians(s["turn"]))))
                                 / first["share"]) / 2 / (36.0 * s["res"][1] / s["res"][0] / 2 / s["lens"])
            out_before += t.print_in_picture(first, *size, s["res"]) > 1
    assert out_before > 0, "no draw put a corner out of the picture: the check above proves nothing"


@pytest.mark.parametrize("mode", ["train", "heldout"])
def test_make_set_runs_the_training_scenes_from_the_command_line(mode):
    """``make train-data`` and ``make heldout-data`` run ``make_set.py train|heldout`` from the
    repository's root, whose ``training`` package (the spot network's) once shadowed the scenes'
    module: every run stopped with "module 'training' has no attribute 'main'". Its help must
    come from the scenes' own parser."""
    import subprocess

    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "photoreal" / "make_set.py"), mode, "--help"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-1500:]
    assert "make_set.py train|heldout" in done.stdout and "--hold-out" in done.stdout


def test_the_new_pieces_family_draws_pegs_and_tokens_and_leaves_the_other_runs_alone(t, work, drawn):
    """``--family new``: Brainmaster's pegs and Thinking In Circles' tokens, every class in play
    given a look of its drawn colour, calibrated on the layout ``make_set`` gives those games;
    and the runs without it draw exactly what they drew before (``GAMES`` is unchanged)."""
    from engine.rules.code_pegs import FIRST_CODE_COLOUR

    assert all(s["game"] in {g for g, _, _ in t.GAMES} for s in drawn)
    hold = t.parse_hold_out(t.DEFAULT_HOLD_OUT)
    new = [t.draw_setup(41041, i, hold, family="new") for i in range(30)]
    assert {s["family"] for s in new} == {"pegs", "tokens"}
    for fam in ("pegs", "tokens"):
        s = next(s for s in new if s["family"] == fam)
        game = engine.load(s["game"])
        for f in hold:
            assert not (f.applies(fam) and f.matches(s)), f.name
        _, frames = t.setup_frames(t.setup_name(0, s), s, work, 3, "test")
        looks = frames[0]["looks"]
        classes = {tuple(v) for fr in frames for v in fr["position"].values()}
        assert classes and all(f"{o}/{k}" in looks for o, k in classes)
        assert frames[1]["position"], "the calibration picture shows the pieces"
        if fam == "pegs":
            n = game.rules.colours - FIRST_CODE_COLOUR + 1
            assert len(s["colours"]) == n and t.distinct([t.PALETTE[c] for c in s["colours"]])
            code = [lk for k, lk in looks.items() if k.endswith("/code")]
            key = [lk for k, lk in looks.items() if k.endswith("/key")]
            assert len(code) == n and len(key) == 2
            assert {lk["colour"] for lk in code} == set(s["colours"]) and {lk["colour"] for lk in key} == set(s["keys"])
            assert max(lk["size"][0] for lk in key) < min(lk["size"][0] for lk in code)
        else:
            assert set(looks) == {"1/token"} and looks["1/token"]["colour"] == s["colours"][0]
            assert looks["1/token"]["size"][0] == pytest.approx(s["across"] / 1000)


def test_an_evaluation_setup_also_shows_the_full_set_and_the_benchmark_calibrates_the_learned_reader_on_it(t, work):
    """docs/calibration.md tells a user of the learned reader to calibrate with the full set
    (several pieces of each class); an evaluation set's mills and Brain Hanky setups render that
    picture too, last, so the setup's other pictures are drawn as before, and the benchmark
    gives it to the learned reader (``setups``' "full"). Training sets do not get it."""
    from vision.calibration import calibration_layout

    hold = t.parse_hold_out(t.DEFAULT_HOLD_OUT)
    only = t.parse_hold_out("wood")[0]
    held = t.draw_setup(50150, 0, hold, only)
    name, options = t.board_game(held)
    _, frames = t.setup_frames("s0000-x", held, work, 3, "heldout-wood")
    assert [f["kind"] for f in frames] == ["calibration-empty", "calibration-pieces"] + ["frame"] * 3 + [
        "calibration-full"]
    game = engine.load(name, **options)
    assert frames[-1]["position"] == t.ms.as_truth(calibration_layout(game, full=True)[0])
    assert frames[-1]["camera"] == frames[1]["camera"] and frames[-1]["lamps"] == frames[1]["lamps"]
    train = t.draw_setup(40040, 0, hold)
    assert "calibration-full" not in [f["kind"] for f in t.setup_frames("s0000-y", train, work, 3, "train")[1]]
    bench = importlib.util.spec_from_file_location("photoreal_bench_for_full", ROOT / "benchmarks" / "photoreal.py")
    mod = importlib.util.module_from_spec(bench)
    bench.loader.exec_module(mod)
    got = mod.setups({"frames": [dict(f, file=f["name"] + ".jpg") for f in frames]})["s0000-x"]
    assert got["full"]["kind"] == "calibration-full" and got["pieces"]["kind"] == "calibration-pieces"
    assert [f["kind"] for f in got["frames"]] == ["frame"] * 3


def test_a_held_out_sets_four_player_setups_are_a_four_player_game_the_benchmark_can_calibrate(t, work):
    """Training keeps nine men's morris's print for four colours; a held-out set's four-player
    setup is Kunjing for four players, recorded with its options, so that the benchmark loads a
    game of four colours (before, it loaded nine men's morris and could not calibrate it)."""
    from vision.calibration import calibration_layout

    hold = t.parse_hold_out(t.DEFAULT_HOLD_OUT)
    train = next(s for s in (t.draw_setup(40040, i, hold) for i in range(200)) if s["game"] == "four-players")
    assert t.board_game(train) == (t.FOUR_PLAYERS_BOARD, {})
    only = t.parse_hold_out("turn30")[0]
    held = next(s for s in (t.draw_setup(50150, i, hold, only) for i in range(300)) if s["game"] == "four-players")
    name, options = t.board_game(held)
    assert (name, options) == ("kunjing", {"players": 4})
    _, frames = t.setup_frames("s0000-fourplayer", held, work, 2, "test")
    game = engine.load(name, **options)
    assert all(f["game"] == "kunjing" and f["options"] == {"players": 4} for f in frames)
    assert frames[1]["position"] == t.ms.as_truth(calibration_layout(game)[0])
    assert {o for f in frames for o, _k in f["position"].values()} <= {1, 2, 3, 4}
    bench = importlib.util.spec_from_file_location("photoreal_bench_for_test", ROOT / "benchmarks" / "photoreal.py")
    mod = importlib.util.module_from_spec(bench)
    bench.loader.exec_module(mod)
    recs = [dict(f, setup=f["setup"], file=f["name"] + ".jpg") for f in frames]
    got = mod.setups({"frames": recs})["s0000-fourplayer"]
    assert got["options"] == {"players": 4} and engine.load(got["game"], **got["options"]).rules.colours == 4
    # and so does the record ``finish`` writes into set.json (it once dropped the options, and
    # the benchmark loaded Kunjing for three players and refused the setup's player 4 men)
    board_spots = {n: (float(i), 0.0) for i, n in enumerate(game.rules.spots)}
    f = dict(frames[0], out=str(work / "fin" / "c"), k1=0.0)
    w, h = f["res"]
    (work / "fin").mkdir(exist_ok=True)
    cv2.imwrite(f["out"] + ".png", np.full((h, w, 3), 128, np.uint8))
    Path(f["out"] + ".json").write_text(json.dumps({"pixels": {n: [w / 2 + x, h / 2] for n, (x, _y) in
                                                               board_spots.items()}, "covered": []}))
    rec = t.finish(f, work / "fin" / "set", board_spots)
    assert rec["options"] == {"players": 4}
    assert mod.setups({"frames": [rec]})["s0000-fourplayer"]["options"] == {"players": 4}
    del rec["options"]  # a record of a set rendered before: its players stand for its options
    assert mod.setups({"frames": [rec]})["s0000-fourplayer"]["options"] == {"players": 4}
