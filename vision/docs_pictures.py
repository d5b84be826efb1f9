"""Write the board pictures used in the documentation.

    python -m vision.docs_pictures OUT_DIR

writes ``OUT_DIR/<board>.png`` for every board graph (empty, with point names),
``OUT_DIR/brain-hanky-<variant>.png`` for the four Brain Hanky boards (plain, periodic,
orange-periodic, expanded; both webs in colour, square names at the gem spots) and
``OUT_DIR/game-<game>.png`` for every game, showing a mid-game position. The positions come from
a fixed seed and a fixed number of steps, so the pictures only change when the rules or the
renderer do, and a changed picture in a diff means one of those changed.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import engine
from engine.boards import board, board_names, brain_hanky_board

from .pictures import draw, render_state
from .render import save_png
from .render_hanky import render_hanky

SEED = 2024
STEPS = 12


def sample_state(game, steps: int = STEPS, seed: int = SEED):
    """The state after up to ``steps`` steps chosen by ``random.Random(seed)`` from the legal ones.

    Stops early when the game ends or no step is left. Deterministic for a given game and seed.
    """
    rng = random.Random(seed)
    state = game.new()
    for _ in range(steps):
        if state.result is not None:
            break
        if hasattr(state, "random_step"):  # Brain Hanky: never wait on a crowded position's full list
            step = state.random_step(rng)
        else:
            legal = state.legal_steps()
            step = rng.choice(sorted(legal)) if legal else None
        if step is None:
            break
        state = state.play(step)
    return state


def random_position(game, seed: int, cap: int = 300) -> dict:
    """The position of a random game of ``game`` cut at a random move below ``cap``: the
    positions the vision tests and benchmark photograph. Deterministic for a game and seed."""
    return dict(sample_state(game, random.Random(seed).randrange(cap), seed).position())


HANKY_VARIANTS: dict[str, tuple] = {
    "plain": (6, False),
    "periodic": (6, True),
    "orange-periodic": (6, True, False),
    "expanded": (12, True),  # the 4x expanded board: four boards side by side, 2N x 2N, periodic
}
"""Brain Hanky boards pictured by ``write_hanky_pictures``: variant -> ``brain_hanky_board`` args."""

_HANKY_NAME = re.compile(r"brain-hanky-(\d+)(-periodic|-orange-periodic)?")


def _hanky_board(name: str):
    """The Brain Hanky board behind registry name ``name`` (see ``BoardGraph.name``), or None."""
    m = _HANKY_NAME.fullmatch(name)
    if m is None:
        return None
    wrap = m.group(2) or ""
    return brain_hanky_board(int(m.group(1)), bool(wrap), None if wrap != "-orange-periodic" else False)


def _hanky_title(hboard) -> str:
    return f"{hboard.name}: {hboard.graph.description}"


def write_hanky_pictures(out_dir: Path) -> list[Path]:
    """``OUT_DIR/brain-hanky-<variant>.png``: each Brain Hanky board, empty, with its square names."""
    written = []
    for variant, args in HANKY_VARIANTS.items():
        hboard = brain_hanky_board(*args)
        image = render_hanky(hboard, labels=True, title=_hanky_title(hboard))
        written.append(save_png(image, out_dir / f"brain-hanky-{variant}.png"))
    return written


def write_board_pictures(out_dir: Path) -> list[Path]:
    """``OUT_DIR/<board>.png`` for every board graph.

    Brain Hanky boards go to ``render_hanky`` (one ink for both webs would hide which is which);
    those among ``HANKY_VARIANTS`` are left to ``write_hanky_pictures``, which names them by variant.
    """
    written = []
    pictured = {brain_hanky_board(*args).name for args in HANKY_VARIANTS.values()}
    for name in board_names():
        hboard = _hanky_board(name)
        if hboard is not None:
            if name not in pictured:
                image = render_hanky(hboard, labels=True, title=_hanky_title(hboard))
                written.append(save_png(image, out_dir / f"{name}.png"))
            continue
        graph = board(name)  # drawn by its style's renderer: Brainmaster's holes, the circles' symbols
        image = draw(graph, None, title=f"{name}\n{graph.description}" if graph.description else name)
        written.append(save_png(image, out_dir / f"{name}.png"))
    return written


def write_game_pictures(out_dir: Path) -> list[Path]:
    written = []
    for name in engine.names():
        game = engine.load(name)
        image = render_state(game, sample_state(game))
        written.append(save_png(image, out_dir / f"game-{name}.png", compression=9))
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m vision.docs_pictures OUT_DIR", file=sys.stderr)
        return 2
    out_dir = Path(args[0])
    for path in write_board_pictures(out_dir) + write_hanky_pictures(out_dir) + write_game_pictures(out_dir):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
