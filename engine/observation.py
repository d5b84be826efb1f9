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

This lives in ``engine`` because every package that makes or consumes observations (vision,
firmware_bridge, arbiter) may import the engine and nothing else of ours; it is plain data with
no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .core import Piece

SEES = ("colour", "polarity", "occupancy")
OCCUPIED = "occupied"  # the view value of an occupied spot for an occupancy-only reader


@dataclass(frozen=True)
class Reading:
    """One spot: ``piece`` is None for empty. ``confidence`` in 0..1.

    Readers that cannot see owners or kinds still report a ``Piece``; ``Observation.sees`` says
    which of its fields mean anything (owner 0 / kind "piece" for an occupancy reader).
    ``colour`` is for readers of coloured holes (Brainmaster pegs), None elsewhere.

    ``probs``: how likely the reader found each class here, as view values of its own kind
    (``(owner, kind)`` for a colour reader, None for an empty spot) to probabilities; None when
    the reader gives only its choice. The referee weighs unsure readings with them.
    """

    piece: Piece | None
    confidence: float = 1.0
    colour: str | None = None
    probs: Mapping[Any, float] | None = None


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
    def of_position(cls, position: Mapping[str, Any], spots, sees: str = "colour") -> Observation:
        """What a perfect ``sees`` reader reports of ``position`` (for simulators and tests)."""
        points = {}
        for s in spots:
            p = position.get(s)
            if p is not None and sees != "colour":
                p = Piece(p.owner if sees == "polarity" else 0, "piece")
            points[s] = Reading(p, 1.0)
        return cls(points, sees)

    def view(self) -> dict[str, Any]:
        """Spot -> what this reader sees there, comparable with ``view(position, spots, sees)``."""
        return {s: _value(r.piece, self.sees) for s, r in self.points.items()}

    def differs(self, position: Mapping[str, Any]) -> list[str]:
        """The spots where this reading disagrees with ``position`` (as this reader sees it)."""
        want = view(position, self.points, self.sees)
        return [s for s, v in self.view().items() if want[s] != v]

    def min_confidence(self) -> float:
        return min((r.confidence for r in self.points.values()), default=0.0)

    def to_json(self) -> dict[str, Any]:
        """The JSON shape of ``arbiter read --json``: owners numbered as in ``State.position()``."""
        pts: dict[str, Any] = {}
        for s, r in self.points.items():
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
            piece = e.get("piece")
            probs = {(tuple(p["value"]) if isinstance(p["value"], list) else p["value"]): float(p["p"])
                     for p in e.get("probs", ())} or None
            points[s] = Reading(None if piece is None else Piece(int(piece["owner"]), str(piece["kind"])),
                                float(e.get("confidence", 1.0)), e.get("colour"), probs)
        return cls(points, data.get("sees", "colour"), bool(data.get("occluded", False)), data.get("reason", ""))
