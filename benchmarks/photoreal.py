"""Score the camera reader on the photoreal set (Blender/Cycles renders, not the simulator).

    .venv/bin/python benchmarks/photoreal.py                     # every stored set, a table each, pooled
    .venv/bin/python benchmarks/photoreal.py benchmarks/data/photoreal/dev --json out.json
    .venv/bin/python benchmarks/photoreal.py --game               # the game sets through the referee
    .venv/bin/python benchmarks/photoreal.py --sample             # only the regression sample (SAMPLE)
    .venv/bin/python benchmarks/photoreal.py benchmarks/data/photoreal/dev --reader learned   # docs/piece-book.md

Per setup (one camera pose over one board) the two calibration pictures are given to
``vision.calibration.calibrate``; a ``CalibrationError`` is that setup's failure (its message is
reported and its frames are not read). Then ``BoardReader.read`` reads every frame and is scored
against the truth in ``set.json``:

* point error: spots read wrongly / spots read, over the frames without a hand that were read;
* frames fully right, of the clear (no hand) frames;
* clear frames refused as occluded, with their reasons;
* hand frames read as a board (a referee fed such a board goes wrong): must be 0;
* milliseconds per read (median, 99th percentile).

``--game`` plays each game set's frames (``GAME_SETS``: whole games, one step a frame) in order
through ``arbiter.referee.Referee`` (each frame's observation three times, as the stabiliser
would pass a settled board) and counts the steps it accepted, wrong steps accepted (must be 0),
and frames it called illegal.

``--reader learned`` calibrates every setup for the learned reader instead
(``vision.learned_reader``; ``--embedder`` picks the spot network, the pixel baseline, or the
default) and reads with it: the same figures. Develop and tune it on ``dev`` only.

The set is made by ``benchmarks/photoreal/make_set.py`` (``make photoreal``); see docs/photoreal.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.core import Piece  # noqa: E402
from vision.calibration import CalibrationError, calibrate  # noqa: E402
from vision.learned_reader import reader_for  # noqa: E402

# Where the stored sets are; PHOTOREAL_DATA points the benchmark and tests/test_photoreal.py at
# another copy (a copy cut to the regression sample, to try the tests as a fresh clone runs them).
DATA = Path(os.environ.get("PHOTOREAL_DATA") or ROOT / "benchmarks" / "data" / "photoreal")
# The sets read for figures, in the order they are reported (the game set is read with --game).
SCORED = ("dev", "holdout", "blind", "blind2", "blind3", "blind4", "blind5", "blind6", "blind7", "blind8", "blind9",
          "blind10", "blind11", "blind12", "blind13", "blind14", "blind15", "blind16", "blind17", "blind18",
          "blind19", "blind20", "blind21", "blind22", "blind23", "blind24", "blind25",
          "blind26")
# The game sets, played through the referee with --game.
GAME_SETS = ("game", "game2", "game3", "game4")
TARGET_POINT_ERR = 0.05  # %
TARGET_RIGHT = 99.0  # % of clear frames read fully right
TARGET_REFUSED = 1.0  # % of clear frames refused as occluded
# What the simulator reports for the same reader (`make bench-vision`, its 1280x720 rows pooled,
# 2026-11-26: solid glossy pieces with shadows; Brain Hanky on the blue cloth).
SIMULATOR = {"htjb": {"point_err": 0.032, "right": 99.0}, "brain-hanky": {"point_err": 0.000, "right": 92.7}}


def _twins(*frames: str) -> tuple[str, ...]:
    """Frames with their two darker twins (``-s1``, ``-s2``): what the exposure step reads."""
    return tuple(name for f in frames for name in (f, f"{f}-s1", f"{f}-s2"))


# Every setup's frames kept, for a game played through the referee from its first step.
WHOLE = "whole setup"
# The regression sample: the pictures the tests read, the only ones left in git's work tree
# (docs/photoreal.md, "The regression sample"). Per set and setup the pictures kept, by name
# without ".jpg"; each setup named keeps its two calibration pictures too, and a setup named with
# no pictures keeps those alone. benchmarks/photoreal_sample.py cuts the stored sets to it and
# checks it is there; tests/test_photoreal.py reads it (its frames once misread must be in it).
# dev: in every setup a few clear frames (windows, dim ones, the wooden men, the tilted camera,
# the full-HD board) read right as they are, one over-exposed frame per game read right after
# the exposure step (with its twins: bhblue-2/f08 is the white ring flattened into the cloth), a
# hand frame or two (tapatan-0/f08 once read), and the white print's calibration, which must fail
# naming the blue cloth. game: tapatan, a whole game to its end through the referee.
SAMPLE: dict[str, dict[str, tuple[str, ...] | str]] = {
    "dev": {
        "ninemm-0": ("f00", "f06", "f01"),
        "ninemm-1": _twins("f01") + ("f08", "f03"),
        "morabaraba-0": ("f04", "f09", "f03"),
        "morabaraba-1": _twins("f01") + ("f06", "f10"),
        "tapatan-0": _twins("f02") + ("f03", "f08", "f10"),
        "tapatan-1": ("f06", "f04"),
        "saba-0": _twins("f10") + ("f04", "f09"),
        "saba-1": ("f06", "f02", "f00", "f10"),
        "ninemmhd-0": ("f01", "f02", "f08"),
        "brainhanky-0": (),
        "bhblue-2": _twins("f08") + ("f00", "f06", "f04"),
    },
    "game": {"tapatan-0": WHOLE},
    # the frames of the blind sets a reader change put right, and the hand frame once read
    # (tests/test_photoreal.py ONCE_MISREAD, ONCE_READ_HANDS): each read on its own, no twins
    "blind": {"bhblue-0": ("f08",)},
    "blind3": {"bhblue-1": ("f08",)},
    "blind5": {"bhblue-0": ("f02",)},
    "blind6": {"bhblue-0": ("f05",), "bhblue-1": ("f04",)},
    "blind7": {"bhblue-1": ("f07", "f05-s1")},
    "blind8": {"bhblue-0": ("f05",), "bhblue-1": ("f07-s1",), "morabaraba-0": ("f10",)},
    "blind11": {"bhblue-2": ("f04",), "bhblue-3": ("f01",)},
    "blind12": {"bhblue-2": ("f04",)},
    "blind13": {"bhblue-1": ("f01", "f07")},
    "blind14": {"bhblue-0": ("f04",), "bhblue-3": ("f02",)},
    "blind15": {"bhblue-1": ("f02",)},
    "blind16": {"bhblue-0": ("f01-s1", "f05", "f08"), "bhblue-1": ("f07",)},
    "blind17": {"bhblue-2": ("f08-s1",)},
    "blind18": {"bhblue-0": ("f05", "f08")},
    "blind20": {"bhblue-3": ("f07",)},
    "blind22": {"bhblue-1": ("f02",)},
    "blind23": {"bhblue-2": ("f07",)},
}


def sample_files(set_name: str) -> set[str]:
    """The frame pictures the sample names in a set (``setup/fNN.jpg``), calibration and whole
    setups aside."""
    return {f"{setup}/{name}.jpg" for setup, names in SAMPLE.get(set_name, {}).items()
            if names != WHOLE for name in names}


def sample_records(set_name: str, records: list[dict]) -> list[dict]:
    """The records of ``records`` the regression sample keeps, in their order: the named
    pictures, their setups' calibration pictures, every frame of a WHOLE setup."""
    named = SAMPLE.get(set_name, {})
    files = sample_files(set_name)
    return [r for r in records if r["setup"] in named
            and (r["kind"].startswith("calibration") or named[r["setup"]] == WHOLE or r["file"] in files)]


def sample_missing(set_name: str, records: list[dict]) -> list[str]:
    """What the sample names in the set that ``records`` lack: named pictures, a named setup's
    calibration pictures, a WHOLE setup's frames."""
    have = {r["file"] for r in records}
    missing = sorted(sample_files(set_name) - have)
    for setup, names in SAMPLE.get(set_name, {}).items():
        kinds = [r["kind"] for r in records if r["setup"] == setup]
        missing += [f"{setup}/{k}.jpg" for k in ("calibration-empty", "calibration-pieces") if k not in kinds]
        if names == WHOLE and "frame" not in kinds:
            missing.append(f"{setup}/ (every frame)")
    return missing


def load_set(set_dir, sample: bool = False) -> dict:
    """A stored set's ``set.json``, with ``dir`` and ``complete_here`` added. ``sample``: its
    records cut to the regression sample (``SAMPLE``), whether the set is whole or already cut;
    a set the sample does not name, or one lacking a named picture, is refused (ValueError)."""
    set_dir = Path(set_dir)
    meta = json.loads((set_dir / "set.json").read_text())
    meta["dir"] = str(set_dir)
    # A set cut to its regression sample (docs/photoreal.md, "Where the frames are") keeps only
    # the pictures the tests read: its figures are not the whole set's.
    meta["complete_here"] = "sample" not in meta
    if sample:
        name = meta.get("set", set_dir.name)
        if name not in SAMPLE:
            raise ValueError(f"the regression sample names nothing in the set {name} ({set_dir})")
        kept = sample_records(name, meta["frames"])
        missing = sample_missing(name, meta["frames"])
        missing += [r["file"] for r in kept if not (set_dir / r["file"]).is_file()]
        if missing:
            raise ValueError(f"the set {name} ({set_dir}) lacks the regression sample's {', '.join(missing[:6])}"
                             + (" ..." if len(missing) > 6 else "") + ": `make photoreal-fetch` restores it")
        meta["frames"] = kept
        meta.setdefault("sample", {"setups": list(SAMPLE[name])})
        meta["complete_here"] = False
    return meta


def load_image(set_dir, rec) -> np.ndarray:
    img = cv2.imread(str(Path(set_dir) / rec["file"]), cv2.IMREAD_COLOR)
    if img is None:
        raise FileNotFoundError(f"{rec['file']}: missing or not an image")
    return img


def truth(rec) -> dict[str, Piece]:
    return {s: Piece(o, k) for s, (o, k) in rec["position"].items()}


def board_label(s: dict) -> str:
    """How a setup's board is reported: its game, and for a print on a coloured cloth that cloth
    (Brain Hanky on the blue cloth ``arbiter print-board`` prints, beside the white print), or
    else a resolution other than 1280x720 (nine men's morris at full HD)."""
    first = s["empty"] or (s["frames"][0] if s["frames"] else {})
    cloth = first.get("cloth")
    if cloth:
        return f"{s['game']} ({cloth} cloth)"
    res = tuple(first.get("res", (1280, 720)))
    return s["game"] if res == (1280, 720) else f"{s['game']} ({res[0]}x{res[1]})"


def setups(meta) -> dict[str, dict]:
    """{setup: {"game", "empty", "pieces", "full", "frames": [...], "stepped": {frame file: record}}}
    in set order. ``stepped``: the same scene one stop darker (``make_set.stepped``), what the
    camera shows after ``arbiter play`` has stepped its exposure down; ``full``: the full set's
    pieces picture (several of each class, ``calibrate --full-set``), which the held-out sets
    rendered since 2026-12-06 hold, or None."""
    out: dict[str, dict] = {}
    for rec in meta["frames"]:
        # a held-out set's four-player setups rendered before 2026-12-06 recorded their players
        # but not their options (``train_scenes.finish`` dropped them)
        options = rec.get("options") or ({"players": rec["players"]} if rec.get("players") else {})
        s = out.setdefault(rec["setup"], {"game": rec["game"], "options": options, "empty": None,
                                          "pieces": None, "full": None, "frames": [], "stepped": {}})
        if rec["kind"] == "calibration-empty":
            s["empty"] = rec
        elif rec["kind"] == "calibration-pieces":
            s["pieces"] = rec
        elif rec["kind"] == "calibration-full":
            s["full"] = rec
        elif rec["kind"] == "frame-stepped":
            s["stepped"][rec["stepped_from"] + ".jpg"] = rec
        else:
            s["frames"].append(rec)
    return out


def _true_spots(game, rec) -> tuple[np.ndarray, np.ndarray]:
    """(board coordinates, picture pixels) of the board's spots where Blender put them in ``rec``."""
    coords = game.board.coords
    names = [n for n in rec["pixels"] if n in coords]
    return (np.array([coords[n] for n in names], np.float64),
            np.array([rec["pixels"][n] for n in names], np.float64))


def _truth_homography(game, rec) -> np.ndarray:
    """Board -> picture homography fitted to the true spots of ``rec``: the truth a registration
    is measured against (lens distortion left in)."""
    H, _ = cv2.findHomography(*_true_spots(game, rec))
    return H


def corner_hint(game, rec) -> tuple[float, float]:
    """The picture pixel of the play area's (x0, y0) corner, as a user gives it with ``--a1``."""
    from vision.markers import board_extent

    x0, y0, _x1, _y1 = board_extent(game.board)
    c = cv2.perspectiveTransform(np.array([[[x0, y0]]], np.float64), _truth_homography(game, rec))[0, 0]
    return float(c[0]), float(c[1])


def fit_error_px(game, H: np.ndarray, rec) -> tuple[float, float]:
    """(median, largest) distance in pixels between where ``H`` puts the board's spots and where
    they are in ``rec``'s picture."""
    board_xy, pixels = _true_spots(game, rec)
    e = np.linalg.norm(cv2.perspectiveTransform(board_xy[None], H)[0] - pixels, axis=1)
    return float(np.median(e)), float(e.max())


def calibrate_setup(set_dir, game, s, locate: str = "markers", classifier: str = "measured",
                    embedder=None) -> tuple[object | None, str]:
    """(Calibration, "") or (None, the failure's message). ``locate``: "markers", or "outline"
    (the board found by its own drawing, the play area's corner given as a user would).
    ``classifier``: "measured" (the hand-set reader) or "learned" (``vision.learned_reader``,
    its pieces learned as ``embedder`` sees them, from the full set's picture where the setup has
    one, as docs/calibration.md tells its user; else from the pieces picture)."""
    if s["empty"] is None or s["pieces"] is None:
        return None, "the set has no calibration pictures for this setup"
    try:
        how = {"classifier": classifier}
        if locate != "markers":
            how.update(method="outline", a1=corner_hint(game, s["empty"]))
        pieces = s["pieces"]
        if classifier == "learned":
            how.update(embedder=embedder)
            pieces = s.get("full") or pieces
        return calibrate(game, load_image(set_dir, s["empty"]), load_image(set_dir, pieces),
                         position=truth(pieces), **how), ""
    except CalibrationError as exc:
        return None, str(exc)
    except Exception as exc:  # a crash in the reader is a finding, not a reason to stop
        return None, f"calibrate crashed: {type(exc).__name__}: {exc}"


def _reader(cal, embedder):
    """The reader for ``cal``, read with ``embedder`` when the calibration's book was made with it;
    calibration may have weighed the colours more (``piece_book.weigh_colours``), and then the
    book's own name gives the embedder."""
    from vision.piece_book import embedder_name

    book = getattr(cal, "book", None)
    same = embedder is not None and book is not None and embedder_name(embedder) == book.embedder
    return reader_for(cal, embedder if same else None)


def _reason_kind(reason: str) -> str:
    """A reason with its spot names cut, so like reasons count together."""
    r = re.sub(r" on [A-Za-z0-9., ]+(\.\.\.)?", " on ...", reason)
    r = re.sub(r"\d+(\.\d+)?", "#", r)
    return r[:200]


def evaluate(set_dir, *, progress=None, locate: str = "markers", only: str | None = None,
             classifier: str = "measured", embedder=None, sample: bool = False) -> dict:
    """Calibrate every setup of the set in ``set_dir``, read every frame, score per game.

    ``locate``: how calibration finds the board ("markers", or "outline": its own drawing, then
    every frame read through that fit, the camera held still); ``only``: setups whose game name
    starts with this; ``classifier``, ``embedder``: as ``calibrate_setup``; ``sample``: only the
    regression sample's pictures (``load_set``). Returns {"set", "games": {game: figures}, "setups": {setup: {...}},
    "frames": [per frame]}; with "outline", each setup also gives ``fit_px``, the fit's (median,
    largest) distance from the true spots in the empty picture.
    """
    say = progress or (lambda _m: None)
    meta = load_set(set_dir, sample)
    games: dict[str, dict] = {}
    per_setup: dict[str, dict] = {}
    per_frame: list[dict] = []
    for name, s in setups(meta).items():
        if only and not s["game"].startswith(only):
            continue
        game = engine.load(s["game"], **s["options"])
        label = board_label(s)
        g = games.setdefault(label, {"setups": 0, "calibrated": 0, "frames": 0, "clear": 0, "clear_read": 0,
                                         "spots_read": 0, "spots_wrong": 0, "right": 0, "refused": 0,
                                         "refused_reasons": Counter(), "hand": 0, "hand_read": 0,
                                         "hand_refused": 0, "ms": [], "uncalibrated_frames": 0, "crashes": 0,
                                         "stepped": 0, "stepped_right": 0, "stepped_refused": 0,
                                         "stepped_spots": 0, "stepped_wrong": 0, "no_step": 0,
                                         "spots_unread": 0, "partial": 0, "hand_unread": 0})
        g["setups"] += 1
        t = time.perf_counter()
        cal, err = calibrate_setup(meta["dir"], game, s, locate, classifier, embedder)
        per_setup[name] = {"game": s["game"], "calibrated": cal is not None, "error": err,
                           "calibrate_s": round(time.perf_counter() - t, 2), "frames": len(s["frames"])}
        if cal is not None and locate != "markers":
            per_setup[name]["fit_px"] = fit_error_px(game, cal.locator.board_to_image, s["empty"])
        say(f"{name}: " + ("calibrated" if cal else f"calibration failed: {err}"))
        if cal is None:
            g["uncalibrated_frames"] += len(s["frames"])
            continue
        g["calibrated"] += 1
        reader = _reader(cal, embedder)
        for rec in s["frames"]:
            img = load_image(meta["dir"], rec)
            t = time.perf_counter()
            try:
                obs = reader.read(img)
            except Exception as exc:
                g["crashes"] += 1
                per_frame.append({"file": rec["file"], "game": s["game"], "crash": f"{type(exc).__name__}: {exc}"})
                continue
            g["ms"].append((time.perf_counter() - t) * 1000)
            g["frames"] += 1
            row = {"file": rec["file"], "game": s["game"], "setup": name, "hand": rec["hand"],
                   "occluded": obs.occluded, "reason": obs.reason, "exposure": rec["exposure"],
                   "tilt": rec["camera"]["tilt"]}
            if rec["hand"]:
                g["hand"] += 1
                if obs.occluded:
                    g["hand_refused"] += 1
                elif rec.get("hand_pose") is None and rec.get("covered") and set(rec["covered"]) <= set(obs.unread()):
                    # a cup or the like, no arm: every spot it hides given as unread, none read
                    g["hand_unread"] += 1
                else:
                    g["hand_read"] += 1
            else:
                g["clear"] += 1
                if obs.occluded:
                    g["refused"] += 1
                    g["refused_reasons"][_reason_kind(obs.reason)] += 1
                    if reader.last.exposure == "lower":
                        # as in play: the camera is stepped down a stop and the next frame read,
                        # and down again while the frames still say so (as far as the set goes)
                        cur, seen = rec, None
                        while reader.last.exposure == "lower" and cur["file"] in s["stepped"]:
                            cur = s["stepped"][cur["file"]]
                            seen = reader.read(load_image(meta["dir"], cur))
                        if seen is None:
                            g["no_step"] += 1
                        else:
                            row["stepped"] = _score_step(g, seen, truth(cur))
                            row["steps"] = int(cur["file"].rsplit("-s", 1)[1].split(".")[0])
                            if seen.occluded:
                                row["stepped_reason"] = seen.reason
                            elif row["stepped"] == "wrong":
                                row["stepped_misread"] = _misreads(game, seen, truth(cur))
                else:
                    g["clear_read"] += 1
                    unread = obs.unread()  # spots the reader said it could not read: not scored as read
                    wrong = _misreads(game, obs, truth(rec))
                    g["spots_read"] += len(obs.points) - len(unread)
                    g["spots_wrong"] += len(wrong)
                    g["spots_unread"] += len(unread)
                    g["partial"] += bool(unread) and not wrong
                    g["right"] += not wrong and not unread
                    row["wrong"] = wrong
                    if unread:
                        row["unread"] = sorted(unread)
            per_frame.append(row)
    for g in games.values():
        ms = g.pop("ms")
        g["ms_med"] = float(np.median(ms)) if ms else None
        g["ms_p99"] = float(np.percentile(ms, 99)) if ms else None
        g["point_err"] = 100.0 * g["spots_wrong"] / g["spots_read"] if g["spots_read"] else None
        g["right_pct"] = 100.0 * g["right"] / g["clear"] if g["clear"] else None
        g["refused_pct"] = 100.0 * g["refused"] / g["clear"] if g["clear"] else None
        g["after_step"] = _after_step(g)
        g["refused_reasons"] = dict(g["refused_reasons"].most_common())
    return {"set": meta.get("set", Path(set_dir).name), "dir": str(set_dir), "complete": meta.get("complete", True),
            "sample": meta.get("sample"), "games": games, "setups": per_setup, "frames": per_frame, "totals": _totals(games)}


def _wrong_spots(obs, want: dict) -> list[str]:
    """The spots ``obs`` read, and not as ``want`` has them; a spot the reader gave as unread is
    no reading, right or wrong."""
    unread = obs.unread()
    return [spot for spot, reading in obs.points.items() if spot not in unread and reading.piece != want.get(spot)]


def _misreads(game, obs, want: dict) -> list[str]:
    """``_wrong_spots`` said as the players say them ("d2: empty read as white man")."""
    return [f"{spot}: {_name(game, want.get(spot))} read as {_name(game, obs.points[spot].piece)}"
            for spot in _wrong_spots(obs, want)]


def _score_step(g: dict, obs, want: dict) -> str:
    """Count a frame read after one exposure step: "right", "refused" or "wrong"."""
    g["stepped"] += 1
    if obs.occluded:
        g["stepped_refused"] += 1
        return "refused"
    unread = obs.unread()
    wrong = len(_wrong_spots(obs, want))
    g["stepped_spots"] += len(obs.points) - len(unread)
    g["stepped_wrong"] += wrong
    g["stepped_right"] += not wrong and not unread
    return "wrong" if wrong else "right" if not unread else "in part"


# The counts a game's figures are made of, which add up over setups, sets and games.
COUNTS = ("spots_read", "spots_wrong", "clear", "right", "refused", "hand", "hand_read", "stepped", "stepped_right",
          "stepped_refused", "stepped_spots", "stepped_wrong", "no_step", "spots_unread", "partial", "hand_unread")


def _after_step(g: dict) -> dict:
    """A game's figures when every frame refused as over-exposed is followed by the same scene
    a stop darker, and another while that is refused as over-exposed too (what ``arbiter play``
    does with a camera that can be set): the last such frame's reading stands for it. Frames
    without a stepped twin keep their refusal."""
    spots = g["spots_read"] + g["stepped_spots"]
    wrong = g["spots_wrong"] + g["stepped_wrong"]
    right = g["right"] + g["stepped_right"]
    refused = g["refused"] - g["stepped"] + g["stepped_refused"]
    clear = g["clear"]
    return {"point_err": 100.0 * wrong / spots if spots else None,
            "right_pct": 100.0 * right / clear if clear else None,
            "refused": refused, "refused_pct": 100.0 * refused / clear if clear else None,
            "stepped": g["stepped"], "spots": spots, "wrong": wrong, "right": right}


def _totals(games: dict) -> dict:
    # every count present, at nothing when no setup was read (``--only`` a game the set lacks)
    t = {k: 0.0 for k in COUNTS + ("setups", "calibrated", "frames", "crashes")}
    for g in games.values():
        for k in t:
            t[k] += g[k]
    t["point_err"] = 100.0 * t["spots_wrong"] / t["spots_read"] if t["spots_read"] else None
    t["right_pct"] = 100.0 * t["right"] / t["clear"] if t["clear"] else None
    t["refused_pct"] = 100.0 * t["refused"] / t["clear"] if t["clear"] else None
    t["after_step"] = _after_step(t)
    return t


def _name(game, p) -> str:
    """A piece as the game's players call it ("white man", "gold gem"), or "empty"."""
    return "empty" if p is None else game.rules.piece_name(p.owner, p.kind)


def fmt(v, spec=".1f") -> str:
    return "-" if v is None else format(v, spec)


def table(res: dict) -> str:
    head = (f"{'game':30} {'setups':>6} {'cal ok':>6} {'clear':>5} {'pt err %':>9} {'right %':>8} {'refused':>9} "
            f"{'hand read':>9} {'ms med':>7} {'ms p99':>7}   simulator (err %, right %)")
    lines = [f"set {res['set']} ({res['dir']})" + ("" if res["complete"] else "  [set incomplete]")
             + (f"  [regression sample: setups {', '.join(res['sample']['setups'])} only; make photoreal-fetch for the whole set]"
                if res.get("sample") else ""), head,
             "-" * len(head)]
    for name, g in list(res["games"].items()) + [("all", res["totals"])]:
        fam = "brain-hanky" if name.startswith("brain-hanky") else "htjb"
        sim = SIMULATOR[fam] if name != "all" else None
        lines.append(
            f"{name:30} {int(g['setups']):>6} {int(g['calibrated']):>6} {int(g['clear']):>5} "
            f"{fmt(g['point_err'], '.3f'):>9} {fmt(g['right_pct']):>8} "
            f"{int(g['refused']):>3} ({fmt(g['refused_pct'], '.0f')}%) "
            f"{int(g['hand_read']):>3}/{int(g['hand']):<5} {fmt(g.get('ms_med')):>7} {fmt(g.get('ms_p99')):>7}   "
            + (f"{sim['point_err']:.3f}, {sim['right']:.0f}" if sim else ""))
    lines.append(f"targets: point error <= {TARGET_POINT_ERR}%, >= {TARGET_RIGHT:.0f}% frames fully right, "
                 f"< {TARGET_REFUSED:.0f}% clear frames refused, 0 hand frames read as a board")
    lines += _unread_lines(res["totals"])
    if res["totals"].get("stepped") or res["totals"].get("no_step"):
        lines.append("after exposure steps (each frame refused as over-exposed replaced by the same scene a stop "
                     "darker, and two while still over-exposed, as `arbiter play` steps the camera):")
        for name, g in list(res["games"].items()) + [("all", res["totals"])]:
            a = g["after_step"]
            lines.append(f"  {name:30} stepped {int(a['stepped']):>3}   pt err {fmt(a['point_err'], '.3f'):>7} %   "
                         f"right {fmt(a['right_pct']):>5} %   refused {int(a['refused']):>3} "
                         f"({fmt(a['refused_pct'], '.0f')}%)"
                         + (f"   ({int(g['no_step'])} refused frames have no stepped twin)" if g.get("no_step") else ""))
    fits = [(k, v["fit_px"]) for k, v in res["setups"].items() if v.get("fit_px")]
    if fits:
        lines.append("board found by its drawing (--outline) in the empty picture: distance of the fit from the true "
                     "spots, median / largest px:")
        lines.append("  " + "; ".join(f"{k} {m:.1f} / {x:.1f}" for k, (m, x) in fits))
    fails = [(k, v["error"]) for k, v in res["setups"].items() if not v["calibrated"]]
    if fails:
        lines.append("calibration failures:")
        lines += [f"  {k}: {e}" for k, e in fails]
    reasons = Counter()
    for g in res["games"].values():
        reasons.update(g["refused_reasons"])
    if reasons:
        lines.append("clear frames refused, by reason:")
        lines += [f"  {n} x {r}" for r, n in reasons.most_common(8)]
    lines += _misread_lines(res["frames"])
    crashes = [f for f in res["frames"] if f.get("crash")]
    if crashes:
        lines.append("reader crashes:")
        lines += [f"  {f['file']}: {f['crash']}" for f in crashes[:5]]
    return "\n".join(lines)


def _misread_lines(frames: list[dict]) -> list[str]:
    """The report's lists of misread frames: as first read, and after an exposure step."""
    lines = []
    bad = [f for f in frames if f.get("wrong")]
    if bad:
        lines.append("misread frames (first 8):")
        for f in bad[:8]:
            lines.append(f"  {f['file']} (exposure {f['exposure']:+.1f}, tilt {f['tilt']:.0f}): "
                         + "; ".join(f["wrong"][:3]) + (" ..." if len(f["wrong"]) > 3 else ""))
    stepped = [f for f in frames if f.get("stepped_misread")]
    if stepped:  # the frame a stop or two darker that play reads after an over-exposed one
        lines.append("misread after the exposure was stepped down (first 8):")
        for f in stepped[:8]:
            lines.append(f"  {f['file']} ({f['steps']} stop{'s' if f['steps'] > 1 else ''} darker): "
                         + "; ".join(f["stepped_misread"][:3]) + (" ..." if len(f["stepped_misread"]) > 3 else ""))
    return lines


def _family(name: str) -> str:
    """The HTJB games (the mills family) together, each Brain Hanky cloth on its own, and every
    other game on its own (issue 33's gems, tokens and pegs are not men on points: pooled with
    the HTJB games they would hide their own figures)."""
    if name.startswith("brain-hanky"):
        return name
    game = name.split(" (")[0]
    try:
        family = engine.load(game).rules.family
    except (KeyError, ValueError):
        return "HTJB"
    return "HTJB" if family == "mills" else game


def pooled(results: list[dict], family=_family) -> dict[str, dict]:
    """Every set's counts added up per family (``family`` of each game's label), with the
    figures after the exposure steps: what the issue's targets are judged on, over all the sets
    read at once."""
    out: dict[str, dict] = {}
    for res in results:
        for name, g in res["games"].items():
            fam = family(name)
            t = out.setdefault(fam, dict.fromkeys(COUNTS, 0) | {"sets": set()})
            t["sets"].add(res.get("set") or res.get("dir"))
            for k in COUNTS:
                t[k] += g.get(k, 0)
    for t in out.values():
        t["sets"] = len(t["sets"])
        t["after_step"] = _after_step(t)
    return out


def _unread_lines(t: dict) -> list[str]:
    """The line saying how many spots a reader left unread (beside a covered corner marker), if
    any: neither read nor right, so the other figures do not show them."""
    if not (t.get("spots_unread") or t.get("hand_unread")):
        return []
    return [f"left unread beside a covered corner marker: {int(t.get('spots_unread', 0))} spots of clear "
            f"frames ({int(t.get('partial', 0))} frames read right but for them, not counted right); "
            f"{int(t.get('hand_unread', 0))} frames with a cup over spots read with every hidden spot "
            f"left unread (not counted as read)"]


def pooled_table(pool: dict[str, dict]) -> str:
    """The pooled figures beside the targets, one line per family, "ok" or "MISSES" on each."""
    lines = ["every set read, pooled per family, after the exposure steps:",
             f"  {'family':26} {'sets':>4} {'clear':>5}  {'point error':<27} {'fully right':<19} {'refused':<11} hands read"]
    for fam, t in pool.items():
        if not t["clear"]:
            continue
        a = t["after_step"]
        marks = [a["point_err"] is not None and a["point_err"] <= TARGET_POINT_ERR,
                 a["right_pct"] is not None and a["right_pct"] >= TARGET_RIGHT,
                 a["refused_pct"] is not None and a["refused_pct"] < TARGET_REFUSED, t["hand_read"] == 0]
        ok = ["ok" if m else "MISSES" for m in marks]
        err = f"{fmt(a['point_err'], '.3f')}% ({int(a['wrong'])} of {int(a['spots'])})"
        right = f"{fmt(a['right_pct'])}% ({int(a['right'])})"
        lines.append(f"  {fam:26} {t['sets']:>4} {int(t['clear']):>5}  {err:<20} {ok[0]:<6} {right:<12} {ok[1]:<6} "
                     f"{int(a['refused']):<4} {ok[2]:<6} {int(t['hand_read'])}/{int(t['hand'])} {ok[3]}")
    lines.append(f"targets: point error <= {TARGET_POINT_ERR}%, >= {TARGET_RIGHT:.0f}% frames fully right, "
                 f"< {TARGET_REFUSED:.0f}% clear frames refused, 0 hand frames read as a board")
    lines += _unread_lines({k: sum(g.get(k, 0) for g in pool.values()) for k in ("spots_unread", "partial",
                                                                             "hand_unread")})
    return "\n".join(lines)


# ---------------------------------------------------------------------------- the game set
def evaluate_game(set_dir, repeat: int = 3, *, progress=None, classifier: str = "measured", embedder=None,
                  sample: bool = False) -> dict:
    """Each setup's frames, in order, through the referee; steps accepted, wrong, illegal flags.
    ``sample``: only the regression sample's setups (``load_set``)."""
    from arbiter import referee as R
    from arbiter.referee import Referee

    say = progress or (lambda _m: None)
    meta = load_set(set_dir, sample)
    out = {"set": meta.get("set"), "games": {}}
    for name, s in setups(meta).items():
        game = engine.load(s["game"], **s["options"])
        cal, err = calibrate_setup(meta["dir"], game, s, classifier=classifier, embedder=embedder)
        g = {"game": s["game"], "setup": name, "frames": len(s["frames"]), "calibration_error": err,
             "true_steps": len(s["frames"]), "accepted": 0, "wrong_accepted": 0, "illegal_frames": 0,
             "unseen_frames": 0, "unclear_frames": 0, "kinds": Counter(), "followed_to_end": False, "events": [],
             "wrong_state_frames": 0, "misread_frames": 0}
        out["games"][name] = g
        if cal is None:
            say(f"{name}: calibration failed: {err}")
            continue
        reader = _reader(cal, embedder)
        ref = Referee(game, reader.sees)
        true_steps = [rec.get("step") for rec in s["frames"]]
        true_states = _true_states(game, true_steps)
        for i, rec in enumerate(s["frames"]):
            obs = reader.read(load_image(meta["dir"], rec))
            kinds = set()
            for _ in range(repeat):
                v = ref.observe(obs)
                kinds.add(v.kind)
                g["kinds"][v.kind] += 1
                if v.steps:
                    g["accepted"] += len(v.steps)
            hist = [str(x) for x in ref.history]
            wrong = sum(1 for j, h in enumerate(hist) if j >= len(true_steps) or h != true_steps[j])
            if wrong > g["wrong_accepted"]:
                g["events"].append(f"frame {i} ({rec['file']}): the referee's record {hist[-3:]} differs from "
                                   f"the truth {true_steps[max(0, len(hist) - 3):len(hist)]}")
            g["wrong_accepted"] = max(g["wrong_accepted"], wrong)
            k = len(ref.history)
            if k >= len(true_states) or not _same_game(ref.state, true_states[k]):
                g["wrong_state_frames"] += 1
                g["events"].append(f"frame {i} ({rec['file']}): the referee's game after {k} steps is not the true one")
            misread = _misreads(game, obs, truth(rec))
            if misread:  # what the reader got wrong, so that a verdict below can be traced to it
                g["misread_frames"] += 1
                g["events"].append(f"frame {i} ({rec['file']}): read {'; '.join(misread[:4])}"
                                   f"{' ...' if len(misread) > 4 else ''}"[:200])
            if R.ILLEGAL in kinds:
                g["illegal_frames"] += 1
                g["events"].append(f"frame {i} ({rec['file']}): illegal ({v.reason or v.message})"[:200])
            if R.UNSEEN in kinds:
                g["unseen_frames"] += 1
                g["events"].append(f"frame {i} ({rec['file']}): unseen ({obs.reason})"[:200])
            if R.UNCLEAR in kinds:
                g["unclear_frames"] += 1
        g["final_history"] = len(ref.history)
        g["followed_to_end"] = [str(x) for x in ref.history] == true_steps
        g["kinds"] = dict(g["kinds"])
    return out


def _true_states(game, steps: list[str]) -> list:
    """The true game's state after 0, 1, ... of ``steps`` (step strings, each legal in turn)."""
    st = game.new()
    out = [st]
    for text in steps:
        st = st.play(next(x for x in st.legal_steps() if str(x) == text))
        out.append(st)
    return out


def _same_game(a, b) -> bool:
    """The same position with the same player to move: two moves of one Brain Hanky turn made
    in either order leave the same game, and a board seen after both cannot tell their order."""
    return a.position() == b.position() and a.to_move == b.to_move


def game_table(res: dict) -> str:
    head = (f"{'setup':14} {'game':30} {'steps':>5} {'accepted':>8} {'wrong':>5} {'illegal':>7} {'unseen':>6} "
            f"{'unclear':>7} {'to end':>6} {'game wrong':>10} {'misread':>7}")
    lines = [head, "-" * len(head)]
    for name, g in res["games"].items():
        lines.append(f"{name:14} {g['game']:18} {g['true_steps']:>5} {g['accepted']:>8} {g['wrong_accepted']:>5} "
                     f"{g['illegal_frames']:>7} {g['unseen_frames']:>6} {g['unclear_frames']:>7} "
                     f"{str(g['followed_to_end']):>6} {g['wrong_state_frames']:>10} {g['misread_frames']:>7}")
        if g["calibration_error"]:
            lines.append(f"  calibration failed: {g['calibration_error']}")
        lines += [f"  {e}" for e in g["events"][:12]]
    lines.append("steps: true steps; accepted/wrong: steps the referee accepted, those not the true step; illegal, "
                 "unseen, unclear: frames the referee called so (each frame shown 3 times); to end: its record is "
                 "the whole true game; game wrong: frames after which the referee's game (position, player to move) "
                 "is not the true game's after as many steps; misread: frames with a spot read wrong (the events "
                 "say which)")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sets", nargs="*", help="set folders (default: every stored scored set)")
    ap.add_argument("--game", action="store_true", help="play the game sets (or the sets given) through the referee")
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--locate", choices=("markers", "outline"), default="markers",
                    help="how calibration finds the board: its markers (default) or its own drawing (--outline, "
                         "the play area's corner given as a user does with --a1), then every frame read through "
                         "that fit")
    ap.add_argument("--only", help="setups whose game name starts with this (e.g. brain-hanky)")
    ap.add_argument("--sample", action="store_true",
                    help="read only the regression sample's pictures (SAMPLE: what the tests read), of the sets "
                         "given or else of every stored set it names")
    ap.add_argument("--reader", choices=("measured", "learned"), default="measured",
                    help="the hand-set reader (default) or the learned one (vision.learned_reader), calibrated for it")
    ap.add_argument("--embedder", choices=("default", "spotnet", "pixels"), default="default",
                    help="with --reader learned: the spot network (vision.spotnet), the pixel baseline "
                         "(piece_book.PixelEmbedder), or the default (the network beside the pixel baseline's colours, "
                         "piece_book.JointEmbedder, when its model loads)")
    args = ap.parse_args(argv)
    embedder = None
    if args.reader == "learned":
        from vision.piece_book import PixelEmbedder, PieceBookError, embedder_for, embedder_name

        if args.embedder == "default":  # each setup's calibration takes its family's (``Family.network``)
            print("reader: learned, embedder: each family's spot network beside the pixel colours")
        else:
            try:
                embedder = PixelEmbedder() if args.embedder == "pixels" else embedder_for("spotnet")
            except PieceBookError as exc:
                print(f"no embedder: {exc}", file=sys.stderr)
                return 2
            print(f"reader: learned, embedder {embedder_name(embedder)}")
    say = None if args.quiet else (lambda m: print("  " + m, flush=True))
    results = []
    if not args.sets and not args.sample:
        missing = [n for n in (GAME_SETS if args.game else SCORED) if not (DATA / n / "set.json").exists()]
        if missing:
            print(f"{len(missing)} stored sets are not in the work tree ({', '.join(missing)}): the figures below "
                  "pool only the others. `make photoreal-fetch` brings them back from git history.", file=sys.stderr)
    if args.game:
        names = [n for n in GAME_SETS if n in SAMPLE or not args.sample]
        dirs = [Path(s) for s in args.sets] or [d for d in (DATA / n for n in names) if (d / "set.json").exists()]
        if not dirs:
            print(f"no photoreal game sets in {DATA}: bring them back with `make photoreal-fetch`, or render them with `make photoreal` (needs blender)", file=sys.stderr)
            return 2
        for d in dirs:
            res = evaluate_game(d, progress=say, classifier=args.reader, embedder=embedder, sample=args.sample)
            print(f"{d.name}:")
            print(game_table(res))
            print()
            results.append(res)
    else:
        names = [n for n in SCORED if n in SAMPLE or not args.sample]
        dirs = [Path(s) for s in args.sets] or [d for d in (DATA / n for n in names) if (d / "set.json").exists()]
        if not dirs:
            print(f"no photoreal sets in {DATA}: bring them back with `make photoreal-fetch`, or render them with `make photoreal` (needs blender)", file=sys.stderr)
            return 2
        for d in dirs:
            res = evaluate(d, progress=say, locate=args.locate, only=args.only, classifier=args.reader,
                           embedder=embedder, sample=args.sample)
            print(table(res))
            print()
            results.append(res)
        if len(results) > 1:
            print(pooled_table(pooled(results)))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
