"""The games a phone may start: every game of the engine's catalogue, its summary, its players
and its options (name, kind, default, help), as the owner's setup page lists them. Read from the
engine's specs, so a game added there is offered here with nothing more."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import engine

__all__ = ["catalogue"]

KINDS = {bool: "bool", int: "int", float: "float", str: "str"}


@lru_cache(maxsize=1)
def catalogue() -> list[dict[str, Any]]:
    out = []
    for name in engine.names():
        spec = engine.spec(name)
        try:
            players = engine.load(name).players
        except Exception:  # a game that does not load with its defaults is not offered
            continue
        options = [{"name": o.name, "kind": KINDS.get(o.kind, "str"), "default": o.default, "help": o.help}
                   for o in spec.options]
        out.append({"name": name, "summary": spec.summary, "players": players, "options": options})
    return out
