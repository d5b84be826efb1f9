"""Scripted players at a simulated table: a small language of physical actions, and players who
play a game record (or random moves) by acting on the board.

The referee is tested here the way players will meet it: not with tidy engine positions but
with hands doing things to a board, seen through a reader (``arbiter.sim.physical``), in time.

The scenario language
---------------------
One action per line (or several separated by ``;``); ``#`` starts a comment. Points are named as
in the game's notation; pieces by colour (``white``, ``black``; Brain Hanky ``white``,
``yellow``, ``silver gem``, ``gold``...). Without a colour, ``put`` uses the player to move.

=================================  =============================================================
``put d1 [white]``                 put a piece from beside the board on d1
``lift d1`` / ``drop d2``          lift a piece into the hand / put the lifted piece down
``move d1 d2``                     lift and put down again at once (no frame sees it in the air)
``slide a1 a4 a7``                 slide along the board: the piece rests a moment on each point
                                   it passes (``slide slowly ...``: long enough to be read there)
``push Oc3.w Oc3.n Od3.w``         Brain Hanky: every ring on the path moves on one place
``take g7``                        take what stands on g7 off the board (a removal, a captured
                                   gem, a confiscated stack)
``chips 3 [a1 d4]``                Tableaux: take 3 chips, all of a1 and d4 first, the rest
                                   from single chips, then the tops of stacks
``setout STEP``                    lay the board out as the game is after STEP (a new round)
``knock d2 [d3]``                  knock the piece off its point: off the board, or onto d3
``cluster Oc3 [white]``            Brain Hanky: a gem on the square and a ring on its four points
``hand 1.0`` / ``hand on|off``     a hand over the board for 1 s / from now until ``hand off``
``bump``                           bump the camera: it looks from a new pose
``press confirm|undo|menu``        press a button
``wait 2``                         nothing happens for 2 s
``quick <action>``                 the next action follows at once, before the board settles
=================================  =============================================================

After every action the board rests (``rest``, 0.6 s: long enough for any stabiliser), unless
the action is ``quick``: two quick moves are two actions, the first of them quick.

The runner (``Table``) advances simulated time in frames of the reader's rate (the camera 10 a
second, a sensor grid 50) and polls the session at each, so a scenario takes milliseconds of
real time per simulated second, and the same scenario always gives the same game.
"""

from __future__ import annotations

import random
import shlex
import time as _time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import engine
from engine.core import CALL, CLUSTER, JUMP, MOVE, PLACE, REMOVE, TAKE, Piece
from hardware.buttons import Role, SimulatedButtons

from .. import referee as R
from ..session import Session, SimClock
from .physical import PhysicalBoard, PhysicalError, parse_piece

__all__ = ["Action", "Player", "ScenarioError", "Table", "parse", "step_actions"]

REST = 0.6  # seconds the board rests after an action: longer than any stabiliser's window
QUICK = 0.03  # ... after a quick one: shorter than a frame of any reader
DWELL = 0.04  # a slide's moment on each point it passes
SLOW_DWELL = 0.7  # ... when slid slowly: long enough to be read there


class ScenarioError(ValueError):
    """A scenario line that cannot be understood, or an action the board refuses; names the line."""


@dataclass
class Action:
    """One physical action: ``verb`` and its words, and whether the board rests after it."""

    verb: str
    args: tuple[str, ...] = ()
    quick: bool = False
    slowly: bool = False
    line: str = ""

    def __str__(self) -> str:
        return self.line or " ".join((("quick ",) if self.quick else ()) + (self.verb,) + self.args)


VERBS = ("put", "lift", "drop", "move", "slide", "push", "take", "chips", "setout", "knock", "cluster", "hand",
         "bump", "press", "wait")


def parse(text: str) -> list[Action]:
    """The actions of a scenario text (see the module notes). Raises ScenarioError naming the line."""
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        for part in raw.split("#", 1)[0].split(";"):
            words = shlex.split(part)
            if not words:
                continue
            quick = slowly = False
            while words and words[0] in ("quick", "slowly"):
                quick |= words[0] == "quick"
                slowly |= words[0] == "slowly"
                words = words[1:]
            if words and words[0] == "slide" and len(words) > 1 and words[1] == "slowly":
                slowly, words = True, [words[0]] + words[2:]
            if not words or words[0] not in VERBS:
                got = words[0] if words else "nothing"
                raise ScenarioError(f"line {n}: {got!r} is not an action (one of {', '.join(VERBS)})")
            out.append(Action(words[0], tuple(words[1:]), quick, slowly, part.strip()))
    return out


class Table:
    """A game at a simulated table: the physical board, a reader watching it, the session, time.

    ``reader``: "camera" (the simulated camera and the real vision code) or "occupancy" (a
    reed-switch grid). The other keyword arguments go to ``Session`` (journal, clock, screen,
    pixels, ...). ``board``: a ``PhysicalBoard`` to use (default: set out as ``state`` or as
    the game after ``history``). ``camera``: keyword arguments for the simulated camera
    (``SimCamera``: ``classifier="learned"``, ``looks={(owner, kind): {...}}``, ``size``).
    """

    def __init__(self, game, reader: str = "camera", *, state=None, history: Sequence[str] = (),
                 board: PhysicalBoard | None = None, mount: int = 1, speed: float = 0.0,
                 sim_clock: SimClock | None = None, start: bool = True, camera: Mapping[str, Any] | None = None,
                 **session_kwargs):
        from .physical import SensorGrid, SimCamera

        self.game = engine.load(game) if isinstance(game, str) else game
        self.time = sim_clock or SimClock()
        if board is None:
            st = state if state is not None else self.game.new()
            for step in history:
                st = st.play(step)
            board = PhysicalBoard.of_state(self.game, st, mount=mount)
        self.board = board
        if reader == "camera":
            self.reader = SimCamera(board, **(camera or {}))
        elif reader == "occupancy":
            if camera:
                raise ValueError("camera settings given for a table read by a sensor grid")
            self.reader = SensorGrid(board)
        else:
            raise ValueError(f"unknown reader {reader!r}: camera or occupancy")
        self.frame_s = self.reader.frame_s
        # A game that wants a board to rest longer before a step is read (Tableaux) gets it.
        self.rest = max(REST, (self.game.rules.settle_s or 0.0) + 0.5)
        self.buttons = SimulatedButtons(self.time)
        self.speed = speed
        self.session = Session(self.game, self.reader, state=state, history=history, buttons=self.buttons,
                               now=self.time, **session_kwargs)
        self._next_frame = self.time.t
        self._held_hand = False
        # Called after every frame the session reads: ``arbiter play`` looks at the keyboard here
        # for q, which stops a simulated game as it stops a real one.
        self.on_frame: Callable[[], None] | None = None
        if start:
            self.session.start()

    # ---------------------------------------------------------------- time
    def wait(self, seconds: float) -> None:
        """Let ``seconds`` of simulated time pass, the session reading the board every frame."""
        end = self.time.t + seconds
        s = self.session
        while self._next_frame <= end + 1e-9:
            if self.speed > 0:
                _time.sleep(max(0.0, (self._next_frame - self.time.t) / self.speed))
            self.time.set(max(self.time.t, self._next_frame))
            s.poll()
            if self.on_frame is not None:
                self.on_frame()
            self._next_frame += self.frame_s
        if self.speed > 0:
            _time.sleep(max(0.0, (end - self.time.t) / self.speed))
        self.time.set(max(self.time.t, end))

    def settle(self) -> None:
        """Rest long enough for the board to be read and judged."""
        self.wait(self.rest)

    def said(self) -> tuple[str, str]:
        """The last thing the session said: its kind ("step", "illegal", ...) and its words."""
        a = self.session.log[-1]
        return a.kind, a.message

    # ---------------------------------------------------------------- acting
    def put_all(self, *pieces: tuple[str, str]) -> None:
        """Put each (spot, piece words) on the board, then rest until it is judged: a whole row of
        pegs at once, as a player sets a guess down before the camera looks again."""
        for spot, words in pieces:
            self.do(Action("put", (spot, words)))
        self.settle()

    def run(self, script: str | Iterable[Action]) -> list:
        """Play a scenario; returns what the session announced meanwhile."""
        actions = parse(script) if isinstance(script, str) else list(script)
        before = len(self.session.log)
        for a in actions:
            try:
                self.do(a)
            except PhysicalError as exc:
                raise ScenarioError(f"{a}: {exc}") from None
        return self.session.log[before:]

    def do(self, a: Action) -> None:
        b, v, args = self.board, a.verb, a.args
        need = {"put": 1, "lift": 1, "drop": 1, "move": 2, "slide": 2, "push": 2, "take": 1, "knock": 1,
                "cluster": 1, "press": 1, "chips": 1, "setout": 1}
        if len(args) < need.get(v, 0):
            raise ScenarioError(f"{a}: {v} needs {need[v]} point{'s' if need[v] > 1 else ''}")
        if v == "put":
            b.put(args[0], self._piece(args[1:], args[0]))
        elif v == "lift":
            b.lift(args[0])
        elif v == "drop":
            b.put(args[0])
        elif v == "move":
            b.move(args[0], args[1])
        elif v == "slide":
            dwell = SLOW_DWELL if a.slowly else DWELL
            piece = b.lift(args[0])
            for point in args[1:-1]:
                b.put(point, piece)
                self.wait(dwell)
                b.lift(point)
            b.put(args[-1], piece)
        elif v == "push":
            b.push(args)
        elif v == "take":
            for spot in args:
                b.take(spot)
        elif v == "chips":
            if not args[0].isdigit():
                raise ScenarioError(f"{a}: say how many chips, e.g. chips 3")
            b.take_chips(int(args[0]), args[1:])
        elif v == "setout":
            state = self.session.state
            try:
                after = state.play(args[0])
            except engine.IllegalStep as exc:
                raise ScenarioError(f"{a}: {exc.reason}") from None
            laid = PhysicalBoard.of_state(self.game, after)
            b.arrange(laid.position, laid.under)
        elif v == "knock":
            b.knock(args[0], args[1] if len(args) > 1 else None)
        elif v == "cluster":
            self._cluster(args[0], args[1:])
        elif v == "hand":
            if args and args[0] in ("on", "off"):
                b.cover() if args[0] == "on" else b.uncover()
            else:
                b.cover()
                self.wait(float(args[0]) if args else 1.0)
                b.uncover()
        elif v == "bump":
            b.bump(int(args[0]) if args else None)
        elif v == "press":
            try:
                self.buttons.press(Role(args[0]), self.time.t)
            except ValueError:
                raise ScenarioError(f"{a}: the buttons are confirm, undo and menu") from None
        elif v == "wait":
            self.wait(float(args[0]) if args else self.rest)
            return
        self.wait(QUICK if a.quick else self.rest)

    def _piece(self, words: Sequence[str], spot: str) -> Piece:
        if words:
            return parse_piece(self.game, words, spot)
        return Piece(self.session.mover(), self.game.rules.kind_at(spot))

    def _cluster(self, square: str, words: Sequence[str]) -> None:
        """Every piece of a step that puts several down at once (a Brain Hanky cluster on
        ``square``, a Brainmaster guess ``3:RBGY``): of the colour the words name, or without
        words the pieces the rules put there (the mover's, or a guess row's several colours)."""
        rules = self.game.rules
        try:
            step = rules.parse(square)
            spots = rules.step_spots(step)
        except engine.IllegalStep as exc:
            raise ScenarioError(f"cluster {square}: {exc.reason}") from None
        if words:
            colour = parse_piece(self.game, words).owner
            pieces = {spot: Piece(colour, rules.kind_at(spot)) for spot in spots}
        else:
            state = self.session.state
            after = state.play(step).position() if state.why_illegal(step) is None else {}
            mover = self.session.mover()
            pieces = {spot: after.get(spot) or Piece(mover, rules.kind_at(spot)) for spot in spots}
        for spot in spots:
            self.board.put(spot, pieces[spot])


# ============================================================================ players
def physical_after(state, step) -> dict[str, Piece]:
    """The board after ``step`` as hands leave it: the engine's position, with any piece the step
    captured still on the board (``State.leftovers``: players lift a captured gem after the move
    that took it)."""
    after = state.play(step)
    out = after.position()
    out.update(state.leftovers(step, after))
    return out


def step_actions(state, step) -> list[Action]:
    """The physical actions that make ``step`` on the board, from ``state``."""
    step = state.parse(step) if not isinstance(step, engine.Step) else step
    colour = str(state.colour_to_move)
    if step.kind == REMOVE:
        return [Action("take", (step.dst,))]
    if step.kind == TAKE:
        return [Action("chips", (step.dst,) + tuple(step.path))]
    if step.kind == CALL:
        after = state.play(step)
        if after.position() != state.position() or any(after.stack(s) != state.stack(s) for s in after.position()):
            return [Action("setout", (str(step),))]  # a new round: the board is set out afresh
        return []  # said with the buttons only
    spots = state.rules.step_spots(step)
    if step.src is None and (len(spots) > 1 or step.kind == CLUSTER):
        # Several pieces put down at once (a Brain Hanky cluster, a Brainmaster guess row). Said
        # with the mover's colour when every piece is theirs; otherwise each spot gets the piece
        # the rules put there (a guess of four colours).
        if not spots:
            return []  # puts nothing down (an answer of no indicator pegs): said with the buttons only
        after = state.play(step).position()
        if all(after.get(s) is not None and after[s].owner == state.colour_to_move for s in spots):
            return [Action("cluster", (step.dst, colour))]
        return [Action("cluster", (step.dst,))]
    if step.kind == PLACE:
        return [Action("put", (step.dst, colour))]
    if step.kind == JUMP:
        return [Action("move", (step.src, step.path[-1]))]
    if step.kind == MOVE and step.path:
        return [Action("push", tuple(step.path))]  # every piece on the path moves on one place
    return [Action("move", (step.src, step.dst))]


class Player:
    """Simulated players who play a game record (``steps``) or, after it or without one, random
    legal steps (``rng``), acting on the board the way people do and following the lights.

    Each turn, once the board has settled and been judged (``Table.settle``), they look at what
    arbiter says and:

    - the game is over: stop;
    - arbiter cannot tell which move was made (ambiguous): press menu until it offers the move
      they made, then confirm;
    - a take-back is asked about: they made none, so they put the board back;
    - the board does not match the game (a resumed game, an illegal change, a piece lifted when
      the process died): they put it right, spot by spot, as the lights say;
    - a captured piece is still on the cloth: they lift it off;
    - otherwise: the next step of the record (or a random one), made with ``step_actions``.

    ``stuck_after``: simulated seconds without an accepted step before they give up (a bug).
    """

    def __init__(self, table: Table, steps: Sequence[str] = (), rng: random.Random | None = None,
                 stuck_after: float = 60.0, on_act: Callable[[str], None] | None = None):
        self.table = table
        self.steps = list(steps)
        self.rng = rng
        self.stuck_after = stuck_after
        self.intended: tuple[str, ...] = ()
        self.on_act = on_act

    def next_step(self) -> str | None:
        s = self.table.session
        hist = [_as_said(x) for x in s.history]
        if hist == self.steps[:len(hist)] and len(hist) < len(self.steps):
            return self.steps[len(hist)]
        if hist[:len(self.steps)] != self.steps and self.steps:
            raise ScenarioError(f"the game left the record at step {len(hist)}: "
                                f"{' '.join(hist[-3:])} (the record has {' '.join(self.steps[max(0, len(hist) - 3):len(hist)])})")
        if self.rng is None:
            return None
        state = s.state
        if hasattr(state, "random_step"):
            step = state.random_step(self.rng)
            return None if step is None else str(step)
        legal = state.legal_steps()
        return str(self.rng.choice(legal)) if legal else None

    def turn(self) -> bool:
        """Do one thing; False when there is nothing more to do (game over, record played out)."""
        t = self.table
        s = t.session
        if s.over:
            return False
        waiting = s.waiting_for
        if waiting == R.AMBIGUOUS and s.last_verdict is not None:
            cands = [tuple(map(str, c)) for c in s.last_verdict.candidates]
            said = [tuple(map(_as_said, c)) for c in cands]
            want = cands[said.index(self.intended)] if self.intended in said else cands[0]
            for _ in range((cands.index(want) - s.offer) % len(cands)):
                t.do(Action("press", ("menu",), quick=True))
            t.do(Action("press", ("confirm",)))
            return True
        if self._fix():
            return True
        self._restack()
        lifts = [x for x in (s.last_verdict.to_remove if s.last_verdict else ())
                 if s.state.phase != "removal" and x in t.board.position]
        if lifts:
            t.run([Action("take", tuple(lifts))])
            return True
        text = self.next_step()
        if text is None:
            return False
        state = s.state
        step = state.parse(text)
        self.intended = (_as_said(step),)
        if self.on_act is not None:
            self.on_act(text)
        if state.private_to is not None and state.rules.public_text(step) != str(step):
            # A secret step (a code, a goal, a choice of beads): its player gives it privately, as on
            # their private page (Session.enter_private); never made on the board nor said with the buttons.
            s.enter_private(step)
            return True
        before = len(s.history)
        t.run(step_actions(state, step))
        if (len(s.history) == before and s.state is state and s.waiting_for is None
                and step in s.referee.unseen_steps()):
            self._say(step)  # nothing a reader can see: the players say it with the buttons
        return True

    def _say(self, step) -> None:
        """Press menu until arbiter offers ``step``, then confirm."""
        t = self.table
        s = t.session
        before = len(s.history)
        for _ in range(64):
            if len(s.history) != before:
                return  # something else was accepted meanwhile (the step's time ran out)
            t.do(Action("press", ("menu",), quick=True))
            t.wait(2 * t.frame_s)  # a press is seen at the next reading, as on the board
            if s._menu_on == ("say", step):
                t.do(Action("press", ("confirm",)))
                return
        raise ScenarioError(f"the menu never offered {step}")

    def _fix(self) -> bool:
        """Put the board right if it differs from the game (beyond captured pieces still to lift)."""
        t = self.table
        s = t.session
        if not (s.checking or s.waiting_for in (R.ILLEGAL, R.IN_PROGRESS, R.TAKEBACK_PENDING)):
            return False  # players put things right when arbiter says so, not before
        want = dict(s.state.position())
        lifts = set(s.last_verdict.to_remove if s.last_verdict and s.state.phase != "removal" else ())
        have = t.board.position
        wrong = [x for x in have if x not in lifts and have[x] != want.get(x)]
        missing = [x for x in want if x not in have]
        if not wrong and not missing:
            return False
        for spot in wrong:
            t.board.take(spot)
        for spot in missing:
            t.board.put(spot, want[spot])
        t.settle()
        return True

    def _restack(self) -> None:
        """Where pieces stand on each other out of a reader's sight (Tableaux's second chips), lay
        them as the game counts them when the board holds another number: players who lifted
        chips and then ran out of time put them back as the companion says."""
        t = self.table
        if t.board.limit == 1:
            return
        state = t.session.state
        want = {s: state.stack(s) for s in state.position()}
        if sum(map(len, want.values())) != sum(len(t.board.stack(s)) for s in t.board.position):
            t.board.arrange(state.position(), {s: st[:-1] for s, st in want.items() if len(st) > 1})

    def play(self, max_steps: int | None = None) -> None:
        """Play until the game is over or the record (and random play, if any) runs out."""
        s = self.table.session
        self.table.settle()  # let arbiter look at the board before anyone touches it
        last_change, last_len = self.table.time.t, len(s.history)
        done = 0
        while self.turn():
            done += 1
            if max_steps is not None and done >= max_steps:
                return
            if len(s.history) != last_len:
                last_change, last_len = self.table.time.t, len(s.history)
            elif self.table.time.t - last_change > self.stuck_after:
                raise ScenarioError(f"the players are stuck: nothing accepted for {self.stuck_after:.0f} s "
                                    f"(arbiter is waiting for: {s.waiting_for or 'nothing'})")


def _as_said(step) -> str:
    """A step as a record writes it: a take without the spots it emptied (``3:a1,d4`` is ``3``)."""
    text = str(step)
    head, colon, _rest = text.partition(":")
    return head if colon and head.isdigit() else text
