"""What the repository carries. Rendered frames are data a script makes again (`make photoreal`
from each set's seed), so they stay out of git but for a small regression sample: a clone for a
Raspberry Pi must not bring hundreds of megabytes of pictures that playing never reads. The
stored sets leave the work tree in stages (docs/photoreal.md, "Where the frames are"); these
tests keep what has left from coming back and the rest from growing."""

from __future__ import annotations

import fnmatch
import re
import shlex
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


# What the README's Raspberry Pi clone may fetch of today's tree (its sparse-checkout leaves out
# the frames and the docs' pictures): with about 61 MB of aarch64 wheels for `make demo`, the
# first hour's download stays under issue 30's 70 MB.
PI_CLONE_MIB = 8


def _pi_sparse_patterns() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    lines = [l for l in readme.splitlines() if re.match(r"\s*git sparse-checkout set --no-cone ", l)]
    assert len(lines) == 1, "README.md gives the Raspberry Pi clone's sparse-checkout line once"
    return shlex.split(lines[0])[4:]


def _left_out(path: str, patterns: list[str]) -> bool:
    """Gitignore-style reading of the README's patterns, enough for the ones it uses: the last
    pattern that matches decides; `**/` stands for any depth, a trailing `/` for a folder."""
    keep = False
    for p in patterns:
        neg = p.startswith("!")
        body = p[1:] if neg else p
        body = body.lstrip("/").replace("**/", "")
        hit = path.startswith(body) if body.endswith("/") else fnmatch.fnmatch(path, body)
        if hit:
            keep = not neg
    return not keep


def test_the_readmes_pi_clone_leaves_out_every_picture_and_stays_small():
    patterns = _pi_sparse_patterns()
    files = _tracked()
    kept = [f for f in files if not _left_out(f, patterns)]
    assert kept and "README.md" in kept and "pyproject.toml" in kept
    pictures = [f for f in kept if f.lower().endswith(PICTURES) and not f.startswith("tests/data/")]
    assert not pictures, f"the Pi clone would fetch pictures: {pictures[:5]}"
    assert _mib(kept) <= PI_CLONE_MIB, _mib(kept)


def test_the_pi_patterns_are_read_as_git_reads_them():
    pats = ["/*", "!/benchmarks/data/photoreal/", "!/docs/**/*.png"]
    assert _left_out("benchmarks/data/photoreal/dev/set.json", pats)
    assert _left_out("docs/pictures/board.png", pats) and _left_out("docs/a.png", pats)
    assert not _left_out("docs/play.md", pats) and not _left_out("vision/models/spotnet.onnx", pats)
