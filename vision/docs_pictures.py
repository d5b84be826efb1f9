"""Write the board pictures used in the documentation.

    python -m vision.docs_pictures OUT_DIR

writes ``OUT_DIR/<board>.png`` for every board graph (empty, with point names) and
``OUT_DIR/game-<game>.png`` for every game, showing a mid-game position. The positions come from
a fixed seed and a fixed number of steps, so the pictures only change when the rules or the
renderer do, and a changed picture in a diff means one of those changed.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import engine
from engine.boards import board, board_names

from .render import render_board, render_state, save_png

SEED = 2024
STEPS = 12


def sample_state(game, steps: int = STEPS, seed: int = SEED):
    """The state after up to ``steps`` steps chosen by ``random.Random(seed)`` from the legal ones.

    Stops early when the game ends or no step is left. Deterministic for a given game and seed.
    """
    rng = random.Random(seed)
    state = game.new()
    for _ in range(steps):
        legal = state.legal_steps()
        if state.result is not None or not legal:
            break
        state = state.play(rng.choice(sorted(legal)))
    return state


def write_board_pictures(out_dir: Path) -> list[Path]:
    written = []
    for name in board_names():
        graph = board(name)
        image = render_board(graph, title=f"{name}: {graph.description}" if graph.description else name)
        written.append(save_png(image, out_dir / f"{name}.png"))
    return written


def write_game_pictures(out_dir: Path) -> list[Path]:
    written = []
    for name in engine.names():
        game = engine.load(name)
        image = render_state(game, sample_state(game))
        written.append(save_png(image, out_dir / f"game-{name}.png"))
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m vision.docs_pictures OUT_DIR", file=sys.stderr)
        return 2
    out_dir = Path(args[0])
    for path in write_board_pictures(out_dir) + write_game_pictures(out_dir):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
