"""Game clocks: a club's time control, per game and/or per move, with Fischer increments.

A time control is written the way clubs announce it:

    >>> str(parse_time_control("10m"))              # 10 minutes per player for the whole game
    '10m'
    >>> str(parse_time_control("10m+5s"))           # ... plus 5 s added after each of your turns
    '10m+5s'
    >>> str(parse_time_control("30s/move"))         # 30 s for each turn, no game clock
    '30s/move'
    >>> str(parse_time_control("5m+3s, 20s/move"))  # both: whichever runs out first flags
    '5m+3s,20s/move'

The clock is pure: it never reads the system time. Every call takes ``t``, seconds on any
monotonic time base the caller chooses (``time.monotonic()`` on the Pi, plain numbers in tests),
so the referee decides what "now" is and tests need no sleeping:

    >>> clock = Clock("1m+2s")
    >>> clock.start(0.0, player=1)
    >>> clock.press(10.0, to_move=2)   # player 1 moved after 10 s: 50 s left, +2 s increment
    >>> clock.remaining(1, 10.0), clock.remaining(2, 15.0)
    (52.0, 55.0)

A *turn* is the time from the moment a player is to move until another player is to move. A
Nine Men's Morris removal after a mill, or the several moves of a Brain Hanky turn, are steps of
the same turn: ``press`` with the same player keeps their time running, the per-move limit covers
the whole turn and the increment is added once, when the turn passes on.

When a running player's time reaches zero the clock *flags*: ``flag(t)`` names the player and
``result(t)`` gives the loss on time as an ``engine.Result`` the referee can end the game with.

Snapshots (``snapshot(t)``) hold only durations, never absolute times, so they stay meaningful
after a reboot, when the monotonic clock starts again from another origin. ``Clock.restore``
gives back a *paused* clock: the time between the last snapshot written to the journal and the
moment play restarts (``resume(t)``) is not charged to anyone. That is the crash rule: a power cut
or crash must not cost the player on move the minutes the Pi needed to boot. The player on move
keeps the time they had already used in the turn as of the last snapshot; the referee may write a
clock line to the journal every few seconds to keep that close to the truth.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import engine

__all__ = ["Clock", "ClockError", "TimeControl", "TimeControlError", "format_duration",
           "parse_duration", "parse_time_control"]


class TimeControlError(ValueError):
    """Time-control text that cannot be understood; the message shows what to write instead."""


class ClockError(ValueError):
    """A clock used out of order (pressed before it started, restored from a damaged snapshot)."""


_EXAMPLES = 'for example "10m", "10m+5s", "30s/move" or "5m+3s,20s/move"'
_UNITS = {"h": 3600.0, "m": 60.0, "s": 1.0}
_DURATION = re.compile(r"(\d+(?:\.\d+)?)([hms])")


def parse_duration(text: str, what: str = "a duration") -> float:
    """``"90s"``, ``"1m30s"``, ``"1.5m"``, ``"1h"`` -> seconds. Every number needs its unit."""
    s = re.sub(r"\s+", "", text).lower()
    if not s:
        raise TimeControlError(f"{what} is empty: write a time such as 10m or 30s")
    pos, total, seen = 0, 0.0, []
    for m in _DURATION.finditer(s):
        if m.start() != pos:
            break
        unit = m.group(2)
        if unit in seen or (seen and "hms".index(unit) < "hms".index(seen[-1])):
            raise TimeControlError(f"{what} {text.strip()!r}: write hours, minutes, seconds once each "
                                   f"and in that order, such as 1h30m or 2m30s")
        seen.append(unit)
        total += float(m.group(1)) * _UNITS[unit]
        pos = m.end()
    if pos != len(s):
        if re.fullmatch(r"\d+(\.\d+)?", s):
            raise TimeControlError(f"{what} {text.strip()!r} has no unit: write {s}m for minutes or {s}s for seconds")
        raise TimeControlError(f"{what} {text.strip()!r} is not a time: use h, m and s, such as 10m, 30s or 1m30s")
    return total


def format_duration(seconds: float) -> str:
    """The shortest text ``parse_duration`` reads back to ``seconds`` (``90`` -> ``"1m30s"``)."""
    if seconds == 0:
        return "0s"
    whole = round(seconds)
    if abs(seconds - whole) > 1e-9:
        return f"{seconds:g}s"
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return "".join(f"{v}{u}" for v, u in ((h, "h"), (m, "m"), (s, "s")) if v)


@dataclass(frozen=True)
class TimeControl:
    """How much time each player gets.

    ``game``: seconds per player for the whole game, or None for no game clock.
    ``increment``: seconds added to a player's game time after each of their turns (Fischer).
    ``per_move``: seconds allowed for each turn, or None for no per-move limit.
    """

    game: float | None = None
    increment: float = 0.0
    per_move: float | None = None

    def __post_init__(self) -> None:
        if self.game is None and self.per_move is None:
            raise TimeControlError(f"a time control needs a game time or a per-move time, {_EXAMPLES}")
        if self.game is not None and self.game <= 0:
            raise TimeControlError("the game time must be more than 0, such as 10m")
        if self.per_move is not None and self.per_move <= 0:
            raise TimeControlError("the per-move time must be more than 0, such as 30s/move")
        if self.increment < 0:
            raise TimeControlError("the increment cannot be negative")
        if self.increment and self.game is None:
            raise TimeControlError("an increment (+5s) is added to a game time: write it as 10m+5s")

    def __str__(self) -> str:
        parts = []
        if self.game is not None:
            parts.append(format_duration(self.game) + (f"+{format_duration(self.increment)}" if self.increment else ""))
        if self.per_move is not None:
            parts.append(f"{format_duration(self.per_move)}/move")
        return ",".join(parts)


def parse_time_control(text: str) -> TimeControl:
    """Read a time control: a game time with an optional ``+increment``, a ``/move`` limit, or both
    separated by a comma (``"5m+3s,20s/move"``). Errors say what was wrong and show examples."""
    if not isinstance(text, str) or not text.strip():
        raise TimeControlError(f"the time control is empty: {_EXAMPLES}")
    game = per_move = None
    increment = 0.0
    for raw in text.split(","):
        part = re.sub(r"\s+", "", raw).lower()
        if not part:
            raise TimeControlError(f"time control {text!r} has an empty part between commas: {_EXAMPLES}")
        if "/move" in part:
            if per_move is not None:
                raise TimeControlError(f"time control {text!r} gives the per-move time twice")
            body, _, after = part.partition("/move")
            if "+" in body or after.startswith("+"):
                raise TimeControlError(f"time control {text!r}: an increment belongs to the game time "
                                       f"(5m+3s,20s/move), not to the per-move time")
            if after:
                raise TimeControlError(f"time control {text!r}: nothing may follow \"/move\"; "
                                       f"separate parts with a comma, such as 5m+3s,20s/move")
            per_move = parse_duration(body, "the per-move time")
        elif "/" in part:
            raise TimeControlError(f"time control {text!r}: only \"/move\" may follow a time, such as 30s/move")
        else:
            if game is not None:
                raise TimeControlError(f"time control {text!r} gives the game time twice")
            main, plus, inc = part.partition("+")
            if not main.strip():
                raise TimeControlError(f"time control {text!r}: an increment needs a game time before it, "
                                       f"such as 10m+5s")
            game = parse_duration(main, "the game time")
            if plus:
                increment = parse_duration(inc, "the increment")
    return TimeControl(game, increment, per_move)


class Clock:
    """The players' clocks under one time control; every method takes the time ``t`` in seconds.

    Only the player on move has time running. The clock is *stopped* before ``start``, after
    ``stop`` and after a flag, and *paused* between ``pause`` and ``resume`` (and after
    ``restore``); neither charges time.
    """

    def __init__(self, control: TimeControl | str, players: int = 2, warn_within: float = 10.0):
        self.control = parse_time_control(control) if isinstance(control, str) else control
        if not isinstance(players, int) or players < 2:
            raise ClockError(f"a clock needs 2 or more players, not {players!r}")
        self.players = players
        self.warn_within = float(warn_within)
        game = self.control.game
        self.left: dict[int, float] = {p: (math.inf if game is None else float(game)) for p in range(1, players + 1)}
        self.running: int | None = None  # the player whose turn it is, once started
        self.paused = False
        self.stopped = False
        self.flagged: int | None = None
        self._turn_began = 0.0  # t at which the running turn began (shifted on resume)
        self._used_when_paused = 0.0

    # -- the running turn ---------------------------------------------------------------------

    def _check_player(self, player: int) -> None:
        if not isinstance(player, int) or not 1 <= player <= self.players:
            raise ClockError(f"player {player!r} does not exist (1..{self.players})")

    def turn_used(self, t: float) -> float:
        """Seconds the player on move has used in this turn so far (0 if no turn runs)."""
        if self.running is None or self.stopped:
            return 0.0
        if self.paused:
            return self._used_when_paused
        return max(0.0, t - self._turn_began)

    def _allowance(self, player: int) -> float:
        """Seconds a player may use in a turn, counted from the turn's start."""
        per_move = self.control.per_move
        return min(self.left[player], math.inf if per_move is None else per_move)

    def start(self, t: float, player: int = 1) -> None:
        """Begin the game: ``player``'s time starts running at ``t``."""
        self._check_player(player)
        if self.running is not None:
            raise ClockError("the clock has already started")
        self.running, self._turn_began = player, t

    def press(self, t: float, to_move: int | None = None) -> int | None:
        """A step was accepted at ``t`` and ``to_move`` moves next (default: the next player).

        Returns None, or the number of the player who had already run out of time before the step:
        the game is then lost on time (see ``result``) and the clock stops without passing the turn.
        With ``to_move`` equal to the player on move (a removal after a mill, more moves in a
        Brain Hanky turn) the turn simply goes on.
        """
        if self.stopped:
            return self.flagged
        if self.running is None:
            raise ClockError("press before start: call start(t, player) when the game begins")
        if self.paused:
            raise ClockError("the clock is paused: resume(t) it before accepting steps")
        out = self.flag(t)
        if out is not None:
            return out
        if to_move is None:
            to_move = self.running % self.players + 1
        self._check_player(to_move)
        if to_move == self.running:
            return None
        p = self.running
        self.left[p] = self.left[p] - (t - self._turn_began) + self.control.increment
        self.running, self._turn_began = to_move, t
        return None

    def pause(self, t: float) -> None:
        """Stop charging time (players agree to a break, or a crash is being recovered)."""
        if self.running is None or self.paused or self.stopped:
            return
        self._used_when_paused = self.turn_used(t)
        self.paused = True

    def resume(self, t: float) -> None:
        """Charge time again from ``t``; the turn keeps what it had used before the pause."""
        if not self.paused:
            return
        self._turn_began = t - self._used_when_paused
        self.paused = False

    def stop(self, t: float) -> None:
        """The game is over: charge the last turn and stop for good."""
        if self.stopped or self.running is None:
            self.stopped = True
            return
        used = self.turn_used(t)
        self.left[self.running] -= used
        self.stopped = True

    # -- what the referee asks ------------------------------------------------------------------

    def remaining(self, player: int, t: float) -> float:
        """Seconds before ``player`` would flag (``math.inf`` without any limit).

        For the player on move this counts down; for the others it is what they will have when
        their turn begins (their game time, capped by the per-move limit).
        """
        self._check_player(player)
        if player == self.flagged:
            return 0.0
        allowance = self._allowance(player)
        if player == self.running and not self.stopped:
            return max(0.0, allowance - self.turn_used(t))
        return max(0.0, allowance)

    def flag(self, t: float) -> int | None:
        """The player who has run out of time at ``t``, or None. Once flagged, the clock stops."""
        if self.flagged is not None:
            return self.flagged
        if self.running is None or self.stopped or self.paused:
            return None
        if self.turn_used(t) >= self._allowance(self.running):
            self.flagged = self.running
            self.stopped = True
        return self.flagged

    def deadline(self) -> float | None:
        """The ``t`` at which the player on move will flag, so the referee can wake up then."""
        if self.running is None or self.stopped or self.paused:
            return None
        allowance = self._allowance(self.running)
        return None if math.isinf(allowance) else self._turn_began + allowance

    def warning(self, t: float) -> int | None:
        """The player on move if they are within ``warn_within`` seconds of flagging, else None."""
        if self.running is None or self.stopped or self.paused:
            return None
        left = self.remaining(self.running, t)
        return self.running if 0 < left <= self.warn_within else None

    def result(self, t: float) -> engine.Result | None:
        """The loss on time as the game's result, or None while nobody has flagged.

        With two players the other player wins. With more, a flag puts one player out and the
        game's own rules decide what follows, so this raises: ask ``flag(t)`` instead.
        """
        who = self.flag(t)
        if who is None:
            return None
        if self.players != 2:
            raise ClockError(f"with {self.players} players a flag only puts player {who} out: use flag(t)")
        return engine.Result(3 - who, False, f"player {who} ran out of time ({self.control})")

    # -- the journal -----------------------------------------------------------------------------

    def snapshot(self, t: float) -> dict[str, Any]:
        """The clock as JSON data, in durations only (see the module's note on crashes)."""
        def num(x: float) -> float | None:
            return None if math.isinf(x) else round(x, 3)

        return {
            "control": str(self.control),
            "players": self.players,
            "warn_within": self.warn_within,
            "left": {str(p): num(v) for p, v in self.left.items()},
            "running": self.running,
            "turn_used": round(self.turn_used(t), 3),
            "stopped": self.stopped,
            "flagged": self.flagged,
        }

    @classmethod
    def restore(cls, data: Mapping[str, Any]) -> Clock:
        """A clock from ``snapshot`` data, paused if a turn was running: call ``resume(t)`` when
        play restarts, so the time the game stood still (a crash, a reboot) is charged to nobody."""
        try:
            clock = cls(data["control"], int(data["players"]), float(data.get("warn_within", 10.0)))
            left = data["left"]
            for p in clock.left:
                v = left[str(p)]
                clock.left[p] = math.inf if v is None else float(v)
            running = data["running"]
            if running is not None:
                clock._check_player(running)
            clock.running = running
            clock.stopped = bool(data.get("stopped", False))
            clock.flagged = data.get("flagged")
            if clock.flagged is not None:
                clock._check_player(clock.flagged)
            used = float(data.get("turn_used", 0.0))
        except TimeControlError as exc:
            raise ClockError(f"clock snapshot: {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ClockError(f"clock snapshot is damaged ({exc.__class__.__name__}: {exc}); "
                             f"it needs control, players, left and running") from None
        if clock.running is not None and not clock.stopped:
            clock.paused = True
            clock._used_when_paused = max(0.0, used)
        return clock

    def __repr__(self) -> str:
        state = "stopped" if self.stopped else "paused" if self.paused else f"running for {self.running}"
        return f"Clock({str(self.control)!r}, players={self.players}, {state})"
