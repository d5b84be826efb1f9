"""The host's side of the serial link, frame by frame: every way a change report can be lost is
noticed, cells the board does not have are set aside, the handshake rides out noise and names
what a port that will not shake hands is saying, and the line's health is estimated.

Most tests drive ``SensorLink`` through a port made in memory (``Wire``) with a clock of their
own, so each case is one exact sequence of frames (docs/protocol.md, "Every lost change report is
noticed", has the table these tests are). The last ones run the virtual board through a pty in
lockstep, seeded.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from arbiter.sim.physical import PhysicalBoard
from arbiter.screen import status_line
from arbiter.sim.sensor import SensorRig, serial_table
from arbiter.session import SimClock
from engine.core import Piece
from firmware_bridge import wire
from firmware_bridge.host import DeviceError, SensorLink
from firmware_bridge.line import NOISY, QUIET, Heard, LineHealth, estimate

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class Wire:
    """A serial port in memory: what the 'board' sends waits in ``inbox``; what the host writes
    is kept (``sent``) and may be answered by ``answer(data) -> bytes``. Reading with a timeout
    moves the clock on by it, as a real read would take that long."""

    def __init__(self, clock: Clock, answer=None):
        self.clock = clock
        self.inbox = bytearray()
        self.sent: list[tuple[float, bytes]] = []
        self.answer = answer
        self.timeout = 0

    @property
    def in_waiting(self) -> int:
        return len(self.inbox)

    def read(self, n: int) -> bytes:
        if not self.inbox and self.timeout:
            self.clock.t += self.timeout
        out, self.inbox = bytes(self.inbox[:n]), self.inbox[n:]
        return out

    def write(self, data: bytes) -> int:
        self.sent.append((self.clock.t, bytes(data)))
        if self.answer is not None:
            self.inbox += self.answer(bytes(data))
        return len(data)

    def reset_input_buffer(self) -> None:
        pass

    def close(self) -> None:
        pass

    def frames_sent(self) -> list[int]:
        dec = wire.Decoder()
        return [t for _, data in self.sent for _, t, _, _ in dec.feed(data)]


class Board:
    """A 3x3 board's frames, numbered as the firmware numbers them (each test may skip or repeat)."""

    def __init__(self, rows: int = 3, cols: int = 3, boot: int = 7):
        self.rows, self.cols, self.boot = rows, cols, boot
        self.seq = 0
        self.version = 0
        self.ms = 1000
        self.cells = [wire.EMPTY] * (rows * cols)

    def _f(self, kind: int, payload: bytes, seq: int | None = None) -> bytes:
        s = self.seq if seq is None else seq
        self.seq = (s + 1) & 0xFFFF
        self.ms += 10
        return wire.frame(kind, s, payload)

    def hello(self, **kw) -> bytes:
        return self._f(wire.HELLO, wire.hello_payload(self.rows, self.cols, wire.OCCUPANCY, 0, 100, 250, self.boot,
                                                      "test"), **kw)

    def full(self, **kw) -> bytes:
        return self._f(wire.FULL_SCAN, wire.full_scan_payload(self.version, self.ms, self.cells), **kw)

    def change(self, cell: int, state: int = wire.NORTH, *, version: int | None = None, **kw) -> bytes:
        self.version = (self.version + 1) & 0xFFFF if version is None else version
        if 0 <= cell < len(self.cells):
            self.cells[cell] = state
        return self._f(wire.CHANGES, wire.changes_payload(self.version, self.ms, [(cell, state)]), **kw)

    def beat(self, **kw) -> bytes:
        return self._f(wire.HEARTBEAT, wire.heartbeat_payload(self.version, self.ms, 5, 0, 0), **kw)


def linked(board: Board | None = None):
    """A link in step with ``board`` (hello and a full scan heard), and its port."""
    clock = Clock()
    port = Wire(clock)
    link = SensorLink("mem", now=clock, opener=lambda name, baud: port)
    board = board or Board()
    link.begin()
    port.inbox += board.hello() + board.full()
    link.poll(0)
    assert link.handshake() is not None and link.ready
    port.sent.clear()
    return link, port, board, clock


def feed(link, port, clock, *frames: bytes, dt: float = 0.005) -> None:
    for f in frames:
        port.inbox += f
        clock.t += dt
        link.poll(0)


def asked_for_a_scan(port) -> bool:
    return wire.SCAN_REQUEST in port.frames_sent()


# ============================================================================ the wire: planted bugs
@FAST
@given(st.sampled_from(sorted(wire.TYPE_NAMES)), st.integers(0, 0xFFFF), st.binary(max_size=60),
       st.integers(1, 255), st.sampled_from([-2, -1]))
def test_a_frame_with_either_crc_byte_wrong_is_refused(kind, seq, payload, flip, where):
    body = bytearray(wire.cobs_decode(wire.frame(kind, seq, payload)[:-1]))
    body[where] ^= flip  # -1: the CRC's high byte; a check of the low byte alone lets this through
    enc = wire.cobs_encode(bytes(body))
    with pytest.raises(wire.WireError, match="CRC"):
        wire.unframe(enc)
    dec = wire.Decoder()
    assert dec.feed(enc + b"\x00") == [] and dec.bad_crc == 1


def test_a_cobs_code_byte_pointing_past_the_end_is_refused():
    with pytest.raises(wire.WireError, match="cut short"):
        wire.cobs_decode(b"\x05\x01\x02")  # promises 4 bytes, holds 2
    good = wire.frame(wire.ACK, 3, wire.ack_payload(1))
    dec = wire.Decoder()
    assert dec.feed(good[:-3] + b"\x00") == [] and dec.bad_cobs + dec.bad_crc == 1
    assert [t for _, t, _, _ in dec.feed(good)] == [wire.ACK]


@pytest.mark.parametrize("size", [0, 1, 2, 3, 4, 5])
def test_a_frame_too_short_for_its_header_and_crc_is_refused_even_when_its_crc_checks(size):
    data = bytes([wire.VERSION, wire.CHANGES, 9])[:max(0, size - 2)]
    body = (data + bytes([wire.crc16(data) & 0xFF, wire.crc16(data) >> 8]))[:size]  # a CRC that checks, if room
    enc = wire.cobs_encode(body)
    with pytest.raises(wire.WireError, match="too short"):
        wire.unframe(enc)
    dec = wire.Decoder()
    assert dec.feed(enc + b"\x00") == [] and dec.too_short == 1


# ============================================================================ every lost change report is noticed
def test_a_gap_in_seq_asks_for_a_full_scan():
    # the board version says nothing here (the frame lost was a full scan or a heartbeat, or a
    # change report whose news the next frame would not show): only the gap tells
    link, port, board, clock = linked()
    board.seq += 1  # one frame lost on the way
    feed(link, port, clock, board.beat())
    assert link.stats["lost"] == 1 and link.suspect and asked_for_a_scan(port)


def test_a_gap_of_many_frames_asks_for_a_full_scan():
    link, port, board, clock = linked()
    board.seq += 500
    feed(link, port, clock, board.full())
    assert link.stats["lost"] == 500 and asked_for_a_scan(port)


def test_a_repeated_seq_asks_for_a_full_scan():
    link, port, board, clock = linked()
    feed(link, port, clock, board.beat())
    board.seq -= 1
    feed(link, port, clock, board.beat())
    assert link.stats["seq_jumps"] == 1 and asked_for_a_scan(port)


def test_a_seq_going_backwards_asks_for_a_full_scan():
    link, port, board, clock = linked()
    feed(link, port, clock, board.beat(), board.beat())
    board.seq -= 2
    feed(link, port, clock, board.beat())
    assert link.stats["seq_jumps"] == 1 and asked_for_a_scan(port)


def test_a_board_version_gap_puts_the_copy_out_of_step_until_a_full_scan():
    link, port, board, clock = linked()
    board.version += 1  # a change report lost, though every frame's seq follows on
    feed(link, port, clock, board.change(4))
    assert not link.ready and "lost" in link.problem and asked_for_a_scan(port)
    assert link.stats["lost"] == 0  # the seq alone would not have told
    feed(link, port, clock, board.full())
    assert link.ready and link.cells == board.cells


def test_a_heartbeat_with_another_board_version_puts_the_copy_out_of_step():
    link, port, board, clock = linked()
    board.version += 1
    feed(link, port, clock, board.beat())
    assert not link.ready and asked_for_a_scan(port)


def test_a_frame_damaged_by_noise_asks_for_a_full_scan():
    link, port, board, clock = linked()
    bad = bytearray(board.change(4))
    bad[5] ^= 0x10
    feed(link, port, clock, bytes(bad))
    assert link.decoder.bad_crc + link.decoder.bad_cobs == 1 and link.suspect and asked_for_a_scan(port)


def test_a_frame_whose_end_never_came_asks_for_a_full_scan():
    link, port, board, clock = linked()
    feed(link, port, clock, board.change(4)[:-1])  # its zero byte lost; then the line is quiet
    clock.t += 0.05
    link.poll(0)
    assert link.decoder.cut_short == 1 and asked_for_a_scan(port)


def test_a_restart_whose_hello_was_lost_is_noticed_even_when_the_numbers_line_up():
    link, port, board, clock = linked()
    feed(link, port, clock, board.beat())
    # the board restarted: its HELLO, full scan and heartbeat were lost, and by chance its seq
    # and board version now match what the host expects. Its clock (ms since boot) went back.
    board.ms = 20
    feed(link, port, clock, board.change(2))
    assert link.stats["silent_restarts"] == 1 and not link.ready
    assert wire.QUERY in port.frames_sent() and asked_for_a_scan(port)


def test_seq_and_board_version_wrap_around_without_an_alarm_and_a_loss_across_the_wrap_is_seen():
    board = Board()
    board.seq = 0xFFFE
    link, port, board, clock = linked(board)  # hello 0xFFFE, full scan 0xFFFF
    board.version = 0xFFFF
    feed(link, port, clock, board.full())  # seq 0: the wrap
    feed(link, port, clock, board.change(4))  # board version 0xFFFF -> 0: the wrap
    assert link.ready and link.stats["lost"] == 0 and not asked_for_a_scan(port)
    assert board.version == 0
    board.seq = 0xFFFF
    link._expect = 0xFFFE  # the host last saw 0xFFFD ...
    feed(link, port, clock, board.beat())  # ... and 0xFFFE was lost: 0xFFFF arrives
    assert link.stats["lost"] == 1 and asked_for_a_scan(port)
    port.sent.clear()
    link._expect, board.seq = 0xFFFF, 1  # 0xFFFF and 0 lost across the wrap
    clock.t += 0.05
    feed(link, port, clock, board.beat())
    assert link.stats["lost"] == 3 and asked_for_a_scan(port)


# ============================================================================ cells the board does not have
def test_cells_the_board_does_not_have_are_set_aside_counted_shown_and_a_full_scan_asked():
    link, port, board, clock = linked()
    board.version += 1
    payload = wire.changes_payload(board.version, board.ms, [(4, wire.NORTH), (999, wire.NORTH), (65535, wire.SOUTH)])
    feed(link, port, clock, board._f(wire.CHANGES, payload))
    assert link.stats["bad_cells"] == 2 and link.bad_cells == [999, 65535]
    assert len(link.cells) == 9 and link.cells[4] == wire.NORTH
    assert not link.ready and "999, 65535" in link.problem and asked_for_a_scan(port)
    assert "999, 65535" in link.warning and "flash" in link.warning
    board.cells[4] = wire.NORTH
    feed(link, port, clock, board.full())
    assert link.ready and "999" in link.warning  # still shown for a while after
    clock.t += link.BAD_CELLS_SHOWN_S + 1
    feed(link, port, clock, board.beat())
    assert link.warning is None


# ============================================================================ the handshake
def board_answering(board: Board, from_query: int = 1):
    """A port that answers the host's ``from_query``-th QUERY (and every later one)."""
    count = [0]

    def answer(data: bytes) -> bytes:
        if wire.QUERY not in [t for _, t, _, _ in wire.Decoder().feed(data)]:
            return b""
        count[0] += 1
        return board.hello() + board.full() if count[0] >= from_query else b""

    return answer


def test_the_handshake_asks_again_with_backoff_and_succeeds_late():
    clock = Clock()
    port = Wire(clock, board_answering(Board(), from_query=6))
    link = SensorLink("mem", now=clock, opener=lambda name, baud: port)
    start = clock.t
    info = link.open()
    assert info.rows == 3 and link.ready
    queries = [t for t, data in port.sent if wire.QUERY in [k for _, k, _, _ in wire.Decoder().feed(data)]]
    times = [round(t - start, 2) for t in queries]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert len(times) == 6 and gaps == pytest.approx([0.1, 0.2, 0.25, 0.25, 0.25], abs=0.021), times


def test_the_handshake_gives_up_after_handshake_s_and_says_it_heard_silence():
    clock = Clock()
    port = Wire(clock)
    link = SensorLink("mem", now=clock, opener=lambda name, baud: port)
    with pytest.raises(DeviceError) as exc:
        link.open()
    assert "silence" in str(exc.value) and "6 s" in str(exc.value) and "plugged in" in str(exc.value)
    assert 23 <= len(port.frames_sent()) <= 27  # about 25 QUERYs in 6 s


@pytest.mark.parametrize("answer, says, not_says", [
    (lambda data: data, "an echo", "flash"),
    (lambda data: b"\r\nMicroPython v1.22.0 on 2024-01-01; Raspberry Pi Pico with RP2040\r\n>>> ", "MicroPython prompt",
     "too noisy"),
    (lambda data: b"$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n", "text, not frames",
     "too noisy"),
    (lambda data: random.Random(len(data)).randbytes(64), "another protocol", "too noisy"),
], ids=["echo", "micropython", "text", "binary"])
def test_a_port_that_will_not_shake_hands_is_named_by_what_it_said(answer, says, not_says):
    clock = Clock()
    port = Wire(clock, answer)
    link = SensorLink("mem", now=clock, opener=lambda name, baud: port)
    with pytest.raises(DeviceError) as exc:
        link.open()
    assert says in str(exc.value) and not_says not in str(exc.value), str(exc.value)


def test_a_board_too_noisy_to_shake_hands_is_told_to_check_the_cable_not_to_flash():
    table = None
    with pytest.raises(DeviceError) as exc:
        table, rig = serial_table("tapatan", device={"bit_errors": 0.35, "seed": 3})
    text = str(exc.value)
    assert "too noisy" in text and "cable" in text and "ground" in text and "baud" in text
    assert "flash" not in text and table is None


# ============================================================================ the line's health
def noisy_line(p: float, seed: int, frames: int = 200, size: int = 20) -> LineHealth:
    """``frames`` frames of ``size`` payload bytes, each byte spoilt with chance ``p``, fed through a
    Decoder into a LineHealth, as the host does."""
    rnd = random.Random(seed)
    health = LineHealth(window_s=1e9)
    dec = wire.Decoder()
    dec.observer = lambda n, seq: health.seen(n, seq, 0.0)
    for seq in range(frames):
        data = bytearray(wire.frame(wire.FULL_SCAN, seq, bytes(rnd.randrange(1, 256) for _ in range(size))))
        for i in range(len(data)):
            if rnd.random() < p:
                data[i] ^= 1 << rnd.randrange(8)
        dec.feed(bytes(data))
    return health


@pytest.mark.parametrize("p", [0.0, 0.01, 0.03, 0.06, 0.1, 0.2, 0.3])
def test_the_line_health_estimate_finds_the_share_of_bytes_spoilt(p):
    got = noisy_line(p, seed=int(p * 1000)).spoilt(0.0)
    if p < 0.2:
        assert abs(got - p) <= 0.25 * p + 0.004, (p, got)
    else:  # hardly a frame arrives whole: the estimate is rough, but far above the line
        assert got > 1.5 * NOISY, (p, got)


def test_the_line_is_called_noisy_above_eight_percent_and_quiet_again_below_six():
    assert not noisy_line(0.03, 1).noisy(0.0)
    h = noisy_line(0.12, 2)
    assert h.noisy(0.0) and NOISY == 0.08
    assert "of bytes spoilt" in h.describe(0.0)
    h.entries.clear()
    for seq in range(200, 240):  # a clean stretch
        h.seen(25, seq, 0.0)
    assert not h.noisy(0.0)


def test_the_noisy_verdict_follows_the_line_not_how_often_it_is_asked():
    h = LineHealth(window_s=4.0)
    seq, t = 0, 0.0

    def stretch(every: int, seconds: float) -> None:  # one frame in ``every`` arrives whole, 25 frames a second
        nonlocal seq, t
        end = t + seconds
        while t < end:
            for _ in range(every - 1):
                h.seen(20, None, t)
            seq += every
            h.seen(20, seq, t)
            t += every / 25

    stretch(13, 4.0)  # about 12% of bytes spoilt: noisy ...
    stretch(4, 4.0)  # ... then about 7%: between the two thresholds, so still noisy
    assert QUIET < h.spoilt(t) < NOISY
    assert h.noisy(t)  # never asked during the noisy stretch, and still it was heard


def test_the_estimate_needs_a_dozen_frames_and_garbage_without_a_lost_frame_counts_once():
    h = LineHealth()
    for seq in range(11):
        h.seen(20, seq, 0.0)
    assert h.spoilt(0.0) is None and h.describe(0.0) == "not judged yet"
    h.seen(20, 11, 0.0)
    assert h.spoilt(0.0) == 0.0
    h.seen(300, None, 0.0)  # 300 bytes of garbage, yet no frame missing
    h.seen(20, 12, 0.0)
    assert h.frames(0.0) == (13, 1) and 0 < h.spoilt(0.0) < 0.01


def test_maximum_likelihood_of_all_good_or_all_spoilt():
    assert estimate([(0, 20, 5, True)]) == 0.0
    assert 0.1 < estimate([(0, 20, 5, False)]) < estimate([(0, 20, 50, False)]) < 1.0


def test_heard_names_silence_and_damaged_frames_of_ours():
    h = Heard()
    assert h.verdict()[0] == "silence"
    f = bytearray(wire.frame(wire.HEARTBEAT, 1, wire.heartbeat_payload(0, 0, 0, 0, 0)))
    f[-3] ^= 0xFF
    h.received(bytes(f) * 3)
    assert h.verdict()[0] == "noise"


# ============================================================================ through the pty, seeded
@pytest.mark.parametrize("game", ["tapatan", "nine-mens-morris", "brain-hanky"])
def test_at_three_percent_bit_errors_the_handshake_succeeds_and_the_line_is_not_called_noisy(game):
    for seed in (1, 2):
        table, rig = serial_table(game, device={"bit_errors": 0.03, "seed": seed})
        try:
            table.wait(4.0)
            assert rig.link.health.spoilt(rig.link.now()) < NOISY
            assert rig.link.warning is None
        finally:
            rig.stop()


def test_at_ten_percent_the_play_screens_status_says_the_line_is_too_noisy_and_what_to_check():
    table, rig = serial_table("tapatan", device={"bit_errors": 0.10, "seed": 0})
    try:
        table.wait(4.0)
        line = status_line(table.session, table.time.t)
        assert "too noisy" in line and "cable" in line and "ground" in line and "baud" in line
    finally:
        rig.stop()


def test_a_ghost_report_from_the_virtual_board_reaches_the_status_line():
    table, rig = serial_table("tapatan")
    try:
        table.wait(0.1)
        rig.device.report_cells([(999, wire.NORTH), (65535, wire.NORTH)])
        table.wait(0.1)
        assert rig.link.stats["bad_cells"] == 2 and rig.link.ready
        assert "999, 65535" in status_line(table.session, table.time.t)
    finally:
        rig.stop()


def test_a_broken_sensor_reads_fault_until_mended():
    clock = SimClock()
    rig = SensorRig(PhysicalBoard(engine.load("tapatan"), {"a1": Piece(1, "man")}), clock=clock)
    try:
        rig.open()
        rig.fault("a1")
        clock.advance(0.1)
        rig.sync()
        cell = rig.map.cells["a1"]
        assert rig.link.cells[cell] == wire.FAULT
        rig.mend("a1")
        clock.advance(0.1)
        rig.sync()
        assert rig.link.cells[cell] == wire.NORTH
        with pytest.raises(ValueError, match="not a point"):
            rig.fault("z9")
    finally:
        rig.stop()
