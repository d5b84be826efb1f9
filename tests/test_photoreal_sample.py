"""benchmarks/photoreal_sample.py: the photoreal sets cut to the regression sample, and the check
that the sample is there (docs/photoreal.md, "The regression sample").

The cut is tried on a small made-up set in a git repository under tmp_path, never on the
project's own sets; the check is run on the stored sets (it only reads them).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    """benchmarks/photoreal_sample.py, loaded by path (as tests/test_photoreal.py loads the benchmark)."""
    if "photoreal_sample_tool" not in sys.modules:
        where = ROOT / "benchmarks" / "photoreal_sample.py"
        spec = importlib.util.spec_from_file_location("photoreal_sample_tool", where)
        mod = importlib.util.module_from_spec(spec)
        sys.modules["photoreal_sample_tool"] = mod
        spec.loader.exec_module(mod)
    return sys.modules["photoreal_sample_tool"]


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True,
                          capture_output=True, text=True).stdout


def _make_set(data: Path, name: str, setups: dict[str, list[str]]) -> None:
    """A stored set in miniature: per setup its two calibration pictures and the frames named
    (``fNN-sK`` a darker twin of ``fNN``), each a small JPEG, and set.json's records."""
    records = []
    for setup, frames in setups.items():
        for kind in ("calibration-empty", "calibration-pieces"):
            records.append({"setup": setup, "game": "tapatan", "kind": kind, "file": f"{setup}/{kind}.jpg"})
        for f in frames:
            rec = {"setup": setup, "game": "tapatan", "kind": "frame", "file": f"{setup}/{f}.jpg"}
            if "-s" in f:
                base, k = f.rsplit("-s", 1)
                rec.update(kind="frame-stepped", stepped_from=base if k == "1" else f"{base}-s{int(k) - 1}")
            records.append(rec)
    rng = np.random.default_rng(len(records))
    for rec in records:
        (data / name / rec["file"]).parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(data / name / rec["file"]), rng.integers(0, 255, (24, 32, 3), dtype=np.uint8))
    (data / name / "set.json").write_text(json.dumps({"set": name, "seed": 1, "frames": records}))


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A git repository holding three made-up sets, and a sample naming pictures of two."""
    tool = _tool()
    h = tool.harness()
    data = tmp_path / "benchmarks" / "data" / "photoreal"
    _make_set(data, "dev", {"a-0": ["f00", "f01", "f01-s1", "f01-s2", "f02"], "b-0": ["f00"], "c-0": ["f00"]})
    _make_set(data, "game", {"g-0": ["f00", "f01", "f02"], "g-1": ["f00"]})
    _make_set(data, "blind2", {"x-0": ["f00"]})
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-q", "-m", "sets")
    monkeypatch.setattr(h, "SAMPLE", {"dev": {"a-0": h._twins("f01") + ("f02",), "b-0": ()},
                                      "game": {"g-0": h.WHOLE}})
    return tmp_path, data


def test_a_dry_run_says_what_the_cut_keeps_and_changes_nothing(repo):
    root, data = repo
    lines = []
    assert _tool().main(["--data", str(data), "--dry"], out=lines.append) == 0
    dev = next(ln for ln in lines if ln.startswith("dev "))
    assert "keep   8 pictures" in dev and "remove   5" in dev, dev  # a-0: 2 + 4, b-0: 2; f00s and c-0 go
    assert "keep   5 pictures" in next(ln for ln in lines if ln.startswith("game "))
    assert any("left as they are: blind2" in ln for ln in lines), lines
    assert "MiB" in lines[-2] or "MiB" in lines[-1]
    assert _git(root, "status", "--porcelain") == ""


def test_the_cut_keeps_the_sample_and_takes_the_rest_out_of_git(repo):
    """What the sample names stays (with its setups' calibration pictures, a WHOLE setup
    whole); every other picture leaves the work tree and the index; set.json keeps the kept
    records and says it is a sample and of how many pictures; a set the sample does not name is
    left alone. After it, the check finds the sample complete."""
    root, data = repo
    tool = _tool()
    assert tool.main(["--data", str(data)], out=lambda _m: None) == 0
    tracked = set(_git(root, "ls-files").split())
    prefix = "benchmarks/data/photoreal/"
    dev = {f[len(prefix) + 4:] for f in tracked if f.startswith(prefix + "dev/")}
    assert dev == {"set.json", "a-0/calibration-empty.jpg", "a-0/calibration-pieces.jpg", "a-0/f01.jpg",
                   "a-0/f01-s1.jpg", "a-0/f01-s2.jpg", "a-0/f02.jpg", "b-0/calibration-empty.jpg",
                   "b-0/calibration-pieces.jpg"}
    assert not (data / "dev" / "c-0").exists() and not (data / "dev" / "a-0" / "f00.jpg").exists()
    meta = json.loads((data / "dev" / "set.json").read_text())
    assert {r["file"] for r in meta["frames"]} == dev - {"set.json"}
    assert meta["sample"]["setups"] == ["a-0", "b-0"] and meta["sample"]["pictures_in_whole_set"] == 13
    assert "make photoreal-fetch" in meta["sample"]["why"]
    game = json.loads((data / "game" / "set.json").read_text())
    assert [r["file"] for r in game["frames"] if r["kind"] == "frame"] == ["g-0/f00.jpg", "g-0/f01.jpg", "g-0/f02.jpg"]
    assert (data / "blind2" / "x-0" / "f00.jpg").exists() and prefix + "blind2/x-0/f00.jpg" in tracked
    # the cut is staged: deletions and the two set.json files, nothing else
    staged = _git(root, "diff", "--cached", "--name-status").splitlines()
    assert sum(ln.startswith("D") for ln in staged) == 5 + 3 and sum(ln.startswith("M") for ln in staged) == 2
    # the benchmark reads a cut set as a sample, and its sample as it was before the cut
    h = tool.harness()
    assert h.load_set(data / "dev")["complete_here"] is False
    assert [r["file"] for r in h.load_set(data / "dev", sample=True)["frames"]] == [r["file"] for r in meta["frames"]]
    assert tool.check(data, out=lambda _m: None) == []
    # cutting again changes nothing, and keeps the whole set's count
    assert tool.main(["--data", str(data)], out=lambda _m: None) == 0
    assert json.loads((data / "dev" / "set.json").read_text())["sample"]["pictures_in_whole_set"] == 13
    # committed, then fetched back as `make photoreal-fetch` does (the whole sets, untracked):
    # a cut after it leaves nothing to commit
    _git(root, "commit", "-q", "-m", "cut")
    _git(root, "restore", "--source=HEAD~1", "--worktree", "--", "benchmarks/data/photoreal")
    assert (data / "dev" / "c-0" / "f00.jpg").exists() and _git(root, "status", "--porcelain")
    assert tool.main(["--data", str(data)], out=lambda _m: None) == 0
    assert _git(root, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_set_lacking_a_named_picture_is_not_cut(repo):
    """The check names what is missing; the cut stops before touching anything, since a cut set
    would hide the loss (its tests would skip)."""
    root, data = repo
    (data / "dev" / "a-0" / "f01-s2.jpg").unlink()
    tool = _tool()
    lines = []
    assert tool.check(data, out=lines.append) == ["dev: a-0/f01-s2.jpg"]
    assert tool.main(["--data", str(data), "--check"], out=lambda _m: None) == 1
    assert tool.main(["--data", str(data)], out=lines.append) == 1
    assert any("not cut: dev" in ln for ln in lines), lines
    assert (data / "dev" / "c-0" / "f00.jpg").exists() and (data / "game" / "g-1").exists()
    with pytest.raises(ValueError, match="make photoreal-fetch"):
        tool.harness().load_set(data / "dev", sample=True)


def test_the_regression_sample_is_complete_in_the_stored_sets():
    """Every picture ``SAMPLE`` names is in each stored set it names (whole, fetched, or cut to
    the sample): the tests reading them can run in every clone."""
    problems = _tool().check(_tool().harness().DATA, out=lambda _m: None)
    assert not problems, problems
