"""Where the referee's thread leaves what the pages show, without ever waiting on a page.

The session runs in its own thread and must never be held up by a phone on a slow network. It
``publish``es each new view (already encoded as JSON, once for every page) and goes on: the hub
keeps only the latest, bumps a version number and wakes the server's event loop with
``call_soon_threadsafe`` (a write to a pipe, which does not block). Each connected page waits in
the loop for its wake-up and sends whatever is latest by then; a page that falls behind skips the
views it missed instead of queueing them, which is what a live board wants.

Private views are kept per player and are only ever handed to that player's stream
(``private(player)``): the server checks the player's token before it asks.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

__all__ = ["Hub"]


class Hub:
    """The latest public view, the latest private view of each player, and who is listening."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.version = 0
        self._public: bytes = json.dumps({"live": False}).encode()
        self._private: dict[int, bytes] = {}
        self._waiters: set[asyncio.Event] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.published_at: float | None = None  # time.perf_counter() of the last publish (benchmarks)

    # ---------------------------------------------------------------- the session's side
    def publish(self, public: dict[str, Any], private: dict[int, dict[str, Any]] | None = None) -> int:
        """Make ``public`` (and each player's ``private``) the latest views; returns the version.

        Never blocks on a page: encodes, swaps, and asks the event loop to wake the streams."""
        import time

        body = json.dumps(public, separators=(",", ":")).encode()
        mine = {p: json.dumps(v, separators=(",", ":")).encode() for p, v in (private or {}).items()}
        with self._lock:
            self.version += 1
            public_version = self.version
            self._public = body
            if private is not None:
                self._private = mine
            self.published_at = time.perf_counter()
            loop = self.loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(self._wake)
            except RuntimeError:  # the loop has closed (the server stopped): nobody to tell
                pass
        return public_version

    # ---------------------------------------------------------------- the server's side
    def public(self) -> tuple[int, bytes]:
        with self._lock:
            return self.version, self._public

    def private(self, player: int) -> tuple[int, bytes]:
        with self._lock:
            return self.version, self._private.get(player, b"{}")

    def listen(self) -> asyncio.Event:
        """A new page's wake-up call (in the event loop's thread)."""
        self.loop = asyncio.get_running_loop()
        event = asyncio.Event()
        self._waiters.add(event)
        return event

    def leave(self, event: asyncio.Event) -> None:
        self._waiters.discard(event)

    @property
    def listeners(self) -> int:
        return len(self._waiters)

    def _wake(self) -> None:
        for event in self._waiters:
            event.set()
