"""LED frames drawn in the terminal: the simulator's stand-in for the real pixels.

The board is drawn on a character grid from the engine's coordinates (as ``arbiter``'s text
board is), each spot a dot, lit spots a ``●`` (gem squares ``◆``) in their LED colour, and under
it the three status pixels. The grid is made fine enough that every spot gets a cell of its own,
so a crowded Brain Hanky board draws as well as a morris board; lines are drawn only where the
grid leaves room for them.

On a terminal each frame redraws the last one in place (rich's Live); piped into a file or a
test's console, frames are printed one after another, so a test can read them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.text import Text

from .layout import STATUS, LayoutMap, Spots, nearest_spacing
from .pixels import Pixels
from .palette import OFF, RGB
from .picture import perceived
from .power import Power

LIT, LIT_GEM, DARK, DARK_GEM = "●", "◆", "·", "◇"


def _grid_scale(spots: Spots) -> tuple[int, int]:
    """Columns and rows per board unit such that no two spots share a cell or touch in a row."""
    x0, _, _, y1 = spots.extent()
    for rows in range(2, 40):
        cols = 2 * rows  # a character cell is about twice as tall as it is wide
        cells: dict[tuple[int, int], str] = {}
        ok = True
        for name, (x, y) in spots.coords.items():
            r, c = round((y1 - y) * rows), round((x - x0) * cols)
            if any((r, c + d) in cells for d in (-1, 0, 1)):
                ok = False
                break
            cells[(r, c)] = name
        if ok:
            return cols, rows
    return 80, 40


class BoardText:
    """Where each spot sits on the character grid, and the board's lines, ready to colour."""

    def __init__(self, layout: LayoutMap, spots: Spots) -> None:
        self.layout = layout
        self.spots = spots
        self.cols, self.rows = _grid_scale(spots)
        x0, y0, x1, y1 = spots.extent()
        self.width = round((x1 - x0) * self.cols) + 1
        self.height = round((y1 - y0) * self.rows) + 1
        self.cell = {n: (round((y1 - y) * self.rows), round((x - x0) * self.cols))
                     for n, (x, y) in spots.coords.items()}
        self.grid = [[" "] * self.width for _ in range(self.height)]
        if nearest_spacing(spots) >= 0.5:
            self._lines()

    def _lines(self) -> None:
        board = self.spots.board
        for a, b in board.edges:
            (r0, c0), (r1, c1) = self.cell[a], self.cell[b]
            if max(abs(r1 - r0), abs(c1 - c0)) > max(self.width, self.height) / 2:
                continue  # an edge that wraps round a periodic board: no room to draw it
            steps = max(abs(r1 - r0), abs(c1 - c0))
            ch = "─" if r0 == r1 else "│" if c0 == c1 else ("╲" if (r1 - r0) * (c1 - c0) > 0 else "╱")
            for k in range(1, steps):
                r = r0 + (r1 - r0) * k / steps
                c = c0 + (c1 - c0) * k / steps
                if ch in "╲╱" and abs(r - round(r)) > 1e-9:
                    continue
                rr, cc = int(round(r)), int(round(c))
                if self.grid[rr][cc] == " ":
                    self.grid[rr][cc] = ch

    def text(self, frame: Sequence[RGB], caption: str | None = None) -> Group:
        """The board with ``frame`` lit, the status pixels and the caption, as rich renderables."""
        marks: dict[tuple[int, int], tuple[str, str]] = {}
        for name, cell in self.cell.items():
            idx = self.layout.points.get(name, ())
            colour = max((frame[i] for i in idx), key=sum, default=OFF)
            gem = name in self.spots.gems
            if colour == OFF:
                marks[cell] = (DARK_GEM if gem else DARK, "grey50")
            else:
                r, g, b = perceived(colour)
                marks[cell] = (LIT_GEM if gem else LIT, f"bold rgb({r},{g},{b})")
        board = Text()
        for r, row in enumerate(self.grid):
            for c, ch in enumerate(row):
                if (r, c) in marks:
                    board.append(*marks[(r, c)])
                else:
                    board.append(ch, style="grey30" if ch != " " else "")
            board.append("\n")
        status = Text()
        for role in STATUS:
            idx = self.layout.status.get(role, ())
            colour = max((frame[i] for i in idx), key=sum, default=OFF)
            if colour == OFF:
                status.append("○ ", style="grey50")
            else:
                r, g, b = perceived(colour)
                status.append("● ", style=f"bold rgb({r},{g},{b})")
            status.append(f"{role}   ", style="dim")
        parts: list[Any] = []
        if caption:
            parts.append(Text(caption, style="bold"))
        parts += [board, status]
        return Group(*parts)


class TerminalPixels(Pixels):
    """The ``terminal`` backend: every ``show()`` draws the board with its lit pixels."""

    kind = "terminal"

    def __init__(self, layout: LayoutMap, spots: Spots, *, power: Power | None = None,
                 console: Console | None = None) -> None:
        super().__init__(layout.count, power=power)
        self.board_text = BoardText(layout, spots)
        self.console = console or Console(highlight=False)
        self._live: Live | None = None
        self._closing = False

    def _write(self, frame: list[RGB], caption: str | None) -> None:
        if self._closing:
            return
        drawing = self.board_text.text(frame, caption)
        if not self.console.is_terminal:
            self.console.print(drawing)
            return
        if self._live is None:
            self._live = Live(drawing, console=self.console, auto_refresh=False)
            self._live.start()
        self._live.update(drawing, refresh=True)

    def close(self) -> None:
        self._closing = True  # leave the last frame on screen rather than a dark board
        super().close()

    def _release(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None
