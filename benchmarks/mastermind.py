"""Brainmaster's code breaker: guesses over every secret, and the time a hint takes.

Run: ``make bench-mastermind`` (or ``python benchmarks/mastermind.py [--colours 5,6] [--sample N]``).
Pins itself to one CPU core. For each size (4 pegs and 5 colours, Brainmaster's box; 4 pegs and
6 colours, the classic game) it:

1. works out the solver's opening (its first two guesses; done once per size and kept in the
   cache folder by ``arbiter hint``), and times it;
2. plays the solver against every secret, walking its decision tree (the solver is deterministic,
   so every secret that shares the answers so far shares the next guess), and prints the average
   and worst number of guesses and how many secrets take each number;
3. plays ``--sample`` secrets as real solo games through the engine, asking for a hint before
   every guess the way ``arbiter hint`` and the menu button do (the opening loaded, every other
   search from scratch), checks each game takes exactly the guesses the tree said, and prints the
   time per hint; then the same games with the player's own random first guess, so the hints
   that follow are off the solver's opening.

Anchors: Knuth's minimax strategy averages 4.476 guesses with a worst case of 5 (6 colours); the
best known strategies average about 4.340. Targets (issue 33): worst case 5; average at most
4.40 for 6 colours and 4.00 for 5 colours; a hint in under 200 ms on one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from common import pin_to_one_core  # noqa: E402
import engine  # noqa: E402
from engine import codebreaker  # noqa: E402

PEGS = 4
TARGET_AVERAGE = {5: 4.00, 6: 4.40}
TARGET_WORST = 5
TARGET_HINT_MS = 200.0
ANCHORS = {6: "Knuth minimax 4.476 (worst 5); best known about 4.340"}


def guesses_per_secret(breaker: codebreaker.Codebreaker) -> np.ndarray:
    """How many guesses the solver takes for each secret, by walking its decision tree."""
    out = np.zeros(breaker.n, dtype=np.int64)

    def walk(left: np.ndarray, depth: int) -> None:
        g = breaker.choose(left, depth)
        answers = breaker.scores[g, left]
        for a in np.unique(answers):
            part = left[answers == a]
            if a == breaker.win:
                out[part] = depth + 1
            else:
                walk(part, depth + 1)

    walk(np.arange(breaker.n), 0)
    return out


def timed_games(colours: int, book: dict, secrets: list[int], expected: np.ndarray | None,
                own: int = 0, seed: int = 1) -> list[tuple[int, float]]:
    """(guesses before, seconds) of every hint over solo games against ``secrets``, each hint from
    a fresh search but for the opening (the first two guesses, read from the book). ``own``: the
    player makes that many random guesses of their own first (then ``expected`` is not checked)."""
    g = engine.load("brainmaster", colours=colours, solo=True, rows=12)
    breaker = codebreaker.Codebreaker(colours, PEGS, width=codebreaker.WIDTH, limit=codebreaker.LIMIT)
    rng = random.Random(seed)
    times = []
    for secret in secrets:
        s = g.new(draws=[secret])
        guesses = 0
        while s.result is None:
            if s.stage == "answer":
                s = s.play(s.legal_steps()[0])
                continue
            if guesses < own:
                s = s.play(rng.choice(s.legal_steps()))
                guesses += 1
                continue
            breaker._memo.clear()
            breaker.load_opening(book)
            t = time.perf_counter()
            got = codebreaker.hint(s, breaker)
            times.append((guesses, time.perf_counter() - t))
            s = s.play(got.best[0])
            guesses += 1
        if expected is not None and guesses != expected[secret]:
            raise SystemExit(f"secret {breaker.code(secret)}: the hints took {guesses} guesses, "
                             f"the decision tree {expected[secret]}")
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--colours", default="5,6", help="sizes to measure, as colour counts (4 pegs each)")
    ap.add_argument("--sample", type=int, default=150, help="secrets played as real games for the hint times")
    args = ap.parse_args()
    print(f"arbiter code-breaker benchmark — Python {sys.version.split()[0]}, numpy {np.__version__}, "
          f"{pin_to_one_core()}; search width {codebreaker.WIDTH}, guess limit {codebreaker.LIMIT}")
    ok = True
    for colours in (int(c) for c in args.colours.split(",") if c):
        breaker = codebreaker.Codebreaker(colours, PEGS, width=codebreaker.WIDTH, limit=codebreaker.LIMIT)
        t = time.perf_counter()
        book = breaker.opening()
        opening_s = time.perf_counter() - t
        t = time.perf_counter()
        counts = guesses_per_secret(breaker)
        tree_s = time.perf_counter() - t
        avg, worst = counts.mean(), int(counts.max())
        spread = ", ".join(f"{k}: {n}" for k, n in enumerate(np.bincount(counts)) if n)
        target_avg = TARGET_AVERAGE.get(colours)
        rng = random.Random(colours)
        secrets = rng.sample(range(breaker.n), min(args.sample, breaker.n))
        times = timed_games(colours, book, secrets, counts)
        ms = sorted(x * 1000 for _, x in times)
        med, p99, top = statistics.median(ms), ms[int(0.99 * (len(ms) - 1))], ms[-1]
        searched = sorted(x * 1000 for n, x in times if n >= 2)
        own = sorted(x * 1000 for _, x in timed_games(colours, book, secrets, None, own=1))
        print(f"\n{PEGS} pegs, {colours} colours: {breaker.n} secrets; first guess {breaker.code(book['first'])}")
        print(f"  guesses per secret ({spread})")
        line = f"  average {avg:.4f}"
        if target_avg is not None:
            line += f"   target <= {target_avg:.2f}: {'met' if avg <= target_avg else 'MISSED'}"
        print(line)
        if target_avg is not None:
            print(f"  worst case {worst}   target {TARGET_WORST}: {'met' if worst <= TARGET_WORST else 'MISSED'}")
        else:
            print(f"  worst case {worst}   (no target for {colours} colours)")
        if colours in ANCHORS:
            print(f"  anchors: {ANCHORS[colours]}")
        print(f"  hint time over {len(secrets)} games ({len(ms)} hints): median {med:.1f} ms, p99 {p99:.1f} ms, "
              f"max {top:.1f} ms   target < {TARGET_HINT_MS:.0f} ms: {'met' if top < TARGET_HINT_MS else 'MISSED'}")
        if searched:
            print(f"  of them from the third guess on (a search each): {len(searched)} hints, median "
                  f"{statistics.median(searched):.1f} ms, max {searched[-1]:.1f} ms")
        print(f"  hint time after a random first guess of the player's own ({len(own)} hints, off the opening): "
              f"median {statistics.median(own):.1f} ms, max {own[-1]:.1f} ms   target < {TARGET_HINT_MS:.0f} ms: "
              f"{'met' if own[-1] < TARGET_HINT_MS else 'MISSED'}")
        print(f"  once per size: the opening {opening_s:.2f} s (kept in the cache by arbiter hint); "
              f"the whole tree {tree_s:.2f} s")
        ok &= target_avg is None or (worst <= TARGET_WORST and avg <= target_avg)
        ok &= top < TARGET_HINT_MS
        ok &= own[-1] < TARGET_HINT_MS
    print("\nall targets met" if ok else "\nsome targets missed")


if __name__ == "__main__":
    main()
