"""What the repository carries. Rendered frames are data a script makes again (`make photoreal`
from each set's seed), so they stay out of git but for a small regression sample: a clone for a
Raspberry Pi must not bring hundreds of megabytes of pictures that playing never reads. The
stored sets leave the work tree in stages (docs/photoreal.md, "Where the frames are"); these
tests keep what has left from coming back and the rest from growing."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PHOTOREAL = "benchmarks/data/photoreal/"
PICTURES = (".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff", ".exr", ".npy", ".npz", ".mp4", ".avi")
# The photoreal sets still tracked. This list only shrinks: each later stage takes sets out
# (their pictures stay in history, `make photoreal-fetch` restores them) until the regression
# sample alone is left.
STILL_TRACKED = {
    "dev", "blind", "blind3", "blind5", "blind6", "blind7", "blind8", "blind11", "blind12",
    "blind13", "blind14", "blind15", "blind16", "blind17", "blind18", "blind20", "blind22",
    "blind23", "game",
}
# Tracked pictures outside docs/, in MiB: 464 after the first stage (665 before), 339 after the
# second, 171 after the third, 159 once blind, blind3 and blind5 were cut to the sample, and 35.1
# after the fourth and last: every set is the regression sample (benchmarks/photoreal.SAMPLE).
TRACKED_PICTURES_MIB = 36
# Pictures that are not rendered frames: the docs' figures, and small test fixtures.
DOCS_PICTURES_MIB = 15


def _tracked() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [f for f in out.decode().split("\0") if f]


def _mib(files) -> float:
    return sum((ROOT / f).stat().st_size for f in files if (ROOT / f).exists()) / 2**20


def test_no_photoreal_set_comes_back_into_git():
    sets = {f[len(PHOTOREAL):].split("/")[0] for f in _tracked() if f.startswith(PHOTOREAL)}
    back = sets - STILL_TRACKED
    assert not back, (f"photoreal sets committed again: {sorted(back)}. Rendered frames stay out of git: "
                      "commit the set's seed in benchmarks/photoreal/make_set.py instead")


def test_rendered_pictures_stay_where_they_are_and_do_not_grow():
    pictures = [f for f in _tracked() if f.lower().endswith(PICTURES)]
    elsewhere = [f for f in pictures if not f.startswith(("docs/", PHOTOREAL, "tests/data/"))]
    assert not elsewhere, f"pictures committed outside docs/ and the photoreal sample: {elsewhere[:10]}"
    frames = [f for f in pictures if not f.startswith("docs/")]
    assert _mib(frames) <= TRACKED_PICTURES_MIB, _mib(frames)
    assert _mib([f for f in pictures if f.startswith("docs/")]) <= DOCS_PICTURES_MIB


def test_a_fresh_render_is_never_picked_up_by_git_add():
    """`make photoreal` and `make photoreal-fetch` write into benchmarks/data/photoreal/, which
    git ignores: a `git add -A` after a render must not commit a set again."""
    probe = PHOTOREAL + "some-new-set/setup-0/f01.jpg"
    r = subprocess.run(["git", "check-ignore", "-q", "--no-index", probe], cwd=ROOT)
    if r.returncode == 128:
        pytest.skip("not a git checkout")
    assert r.returncode == 0, f"{probe} is not ignored: .gitignore must list /{PHOTOREAL}"
