"""Solved games: the value from the start, the positions, the time to solve, and a hint's cost.

Run: ``make bench-solve`` (or ``python benchmarks/solve.py [--games a,b] [--skip-large]``). Pins
itself to one CPU core. For every solved game it solves from scratch (``engine.solve.solve``),
then times hints the way the companion gives them: a fresh store reading the solution from a
cache folder on disk and answering for one position (first hint, disk read included), then
further hints from the same store (what the menu button costs in a game).

Targets (issue 12): all 3x3 games solved together in under 10 s on one core; a hint from the
cache under 10 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import pin_to_one_core  # noqa: E402
import engine  # noqa: E402
from arbiter.hints import HintStore, solved_games  # noqa: E402
from engine import solve as solver  # noqa: E402

THREE_BY_THREE = ("three-mens-morris", "tapatan", "achi", "tant-fant", "shisima", "sabr", "jare")


def positions(game, count: int, seed: int = 5) -> list:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = game.new()
        while s.result is None and len(out) < count:
            out.append(s)
            s = s.play(rng.choice(s.legal_steps()))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default=",".join(solved_games()))
    ap.add_argument("--skip-large", action="store_true", help="only the 3x3 games and Tableaux")
    args = ap.parse_args()
    names = [n for n in args.games.split(",") if n]
    if args.skip_large:
        names = [n for n in names if n in THREE_BY_THREE or n == "tableaux"]
    print(f"arbiter solved-games benchmark — Python {sys.version.split()[0]}, {pin_to_one_core()}")
    header = f"{'game':18s} {'from the start':>16s} {'positions':>10s} {'solve s':>8s} {'1st hint ms':>11s} {'hint med ms':>11s} {'hint max ms':>11s}"
    print(header)
    print("-" * len(header))
    three_total = 0.0
    worst_hint = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            game = engine.load(name)
            pos = positions(game, 200)
            if game.spec.family == "tableaux":
                g = engine.load("tableaux", advanced=True)
                pos = positions(g, 200)
                pos = [p for p in pos if p.phase == "taking"]
                store = HintStore(tmp)
                t0 = time.perf_counter()
                h = store.hint(g, game.new())
                first = (time.perf_counter() - t0) * 1000
                times = []
                for p in pos:
                    t0 = time.perf_counter()
                    store.hint(g, p)
                    times.append((time.perf_counter() - t0) * 1000)
                value = f"{h.outcome} in {h.plies}"
                print(f"{name:18s} {value:>16s} {'formula':>10s} {0:8.2f} {first:11.3f} "
                      f"{statistics.median(times):11.3f} {max(times):11.3f}")
                worst_hint = max(worst_hint, first, max(times))
                continue
            t0 = time.perf_counter()
            sol = solver.solve(game)
            took = time.perf_counter() - t0
            if name in THREE_BY_THREE:
                three_total += took
            HintStore(tmp)._write(game, sol)
            t0 = time.perf_counter()
            fresh = HintStore(tmp)
            fresh.hint(game, game.new())
            first = (time.perf_counter() - t0) * 1000
            times = []
            for p in pos:
                t0 = time.perf_counter()
                fresh.hint(game, p)
                times.append((time.perf_counter() - t0) * 1000)
            outcome, plies = solver.decode(sol.start_value)
            value = outcome if plies is None else f"{outcome} in {plies}"
            print(f"{name:18s} {value:>16s} {len(sol):10d} {took:8.2f} {first:11.3f} "
                  f"{statistics.median(times):11.3f} {max(times):11.3f}")
            worst_hint = max(worst_hint, first, max(times))
    print(f"\nall 3x3 games solved in {three_total:.2f} s (target < 10 s); the slowest hint from the cache "
          f"{worst_hint:.2f} ms (target < 10 ms).")
    print("1st hint = a new store reading the solution from disk, then one hint; med/max = later hints over 200 "
          "positions of random games.")


if __name__ == "__main__":
    main()
