"""``arbiter games``, ``rules``, ``replay`` and ``render``: the games and their records."""

from __future__ import annotations

import json
import sys
import textwrap

import click
from rich.table import Table

import engine
from engine.summary import rules_summary

from ..records import Record, RecordError, replay
from ..textboard import board_text
from .common import GAME_ARGS, console, fail, load_game_record, parse_game_options


@click.command()
def games() -> None:
    """List every game and variant arbiter referees, family by family."""
    console.print("[bold]Games arbiter referees[/]")
    specs = engine.games.specs()
    for family in dict.fromkeys(spec.family for spec in specs):
        table = Table(title=engine.games.FAMILY_TITLES.get(family, family), show_lines=False, title_justify="left")
        table.add_column("game", style="bold cyan", no_wrap=True)
        table.add_column("board")
        table.add_column("options")
        table.add_column("what it is")
        for spec in specs:
            if spec.family != family:
                continue
            opts = " ".join(f"--{o.name.replace('_', '-')}" for o in spec.options if o.name != "move_cap")
            table.add_row(spec.name, spec.settings.board, opts, spec.summary)
        console.print(table)
    console.print("Every game also takes --move-cap N (moves without a capture before a draw). "
                  "`arbiter rules GAME` explains one game.")


@click.command(context_settings=GAME_ARGS)
@click.argument("game")
@click.pass_context
def rules(ctx: click.Context, game: str) -> None:
    """Show the rules of GAME as arbiter enforces them, with the rulings that settle open points.

    Game options may follow, e.g. `arbiter rules seven-mens-morris --flying`.
    """
    options = parse_game_options(game, list(ctx.args))
    g = engine.load(game, **options)
    console.print(f"[bold]{g.name}[/] — {g.spec.summary}")
    if options:
        console.print("options: " + ", ".join(f"{k}={v}" for k, v in g.options.items()))
    for heading, lines in rules_summary(g):
        console.print(f"\n[bold underline]{heading}[/]")
        width = max(40, min(console.width, 100))
        for line in lines:
            console.print(textwrap.fill(line, width, initial_indent="  • ", subsequent_indent="    "),
                          soft_wrap=True)
    console.print("\n[dim]Ruling ids refer to the project's rulings (docs/rules.md).[/]")


def _load(path: str) -> Record:
    return load_game_record(path)


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the board.")
@click.option("--steps-limit", type=click.IntRange(min=0), default=1000, show_default=True,
              help="List at most this many legal steps in the JSON (crowded Brain Hanky positions have many).")
def replay_cmd(file: str, as_json: bool, steps_limit: int) -> None:
    """Replay the game record FILE and report the final position, or the first illegal step.

    FILE may also be a game's journal: it is read as `arbiter export` would write it.
    Exit status: 0 all steps legal, 1 an illegal step (reported), 2 an unusable file.
    """
    record = _load(file)
    try:
        outcome = replay(record)
    except RecordError as exc:
        fail(str(exc))
    if as_json:
        click.echo(json.dumps(outcome.as_dict(steps_limit)))
    else:
        st = outcome.state
        console.print(board_text(outcome.game.board, st.position(),
                                 highlight=_last_points(st)))
        stacks = outcome.stacks()
        if stacks:  # the board shows only the top pieces
            console.print("stacks (bottom first): " + "; ".join(
                f"{p}: {' '.join(str(o) for o in owners)}" for p, owners in stacks.items()))
        console.print(f"{outcome.game.name}: {outcome.applied} of {len(record.steps)} steps applied")
        if outcome.illegal:
            ill = outcome.illegal
            console.print(f"[bold red]illegal step {ill['index'] + 1} ({ill['step']}):[/] {ill['reason']}")
        console.print(_status_line(st))
    if not outcome.legal:
        sys.exit(1)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False), help="PNG file to write.")
@click.option("--labels/--no-labels", default=True, help="Write point names beside the points.")
def render(file: str, out: str, labels: bool) -> None:
    """Draw the final position of the game record FILE (or a game's journal) to a PNG picture."""
    record = _load(file)
    try:
        outcome = replay(record)
    except RecordError as exc:
        fail(str(exc))
    from vision.pictures import render_state  # OpenCV loads only for this command
    from vision.render import save_png

    image = render_state(outcome.game, outcome.state, labels=labels)
    try:
        save_png(image, out)
    except (OSError, ValueError) as exc:
        fail(f"cannot write {out}: {exc}")
    note = "" if outcome.legal else f" (stopped at illegal step {outcome.illegal['index'] + 1})"
    console.print(f"wrote {out}: {outcome.game.name} after {outcome.applied} steps{note}")


def _last_points(state) -> tuple[str, ...]:
    """The spots of the step that led to ``state`` (none for a family whose states keep no ``last``)."""
    last = getattr(state, "last", None)
    return _step_points(last) if last else ()


def _step_points(step) -> tuple[str, ...]:
    pts = [step.dst] + ([step.src] if step.src else [])
    return tuple(pts)


def _status_line(state) -> str:
    if state.result is not None:
        r = state.result
        who = "draw" if r.draw else f"player {r.winner} wins"
        return f"[bold green]Game over: {who}[/] — {r.reason}"
    return f"player {state.to_move} to move ({state.phase})"
