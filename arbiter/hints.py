"""Hints from solved games: solutions computed once by ``engine.solve`` and kept on disk.

Solving the small two-square games takes seconds (the 3x3 games a fraction of one), so each
solution is written to a cache folder the first time it is needed and read back after that:

    <cache>/solved/<game>-<fingerprint>.keys    the sorted position keys (array 'q', native order)
    <cache>/solved/<game>-<fingerprint>.values  the values beside them (array 'h')
    <cache>/solved/<game>-<fingerprint>.json    what they are: game, counts, solver version

The fingerprint changes with the solver's version and the game's rules, so a stale file is never
read. ``<cache>`` is ``$ARBITER_CACHE_DIR``, else ``$XDG_CACHE_HOME/arbiter``, else
``~/.cache/arbiter``. When it cannot be written (a read-only card, no home), the store says so
once, in a sentence that says what to do, and keeps the solution in memory for this run.
Tableaux needs no table: its formula answers at once.
"""

from __future__ import annotations

import json
import os
import sys
from array import array
from pathlib import Path
from typing import Callable

import engine
from engine import solve as solver

from .files import write_atomic


class HintError(ValueError):
    """No hint can be given: a game that is not solved, a position outside the table."""


def cache_dir() -> Path:
    env = os.environ.get("ARBITER_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "arbiter"


def solved_games() -> list[str]:
    """Every game name with hints (default options): the solved games, and Brainmaster's code breaker."""
    return [n for n in engine.names() if solver.solvable(engine.load(n)) or engine.spec(n).family == "brainmaster"]


class HintStore:
    """Solutions by game, from memory, then disk, then solved (and saved) on first use.

    ``warn``: called once with a sentence when the cache folder cannot be used; ``progress``:
    called with a sentence before a solve that takes more than a moment.
    """

    def __init__(self, directory: Path | str | None = None, *, warn: Callable[[str], None] | None = None,
                 progress: Callable[[str], None] | None = None):
        self.directory = Path(directory) if directory is not None else cache_dir() / "solved"
        self.warn = warn or (lambda text: print(f"arbiter: {text}", file=sys.stderr))
        self.progress = progress or (lambda text: None)
        self._memory: dict[str, solver.Solution] = {}
        self._warned = False

    # ------------------------------------------------------------------ solutions
    def _paths(self, game) -> tuple[Path, Path, Path]:
        stem = f"{game.name}-{solver.fingerprint(game)}"
        d = self.directory
        return d / f"{stem}.keys", d / f"{stem}.values", d / f"{stem}.json"

    def solution(self, game) -> solver.Solution:
        if not solver.solvable(game) or game.spec.family == "tableaux":
            raise HintError(f"{game.name} is not a solved game; hints are for {', '.join(solved_games())}")
        fp = solver.fingerprint(game)
        got = self._memory.get(fp)
        if got is not None:
            return got
        got = self._read(game)
        if got is None:
            if solver.estimate(game) > 50_000:
                self.progress(f"Solving {game.name} once: every position, a few seconds to a minute; "
                              f"the result is kept in {self.directory}.")
            got = solver.solve(game)
            self._write(game, got)
        self._memory[fp] = got
        return got

    def _read(self, game) -> solver.Solution | None:
        keys_p, values_p, meta_p = self._paths(game)
        try:
            meta = json.loads(meta_p.read_text())
            if meta.get("version") != solver.VERSION or meta.get("byteorder") != sys.byteorder:
                return None
            count = int(meta["positions"])
            keys, values = array("q"), array("h")
            with open(keys_p, "rb") as fh:
                keys.fromfile(fh, count)
            with open(values_p, "rb") as fh:
                values.fromfile(fh, count)
            return solver.Solution(game.name, keys, values, start_value=int(meta["start"]))
        except (OSError, ValueError, KeyError, EOFError):
            return None  # absent, partly written or damaged: solve again

    def _write(self, game, sol: solver.Solution) -> None:
        keys_p, values_p, meta_p = self._paths(game)
        meta = {"game": game.name, "version": solver.VERSION, "positions": len(sol), "start": sol.start_value,
                "byteorder": sys.byteorder, "fingerprint": solver.fingerprint(game)}
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            # A cache, so no fsync: one lost to a power cut is solved again. The meta file goes
            # last: a solution is read only once all of it is there.
            for path, data in ((keys_p, sol.keys), (values_p, sol.values), (meta_p, json.dumps(meta))):
                write_atomic(path, data if isinstance(data, str) else data.tobytes(), sync=False)
        except OSError as exc:
            if not self._warned:
                self._warned = True
                self.warn(f"cannot keep solved games in {self.directory} ({exc.strerror or exc}); they are kept "
                          f"in memory for now and solved again next time. Set ARBITER_CACHE_DIR to a folder "
                          f"you can write to.")

    # ------------------------------------------------------------------ hints
    def hint(self, game, state) -> solver.Hint:
        """The value of ``state`` for the player to move and every best step."""
        if state.result is not None:
            raise HintError(f"the game is over ({state.result.reason})")
        if game.spec.family == "brainmaster":
            return self.code_hint(game, state)
        if game.spec.family == "tableaux":
            got = solver.tableaux_hint(state)
            if got is None:
                raise HintError("Tableaux hints start once the chips and the draw size are chosen")
            return got
        got = solver.hint(self.solution(game), state)
        if got is None:
            raise HintError("this position cannot be reached from the start of the game, so it is not in the table")
        return got


    def code_hint(self, game, state) -> solver.Hint:
        """Brainmaster: codes still possible and a next guess. The solver's opening (its two
        costliest searches) is kept in the cache folder like a solved game, so only the first
        hint for a game size waits for it (a second or two for 5 colours, a few for 6)."""
        from engine import codebreaker

        rules = game.rules
        breaker = codebreaker.Codebreaker.for_size(rules.n_colours, rules.pegs)
        if state.stage == "guess" and not breaker.opening_ready:
            self._load_opening(breaker)
        got = codebreaker.hint(state, breaker)
        if got is None:
            raise HintError("hints are for the code breaker, when a guess row is to be filled")
        return got

    def _load_opening(self, breaker) -> None:
        path = self.directory / f"brainmaster-{breaker.colours}x{breaker.pegs}-w{breaker.width}-l{breaker.limit}.json"
        try:
            breaker.load_opening(json.loads(path.read_text()))
        except (OSError, ValueError, KeyError, TypeError):
            self.progress(f"Working out the code breaker's opening for {breaker.colours} colours once; it is kept "
                          f"in {self.directory}.")
            book = breaker.opening()
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
                write_atomic(path, json.dumps(book), sync=False)
            except OSError as exc:
                if not self._warned:
                    self._warned = True
                    self.warn(f"cannot keep the code breaker's opening in {self.directory} "
                              f"({exc.strerror or exc}); it is worked out again next time.")


__all__ = ["HintError", "HintStore", "cache_dir", "solved_games"]
