"""The journal under stress, as users run arbiter: two games begun at once, and kill -9 at random.

Run: ``python benchmarks/journal_stress.py [--pairs 100] [--kills 50] [--serial-kills 10]``
(``make bench-journal``). Every game is a real ``python -m arbiter.cli play`` process with
simulated players (``--reader sim``: the simulated camera read by the real vision code). Prints
what it counted beside what must hold (issue 30).

1. **Pairs**: two ``arbiter play tapatan --reader sim`` started together (at the start of a
   wall-clock second, so their journals are usually made in the same second) into one
   ``--journal`` folder. Must hold: no traceback, both exit 0, two journals, each game's printed
   step count equals its own journal's steps, no journal shared. It also counts how many pairs
   really clashed on the second (one journal named ``-2``).
2. **Kills**: one game killed with SIGKILL at a random moment, then carried on with *only*
   ``arbiter play GAME --resume JOURNAL`` (the command a stopped game prints) until it ends.
   Must hold: every step announced on the screen before the kill is in the journal, in order;
   the resumed game finishes (exit 0, "Game over"); the finished journal starts with every
   step the killed one held. Camera-simulated games, and (``--serial-kills``) games read from
   the virtual sensor board over a pty (``arbiter sensor-sim``), where the resume must find
   ``--reader serial --port`` in the journal.

Stdout is unbuffered in the children (PYTHONUNBUFFERED), so a line on the screen is a line the
players saw. The numbers depend on the machine's load; each game takes a few seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = ROOT  # the arbiter under test (--code: an older checkout, to compare)
ARBITER = [sys.executable, "-m", "arbiter.cli"]
TAPATAN_WIN = ["a1", "d1", "a4", "d4", "a7"]


def _env(state: Path) -> dict:
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=str(CODE), XDG_STATE_HOME=str(state))
    env.pop("ARBITER_JOURNAL_DIR", None)
    return env


def _journal(path: Path) -> dict:
    sys.path.insert(0, str(ROOT))
    from arbiter.journal import load_journal

    c = load_journal(path)
    return {"steps": list(c.steps), "ended": c.ended}


def _announced(out: str) -> list[str]:
    """The steps the screen announced (the ✓ lines), as lines."""
    return [line for line in out.splitlines() if "✓" in line]


def _matches(step: str, line: str) -> bool:
    """An announced line tells of this step: it names every point the step names."""
    return all(p in line for p in re.findall(r"[a-g][1-7]", step))


def _prefix_ok(announced: list[str], steps: list[str]) -> bool:
    return len(announced) <= len(steps) and all(_matches(s, a) for s, a in zip(steps, announced))


# -- 1. two games at once ---------------------------------------------------------------------------


def pairs(n: int, work: Path, reader: str) -> dict:
    counts = {"pairs": n, "tracebacks": 0, "bad_exit": 0, "two_journals": 0, "lost_steps": 0, "same_second": 0}
    for i in range(n):
        folder = work / f"pair{i}"
        time.sleep(1 - time.time() % 1)  # the start of a second: both journals made in the same one
        # An older arbiter (--code) has no --journal: its folder comes from the environment.
        where = ["--journal", str(folder)] if CODE == ROOT else []
        env = dict(_env(work / "state"), **({} if where else {"ARBITER_JOURNAL_DIR": str(folder)}))
        procs = [subprocess.Popen(ARBITER + ["play", "tapatan", "--reader", reader, "--speed", "0",
                                             "--seed", str(i * 2 + k)] + where,
                                  cwd=CODE, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for k in (0, 1)]
        outs = [p.communicate(timeout=300) for p in procs]
        said = []
        for p, (out, err) in zip(procs, outs):
            if "Traceback" in out + err:
                counts["tracebacks"] += 1
            if p.returncode != 0:
                counts["bad_exit"] += 1
                print(f"  pair {i}: exit {p.returncode}: {err.strip()[-300:]}")
            m = re.search(r"after (\d+) steps\.", out)
            j = re.search(r"The journal: (\S+?\.jsonl)", " ".join(out.split()))
            said.append((int(m.group(1)) if m else None, j.group(1) if j else None))
        journals = sorted(folder.glob("*.jsonl"))
        if len(journals) == 2 and len({s[1] for s in said}) == 2:
            counts["two_journals"] += 1
        if any(p.name.endswith("-2.jsonl") for p in journals):
            counts["same_second"] += 1
        for steps, path in said:
            try:
                held = len(_journal(Path(path))["steps"]) if path else None
            except Exception:  # gone, or spoilt by another game's lines
                held = None
            if steps is None or held != steps:
                counts["lost_steps"] += 1
        if (i + 1) % 10 == 0:
            print(f"  {i + 1} pairs: {counts}", flush=True)
    return counts


# -- 2. kill -9 at random moments -----------------------------------------------------------------


def _resume(game: str, path: Path, cwd: Path, env: dict, counts: dict, before: list[str]) -> None:
    r = subprocess.run(ARBITER + ["play", game, "--resume", str(path)], cwd=cwd, env=env,
                       capture_output=True, text=True, timeout=600)
    if "Traceback" in r.stdout + r.stderr:
        counts["tracebacks"] += 1
    after = _journal(path)
    if r.returncode == 0 and "Game over" in r.stdout and after["steps"][:len(before)] == before:
        counts["resumed_to_the_end"] += 1
    else:
        print(f"  resume of {path.name} failed: exit {r.returncode}: {(r.stderr or r.stdout).strip()[-300:]}")


def kills(n: int, work: Path, rng: random.Random, window: tuple[float, float] = (1.0, 7.0)) -> dict:
    """Camera-simulated tapatan games killed at a random moment of their run, then resumed."""
    counts = {"kills": n, "before_the_journal": 0, "lost_announced": 0, "announced": 0, "resumed_to_the_end": 0,
              "tracebacks": 0, "over_before_the_kill": 0}
    env = _env(work / "state")
    for i in range(n):
        folder = work / f"kill{i}"
        p = subprocess.Popen(ARBITER + ["play", "tapatan", "--reader", "sim", "--speed", "3", "--seed", str(100 + i),
                                        "--journal", str(folder)], cwd=work, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        time.sleep(rng.uniform(*window))
        p.send_signal(signal.SIGKILL)
        out, _ = p.communicate()
        _after_the_kill(f"kill {i}", folder, out, work, env, counts)
    return counts


def _after_the_kill(name: str, folder: Path, out: str, work: Path, env, counts: dict, length: int | None = None) -> None:
    """Count what a killed game announced against what its journal holds, then carry the game on
    with the bare ``--resume JOURNAL`` unless it was over (or, with ``length``, played out)."""
    journals = list(folder.glob("*.jsonl"))
    if not journals:
        counts["before_the_journal"] += 1
        return
    (path,) = journals
    held = _journal(path)
    shown = _announced(out)
    counts["announced"] += len(shown)
    if not _prefix_ok(shown, held["steps"]):
        counts["lost_announced"] += 1
        print(f"  {name}: announced {shown} but the journal holds {held['steps']}")
    unfinished = length is None or len(held["steps"]) < length
    if held["ended"] is None and "Game over" not in out and unfinished:
        _resume("tapatan", path, work, env, counts, held["steps"])
    else:
        counts["resumed_to_the_end"] += 1  # killed after the end: nothing to resume
        counts["over_before_the_kill"] += 1


def serial_kills(n: int, work: Path, rng: random.Random, every: float) -> dict:
    """Games read from the virtual sensor board over a pty, killed, resumed with the bare command."""
    counts = {"kills": n, "before_the_journal": 0, "lost_announced": 0, "announced": 0, "resumed_to_the_end": 0,
              "tracebacks": 0, "over_before_the_kill": 0}
    env = _env(work / "state")
    record = work / "tapatan-win.json"
    record.write_text(json.dumps({"game": "tapatan", "options": {}, "steps": TAPATAN_WIN}))
    for i in range(n):
        folder = work / f"serial{i}"
        sim = subprocess.Popen(ARBITER + ["sensor-sim", "tapatan", "--script", str(record), "--every", str(every),
                                          "--seconds", str(every * 12 + 60)], cwd=work, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            port = None
            for line in sim.stdout:
                m = re.search(r"on port: (\S+)", line)
                if m:
                    port = m.group(1)
                    break
            p = subprocess.Popen(ARBITER + ["play", "tapatan", "--reader", "serial", "--port", port,
                                            "--buttons", "none", "--journal", str(folder)], cwd=work, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            time.sleep(rng.uniform(1.0, 1.5 + every * len(TAPATAN_WIN)))
            p.send_signal(signal.SIGKILL)
            out, _ = p.communicate()
            _after_the_kill(f"serial kill {i}", folder, out, work, env, counts, len(TAPATAN_WIN))
        finally:
            sim.kill()
            sim.wait()
    return counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--kills", type=int, default=50)
    ap.add_argument("--serial-kills", type=int, default=10)
    ap.add_argument("--every", type=float, default=3.0, help="seconds between the virtual board's steps")
    ap.add_argument("--reader", default="sim", choices=["sim", "sim-occupancy"], help="the pairs' reader")
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("--kill-window", type=float, nargs=2, default=(1.0, 7.0), metavar=("FROM", "TO"),
                    help="camera-sim kills: seconds after the start, drawn uniformly")
    ap.add_argument("--code", type=Path, default=ROOT,
                    help="the arbiter checkout to run (an older one shows what the checks catch)")
    args = ap.parse_args()
    global CODE
    CODE = args.code.resolve()
    rng = random.Random(args.seed)
    ok = True
    with tempfile.TemporaryDirectory(prefix="arbiter-journal-stress-") as tmp:
        work = Path(tmp)
        started = time.time()
        if args.pairs:
            c = pairs(args.pairs, work, args.reader)
            good = c["tracebacks"] == c["bad_exit"] == c["lost_steps"] == 0 and c["two_journals"] == c["pairs"]
            ok &= good
            print(f"pairs ({args.reader}): {c['pairs']} started together, {c['same_second']} in the same second "
                  f"(-2 names); tracebacks {c['tracebacks']}, bad exits {c['bad_exit']}, pairs with two journals "
                  f"{c['two_journals']}/{c['pairs']}, games with a lost step {c['lost_steps']} "
                  f"(must be 0, 0, all, 0): {'OK' if good else 'FAILED'} [{time.time() - started:.0f} s]", flush=True)
        for name, run in (("camera sim", lambda: kills(args.kills, work, rng, tuple(args.kill_window))),
                          ("serial", lambda: serial_kills(args.serial_kills, work, rng, args.every))):
            n = args.kills if name == "camera sim" else args.serial_kills
            if not n:
                continue
            t0 = time.time()
            c = run()
            resumable = c["kills"] - c["before_the_journal"]
            good = c["lost_announced"] == c["tracebacks"] == 0 and c["resumed_to_the_end"] == resumable
            ok &= good
            print(f"kill -9 ({name}): {c['kills']} kills ({c['before_the_journal']} before the journal existed), "
                  f"{c['announced']} steps announced before a kill, {c['lost_announced']} games with an announced step "
                  f"missing (must be 0); {c['resumed_to_the_end']}/{resumable} carried on to the end with only "
                  f"`arbiter play tapatan --resume JOURNAL` ({c['over_before_the_kill']} were over before the kill)"
                  f"; tracebacks {c['tracebacks']}: "
                  f"{'OK' if good else 'FAILED'} [{time.time() - t0:.0f} s]", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
