"""Engine speed: random playouts per second and the cost of legal-step generation.

Run: ``make bench`` (or ``python benchmarks/engine.py [--seconds S] [--games a,b]``). Pins itself to
one CPU core where the OS allows, and prints a table.

What is measured, so the numbers mean what they say:
- playouts/s: whole random games from the start to their end (win, draw, repetition or move
  cap), each step chosen with ``random.choice(state.legal_steps())`` and applied with
  ``state.play(step)``: the public API, legality checked on every step.
- generation: a state's legal steps are generated once, when the state is made (so ``play`` and
  the blocked-player rule can use them); ``legal_steps()`` then only returns them. The honest
  per-position cost is therefore the generation itself, timed here on positions sampled from
  random games (each timed as the mean of repeated calls, reported as median and p99 over
  positions). The cost of the ``legal_steps()`` call and of ``play()`` are shown as well.
Targets (issue 2): >= 2,800 nine-mens-morris playouts/s; legal-step generation p99 < 50 us.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import pin_to_one_core  # noqa: E402
import engine  # noqa: E402


def playouts(name: str, seconds: float, seed: int = 1) -> tuple[float, float, int]:
    game = engine.load(name)
    rng = random.Random(seed)
    choice = rng.choice
    games = steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new()
        while state.result is None:
            state = state.play(choice(state.legal_steps()))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, steps / games, games


def sample_positions(name: str, count: int, seed: int = 2) -> list:
    game = engine.load(name)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new()
        while state.result is None:
            out.append(state)
            state = state.play(rng.choice(state.legal_steps()))
    rng.shuffle(out)
    return out[:count]


def per_position_us(states: list, fn, repeat: int = 20) -> list[float]:
    clock = time.perf_counter_ns
    times = []
    for s in states:
        t0 = clock()
        for _ in range(repeat):
            fn(s)
        times.append((clock() - t0) / repeat / 1000)
    return times


def play_times_us(name: str, games: int, seed: int = 3) -> list[float]:
    """Each play() call timed inside ordinary playouts (straight lines of play, as in a game)."""
    game = engine.load(name)
    rng = random.Random(seed)
    clock = time.perf_counter_ns
    out = []
    for _ in range(games):
        state = game.new()
        while state.result is None:
            step = rng.choice(state.legal_steps())
            t0 = clock()
            state = state.play(step)
            out.append((clock() - t0) / 1000)
    return out


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="playout time per game (default 5)")
    ap.add_argument("--positions", type=int, default=5000, help="positions sampled per game (default 5000)")
    ap.add_argument("--games", default="nine-mens-morris,morabaraba,tapatan")
    args = ap.parse_args()
    print(f"arbiter engine benchmark — Python {sys.version.split()[0]}, {pin_to_one_core()}")
    header = (f"{'game':18s} {'playouts/s':>10s} {'steps/game':>10s} {'gen med us':>10s} {'gen p99 us':>10s}"
              f" {'call p99 us':>11s} {'play med us':>11s} {'play p99 us':>11s}")
    print(header)
    print("-" * len(header))
    for name in args.games.split(","):
        rate, length, _ = playouts(name, args.seconds)
        states = sample_positions(name, args.positions)
        gen = per_position_us(states, lambda s: s._generate())
        call = per_position_us(states, lambda s: s.legal_steps())
        play = play_times_us(name, 200)
        print(f"{name:18s} {rate:10.0f} {length:10.1f} {statistics.median(gen):10.2f} {p99(gen):10.2f}"
              f" {p99(call):11.3f} {statistics.median(play):11.2f} {p99(play):11.2f}")
    print("\ngen = generating a position's legal steps (done once per state); call = legal_steps() itself;")
    print("play = play(step) in a playout, including the next state's generation. Targets: >= 2,800 nine-mens-morris")
    print("playouts/s; generation p99 < 50 us.")


if __name__ == "__main__":
    main()
