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
    if game.spec.family == "stack":
        return _stack_summary(game)
    if game.spec.family == "tableaux":
        return _tableaux_summary(game)
    if game.spec.family == "brainmaster":
        return _brainmaster_summary(game)
    if game.spec.family == "circles":
        return _circles_summary(game)
    if game.spec.family == "twin-grids":
        return _twin_summary(game)
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
    rules = getattr(game.rules, "inner", game.rules)
    out: list[tuple[str, list[str]]] = []

    setup = [f"Board: {b.name}, {b.description}; {len(b.points)} points, {len(rules.line_points)} lines that count."]
    if s.teams:
        setup.append(f"Team play: four players in two teams, each team sharing one colour's {s.men} men; turns go "
                     f"A1, B1, A2, B2, partners alternating with opponents. A team wins or loses together.")
    else:
        setup.append(f"{s.players} players, {s.men} men each; player 1 moves first.")
    if s.start:
        for player in range(1, s.players + 1):
            pts = [p for p, owner in s.start if owner == player]
            setup.append(f"Player {player} starts on {', '.join(pts)}.")
    else:
        setup.append("The board starts empty; players take turns placing one man from hand on any empty point.")
    out.append(("Set-up and placement", setup))

    lines: list[str] = []
    if b.name == "saba":
        lines.append("Pillars form only on the sides of the two squares: the eight paths through the centre "
                     "carry men and jumps but make no pillar.")
    if s.line_effect in (mills.LINE_HANDS_OVER, mills.LINE_HANDS_OVER_OR_REMOVES):
        lines.append("A Tresillo is any three own chips in a row on one of the board's lines (ruling T-1).")
        if s.line_effect == mills.LINE_HANDS_OVER:
            lines.append("Making a Tresillo makes the opponent hand over one unplayed chip, which the maker keeps; "
                         "if the opponent has none left, nothing happens. No chip leaves the board (ruling T-2).")
        else:
            lines.append("Alternative Play: making a Tresillo makes the opponent hand over one unplayed chip; if "
                         "they have none left, the maker removes one of their chips from the board instead, "
                         "written xg7 (ruling T-3).")
            lines.append("Chips standing in a Tresillo are protected, unless every opponent chip stands in one "
                         "(ruling G-4).")
        lines.append(_reform_text(s.reform))
    elif s.line_effect == mills.LINE_REMOVES:
        word = "jare" if s.shax_opening else s.line_word
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
    if s.placement_only:
        moves = ["Chips are only placed: the game never reaches a movement phase (ruling T-2)."]
    elif s.move_after_all_placed:
        moves = ["Once both players' chips are all played (on the board or collected), a move takes a chip to "
                 "a neighbouring empty point; no jumps, no flying. A player whose chips are all played while the "
                 "other still places passes until then (ruling T-3)."]
    if s.placement_only:
        pass
    elif s.flying == mills.FLY_ALWAYS:
        moves = ["After placement, a move takes any man to any empty point "
                 + ("(ruling X-1)." if b.name == "three" else "(the game's page: pieces may move to any open spot).")]
    elif s.flying == mills.FLY_AT_THREE:
        if rules.flights:
            moves.append(f"Flying option: a player down to exactly three men may fly a man to any empty point, at "
                         f"most {rules.flights} times in the game; after that their men move normally again "
                         f"(ruling G-6). A move to a neighbouring point is not a flight.")
        else:
            moves.append("A player down to exactly three men may fly a man to any empty point (ruling G-6).")
    elif s.flights:
        moves.append(f"Men do not fly (the game's flying option, {s.flights} flights, is --flying; ruling G-6).")
    else:
        moves.append("Men never fly.")
    if s.jumps and s.jump_captures:
        moves.append("A man may also jump over a neighbouring opponent man to the empty point straight beyond it "
                     "(along a line of the board); the jumped man is captured and taken off after the move "
                     "(ruling G-7).")
        moves.append("Jumps may continue from the landing point over further men in one move (a chain, "
                     "a1*g1*g7), and may stop after any jump; a man is jumped only once (ruling G-7).")
        if s.jump_mandatory:
            moves.append("Jumping is mandatory: if a capturing jump is open and no move forms a pillar, the player "
                         "must jump; when a pillar can be formed, any move may be made (ruling G-8).")
        else:
            moves.append("Jumping is not mandatory.")
    elif s.jumps:
        moves.append("A man may also jump over a neighbouring opponent man to the empty point straight beyond it; "
                     "the jumped man stays (ruling G-7).")
        if s.chain_jumps:
            moves.append("Jumps may continue from the landing point over further men in one move (a chain, "
                         "a1*g1*g7), never landing twice on one point, and may stop after any jump (ruling G-7).")
    out.append(("Movement", moves))

    ends: list[str] = []
    if s.placement_only:
        ends.append("The game ends when every spot is covered or the player to move has no chip left; whoever "
                    "holds more of the other's chips wins, an equal count is a draw (ruling T-2).")
    if s.move_clock:
        ends.append(f"Each play has {s.move_clock:g} seconds; when a player's time runs out (the call "
                    f"'timeout') their turn passes, with any removal they were owed (ruling T-5).")
    if s.win_captures:
        ends.append(f"Capturing {s.win_captures} of the opponent's men wins.")
    if s.jump_captures and s.lose_below == 1:
        ends.append("Capturing every one of the opponent's men wins.")
    elif s.lose_below:
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

    if s.match_target:
        ends.append(f"Advanced Play: a match of rounds, the players taking turns to start. After each round a "
                    f"player scores 1 point per chip captured and 2 per opponent chip trapped on the board (no "
                    f"open neighbour); the first to {s.match_target} points wins (ruling T-3). Between rounds the "
                    f"board is cleared: the call 'next-round'.")
    notation = ["Placement: d2.  Slide or flight: d2-d3.  Removal: xg7."]
    if s.jumps:
        notation[0] += "  Jump: a1*g1." + ("  Chain of jumps: a1*g1*g7." if s.chain_jumps else "")
    if s.move_clock:
        notation[0] += "  Out of time: timeout."
    out.append(("Notation", notation))
    return out + _options_section(game)


def _stack_summary(game: Game) -> list[tuple[str, list[str]]]:
    s = game.settings
    seating = s.seating
    setup = [f"Board: {game.board.name}, {game.board.description}; a Tresillo is any of its "
             f"{len(game.board.lines)} lines (ruling T-1)."]
    if seating == "two-colours":
        setup.append(f"Two players, each playing two colours of {s.chips} chips: turns go colour 1 (player 1), "
                     f"colour 2 (player 2), colour 3 (player 1), colour 4 (player 2).")
    elif seating == "teams":
        setup.append(f"Team play: four players, {s.chips} chips of their own colour each, in two teams (players 1 "
                     f"and 3, 2 and 4); turns go round, partners alternating with opponents.")
    else:
        setup.append(f"{s.players} players, {s.chips} chips of their own colour each; turns go round to the right "
                     f"(ruling T-4).")
    setup.append("A colour with chips in reserve places one on an empty point or on a stack not topped by its "
                 f"own colour; a stack holds at most {s.limit} chips (ruling T-4).")
    if seating == "two-colours":
        setup.append("A player may stack on their own other colour.")
    if seating == "teams":
        setup.append("A player may stack on a partner's chip (any other colour).")
    out = [("Set-up and placing", setup)]
    moves = [
        "Only a stack's top chip counts: its colour controls the stack, counts it for a Tresillo and moves it; "
        "the camera sees only top chips, and the screen and lights show what lies beneath (ruling T-4).",
        "A colour with none in reserve moves the top chip of one of its stacks to a neighbouring point that is "
        f"empty or topped by another colour and holds fewer than {s.limit} (ruling T-4).",
        f"A colour controlling exactly {s.fly_at} stacks, with none in reserve, may fly a top chip to any such "
        "point (ruling T-4).",
        "A colour that cannot play loses its turn, and the next plays (ruling G-2).",
    ]
    out.append(("Moving", moves))
    take = {"two-colours": "a stack topped by the other player's chip",
            "teams": "a stack not topped by their own colour (a partner's too)"}.get(seating, "a stack topped by an opponent's chip")
    caps = [
        f"Three stacks in a row topped by one colour make a Tresillo; its maker removes {take}, written xg7. "
        "One removal however many Tresillos one play makes (ruling G-4).",
        "Stacks in a standing Tresillo are protected unless no other stack can be taken (ruling T-4).",
        "From a confiscated stack the remover's own chips go back to their reserve to be played again"
        + (" (either of the player's colours)" if seating == "two-colours" else "")
        + "; the others are kept as captured" + (" (a partner's chips are not returned)" if seating == "teams" else "")
        + " (ruling T-4).",
        "A move that uncovers a chip and so completes a Tresillo for its colour gives that colour a removal too, "
        "after the mover's own, if its Tresillo still stands (second priority).",
    ]
    out.append(("Tresillo and confiscation", caps))
    ends = [
        "A round ends when every chip is played and one " + ("team" if seating == "teams" else "colour")
        + " tops every stack. After all chips are played the players may declare an impasse (the call 'impasse'): "
        "the round ends and the chips on the board are left uncounted.",
        f"{s.move_cap} moves without a confiscation, the third repetition of a position, or a board where no colour "
        "can play end the round as an impasse (ruling G-3).",
        "Tally: each " + ("team" if seating == "teams" else "player") + " scores 1 point per chip held: in reserve, "
        "captured, and its own chips on the board (ruling T-4).",
        f"Rounds go on, the player to the right of the last round's first player starting the next, until someone "
        f"reaches {s.match_target} points; between rounds the board is cleared (the call 'next-round').",
    ]
    if s.elimination:
        ends.append("Hold your man (elimination): when a player reaches the target, the player who plays just "
                    "before them is eliminated; the scores start again among the rest, and the last player left wins.")
    out.append(("End of the game", ends))
    out.append(("Notation", ["Place: d2.  Move or fly a top chip: d2-d3.  Confiscate a stack: xg7.  "
                             "Calls: impasse, next-round."]))
    return out + _options_section(game)


def _tableaux_summary(game: Game) -> list[tuple[str, list[str]]]:
    s = game.settings
    setup = ["Board: all 25 spots (the 24 points and the centre); no lines, chips are only taken off."]
    if s.advanced:
        setup.append("Advanced Play: each round the first player names the chips in play (chips=25 to chips=48; "
                     "chips above 25 stand two high on spots) and the other player names the draw size "
                     "(draw=3 to draw=9): a play takes 1 to that many chips (ruling TB-1).")
    else:
        setup.append("25 chips, one on every spot; player 1 starts (ruling TB-1).")
    out = [("Set-up", setup)]
    plays = [f"In turn, each player takes {'1 to the draw size' if s.advanced else '1, 2 or 3'} chips off the board.",
             "A camera sees only which spots hold chips: where chips stand two high, the players confirm the "
             "count with the buttons (docs/rules.md)."]
    if s.advanced:
        plays.append(f"A round's first play has {s.first_clock:g} seconds, every later play {s.clock:g}; when time "
                     "runs out the call 'timeout' ends the round (ruling TB-1).")
    out.append(("Playing", plays))
    ends = ["Whoever has to take the last chip loses (ruling TB-1)."]
    if s.advanced:
        ends.append("Tally: after a last-chip round the winner scores the chips they took; after a timeout the "
                    "other player scores the chips they took plus the greater of the chips left on the board and "
                    "the chips the late player took (ruling TB-1).")
        ends.append(f"Rounds go on, the players taking turns to start, until someone reaches {s.match_target} "
                    "points; between rounds the board is set up again (the call 'next-round').")
    out.append(("End of the game", ends))
    out.append(("Notation", ["A play is the number of chips taken: 3; the companion also records the spots it "
                             "emptied: 3:a1,d4.  Calls: chips=30, draw=5, timeout, next-round."]))
    return out + _options_section(game)


def _brainmaster_summary(game: Game) -> list[tuple[str, list[str]]]:
    from .rules.brainmaster import COLOUR_NAMES, LETTERS

    s = game.settings
    colours = ", ".join(f"{n} ({L})" for L, n in zip(LETTERS, COLOUR_NAMES[: s.colours]))
    setup = [f"Board: {s.rows} guess rows of {s.pegs} code holes, each with {s.pegs} indicator holes, and a code "
             f"row under a cover (boards.md section 5).",
             f"Code pegs in {s.colours} colours: {colours}. A code is {s.pegs} pegs; a colour may repeat."]
    if s.solo:
        setup.append("Solo: the companion draws each code at random and keeps it; you break it.")
    else:
        setup.append("Player 1 makes the first code of a round and player 2 breaks it; then the roles swap for the "
                     "round's second code. The maker gives the code to the companion privately (ruling BM-2).")
    plays = ["The breaker fills the next guess row; the maker answers with indicator pegs: one black for each "
             "peg of the right colour in the right hole, one white for each further peg of a right colour in a "
             "wrong hole, no peg counted twice (ruling BM-1).",
             "The companion checks every answer against the code: a wrong count is refused, naming the row and "
             "the right count, until the maker puts it right (ruling BM-2)."]
    if s.solo:
        plays.append("Solo: the companion names each row's answer and you put its indicator pegs in.")
    ends = [f"A code is cracked by a row of {s.pegs} black pegs, and holds when all {s.rows} rows are used "
            "without; either way it is revealed and the board is cleared (next-code, next-round)."]
    if s.solo:
        ends.append(f"{s.rounds} code{'s' * (s.rounds != 1)} to break; the score is the rows used (fewer is "
                    "better); a code that holds loses the game.")
    else:
        ends.append("A round's point goes to the breaker who cracked in fewer rows; a code that held gives its "
                    "maker the point; equal rows score nothing, and two codes that held give each maker a point "
                    "(ruling BM-2, docs/rules.md).")
        ends.append(f"After {s.rounds} round{'s' * (s.rounds != 1)} most points wins; equal points draw.")
    out = [("Set-up", setup), ("Playing", plays), ("End of the game", ends)]
    out.append(("Notation", ["The code (a secret): code=RBGY.  A guess: row:colours, 3:RBGY.  An answer: "
                             "row:NbNw, 3:2b1w (3:0b0w for none).  Calls: next-code, next-round."]))
    return out + _options_section(game)


def _circles_summary(game: Game) -> list[tuple[str, list[str]]]:
    from .boards.circles import SYMBOL_NAMES

    s = game.settings
    g = game.rules.geometry
    track = ", ".join(SYMBOL_NAMES[c] for c in g.track)
    starts = ", ".join(f"C{k} space {t}" for k, t in enumerate(g.starts, 1))
    first, second = game.rules.colour_name(1), game.rules.colour_name(2)
    goals = "one secret goal" if s.goals == 1 else f"{s.goals} secret goals (Spin Cycle)"
    setup = [f"Board: five circles C1-C5 in a ring, each a track of {g.size} spaces numbered clockwise from its top "
             f"(boards.md section 4). Circle Ck shows the track {track} turned by {g.shift}(k-1) spaces.",
             f"The five tokens start on each circle's first neutral space: {starts}.",
             f"Player 1 plays {first} and moves first; player 2 plays {second}.",
             f"Each player gives the companion {goals} privately: three shapes in order, from circle, triangle, "
             f"square and pentagon (ruling TC-2)."]
    if s.uncloned:
        setup.append("UnCloned: no goal may have the same shape twice side by side.")
    if s.lockdown:
        setup.append("Lockdown: each player starts with one Blocker (ruling TC-4).")
    plays = ["On a turn the player to move names a circle; the other player, then the player to move, secretly "
             "choose 1 to 3 beads of one colour: white counts +1 each, black -1 each (ruling TC-1).",
             "Once both are in, the companion reveals the beads together, and the named circle's token moves by "
             "their sum, clockwise when positive; a sum of 0 leaves it where it is."]
    if s.lockdown:
        plays.append("Lockdown: right after a circle is named, the other player may spend a Blocker to make the "
                     "player to move name another circle (one Blocker a turn). When the moved token ends on a "
                     "neutral space, a move of 0 included, the player to move gains a Blocker (ruling TC-4).")
    ends = ["After every move the five triples of adjacent circles (C5 is next to C1) are read forward and "
            "backward: three tokens on your colour win, and so do three tokens on the shapes of one of your goals "
            "in order (ruling TC-3)."]
    if s.wild_cards:
        ends.append("Wild Cards: a token on your colour counts as any shape of your goal.")
    ends.append("If both players win on the same move, the player who named the circle wins (ruling TC-3). The "
                "companion announces a win by a secret goal and reveals every goal when the game ends.")
    if s.repetition_draw:
        ends.append("The third time a turn starts from the same tokens and Blockers with the same player to move, "
                    "the game is drawn (ruling G-3).")
    if s.move_cap:
        ends.append(f"{s.move_cap} moves without a win draw the game (ruling G-3; option move_cap).")
    out = [("Set-up", setup), ("Playing", plays), ("End of the game", ends)]
    out.append(("Notation", ["A goal (a secret): goal=CST (C circle, T triangle, S square, P pentagon).  Naming a "
                             "circle: C3.  Beads (a secret): beads=2w (two white), beads=3b (three black).  A "
                             "Blocker: block.  The token move: c3.5-c3.9 (circle 3, space 5 to space 9)."]))
    return out + _options_section(game)


def _twin_summary(game: Game) -> list[tuple[str, list[str]]]:
    s = game.settings
    n = game.rules.n
    last = "abcdefgh"[n - 1]
    out = [("Board and set-up", [
        f"Two square grids of {n} x {n} points, red and blue, the blue one offset half a step up and to the right "
        f"(boards.md section 3): red points r:a1 to r:{last}{n}, blue points b:a1 to b:{last}{n} (GG-1).",
        f"{s.gems} gems each. Red starts on its left column and bottom row, blue on its right column and top "
        "row: the two edges of each grid that the other grid does not surround. Red moves first (the "
        "rulebook lets the players choose who starts: whoever starts plays red)."])]
    out.append(("Moving (GG-1)", [
        "A turn slides one of your gems straight along a row or column of your own grid, as far as you like.",
        "It stops before another of your own gems and at the edge of the grid.",
        "It may not cross the opponent's grid line between two points that both hold opponent gems "
        "(a blockade); it may cross a line with one opponent gem at an end."]))
    out.append(("Capturing (GG-2)", [
        "When your gem lands, every opponent gem diagonally next to it with another of your gems just beyond it "
        "on that diagonal is captured, several at once if so; the players lift them after the move.",
        "Only the mover captures: a gem that moves in between two opponent gems is safe."]))
    ends = ["A gem with no legal move is trapped. After each move the opponent, then the mover, loses if they "
            "cannot move or have at most one untrapped gem left (GG-3)."]
    if s.move_cap:
        ends.append(f"{s.move_cap} moves without a capture draw the game (ruling G-3; option move_cap).")
    out.append(("End of the game", ends))
    out.append(("Notation", ["A move is from-to on one grid: r:a2-r:d2, b:f5-b:f2."]))
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
