"""``arbiter sensor-sim``, ``sensor-monitor`` and ``sensor-firmware``: the serial sensor board.

    arbiter sensor-firmware nine-mens-morris --out pico/      # the files to copy onto the Pico
    arbiter sensor-monitor                                    # live cells, frame rate, errors
    arbiter sensor-monitor --game nine-mens-morris --test     # find a dead or stuck sensor
    arbiter sensor-sim tapatan                                # a virtual board; prints its port

``arbiter play GAME --reader serial`` uses ``open_sensor_board`` and ``board_pixels`` from here.
Errors are one line on stderr with exit status 2, as everywhere in arbiter.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

import engine

from .common import GAME_ARGS, Renamed, console, fail, parse_game_options

__all__ = ["COMMANDS", "Monitor", "board_pixels", "open_sensor_board"]


# ============================================================================ for arbiter play
def open_sensor_board(g, port: str | None, map_path: str | None):
    """The sensor board as a reader of ``g``'s board, or a one-line refusal that says what to do."""
    from firmware_bridge.host import DeviceError, SensorLink
    from firmware_bridge.maps import SensorMapError, load_map
    from firmware_bridge.reader import SerialReader

    try:
        smap = load_map(map_path, g.board.name)
    except SensorMapError as exc:
        fail(str(exc))
    link = SensorLink(port)
    try:
        info = link.open()
    except DeviceError as exc:
        fail(f"{exc} (no board? `arbiter play {g.name} --reader sim-occupancy` plays on a simulated one)")
    try:
        smap.check_device(info.rows, info.cols)
    except SensorMapError as exc:
        link.close()
        fail(str(exc))
    if info.sensing == "polarity" and g.players > 2:
        link.close()
        fail(f"a polarity board tells two colours apart, and {g.name} is played by {g.players} here: "
             f"play it with the camera (--reader camera)")
    if info.sensing == "occupancy" and getattr(g.rules, "hboard", None) is not None:
        console.print("[yellow]An occupancy board cannot see which rings a Brain Hanky string move pushed: "
                      "arbiter will often ask, with the buttons, which move was made. A polarity board or "
                      "the camera reads Brain Hanky fully (docs/play.md).[/]", soft_wrap=True)
    console.print(f"Sensor board on {info.port}: {info.describe()}.", soft_wrap=True)
    return SerialReader(link, smap, g)


def board_pixels(sensor, layout, brightness: float):
    """The sensor board's own LEDs as the session's pixels."""
    from hardware.power import Power

    from ..sensor_leds import BoardPixels

    have = sensor.link.info.led_count
    if have < layout.count:
        sensor.link.close()
        fail(f"the sensor board has {have} LEDs and the LED map needs {layout.count}: give the map of its wiring "
             f"with --layout-map, or show the signals elsewhere (--leds terminal)")
    return BoardPixels(sensor.link, layout.count, power=Power(brightness=brightness, amp_limit=2.0))


# ============================================================================ sensor-firmware
@click.command("sensor-firmware")
@click.argument("target")
@click.option("--out", "out", required=True, type=click.Path(file_okay=False), help="Folder to write the files to.")
@click.option("--sensing", type=click.Choice(["occupancy", "polarity"]), default=None,
              help="Reed switches (occupancy) or hall sensors (polarity) [default: polarity for Brain Hanky, "
                   "occupancy otherwise].")
@click.option("--led-count", "led_count", cls=Renamed, old=("--leds",), type=click.IntRange(min=0), default=None,
              help="NeoPixels on the board [default: as many as the board's default LED map has].")
@click.option("--link", type=click.Choice(["usb", "uart"]), default="usb", show_default=True,
              help="How the Pico talks to the Pi: its own USB port, or the UART on GP0/GP1.")
@click.option("--force", is_flag=True, help="Overwrite files already in the folder.")
def sensor_firmware(target: str, out: str, sensing: str | None, led_count: int | None, link: str, force: bool) -> None:
    """Write the Pico firmware for TARGET (a game or a board) into a folder, ready to copy.

    Then: `mpremote cp OUT/*.py :` and `mpremote reset` (docs/protocol.md, section Flashing).
    The sensor map (which cell is under which point) is written beside it, to edit if the
    wiring differs.
    """
    from engine.boards import BoardError, board as board_named, board_names
    from firmware_bridge.flash import FirmwareError, firmware_files
    from firmware_bridge.maps import shipped_map
    from hardware.layout import load_map as led_map

    if target in engine.names():
        board = engine.load(target).board
    else:
        try:
            board = board_named(target)
        except BoardError:
            fail(f"{target!r} is neither a game nor a board; games: {', '.join(engine.names())}; "
                 f"boards: {', '.join(board_names())}")
    smap = shipped_map(board.name)
    sensing = sensing or ("polarity" if board.style == "brain-hanky" else "occupancy")
    count = led_count if led_count is not None else led_map(None, board.name).count
    try:
        files = firmware_files(smap, sensing, count, link)
    except FirmwareError as exc:
        fail(str(exc))
    folder = Path(out)
    files[f"sensor-map-{board.name}.json"] = smap.dumps()
    clash = [n for n in files if (folder / n).exists()]
    if clash and not force:
        fail(f"{folder} already has {', '.join(clash)}; pass --force to overwrite")
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    console.print(f"Wrote the firmware for the {board.name} board ({smap.rows}x{smap.cols} {sensing}, {count} LEDs) "
                  f"to {folder}/. Copy it onto the Pico:\n    mpremote cp {folder}/*.py :\n    mpremote reset",
                  soft_wrap=True)


# ============================================================================ sensor-monitor
class Monitor:
    """What ``sensor-monitor`` shows and tests: the live cells, rates, errors, and per cell whether
    it has been seen on and off (the test mode) and how often it changed."""

    def __init__(self, link, sensor_map=None):
        self.link = link
        self.map = sensor_map
        self.spot = sensor_map.spot_of() if sensor_map is not None else {}
        n = link.info.cells
        self.at_start: list[int] | None = None
        self.seen_on = [False] * n
        self.seen_off = [False] * n
        self.changes = [0] * n
        self._last: list[int] | None = None
        self.started = link.now()

    def update(self) -> None:
        link = self.link
        if not link.ready:
            return
        cells = link.cells
        if self.at_start is None:
            self.at_start = list(cells)
        for i, v in enumerate(cells):
            if v in (1, 2):
                self.seen_on[i] = True
            elif v == 0:
                self.seen_off[i] = True
            if self._last is not None and self._last[i] != v:
                self.changes[i] += 1
        self._last = list(cells)

    def name(self, cell: int) -> str:
        cols = self.link.info.cols
        where = f"row {cell // cols} column {cell % cols}"
        spot = self.spot.get(cell)
        return f"{spot} ({where})" if spot else where

    def wired(self) -> list[int]:
        """The cells that have a sensor: the map's, or every cell without a map."""
        return sorted(self.spot) if self.spot else list(range(self.link.info.cells))

    def findings(self) -> dict[str, list[str]]:
        seconds = max(1e-9, self.link.now() - self.started)
        out = {"dead": [], "stuck": [], "chattering": [], "unmapped": [], "faulty": []}
        for i in self.wired():
            if not self.seen_on[i] and self.seen_off[i]:
                out["dead"].append(self.name(i))
            elif self.seen_on[i] and not self.seen_off[i]:
                out["stuck"].append(self.name(i))
            if self.changes[i] / seconds > 5:
                out["chattering"].append(self.name(i))
        if self.spot:
            out["unmapped"] = [self.name(i) for i in range(len(self.seen_on)) if i not in self.spot and self.seen_on[i]]
        if self._last is not None:
            out["faulty"] = [self.name(i) for i, v in enumerate(self._last) if v == 3]
        return out

    def grid(self):
        from rich.table import Table
        from rich.text import Text

        info = self.link.info
        cells = self.link.cells if self.link.cells else [0] * info.cells
        glyph = {0: ("·", "dim"), 1: ("●", "bold bright_white"), 2: ("○", "bold red"), 3: ("!", "bold yellow")}
        t = Table.grid(padding=(0, 1))
        for r in range(info.rows):
            row = []
            for c in range(info.cols):
                i = r * info.cols + c
                g, style = glyph.get(cells[i], ("?", "red"))
                if self.spot and i not in self.spot:
                    g, style = " ", ""
                tested = self.seen_on[i] and self.seen_off[i]
                row.append(Text(g, style=style + (" underline" if tested else "")))
            t.add_row(*row)
        return t

    def status(self) -> str:
        link, d = self.link, self.link.decoder
        dev = link.device_stats
        state = "ready" if link.ready else (link.problem or "not ready")
        bad = link.stats["bad_cells"]
        named = f" ({', '.join(map(str, link.bad_cells))})" if bad else ""
        text = (f"{link.frame_rate():.0f} frames/s · {link.stats['frames']} frames · damaged {d.errors()} "
                f"(CRC {d.bad_crc}, framing {d.bad_cobs + d.too_short + d.oversize + d.cut_short}) · lost "
                f"{link.stats['lost']} · resyncs {link.stats['resyncs']} · reconnects {link.stats['reconnects']} · "
                f"restarts {link.stats['resets'] + link.stats['silent_restarts']} · cells the board does not have "
                f"{bad}{named} · line: {link.health.describe(link.now())} · board saw {dev.get('rx_bad', 0)} bad "
                f"frames, {dev.get('scans', 0)} scans in {dev.get('uptime_ms', 0) / 1000:.0f} s · {state}")
        warning = link.warning
        return text + (f"\nWarning: {warning}" if warning else "")


@click.command("sensor-monitor")
@click.option("--port", default=None, help="The board's port (default: found by its USB id).")
@click.option("--game", "target", default=None, help="A game or board: name the cells by its points (its sensor map).")
@click.option("--sensor-map", "map_path", type=click.Path(dir_okay=False), default=None,
              help="The sensor map to name cells by (default: the map shipped for --game's board).")
@click.option("--test", "test_mode", is_flag=True,
              help="Test every sensor: put a piece on each point and take it off; dead and stuck ones are listed.")
@click.option("--seconds", type=click.FloatRange(min=0), default=None, help="Stop after this long (default: Ctrl-C).")
@click.option("--once", is_flag=True, help="Print the cells and counters once and stop.")
def sensor_monitor(port: str | None, target: str | None, map_path: str | None, test_mode: bool,
                   seconds: float | None, once: bool) -> None:
    """Watch a sensor board: its cells live, frames a second, damaged and lost frames.

    With --test, put a piece on every point in turn and take it off again: each cell is
    underlined once it has been seen both ways; at the end arbiter lists the sensors that never
    closed (dead, or not tested), never opened (stuck), or flicker. Exit status 1 if any.
    """
    from firmware_bridge.host import DeviceError, SensorLink
    from firmware_bridge.maps import SensorMapError, load_map

    smap = None
    if target is not None or map_path is not None:
        from engine.boards import board_names

        if target is None:
            fail("--sensor-map needs --game (the game or board it maps)")
        board = engine.load(target).board.name if target in engine.names() else target
        if board not in board_names():
            fail(f"{target!r} is neither a game nor a board")
        try:
            smap = load_map(map_path, board)
        except SensorMapError as exc:
            fail(str(exc))
    link = SensorLink(port)
    try:
        info = link.open()
    except DeviceError as exc:
        fail(str(exc))
    try:
        if smap is not None:
            try:
                smap.check_device(info.rows, info.cols)
            except SensorMapError as exc:
                fail(str(exc))
        console.print(f"Sensor board on {info.port}: {info.describe()}.", soft_wrap=True)
        if test_mode:
            console.print("Test: put a piece on every point in turn and take it off again. Ctrl-C ends the test.",
                          soft_wrap=True)
        mon = Monitor(link, smap)
        end = None if seconds is None else time.monotonic() + seconds
        try:
            _watch(mon, end, once)
        except KeyboardInterrupt:
            pass
        console.print(mon.grid())
        console.print(mon.status(), soft_wrap=True)
        if test_mode:
            bad = _report(mon)
            if bad:
                sys.exit(1)
    finally:
        link.close()


def _watch(mon: Monitor, end: float | None, once: bool) -> None:
    link = mon.link
    if once:
        t = time.monotonic() + 0.3
        while time.monotonic() < t:
            link.poll(0.01)
            mon.update()
        return
    if not console.is_terminal:
        while end is None or time.monotonic() < end:
            link.poll(0.01)
            mon.update()
        return
    from rich.console import Group
    from rich.live import Live

    with Live(Group(mon.grid(), mon.status()), console=console, refresh_per_second=10, transient=True) as live:
        last = 0.0
        while end is None or time.monotonic() < end:
            link.poll(0.01)
            mon.update()
            if time.monotonic() - last > 0.1:
                last = time.monotonic()
                live.update(Group(mon.grid(), mon.status()))


def _report(mon: Monitor) -> bool:
    f = mon.findings()
    words = {"dead": "never closed (dead, or not tested yet)", "stuck": "never opened (stuck, or a piece stayed on)",
             "chattering": "changed more than 5 times a second (a loose wire or a bouncing contact)",
             "unmapped": "read on, but the map has no point there (check the map)",
             "faulty": "report a fault (an analog reading out of range: a broken wire or sensor)"}
    bad = False
    for key, what in words.items():
        if f[key]:
            bad = bad or key != "unmapped"
            console.print(f"[bold red]{len(f[key])} sensor{'s' if len(f[key]) > 1 else ''} {what}:[/] "
                          f"{', '.join(f[key])}", soft_wrap=True)
    if not bad:
        console.print(f"[bold green]All {len(mon.wired())} sensors closed and opened.[/]")
    return bad


# ============================================================================ sensor-sim
@click.command("sensor-sim", context_settings=GAME_ARGS)
@click.argument("game")
@click.option("--sensing", type=click.Choice(["occupancy", "polarity"]), default="occupancy", show_default=True,
              help="Reed switches (a piece or none) or hall sensors (which colour).")
@click.option("--led-count", "led_count", cls=Renamed, old=("--leds",), type=click.IntRange(min=0), default=None,
              help="The virtual board's LEDs [default: as many as the game's LED map has].")
@click.option("--scan-hz", type=click.FloatRange(1, 1000), default=100.0, show_default=True,
              help="Sensor scans a second.")
@click.option("--bounce-ms", type=click.FloatRange(min=0), default=2.0, show_default=True,
              help="How long a sensor flickers after a piece is put down or lifted.")
@click.option("--bit-errors", type=click.FloatRange(0, 0.5), default=0.0, show_default=True,
              help="The chance that a byte sent is spoilt by noise.")
@click.option("--drop-bytes", type=click.FloatRange(0, 0.5), default=0.0, show_default=True,
              help="The chance that a byte sent is lost.")
@click.option("--protocol-version", type=click.IntRange(0, 255), default=None,
              help="Speak another protocol version (to see arbiter refuse it).")
@click.option("--script", type=click.Path(dir_okay=False), default=None,
              help="A game record to play on the board, one step every --every seconds, once a host is connected.")
@click.option("--every", type=click.FloatRange(min=0.05), default=1.5, show_default=True,
              help="--script: seconds between two steps.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the noise, dropped bytes, contact bounce and boot ids: a noisy run is the same again.")
@click.option("--seconds", type=click.FloatRange(min=0), default=None, help="Stop after this long (default: Ctrl-C).")
@click.pass_context
def sensor_sim(ctx: click.Context, game: str, sensing: str, led_count: int | None, scan_hz: float, bounce_ms: float,
               bit_errors: float, drop_bytes: float, protocol_version: int | None, script: str | None, every: float,
               seed: int, seconds: float | None) -> None:
    """A virtual sensor board under a GAME board, on a pseudo-terminal: prints the port to use.

    In another terminal, `arbiter play GAME --reader serial --port PORT` referees it. Here,
    type what hands do to the board: `put d1 white`, `move d1 d2`, `take g7`, `lift d1`,
    `drop d2`, `push A B C` (Brain Hanky); what goes wrong with boards: `fault SPOT` (its sensor
    reads a fault until `mend SPOT`), `noise P` (a share P of bytes spoilt from now on, e.g.
    `noise 0.1`), `ghost CELL ...` (a change report naming cells, as a firmware built for another
    matrix would), `unplug`, `plug`, `reset`; and `board`, `quit`.
    Or give --script to have a game record played on it.
    """
    from ..sim.physical import PhysicalBoard
    from ..sim.sensor import SensorRig

    options = parse_game_options(game, list(ctx.args))
    g = engine.load(game, **options)
    steps = []
    if script is not None:
        from ..records import RecordError, load_record

        try:
            steps = list(load_record(script).steps)
        except RecordError as exc:
            fail(str(exc))
    if led_count is None:
        from hardware.layout import load_map, spots_for

        led_count = load_map(None, spots_for(g)).count
    board = PhysicalBoard(g)
    extra = {} if protocol_version is None else {"protocol_version": protocol_version}
    rig = SensorRig(board, sensing=sensing, led_count=led_count, scan_hz=scan_hz, bounce_ms=bounce_ms,
                    bit_errors=bit_errors, drop_bytes=drop_bytes, seed=seed, **extra)
    port = rig.start()
    console.print(f"Virtual sensor board ({rig.map.rows}x{rig.map.cols} {sensing}, {led_count} LEDs, protocol "
                  f"v{rig.device.protocol_version}, seed {seed}) on port: {port}", soft_wrap=True)
    console.print(f"Referee it with:  arbiter play {game} --reader serial --port {port}", soft_wrap=True)
    sys.stdout.flush()
    end = None if seconds is None else time.monotonic() + seconds
    try:
        if steps:
            _play_script(g, rig, steps, every, end)
        elif sys.stdin.isatty():
            _interactive(g, rig, end)
        while end is None or time.monotonic() < end:
            time.sleep(0.05)
    except KeyboardInterrupt:
        pass
    finally:
        rig.stop()
        console.print(f"Stopped. Sent {rig.device.stats['frames']} frames "
                      f"({rig.device.stats['corrupted']} bytes spoilt, {rig.device.stats['dropped']} lost).")


def _do(rig, words: list[str]) -> str:
    """Carry out one typed action on the virtual board; returns what to print."""
    from firmware_bridge import wire

    from ..sim.physical import PhysicalError, parse_piece

    b = rig.board
    verb, args = words[0], words[1:]
    try:
        with rig.device.lock:
            if verb == "put" and args:
                b.put(args[0], parse_piece(b.game, args[1:] or ["1"], args[0]))
            elif verb == "move" and len(args) == 2:
                b.move(args[0], args[1])
            elif verb in ("take", "lift") and args:
                for spot in args:
                    (b.take if verb == "take" else b.lift)(spot)
            elif verb == "drop" and args:
                b.put(args[0])
            elif verb == "push" and len(args) >= 2:
                b.push(args)
            elif verb in ("fault", "mend") and args:
                for spot in args:
                    (rig.fault if verb == "fault" else rig.mend)(spot)
                return f"{verb}: {', '.join(args)}; sensors reading a fault: {len(rig.faults)}"
            elif verb == "noise" and len(args) == 1:
                share = float(args[0])
                if not 0 <= share <= 0.5:
                    return "noise takes a share of bytes from 0 to 0.5, e.g. noise 0.1"
                rig.device.bit_errors = share
                return f"{share:.1%} of bytes sent are spoilt from now on"
            elif verb == "ghost" and args:
                cells = [int(a) for a in args]
                if any(not 0 <= c <= 0xFFFF for c in cells):
                    return "ghost takes cell numbers from 0 to 65535"
                rig.device.report_cells([(c, wire.NORTH) for c in cells])
                return f"sent a change report naming cells {', '.join(args)}"
            elif verb == "unplug":
                rig.device.unplug()
                return "unplugged"
            elif verb == "plug":
                rig.device.plug()
                return f"plugged in again on {rig.port}"
            elif verb == "reset":
                rig.device.reset()
                return "restarted (as by the watchdog)"
            elif verb == "board":
                return repr(b)
            else:
                return ("actions: put SPOT COLOUR, move A B, take SPOT, lift SPOT, drop SPOT, push A B ..., "
                        "fault SPOT, mend SPOT, noise P, ghost CELL ..., unplug, plug, reset, board, quit")
    except PhysicalError as exc:
        return str(exc)
    except ValueError as exc:  # a spot the board does not have, a number that is not one
        return str(exc)
    return repr(b)


def _interactive(g, rig, end) -> None:
    while end is None or time.monotonic() < end:
        try:
            line = input("board> ")
        except EOFError:
            return
        words = line.split()
        if not words:
            continue
        if words[0] in ("quit", "exit"):
            raise KeyboardInterrupt
        console.print(_do(rig, words), soft_wrap=True)


def _play_script(g, rig, steps: list[str], every: float, end) -> None:
    """Play a game record on the board once a host has connected (it has sent something)."""
    from ..sim.scenario import step_actions

    while rig.device.stats["rx_bytes"] == 0:
        if end is not None and time.monotonic() > end:
            return
        time.sleep(0.05)
    console.print("A host is connected; playing the record.")
    sys.stdout.flush()
    state = g.new()
    for text in steps:
        time.sleep(every)
        step = state.parse(text)
        for action in step_actions(state, step):
            if action.verb == "cluster":
                from engine.core import Piece

                with rig.device.lock:
                    rig.board.put(action.args[0], Piece(int(action.args[1]), "gem"))
                    for point in g.rules.hboard.squares[action.args[0]].points.values():
                        rig.board.put(point, Piece(int(action.args[1]), "ring"))
            else:
                console.print(f"{text}: {_do(rig, [action.verb, *action.args])}", soft_wrap=True)
        sys.stdout.flush()
        state = state.play(step)
    console.print("The record is played out.")
    sys.stdout.flush()


COMMANDS = (sensor_sim, sensor_monitor, sensor_firmware)
