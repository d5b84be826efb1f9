"""The journals folder as the page's History: a list of games, each replayed step by step.

Only this module touches the file system for the page, and only inside one folder: a game is
asked for by its journal's file name, which must be one of the names ``list_journals`` finds in
that folder (a plain name, no path, ending ``.jsonl``), so no request can name a file elsewhere.
A journal is read with the journal's own reader; one that does not read is listed with why.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import engine

from .. import referee as R
from ..journal import JournalError, list_journals, load_journal, replay_journal
from ..records import RecordError
from .svg import board_svg

__all__ = ["History", "HistoryError"]

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,150}\.jsonl$")
MAX_LISTED = 500


class HistoryError(LookupError):
    """A game the folder does not hold (or that does not read), said for the page."""


class History:
    """The games kept in ``folder`` (the journals folder of ``arbiter play``)."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self._cache: dict[str, tuple[int, Any]] = {}

    def _path(self, name: str) -> Path:
        if not isinstance(name, str) or not NAME.match(name):
            raise HistoryError("no such game")
        for p in list_journals(self.folder):
            if p.name == name:
                return p
        raise HistoryError("no such game")

    def _contents(self, path: Path):
        stamp = path.stat().st_mtime_ns
        held = self._cache.get(path.name)
        if held is None or held[0] != stamp:
            contents = load_journal(path)
            held = self._cache[path.name] = (stamp, (contents, _result(contents)))
        return held[1][0]

    def _result_of(self, path: Path) -> str:
        self._contents(path)
        return self._cache[path.name][1][1]

    def games(self) -> list[dict[str, Any]]:
        """Every game in the folder, latest first: date, game, players, steps, result."""
        out = []
        for path in list_journals(self.folder)[:MAX_LISTED]:
            try:
                c = self._contents(path)
            except (JournalError, OSError) as exc:
                out.append({"name": path.name, "error": str(exc)})
                continue
            out.append({"name": path.name, "date": c.created, "game": c.game, "options": c.options,
                        "players": _players(c), "steps": len(c.steps), "result": self._result_of(path)})
        return out

    def game(self, name: str) -> dict[str, Any]:
        """One game: its moves and the board after each (``board(name, n)`` for one of them)."""
        c = self._load(name)
        return {"name": name, "date": c.created, "game": c.game, "options": c.options, "players": _players(c),
                "moves": list(c.steps), "result": self._result_of(self._path(name))}

    def board(self, name: str, n: int) -> dict[str, Any]:
        """The board after the first ``n`` steps of game ``name``, as SVG, with the step ringed."""
        c = self._load(name)
        if not 0 <= n <= len(c.steps):
            raise HistoryError(f"the game has {len(c.steps)} steps, not {n}")
        try:
            record = c.to_record()
            g = record.load_game()
            st = record.new_state(g)
            step = None
            for text in c.steps[:n]:
                step = st.parse(text)
                st = st.play(step)
        except (RecordError, engine.IllegalStep, ValueError) as exc:
            raise HistoryError(f"the game does not replay: {exc}") from None
        marks = {p: "last" for p in (g.rules.step_spots(step) if step is not None else ())}
        mover = g.rules.colour_name(st.colour_to_move).capitalize() if st.result is None else None
        return {"n": n, "of": len(c.steps), "move": c.steps[n - 1] if n else None,
                "board": board_svg(g.rules, st.position(), marks),
                "to_move": mover, "over": st.result is not None}

    def record(self, name: str) -> dict[str, Any]:
        """The game as a record ``arbiter replay`` reads."""
        return self._load(name).to_record().as_dict()

    def _load(self, name: str):
        path = self._path(name)
        try:
            return self._contents(path)
        except (JournalError, OSError) as exc:
            raise HistoryError(str(exc)) from None


def _players(c) -> int | None:
    try:
        return engine.load(c.game, **c.options).players
    except Exception:
        return None


def _result(c) -> str:
    """How the game ended: an ``end`` line (a flag fell), else the steps' own result."""
    e = c.ended.get("result", c.ended) if c.ended else None
    if not e:
        try:
            _game, state = replay_journal(c)
        except JournalError:
            return "does not replay"
        if state.result is None:
            return "unfinished"
        e = {"winner": state.result.winner, "reason": state.result.reason}
    winner = e.get("winner")
    reason = R.plain(str(e.get("reason", "")))
    if winner is None:
        return f"draw ({reason})"
    try:
        who = engine.load(c.game, **c.options).rules.colour_name(int(winner)).capitalize()
    except Exception:
        who = f"Player {winner}"
    return f"{who} won ({reason})"
