"""Issue 30's journal failures, one test each: a loss on time announced before it was on disk,
two games begun in the same second sharing a file, temporary files at guessable names a symlink
could steer, a new journal's folder left unsynced, an unusable --journal folder crashing the
game, and a resume command that forgot how the game was set up.

Each of these tests fails on the code before the fix (checked by running them against it).
"""

from __future__ import annotations

import errno
import json
import os
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

import arbiter.journal as journal_module
import engine
from arbiter.cli import main
from arbiter.clocks import Clock
from arbiter.journal import Journal, JournalError, load_journal, resume
from arbiter.sim.physical import PhysicalBoard
from arbiter.records import Record, save_record
from arbiter.sim.scenario import Table
from arbiter.session import FrameSink

NOON = datetime(2025, 5, 1, 12, 0, 0, tzinfo=UTC)


def _files():
    """arbiter.files, imported where used so that each test fails on its own on older code."""
    import arbiter.files

    return arbiter.files


def usable_journal_dir(*args, **kwargs):
    from arbiter.journal import usable_journal_dir as check

    return check(*args, **kwargs)


@pytest.fixture(autouse=True)
def _games_folder(tmp_path, monkeypatch):
    """No test writes in the real ~/.local/state."""
    monkeypatch.setenv("ARBITER_JOURNAL_DIR", str(tmp_path / "default-games"))


class _FullDisk:
    """``os`` for the journal module, refusing every write (a full disk) while ``full`` is set."""

    def __init__(self):
        self.full = True

    def __getattr__(self, name):
        return getattr(os, name)

    def write(self, fd, data):
        if self.full:
            raise OSError(errno.ENOSPC, "No space left on device")
        return os.write(fd, data)


def _timed_table(tmp_path) -> Table:
    j = Journal.new("tapatan", directory=tmp_path, reader="occupancy", time_control="30s")
    from hardware.layout import load_map, spots_for

    count = load_map(None, spots_for(engine.load("tapatan"))).count
    return Table("tapatan", "occupancy", journal=j, clock=Clock("30s"), pixels=FrameSink(count))


# -- a loss on time is announced only once its end line is durable ---------------------------------


def test_a_loss_on_time_the_disk_refuses_is_not_announced_until_it_is_on_disk(tmp_path, monkeypatch):
    t = _timed_table(tmp_path)
    t.run("put a1 white")
    disk = _FullDisk()
    monkeypatch.setattr(journal_module, "os", disk)
    log = t.run("wait 31")
    assert not t.session.over and all(a.kind != "over" for a in log), "announced before it was recorded"
    said = [a.message for a in log if a.kind == "error" and "Time is up" in a.message]
    assert len(said) == 1 and "Time is up for player 2" in said[0] and "NOT recorded" in said[0]
    assert load_journal(t.session.journal.path).ended is None
    # Nothing is judged meanwhile: a piece put down while the loss waits is not a step.
    t.run("put d1 black; wait 2")
    assert t.session.history == ("a1",)
    disk.full = False  # space freed: the next retry (every second) lands, and only then is it said
    log = t.run("wait 1.5")
    over = [a for a in log if a.kind == "over"]
    assert len(over) == 1 and "Time!" in over[0].message and t.session.over
    ended = load_journal(t.session.journal.path).ended
    assert ended is not None and ended["winner"] == 1
    assert over[0].journal_seq == load_journal(t.session.journal.path).seq


def test_a_loss_on_time_still_unrecorded_at_a_stop_leaves_the_game_resumable(tmp_path, monkeypatch):
    t = _timed_table(tmp_path)
    t.run("put a1 white; wait 3")
    disk = _FullDisk()
    monkeypatch.setattr(journal_module, "os", disk)
    t.run("wait 31")
    t.session.pause()  # the players stop with the disk still full: one last try, refused
    assert t.session.unrecorded_end is not None and not t.session.over
    t.session.journal.close()
    monkeypatch.setattr(journal_module, "os", os)
    r = resume(t.session.journal.path)
    try:
        assert r.state.result is None and r.journal.ended is None, "resumed as the disk holds it: unfinished"
        assert r.clock is not None and r.clock.flagged is None and r.clock.running == 2
    finally:
        r.journal.close()


def test_a_loss_on_time_with_a_closed_journal_reopens_it_and_is_recorded_first(tmp_path):
    t = _timed_table(tmp_path)
    t.run("put a1 white")
    t.session.journal.close()
    log = t.run("wait 31")
    assert [a.kind for a in log if a.kind in ("over", "error")] == ["over"]
    assert load_journal(t.session.journal.path).ended["winner"] == 1


def test_a_closed_journal_whose_file_is_gone_refuses_and_says_so(tmp_path):
    j = Journal.new("tapatan", directory=tmp_path)
    j.close()
    j.path.rename(tmp_path / "elsewhere")
    with pytest.raises(JournalError, match="NOT recorded"):
        j.append_step("a1")


def test_a_reopened_journal_refuses_one_written_by_someone_else_meanwhile(tmp_path):
    j = Journal.new("tapatan", directory=tmp_path)
    j.close()
    with Journal.open(j.path) as other:
        other.append_step("a1")
        other.append_step("d1")
    with pytest.raises(JournalError, match="someone else"):
        j.append_step("a1")
    assert load_journal(j.path).steps == ["a1", "d1"]


# -- unique names, claimed with O_EXCL --------------------------------------------------------------


def test_a_game_begun_in_the_same_second_never_takes_over_the_first_ones_file(tmp_path, monkeypatch):
    first = Journal.new("tapatan", directory=tmp_path, now=NOON)
    first.append_step("a1")
    # The race: the second arbiter looked before the first one's file was there.
    monkeypatch.setattr(journal_module.os.path, "lexists", lambda p: False)
    monkeypatch.setattr(Path, "exists", lambda self: False)
    second = Journal.new("tapatan", directory=tmp_path, now=NOON)
    first.append_step("d1")  # confirmed by the first journal: it must be in its file
    second.append_step("a4")
    first.close(), second.close()
    monkeypatch.undo()
    assert second.path.name.endswith("_tapatan-2.jsonl")
    assert load_journal(first.path).steps == ["a1", "d1"]
    assert load_journal(second.path).steps == ["a4"]


def test_journals_for_the_same_second_take_2_3_in_turn(tmp_path):
    names = []
    for _ in range(3):
        with Journal.new("tapatan", directory=tmp_path, now=NOON) as j:
            names.append(j.path.name)
    assert names[1] == names[0].replace(".jsonl", "-2.jsonl")
    assert names[2] == names[0].replace(".jsonl", "-3.jsonl")


def test_the_folder_is_fsynced_after_a_new_journal_is_created(tmp_path, monkeypatch):
    synced = []
    real = os.fsync

    def fsync(fd):
        st = os.fstat(fd)
        synced.append((stat.S_ISDIR(st.st_mode), st.st_ino))
        return real(fd)

    monkeypatch.setattr(_files().os, "fsync", fsync)
    j = Journal.new("tapatan", directory=tmp_path, now=NOON)
    j.close()
    folder = os.stat(tmp_path).st_ino
    assert (True, folder) in synced, "the new journal's name is not durable until its folder is fsynced"
    assert (False, os.stat(j.path).st_ino) in synced, "the header itself is fsynced"


def test_a_claimed_but_empty_journal_is_no_game_to_resume(tmp_path):
    (tmp_path / "2025-05-01_12-00-00_tapatan.jsonl").write_bytes(b"")
    assert journal_module.latest_unfinished(tmp_path) is None


# -- every temp-and-rename write through one safe helper ------------------------------------------


def _plant(tmp_path, target: Path) -> Path:
    """Symlinks at every temporary name arbiter used to use, pointing at a file that must stay."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    for name in (f".{target.name}.tmp", f"{target.name}.tmp"):
        (target.parent / name).symlink_to(victim)
    return victim


def _unharmed(victim: Path, folder: Path) -> None:
    assert victim.read_text() == "precious\n"
    left = [p.name for p in folder.iterdir() if p.name.endswith(".tmp") and not p.is_symlink()]
    assert left == [], f"temporary files left behind: {left}"


def test_a_symlink_planted_at_a_journal_temp_name_does_not_redirect_it(tmp_path):
    path = tmp_path / "game.jsonl"
    victim = _plant(tmp_path, path)
    with Journal.create(path, "tapatan", {}) as j:
        j.append_step("a1")
    _unharmed(victim, tmp_path)
    assert load_journal(path).steps == ["a1"]


def test_a_symlink_planted_at_any_writer_temp_name_does_not_redirect_it(tmp_path):
    g = engine.load("tapatan")
    writers = {
        "record.json": lambda p: save_record(Record("tapatan", {}, ["a1"]), p),
        "board.json": lambda p: PhysicalBoard.of_state(g, g.new()).save(p),
        "text.json": lambda p: _files().write_atomic(p, "{}\n"),
    }
    for name, write in writers.items():
        folder = tmp_path / name.split(".")[0]
        folder.mkdir()
        victim = _plant(folder, folder / name)
        write(folder / name)
        _unharmed(victim, folder)
        assert json.loads((folder / name).read_text()) is not None


def test_the_export_and_leds_map_commands_write_safely(tmp_path):
    with Journal.create(tmp_path / "g.jsonl", "tapatan", {}) as j:
        j.append_step("a1")
    out = tmp_path / "out.json"
    victim = _plant(tmp_path, out)
    res = CliRunner().invoke(main, ["export", str(tmp_path / "g.jsonl"), "--out", str(out)])
    assert res.exit_code == 0, res.output
    _unharmed(victim, tmp_path)
    assert json.loads(out.read_text())["steps"] == ["a1"]
    led = tmp_path / "leds" / "map.json"
    led.parent.mkdir()
    victim = _plant(led.parent, led)
    res = CliRunner().invoke(main, ["leds", "map", "tapatan", "--out", str(led)])
    assert res.exit_code == 0, res.output
    _unharmed(victim, led.parent)
    assert json.loads(led.read_text())["board"]


def test_a_temp_name_already_taken_is_never_opened_but_another_drawn(tmp_path, monkeypatch):
    tokens = iter(["aaaa", "bbbb"])
    monkeypatch.setattr(_files().secrets, "token_hex", lambda n: next(tokens))
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (tmp_path / ".t.json.aaaa.tmp").symlink_to(victim)
    _files().write_atomic(tmp_path / "t.json", "new\n")
    assert victim.read_text() == "precious\n" and (tmp_path / "t.json").read_text() == "new\n"


def test_create_new_refuses_a_taken_name_even_a_symlink(tmp_path):
    (tmp_path / "taken").symlink_to(tmp_path / "nowhere")
    with pytest.raises(FileExistsError):
        _files().create_new(tmp_path / "taken", "x")
    assert not (tmp_path / "nowhere").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["taken"], "the temporary file was removed"


def test_create_new_without_hard_links_claims_the_name_then_fills_it(tmp_path, monkeypatch):
    def no_links(*a, **k):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(_files().os, "link", no_links)
    _files().create_new(tmp_path / "j.jsonl", "header\n")
    assert (tmp_path / "j.jsonl").read_text() == "header\n"
    with pytest.raises(FileExistsError):
        _files().create_new(tmp_path / "j.jsonl", "other\n")
    assert (tmp_path / "j.jsonl").read_text() == "header\n"


# -- --journal DIR: an unusable folder is one line and exit 2, before the game starts -------------


def _bad_folders(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    return {"a file": (afile, "is a file"), "under a file": (afile / "games", "is a file"),
            "missing parent": (tmp_path / "no" / "games", "does not exist")}


@pytest.mark.parametrize("command", [["play", "tapatan", "--reader", "sim-occupancy", "--speed", "0"],
                                     ["demo", "--fast"]])
def test_an_unusable_journal_folder_is_one_line_and_exit_2(tmp_path, command):
    for what, (folder, words) in _bad_folders(tmp_path).items():
        res = CliRunner().invoke(main, command + ["--journal", str(folder)])
        assert res.exit_code == 2, (what, res.output)
        assert words in res.output and "--journal DIR" in res.output, (what, res.output)
        assert "Traceback" not in res.output and res.exception is None or isinstance(res.exception, SystemExit)
        assert len(res.output.strip().splitlines()) == 1, (what, res.output)


def test_a_folder_that_refuses_writes_is_refused_before_anything_opens(tmp_path, monkeypatch):
    folder = tmp_path / "readonly"
    folder.mkdir()
    real = os.open

    def refuse(path, flags, *a, **k):  # a read-only stick (root ignores chmod, so say it like the kernel)
        if str(path).startswith(str(folder)) and flags & os.O_CREAT:
            raise OSError(errno.EROFS, "Read-only file system")
        return real(path, flags, *a, **k)

    monkeypatch.setattr(journal_module.os, "open", refuse)
    with pytest.raises(JournalError, match="Read-only file system"):
        usable_journal_dir(folder)
    res = CliRunner().invoke(main, ["play", "tapatan", "--reader", "sim-occupancy", "--speed", "0",
                                    "--journal", str(folder)])
    assert res.exit_code == 2 and "cannot write games in" in res.output
    assert list(folder.iterdir()) == []


def test_the_journal_folder_from_the_environment_is_checked_too(tmp_path, monkeypatch):
    afile = tmp_path / "afile"
    afile.write_text("x")
    monkeypatch.setenv("ARBITER_JOURNAL_DIR", str(afile))
    res = CliRunner().invoke(main, ["play", "tapatan", "--reader", "sim-occupancy", "--speed", "0"])
    assert res.exit_code == 2 and "is a file" in res.output, res.output


def test_journal_dir_puts_the_game_there_and_a_named_folder_is_made_if_its_parent_exists(tmp_path):
    folder = tmp_path / "games"
    res = CliRunner().invoke(main, ["play", "tapatan", "--reader", "sim-occupancy", "--speed", "0",
                                    "--journal", str(folder)])
    assert res.exit_code == 0, res.output
    (path,) = folder.glob("*.jsonl")
    assert load_journal(path).ended is None and load_journal(path).to_record().steps


# -- --resume takes the game's setup from the journal --------------------------------------------


def _partial_game(tmp_path, steps=("a1", "d1", "a4")):
    record = tmp_path / "part.json"
    record.write_text(json.dumps({"game": "tapatan", "options": {}, "steps": list(steps)}))
    folder = tmp_path / "games"
    res = CliRunner().invoke(main, ["play", "tapatan", "--reader", "sim-occupancy", "--script", str(record),
                                    "--speed", "0", "--seed", "4", "--journal", str(folder)])
    assert res.exit_code == 0, res.output
    (path,) = folder.glob("*.jsonl")
    return path, res.output


def test_the_printed_resume_command_alone_carries_the_game_on(tmp_path, monkeypatch):
    path, out = _partial_game(tmp_path)
    said = " ".join(out.split())
    assert f"`arbiter play tapatan --resume {path}`" in said, out
    setup = json.loads(path.read_text().splitlines()[0])["setup"]
    assert setup["reader"] == "sim-occupancy" and setup["seed"] == 4
    assert setup["script"] == str((tmp_path / "part.json").resolve())
    monkeypatch.chdir(tmp_path / "games")  # from anywhere: no calibration file, no --reader given
    res = CliRunner().invoke(main, ["play", "tapatan", "--resume", str(path)])
    assert res.exit_code == 0, res.output
    assert "Resuming" in res.output and "calibration" not in res.output
    assert load_journal(path).steps == ["a1", "d1", "a4"]


def test_options_given_again_on_resume_win_with_a_note(tmp_path):
    path, _ = _partial_game(tmp_path)
    full = tmp_path / "full.json"
    full.write_text(json.dumps({"game": "tapatan", "options": {}, "steps": ["a1", "d1", "a4", "d4", "a7"]}))
    res = CliRunner().invoke(main, ["play", "tapatan", "--resume", str(path), "--script", str(full)])
    assert res.exit_code == 0, res.output
    assert "Note:" in res.output and "given again" in res.output
    assert "Game over: player 1 wins" in res.output
    assert load_journal(path).steps == ["a1", "d1", "a4", "d4", "a7"]


def test_a_serial_games_resume_uses_its_reader_and_port_from_the_journal(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    port = str(tmp_path / "ttyNOPE")
    setup = {"reader": "serial", "port": port, "buttons": "none", "an-option-arbiter-no-longer-has": 1}
    with Journal.new("tapatan", directory=folder, reader="occupancy", setup=setup) as j:
        j.append_step("a1")
    res = CliRunner().invoke(main, ["play", "tapatan", "--resume", str(j.path), "--journal", str(folder)])
    assert res.exit_code == 2
    assert port in res.output and "calibrat" not in res.output, res.output
    # and the latest unfinished game, found with a bare --resume, too
    res = CliRunner().invoke(main, ["play", "tapatan", "--resume", "--journal", str(folder)])
    assert port in res.output and "calibrat" not in res.output, res.output


def test_the_setup_is_kept_in_the_header_and_read_back(tmp_path):
    with Journal.create(tmp_path / "g.jsonl", "tapatan", {}, setup={"reader": "serial", "port": "/dev/ttyACM0"}):
        pass
    assert load_journal(tmp_path / "g.jsonl").setup == {"reader": "serial", "port": "/dev/ttyACM0"}
    (tmp_path / "h.jsonl").write_text('{"arbiter_journal":1,"game":"tapatan","options":{},"setup":[1]}\n')
    with pytest.raises(JournalError, match="setup"):
        load_journal(tmp_path / "h.jsonl")


def test_the_journal_folder_check_makes_the_default_folder_with_its_parents(tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_JOURNAL_DIR", str(tmp_path / "a" / "b" / "games"))
    assert usable_journal_dir() == tmp_path / "a" / "b" / "games"
    assert (tmp_path / "a" / "b" / "games").is_dir()



def test_ctrl_c_in_a_serial_or_camera_game_prints_the_bare_resume_command(tmp_path):
    from arbiter.cli.play import _run_camera

    with Journal.new("tapatan", directory=tmp_path) as j:
        class Interrupted:
            game, journal, buttons, over, unrecorded_end = engine.load("tapatan"), j, None, False, None
            paused = False

            def start(self):
                pass

            def poll(self):
                raise KeyboardInterrupt

            def pause(self):
                self.paused = True

        s = Interrupted()
        message, status = _run_camera(s)
    assert status == 0 and s.paused
    assert f"`arbiter play tapatan --resume {j.path}`" in message
    s.unrecorded_end = ("result", {}, 0.0)
    assert "could NOT be written" in _run_camera(s)[0]


def test_the_hint_cache_is_written_safely(tmp_path):
    from arbiter.hints import HintStore

    game = engine.load("jare")
    store = HintStore(tmp_path)
    keys, values, meta = store._paths(game)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    for p in (keys, values, meta):
        for name in (f".{p.name}.tmp", f"{p.name}.tmp"):
            (tmp_path / name).symlink_to(victim)
    store.solution(game)
    assert victim.read_text() == "precious\n"
    assert HintStore(tmp_path)._read(game) is not None


def test_arbiter_calibrate_writes_the_calibration_safely(tmp_path):
    from vision.calibration import load_calibration

    out = tmp_path / "cal.json"
    victim = _plant(tmp_path, out)
    res = CliRunner().invoke(main, ["calibrate", "tapatan", "--sim", "--out", str(out),
                                    "--overlay", str(tmp_path / "overlay.png")])
    assert res.exit_code == 0, res.output
    _unharmed(victim, tmp_path)
    assert load_calibration(out, game="tapatan").game == "tapatan"


def test_a_closed_journal_replaced_by_another_file_is_not_written_into(tmp_path):
    j = Journal.new("tapatan", directory=tmp_path)
    j.append_step("a1")
    j.close()
    copy = tmp_path / "copy"
    copy.write_bytes(j.path.read_bytes())
    os.replace(copy, j.path)  # same bytes, another file
    with pytest.raises(JournalError, match="replaced"):
        j.append_step("d1")
    assert load_journal(j.path).steps == ["a1"]
