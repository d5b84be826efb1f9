"""Buttons: the debouncer, the simulated buttons, and the RPi.GPIO backend on a fake RPi.GPIO.

The fake stands where RPi.GPIO (or rpi-lgpio on a Pi 5) would be: pins with levels, pull-up
setup and edge callbacks. Tests move the levels and the clock by hand, bounces included.
"""

from __future__ import annotations

import sys
import types

import pytest

from hardware.buttons import (DEFAULT_PINS, ButtonError, Debouncer, GpioButtons, Press, Role,
                              SimulatedButtons)


# ---------------------------------------------------------------------------- debouncing
def feed(deb: Debouncer, events) -> list[float]:
    """Levels at times; returns the times at which a press was recognised."""
    return [t for t, level in events if deb.update(level, t)]


def test_a_bouncing_press_counts_once():
    deb = Debouncer(window=0.03)
    bounce = [(1.000, 0), (1.002, 1), (1.003, 0), (1.005, 1), (1.006, 0)]
    assert feed(deb, bounce + [(1.040, 0), (1.100, 0), (1.500, 0)]) == [1.040]


def test_a_glitch_shorter_than_the_window_is_no_press():
    deb = Debouncer(window=0.03)
    assert feed(deb, [(1.0, 0), (1.01, 1), (1.5, 1)]) == []


def test_a_bouncing_release_is_no_second_press():
    deb = Debouncer(window=0.03)
    press = [(1.0, 0), (1.05, 0)]
    release = [(2.0, 1), (2.002, 0), (2.004, 1), (2.006, 0), (2.008, 1), (2.05, 1)]
    assert feed(deb, press + release) == [1.05]


def test_two_pushes_are_two_presses():
    deb = Debouncer(window=0.03)
    events = [(1.0, 0), (1.05, 0), (1.2, 1), (1.3, 1), (1.4, 0), (1.5, 0)]
    assert feed(deb, events) == [1.05, 1.5]


def test_holding_a_button_is_one_press():
    deb = Debouncer(window=0.03)
    assert feed(deb, [(1.0, 0)] + [(1.0 + k / 10, 0) for k in range(1, 50)]) == [1.1]


# ---------------------------------------------------------------------------- simulated
def test_simulated_buttons_deliver_presses_in_order_once():
    b = SimulatedButtons(clock=lambda: 7.0)
    b.press(Role.CONFIRM)
    b.press("undo", t=8.0)
    assert b.poll() == [Press(Role.CONFIRM, 7.0), Press(Role.UNDO, 8.0)]
    assert b.poll() == []


@pytest.mark.parametrize("key, role", [("c", Role.CONFIRM), ("\n", Role.CONFIRM), (" ", Role.CONFIRM),
                                       ("U", Role.UNDO), ("m", Role.MENU)])
def test_simulator_keys_press_buttons(key, role):
    b = SimulatedButtons(clock=lambda: 0.0)
    assert b.key(key)
    assert b.poll() == [Press(role, 0.0)]


def test_other_keys_press_nothing():
    b = SimulatedButtons()
    assert not b.key("x")
    assert b.poll() == []
    with pytest.raises(ValueError):
        b.press("eject")


# ---------------------------------------------------------------------------- RPi.GPIO backend
class FakeGPIO(types.ModuleType):
    """The parts of RPi.GPIO the backend uses, with pins whose level tests set."""

    BCM, IN, PUD_UP, BOTH = "BCM", "IN", "PUD_UP", "BOTH"

    def __init__(self) -> None:
        super().__init__("RPi.GPIO")
        self.mode = None
        self.setups: dict[int, tuple] = {}
        self.levels: dict[int, int] = {}
        self.callbacks: dict[int, object] = {}
        self.cleaned: list = []
        self.busy: set[int] = set()

    def setwarnings(self, flag):
        pass

    def setmode(self, mode):
        self.mode = mode

    def setup(self, pin, direction, pull_up_down=None):
        self.setups[pin] = (direction, pull_up_down)
        self.levels.setdefault(pin, 1 if pull_up_down == self.PUD_UP else 0)

    def input(self, pin):
        return self.levels[pin]

    def add_event_detect(self, pin, edge, callback=None, bouncetime=None):
        if pin in self.busy:
            raise RuntimeError("Failed to add edge detection")
        assert edge == self.BOTH and bouncetime is None  # debouncing is ours
        self.callbacks[pin] = callback

    def remove_event_detect(self, pin):
        self.callbacks.pop(pin, None)

    def cleanup(self, pins=None):
        self.cleaned.append(pins)

    # test controls: a level change fires the edge callback, as the real thread would
    def set(self, pin, level):
        if self.levels[pin] != level:
            self.levels[pin] = level
            if pin in self.callbacks:
                self.callbacks[pin](pin)


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def gpio(monkeypatch):
    fake = FakeGPIO()
    rpi = types.ModuleType("RPi")
    rpi.GPIO = fake
    monkeypatch.setitem(sys.modules, "RPi", rpi)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", fake)
    return fake


def test_gpio_buttons_use_pull_ups_and_edge_detection_on_the_default_pins(gpio):
    GpioButtons(clock=Clock())
    assert gpio.mode == gpio.BCM
    assert gpio.setups == {pin: (gpio.IN, gpio.PUD_UP) for pin in DEFAULT_PINS.values()}
    assert set(gpio.callbacks) == {17, 27, 22}


def test_a_bouncing_gpio_press_is_one_press_of_its_role(gpio):
    clock = Clock()
    buttons = GpioButtons(clock=clock)
    for t, level in [(1.000, 0), (1.002, 1), (1.004, 0), (1.006, 1), (1.007, 0)]:
        clock.t = t
        gpio.set(27, level)
    clock.t = 1.010
    assert buttons.poll() == []  # not yet held long enough
    clock.t = 1.050
    assert buttons.poll() == [Press(Role.UNDO, 1.050)]
    clock.t = 1.500
    assert buttons.poll() == []  # held: still one press
    for t, level in [(2.0, 1), (2.001, 0), (2.002, 1)]:  # a bouncing release
        clock.t = t
        gpio.set(27, level)
    clock.t = 2.1
    assert buttons.poll() == []


def test_an_edge_after_a_settled_press_reports_it_without_a_poll(gpio):
    clock = Clock()
    buttons = GpioButtons(clock=clock)
    clock.t = 1.0
    gpio.set(17, 0)
    clock.t = 1.2
    gpio.set(17, 1)  # released before any poll: the press had held, so it counts
    assert buttons.poll() == [Press(Role.CONFIRM, 1.2)]


def test_gpio_buttons_on_chosen_pins_and_roles(gpio):
    clock = Clock()
    buttons = GpioButtons({"menu": 5}, clock=clock)
    assert set(gpio.callbacks) == {5}
    gpio.set(5, 0)
    clock.t = 0.1
    assert buttons.poll() == [Press(Role.MENU, 0.1)]
    with pytest.raises(ButtonError, match="same pin"):
        GpioButtons({"menu": 5, "undo": 5})


def test_close_stops_edge_detection_and_releases_the_pins(gpio):
    with GpioButtons(clock=Clock()):
        pass
    assert gpio.callbacks == {}
    assert gpio.cleaned == [[17, 27, 22]]


def test_a_pin_in_use_elsewhere_is_a_clear_error(gpio):
    gpio.busy.add(27)
    with pytest.raises(ButtonError, match="cannot watch GPIO pins .*another program"):
        GpioButtons(clock=Clock())
    assert gpio.cleaned  # what was set up is released again


def test_missing_rpi_gpio_says_what_to_install_including_the_pi_5_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "RPi", None)
    with pytest.raises(ButtonError, match=r"pip install 'arbiter\[pi\]'.*rpi-lgpio"):
        GpioButtons()


def test_rpi_gpio_refusing_to_run_off_a_pi_is_a_clear_error(monkeypatch):
    def refuse(name, *a, **k):  # what importing RPi.GPIO does on a computer that is not a Pi
        raise RuntimeError("This module can only be run on a Raspberry Pi!")

    monkeypatch.setattr("hardware.buttons.importlib.import_module", refuse)
    with pytest.raises(ButtonError, match="only be run on a Raspberry Pi.*simulated"):
        GpioButtons()
