"""The journal's promises that tests/test_journal.py left unchecked, found by mutation testing.

Each test here kills mutants of arbiter/journal.py that survived the journal's own tests
(docs/testing.md): what a damaged line is called, what ``create`` and ``new`` keep of what they
were given, the line numbers kept for each step, writes that the system cuts short, a failed
write after good ones, and values JSON cannot hold.
"""

from __future__ import annotations

import errno
import json
import os
import random
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

import arbiter.journal as journal_module
from arbiter.journal import Journal, JournalError, latest_unfinished, list_journals, load_journal, \
    new_journal_path, parse_journal, replay_journal, resume, usable_journal_dir

HEADER = {"arbiter_journal": 1, "game": "nine-mens-morris", "options": {}, "chooser": None,
          "created": "2025-05-01T12:00:00+00:00", "reader": "colour", "time_control": None}
HANKY_HEADER = dict(HEADER, game="brain-hanky", options={"move_chooser": True}, chooser=[])


def journal_bytes(*events, header=HEADER) -> bytes:
    lines = [header] + list(events) + [{"seq": len(events) + 1, "event": "clock", "clock": {"x": 1}}]
    return b"".join(json.dumps(x).encode() + b"\n" for x in lines)


@pytest.mark.parametrize("event,header,says", [
    ([1, 2], HEADER, "an event line must be a JSON object"),
    ({"seq": 1, "event": "resign"}, HEADER,
     "unknown event 'resign' (a journal has step, takeback, correction, clock, end, reveal)"),
    ({"seq": 1, "event": "clock", "clock": 5}, HEADER, "\"clock\" must be a clock snapshot object"),
    ({"seq": 1, "event": "clock", "clock": {}, "draws": [1]}, HANKY_HEADER, "move-chooser draws come with a step"),
    ({"seq": 1, "event": "step", "ply": 1, "step": "Oc3", "draws": [True]}, HANKY_HEADER,
     "chance draws must be a list of whole numbers such as [2, 3, 1]"),
    ({"seq": 1, "event": "step", "ply": 1, "step": "Oc3", "draws": "2"}, HANKY_HEADER,
     "chance draws must be a list of whole numbers such as [2, 3, 1]"),
    ({"seq": 1, "event": "step", "ply": 1, "step": "Oc3", "draws": [0]}, HANKY_HEADER,
     "chance draws must be a list of whole numbers such as [2, 3, 1]"),
    ({"seq": 1, "event": "step", "ply": 1, "step": "Oc3", "draws": [2, 4]}, HANKY_HEADER,
     "a draw of 4 is not possible here (draws are 1, 2, 3)"),
    ({"seq": 1, "event": "step", "ply": 1, "step": "d2", "draws": [2]}, HEADER,
     "chance draws must be left out: this game has none"),
], ids=["not-object", "unknown-event", "clock-not-object", "draws-without-step", "draws-bool", "draws-text",
        "draws-zero", "draw-out-of-range", "draws-in-a-game-without"])
def test_a_damaged_line_is_named_for_what_is_wrong(event, header, says):
    with pytest.raises(JournalError) as info:
        parse_journal(journal_bytes(event, header=header), "g.jsonl")
    assert f"g.jsonl, line 2 is damaged ({says})" in str(info.value)


def test_a_step_after_the_end_is_damage():
    data = journal_bytes({"seq": 1, "event": "end", "result": {"winner": 1, "draw": False, "reason": "time"}},
                         {"seq": 2, "event": "step", "ply": 1, "step": "d2"})
    with pytest.raises(JournalError, match=r"line 3 is damaged \(a step after the game ended\)"):
        parse_journal(data, "g.jsonl")


def test_hidden_files_are_not_journals(tmp_path):
    j = Journal.create(tmp_path / "2025-05-01_game.jsonl", "tapatan")
    j.close()
    (tmp_path / ".2025-05-02_game.jsonl").write_bytes(b"")  # a temp file being written
    assert list_journals(tmp_path) == [tmp_path / "2025-05-01_game.jsonl"]


def test_new_journal_paths_go_in_the_folder_asked_for_or_the_journal_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_JOURNAL_DIR", str(tmp_path / "default"))
    when = datetime(2025, 5, 1, 12, 0, tzinfo=UTC)
    assert new_journal_path("tapatan", tmp_path / "asked", when).parent == tmp_path / "asked"
    assert new_journal_path("tapatan", None, when).parent == tmp_path / "default"
    assert list_journals(None) == []


def test_create_keeps_what_it_was_given(tmp_path):
    path = tmp_path / "deep" / "er" / "game.jsonl"  # folders made as needed
    two_hours_east = timezone(timedelta(hours=2))
    with Journal.create(path, "nine-mens-morris", now=datetime(2025, 5, 1, 14, 3, 22, tzinfo=two_hours_east)) as j:
        assert j.reader == "colour", "a camera by default"
        assert j.contents.path == path
        assert j.contents.created == "2025-05-01T12:03:22+00:00", "created is kept in UTC"
        assert "game.jsonl" in repr(j) and str(path) in repr(j)


def test_create_checks_the_reader_and_the_draws(tmp_path):
    with pytest.raises(JournalError, match="^reader must name the kind of board reader, such as \"colour\" or "
                                           "\"occupancy\"$"):
        Journal.create(tmp_path / "a.jsonl", "tapatan", reader="")
    with pytest.raises(JournalError, match=r"^a draw of 4 is not possible here \(draws are 1, 2, 3\)$"):
        Journal.create(tmp_path / "b.jsonl", "brain-hanky", {"move_chooser": True}, chooser=[2, 4])
    with Journal.create(tmp_path / "c.jsonl", "brain-hanky", {"move_chooser": True}) as j:
        assert j.chooser == [], "a move-chooser game with nothing drawn yet has an empty list, not none"


def test_new_keeps_options_time_and_settings(tmp_path):
    when = datetime(2025, 5, 1, 12, 0, 5, tzinfo=UTC)
    with Journal.new("nine-mens-morris", {"move_cap": 40}, directory=tmp_path, now=when,
                     reader="occupancy") as j:
        assert j.options["move_cap"] == 40
        assert j.reader == "occupancy"
        assert j.contents.created == "2025-05-01T12:00:05+00:00"
    with pytest.raises(JournalError, match="chess"):
        Journal.new("chess", directory=tmp_path)


def test_open_names_a_missing_journal(tmp_path):
    with pytest.raises(JournalError, match="no such journal"):
        Journal.open(tmp_path / "gone.jsonl")


def test_load_names_a_folder_and_an_unreadable_path(tmp_path):
    with pytest.raises(JournalError, match=r"is a folder, not a journal$"):
        load_journal(tmp_path)
    with pytest.raises(JournalError, match=r": cannot read it \("):
        load_journal(tmp_path / ("x" * 300 + ".jsonl"))  # a name too long for the file system


def test_each_step_keeps_the_line_it_is_on(tmp_path):
    with Journal.create(tmp_path / "g.jsonl", "nine-mens-morris") as j:
        j.append_step("d2")
        j.append_clock({"white": 1})
        j.append_step("d6")
        assert j.contents.step_lines == [2, 4]
    assert load_journal(tmp_path / "g.jsonl").step_lines == [2, 4]


def test_takebacks_and_corrections_carry_their_clock(tmp_path):
    with Journal.create(tmp_path / "g.jsonl", "nine-mens-morris") as j:
        j.append_step("d2")
        j.append_step("d6")
        j.append_takeback(1, clock={"t": 1})
        assert j.clock == {"t": 1}
        j.append_correction("d3", clock={"t": 2})
        assert j.clock == {"t": 2} and j.steps == ["d3"]


def test_a_write_the_system_cuts_short_is_finished(tmp_path, monkeypatch):
    real = os.write

    def one_byte(fd, data):
        return real(fd, bytes(data[:1]))

    with Journal.create(tmp_path / "g.jsonl", "nine-mens-morris") as j:
        monkeypatch.setattr(os, "write", one_byte)
        j.append_step("d2")
        j.append_step("d6")
        monkeypatch.undo()
    assert load_journal(tmp_path / "g.jsonl").steps == ["d2", "d6"]


def test_a_failed_write_after_good_ones_leaves_them_whole(tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    with Journal.create(path, "nine-mens-morris") as j:
        j.append_step("d2")
        j.append_step("d6")
        good = path.read_bytes()
        real = os.write

        def half_then_fail(fd, data):
            real(fd, bytes(data[:5]))
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(os, "write", half_then_fail)
        with pytest.raises(JournalError, match="NOT recorded"):
            j.append_step("d3")
        monkeypatch.undo()
        assert path.read_bytes() == good
        assert j.contents.step_lines == [2, 3] and j.steps == ["d2", "d6"]
        assert j.contents.warnings == []
        j.append_step("d3")
    assert load_journal(path).steps == ["d2", "d6", "d3"]


def test_a_clock_json_cannot_hold_is_refused_before_writing(tmp_path):
    path = tmp_path / "g.jsonl"
    with Journal.create(path, "nine-mens-morris") as j:
        before = path.read_bytes()
        with pytest.raises((ValueError, JournalError), match="cannot be written as JSON"):
            j.append_clock({"white": float("nan")})
        assert path.read_bytes() == before and j.seq == 0


def test_replay_with_a_random_source_for_a_game_without_draws(tmp_path):
    with Journal.create(tmp_path / "g.jsonl", "nine-mens-morris") as j:
        j.append_step("d2")
        contents = j.contents
    _, state = replay_journal(contents, random.Random(1))
    assert state.plies == 1


def test_resume_draws_further_move_chooser_values_from_the_random_source(tmp_path):
    # Phase I placed in full, nothing drawn yet: Phase II's first turn needs a draw, which only
    # the random source given to resume can make.
    import engine

    game = engine.load("brain-hanky", move_chooser=True, gems=2)
    s = game.new(draws=[2])
    placed = []
    while s.phase == "placement":
        placed.append(s.legal_steps()[0])
        s = s.play(placed[-1])
    path = tmp_path / "g.jsonl"
    with Journal.create(path, "brain-hanky", {"move_chooser": True, "gems": 2}) as j:
        for st in placed:
            j.append_step(st)
    got = resume(path, rng=random.Random(7))
    got.journal.close()
    assert got.state.phase == "movement" and len(got.state.chooser_draws()) == 1
    assert got.state.chooser_draws()[0] in (1, 2, 3)
    with pytest.raises(JournalError, match="no value for turn 1"):
        resume(path)


def test_resume_looks_in_the_journal_folder_by_default(tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_JOURNAL_DIR", str(tmp_path / "games"))
    with pytest.raises(JournalError, match="no unfinished game in .*games: start a new one"):
        resume()


def test_a_resumed_three_player_clock_has_three_players(tmp_path):
    path = tmp_path / "g.jsonl"
    with Journal.create(path, "brain-hanky", {"players": 3}, time_control="5m") as j:
        j.append_step("Oc3")
    got = resume(path)
    got.journal.close()
    assert got.clock is not None and got.clock.players == 3


def test_a_takeback_is_one_step_unless_told(tmp_path):
    with Journal.create(tmp_path / "g.jsonl", "nine-mens-morris") as j:
        j.append_step("d2")
        j.append_step("d6")
        j.append_takeback()
        assert j.steps == ["d2"]


def test_text_of_x_is_not_empty_but_unreadable():
    with pytest.raises(JournalError, match="the header is not readable JSON"):
        parse_journal(b"XX\n")


def test_created_is_utc_whatever_the_local_time_zone(tmp_path, monkeypatch):
    import time

    monkeypatch.setenv("TZ", "Asia/Kolkata")
    time.tzset()
    try:
        with Journal.create(tmp_path / "g.jsonl", "tapatan", now=datetime(2025, 5, 1, 12, 0, tzinfo=UTC)) as j:
            assert j.contents.created == "2025-05-01T12:00:00+00:00"
    finally:
        monkeypatch.undo()
        time.tzset()



def lines(*events, header=HEADER) -> bytes:
    return b"".join(json.dumps(x).encode() + b"\n" for x in (header,) + events)


STEP1 = {"seq": 1, "event": "step", "ply": 1, "step": "d2"}


@pytest.mark.parametrize("event,says", [
    ({"seq": 1, "event": "correction", "ply": 0, "step": "d3"}, "a correction with no step before it to correct"),
    ({"seq": 2, "event": "takeback", "n": True}, "a take-back of True steps, with 1 steps played"),
    ({"seq": 2, "event": "clock"}, "a clock event without its \"clock\" snapshot"),
    ({"seq": 2, "event": "end", "result": {"winner": 1}},
     "an end event needs \"result\": {\"winner\": ..., \"draw\": ..., \"reason\": ...}"),
    ({"seq": 2, "event": "end", "result": {"reason": "time"}},
     "an end event needs \"result\": {\"winner\": ..., \"draw\": ..., \"reason\": ...}"),
    ({"seq": 2, "event": "end", "result": ["winner", "reason"]},
     "an end event needs \"result\": {\"winner\": ..., \"draw\": ..., \"reason\": ...}"),
])
def test_more_damaged_lines_named(event, says):
    events = (event,) if event["seq"] == 1 else (STEP1, event)
    data = lines(*events, {"seq": event["seq"] + 1, "event": "clock", "clock": {}})
    with pytest.raises(JournalError) as info:
        parse_journal(data, "g.jsonl")
    assert f"line {event['seq'] + 1} is damaged ({says})" in str(info.value)


def test_unreadable_json_in_the_middle_is_called_that():
    data = lines(STEP1) + b"{not json\n" + json.dumps({"seq": 2, "event": "clock", "clock": {}}).encode() + b"\n"
    with pytest.raises(JournalError, match=r"line 3 is damaged \(not readable JSON\)"):
        parse_journal(data, "g.jsonl")


def test_a_correction_takes_the_line_it_is_on_and_reopens_an_ended_game():
    end = {"seq": 3, "event": "end", "result": {"winner": 1, "draw": False, "reason": "resigned"}}
    fix = {"seq": 4, "event": "correction", "ply": 2, "step": "d5"}
    c = parse_journal(lines(STEP1, {"seq": 2, "event": "step", "ply": 2, "step": "d6"}, end, fix), "g.jsonl")
    assert c.steps == ["d2", "d5"] and c.step_lines == [2, 5]
    assert c.ended is None, "a correction of the move that ended the game reopens it"


@pytest.mark.parametrize("header,says", [
    (dict(HEADER, arbiter_journal="1"), "line 1: format version '1' is not a number"),
    (dict(HEADER, arbiter_journal=0), "line 1: format version 0 is not a number"),
    (dict(HEADER, game=""), "line 1: the header needs \"game\" and \"options\""),
    (dict(HEADER, options=[]), "line 1: the header needs \"game\" and \"options\""),
])
def test_a_header_arbiter_cannot_use_says_so_and_what_to_do(header, says):
    with pytest.raises(JournalError) as info:
        parse_journal(lines(header=header), "g.jsonl")
    text = str(info.value)
    assert says in text and text.endswith("it is not a journal arbiter can use; move it out of the games folder")


def test_the_header_fields_are_read_back():
    c = parse_journal(lines(header=dict(HEADER, reader="occupancy")), "g.jsonl")
    assert (c.created, c.reader) == ("2025-05-01T12:00:00+00:00", "occupancy")
    bare = {k: v for k, v in HEADER.items() if k not in ("created", "reader")}
    c = parse_journal(lines(header=bare), "g.jsonl")
    assert (c.created, c.reader) == ("", "")


def test_an_empty_journal_and_a_torn_first_step():
    with pytest.raises(JournalError, match="^journal is empty: it holds no game; delete it$"):
        parse_journal(b"\0\0 \r\n\t")
    c = parse_journal(lines() + b'{"seq": 1, "ev', "g.jsonl")
    assert c.steps == [] and len(c.warnings) == 1
    assert "line 2 was cut off by a crash while it was written (it has no end of line)" in c.warnings[0]


# -- the merged journal: safe names, setup in the header, reopening ---------------------------------
# Survivors of the journal's run on the code after the journal-safety work (docs/testing.md).

WHEN = datetime(2025, 5, 1, 12, 0, 0, tzinfo=UTC)


def test_a_name_claimed_by_a_crashed_start_does_not_hide_an_older_unfinished_game(tmp_path):
    j = Journal.new("tapatan", directory=tmp_path, now=WHEN)
    j.append_step("a1")
    j.close()
    empty = new_journal_path("tapatan", tmp_path, WHEN + timedelta(hours=1))
    empty.write_bytes(b"")
    os.utime(j.path, (1_000_000, 1_000_000))  # the empty one is the newest
    assert list_journals(tmp_path)[0] == empty
    assert latest_unfinished(tmp_path) == j.path


def test_the_first_name_for_a_game_is_the_plain_one():
    assert new_journal_path("tapatan", "/x", WHEN).name.endswith("_tapatan.jsonl")
    assert new_journal_path("tapatan", "/x", WHEN, 1) == new_journal_path("tapatan", "/x", WHEN)
    assert new_journal_path("tapatan", "/x", WHEN, 2).name.endswith("_tapatan-2.jsonl")


def test_the_thousandth_game_in_one_second_is_refused_with_what_to_do(tmp_path):
    for n in range(1, 1000):
        new_journal_path("tapatan", tmp_path, WHEN, n).write_bytes(b"")
    with pytest.raises(JournalError, match=r"999 games begun at \d\d:\d\d:\d\d in .*: move some out"):
        Journal.new("tapatan", directory=tmp_path, now=WHEN)


def test_resume_hands_back_the_loaded_game(tmp_path):
    j = Journal.new("tapatan", directory=tmp_path)
    j.append_step("a1")
    j.close()
    r = resume(j.path)
    try:
        assert r.game.name == "tapatan" and r.state.position()
    finally:
        r.journal.close()


def test_a_clone_has_its_own_copy_of_the_setup(tmp_path):
    path = tmp_path / "g.jsonl"
    Journal.create(path, "tapatan", setup={"reader": "sim", "leds": True}).close()
    contents = load_journal(path)
    c = contents.clone()
    assert c.setup == {"reader": "sim", "leds": True} and c.setup is not contents.setup


def test_a_setup_json_cannot_hold_is_refused_naming_the_setup(tmp_path):
    with pytest.raises(JournalError, match="^the game's setup cannot be written as JSON"):
        Journal.create(tmp_path / "g.jsonl", "tapatan", setup={"x": float("nan")})


def test_a_failed_create_says_why_in_the_systems_words(tmp_path, monkeypatch):
    def full(path, data, **kw):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(journal_module, "create_new", full)
    p = tmp_path / "g.jsonl"
    with pytest.raises(JournalError) as info:
        Journal.create(p, "tapatan")
    assert str(info.value) == f"cannot create the journal {p}: No space left on device"


def test_create_makes_a_new_folders_name_durable_and_only_then(tmp_path, monkeypatch):
    synced = []
    monkeypatch.setattr(journal_module, "fsync_dir", lambda folder: synced.append(Path(folder)))
    Journal.create(tmp_path / "new" / "g.jsonl", "tapatan").close()
    assert synced == [tmp_path], "the new folder's entry is in its parent"
    Journal.create(tmp_path / "g.jsonl", "tapatan").close()
    assert synced == [tmp_path], "an existing folder needs nothing"


def test_a_games_folder_that_cannot_be_made_or_written_says_why(tmp_path, monkeypatch):
    def refuse(self, *a, **kw):
        raise PermissionError(errno.EACCES, "Permission denied")

    with monkeypatch.context() as m:
        m.setattr(Path, "mkdir", refuse)
        with pytest.raises(JournalError) as info:
            usable_journal_dir(tmp_path / "games")
    assert f"the journal folder {tmp_path / 'games'} cannot be made (Permission denied): pick a folder" \
        in str(info.value)
    real_open = os.open

    def read_only(path, *a, **kw):
        if ".arbiter-probe" in str(path):
            raise OSError(errno.EROFS, "Read-only file system")
        return real_open(path, *a, **kw)

    with monkeypatch.context() as m:
        m.setattr(journal_module.os, "open", read_only)
        with pytest.raises(JournalError) as info:
            usable_journal_dir(tmp_path)
    assert f"cannot write games in {tmp_path} (Read-only file system): pick a folder" in str(info.value)


def test_the_folder_check_never_writes_through_a_link_planted_at_its_probe(tmp_path, monkeypatch):
    monkeypatch.setattr(journal_module.random, "getrandbits", lambda k: 0x1234)
    target = tmp_path / "elsewhere"
    (tmp_path / f".arbiter-probe-{os.getpid()}-00001234").symlink_to(target)
    with pytest.raises(JournalError, match="cannot write games in"):
        usable_journal_dir(tmp_path)
    assert not target.exists()


def _closed_after_a1(tmp_path):
    j = Journal.new("tapatan", directory=tmp_path)
    j.append_step("a1")
    j.close()
    return j


def test_a_line_torn_by_a_failed_write_is_taken_back_on_reopening(tmp_path):
    j = _closed_after_a1(tmp_path)
    with open(j.path, "ab") as fh:
        fh.write(b'{"seq":2,"event":"st')  # the write that failed got this far
    j.append_step("d1")
    j.close()
    assert load_journal(j.path).steps == ["a1", "d1"]


def test_our_own_unrecorded_line_landed_whole_is_taken_back_not_doubled(tmp_path):
    j = _closed_after_a1(tmp_path)
    with open(j.path, "ab") as fh:  # the write landed but was reported failed: one whole line
        fh.write(b'{"seq":2,"event":"step","ply":2,"step":"d1"}\n')
    j.append_step("d1")
    j.close()
    assert load_journal(j.path).steps == ["a1", "d1"]


def test_a_journal_cut_short_while_closed_is_refused(tmp_path):
    j = _closed_after_a1(tmp_path)
    with open(j.path, "r+b") as fh:
        fh.truncate(os.path.getsize(j.path) - 3)
    with pytest.raises(JournalError, match="was cut short while it was closed: the event was NOT recorded"):
        j.append_step("d1")


def test_a_reopening_that_fails_says_why_in_the_systems_words(tmp_path, monkeypatch):
    j = _closed_after_a1(tmp_path)
    j.path.rename(tmp_path / "elsewhere.jsonl")
    with pytest.raises(JournalError) as info:
        j.append_step("d1")
    assert f"{j.path} is closed and cannot be opened again (No such file or directory)" in str(info.value)
    (tmp_path / "elsewhere.jsonl").rename(j.path)
    with open(j.path, "ab") as fh:
        fh.write(b'{"seq":2')

    def broken(fd, size):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(journal_module.os, "ftruncate", broken)
    with pytest.raises(JournalError) as info:
        j.append_step("d1")
    assert str(info.value) == f"{j.path} cannot be opened again (Input/output error): the event was NOT recorded"
    monkeypatch.undo()
    j.append_step("d1")  # the descriptor was let go: the file opens again, unlocked
    j.close()
    assert load_journal(j.path).steps == ["a1", "d1"]
