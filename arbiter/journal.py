"""The game journal: every accepted step on disk before anyone is told about it.

A referee that announces a step and then loses it to a power cut has lost the game, so the
journal is written ahead of every announcement: ``append_step`` returns only after the line has
been written with one ``write`` and flushed with ``fsync``. Whatever instant the process dies at,
the file holds every step already announced, and at worst one cut-off line at its end (the step
being written, which nobody was told about yet).

The file is JSON lines (``*.jsonl``), readable with any text editor:

    {"arbiter_journal":1,"game":"nine-mens-morris","options":{"move_cap":200},"chooser":null,"created":"2025-05-01T12:03:22+00:00","reader":"colour","time_control":null}
    {"seq":1,"event":"step","ply":1,"step":"d1"}
    {"seq":2,"event":"step","ply":2,"step":"g4"}
    {"seq":3,"event":"correction","ply":2,"step":"g1"}
    {"seq":4,"event":"takeback","n":1}
    {"seq":5,"event":"end","result":{"winner":1,"draw":false,"reason":"player 2 ran out of time (10m)"}}

The first line (the header) is written to a temporary file and renamed into place, so a journal
either exists with its header whole or does not exist. Each later line is one *event*, numbered
by ``seq``: a step accepted (``ply`` is its number in the game), a take-back of the last ``n``
steps, a correction replacing the last step, a clock reading, or the end of the game when the
board cannot show it (a loss on time). Any event may carry a ``clock`` snapshot
(``arbiter.clocks.Clock.snapshot``); a Brain Hanky step may carry the move-chooser ``draws`` made
while it was played.

Reading (``load_journal``) forgives exactly one thing: a damaged *last* line, which can only be
the unannounced line a crash interrupted; it is ignored with a warning, and ``Journal.open``
cuts it off before appending. Anything else (a damaged line in the middle, a gap in the sequence
numbers, a header for another game) is an error that says what to do.

Games are kept in ``journal_dir()``, one file per game named by its start time and game, and
``resume()`` finds the most recently played unfinished one and replays it through the engine.
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import os
import random
import secrets as _random_secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

import engine
from engine.protocol import Draws

from .clocks import Clock, ClockError, TimeControlError, parse_time_control
from .files import create_new, fsync_dir, write_atomic
from .records import Record, RecordError

try:  # the Pi and every CI machine are POSIX; elsewhere the journal still works, unlocked
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

__all__ = ["FORMAT", "Journal", "JournalContents", "JournalError", "Resumed", "journal_dir",
           "journal_name", "latest_unfinished", "list_journals", "load_journal", "load_public", "new_journal_path",
           "parse_journal", "read_secrets", "replay_journal", "resume", "secret_path", "seal_digest",
           "usable_journal_dir"]

log = logging.getLogger("arbiter.journal")

FORMAT = 1  # the journal format version written in every header
MARKER = "arbiter_journal"
SUFFIX = ".jsonl"
EVENTS = ("step", "takeback", "correction", "clock", "end", "reveal")
SECRET_SUFFIX = ".secret"  # beside the journal, mode 0600: the clear text of sealed lines until the end


def secret_path(journal: str | os.PathLike[str]) -> Path:
    """The file holding a journal's sealed secrets: ``GAME.jsonl`` -> ``GAME.secret`` (0600)."""
    p = Path(journal)
    return p.with_name(p.name.removesuffix(SUFFIX) + SECRET_SUFFIX)


def seal_digest(salt: str, clear: Mapping[str, Any]) -> str:
    """What a sealed line shows of its secret: SHA-256 of a random salt and the clear fields.

    The salt lives only in the secret file, so the digest tells nothing of a 4-peg code (which
    could otherwise be found by trying all 625); and once the secret is revealed the digest proves
    it is the one sealed at the time, not one chosen later."""
    text = json.dumps(dict(clear), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256((salt + "\n" + text).encode("utf-8")).hexdigest()


class JournalError(ValueError):
    """A journal that cannot be written or used; the message names the file, the line and a fix."""


class JournalExists(JournalError):
    """A new journal's name is taken already (``Journal.new`` then tries the next one)."""


# -- where games are kept -------------------------------------------------------------------------


def journal_dir() -> Path:
    """The folder games are journalled in.

    ``$ARBITER_JOURNAL_DIR`` if set (tests, a USB stick), else ``$XDG_STATE_HOME/arbiter/games``,
    else ``~/.local/state/arbiter/games``: the XDG place for state that should survive a reboot
    but is not a user document.
    """
    override = os.environ.get("ARBITER_JOURNAL_DIR")
    if override:
        return Path(override).expanduser()
    state = os.environ.get("XDG_STATE_HOME")
    base = Path(state) if state and os.path.isabs(state) else Path.home() / ".local" / "state"
    return base / "arbiter" / "games"


def usable_journal_dir(folder: str | os.PathLike[str] | None = None, *, parents: bool | None = None) -> Path:
    """The games folder, checked by writing in it, before any game starts; JournalError says why not.

    ``folder`` None is ``journal_dir()``, made with its parents if need be (the XDG default); a
    folder the user named (``--journal DIR``) is made only if its parent exists, since a typo in
    the parent should be an error, not a new tree. Checked by really creating (and deleting) a
    file, which is the only test that tells a read-only stick or a full disk for every user.
    """
    named = folder is not None
    p = Path(folder).expanduser() if named else journal_dir()
    if parents is None:
        parents = not named
    if p.exists() and not p.is_dir():
        raise JournalError(f"the journal folder {p} is a file, not a folder: pick a folder with --journal DIR")
    if not p.exists():
        up = next((q for q in p.parents if q.exists()), None)
        if up is not None and not up.is_dir():
            raise JournalError(f"the journal folder {p} cannot be made: {up} is a file, not a folder; "
                               f"pick a folder with --journal DIR")
        if not parents and not p.parent.is_dir():
            raise JournalError(f"the journal folder {p} cannot be made: its parent {p.parent} does not exist; "
                               f"make it first or pick another folder with --journal DIR")
        try:
            p.mkdir(parents=True, exist_ok=True)
            fsync_dir(p.parent)
        except OSError as exc:
            raise JournalError(f"the journal folder {p} cannot be made ({exc.strerror or exc}): pick a folder "
                               f"you can write to with --journal DIR") from None
    probe = p / f".arbiter-probe-{os.getpid()}-{random.getrandbits(32):08x}"
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600))
        os.unlink(probe)
    except OSError as exc:
        raise JournalError(f"cannot write games in {p} ({exc.strerror or exc}): pick a folder you can "
                           f"write to with --journal DIR") from None
    return p


def journal_name(game_name: str, created: datetime) -> str:
    """``2025-05-01_14-03-22_nine-mens-morris.jsonl``: local time, so players recognise their game."""
    return f"{created.astimezone():%Y-%m-%d_%H-%M-%S}_{game_name}{SUFFIX}"


def new_journal_path(game_name: str, directory: str | os.PathLike[str] | None = None,
                     now: datetime | None = None, n: int = 1) -> Path:
    """The ``n``-th name for a game begun at ``now``: the plain name, then ``-2``, ``-3`` ...

    Only a name, not a claim: ``Journal.new`` takes the first one it can create with ``O_EXCL``,
    so two games begun in the same second cannot end up sharing a file.
    """
    folder = Path(directory) if directory is not None else journal_dir()
    name = journal_name(game_name, now or datetime.now(UTC))
    return folder / (name if n == 1 else name.replace(SUFFIX, f"-{n}{SUFFIX}"))


def list_journals(directory: str | os.PathLike[str] | None = None) -> list[Path]:
    """Every journal in the folder, most recently written first (the last append sets the time)."""
    folder = Path(directory) if directory is not None else journal_dir()
    if not folder.is_dir():
        return []
    found = [p for p in folder.iterdir() if p.suffix == SUFFIX and p.is_file() and not p.name.startswith(".")
             and not p.is_symlink()]
    return sorted(found, key=lambda p: (p.stat().st_mtime_ns, p.name), reverse=True)


# -- what a journal holds -------------------------------------------------------------------------


@dataclass
class JournalContents:
    """A journal read back: its header, and the game its events add up to."""

    path: Path
    game: str
    options: dict[str, Any]
    chooser: list[int] | None  # chance draws (the move chooser's): the header's, then each step's
    created: str
    reader: str
    time_control: str | None
    # How the game was set up to be played (reader, port, calibration, LEDs ...), so ``--resume``
    # needs nothing but the journal: see ``arbiter.cli.play``. Empty for journals made without it.
    setup: dict[str, Any] = field(default_factory=dict)
    steps: list[str] = field(default_factory=list)  # after take-backs and corrections
    step_lines: list[int] = field(default_factory=list)  # the file line of each of ``steps``
    clock: dict[str, Any] | None = None  # the last clock snapshot
    clock_line: int | None = None
    ended: dict[str, Any] | None = None  # the result of an "end" event still in force
    events: list[dict[str, Any]] = field(default_factory=list)  # every event line, in order
    warnings: list[str] = field(default_factory=list)
    good_bytes: int = 0  # the file's length up to the end of its last intact line
    # Sealed lines (docs/journal.md "Secrets"): seq (0: the header) -> digest; and the secrets
    # known to this reader, seq -> {"salt", "clear"} (from the secret file or a reveal event).
    sealed: dict[int, str] = field(default_factory=dict)
    clear: dict[int, dict[str, Any]] = field(default_factory=dict)
    header_sealed: str | None = None

    @property
    def still_sealed(self) -> list[int]:
        """The sealed lines whose secret this reader does not know (their steps read as public text)."""
        seqs = list(self.sealed) + ([0] if self.header_sealed is not None else [])
        return sorted(seq for seq in seqs if seq not in self.clear)

    @property
    def revealed(self) -> bool:
        """Whether a ``reveal`` event has made every sealed line public."""
        return any(e.get("event") == "reveal" for e in self.events)

    @property
    def seq(self) -> int:
        """The sequence number of the last event (0 for a journal with only its header)."""
        return len(self.events)

    def draw_values(self) -> tuple[int, ...] | None:
        """What a chance draw of this journal's game may be: () when it draws nothing, None when
        the game cannot be loaded (replaying the journal reports that)."""
        try:
            return engine.load(self.game, **self.options).rules.draw_values or ()
        except (engine.UnknownGame, engine.BadOption, TypeError):
            return None

    def clone(self) -> JournalContents:
        """A copy to try an event on; event dicts are never changed once added, so lists suffice."""
        return replace(self, setup=dict(self.setup), steps=list(self.steps), step_lines=list(self.step_lines),
                       events=list(self.events), warnings=list(self.warnings), sealed=dict(self.sealed),
                       clear=dict(self.clear),
                       chooser=None if self.chooser is None else list(self.chooser))

    def header(self) -> dict[str, Any]:
        header = {MARKER: FORMAT, "game": self.game, "options": self.options, "chooser": self.chooser,
                  "created": self.created, "reader": self.reader, "time_control": self.time_control}
        if self.setup:
            header["setup"] = self.setup
        if self.header_sealed is not None:
            header["chooser"] = []
            header["sealed"] = self.header_sealed
        return header

    def to_record(self) -> Record:
        """The game as a record (``arbiter.records``), which ``arbiter replay`` reads.

        JournalError while a sealed secret is unknown to this reader: a record is read by anyone,
        so it is made only once the secrets are revealed (or by the referee, who holds them)."""
        if self.still_sealed:
            n = len(self.still_sealed)
            raise JournalError(f"{self.path} holds {n} sealed secret{'s' if n != 1 else ''} (a code, a goal, a "
                               f"hidden choice) of a game that is not over: it can be exported once the game ends")
        chooser = list(self.chooser) if self.chooser is not None else None
        return Record(self.game, dict(self.options), list(self.steps), chooser)

    def where(self, line: int) -> str:
        return f"{self.path}, line {line}"


def _check_draws(draws: Any, allowed: tuple[int, ...] | None = None) -> list[int]:
    """Chance draws (the move chooser's k per turn) as a list of whole numbers, from ``allowed``."""
    if not isinstance(draws, list) or not all(isinstance(k, int) and not isinstance(k, bool) and k >= 1
                                              for k in draws):
        raise ValueError("chance draws must be a list of whole numbers such as [2, 3, 1]")
    if allowed == () and draws:
        raise ValueError("chance draws must be left out: this game has none")
    bad = [k for k in draws if allowed is not None and k not in allowed]
    if bad:
        raise ValueError(f"a draw of {bad[0]} is not possible here (draws are {', '.join(map(str, allowed))})")
    return list(draws)


def _apply(c: JournalContents, event: Mapping[str, Any], line: int) -> None:
    """Add one event to ``c``, checking it fits what came before. Raises ValueError saying why.

    The writer and the reader both go through here, so a journal that was written can be read.
    """
    if not isinstance(event, Mapping):
        raise ValueError("an event line must be a JSON object")
    if event.get("seq") != c.seq + 1:
        raise ValueError(f"sequence number {event.get('seq')!r} where {c.seq + 1} was expected "
                         f"(lines are missing, repeated or out of order)")
    kind = event.get("event")
    if kind not in EVENTS:
        raise ValueError(f"unknown event {kind!r} (a journal has {', '.join(EVENTS)})")
    seq = event["seq"]
    digest = event.get("sealed")
    if digest is not None:
        if not isinstance(digest, str) or kind not in ("step", "correction"):
            raise ValueError("only a step or a correction is sealed, with \"sealed\": its digest")
        known = c.clear.get(seq)
        if known is not None:  # the secret is known here: play the line as it really was
            if seal_digest(known["salt"], known["clear"]) != digest:
                raise ValueError("its secret does not match the one sealed (the secret file is of another game?)")
            event = {**event, **known["clear"]}
    if kind == "reveal":
        found = _check_reveal(c, event.get("secrets"))
    snapshot = event.get("clock")
    if snapshot is not None and not isinstance(snapshot, Mapping):
        raise ValueError("\"clock\" must be a clock snapshot object")
    draws = _check_draws(event["draws"], c.draw_values()) if event.get("draws") is not None else []
    if draws and kind != "step":
        raise ValueError("move-chooser draws come with a step")
    if kind in ("step", "correction"):
        text = event.get("step")
        if not isinstance(text, str) or not text:
            raise ValueError(f"a {kind} needs its step text, such as \"step\": \"d2\"")
        if c.ended is not None and kind == "step":
            raise ValueError("a step after the game ended")
        want = len(c.steps) + (1 if kind == "step" else 0)
        if kind == "correction" and not c.steps:
            raise ValueError("a correction with no step before it to correct")
        if event.get("ply") != want:
            raise ValueError(f"ply {event.get('ply')!r} where {want} was expected")
    elif kind == "takeback":
        n = event.get("n")
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= len(c.steps):
            raise ValueError(f"a take-back of {n!r} steps, with {len(c.steps)} steps played")
    elif kind == "clock":
        if snapshot is None:
            raise ValueError("a clock event without its \"clock\" snapshot")
    elif kind == "end":
        result = event.get("result")
        if not (isinstance(result, Mapping) and "winner" in result and "reason" in result):
            raise ValueError("an end event needs \"result\": {\"winner\": ..., \"draw\": ..., \"reason\": ...}")
    # Every check passed: change the contents.
    if digest is not None:
        c.sealed[seq] = digest
    if kind == "reveal":
        c.clear.update(found)
    if kind == "step":
        c.steps.append(event["step"])
        c.step_lines.append(line)
    elif kind == "correction":
        c.steps[-1] = event["step"]
        c.step_lines[-1] = line
    elif kind == "takeback":
        del c.steps[len(c.steps) - event["n"]:]
        del c.step_lines[len(c.step_lines) - event["n"]:]
    if kind in ("takeback", "correction"):
        c.ended = None  # players took back the move that ended it: the game goes on
    if kind == "end":
        c.ended = dict(event["result"])
    if draws:
        c.chooser = (c.chooser or []) + draws
    if snapshot is not None:
        c.clock, c.clock_line = dict(snapshot), line
    c.events.append(dict(event))


def _check_reveal(c: JournalContents, secrets: Any) -> dict[int, dict[str, Any]]:
    """A reveal event's secrets, each checked against the digest its line was sealed with."""
    if not isinstance(secrets, list):
        raise ValueError("a reveal event needs \"secrets\": [{\"seq\": ..., \"salt\": ..., \"clear\": {...}}]")
    found: dict[int, dict[str, Any]] = {}
    for entry in secrets:
        entry = _check_entry(entry)
        seq = entry["seq"]
        want = c.header_sealed if seq == 0 else c.sealed.get(seq)
        if want is None or seal_digest(entry["salt"], entry["clear"]) != want:
            raise ValueError(f"it reveals a secret for line seq {seq} that was not sealed with it")
        found[seq] = {"salt": entry["salt"], "clear": entry["clear"]}
    return found


def _check_entry(entry: Any) -> dict[str, Any]:
    if not (isinstance(entry, Mapping) and isinstance(entry.get("seq"), int) and isinstance(entry.get("salt"), str)
            and isinstance(entry.get("clear"), Mapping)):
        raise ValueError("a secret is {\"seq\": N, \"salt\": \"...\", \"clear\": {...}}")
    return {"seq": entry["seq"], "salt": entry["salt"], "clear": dict(entry["clear"])}


def read_secrets(path: str | os.PathLike[str]) -> dict[int, list[dict[str, Any]]]:
    """The secret file beside journal ``path``: seq -> its entries (newest last); {} if none.

    An entry may be stale (written before a journal line the disk then refused, and written again
    with a new salt): the reader keeps the one whose digest matches the line."""
    p = secret_path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise JournalError(f"{p}: cannot read the game's secrets ({exc.strerror or exc})") from None
    out: dict[int, list[dict[str, Any]]] = {}
    for raw in data.splitlines():
        try:
            entry = _check_entry(json.loads(raw.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError, ValueError):
            continue  # written whole by write_atomic: a bad line is not ours, and is no secret of this game
        out.setdefault(entry["seq"], []).append(entry)
    return out


def _match(secrets: Mapping[int, list[dict[str, Any]]], seq: int, digest: str) -> dict[str, Any] | None:
    for entry in reversed(secrets.get(seq, [])):
        if seal_digest(entry["salt"], entry["clear"]) == digest:
            return {"salt": entry["salt"], "clear": entry["clear"]}
    return None


def _parse_header(raw: bytes, path: Path, game: str | None) -> JournalContents:
    what_now = "it is not a journal arbiter can use; move it out of the games folder"
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise JournalError(f"{path}, line 1: the header is not readable JSON: {what_now}") from None
    if not isinstance(header, dict) or MARKER not in header:
        raise JournalError(f"{path}, line 1: no \"{MARKER}\" header: {what_now}")
    version = header[MARKER]
    if not isinstance(version, int) or version < 1:
        raise JournalError(f"{path}, line 1: format version {version!r} is not a number: {what_now}")
    if version > FORMAT:
        raise JournalError(f"{path} was written by a newer arbiter (journal format {version}, this one reads "
                           f"{FORMAT}): update arbiter to resume it")
    name, options = header.get("game"), header.get("options")
    if not isinstance(name, str) or not name or not isinstance(options, dict):
        raise JournalError(f"{path}, line 1: the header needs \"game\" and \"options\": {what_now}")
    if game is not None and name != game:
        raise JournalError(f"{path} is a game of {name}, not {game}: pick a {game} journal, "
                           f"or start a new game of {game}")
    contents = JournalContents(path, name, dict(options), None, str(header.get("created", "")),
                               str(header.get("reader", "")), header.get("time_control"))
    setup = header.get("setup", {})
    if not isinstance(setup, dict):
        raise JournalError(f"{path}, line 1: \"setup\" must be an object such as {{\"reader\": \"sim\"}}: {what_now}")
    contents.setup = dict(setup)
    sealed = header.get("sealed")
    if sealed is not None and not isinstance(sealed, str):
        raise JournalError(f"{path}, line 1: \"sealed\" must be a digest: {what_now}")
    contents.header_sealed = sealed
    chooser = header.get("chooser")
    if chooser is not None:
        try:
            contents.chooser = _check_draws(chooser, contents.draw_values())
        except ValueError as exc:
            raise JournalError(f"{path}, line 1: {exc}") from None
    return contents


def parse_journal(data: bytes, path: str | os.PathLike[str] = "journal", game: str | None = None,
                  secrets: Mapping[int, list[dict[str, Any]]] | None = None) -> JournalContents:
    """Read a journal's bytes (see ``load_journal``); ``secrets`` (``read_secrets``) unseal lines.

    A sealed line reads as its public text until its secret is known: from ``secrets`` or from
    a ``reveal`` event further on. Then the journal is read again with the secrets in place."""
    c = _parse(data, Path(path), game, {})
    known = dict(c.clear)
    for seq, digest in list(c.sealed.items()) + ([(0, c.header_sealed)] if c.header_sealed else []):
        if seq not in known and secrets:
            entry = _match(secrets, seq, digest)
            if entry is not None:
                known[seq] = entry
    if not known:
        return c
    return _parse(data, Path(path), game, known)


def _parse(data: bytes, path: Path, game: str | None, known: dict[int, dict[str, Any]]) -> JournalContents:
    if not data.strip(b"\0 \t\r\n"):
        raise JournalError(f"{path} is empty: it holds no game; delete it")
    *complete, tail = data.split(b"\n")
    if not complete:
        raise JournalError(f"{path}: the header line is cut off, so the game cannot be read; "
                           f"it holds no steps (a journal is created whole): delete it")
    c = _parse_header(complete[0], path, game)
    c.clear = dict(known)
    if c.header_sealed is not None and 0 in known:
        if seal_digest(known[0]["salt"], known[0]["clear"]) != c.header_sealed:
            raise JournalError(f"{path}, line 1: its secret does not match the one sealed")
        try:
            c.chooser = _check_draws(known[0]["clear"].get("chooser"), c.draw_values())
        except ValueError as exc:
            raise JournalError(f"{path}, line 1: {exc}") from None
    offset = len(complete[0]) + 1
    c.good_bytes = offset
    torn: str | None = None
    if tail:  # the crash came before the line's newline was written
        torn = "it has no end of line"
    for i, raw in enumerate(complete[1:], start=2):
        last = i == len(complete) and not tail
        try:
            event = json.loads(raw.decode("utf-8"))
            _apply(c, event, i)
        except (UnicodeDecodeError, json.JSONDecodeError, ValueError) as exc:
            reason = "not readable JSON" if isinstance(exc, (UnicodeDecodeError, json.JSONDecodeError)) else str(exc)
            if last:
                torn = reason
                break
            raise JournalError(
                f"{c.where(i)} is damaged ({reason}). Lines 1-{i - 1} are intact ({len(c.steps)} "
                f"step{'' if len(c.steps) == 1 else 's'}): keep "
                f"a copy of the file, delete line {i} and every line after it, and resume from there") from None
        offset += len(raw) + 1
        c.good_bytes = offset
    if torn is not None:
        line = len(complete) if tail == b"" else len(complete) + 1
        msg = (f"{c.where(line)} was cut off by a crash while it was written ({torn}); it was never "
               f"announced and is ignored")
        c.warnings.append(msg)
        log.warning(msg)
    return c


def load_journal(path: str | os.PathLike[str], game: str | None = None, *, unseal: bool = False) -> JournalContents:
    """Read the journal at ``path``: header, effective steps, last clock snapshot, end if any.

    A cut-off last line is ignored with a warning (in ``.warnings`` and the ``arbiter.journal``
    log). With ``game``, a journal of another game is an error. Sealed lines read as their
    public text unless revealed; ``unseal``: read the secret file beside it too (the referee
    resuming, or deciding whether the game is over; never for showing the game to anyone).
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise JournalError(f"{p}: no such journal (games are kept in {journal_dir()})") from None
    except IsADirectoryError:
        raise JournalError(f"{p} is a folder, not a journal") from None
    except OSError as exc:
        raise JournalError(f"{p}: cannot read it ({exc})") from None
    return parse_journal(data, p, game, read_secrets(p) if unseal else None)


# -- writing ----------------------------------------------------------------------------------------


def _store_secret(path: Path, entries: list[dict[str, Any]], seq: int,
                  clear: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    entry = {"seq": seq, "salt": _random_secrets.token_hex(16), "clear": dict(clear)}
    data = b"".join(_encode(e) for e in [*entries, entry])
    try:
        write_atomic(secret_path(path), data, mode=0o600)
    except OSError as exc:
        raise JournalError(f"could not write {secret_path(path)} ({exc.strerror or exc}): the step was NOT "
                           f"recorded; do not announce it") from None
    entries.append(entry)
    return seal_digest(entry["salt"], entry["clear"]), entry


def _encode(obj: Mapping[str, Any]) -> bytes:
    try:
        text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"cannot be written as JSON: {exc}") from None
    return (text + "\n").encode("utf-8")


class Journal:
    """An open journal that one referee appends to. Make one with ``create``, ``new`` or ``open``.

    Every ``append_*`` writes one line and fsyncs it before returning: announce only after it
    returns. An append that cannot be written raises JournalError and leaves the file as it was.
    """

    def __init__(self, path: Path, fd: int, contents: JournalContents):
        self.path = path
        self._fd: int | None = fd
        self._contents = contents
        st = os.fstat(fd)
        self._file = (st.st_dev, st.st_ino)  # which file this is, to reopen only the same one
        self._rules_loaded: Any = None
        # Every secret entry this game wrote (the secret file is rewritten whole with each one).
        self._secrets: list[dict[str, Any]] = [e for es in read_secrets(path).values() for e in es]

    @property
    def _rules(self) -> Any:
        """The game's rules, which say what is secret (``public_text``, ``draws_private``)."""
        if self._rules_loaded is None:
            self._rules_loaded = engine.load(self._contents.game, **self._contents.options).rules
        return self._rules_loaded

    @property
    def secret_path(self) -> Path:
        return secret_path(self.path)

    def _new_secret(self, seq: int, clear: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """Keep ``clear`` in the secret file (0600, written whole and fsynced) before the journal
        line that seals it is written; (its digest, its entry)."""
        return _store_secret(self.path, self._secrets, seq, clear)

    # -- making and opening -----------------------------------------------------------------------

    @classmethod
    def create(cls, path: str | os.PathLike[str], game_name: str, options: Mapping[str, Any] | None = None, *,
               chooser: Iterable[int] | None = None, reader: str = "colour", time_control: str | None = None,
               now: datetime | None = None, setup: Mapping[str, Any] | None = None) -> Journal:
        """Start the journal of a new game at ``path`` (which must not exist yet).

        The game and options are checked by loading them, and stored with every default filled
        in, so a resumed game keeps its rules even if a later arbiter changes a default.
        """
        p = Path(path)
        try:
            game = engine.load(game_name, **dict(options or {}))
        except (engine.UnknownGame, engine.BadOption) as exc:
            raise JournalError(str(exc)) from None
        draws = None
        allowed = game.rules.draw_values
        if chooser is not None:
            if allowed is None:
                raise JournalError(f"move-chooser draws given, but {game.name} is not played with the move chooser")
            try:
                draws = _check_draws(list(chooser), allowed)
            except ValueError as exc:
                raise JournalError(str(exc)) from None
        elif allowed is not None:
            draws = []  # drawn as the game goes: each step carries its draws
        if time_control is not None:
            try:
                time_control = str(parse_time_control(time_control))
            except TimeControlError as exc:
                raise JournalError(str(exc)) from None
        if not isinstance(reader, str) or not reader:
            raise JournalError("reader must name the kind of board reader, such as \"colour\" or \"occupancy\"")
        created = (now or datetime.now(UTC)).astimezone(UTC).isoformat(timespec="seconds")
        contents = JournalContents(p, game.name, dict(game.options), draws, created, reader, time_control,
                                   dict(setup or {}))
        if draws and game.rules.draws_private:  # the companion's secret draws: sealed from line 1
            if p.exists():
                raise JournalExists(f"{p} already exists: open it to continue that game, or choose another name")
            stale = [e for es in read_secrets(p).values() for e in es]
            contents.header_sealed, entry = _store_secret(p, stale, 0, {"chooser": list(draws)})
            contents.clear[0] = {"salt": entry["salt"], "clear": entry["clear"]}
        try:
            line = _encode(contents.header())
        except ValueError as exc:
            raise JournalError(f"the game's setup {exc}") from None
        try:
            made = not p.parent.is_dir()
            p.parent.mkdir(parents=True, exist_ok=True)
            if made:
                fsync_dir(p.parent.parent)
            create_new(p, line)  # whole or not at all, and never over another game's file
        except FileExistsError:
            raise JournalExists(f"{p} already exists: open it to continue that game, or choose another name") from None
        except OSError as exc:
            raise JournalError(f"cannot create the journal {p}: {exc.strerror or exc}") from None
        contents.good_bytes = len(line)
        return cls(p, cls._open_fd(p), contents)

    @classmethod
    def new(cls, game_name: str, options: Mapping[str, Any] | None = None, *,
            directory: str | os.PathLike[str] | None = None, now: datetime | None = None,
            **kwargs: Any) -> Journal:
        """Start a new game's journal in ``directory`` (default ``journal_dir()``), named for it."""
        when = now or datetime.now(UTC)
        try:
            name = engine.load(game_name, **dict(options or {})).name
        except (engine.UnknownGame, engine.BadOption) as exc:
            raise JournalError(str(exc)) from None
        for n in range(1, 1000):  # -2, -3 ... for games begun in the same second
            path = new_journal_path(name, directory, when, n)
            if os.path.lexists(path):
                continue
            try:
                return cls.create(path, game_name, options, now=when, **kwargs)
            except JournalExists:
                continue  # another arbiter claimed this name between the look and the create
        raise JournalError(f"999 games begun at {when:%H:%M:%S} in {path.parent}: move some out of the folder")

    @classmethod
    def open(cls, path: str | os.PathLike[str], game: str | None = None) -> Journal:
        """Open an existing journal to go on appending (the game is being resumed).

        A line cut off by a crash is removed first, so the next line starts on a line of its own.
        """
        p = Path(path)
        if not p.exists():
            raise JournalError(f"{p}: no such journal (games are kept in {journal_dir()})")
        fd = cls._open_fd(p)
        try:
            with os.fdopen(os.dup(fd), "rb") as fh:
                data = fh.read()
            contents = parse_journal(data, p, game, read_secrets(p))
            if contents.good_bytes < len(data):
                os.ftruncate(fd, contents.good_bytes)
                os.fsync(fd)
        except BaseException:
            os.close(fd)
            raise
        return cls(p, fd, contents)

    @staticmethod
    def _open_fd(p: Path) -> int:
        fd = os.open(p, os.O_RDWR | os.O_APPEND)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise JournalError(f"{p} is being written by another arbiter already: stop that one first") from None
        return fd

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what it holds ----------------------------------------------------------------------------

    @property
    def contents(self) -> JournalContents:
        """A copy of what the journal holds now."""
        return copy.deepcopy(self._contents)

    @property
    def steps(self) -> list[str]:
        """The game's steps now, after take-backs and corrections."""
        return list(self._contents.steps)

    @property
    def game(self) -> str:
        return self._contents.game

    @property
    def options(self) -> dict[str, Any]:
        return dict(self._contents.options)

    @property
    def chooser(self) -> list[int] | None:
        return None if self._contents.chooser is None else list(self._contents.chooser)

    @property
    def reader(self) -> str:
        return self._contents.reader

    @property
    def time_control(self) -> str | None:
        return self._contents.time_control

    @property
    def setup(self) -> dict[str, Any]:
        """How the game was set up to be played (the header's ``setup``; empty if none was given)."""
        return copy.deepcopy(self._contents.setup)

    @property
    def clock(self) -> dict[str, Any] | None:
        """The last clock snapshot written, if any."""
        return None if self._contents.clock is None else dict(self._contents.clock)

    @property
    def ended(self) -> dict[str, Any] | None:
        return None if self._contents.ended is None else dict(self._contents.ended)

    @property
    def seq(self) -> int:
        return self._contents.seq

    def to_record(self) -> Record:
        return self._contents.to_record()

    # -- appending --------------------------------------------------------------------------------

    def _reopen(self) -> None:
        """Open a closed journal again to append (a failed write, or a close, let it go).

        Only the same file, holding exactly what this journal wrote, is taken back: anything else
        (replaced, cut, added to by another arbiter) is refused rather than written into.
        """
        try:
            fd = self._open_fd(self.path)
        except OSError as exc:
            raise JournalError(f"{self.path} is closed and cannot be opened again ({exc.strerror or exc}): "
                               f"the event was NOT recorded") from None
        try:
            st = os.fstat(fd)
            if (st.st_dev, st.st_ino) != self._file:
                raise JournalError(f"{self.path} was replaced by another file while it was closed: the event "
                                   f"was NOT recorded; resume the game from the file to go on")
            size = st.st_size
            if size > self._contents.good_bytes:  # a line torn by the failed write: take it back
                with os.fdopen(os.dup(fd), "rb") as fh:
                    fh.seek(self._contents.good_bytes)
                    extra = fh.read()
                if extra.count(b"\n") > 1:  # more than our one unrecorded line: someone else wrote
                    raise JournalError(f"{self.path} was written by someone else while it was closed: the "
                                       f"event was NOT recorded; resume the game from the file to go on")
                os.ftruncate(fd, self._contents.good_bytes)
                os.fsync(fd)
            elif size < self._contents.good_bytes:
                raise JournalError(f"{self.path} was cut short while it was closed: the event was NOT "
                                   f"recorded; resume the game from the file to go on")
        except OSError as exc:
            os.close(fd)
            raise JournalError(f"{self.path} cannot be opened again ({exc.strerror or exc}): the event was "
                               f"NOT recorded") from None
        except JournalError:
            os.close(fd)
            raise
        self._fd = fd

    def _append(self, event: dict[str, Any], clock: Mapping[str, Any] | None,
                clear: Mapping[str, Any] | None = None) -> int:
        """Write one event line; ``clear``: the fields the line seals (kept in the secret file)."""
        if self._fd is None:
            self._reopen()
        event = {"seq": self.seq + 1, **event}
        if clock is not None:
            event["clock"] = dict(clock)
        trial = self._contents.clone()
        if clear:
            digest, entry = self._new_secret(event["seq"], clear)
            event["sealed"] = digest
            trial.clear[event["seq"]] = {"salt": entry["salt"], "clear": entry["clear"]}
        line = _encode(event)
        line_no = self.seq + 2
        _apply(trial, json.loads(line), line_no)  # raises ValueError before anything is written
        before = self._contents.good_bytes
        try:
            view = memoryview(line)
            while view:
                n = os.write(self._fd, view)
                view = view[n:]
            os.fsync(self._fd)
        except OSError as exc:
            try:  # take the part-written line back, so the next append starts on a clean line
                os.ftruncate(self._fd, before)
                os.fsync(self._fd)
            except OSError:
                self.close()
            raise JournalError(f"could not write {self.path} ({exc}): the event was NOT recorded; "
                               f"do not announce it") from None
        trial.good_bytes = before + len(line)
        self._contents = trial
        return event["seq"]

    def append_step(self, step_text: str, clock: Mapping[str, Any] | None = None,
                    draws: Iterable[int] | None = None) -> int:
        """Record an accepted step; returns its sequence number once it is safely on disk.

        ``draws``: Brain Hanky move-chooser values drawn while this step was played.
        """
        event: dict[str, Any] = {"event": "step", "ply": len(self._contents.steps) + 1, "step": str(step_text)}
        if draws:
            event["draws"] = list(draws)
        return self._append_sealed(event, clock)

    def _sealing(self, event: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """(the line as written, the fields it seals): a secret step (``rules.public_text`` hides
        it) is written as its public text, and secret chance draws (``rules.draws_private``) not
        at all; both go to the secret file until the game reveals them (``reveal``)."""
        clear: dict[str, Any] = {}
        text = event.get("step")
        if text is not None and self._rules.public_text(text) != text:
            clear["step"] = text
            event = {**event, "step": self._rules.public_text(text)}
        if event.get("draws") and self._rules.draws_private:
            clear["draws"] = event["draws"]
            event = {k: v for k, v in event.items() if k != "draws"}
        return event, clear

    def _append_sealed(self, event: dict[str, Any], clock: Mapping[str, Any] | None) -> int:
        event, clear = self._sealing(event)
        return self._append(event, clock, clear)

    def append_takeback(self, n: int = 1, clock: Mapping[str, Any] | None = None) -> int:
        """Record that the players took back the last ``n`` steps."""
        return self._append({"event": "takeback", "n": n}, clock)

    def append_correction(self, step_text: str, clock: Mapping[str, Any] | None = None) -> int:
        """Record that the last step was really ``step_text`` (a piece slid one point further)."""
        return self._append_sealed({"event": "correction", "ply": len(self._contents.steps), "step": str(step_text)},
                                   clock)

    def append_clock(self, clock: Mapping[str, Any]) -> int:
        """Record a clock reading (a pause, or a periodic reading so a crash costs little time)."""
        return self._append({"event": "clock"}, clock)

    def append_end(self, result: engine.Result | Mapping[str, Any], clock: Mapping[str, Any] | None = None) -> int:
        """Record an ending the steps do not show, such as a loss on time or a resignation."""
        data = result.as_dict() if isinstance(result, engine.Result) else dict(result)
        return self._append({"event": "end", "result": data}, clock)

    @property
    def unrevealed(self) -> list[int]:
        """Sealed lines (0: the header) whose secrets no reveal event has made public yet."""
        c = self._contents
        done: set[int] = set()
        for e in c.events:
            if e.get("event") == "reveal":
                done.update(x["seq"] for x in e["secrets"])
        seqs = sorted(c.sealed) + ([0] if c.header_sealed is not None else [])
        return sorted(s for s in seqs if s not in done)

    def reveal(self, clock: Mapping[str, Any] | None = None) -> int | None:
        """Write every secret still sealed into the journal in clear (one ``reveal`` event): the
        game is over, so anyone may read them now. None if there was nothing sealed."""
        seqs = self.unrevealed
        if not seqs:
            return None
        found = [{"seq": s, **self._contents.clear[s]} for s in seqs if s in self._contents.clear]
        if len(found) != len(seqs):
            missing = [s for s in seqs if s not in self._contents.clear]
            raise JournalError(f"{self.secret_path} lacks the secrets of seq {missing}: they cannot be revealed")
        return self._append({"event": "reveal", "secrets": found}, clock)

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r}, {self.game}, {len(self._contents.steps)} steps)"


# -- resuming ---------------------------------------------------------------------------------------


def replay_journal(contents: JournalContents, rng: random.Random | None = None) -> tuple[engine.Game, Any]:
    """Play the journal's steps through the engine from the start; returns (game, state).

    ``rng`` draws further move-chooser values for a Brain Hanky game resumed mid-game. An
    illegal step is a JournalError naming its line.
    """
    if contents.still_sealed:
        raise JournalError(f"{contents.path}: {len(contents.still_sealed)} sealed secret steps or draws cannot be "
                           f"read: their secret file {secret_path(contents.path)} is missing, unreadable or not "
                           f"this game's. Put it back beside the journal to resume the game")
    record = contents.to_record()
    try:
        game = record.load_game()
        if rng is not None and game.rules.draw_values is not None:
            state = game.new(draws=Draws(record.chooser or [], rng))
        else:
            state = record.new_state(game)
    except (RecordError, ValueError) as exc:
        raise JournalError(f"{contents.where(1)}: {exc}") from None
    for i, (text, line) in enumerate(zip(contents.steps, contents.step_lines), start=1):
        try:
            state = state.play(text)
        except engine.IllegalStep as exc:
            raise JournalError(
                f"{contents.where(line)}: step {i} ({game.rules.public_text(text)}) is illegal: {exc.reason}. "
                f"The journal does not "
                f"match the rules (edited, or from another arbiter version?): `arbiter export` it to "
                f"inspect the steps") from None
    return game, state


def load_public(path: str | os.PathLike[str], game: str | None = None) -> JournalContents:
    """The journal at ``path`` as anyone may see it (``arbiter export``, ``arbiter replay``).

    A game with sealed secrets is shown whole once it is over (its reveal line written, or, if a
    crash came between the last step and that line, read from the secret file once the steps
    show the game ended); before that, JournalError: the secrets are not to be shown yet."""
    contents = load_journal(path, game)
    if not contents.still_sealed:
        return contents
    full = load_journal(path, game, unseal=True)
    if not full.still_sealed and _finished(full):
        return full
    n = len(contents.still_sealed)
    raise JournalError(f"{contents.path} holds {n} sealed secret{'s' if n != 1 else ''} (a code, a goal, a hidden "
                       f"choice) of a game that is not over: it can be shown once the game ends")


def _finished(contents: JournalContents) -> bool:
    if contents.ended is not None:
        return True
    _, state = replay_journal(contents)
    return state.result is not None


def latest_unfinished(directory: str | os.PathLike[str] | None = None) -> Path | None:
    """The most recently played journal whose game has not ended, or None.

    A journal that cannot be read is an error rather than skipped: it may be the very game the
    players want back, and resuming an older one instead would be worse than stopping to ask.
    """
    for path in list_journals(directory):
        if path.stat().st_size == 0:
            continue  # a name claimed by a game that crashed before its header landed: no game
        try:
            contents = load_journal(path, unseal=True)
            if not _finished(contents):
                return path
        except JournalError as exc:
            raise JournalError(f"{exc} (to resume an older game, move {path.name} out of {path.parent})") from None
    return None


@dataclass
class Resumed:
    """A game picked up again: the journal (open for appending), the engine state, the clock."""

    journal: Journal
    game: engine.Game
    state: Any
    clock: Clock | None  # paused: resume(t) it when play restarts
    warnings: list[str]


def resume(path: str | os.PathLike[str] | None = None, *, directory: str | os.PathLike[str] | None = None,
           game: str | None = None, rng: random.Random | None = None) -> Resumed:
    """Pick a game up again: the journal at ``path``, or else the latest unfinished one.

    The steps are replayed through the engine; the clock comes back from its last snapshot,
    paused, so the time the game stood still is charged to nobody (see ``arbiter.clocks``).
    """
    if path is None:
        path = latest_unfinished(directory)
        if path is None:
            folder = Path(directory) if directory is not None else journal_dir()
            raise JournalError(f"no unfinished game in {folder}: start a new one")
    journal = Journal.open(path, game=game)
    try:
        contents = journal.contents
        loaded, state = replay_journal(contents, rng)
        clock = None
        if contents.clock is not None:
            try:
                clock = Clock.restore(contents.clock)
            except ClockError as exc:
                raise JournalError(f"{contents.where(contents.clock_line or 1)}: {exc}") from None
        elif contents.time_control is not None:
            clock = Clock(contents.time_control, loaded.players)
    except BaseException:
        journal.close()
        raise
    return Resumed(journal, loaded, state, clock, list(contents.warnings))
