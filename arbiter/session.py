"""A refereed game: reader -> stabiliser -> referee -> journal -> LEDs and screen, one frame at a time.

This is the loop `arbiter play` and `arbiter demo` run, and the scenario tests drive::

    session = Session(game, reader, journal=journal, pixels=pixels, screen=screen, now=clock)
    session.start()
    while not session.over:
        session.poll()          # one reading of the board, judged if it has settled

Order matters and is the point of this module. For every verdict that changes the game record,
the journal line is written and fsync'd *before* any LED or screen hears of it (docs/journal.md):
a crash at any instant loses nothing that was announced. A journal write that fails means the
step is not announced at all; the referee is rebuilt from the journal and the board is judged
again, so the game and its record never part.

Time is injected (``now``, seconds on any monotonic base): on the Pi it is ``time.monotonic``;
the simulator and the tests pass a simulated clock, so a whole game runs in a fraction of a
second of real time and the same script gives the same game.

Never crash a game in progress: an exception while reading a frame, judging it, or drawing it is
caught, reported on the screen (the first of each kind, then every hundredth) and the game goes
on with the next frame. Only the journal failing is treated as serious, because then the record
is at stake (see above).

What the referee's verdicts become on the LEDs (``hardware.signals``; docs/play.md has the
players' view):

==================  ===========================================================================
verdict             signal events
==================  ===========================================================================
step, steps         ``StepAccepted`` on the step's points, ``Turn`` (the player to move)
correction          ``Fixed``, ``StepAccepted`` on the new step's points, ``Turn``
waiting-removal     as a step, then ``Removable`` (a mill's choice of pieces) or ``GemToTake``
                    (captured pieces still on the board, ``State.leftovers``)
illegal             ``IllegalChange`` on the points that differ; ``Fixed`` when put back
cleared             ``IllegalChange`` on the spots emptied (the board swept or covered)
in-progress         ``Guidance(put=...)``: where the lifted piece may go
ambiguous           ``StepAccepted`` on the candidate on offer; the screen lists them; menu
                    offers the next, confirm accepts the one on offer
takeback-pending    the screen asks for the confirm button (or holding still 2 s)
takeback            ``Fixed``, ``Turn``
game over           ``GameOver(winner)``; a flag (time) as well, after an ``end`` journal line
after --resume      ``Guidance(put, take)`` until the board matches the journal
==================  ===========================================================================
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engine
from engine.observation import SEES, UNREAD, Observation, ReadingError
from engine.reader import HEALTHY, ReaderHealth
from hardware.buttons import Buttons, Role
from hardware.pixels import Pixels
from hardware.palette import OFF, RGB, STANDARD, Palette
from hardware.signals import (
    Beneath,
    ClockWarning,
    Fixed,
    GameOver,
    GemToTake,
    Guidance,
    Hint,
    IllegalChange,
    MovesLeft,
    Removable,
    SignalPlayer,
    StepAccepted,
    Turn,
)

from . import referee as R
from .clocks import Clock
from .journal import Journal, JournalError
from .referee import Referee, Verdict
from .stabiliser import Stabiliser

__all__ = ["Announcement", "FrameSink", "Session", "SimClock"]


class SimClock:
    """A clock that moves only when told: the simulator's and the tests' ``now``."""

    def __init__(self, t: float = 0.0):
        self.t = float(t)

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> float:
        self.t += dt
        return self.t

    def set(self, t: float) -> None:
        if t < self.t:
            raise ValueError(f"time went backwards ({t} after {self.t})")
        self.t = float(t)


class FrameSink(Pixels):
    """LED frames kept for a screen to draw: the ``terminal`` LEDs inside the play screen.

    rich can run one live display at a time, so the play screen draws the LED board itself
    (``hardware.terminal.BoardText``) from the last frame sent here. Only the last frame is kept.
    """

    kind = "screen"

    def __init__(self, count: int, **kwargs: Any):
        super().__init__(count, **kwargs)
        self.frame: list[RGB] = [OFF] * count
        self.caption: str | None = None
        self.sent = 0

    def _write(self, frame: list[RGB], caption: str | None) -> None:
        self.frame, self.caption = list(frame), caption
        self.sent += 1


@dataclass
class Announcement:
    """What the session told the players about one verdict (or one button or clock event)."""

    t: float
    kind: str
    message: str
    verdict: Verdict | None = None
    events: list[Any] = field(default_factory=list)
    journal_seq: int | None = None  # the journal's last line when the events went out


class Session:
    """One refereed game on one board (see the module notes for what it does in which order).

    ``reader``: an ``engine.reader.Reader`` (``sees``, ``read() -> Observation``, ``health()``:
    ``vision.camera_reader.CameraReader``, ``firmware_bridge.reader.SerialReader``,
    ``arbiter.sim.physical.SimCamera`` ...). ``history``: steps already played (a resumed journal),
    replayed by the referee from ``state`` (default the game's start). ``journal``: where
    accepted steps go first (None: no journal, e.g. a position set up by hand, which a journal
    could not replay). ``clock``: an ``arbiter.clocks.Clock`` (two-player games),
    started by ``start``. ``pixels``: the LEDs (None: signals are tracked but not shown).
    ``screen``: an ``arbiter.screen`` screen, or None. ``resumed``: check the board against the
    journal first and guide the players to set it right.
    """

    def __init__(self, game, reader, *, state=None, history=(), journal: Journal | None = None,
                 clock: Clock | None = None, pixels: Pixels | None = None, layout=None,
                 palette: Palette = STANDARD, screen=None, buttons: Buttons | None = None,
                 now: Callable[[], float] = time.monotonic, stabiliser: Stabiliser | None = None,
                 resumed: bool = False, takeback_hold_s: float = 2.0, led_interval: float = 1 / 30,
                 clock_every: float = 30.0):
        from hardware.layout import load_map, spots_for

        self.game = engine.load(game) if isinstance(game, str) else game
        self.reader = reader
        rules = self.game.rules
        # Judge no finer than the game needs (Tableaux chips belong to nobody: occupancy).
        self.sees = max(reader.sees, rules.reads_as, key=SEES.index)
        self.referee = Referee.from_steps(self.game, list(history), self.sees, state,
                                          takeback_hold_s=takeback_hold_s)
        self._start_state = state
        settle = {"window_s": rules.settle_s} if rules.settle_s else {}
        self.stabiliser = stabiliser or Stabiliser.for_reader(self.sees, spots=self.referee.spots, **settle)
        self.journal = journal
        self.clock = clock
        self.spots = spots_for(self.game)
        self.layout = layout or load_map(None, self.spots)
        self.signals = SignalPlayer(self.layout, palette=palette, spots=self.spots)
        self.pixels = pixels
        self.screen = screen
        self.buttons = buttons
        self.now = now
        self.led_interval = led_interval
        self.clock_every = clock_every
        self.checking = resumed  # after --resume: the board must first match the journal
        self.over = False
        self.result: engine.Result | None = None
        self.flagged: int | None = None  # the player whose time ran out
        # A loss on time the journal has not yet taken: (result, clock snapshot at the flag, when
        # it was last tried). Nothing is judged, nor the loss announced, until it is on disk.
        self.unrecorded_end: tuple[engine.Result, dict[str, Any], float] | None = None
        self.log: list[Announcement] = []
        self.errors: dict[str, int] = {}
        self.last_verdict: Verdict | None = None
        self.last_board: Observation | None = None  # the last stable board judged
        self.occluded: str | None = None  # why the reader cannot see the board, while it cannot
        self.offer = 0  # the ambiguous candidate on offer
        self._removal_shown: tuple[str, tuple[str, ...]] = ("", ())
        self._warned: int | None = None
        self._led_t: float | None = None
        self._clock_t = 0.0
        self._draws_said = len(self.state.draws())
        self._menu: tuple[int, list, int] | None = None  # (history length, items, index on offer)
        self._menu_on: tuple[str, Any] | None = None
        self._hints = None
        self._step_t: float | None = None  # when the step to come began, where the rules clock it
        self.frames = 0

    # ------------------------------------------------------------------ what the players see
    @property
    def state(self):
        return self.referee.state

    @property
    def history(self) -> tuple:
        return self.referee.history

    @property
    def waiting_for(self) -> str | None:
        return self.referee.waiting_for

    def mover(self, state=None) -> int:
        """The colour (owner number) of the pieces of the player to move."""
        st = state if state is not None else self.state
        return st.colour_to_move

    def reader_health(self) -> ReaderHealth:
        """How the reader itself is (``engine.reader.Reader.health``: the camera lost, the line to
        the sensor board too noisy ...), for the screen. Never raises: a reader that cannot say
        is taken as well, because a status line must never stop a game."""
        try:
            health = self.reader.health()
        except Exception:
            return HEALTHY
        return health if isinstance(health, ReaderHealth) else HEALTHY

    # ------------------------------------------------------------------ the loop
    def start(self) -> None:
        """Light the turn pixel, start the clock, and say where the game stands."""
        t = self.now()
        if self.clock is not None:
            if self.clock.running is None:
                self.clock.start(t, player=self.state.to_move)
            else:
                self.clock.resume(t)
            self._clock_t = t
        events: list[Any] = []
        if self.state.result is not None:
            self._reveal(t)  # a game resumed after a crash between its last step and the reveal line
            self._finish(self.state.result, t, events)
        else:
            events.append(self._turn())
            events += self._moves_left_events()
        if self.checking:
            n = len(self.history)
            message = (f"Resumed the game after {n} step{'s' if n != 1 else ''}. Checking the board "
                       f"against the journal: set it out as the lights show.")
        else:
            message = self.referee.next_words()
        if self.state.result is None:
            drawn = self._draw_words(again=True)
            message += (" " + drawn) if drawn else ""
        self._announce(Announcement(t, "start", message), events)

    def poll(self) -> list[Announcement]:
        """One cycle: buttons, one reading, the stabiliser, the referee, the clock, the LEDs.

        Returns what was announced in this cycle (usually nothing).
        """
        t = self.now()
        self.frames += 1
        before = len(self.log)
        self._tick_clock(t)
        self._tick_step_clock(t)
        if self.unrecorded_end is not None or (self.over and self.flagged is not None):
            self._show(t)
            return self.log[before:]
        if self.buttons is not None:
            try:
                for press in self.buttons.poll():
                    self._button(press.role, t)
            except Exception as exc:  # a flaky GPIO line must not end the game
                self._error("buttons", exc, t)
        obs = self._read(t)
        verdict = None
        if obs is not None:
            try:
                board = self.stabiliser.feed(obs, t)
                verdict = self.referee.observe(board, t) if board is not None else self.referee.tick(t)
                if board is not None:
                    self.last_board = board
            except ReadingError as exc:  # a reader's bug: that reading is dropped, the game goes on
                self._error("reader", exc, t)
                verdict = None
            except Exception as exc:
                self._error("referee", exc, t)
                verdict = None
        if verdict is not None:
            self._verdict(verdict, t)
        self._show(t)
        if self.screen is not None:
            try:
                self.screen.refresh(self, t)
            except Exception as exc:  # pragma: no cover - a broken terminal must not end the game
                self._error("screen", exc, t)
        return self.log[before:]

    def _read(self, t: float) -> Observation | None:
        try:
            obs = self.reader.read()
        except Exception as exc:
            self._error("reader", exc, t)
            return None
        if obs.occluded:
            if self.occluded is None:
                self.occluded = obs.reason or "something is in the way"
                self._announce(Announcement(t, "unseen", f"I can't see the board ({self.occluded}); waiting."))
        elif self.occluded is not None:
            self.occluded = None
            self._announce(Announcement(t, "seen", "I can see the board again."))
        return obs

    def _error(self, where: str, exc: Exception, t: float) -> None:
        n = self.errors.get(where, 0) + 1
        self.errors[where] = n
        if n == 1 or n % 100 == 0:
            times = "" if n == 1 else f" ({n} times so far)"
            if isinstance(exc, ReadingError):  # the reader broke its contract: say what, not a class name
                message = f"The board reader sent a bad reading{times}, ignored: {exc}. The game goes on."
            else:
                message = f"{where} error{times}: {exc.__class__.__name__}: {exc}. The game goes on."
            self._announce(Announcement(t, "error", message))

    # ------------------------------------------------------------------ verdicts
    def _verdict(self, v: Verdict, t: float) -> None:
        self.last_verdict = v
        if v.accepted:
            self._menu = self._menu_on = None
            self._step_t = t
        if self.over and v.accepted and self.state.result is None:
            self.over = False  # a take-back of the step that ended the game: play on
            self.result = None
        if v.accepted and not self._record(v, t):
            return
        events: list[Any] = []
        message = v.message
        kind = v.kind
        if self.checking:
            if v.kind in (R.UNCHANGED, R.RESTORED, R.WAITING_REMOVAL) and not v.accepted:
                self.checking = False
                events.append(Fixed())
                message = "The board matches the saved game. " + message
                kind = "resumed"
            elif v.accepted:
                self.checking = False
                events.append(Fixed())
                message = "A step was made while I was away: " + message
            elif v.kind in (R.ILLEGAL, R.IN_PROGRESS, R.CLEARED):
                put, take = self._differences()
                events.append(Guidance(put=put, take=take))
                message = "The board does not match the saved game: " + _fix_words(put, take)
                kind = "guidance"
        if kind != "guidance":
            events += self._events_for(v)
        if v.accepted and self.clock is not None and not self.over:
            self.clock.press(t, to_move=self.state.to_move)
            self._warned = None
        if self.state.result is not None and not self.over:
            self._finish(self.state.result, t, events)
            kind = "over"
        if v.kind == R.AMBIGUOUS:
            self.offer = 0
            message += " " + self._offer_words()
        if v.accepted and not self.over:
            drawn = self._draw_words()
            if drawn:
                message += " " + drawn
            events += self._moves_left_events()
        self._announce(Announcement(t, kind, message, v), events)

    def _turn(self) -> Turn:
        """The turn signal: the mover's colour, and in team play which of the team's players."""
        return Turn(self.mover(), self.referee.seat(self.state))

    def _draw_words(self, again: bool = False) -> str:
        """The chance draw for the turn that just began, in words (the move chooser's k);
        ``again``: say the current turn's draw even if it was said before."""
        st = self.state
        draws = st.draws()
        if self.game.rules.draws_private:  # the companion's secret (a solo code): never said
            self._draws_said = len(draws)
            return ""
        if not draws or (self._draws_said >= len(draws) and not again):
            self._draws_said = len(draws)
            return ""
        self._draws_said = len(draws)
        k = draws[-1]
        who = self.referee.colour_name(st.colour_to_move).capitalize()
        return f"The move chooser gives {who} {k} move{'s' if k != 1 else ''} this turn."

    def _moves_left_events(self) -> list[Any]:
        """``MovesLeft`` on the turn pixel where the game draws how many moves a turn has."""
        if self.game.rules.draw_values is None:
            return []
        st = self.state
        left = st.moves_left if st.phase == "movement" and st.result is None else 0
        return [MovesLeft(left)]

    def _events_for(self, v: Verdict) -> list[Any]:
        out: list[Any] = []
        k = v.kind
        if k in (R.RESTORED, R.CORRECTION, R.TAKEBACK, R.TAKEBACK_PENDING):
            out.append(Fixed())
        if v.steps:
            out.append(StepAccepted(v.points))
        if v.accepted and self.state.result is None:
            out.append(self._turn())
        if k in (R.ILLEGAL, R.CLEARED):
            out.append(IllegalChange(v.points))
        elif k == R.IN_PROGRESS:
            out.append(Guidance(put=v.points))
        elif k == R.AMBIGUOUS and v.candidates:
            out.append(StepAccepted(self._candidate_points(0)))
        # What is still to come off the board: a mill's choice, or captured pieces to lift.
        # StepAccepted clears both signals in the player, so after a step they are sent again.
        if k not in (R.ILLEGAL, R.IN_PROGRESS, R.AMBIGUOUS, R.UNSEEN, R.UNCLEAR, R.TAKEBACK_PENDING, R.CLEARED):
            removal = self.state.phase == "removal"
            want = ("removable" if removal else "lift", tuple(v.to_remove))
            shown = ("", ()) if v.steps else self._removal_shown
            if want != shown:
                if shown[1] and shown[0] != want[0]:
                    out.append(Removable(()) if shown[0] == "removable" else GemToTake(()))
                if want[1] or (shown[0] == want[0] and shown[1]):
                    out.append(Removable(want[1]) if removal else GemToTake(want[1]))
            self._removal_shown = want
        elif k == R.AMBIGUOUS:
            self._removal_shown = ("", ())
        return out

    def _differences(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(spots to put a piece on, spots to take a piece off) for the board to match the game."""
        want = self.referee.expected()
        seen = self.last_board.view() if self.last_board is not None else {}
        # a spot the reader cannot read is neither to put nor to take: nothing is known of it
        put = tuple(s for s, w in want.items() if w is not None and seen.get(s) not in (w, UNREAD))
        take = tuple(s for s, v in seen.items() if v is not None and v is not UNREAD and want.get(s) != v)
        return put, take

    def _candidate_points(self, i: int) -> tuple[str, ...]:
        v = self.last_verdict
        if v is None or not v.candidates:
            return ()
        pts: list[str] = []
        for step in v.candidates[i % len(v.candidates)]:
            for p in self.referee.step_spots(step):
                if p not in pts:
                    pts.append(p)
        return tuple(pts)

    def candidate_words(self, i: int) -> str:
        v = self.last_verdict
        if v is None or not v.candidates:
            return ""
        steps = v.candidates[i % len(v.candidates)]
        st = self.state
        words = []
        for step in steps:
            who = self.referee.colour_name(self.mover(st))
            what = self.referee.step_words((step,))[0].replace("a piece on ", "on ")
            words.append(f"{who} {what}")
            try:
                st = st.play(step)
            except engine.IllegalStep:
                break
        return ", then ".join(words)

    def _offer_words(self) -> str:
        v = self.last_verdict
        n = len(v.candidates) if v is not None else 0
        return (f"Is it {self.offer % n + 1} of {n}: {self.candidate_words(self.offer)}? "
                f"Confirm button: yes; menu button: the next one.")

    def _button(self, role: Role, t: float) -> None:
        waiting = self.referee.waiting_for
        if role == Role.CONFIRM:
            if waiting == R.TAKEBACK_PENDING:
                v = self.referee.confirm_takeback()
            elif waiting == R.AMBIGUOUS:
                v = self.referee.choose(self.offer % len(self.last_verdict.candidates))
            elif self._menu_on is not None and self._menu_on[0] == "say":
                step = self._menu_on[1]
                self._menu_on = None
                try:
                    v = self.referee.enter(step)
                except ValueError as exc:
                    self._announce(Announcement(t, "button", f"Not now: {exc}."))
                    return
            else:
                self._announce(Announcement(t, "button", "Nothing to confirm just now."))
                return
            if v is not None:
                self._verdict(v, t)
        elif role in (Role.MENU, Role.UNDO) and waiting == R.AMBIGUOUS:
            self.offer += 1 if role == Role.MENU else -1
            self._removal_shown = ("", ())
            self._announce(Announcement(t, "offer", self._offer_words()),
                           [StepAccepted(self._candidate_points(self.offer))])
        elif role == Role.MENU:
            self._menu_next(t)
        elif role == Role.UNDO:
            self._announce(Announcement(t, "button", "To take a step back, put the pieces back as they were; "
                                                     "then press confirm."))

    def choose(self, i: int, t: float | None = None) -> None:
        """Accept candidate ``i`` of an ambiguous board, as the buttons would (menu to it, then
        confirm): the web page's list of candidates. Nothing to choose: said, nothing done."""
        t = self.now() if t is None else t
        v = self.last_verdict
        if self.referee.waiting_for != R.AMBIGUOUS or v is None or not v.candidates:
            self._announce(Announcement(t, "button", "There is nothing to choose between just now."))
            return
        if not 0 <= i < len(v.candidates):
            self._announce(Announcement(t, "button", f"There are {len(v.candidates)} readings to choose from, "
                                                     f"not {i + 1}."))
            return
        self.offer = i
        self._button(Role.CONFIRM, t)

    @property
    def to_say(self):
        """The step the menu button has on offer to be said with confirm (Stack's impasse, a
        Tableaux count ...), or None: what a confirm press would say now."""
        on = self._menu_on
        return on[1] if on is not None and on[0] == "say" else None

    # ------------------------------------------------------------------ the menu button
    def enter_private(self, step: Any) -> None:
        """A secret step (the one ``state.private_to`` asks for: a code, a goal, a choice of beads)
        given by its player alone, from their private page or by hidden entry while the others look
        away. It is refereed, journalled and announced like a step said with the buttons, and
        announced only as ``rules.public_text(step)`` (``engine.words``). ValueError if no secret
        step is due or this one is not legal now; the message names it only by its public text.
        The journal seals it (``Journal.append_step``: public text on the line, the step in the
        0600 secret file beside it) until the game is over (docs/journal.md, "Secrets")."""
        st = self.state
        if st.result is not None or st.private_to is None:
            raise ValueError("no secret step is due now")
        why = st.why_illegal(step)
        if why:
            raise ValueError(f"{st.rules.public_text(step)}: {why}")
        t = self.now()
        self._verdict(self.referee.enter(step), t)
        self._show(t)

    def secret_kinds(self) -> list[str]:
        """The public texts of the secret steps legal now (``["goal", "beads"]``): what a player is
        asked to type, without a hint of which one to choose."""
        st = self.state
        kinds: list[str] = []
        for step in st.legal_steps():
            text = st.rules.public_text(step)
            if text != str(step) and text not in kinds:
                kinds.append(text)
        return kinds

    def enter_typed_secret(self, typed: str) -> str | None:
        """``enter_private`` for a step a player typed unseen (on the terminal or their private
        page): None when taken, else why not, in words that never repeat what was typed. The
        whole step (``goal=CST``) or, when every secret step due shares one public text, only what
        follows its ``=`` (``CST``) is taken."""
        typed = typed.strip()
        kinds = self.secret_kinds()
        tried = [typed]
        if "=" not in typed and len(kinds) == 1:
            tried.insert(0, f"{kinds[0]}={typed}")
        error = None
        for text in tried:
            try:
                self.enter_private(text)
            except ValueError as exc:  # IllegalStep too: refused by its public text
                error = error or str(exc)
                continue
            except Exception:  # a step that does not even parse: said without repeating it
                error = error or "not a step of this game"
                continue
            return None
        message = error or "not a legal step now"
        for part in {typed, typed.split("=", 1)[-1]}:  # what was typed could be the secret itself
            if part and len(part) > 1:
                message = message.replace(part, "...")
        return message

    def menu_items(self) -> list[tuple[str, Any]]:
        """What the menu button offers when no reading is in doubt, in turn: the best step of a
        solved game (``("hint", Hint)``), and the steps the players make that the reader cannot
        see, to say with the confirm button (``("say", step)``: Stack's impasse, Tableaux's chip
        count and draw size, chips taken off the tops of stacks)."""
        st = self.state
        if st.result is not None:
            return []
        items: list[tuple[str, Any]] = []
        hint = self._hint()
        if hint is not None:
            items.append(("hint", hint))
        stacks = self.stacks()
        if stacks:
            items.append(("beneath", stacks))
        items += [("say", s) for s in self.referee.unseen_steps()]
        return items

    def stacks(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """Every spot where pieces stand on each other: (spot, colours bottom first)."""
        if self.game.rules.stack_limit <= 1:
            return ()
        st = self.state
        pos = st.position()
        out = []
        for spot in self.spots.names:
            pile = st.stack(spot) if spot in pos else ()
            if len(pile) > 1:
                out.append((spot, tuple(p.owner for p in pile)))
        return tuple(out)

    def stacks_words(self) -> str:
        """The stacks in words: "d7: white under black"."""
        name = self.referee.colour_name
        return "; ".join(f"{spot}: {' under '.join(name(c) for c in colours)}" for spot, colours in self.stacks())

    def _hint(self):
        from .hints import HintError, HintStore, solved_games

        if self.game.name not in solved_games():
            return None
        try:
            if self._hints is None:
                self._hints = HintStore(warn=lambda text: None)
            return self._hints.hint(self.game, self.state)
        except HintError:
            return None

    def _menu_next(self, t: float) -> None:
        key = len(self.history)
        if self._menu is None or self._menu[0] != key:
            self._menu = (key, self.menu_items(), -1)
        _key, items, i = self._menu
        if not items:
            self._announce(Announcement(t, "button", "The menu button chooses between readings when I cannot tell "
                                                     "which move was made; there is nothing to choose now."))
            return
        i = (i + 1) % len(items)
        self._menu = (key, items, i)
        what, item = items[i]
        self._menu_on = (what, item)
        where = f"{i + 1} of {len(items)}"
        if what == "hint":
            best = item.best[0] if item.best else None
            who = self.referee.mover_words(self.state)
            text = f"Hint ({where}): {who} has {item.words()}"
            points: tuple[str, ...] = ()
            if best is not None:
                step = self.state.parse(best)
                text += f"; best: {self.referee.step_words((step,))[0]}"
                points = self.referee.step_spots(step)
            self._announce(Announcement(t, "hint", text + "."), [Hint(points)])
            return
        if what == "beneath":
            self._announce(Announcement(t, "hint", f"What lies beneath ({where}): {self.stacks_words()}."),
                           [Beneath(item)])
            return
        who = self.referee.mover_words(self.state)
        words = self.referee.step_words((item,))[0]
        self._announce(Announcement(t, "offer", f"Say ({where}): {who}: {words}? Confirm button: yes; "
                                                f"menu button: the next."))

    # ------------------------------------------------------------------ the rules' own clock
    def _tick_step_clock(self, t: float) -> None:
        """Where the rules give each step a time (Rapido, Tableaux), play ``timeout`` when it runs out."""
        st = self.state
        limit = st.time_limit
        if limit is None or self.over or self.unrecorded_end is not None or self.referee.waiting_for is not None:
            self._step_t = None if limit is None else self._step_t
            return
        if self._step_t is None:
            self._step_t = t
            return
        if t - self._step_t < limit:
            return
        timeout = next((c for c in st.calls() if str(c) == "timeout"), None)
        if timeout is None:
            return
        self._step_t = None
        try:
            v = self.referee.enter(timeout)
        except ValueError:
            return
        self._verdict(v, t)

    # ------------------------------------------------------------------ the journal
    def _record(self, v: Verdict, t: float) -> bool:
        """Write the verdict's withdrawals and steps to the journal; False if it could not be done."""
        j = self.journal
        if j is None:
            return True
        snap = None
        if self.clock is not None:
            # The clock as it stands once this step is pressed (``_verdict`` presses it after the
            # journal has the step): a game resumed from this line starts the right player's clock.
            after = copy.deepcopy(self.clock)
            if not self.over:
                after.press(t, to_move=self.state.to_move)
            snap = after.snapshot(t)
        try:
            rest = list(v.steps)
            if v.undone:
                if v.kind == R.CORRECTION and len(v.undone) == 1 and rest:
                    j.append_correction(rest.pop(0), clock=snap)
                else:
                    j.append_takeback(len(v.undone), clock=snap)
            # Chance draws made since the journal last heard (the move chooser's k for a turn
            # this step began) go with the last step, so a resumed game draws the same.
            drawn = self.state.draws()[len(j.chooser or []):]
            for i, step in enumerate(rest):
                j.append_step(step, clock=snap, draws=drawn if i == len(rest) - 1 and drawn else None)
        except JournalError as exc:
            self._announce(Announcement(t, "error", f"{exc}. Put the board back as it was: the game goes on "
                                                    f"from the last step on record."))
            self._rebuild()
            return False
        if list(j.steps) != [str(s) for s in self.history]:  # pragma: no cover - a bug, said loudly
            self._announce(Announcement(t, "error", "the journal and the referee disagree; going on from the journal"))
            self._rebuild()
            return False
        if self.state.result is not None:
            self._reveal(t, snap)
        return True

    def _reveal(self, t: float, clock: dict[str, Any] | None = None) -> None:
        """The game is over: write its sealed secrets (codes, goals, hidden choices) into the
        journal in clear. A failure costs no step (they are on disk, sealed, with the secret file
        beside them) and is tried again at the next start or stop; it is said without the secrets."""
        if self.journal is None:
            return
        try:
            self.journal.reveal(clock=clock)
        except JournalError as exc:
            self._announce(Announcement(t, "error", f"The game's secrets could not be written in the journal "
                                                    f"({exc}); they stay sealed beside it, and are tried again "
                                                    f"when the game is resumed."))

    def _rebuild(self) -> None:
        """Start the referee again from the journal's steps: nothing unrecorded stands."""
        steps = self.journal.steps if self.journal is not None else [str(s) for s in self.history]
        self.referee = Referee.from_steps(self.game, steps, self.sees, self._start_state,
                                          takeback_hold_s=self.referee.takeback_hold_s)
        self.stabiliser.reset()

    # ------------------------------------------------------------------ clock and end
    def _tick_clock(self, t: float) -> None:
        c = self.clock
        if c is None or self.over:
            return
        if self.unrecorded_end is not None:
            if t - self.unrecorded_end[2] >= self.END_RETRY_S:
                self._end_on_time(t)
            return
        if c.flag(t) is not None:
            self.flagged = c.flag(t)
            self.unrecorded_end = (c.result(t), c.snapshot(t), t)
            self._end_on_time(t, first=True)
            return
        w = c.warning(t)
        if w is not None and w != self._warned:
            self._warned = w
            left = c.remaining(w, t)
            self._announce(Announcement(t, "clock", f"Player {w}: {left:.0f} seconds left."),
                           [ClockWarning(w, left)])
        if self.journal is not None and self.clock_every and t - self._clock_t >= self.clock_every:
            self._clock_t = t
            try:
                self.journal.append_clock(c.snapshot(t))
            except JournalError as exc:
                self._error("journal", exc, t)

    END_RETRY_S = 1.0  # how often a loss on time the disk refused is tried again

    def _end_on_time(self, t: float, first: bool = False) -> bool:
        """Write the loss on time, then announce it: never the other way round (persist before
        announce). While the journal refuses the line the players hear that time is up but not
        yet recorded, no step is judged, and the line is tried again every second (and at a stop),
        so the game can always be resumed as it stands on disk."""
        result, snap, _ = self.unrecorded_end
        if self.journal is not None:
            try:
                self.journal.append_end(result, clock=snap)
            except JournalError as exc:
                self.unrecorded_end = (result, snap, t)
                n = self.errors.get("journal", 0) + 1
                self.errors["journal"] = n
                if first or n % 100 == 0:
                    self._announce(Announcement(
                        t, "error", f"Time is up for player {self.flagged}, but that is NOT recorded yet: {exc}. "
                                    f"Free space on the disk or plug the memory stick back in; I try again every "
                                    f"second. No move counts meanwhile. Stopping now keeps the game resumable "
                                    f"from its last recorded step."))
                return False
        self.unrecorded_end = None
        self._reveal(t)
        events: list[Any] = []
        self._finish(result, t, events)
        self._announce(Announcement(t, "over", f"Time! {_result_words(result, self.referee)}"), events)
        return True

    def _finish(self, result: engine.Result, t: float, events: list[Any]) -> None:
        self.over = True
        self.result = result
        if self.clock is not None:
            self.clock.stop(t)
        events.append(GameOver(result.winner))

    def pause(self) -> None:
        """Stop for now (Ctrl-C, the program closing): the clock reading goes to the journal."""
        t = self.now()
        if self.over and self.journal is not None and self.journal.unrevealed:
            self._reveal(t)
        if self.unrecorded_end is not None:  # one last try at the loss on time before stopping
            self._end_on_time(t)
            return
        if self.clock is not None and not self.over:
            self.clock.pause(t)
            if self.journal is not None:
                try:
                    self.journal.append_clock(self.clock.snapshot(t))
                except JournalError:
                    pass

    # ------------------------------------------------------------------ output
    def _announce(self, a: Announcement, events: list[Any] | None = None) -> None:
        for event in events or ():
            try:
                self.signals.handle(event, a.t)
            except Exception as exc:  # an LED map without a pixel for a spot, a 5th player's colour
                self._error("signals", exc, a.t)
        a.events = list(events or ())
        a.journal_seq = self.journal.seq if self.journal is not None else None
        self.log.append(a)
        if events:
            self._show(a.t, force=True)
        if self.screen is not None:
            try:
                self.screen.announce(a, self)
            except Exception as exc:  # pragma: no cover - a broken terminal must not end the game
                self.errors["screen"] = self.errors.get("screen", 0) + 1
                if self.errors["screen"] == 1:
                    import sys
                    print(f"arbiter: screen error: {exc}", file=sys.stderr)

    def _show(self, t: float, force: bool = False) -> None:
        if self.pixels is None:
            return
        if not force:
            if not self.signals.busy(t):
                return
            if self._led_t is not None and t - self._led_t < self.led_interval:
                return
        self._led_t = t
        try:
            self.signals.show(self.pixels, t)
        except Exception as exc:
            self._error("leds", exc, t)

    def captures(self) -> dict[int, int]:
        """Pieces each colour has captured so far."""
        return self.state.captures()


def _fix_words(put, take) -> str:
    parts = []
    if put:
        parts.append("put a piece on " + ", ".join(put))
    if take:
        parts.append("take the piece off " + ", ".join(take))
    return ("; ".join(parts) + ".").capitalize() if parts else "Set the board out as the lights show."


def _result_words(result: engine.Result, referee: Referee) -> str:
    if result.winner is None:
        return f"The game is a draw: {R.plain(result.reason)}."
    return f"{referee.colour_name(result.winner).capitalize()} wins: {R.plain(result.reason)}."
