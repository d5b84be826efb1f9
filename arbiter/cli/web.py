"""``arbiter serve`` and the web page of ``arbiter play --web``: the page on phones (docs/web.md).

    arbiter play tapatan --reader sim --web               # the page at http://127.0.0.1:8000/
    arbiter play nine-mens-morris --web 0.0.0.0:8000      # on the club's network: address and QR codes
    arbiter serve --host 0.0.0.0                          # no game: the history of games

The server is the ``web`` extra (``pip install .[web]``); without it these say what to install.
"""

from __future__ import annotations

import ipaddress
import socket
import time

import click

from .common import console, fail

__all__ = ["WebPage", "serve"]

NEEDS = "the web page needs the web extra: pip install 'arbiter[web]' (or pip install -e '.[web]' in a clone)"


def _lan_address() -> str | None:
    """This machine's address on its network (the one a route out would use); no packet is sent."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
    except OSError:
        return None


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class WebPage:
    """The server, its hub and (in a game) its remote: started, printed, stopped."""

    def __init__(self, address: str | None, journals=None):
        try:
            import starlette  # noqa: F401
            import uvicorn  # noqa: F401
        except ImportError:
            fail(NEEDS)
        from ..web.history import History
        from ..web.hub import Hub
        from ..web.server import parse_address

        try:
            self.host, self.port = parse_address(address)
        except ValueError as exc:
            fail(str(exc))
        self.hub = Hub()
        self.history = History(journals) if journals is not None else None
        self.remote = None
        self.server = None

    def start(self, links=None, session=None, title: str = "") -> None:
        """Serve (with ``session``'s page when given) and print where to find it."""
        from ..web.remote import attach
        from ..web.server import WebServer, make_app

        if session is not None:
            self.remote = attach(session, self.hub, links=links, title=title)
        app = make_app(self.hub, remote=self.remote, history=self.history)
        try:
            self.server = WebServer(app, self.host, self.port).start()
        except OSError as exc:
            fail(str(exc))
        self.say()

    def say(self) -> None:
        from ..web.qr import qr_text

        shown = self.host
        if self.host in ("0.0.0.0", "::"):
            shown = _lan_address() or "127.0.0.1"
        lan = not _loopback(shown)
        url = self.server.url("/", shown)
        console.print(f"The page: {url} (everyone: the board, live)", soft_wrap=True, highlight=False)
        if lan:
            print(qr_text(url))
        if self.remote is not None:
            rules = self.remote.session.game.rules
            for p, _token in self.remote.links.tokens.items():
                link = self.server.url(self.remote.links.path(p), shown)
                who = rules.colour_name(rules.colour_of(p))
                console.print(f"Player {p} ({who}), your own page with the controls: {link}", soft_wrap=True,
                              highlight=False)
                if lan:
                    print(qr_text(link))
        if not lan:
            console.print("(only this computer can open it; for phones on the network: --web 0.0.0.0:8000)",
                          soft_wrap=True, highlight=False)

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Where to listen: 127.0.0.1 for this computer only, 0.0.0.0 for phones on the network.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port.")
@click.option("--journal", "journal_folder", default=None, metavar="DIR",
              help="The folder games are journalled in [default: $ARBITER_JOURNAL_DIR, else "
                   "~/.local/state/arbiter/games].")
def serve(host: str, port: int, journal_folder: str | None) -> None:
    """Serve the web page with no game running: the history of games, replayable and downloadable.

    Stop it with Ctrl-C. See docs/web.md.
    """
    from ..journal import JournalError, usable_journal_dir

    try:
        folder = usable_journal_dir(journal_folder)
    except JournalError as exc:
        fail(str(exc))
    page = WebPage(f"{host}:{port}" if ":" not in host else f"[{host}]:{port}", journals=folder)
    page.start()
    try:
        while page.server.thread.is_alive():
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        page.stop()
