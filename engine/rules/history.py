"""Repetition history shared by the rulesets (ruling G-3: the third repetition draws)."""

from __future__ import annotations


class History:
    """Position keys since the last irreversible step, shared along one line of play.

    States are immutable, but copying the whole history into every new state costs O(n) per
    step. Instead a line of play shares one append-only list and a count per key; a state
    remembers how far into the line it stands. Extending from the tip is O(1); extending from an
    older state (a branch, as when the referee tries candidate steps) copies the prefix first.
    """

    __slots__ = ("keys", "counts")

    def __init__(self, keys: list[int] | None = None):
        self.keys = keys if keys is not None else []
        counts: dict[int, int] = {}
        for k in self.keys:
            counts[k] = counts.get(k, 0) + 1
        self.counts = counts


def record(line: "History | None", depth: int, key) -> tuple["History", int]:
    """Append ``key`` after the first ``depth`` keys of ``line``; return the line and prior count."""
    if line is None:
        line = History()
    elif len(line.keys) != depth:
        line = History(line.keys[:depth])
    counts = line.counts
    seen = counts.get(key, 0)
    counts[key] = seen + 1
    line.keys.append(key)
    return line, seen
