"""Plain-language summaries of the rules as the engine implements them.

The text is generated from the same settings the engine plays by, so ``arbiter rules`` can never
describe a rule the engine does not enforce. Ruling ids point at ``spec/rulings.md``.
"""

from __future__ import annotations

from .games import Game
from .rules import mills
from .rules.mills import MillSettings


def rules_summary(game: Game) -> list[tuple[str, list[str]]]:
    """Sections of (heading, bullet lines) describing ``game`` with its options."""
    if game.spec.family == "brain-hanky":
        return _hanky_summary(game)
    return _mill_summary(game)


def _options_section(game: Game) -> list[tuple[str, list[str]]]:
    if not game.spec.options:
        return []
    return [("Options", [f"--{o.name.replace('_', '-')} ({o.kind.__name__}, default {o.default!r}): {o.help}"
                         for o in game.spec.options])]


def _draw_lines(s, moves: str) -> list[str]:
    """G-3's two draws, worded once for every family."""
    out = []
    if s.repetition_draw:
        out.append("The third time the same position comes up with the same player to move, the game is drawn "
                   "(ruling G-3).")
    if s.move_cap:
        out.append(f"{s.move_cap} {moves} without a capture draw the game (ruling G-3; option move_cap).")
    return out


def _mill_summary(game: Game) -> list[tuple[str, list[str]]]:
    s: MillSettings = game.settings
    b = game.board
    out: list[tuple[str, list[str]]] = []

    setup = [f"Board: {b.name}, {b.description}; {len(b.points)} points, {len(game.rules.line_points)} lines that count."]
    setup.append(f"{s.players} players, {s.men} men each; player 1 moves first.")
    if s.start:
        for player in range(1, s.players + 1):
            pts = [p for p, owner in s.start if owner == player]
            setup.append(f"Player {player} starts on {', '.join(pts)}.")
    else:
        setup.append("The board starts empty; players take turns placing one man from hand on any empty point.")
    out.append(("Set-up and placement", setup))

    lines: list[str] = []
    if s.line_effect == mills.LINE_REMOVES:
        word = "jare" if s.shax_opening else "mill"
        if s.shax_opening:
            lines.append("No man is removed while placing; the first player to make a jare is remembered (ruling S-1).")
            lines.append("When the board is full, the maker of the first jare removes one opponent man, then the "
                         "other player removes one; with no jare, player 2 removes first. Any man may be taken. "
                         "The first remover then makes the first move (ruling S-1).")
        lines.append(f"Completing a line of three own men (a {word}) lets the player remove one opponent man; "
                     f"the removal is its own step, written xg7.")
        lines.append("Completing two lines with one step still removes a single man (ruling G-4).")
        if s.protect_lines:
            lines.append("Men standing in a line are protected, unless every opponent man stands in one (ruling G-4).")
        else:
            lines.append("Any opponent man may be removed, even one standing in a line (ruling S-3).")
        lines.append(_reform_text(s.reform))
    else:
        which = {"all": "any line of the board", "rows-columns": "a row or a column (diagonals do not count)",
                 "through-centre": "one of the four lines through the centre d4"}[s.lines]
        lines.append(f"The first player to complete {which} with their own men wins, "
                     f"during placement too (ruling X-2).")
        if not s.home_rank_counts:
            lines.append("A line on a player's own home rank never counts for them (ruling X-1).")
    out.append(("Lines", lines))

    moves = ["After placement, a move takes one man along a drawn line to the neighbouring empty point."
             if not s.start else "A move takes one man along a drawn line to the neighbouring empty point."]
    if s.flying == mills.FLY_ALWAYS:
        moves = ["After placement, a move takes any man to any empty point (ruling X-1)."]
    elif s.flying == mills.FLY_AT_THREE:
        moves.append("A player down to exactly three men may fly a man to any empty point (ruling G-6).")
    else:
        moves.append("Men never fly.")
    if s.jumps:
        moves.append("A man may also jump over a neighbouring opponent man to the empty point straight beyond it; "
                     "the jumped man stays (ruling G-7).")
    out.append(("Movement", moves))

    ends: list[str] = []
    if s.lose_below:
        ends.append(f"A player left with fewer than {s.lose_below} men loses.")
    if s.blocked == mills.BLOCKED_LOSES:
        ends.append("A player who cannot move on their turn loses (ruling G-2).")
    elif s.blocked == mills.BLOCKED_PASSES:
        ends.append("A player who cannot move passes; if neither can move the game is drawn (ruling G-2).")
    else:
        ends.append("A player who cannot move asks for a way out: the opponent must make a move that frees them "
                    "and, if possible, forms no jare; a jare made that way removes nothing (ruling S-2).")
    if s.ten_move_draw:
        ends.append("With a player on three cows, ten moves without a cow shot draw the game (ruling M-1).")
    ends += _draw_lines(s, "moves (placements aside)")
    out.append(("End of the game", ends))

    notation = ["Placement: d2.  Slide or flight: d2-d3.  Removal: xg7."]
    if s.jumps:
        notation[0] += "  Jump: a1*g1."
    out.append(("Notation", notation))
    return out + _options_section(game)


def _hanky_summary(game: Game) -> list[tuple[str, list[str]]]:
    s = game.settings
    hb = game.rules.hboard
    sides = s.sides
    kind = ("periodic: both webs wrap at the edges" if s.periodic and not s.orange_periodic_only
            else "the orange web wraps at the edges, the blue web does not" if s.orange_periodic_only
            else "plain: the webs end at the cloth's edges")
    setup = [f"Board: {s.size}x{s.size} cells, {kind} (BH-1); {len(hb.whole_squares['O'])} orange and "
             f"{len(hb.whole_squares['B'])} blue squares can hold a cluster."]
    if s.players == 4:
        setup.append("Four players in two teams sharing a colour; turns go A1, B1, A2, B2; partners' rings "
                     "never block each other (BH-8).")
    else:
        setup.append(f"{s.players} players, one colour each; player 1 starts.")
    per_web = s.clusters_per_web
    if s.gemless:
        setup.append(f"Each player has {s.gemless_rings} rings and no gems (BH-9).")
    else:
        setup.append(f"Each side has {s.gems} gems and {4 * s.gems} rings (BH-2).")
    if s.battle_lines:
        setup.append("Battle Lines: every cluster starts in a fixed formation and Phase II begins at once "
                     "(BH-10; the squares are shown in docs/brain-hanky.md).")
    else:
        what = "four rings on the four empty points of a whole square" if s.gemless else \
            "a gem on a whole empty square and four rings on its four points"
        setup.append(f"Phase I: a turn places two clusters ({what}), one on each web, in either order; "
                     f"{per_web} clusters per web each. A web with no room skips its half (BH-2).")
    out = [("Set-up and Phase I", setup)]
    moves = [
        f"Phase II: a turn is {'1 to 3 moves, drawn by the move chooser' if s.move_chooser else str(s.moves_per_turn) + ' moves'}"
        f" spread over the webs in any way; the same ring may move more than once; all must be made while "
        f"any move is possible (BH-6).",
        "A move takes one of your rings along a line of its web to an empty neighbouring point, or pushes a "
        "string: a chain of occupied points (any colours) starting with your ring, every ring stepping one "
        "place along the chain into the empty point at its end; the rings keep their order (BH-3).",
        "No ring may cross a bridge whose crossing bridge on the other web has hostile rings on both ends; "
        "this holds for every ring in a string, so an opponent ring cannot be pushed between two of yours "
        "either (BH-4).",
        "A player with no move passes; if no one can move the game is drawn (G-2).",
    ]
    out.append(("Phase II: moving rings", moves))
    caps = []
    if not s.gemless:
        caps.append("After each move, every opponent gem whose four points all hold the mover's rings is "
                    "captured; the rings stay (BH-5).")
        if s.extra_move:
            caps.append("Each capturing move adds one move to the current turn (BH-6 variant).")
        else:
            caps.append("A turn that captured a gem is followed by one extra turn for the same player (BH-6).")
    if s.ring_capture or s.gemless:
        caps.append("Eight of your rings on an octagon capture the opponent rings on the square of the other web "
                    "inside it; a gem there stays" + (" (BH-7)." if not s.gemless else
                                                      "; a capture in Phase II earns an extra turn, in Phase I "
                                                      "it does not (BH-9)."))
    out.append(("Captures", caps))
    ends = []
    if s.gemless:
        ends.append("A player whose opponent is left with fewer than eight rings wins (BH-9).")
    else:
        ends.append("Capture every opponent gem to win.")
        if sides == 3:
            ends.append("Three players: when one is out, the two left compare captured gems and the larger pile "
                        "wins; on a tie, the next gem capture wins (BH-8).")
    if s.scoring:
        ends.append("Scoring: 1 point per captured ring, 5 per gem; the most points wins when the game ends (BH-7).")
    ends += _draw_lines(s, "Phase II moves")
    out.append(("End of the game", ends))
    out.append(("Notation", ["Cluster: the square, e.g. Oc3.  Move: the path of points from your ring to the "
                             "empty point, e.g. Oc3.n-Oc3.e, or Ob2.s-Ob2.e-Oc2.w-Oc2.n for a string of three."]))
    return out + _options_section(game)


def _reform_text(reform: str) -> str:
    if reform == mills.REFORM_FREE:
        return "A line broken and made again (out and back) removes again each time (ruling G-5)."
    if reform == mills.REFORM_NEVER:
        return "A line broken on a player's previous move and made again at once removes nothing (ruling G-5)."
    if reform == mills.REFORM_UNLESS_OTHER:
        return ("A line broken on a player's previous move and made again at once removes nothing, unless the "
                "breaking move formed another line (ruling G-5).")
    return ("A line may be broken and made again to remove each time, except that a line broken by a move that "
            "formed another line removes nothing when re-formed on the very next move (ruling G-5).")
