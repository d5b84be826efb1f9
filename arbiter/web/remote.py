"""The page's side of a refereed game: player links, the buttons and secret steps sent from a phone,
and the views published to the hub after everything the session announces.

The server runs in its own thread; the session in another. A request from a page is checked in
the server's thread (the player's token, the action's name and argument) and queued here; the
session carries it out in its own thread, at its next ``poll``, through the buttons it already
reads (``WebButtons`` wraps them), so a press on the page is a press of the real button and goes
through the same code. After each announcement (and each second a clock runs) the views are
rebuilt and published; publishing never waits on a page (``hub``).
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections import deque
from typing import Any

from hardware.buttons import Press, Role

from .hub import Hub
from .snapshot import private_view, public_view

__all__ = ["ACTIONS", "PlayerLinks", "Remote", "attach", "enter_secret"]

# What a player's page may ask, and the button each stands for ("choose" and "secret" are not
# buttons: the session is asked directly, in its own thread; "secret" is the secret step
# ``state.private_to`` asks of that player, given to ``Session.enter_private``).
ACTIONS = {"confirm": Role.CONFIRM, "menu": Role.MENU, "undo": Role.UNDO, "hint": Role.MENU}
MAX_QUEUE = 64  # requests waiting for the session; more are refused (a page gone mad)
MAX_SECRET = 200  # characters in a secret step


def enter_secret(session, player: int, typed: str) -> str | None:
    """Give ``player``'s secret step, typed on their private page, to the session
    (``Session.enter_typed_secret``): None when taken, else why not. Only the player
    ``state.private_to`` names may enter one."""
    st = session.state
    if session.over or st.result is not None or st.private_to != player:
        return "no secret step is asked of you just now"
    return session.enter_typed_secret(typed)


class PlayerLinks:
    """One random token per player: the link that gives that player the controls and their
    private page. Made fresh for every game, never written to the journal or a log."""

    def __init__(self, players: int, tokens: dict[int, str] | None = None):
        self.tokens = tokens or {p: secrets.token_urlsafe(18) for p in range(1, players + 1)}

    def player(self, token: str | None) -> int | None:
        """The player whose token this is (compared in constant time), else None."""
        if not token or not isinstance(token, str) or len(token) > 64:
            return None
        found = None
        for p, mine in self.tokens.items():
            if hmac.compare_digest(mine.encode(), token.encode()):
                found = p
        return found

    def path(self, player: int) -> str:
        return f"/p/{self.tokens[player]}"


class WebButtons:
    """The session's own buttons, plus the presses queued from players' pages."""

    def __init__(self, inner, remote: "Remote"):
        self.inner = inner
        self.remote = remote

    def poll(self) -> list[Press]:
        presses = list(self.inner.poll()) if self.inner is not None else []
        return presses + self.remote._carry_out()

    @property
    def quit(self) -> bool:
        """Stop the game: asked from the owner's page, or (keyboard buttons) with q."""
        return self.remote.stop_requested or bool(getattr(self.inner, "quit", False))

    def __getattr__(self, name: str) -> Any:  # KeyboardButtons.quit, close ... of the inner buttons
        return getattr(self.inner, name)


class WebScreen:
    """The session's own screen, plus a publish to the page after each announcement."""

    def __init__(self, inner, remote: "Remote"):
        self.inner = inner
        self.remote = remote

    def announce(self, a, session) -> None:
        if self.inner is not None:
            self.inner.announce(a, session)
        self.remote.publish(a.t)

    def refresh(self, session, t: float) -> None:
        if self.inner is not None:
            self.inner.refresh(session, t)
        self.remote.tick(t)

    def close(self, session=None) -> None:
        if self.inner is not None:
            self.inner.close(session)
        self.remote.publish()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class Remote:
    """A session seen from the web: its links, its queue of requests, its publishing."""

    def __init__(self, session, hub: Hub, *, links: PlayerLinks | None = None, title: str = "",
                 clock_every: float = 1.0):
        self.session = session
        self.hub = hub
        self.links = links or PlayerLinks(session.game.players)
        self.title = title
        self.clock_every = clock_every
        self._lock = threading.Lock()
        self._queue: deque[tuple[int, str, Any]] = deque()
        self._refused: dict[int, str | None] = {}
        self._published_t: float | None = None
        self.dirty = False
        self.stop_requested = False  # the owner's page asked the game to stop (arbiter serve)

    # ---------------------------------------------------------------- the server's thread
    def submit(self, player: int, action: str, arg: Any = None) -> str | None:
        """Queue a checked request for the session; None when queued, else why it is refused."""
        if not 1 <= player <= self.session.game.players:
            return "no such player"
        if action in ACTIONS:
            arg = None
        elif action == "choose":
            if not isinstance(arg, int) or isinstance(arg, bool) or not 0 <= arg < 100:
                return "choose needs the number of a reading"
        elif action == "secret":
            if not isinstance(arg, str) or not arg.strip() or len(arg) > MAX_SECRET:
                return f"a secret step is some text of at most {MAX_SECRET} characters"
        else:
            return f"unknown action {action!r}"
        with self._lock:
            if len(self._queue) >= MAX_QUEUE:
                return "too many requests waiting; try again in a moment"
            self._queue.append((player, action, arg))
        return None

    # ---------------------------------------------------------------- the session's thread
    def _carry_out(self) -> list[Press]:
        with self._lock:
            todo = list(self._queue)
            self._queue.clear()
        presses: list[Press] = []
        s = self.session
        for player, action, arg in todo:
            if action in ACTIONS:
                presses.append(Press(ACTIONS[action], s.now()))
            elif action == "choose":
                s.choose(arg)
            elif action == "secret":
                self._refused[player] = enter_secret(s, player, arg)
                self.dirty = True
        return presses

    def tick(self, t: float) -> None:
        """Publish again when something changed unannounced, or once a second while a clock runs."""
        clock = self.session.clock
        due = clock is not None and (self._published_t is None or t - self._published_t >= self.clock_every)
        if self.dirty or due:
            self.publish(t)

    def publish(self, t: float | None = None) -> None:
        s = self.session
        t = s.now() if t is None else t
        self.dirty = False
        self._published_t = t
        private = {p: private_view(s, p, self._refused.get(p)) for p in range(1, s.game.players + 1)}
        self.hub.publish(public_view(s, t, title=self.title), private)


def attach(session, hub: Hub, *, links: PlayerLinks | None = None, title: str = "", publish: bool = True) -> Remote:
    """Put the web page on ``session``: its screen and buttons wrapped, the first view published
    (``publish=False``: not yet; a page that serves games one after another first makes the new
    game the one its requests go to, so no view of it reaches a link of the game before)."""
    remote = Remote(session, hub, links=links, title=title)
    session.screen = WebScreen(session.screen, remote)
    session.buttons = WebButtons(session.buttons, remote)
    if publish:
        remote.publish()
    return remote
