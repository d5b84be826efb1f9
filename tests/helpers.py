"""Shared helpers for the rulebook-driven rule tests (tests/test_rules_*.py), one for the
camera tests (covering a printed board's corner markers in a simulated frame), and one for tests that
stop a child process with Ctrl-C.

Positions are only ever reached by legal play from the start of a game: there is no position
editor, so every helper here plays step texts one at a time and reports which step was refused.
"""

from __future__ import annotations

from typing import Iterable

import pytest

import engine

# Home ranks of the 3x3 games (boards.md section 1).
HOME = {1: ("a1", "d1", "g1"), 2: ("a7", "d7", "g7")}

# The sixteen rows of the three-square board (boards.md section 1), written out by hand so the
# tests do not borrow the engine's own board tables.
MORRIS9_LINES = (
    ("a1", "d1", "g1"), ("g1", "g4", "g7"), ("g7", "d7", "a7"), ("a7", "a4", "a1"),
    ("b2", "d2", "f2"), ("f2", "f4", "f6"), ("f6", "d6", "b6"), ("b6", "b4", "b2"),
    ("c3", "d3", "e3"), ("e3", "e4", "e5"), ("e5", "d5", "c5"), ("c5", "c4", "c3"),
    ("d1", "d2", "d3"), ("d5", "d6", "d7"), ("a4", "b4", "c4"), ("e4", "f4", "g4"),
)
CORNER_DIAGONALS = (("a1", "b2", "c3"), ("g1", "f2", "e3"), ("g7", "f6", "e5"), ("a7", "b6", "c5"))
MORABARABA_LINES = MORRIS9_LINES + CORNER_DIAGONALS
MORRIS9_POINTS = tuple(sorted({p for line in MORRIS9_LINES for p in line}))


def edges_of(lines) -> set[frozenset]:
    """On the three-square boards every edge lies on a row, so the rows give the edges."""
    return {frozenset(pair) for line in lines for pair in zip(line, line[1:])}


def adjacent(lines, a: str, b: str) -> bool:
    return frozenset((a, b)) in edges_of(lines)


def load(game: str | engine.Game, **options) -> engine.Game:
    return engine.load(game, **options) if isinstance(game, str) else game


def play_all(game, steps: Iterable[str], state=None, **options):
    """Play ``steps`` (notation texts) from the start of ``game`` (or from ``state``).

    A refused step fails the test with its index and the engine's reason, so a broken scenario
    says exactly where it went wrong.
    """
    s = state if state is not None else load(game, **options).new()
    for i, text in enumerate(steps):
        try:
            s = s.play(text)
        except engine.IllegalStep as exc:  # pragma: no cover - only on failure
            pytest.fail(f"step {i} ({text!r}) was refused: {exc.reason}\nposition: {s!r}")
    return s


def owners(state) -> dict[str, int]:
    """{point: owning player} for every occupied point."""
    return {p: pc.owner for p, pc in state.position().items()}


def points_of(state, player: int) -> set[str]:
    return {p for p, o in owners(state).items() if o == player}


def legal(state) -> set[str]:
    return {str(s) for s in state.legal_steps()}


def reason_of(state, text: str) -> str:
    """The engine's reason for refusing ``text``; fails the test if the step is accepted."""
    with pytest.raises(engine.IllegalStep) as info:
        state.play(text)
    why = state.why_illegal(text)
    assert why is not None, f"{text} raised IllegalStep but why_illegal() says it is legal"
    return info.value.reason.lower()


def interleave(first: Iterable[str], second: Iterable[str]) -> list[str]:
    """Alternate placements: first[0], second[0], first[1], second[1], ..."""
    out: list[str] = []
    a, b = list(first), list(second)
    for i in range(max(len(a), len(b))):
        if i < len(a):
            out.append(a[i])
        if i < len(b):
            out.append(b[i])
    return out


def cover_markers(image, frame, board, ids, colour, grow: float):
    """``image`` (a picture of ``frame``, a ``vision.sim.SimFrame``) with the corner markers
    ``ids`` painted over in ``colour``, ``grow`` times their size (so part of their quiet zone
    too), as a cup, a card or a sleeve would hide them."""
    import cv2
    import numpy as np

    from vision import markers

    out = image.copy()
    for m in markers.marker_layout(board):
        if m.id in ids:
            c = np.array(m.centre)
            quad = c + (m.corners().astype(np.float64) - c) * grow
            cv2.fillConvexPoly(out, np.round(frame.project(quad)).astype(np.int32), colour)
    return out


def ctrl_c_reaches_it() -> None:
    """A child's ``preexec_fn``: SIGINT unblocked and at its default, so that Python in the child
    turns the test's Ctrl-C into KeyboardInterrupt, as on a terminal. A child inherits the test
    process's SIGINT ignored or blocked (a run started in the background, a test that blocked it),
    and then never stops on it (seen in clean-clone runs, 2026-12-07)."""
    import signal

    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)
