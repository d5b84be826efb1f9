"""``arbiter export JOURNAL --out FILE.json``: a game's journal as a game record.

The journal (``arbiter.journal``) is the referee's crash-proof log, events and all; the record
(``arbiter.records``) is the plain list of steps that ``arbiter replay`` and ``arbiter render``
read and that players share. Export applies the take-backs and corrections and writes what is
left. The steps are replayed first, so a record is never written from a journal the rules reject
(``--unchecked`` writes it anyway, to look into it with ``arbiter replay``).

"""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.markup import escape

from ..files import write_atomic
from ..journal import JournalError, load_public, replay_journal
from .common import console, errors, fail


def _write_atomically(data: dict, out: Path) -> None:
    """Through ``arbiter.files``: a crash leaves the old file or the new one, never half."""
    write_atomic(out, json.dumps(data, indent=1) + "\n")


def _refuse_a_record(path: str) -> None:
    """A game record given for a journal: say it needs no export, rather than that the journal
    is damaged."""
    from ..records import RecordError, load_record

    try:
        load_record(path)
    except RecordError:
        return
    fail(f"{path} is already a game record (`arbiter replay {path}` reads it): export is for a game's journal")


@click.command("export")
@click.argument("journal", type=click.Path(dir_okay=False))
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False),
              help="The record file to write (JSON, read by `arbiter replay`).")
@click.option("--unchecked", is_flag=True,
              help="Write the record even if a step is illegal, to inspect it with `arbiter replay`.")
def export(journal: str, out: str, unchecked: bool) -> None:
    """Write the game in JOURNAL as a game record that `arbiter replay` reads.

    Take-backs and corrections are applied; a loss on time or other ending the board cannot show
    is kept in the record's "result". Exit status 2 for a journal that cannot be used.
    """
    try:
        contents = load_public(journal)
    except JournalError as exc:
        _refuse_a_record(journal)
        fail(str(exc))
    for warning in contents.warnings:
        errors.print(f"[yellow]arbiter: warning:[/] {escape(warning)}", soft_wrap=True)
    target = Path(out)
    if target.exists() and target.resolve() == Path(journal).resolve():
        fail(f"--out {out} is the journal itself: give another file name")
    state = None
    if not unchecked:
        try:
            _, state = replay_journal(contents)
        except JournalError as exc:
            fail(f"{exc} (--unchecked writes the record anyway)")
    data = contents.to_record().as_dict()
    if contents.ended is not None:
        data["result"] = contents.ended
    try:
        _write_atomically(data, target)
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")
    if contents.ended is not None:
        how = f", ended: {contents.ended.get('reason', '')}"
    elif state is not None and state.result is not None:
        how = f", ended: {state.result.reason}"
    else:
        how = ", unfinished"
    console.print(f"wrote {out}: {contents.game}, {len(contents.steps)} steps{how}", soft_wrap=True, markup=False)
