"""Contact debouncing for a grid of sensors: report an edge at once, then hold the cell still.

Runs on the Pico (MicroPython, as ``debounce.py``) and on the host (the virtual device and the
tests), so it is plain Python.

Why *eager* debouncing. A reed switch bounces for a millisecond or two after it closes. The
usual cure, waiting for N equal readings in a row, adds N-1 scan periods to every move: at a
100 Hz scan, two readings already cost up to 20 ms. Instead a cell's change is reported on the
first scan that sees it, and the cell's readings are then ignored for ``lockout`` scans, long
enough for any bounce to die away; after that the cell is compared again and, if it now reads
otherwise, the new state is reported. So a move costs one scan at most, a bouncing contact is
reported once (or, if the first reading caught a bounce, corrected ``lockout`` scans later),
and the host's stabiliser, which waits for the board to hold still, never sees the chatter.

Guarantees (tests/test_serial_protocol.py checks them on random bounce patterns):

- once a cell's raw reading has settled on a value, the reported state equals it no later than
  ``lockout + 1`` scans after, and stays there;
- a cell is reported at most once in any ``lockout + 1`` consecutive scans.
"""


class Debouncer:
    """Per-cell eager debouncing: ``update(raw)`` returns the (cell, state) pairs to report."""

    def __init__(self, count, lockout=3, initial=None):
        self.count = count
        self.lockout = lockout
        self.state = list(initial) if initial is not None else [0] * count
        self.hold = [0] * count

    def update(self, raw):
        changes = []
        state = self.state
        hold = self.hold
        lock = self.lockout
        for i in range(self.count):
            if hold[i]:
                hold[i] -= 1
                continue
            v = raw[i]
            if v != state[i]:
                state[i] = v
                hold[i] = lock
                changes.append((i, v))
        return changes
