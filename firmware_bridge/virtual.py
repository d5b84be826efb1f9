"""A sensor board that exists only in software, speaking the protocol on a pseudo-terminal.

The host opens it exactly as it opens a Pico: by a port name, through pyserial, on a real tty
(``os.openpty``). Its protocol logic is the firmware's own (``device.DeviceCore``); what stands
in for the hardware is the sensors (``cells()``: a state per cell, read every scan) and the wire
between the board and the host, which can be made as bad as a long cable near a motor:

``scan_hz``      scans a second (100 by default, as the firmware)
``bounce_ms``    after a cell changes, its raw reading flickers between old and new this long
``bit_errors``   the chance that a byte sent is hit by noise (one of its bits flipped)
``drop_bytes``   the chance that a byte sent never arrives
``baud``         bytes leave at this line rate (10 bits a byte), so a frame arrives whole only
                 once its last byte could have crossed the wire
``unplug()``, ``replug()``, ``reset()``  the cable pulled out and put back (the port goes away
                 and comes back under the same name), a watchdog restart

``port`` is a stable name (a symbolic link in a private folder to the current ``/dev/pts/N``),
as udev gives a USB device a stable ``/dev/serial/by-id/...`` name, so a replugged device is
found again under the same name.

Two ways to run it:

- ``start()``: a thread scans in real time (``arbiter sensor-sim``, the benchmark);
- ``step(now)``: the caller moves its clock (lockstep with a simulated table), and the whole
  run is deterministic for a seed. ``arbiter.sim.sensor`` uses this for the tests.
"""

from __future__ import annotations

import os
import random
import select
import tempfile
import threading
import time
import tty
from collections import deque
from collections.abc import Callable, Sequence

from . import wire
from .device import TICKS_MASK, DeviceCore, elapsed

__all__ = ["VirtualDevice"]


class VirtualDevice:
    """A virtual sensor board of ``rows`` x ``cols`` cells; ``cells()`` reads the sensors."""

    def __init__(self, rows: int, cols: int, cells: Callable[[], Sequence[int]] | None = None, *,
                 sensing: str = "occupancy", led_count: int = 0, scan_hz: float = 100.0, full_scan_ms: int = 250,
                 heartbeat_ms: int = 1000, lockout: int = 3, bounce_ms: float = 0.0, bit_errors: float = 0.0,
                 drop_bytes: float = 0.0, baud: int = 115200, protocol_version: int = wire.VERSION,
                 firmware: str = "virtual 1.0", seed: int = 0, folder: str | None = None):
        if sensing not in ("occupancy", "polarity"):
            raise ValueError(f"sensing is occupancy or polarity, not {sensing!r}")
        if not 1 <= rows <= 255 or not 1 <= cols <= 255:
            raise ValueError("a sensor matrix has 1 to 255 rows and columns")
        self.rows, self.cols = rows, cols
        self.count = rows * cols
        self.cells = cells or (lambda: [0] * self.count)
        self.sensing = sensing
        self.led_count = led_count
        self.scan_hz = scan_hz
        self.full_scan_ms = full_scan_ms
        self.heartbeat_ms = heartbeat_ms
        self.lockout = lockout
        self.bounce_ms = bounce_ms
        self.bit_errors = bit_errors
        self.drop_bytes = drop_bytes
        self.baud = baud
        self.protocol_version = protocol_version
        self.firmware = firmware
        self.rng = random.Random(seed)
        self._own_folder = folder is None
        self.folder = folder or tempfile.mkdtemp(prefix="arbiter-sensor-")
        self.port = os.path.join(self.folder, "sensor-board")
        self.plugged = False
        self.boots = 0
        self.core: DeviceCore | None = None
        self.stats = {"frames": 0, "bytes": 0, "dropped": 0, "corrupted": 0, "overflow": 0, "rx_bytes": 0}
        self._master = self._slave = -1
        self._queue: deque[tuple[float, bytes]] = deque()
        self._busy_until = 0.0
        self._next_scan = 0.0
        self._now = 0.0
        self._last_phys: list[int] | None = None
        self._bounce_until = [0.0] * self.count
        self._bounce_from = [0] * self.count
        self._thread: threading.Thread | None = None
        self._running = False
        self.lock = threading.RLock()  # held while the device works; hold it to change things from outside
        self.changed_at: float | None = None  # when cells() last differed from the scan before (device clock)
        self.on_leds: Callable[[VirtualDevice], None] | None = None
        self._moved_at: float | None = None

    def report_cells(self, changes: Sequence[tuple[int, int]]) -> None:
        """Send a change report of ``changes`` ((cell, state) pairs) as the firmware would, board
        version and all, whatever the cells: a firmware whose matrix is not the board's names
        cells the board does not have (999, 65535), and this is how a test or ``sensor-sim``'s
        ``ghost`` command makes one."""
        with self.lock:
            if self.core is None:
                return
            core = self.core
            core.board_version = (core.board_version + 1) & 0xFFFF
            core.send(wire.CHANGES, wire.changes_payload(core.board_version, elapsed(self._ms(self._now), core.booted),
                                                         list(changes)))

    def moved(self, when: float) -> None:
        """The sensors changed at ``when`` (the device's clock): their contacts bounce from then."""
        self._moved_at = when

    # ------------------------------------------------------------------ what the LEDs show
    @property
    def leds(self) -> list[tuple[int, int, int]]:
        """The LED colours the host last sent (brightness applied as the device applies it)."""
        core = self.core
        if core is None:
            return [(0, 0, 0)] * self.led_count
        b, raw = core.brightness, core.leds
        return [(raw[i] * b // 255, raw[i + 1] * b // 255, raw[i + 2] * b // 255) for i in range(0, len(raw), 3)]

    # ------------------------------------------------------------------ plugging
    def plug(self, now: float | None = None, *, watchdog: bool = False) -> str:
        """Connect (a new pty under the same port name) and boot; returns the port name."""
        with self.lock:
            if self.plugged:
                return self.port
            self._master, self._slave = os.openpty()
            tty.setraw(self._slave)  # no echo, no line editing: bytes pass as they are
            os.set_blocking(self._master, False)
            tmp = self.port + ".new"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(os.ttyname(self._slave), tmp)
            os.replace(tmp, self.port)
            self.plugged = True
            self._boot(self._clock() if now is None else now, watchdog=watchdog)
            return self.port

    def unplug(self) -> None:
        """Pull the cable: the port disappears, the host's reads fail, nothing more is sent."""
        with self.lock:
            if not self.plugged:
                return
            self.plugged = False
            for fd in (self._master, self._slave):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self._master = self._slave = -1
            self._queue.clear()
            try:
                os.unlink(self.port)
            except OSError:
                pass
            self.core = None

    def replug(self, now: float | None = None) -> str:
        self.unplug()
        return self.plug(now)

    def reset(self, now: float | None = None, *, watchdog: bool = True) -> None:
        """Restart the firmware (as its watchdog would): LEDs off, counters from zero, HELLO again."""
        with self.lock:
            if self.plugged:
                self._queue.clear()
                self._boot(self._clock() if now is None else now, watchdog=watchdog)

    def _boot(self, now: float, watchdog: bool = False) -> None:
        self.boots += 1
        self._now = now
        self.core = DeviceCore(self.rows, self.cols, 1 if self.sensing == "polarity" else 0, self.led_count,
                               self._transmit, scan_hz=int(self.scan_hz), full_scan_ms=self.full_scan_ms,
                               heartbeat_ms=self.heartbeat_ms, firmware=self.firmware,
                               boot_id=self.rng.randrange(1 << 16), lockout=self.lockout,
                               version=self.protocol_version, on_leds=self._leds_changed,
                               on_brightness=self._leds_changed)
        raw = self._raw(now)
        self._busy_until = now
        self.core.boot(self._ms(now), raw, (wire.ERR_WATCHDOG, "restarted by the watchdog") if watchdog else None)
        self._next_scan = now + 1.0 / self.scan_hz

    def _leds_changed(self, core) -> None:
        if self.on_leds is not None:
            self.on_leds(self)

    # ------------------------------------------------------------------ the sensors
    def _raw(self, now: float) -> list[int]:
        phys = list(self.cells())
        if len(phys) != self.count:
            raise ValueError(f"cells() gave {len(phys)} states for a {self.rows}x{self.cols} matrix")
        last = self._last_phys
        if last is not None and self.bounce_ms > 0:
            # contacts bounce from the moment the piece arrived, not from the scan that noticed it
            began = self._moved_at if self._moved_at is not None and self._moved_at <= now else now
            for i, (a, b) in enumerate(zip(last, phys)):
                if a != b:
                    self._bounce_until[i] = began + self.bounce_ms / 1000.0
                    self._bounce_from[i] = a
        if last != phys:
            self.changed_at = now
        self._last_phys = phys
        if self.bounce_ms <= 0:
            return phys
        raw = list(phys)
        for i, until in enumerate(self._bounce_until):
            if until > now and self.rng.random() < 0.5:
                raw[i] = self._bounce_from[i]
        return raw

    # ------------------------------------------------------------------ the wire
    def _clock(self) -> float:
        return time.monotonic()

    @staticmethod
    def _ms(now: float) -> int:
        return int(now * 1000) & TICKS_MASK

    def _transmit(self, data: bytes) -> None:
        """A frame from the firmware: spoil it as the wire would, and queue it for its arrival time."""
        self.stats["frames"] += 1
        if self.bit_errors or self.drop_bytes:
            out = bytearray()
            for b in data:
                if self.drop_bytes and self.rng.random() < self.drop_bytes:
                    self.stats["dropped"] += 1
                    continue
                if self.bit_errors and self.rng.random() < self.bit_errors:
                    b ^= 1 << self.rng.randrange(8)
                    self.stats["corrupted"] += 1
                out.append(b)
            data = bytes(out)
        start = max(self._now, self._busy_until)
        self._busy_until = start + len(data) * 10.0 / self.baud
        self._queue.append((self._busy_until, data))

    def _flush(self, now: float) -> int:
        written = 0
        while self._queue and self._queue[0][0] <= now + 1e-9:
            _, data = self._queue.popleft()
            try:
                n = os.write(self._master, data)
            except BlockingIOError:  # nobody is reading and the tty's buffer is full
                n = 0
            except OSError:
                n = 0
            self.stats["overflow"] += len(data) - n
            self.stats["bytes"] += n
            written += n
        return written

    def _receive(self) -> int:
        got = 0
        while True:
            try:
                data = os.read(self._master, 4096)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:  # the host side is not open: nothing to read
                break
            if not data:
                break
            got += len(data)
            self.stats["rx_bytes"] += len(data)
            self.core.receive(data, self._ms(self._now))
        return got

    def take_input(self, total: int, timeout: float = 1.0) -> bool:
        """Read the host's bytes until ``total`` have arrived since the start (lockstep runs:
        the kernel passes bytes through a pty a moment after they are written)."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while self.plugged:
                self._receive()
                if self.stats["rx_bytes"] >= total:
                    return True
                if time.monotonic() > deadline:
                    return False
                select.select([self._master], [], [], 0.005)
        return False

    def pending(self) -> int:
        """Bytes queued on the wire that have not arrived yet."""
        return sum(len(d) for _, d in self._queue)

    def next_arrival(self) -> float | None:
        return self._queue[0][0] if self._queue else None

    # ------------------------------------------------------------------ running
    def step(self, now: float) -> int:
        """Run up to ``now`` (seconds on the caller's clock): read the host, scan, send what has
        arrived by then. Returns the bytes written to the port."""
        with self.lock:
            if not self.plugged:
                return 0
            if now < self._now:
                now = self._now
            period = 1.0 / self.scan_hz
            self._now = now
            self._receive()
            if self._next_scan < now - 10 * period:  # far behind (a paused clock): no catching up
                self._next_scan = now
            while self.plugged and self._next_scan <= now + 1e-9:
                t = self._next_scan
                self._now = t
                self.core.scan(self._raw(t), self._ms(t))
                self._next_scan = t + period
            self._now = now
            return self._flush(now) if self.plugged else 0

    def start(self) -> str:
        """Plug in and scan in real time on a thread of its own; returns the port name."""
        port = self.plug()
        if self._thread is None:
            self._running = True
            self._thread = threading.Thread(target=self._run, name="virtual-sensor-board", daemon=True)
            self._thread.start()
        return port

    def _run(self) -> None:
        while self._running:
            now = self._clock()
            with self.lock:
                if self.plugged:
                    self.step(now)
                    wake = min(self._next_scan, self.next_arrival() or self._next_scan)
                    fd = self._master
                else:
                    wake, fd = now + 0.01, -1
            delay = max(0.0, wake - self._clock())
            if fd >= 0:
                try:
                    select.select([fd], [], [], delay)
                except (OSError, ValueError):
                    time.sleep(delay)
            else:
                time.sleep(delay)

    def stop(self) -> None:
        """Stop the thread, unplug, and remove the port's folder."""
        self._running = False
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        self.unplug()
        if self._own_folder:
            try:
                os.rmdir(self.folder)
            except OSError:
                pass

    def __enter__(self) -> VirtualDevice:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
