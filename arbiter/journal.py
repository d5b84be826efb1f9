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

Secrets (a code, hidden goals: a player's answer on their private page, ``State.with_secret``)
are *sealed* until the game ends. The answer goes to a file of its own beside the journal
(``*.sealed.json``, readable by its owner only), and the journal gets a ``sealed`` line with a
salted SHA-256 digest of it, which tells nobody the answer but pins it: ``--resume`` gives the
answer back to the game only if it matches. When the game ends an ``unsealed`` line writes the
answers and their salts into the journal, which checks them against the digests, and the file
beside it is removed. A replay gives the answers to the start state before the steps.

Reading (``load_journal``) forgives exactly one thing: a damaged *last* line, which can only be
the unannounced line a crash interrupted; it is ignored with a warning, and ``Journal.open``
cuts it off before appending. Anything else (a damaged line in the middle, a gap in the sequence
numbers, a header for another game) is an error that says what to do.

Games are kept in ``journal_dir()``, one file per game named by its start time and game, and
``resume()`` finds the most recently played unfinished one and replays it through the engine.
"""

from __future__ import annotations

import copy
import json
import logging
import os
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

import engine
from engine.protocol import Draws

from .clocks import Clock, ClockError, TimeControlError, parse_time_control
from .files import create_new, fsync_dir
from .records import Record, RecordError

try:  # the Pi and every CI machine are POSIX; elsewhere the journal still works, unlocked
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

__all__ = ["FORMAT", "Journal", "JournalContents", "JournalError", "Resumed", "journal_dir",
           "journal_name", "latest_unfinished", "list_journals", "load_journal", "new_journal_path", "parse_journal",
           "replay_journal", "resume", "sealed_path", "secrets_of", "usable_journal_dir", "with_secrets"]

log = logging.getLogger("arbiter.journal")

FORMAT = 1  # the journal format version written in every header
MARKER = "arbiter_journal"
SUFFIX = ".jsonl"
EVENTS = ("step", "takeback", "correction", "clock", "end", "sealed", "unsealed")
SEALED_SUFFIX = ".sealed.json"  # the secrets of a game still going on, beside its journal


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
    sealed: dict[int, str] = field(default_factory=dict)  # player -> digest of their secret
    unsealed: dict[int, str] | None = None  # player -> secret, once the game has ended
    good_bytes: int = 0  # the file's length up to the end of its last intact line

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
                       unsealed=None if self.unsealed is None else dict(self.unsealed),
                       chooser=None if self.chooser is None else list(self.chooser))

    def header(self) -> dict[str, Any]:
        header = {MARKER: FORMAT, "game": self.game, "options": self.options, "chooser": self.chooser,
                  "created": self.created, "reader": self.reader, "time_control": self.time_control}
        if self.setup:
            header["setup"] = self.setup
        return header

    def to_record(self) -> Record:
        """The game as a record (``arbiter.records``), which ``arbiter replay`` reads."""
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
    elif kind == "sealed":
        player, digest = event.get("player"), event.get("digest")
        if not isinstance(player, int) or isinstance(player, bool) or player < 1:
            raise ValueError(f"a sealed secret names its player by number, not {player!r}")
        if not (isinstance(digest, str) and len(digest) == 64 and all(ch in "0123456789abcdef" for ch in digest)):
            raise ValueError("a sealed secret needs its \"digest\" (64 hex digits)")
        if c.unsealed is not None:
            raise ValueError("a secret sealed after the secrets were unsealed")
    elif kind == "unsealed":
        opened = event.get("secrets")
        if c.unsealed is not None or not isinstance(opened, Mapping):
            raise ValueError("the secrets are unsealed once, as \"secrets\": {player: {\"text\", \"salt\"}}")
        if {str(p) for p in c.sealed} != set(opened):
            raise ValueError("the unsealed secrets are not the players' sealed ones")
        for p, held in opened.items():
            if not (isinstance(held, Mapping) and isinstance(held.get("text"), str)
                    and isinstance(held.get("salt"), str)) or _digest(held["salt"], held["text"]) != c.sealed[int(p)]:
                raise ValueError(f"player {p}'s unsealed secret does not match the one sealed")
    # Every check passed: change the contents.
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
    if kind == "sealed":
        c.sealed[event["player"]] = event["digest"]
    if kind == "unsealed":
        c.unsealed = {int(p): held["text"] for p, held in event["secrets"].items()}
    if draws:
        c.chooser = (c.chooser or []) + draws
    if snapshot is not None:
        c.clock, c.clock_line = dict(snapshot), line
    c.events.append(dict(event))


def _digest(salt: str, text: str) -> str:
    import hashlib

    return hashlib.sha256(f"{salt}:{text}".encode()).hexdigest()


def sealed_path(journal_path: str | os.PathLike[str]) -> Path:
    """Where the secrets of the game journalled at ``journal_path`` wait for its end."""
    p = Path(journal_path)
    return p.with_name(p.name.removesuffix(SUFFIX) + SEALED_SUFFIX)


def _read_sealed(path: Path) -> dict[str, dict[str, str]]:
    try:
        data = json.loads(sealed_path(path).read_text())
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise JournalError(f"{sealed_path(path)} cannot be read ({exc}): the game's secrets are in it") from None
    return data if isinstance(data, dict) else {}


def secrets_of(contents: JournalContents) -> dict[int, str]:
    """The players' secrets of a journalled game: unsealed at its end, else from the file beside
    it, each checked against its sealed digest (JournalError naming the player if one differs or
    is missing: the answers that game was played with are gone)."""
    if contents.unsealed is not None:
        return dict(contents.unsealed)
    if not contents.sealed:
        return {}
    held = _read_sealed(contents.path)
    out = {}
    for player, digest in contents.sealed.items():
        got = held.get(str(player))
        if not (isinstance(got, dict) and isinstance(got.get("text"), str) and isinstance(got.get("salt"), str)
                and _digest(got["salt"], got["text"]) == digest):
            raise JournalError(f"player {player}'s secret is sealed in {contents.path} but "
                               f"{sealed_path(contents.path)} does not hold it (moved or edited?): the game cannot "
                               f"go on without it")
        out[player] = got["text"]
    return out


def with_secrets(state: Any, secrets: Mapping[int, str]) -> Any:
    """``state`` with each player's secret given to it (``State.with_secret``)."""
    for player, text in sorted(secrets.items()):
        state = state.with_secret(player, text)
    return state


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
    chooser = header.get("chooser")
    if chooser is not None:
        try:
            contents.chooser = _check_draws(chooser, contents.draw_values())
        except ValueError as exc:
            raise JournalError(f"{path}, line 1: {exc}") from None
    return contents


def parse_journal(data: bytes, path: str | os.PathLike[str] = "journal", game: str | None = None) -> JournalContents:
    """Read a journal's bytes (see ``load_journal``)."""
    path = Path(path)
    if not data.strip(b"\0 \t\r\n"):
        raise JournalError(f"{path} is empty: it holds no game; delete it")
    *complete, tail = data.split(b"\n")
    if not complete:
        raise JournalError(f"{path}: the header line is cut off, so the game cannot be read; "
                           f"it holds no steps (a journal is created whole): delete it")
    c = _parse_header(complete[0], path, game)
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


def load_journal(path: str | os.PathLike[str], game: str | None = None) -> JournalContents:
    """Read the journal at ``path``: header, effective steps, last clock snapshot, end if any.

    A cut-off last line is ignored with a warning (in ``.warnings`` and the ``arbiter.journal``
    log). With ``game``, a journal of another game is an error.
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
    return parse_journal(data, p, game)


# -- writing ----------------------------------------------------------------------------------------


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
            contents = parse_journal(data, p, game)
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

    def _append(self, event: dict[str, Any], clock: Mapping[str, Any] | None) -> int:
        if self._fd is None:
            self._reopen()
        event = {"seq": self.seq + 1, **event}
        if clock is not None:
            event["clock"] = dict(clock)
        line = _encode(event)
        line_no = self.seq + 2
        trial = self._contents.clone()
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
        return self._append(event, clock)

    def append_takeback(self, n: int = 1, clock: Mapping[str, Any] | None = None) -> int:
        """Record that the players took back the last ``n`` steps."""
        return self._append({"event": "takeback", "n": n}, clock)

    def append_correction(self, step_text: str, clock: Mapping[str, Any] | None = None) -> int:
        """Record that the last step was really ``step_text`` (a piece slid one point further)."""
        return self._append({"event": "correction", "ply": len(self._contents.steps), "step": str(step_text)}, clock)

    def append_clock(self, clock: Mapping[str, Any]) -> int:
        """Record a clock reading (a pause, or a periodic reading so a crash costs little time)."""
        return self._append({"event": "clock"}, clock)

    def append_end(self, result: engine.Result | Mapping[str, Any], clock: Mapping[str, Any] | None = None) -> int:
        """Record an ending the steps do not show, such as a loss on time or a resignation."""
        data = result.as_dict() if isinstance(result, engine.Result) else dict(result)
        return self._append({"event": "end", "result": data}, clock)

    def append_sealed(self, player: int, text: str) -> int:
        """Seal ``player``'s secret: the answer to the file beside the journal (owner-only), then a
        ``sealed`` line with its salted digest. Nothing of the answer is in the journal."""
        import secrets as _random

        salt = _random.token_hex(16)
        held = _read_sealed(self.path)
        held[str(player)] = {"text": text, "salt": salt}
        from .files import write_atomic

        try:
            write_atomic(sealed_path(self.path), json.dumps(held), mode=0o600)
        except OSError as exc:
            raise JournalError(f"could not keep the secret beside {self.path} ({exc.strerror or exc}): it was NOT "
                               f"recorded") from None
        return self._append({"event": "sealed", "player": player, "digest": _digest(salt, text)}, None)

    def append_unsealed(self) -> int | None:
        """At the game's end: the secrets and their salts into the journal (checked against the
        digests), and the file beside it removed. None when there is nothing sealed."""
        c = self._contents
        if not c.sealed or c.unsealed is not None:
            return None
        held = _read_sealed(self.path)
        seq = self._append({"event": "unsealed", "secrets": {str(p): held.get(str(p)) for p in c.sealed}}, None)
        try:
            sealed_path(self.path).unlink()
        except OSError:
            pass
        return seq

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r}, {self.game}, {len(self._contents.steps)} steps)"


# -- resuming ---------------------------------------------------------------------------------------


def replay_journal(contents: JournalContents, rng: random.Random | None = None) -> tuple[engine.Game, Any]:
    """Play the journal's steps through the engine from the start; returns (game, state).

    ``rng`` draws further move-chooser values for a Brain Hanky game resumed mid-game. An
    illegal step is a JournalError naming its line.
    """
    record = contents.to_record()
    try:
        game = record.load_game()
        if rng is not None and game.rules.draw_values is not None:
            state = game.new(draws=Draws(record.chooser or [], rng))
        else:
            state = record.new_state(game)
        state = with_secrets(state, secrets_of(contents))
    except (RecordError, ValueError) as exc:
        raise JournalError(f"{contents.where(1)}: {exc}") from None
    for i, (text, line) in enumerate(zip(contents.steps, contents.step_lines), start=1):
        try:
            state = state.play(text)
        except engine.IllegalStep as exc:
            raise JournalError(
                f"{contents.where(line)}: step {i} ({text}) is illegal: {exc.reason}. The journal does not "
                f"match the rules (edited, or from another arbiter version?): `arbiter export` it to "
                f"inspect the steps") from None
    return game, state


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
            contents = load_journal(path)
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
