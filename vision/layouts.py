"""What the calibration pictures must show: the pieces a user lays out for the pieces picture.

One piece of each class far apart (``calibration_layout``), or several of each spread over the
board for the learned reader (``full_layout``). A reader family says which layout suits its board
(``Family.layout``, ``Family.full_layout``); the layouts themselves are here, named by what they
do, so calibration never asks which family it has.
"""

from __future__ import annotations

import numpy as np

from engine.core import Piece

from .families import Family, family_for


def _corners(game, family: Family) -> dict[str, Piece]:
    """One piece of each class on the board's corners in turn: bottom-left, top-right, top-left,
    bottom-right (as seen by player 1)."""
    pos: dict[str, Piece] = {}
    xy = family.xy
    cx, cy = xy.mean(axis=0)
    aims = [(-1, -1), (1, 1), (-1, 1), (1, -1)]
    for c, (ax, ay) in zip(family.classes, aims):
        score = (xy[:, 0] - cx) * ax + (xy[:, 1] - cy) * ay
        for i in np.argsort(-score):
            if family.spots[i] not in pos:
                pos[family.spots[i]] = Piece(c.owner, c.kind)
                break
    return pos


def _spread_squares(game, family: Family) -> dict[str, Piece]:
    """Brain Hanky: a gem and a ring of each side, on squares spread over the cloth."""
    pos: dict[str, Piece] = {}
    hboard = game.rules.hboard
    squares = list(hboard.whole_squares["O"])
    sides = sorted({c.owner for c in family.classes})
    step = max(1, len(squares) // len(sides))
    for j, side in enumerate(sides):
        sq = hboard.squares[squares[(j * step + step // 2) % len(squares)]]
        if any(c.key == (side, "gem") for c in family.classes):
            pos[sq.name] = Piece(side, "gem")
        pos[sq.points["n"]] = Piece(side, "ring")
    return pos


def _peg_staircase(game, family: Family) -> dict[str, Piece]:
    """Brainmaster: one peg of every colour. The code colours in letter order down a staircase,
    the n-th (from 0) in row n + 1's hole n (wrapping at the last hole): red in r1a, blue in r2b,
    green in r3c, yellow in r4d, orange in r5a ...; a black indicator peg in row 1's first
    indicator hole (r1k1) and a white one in the last row's last (r10k4 on the ten-row board)."""
    geo = game.rules.geometry
    pos: dict[str, Piece] = {}
    codes = [c for c in family.classes if c.kind == "code"]
    keys = [c for c in family.classes if c.kind == "key"]
    for n, c in enumerate(codes):
        pos[geo.code_spot(n % geo.rows + 1, n % geo.pegs)] = Piece(c.owner, c.kind)
    for c, spot in zip(keys, (geo.key_spot(1, 0), geo.key_spot(geo.rows, geo.pegs - 1))):
        pos[spot] = Piece(c.owner, c.kind)
    return pos


# ``Family.layout`` -> where one piece of each class goes for calibration.
LAYOUTS = {"corners": _corners, "spread-squares": _spread_squares, "peg-staircase": _peg_staircase}


# The full layout (``full_layout``): at most this many pieces of each class, on at most half the
# spots of their kind (the rest stay empty: calibration's second look at the empty board).
FULL_PER_CLASS = 6
# Brain Hanky's full layout (``_hanky_clusters``): this many clusters of each side.
FULL_CLUSTERS = 6
# A camera sees a standing piece's top displaced from its foot by its height times the tangent of
# its slant; up to this many heights in any direction (a slant of 63 degrees: a camera tilted 45
# degrees with a wide lens's edge beyond that) is where a full layout's piece may show.
COVER_SLANT = 2.0


def cover_reach(family) -> np.ndarray:
    """(N,) board units: how far from each spot a piece standing there may be seen over the board
    by some camera, its radius plus ``COVER_SLANT`` times its height (the marker it may hide,
    ``covers_marker``; the probes beside it, calibration's hand check)."""
    return np.array([max((family.patterns[c.kind].piece_radius for c in family.classes_for(kind)
                          if c.kind in family.patterns), default=0.0) + COVER_SLANT * family.heights.get(kind, 0.0)
                     for kind in family.spot_kind])


def covers_marker(game, spots=None) -> list[str]:
    """The spots (of ``spots``, default every spot) where a standing piece may hide part of a
    corner marker, or the white quiet zone the marker needs round it, from some camera: the piece's
    radius plus ``COVER_SLANT`` times its height (board units) reaches the marker's square grown by
    its quiet zone. Geometry of the print alone (``markers.marker_layout``): a picture whose marker
    is hidden cannot be calibrated ("only 3 of the 4 markers are visible"), and the empty picture
    of the same camera showed it, so the full layout leaves these spots empty."""
    from . import markers

    family = family_for(game)
    board = game.board
    squares = []
    for m in markers.marker_layout(board):
        h = m.size / 2 + m.size / 4  # the marker and its quiet zone (``markers.print_extent``)
        squares.append((m.centre[0] - h, m.centre[1] - h, m.centre[0] + h, m.centre[1] + h))
    out = []
    reach = cover_reach(family)
    for i, spot in enumerate(family.spots):
        if spots is not None and spot not in spots:
            continue
        x, y = family.xy[i]
        for x0, y0, x1, y1 in squares:
            dx, dy = max(x0 - x, 0.0, x - x1), max(y0 - y, 0.0, y - y1)
            if np.hypot(dx, dy) < reach[i]:
                out.append(spot)
                break
    return out


def _farthest_first(xy: np.ndarray, take: int) -> list[int]:
    """Indices of ``take`` of the points ``xy`` (n, 2) spread over them: the first the one nearest
    the bottom-left, each next the point farthest from those taken."""
    order = [int(np.argmin(xy[:, 0] + xy[:, 1]))]
    far = np.linalg.norm(xy - xy[order[0]], axis=1)
    while len(order) < take:
        j = int(np.argmax(far))
        order.append(j)
        far = np.minimum(far, np.linalg.norm(xy - xy[j], axis=1))
    return order


def _hanky_clusters(game, family: Family, per_side: int = FULL_CLUSTERS) -> dict[str, Piece]:
    """Brain Hanky's full set: ``per_side`` clusters of each side on whole squares spread over
    both webs (farthest first from the bottom-left, sides in turn, none where a piece may hide a
    marker), as play shows them: the first of each side whole in its colour, the next with one
    ring of the other side (a cluster a capture has reached), the next a gem with only two of its
    rings, and so on in turn; and a ring of each side alone on a point of an empty square.

    Why clusters: a spot's patch shows its neighbours too, and in play every gem stands among its
    rings. Calibrated from gems and rings standing apart (the layout before), the learned reader
    misread game3's Brain Hanky (mostly gold gems in their yellow rings as silver) in 35 of its 40
    frames; calibrated from a frame of that game (its clusters as exemplars), 4 spots in the 19
    frames after it (docs/learned-reader.md, "The game sets' illegal frames traced").
    ``_spread``'s ``per_class`` does not apply: a cluster is a gem and up to four rings."""
    hboard = game.rules.hboard
    hidden = set(covers_marker(game))
    index = {s: i for i, s in enumerate(family.spots)}
    sides = sorted({c.owner for c in family.classes})
    has_gem = {c.owner for c in family.classes if c.kind == "gem"}
    squares = [hboard.squares[n] for web in sorted(hboard.whole_squares) for n in hboard.whole_squares[web]]
    squares = [q for q in squares if q.name not in hidden and not hidden & set(q.points.values())]
    if not squares:
        return {}

    def centre(q) -> np.ndarray:
        if q.name in index:
            return family.xy[index[q.name]]
        return np.mean([family.xy[index[p]] for p in q.points.values() if p in index], axis=0)

    order = _farthest_first(np.array([centre(q) for q in squares]),
                            min(per_side * len(sides) + len(sides), len(squares) // 2))
    pos: dict[str, Piece] = {}
    for n, j in enumerate(order):
        q, side = squares[j], sides[n % len(sides)]
        other = sides[(n + 1) % len(sides)]
        shape = n // len(sides)
        if shape >= per_side:  # the last squares: one ring alone, on the square's north point
            if "n" in q.points:
                pos[q.points["n"]] = Piece(side, "ring")
            continue
        if side in has_gem and q.name in index:
            pos[q.name] = Piece(side, "gem")
        for d, point in sorted(q.points.items()):
            if shape % 3 == 2 and d not in ("n", "s"):
                continue  # a gem with two of its rings
            pos[point] = Piece(other if shape % 3 == 1 and d == "e" else side, "ring")
    return pos


def _spread(game, family: Family, per_class: int = FULL_PER_CLASS) -> dict[str, Piece]:
    """Several pieces of every class spread over the board: for each kind of piece, its spots
    taken farthest first (the first the one nearest the board's bottom-left, each next the spot
    farthest from those taken), at most half of them, dealt to that kind's classes in turn,
    ``per_class`` each at most. Spots where a piece may hide a corner marker from a tilted
    camera (``covers_marker``: on the mills boards the four corner points) are left empty."""
    pos: dict[str, Piece] = {}
    xy = family.xy
    hidden = set(covers_marker(game))
    for kind in dict.fromkeys(family.spot_kind):
        classes = family.classes_for(kind)
        of_kind = np.array(family.spot_kind) == kind
        idx = np.flatnonzero(of_kind & np.array([s not in hidden for s in family.spots]))
        if not len(classes) or not len(idx):
            continue
        take = min(int(of_kind.sum()) // 2, per_class * len(classes), len(idx))
        for n, j in enumerate(_farthest_first(xy[idx], take)):
            c = classes[n % len(classes)]
            pos[family.spots[idx[j]]] = Piece(c.owner, c.kind)
    return pos


# ``Family.full_layout`` -> how the full set is laid out: spread apart one by one, or as play
# shows the pieces where that differs (Brain Hanky's clusters).
FULL_LAYOUTS = {"spread": _spread, "clusters": _hanky_clusters}


def full_layout(game) -> dict[str, Piece]:
    """Several pieces of every class, laid out as the game's family says (``Family.full_layout``):
    for the learned classifier, which learns from every piece it is shown how a class varies from
    spot to spot under this camera (``vision.piece_book``), and so tells classes apart and knows a
    foreign thing by that. The same for every board of a game: it depends on the board's drawing
    alone."""
    family = family_for(game)
    return FULL_LAYOUTS[family.full_layout](game, family)


def calibration_layout(game, full: bool = False) -> tuple[dict[str, Piece], str]:
    """(position, description): what the pieces picture must show.

    ``full``: several pieces of each class (``full_layout``), for the learned classifier.

    The game's start position when it shows every piece class (Brain Hanky's battle lines, the
    3x3 games with fixed starts); otherwise one piece of each class on spots far apart, so
    neighbours never touch (``Family.layout``, ``LAYOUTS``): for HTJB boards the corners, for
    Brain Hanky a gem and a ring of each side on squares spread over the board.
    """
    family = family_for(game)
    if full:
        pos = full_layout(game)
        counts = {c.name: sum(1 for p in pos.values() if (p.owner, p.kind) == c.key) for c in family.classes}
        words = ", ".join(f"{name} x{n}" for name, n in counts.items())
        return pos, f"several pieces of each kind ({words}) on the spots the layout picture shows"
    start = dict(game.new().position()) if game.rules.draw_values is None else {}
    if start and {(p.owner, p.kind) for p in start.values()} >= {c.key for c in family.classes}:
        return start, "the game's start position"
    pos = LAYOUTS[family.layout](game, family)
    words = ", ".join(f"{family.class_name(p.owner, p.kind)} on {s}" for s, p in pos.items())
    return pos, f"one piece of each kind: {words}"
