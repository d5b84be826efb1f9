"""The ``arbiter`` command line.

Commands read like sentences (``arbiter rules shax``, ``arbiter replay game.json --json``); every
command has ``--help``; errors are one line on stderr that says what to do, with exit status 2
for unusable input and 1 for an illegal game record.
"""

from __future__ import annotations

import json
import sys
import textwrap
from typing import Any, NoReturn

import click
from rich.console import Console
from rich.table import Table

import engine
from engine.summary import rules_summary

from .records import Record, RecordError, load_record, replay
from .textboard import board_text

console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)


def fail(message: str, status: int = 2) -> NoReturn:
    errors.print(f"[bold red]arbiter:[/] {message}", soft_wrap=True)
    sys.exit(status)


def parse_game_options(name: str, args: list[str]) -> dict[str, Any]:
    """Turn ``--flying``, ``--no-flying``, ``--move-cap 100`` or ``--move-cap=100`` into options."""
    try:
        spec = engine.spec(name)
    except engine.UnknownGame as exc:
        fail(str(exc))
    declared = {o.name.replace("_", "-"): o for o in spec.options}
    out: dict[str, Any] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("--"):
            fail(f"unexpected argument {arg!r}; game options look like --flying or --move-cap 100")
        key, _, value = arg[2:].partition("=")
        negate = key.startswith("no-") and key[3:] in declared and declared[key[3:]].kind is bool
        opt = declared.get(key[3:] if negate else key)
        if opt is None:
            known = ", ".join(f"--{k}" for k in declared) or "none"
            fail(f"{name} has no option --{key} (its options: {known})")
        if opt.kind is bool and not value:
            out[opt.name] = not negate
        else:
            if not value:
                if i + 1 >= len(args):
                    fail(f"--{key} needs a value")
                i += 1
                value = args[i]
            out[opt.name] = value
        i += 1
    try:
        engine.load(name, **out)
    except engine.BadOption as exc:
        fail(str(exc))
    return out


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="arbiter")
def main() -> None:
    """arbiter: a referee for abstract board games played on a real board.

    It watches the board (camera or sensor grid), checks every move against the rules and answers
    with LEDs. Start with `arbiter games`, then `arbiter rules GAME`.
    """


@main.command()
def games() -> None:
    """List every game and variant arbiter referees, family by family."""
    console.print("[bold]Games arbiter referees[/]")
    families = list(dict.fromkeys(spec.family for spec in engine.games.SPECS))
    for family in families:
        table = Table(title=engine.games.FAMILY_TITLES.get(family, family), show_lines=False, title_justify="left")
        table.add_column("game", style="bold cyan", no_wrap=True)
        table.add_column("board")
        table.add_column("options")
        table.add_column("what it is")
        for spec in engine.games.SPECS:
            if spec.family != family:
                continue
            opts = " ".join(f"--{o.name.replace('_', '-')}" for o in spec.options if o.name != "move_cap")
            table.add_row(spec.name, spec.settings.board, opts, spec.summary)
        console.print(table)
    console.print("Every game also takes --move-cap N (moves without a capture before a draw). "
                  "`arbiter rules GAME` explains one game.")


@main.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
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
    try:
        return load_record(path)
    except RecordError as exc:
        fail(str(exc))


@main.command("replay")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the board.")
@click.option("--steps-limit", type=click.IntRange(min=0), default=1000, show_default=True,
              help="List at most this many legal steps in the JSON (crowded Brain Hanky positions have many).")
def replay_cmd(file: str, as_json: bool, steps_limit: int) -> None:
    """Replay the game record FILE and report the final position, or the first illegal step.

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
                                 highlight=_step_points(st.last) if st.last else ()))
        console.print(f"{outcome.game.name}: {outcome.applied} of {len(record.steps)} steps applied")
        if outcome.illegal:
            ill = outcome.illegal
            console.print(f"[bold red]illegal step {ill['index'] + 1} ({ill['step']}):[/] {ill['reason']}")
        console.print(_status_line(st))
    if not outcome.legal:
        sys.exit(1)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False), help="PNG file to write.")
@click.option("--labels/--no-labels", default=True, help="Write point names beside the points.")
def render(file: str, out: str, labels: bool) -> None:
    """Draw the final position of the game record FILE to a PNG picture."""
    record = _load(file)
    try:
        outcome = replay(record)
    except RecordError as exc:
        fail(str(exc))
    from vision.render import (  # OpenCV loads only for this command
        render_state,
        save_png,
    )

    image = render_state(outcome.game, outcome.state, labels=labels)
    try:
        save_png(image, out)
    except (OSError, ValueError) as exc:
        fail(f"cannot write {out}: {exc}")
    note = "" if outcome.legal else f" (stopped at illegal step {outcome.illegal['index'] + 1})"
    console.print(f"wrote {out}: {outcome.game.name} after {outcome.applied} steps{note}")


@main.command("print-board")
@click.argument("game")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False),
              help="FILE.pdf (true scale, tiled over pages if needed) or FILE.png (one image + FILE.points.json).")
@click.option("--paper", type=click.Choice(["a4", "a3", "letter"]), default="a4", show_default=True)
@click.option("--dpi", type=click.IntRange(50, 1200), default=150, show_default=True)
@click.option("--labels/--no-labels", default=True, help="Print point names beside the points.")
def print_board(game: str, out: str, paper: str, dpi: int, labels: bool) -> None:
    """Draw GAME's board at true scale with the four markers the camera looks for."""
    from vision import printable

    try:
        if out.lower().endswith(".pdf"):
            tiling = printable.write_pdf(game, out, paper=paper, dpi=dpi, labels=labels)
            pages = tiling.rows * tiling.cols
            how = "one page" if pages == 1 else f"{pages} pages ({tiling.rows} x {tiling.cols}): tape them along the dashed strips"
            console.print(f"wrote {out}: {how}. Print at 100% scale (no 'fit to page').", soft_wrap=True)
        elif out.lower().endswith(".png"):
            png, points = printable.write_png(game, out, dpi=dpi, labels=labels)
            console.print(f"wrote {png} and {points} (every point's pixel position)", soft_wrap=True)
        else:
            fail("--out must end in .pdf or .png")
    except ValueError as exc:
        fail(str(exc))


@main.group()
def camera() -> None:
    """Find and test the camera that watches the board."""


@camera.command("list")
def camera_list() -> None:
    """List the cameras OpenCV can open on this machine."""
    from vision.capture import list_cameras

    found = list_cameras()
    if not found:
        console.print("No cameras found. Plug in a USB camera (or enable the Pi camera) and try again; "
                      "a Pi camera module is used with --backend picamera2.")
        return
    for cam in found:
        size = f"{cam['size'][0]}x{cam['size'][1]}" if cam["size"] else "no frame delivered"
        console.print(f"  camera {cam['index']}: {cam['device']} ({size})")


def _camera_source(value: str) -> int | str:
    return int(value) if value.isdigit() else value


@camera.command("snapshot")
@click.option("--camera", "source", default="0", show_default=True, help="Camera index, or a video file / URL.")
@click.option("--backend", type=click.Choice(["opencv", "picamera2"]), default="opencv", show_default=True)
@click.option("--width", type=int, default=1280, show_default=True)
@click.option("--height", type=int, default=720, show_default=True)
@click.option("--out", "out", default="snapshot.png", show_default=True, type=click.Path(dir_okay=False))
@click.option("--warmup", type=int, default=5, show_default=True, help="Frames to skip while exposure settles.")
def camera_snapshot(source: str, backend: str, width: int, height: int, out: str, warmup: int) -> None:
    """Take one picture with the camera and save it (to check framing, focus and light)."""
    from vision.capture import Camera, CameraError, CameraSettings
    from vision.render import save_png

    cam = Camera(CameraSettings(source=_camera_source(source), width=width, height=height, backend=backend))
    try:
        cam.open()
    except CameraError as exc:
        fail(str(exc))
    try:
        frame = None
        for _ in range(max(1, warmup + 1)):
            got = cam.read()
            if got.image is not None:
                frame = got
        if frame is None:
            fail("the camera delivered no picture: check the cable and lighting, then try again", 1)
        save_png(frame.image, out)
    finally:
        cam.close()
    h, w = frame.image.shape[:2]
    console.print(f"wrote {out} ({w}x{h})")


def _step_points(step) -> tuple[str, ...]:
    pts = [step.dst] + ([step.src] if step.src else [])
    return tuple(pts)


def _status_line(state) -> str:
    if state.result is not None:
        r = state.result
        who = "draw" if r.draw else f"player {r.winner} wins"
        return f"[bold green]Game over: {who}[/] — {r.reason}"
    return f"player {state.to_move} to move ({state.phase})"


@main.command()
@click.option("--delay", type=click.FloatRange(min=0), default=None,
              help="Seconds to pause after each line of the story (default 0.1 on a terminal, 0 otherwise).")
@click.option("--fast", is_flag=True, help="No pauses at all (the same as --delay 0).")
def demo(delay: float | None, fast: bool) -> None:
    """Watch a refereed game on a simulated table: camera, vision, referee, journal and LEDs.

    Simulated players play a scripted game of Nine Men's Morris on a simulated board; a simulated
    camera photographs it and arbiter's real vision code reads every frame; the referee catches
    the mistakes on the way; the LEDs are drawn in the terminal. Takes a few seconds.
    """
    from .demo import run_demo

    if fast:
        delay = 0.0
    elif delay is None:
        delay = 0.1 if sys.stdout.isatty() else 0.0
    if not run_demo(console, delay=delay):
        fail("the demo game did not check out (see above)", 1)


# Commands kept in their own modules; they import ``fail``/``console`` from here lazily.
from .export_cli import export  # noqa: E402
from .hint_cli import hint  # noqa: E402
from .leds_cli import leds  # noqa: E402
from .play_cli import play  # noqa: E402
from .vision_cli import calibrate, read  # noqa: E402

main.add_command(export)
main.add_command(hint)
main.add_command(leds)
main.add_command(play)
main.add_command(calibrate)
main.add_command(read)

if __name__ == "__main__":  # pragma: no cover
    main()
