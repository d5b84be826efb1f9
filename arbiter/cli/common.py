"""What every command shares: the consoles, failing with a message that says what to do, game options.

Errors are one line on stderr that says what to do, with exit status 2 for unusable input and 1
for an illegal game record or a failed check.
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

import click
from rich.console import Console

import engine

console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)

GAME_ARGS = {"ignore_unknown_options": True, "allow_extra_args": True}  # game options follow GAME


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
