"""Brainmaster's pegs and its score (ruling BM-1): what the rules and the explainer both use.

Piece colours (``Piece.owner``): 1 black and 2 white for indicator pegs (kind ``key``), 3 onwards
the code colours in letter order (kind ``code``): R red, B blue, G green, Y yellow, O orange,
P purple, C cyan, M magenta. A code is a sequence of colour indices (0 for red).
"""

from __future__ import annotations

from typing import Sequence

LETTERS = "RBGYOPCM"
COLOUR_NAMES = ("red", "blue", "green", "yellow", "orange", "purple", "cyan", "magenta")
BLACK, WHITE = 1, 2  # indicator peg colours (Piece.owner)
FIRST_CODE_COLOUR = 3  # Piece.owner of the first code colour (red)
CODE, KEY = "code", "key"  # piece kinds: code pegs in code holes, indicator pegs in indicator holes


def score(secret: Sequence[int], guess: Sequence[int]) -> tuple[int, int]:
    """BM-1: (black, white) for ``guess`` against ``secret``: black for each right colour in the
    right hole; white for each further right colour in a wrong hole, no peg of either counted
    twice (the common colours counted with their multiplicity, less the blacks)."""
    black = sum(a == b for a, b in zip(secret, guess))
    common = sum(min(secret.count(c), guess.count(c)) for c in set(guess))
    return black, common - black


def code_text(code: Sequence[int]) -> str:
    """A code as its letters: (0, 1, 2, 3) -> ``RBGY``."""
    return "".join(LETTERS[c] for c in code)


def answer_text(black: int, white: int) -> str:
    return f"{black}b{white}w"


def answer_words(black: int, white: int) -> str:
    if not black and not white:
        return "no indicator pegs"
    parts = []
    if black:
        parts.append(f"{black} black")
    if white:
        parts.append(f"{white} white")
    return " and ".join(parts)


__all__ = ["BLACK", "CODE", "COLOUR_NAMES", "FIRST_CODE_COLOUR", "KEY", "LETTERS", "WHITE", "answer_text",
           "answer_words", "code_text", "score"]
