"""The board drawn in the terminal, from the board graph's own coordinates.

Points sit on a character grid (4 columns and 2 rows per board unit); edges are drawn as lines
between them, so every HTJB board looks like the printed one. Pieces use distinct glyphs per
player, so the picture still reads when colour is off (piped output, CI logs).

A game's board on the play screen is drawn by the text drawer of its board's style
(``TEXT_BOARDS``, keyed by ``BoardGraph.style``): HTJB boards as above; Brain Hanky's cloth,
whose hundreds of points would not fit a line drawing, as its spots coloured by the pieces on
them (``hardware.terminal.BoardText``, the same grid the LED board is drawn on); the two-grid
gem game's two grids each in its side's colour, red gems ◆ and blue ◇; Brainmaster's rows of code
and indicator pegs and the five circles' tracks of symbols (``arbiter.textboard_pegs``). A style
with no drawer of its own is drawn as lines and points.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Mapping

from rich.text import Text

from engine.boards import BoardGraph
from hardware.palette import OFF
from hardware.terminal import BoardText

from .textboard_pegs import brainmaster_text, circles_text

GLYPHS = {1: "●", 2: "○", 3: "▲", 4: "■"}
STYLES = {1: "bold bright_white", 2: "bold red", 3: "bold green", 4: "bold blue"}
COL, ROW = 4, 2


def _owner(piece) -> int:
    return piece if isinstance(piece, int) else piece.owner


def board_text(board: BoardGraph, position: Mapping[str, object] | None = None,
               highlight: tuple[str, ...] = (), labels: bool = True) -> Text:
    """A rich Text picture of ``board`` with ``position`` (point -> Piece or owner number).

    A board style with a line drawing of its own (``BOARD_TEXTS``: the two-grid gem game's two
    grids) is drawn by it, so `arbiter replay` shows every board as the play screen does."""
    own = BOARD_TEXTS.get(board.style)
    if own is not None:
        return own(board, position, highlight)
    position = position or {}
    x0, y0, x1, y1 = board.bounds()
    width = int(round((x1 - x0) * COL)) + 1
    height = int(round((y1 - y0) * ROW)) + 1
    grid = [[" "] * width for _ in range(height)]
    styles: dict[tuple[int, int], str] = {}

    def cell(name: str) -> tuple[int, int]:
        x, y = board.coords[name]
        return int(round((y1 - y) * ROW)), int(round((x - x0) * COL))

    for a, b in board.edges:
        (r0, c0), (r1, c1) = cell(a), cell(b)
        steps = max(abs(r1 - r0), abs(c1 - c0))
        if r0 == r1:
            ch = "─"
        elif c0 == c1:
            ch = "│"
        else:
            ch = "╲" if (r1 - r0) * (c1 - c0) > 0 else "╱"
        for k in range(1, steps):
            r = r0 + (r1 - r0) * k / steps
            c = c0 + (c1 - c0) * k / steps
            if ch in "╲╱" and abs(r - round(r)) > 1e-9:
                continue  # diagonals only where they cross a character row exactly
            rr, cc = int(round(r)), int(round(c))
            if grid[rr][cc] == " ":
                grid[rr][cc] = ch
    for name in board.points:
        r, c = cell(name)
        piece = position.get(name)
        if piece is None:
            grid[r][c] = "·"
            if name in highlight:
                styles[(r, c)] = "bold yellow"
        else:
            owner = _owner(piece)
            grid[r][c] = GLYPHS.get(owner, str(owner))
            styles[(r, c)] = STYLES.get(owner, "bold") + (" underline" if name in highlight else "")

    text = Text()
    ranks = {int(round((y1 - board.coords[p][1]) * ROW)): int(board.coords[p][1]) + 1 for p in board.points}
    for r, row in enumerate(grid):
        if labels:
            text.append(f"{ranks[r]} " if r in ranks else "  ", style="dim")
        for c, ch in enumerate(row):
            text.append(ch, style=styles.get((r, c), "dim" if ch in "─│╲╱" else ""))
        text.append("\n")
    if labels:
        files = {int(round((board.coords[p][0] - x0) * COL)): p[0] for p in board.points}
        footer = "".join(files.get(c, " ") for c in range(width))
        text.append("  " + footer + "\n", style="dim")
    return text


# Brain Hanky ring colours (the cloth's pieces as the eye sees them) for drawing the game board.
CLOTH_RGB = {1: (245, 245, 245), 2: (255, 210, 0), 3: (0, 190, 60), 4: (230, 20, 30), 5: (90, 90, 90),
             6: (230, 0, 200)}
_GRIDS: dict[int, tuple[Any, BoardText]] = {}


def spot_grid(layout, spots) -> BoardText:
    """The character grid of ``layout``'s spots (kept: building one takes a moment on a cloth)."""
    held = _GRIDS.get(id(layout))
    if held is None or held[0] is not layout:
        if len(_GRIDS) > 32:
            _GRIDS.clear()
        held = _GRIDS[id(layout)] = (layout, BoardText(layout, spots))
    return held[1]


def _lines_text(game, position, highlight, layout, spots) -> Text:
    return board_text(game.board, position, highlight=highlight)


def _cloth_text(game, position, highlight, layout, spots) -> Text:
    grid = spot_grid(layout, spots)
    frame = [OFF] * layout.count
    for spot, piece in position.items():
        for i in layout.points.get(spot, ()):
            frame[i] = CLOTH_RGB.get(piece.owner, (200, 200, 200))
    return grid.text(frame)


def twin_grids_text(board: BoardGraph, position: Mapping[str, object] | None = None,
                    highlight: tuple[str, ...] = ()) -> Text:
    """The two-grid gem game's board: the red grid and the blue grid each in its colour, the blue
    one half a step up and right, gems as diamonds.

    A step along a grid is 4 columns and 2 rows, so every line between two points of one grid
    crosses a line of the other at its middle character (drawn ``┼``). Points are named
    ``r:<file><rank>`` / ``b:<file><rank>`` (boards.md section 3): each row is labelled with its
    grid and rank at the left (``r3``, ``b3``) and files are written below, in the grids' colours.
    Red gems are ◆ and blue ◇, so the picture reads without colour too.
    """
    position = position or {}
    grids: dict[str, dict[tuple[int, int], str]] = {"r": {}, "b": {}}
    for name in board.points:
        grid, _, rest = name.partition(":")
        grids[grid][(ord(rest[0]) - ord("a"), int(rest[1:]) - 1)] = name
    n = max(i for i, _ in grids["r"]) + 1
    height, width = 2 * n, 4 * (n - 1) + 3
    grid_chars = [[" "] * width for _ in range(height)]
    styles: dict[tuple[int, int], str] = {}
    tone = {"r": "red", "b": "blue"}

    def cell(grid: str, i: int, j: int) -> tuple[int, int]:
        return (2 * (n - 1 - j) + 1, 4 * i) if grid == "r" else (2 * (n - 1 - j), 4 * i + 2)

    def put(r: int, c: int, ch: str, style: str) -> None:
        if grid_chars[r][c] == " ":
            grid_chars[r][c], styles[(r, c)] = ch, style
        elif grid_chars[r][c] in "─│" and ch in "─│" and grid_chars[r][c] != ch:
            grid_chars[r][c], styles[(r, c)] = "┼", "dim"

    for grid, pts in grids.items():
        for (i, j) in pts:
            r, c = cell(grid, i, j)
            if (i + 1, j) in pts:
                for k in (1, 2, 3):
                    put(r, c + k, "─", "dim " + tone[grid])
            if (i, j + 1) in pts:
                put(r - 1, c, "│", "dim " + tone[grid])
    for grid, pts in grids.items():
        for (i, j), name in pts.items():
            r, c = cell(grid, i, j)
            piece = position.get(name)
            if piece is None:
                grid_chars[r][c], styles[(r, c)] = "·", tone[grid] + (" bold reverse" if name in highlight else "")
            else:
                owner = _owner(piece)
                grid_chars[r][c] = "◆" if owner == 1 else "◇"  # apart without colour too
                styles[(r, c)] = "bold " + {1: "bright_red", 2: "bright_blue"}.get(owner, "white") + (
                    " reverse" if name in highlight else "")
    text = Text()
    for r, row in enumerate(grid_chars):
        grid = "r" if r % 2 else "b"
        rank = n - r // 2
        text.append(f"{grid}{rank:<2}", style="dim " + tone[grid])
        for c, ch in enumerate(row):
            text.append(ch, style=styles.get((r, c), ""))
        text.append("\n")
    footer = Text("   ")
    for c in range(width):
        if c % 4 == 0:
            footer.append(chr(ord("a") + c // 4), style="dim red")
        elif c % 4 == 2:
            footer.append(chr(ord("a") + c // 4), style="dim blue")
        else:
            footer.append(" ")
    text.append_text(footer)
    text.append("\n")
    return text


# Board style -> its own line drawing, used by ``board_text`` in place of the HTJB one.
BOARD_TEXTS: dict[str, Callable[..., Text]] = {"twin-grids": twin_grids_text, "brainmaster": brainmaster_text,
                                               "circles": circles_text}


def _own_text(game, position, highlight, layout, spots) -> Text:
    return BOARD_TEXTS[game.board.style](game.board, position, highlight=highlight)


# Board style -> how a position on a board of that style is drawn in the terminal.
TEXT_BOARDS: dict[str, Callable[..., Text]] = {"htjb": _lines_text, "brain-hanky": _cloth_text,
                                              **{style: _own_text for style in BOARD_TEXTS}}


def game_text(game, position: Mapping[str, Any], highlight: tuple[str, ...] = (), *, layout, spots) -> Text:
    """``position`` of ``game`` as the play screen draws it (``layout``/``spots``: the LED map's)."""
    draw = TEXT_BOARDS.get(game.board.style, _lines_text)
    return draw(game, position, highlight, layout, spots)
