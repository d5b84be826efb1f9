"""A virtual sensor board under the simulated physical board, and the host reading it over a pty.

This is the glue between ``arbiter.sim.physical`` (the board on the simulated table, which players
act on) and ``firmware_bridge`` (the protocol, the virtual device, the host driver): the
virtual device's sensors are the physical board's spots, through the board's sensor map. So a
scenario played at a simulated table reaches the referee exactly as a real sensor board's
readings would: scanned, debounced, framed, sent through a real tty (with whatever noise,
dropped bytes, unplugging and restarts the test asks for), read back by pyserial, checked and
turned into Observations by the real host driver.

Two ways to run:

- ``SensorRig(..., clock=SimClock)``, lockstep: every ``read()`` runs the device up to the
  simulated time and waits until every byte it sent has reached the host (and every byte the
  host sent has reached the device), so a run is the same every time for a seed, however
  loaded the machine. ``serial_table`` puts one under an ``arbiter.sim.scenario.Table``.
- ``SensorRig(...).start()``: the device on its own thread in real time, for ``arbiter
  sensor-sim`` (a person plays on it from another terminal) and ``benchmarks/serial.py``.

Polarity: player 1's pieces stand north side down, every other player's south side down (a
hall sensor tells two polarities apart, no more).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

import engine
from engine.core import Piece
from firmware_bridge import wire
from firmware_bridge.host import SensorLink
from firmware_bridge.maps import SensorMap, load_map
from firmware_bridge.reader import SerialReader
from firmware_bridge.virtual import VirtualDevice

from .physical import PhysicalBoard

__all__ = ["SensorRig", "cells_of", "serial_table"]


def cells_of(position: Mapping[str, Piece], sensor_map: SensorMap, sensing: str = "occupancy") -> list[int]:
    """What the sensors under ``position`` read: a state per cell of the matrix."""
    cells = [wire.EMPTY] * sensor_map.count
    where = sensor_map.cells
    for spot, piece in position.items():
        cell = where.get(spot)
        if cell is None:
            continue
        if sensing == "polarity":
            cells[cell] = wire.NORTH if piece.owner == 1 else wire.SOUTH
        else:
            cells[cell] = wire.NORTH
    return cells


class SensorRig:
    """A physical board, the virtual sensor board under it, and the host's link and reader.

    ``device_options`` go to ``VirtualDevice`` (scan_hz, bounce_ms, bit_errors, drop_bytes,
    protocol_version, seed...). ``clock``: a simulated clock for lockstep runs; None: real time
    (call ``start()``). ``map_path``: a sensor map file (default: the shipped map).
    """

    def __init__(self, board: PhysicalBoard, *, sensing: str = "occupancy", led_count: int = 0,
                 clock: Callable[[], float] | None = None, map_path=None, link_options: Mapping | None = None,
                 **device_options):
        self.board = board
        self.game = board.game
        self.sensing = sensing
        self.map = load_map(map_path, self.game.board.name)
        self.clock = clock
        self.faults: set[int] = set()  # cells whose sensor reads FAULT (a broken wire), whatever stands there
        self._cells = self._sensed()
        board.on_change.append(self._moved)
        self.device = VirtualDevice(self.map.rows, self.map.cols, lambda: self._cells, sensing=sensing,
                                    led_count=led_count, **device_options)
        self.link_options = dict(link_options or {})
        self.link: SensorLink | None = None
        self.reader: SerialReader | None = None
        self._dev_base = 0
        self._host_base = 0
        self._tx_base = 0
        self._rx_base = 0
        self._t = 0.0
        self._marks: tuple[int, int] = (0, 0)

    def _sensed(self) -> list[int]:
        cells = cells_of(self.board.position, self.map, self.sensing)
        for c in self.faults:
            cells[c] = wire.FAULT
        return cells

    def _moved(self, board: PhysicalBoard) -> None:
        self._cells = self._sensed()  # one reference swap: thread-safe
        self.device.moved(self.clock() if self.clock is not None else time.monotonic())

    def fault(self, spot: str) -> None:
        """Break the sensor under ``spot``: it reads FAULT (an analog reading at a rail) until mended."""
        self.faults.add(self._cell(spot))
        self._cells = self._sensed()

    def mend(self, spot: str) -> None:
        self.faults.discard(self._cell(spot))
        self._cells = self._sensed()

    def _cell(self, spot: str) -> int:
        cell = self.map.cells.get(spot)
        if cell is None:
            raise ValueError(f"{spot!r} is not a point of the {self.map.board} board")
        return cell

    @property
    def port(self) -> str:
        return self.device.port

    # ------------------------------------------------------------------ real time
    def start(self) -> str:
        """The device on its own thread, in real time; returns the port to open."""
        return self.device.start()

    def stop(self) -> None:
        if self.link is not None:
            self.link.close()
        self.device.stop()
        try:
            self.board.on_change.remove(self._moved)
        except ValueError:
            pass

    # ------------------------------------------------------------------ lockstep
    def open(self) -> SerialReader:
        """Plug the device in (at the clock's time), open the host's link and make the reader.
        The link's errors (another protocol version...) propagate: that is what they are for."""
        lockstep = self.clock is not None
        if lockstep:
            self.device.plug(self.clock())
        elif not self.device.plugged:
            self.device.start()
        if lockstep:
            self._t = self.clock()
        options = {"now": lambda: self._t} if lockstep else {}
        options.update(self.link_options)
        self.link = SensorLink(self.device.port, **options)
        if lockstep:
            self._handshake()
        else:
            self.link.open()
        self.reader = (LockstepReader if lockstep else SerialReader)(self.link, self.map, self.game)
        if lockstep:
            self.reader.rig = self
        return self.reader

    def _handshake(self) -> None:
        """``SensorLink.open`` in lockstep: the device runs only when the clock is moved, so the
        link's own handshake (its retries, its deadline, its verdict on failure) is driven here
        one 10 ms step at a time."""
        link = self.link
        link.begin()
        self._rebase()
        while True:
            self.sync()
            if link.handshake() is not None:
                return
            self.clock.advance(0.01)

    def _rebase(self) -> None:
        d, link = self.device, self.link
        self._dev_base, self._host_base = d.stats["bytes"], link.stats["rx_bytes"]
        self._tx_base, self._rx_base = link.stats["tx_bytes"], d.stats["rx_bytes"]
        self._marks = (d.boots, link.stats["reconnects"])

    SUBSTEP = 0.005  # the host reads a real board every few milliseconds, not once a table frame

    def sync(self) -> None:
        """Lockstep: run device and host up to the clock's time, exchanging bytes every
        ``SUBSTEP`` seconds, as a host that polls the port continually would."""
        now = self.clock()
        if self._t >= now - 1e-9:
            self._exchange(self._t)
        while self._t < now - 1e-9:
            self._t = min(now, self._t + self.SUBSTEP)
            self._exchange(self._t)

    def _exchange(self, now: float) -> None:
        """Host bytes to the device, the device run to ``now``, its bytes to the host."""
        d, link = self.device, self.link
        if (d.boots, link.stats["reconnects"]) != self._marks or not d.plugged or not link.connected:
            link.poll(0)
            self._rebase()
            d.step(now)
            link.poll(0)
            self._rebase()
            return
        want_in = self._rx_base + (link.stats["tx_bytes"] - self._tx_base)
        if not d.take_input(want_in, timeout=0.5):
            self._rebase()
        d.step(now)
        want = self._host_base + (d.stats["bytes"] - self._dev_base)
        deadline = time.monotonic() + 0.5
        while link.connected and link.stats["rx_bytes"] < want and time.monotonic() < deadline:
            link.poll(0.002)
            if (d.boots, link.stats["reconnects"]) != self._marks:
                break
        if link.stats["rx_bytes"] < want or (d.boots, link.stats["reconnects"]) != self._marks:
            self._rebase()
        link.poll(0)  # what is due now (a scan request, LEDs) goes out this step


class LockstepReader(SerialReader):
    """A SerialReader that runs its virtual device up to the simulated clock before each read."""

    rig: SensorRig

    def __init__(self, link, sensor_map, game):
        super().__init__(link, sensor_map, game, wait=0.0)

    def read(self):
        try:
            self.rig.sync()
        except Exception as exc:  # pragma: no cover - the rig is test machinery; say so, do not raise
            from engine.observation import Observation

            return Observation.blocked(f"virtual sensor board: {exc}", self.sees)
        return super().read()


def serial_table(game, *, sensing: str = "occupancy", history=(), state=None, board: PhysicalBoard | None = None,
                 device: Mapping | None = None, led_count: int = 0, sim_clock=None, start: bool = True,
                 **session_kwargs):
    """A game at a simulated table whose board is read by a virtual sensor board over a pty.

    Returns (table, rig). ``device``: options for the virtual device (bounce_ms, bit_errors,
    drop_bytes, seed, ...). ``pixels="device"``: the session's LEDs are the board's own
    (``led_count`` of them, sent over the protocol). The other keyword arguments go to the
    Session, as with ``Table``.
    """
    from ..session import Session, SimClock
    from .scenario import Table

    g = engine.load(game) if isinstance(game, str) else game
    clock = sim_clock or SimClock()
    if board is None:
        st = state if state is not None else g.new()
        for step in history:
            st = st.play(step)
        board = PhysicalBoard.of_state(g, st)
    rig = SensorRig(board, sensing=sensing, led_count=led_count, clock=clock, **dict(device or {}))
    reader = rig.open()
    if session_kwargs.get("pixels") == "device":
        from ..sensor_leds import BoardPixels

        session_kwargs["pixels"] = BoardPixels(rig.link, led_count)
    table = Table(g, "occupancy", state=state, history=history, board=board, sim_clock=clock, start=False,
                  **session_kwargs)
    # Table knows the camera and the in-process grid by name; the serial reader takes their place.
    table.reader = reader
    table.frame_s = reader.frame_s
    table.session = Session(g, reader, state=state, history=history, buttons=table.buttons, now=table.time,
                            **session_kwargs)
    if start:
        table.session.start()
    return table, rig
