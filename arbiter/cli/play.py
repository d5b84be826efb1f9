"""``arbiter play GAME``: referee a game on the physical board (or on a simulated one).

    arbiter play nine-mens-morris                               # camera 0, calibration-nine-mens-morris.json
    arbiter play morabaraba --clock 10m+5s --leds neopixel      # with a clock and the board's LEDs
    arbiter play nine-mens-morris --resume                      # carry on after a crash or power cut
    arbiter play tapatan --resume GAME.jsonl                    # that game, set up as its journal says
    arbiter play tapatan --reader sim --journal /media/usb/games    # journals kept there
    arbiter play tapatan --reader sim                           # no hardware: simulated players and camera
    arbiter play nine-mens-morris --reader sim-occupancy --script game.json
    arbiter play nine-mens-morris --reader serial               # a sensor-grid board on USB (found by its id)
    arbiter play tapatan --reader serial --port /dev/ttyACM0 --leds board

With ``--reader camera`` the real camera is read through the calibration ``arbiter calibrate``
wrote, buttons are read from the GPIO pins on a Raspberry Pi (or the keyboard: c confirm, u undo,
m menu, q stop), and the game runs until it is over or stopped with Ctrl-C / q; either way the
journal holds every step and ``--resume`` carries on.

With ``--reader serial`` a sensor-grid board is read over its serial port (``--port``, or found
by its USB id; ``arbiter sensor-sim GAME`` makes a virtual one to try it), through the board's
sensor map (``--sensor-map``, default the one shipped for the game's board); its own LEDs
can show the signals (``--leds board``, the default when it has enough of them). Buttons as
with the camera.

With ``--reader sim`` (simulated camera, real vision code) or ``--reader sim-occupancy`` (a
simulated reed-switch grid), simulated players play the record given with ``--script`` (else
random legal moves from ``--seed``) on a simulated board. That board is kept in a file beside
the journal (``*.board.json``), standing for the real board on the table, which outlives a crash:
a resumed simulated game finds the board as the crash left it, and the players follow the lights
to put it right.

Errors are one line on stderr with exit status 2, as everywhere in arbiter.
"""

from __future__ import annotations

import os
import random
import sys
import time
from contextlib import ExitStack, nullcontext
from pathlib import Path

import click

import engine
from engine.protocol import Draws

from .common import camera_backend_option, console, exposure_options, fail, parse_game_options

__all__ = ["KeyboardButtons", "play"]


class KeyboardButtons:
    """The three buttons on the keyboard, for a laptop without GPIO: c (or Enter, space) confirm,
    u undo, m menu; q stops the game. Keys are read without waiting (the terminal in cbreak
    mode, restored on close)."""

    def __init__(self, stream=None):
        from hardware.buttons import SimulatedButtons

        self.stream = stream or sys.stdin
        self.inner = SimulatedButtons()
        self.quit = False
        self._saved = None
        try:
            import termios
            import tty

            fd = self.stream.fileno()
            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)
        except Exception:  # not a terminal: no keys, no harm
            self._saved = None

    def poll(self):
        import select

        try:
            while select.select([self.stream], [], [], 0)[0]:
                ch = os.read(self.stream.fileno(), 1).decode(errors="ignore")
                if not ch:
                    break
                if ch.lower() == "q":
                    self.quit = True
                else:
                    self.inner.key(ch)
        except (OSError, ValueError):
            pass
        return self.inner.poll()

    def typing(self):
        """A context in which the terminal is in its own (line) mode, so a hidden entry can be
        typed with backspace working; cbreak mode comes back after."""
        from contextlib import contextmanager

        @contextmanager
        def _line_mode():
            if self._saved is None:
                yield
                return
            import termios
            import tty

            fd = self.stream.fileno()
            termios.tcsetattr(fd, termios.TCSADRAIN, self._saved)
            try:
                yield
            finally:
                tty.setcbreak(fd)

        return _line_mode()

    def close(self) -> None:
        if self._saved is not None:
            import termios

            termios.tcsetattr(self.stream.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None


def _resume_value(value: str | None) -> str | None:
    return None if value in (None, "latest") else value


@click.command("play", context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("game")
@click.option("--reader", type=click.Choice(["camera", "serial", "sim", "sim-occupancy"]), default="camera",
              show_default=True,
              help="camera: the real camera. serial: a sensor-grid board on a serial port. sim: simulated players, "
                   "simulated camera, real vision code. sim-occupancy: simulated players on a simulated reed-switch grid.")
@click.option("--port", default=None,
              help="--reader serial: the sensor board's port (default: found by its USB id).")
@click.option("--sensor-map", "sensor_map", type=click.Path(dir_okay=False), default=None,
              help="--reader serial: which sensor cell is under which point (default: the map shipped for the board).")
@click.option("--leds", type=click.Choice(["neopixel", "neopixel-spi", "terminal", "png", "board"]), default=None,
              help="Where the LED signals go (default: the sensor board's own LEDs with --reader serial when it has "
                   "them, else neopixel on a Raspberry Pi, terminal elsewhere).")
@click.option("--leds-out", type=click.Path(dir_okay=False), default=None,
              help="--leds png: FILE.png (the latest frame), FILE.gif (all, animated) or a name with {n}.")
@click.option("--calibration", "cal_path", type=click.Path(dir_okay=False), default=None,
              help="Camera calibration from `arbiter calibrate` [default: calibration-GAME.json].")
@click.option("--layout-map", "map_path", type=click.Path(dir_okay=False), default=None,
              help="LED layout map from `arbiter leds map` (default: one pixel per point in serpentine rows).")
@click.option("--clock", "time_control", default=None, help="Time control, such as 10m, 10m+5s or 30s/move.")
@click.option("--resume", "resume_from", is_flag=False, flag_value="latest", default=None, metavar="[JOURNAL]",
              help="Carry on the latest unfinished game (or the journal given) instead of starting a new one, "
                   "set up as the journal says (reader, port, calibration, LEDs ...; options given again win).")
@click.option("--journal", "journal_folder", default=None, metavar="DIR",
              help="The folder games are journalled in [default: $ARBITER_JOURNAL_DIR, else "
                   "~/.local/state/arbiter/games].")
@click.option("--camera", "camera_source", default="0", show_default=True, help="Camera index, or a video file / URL.")
@camera_backend_option(old=())  # no old spelling: play always said camera-backend
@click.option("--width", type=int, default=1280, show_default=True, help="Camera frame width.")
@click.option("--height", type=int, default=720, show_default=True, help="Camera frame height.")
@exposure_options
@click.option("--buttons", type=click.Choice(["gpio", "keyboard", "none"]), default=None,
              help="Camera mode: GPIO buttons (default on a Pi), the keyboard (default elsewhere), or none.")
@click.option("--script", "script", type=click.Path(dir_okay=False), default=None,
              help="Simulated players: the game record (JSON) they play; without it, random legal moves.")
@click.option("--seed", type=int, default=1, show_default=True, help="Simulated players: seed of their random moves.")
@click.option("--speed", type=click.FloatRange(min=0), default=None,
              help="Simulated players: 1 plays in real time, 10 ten times faster, 0 as fast as possible "
                   "(default 1 on a terminal, 0 otherwise).")
@click.option("--brightness", type=click.FloatRange(0.01, 1.0), default=0.3, show_default=True,
              help="LEDs: fraction of full brightness.")
@click.option("--palette", "palette_name", type=click.Choice(["standard", "colour-blind"]), default="standard",
              show_default=True, help="LED colours: colour-blind uses blue for legal and vermillion for illegal, "
                                      "told apart with red-green colour blindness (docs/signals.md).")
@click.option("--web", "web_address", is_flag=False, flag_value="127.0.0.1:8000", default=None,
              metavar="[HOST:PORT]",
              help="Serve the game's web page while refereeing (default 127.0.0.1:8000; 0.0.0.0:8000 for phones on "
                   "the network, with QR codes): the live board, the players' controls and private pages "
                   "(docs/web.md). Needs the web extra.")
@click.pass_context
def play(ctx: click.Context, game: str, reader: str, port: str | None, sensor_map: str | None, leds: str | None, leds_out: str | None, cal_path: str | None,
         map_path: str | None, time_control: str | None, resume_from: str | None, camera_source: str,
         camera_backend: str, width: int, height: int, exposure: float | str | None, gain: float | None,
         ev: float | None, buttons: str | None, script: str | None, seed: int,
         speed: float | None, brightness: float, palette_name: str, journal_folder: str | None,
         web_address: str | None = None) -> None:
    """Referee a game of GAME on the board: watch it, check every move, answer with the LEDs.

    Game options follow the game's name (`arbiter play seven-mens-morris --flying`). Every step
    is written to the game's journal before it is announced; `--resume` carries on after a crash.
    See docs/play.md.
    """
    _refuse_other_commands_options(list(ctx.args))
    from ..journal import JournalError, usable_journal_dir

    try:  # before anything opens: a folder the game cannot be kept in is refused in one line
        folder = usable_journal_dir(journal_folder)
    except JournalError as exc:
        fail(str(exc))
    if resume_from is not None and not ctx.meta.get("arbiter.resume_setup"):
        # Once more with the journal's setup filled in: `arbiter play GAME --resume JOURNAL` is
        # all a player needs to type, whatever reader, port or calibration the game began with.
        ctx.meta["arbiter.resume_setup"] = True
        return ctx.invoke(play.callback, **_resume_setup(ctx, game, folder, resume_from))
    options = parse_game_options(game, list(ctx.args))
    g = engine.load(game, **options)
    if time_control is not None:
        from ..clocks import TimeControlError, parse_time_control

        try:
            parse_time_control(time_control)
        except TimeControlError as exc:
            fail(str(exc))
        if g.players != 2:
            fail(f"clocks are for two-player games; {g.name} is played by {g.players} here")
    if reader in ("camera", "serial") and script is not None:
        fail("--script is for the simulated players (--reader sim or sim-occupancy)")
    if reader != "camera" and cal_path is not None:
        fail("--calibration is for --reader camera (the simulated camera calibrates itself; a sensor board needs none)")
    if reader != "camera" and (exposure is not None or gain is not None or ev is not None):
        fail("--exposure, --gain and --ev set the real camera: they are for --reader camera")
    if reader != "serial" and (port is not None or sensor_map is not None or leds == "board"):
        fail("--port, --sensor-map and --leds board are for a sensor board: add --reader serial")
    steps = _script_steps(g, script)
    web = None
    if web_address is not None:
        from .webpage import SERVING, WebPage, borrowed_page

        if web_address == SERVING:  # started from the owner's page of `arbiter serve`: its page
            web = borrowed_page()
            if web is None:
                fail("--web serving is for games started from the page of `arbiter serve`")
        else:
            web = WebPage(web_address, journals=folder)  # checks the extra and the address before anything opens
    # Everything that can fail is checked before the journal is made, so a refused start leaves
    # no empty game behind for --resume to find.
    with ExitStack() as stack:
        sensor = None
        sees = {"sim-occupancy": "occupancy"}.get(reader, "colour")
        if reader == "serial":
            from .sensor import open_sensor_board

            sensor = open_sensor_board(g, port, sensor_map)
            stack.callback(_quietly, sensor.link.close)
            sees = sensor.sees
        layout, pixels, sink, led_interval = _leds(g, leds, leds_out, map_path, brightness, sensor)
        stack.callback(_quietly, pixels.close)
        camera = pressers = None
        if sensor is not None:
            pressers = _pressers(buttons)
            if pressers is not None:
                stack.callback(_quietly, pressers.close)
        if reader == "camera":
            camera, pressers = _open_camera(g, cal_path, camera_source, camera_backend, width, height, buttons,
                                             exposure=exposure, gain=gain, ev=ev)
            stack.callback(_quietly, camera.camera.close)
            if pressers is not None:
                stack.callback(_quietly, pressers.close)
        # A game with chance draws (the move chooser) has arbiter draw for the players; the
        # simulated table draws from --seed, so a simulated game can be played again.
        rng = random.Random(seed if reader.startswith("sim") else None)
        setup = _setup_of(ctx, g, reader, cal_path)
        journal, history, clock, resumed = _the_game(g, options, reader, time_control, resume_from, rng, sees,
                                                     folder=folder, setup=setup)
        stack.callback(journal.close)
        g = engine.load(journal.game, **journal.options)  # a resumed game keeps its own options
        start = g.new(draws=Draws(journal.chooser or [], rng)) if g.rules.draw_values is not None else None
        from hardware.palette import palette as palette_named

        from ..screen import LiveScreen, StoryScreen

        screen = (LiveScreen(console, pixels=sink, title=f"arbiter · {g.name} · journal {journal.path.name}")
                  if console.is_terminal else StoryScreen(console, pixels=sink))
        common = {"journal": journal, "clock": clock, "pixels": pixels, "layout": layout, "screen": screen,
                  "resumed": resumed, "palette": palette_named(palette_name), "led_interval": led_interval}
        session = None
        on_session = None
        if web is not None:
            stack.callback(web.stop)
            on_session = lambda s: web.start(session=s, title=f"{g.name} · {journal.path.name}")  # noqa: E731
        try:
            if camera is not None or sensor is not None:
                from ..session import Session

                session = Session(g, camera or sensor, state=start, history=history, buttons=pressers,
                                  now=time.monotonic, **common)
                if on_session is not None:
                    on_session(session)
                stopped = _run_camera(session, private_pages=web is not None)
            else:
                session, stopped = _run_sim(console, g, start, journal, history, common, reader, steps, seed, speed,
                                            on_session)
        finally:
            if session is not None:
                session.screen.close(session)
    if stopped is not None:
        message, status = stopped
        if status:
            fail(message, status)
        console.print(message, soft_wrap=True)
        return
    _summary(console, session, journal)


# Options of other commands that a user may carry over to play: what play calls them.
OTHER_NAMES = {"--backend": "play names the LED backend --leds (e.g. --leds terminal) and the camera's "
                            "--camera-backend (opencv or picamera2)",
               "--map": "play takes the LED layout map as --layout-map FILE",
               "--out": "play takes the LED pictures' file as --leds-out FILE (with --leds png)"}


def _refuse_other_commands_options(args: list[str]) -> None:
    """Game options follow GAME, so an unknown option would be called "not an option of the game":
    say instead what play calls the option a user brought from `leds test` or `calibrate`."""
    for arg in args:
        said = OTHER_NAMES.get(arg.partition("=")[0])
        if said is not None:
            fail(f"{said}; see `arbiter play --help`")


def _quietly(close) -> None:
    try:
        close()
    except Exception:
        pass


def _script_steps(g, script: str | None) -> list[str]:
    """The steps of the game record the simulated players are to play (none: random moves)."""
    if script is None:
        return []
    from ..records import RecordError, load_record

    try:
        record = load_record(script)
    except RecordError as exc:
        fail(str(exc))
    if record.game != g.name:
        fail(f"{script} is a game of {record.game}, not {g.name}")
    return list(record.steps)


def _leds(g, leds, leds_out, map_path, brightness, sensor=None):
    """(layout, pixels, the screen's frame sink or None, seconds between LED frames)."""
    from hardware.layout import LayoutError, load_map, spots_for
    from hardware.leds import LedError, default_backend, open_pixels
    from hardware.power import Power

    from ..session import FrameSink

    spots = spots_for(g)
    try:
        layout = load_map(map_path, spots)
    except (LayoutError, OSError) as exc:
        fail(str(exc))
    if sensor is not None and (leds == "board" or (leds is None and sensor.link.info.led_count >= layout.count)):
        from .sensor import board_pixels

        return layout, board_pixels(sensor, layout, brightness), None, 1 / 30
    backend = leds or default_backend()
    if backend == "terminal":  # drawn by the play screen itself: rich runs one live display at a time
        sink = FrameSink(layout.count, power=Power(brightness=1.0))
        return layout, sink, sink, 1 / 30
    if backend == "png" and leds_out is None:
        fail("--leds png needs --leds-out FILE.png, FILE.gif or a name with {n}")
    try:
        pixels = open_pixels(backend, layout, spots, power=Power(brightness=brightness, amp_limit=2.0), out=leds_out)
    except LedError as exc:
        fail(str(exc))
    return layout, pixels, None, (0.25 if backend == "png" else 1 / 30)


# Options that are not the game's setup: the game itself, what to resume, the clock (kept in the
# journal's own header field), where journals go, and the web page (served again only if asked).
NOT_SETUP = ("game", "resume_from", "time_control", "journal_folder", "web_address")


def _setup_of(ctx: click.Context, g, reader: str, cal_path: str | None) -> dict:
    """The options this game is played with, for the journal's header, so that ``--resume`` needs
    nothing else. Files are kept as absolute paths (a resume may start in another folder), and the
    camera's calibration as the file actually used."""
    setup = {}
    for param in ctx.command.params:
        if param.name in NOT_SETUP or param.name not in ctx.params:
            continue
        value = ctx.params[param.name]
        if isinstance(param.type, click.Path) and value is not None:
            value = str(Path(value).resolve())
        if param.name == "cal_path" and reader == "camera":
            value = str(Path(cal_path or f"calibration-{g.name}.json").resolve())
        setup[_flag(param)] = value
    return setup


def _flag(param: click.Parameter) -> str:
    """An option's name in the journal's setup: its long flag, as players know it (``port``)."""
    return max(param.opts, key=len).lstrip("-")


def _resume_setup(ctx: click.Context, game: str, folder: Path, resume_from: str) -> dict:
    """``ctx.params`` with the resumed journal's setup filled in where the command line is silent.

    An option given again wins, with a note; one this arbiter no longer has is ignored.
    """
    from ..journal import JournalError, latest_unfinished, load_journal

    try:
        path = _resume_value(resume_from) or latest_unfinished(folder)
        if path is None:
            fail(f"no unfinished game in {folder}: start a new one")
        stored = load_journal(path).setup
    except JournalError as exc:
        fail(str(exc))
    params = dict(ctx.params, resume_from=str(path))
    by_flag = {_flag(p): p for p in ctx.command.params if p.name not in NOT_SETUP}
    for key, value in stored.items():
        param = by_flag.get(key)
        if param is None:
            continue
        name = param.name
        if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE:
            if params[name] != value and not (isinstance(param.type, click.Path) and params[name] is not None
                                               and value is not None
                                               and Path(params[name]).resolve() == Path(value)):
                console.print(f"[yellow]Note:[/] --{key} {params[name]} given again: it is used instead of the "
                              f"journal's {value}.", soft_wrap=True)
            continue
        params[name] = value
    return params


def _the_game(g, options, reader, time_control, resume_from, rng, sees="colour", folder=None, setup=None):
    """(journal, steps played, clock, resumed?): a new game's journal, or the one resumed.

    A new game with chance draws records the draws its start makes (Battle Lines with the move
    chooser begins with a turn, and so with a draw) in the journal's header."""
    from ..clocks import Clock, parse_time_control
    from ..journal import Journal, JournalError, resume

    if resume_from is None:
        try:
            chooser = g.new(draws=Draws([], rng)).draws() if g.rules.draw_values is not None else None
            journal = Journal.new(g.name, g.options, reader=sees, time_control=time_control, chooser=chooser,
                                  directory=folder, setup=setup)
        except JournalError as exc:
            fail(str(exc))
        clock = Clock(journal.time_control, g.players) if time_control else None
        return journal, [], clock, False
    try:
        r = resume(_resume_value(resume_from), directory=folder, game=g.name, rng=rng)
    except JournalError as exc:
        fail(str(exc))
    journal = r.journal
    if options and r.game.options != g.options:
        console.print("[yellow]The saved game is played with its own options "
                      f"({', '.join(f'{k}={v}' for k, v in r.game.options.items())}).[/]", soft_wrap=True)
    if time_control and str(parse_time_control(time_control)) != (journal.time_control or ""):
        console.print(f"[yellow]The saved game keeps its time control ({journal.time_control or 'none'}).[/]")
    for w in r.warnings:
        console.print(f"[yellow]{w}[/]", soft_wrap=True)
    console.print(f"Resuming {journal.path} ({len(journal.steps)} steps).", soft_wrap=True)
    return journal, journal.steps, r.clock, True


def _open_camera(g, cal_path, source, backend, width, height, buttons, *, exposure=None, gain=None, ev=None):
    """(the camera reader, the buttons or None), refusing with a clear message what cannot work."""
    from vision.calibration import CalibrationError, load_calibration
    from vision.camera_reader import CameraReader
    from vision.capture import Camera, CameraError, CameraSettings
    from vision.learned_reader import reader_for

    path = Path(cal_path or f"calibration-{g.name}.json")
    no_camera = f"no camera? `arbiter play {g.name} --reader sim` plays on a simulated board"
    if not path.exists():
        fail(f"no calibration {path}: calibrate the camera first with `arbiter calibrate {g.name} --camera "
             f"{source}` (docs/calibration.md), or pass --calibration FILE ({no_camera})")
    try:
        cal = load_calibration(path, game=g.name)
        board_reader = reader_for(cal)  # the classifier it was made for (a learned one needs its model)
    except CalibrationError as exc:
        fail(str(exc))
    cam = Camera(CameraSettings(source=int(source) if source.isdigit() else source, width=width, height=height,
                                backend=backend, exposure=exposure, gain=gain, ev=ev))
    try:
        cam.open()
    except CameraError as exc:
        fail(f"{exc} ({no_camera})")
    for problem in cam.exposure_problems:
        console.print(f"[yellow]Note:[/] {problem}", soft_wrap=True)
    try:
        pressers = _pressers(buttons)
    except SystemExit:
        cam.close()
        raise
    return CameraReader(cam, board_reader), pressers


def _pressers(buttons):
    """The buttons chosen (default: GPIO on a Pi, the keyboard on a terminal, else none)."""
    from hardware.buttons import ButtonError, GpioButtons
    from hardware.leds import raspberry_pi_model

    choice = buttons or ("gpio" if raspberry_pi_model() else ("keyboard" if sys.stdin.isatty() else "none"))
    if choice == "gpio":
        try:
            return GpioButtons()
        except ButtonError as exc:
            fail(str(exc))
    if choice == "keyboard":
        return KeyboardButtons()
    return None


def _run_camera(session, private_pages: bool = False) -> tuple[str, int] | None:
    """Read the camera (or the sensor board) until the game is over or the players stop it (Ctrl-C, or q).

    ``private_pages``: the web page is on, and a secret step is typed on its player's private page."""
    session.start()
    # A secret step (a code, a goal, hidden beads) is typed unseen on this terminal by the player
    # it is asked of (docs/play.md), unless the web page's private pages take it (the hidden
    # prompt would hold the loop that carries out the pages' requests); without a terminal it
    # waits for another private entry.
    hidden_entry = sys.stdin.isatty() and not private_pages
    keys = session.buttons if isinstance(session.buttons, KeyboardButtons) else None  # line mode while typing
    try:
        while not session.over:
            session.poll()
            if getattr(session.buttons, "quit", False):  # q on the keyboard, or the owner's page
                raise KeyboardInterrupt
            if hidden_entry and session.state.private_to is not None and not session.over:
                from .private_entry import ask_private

                with keys.typing() if keys is not None else nullcontext():
                    ask_private(session, lambda line: console.print(line, soft_wrap=True, markup=False))
    except (KeyboardInterrupt, EOFError):
        session.pause()
        return _stopped(session), 0
    return None


def _stop_on_q(keys: KeyboardButtons | None, page=None) -> None:
    """Read the keys typed since the last frame; q stops the simulated game as Ctrl-C does (the
    simulated players press the buttons themselves, so c, u and m are not passed on), and so
    does the owner's web page (``page``: the buttons it wraps, with their ``quit``)."""
    if keys is not None:
        keys.poll()
    if (keys is not None and keys.quit) or (page is not None and page.remote.stop_requested):
        raise KeyboardInterrupt


def _run_sim(console, g, start, journal, history, common, reader, steps, seed, speed, on_session=None):
    """Simulated players on a simulated board kept beside the journal; (session, stopped).
    ``on_session``: called with the session before it starts (the web page)."""
    from ..sim.physical import PhysicalBoard, PhysicalError
    from ..sim.scenario import Player, ScenarioError, Table

    board_file = journal.path.with_name(journal.path.name.removesuffix(".jsonl") + ".board.json")
    board = None
    if common["resumed"] and board_file.exists():
        try:
            board = PhysicalBoard.load(g, board_file)
        except PhysicalError as exc:
            console.print(f"[yellow]{exc}; setting the board out afresh[/]")
    if board is None:
        state = start if start is not None else g.new()
        for text in history:
            state = state.play(text)
        board = PhysicalBoard.of_state(g, state)
    board.save(board_file)
    board.on_change.append(lambda b: b.save(board_file))
    if speed is None:
        speed = 1.0 if console.is_terminal else 0.0
    table = Table(g, "camera" if reader == "sim" else "occupancy", board=board, state=start, history=history,
                  speed=speed, start=False, **common)
    session = table.session
    if on_session is not None:
        on_session(session)
    session.start()
    keys = KeyboardButtons() if sys.stdin.isatty() else None  # q stops it, as a game on the board
    if keys is not None:
        table.on_frame = lambda: _stop_on_q(keys)
    if hasattr(session.buttons, "quit"):  # the web page: its owner may stop the game too
        table.on_frame = lambda: _stop_on_q(keys, session.buttons)
    players = Player(table, steps, rng=None if steps else random.Random(seed))
    again = _again(g.name, journal.path)
    try:
        players.play()
    except ScenarioError as exc:
        return session, (f"the simulated players stopped: {exc}. The journal {journal.path} is kept.", 1)
    except KeyboardInterrupt:
        session.pause()
        return session, (_stopped(session), 0)
    finally:
        if keys is not None:
            keys.close()
    if not session.over:
        message = (f"The script ended before the game did ({len(session.history)} steps). The journal "
                   f"{journal.path} is kept; carry on with {again}.")
        return session, (message, 0)
    return session, None


def _stopped(session) -> str:
    """What to say when the players stop: where the game is, and the one command to go on."""
    again = _again(session.game.name, session.journal.path)
    if session.unrecorded_end is not None:  # the disk refused the loss on time to the end
        return (f"Stopped. The loss on time could NOT be written to {session.journal.path} (the disk refused "
                f"it), so on disk the game is unfinished at its last recorded step; once the disk is "
                f"writable again, carry on with {again}.")
    return f"Stopped. Every step is in {session.journal.path}; carry on with {again}."


def _again(game: str, path: Path) -> str:
    """The command that carries the game on: the journal holds everything else it needs."""
    import shlex

    return f"`arbiter play {game} --resume {shlex.quote(str(path))}`"


def _summary(console, session, journal) -> None:
    r = session.result
    if r is not None:
        who = "a draw" if r.winner is None else f"player {r.winner} wins"
        console.print(f"[bold green]Game over: {who}[/] ({r.reason}) after {len(session.history)} steps.",
                      soft_wrap=True)
    console.print(f"The journal: {journal.path}. Save it as a game record with "
                  f"`arbiter export {journal.path} --out game.json`.", soft_wrap=True)


@click.command()
@click.option("--delay", type=click.FloatRange(min=0), default=None,
              help="Seconds to pause after each line of the story (default 0.1 on a terminal, 0 otherwise).")
@click.option("--fast", is_flag=True, help="No pauses at all (the same as --delay 0).")
@click.option("--journal", "journal_folder", default=None, metavar="DIR",
              help="Keep the demo game's journal in DIR (default: a temporary folder, removed after).")
def demo(delay: float | None, fast: bool, journal_folder: str | None) -> None:
    """Watch a refereed game on a simulated table: camera, vision, referee, journal and LEDs.

    Simulated players play a scripted game of Nine Men's Morris on a simulated board; a simulated
    camera photographs it and arbiter's real vision code reads every frame; the referee catches
    the mistakes on the way; the LEDs are drawn in the terminal. Takes a few seconds.
    """
    from ..sim.demo import run_demo
    from ..journal import JournalError, usable_journal_dir

    folder = None
    if journal_folder is not None:
        try:
            folder = usable_journal_dir(journal_folder)
        except JournalError as exc:
            fail(str(exc))
    if fast:
        delay = 0.0
    elif delay is None:
        delay = 0.1 if sys.stdout.isatty() else 0.0
    if not run_demo(console, delay=delay, directory=folder):
        fail("the demo game did not check out (see above)", 1)
