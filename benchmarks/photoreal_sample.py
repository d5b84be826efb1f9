"""Cut the stored photoreal sets down to the regression sample, or check the sample is there.

    .venv/bin/python benchmarks/photoreal_sample.py --dry      # per set: pictures kept / removed, MiB
    .venv/bin/python benchmarks/photoreal_sample.py --check    # every picture the sample names is stored
    .venv/bin/python benchmarks/photoreal_sample.py            # cut: set.json to the sample, git rm the rest
    .venv/bin/python benchmarks/photoreal_sample.py --sets dev,game   # only these sets

The sample is ``SAMPLE`` in benchmarks/photoreal.py: per set and setup the pictures the tests read
(docs/photoreal.md, "The regression sample"). Cutting a set keeps those pictures and their setups'
two calibration pictures, rewrites its ``set.json`` to their records with a ``sample`` entry (the
setups kept, how many pictures the whole set has, why: the benchmark then says the set is a
sample, and ``tests/test_photoreal.py`` skips the whole-set tests naming ``make photoreal-fetch``),
removes every other picture from the work tree and, when the set is in a git work tree, from the
index (``git rm --cached``; ``set.json`` is staged), so the cut is one commit of deletions and
small records. Git's history keeps every picture; ``make photoreal-fetch`` restores them.

A set lacking a picture the sample names is never cut (the cut could not be undone from the
work tree, and the tests would skip where they should fail): the tool says what is missing and
stops. Sets the sample does not name are left as they are and listed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def harness():
    """benchmarks/photoreal.py, loaded by path (benchmarks/photoreal/ is a folder of its own)."""
    if "photoreal_bench" not in sys.modules:
        spec = importlib.util.spec_from_file_location("photoreal_bench", HERE / "photoreal.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["photoreal_bench"] = mod
        spec.loader.exec_module(mod)
    return sys.modules["photoreal_bench"]


def _mib(paths) -> float:
    return sum(p.stat().st_size for p in paths) / 2**20


def plan(set_dir: Path) -> dict:
    """What cutting one stored set would do: {"set", "keep": records, "gone": picture paths,
    "missing": what the sample names that the set lacks, "kept_mib", "gone_mib"}."""
    h = harness()
    meta = json.loads((set_dir / "set.json").read_text())
    name = meta.get("set", set_dir.name)
    keep = h.sample_records(name, meta["frames"])
    kept = {r["file"] for r in keep}
    pictures = sorted(p for p in set_dir.rglob("*") if p.is_file() and p.name != "set.json")
    missing = h.sample_missing(name, meta["frames"])
    missing += sorted(f for f in kept if not (set_dir / f).is_file())
    gone = [p for p in pictures if p.relative_to(set_dir).as_posix() not in kept]
    return {"set": name, "meta": meta, "keep": keep, "gone": gone, "missing": missing,
            "kept_mib": _mib(set_dir / f for f in kept if (set_dir / f).is_file()), "gone_mib": _mib(gone)}


def stored_sets(data: Path, only=None) -> tuple[list[Path], list[str]]:
    """(stored sets the sample names, stored sets it does not), in SAMPLE's order."""
    h = harness()
    stored = {d.name: d for d in sorted(data.iterdir()) if (d / "set.json").is_file()} if data.is_dir() else {}
    named = [stored[n] for n in h.SAMPLE if n in stored and (not only or n in only)]
    return named, sorted(n for n in stored if n not in h.SAMPLE)


def check(data: Path, out=print) -> list[str]:
    """Every picture the sample names, in every set that is stored: what is missing ([] when
    the sample is complete). Sets not stored at all are fine (a clone holds only the sample)."""
    h = harness()
    problems = [f"SAMPLE names {n}, which is not a photoreal set" for n in h.SAMPLE
                if n not in h.SCORED + h.GAME_SETS]
    named, _others = stored_sets(data)
    count = 0
    for d in named:
        p = plan(d)
        count += len(p["keep"])
        problems += [f"{p['set']}: {m}" for m in p["missing"]]
    absent = [n for n in h.SAMPLE if not (data / n / "set.json").is_file()]
    out(f"regression sample: {count} pictures in {len(named)} stored sets"
        + (f"; not stored: {', '.join(absent)}" if absent else "")
        + ("" if not problems else f"; {len(problems)} missing"))
    for p in problems:
        out(f"  missing: {p}")
    return problems


def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)


def cut_set(set_dir: Path, p: dict) -> bool:
    """Cut one set as ``plan`` says: set.json to the kept records with its ``sample`` entry, the
    other pictures out of the index (in a git work tree) and the work tree. True when the set is
    in a git work tree (the cut is staged)."""
    meta = p["meta"]
    whole = meta.get("sample", {}).get("pictures_in_whole_set", len(meta["frames"]))
    setups = sorted({r["setup"] for r in p["keep"]})
    meta["frames"] = p["keep"]
    meta["sample"] = {"setups": setups, "pictures_in_whole_set": whole,
                      "why": "regression sample: the pictures tests/test_photoreal.py reads (SAMPLE in "
                             "benchmarks/photoreal.py) and their setups' calibration pictures; "
                             "make photoreal-fetch restores the whole set"}
    (set_dir / "set.json").write_text(json.dumps(meta, separators=(",", ":")))
    in_git = _git(["rev-parse", "--is-inside-work-tree"], set_dir).returncode == 0
    if in_git:
        rel = [g.relative_to(set_dir).as_posix() for g in p["gone"]]
        for i in range(0, len(rel), 200):
            r = _git(["rm", "-q", "--cached", "--ignore-unmatch", "--", *rel[i:i + 200]], set_dir)
            if r.returncode:
                raise SystemExit(f"git rm in {set_dir} failed: {r.stderr.strip()}")
    for g in p["gone"]:
        g.unlink()
    for sub in sorted((d for d in set_dir.rglob("*") if d.is_dir()), key=lambda d: -len(d.parts)):
        if not any(sub.iterdir()):
            sub.rmdir()
    if in_git and _git(["ls-files", "--error-unmatch", "set.json"], set_dir).returncode == 0:
        _git(["add", "--", "set.json"], set_dir)
    return in_git


def main(argv=None, out=print) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=None,
                    help="the folder of the sets (default: benchmarks/data/photoreal, or PHOTOREAL_DATA)")
    ap.add_argument("--sets", help="comma-separated sets to cut (default: every stored set the sample names)")
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--dry", action="store_true", help="say per set what a cut keeps and removes; change nothing")
    how.add_argument("--check", action="store_true",
                     help="check every picture the sample names is stored; exit 1 if not")
    args = ap.parse_args(argv)
    data = args.data or harness().DATA
    if args.check:
        return 1 if check(data, out) else 0
    only = set(args.sets.split(",")) if args.sets else None
    named, others = stored_sets(data, only)
    if only and (unknown := sorted(only - {d.name for d in named})):
        out(f"not stored, or not in the sample: {', '.join(unknown)}")
        return 2
    if not named:
        out(f"no stored set in {data} that the regression sample names")
        return 2
    plans = [(d, plan(d)) for d in named]
    kept = gone = kept_mib = gone_mib = 0
    for d, p in plans:
        n_keep = sum(1 for r in p["keep"] if (d / r["file"]).is_file())
        kept, gone = kept + n_keep, gone + len(p["gone"])
        kept_mib, gone_mib = kept_mib + p["kept_mib"], gone_mib + p["gone_mib"]
        out(f"{p['set']:8} keep {n_keep:3} pictures {p['kept_mib']:5.1f} MiB   remove {len(p['gone']):3} "
            f"{p['gone_mib']:5.1f} MiB" + (f"   MISSING {', '.join(p['missing'][:4])}" if p["missing"] else ""))
    out(f"{'total':8} keep {kept:3} pictures {kept_mib:5.1f} MiB   remove {gone:3} {gone_mib:5.1f} MiB")
    if others:
        out(f"not in the sample, left as they are: {', '.join(others)}")
    broken = [p["set"] for _d, p in plans if p["missing"]]
    if broken:
        out(f"not cut: {', '.join(broken)} lack pictures the sample names (`make photoreal-fetch` restores them)")
        return 1
    if args.dry:
        return 0
    staged = [cut_set(d, p) for d, p in plans]
    out("cut" + ("; staged: `git status` shows the deletions and the new set.json files" if any(staged)
                 else f" ({data} is not in a git work tree: the pictures were deleted)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
