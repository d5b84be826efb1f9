"""Buttons beside the board: confirm / end of turn, undo / take-back, menu.

Two backends behind one small interface, ``poll() -> list[Press]``:

``GpioButtons``       momentary buttons from a GPIO pin to ground, read with RPi.GPIO: internal
                      pull-ups, edge detection on both edges, and a software debounce
``SimulatedButtons``  presses made by code or keys (``c`` confirm, ``u`` undo, ``m`` menu), for
                      the simulator and tests

RPi.GPIO is imported only when ``GpioButtons`` is made. On a Raspberry Pi 5, whose GPIO chip
RPi.GPIO cannot drive, install the rpi-lgpio package in its place (``pip uninstall RPi.GPIO;
pip install rpi-lgpio``): it provides the same ``RPi.GPIO`` module on top of lgpio, so this same
code runs unchanged (see docs/wiring.md).

Why debounce in software: a button's contacts bounce for a few milliseconds on press and on
release. RPi.GPIO's ``bouncetime`` only ignores edges for a while after one; it still takes a
bounce on *release* for a new press. ``Debouncer`` instead follows the level: a press counts
when the pin has read low, steadily, for ``window`` seconds after having been steadily high, so
one push is one press whatever the contacts do.
"""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum


class Role(str, Enum):
    CONFIRM = "confirm"  # confirm a step / end of turn
    UNDO = "undo"  # undo / take back
    MENU = "menu"


DEFAULT_PINS = {Role.CONFIRM: 17, Role.UNDO: 27, Role.MENU: 22}
"""BCM pin numbers: header pins 11, 13 and 15, side by side, with ground on pin 9 and 14 beside
them, and clear of the NeoPixel pins (18, 12, 21, 10) and of SPI."""

KEYS = {"c": Role.CONFIRM, "\n": Role.CONFIRM, " ": Role.CONFIRM, "u": Role.UNDO, "m": Role.MENU}


class ButtonError(RuntimeError):
    """Buttons that cannot be read, with a message that says what to install or change."""


@dataclass(frozen=True)
class Press:
    """One press of the button with ``role``, at time ``t`` (seconds, the backend's clock)."""

    role: Role
    t: float


class Debouncer:
    """Turns a bouncing pin level into clean presses (active low: pressed reads 0).

    Feed it every level change and, now and then, the current level (both through ``update``):
    it returns True once per press, at the first reading after the press has held for
    ``window`` seconds.
    """

    def __init__(self, window: float = 0.03, level: int = 1, t: float = 0.0) -> None:
        self.window = window
        self.raw = level  # the last level read
        self.changed = t  # when it last changed
        self.stable = level  # the debounced level

    def update(self, level: int, t: float) -> bool:
        """The pin read ``level`` at ``t`` (an edge, or a sample); True when a press has just
        become certain: the level had been low for ``window`` seconds, after being steadily high."""
        pressed = self._settle(t)
        if level != self.raw:
            self.raw, self.changed = level, t
        return pressed

    def _settle(self, t: float) -> bool:
        if self.raw != self.stable and t - self.changed >= self.window:
            self.stable = self.raw
            return self.stable == 0
        return False


class Buttons:
    """The interface: ``poll()`` returns the presses since the last poll, oldest first."""

    def poll(self) -> list[Press]:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SimulatedButtons(Buttons):
    """Presses made by code (``press``) or by keys (``key``): the simulator's buttons."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._queue: list[Press] = []

    def press(self, role: Role | str, t: float | None = None) -> None:
        self._queue.append(Press(Role(role), self.clock() if t is None else t))

    def key(self, char: str, t: float | None = None) -> bool:
        """A key typed in the simulator; True if it is a button key (c/Enter/space, u, m)."""
        role = KEYS.get(char.lower())
        if role is None:
            return False
        self.press(role, t)
        return True

    def poll(self) -> list[Press]:
        out, self._queue = self._queue, []
        return out


def _import_gpio():
    try:
        return importlib.import_module("RPi.GPIO")
    except ModuleNotFoundError:
        raise ButtonError("GPIO buttons need RPi.GPIO: pip install 'arbiter[pi]' (on a Raspberry Pi 5: "
                          "pip uninstall RPi.GPIO; pip install rpi-lgpio)") from None
    except RuntimeError as exc:  # "This module can only be run on a Raspberry Pi!"
        raise ButtonError(f"GPIO buttons cannot be read here ({exc}); use the simulated buttons") from None


class GpioButtons(Buttons):
    """Buttons between BCM pins and ground, read through RPi.GPIO (or rpi-lgpio on a Pi 5).

    ``pins`` maps roles to BCM numbers (default ``DEFAULT_PINS``; leave a role out to go
    without that button). Edges are caught by RPi.GPIO's edge detection on a thread of its own
    and handed to a ``Debouncer`` per button; ``poll`` also reads each pin, which completes a
    press whose last bounce was the final edge.
    """

    def __init__(self, pins: Mapping[Role | str, int] | None = None, *, window: float = 0.03,
                 clock: Callable[[], float] = time.monotonic, gpio=None) -> None:
        self.gpio = gpio if gpio is not None else _import_gpio()
        self.clock = clock
        self.pins = {Role(r): int(p) for r, p in (pins or DEFAULT_PINS).items()}
        if len(set(self.pins.values())) != len(self.pins):
            raise ButtonError("two buttons are given the same pin")
        self._lock = threading.Lock()
        self._queue: list[Press] = []
        GPIO = self.gpio
        GPIO.setwarnings(False)
        GPIO.setmode(GPIO.BCM)
        now = clock()
        self._debouncers: dict[int, Debouncer] = {}
        self._roles = {pin: role for role, pin in self.pins.items()}
        try:
            for pin in self.pins.values():
                GPIO.setup(pin, GPIO.IN, pull_up_down=GPIO.PUD_UP)
                self._debouncers[pin] = Debouncer(window, GPIO.input(pin), now)
                GPIO.add_event_detect(pin, GPIO.BOTH, callback=self._edge)
        except RuntimeError as exc:
            self.close()
            raise ButtonError(f"cannot watch GPIO pins {sorted(self.pins.values())}: {exc} "
                              f"(is another program using them?)") from None

    def _edge(self, pin: int) -> None:
        """RPi.GPIO's callback thread: one edge on ``pin``."""
        t = self.clock()
        level = self.gpio.input(pin)
        with self._lock:
            if self._debouncers[pin].update(level, t):
                self._queue.append(Press(self._roles[pin], t))

    def poll(self) -> list[Press]:
        t = self.clock()
        with self._lock:
            for pin, deb in self._debouncers.items():
                if deb.update(self.gpio.input(pin), t):
                    self._queue.append(Press(self._roles[pin], t))
            out, self._queue = self._queue, []
        return out

    def close(self) -> None:
        for pin in getattr(self, "_debouncers", {}):
            try:
                self.gpio.remove_event_detect(pin)
            except RuntimeError:
                pass
        try:
            self.gpio.cleanup(list(self.pins.values()))
        except RuntimeError:
            pass
