"""A board and its position as SVG, drawn from the board's own geometry, for any family.

Everything comes through the family protocol and the board graph, the one geometry source the
renderer, the reader and the LED map share: the spots and their coordinates
(``Rules.spots``, ``Rules.spot_xy``), the edges of the graph (drawn as lines; on a board that
wraps round, an edge that crosses the border is drawn as two stubs leaving the board), the cells
off the graph (drawn as squares), the kind of piece each spot holds (``Rules.kind_at``: the
first kind a disc, the second a diamond, any further a square) and each colour's name
(``Rules.colour_name``, used as the CSS colour when it is one). No family is named here.

The board without pieces is the same for every position, so it is drawn once per board and kept;
a position adds only its pieces and marks, which keeps a live page's update small and cheap.
"""

from __future__ import annotations

import math
from functools import lru_cache
from html import escape
from typing import Any, Mapping

__all__ = ["board_svg", "colour_css", "MARKS"]

UNIT = 100.0  # SVG units per board unit
# Colour names CSS knows that colour_name may give; any other colour gets the palette's.
CSS_NAMES = {"white", "black", "red", "blue", "green", "yellow", "orange", "purple", "silver", "gold",
             "brown", "pink", "grey", "gray", "cyan", "magenta"}
PALETTE = ["#f4f4f4", "#222222", "#d23030", "#2f5fd0", "#2f9a45", "#e8c200"]
# What a mark on a spot means on the page (its CSS class, drawn as a ring round the spot).
MARKS = ("last", "illegal", "candidate", "removable", "put", "take", "hint")


def colour_css(rules, colour: int) -> str:
    """The CSS colour of pieces of ``colour``: its name when CSS knows it, else a palette colour."""
    name = str(rules.colour_name(colour)).strip().lower()
    if name in CSS_NAMES:
        return name
    return PALETTE[(colour - 1) % len(PALETTE)]


def _spacing(coords: Mapping[str, tuple[float, float]]) -> float:
    """The distance between the two closest spots: pieces are sized from it so none overlap."""
    pts = list(coords.values())
    best = math.inf
    for i, (x, y) in enumerate(pts):
        for x2, y2 in pts[i + 1:]:
            d = math.hypot(x2 - x, y2 - y)
            if 1e-9 < d < best:
                best = d
    return best if best < math.inf else 1.0


@lru_cache(maxsize=32)
def _board_parts(rules) -> tuple[str, str, dict[str, tuple[float, float]], float, str]:
    """(SVG opening tag, the empty board's drawing, spot -> SVG xy, piece radius, closing tag)."""
    board = rules.board
    coords = {s: tuple(rules.spot_xy(s)) for s in rules.spots}
    xs = [c[0] for c in coords.values()]
    ys = [c[1] for c in coords.values()]
    gap = _spacing(coords)
    r = min(0.3, 0.42 * gap)
    margin = r + 0.25
    x0, y0, x1, y1 = min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin
    if board.period:
        x0, y0 = min(x0, -0.05), min(y0, -0.05)
        x1, y1 = max(x1, board.period + 0.05), max(y1, board.period + 0.05)

    def at(x: float, y: float) -> tuple[float, float]:  # board y runs up, SVG y runs down
        return (round((x - x0) * UNIT, 1), round((y1 - y) * UNIT, 1))

    width, height = round((x1 - x0) * UNIT), round((y1 - y0) * UNIT)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" class="board" '
            f'role="img" aria-label="{escape(rules.name)} board">')
    parts = [f'<rect class="cloth" x="0" y="0" width="{width}" height="{height}" rx="12"/>']
    if board.period:
        px0, py0 = at(0, board.period)
        parts.append(f'<rect class="edge-of-board" x="{px0}" y="{py0}" width="{board.period * UNIT:.0f}" '
                     f'height="{board.period * UNIT:.0f}"/>')
    lines = []
    for a, b in board.edges:
        (ax, ay), (bx, by) = board.coords[a], board.coords[b]
        dx, dy = bx - ax, by - ay
        if board.period:
            wx = (dx + board.period / 2) % board.period - board.period / 2
            wy = (dy + board.period / 2) % board.period - board.period / 2
            if abs(wx - dx) > 1e-9 or abs(wy - dy) > 1e-9:  # wraps round: a stub out of each end
                for (sx, sy), (ex, ey) in (((ax, ay), (ax + wx / 2, ay + wy / 2)),
                                           ((bx, by), (bx - wx / 2, by - wy / 2))):
                    p, q = at(sx, sy), at(ex, ey)
                    lines.append(f"M{p[0]} {p[1]}L{q[0]} {q[1]}")
                continue
        p, q = at(ax, ay), at(bx, by)
        lines.append(f"M{p[0]} {p[1]}L{q[0]} {q[1]}")
    if lines:
        parts.append(f'<path class="edges" d="{"".join(lines)}"/>')
    where = {s: at(*coords[s]) for s in coords}
    dot = max(3.0, r * UNIT * 0.22)
    for spot in rules.spots:
        x, y = where[spot]
        if spot in board.cells:
            h = r * UNIT * 0.9
            parts.append(f'<rect class="cell" x="{x - h:.1f}" y="{y - h:.1f}" width="{2 * h:.1f}" '
                         f'height="{2 * h:.1f}"><title>{escape(spot)}</title></rect>')
        else:
            parts.append(f'<circle class="point" cx="{x}" cy="{y}" r="{dot:.1f}"><title>{escape(spot)}</title>'
                         f'</circle>')
    if len(coords) <= 49:  # few enough spots to name on the board itself
        for spot in rules.spots:
            x, y = where[spot]
            parts.append(f'<text class="label" x="{x + dot + 2:.1f}" y="{y + dot + 14:.1f}">{escape(spot)}</text>')
    return head, "".join(parts), where, r * UNIT, "</svg>"


def _piece(kind_index: int, x: float, y: float, r: float, fill: str, spot: str, words: str) -> str:
    title = f"<title>{escape(spot)}: {escape(words)}</title>"
    if kind_index == 0:
        return f'<circle class="piece" cx="{x}" cy="{y}" r="{r:.1f}" fill="{fill}">{title}</circle>'
    if kind_index == 1:
        pts = f"{x},{y - r:.1f} {x + r:.1f},{y} {x},{y + r:.1f} {x - r:.1f},{y}"
        return f'<polygon class="piece" points="{pts}" fill="{fill}">{title}</polygon>'
    h = r * 0.8
    return (f'<rect class="piece" x="{x - h:.1f}" y="{y - h:.1f}" width="{2 * h:.1f}" height="{2 * h:.1f}" '
            f'fill="{fill}">{title}</rect>')


@lru_cache(maxsize=16384)
def _piece_at(rules, spot: str, owner: int, kind: str) -> str:
    """One piece's markup, kept: a live board draws the same pieces on the same spots again and
    again (this is most of what a view costs on a crowded cloth)."""
    _head, _empty, where, r, _tail = _board_parts(rules)
    kinds = {k: i for i, k in enumerate(rules.piece_kinds)}
    x, y = where[spot]
    return _piece(kinds.get(kind, 0), x, y, r, colour_css(rules, owner), spot, rules.piece_name(owner, kind))


def board_svg(rules, position: Mapping[str, Any], marks: Mapping[str, str] | None = None,
              heights: Mapping[str, int] | None = None) -> str:
    """``position`` (spot -> ``Piece``) on ``rules``' board as one SVG element.

    ``marks``: spot -> one of ``MARKS`` (a ring round the spot in that mark's colour: the last
    step, an illegal change, a candidate, a piece to take ...). ``heights``: spot -> pieces
    standing there, written beside a stack taller than one."""
    head, empty, where, r, tail = _board_parts(rules)
    out = [head, empty]
    for spot, piece in position.items():
        if spot not in where:
            continue
        kind = getattr(piece, "kind", None) or rules.kind_at(spot)
        out.append(_piece_at(rules, spot, piece.owner, kind))
        x, y = where[spot]
        n = (heights or {}).get(spot, 1)
        if n > 1:
            out.append(f'<text class="height" x="{x}" y="{y + r * 0.35:.1f}">{n}</text>')
    for spot, mark in (marks or {}).items():
        if spot in where and mark in MARKS:
            x, y = where[spot]
            out.append(f'<circle class="mark {mark}" cx="{x}" cy="{y}" r="{r * 1.18:.1f}"/>')
    out.append(tail)
    return "".join(out)
