"""Board geometry for every game family, as validated data (see ``graph.BoardGraph``)."""

from __future__ import annotations

from functools import lru_cache

from .graph import BoardError, BoardGraph
from .htjb import HOME_RANKS, build_all as _build_htjb

__all__ = ["BoardError", "BoardGraph", "HOME_RANKS", "board", "board_names"]


@lru_cache(maxsize=None)
def _registry() -> dict[str, BoardGraph]:
    return dict(_build_htjb())


def board(name: str) -> BoardGraph:
    """The board graph called ``name``; a clear error names the known ones otherwise."""
    boards = _registry()
    try:
        return boards[name]
    except KeyError:
        raise BoardError(f"unknown board {name!r}; known boards: {', '.join(sorted(boards))}") from None


def board_names() -> list[str]:
    return sorted(_registry())
