"""``arbiter hint RECORD``: the solved value of a game record's position and every best step.

For the solved games (``arbiter.hints``): the record is replayed, and the position it ends in is
looked up: a win, loss or draw for the player to move, in how many steps with best play, and
every step that keeps that value.
"""

from __future__ import annotations

import json
import sys

import click

from .common import console, errors, fail, load_game_record


@click.command("hint")
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of sentences.")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help="Where solved games are kept (default: $ARBITER_CACHE_DIR or ~/.cache/arbiter).")
def hint(record: str, as_json: bool, cache_dir: str | None) -> None:
    """Say what best play gets from the position the game record RECORD (or a journal) ends in.

    Works for the solved games: the 3x3 games, Tatu Vyura, Tatu Nyoka, Tatu Ndege, Moja na Nusu
    and Tableaux. The first hint for a game may take a few seconds; it is kept for next time.

    Exit status: 0 a hint, 1 an illegal step in the record, 2 no hint possible.
    """
    from pathlib import Path

    from ..hints import HintError, HintStore
    from ..records import RecordError, replay

    try:
        outcome = replay(load_game_record(record))
    except RecordError as exc:
        fail(str(exc))
    if not outcome.legal:
        ill = outcome.illegal
        fail(f"step {ill['index'] + 1} ({ill['step']}) of {record} is illegal: {ill['reason']}", 1)
    game, state = outcome.game, outcome.state
    store = HintStore(Path(cache_dir) / "solved" if cache_dir else None,
                      warn=lambda text: errors.print(f"[yellow]arbiter:[/] {text}", soft_wrap=True),
                      progress=lambda text: errors.print(text, soft_wrap=True))
    try:
        got = store.hint(game, state)
    except HintError as exc:
        fail(str(exc))
    mover = state.to_move
    if as_json:
        out = {"game": game.name, "to_move": mover, "value": got.outcome, "steps": got.plies, "best": list(got.best)}
        if hasattr(got, "possible"):  # a code breaker's hint: the codes that still fit the rows
            out["possible"] = got.possible
        click.echo(json.dumps(out))
        return
    console.print(f"{game.name}: player {mover} to move; {got.words()}.", soft_wrap=True)
    if got.best:
        label = "next guess" if got.outcome == "open" else "best step" if len(got.best) == 1 else "best steps"
        console.print(f"{label}: {' '.join(got.best)}", soft_wrap=True)
    if got.outcome == "loss":
        console.print("(every step loses against best play; these hold out longest)", soft_wrap=True)
    sys.stdout.flush()
