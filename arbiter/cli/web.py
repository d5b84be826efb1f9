"""``arbiter serve`` and the web page of ``arbiter play --web``: the page on phones (docs/web.md).

    arbiter play tapatan --reader sim --web               # the page at http://127.0.0.1:8000/
    arbiter play nine-mens-morris --web 0.0.0.0:8000      # on the club's network: address and QR codes
    arbiter serve --host 0.0.0.0                          # no game yet: history, and games started from a phone

``arbiter serve`` prints an owner's link (``/setup/TOKEN``): on that page a game is chosen with its
options, reader and clock, and started (or an unfinished one resumed, or the running one stopped).
The game is played by ``arbiter play`` itself, run in a thread of this process with the page
handed over to it (``--web`` given as ``SERVING``), so it is the same game in every respect as one
started on the terminal: the same checks, journal, screen and messages.

The server is the ``web`` extra (``pip install .[web]``); without it these say what to install.
"""

from __future__ import annotations

import contextlib
import hmac
import io
import secrets
import threading
import time
from pathlib import Path
from typing import Any

import click

from .common import fail
from .webpage import SERVING, WebPage, lend

__all__ = ["Launcher", "serve"]

READERS = ("camera", "serial", "sim", "sim-occupancy")


class Launcher:
    """Starts, resumes and stops the one game ``arbiter serve`` runs, for the owner's page.

    Each game is ``arbiter play`` run in a thread with ``--web serving``; what it would print as
    an error (a missing calibration, a camera that does not open) is kept for the page."""

    def __init__(self, page: WebPage, folder: Path, token: str | None = None):
        self.page = page
        self.folder = folder
        self.token = token or secrets.token_urlsafe(18)
        self.thread: threading.Thread | None = None
        self.game: str | None = None
        self.last: str | None = None  # how the last game ended, or why it did not start
        self._lock = threading.Lock()

    def owner(self, token: str | None) -> bool:
        return isinstance(token, str) and 0 < len(token) <= 64 and hmac.compare_digest(token.encode(),
                                                                                         self.token.encode())

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def status(self) -> dict[str, Any]:
        """What the owner's page shows: the game running and its player links, games to resume."""
        from ..journal import JournalError, list_journals, load_journal
        from ..web.qr import qr_svg

        links = []
        remote = self.page.remote
        if self.running and remote is not None:
            rules = remote.session.game.rules
            for p in remote.links.tokens:
                path = remote.links.path(p)
                links.append({"player": p, "colour": rules.colour_name(rules.colour_of(p)), "path": path,
                              "qr": qr_svg(self.page.server.url(path, self.page.shown_host()))})
        unfinished = []
        for path in list_journals(self.folder)[:50]:
            try:
                c = load_journal(path)
            except (JournalError, OSError):
                continue
            if _unfinished(c):
                unfinished.append({"name": path.name, "game": c.game, "steps": len(c.steps), "date": c.created})
        return {"running": self.running, "game": self.game if self.running else None, "links": links,
                "last": self.last, "unfinished": unfinished[:10], "readers": list(READERS)}

    def start(self, data: dict[str, Any]) -> str | None:
        """Check the owner's choice and start the game; None when started, else why not."""
        import engine

        from ..clocks import TimeControlError, parse_time_control

        game, options, reader = data.get("game"), data.get("options") or {}, data.get("reader") or "camera"
        clock, speed = data.get("clock") or None, data.get("speed", 1)
        if not isinstance(game, str) or game not in engine.names():
            return "choose one of the games"
        if not isinstance(options, dict) or reader not in READERS:
            return f"the reader is one of {', '.join(READERS)}"
        try:
            g = engine.load(game, **options)
        except (engine.BadOption, TypeError) as exc:
            return str(exc)
        if clock is not None:
            try:
                parse_time_control(str(clock))
            except TimeControlError as exc:
                return str(exc)
            if g.players != 2:
                return f"clocks are for two-player games; {game} is played by {g.players}"
        if not isinstance(speed, (int, float)) or isinstance(speed, bool) or not 0 <= speed <= 100:
            return "the simulated players' speed is a number from 0 to 100"
        args = ["play", game, *_option_args(g, options), "--reader", reader, "--journal", str(self.folder),
                "--web", SERVING]
        if clock is not None:
            args += ["--clock", str(clock)]
        if reader.startswith("sim"):
            args += ["--speed", str(speed)]
        return self._run(args, game)

    def resume(self, name: Any) -> str | None:
        from ..web.history import History, HistoryError

        try:
            path = History(self.folder)._path(name)
        except HistoryError:
            return "no such game to resume"
        from ..journal import JournalError, load_journal

        try:
            game = load_journal(path).game
        except JournalError as exc:
            return str(exc)
        return self._run(["play", game, "--resume", str(path), "--journal", str(self.folder), "--web", SERVING],
                         game)

    def stop(self) -> str | None:
        remote = self.page.remote
        if not self.running or remote is None:
            return "no game is running"
        remote.stop_requested = True
        return None

    def _run(self, args: list[str], game: str) -> str | None:
        with self._lock:
            if self.running:
                return f"a game of {self.game} is running: stop it first"
            self.game, self.last = game, None
            self.thread = threading.Thread(target=self._play, args=(args,), name="arbiter-game", daemon=True)
            self.thread.start()
        return None

    def _play(self, args: list[str]) -> None:
        from .play import play

        said = io.StringIO()
        try:
            with contextlib.redirect_stderr(said):
                play.main(args[1:], prog_name="arbiter play", standalone_mode=False)
            self.last = f"the game of {self.game} ended"
        except click.ClickException as exc:
            self.last = exc.format_message()
        except SystemExit as exc:
            why = said.getvalue().strip().removeprefix("arbiter:").strip()
            self.last = why or (f"the game of {self.game} ended" if not exc.code else f"the game stopped ({exc.code})")
        except Exception as exc:  # the page must hear of it; the server goes on
            self.last = f"the game could not go on: {exc.__class__.__name__}: {exc}"
        finally:
            self.page.release()


def _unfinished(contents) -> bool:
    from ..journal import JournalError, replay_journal

    if contents.ended is not None:
        return False
    try:
        return replay_journal(contents)[1].result is None
    except JournalError:
        return False


def _option_args(g, options: dict[str, Any]) -> list[str]:
    """The game's options as `arbiter play` takes them (``--flying``, ``--move-cap 100``)."""
    out = []
    for o in engine_spec_options(g):
        if o.name not in options:
            continue
        flag = "--" + o.name.replace("_", "-")
        value = options[o.name]
        if o.kind is bool:
            out.append(flag if o.coerce(value) else "--no-" + o.name.replace("_", "-"))
        else:  # one word, so a value can never be read as an option of play's own
            out.append(f"{flag}={value}")
    return out


def engine_spec_options(g):
    import engine

    return engine.spec(g.name).options


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Where to listen: 127.0.0.1 for this computer only, 0.0.0.0 for phones on the network.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port.")
@click.option("--journal", "journal_folder", default=None, metavar="DIR",
              help="The folder games are journalled in [default: $ARBITER_JOURNAL_DIR, else "
                   "~/.local/state/arbiter/games].")
def serve(host: str, port: int, journal_folder: str | None) -> None:
    """Serve the web page with no game running: the history of games, and an owner's link to
    start a game (or resume one) from a phone.

    Stop it with Ctrl-C. See docs/web.md.
    """
    from ..journal import JournalError, usable_journal_dir

    try:
        folder = usable_journal_dir(journal_folder)
    except JournalError as exc:
        fail(str(exc))
    page = WebPage(f"{host}:{port}" if ":" not in host else f"[{host}]:{port}", journals=folder)
    from ..web.calibrate import Calibrator

    launcher = Launcher(page, folder)
    calibrator = Calibrator(Path.cwd())  # calibration-GAME.json where `arbiter calibrate` writes it
    page.start(launcher=launcher, calibrator=calibrator)
    lend(page)
    try:
        while page.server.thread.is_alive():
            time.sleep(0.5)
    except KeyboardInterrupt:
        if launcher.running:
            launcher.stop()
            launcher.thread.join(timeout=10)
    finally:
        lend(None)
        calibrator.close()
        page.stop()
