"""The sensor board's wire format at its edges: the exact bytes, limits and refusals.

tests/test_serial_protocol.py shows that every message survives the round trip and that a
corrupted stream never yields a frame that was not sent. Round trips cannot see a bug made the
same way on both sides, nor one in code the host never runs: mutation testing
(docs/testing.md) found the MicroPython CRC table, the fallback zero search, COBS at the
254-byte block edge, the frame-length limit and every refusal's wording unguarded. Here each is
pinned to bytes worked out by hand from the format (docs/protocol.md), or to its limit.
"""

from __future__ import annotations

import binascii
import random

import pytest

from firmware_bridge import wire


# ---------------------------------------------------------------------------- CRC-16/CCITT-FALSE
def test_crc_check_value_and_chaining():
    # the standard check value of CRC-16/CCITT-FALSE, and a CRC carried from one part to the next
    assert wire.crc16(b"123456789") == 0x29B1
    assert wire.crc16(b"56789", wire.crc16(b"1234")) == 0x29B1
    assert wire.crc16(b"") == 0xFFFF


def test_the_table_crc_micropython_runs_is_the_same_crc():
    # The Pico has no binascii.crc_hqx and runs the table; the host never does, so a wrong
    # table would pass every host test and fail every frame on the board.
    rng = random.Random(5)
    assert wire.crc16_table(b"123456789") == 0x29B1
    for n in (0, 1, 2, 7, 64, 300):
        data = bytes(rng.randrange(256) for _ in range(n))
        assert wire.crc16_table(data) == binascii.crc_hqx(data, 0xFFFF)
        assert wire.crc16_table(data, 0x1D0F) == binascii.crc_hqx(data, 0x1D0F)
    table = wire._make_table()
    assert len(table) == 256 and table[0] == 0 and table[1] == 0x1021 and table[255] == 0x1EF0
    assert all(0 <= v <= 0xFFFF for v in table)


def test_crc16_without_binascii_uses_the_table(monkeypatch):
    monkeypatch.setattr(wire, "_crc_hqx", None)
    monkeypatch.setattr(wire, "_TABLE", None)
    assert wire.crc16(b"123456789") == 0x29B1
    assert wire.crc16(b"56789", wire.crc16(b"1234")) == 0x29B1
    assert wire._TABLE is not None, "the table is built once, on first use"
    frame = wire.frame(wire.ACK, 3, wire.ack_payload(9))
    assert wire.unframe(frame[:-1]) == (wire.VERSION, wire.ACK, 3, wire.ack_payload(9))


# ---------------------------------------------------------------------------- zero search
class NoFind(list):
    """A buffer without ``find``, as a MicroPython built without bytearray.find has."""


@pytest.mark.parametrize("data,start,at", [
    ([5, 0, 7, 0], 0, 1), ([5, 0, 7, 0], 2, 3), ([5, 0, 7, 0], 1, 1), ([5, 6, 7], 0, -1), ([], 0, -1),
    ([0, 9, 9, 9, 0], 1, 4),
])
def test_the_fallback_zero_search(data, start, at):
    assert wire._find_zero(NoFind(data), start) == at
    assert wire._find_zero(bytearray(data), start) == at


# ---------------------------------------------------------------------------- COBS
# (decoded, encoded) worked out from the rule: each block is a code byte (its length + 1) and up
# to 254 non-zero bytes; a block of 254 (code 255) is not followed by a zero.
RUN254 = bytes(range(1, 255))  # 01..FE
COBS_CASES = [
    (b"", b"\x01"),
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (RUN254[:253], b"\xfe" + RUN254[:253]),
    (RUN254, b"\xff" + RUN254),
    (b"\x00" + RUN254, b"\x01\xff" + RUN254),
    (RUN254 + b"\xff", b"\xff" + RUN254 + b"\x02\xff"),
    (RUN254[1:] + b"\xff\x00", b"\xff" + RUN254[1:] + b"\xff\x01\x01"),
    (RUN254[2:] + b"\xff\x00\x01", b"\xfe" + RUN254[2:] + b"\xff\x02\x01"),
    (RUN254 + RUN254, b"\xff" + RUN254 + b"\xff" + RUN254),
]


@pytest.mark.parametrize("decoded,encoded", COBS_CASES, ids=range(len(COBS_CASES)))
def test_cobs_bytes_exactly(decoded, encoded):
    assert wire.cobs_encode(decoded) == encoded
    assert wire.cobs_decode(encoded) == decoded


@pytest.mark.parametrize("bad,why", [
    (b"\x00", "a zero byte inside a COBS frame"),
    (b"\x03\x11\x00", "a zero byte inside a COBS frame"),
    (b"\x05\x11\x22", "a COBS frame cut short"),
    (b"\xff" + RUN254[:253], "a COBS frame cut short"),
    (b"\x02\x11\x00\x01", "a zero byte inside a COBS frame"),
])
def test_cobs_refuses_what_it_could_not_have_made(bad, why):
    with pytest.raises(wire.WireError, match=f"^{why}$"):
        wire.cobs_decode(bad)


# ---------------------------------------------------------------------------- frames
def test_a_frame_byte_by_byte():
    f = wire.frame(wire.BRIGHTNESS, 0x0102, b"\x80")
    body = bytes([wire.VERSION, wire.BRIGHTNESS, 0x02, 0x01, 0x80])
    crc = binascii.crc_hqx(body, 0xFFFF)
    assert f == wire.cobs_encode(body + bytes([crc & 0xFF, crc >> 8])) + b"\x00"
    assert wire.frame(wire.QUERY, 7) == wire.frame(wire.QUERY, 7, b""), "no payload by default"
    assert wire.unframe(wire.frame(wire.QUERY, 7)[:-1]) == (wire.VERSION, wire.QUERY, 7, b"")


def test_the_longest_frame_is_sent_and_one_byte_more_is_refused():
    room = wire.MAX_FRAME - wire.HEADER - wire.CRC_SIZE
    longest = wire.frame(wire.LED_FRAME, 1, b"\x01" * room)
    assert wire.unframe(longest[:-1])[3] == b"\x01" * room
    with pytest.raises(wire.WireError, match=f"^a frame of {wire.MAX_FRAME + 1} bytes is longer than {wire.MAX_FRAME}$"):
        wire.frame(wire.LED_FRAME, 1, b"\x01" * (room + 1))


def test_unframe_refusals():
    with pytest.raises(wire.WireError, match="^a frame of 5 bytes is too short for its header and CRC$"):
        wire.unframe(wire.cobs_encode(b"\x01\x02\x03\x04\x05"))
    good = wire.frame(wire.ACK, 1, wire.ack_payload(1))[:-1]
    body = bytearray(wire.cobs_decode(good))
    for k in (-1, -2):  # either CRC byte wrong
        bad = bytearray(body)
        bad[k] ^= 0x40
        with pytest.raises(wire.WireError, match="^CRC mismatch$"):
            wire.unframe(wire.cobs_encode(bytes(bad)))
    header = bytes(body[:4])
    crc = wire.crc16(header)
    six = wire.cobs_encode(header + bytes([crc & 0xFF, crc >> 8]))  # header and CRC only: the shortest frame
    assert wire.unframe(six) == (wire.VERSION, wire.ACK, 1, b"")


# ---------------------------------------------------------------------------- payloads
def test_hello_defaults_and_limits():
    p = wire.hello_payload(8, 8, wire.POLARITY, 64, 100, 1000, 7, "fw")
    assert wire.parse_hello(p) == (8, 8, wire.POLARITY, 64, 100, 1000, 7, "fw", 0), "no flags by default"
    assert wire.hello_payload(8, 8, 0, 64, 100, 1000, 7, b"fw") == wire.hello_payload(8, 8, 0, 64, 100, 1000, 7, "fw")
    long = wire.hello_payload(8, 8, 0, 64, 100, 1000, 7, "x" * 70)
    assert len(long) == 13 + 64 and wire.parse_hello(long)[7] == "x" * 64
    with pytest.raises(wire.WireError, match="^a hello of 12 bytes is too short$"):
        wire.parse_hello(p[:12])
    with pytest.raises(wire.WireError, match="^a hello with a 2-byte firmware name in 16 bytes$"):
        wire.parse_hello(p + b"!")


def test_error_report_limits():
    assert wire.error_payload(3, b"bad") == wire.error_payload(3, "bad") == b"\x03bad"
    assert len(wire.error_payload(3, "y" * 130)) == 1 + 120
    assert wire.parse_error(b"\x03bad") == (3, "bad")
    assert wire.parse_error(b"\x04") == (4, "")
    assert wire.parse_error(b"\x04\xff") == (4, "\ufffd"), "a broken name is shown, not raised"
    with pytest.raises(wire.WireError, match="^an empty error report$"):
        wire.parse_error(b"")


def test_cells_two_bits_each_cell_zero_lowest():
    assert wire.pack_cells([1, 2, 3, 0, 3]) == bytes([0b00111001, 0b00000011])
    assert wire.unpack_cells(bytes([0b00111001, 0b00000011]), 5) == [1, 2, 3, 0, 3]
    with pytest.raises(wire.WireError, match=r"^1 bytes of cells for 5 cells \(want 2\)$"):
        wire.unpack_cells(b"\x00", 5)


def test_full_scan_and_change_report_layouts():
    p = wire.full_scan_payload(0x0102, 0x03040506, [1, 2])
    assert p == bytes([0x02, 0x01, 0x06, 0x05, 0x04, 0x03, 0b1001])
    assert wire.parse_full_scan(p, 2) == (0x0102, 0x03040506, [1, 2])
    with pytest.raises(wire.WireError, match="^a full scan of 5 bytes is too short$"):
        wire.parse_full_scan(p[:5], 2)
    c = wire.changes_payload(7, 1500, [(42, wire.NORTH), (300, wire.FAULT)])
    assert c[6:] == bytes([42, 0, 1, 0x2C, 0x01, 3])
    assert wire.parse_changes(c) == (7, 1500, [(42, wire.NORTH), (300, wire.FAULT)])
    assert wire.parse_changes(c[:6]) == (7, 1500, [])
    for n in (5, 7, 8, 10):
        with pytest.raises(wire.WireError, match=f"^a change report of {n} bytes is not 6 \\+ 3 per change$"):
            wire.parse_changes((c + b"\x00")[:n])
    with pytest.raises(wire.WireError, match="^cell 42 reported in state 4$"):
        wire.parse_changes(c[:6] + bytes([42, 0, 4]))


@pytest.mark.parametrize("parse,good,why", [
    (wire.parse_heartbeat, wire.heartbeat_payload(1, 2, 3, 4, 5), r"a heartbeat of {n} bytes \(want 14\)"),
    (wire.parse_ack, wire.ack_payload(0x1234), r"an ack of {n} bytes \(want 2\)"),
    (wire.parse_nack, wire.nack_payload(9, wire.NACK_BAD_LENGTH), r"a nack of {n} bytes \(want 3\)"),
    (wire.parse_brightness, wire.brightness_payload(200), r"a brightness of {n} bytes \(want 1\)"),
], ids=["heartbeat", "ack", "nack", "brightness"])
def test_fixed_length_payloads_refuse_one_byte_more_or_less(parse, good, why):
    parse(good)
    for n in (len(good) - 1, len(good) + 1):
        with pytest.raises(wire.WireError, match="^" + why.format(n=n) + "$"):
            parse((good + b"\x00")[:n])


def test_small_payload_values():
    assert wire.parse_ack(wire.ack_payload(0x11234)) == 0x1234
    assert wire.parse_nack(wire.nack_payload(0x10009, 3)) == (9, 3)
    assert wire.parse_brightness(b"\xc8") == 200
    assert wire.parse_heartbeat(wire.heartbeat_payload(1, 2, 3, 4, 5)) == (1, 2, 3, 4, 5)


def test_led_frames():
    p = wire.led_payload(0x0102, b"\x01\x02\x03\x04\x05\x06")
    assert p == b"\x02\x01\x01\x02\x03\x04\x05\x06"
    assert wire.parse_led(p) == (0x0102, b"\x01\x02\x03\x04\x05\x06")
    assert wire.parse_led(b"\x05\x00") == (5, b"")
    with pytest.raises(wire.WireError, match="^LED colours come in threes, not 4 bytes$"):
        wire.led_payload(0, b"\x01\x02\x03\x04")
    for n in (0, 1, 3, 4):
        with pytest.raises(wire.WireError, match=f"^an LED frame of {n} bytes is not 2 \\+ 3 per LED$"):
            wire.parse_led(p[:n])


# ---------------------------------------------------------------------------- the decoder's counts
def test_the_decoder_counts_each_kind_of_loss_exactly():
    good = wire.frame(wire.ACK, 5, wire.ack_payload(5))
    d = wire.Decoder()
    assert d.max_encoded == wire.MAX_FRAME + wire.MAX_FRAME // 254 + 2
    assert d.feed(good) == [(wire.VERSION, wire.ACK, 5, wire.ack_payload(5))]
    assert (d.frames, d.errors(), d.garbage) == (1, 0, 0)
    bad_crc = bytearray(good)
    bad_crc[3] ^= 0x01 if bad_crc[3] != 1 else 0x03
    assert d.feed(bytes(bad_crc)) == [] and d.bad_crc == 1 and d.garbage == len(good) - 1
    assert d.feed(b"\x05\x11\x00") == [] and d.bad_cobs == 1
    assert d.feed(wire.cobs_encode(b"\x01\x02\x03") + b"\x00") == [] and d.too_short == 1
    assert d.feed(b"\x00\x00") == [], "empty frames between zeros are line noise, not errors"
    assert d.errors() == 3 and d.frames == 1
    # a frame begun and never finished, dropped by flush; flush again has nothing to drop
    assert d.feed(good[:4]) == []
    assert d.flush() is True and d.cut_short == 1 and d.errors() == 4
    assert d.flush() is False
    assert d.feed(good) == [(wire.VERSION, wire.ACK, 5, wire.ack_payload(5))]


def test_the_decoder_drops_an_oversize_run_to_the_next_zero_and_counts_it_once():
    d = wire.Decoder(max_frame=16)
    assert d.max_encoded == 16 + 0 + 2
    junk = b"\x07" * 40
    assert d.feed(junk) == [] and d.oversize == 1 and d.garbage == 40
    assert d.feed(junk) == [] and d.oversize == 1, "the same run goes on: still one"
    good = wire.frame(wire.ACK, 1, wire.ack_payload(1))
    assert d.feed(b"\x07\x07\x00" + good) == [(wire.VERSION, wire.ACK, 1, wire.ack_payload(1))]
    assert d.garbage == 82
    # a whole oversize frame inside one feed
    assert d.feed(b"\x07" * 19 + b"\x00") == [] and d.oversize == 2 and d.garbage == 101
    assert d.flush() is False
    d.feed(b"\x07" * 30)
    assert d.flush() is True and d.cut_short == 0, "a run being skipped was counted as oversize already"


def test_a_broken_firmware_name_is_shown_not_raised():
    p = wire.hello_payload(8, 8, 0, 64, 100, 1000, 7, b"ok\xff")
    assert wire.parse_hello(p)[7] == "ok\ufffd"


def test_edges_of_the_payload_layouts():
    assert wire.parse_full_scan(wire.full_scan_payload(1, 2, []), 0) == (1, 2, [])  # six bytes: no cells
    top = wire.frame(0xFE, 0xFFFF, b"")  # header bytes are unsigned
    assert wire.unframe(top[:-1]) == (wire.VERSION, 0xFE, 0xFFFF, b"")
    with pytest.raises(wire.WireError, match=r"^0 bytes of cells for 4 cells \(want 1\)$"):
        wire.unpack_cells(b"", 4)


GOOD = wire.frame(wire.ACK, 5, wire.ack_payload(5))
GOOD_OUT = (wire.VERSION, wire.ACK, 5, wire.ack_payload(5))


def bad_crc_frame():
    body = bytearray(wire.cobs_decode(GOOD[:-1]))
    body[-1] ^= 0x10
    return wire.cobs_encode(bytes(body)) + b"\x00"


BAD = {
    "bad_cobs": b"\x05\x11\x00",
    "too_short": wire.cobs_encode(b"\x01\x02\x03") + b"\x00",
    "bad_crc": bad_crc_frame(),
}


@pytest.mark.parametrize("kind", sorted(BAD))
def test_two_bad_frames_and_a_good_one_in_one_read(kind):
    d = wire.Decoder()
    bad = BAD[kind]
    assert d.feed(bad + bad + GOOD) == [GOOD_OUT], "a bad frame costs itself, never the frames after it"
    assert getattr(d, kind) == 2 and d.errors() == 2 and d.frames == 1
    assert d.garbage == 2 * (len(bad) - 1)


def test_zeros_before_a_frame_are_skipped_in_the_same_read():
    d = wire.Decoder()
    assert d.feed(b"\x00" + GOOD) == [GOOD_OUT]
    assert d.feed(b"\x00\x00" + GOOD + GOOD) == [GOOD_OUT, GOOD_OUT]
    assert d.frames == 3 and d.errors() == 0 and d.garbage == 0


def test_oversize_runs_each_count_and_count_as_errors():
    d = wire.Decoder(max_frame=16)
    d.feed(b"\x07" * 40 + b"\x00")
    d.feed(b"\x07" * 40 + b"\x00")
    assert d.oversize == 2 and d.errors() == 2 and d.garbage == 80
    assert d.feed(GOOD) == [GOOD_OUT]


def test_each_frame_cut_short_counts_with_its_bytes():
    d = wire.Decoder()
    d.feed(GOOD[:3])
    assert d.flush()
    d.feed(GOOD[:4])
    assert d.flush()
    assert d.cut_short == 2 and d.garbage == 7 and d.errors() == 2


def test_an_oversize_frame_costs_only_itself():
    d = wire.Decoder(max_frame=16)
    assert d.feed(b"\x07" * 19 + b"\x00" + GOOD) == [GOOD_OUT]
    assert d.oversize == 1


def test_runs_with_no_zero_in_sight_count_once_each():
    d = wire.Decoder(max_frame=16)
    d.feed(b"\x07" * 40)
    d.feed(b"\x00")
    d.feed(b"\x07" * 40)
    assert d.oversize == 2 and d.garbage == 80


# ---------------------------------------------------------------------------- the decoder's observer
# The host's estimate of the line's health (firmware_bridge/line.py) is made of the byte counts
# the decoder reports: each judged run's bytes, its zero included, so that every byte fed is
# accounted for once. A count off by one or two biases the estimate of the share of spoilt bytes
# without any test of the frames themselves noticing; these are worked out by hand.
def observed(dec):
    calls = []
    dec.observer = lambda nbytes, seq: calls.append((nbytes, seq))
    return calls


def test_each_judged_frame_reports_its_bytes_with_its_zero():
    dec = wire.Decoder()
    calls = observed(dec)
    good = wire.frame(wire.HEARTBEAT, 7, wire.heartbeat_payload(1, 2, 3, 0, 0))
    body = bytearray(wire.cobs_decode(good[:-1]))
    body[-1] ^= 0xFF
    bad_crc = wire.cobs_encode(bytes(body))
    too_short = wire.cobs_encode(b"\x01\x02\x03")
    bad_cobs = b"\x05\x01"  # a code byte promising four bytes, one given
    assert dec.feed(good + bad_crc + b"\x00" + too_short + b"\x00" + bad_cobs + b"\x00")
    assert calls == [(len(good), 7), (len(bad_crc) + 1, None), (len(too_short) + 1, None),
                     (len(bad_cobs) + 1, None)]
    assert (dec.bad_crc, dec.too_short, dec.bad_cobs) == (1, 1, 1)
    assert dec.feed(b"\x00") == [] and len(calls) == 4, "a lone zero is no run of bytes"


def test_an_oversize_run_is_reported_once_with_every_byte_it_dropped():
    dec = wire.Decoder(max_frame=20)  # longest encoding 22 bytes
    assert dec.max_encoded == 22
    calls = observed(dec)
    dec.feed(b"\x01" * 30 + b"\x00")  # too long, its zero in the same feed
    assert calls == [(31, None)]
    dec.feed(b"\x01" * 30)  # no zero yet: dropped, and counted when the zero comes
    dec.feed(b"\x01" * 30)
    dec.feed(b"\x01" * 5)
    assert calls == [(31, None)]
    dec.feed(b"\x01" * 2 + b"\x00")
    assert calls == [(31, None), (30 + 30 + 5 + 2 + 1, None)]
    dec.feed(b"\x01" * 25)  # a second run starts from nothing
    dec.feed(b"\x00")
    assert calls[-1] == (26, None)
    good = wire.frame(wire.HEARTBEAT, 9, wire.heartbeat_payload(1, 2, 3, 0, 0))
    assert dec.max_encoded >= len(good) - 1
    assert dec.feed(good) and calls[-1] == (len(good), 9)


def test_a_fresh_decoder_counts_its_first_oversize_run_from_zero():
    dec = wire.Decoder(max_frame=20)
    calls = observed(dec)
    dec.feed(b"\x01" * 23)  # one byte over the longest encoding
    dec.feed(b"\x00")
    assert calls == [(24, None)]


def test_flush_reports_what_it_drops():
    dec = wire.Decoder(max_frame=20)
    calls = observed(dec)
    dec.feed(b"\x01" * 7)
    assert dec.flush() is True and calls == [(7, None)]
    dec.feed(b"\x01" * 30)  # an oversize run ...
    dec.feed(b"\x01" * 5)  # ... and the start of what follows it
    assert dec.flush() is True and calls[-1] == (35, None)
    dec.feed(b"\x01" * 30 + b"\x00")  # after a flush, a run counts from nothing again
    assert calls[-1] == (31, None)
    dec.feed(b"\x01" * 30)
    dec.flush()
    dec.feed(b"\x01" * 30)
    dec.feed(b"\x00")
    assert calls[-2:] == [(30, None), (31, None)]
    assert dec.flush() is False and len(calls) == 5
