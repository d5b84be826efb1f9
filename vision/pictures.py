"""Pictures of games: any game's board and position, drawn by the renderer of its board's style.

Each board style has its own renderer beside its kind: ``vision.render`` draws HTJB boards
(lines and points, one ink), ``vision.render_hanky`` draws Brain Hanky's two coloured webs with
rings, gems and capture piles. ``DRAWERS`` maps ``BoardGraph.style`` to a drawing function; a
new style adds one entry. Everything that draws *a game* rather than a bare board (the CLI's
``render``, documentation pictures, the calibration layout) comes here, so it never has to know
which renderer a board needs.

A drawing function takes ``(board, position, *, title, piles, highlights, labels, unit_px)`` and
ignores what its style has no use for (an HTJB board has no capture piles).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from engine.boards import BoardGraph, brain_hanky_for

from .render import render_board
from .render_circles import render_circles
from .render_hanky import render_hanky
from .render_pegs import render_pegs


def _draw_htjb(board: BoardGraph, position: Mapping[str, Any] | None, *, title: str | None = None,
               piles: Mapping[int, int] | None = None, **kw: Any) -> np.ndarray:
    kw.pop("cloth", None)  # printed on white paper
    return render_board(board, position, title=title, **kw)


def _draw_hanky(board: BoardGraph, position: Mapping[str, Any] | None, *, title: str | None = None,
                piles: Mapping[int, int] | None = None, **kw: Any) -> np.ndarray:
    hboard = brain_hanky_for(board.name)
    if hboard is None:
        raise ValueError(f"{board.name} is not a registered Brain Hanky board")
    kw = {k: v for k, v in kw.items() if k in ("highlights", "labels", "unit_px", "cloth")}
    return render_hanky(hboard, position, piles=piles, title=title, **kw)


# Board style -> how to draw a board of that style with a position on it.
# The two-grid gem game's board is lines and points too: the HTJB renderer draws each grid in its
# side's colour (``render.POINT_INKS``).
# Brainmaster's holes and pegs and the circles' tracks of symbols have renderers of their own.
DRAWERS: dict[str, Callable[..., np.ndarray]] = {"htjb": _draw_htjb, "brain-hanky": _draw_hanky,
                                                 "twin-grids": _draw_htjb, "brainmaster": render_pegs,
                                                 "circles": render_circles}


def draw(board: BoardGraph, position: Mapping[str, Any] | None = None, **kw: Any) -> np.ndarray:
    """``board`` with ``position`` on it, drawn by the renderer of the board's style."""
    try:
        drawer = DRAWERS[board.style]
    except KeyError:
        raise ValueError(f"no renderer for boards of style {board.style!r} "
                         f"(known: {', '.join(DRAWERS)})") from None
    return drawer(board, position, **kw)


def describe_state(state, players: int = 2) -> str:
    """One line saying whose turn it is and in which phase, or how the game ended.

    During placement the men still in hand are listed too (when the state can tell them,
    ``state.in_hand(player)``): the board alone does not show them.
    """
    result = getattr(state, "result", None)
    if result is not None:
        if result.winner is None:
            return f"draw: {result.reason}"
        return f"player {result.winner} wins: {result.reason}"
    text = f"player {state.to_move} to move, {state.phase}"
    in_hand = getattr(state, "in_hand", None)
    if callable(in_hand):
        hands = [in_hand(p) for p in range(1, players + 1)]
        if any(hands):
            text += "; in hand " + " / ".join(map(str, hands))
    return text


def state_title(game, state, title: str | None = None) -> str:
    """The title ``render_state`` draws, so callers can pass it to ``point_to_pixel``."""
    heading = title if title is not None else getattr(game, "name", "")
    caption = describe_state(state, getattr(game, "players", 2))
    return "\n".join(t for t in (heading, caption) if t)


def render_state(game, state, *, title: str | None = None, **kw: Any) -> np.ndarray:
    """Render ``state`` of ``game`` on its board, titled with the game name and a caption.

    The caption is ``describe_state(state)``; other keywords go to the board style's renderer
    (``vision.render.render_board`` for HTJB boards). Note the title band: use
    ``point_to_pixel(..., title=...)`` with the same title text to locate points. Families that
    keep capture piles (``State.captures``) have them drawn where the style shows piles.
    """
    piles = state.captures() if hasattr(state, "captures") else None
    heading = state_title(game, state, title)
    image = draw(game.board, state.position(), title=heading, piles=piles, **kw)
    if game.board.style == "htjb" and hasattr(state, "stack"):
        _mark_stacks(image, game.board, state, heading, kw.get("style"))
    return image


def _mark_stacks(image: np.ndarray, board: BoardGraph, state, title: str, style=None) -> None:
    """Where pieces stand on each other (Stack, Tableaux), the height beside the top piece: a
    picture, like a camera, shows only the top."""
    import cv2

    from .render import DEFAULT_STYLE, point_to_pixel

    st = style or DEFAULT_STYLE
    for spot in state.position():
        height = len(state.stack(spot))
        if height < 2 or spot not in board.index:
            continue
        c, r = point_to_pixel(board, spot, st, title=title)
        org = (round(c + 0.7 * st.piece_radius), round(r - 0.55 * st.piece_radius))
        text = f"x{height}"
        for colour, thick in (((255, 255, 255), 4), ((20, 20, 20), 2)):
            cv2.putText(image, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, thick, cv2.LINE_AA)


def render_position(game, position: Mapping[str, Any] | None, *, title: str | None = None, **kw: Any) -> np.ndarray:
    """``position`` (spot -> piece) on ``game``'s board, titled."""
    return draw(game.board, position, title=title, **kw)


def layout_picture(game, position) -> np.ndarray:
    """A picture of the board with the calibration layout on it, labelled, for the user to copy:
    the board as ``arbiter print-board`` prints it."""
    from .render_hanky import PRINT_CLOTH

    return render_position(game, position, title=f"{game.name}: lay out these pieces", cloth=PRINT_CLOTH)


__all__ = ["DRAWERS", "describe_state", "draw", "layout_picture", "render_position", "render_state", "state_title"]
