"""Seconds per training picture and disk per 100 (benchmarks/photoreal/train_scenes.py; docs/training-data.md).

    .venv/bin/python benchmarks/train_render.py                 # threads 1 and 2, 2 setups of 3 frames
    .venv/bin/python benchmarks/train_render.py --threads 1 --setups 4 --frames 8

Renders the same small training set (seed ``--seed``: by default a men setup and a Brain Hanky
setup) once per thread count into a temporary folder, and prints the wall and CPU seconds per
picture (CPU: Blender's and the finishing's, from the children's resource use, which a shared
machine's load does not inflate) and the JPEGs' megabytes per 100 pictures, beside the
generator's aim: a setup (10 pictures) in a few minutes of one core.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAKE_SET = ROOT / "benchmarks" / "photoreal" / "make_set.py"
AIM_S = 30.0  # seconds of one core per picture: 60 setups of 10 pictures in about 5 hours


def run(threads: int, setups: int, frames: int, seed: int, out: Path) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    cmd = [sys.executable, str(MAKE_SET), "train", "--setups", str(setups), "--frames", str(frames),
           "--seed", str(seed), "--hold-out", "none", "--threads", str(threads), "--out", str(out)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.time() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    recs = json.loads((out / "set.json").read_text())["frames"]
    mb = sum((out / r["file"]).stat().st_size for r in recs) / 1e6
    per_family = {}
    for r in recs:
        per_family.setdefault(f"{r['factors']['family']} {r['res'][0]}x{r['res'][1]}", 0)
        per_family[f"{r['factors']['family']} {r['res'][0]}x{r['res'][1]}"] += 1
    return {"pictures": len(recs), "wall": wall, "cpu": cpu, "mb": mb, "kinds": per_family}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, nargs="*", default=[1, 2])
    ap.add_argument("--setups", type=int, default=2)
    ap.add_argument("--frames", type=int, default=3)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args(argv)
    print(f"training pictures: {args.setups} setups of {args.frames} frames and 2 calibration pictures, "
          f"seed {args.seed}")
    for th in args.threads:
        with tempfile.TemporaryDirectory(prefix="train-render-") as tmp:
            m = run(th, args.setups, args.frames, args.seed, Path(tmp) / "set")
        n = max(m["pictures"], 1)
        print(f"--threads {th}: {m['pictures']} pictures ({', '.join(f'{k}: {v}' for k, v in m['kinds'].items())}), "
              f"{m['wall'] / n:.1f} s wall and {m['cpu'] / n:.1f} s CPU per picture "
              f"(aim: at most {AIM_S:.0f} s CPU), {m['mb'] / n * 100:.1f} MB per 100 pictures", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
