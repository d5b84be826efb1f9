"""The signal language: what the board says to the players, as LED animations.

The referee turns its verdicts into the small events below; ``SignalPlayer`` turns the events it
has been given into LED frames at any moment ``t`` (seconds, from a clock the caller owns, so
tests need no sleeping). Hardware knows nothing of rules: an event names points and players,
never moves.

=================  ======================================  ===============================
event              what the players see                    how long
=================  ======================================  ===============================
``Turn(p)``        the turn pixel in player p's colour     until the next Turn
``MovesLeft(n)``   the turn pixel flashes n times, then    until the next MovesLeft
                   stays lit, over and over (a turn of     (0 clears it)
                   several moves: the move chooser's k)
``Turn(p, seat)``  team play: the turn pixel in the team's  until the next Turn
                   colour flashes once for its first
                   player, twice for its second
``Hint(points)``   cyan on a solved game's best step: its  until the next legal step
                   points lit in turn, from where to where  (empty: cleared)
``Beneath(stacks)`` each stack's chips in their colours,    until the next legal step
                   bottom to top, one after another        (empty: cleared)
``StepAccepted``   green on the step's points, fading      0.4 s full, then 1.2 s fade
``IllegalChange``  red, steady, on the points that differ  until Fixed (or a legal step);
                   and the error pixel red                 an empty one clears it
``Guidance``       "put a piece here": white, breathing;   until Fixed (or a legal step)
                   "take this away": magenta, blinking
``Removable``      amber, gently swelling, on pieces that  until the next legal step
                   may be taken after a mill
``GemToTake``      blue, pulsing, on a captured gem        until the next legal step
``ClockWarning``   the clock pixel blinking yellow, faster until the next Turn; red when
                   under 10 s left                         the time has run out
``GameOver(w)``    the winner's colour sweeping across     until Reset or a new Turn
                   the board (a draw: both colours take
                   turns); the turn pixel in w's colour
``Reset()``        everything off                          -
=================  ======================================  ===============================

Each kind of event replaces the earlier one of its kind, and an empty one (no points) clears
it. When signals overlap on a point they are laid over each other in the order of the table
above, the most urgent on top: illegal over guidance over a fresh step over gems and removable
pieces; the game-over sweep covers the whole board. Movement tells signals apart as well as
colour does, which is what keeps the language readable with the colour-blind palette.

    >>> from hardware.layout import default_map
    >>> sp = SignalPlayer(default_map("three"))
    >>> sp.handle(IllegalChange(["a1"]), t=0.0)
    >>> sp.frame(5.0)[sp.layout.points["a1"][0]]
    (255, 0, 0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Union

from .layout import LayoutError, LayoutMap, spots_for
from .pixels import Pixels
from .palette import OFF, RGB, STANDARD, Palette, mix, scale


def _names(points: Iterable[str] | str) -> tuple[str, ...]:
    if isinstance(points, str):  # one point given bare: "d1" is not the points "d" and "1"
        return (points,)
    return tuple(points)


# ---------------------------------------------------------------------------- events
@dataclass(frozen=True)
class Turn:
    """Colour ``player`` is to move; in team play ``seat`` (1 or 2) says which of the team's two."""

    player: int
    seat: int | None = None


@dataclass(frozen=True)
class Hint:
    """The best step (of a solved game) touches ``points``, in the order a hand visits them."""

    points: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", _names(self.points))


@dataclass(frozen=True)
class MovesLeft:
    """The player to move has ``moves`` moves left in this turn (0: stop counting)."""

    moves: int


@dataclass(frozen=True)
class Beneath:
    """What stands under the tops: ``stacks`` is ((spot, (colour, ...) bottom first), ...)."""

    stacks: tuple[tuple[str, tuple[int, ...]], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "stacks", tuple((s, tuple(cs)) for s, cs in self.stacks))


@dataclass(frozen=True)
class StepAccepted:
    """A legal step was read off the board; ``points`` are the spots it changed."""

    points: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", _names(self.points))


@dataclass(frozen=True)
class IllegalChange:
    """The board differs from every legal step at ``points``; held until fixed (empty: fixed)."""

    points: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", _names(self.points))


@dataclass(frozen=True)
class Guidance:
    """The board is out of step with the game: put a piece on ``put``, take the one on ``take``."""

    put: tuple[str, ...] = ()
    take: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "put", _names(self.put))
        object.__setattr__(self, "take", _names(self.take))


@dataclass(frozen=True)
class Fixed:
    """The board matches the game again: illegal-change and guidance signals end."""


@dataclass(frozen=True)
class Removable:
    """After a mill: the opponent pieces at ``points`` may be taken."""

    points: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", _names(self.points))


@dataclass(frozen=True)
class GemToTake:
    """A captured gem at ``points`` is to be taken off the board (Brain Hanky)."""

    points: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", _names(self.points))


@dataclass(frozen=True)
class ClockWarning:
    """Player ``player``'s clock shows ``seconds_left`` (counting on from now); None clears it."""

    player: int
    seconds_left: float | None


@dataclass(frozen=True)
class GameOver:
    """The game has ended: ``winner`` won, or None for a draw."""

    winner: int | None = None


@dataclass(frozen=True)
class Reset:
    """A new game or the program stopping: every signal off."""


Event = Union[Turn, MovesLeft, Hint, Beneath, StepAccepted, IllegalChange, Guidance, Fixed, Removable, GemToTake,
              ClockWarning, GameOver, Reset]
EVENTS = (Turn, MovesLeft, Hint, Beneath, StepAccepted, IllegalChange, Guidance, Fixed, Removable, GemToTake, ClockWarning,
          GameOver, Reset)


# ---------------------------------------------------------------------------- movements
@dataclass(frozen=True)
class Timing:
    """How the signals move, in seconds."""

    step_hold: float = 0.4  # a legal step's green stays full this long...
    step_fade: float = 1.2  # ...then fades out over this long
    gem_period: float = 1.2  # the gem's blue pulse
    removable_period: float = 1.6  # the removable pieces' amber swell (never dark: floor 0.45)
    put_period: float = 2.0  # "put a piece here" breathing
    take_period: float = 0.5  # "take this away" blinking
    clock_slow: float = 1.0  # the clock pixel's blink with time to spare
    clock_fast: float = 0.4  # ...and with under ``clock_hurry`` seconds left
    clock_hurry: float = 10.0
    sweep_period: float = 1.6  # one game-over sweep across the board
    sweep_width: float = 0.3  # the sweep's band, as a share of the board's width
    sweep_floor: float = 0.08  # the winner's colour stays this bright between sweeps
    count_flash: float = 0.4  # moves left: one flash of the turn pixel (half on, half off)...
    count_rest: float = 1.2  # ...and the pause, lit, before the count begins again
    hint_each: float = 0.5  # a hint lights each point of the best step this long, in turn
    beneath_each: float = 0.6  # a stack shows each chip's colour this long, bottom to top


def fade(dt: float, hold: float, length: float) -> float:
    """1 for ``hold`` seconds, then easing out to 0 over ``length`` seconds."""
    if dt < hold:
        return 1.0
    u = (dt - hold) / length
    return 0.0 if u >= 1 else (1.0 - u) ** 2


def pulse(dt: float, period: float, low: float = 0.15) -> float:
    """A smooth swell between ``low`` and 1, starting at full."""
    return low + (1.0 - low) * (0.5 + 0.5 * math.cos(2 * math.pi * dt / period))


def blink(dt: float, period: float, duty: float = 0.5) -> float:
    """On for ``duty`` of each ``period``, starting on."""
    return 1.0 if (dt % period) < duty * period else 0.0


@dataclass
class _State:
    turn: int | None = None
    seat: tuple[int, float] | None = None  # team play: which of the team's players, since when
    moves: tuple[int, float] | None = None  # moves left in the turn, since when
    hint: tuple[tuple[str, ...], float] | None = None
    beneath: tuple[tuple[tuple[str, tuple[int, ...]], ...], float] | None = None
    step: tuple[tuple[str, ...], float] | None = None
    illegal: tuple[str, ...] = ()
    put: tuple[str, ...] = ()
    take: tuple[str, ...] = ()
    guidance_since: float = 0.0
    removable: tuple[str, ...] = ()
    removable_since: float = 0.0
    gems: tuple[str, ...] = ()
    gems_since: float = 0.0
    clock: tuple[int, float, float] | None = None  # player, seconds left, at time
    game_over: tuple[int | None, float] | None = None
    players: set[int] = field(default_factory=set)


class SignalPlayer:
    """Keeps the signals in force and renders them as frames for a board wired as ``layout``.

    ``spots`` (a ``Spots``, game or board; default the layout's board) gives the points'
    positions for the game-over sweep. ``palette`` chooses the colours.
    """

    def __init__(self, layout: LayoutMap, *, palette: Palette = STANDARD, spots: Any = None,
                 timing: Timing = Timing()) -> None:
        self.layout = layout
        self.palette = palette
        self.timing = timing
        self.state = _State()
        self._across = self._positions(spots)

    def _positions(self, spots: Any) -> dict[str, float]:
        """Each spot's place across the board (0 left .. 1 right), for the game-over sweep."""
        try:
            where = spots_for(spots if spots is not None else self.layout.board)
            x0, _, x1, _ = where.extent()
            return {n: (x - x0) / ((x1 - x0) or 1) for n, (x, _) in where.coords.items()}
        except LayoutError:  # a custom board the engine does not know: sweep along the strip
            first = {n: min(i) for n, i in self.layout.points.items()}
            top = max(first.values(), default=1) or 1
            return {n: v / top for n, v in first.items()}

    # ---------------------------------------------------------------- events
    def _known(self, points: tuple[str, ...]) -> tuple[str, ...]:
        for p in points:
            if p not in self.layout.points:
                raise LayoutError(f"the LED map for {self.layout.board} has no pixel for {p!r}")
        return points

    def handle(self, event: Event, t: float) -> None:
        """Take ``event`` into account from time ``t`` on (see the table in the module doc)."""
        s = self.state
        if isinstance(event, Turn):
            self.palette.player(event.player)
            s.turn, s.clock, s.game_over = event.player, None, None
            s.seat = (event.seat, t) if event.seat else None
            s.players.add(event.player)
        elif isinstance(event, Hint):
            s.hint = (self._known(event.points), t) if event.points else None
        elif isinstance(event, Beneath):
            self._known(tuple(spot for spot, _cs in event.stacks))
            for _spot, colours in event.stacks:
                for c in colours:
                    self.palette.player(c)
            s.beneath = (event.stacks, t) if event.stacks else None
        elif isinstance(event, MovesLeft):
            s.moves = (int(event.moves), t) if event.moves > 0 else None
        elif isinstance(event, StepAccepted):
            s.step = (self._known(event.points), t) if event.points else None
            s.illegal = s.put = s.take = s.removable = s.gems = ()
            s.hint = s.beneath = None
        elif isinstance(event, IllegalChange):
            s.illegal = self._known(event.points)
        elif isinstance(event, Guidance):
            s.put, s.take = self._known(event.put), self._known(event.take)
            s.guidance_since = t
        elif isinstance(event, Fixed):
            s.illegal = s.put = s.take = ()
        elif isinstance(event, Removable):
            s.removable, s.removable_since = self._known(event.points), t
        elif isinstance(event, GemToTake):
            s.gems, s.gems_since = self._known(event.points), t
        elif isinstance(event, ClockWarning):
            if event.seconds_left is None:
                s.clock = None
            else:
                self.palette.player(event.player)
                s.clock = (event.player, float(event.seconds_left), t)
        elif isinstance(event, GameOver):
            if event.winner is not None:
                self.palette.player(event.winner)
            turn, players = s.turn, s.players
            self.state = _State(turn=turn, players=players, game_over=(event.winner, t))
        elif isinstance(event, Reset):
            self.state = _State()
        else:
            raise TypeError(f"not a signal event: {event!r}")

    # ---------------------------------------------------------------- frames
    def board_colours(self, t: float) -> dict[str, RGB]:
        """Spot -> colour at time ``t``, for the spots that are lit."""
        s, pal, tm = self.state, self.palette, self.timing
        out: dict[str, RGB] = {}

        def lay(points: Iterable[str], colour: RGB, alpha: float) -> None:
            if alpha <= 0:
                return
            for p in points:
                out[p] = mix(out.get(p, OFF), colour, alpha)

        if s.game_over is not None:
            winner, t0 = s.game_over
            dt = t - t0
            lap = int(dt // tm.sweep_period)
            if winner is not None:
                colour = pal.player(winner)
            else:  # a draw: the two sides' colours take turns
                sides = sorted(s.players) if len(s.players) >= 2 else [1, 2]
                colour = pal.player(sides[lap % len(sides)])
            w = tm.sweep_width
            centre = (dt % tm.sweep_period) / tm.sweep_period * (1 + 2 * w) - w
            for p in self.layout.points:
                x = self._across.get(p, 0.0)
                lay([p], colour, max(tm.sweep_floor, 1 - abs(x - centre) / w))
            return out
        if s.beneath is not None:
            stacks, t0 = s.beneath
            for spot, colours in stacks:
                k = int((t - t0) / tm.beneath_each) % (len(colours) + 1)
                if k < len(colours):  # each chip in turn, then a dark beat before the bottom again
                    lay([spot], pal.player(colours[k]), 1.0)
        if s.hint is not None:
            points, t0 = s.hint
            now = int((t - t0) / tm.hint_each) % len(points)
            for i, p in enumerate(points):
                lay([p], pal.hint, 1.0 if i == now else 0.25)
        lay(s.removable, pal.removable, pulse(t - s.removable_since, tm.removable_period, low=0.45))
        lay(s.gems, pal.gem, pulse(t - s.gems_since, tm.gem_period))
        if s.step is not None:
            points, t0 = s.step
            lay(points, pal.legal, fade(t - t0, tm.step_hold, tm.step_fade))
        lay(s.put, pal.put, pulse(t - s.guidance_since, tm.put_period, low=0.1))
        lay(s.take, pal.take, blink(t - s.guidance_since, tm.take_period))
        lay(s.illegal, pal.illegal, 1.0)
        return {p: c for p, c in out.items() if c != OFF}

    def status_colours(self, t: float) -> dict[str, RGB]:
        """Status role -> colour at time ``t`` (turn, clock, error)."""
        s, pal, tm = self.state, self.palette, self.timing
        out: dict[str, RGB] = {}
        if s.game_over is not None:
            winner = s.game_over[0]
            if winner is not None:
                out["turn"] = pal.player(winner)
        elif s.turn is not None:
            out["turn"] = scale(pal.player(s.turn), self._count(t))
        if s.clock is not None:
            _, left, t0 = s.clock
            remaining = left - (t - t0)
            if remaining <= 0:
                out["clock"] = pal.illegal
            else:
                period = tm.clock_fast if remaining <= tm.clock_hurry else tm.clock_slow
                out["clock"] = scale(pal.clock, blink(t - t0, period))
        if s.illegal:
            out["error"] = pal.illegal
        return {r: c for r, c in out.items() if c != OFF}

    def _count(self, t: float) -> float:
        """The turn pixel's brightness while it counts the moves left: n flashes, then a rest."""
        s, tm = self.state, self.timing
        count = s.moves or s.seat
        if count is None:
            return 1.0
        n, t0 = count
        cycle = n * tm.count_flash + tm.count_rest
        u = (t - t0) % cycle
        if u >= n * tm.count_flash:
            return 1.0
        return blink(u, tm.count_flash)

    def frame(self, t: float) -> list[RGB]:
        """The whole strip at time ``t``: one colour per pixel of the layout."""
        pixels = [OFF] * self.layout.count
        for name, colour in self.board_colours(t).items():
            for i in self.layout.points[name]:
                pixels[i] = colour
        for role, colour in self.status_colours(t).items():
            for i in self.layout.status.get(role, ()):
                pixels[i] = colour
        return pixels

    def busy(self, t: float) -> bool:
        """True while the frame still changes with time (so the caller keeps redrawing)."""
        s, tm = self.state, self.timing
        fading = s.step is not None and t - s.step[1] < tm.step_hold + tm.step_fade
        return bool(fading or s.removable or s.gems or s.put or s.take or s.clock or s.game_over or s.moves
                    or s.seat or s.hint or s.beneath)

    def caption(self, t: float) -> str:
        """The signals in force at ``t`` in words, for screens and the renderers' captions."""
        s = self.state
        parts = []
        if s.game_over is not None:
            w = s.game_over[0]
            parts.append("game over: a draw" if w is None else f"game over: player {w} wins")
        elif s.turn is not None:
            parts.append(f"player {s.turn} to move" if s.seat is None else
                         f"team {s.turn}, its player {s.seat[0]}, to move")
            if s.moves is not None:
                parts.append(f"{s.moves[0]} move{'s' if s.moves[0] != 1 else ''} left")
        if s.step is not None and t - s.step[1] < self.timing.step_hold + self.timing.step_fade:
            parts.append("step accepted at " + ", ".join(s.step[0]))
        if s.illegal:
            parts.append("illegal change at " + ", ".join(s.illegal))
        if s.put:
            parts.append("put a piece on " + ", ".join(s.put))
        if s.take:
            parts.append("take the piece off " + ", ".join(s.take))
        if s.removable:
            parts.append("may take " + ", ".join(s.removable))
        if s.hint is not None:
            parts.append("best step " + " to ".join(s.hint[0]))
        if s.beneath is not None:
            parts.append("stacks " + ", ".join(f"{sp} {'/'.join(map(str, cs))}" for sp, cs in s.beneath[0]))
        if s.gems:
            parts.append("take the gem off " + ", ".join(s.gems))
        if s.clock is not None:
            left = max(0.0, s.clock[1] - (t - s.clock[2]))
            parts.append(f"player {s.clock[0]}: {left:.0f} s left" if left > 0 else f"player {s.clock[0]}: time is up")
        return " · ".join(parts)

    def show(self, pixels: Pixels, t: float) -> list[RGB]:
        """Render time ``t`` onto ``pixels`` and send it; returns the frame as sent."""
        pixels.set_frame(self.frame(t))
        return pixels.show(caption=self.caption(t))
