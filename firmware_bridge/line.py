"""How good the serial line to a sensor board is, and what a port that does not answer is saying.

Two questions the host must answer in words a player can act on:

- **Is the line too noisy?** ``LineHealth`` keeps the last few seconds of what the decoder
  judged (runs of bytes ending in a zero: a good frame, or a spoilt one) and estimates the share
  of bytes spoilt on the way. A frame of n bytes arrives whole with chance (1-p)^n when each
  byte is spoilt with chance p, so the share of frames lost alone would overstate the noise for
  long frames and understate it for short ones; the estimate is the p that makes the frames seen
  most likely (maximum likelihood, by bisection). Above ``NOISY`` (8%) the link says the line is
  too noisy and what to check; the protocol rides out a few percent (docs/protocol.md).
- **Why did the handshake fail?** ``Heard`` keeps the first bytes a port sent and what the
  decoder made of them, and ``Heard.verdict`` names it: silence, a MicroPython prompt, other
  text, an echo of what the host sent, frames of ours too damaged to use (noise), or bytes of
  another protocol. Each has its own advice; only a board that is not running arbiter's firmware
  is told to flash it.
"""

from __future__ import annotations

from collections import deque

from . import wire

__all__ = ["CHECK_ADVICE", "Heard", "LineHealth", "NOISY", "QUIET"]

NOISY = 0.08  # spoilt share of bytes above which the line is called too noisy
QUIET = 0.06  # ... and below which it is called fine again (no flicker at the border)
CHECK_ADVICE = ("check the cable (a USB data cable, short, away from motors and mains wires), the ground between "
                "the board and the Raspberry Pi, and that both ends use 115200 baud")


class LineHealth:
    """A running estimate of the share of bytes spoilt on the line over the last ``window_s``.

    ``seen(nbytes, seq, t)`` for every run of bytes the decoder judged (``wire.Decoder``'s
    observer): a good frame and its sequence number, or spoilt bytes and None. Spoilt runs are
    not counted as frames one by one: a byte turned into a zero splits a frame in two and a
    zero lost joins two, so the frames lost are counted by the gap in the board's sequence
    numbers at the next good frame, each as long as the spoilt bytes shared between them.

    ``spoilt(t)`` is the estimate, or None while fewer than ``min_frames`` frames were seen in
    the window (too little to judge: at idle a board sends about 5 frames a second). ``noisy(t)``
    has hysteresis: on above ``NOISY``, off again below ``QUIET``.
    """

    JUDGE_EVERY_S = 0.25

    def __init__(self, window_s: float = 4.0, min_frames: int = 12):
        self.window_s = window_s
        self.min_frames = min_frames
        self.entries: deque[tuple[float, int, int, bool]] = deque()  # (t, bytes a frame, frames, arrived)
        self._last_seq: int | None = None
        self._bad_bytes = 0  # spoilt since the last good frame
        self._bad_runs = 0
        self._noisy = False
        self._judged_at = float("-inf")

    def seen(self, nbytes: int, seq: int | None, t: float) -> None:
        if seq is None:
            self._bad_bytes += nbytes
            self._bad_runs += 1
            return
        lost = None
        if self._last_seq is not None:
            gap = (seq - self._last_seq - 1) & 0xFFFF
            if gap < 1024:
                lost = gap
        if lost is None:  # the first frame, or the board restarted: count the spoilt runs instead
            lost = self._bad_runs
        if self._bad_bytes and not lost:
            lost = 1  # spoilt bytes, yet no frame missing: garbage on the line, one spoilt run
        if lost:
            each = max(1, round(self._bad_bytes / lost)) if self._bad_bytes else nbytes
            self.entries.append((t, each, lost, False))
        self.entries.append((t, nbytes, 1, True))
        if len(self.entries) > 4000:
            self.entries.popleft()
        self._last_seq = seq
        self._bad_bytes = self._bad_runs = 0
        if t - self._judged_at >= self.JUDGE_EVERY_S:  # the hysteresis follows the line, not who asks how often
            self._judged_at = t
            self.noisy(t)

    def _window(self, t: float) -> list[tuple[float, int, int, bool]]:
        while self.entries and t - self.entries[0][0] > self.window_s:
            self.entries.popleft()
        out = list(self.entries)
        if self._bad_bytes:  # spoilt bytes not yet followed by a good frame (maybe for longer than the window)
            n = max(1, self._bad_runs)
            out.append((t, max(1, round(self._bad_bytes / n)), n, False))
        return out

    def frames(self, t: float) -> tuple[int, int]:
        """(arrived, lost) frames in the window."""
        good = lost = 0
        for _, _, k, ok in self._window(t):
            if ok:
                good += k
            else:
                lost += k
        return good, lost

    def spoilt(self, t: float) -> float | None:
        runs = self._window(t)
        if sum(k for _, _, k, _ in runs) < self.min_frames:
            return None
        return estimate(runs)

    def noisy(self, t: float) -> bool:
        p = self.spoilt(t)
        if p is None:
            return self._noisy
        if self._noisy and p < QUIET:
            self._noisy = False
        elif not self._noisy and p > NOISY:
            self._noisy = True
        return self._noisy

    def describe(self, t: float) -> str:
        p = self.spoilt(t)
        if p is None:
            return "not judged yet"
        good, lost = self.frames(t)
        return f"about {p:.1%} of bytes spoilt, {lost} of {good + lost} frames lost"


def estimate(runs) -> float:
    """The share p of bytes spoilt that makes ``runs`` most likely: (t, bytes a frame, frames,
    arrived) each.

    log L(q) = sum over good runs of n log q + sum over spoilt runs of log(1 - q^n), q = 1 - p;
    its slope in q falls from +inf to -inf, so the root is found by bisection.
    """
    groups: dict[tuple[int, bool], int] = {}
    for _, n, k, ok in runs:
        groups[(n, ok)] = groups.get((n, ok), 0) + k
    if not any(not ok for _, ok in groups):
        return 0.0
    if not any(ok for _, ok in groups):
        # no frame arrived whole: the likeliest p is 1, which says less than it seems; count half
        # a frame of the usual length as arrived, for a figure that grows with the evidence
        total = sum(n * k for (n, _), k in groups.items())
        groups[(max(1, round(total / sum(groups.values()))), True)] = 0.5

    def slope(q: float) -> float:
        s = 0.0
        for (n, ok), k in groups.items():
            if ok:
                s += k * n / q
            else:
                qn = q ** n
                s -= k * n * q ** (n - 1) / max(1e-300, 1.0 - qn)
        return s

    lo, hi = 1e-9, 1.0 - 1e-12
    for _ in range(60):
        mid = (lo + hi) / 2
        if slope(mid) > 0:
            lo = mid
        else:
            hi = mid
    return max(0.0, 1.0 - (lo + hi) / 2)


class Heard:
    """What a port sent while the host waited for a HELLO, kept to name it if none came."""

    KEEP = 4096  # bytes kept: enough to recognise text or a prompt

    def __init__(self):
        self.data = bytearray()
        self.total = 0
        self.sent = bytearray()
        self.echoes = 0  # frames of the host's own kinds (QUERY...) that came back
        self.ours = 0  # good frames of this protocol from the board

    def received(self, data: bytes) -> None:
        self.total += len(data)
        room = self.KEEP - len(self.data)
        if room > 0:
            self.data += data[:room]

    def wrote(self, data: bytes) -> None:
        if len(self.sent) < self.KEEP:
            self.sent += data

    def looks_ours(self) -> int:
        """Runs that look like this protocol's frames, whole or damaged: in a COBS-encoded frame the
        version is the second byte and the message type the third (neither is ever zero), and a
        bit error elsewhere in the frame leaves them be."""
        n = 0
        for chunk in bytes(self.data).split(b"\x00"):
            if len(chunk) >= 6 and chunk[1] == wire.VERSION and chunk[2] in wire.TYPE_NAMES:
                n += 1
        return n

    def verdict(self, health: LineHealth | None = None, t: float = 0.0) -> tuple[str, str]:
        """(kind, words): kind is silence, echo, micropython, text, noise or protocol."""
        data = bytes(self.data)
        if self.total == 0:
            return "silence", "silence (not one byte)"
        if self.echoes or (len(self.sent) >= 8 and bytes(self.sent[:8]) in data):
            return "echo", f"an echo: the {len(self.sent)} bytes arbiter sent came back"
        if b">>>" in data or b"MicroPython" in data or b"raw REPL" in data:
            return "micropython", "a MicroPython prompt (the board runs MicroPython but not arbiter's firmware)"
        printable = sum(1 for b in data if 32 <= b < 127 or b in (9, 10, 13))
        if printable >= 0.9 * len(data):
            sample = data[:48].decode("ascii", "replace").replace("\r", " ").replace("\n", " ").strip()
            return "text", f"text, not frames ({sample!r})"
        looks = self.looks_ours()
        if self.ours or looks:
            p = health.spoilt(t) if health is not None else None
            share = f", about {p:.0%} of bytes spoilt" if p is not None else ""
            return "noise", (f"arbiter's frames, but too damaged by noise to use ({self.ours} whole of about "
                             f"{max(looks, self.ours)}{share})")
        return "protocol", f"{self.total} bytes of another protocol (none of them arbiter's frames)"

