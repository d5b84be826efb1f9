"""``arbiter leds``: check the LED wiring of a board and write its layout map.

    arbiter leds map nine-mens-morris --out board-leds.json      # a starter map to edit
    arbiter leds test nine-mens-morris --layout-map board-leds.json   # light the pixels one by one

``test`` lights each spot's pixels in turn with the spot's name, so a builder can walk along
the strip and see that every pixel sits under the point the map says. Without hardware it draws
the board in the terminal (``--leds terminal``, the default off a Raspberry Pi) or to
pictures (``--leds png --leds-out leds.gif``). The options are named as in ``arbiter play``
(``--leds``, ``--leds-out``, ``--layout-map``); the old ``--backend``, ``--out`` and ``--map``
still work.

Errors are one line on stderr with exit status 2, as everywhere in arbiter.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path

import click

from hardware.layout import (LayoutError, load_map, matrix_map, matrix_size_needed, ring_map,
                             serpentine_map, spots_for)
from hardware.leds import BACKENDS, LedError, default_backend, open_pixels
from hardware.palette import STANDARD
from hardware.power import Power

from ..files import write_atomic
from .common import Renamed, console, fail


def _spots(game: str):
    try:
        return spots_for(game)
    except LayoutError as exc:
        fail(str(exc))


def _matrix_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        fail(f"--matrix takes WIDTHxHEIGHT, such as 16x16, not {text!r}")
    return w, h


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def leds() -> None:
    """Check the LEDs round the board and write the map of which pixel lights which point."""


@leds.command("map")
@click.argument("game")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False), help="Map file (JSON) to write.")
@click.option("--wiring", type=click.Choice(["serpentine", "rings", "matrix"]), default="serpentine",
              show_default=True, help="One strip in rows, a ring round each point, or an LED matrix.")
@click.option("--start", type=click.Choice(["top-left", "top-right", "bottom-left", "bottom-right"]),
              default="top-left", show_default=True, help="Corner where the strip's data line comes in.")
@click.option("--leds-per-unit", type=click.IntRange(min=1), default=None,
              help="Serpentine: the strip's pixels per board unit (neighbouring points); unused ones stay dark.")
@click.option("--ring-size", type=click.IntRange(min=1), default=8, show_default=True, help="Rings: pixels per ring.")
@click.option("--matrix", "matrix", default=None, help="Matrix: WIDTHxHEIGHT (default: the smallest that fits).")
@click.option("--pixel-order", type=click.Choice(["GRB", "RGB", "GRBW", "RGBW", "BRG", "BGR"]), default="GRB",
              show_default=True, help="Colour order of the pixels (WS2812B: GRB).")
@click.option("--status/--no-status", default=True, help="Add the turn, clock and error pixels after the board.")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def map_cmd(game: str, out: str, wiring: str, start: str, leds_per_unit: int | None, ring_size: int,
            matrix: str | None, pixel_order: str, status: bool, force: bool) -> None:
    """Write a starter LED map for GAME (a game or a board name) to edit for your wiring."""
    spots = _spots(game)
    if Path(out).exists() and not force:
        fail(f"{out} exists; pass --force to overwrite it")
    try:
        if wiring == "serpentine":
            layout = serpentine_map(spots, start=start, leds_per_unit=leds_per_unit, status=status)
        elif wiring == "rings":
            layout = ring_map(spots, ring_size=ring_size, start=start, status=status)
        else:
            w, h = _matrix_size(matrix) if matrix else matrix_size_needed(spots)
            layout = matrix_map(spots, width=w, height=h, status=status)
    except LayoutError as exc:
        fail(str(exc))
    layout = replace(layout, pixel_order=pixel_order)
    try:
        write_atomic(out, layout.dumps())
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")
    console.print(f"wrote {out}: board {layout.board}, {len(layout.points)} spots on {layout.count} pixels "
                  f"({layout.description})", soft_wrap=True)
    console.print(Power().supply_advice(layout.count) + "; see docs/wiring.md for the supply.", soft_wrap=True)
    console.print(f"Check it with: arbiter leds test {game} --layout-map {out}", soft_wrap=True)


@leds.command("test")
@click.argument("game")
@click.option("--layout-map", "map_file", cls=Renamed, old=("--map",), type=click.Path(dir_okay=False),
              default=None,
              help="LED layout map from `arbiter leds map` (default: one pixel per point in serpentine rows).")
@click.option("--leds", "backend", cls=Renamed, old=("--backend",),
              type=click.Choice([b for b in BACKENDS if b != "memory"]), default=None,
              help="Where to show the pixels (default: neopixel on a Raspberry Pi, terminal elsewhere).")
@click.option("--pin", default="D18", show_default=True, help="NeoPixel data pin: D18, D12, D21 or D10.")
@click.option("--leds-out", "out", cls=Renamed, old=("--out",), default=None, type=click.Path(dir_okay=False),
              help="--leds png: FILE.gif (all pixels, animated), FILE.png, or a name with {n} per frame.")
@click.option("--delay", type=click.FloatRange(min=0), default=None,
              help="Seconds each point stays lit (default 0.6 on a terminal, 0 otherwise).")
@click.option("--step", "step", is_flag=True, help="Wait for Enter before lighting the next point.")
@click.option("--brightness", type=click.FloatRange(0.01, 1.0), default=0.3, show_default=True,
              help="Fraction of full brightness.")
@click.option("--amp-limit", type=click.FloatRange(min=0.05), default=2.0, show_default=True,
              help="Most current (A) the LED supply may give; frames are scaled down to stay under it.")
def test_cmd(game: str, map_file: str | None, backend: str | None, pin: str, out: str | None,
             delay: float | None, step: bool, brightness: float, amp_limit: float) -> None:
    """Light GAME's pixels one point at a time, naming each, to check the wiring."""
    spots = _spots(game)
    try:
        layout = load_map(map_file, spots)
    except LayoutError as exc:
        fail(str(exc))
    backend = backend or default_backend()
    if backend == "png" and out is None:
        fail("--leds png needs --leds-out FILE.gif, FILE.png or a name with {n}")
    if delay is None:
        delay = 0.6 if sys.stdout.isatty() else 0.0
    power = Power(brightness=brightness, amp_limit=amp_limit)
    try:
        pixels = open_pixels(backend, layout, spots, power=power, pin=pin, out=out, console=console,
                             frame_ms=max(100, int(delay * 1000) or 400))
    except LedError as exc:
        fail(str(exc))
    order = layout.order()
    console.print(f"[bold]{layout.board}[/]: {len(order)} points and status pixels on {layout.count} pixels, "
                  f"one at a time ({backend}).", soft_wrap=True)
    try:
        for n, (name, idx) in enumerate(order, 1):
            pixels.fill((0, 0, 0))
            for i in idx:
                pixels[i] = STANDARD.test
            where = f"pixel {idx[0]}" if len(idx) == 1 else f"pixels {min(idx)}-{max(idx)}"
            label = name.replace("status:", "status pixel ")
            pixels.show(caption=f"{where}: {label}")
            if backend not in ("terminal",):
                console.print(f"  {n:3}. {where}: {label}")
            if step:
                console.print("  Enter for the next point, q and Enter to stop: ", end="")
                if sys.stdin.readline().strip().lower().startswith("q"):
                    break
            elif delay:
                time.sleep(delay)
    except LedError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        console.print("stopped")
    finally:
        try:
            pixels.close()
        except LedError as exc:
            fail(str(exc))
    written = getattr(pixels, "written", [])
    if written:
        console.print(f"wrote {', '.join(written[:3])}{' ...' if len(written) > 3 else ''}")
    console.print("Every point should have lit in turn under its name; a point that lit elsewhere "
                  "needs its index fixed in the map.", soft_wrap=True)
