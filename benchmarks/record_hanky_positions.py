"""Record the mid-game Brain Hanky positions that benchmarks/brain_hanky.py measures.

Run once (``python benchmarks/record_hanky_positions.py``); it writes
benchmarks/data/brain_hanky_positions.json: for 2 and 3 players, 100 positions each, every one a
game record (options and steps) that stops at a Phase II position reached by seeded random play
(between 10 and 120 Phase II moves in, so the webs are crowded and strings are long). Moves are
chosen with ``random_step`` so recording never waits on a position's full list of string moves.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402

OUT = Path(__file__).resolve().parent / "data" / "brain_hanky_positions.json"


def record_positions(players: int, count: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    out = []
    game = engine.load("brain-hanky", players=players)
    while len(out) < count:
        state = game.new()
        steps: list[str] = []
        stop_after = rng.randint(10, 120)
        moved = 0
        while state.result is None:
            if state.phase == "movement":
                if moved == stop_after:
                    out.append({"game": "brain-hanky", "options": {"players": players}, "steps": list(steps)})
                    break
                moved += 1
            step = state.random_step(rng)
            steps.append(str(step))
            state = state.play(step)
    return out


def main() -> None:
    data = {"2": record_positions(2, 100, seed=2), "3": record_positions(3, 100, seed=3)}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data))
    print(f"wrote {OUT}: {sum(len(v) for v in data.values())} positions")


if __name__ == "__main__":
    main()
