"""The learned reader's pooled validation: the sets read once fresh in earlier sessions, now seen.

    .venv/bin/python benchmarks/validation.py list              # what it holds, and what is rendered
    .venv/bin/python benchmarks/validation.py render [--only heldout50950,pegs11]
    .venv/bin/python benchmarks/validation.py read [--reader learned] [--json FILE]

Every held-out seed and every pegs and tokens set that a session read once with the reader frozen
("Evaluation honesty", docs/learned-reader.md) is seen after that read, and becomes part of the
validation the next change is judged on, by a rule written before it is measured. A machine keeps
no rendered pictures between sessions, so the validation is remade from its seeds here (held-out
seeds: two setups per held-out factor, about a quarter of an hour each on two cores; a pegs or
tokens set, a few minutes); ``render`` resumes where it stopped and skips what is there.
``read`` calibrates every setup (the learned reader from the full set, as docs/calibration.md tells
a user), reads every frame and pools the figures per family, as ``benchmarks/photoreal.py`` does.

The next fresh read's seeds are not here: they go in when they have been read
(docs/learned-reader.md, "What is left", names them).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAKE_SET = ROOT / "benchmarks" / "photoreal" / "make_set.py"
DEFAULT_OUT = ROOT / "build" / "validation"
FACTORS = "turn30,wood,colours:red-blue,lens:45-50,cloth:green"
# held-out seeds read fresh, two setups per factor (50050, six per factor, was read by an early
# network and is left out: its sets are three times the others')
HELDOUT_SEEDS = (50150, 50250, 50350, 50450, 50550, 50650, 50750, 50850, 50950, 51050, 51150, 51250)
# issue 33's pieces sets read fresh (make_set.py's SETS)
NEW_PIECE_SETS = tuple(f"{kind}{n}" for n in range(6, 15) for kind in ("pegs", "circles")) + ("twingrids2",)


def sets() -> dict[str, list[str]]:
    """{name: the make_set.py arguments that render it into its folder}."""
    out = {f"heldout{s}": ["heldout", "--setups", "2", "--seed", str(s), "--factor", FACTORS] for s in HELDOUT_SEEDS}
    out.update({name: [name] for name in NEW_PIECE_SETS})
    return out


def set_dirs(root: Path, name: str) -> list[Path]:
    """The rendered set folders of ``name`` under ``root`` (a held-out seed has one per factor)."""
    base = root / name
    if (base / "set.json").exists():
        return [base]
    return sorted(p.parent for p in base.glob("*/set.json"))


def rendered(root: Path, name: str) -> bool:
    return (root / name / ".complete").exists()


def render(root: Path, names: list[str], threads: int) -> int:
    for name in names:
        if rendered(root, name):
            print(f"{name}: rendered already")
            continue
        args = sets()[name]
        cmd = [sys.executable, str(MAKE_SET), *args, "--threads", str(threads), "--out", str(root / name)]
        print(f"{name}: {' '.join(cmd[2:])}", flush=True)
        rc = subprocess.call(cmd, cwd=ROOT)
        if rc:
            print(f"{name}: make_set.py stopped ({rc}); run this again to resume", file=sys.stderr)
            return rc
        (root / name / ".complete").touch()
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("list", "render", "read"))
    ap.add_argument("--out", default=str(DEFAULT_OUT), help=f"where the sets go (default {DEFAULT_OUT})")
    ap.add_argument("--only", help="these sets only, comma-separated (names as `list` gives them)")
    ap.add_argument("--threads", type=int, default=2, help="Blender threads (render)")
    ap.add_argument("--reader", choices=("learned", "measured"), default="learned", help="read: which reader")
    ap.add_argument("--json", help="read: write the figures here")
    args = ap.parse_args(argv)
    root = Path(args.out)
    names = list(sets())
    if args.only:
        wanted = args.only.split(",")
        unknown = [n for n in wanted if n not in names]
        if unknown:
            print(f"no validation set {', '.join(unknown)}: `validation.py list` names them", file=sys.stderr)
            return 2
        names = wanted
    if args.what == "list":
        for n in names:
            print(f"{n:16} {'rendered' if rendered(root, n) else 'not rendered':13} make_set.py {' '.join(sets()[n])}")
        return 0
    if args.what == "render":
        return render(root, names, args.threads)
    dirs = [d for n in names if rendered(root, n) for d in set_dirs(root, n)]
    if not dirs:
        print(f"no validation set rendered in {root}: `validation.py render` first", file=sys.stderr)
        return 2
    missing = [n for n in names if not rendered(root, n)]
    if missing:
        print(f"{len(missing)} of {len(names)} validation sets are not rendered ({', '.join(missing)}): the "
              f"figures pool the others", file=sys.stderr)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import photoreal

    return photoreal.main([*map(str, dirs), "--reader", args.reader, "--quiet"]
                          + (["--json", args.json] if args.json else []))


if __name__ == "__main__":
    sys.exit(main())
