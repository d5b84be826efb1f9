"""Brain Hanky speed: legal-step generation and matching_steps on recorded mid-game positions.

Run: ``make bench-hanky`` (or ``python benchmarks/brain_hanky.py``). Pins itself to one core.
The positions are game records in benchmarks/data/brain_hanky_positions.json (100 each for 2
and 3 players, dense Phase II), written by benchmarks/record_hanky_positions.py.

- legal_steps(): the full list (one step per distinct resulting position), generated on a fresh
  state each time, reported with the number of steps, since that number drives the cost.
- matching_steps(): for each position, a seeded random legal step is played and its resulting
  board handed back as the observation (what the referee does for each stable camera frame);
  with colours (camera) and occupancy only (sensor grid). Every colour match is checked to be
  exactly the step played.
Targets (issue 3): legal_steps() p99 < 5 ms, matching_steps() p99 < 1 ms, one core.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import pin_to_one_core  # noqa: E402
import engine  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "brain_hanky_positions.json"


def replay(record: dict):
    state = engine.load(record["game"], **record["options"]).new()
    for step in record["steps"]:
        state = state.play(step)
    return state


def rings(position) -> dict:
    return {k: v for k, v in position.items() if v.kind == "ring"}


def pct(values, q):
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else values[0]


def main() -> None:
    pinned = pin_to_one_core()
    data = json.loads(DATA.read_text())
    print(f"arbiter Brain Hanky benchmark — Python {sys.version.split()[0]}, {pinned}")
    head = (f"{'players':>7} {'positions':>9} {'steps med':>9} {'steps max':>9} {'legal med ms':>12} "
            f"{'legal p90':>9} {'legal p99':>9} {'match med ms':>12} {'match p99':>9} {'occ med':>8} {'occ p99':>8}")
    print(head)
    print("-" * len(head))
    for players, records in data.items():
        rng = random.Random(int(players))
        gen, counts, match, occ = [], [], [], []
        for record in records:
            state = replay(record)
            t0 = time.perf_counter()
            steps = state.legal_steps()
            gen.append((time.perf_counter() - t0) * 1e3)
            counts.append(len(steps))
            step = rng.choice(steps)
            after = rings(state.play(step).position())
            fresh = replay(record)
            t0 = time.perf_counter()
            found = fresh.matching_steps(after)
            match.append((time.perf_counter() - t0) * 1e3)
            assert len(found) == 1 and rings(fresh.play(found[0]).position()) == after, record
            seen = {k: True for k in after}
            t0 = time.perf_counter()
            fresh.matching_steps(seen, colours=False)
            occ.append((time.perf_counter() - t0) * 1e3)
        print(f"{players:>7} {len(records):>9} {statistics.median(counts):>9.0f} {max(counts):>9} "
              f"{statistics.median(gen):>12.2f} {pct(gen, 90):>9.2f} {pct(gen, 99):>9.2f} "
              f"{statistics.median(match):>12.3f} {pct(match, 99):>9.3f} {statistics.median(occ):>8.3f} "
              f"{pct(occ, 99):>8.3f}")
    print("\nlegal = the full legal_steps() list; match = matching_steps() with colours (camera); occ = occupancy")
    print("only (sensor grid; may return several candidates). Targets: legal p99 < 5 ms, match p99 < 1 ms.")


if __name__ == "__main__":
    main()
