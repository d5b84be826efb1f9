"""Thinking In Circles (seed 001, rulings TC-1 to TC-4): steer five tokens by outguessing the other player.

Five tokens stand on five circular tracks (``engine/boards/circles.py``). On a turn the player to
move names a circle; then both players secretly choose 1-3 beads of one colour (white +1 each,
black -1 each); the beads are revealed together and the token of the named circle moves by their
sum, clockwise for a positive sum (TC-1). After every move the five adjacent triples of circles
are read forward and backward (TC-3): a player wins when three adjacent tokens stand on spaces of
their colour, or on the shapes of one of their secret goals in order. If both win at once, the
player who named the circle wins.

Options: ``lockdown`` (Blockers, TC-4), ``goals`` 1-3 (Spin Cycle: two or three goals each),
``uncloned`` (no goal with the same shape twice side by side), ``wild_cards`` (a token on your
colour stands for any shape of your goal), ``first`` (the colour of the player who moves first:
the rulebook's other player chose a colour, and the one left moves first).

Steps and notation (a step is one physical transition of the board, as everywhere in arbiter)
--------------------------------------------------------------------------------------------
``goal=CST``    a player's secret goal: circle, square, triangle (C circle, T triangle, S square,
                P pentagon). One step per goal; player 1 gives all theirs, then player 2. A
                *secret* step: see "Secrets" below.
``C3``          the player to move names circle 3 (a call: no piece moves).
``block``       Lockdown: the other player spends a Blocker on the circle just named; the player
                to move names another (one Blocker a turn, docs/rules.md).
``beads=2w``    a secret choice of beads: two white (+2); ``beads=3b`` three black (-3). The other
                player chooses first (right after the circle is named, when a Blocker could be
                spent), then the player to move; both are revealed together once both are in.
``c3.5-c3.9``   the token of circle 3 moved from space 5 to space 9: the one legal step after
                the beads are revealed, unless they sum to 0 (then the token stays and nothing
                is to be done on the board: the reveal ends the turn).

Pieces: the tokens belong to nobody (``Piece(1, "token")``, read by occupancy). Players' colours
(``Rules.colour_of``) are numbers 1 and 2, called white and black (or black and white with
``first="black"``); a result's winner is the winning player's number.

Secrets
-------
Through the family protocol's privacy members (``engine.protocol``): ``state.private_to`` is the
player whose next step is secret (a goal, a bead choice), ``state.secrets()`` what each player
alone may see (their goals; their beads until the reveal), ``rules.public_text(step)`` the step
as others may see it (``goal``, ``beads``). The beads are revealed in the ``events`` of the step
that completes both choices; a win by a goal is announced in the result and events; every goal is
revealed in the events of the step that ends the game (``state.revealed_goals`` from then on).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from ..boards.circles import (BLACK_SPACE, CIRCLES, NEUTRAL, SHAPE_NAMES, SHAPES, SYMBOL_NAMES, WHITE_SPACE,
                              CirclesBoard, circles_board)
from ..core import CALL, MOVE, IllegalStep, Piece, Result, Step, parse_step_text, preflight
from ..protocol import Draws, RulesBase, StateBase

TOKEN = "token"
BLOCK = "block"
SET_GOAL = "goal="
SET_BEADS = "beads="
BEAD_CHOICES = (-3, -2, -1, 1, 2, 3)  # TC-1: 1-3 beads of one colour
WHITE, BLACK = "white", "black"

# The turn's stages and the phase words every family shares.
GOALS, CIRCLE, ANSWER, BEADS, MOVING, OVER = "goals", "circle", "answer", "beads", "move", "over"
_PHASES = {GOALS: "set-up", CIRCLE: "choosing", ANSWER: "choosing", BEADS: "choosing", MOVING: "movement",
           OVER: "over"}
_CIRCLE = re.compile(r"^[cC]([0-9]+)$")
_BEADS = re.compile(r"^([1-9][0-9]*)([wWbB])$|^([+-]?[0-9]+)$")


@dataclass(frozen=True)
class CirclesSettings:
    lockdown: bool = False  # TC-4: Blockers
    goals: int = 1  # secret goals each (Spin Cycle: 2 or 3)
    uncloned: bool = False  # no goal with two identical shapes side by side
    wild_cards: bool = False  # a token on your colour counts as any shape of your goal
    first: str = WHITE  # the colour of player 1, who moves first
    move_cap: int = 200  # token moves before a draw (0: none; ruling G-3)
    repetition_draw: bool = True  # G-3: the third repetition of a turn's start draws

    @property
    def board(self) -> str:
        return "circles"


def beads_text(total: int) -> str:
    """A bead choice as written: ``2w`` for two white (+2), ``3b`` for three black (-3)."""
    return f"{abs(total)}{'w' if total > 0 else 'b'}"


def beads_words(total: int) -> str:
    n = abs(total)
    return f"{n} {WHITE if total > 0 else BLACK} bead{'s' * (n != 1)} ({total:+d})"


def goal_text(goal: Sequence[str]) -> str:
    return "".join(goal)


def goal_words(goal: Sequence[str]) -> str:
    return ", ".join(SHAPE_NAMES[g] for g in goal)


class CirclesRules(RulesBase):
    """A Thinking In Circles game: the board, the options and the interned steps its states share."""

    family = "circles"
    piece_kinds = (TOKEN,)
    reads_as = "occupancy"  # the tokens belong to nobody: a reader needs only to see where they stand
    line_name = "three in a row"
    players = 2
    secret_prefixes = ((SET_GOAL, "goal"), (SET_BEADS, "beads"))  # a goal or a bead choice

    def __init__(self, name: str, settings: CirclesSettings, geometry: CirclesBoard | None = None):
        s = settings
        if s.goals not in (1, 2, 3):
            raise ValueError(f"each player holds 1 goal, or 2 or 3 with Spin Cycle, not {s.goals}")
        if s.first not in (WHITE, BLACK):
            raise ValueError(f"the first player plays white or black, not {s.first!r}")
        if s.move_cap < 0:
            raise ValueError("the move cap is 0 (none) or more moves")
        self.name = name
        self.settings = s
        self.geometry = geometry or circles_board()
        self.board = self.geometry.graph
        self.index = self.board.index
        self.size = self.geometry.size
        # The symbol each player's colour shows on the track: player 1's first.
        self.colour_symbol = ((WHITE_SPACE, BLACK_SPACE) if s.first == WHITE else (BLACK_SPACE, WHITE_SPACE))
        self._steps: dict[str, Step] = {}
        self.circle_steps = tuple(self._intern(CALL, f"C{k}") for k in range(1, CIRCLES + 1))
        self.block = self._intern(CALL, BLOCK)
        self.bead_steps = tuple(self._intern(CALL, SET_BEADS + beads_text(b)) for b in BEAD_CHOICES)
        self._goal_steps: tuple[Step, ...] | None = None
        self._moves: dict[tuple[int, int, int], Step] = {}
        self.triples = tuple(tuple((i + j) % CIRCLES + 1 for j in range(3)) for i in range(CIRCLES))

    # ------------------------------------------------------------------ players and pieces
    def colour_name(self, colour: int) -> str:
        """A player's colour word: player 1 plays ``settings.first``."""
        if colour not in (1, 2):
            return f"player {colour}"
        return {WHITE_SPACE: WHITE, BLACK_SPACE: BLACK}[self.colour_symbol[colour - 1]]

    def piece_name(self, colour: int, kind: str) -> str:
        return "token"

    # The one kind of piece on the board (colour, kind): the tokens belong to nobody, so a camera
    # learns one look for all five (``vision.families``), not one per player's colour.
    piece_classes: tuple[tuple[int, str], ...] = ((1, TOKEN),)

    def side_name(self, player: int) -> str:
        return f"player {player} ({self.colour_name(player)})"

    # ------------------------------------------------------------------ steps
    def goal_steps(self) -> tuple[Step, ...]:
        """Every goal a player may choose (UnCloned: none with a shape twice side by side)."""
        if self._goal_steps is None:
            out = []
            for a in SHAPES:
                for b in SHAPES:
                    for c in SHAPES:
                        if self.settings.uncloned and (a == b or b == c):
                            continue
                        out.append(self._intern(CALL, SET_GOAL + a + b + c))
            self._goal_steps = tuple(out)
        return self._goal_steps

    def move_step(self, circle: int, src: int, dst: int) -> Step:
        """The step moving circle ``circle``'s token from space ``src`` to ``dst`` (built once)."""
        key = (circle, src, dst)
        st = self._moves.get(key)
        if st is None:
            g = self.geometry
            made = Step(MOVE, g.spot(circle, src), g.spot(circle, dst))
            st = self._moves[key] = self._steps.setdefault(str(made), made)
        return st

    def read_goal(self, letters: str) -> str:
        """Shape letters -> a goal, with an error that never repeats the goal (it is a secret)."""
        letters = letters.strip().upper()
        if len(letters) != 3:
            raise IllegalStep("goal", f"a goal is a sequence of three shapes, one letter each (C circle, T triangle, "
                                      f"S square, P pentagon), not {len(letters)}")
        if any(ch not in SHAPES for ch in letters):
            raise IllegalStep("goal", "a goal's shapes are C circle, T triangle, S square and P pentagon")
        return letters

    def read_beads(self, text: str) -> int:
        """``2w``, ``3b`` (or ``+2``, ``-3``) -> the choice's value, -3..+3 without 0 (TC-1)."""
        m = _BEADS.match(text.strip())
        if not m:
            raise IllegalStep("beads", "write the beads as a count and a colour: 2w (two white), 3b (three black)")
        if m.group(3) is not None:
            total = int(m.group(3))
        else:
            total = int(m.group(1)) * (1 if m.group(2).lower() == "w" else -1)
        if total not in BEAD_CHOICES:
            raise IllegalStep("beads", "choose 1 to 3 beads of one colour (ruling TC-1)")
        return total

    def parse(self, text: str) -> Step:
        t, got = self._known(text, "write a step as C3, beads=2w, goal=CST, block or c3.5-c3.9")
        if got is not None:
            return got
        low = t.lower()
        if low == BLOCK:
            return self.block
        if low.startswith(SET_GOAL):
            return self._intern(CALL, SET_GOAL + self.read_goal(t[len(SET_GOAL):]))
        if low.startswith(SET_BEADS):
            return self._intern(CALL, SET_BEADS + beads_text(self.read_beads(t[len(SET_BEADS):])))
        m = _CIRCLE.match(t)
        if m:
            k = int(m.group(1))
            if not 1 <= k <= CIRCLES:
                raise IllegalStep(t, f"the circles are C1 to C{CIRCLES}, not C{k}")
            return self.circle_steps[k - 1]
        try:
            kind, src, dst, path = parse_step_text(t)
        except ValueError as exc:
            raise IllegalStep(t, str(exc)) from None
        names = [p for p in (src, dst) + tuple(path) if p]
        unknown = [p for p in names if p not in self.index]
        if unknown:
            raise IllegalStep(t, f"{unknown[0]} is not a space on the board (spaces are c1.0 to "
                                 f"c{CIRCLES}.{self.size - 1}); a step is C3, beads=2w, goal=CST, block or c3.5-c3.9")
        if kind != MOVE:
            raise IllegalStep(t, "tokens are neither put down nor taken off: a token moves round its circle "
                                 "(c3.5-c3.9)")
        a, b = self._circle_space(src), self._circle_space(dst)
        if a[0] != b[0]:
            raise IllegalStep(t, f"a token stays on its circle: {src} is on C{a[0]}, {dst} on C{b[0]}")
        return self.move_step(a[0], a[1], b[1])

    @staticmethod
    def _circle_space(spot: str) -> tuple[int, int]:
        k, s = spot[1:].split(".")
        return int(k), int(s)

    def _make_explainer(self, sees: str):
        from .circles_explain import CirclesExplainer

        return CirclesExplainer(self, sees)

    def step_spots(self, step: Step) -> tuple[str, ...]:
        """A circle named lights its whole track; a token move its start and end."""
        if step.kind == CALL:
            m = _CIRCLE.match(str(step))
            return self.geometry.circle_spots(int(m.group(1))) if m else ()
        return super().step_spots(step)

    # ------------------------------------------------------------------ states
    def new(self, *, draws: "Draws | Sequence[int] | None" = None) -> "CirclesState":
        if draws:
            raise ValueError(f"{self.name} has no chance draws: the beads are chosen, not drawn")
        st = CirclesState.__new__(CirclesState)
        st.rules = self
        st.tokens = self.geometry.starts
        st.goals = ((), ())
        st.stage = GOALS
        st.mover = 1
        st.circle = None
        st.blocked = None
        st.beads = (None, None)
        st.blockers = (1, 1) if self.settings.lockdown else (0, 0)
        st.moves = 0
        st.seen = ()
        st.result = None
        st.events = ()
        st.target = None
        st.revealed_goals = ()
        return st

    def setup(self, tokens: Sequence[int], goals: Sequence[Sequence[str]], *, mover: int = 1,
              blockers: Sequence[int] | None = None) -> "CirclesState":
        """A position built by hand (tests, puzzles): each circle's token space, each player's goals
        (shape letters, ``["CST"]``), the player to name a circle, and Lockdown's Blockers."""
        if len(tokens) != CIRCLES or any(not 0 <= t < self.size for t in tokens):
            raise ValueError(f"give {CIRCLES} token spaces, each 0 to {self.size - 1}")
        if len(goals) != 2 or any(len(g) != self.settings.goals for g in goals):
            raise ValueError(f"give {self.settings.goals} goal(s) for each of the two players")
        st = self.new()
        for p in (0, 1):
            for g in goals[p]:
                why = st.why_illegal(SET_GOAL + g)
                if why:
                    raise ValueError(why)
                st = st.play(SET_GOAL + g)
        st.tokens = tuple(tokens)
        st.mover = mover
        if blockers is not None:
            st.blockers = tuple(blockers)
        st.seen = (st._turn_key(),)
        return st


class CirclesState(StateBase):
    """A Thinking In Circles position: tokens, goals, the turn's choices so far, Blockers.

    ``tokens`` is each circle's token space (C1 first); ``goals`` each player's goals so far;
    ``stage`` where the turn stands (goals, circle, answer = the other player blocks or chooses
    beads, beads = the player to move chooses, move, over); ``mover`` the player whose turn it is;
    ``circle`` the circle named (1-5) and ``blocked`` the one a Blocker refused this turn;
    ``beads`` each player's choice this turn (None until made); ``target`` the space the token is
    to move to once the beads are revealed; ``seen`` the turn starts since the game began (G-3).
    """

    __slots__ = ("rules", "tokens", "goals", "stage", "mover", "circle", "blocked", "beads", "blockers", "moves",
                 "seen", "result", "events", "target", "revealed_goals")

    # ------------------------------------------------------------------ turn facts
    @property
    def other(self) -> int:
        return 3 - self.mover

    @property
    def to_move(self) -> int:
        if self.stage == GOALS:
            return 1 if len(self.goals[0]) < self.rules.settings.goals else 2
        if self.stage == ANSWER:
            return self.other
        return self.mover

    @property
    def phase(self) -> str:
        return _PHASES[self.stage]

    @property
    def private_to(self) -> int | None:
        """A goal and a bead choice are secrets of the player making them."""
        return self.to_move if self.stage in (GOALS, ANSWER, BEADS) else None

    def secrets(self) -> dict[int, dict[str, str]]:
        """Each player's goals, and their beads until both are in; nothing once the game is over."""
        if self.result is not None:
            return {}
        out: dict[int, dict[str, str]] = {}
        for p in (1, 2):
            mine: dict[str, str] = {}
            if self.goals[p - 1]:
                mine["goals"] = ", ".join(goal_text(g) for g in self.goals[p - 1])
            if self.beads[p - 1] is not None and self.stage in (ANSWER, BEADS):  # until the reveal
                mine["beads"] = beads_text(self.beads[p - 1])
            if mine:
                out[p] = mine
        return out

    def captures(self) -> dict[int, int]:
        return {}

    def position(self) -> dict[str, Piece]:
        g = self.rules.geometry
        return {g.spot(k, s): Piece(1, TOKEN) for k, s in enumerate(self.tokens, 1)}

    def symbols(self) -> tuple[str, ...]:
        """What each circle's token stands on (C1 first): a shape letter, W, B or N."""
        g = self.rules.geometry
        return tuple(g.symbol(k, s) for k, s in enumerate(self.tokens, 1))

    def legal_steps(self) -> tuple[Step, ...]:
        rules = self.rules
        stage = self.stage
        if stage == OVER:
            return ()
        if stage == GOALS:
            return rules.goal_steps()
        if stage == CIRCLE:
            return tuple(s for k, s in enumerate(rules.circle_steps, 1) if k != self.blocked)
        if stage == ANSWER:
            return rules.bead_steps + ((rules.block,) if self._may_block() else ())
        if stage == BEADS:
            return rules.bead_steps
        return (rules.move_step(self.circle, self.tokens[self.circle - 1], self.target),)

    def _may_block(self) -> bool:
        return self.rules.settings.lockdown and self.blocked is None and self.blockers[self.other - 1] > 0

    def why_illegal(self, step: Step | str) -> str | None:
        step, why = preflight(self, step)
        if why:
            return why
        rules = self.rules
        stage = self.stage
        text = str(step)
        if text.startswith(SET_GOAL):
            if stage != GOALS:
                return "the goals are written down before the first turn (ruling TC-2)"
            if rules.settings.uncloned and (text[-3] == text[-2] or text[-2] == text[-1]):
                return "UnCloned: a goal may not have the same shape twice side by side"
            return None
        if stage == GOALS:
            who = self.to_move
            left = rules.settings.goals - len(self.goals[who - 1])
            return (f"player {who} first writes down a secret goal ({left} still to give), given privately "
                    f"(ruling TC-2)")
        if step in rules.circle_steps:
            if stage != CIRCLE:
                return (f"C{self.circle} is already named for this turn" if self.circle
                        else "this turn's circle is already chosen")
            k = rules.circle_steps.index(step) + 1
            if k == self.blocked:
                return f"a Blocker was spent on C{k}: choose another circle (ruling TC-4)"
            return None
        if stage == CIRCLE:
            return f"{rules.side_name(self.mover)} first names a circle (C1 to C5)"
        if step == rules.block:
            if stage != ANSWER:
                return "a Blocker is spent right after a circle is named, before the beads are chosen (ruling TC-4)"
            if not rules.settings.lockdown:
                return "Blockers are played only with Lockdown (--lockdown)"
            if self.blocked is not None:
                return "one Blocker a turn: the circle named after a Blocker stands (docs/rules.md)"
            if not self.blockers[self.other - 1]:
                return f"{rules.side_name(self.other)} has no Blocker to spend"
            return None
        if text.startswith(SET_BEADS):
            if stage not in (ANSWER, BEADS):
                return "the beads for this turn are already revealed: move the token"
            return None
        if stage in (ANSWER, BEADS):
            return f"{rules.side_name(self.to_move)} first chooses beads, privately (ruling TC-1)"
        # A token move, in the move stage.
        want = rules.move_step(self.circle, self.tokens[self.circle - 1], self.target)
        if step == want:
            return None
        k, _ = rules._circle_space(step.src)
        if k != self.circle:
            return f"this turn moves the token on C{self.circle}, not C{k}"
        if step.src != want.src:
            return f"the token on C{self.circle} stands on {want.src}, not {step.src}"
        total = sum(self.beads)
        way = "clockwise" if total > 0 else "anticlockwise"
        return f"the beads sum to {total:+d}: the token goes {abs(total)} spaces {way}, to {want.dst} (ruling TC-1)"

    # ------------------------------------------------------------------ playing
    def _copy(self) -> "CirclesState":
        nxt = CirclesState.__new__(CirclesState)
        for name in CirclesState.__slots__:
            setattr(nxt, name, getattr(self, name))
        nxt.events = ()
        return nxt

    def _turn_key(self) -> tuple:
        return (self.tokens, self.blockers, self.mover)

    def play(self, step: Step | str) -> "CirclesState":
        why = self.why_illegal(step)
        if why:
            shown = self.rules.public_text(step) if isinstance(step, str) else repr(step)
            raise IllegalStep(shown, why)
        rules = self.rules
        step = rules.parse(step)
        text = str(step)
        nxt = self._copy()
        stage = self.stage
        if stage == GOALS:
            p = self.to_move
            goals = list(self.goals)
            goals[p - 1] = goals[p - 1] + (text[len(SET_GOAL):],)
            nxt.goals = tuple(goals)
            nxt.events = ("has written down a goal",)
            if len(nxt.goals[1]) == rules.settings.goals:
                nxt.stage = CIRCLE
                nxt.seen = (nxt._turn_key(),)
            return nxt
        if stage == CIRCLE:
            nxt.circle = rules.circle_steps.index(step) + 1
            nxt.stage = ANSWER
            nxt.events = (f"names C{nxt.circle}",)
            return nxt
        if step == rules.block:
            blockers = list(self.blockers)
            blockers[self.other - 1] -= 1
            nxt.blockers = tuple(blockers)
            nxt.blocked = self.circle
            nxt.circle = None
            nxt.stage = CIRCLE
            nxt.events = (f"spends a Blocker: {rules.colour_name(self.mover)} must name a circle other than "
                          f"C{self.circle}",)
            return nxt
        if stage == ANSWER:
            nxt.beads = (None, None)
            beads = [None, None]
            beads[self.other - 1] = rules.read_beads(text[len(SET_BEADS):])
            nxt.beads = tuple(beads)
            nxt.stage = BEADS
            nxt.events = ("has chosen beads",)
            return nxt
        if stage == BEADS:
            beads = list(self.beads)
            beads[self.mover - 1] = rules.read_beads(text[len(SET_BEADS):])
            nxt.beads = tuple(beads)
            total = sum(beads)
            src = self.tokens[self.circle - 1]
            dst = (src + total) % rules.size
            shown = (f"has chosen beads; revealed together: {rules.colour_name(1)} {beads_words(beads[0])}, "
                     f"{rules.colour_name(2)} {beads_words(beads[1])}")
            if total == 0:
                nxt.events = (f"{shown}: they sum to 0, the token on C{self.circle} stays",)
                nxt._finish_move()
                return nxt
            way = "clockwise" if total > 0 else "anticlockwise"
            nxt.target = dst
            nxt.stage = MOVING
            nxt.events = (f"{shown}: move the token on C{self.circle} {abs(total)} "
                          f"space{'s' * (abs(total) != 1)} {way}, to {rules.geometry.spot(self.circle, dst)}",)
            return nxt
        # The token move.
        tokens = list(self.tokens)
        tokens[self.circle - 1] = self.target
        nxt.tokens = tuple(tokens)
        nxt._finish_move()
        return nxt

    def _finish_move(self) -> None:
        """The token has moved (or stayed, on a zero sum): wins (TC-3), a Blocker (TC-4), the next turn."""
        rules = self.rules
        s = rules.settings
        self.moves += 1
        events = list(self.events)
        wins = {p: self.wins_for(p) for p in (1, 2)}
        winners = [p for p in (1, 2) if wins[p]]
        if winners:
            winner = self.mover if len(winners) == 2 else winners[0]  # TC-3: both win, the circle's chooser wins
            how = wins[winner]
            reason = how
            if len(winners) == 2:
                loser = 3 - winner
                reason += (f"; {rules.colour_name(loser)} also completed a row ({wins[loser]}), but the player who "
                           f"named the circle wins (ruling TC-3)")
            self._end(Result(winner, False, reason), events)
            return
        landed = rules.geometry.symbol(self.circle, self.tokens[self.circle - 1])
        if s.lockdown and landed == NEUTRAL:
            blockers = list(self.blockers)
            blockers[self.mover - 1] += 1
            self.blockers = tuple(blockers)
            events.append(f"gains a Blocker (now {self.blockers[self.mover - 1]}): the token on C{self.circle} ended "
                          f"on a neutral space (ruling TC-4)")
        self.mover = self.other
        self.stage = CIRCLE
        self.circle = None
        self.blocked = None
        self.beads = (None, None)
        self.target = None
        key = self._turn_key()
        self.seen = self.seen + (key,)
        if s.repetition_draw and self.seen.count(key) >= 3:
            self._end(Result(None, True, "the same position came up a third time with the same player to move "
                                         "(ruling G-3)"), events)
            return
        if s.move_cap and self.moves >= s.move_cap:
            self._end(Result(None, True, f"{s.move_cap} moves without a win (ruling G-3; option move_cap)"), events)
            return
        self.events = tuple(events)

    def _end(self, result: Result, events: list[str]) -> None:
        """The game is over: every goal is revealed (TC-2)."""
        rules = self.rules
        self.result = result
        self.stage = OVER
        self.target = None
        self.revealed_goals = tuple(tuple(g) for g in self.goals)
        held = [f"{rules.colour_name(p)}'s {' / '.join(goal_words(g) for g in self.goals[p - 1])}" for p in (1, 2)]
        events.append(f"ends the game, and the companion reveals the secret goals: {'; '.join(held)}")
        self.events = tuple(events)

    # ------------------------------------------------------------------ winning
    def wins_for(self, player: int) -> str | None:
        """How ``player`` has three in a row now, in words (None if not): their colour on three adjacent
        circles, or one of their goals read forward or backward (Wild Cards: their colour stands for
        any shape). TC-3: every one of the five triples is read."""
        rules = self.rules
        mine = rules.colour_symbol[player - 1]
        colour = rules.colour_name(player)
        sym = self.symbols()
        for triple in rules.triples:
            seen = [sym[k - 1] for k in triple]
            where = ", ".join(f"C{k}" for k in triple)
            if all(x == mine for x in seen):
                return f"the tokens on {where} all stand on {colour}"
        wild = rules.settings.wild_cards
        for triple in rules.triples:
            seen = [sym[k - 1] for k in triple]
            for goal in self.goals[player - 1]:
                for way, order in (("forward", seen), ("backward", seen[::-1])):
                    if all(x == g or (wild and x == mine) for x, g in zip(order, goal)):
                        shown = ", ".join(SYMBOL_NAMES[x] for x in seen)
                        extra = f", {colour} standing in as a wild card" if mine in order else ""
                        where = ", ".join(f"C{k}" for k in triple)
                        return (f"the tokens on {where} show {shown}: {colour}'s secret goal {goal_words(goal)}, "
                                f"read {way}{extra}")
        return None

    def __repr__(self) -> str:
        return (f"<thinking-in-circles {self.stage} player {self.mover} tokens={self.tokens} "
                f"blockers={self.blockers} moves={self.moves}>")


__all__ = ["BEAD_CHOICES", "CirclesRules", "CirclesSettings", "CirclesState", "TOKEN", "beads_text", "goal_text"]
