"""The device's side of the protocol: what a sensor board says, when, and how it answers the host.

The same class runs in the Pico's firmware (``firmware/main.py``, MicroPython) and in the
virtual device on the host (``virtual.py``), so the virtual device the tests use *is* the
firmware's protocol logic, not a second copy of it. Plain Python for that reason (no
annotations, no dataclasses); time is passed in as milliseconds (``time.ticks_ms()`` on the
chip), compared modulo 2**30 as MicroPython's ticks are.

What the device sends:

- at boot, and whenever the host sends QUERY: HELLO, then a FULL_SCAN;
- after each scan that changed something: CHANGES (the cells and their new states), with the
  *board version* counted up by one; more than ``MAX_CHANGES`` at once go as a FULL_SCAN;
- every ``full_scan_ms``: a FULL_SCAN, whatever happened, so a change report lost on the way
  leaves the host wrong for one full-scan period at most;
- every ``heartbeat_ms``: HEARTBEAT (uptime, scans done, frames received good and bad);
- ACK or NACK for every host frame that asks something of it.

Every frame that carries the board version (FULL_SCAN, CHANGES, HEARTBEAT) lets the host check
that it has seen every change report: see ``host.py``.
"""

try:
    from . import debounce as _debounce
    from . import wire
except ImportError:  # on the Pico the modules sit side by side, outside any package
    import debounce as _debounce
    import wire

TICKS_MASK = (1 << 30) - 1
MAX_CHANGES = 64


def elapsed(now, then):
    """Milliseconds from ``then`` to ``now`` on a clock that wraps at 2**30 (MicroPython ticks)."""
    return (now - then) & TICKS_MASK


class DeviceCore:
    """A sensor board's protocol state. ``send(bytes)`` puts a finished frame on the wire.

    ``on_leds(core)`` is called after an LED frame changed ``leds`` (3 bytes per LED, RGB);
    ``on_brightness(core)`` after ``brightness`` changed.
    """

    def __init__(self, rows, cols, sensing, led_count, send, scan_hz=100, full_scan_ms=250, heartbeat_ms=1000,
                 firmware="", boot_id=0, lockout=3, version=wire.VERSION, on_leds=None, on_brightness=None):
        self.rows = rows
        self.cols = cols
        self.count = rows * cols
        self.sensing = sensing
        self.led_count = led_count
        self._send = send
        self.scan_hz = scan_hz
        self.full_scan_ms = full_scan_ms
        self.heartbeat_ms = heartbeat_ms
        self.firmware = firmware
        self.boot_id = boot_id & 0xFFFF
        self.version = version
        self.debouncer = _debounce.Debouncer(self.count, lockout)
        self.decoder = wire.Decoder()
        self.on_leds = on_leds
        self.on_brightness = on_brightness
        self.leds = bytearray(led_count * 3)
        self.brightness = 255
        self.seq = 0
        self.board_version = 0
        self.scans = 0
        self.rx_ok = 0
        self.booted = 0
        self.flags = 0
        self._last_full = 0
        self._last_beat = 0

    # ------------------------------------------------------------------ sending
    def send(self, msg_type, payload=b""):
        self._send(wire.frame(msg_type, self.seq, payload, self.version))
        self.seq = (self.seq + 1) & 0xFFFF

    def hello(self):
        self.send(wire.HELLO, wire.hello_payload(self.rows, self.cols, self.sensing, self.led_count, self.scan_hz,
                                                 self.full_scan_ms, self.boot_id, self.firmware, self.flags))

    def full_scan(self, now):
        self._last_full = now
        self.send(wire.FULL_SCAN, wire.full_scan_payload(self.board_version, elapsed(now, self.booted),
                                                         self.debouncer.state))

    def heartbeat(self, now):
        self._last_beat = now
        self.send(wire.HEARTBEAT, wire.heartbeat_payload(self.board_version, elapsed(now, self.booted), self.scans,
                                                         self.rx_ok, self.decoder.errors()))

    def error(self, code, text):
        self.send(wire.ERROR, wire.error_payload(code, text))

    # ------------------------------------------------------------------ the loop's three calls
    def boot(self, now, raw=None, error=None):
        """Start: take the first scan as the board as it is (no bounce to wait out), say HELLO."""
        self.booted = now
        if error is not None and error[0] == wire.ERR_WATCHDOG:
            self.flags |= wire.FLAG_WATCHDOG
        if raw is not None:
            self.debouncer.state = list(raw)
        self.hello()
        if error is not None:
            self.error(error[0], error[1])
        self.full_scan(now)
        self.heartbeat(now)

    def scan(self, raw, now):
        """One scan of the sensors (``raw``: a state per cell): report changes and what is due."""
        self.scans += 1
        changes = self.debouncer.update(raw)
        if changes:
            self.board_version = (self.board_version + 1) & 0xFFFF
            if len(changes) > MAX_CHANGES:
                self.full_scan(now)
            else:
                self.send(wire.CHANGES, wire.changes_payload(self.board_version, elapsed(now, self.booted), changes))
        if elapsed(now, self._last_full) >= self.full_scan_ms:
            self.full_scan(now)
        if elapsed(now, self._last_beat) >= self.heartbeat_ms:
            self.heartbeat(now)
        return changes

    def receive(self, data, now):
        """Bytes from the host: carry out every good frame in them."""
        for version, msg_type, seq, payload in self.decoder.feed(data):
            self.rx_ok = (self.rx_ok + 1) & 0xFFFF
            if version != self.version:
                self.send(wire.NACK, wire.nack_payload(seq, wire.NACK_BAD_VERSION))
                continue
            self._handle(msg_type, seq, payload, now)

    def _handle(self, msg_type, seq, payload, now):
        if msg_type == wire.QUERY:
            self.hello()
            self.full_scan(now)
        elif msg_type == wire.SCAN_REQUEST:
            self.full_scan(now)
        elif msg_type == wire.LED_FRAME:
            try:
                start, rgb = wire.parse_led(payload)
            except wire.WireError:
                self.send(wire.NACK, wire.nack_payload(seq, wire.NACK_BAD_LENGTH))
                return
            if start * 3 + len(rgb) > len(self.leds):
                self.send(wire.NACK, wire.nack_payload(seq, wire.NACK_OUT_OF_RANGE))
                return
            self.leds[start * 3:start * 3 + len(rgb)] = rgb
            if self.on_leds is not None:
                self.on_leds(self)
            self.send(wire.ACK, wire.ack_payload(seq))
        elif msg_type == wire.BRIGHTNESS:
            try:
                self.brightness = wire.parse_brightness(payload)
            except wire.WireError:
                self.send(wire.NACK, wire.nack_payload(seq, wire.NACK_BAD_LENGTH))
                return
            if self.on_brightness is not None:
                self.on_brightness(self)
            self.send(wire.ACK, wire.ack_payload(seq))
        else:
            self.send(wire.NACK, wire.nack_payload(seq, wire.NACK_UNKNOWN_TYPE))
