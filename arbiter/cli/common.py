"""What every command shares: the consoles, failing with a message that says what to do, game options.

Errors are one line on stderr that says what to do, with exit status 2 for unusable input and 1
for an illegal game record or a failed check.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import click
from rich.console import Console
from rich.markup import escape

import engine

console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)

GAME_ARGS = {"ignore_unknown_options": True, "allow_extra_args": True}  # game options follow GAME


def fail(message: str, status: int = 2) -> NoReturn:
    errors.print(f"[bold red]arbiter:[/] {message}", soft_wrap=True)
    sys.exit(status)


def _command_name() -> str:
    """The command as a user types it (``arbiter play``), however arbiter was started."""
    ctx = click.get_current_context(silent=True)
    names = []
    while ctx is not None and ctx.parent is not None:
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(["arbiter", *reversed(names)])


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
            command = _command_name()
            fail(f"{command} has no option --{key} (see `{command} --help`), and {name}'s game options "
                 f"are {known}")
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


class Renamed(click.Option):
    """An option with a new name whose old spellings (``old``) still work, so scripts written
    before the rename keep running, but appear in no help: every command shows one name per
    concept (--camera-backend, --leds, --leds-out, --layout-map)."""

    def __init__(self, param_decls, old: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__([*param_decls, *old], **kwargs)
        self.old = tuple(old)

    def _shown(self, method, ctx):
        opts = self.opts
        self.opts = [o for o in opts if o not in self.old]
        try:
            return method(ctx)
        finally:
            self.opts = opts

    def get_help_record(self, ctx: click.Context):
        return self._shown(super().get_help_record, ctx)

    def get_error_hint(self, ctx: click.Context | None) -> str:
        return self._shown(super().get_error_hint, ctx)


def camera_backend_option(old: tuple[str, ...] = ("--backend",)):
    """--camera-backend, shared by every command that opens a camera; ``old``: the spellings the
    command accepted before (``camera snapshot`` and ``calibrate`` called it --backend)."""
    return click.option("--camera-backend", "camera_backend", cls=Renamed, old=old,
                        type=click.Choice(["opencv", "picamera2"]), default="opencv", show_default=True,
                        help="How the camera is opened: OpenCV (USB cameras, files, streams) or picamera2 "
                             "(a Raspberry Pi camera module).")


def load_game_record(path: str):
    """The game record at ``path`` (``arbiter.records``), for replay, render and hint.

    A game's journal is read too, as the record ``arbiter export`` makes of it (take-backs and
    corrections applied), with a note on stderr saying so: a player who has only the journal of
    the game just played should not be told it is "not valid JSON"."""
    from ..records import RecordError, load_record

    try:
        return load_record(path)
    except RecordError as exc:
        if not _is_journal(path):
            fail(str(exc))
    from ..journal import JournalError, load_public

    try:
        contents = load_public(path)
    except JournalError as exc:
        fail(str(exc))
    for warning in contents.warnings:
        errors.print(f"[yellow]arbiter: warning:[/] {escape(warning)}", soft_wrap=True)
    ended = f"; the journal ends the game: {contents.ended.get('reason', '')}" if contents.ended else ""
    errors.print(f"[yellow]arbiter: note:[/] {escape(path)} is a game's journal, read as the game record "
                 f"`arbiter export {escape(path)} --out game.json` would write{escape(ended)}", soft_wrap=True)
    return contents.to_record()


def _is_journal(path: str) -> bool:
    """Whether the file starts with a journal's header line (``arbiter.journal``)."""
    from ..journal import MARKER

    try:
        with open(path, "rb") as fh:
            first = fh.readline(1 << 16)
        header = json.loads(first)
    except (OSError, ValueError):
        return False
    return isinstance(header, dict) and MARKER in header


def camera_source(value: str) -> int | str:
    """A camera index ("0") or a video file / URL."""
    return int(value) if value.isdigit() else value


def _exposure_option(ctx: click.Context, param: click.Parameter, value: str | None) -> float | str | None:
    from vision.capture import parse_exposure

    try:
        return parse_exposure(value)
    except ValueError:
        raise click.BadParameter(f'{value!r}: use "auto" or a number (the camera\'s own units; '
                                 f'`arbiter camera snapshot` shows them)') from None


def exposure_options(f):
    """--exposure, --gain and --ev, shared by the commands that open a camera."""
    f = click.option("--ev", type=float, default=None,
                     help="Exposure compensation in stops with automatic exposure, e.g. -1 (Pi camera only).")(f)
    f = click.option("--gain", type=float, default=None, help="Sensor gain (Pi camera: 1.0 = none).")(f)
    f = click.option("--exposure", "exposure", default=None, callback=_exposure_option, metavar="auto|VALUE",
                     help="Automatic exposure, or a manual value in the camera's own units (Linux USB camera: "
                          "100 µs, e.g. 150; Windows: log2 seconds, e.g. -6; Pi camera: µs, e.g. 10000). "
                          "[default: leave the camera as it is]")(f)
    return f
