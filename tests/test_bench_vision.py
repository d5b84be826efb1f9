"""``benchmarks/vision.py``'s speed table (issue 31) runs for the learned reader: a smoke run, not
a timing (the figures are the benchmark's, docs/piece-book.md "Speed"). The pixel baseline is
used so that the test needs no trained network."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_bench(monkeypatch):
    """``benchmarks/vision.py`` as a module (``vision_bench``), its folder and the project's on the
    path for the test alone; the thread-count variables the module sets put back after."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    monkeypatch.syspath_prepend(str(ROOT))
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(var, os.environ.get(var, "1"))
    spec = importlib.util.spec_from_file_location("vision_bench", ROOT / "benchmarks" / "vision.py")
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "vision_bench", bench)
    spec.loader.exec_module(bench)
    return bench


def test_quick_speed_table_of_the_learned_reader_runs_and_gives_every_stage():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "vision.py"), "--quick", "--speed-only",
                           "--reader", "learned", "--embedder", "pixels", "--speed-frames", "2", "--repeat", "1",
                           "--jobs", "1"], cwd=ROOT, capture_output=True, text=True, timeout=240,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "embedder: pixel baseline (pixels-lab-" in out
    for game, size in (("nine-mens-morris", "1280x720"), ("brain-hanky", "1920x1080")):
        row = re.search(rf"^\s+{game}\s+{size} learned\s+2\s+\d+/\d+\s+(.*)$", out, re.M)
        assert row, f"no learned row for {game} {size} in:\n{out}"
        # med, p99, p99 best, then locate, patches, embed, classify: all measured, none missing
        nums = [float(x) for x in row.group(1).split()]
        assert len(nums) == 7 and all(x >= 0 for x in nums), row.group(0)
        assert nums[3] > 0 and nums[4] > 0 and nums[5] > 0, f"a stage was not timed: {row.group(0)}"
        assert sum(nums[3:]) <= nums[0] * 2 + 1, f"stages add up to more than the read: {row.group(0)}"
    assert "measured" not in re.findall(r"^\s+\S+\s+\d+x\d+ (\w+)", out, re.M)
    assert re.search(r"^\s+(PASS|MISS)\s+learned nine-mens-morris 1280x720 median <= 30 ms", out, re.M)
    # and again with one still camera, as in play: its own rows after their heading, and targets
    still = out.split("with one still camera, as in play")
    assert len(still) == 2, out
    for game, size in (("nine-mens-morris", "1280x720"), ("brain-hanky", "1920x1080")):
        assert re.search(rf"^\s+{game}\s+{size} learned\s+2\s+\d+/\d+\s", still[1], re.M), still[1]
        assert re.search(rf"^\s+(PASS|MISS)\s+learned {game} {size} \(still camera\) median <= 30 ms", out, re.M)


def test_the_speed_table_says_so_when_the_spot_network_cannot_be_had(monkeypatch):
    """``--embedder spotnet`` without a loadable network: the benchmark is told why, not crashed
    (``main`` then prints it and leaves the learned reader out)."""
    spotnet = pytest.importorskip("vision.spotnet")
    bench = load_bench(monkeypatch)

    def missing(*_a, **_k):
        raise spotnet.SpotNetError("the spot network vision/models/spotnet.onnx is missing")

    monkeypatch.setattr(spotnet.SpotNet, "load", missing)
    embedder, words = bench.embedder_of("spotnet")
    assert embedder is None and "not available" in words and "spotnet.onnx is missing" in words
    embedder, words = bench.embedder_of("family")
    assert embedder is None and "spotnet.onnx is missing" in words
    embedder, words = bench.embedder_of("pixels")
    assert embedder.name.startswith("pixels-lab-") and "pixel baseline" in words


def test_the_default_embedder_is_each_familys_as_play_calibrates(monkeypatch):
    """``--embedder family`` (the default) leaves the choice to calibration, so the pegs read by
    the pieces network are timed and scored with it, as in play; the reader built is the learned
    one with the family's network in its book."""
    pytest.importorskip("vision.spotnet")
    bench = load_bench(monkeypatch)
    embedder, words = bench.embedder_of(bench.FAMILY)
    assert embedder == bench.FAMILY and "each family" in words
    import engine
    from vision.families import family_for

    game = engine.load("brainmaster")
    reader = bench.make_reader(game, (640, 480), "learned", embedder)
    assert type(reader).__name__ == "LearnedReader"
    assert family_for(game).network in reader.cal.book.embedder


def test_beside_photoreal_leaves_out_a_set_cut_to_its_sample(monkeypatch, tmp_path, capsys):
    """A set cut to its regression sample holds the frames the tests name, not a fair draw: the
    figures beside the simulator's must not count it as the set, and must say it was left out."""
    bench = load_bench(monkeypatch)
    import photoreal

    (tmp_path / "dev").mkdir()
    (tmp_path / "dev" / "set.json").write_text(
        '{"set": "dev", "frames": [], "sample": {"setups": [], "pictures_in_whole_set": 9, "why": "test"}}')
    monkeypatch.setattr(photoreal, "DATA", tmp_path)

    def no_reading(*_a, **_k):
        raise AssertionError("a set cut to its sample was read for figures")

    monkeypatch.setattr(photoreal, "evaluate", no_reading)
    bench.beside_photoreal([])
    out = capsys.readouterr().out
    assert "cut to their regression sample, not counted: dev" in out
    assert "No whole photoreal set is stored" in out and "make photoreal-fetch" in out
