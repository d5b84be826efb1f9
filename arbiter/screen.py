"""The terminal screen of a refereed game: the board as the referee holds it, the LEDs, the moves.

Two ways to show the same session (``arbiter.session.Session`` calls ``announce`` for everything
it tells the players, and ``refresh`` every frame, which a live screen paces itself):

- ``LiveScreen``, on a terminal: one screen redrawn in place (rich's Live), with the game's
  board (the position the referee holds, the last step's points underlined), the LED board as
  the pixels show it (when the LEDs are drawn in the terminal), whose turn it is, the clocks,
  captures, the move list and the latest messages.
- ``StoryScreen``, when the output is a file, a pipe or a test (and for ``arbiter demo``): the
  game told as a story, one line per thing said, with the LED board drawn at the moments that
  matter (an illegal change, a mill, a question, the end). Pieces are drawn with distinct glyphs
  per player, so it reads without colour.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .textboard import game_text, spot_grid

__all__ = ["LiveScreen", "StoryScreen", "game_board", "led_board"]

MARKS = {"step": "✓", "steps": "✓", "waiting-removal": "✓", "correction": "↻", "takeback": "↶",
         "takeback-pending": "?", "ambiguous": "?", "offer": "?", "hint": "☆", "illegal": "✗", "restored": "✓",
         "in-progress": "…", "unseen": "·", "seen": "·", "over": "■", "start": "▶", "error": "!",
         "guidance": "!", "resumed": "✓", "clock": "⏱", "button": "·", "unchanged": "·", "unclear": "?",
         "cleared": "✗"}
STYLES = {"illegal": "bold red", "cleared": "bold red", "error": "bold red", "guidance": "bold magenta",
          "over": "bold green",
          "correction": "yellow", "takeback": "yellow", "takeback-pending": "yellow", "ambiguous": "cyan",
          "offer": "cyan", "hint": "cyan", "unseen": "dim", "seen": "dim", "clock": "yellow"}
# LED boards drawn in the story: the moments a player would look at the lights.
STORY_LEDS = frozenset({"illegal", "waiting-removal", "guidance", "ambiguous", "over", "correction", "takeback"})



def _step_points(session, steps) -> tuple[str, ...]:
    pts: list[str] = []
    for s in steps:
        for p in session.referee.step_spots(s):
            if p not in pts:
                pts.append(p)
    return tuple(pts)


def game_board(session) -> Any:
    """The position the referee holds, drawn (the last step's points underlined)."""
    last = _step_points(session, session.history[-1:]) if session.history else ()
    return game_text(session.game, session.state.position(), last, layout=session.layout, spots=session.spots)


def led_board(session, pixels) -> Any:
    """The LED board as the pixels show it now (``pixels``: a ``FrameSink``)."""
    return spot_grid(session.layout, session.spots).text(pixels.frame, pixels.caption)


def _width(renderable: Any) -> int:
    """Columns a picture needs (to decide side by side or one under the other)."""
    plain = renderable.plain if isinstance(renderable, Text) else str(renderable)
    return max((len(line) for line in plain.splitlines()), default=0)


def status_line(session, t: float) -> str:
    """The line over the board: whose turn, captures, stacks, the clocks, and the reader's own
    trouble if it has any (``Session.reader_health``: the same call for every reader)."""
    st = session.state
    if session.over and session.result is not None:
        r = session.result
        who = "a draw" if r.winner is None else f"player {r.winner} wins"
        head = f"Game over: {who} ({r.reason})"
    else:
        who = session.referee.colour_name(session.mover()).capitalize()
        head = f"{who} to move ({st.phase})"
    caps = session.captures()
    if any(caps.values()):
        head += " · captured: " + ", ".join(f"{session.referee.colour_name(p)} {n}" for p, n in caps.items())
    stacks = session.stacks_words()
    if stacks:
        head += " · stacks: " + stacks
    c = session.clock
    if c is not None:
        head += " · clock: " + "  ".join(f"{p}: {_clock_text(c.remaining(p, t))}" for p in range(1, c.players + 1))
    problem = session.reader_health().problem
    if problem:
        head += " · " + problem
    return head


def _clock_text(seconds: float) -> str:
    if seconds == float("inf"):
        return "∞"
    m, s = divmod(int(seconds + 0.999), 60)
    return f"{m}:{s:02}"


def move_list(session, last: int = 24) -> str:
    # A secret step (a code, a goal, hidden beads) shows as its public text until the game is over.
    over = session.state.result is not None
    public = session.game.rules.public_text
    hist = [str(s) if over else public(s) for s in session.history]
    start = max(0, len(hist) - last)
    return "  ".join(f"{i + 1}.{s}" for i, s in enumerate(hist[start:], start)) or "(no steps yet)"


class StoryScreen:
    """The game as a story, line by line (piped output, tests, the demo).

    ``pixels``: a ``FrameSink`` to draw the LED board from at the moments in ``leds_at``;
    ``boards_at``: kinds after which the game board is drawn too. ``clock``: print times.
    """

    def __init__(self, console: Console | None = None, *, pixels=None, leds_at=STORY_LEDS,
                 boards_at=frozenset({"over"}), times: bool = True, quiet=frozenset({"unchanged", "seen"}),
                 once: bool = False, delay: float = 0.0):
        self.console = console or Console(highlight=False)
        self.pixels = pixels
        self.leds_at = frozenset(leds_at)
        self.boards_at = frozenset(boards_at)
        self.times = times
        self.quiet = frozenset(quiet)
        self.once = once  # draw the boards only the first time each kind of moment comes
        self.delay = delay  # seconds to pause after each line (the demo's pace on a terminal)
        self.drawn: set[str] = set()
        self.t0: float | None = None

    def line(self, text: str, style: str = "") -> None:
        """A line of the story that is not an announcement (the demo's narration)."""
        self.console.print(text, style=style, soft_wrap=True, highlight=False)

    def announce(self, a, session) -> None:
        if a.kind in self.quiet or not a.message:
            return
        if self.t0 is None:
            self.t0 = a.t
        mark = MARKS.get(a.kind, "·")
        when = f"{a.t - self.t0:6.1f}s " if self.times else ""
        text = Text(f"{when}{mark} ", style="dim")
        text.append(a.message, style=STYLES.get(a.kind, ""))
        self.console.print(text, soft_wrap=True)
        self._pause(1)
        kind = "waiting-removal" if a.kind in ("step", "steps") and a.verdict and a.verdict.to_remove else a.kind
        if self.once and kind in self.drawn:
            return
        board = kind in self.boards_at
        leds = self.pixels is not None and kind in self.leds_at and bool(a.events)
        if board or leds:
            self.drawn.add(kind)
            self.pictures(session, board=board, leds=leds)

    def pictures(self, session, *, board: bool = True, leds: bool = True) -> None:
        """The game board and the LED board, side by side."""
        row, widths = [], []
        if board:
            picture = game_board(session)
            row.append(Group(Text("the game, as the referee holds it", style="dim"), picture))
            widths.append(_width(picture))
        if leds and self.pixels is not None:
            picture = led_board(session, self.pixels)
            row.append(Group(Text("the LEDs", style="dim"), picture))
            widths.append(_width(picture))
        if not row:
            return
        if sum(widths) + 6 * (len(row) - 1) > max(self.console.width, 100):  # too wide: one under the other
            for part in row:
                self.console.print(part)
        else:
            grid = Table.grid(padding=(0, 6))
            for _ in row:
                grid.add_column()
            grid.add_row(*row)
            self.console.print(grid)
        self._pause(4)

    def _pause(self, k: float) -> None:
        if self.delay:
            import time

            time.sleep(self.delay * k)

    def refresh(self, session, t: float) -> None:
        pass

    def close(self, session=None) -> None:
        pass


class LiveScreen:
    """One screen redrawn in place on a terminal (at most ``fps`` times a second)."""

    def __init__(self, console: Console | None = None, *, pixels=None, title: str = "arbiter", fps: float = 10.0):
        self.console = console or Console(highlight=False)
        self.pixels = pixels
        self.title = title
        self.messages: deque[Text] = deque(maxlen=7)
        self.live: Live | None = None
        self.interval = 1.0 / fps
        self._drawn: float | None = None
        self.t0: float | None = None

    def announce(self, a, session) -> None:
        if a.kind in ("unchanged",) or not a.message:
            return
        if self.t0 is None:
            self.t0 = a.t
        text = Text(f"{MARKS.get(a.kind, '·')} ", style="dim")
        text.append(a.message, style=STYLES.get(a.kind, ""))
        self.messages.append(text)
        self.draw(session, a.t, force=True)

    def refresh(self, session, t: float) -> None:
        self.draw(session, t)

    def render(self, session, t: float) -> Any:
        pictures = [game_board(session)]
        if self.pixels is not None:
            pictures.append(led_board(session, self.pixels))
        parts = [Panel(pictures[0], title="the game", border_style="grey50", expand=False)]
        if len(pictures) > 1:
            parts.append(Panel(pictures[1], title="the LEDs", border_style="grey50", expand=False))
        wide = sum(_width(p) + 4 for p in pictures) + 4 * (len(pictures) - 1)
        if self.console.width < wide:  # too wide side by side: one under the other
            boards: Any = Group(*parts)
        else:
            boards = Table.grid(padding=(0, 4))
            for _ in parts:
                boards.add_column()
            boards.add_row(*parts)
        return Group(
            Text(self.title, style="bold"),
            boards,
            Text(status_line(session, t), style="bold"),
            Text("moves: " + move_list(session), style="dim"),
            Text(""),
            *self.messages,
        )

    def draw(self, session, t: float, force: bool = False) -> None:
        # Paced by the wall clock, not the game's: a simulated game may run many times faster.
        import time

        now = time.monotonic()
        if not force and self._drawn is not None and now - self._drawn < self.interval:
            return
        self._drawn = now
        view = self.render(session, t)
        if self.live is None:
            self.live = Live(view, console=self.console, auto_refresh=False, transient=False)
            self.live.start()
        self.live.update(view, refresh=True)

    def close(self, session=None) -> None:
        if self.live is not None:
            if session is not None:
                self.live.update(self.render(session, session.now()), refresh=True)
            self.live.stop()
            self.live = None
