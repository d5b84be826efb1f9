"""What a reader reports of the physical board, and how a position looks to that reader.

Every reader (the camera, a serial sensor grid, the simulators) turns the board into an
``Observation``: for each *spot* where a piece can stand, what is there and how sure the reader
is. Readers differ in what they can see, declared by ``sees``:

``"colour"``     owner and kind (the camera: a white ring, a gold gem, a black man)
``"polarity"``   owner only (a hall-sensor grid under magnets of two polarities)
``"occupancy"``  occupied or not (a reed-switch grid)

The referee compares observations with the positions the engine predicts. ``view(position,
spots, sees)`` reduces a position to exactly what such a reader could see, and
``Observation.view()`` does the same for a reading, so the two compare with ``==``.

A reading names every spot of the board. A spot the reader cannot read (a sensor reporting a
fault) is ``Reading.unknown(note)``, whose view value is ``UNREAD``: never empty, because an
empty spot read where a man stands lets a removal nobody made be accepted. ``check`` is the one
validation at the referee's door: a reading that lacks a spot, names one the board does not
have, or carries a value of the wrong type or a NaN is a reader's bug, and raises
``ReadingError`` naming the spot rather than being guessed at.

This lives in ``engine`` because every package that makes or consumes observations (vision,
firmware_bridge, arbiter) may import the engine and nothing else of ours; it is plain data with
no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from numbers import Integral, Real
from typing import Any

from .core import Piece

SEES = ("colour", "polarity", "occupancy")
OCCUPIED = "occupied"  # the view value of an occupied spot for an occupancy-only reader


class _Unread:
    """The view value of a spot the reader could not read: equal only to itself, and never None."""

    __slots__ = ()
    _one: "_Unread | None" = None

    def __new__(cls) -> "_Unread":
        if cls._one is None:
            cls._one = super().__new__(cls)
        return cls._one

    def __repr__(self) -> str:
        return "UNREAD"

    def __reduce__(self) -> str:
        return "UNREAD"  # one object, even through pickle


UNREAD = _Unread()


class ReadingError(ValueError):
    """A reading that breaks the contract of ``Observation``: a reader's bug, said plainly, naming
    the spot. Raised by ``check`` at the referee's door, never guessed past."""


@dataclass(frozen=True)
class Reading:
    """One spot: ``piece`` is None for empty. ``confidence`` in 0..1.

    Readers that cannot see owners or kinds still report a ``Piece``; ``Observation.sees`` says
    which of its fields mean anything (owner 0 / kind "piece" for an occupancy reader).
    ``colour`` is for readers of coloured holes (Brainmaster pegs), None elsewhere.

    ``probs``: how likely the reader found each class here, as view values of its own kind
    (``(owner, kind)`` for a colour reader, None for an empty spot) to probabilities; None when
    the reader gives only its choice. The referee weighs unsure readings with them.

    ``note``: None for a spot read; for a spot the reader could not read (``Reading.unknown``),
    why, in words that finish "I can't read a7: ..." ("the sensor under it reports a fault").
    """

    piece: Piece | None
    confidence: float = 1.0
    colour: str | None = None
    probs: Mapping[Any, float] | None = None
    note: str | None = None

    @classmethod
    def unknown(cls, note: str) -> "Reading":
        """A spot the reader could not read: not empty, not anything; the referee weighs every
        value the game allows there. ``note`` says why, for the players."""
        return cls(None, 0.0, note=note)

    @property
    def known(self) -> bool:
        """Whether the reader read this spot (False for ``Reading.unknown``)."""
        return self.note is None


def _value(piece: Piece | None, sees: str) -> Any:
    if piece is None:
        return None
    if sees == "colour":
        return (piece.owner, piece.kind)
    if sees == "polarity":
        return piece.owner
    return OCCUPIED


def spots_of(game) -> tuple[str, ...]:
    """Every place a piece of ``game`` can stand (``Rules.spots``: the board's points, then its
    cells off the graph, such as Brain Hanky's gem squares)."""
    return tuple(game.rules.spots)


def view(position: Mapping[str, Any], spots, sees: str = "colour") -> dict[str, Any]:
    """What a ``sees`` reader would report of ``position`` at each spot (None for empty)."""
    if sees not in SEES:
        raise ValueError(f"unknown reader kind {sees!r}; one of {', '.join(SEES)}")
    return {s: _value(position.get(s), sees) for s in spots}


@dataclass(frozen=True)
class Observation:
    """One reading of the whole board.

    ``occluded``: the reader could not see the board (a hand over it, the board not found); then
    ``points`` is empty and ``reason`` says why. Otherwise ``points`` has every spot.
    """

    points: Mapping[str, Reading] = field(default_factory=dict)
    sees: str = "colour"
    occluded: bool = False
    reason: str = ""

    def __post_init__(self) -> None:
        if self.sees not in SEES:
            raise ValueError(f"unknown reader kind {self.sees!r}; one of {', '.join(SEES)}")
        if self.occluded and self.points:
            raise ValueError("an occluded observation carries no readings")

    @classmethod
    def blocked(cls, reason: str, sees: str = "colour") -> Observation:
        """No reading: the board is covered or could not be located."""
        return cls({}, sees, True, reason)

    @classmethod
    def of_position(cls, position: Mapping[str, Any], spots, sees: str = "colour",
                    unread: Mapping[str, str] | None = None) -> Observation:
        """What a perfect ``sees`` reader reports of ``position`` (for simulators and tests);
        ``unread``: spots it cannot read, each with its note (``Reading.unknown``)."""
        points = {}
        unread = unread or {}
        for s in spots:
            if s in unread:
                points[s] = Reading.unknown(unread[s])
                continue
            p = position.get(s)
            if p is not None and sees != "colour":
                p = Piece(p.owner if sees == "polarity" else 0, "piece")
            points[s] = Reading(p, 1.0)
        return cls(points, sees)

    def view(self) -> dict[str, Any]:
        """Spot -> what this reader sees there, comparable with ``view(position, spots, sees)``;
        ``UNREAD`` where it could not read the spot."""
        sees = self.sees
        return {s: _value(r.piece, sees) if r.note is None else UNREAD for s, r in self.points.items()}

    def unread(self) -> dict[str, str]:
        """Spot -> the reader's note, for each spot it could not read."""
        return {s: r.note for s, r in self.points.items() if r.note is not None}

    def differs(self, position: Mapping[str, Any]) -> list[str]:
        """The spots read that disagree with ``position`` (as this reader sees it)."""
        want = view(position, self.points, self.sees)
        return [s for s, v in self.view().items() if v is not UNREAD and want[s] != v]

    def min_confidence(self) -> float:
        """The least confidence over the spots read (an unread spot is not an unsure one: the
        referee weighs it, so it must not keep a board from settling)."""
        return min((r.confidence for r in self.points.values() if r.note is None), default=0.0)

    def to_json(self) -> dict[str, Any]:
        """The JSON shape of ``arbiter read --json``: owners numbered as in ``State.position()``."""
        pts: dict[str, Any] = {}
        for s, r in self.points.items():
            if r.note is not None:
                pts[s] = {"unknown": r.note}
                continue
            if r.colour is not None:
                entry: dict[str, Any] = {"colour": r.colour}
            elif r.piece is None:
                entry = {"piece": None}
            else:
                entry = {"piece": {"owner": r.piece.owner, "kind": r.piece.kind}}
            entry["confidence"] = round(float(r.confidence), 4)
            if r.probs:
                entry["probs"] = [{"value": list(v) if isinstance(v, tuple) else v, "p": round(float(p), 4)}
                                  for v, p in sorted(r.probs.items(), key=lambda kv: -kv[1])]
            pts[s] = entry
        out: dict[str, Any] = {"occluded": self.occluded, "sees": self.sees, "points": pts}
        if self.reason:
            out["reason"] = self.reason
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Observation:
        points = {}
        for s, e in data.get("points", {}).items():
            if "unknown" in e:
                points[s] = Reading.unknown(str(e["unknown"]))
                continue
            piece = e.get("piece")
            probs = {(tuple(p["value"]) if isinstance(p["value"], list) else p["value"]): float(p["p"])
                     for p in e.get("probs", ())} or None
            points[s] = Reading(None if piece is None else Piece(int(piece["owner"]), str(piece["kind"])),
                                float(e.get("confidence", 1.0)), e.get("colour"), probs)
        return cls(points, data.get("sees", "colour"), bool(data.get("occluded", False)), data.get("reason", ""))


# ---------------------------------------------------------------------- the check at the door
_ROUNDING = 1e-9  # a probability summed or normalised in floating point may land a hair past 0 or 1


def _probability(x: Any) -> bool:
    return (isinstance(x, Real) and not isinstance(x, bool) and math.isfinite(x)
            and -_ROUNDING <= x <= 1.0 + _ROUNDING)


def _whole(x: Any) -> bool:
    """A whole number (numpy's too), not a bool."""
    return isinstance(x, Integral) and not isinstance(x, bool)


def _seeable(value: Any, sees: str) -> bool:
    """Whether ``value`` is a view value a ``sees`` reader can report (a ``probs`` key)."""
    if value is None:
        return True
    if sees == "occupancy":
        return value == OCCUPIED
    if sees == "polarity":
        return _whole(value)
    return isinstance(value, tuple) and len(value) == 2 and _whole(value[0]) and isinstance(value[1], str)


def check_reading(spot: str, reading: Any, sees: str) -> None:
    """Raise ``ReadingError`` naming ``spot`` unless ``reading`` is a well-formed ``Reading`` of a
    ``sees`` reader."""
    if not isinstance(reading, Reading):
        raise ReadingError(f"{spot}: the reader gave {type(reading).__name__} {reading!r}, not a Reading "
                           f"(use Reading.unknown(note) for a spot it cannot read)")
    if reading.note is not None:
        if not isinstance(reading.note, str) or not reading.note.strip():
            raise ReadingError(f"{spot}: an unread spot's note must say why in words, not {reading.note!r}")
        if reading.piece is not None or reading.probs:
            raise ReadingError(f"{spot}: an unread spot carries no piece and no probabilities")
        return
    piece = reading.piece
    if piece is not None:
        if not isinstance(piece, Piece):
            raise ReadingError(f"{spot}: the piece is {type(piece).__name__} {piece!r}, not a Piece "
                               f"(write Piece(owner, kind), or None for an empty spot)")
        if not _whole(piece.owner) or not isinstance(piece.kind, str):
            raise ReadingError(f"{spot}: {piece!r} needs a whole-number owner and a kind in words")
    if not _probability(reading.confidence):
        raise ReadingError(f"{spot}: confidence {reading.confidence!r} is not a number from 0 to 1")
    if reading.colour is not None and not isinstance(reading.colour, str):
        raise ReadingError(f"{spot}: colour {reading.colour!r} is not a colour name")
    probs = reading.probs
    if probs is not None:
        if not isinstance(probs, Mapping):
            raise ReadingError(f"{spot}: probs is {type(probs).__name__}, not a mapping from value to probability")
        for value, p in probs.items():
            if not _seeable(value, sees):
                raise ReadingError(f"{spot}: probs names {value!r}, which a {sees} reader cannot see")
            if not _probability(p):
                raise ReadingError(f"{spot}: probability {p!r} of {value!r} is not a number from 0 to 1")


def check(observation: Any, spots=None) -> Observation:
    """The one validation at the referee's door; returns ``observation`` when it is sound.

    Raises ``ReadingError``, naming the spot, for: something that is not an ``Observation``; a
    spot of ``spots`` missing (when ``spots`` is given: a reader must name every spot, marking one
    it cannot read ``Reading.unknown``); a name that is not one of ``spots``; a value that is not
    a ``Reading``; a piece that is not a ``Piece``; a NaN or out-of-range confidence or
    probability; probabilities keyed by values this reader cannot see. A blocked (occluded)
    observation carries no readings and passes.
    """
    if not isinstance(observation, Observation):
        raise ReadingError(f"the reader gave {type(observation).__name__}, not an Observation")
    if observation.occluded:
        return observation
    points = observation.points
    if not isinstance(points, Mapping):
        raise ReadingError(f"the reading's points are {type(points).__name__}, not a mapping from spot to Reading")
    sees = observation.sees
    for spot, reading in points.items():
        # the common case at a glance (a referee checks every board of every frame); anything
        # else gets the full look, which names what is wrong
        if type(reading) is Reading and reading.note is None and reading.probs is None and reading.colour is None:
            piece, c = reading.piece, reading.confidence
            if ((piece is None or (type(piece) is Piece and type(piece.owner) is int and type(piece.kind) is str))
                    and type(c) is float and 0.0 <= c <= 1.0):
                continue
        check_reading(spot, reading, sees)
    if spots is not None:
        if len(points) != len(spots) or any(s not in points for s in spots):
            missing = [s for s in spots if s not in points]
            if missing:
                raise ReadingError(f"the reading has no {', '.join(missing[:5])}{'...' if len(missing) > 5 else ''}: "
                                   f"a reader names every spot (Reading.unknown(note) for one it cannot read)")
            known = set(spots)
            extra = [s for s in points if s not in known]
            raise ReadingError(f"the reading names {', '.join(map(repr, extra[:5]))}, not "
                               f"{'a spot' if len(extra) == 1 else 'spots'} of this board")
    return observation
