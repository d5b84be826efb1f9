"""The sensor board's wire format: COBS framing, CRC-16, the frame header, message payloads.

This module runs in two places: on the host (CPython, imported as ``firmware_bridge.wire``)
and on the Raspberry Pi Pico (MicroPython, copied there as ``wire.py``). That is why it is
written in the plain Python both understand: no annotations, no dataclasses, no f-strings in
hot paths, only ``struct`` and ``binascii`` from the standard library. docs/protocol.md
describes every byte; this is the code that makes and reads them.

A frame on the wire is ``COBS(version, type, seq_lo, seq_hi, payload..., crc_lo, crc_hi) 0x00``:

- COBS (consistent overhead byte stuffing) removes every zero byte from the frame, so the zero
  byte can end frames. A reader that starts mid-stream, or that lost bytes, finds the next zero
  and is back in step: garbage costs at most one frame.
- The CRC is CRC-16/CCITT-FALSE (polynomial 0x1021, start 0xFFFF) over header and payload,
  stored little-endian. A frame whose CRC does not check is dropped, never half-believed.
- Byte 0 is the protocol version, in every version to come; byte 1 the message type; bytes 2-3
  a sequence number that each side counts up by one per frame it sends (mod 65536), so the
  receiver can tell that a frame went missing.
"""

import struct

try:  # CPython: the C implementation of exactly this CRC
    from binascii import crc_hqx as _crc_hqx
except ImportError:  # MicroPython's binascii has no crc_hqx
    _crc_hqx = None

VERSION = 1
MAX_FRAME = 1024  # longest frame (header + payload + CRC) either side accepts
HEADER = 4
CRC_SIZE = 2

# Message types. Device to host:
HELLO = 0x01  # who I am: matrix size, sensing kind, LED count, firmware version
FULL_SCAN = 0x02  # every cell's state
CHANGES = 0x03  # the cells that changed since the last report
HEARTBEAT = 0x04  # still here: uptime, scans, what arrived from the host
ACK = 0x05  # a host frame was carried out
NACK = 0x06  # a host frame was refused, and why
ERROR = 0x07  # something went wrong on the device
# Host to device:
QUERY = 0x10  # say HELLO (and send a full scan)
SCAN_REQUEST = 0x11  # send a full scan now
LED_FRAME = 0x12  # colours for a run of LEDs
BRIGHTNESS = 0x13  # overall LED brightness, 0..255

TYPE_NAMES = {HELLO: "hello", FULL_SCAN: "full-scan", CHANGES: "changes", HEARTBEAT: "heartbeat", ACK: "ack",
              NACK: "nack", ERROR: "error", QUERY: "query", SCAN_REQUEST: "scan-request", LED_FRAME: "led-frame",
              BRIGHTNESS: "brightness"}

# Cell states (two bits per cell in a full scan).
EMPTY = 0
NORTH = 1  # occupied (reed switch closed), or a magnet north side up (player 1)
SOUTH = 2  # a magnet south side up (player 2); never sent by an occupancy board
FAULT = 3  # the sensor gave a reading that means nothing (an analog value out of range)

# Sensing kinds (HELLO).
OCCUPANCY = 0
POLARITY = 1
SENSING_NAMES = {OCCUPANCY: "occupancy", POLARITY: "polarity"}

# NACK reasons.
NACK_UNKNOWN_TYPE = 1
NACK_BAD_LENGTH = 2
NACK_OUT_OF_RANGE = 3
NACK_BAD_VERSION = 4

# ERROR codes.
ERR_WATCHDOG = 1  # the device was restarted by its watchdog
ERR_RX_OVERFLOW = 2  # bytes from the host arrived faster than they could be read
ERR_SENSOR = 3  # a sensor reads out of range
ERR_LED = 4  # the LEDs could not be driven


class WireError(ValueError):
    """Bytes that are not a well-formed frame or payload."""


# ---------------------------------------------------------------------------- CRC-16/CCITT-FALSE
def _make_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = None


def crc16_table(data, crc=0xFFFF):
    """The table-driven CRC (what MicroPython uses); the same result as ``crc16``."""
    global _TABLE
    if _TABLE is None:
        _TABLE = _make_table()
    t = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ t[((crc >> 8) ^ b) & 0xFF]
    return crc


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data`` (check value: ``crc16(b"123456789") == 0x29B1``)."""
    if _crc_hqx is not None:
        return _crc_hqx(data, crc)
    return crc16_table(data, crc)


# ---------------------------------------------------------------------------- COBS
def cobs_encode(data):
    """``data`` with every zero byte stuffed away (at most one extra byte per 254)."""
    data = bytes(data)
    out = bytearray()
    chunks = data.split(b"\x00")
    last = len(chunks) - 1
    for k, chunk in enumerate(chunks):
        full = False
        while len(chunk) >= 254:
            out.append(255)
            out += chunk[:254]
            chunk = chunk[254:]
            full = True
        if chunk or not full or k != last:
            out.append(len(chunk) + 1)
            out += chunk
    return bytes(out)


def cobs_decode(data):
    """The bytes ``cobs_encode`` stuffed; raises WireError for anything it could not have made."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise WireError("a zero byte inside a COBS frame")
        j = i + code
        if j > n:
            raise WireError("a COBS frame cut short")
        block = data[i + 1:j]
        if b"\x00" in block:
            raise WireError("a zero byte inside a COBS frame")
        out += block
        i = j
        if code < 255 and i < n:
            out.append(0)
    return bytes(out)


# ---------------------------------------------------------------------------- frames
def frame(msg_type, seq, payload=b"", version=VERSION):
    """One message ready for the wire: header, payload, CRC, COBS, and the zero that ends it."""
    body = bytearray(struct.pack("<BBH", version & 0xFF, msg_type & 0xFF, seq & 0xFFFF))
    body += payload
    if len(body) + CRC_SIZE > MAX_FRAME:
        raise WireError("a frame of %d bytes is longer than %d" % (len(body) + CRC_SIZE, MAX_FRAME))
    body += struct.pack("<H", crc16(body))
    return cobs_encode(body) + b"\x00"


def crc_checks(body):
    """True if the last two bytes of ``body`` are the CRC of the rest: both bytes, since a
    check of one byte would let one damaged frame in 256 through."""
    return crc16(body[:-2]) == (body[-2] | (body[-1] << 8))


def unframe(encoded):
    """(version, type, seq, payload) of one COBS-encoded frame without its zero; WireError if bad."""
    body = cobs_decode(encoded)
    if len(body) < HEADER + CRC_SIZE:
        raise WireError("a frame of %d bytes is too short for its header and CRC" % len(body))
    if not crc_checks(body):
        raise WireError("CRC mismatch")
    version, msg_type, seq = struct.unpack_from("<BBH", body, 0)
    return version, msg_type, seq, bytes(body[HEADER:-2])


class Decoder:
    """Turns any stream of bytes into the frames in it whose CRC checks, counting what it drops.

    ``feed(data)`` returns a list of (version, type, seq, payload). Nothing raises: a bad frame
    is counted (``bad_cobs``, ``bad_crc``, ``too_short``, ``oversize``) and skipped, and bytes
    piling up with no zero among them are dropped (``garbage``) until the next zero.

    ``observer``, if set, is called ``observer(nbytes, seq)`` for every run of bytes the decoder
    judged: a good frame (with its zero byte) and its sequence number, or bytes dropped and
    None. The host's estimate of the line's health is made of these (``line.LineHealth``).
    """

    def __init__(self, max_frame=MAX_FRAME):
        # The longest COBS encoding of a max_frame frame: one code byte per 254, plus one.
        self.max_encoded = max_frame + max_frame // 254 + 2
        self.buffer = bytearray()
        self.frames = 0
        self.bad_cobs = 0
        self.bad_crc = 0
        self.too_short = 0
        self.oversize = 0
        self.garbage = 0  # bytes dropped
        self.cut_short = 0  # frames never finished (their zero byte lost): see flush()
        self._skipping = False  # inside an oversize run: drop up to the next zero
        self._skipped = 0  # bytes dropped so far in that run
        self.observer = None

    def errors(self):
        return self.bad_cobs + self.bad_crc + self.too_short + self.oversize + self.cut_short

    def flush(self):
        """Drop a frame begun but never finished. The reader calls this when the line has been
        idle for longer than a frame takes to cross it: the frame's zero byte was lost, and
        waiting for the next frame's would hide the loss until then. True if one was dropped."""
        if not self.buffer and not self._skipping:
            return False
        if self.buffer:
            self.cut_short += 1
            self.garbage += len(self.buffer)
        self._judged(len(self.buffer) + self._skipped, None)
        self._skipped = 0
        self.buffer = bytearray()
        self._skipping = False
        return True

    def _judged(self, nbytes, seq):
        if self.observer is not None and nbytes:
            self.observer(nbytes, seq)

    def feed(self, data):
        out = []
        buf = self.buffer
        buf += data
        start = 0
        while True:
            z = _find_zero(buf, start)
            if z < 0:
                break
            chunk = bytes(buf[start:z])
            start = z + 1
            if self._skipping:
                self._skipping = False
                self.garbage += len(chunk)
                self._judged(self._skipped + len(chunk) + 1, None)
                self._skipped = 0
                continue
            if not chunk:
                continue  # two zeros in a row: an empty frame, or line noise
            if len(chunk) > self.max_encoded:
                self.oversize += 1
                self.garbage += len(chunk)
                self._judged(len(chunk) + 1, None)
                continue
            try:
                body = cobs_decode(chunk)
            except WireError:
                self.bad_cobs += 1
                self.garbage += len(chunk)
                self._judged(len(chunk) + 1, None)
                continue
            if len(body) < HEADER + CRC_SIZE:
                self.too_short += 1
                self.garbage += len(chunk)
                self._judged(len(chunk) + 1, None)
                continue
            if not crc_checks(body):
                self.bad_crc += 1
                self.garbage += len(chunk)
                self._judged(len(chunk) + 1, None)
                continue
            version, msg_type, seq = struct.unpack_from("<BBH", body, 0)
            self.frames += 1
            self._judged(len(chunk) + 1, seq)
            out.append((version, msg_type, seq, body[HEADER:-2]))
        if start:
            buf = self.buffer = buf[start:]
        if len(buf) > self.max_encoded:
            self.garbage += len(buf)
            self._skipped += len(buf)
            if not self._skipping:
                self.oversize += 1
            self._skipping = True
            self.buffer = bytearray()
        return out


def _find_zero(buf, start):
    try:
        return buf.find(b"\x00", start)
    except AttributeError:  # a MicroPython built without bytearray.find
        for i in range(start, len(buf)):
            if buf[i] == 0:
                return i
        return -1


# ---------------------------------------------------------------------------- payloads
# Every payload layout, both ways. Lengths are checked on reading; WireError names the message.
FLAG_WATCHDOG = 1  # HELLO flags: the last restart was the watchdog's


def hello_payload(rows, cols, sensing, led_count, scan_hz, full_scan_ms, boot_id, firmware, flags=0):
    fw = firmware.encode() if isinstance(firmware, str) else bytes(firmware)
    fw = fw[:64]
    return struct.pack("<BBBBHHHHB", rows, cols, sensing, flags, led_count, scan_hz, full_scan_ms, boot_id,
                       len(fw)) + fw


def parse_hello(p):
    """(rows, cols, sensing, led_count, scan_hz, full_scan_ms, boot_id, firmware, flags)."""
    if len(p) < 13:
        raise WireError("a hello of %d bytes is too short" % len(p))
    rows, cols, sensing, flags, leds, hz, full_ms, boot, n = struct.unpack_from("<BBBBHHHHB", p, 0)
    if len(p) != 13 + n:
        raise WireError("a hello with a %d-byte firmware name in %d bytes" % (n, len(p)))
    return rows, cols, sensing, leds, hz, full_ms, boot, bytes(p[13:]).decode("utf-8", "replace"), flags


def pack_cells(cells):
    """Cell states, two bits each, four to a byte, cell 0 in the low bits of byte 0."""
    out = bytearray((len(cells) + 3) // 4)
    for i, v in enumerate(cells):
        out[i >> 2] |= (v & 3) << ((i & 3) << 1)
    return bytes(out)


def unpack_cells(data, count):
    if len(data) != (count + 3) // 4:
        raise WireError("%d bytes of cells for %d cells (want %d)" % (len(data), count, (count + 3) // 4))
    return [(data[i >> 2] >> ((i & 3) << 1)) & 3 for i in range(count)]


def full_scan_payload(board_version, t_ms, cells):
    return struct.pack("<HI", board_version & 0xFFFF, t_ms & 0xFFFFFFFF) + pack_cells(cells)


def parse_full_scan(p, count):
    """(board_version, t_ms, cells) for a matrix of ``count`` cells."""
    if len(p) < 6:
        raise WireError("a full scan of %d bytes is too short" % len(p))
    version, t = struct.unpack_from("<HI", p, 0)
    return version, t, unpack_cells(p[6:], count)


def changes_payload(board_version, t_ms, changes):
    out = bytearray(struct.pack("<HI", board_version & 0xFFFF, t_ms & 0xFFFFFFFF))
    for cell, state in changes:
        out += struct.pack("<HB", cell, state)
    return bytes(out)


def parse_changes(p):
    """(board_version, t_ms, [(cell, state), ...])."""
    if len(p) < 6 or (len(p) - 6) % 3:
        raise WireError("a change report of %d bytes is not 6 + 3 per change" % len(p))
    version, t = struct.unpack_from("<HI", p, 0)
    changes = []
    for off in range(6, len(p), 3):
        cell, state = struct.unpack_from("<HB", p, off)
        if state > 3:
            raise WireError("cell %d reported in state %d" % (cell, state))
        changes.append((cell, state))
    return version, t, changes


def heartbeat_payload(board_version, uptime_ms, scans, rx_ok, rx_bad):
    return struct.pack("<HIIHH", board_version & 0xFFFF, uptime_ms & 0xFFFFFFFF, scans & 0xFFFFFFFF,
                       rx_ok & 0xFFFF, rx_bad & 0xFFFF)


def parse_heartbeat(p):
    """(board_version, uptime_ms, scans, rx_ok, rx_bad)."""
    if len(p) != 14:
        raise WireError("a heartbeat of %d bytes (want 14)" % len(p))
    return struct.unpack("<HIIHH", p)


def ack_payload(seq):
    return struct.pack("<H", seq & 0xFFFF)


def parse_ack(p):
    if len(p) != 2:
        raise WireError("an ack of %d bytes (want 2)" % len(p))
    return struct.unpack("<H", p)[0]


def nack_payload(seq, reason):
    return struct.pack("<HB", seq & 0xFFFF, reason)


def parse_nack(p):
    """(seq, reason)."""
    if len(p) != 3:
        raise WireError("a nack of %d bytes (want 3)" % len(p))
    return struct.unpack("<HB", p)


def error_payload(code, text):
    t = text.encode() if isinstance(text, str) else bytes(text)
    return struct.pack("<B", code) + t[:120]


def parse_error(p):
    """(code, text)."""
    if len(p) < 1:
        raise WireError("an empty error report")
    return p[0], bytes(p[1:]).decode("utf-8", "replace")


def led_payload(start, rgb):
    """LEDs from ``start`` on: ``rgb`` is 3 bytes per LED (red, green, blue)."""
    if len(rgb) % 3:
        raise WireError("LED colours come in threes, not %d bytes" % len(rgb))
    return struct.pack("<H", start) + bytes(rgb)


def parse_led(p):
    """(start, rgb bytes)."""
    if len(p) < 2 or (len(p) - 2) % 3:
        raise WireError("an LED frame of %d bytes is not 2 + 3 per LED" % len(p))
    return struct.unpack_from("<H", p, 0)[0], bytes(p[2:])


def brightness_payload(level):
    return struct.pack("<B", level)


def parse_brightness(p):
    if len(p) != 1:
        raise WireError("a brightness of %d bytes (want 1)" % len(p))
    return p[0]
