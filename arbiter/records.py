"""Game records: the JSON file format, loading with clear errors, and replay through the engine.

A record is ``{"game": "nine-mens-morris", "options": {...}, "steps": ["d2", "d6", ...]}``.
Options use the same names as ``engine.load`` keyword arguments and command-line flags. The
journal of a refereed game exports to this format, and ``arbiter replay`` reads it back.
"""

from __future__ import annotations

import json
import os
from itertools import islice
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine

from .files import write_atomic


class RecordError(ValueError):
    """A record file that cannot be used: unreadable, malformed, unknown game or option."""


@dataclass
class Record:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    steps: list[str] = field(default_factory=list)
    chooser: list[int] | None = None  # Brain Hanky's move chooser: the k drawn for each turn

    def as_dict(self) -> dict[str, Any]:
        out = {"game": self.game, "options": dict(self.options), "steps": list(self.steps)}
        if self.chooser is not None:
            out["chooser"] = list(self.chooser)
        return out

    def new_state(self, game: engine.Game):
        """The start state, with the recorded move-chooser draws where the game uses them."""
        if game.rules.draw_values is not None:
            if self.chooser is None:
                raise RecordError(f"{game.name} with move_chooser needs the drawn k values: "
                                  f"add \"chooser\": [2, 3, 1, ...] to the record")
            try:
                return game.new(draws=self.chooser)
            except ValueError as exc:
                raise RecordError(str(exc)) from None
        return game.new()

    def load_game(self) -> engine.Game:
        try:
            return engine.load(self.game, **self.options)
        except (engine.UnknownGame, engine.BadOption) as exc:
            raise RecordError(str(exc)) from None


def parse_record(data: Any, source: str = "record") -> Record:
    """Check the shape of decoded JSON and build a Record; every problem names what to fix."""
    if not isinstance(data, dict):
        raise RecordError(f"{source}: expected a JSON object with \"game\" and \"steps\", got {type(data).__name__}")
    unknown = set(data) - {"game", "options", "steps", "chooser", "result", "comment"}
    if unknown:
        raise RecordError(f"{source}: unknown field(s) {', '.join(sorted(unknown))}; a record has game, options, steps")
    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise RecordError(f"{source}: \"game\" must be a game name such as \"nine-mens-morris\"")
    options = data.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RecordError(f"{source}: \"options\" must be an object such as {{\"flying\": true}}")
    steps = data.get("steps", [])
    if not isinstance(steps, list) or not all(isinstance(s, str) for s in steps):
        raise RecordError(f"{source}: \"steps\" must be a list of step texts such as [\"d2\", \"d6\"]")
    chooser = data.get("chooser")
    if chooser is not None and (not isinstance(chooser, list) or not all(
            isinstance(k, int) and not isinstance(k, bool) and 1 <= k <= 3 for k in chooser)):
        raise RecordError(f"{source}: \"chooser\" must be a list of move counts 1-3 such as [2, 3, 1]")
    return Record(game, dict(options), list(steps), chooser)


def load_record(path: str | os.PathLike[str]) -> Record:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{p}: is a folder, not a record file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{p}: cannot read it ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{p}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    return parse_record(data, str(p))


def save_record(record: Record, path: str | os.PathLike[str]) -> None:
    """Write atomically (``arbiter.files``) so a power cut never leaves half a record."""
    write_atomic(path, json.dumps(record.as_dict(), indent=1) + "\n")


@dataclass
class Replay:
    """The outcome of replaying a record: the last legal state and the first illegal step, if any."""

    record: Record
    game: engine.Game
    state: Any
    applied: int
    illegal: dict[str, Any] | None

    @property
    def legal(self) -> bool:
        return self.illegal is None

    def as_dict(self, steps_limit: int = 1000) -> dict[str, Any]:
        """The replay as JSON data; at most ``steps_limit`` legal steps are listed.

        Crowded Brain Hanky positions can have hundreds of thousands of distinct moves; past the
        limit the list holds the first ones found and ``legal_steps_truncated`` is true.
        """
        st = self.state
        stream = st.iter_steps() if hasattr(st, "iter_steps") else iter(st.legal_steps())
        listed = list(islice(stream, steps_limit + 1))
        truncated = len(listed) > steps_limit
        out = {
            "game": self.game.name,
            "options": self.game.options,
            "legal": self.legal,
            "applied": self.applied,
            "illegal": self.illegal,
            "to_move": st.to_move,
            "phase": st.phase,
            "result": st.result.as_dict() if st.result else None,
            "position": {p: pc.owner for p, pc in sorted(st.position().items())},
            "legal_steps": sorted(str(s) for s in listed[:steps_limit]),
        }
        if truncated:
            out["legal_steps_truncated"] = True
        if st.draws():
            out["chooser"] = st.draws()
        stacks = self.stacks()
        if stacks:
            out["stacks"] = stacks
        return out

    def stacks(self) -> dict[str, list[int]]:
        """Where pieces stand on each other (Stack, Tableaux): spot -> owners, bottom first."""
        st = self.state
        if self.game.rules.stack_limit <= 1:
            return {}
        piles = {p: st.stack(p) for p in sorted(st.position())}
        return {p: [pc.owner for pc in pile] for p, pile in piles.items() if len(pile) > 1}


def replay(record: Record) -> Replay:
    """Play the record's steps from the start, stopping at the first illegal one."""
    game = record.load_game()
    state = record.new_state(game)
    for i, text in enumerate(record.steps):
        try:
            state = state.play(text)
        except engine.IllegalStep as exc:
            return Replay(record, game, state, i, {"index": i, "step": text, "reason": exc.reason})
    return Replay(record, game, state, len(record.steps), None)
