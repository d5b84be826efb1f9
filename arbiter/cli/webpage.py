"""The web page a command serves: started, printed (address, QR codes, player links), stopped.

``arbiter play --web`` makes one; ``arbiter serve`` makes one and lends it to the games started
from its owner's page (``SERVING``: play's ``--web`` value meaning that page). Kept apart from
``arbiter.cli.web`` (serve and its launcher, which runs ``play``) so that ``play`` can use it
without importing the command that runs it.
"""

from __future__ import annotations

import ipaddress
import socket

from .common import console, fail

__all__ = ["Borrowed", "SERVING", "WebPage", "borrowed_page", "lend"]

NEEDS = "the web page needs the web extra: pip install 'arbiter[web]' (or pip install -e '.[web]' in a clone)"
SERVING = "serving"  # play's --web value that means: the page `arbiter serve` is serving
_serving: "WebPage | None" = None  # the page of `arbiter serve`, which games started there borrow


def lend(page: "WebPage | None") -> None:
    """Make ``page`` the one games started from ``arbiter serve`` borrow (None: no more)."""
    global _serving
    _serving = page


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
        if self.port:  # in use? said now, before the game's journal is made, not after
            family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
            try:
                with socket.socket(family, socket.SOCK_STREAM) as probe:
                    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                    probe.bind((self.host, self.port))
            except OSError as exc:
                fail(f"the web page cannot listen on {self.host}:{self.port} ({exc.strerror or exc}): "
                     f"another program has it, or the address is not this machine's; try --web {self.host}:"
                     f"{self.port + 1}")
        self.hub = Hub()
        self.history = History(journals) if journals is not None else None
        self.remote = None
        self.server = None
        self.launcher = None

    def start(self, links=None, session=None, title: str = "", launcher=None, calibrator=None) -> None:
        """Serve (with ``session``'s page when given) and print where to find it. A page already
        serving (``arbiter serve``'s, lent to a game) takes the session on instead."""
        from ..web.remote import attach
        from ..web.server import WebServer, make_app

        if session is not None:
            self.remote = attach(session, self.hub, links=links, title=title, publish=False)
        if self.server is not None:  # lent to a game: its links first, then its first view
            self.server.app.state.stage.remote = self.remote
            if self.remote is not None:
                self.remote.publish()
            self.say()
            return
        if self.remote is not None:
            self.remote.publish()
        app = make_app(self.hub, remote=self.remote, history=self.history, launcher=launcher, calibrator=calibrator)
        self.launcher = launcher
        try:
            self.server = WebServer(app, self.host, self.port).start()
        except OSError as exc:
            fail(str(exc))
        self.say()

    def shown_host(self) -> str:
        """The address phones should open: the machine's own on the network when listening on all."""
        if self.host in ("0.0.0.0", "::"):
            return _lan_address() or "127.0.0.1"
        return self.host

    def say(self) -> None:
        from ..web.qr import qr_text

        shown = self.shown_host()
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
        launcher = self.launcher
        if launcher is not None and self.remote is None:
            link = self.server.url(f"/setup/{launcher.token}", shown)
            console.print(f"The owner's page, to start a game from a phone: {link}", soft_wrap=True,
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

    def release(self) -> None:
        """The game that borrowed the page is over: the page stays, with no game's controls."""
        if self.server is not None:
            self.server.app.state.stage.remote = None
        self.remote = None


class Borrowed:
    """``arbiter serve``'s page as a game started from it sees it: started, never stopped."""

    def __init__(self, page: WebPage):
        self.page = page

    def start(self, session=None, title: str = "") -> None:
        self.page.start(session=session, title=title)

    def stop(self) -> None:
        self.page.release()


def borrowed_page() -> Borrowed | None:
    """The page of the ``arbiter serve`` this game was started from, if any."""
    return Borrowed(_serving) if _serving is not None and _serving.server is not None else None
