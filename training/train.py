"""Train the spot network and write ``vision/models/spotnet.onnx`` with its recipe.

    python -m training.train --train /path/to/train/sets --val /path/to/photoreal/dev

(``make train-reader`` runs it with the committed recipe's settings.) Steps:

1. cut every training set's setups into patches (``patchsets.cache_set``, truth homography),
   cached under ``--cache`` (outside git) and reused on the next run;
2. draw ``--synth`` procedural episodes (``synth.episode``, seeds 0..N-1), cached alike;
3. train (``episodes``): each step four episodes, each from a training setup (rendered, with
   probability ``--rendered`` when there are any) or a drawn one, Adam with a cosine schedule,
   one thread, seeded;
4. score the validation set with play's geometry (markers, surface bend) every ``--every`` steps
   and at the end; keep the last model (the validation figures are reported, not used to pick
   a step: picking would tune on them);
5. export ONNX, check ``cv2.dnn`` gives the torch outputs on the validation patches, and write the
   recipe (``spotnet.json``: data, steps, seed, time, figures) beside it.

Only /work-style training sets and drawn episodes are trained on; the validation set (the
photoreal ``dev`` set) is read only to report figures. Evaluation sets (holdout, blind*, game*)
must never be given here: the lead reads them once with the frozen model.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
import torch

from . import episodes as E
from .evaluate import score
from .model import EMBED, SpotNet, export_onnx, macs
from .patchsets import SetupPatches, cache_set, keep_setups, recipe_setups
from .synth import VERSION as SYNTH_VERSION, episode as synth_episode

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "vision" / "models" / "spotnet.onnx"
FORBIDDEN = ("holdout", "blind", "game", "heldout")


def _check_not_evaluation(path: Path) -> None:
    """Refuse an evaluation set as training or validation data (issue 31's rule)."""
    for part in path.resolve().parts:
        if any(part.startswith(f) for f in FORBIDDEN):
            raise SystemExit(f"{path}: an evaluation set ({part}); train on training sets only, validate on dev")


def _check_whole(path: Path) -> None:
    """Refuse a set cut to the regression sample as validation data: its figures would not be
    the whole set's, and nothing in the run would say so."""
    meta = path / "set.json"
    if meta.exists() and "sample" in json.loads(meta.read_text()):
        raise SystemExit(f"{path} holds only the regression sample; run `make photoreal-fetch` to bring back the whole set")


def training_sets(root: Path) -> list[Path]:
    """Every set folder (holding set.json) under ``root``, or ``root`` itself."""
    if (root / "set.json").exists():
        return [root]
    return sorted(p.parent for p in root.glob("*/set.json"))


def synth_cache(cache: Path, n: int, say) -> list[Path]:
    out = cache / f"synth-v{SYNTH_VERSION}"
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for s in range(n):
        p = out / f"synth-{s}.npz"
        if not p.exists():
            synth_episode(s).save(p)
            if s % 100 == 0:
                say(f"drawn episode {s} of {n}")
        paths.append(p)
    return paths


class Pool:
    """Setups loaded on demand and kept (at most ``keep``, default all of them: with 76 rendered
    setups and the old limit of 64, one step in three reloaded a setup from its compressed file
    and a step took 0.9 s instead of about 0.15; every setup and drawn episode held is a few GB)."""

    def __init__(self, paths: list[Path], keep: int | None = None):
        self.paths, self.cache = list(paths), {}
        self.keep = len(self.paths) if keep is None else keep

    def get(self, i: int) -> SetupPatches:
        if i not in self.cache:
            if len(self.cache) >= self.keep:
                self.cache.pop(next(iter(self.cache)))
            self.cache[i] = SetupPatches.load(self.paths[i])
        return self.cache[i]


def embed_with(model: SpotNet):
    def run(patches: np.ndarray) -> np.ndarray:
        outs = []
        with torch.no_grad():
            for i in range(0, len(patches), 512):
                outs.append(model(E.to_tensor(patches[i:i + 512])).numpy())
        return np.concatenate(outs) if outs else np.zeros((0, model.embed_size + 2), np.float32)
    return run


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--train", type=Path, action="append", default=[], help="a training set, or a folder of them")
    ap.add_argument("--val", type=Path, help="the validation set (photoreal dev)")
    ap.add_argument("--cache", type=Path, default=ROOT / "out" / "spotnet-cache")
    pick = ap.add_mutually_exclusive_group()  # a count would cut the named setups unsaid
    pick.add_argument("--setups", type=int, default=0,
                      help="train on the first N complete setups of each set only (0: all), so a run on a set "
                           "still being rendered can be repeated exactly")
    pick.add_argument("--setups-of", type=Path, metavar="RECIPE",
                      help="train only on the rendered setups this recipe (a spotnet.json) names, found in the "
                           "--train sets: the committed network remade from a full render")
    ap.add_argument("--synth", type=int, default=800)
    ap.add_argument("--rendered", type=float, default=0.5, help="share of episodes from rendered sets")
    ap.add_argument("--steps", type=int, default=3500)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--tint", type=float, default=E.FRAME_TINT,
                    help="per-channel spread of a frame's lamp colour against the calibration pictures'")
    ap.add_argument("--owner-loss", type=float, default=0.0, metavar="W",
                    help="weight of an added loss on each piece's owner among its kind's classes alone (0: none)")
    ap.add_argument("--highlight", type=float, default=0.0, metavar="P",
                    help="share of the frames' pieces given a lamp's highlight of their own (calibration's: half)")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--every", type=int, default=1000)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", type=Path, default=MODEL)
    ap.add_argument("--init", type=Path, help="start from these weights (a .pt written by an earlier run)")
    args = ap.parse_args(argv)
    if args.steps < 40:  # the one-cycle schedule warms up over 5% of the steps: at least two
        ap.error(f"--steps {args.steps}: give 40 or more (the learning rate warms up over the first 5%)")
    if args.val:  # before any training set is cut: a wrong validation set is said at once
        _check_not_evaluation(args.val)
        _check_whole(args.val)
    started = time.time()
    say = lambda m: print(f"[{time.time() - started:7.1f}s] {m}", flush=True)  # noqa: E731
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    named = None
    if args.setups_of:
        try:
            named = recipe_setups(args.setups_of)
        except ValueError as exc:
            ap.error(str(exc))
    rendered: list[Path] = []
    sets_used = []
    for root in args.train:
        for d in training_sets(root):
            _check_not_evaluation(d)
            got = cache_set(d, args.cache / "train" / d.name, say=say)
            if named is not None:
                got = keep_setups(got, named)
            if args.setups:
                got = got[:args.setups]
            rendered += got
            held = json.loads((d / "set.json").read_text()).get("hold_out")
            sets_used.append({"set": d.name, "path": str(d), "held_out_factors": held, "setups": [p.stem for p in got]})
    if named is not None:
        found = {p.stem for p in rendered}
        lost = [n for n in named if n not in found]
        if lost:
            raise SystemExit(f"{len(lost)} of the {len(named)} setups {args.setups_of} names are not among the "
                             f"complete setups of the --train sets ({', '.join(lost[:5])}{' ...' if len(lost) > 5 else ''}): "
                             f"render them first (`make train-data`, `make train-data-new`; docs/training-data.md)")
    drawn = synth_cache(args.cache, args.synth, say) if args.synth else []
    val_paths = []
    if args.val:
        val_paths = cache_set(args.val, args.cache / "val-play" / args.val.name, homography="play", keep="all",
                              frames="plain", say=say)
    say(f"{len(rendered)} rendered setups, {len(drawn)} drawn episodes, {len(val_paths)} validation setups")
    if not rendered and not drawn:
        raise SystemExit("no training data: give --train sets or --synth N")

    model = SpotNet()
    if args.init:
        model.load_state_dict(torch.load(args.init))
    log_scale = torch.nn.Parameter(torch.tensor(math.log(10.0)))
    opt = torch.optim.AdamW(list(model.parameters()) + [log_scale], lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps, pct_start=0.05)
    rpool, dpool = Pool(rendered), Pool(drawn)
    history = []
    run_right = run_n = 0
    run_loss = 0.0
    for step in range(1, args.steps + 1):
        model.train()
        eps, Cs = [], []
        while len(eps) < 4:
            use_rendered = rendered and (not drawn or rng.random() < args.rendered)
            pool = rpool if use_rendered else dpool
            sp = pool.get(int(rng.integers(len(pool.paths))))
            ep = E.sample(sp, rng, tint=args.tint, highlight=args.highlight)
            if ep is not None:
                eps.append(ep)
                Cs.append(len(sp.classes))
        x = E.to_tensor(np.concatenate([e.patches for e in eps]))
        out = model(x)
        loss, info = E.loss(out, eps, Cs, log_scale.exp(), EMBED, owner=args.owner_loss)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        run_loss += float(loss.detach())
        run_right += info["right"]
        run_n += info["n"]
        if step % 100 == 0:
            say(f"step {step}: loss {run_loss / 100:.3f}, query accuracy {100 * run_right / max(1, run_n):.2f}%, "
                f"scale {float(log_scale.exp()):.1f}, heads {info['heads']:.3f}")
            run_loss, run_right, run_n = 0.0, 0, 0
        if val_paths and (step % args.every == 0 or step == args.steps):
            model.eval()
            res = score(val_paths, embed_with(model), EMBED)
            v = res["total"]
            torch.save(model.state_dict(), args.cache / f"spotnet-step{step}.pt")
            top = sorted(((n, k) for k, n in res["confusion"].items() if k.split(" -> ")[0].split(" ", 1)[1]
                          != k.split(" -> ")[1]), reverse=True)[:6]
            say("  most confused: " + "; ".join(f"{k} {n}" for n, k in top))
            history.append({"step": step, **{k: v[k] for k in ("point_err_pct", "frames_right_pct", "wrong", "spots")}})
            say(f"validation at step {step}: {v['wrong']} of {v['spots']} spots wrong ({v['point_err_pct']:.3f}%), "
                f"{v['frames_right']}/{v['frames']} frames right, foreign: {v['covered_flagged']}/{v['covered']} "
                f"covered flagged, {v['hand_frames_flagged']}/{v['hand_frames']} hand frames, "
                f"{v['refused_by_foreign']} clear frames flagged")

    model.eval()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), args.cache / "spotnet-last.pt")
    export_onnx(model, args.out)
    final = score(val_paths, embed_with(model), EMBED) if val_paths else None
    # the exported file must give what torch gives (cv2.dnn, as play runs it)
    import cv2

    net = cv2.dnn.readNetFromONNX(str(args.out))
    probe = SetupPatches.load(val_paths[0]).query[:64] if val_paths else SetupPatches.load(drawn[0]).query[:64]
    net.setInput(E.to_tensor(probe).numpy())
    diff = float(np.abs(net.forward() - embed_with(model)(probe)).max())
    say(f"cv2.dnn vs torch on {len(probe)} patches: largest difference {diff:.2e}")
    recipe = {
        "model": args.out.name, "made": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "python -m training.train " + " ".join(sys.argv[1:] if argv is None else argv),
        "seed": args.seed, "steps": args.steps, "episodes_per_step": 4, "lr": args.lr, "tint": args.tint,
        "owner_loss": args.owner_loss, "highlight": args.highlight,
        "rendered_share": args.rendered if rendered else 0.0, "torch": torch.__version__,
        "train_sets": sets_used, "rendered_setups": len(rendered), "drawn_episodes": len(drawn),
        "validation_set": args.val.name if args.val else None,
        "network": {"channels": list(model_channels(model)), "embed": EMBED, "macs_per_patch": macs(model),
                    "weights": int(sum(p.numel() for p in model.parameters())),
                    "outputs": f"columns 0..{EMBED - 1} embedding (L2-normalised), {EMBED} occupied logit, "
                               f"{EMBED + 1} foreign logit"},
        "scale": float(log_scale.exp()),
        "cv2_vs_torch_max_diff": diff,
        "train_minutes": round((time.time() - started) / 60, 1),
        "validation_history": history,
        "validation": None if final is None else {"total": final["total"], "boards": final["boards"],
                                                   "setups": final["setups"],
                                                   "confusion": final["confusion"], "wrong": final["wrong"][:60]},
    }
    args.out.with_suffix(".json").write_text(json.dumps(recipe, indent=1) + "\n")
    say(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB) and {args.out.with_suffix('.json').name}")
    return 0


def model_channels(model: SpotNet):
    return [m.out_channels for m in model.features if isinstance(m, torch.nn.Conv2d)]


if __name__ == "__main__":
    sys.exit(main())
