"""The game journal: written before every announcement, read back after any crash, resumed.

The crash test at the end runs a child process that journals a scripted game and kills it with
SIGKILL at seeded random moments (from outside, and in the middle of a line's write), resuming
after each kill; the game must come out exactly as an uninterrupted run.
"""

import json
import os
import random
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

import pytest

import engine
from arbiter.clocks import Clock
from arbiter.journal import (
    FORMAT,
    Journal,
    JournalError,
    journal_dir,
    journal_name,
    latest_unfinished,
    list_journals,
    load_journal,
    new_journal_path,
    replay_journal,
    resume,
)
from arbiter.records import Record, replay

ROOT = Path(__file__).resolve().parent.parent
DEMO = json.loads(resources.files("arbiter").joinpath("data/demo-nine-mens-morris.json").read_text())["steps"]
NOON = datetime(2025, 5, 1, 12, 0, 0, tzinfo=UTC)


def lines(path):
    return Path(path).read_bytes().split(b"\n")


def journal_with(tmp_path, steps, name="game.jsonl", **kwargs):
    j = Journal.create(tmp_path / name, "nine-mens-morris", {}, now=NOON, **kwargs)
    for s in steps:
        j.append_step(s)
    j.close()
    return tmp_path / name


# -- writing --------------------------------------------------------------------------------------


def test_the_header_names_the_game_with_every_option_filled_in(tmp_path):
    j = Journal.create(tmp_path / "g.jsonl", "seven-mens-morris", {"flying": True}, reader="occupancy",
                       time_control="10m + 5s", now=NOON)
    j.close()
    header = json.loads(lines(tmp_path / "g.jsonl")[0])
    assert header == {"arbiter_journal": FORMAT, "game": "seven-mens-morris",
                      "options": {"flying": True, "move_cap": 200}, "chooser": None,
                      "created": "2025-05-01T12:00:00+00:00", "reader": "occupancy", "time_control": "10m+5s"}
    assert not list(tmp_path.glob(".*.tmp"))  # the header went through a temporary file


def test_every_step_is_on_disk_when_append_returns(tmp_path):
    j = Journal.create(tmp_path / "g.jsonl", "nine-mens-morris", {})
    for n, step in enumerate(DEMO[:5], start=1):
        assert j.append_step(step) == n
        on_disk = load_journal(tmp_path / "g.jsonl")  # read by another handle, before close
        assert on_disk.steps == DEMO[:n]
    j.close()


def test_appends_are_fsynced_before_they_return(tmp_path, monkeypatch):
    order = []
    real_write, real_fsync = os.write, os.fsync
    monkeypatch.setattr(os, "write", lambda fd, data: order.append("write") or real_write(fd, data))
    monkeypatch.setattr(os, "fsync", lambda fd: order.append("fsync") or real_fsync(fd))
    j = Journal.create(tmp_path / "g.jsonl", "nine-mens-morris", {})
    order.clear()
    j.append_step("d1")
    assert order == ["write", "fsync"]
    j.close()


def test_takebacks_and_corrections_change_the_steps(tmp_path):
    with Journal.create(tmp_path / "g.jsonl", "nine-mens-morris", {}) as j:
        for s in ["d1", "g4", "g7"]:
            j.append_step(s)
        j.append_correction("a7")  # the piece had slid one point further
        assert j.steps == ["d1", "g4", "a7"]
        j.append_takeback(2)
        assert j.steps == ["d1"]
        j.append_step("g1")
    back = load_journal(tmp_path / "g.jsonl")
    assert back.steps == ["d1", "g1"]
    assert [e["event"] for e in back.events] == ["step", "step", "step", "correction", "takeback", "step"]
    assert back.step_lines == [2, 7]


@pytest.mark.parametrize("act, says", [
    (lambda j: j.append_takeback(3), "take-back of 3 steps, with 2 steps played"),
    (lambda j: j.append_takeback(0), "take-back of 0"),
    (lambda j: j.append_step(""), "needs its step text"),
    (lambda j: j.append_step("d3", draws=[4]), "draws must be"),
    (lambda j: j.append_step("d3", clock={"left": float("nan")}), "cannot be written as JSON"),
])
def test_a_bad_append_is_refused_and_nothing_is_written(tmp_path, act, says):
    path = journal_with(tmp_path, ["d1", "g4"])
    before = path.read_bytes()
    with Journal.open(path) as j:
        with pytest.raises(ValueError, match=says):
            act(j)
        assert j.steps == ["d1", "g4"]
        assert path.read_bytes() == before
        j.append_step("d3")  # and the journal goes on normally
    assert load_journal(path).steps == ["d1", "g4", "d3"]


def test_a_correction_needs_a_step_to_correct(tmp_path):
    with Journal.create(tmp_path / "g.jsonl", "nine-mens-morris", {}) as j, \
            pytest.raises(ValueError, match="no step before it"):
        j.append_correction("d1")


def test_a_failed_write_is_taken_back_and_reported(tmp_path, monkeypatch):
    path = journal_with(tmp_path, ["d1"])
    before = path.read_bytes()
    j = Journal.open(path)
    real_write = os.write

    def half_then_full_disk(fd, data):
        real_write(fd, bytes(data)[:5])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", half_then_full_disk)
    with pytest.raises(JournalError, match="NOT recorded; do not announce"):
        j.append_step("g4")
    monkeypatch.setattr(os, "write", real_write)
    assert path.read_bytes() == before
    j.append_step("g4")
    j.close()
    assert load_journal(path).steps == ["d1", "g4"]


def test_create_checks_game_options_chooser_and_time_control(tmp_path):
    with pytest.raises(JournalError, match="did you mean nine-mens-morris"):
        Journal.create(tmp_path / "a.jsonl", "nine-men-morris", {})
    with pytest.raises(JournalError, match="no option"):
        Journal.create(tmp_path / "a.jsonl", "tapatan", {"flying": True})
    with pytest.raises(JournalError, match="not played with the move chooser"):
        Journal.create(tmp_path / "a.jsonl", "tapatan", {}, chooser=[1, 2])
    with pytest.raises(JournalError, match="no unit"):
        Journal.create(tmp_path / "a.jsonl", "tapatan", {}, time_control="10")
    assert not (tmp_path / "a.jsonl").exists()


def test_create_never_overwrites_a_game(tmp_path):
    path = journal_with(tmp_path, ["d1"])
    with pytest.raises(JournalError, match="already exists"):
        Journal.create(path, "nine-mens-morris", {})
    assert load_journal(path).steps == ["d1"]


def test_only_one_referee_writes_a_journal_at_a_time(tmp_path):
    path = journal_with(tmp_path, [])
    with Journal.open(path), pytest.raises(JournalError, match="another arbiter"):
        Journal.open(path)
    Journal.open(path).close()  # free again once the first is closed


def test_a_closed_journal_is_opened_again_to_append(tmp_path):
    j = Journal.open(journal_with(tmp_path, []))
    j.close()
    assert j.append_step("d1") == 1  # reopened: a write lost to a close would be a step lost
    j.close()
    assert load_journal(j.path).steps == ["d1"]


def test_an_end_event_records_a_loss_on_time(tmp_path):
    clock = Clock("1m")
    clock.start(0.0)
    with Journal.create(tmp_path / "g.jsonl", "nine-mens-morris", {}, time_control="1m") as j:
        j.append_step("d1", clock=clock.snapshot(1.0))
        result = clock.result(61.0)
        j.append_end(result, clock=clock.snapshot(61.0))
        with pytest.raises(ValueError, match="after the game ended"):
            j.append_step("g4")
    back = load_journal(tmp_path / "g.jsonl")
    assert back.ended == {"winner": 2, "draw": False, "reason": "player 1 ran out of time (1m)"}
    assert back.clock["flagged"] == 1


def test_a_takeback_after_an_end_reopens_the_game(tmp_path):
    with Journal.create(tmp_path / "g.jsonl", "nine-mens-morris", {}) as j:
        j.append_step("d1")
        j.append_end({"winner": 2, "draw": False, "reason": "resigned"})
        j.append_takeback(1)
        assert j.ended is None
        j.append_step("d2")
    assert load_journal(tmp_path / "g.jsonl").ended is None


# -- reading after a crash ---------------------------------------------------------------------------


def cut_line(tmp_path, cut: int, newline=b""):
    """Three steps whole, then the fourth line's first ``cut`` bytes, as a crash leaves it."""
    path = journal_with(tmp_path, DEMO[:4], name=f"cut{cut}.jsonl")
    whole = path.read_bytes()
    last = whole.rstrip(b"\n").rsplit(b"\n", 1)[1] + b"\n"
    path.write_bytes(whole[: len(whole) - len(last)] + last[:cut] + newline)
    return path, len(last)


def test_a_line_torn_at_any_byte_is_ignored_with_a_warning(tmp_path):
    path, length = cut_line(tmp_path, 0)
    base = path.read_bytes()
    whole = journal_with(tmp_path, DEMO[:4], name="whole.jsonl").read_bytes()
    for cut in range(1, length):  # every byte but the newline, which completes the line
        path.write_bytes(whole[: len(base) + cut])
        back = load_journal(path)
        assert back.steps == DEMO[:3], cut
        assert len(back.warnings) == 1 and "line 5 was cut off by a crash" in back.warnings[0]


def test_a_whole_line_means_a_whole_step(tmp_path):
    path, _ = cut_line(tmp_path, 10_000)
    back = load_journal(path)
    assert back.steps == DEMO[:4] and back.warnings == []


def test_a_garbled_last_line_with_its_newline_is_also_torn(tmp_path):
    # A power cut can write a line's later disk block and not its earlier one.
    path, _ = cut_line(tmp_path, 0, newline=b"\0\0\0\0\0\0\0\0\n")
    back = load_journal(path)
    assert back.steps == DEMO[:3] and "line 5" in back.warnings[0]


def test_zero_bytes_after_a_power_cut_are_a_torn_line(tmp_path):
    path = journal_with(tmp_path, DEMO[:3])
    path.write_bytes(path.read_bytes() + b"\0" * 4096)
    back = load_journal(path)
    assert back.steps == DEMO[:3] and len(back.warnings) == 1


def test_the_torn_warning_is_logged(tmp_path, caplog):
    path, _ = cut_line(tmp_path, 7)
    load_journal(path)
    assert "cut off by a crash" in caplog.text


def test_open_cuts_off_the_torn_line_before_appending(tmp_path):
    path, _ = cut_line(tmp_path, 12)
    with Journal.open(path) as j:
        assert j.steps == DEMO[:3]
        j.append_step(DEMO[3])
        j.append_step(DEMO[4])
    back = load_journal(path)
    assert back.steps == DEMO[:5] and back.warnings == []
    assert path.read_bytes().endswith(b"\n")


def test_a_damaged_line_in_the_middle_is_an_error_that_says_what_to_do(tmp_path):
    path = journal_with(tmp_path, DEMO[:5])
    rows = lines(path)
    rows[3] = b'{"seq":3,"event":"st'
    path.write_bytes(b"\n".join(rows))
    with pytest.raises(JournalError) as info:
        load_journal(path)
    msg = str(info.value)
    assert "line 4 is damaged" in msg and "Lines 1-3 are intact (2 steps)" in msg
    assert "delete line 4 and every line after it" in msg
    with pytest.raises(JournalError, match="line 4"):
        Journal.open(path)
    assert lines(path)[3] == b'{"seq":3,"event":"st'  # open did not "repair" the middle


def test_a_missing_line_shows_as_a_gap_in_the_sequence(tmp_path):
    path = journal_with(tmp_path, DEMO[:5])
    rows = lines(path)
    del rows[2]
    path.write_bytes(b"\n".join(rows))
    gap = r"line 3 is damaged \(sequence number 3 where 2 was expected.*Lines 1-2 are intact \(1 step\)"
    with pytest.raises(JournalError, match=gap):
        load_journal(path)


def test_a_broken_ply_count_is_damage(tmp_path):
    path = journal_with(tmp_path, DEMO[:2])
    text = path.read_text().replace('"ply":2', '"ply":5')
    path.write_text(text + '{"seq":3,"event":"step","ply":3,"step":"g7"}\n')
    with pytest.raises(JournalError, match="line 3 is damaged \\(ply 5 where 2 was expected"):
        load_journal(path)


def test_a_journal_of_another_game_is_refused(tmp_path):
    path = journal_with(tmp_path, ["d1"])
    with pytest.raises(JournalError) as info:
        load_journal(path, game="tapatan")
    assert "is a game of nine-mens-morris, not tapatan" in str(info.value)
    assert "start a new game of tapatan" in str(info.value)
    with pytest.raises(JournalError, match="not tapatan"):
        resume(path, game="tapatan")


@pytest.mark.parametrize("content, says", [
    (b"", "is empty"),
    (b'{"game": "tapatan", "steps": []}\n', "no \"arbiter_journal\" header"),
    (b"hello\n", "header is not readable JSON"),
    (b'{"arbiter_journal":1,"game":"tap', "header line is cut off"),
    (b'{"arbiter_journal":99,"game":"tapatan","options":{}}\n', "newer arbiter"),
    (b'{"arbiter_journal":1,"game":"tapatan"}\n', "needs \"game\" and \"options\""),
    (b'{"arbiter_journal":1,"game":"tapatan","options":{},"chooser":[7]}\n', "draws must be"),
])
def test_files_that_are_not_journals(tmp_path, content, says):
    path = tmp_path / "x.jsonl"
    path.write_bytes(content)
    with pytest.raises(JournalError, match=says):
        load_journal(path)


def test_a_missing_journal_says_where_games_are_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_JOURNAL_DIR", str(tmp_path / "games"))
    with pytest.raises(JournalError, match="no such journal .*games"):
        load_journal(tmp_path / "nope.jsonl")


# -- records and resume ------------------------------------------------------------------------------


def test_the_journal_exports_to_the_record_of_its_game(tmp_path):
    path = journal_with(tmp_path, DEMO)
    record = load_journal(path).to_record()
    assert record == Record("nine-mens-morris", {"move_cap": 200}, DEMO, None)
    assert replay(record).state.result.winner == 2


def test_resume_replays_the_steps_and_goes_on_appending(tmp_path):
    path = journal_with(tmp_path, DEMO[:30])
    r = resume(path)
    direct = engine.load("nine-mens-morris").new()
    for s in DEMO[:30]:
        direct = direct.play(s)
    assert r.state.position() == direct.position() and r.state.to_move == direct.to_move
    assert r.clock is None and r.warnings == []
    state = r.state
    for s in DEMO[30:]:
        state = state.play(s)
        r.journal.append_step(s)
    r.journal.close()
    assert state.result.winner == 2
    assert load_journal(path).steps == DEMO


def test_resume_after_a_torn_line_warns_and_continues(tmp_path):
    path, _ = cut_line(tmp_path, 9)
    r = resume(path)
    assert len(r.warnings) == 1 and r.journal.steps == DEMO[:3]
    r.journal.close()


def test_an_illegal_step_in_a_journal_names_its_line(tmp_path):
    path = journal_with(tmp_path, ["d1", "g4", "d1"])
    with pytest.raises(JournalError) as info:
        resume(path)
    msg = str(info.value)
    assert "line 4: step 3 (d1) is illegal" in msg and "occupied" in msg
    Journal.open(path).close()  # resume let go of the file


def test_a_journal_for_a_game_that_no_longer_exists_is_an_error_on_line_1(tmp_path):
    path = tmp_path / "old.jsonl"
    path.write_text('{"arbiter_journal":1,"game":"ten-mens-morris","options":{}}\n')
    with pytest.raises(JournalError, match="old.jsonl, line 1: .*ten-mens-morris"):
        resume(path)


def test_the_clock_comes_back_from_its_last_snapshot_paused(tmp_path):
    clock = Clock("5m+3s")
    clock.start(0.0)
    with Journal.create(tmp_path / "g.jsonl", "nine-mens-morris", {}, time_control="5m+3s") as j:
        clock.press(20.0)
        j.append_step("d1", clock=clock.snapshot(20.0))
        j.append_clock(clock.snapshot(50.0))  # a periodic reading: player 2 has thought for 30 s
    r = resume(tmp_path / "g.jsonl")
    r.journal.close()
    assert r.clock.paused
    r.clock.resume(7.0)  # after the reboot
    assert r.clock.remaining(1, 7.0) == 283.0
    assert r.clock.remaining(2, 17.0) == 260.0


def test_a_time_control_without_a_snapshot_gives_a_fresh_clock(tmp_path):
    with Journal.create(tmp_path / "g.jsonl", "three-mens-morris", {}, time_control="30s/move"):
        pass
    r = resume(tmp_path / "g.jsonl")
    r.journal.close()
    assert str(r.clock.control) == "30s/move" and r.clock.running is None


def test_a_damaged_clock_snapshot_names_its_line(tmp_path):
    with Journal.create(tmp_path / "g.jsonl", "nine-mens-morris", {}) as j:
        j.append_step("d1", clock={"control": "soon"})
    with pytest.raises(JournalError, match="line 2: clock snapshot"):
        resume(tmp_path / "g.jsonl")


def test_brain_hanky_move_chooser_draws_are_journalled_and_resumed(tmp_path):
    game = engine.load("brain-hanky-battle-lines", move_chooser=True, size=4)
    state = game.new(chooser=random.Random(1))
    pick = random.Random(2)
    path = tmp_path / "hanky.jsonl"
    with Journal.create(path, game.name, {"move_chooser": True, "size": 4},
                        chooser=list(state.chooser.values)) as j:
        for _ in range(8):
            step = state.random_step(pick)
            state = state.play(step)
            j.append_step(step, draws=state.chooser.values[len(j.chooser):])
    back = load_journal(path)
    assert back.chooser == state.chooser.values
    r = resume(path, rng=random.Random(3))
    assert r.state.position() == state.position() and r.state.to_move == state.to_move
    assert r.state.moves_left == state.moves_left
    r.state.play(r.state.random_step(pick))  # further turns draw from the new RNG
    r.journal.close()
    assert replay(back.to_record()).legal


# -- where games are kept ----------------------------------------------------------------------------


def test_journal_dir_follows_the_override_then_xdg_then_home(monkeypatch, tmp_path):
    monkeypatch.setenv("ARBITER_JOURNAL_DIR", str(tmp_path / "usb"))
    assert journal_dir() == tmp_path / "usb"
    monkeypatch.delenv("ARBITER_JOURNAL_DIR")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert journal_dir() == tmp_path / "state" / "arbiter" / "games"
    monkeypatch.setenv("XDG_STATE_HOME", "relative/ignored")  # the XDG spec: relative paths are invalid
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert journal_dir() == tmp_path / "home" / ".local" / "state" / "arbiter" / "games"


def test_games_are_named_by_start_time_and_game(tmp_path):
    local = NOON.astimezone()
    assert journal_name("tapatan", NOON) == f"{local:%Y-%m-%d_%H-%M-%S}_tapatan.jsonl"
    first = Journal.new("tapatan", directory=tmp_path / "games", now=NOON)
    second = Journal.new("tapatan", directory=tmp_path / "games", now=NOON)
    assert first.path.name == journal_name("tapatan", NOON)
    assert second.path.name == journal_name("tapatan", NOON).replace(".jsonl", "-2.jsonl")
    first.close(), second.close()
    assert new_journal_path("tapatan", tmp_path / "games", NOON, 3).name.endswith("-3.jsonl")


def test_latest_unfinished_skips_finished_games(tmp_path):
    games = tmp_path / "games"
    games.mkdir()

    def write(name, steps, mtime, end=None):
        with Journal.create(games / name, "nine-mens-morris", {}) as j:
            for s in steps:
                j.append_step(s)
            if end:
                j.append_end(end)
        os.utime(games / name, (mtime, mtime))

    write("a.jsonl", DEMO[:10], 1000)
    write("b.jsonl", DEMO[:20], 2000)
    write("c.jsonl", DEMO, 3000)  # won on the board
    write("d.jsonl", DEMO[:5], 4000, end={"winner": 1, "draw": False, "reason": "player 2 ran out of time"})
    (games / "notes.txt").write_text("not a journal")
    assert [p.name for p in list_journals(games)] == ["d.jsonl", "c.jsonl", "b.jsonl", "a.jsonl"]
    assert latest_unfinished(games) == games / "b.jsonl"
    r = resume(directory=games)
    assert r.journal.path == games / "b.jsonl" and r.journal.steps == DEMO[:20]
    r.journal.close()


def test_latest_unfinished_stops_at_an_unreadable_newer_journal(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    with Journal.create(games / "old.jsonl", "tapatan", {}):
        pass
    os.utime(games / "old.jsonl", (1000, 1000))
    (games / "new.jsonl").write_text("garbage\n")
    with pytest.raises(JournalError, match="to resume an older game, move new.jsonl out of"):
        latest_unfinished(games)


def test_resume_with_no_unfinished_game_says_so(tmp_path):
    with pytest.raises(JournalError, match="no unfinished game in .*empty: start a new one"):
        resume(directory=tmp_path / "empty")


def test_replay_journal_leaves_the_file_alone(tmp_path):
    path, _ = cut_line(tmp_path, 5)
    before = path.read_bytes()
    game, state = replay_journal(load_journal(path))
    assert game.name == "nine-mens-morris" and state.to_move == 2
    assert path.read_bytes() == before


# -- SIGKILL at random moments -------------------------------------------------------------------------

CHILD = r"""
import json, os, signal, sys, time
from arbiter.clocks import Clock
from arbiter.journal import Journal

path, script_file, tear, upto, pace = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
script = json.load(open(script_file))
if tear != "-":  # die in the middle of writing event number `target`, after `cut` of its bytes
    target, cut = map(int, tear.split(":"))
    real_write = os.write
    def write(fd, data):
        if bytes(data).startswith(b'{"seq":%d,' % target):
            real_write(fd, bytes(data)[:cut])
            os.kill(os.getpid(), signal.SIGKILL)
        return real_write(fd, data)
    os.write = write
if os.path.exists(path):
    j = Journal.open(path)
    clock = Clock.restore(j.clock) if j.clock else None
else:
    j = Journal.create(path, "nine-mens-morris", {}, time_control="10m+5s")
    clock = None
if clock is None:
    clock = Clock("10m+5s")
    clock.start(0.0)
clock.resume(float(j.seq))  # the clock reads the event count: time stands still while dead
print("ready", flush=True)
for seq, (kind, arg) in enumerate(script[j.seq:], start=j.seq + 1):
    if upto >= 0 and seq > upto:
        time.sleep(60)  # wait here for the SIGKILL, never reaching the end of the game
    t = float(seq)
    if kind == "step":
        clock.press(t)
        j.append_step(arg, clock=clock.snapshot(t))
    elif kind == "correction":
        j.append_correction(arg, clock=clock.snapshot(t))
    else:
        j.append_takeback(arg, clock=clock.snapshot(t))
    print("announced", seq, kind, arg, flush=True)
    time.sleep(pace)
print("done", flush=True)
"""


def scripted_game():
    """The demo game with a misread step corrected and a two-step take-back replayed."""
    state = engine.load("nine-mens-morris").new()
    for s in DEMO[:9]:
        state = state.play(s)
    wrong = next(str(s) for s in state.legal_steps() if str(s) != DEMO[9])
    script = [["step", s] for s in DEMO[:9]]
    script += [["step", wrong], ["correction", DEMO[9]]]
    script += [["step", s] for s in DEMO[10:40]]
    script += [["takeback", 2], ["step", DEMO[38]], ["step", DEMO[39]]]
    script += [["step", s] for s in DEMO[40:]]
    return script


def effective(script):
    steps = []
    for kind, arg in script:
        if kind == "step":
            steps.append(arg)
        elif kind == "correction":
            steps[-1] = arg
        else:
            del steps[len(steps) - arg:]
    return steps


PACE = 0.002  # seconds a timed child waits between events, so kills land at varied points


def run_child(path, script_file, tear="-", upto=-1, kill_after=None):
    """Run the child to the end; with ``kill_after``, SIGKILL it that long after it is ready.

    A timed child stops before event ``upto + 1`` and waits to be killed, so however late the
    kill comes on a busy machine, it never finishes the game by accident. The lines it printed
    whole are returned; one the kill cut short was not announced.
    """
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    pace = str(PACE if kill_after is not None else 0)
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(script_file), tear, str(upto), pace],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    first = b""
    if kill_after is not None:
        first = child.stdout.readline()
        time.sleep(kill_after)
        child.send_signal(signal.SIGKILL)
    out, err = child.communicate(timeout=30)
    text = (first + out).decode()
    lines = text.splitlines()
    if lines and not text.endswith("\n"):
        lines.pop()  # cut off by the kill half-way through being printed: never wholly announced
    return child.returncode, lines, err.decode()


def test_sigkill_at_random_moments_loses_nothing_announced(tmp_path):
    script = scripted_game()
    assert effective(script) == DEMO
    script_file = tmp_path / "script.json"
    script_file.write_text(json.dumps(script))
    code, out, err = run_child(tmp_path / "calm.jsonl", script_file)
    assert code == 0 and out[-1] == "done", err
    calm = load_journal(tmp_path / "calm.jsonl")

    rng = random.Random(6)
    path = tmp_path / "crashy.jsonl"
    for kill in range(11):  # ten kills, at most six events apart, then a run to the end
        done = load_journal(path).seq if path.exists() else 0
        ahead = done + rng.randint(1, 6)
        if kill == 10:
            code, out, err = run_child(path, script_file)
            assert code == 0 and out[-1] == "done", err
        elif kill % 2:  # from inside, half-way through writing event `ahead`
            code, out, err = run_child(path, script_file, tear=f"{ahead}:{rng.randint(1, 80)}")
        else:  # from outside, at a random moment
            code, out, err = run_child(path, script_file, upto=ahead,
                                       kill_after=rng.uniform(0.0, 1.2 * (ahead - done) * PACE))
        if kill < 10:
            assert code == -signal.SIGKILL, err
        contents = load_journal(path)
        if kill % 2:
            assert contents.seq == ahead - 1 and "cut off by a crash" in contents.warnings[0]
        for line in out:  # everything announced is in the journal, exactly as announced
            if line.startswith("announced"):
                _, seq, kind, arg = line.split()
                event = contents.events[int(seq) - 1]
                assert (event["event"], str(event.get("step", event.get("n")))) == (kind, arg)
        assert contents.steps == effective(script[: contents.seq])
        replay_journal(contents)  # every journal a crash leaves behind resumes legally
    final = load_journal(path)
    assert final.to_record() == calm.to_record()
    assert final.events == calm.events  # same clock readings too: downtime was charged to nobody
    r = resume(path)
    r.journal.close()
    assert r.state.result.winner == 2
