"""`arbiter export JOURNAL --out FILE.json`: the journal as a record `arbiter replay` reads."""

import json
from importlib import resources

import pytest
from click.testing import CliRunner

from arbiter.cli import main
from arbiter.journal import Journal
from arbiter.records import Record, load_record

DEMO = json.loads(resources.files("arbiter").joinpath("data/demo-nine-mens-morris.json").read_text())["steps"]


@pytest.fixture
def run():
    runner = CliRunner()

    def _run(*args):
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)

    return _run


def journal(tmp_path, steps, game="nine-mens-morris", options=None, name="game.jsonl"):
    path = tmp_path / name
    with Journal.create(path, game, options or {}) as j:
        for s in steps:
            j.append_step(s)
    return path


def test_export_writes_a_record_that_replay_reads(run, tmp_path):
    path = journal(tmp_path, DEMO)
    out = run("export", path, "--out", tmp_path / "game.json")
    assert out.exit_code == 0, out.output
    assert "71 steps, ended: " in out.output
    assert load_record(tmp_path / "game.json") == Record("nine-mens-morris", {"move_cap": 200}, DEMO)
    replayed = run("replay", tmp_path / "game.json", "--json")
    assert replayed.exit_code == 0
    assert json.loads(replayed.output)["result"]["winner"] == 2


def test_export_applies_takebacks_and_corrections(run, tmp_path):
    path = tmp_path / "g.jsonl"
    with Journal.create(path, "seven-mens-morris", {"flying": True}) as j:
        for s in ["d2", "b4", "a1"]:
            j.append_step(s)
        j.append_correction("a4")
        j.append_takeback(1)
        j.append_step("a1")
    out = run("export", path, "--out", tmp_path / "r.json")
    assert out.exit_code == 0 and "3 steps, unfinished" in out.output
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["steps"] == ["d2", "b4", "a1"] and data["options"]["flying"] is True
    assert "result" not in data


def test_a_loss_on_time_is_kept_in_the_record(run, tmp_path):
    path = tmp_path / "g.jsonl"
    with Journal.create(path, "tapatan", {}, time_control="1m") as j:
        j.append_step("a1")
        j.append_end({"winner": 1, "draw": False, "reason": "player 2 ran out of time (1m)"})
    out = run("export", path, "--out", tmp_path / "r.json")
    assert out.exit_code == 0 and "ended: player 2 ran out of time" in out.output
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["result"] == {"winner": 1, "draw": False, "reason": "player 2 ran out of time (1m)"}
    assert load_record(tmp_path / "r.json").steps == ["a1"]  # still a valid record


def test_a_torn_last_line_is_a_warning_not_a_failure(run, tmp_path):
    path = journal(tmp_path, DEMO[:5])
    path.write_bytes(path.read_bytes() + b'{"seq":6,"event":"st')
    out = run("export", path, "--out", tmp_path / "r.json")
    assert out.exit_code == 0
    assert "warning:" in out.output and "cut off by a crash" in out.output
    assert load_record(tmp_path / "r.json").steps == DEMO[:5]
    assert path.read_bytes().endswith(b'"st')  # export reads; it does not change the journal


def test_brain_hanky_draws_reach_the_record(run, tmp_path):
    import random

    import engine

    game = engine.load("brain-hanky-battle-lines", move_chooser=True, size=4)
    state = game.new(chooser=random.Random(5))
    pick = random.Random(6)
    path = tmp_path / "h.jsonl"
    with Journal.create(path, game.name, {"move_chooser": True, "size": 4}, chooser=list(state.chooser.values)) as j:
        for _ in range(5):
            step = state.random_step(pick)
            state = state.play(step)
            j.append_step(step, draws=state.chooser.values[len(j.chooser):])
    assert run("export", path, "--out", tmp_path / "r.json").exit_code == 0
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["chooser"] == state.chooser.values
    assert json.loads(run("replay", tmp_path / "r.json", "--json").output)["legal"] is True


def errors_of(out):
    lines = [ln for ln in out.output.splitlines() if ln.strip()]
    assert out.exit_code == 2 and len(lines) == 1, out.output
    return lines[0]


def test_a_missing_journal_is_a_one_line_error(run, tmp_path):
    assert "no such journal" in errors_of(run("export", tmp_path / "nope.jsonl", "--out", tmp_path / "r.json"))


def test_a_damaged_journal_is_a_one_line_error_that_says_what_to_do(run, tmp_path):
    path = journal(tmp_path, DEMO[:5])
    rows = path.read_bytes().split(b"\n")
    rows[2] = b"garbage"
    path.write_bytes(b"\n".join(rows))
    msg = errors_of(run("export", path, "--out", tmp_path / "r.json"))
    assert "line 3 is damaged" in msg and "delete line 3" in msg
    assert not (tmp_path / "r.json").exists()


def test_an_illegal_step_stops_the_export_unless_unchecked(run, tmp_path):
    path = journal(tmp_path, ["d1", "g4", "d1", "a1"])
    msg = errors_of(run("export", path, "--out", tmp_path / "r.json"))
    assert "line 4: step 3 (d1) is illegal" in msg and "--unchecked" in msg
    assert not (tmp_path / "r.json").exists()
    out = run("export", path, "--out", tmp_path / "r.json", "--unchecked")
    assert out.exit_code == 0
    replayed = run("replay", tmp_path / "r.json", "--json")
    assert replayed.exit_code == 1 and json.loads(replayed.output)["illegal"]["index"] == 2


def test_export_will_not_overwrite_the_journal(run, tmp_path):
    path = journal(tmp_path, ["d1"])
    before = path.read_bytes()
    assert "is the journal itself" in errors_of(run("export", path, "--out", path))
    assert path.read_bytes() == before


def test_an_unwritable_output_is_a_one_line_error(run, tmp_path):
    path = journal(tmp_path, ["d1"])
    msg = errors_of(run("export", path, "--out", tmp_path / "no-such-folder" / "r.json"))
    assert "cannot write" in msg


def test_export_overwrites_an_old_record_whole(run, tmp_path):
    (tmp_path / "r.json").write_text("old")
    path = journal(tmp_path, ["d1"])
    assert run("export", path, "--out", tmp_path / "r.json").exit_code == 0
    assert load_record(tmp_path / "r.json").steps == ["d1"]
    assert not (tmp_path / "r.json.tmp").exists()


def test_export_is_listed_and_helped(run):
    assert "export" in run("--help").output
    assert "--out" in run("export", "--help").output
