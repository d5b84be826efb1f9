"""The learned spot network (``vision.spotnet``): time per batch of patches, and its reading of a set.

    python benchmarks/spotnet.py                       # time, both backends, beside the budget
    python benchmarks/spotnet.py --val DIR/dev         # also read a set's frames by nearest prototype

Timing: one core (pinned, ``cv2.setNumThreads(1)``, onnxruntime with one thread), a batch of 24
patches (a mills board) and of 373 (Brain Hanky), each batch ``--runs`` times after two warm-up
runs; median and p99 of the wall clock, and p99 of the CPU time the call itself used
(``time.thread_time``), which other work on a busy machine does not inflate. The budget: 30 ms
median, 150 ms p99 for the whole read of a frame (issue 31), of which cutting the patches takes
about 1 ms (24 spots at 1280x720) and 7 ms (373 at 1920x1080) (docs/camera.md, "Spot patches").

``--val``: the set's setups cut as play cuts them (markers in every picture, surface bend from
the empty picture), prototypes from each setup's two calibration pictures, every spot of every
frame read as its nearest prototype (``training.evaluate``, which needs no PyTorch). Give it
the dev set only: the evaluation sets are read once by the lead with the frozen model.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import common  # noqa: E402
from vision.spotnet import SpotNet  # noqa: E402

BUDGET_MS, BUDGET_P99_MS = 30.0, 150.0
PATCH_MS = {24: 0.8, 373: 6.7}  # docs/camera.md: PatchCutter.cut, median


def time_backend(backend: str, n: int, runs: int) -> dict:
    net = SpotNet.load(backend=backend)
    rng = np.random.default_rng(n)
    patches = rng.integers(0, 256, (n, 48, 48, 3), np.uint8)
    for _ in range(2):
        net.read(patches)
    wall, cpu = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), time.thread_time()
        net.read(patches)
        wall.append((time.perf_counter() - t) * 1000)
        cpu.append((time.thread_time() - c) * 1000)
    return {"backend": net.backend, "n": n, "median": float(np.median(wall)), "p99": float(np.percentile(wall, 99)),
            "cpu_median": float(np.median(cpu)), "cpu_p99": float(np.percentile(cpu, 99))}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--val", type=Path, help="a set to read by nearest prototype (the dev set)")
    ap.add_argument("--cache", type=Path, default=Path(__file__).resolve().parents[1] / "out" / "spotnet-cache")
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--empty-from", choices=("empty", "both"), default="empty",
                    help="a spot's empty prototype from the empty picture, or from both calibration pictures")
    ap.add_argument("--adapt", action="store_true",
                    help="move the class prototypes towards each frame's own pieces (vision.spotnet.frame_adapted)")
    args = ap.parse_args(argv)
    pinned = common.pin_to_one_core()
    cv2.setNumThreads(1)
    load = "load average %.1f" % os.getloadavg()[0] if hasattr(os, "getloadavg") else "load unknown"
    net = SpotNet.load(backend="cv2")
    print(f"spot network {net.path.name}: D={net.dim}, {net.recipe.get('network', {}).get('macs_per_patch', '?')} "
          f"multiply-adds a patch; {pinned}, {load}")
    backends = ["cv2"]
    try:
        import onnxruntime  # noqa: F401
        backends.append("onnxruntime")
    except ImportError:
        print("(onnxruntime not installed: cv2.dnn only)")
    print(f"{'backend':<12} {'patches':>7} {'med ms':>7} {'p99 ms':>7} {'cpu med':>7} {'cpu p99':>7} "
          f"{'+ patches, med':>15} {'budget':>7}")
    rows = []
    for backend in backends:
        for n in (24, 373):
            r = time_backend(backend, n, args.runs)
            rows.append(r)
            print(f"{r['backend']:<12} {n:>7} {r['median']:>7.2f} {r['p99']:>7.2f} {r['cpu_median']:>7.2f} "
                  f"{r['cpu_p99']:>7.2f} {r['median'] + PATCH_MS[n]:>15.2f} {BUDGET_MS:>7.0f}")
    print(f"budget: {BUDGET_MS:.0f} ms median, {BUDGET_P99_MS:.0f} ms p99 for the whole read of a frame (issue 31)")
    out = {"timing": rows}
    if args.val:
        from training.evaluate import score
        from training.patchsets import cache_set

        if any(p.startswith(("holdout", "blind", "game", "heldout")) for p in args.val.resolve().parts):
            raise SystemExit(f"{args.val}: an evaluation set; the lead reads those once with the frozen model")
        paths = cache_set(args.val, args.cache / "val-play" / args.val.name, homography="play", keep="all",
                          frames="plain", say=print)
        fast = SpotNet.load()
        res = score(paths, lambda p: _outputs(fast, p), fast.dim, say=print, empty_from=args.empty_from,
                    adapt=args.adapt)
        t = res["total"]
        print(f"{args.val.name}: {t['wrong']} of {t['spots']} spots wrong ({t['point_err_pct']:.3f}%), "
              f"{t['frames_right']} of {t['frames']} clear frames fully right ({t['frames_right_pct']:.1f}%)")
        print(f"foreign head: {t['covered_flagged']} of {t['covered']} covered spots flagged, "
              f"{t['hand_frames_flagged']} of {t['hand_frames']} hand frames, {t['refused_by_foreign']} clear frames "
              f"and {t['clear_flagged']} clear spots flagged")
        for board, g in res["boards"].items():
            print(f"  {board}: {g['wrong']} of {g['spots']} spots wrong ({g['point_err_pct']:.3f}%), "
                  f"{g['frames_right']} of {g['frames']} frames right ({g['frames_right_pct']:.1f}%)")
        for k, v in res["confusion"].items():
            print(f"  {k}: {v}")
        out["val"] = res
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


def _outputs(net: SpotNet, patches: np.ndarray) -> np.ndarray:
    r = net.read(patches)
    return np.concatenate([r.embedding, r.occupied[:, None], r.foreign[:, None]], axis=1)


if __name__ == "__main__":
    sys.exit(main())
