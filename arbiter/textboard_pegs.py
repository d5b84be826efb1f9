"""Terminal drawings of two boards that are not lines and points: Brainmaster's rows of holes and
Thinking In Circles' five tracks of symbols. ``arbiter.textboard`` looks them up by board style.

Both read without colour too (piped output, CI logs): a code peg is its colour's letter, an
indicator peg ● black or ○ white; a space is its symbol's letter or glyph, a token's space is
bracketed. Colour (rich styles) only adds to that.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text

from engine.boards import BoardGraph
from engine.boards.brainmaster import brainmaster_for
from engine.boards.circles import circles_for

# Brainmaster: Piece.owner 3.. are the code colours R B G Y O P C M (engine.rules.code_pegs).
_PEG_LETTERS = "RBGYOPCM"
_PEG_STYLES = ("bold red", "bold blue", "bold green", "bold yellow", "bold dark_orange", "bold purple",
               "bold cyan", "bold magenta")


def _kind_owner(piece) -> tuple[str, int]:
    if isinstance(piece, int):
        return "code", piece
    return getattr(piece, "kind", "code"), piece.owner


def brainmaster_text(board: BoardGraph, position: Mapping[str, object] | None = None,
                     highlight: tuple[str, ...] = ()) -> Text:
    """The rows top to bottom as the breaker faces the maker: the covered code row, then the last
    guess row down to row 1; each row its code pegs as colour letters and its indicator pegs."""
    position = position or {}
    geo = brainmaster_for(board)
    rows, pegs = geo.rows, geo.pegs
    text = Text()
    text.append("code ", style="dim")
    text.append(" ".join(["▒"] * pegs), style="dim")
    text.append("   (covered)\n", style="dim")
    text.append("     " + "─" * (2 * pegs + 2 + pegs) + "\n", style="dim")
    for row in range(rows, 0, -1):
        text.append(f"{row:>3}  ", style="dim")
        for i in range(pegs):
            spot = f"r{row}{chr(97 + i)}"
            piece = position.get(spot)
            extra = " reverse" if spot in highlight else ""
            if piece is None:
                text.append("·", style="dim" + extra)
            else:
                _, owner = _kind_owner(piece)
                k = owner - 3
                letter = _PEG_LETTERS[k] if 0 <= k < len(_PEG_LETTERS) else "?"
                text.append(letter, style=(_PEG_STYLES[k] if 0 <= k < len(_PEG_STYLES) else "bold") + extra)
            text.append(" ")
        text.append("  ")
        for i in range(pegs):
            piece = position.get(f"r{row}k{i + 1}")
            if piece is None:
                text.append("·", style="dim")
            else:
                _, owner = _kind_owner(piece)
                text.append("●" if owner == 1 else "○", style="bold")
        text.append("\n")
    text.append("     code pegs: R red B blue G green Y yellow O orange\n"
                "     P purple C cyan M magenta; indicator pegs: ● black ○ white\n", style="dim")
    return text


# Thinking In Circles: a space's symbol as one character, with its colour.
_SYMBOLS = {"N": ("·", "dim"), "W": ("○", "bold bright_white"), "B": ("●", "bold"),
            "C": ("C", "bold cyan"), "T": ("T", "bold green"), "S": ("S", "bold blue"), "P": ("P", "bold magenta")}


def circles_text(board: BoardGraph, position: Mapping[str, object] | None = None,
                 highlight: tuple[str, ...] = ()) -> Text:
    """One line per circle (C1 .. C5, C5 next to C1), its spaces 0.. in order clockwise, each its
    symbol; the token's space in brackets (and reverse orange); a space of ``highlight`` underlined."""
    geo = circles_for(board)
    position = position or {}
    text = Text()
    text.append("     " + "".join(f"{s:^3}" for s in range(geo.size)) + "\n", style="dim")
    for k in range(1, 6):
        text.append(f"C{k}   ", style="bold")
        for s in range(geo.size):
            spot = geo.spot(k, s)
            ch, style = _SYMBOLS.get(geo.symbols[spot], (geo.symbols[spot], ""))
            under = " underline" if spot in highlight else ""
            if spot in position:
                text.append("[", style="bold dark_orange")
                text.append(ch, style=style + " reverse" + under)
                text.append("]", style="bold dark_orange")
            else:
                text.append(f" {ch} ", style=style + under)
        text.append("\n")
    text.append("     · neutral  ○ white  ● black  [ ] a token\n"
                "     C circle  T triangle  S square  P pentagon\n", style="dim")
    return text


__all__ = ["brainmaster_text", "circles_text"]
