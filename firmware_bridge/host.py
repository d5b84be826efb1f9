"""The host's side of a sensor board: open the port, shake hands, keep an exact copy of the cells.

    link = SensorLink("/dev/ttyACM0")        # or SensorLink() to find the board by its USB id
    info = link.open()                       # DeviceError (says what to do) if it cannot work
    while playing:
        link.poll(0.01)                      # never raises; waits up to 10 ms for bytes
        if link.ready:
            cells = link.cells               # a state per cell (wire.EMPTY, NORTH, SOUTH, FAULT)
        else:
            print(link.problem)              # "the sensor board is unplugged ..."

What keeps the copy exact (docs/protocol.md has the reasoning):

- Bytes that are not a good frame are skipped up to the next zero byte (``wire.Decoder``).
- Every frame carries a sequence number: a gap means frames were lost (``stats["lost"]``).
- Every FULL_SCAN, CHANGES and HEARTBEAT carries the board version, which the device counts up
  with each change report. A CHANGES whose version is not one more than the host's, or any
  other frame whose version differs from it, means a change report was lost: the copy is
  marked out of step (``ready`` is False, ``problem`` says why) and a full scan is asked for
  at once, and again every ``rescan_s`` until one arrives. The device sends one every
  full-scan period anyway, so even if every request is lost the copy is right again within one
  full-scan period of the next frame that gets through.
- Nothing heard for ``silence_s``: asked who is there (QUERY); nothing again: the port is closed
  and opened afresh.
- The port failing (the cable pulled out): closed, and reopened every ``reopen_s`` (found again
  by its name or its USB id); the handshake is repeated and the board must be the same one
  (rows, columns, sensing kind). A board that restarted (a new HELLO, its watchdog) is told
  its LEDs again.
- A device that speaks another protocol version is refused with the firmware to flash.

LED frames (``show``) are sent at most as fast as the line can carry them (the latest frame
wins) and sent again if the device does not acknowledge them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import wire
from .line import CHECK_ADVICE, Heard, LineHealth

__all__ = ["DeviceError", "DeviceInfo", "NoDevice", "ProtocolMismatch", "SensorLink", "USB_IDS", "find_port",
           "flash_advice"]

# (vendor, product) USB ids of boards running the firmware: a Raspberry Pi Pico (RP2040) under
# MicroPython, and the same chip with the Pico SDK's default CDC id.
USB_IDS: tuple[tuple[int, int], ...] = ((0x2E8A, 0x0005), (0x2E8A, 0x000A))


class DeviceError(RuntimeError):
    """A sensor board that cannot be used, with a message that says what to do."""


class NoDevice(DeviceError):
    """No port given and no sensor board found by its USB id, or the port cannot be opened."""


class ProtocolMismatch(DeviceError):
    """The device speaks another version of the protocol."""


def flash_advice() -> str:
    return ("flash the firmware that comes with this arbiter: `arbiter sensor-firmware BOARD --out pico/`, then "
            "`mpremote cp pico/*.py :` (docs/protocol.md, section Flashing)")


@dataclass(frozen=True)
class DeviceInfo:
    """What a board said of itself in its HELLO."""

    rows: int
    cols: int
    sensing: str  # "occupancy" or "polarity"
    led_count: int
    scan_hz: int
    full_scan_ms: int
    boot_id: int
    firmware: str
    port: str

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    def same_board(self, other: DeviceInfo) -> bool:
        return (self.rows, self.cols, self.sensing) == (other.rows, other.cols, other.sensing)

    def describe(self) -> str:
        return (f"{self.rows}x{self.cols} {self.sensing} grid, {self.led_count} LEDs, {self.scan_hz} scans/s, "
                f"firmware {self.firmware!r}")


def find_port(usb_ids: Sequence[tuple[int, int]] = USB_IDS) -> str:
    """The port of the first USB serial device with one of ``usb_ids``; NoDevice names what is there."""
    from serial.tools import list_ports

    ports = list(list_ports.comports())
    for p in ports:
        if (p.vid, p.pid) in usb_ids:
            return p.device
    wanted = ", ".join(f"{v:04x}:{p:04x}" for v, p in usb_ids)
    seen = "; ".join(f"{p.device} ({p.description})" for p in ports) or "none"
    raise NoDevice(f"no sensor board found on USB (looked for USB ids {wanted}: a Raspberry Pi Pico with "
                   f"arbiter's firmware); serial ports here: {seen}. Plug the board in, or give its port with --port")


class SensorLink:
    """One sensor board on one serial port (see the module notes).

    ``port``: a port name (``/dev/ttyACM0``, ``COM3``, a virtual device's name); None finds the
    board by ``usb_ids``. ``now``: the clock (seconds) for timeouts, injectable for lockstep
    simulations. ``opener(port, baud)`` makes the pyserial object (tests pass their own).
    """

    # The handshake asks again after 0.1 s, 0.2 s more, then every 0.25 s: quick on a clean line
    # (a HELLO answers the first QUERY in a few ms), and on a noisy one about 25 tries in 6 s, where
    # one HELLO in three arriving whole at 3% of bytes spoilt is plenty (docs/protocol.md).
    QUERY_GAPS = (0.1, 0.2, 0.25)
    BAD_CELLS_SHOWN_S = 10.0  # how long a report naming cells the board does not have stays on the status

    def __init__(self, port: str | None = None, *, baud: int = 115200, usb_ids=USB_IDS, handshake_s: float = 6.0,
                 reopen_s: float = 0.5, silence_s: float = 1.5, rescan_s: float = 0.02, idle_s: float = 0.02,
                 now: Callable[[], float] = time.monotonic, opener: Callable[[str, int], Any] | None = None):
        self.port_name = port
        self.baud = baud
        self.usb_ids = tuple(usb_ids)
        self.handshake_s = handshake_s
        self.reopen_s = reopen_s
        self.silence_s = silence_s
        self.rescan_s = rescan_s
        self.idle_s = idle_s
        self.now = now
        self.opener = opener or _open_serial
        self.serial = None
        self.port: str | None = None
        self.info: DeviceInfo | None = None
        self.health = LineHealth()
        self.heard = Heard()
        self.decoder = self._decoder()
        self.cells: list[int] = []
        self.board_version = 0
        self.in_sync = False  # the copy matches the device's board (as of its last frame)
        self.suspect = False  # a damaged or missing frame since the last full scan: maybe a change report
        self.hello_seen = False
        self.problem: str | None = "not opened"
        self.refused: str | None = None  # a device we must not talk to (another protocol version)
        self.device_stats: dict[str, int] = {}
        self.stats = {"frames": 0, "lost": 0, "resyncs": 0, "reconnects": 0, "resets": 0, "nacks": 0,
                      "device_errors": 0, "bad_payloads": 0, "scan_requests": 0, "led_frames": 0, "led_resends": 0,
                      "version_frames": 0, "watchdog_restarts": 0, "rx_bytes": 0, "tx_bytes": 0, "bad_cells": 0,
                      "seq_jumps": 0, "silent_restarts": 0, "echoes": 0}
        self.bad_cells: list[int] = []  # the latest cells named in reports that the board does not have
        self._bad_cells_at: float | None = None
        self.last_errors: list[str] = []
        self.changed_at: float | None = None  # when the copy last changed (host clock)
        self.frames_at: list[float] = []  # arrival times of recent frames, for a rate
        self._seq = 0  # our next sequence number
        self._expect: int | None = None  # the device's next sequence number
        self._last_rx = 0.0
        self._last_byte = 0.0
        self._queried_at = 0.0
        self._queries = 0  # QUERYs sent since the port was opened (their spacing backs off)
        self._board_ms: int | None = None  # the board's clock (ms since boot) in its last frame
        self._handshake_until = 0.0
        self._scan_asked = -1.0
        self._next_open = 0.0
        self._leds: list[tuple[int, int, int]] | None = None
        self._brightness: int | None = None
        self._led_dirty = False
        self._led_pending: dict[int, float] = {}
        self._tx_busy_until = 0.0
        self._closed_by_user = False

    # ------------------------------------------------------------------ state
    @property
    def connected(self) -> bool:
        return self.serial is not None

    @property
    def ready(self) -> bool:
        """The copy of the cells can be trusted: connected, introduced, and in step."""
        return self.serial is not None and self.hello_seen and self.in_sync and self.refused is None

    def error_count(self) -> int:
        d = self.decoder
        return d.errors() + self.stats["lost"] + self.stats["bad_payloads"]

    def frame_rate(self, window: float = 2.0) -> float:
        t = self.now()
        recent = [x for x in self.frames_at if t - x <= window]
        return len(recent) / window

    # ------------------------------------------------------------------ opening
    def open(self) -> DeviceInfo:
        """Open the port and shake hands, waiting up to ``handshake_s`` for the board's HELLO and
        first full scan (asking again with backoff). Raises NoDevice, ProtocolMismatch or
        DeviceError saying what the port did instead and what to do."""
        self.begin()
        while True:
            self.poll(0.02)
            info = self.handshake()
            if info is not None:
                return info

    def begin(self) -> None:
        """Open the port and send the first QUERY; ``handshake()`` then says how it went."""
        self._closed_by_user = False
        self._connect(raise_errors=True)
        self._handshake_until = self.now() + self.handshake_s

    def handshake(self) -> DeviceInfo | None:
        """After ``begin()`` and some ``poll``s: the board's info once in step, None while the
        handshake may still succeed, or an exception that names what the port did."""
        if self.refused is not None:
            raise ProtocolMismatch(self.refused)
        if self.ready:
            return self.info
        if self.serial is None:
            raise NoDevice(f"the sensor board on {self.port} went away during the handshake: {self.problem}")
        if self.now() < self._handshake_until:
            return None
        message = self.handshake_failure()
        self.close()
        raise DeviceError(message)

    def handshake_failure(self) -> str:
        """Why the handshake has not succeeded, from what the port sent, with what to do."""
        port, secs, t = self.port, f"{self.handshake_s:g} s", self.now()
        noisy = self.health.noisy(t)
        if self.hello_seen:
            if noisy:
                return (f"the sensor board on {port} said hello, but no scan of its sensors arrived whole in {secs}: "
                        f"the line is too noisy ({self.health.describe(t)}): {CHECK_ADVICE}")
            return (f"the sensor board on {port} said hello but sent no scan of its sensors in {secs}; restart it "
                    f"(unplug it and plug it in)")
        kind, words = self.heard.verdict(self.health, t)
        if kind == "silence":
            return (f"no answer from {port} in {secs}: {words}. Is the sensor board plugged in and running? If it "
                    f"is a Pico without arbiter's firmware, {flash_advice()}")
        if kind == "echo":
            return (f"{port} answered with {words}: that is a loopback or a terminal, not a sensor board; give the "
                    f"board's port with --port")
        if kind == "micropython":
            return f"{port} answered with {words}: {flash_advice()}, then `mpremote reset`"
        if kind == "text":
            return (f"{port} answered with {words}: another device or program is on that port; give the sensor "
                    f"board's port with --port (if it is the board, {flash_advice()})")
        if kind == "noise":
            return f"the sensor board on {port} answers, but the line is too noisy: {words}; {CHECK_ADVICE}"
        return (f"{port} answered with {words}: give the sensor board's port with --port and check the baud rate "
                f"(115200); if it is the board, {flash_advice()}")

    def _connect(self, raise_errors: bool = False) -> bool:
        try:
            port = self.port_name or find_port(self.usb_ids)
            ser = self.opener(port, self.baud)
        except NoDevice as exc:
            if raise_errors:
                raise
            self.problem = f"the sensor board is unplugged ({exc}); plug it back in"
            return False
        except Exception as exc:  # serial.SerialException, OSError: no such port, busy, no permission
            msg = f"cannot open {self.port_name or 'the sensor board'}: {exc}"
            if raise_errors:
                raise NoDevice(msg + _port_advice(exc)) from None
            self.problem = f"the sensor board is unplugged ({msg}); plug it back in"
            return False
        self.serial = ser
        self.port = port
        try:
            ser.reset_input_buffer()
        except Exception:
            pass
        self.decoder = self._decoder()
        self.heard = Heard()
        self._expect = None
        self._board_ms = None
        self._queries = 0
        self.hello_seen = False
        self.in_sync = False
        self._last_rx = self._last_byte = self.now()
        self.problem = "waiting for the sensor board to say hello"
        self._query()
        return True

    def _decoder(self) -> wire.Decoder:
        dec = wire.Decoder()
        dec.observer = self._observe
        return dec

    def _observe(self, nbytes: int, seq: int | None) -> None:
        try:
            self.health.seen(nbytes, seq, self.now())
        except Exception as exc:  # pragma: no cover - the estimate is advice; a bug in it must not stop a game
            self._note(f"the line-health estimate failed: {exc}")

    def close(self) -> None:
        """Close the port (the board keeps running). Safe to call twice."""
        self._closed_by_user = True
        self._drop("closed")

    def _drop(self, why: str) -> None:
        ser, self.serial = self.serial, None
        self.in_sync = False
        self.suspect = False
        self.hello_seen = False
        self.problem = why
        self._next_open = self.now() + self.reopen_s
        self._led_pending.clear()
        if ser is not None:
            try:
                ser.close()
            except Exception:
                pass

    # ------------------------------------------------------------------ sending
    def _write(self, msg_type: int, payload: bytes = b"") -> int | None:
        if self.serial is None:
            return None
        seq = self._seq
        data = wire.frame(msg_type, seq, payload)
        self._seq = (seq + 1) & 0xFFFF
        if not self.hello_seen:
            self.heard.wrote(data)
        try:
            self.serial.write(data)
            self.stats["tx_bytes"] += len(data)
        except Exception as exc:
            if type(exc).__name__ == "SerialTimeoutException":
                return seq  # the line is full: as good as lost, and resent if it mattered
            self._lost_device(exc)
            return None
        t = self.now()
        self._tx_busy_until = max(t, self._tx_busy_until) + len(data) * 10.0 / self.baud
        return seq

    def _query(self) -> None:
        self._queried_at = self.now()
        self._queries += 1
        self._write(wire.QUERY)

    def _query_due(self, t: float) -> bool:
        """Before the HELLO: time to ask again (0.1 s, then 0.2 s more, then every 0.25 s)."""
        gaps = self.QUERY_GAPS
        return t - self._queried_at >= gaps[min(self._queries - 1, len(gaps) - 1)] - 1e-9

    def request_scan(self) -> None:
        """Ask for a full scan now (the answer comes through ``poll``)."""
        self._scan_asked = self.now()
        self.stats["scan_requests"] += 1
        self._write(wire.SCAN_REQUEST)

    def show(self, frame: Sequence[tuple[int, int, int]]) -> None:
        """Show ``frame`` (an (r, g, b) per LED, from LED 0) on the board's own LEDs.

        Sent as soon as the line is free (a newer frame replaces one still waiting), and sent
        again until the board acknowledges it. Never raises; an unplugged board gets the latest
        frame when it is back.
        """
        self._leds = [tuple(int(v) & 255 for v in c) for c in frame]
        self._led_dirty = True
        self._send_leds()

    def set_brightness(self, level: float) -> None:
        """The board's overall LED brightness, 0..1 (on top of whatever the frames carry)."""
        self._brightness = max(0, min(255, round(level * 255)))
        self._write(wire.BRIGHTNESS, wire.brightness_payload(self._brightness))

    def _send_leds(self) -> None:
        if not self._led_dirty or self._leds is None or not self.ready or self.info is None:
            return
        t = self.now()
        if t < self._tx_busy_until:
            return  # the line is still busy with the last frame; the newest goes when it is free
        leds = self._leds[:self.info.led_count]
        if not leds:
            self._led_dirty = False
            return
        self._led_dirty = False
        self.stats["led_frames"] += 1
        for start in range(0, len(leds), 100):
            chunk = leds[start:start + 100]
            rgb = bytes(v for c in chunk for v in c)
            seq = self._write(wire.LED_FRAME, wire.led_payload(start, rgb))
            if seq is not None:
                self._led_pending[seq] = t

    # ------------------------------------------------------------------ receiving
    def poll(self, wait: float = 0.0) -> bool:
        """Read what has arrived (waiting up to ``wait`` s for the first byte), update the copy,
        and do what is due (ask for a scan, resend LEDs, reopen a lost port). Never raises.
        Returns True if any frame arrived."""
        t = self.now()
        if self.serial is None:
            if self._closed_by_user or self.refused is not None or t < self._next_open:
                if wait:
                    time.sleep(min(wait, 0.05))
                return False
            self._next_open = t + self.reopen_s
            if not self._connect():
                if wait:
                    time.sleep(min(wait, 0.05))
                return False
            self.stats["reconnects"] += 1
        got = False
        try:
            data = self._read(wait)
        except Exception as exc:  # the port failed: the cable is out
            self._lost_device(exc)
            return False
        if data:
            self._last_byte = self.now()
            self.stats["rx_bytes"] += len(data)
            if not self.hello_seen:
                self.heard.received(data)
            damaged = self.decoder.errors()
            for frame in self.decoder.feed(data):
                got = True
                self._frame(*frame)
            if self.decoder.errors() != damaged and self.hello_seen:
                self._suspect()
        self._due(self.now())
        return got

    def _read(self, wait: float) -> bytes:
        ser = self.serial
        n = ser.in_waiting
        if n:
            return ser.read(n)
        if wait <= 0:
            return b""
        ser.timeout = wait
        first = ser.read(1)
        if not first:
            return b""
        n = ser.in_waiting
        return first + (ser.read(n) if n else b"")

    def _lost_device(self, exc: BaseException) -> None:
        self._drop(f"the sensor board is unplugged ({_short(exc)}); plug it back in")

    def _frame(self, version: int, msg_type: int, seq: int, payload: bytes) -> None:
        t = self.now()
        self._last_rx = t
        self.stats["frames"] += 1
        self.frames_at.append(t)
        if len(self.frames_at) > 400:
            del self.frames_at[:200]
        if version != wire.VERSION:
            self.stats["version_frames"] += 1
            self.refused = (f"the sensor board on {self.port} speaks protocol version {version}, and this arbiter "
                            f"speaks version {wire.VERSION}: {flash_advice()}"
                            + (" (or update arbiter, if the board's firmware is the newer one)"
                               if version > wire.VERSION else ""))
            self.problem = self.refused
            return
        if msg_type in (wire.QUERY, wire.SCAN_REQUEST, wire.LED_FRAME, wire.BRIGHTNESS):
            # the host's own kinds of frame: what we sent is coming back (a loopback, an echoing tty)
            self.stats["echoes"] += 1
            self.heard.echoes += 1
            return
        if msg_type == wire.HELLO:
            self._hello(seq, payload)
            return
        self._check_seq(seq)
        if not self.hello_seen:
            self.heard.ours += 1
            if self._query_due(t):
                self._query()
            return
        try:
            if msg_type == wire.FULL_SCAN:
                version_b, board_ms, cells = wire.parse_full_scan(payload, self.info.cells)
                self._board_ms = board_ms  # a full scan is the whole truth, restart or not
                if cells != self.cells:
                    self.changed_at = t
                self.cells = cells
                self.board_version = version_b
                self.suspect = False
                if not self.in_sync:
                    self.in_sync = True
                    self.problem = None
                    self._led_dirty = self._leds is not None
            elif msg_type == wire.CHANGES:
                version_b, board_ms, changes = wire.parse_changes(payload)
                if self._restarted(board_ms):
                    return
                bad = []
                for cell, state in changes:
                    if 0 <= cell < len(self.cells):
                        self.cells[cell] = state
                    else:
                        bad.append(cell)
                self.changed_at = t
                step = version_b != (self.board_version + 1) & 0xFFFF
                self.board_version = version_b
                if bad:
                    self._set_aside(bad, t)
                elif step:
                    self._out_of_step()
            elif msg_type == wire.HEARTBEAT:
                version_b, uptime, scans, rx_ok, rx_bad = wire.parse_heartbeat(payload)
                self.device_stats = {"uptime_ms": uptime, "scans": scans, "rx_ok": rx_ok, "rx_bad": rx_bad}
                if self._restarted(uptime):
                    return
                if version_b != self.board_version:
                    self._out_of_step()
            elif msg_type == wire.ACK:
                self._led_pending.pop(wire.parse_ack(payload), None)
            elif msg_type == wire.NACK:
                nseq, reason = wire.parse_nack(payload)
                self._led_pending.pop(nseq, None)
                self.stats["nacks"] += 1
                self._note(f"the board refused frame {nseq} (reason {reason})")
            elif msg_type == wire.ERROR:
                code, text = wire.parse_error(payload)
                self.stats["device_errors"] += 1
                self._note(f"the board reports error {code}: {text}")
        except wire.WireError as exc:
            self.stats["bad_payloads"] += 1
            self._note(f"a {wire.TYPE_NAMES.get(msg_type, msg_type)} frame made no sense: {exc}")

    def _hello(self, seq: int, payload: bytes) -> None:
        try:
            rows, cols, sensing, leds, hz, full_ms, boot, fw, flags = wire.parse_hello(payload)
        except wire.WireError as exc:
            self.stats["bad_payloads"] += 1
            self._note(f"a hello made no sense: {exc}")
            return
        if sensing not in wire.SENSING_NAMES or rows < 1 or cols < 1:
            self.refused = (f"the board on {self.port} describes itself as {rows}x{cols} with sensing kind {sensing}, "
                            f"which this arbiter does not know: {flash_advice()}")
            self.problem = self.refused
            return
        info = DeviceInfo(rows, cols, wire.SENSING_NAMES[sensing], leds, hz, full_ms, boot, fw, self.port or "")
        if self.info is not None and not info.same_board(self.info):
            self.refused = (f"a different sensor board is on {self.port} now ({info.describe()}; the game started with "
                            f"a {self.info.describe()}): plug the game's board back in")
            self.problem = self.refused
            return
        if self.info is not None and self.hello_seen and info.boot_id != self.info.boot_id:
            self.stats["resets"] += 1
            self._note("the board restarted")
        if flags & wire.FLAG_WATCHDOG and (self.info is None or info.boot_id != self.info.boot_id):
            self.stats["watchdog_restarts"] += 1
            self._note("the board was restarted by its watchdog (its loop stalled); tell the firmware's author")
        self.info = info
        self.hello_seen = True
        self._expect = (seq + 1) & 0xFFFF
        self._board_ms = None
        if len(self.cells) != info.cells:
            self.cells = [wire.EMPTY] * info.cells
        self.in_sync = False  # the full scan that follows a hello puts us in step
        self.problem = "waiting for the sensor board's first scan"
        self._led_dirty = self._leds is not None
        if self._brightness is not None:
            self._write(wire.BRIGHTNESS, wire.brightness_payload(self._brightness))

    def _suspect(self) -> None:
        """A frame went missing or arrived damaged: it may have been a change report. The copy is
        probably still right (most frames are full scans and heartbeats), so it stays in use, but
        a full scan is asked for at once rather than waiting for the next periodic one."""
        self.suspect = True
        if self.now() - self._scan_asked >= self.rescan_s - 1e-6:
            self.request_scan()

    def _check_seq(self, seq: int) -> None:
        """Every frame the board sends is numbered one more than the last (mod 65536). A number
        ahead of the one expected means frames were lost; any other (a repeat, one behind, a
        board that restarted and counts from 0 again) means the stream is not the one we were
        following. Either way a change report may be among them: ask for a full scan."""
        expect = self._expect
        self._expect = (seq + 1) & 0xFFFF
        if expect is None or seq == expect:
            return
        gap = (seq - expect) & 0xFFFF
        if gap < 1024:
            self.stats["lost"] += gap
        else:
            self.stats["lost"] += 1
            self.stats["seq_jumps"] += 1
        if self.hello_seen:
            self._suspect()

    def _restarted(self, board_ms: int) -> bool:
        """The board's clock (ms since it booted) went backwards: it restarted and its HELLO was
        lost, so its sequence numbers and board version count from 0 again and could match ours
        by chance. Out of step, and ask who is there (its HELLO tells its LEDs again)."""
        last, self._board_ms = self._board_ms, board_ms
        if last is None or board_ms >= last:
            return False
        self.stats["silent_restarts"] += 1
        self._note("the board restarted without a hello reaching us (its clock went back)")
        self._out_of_step("the sensor board restarted; reading the whole board again")
        self._query()
        return True

    def _set_aside(self, cells: list[int], t: float) -> None:
        """A change report named cells the board does not have: set them aside, count them, say
        so, and read the whole board again (the report that carried them is not to be trusted)."""
        self.stats["bad_cells"] += len(cells)
        self.bad_cells = (self.bad_cells + cells)[-8:]
        self._bad_cells_at = t
        names = ", ".join(str(c) for c in cells[:4]) + (" ..." if len(cells) > 4 else "")
        self._note(f"a change report named cells the board does not have ({names})")
        self._out_of_step(f"the sensor board reported cells it does not have ({names}); reading the whole board "
                          f"again")

    def _out_of_step(self, why: str = "a report from the sensor board was lost; reading the whole board again"
                     ) -> None:
        if self.in_sync:
            self.stats["resyncs"] += 1
        self.in_sync = False
        self.problem = why
        self.request_scan()

    @property
    def warning(self) -> str | None:
        """What a player should know about the link while it works: a line too noisy to trust
        for long, or a board naming cells it does not have. None when all is well."""
        t = self.now()
        out = []
        if self.serial is not None and self.health.noisy(t):
            out.append(f"the line to the sensor board is too noisy ({self.health.describe(t)}): {CHECK_ADVICE}")
        if self._bad_cells_at is not None and t - self._bad_cells_at <= self.BAD_CELLS_SHOWN_S:
            out.append(f"the sensor board reported cells it does not have ({', '.join(map(str, self.bad_cells))}; "
                       f"{self.stats['bad_cells']} in all): its firmware does not fit its matrix: {flash_advice()}")
        return "; ".join(out) or None

    def _note(self, text: str) -> None:
        self.last_errors.append(text)
        del self.last_errors[:-20]

    def _due(self, t: float) -> None:
        if self.serial is None or self.refused is not None:
            return
        if not self.hello_seen:
            # the handshake: ask again with backoff; the port stays open (a noisy line is not a
            # silent one, and reopening it would only lose what is on its way)
            if self.decoder.buffer and t - self._last_byte > self.idle_s:
                self.decoder.flush()
            if t >= self._handshake_until + self.silence_s and t - self._last_byte > 2 * self.silence_s:
                self._drop("the sensor board does not answer; opening its port again")
                return
            if self._query_due(t):
                self._query()
            return
        if t - self._last_rx > self.silence_s:
            if t - self._last_rx > 2 * self.silence_s and t >= self._handshake_until + self.silence_s:
                self._drop("the sensor board stopped answering; opening its port again")
                return
            if t - self._queried_at > self.silence_s / 2:
                self.problem = "the sensor board has gone quiet"
                self.in_sync = False
                self._query()
            return
        if self.decoder.buffer and t - self._last_byte > self.idle_s and self.decoder.flush() and self.hello_seen:
            self._suspect()  # a frame's end never came: its zero byte was lost on the way
        if self.hello_seen and (self.suspect or not self.in_sync) and t - self._scan_asked >= self.rescan_s - 1e-6:
            self.request_scan()
        if self._led_pending and self.ready:
            oldest = min(self._led_pending.values())
            if t - oldest > 0.3:
                self._led_pending.clear()
                self._led_dirty = True
                self.stats["led_resends"] += 1
        self._send_leds()


def _open_serial(port: str, baud: int):
    import serial

    return serial.Serial(port, baud, timeout=0, write_timeout=0.5)


def _short(exc: BaseException) -> str:
    text = str(exc) or exc.__class__.__name__
    return text if len(text) < 120 else text[:117] + "..."


def _port_advice(exc: BaseException) -> str:
    text = str(exc).lower()
    if "permission" in text:
        return " (add yourself to the dialout group: `sudo usermod -aG dialout $USER`, then log in again)"
    if "busy" in text or "resource temporarily unavailable" in text:
        return " (another program has the port open: close it, e.g. an `mpremote` or `sensor-monitor` session)"
    if "no such file" in text or "could not open" in text:
        return " (is it plugged in? `arbiter sensor-monitor` without --port finds a board by its USB id)"
    return ""
