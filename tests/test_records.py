"""Record files: saved atomically, read back identically, replayed to the same state."""

import json

from arbiter.records import Record, load_record, replay, save_record


def test_save_and_load_round_trip(tmp_path):
    rec = Record("seven-mens-morris", {"flying": True}, ["d2", "d6"])
    path = tmp_path / "r.json"
    save_record(rec, path)
    assert not (tmp_path / "r.json.tmp").exists()
    back = load_record(path)
    assert back == rec
    assert json.loads(path.read_text()) == rec.as_dict()


def test_replay_of_the_demo_record_reaches_its_win():
    from importlib import resources

    data = json.loads(resources.files("arbiter").joinpath("data/demo-nine-mens-morris.json").read_text())
    outcome = replay(Record(data["game"], data["options"], data["steps"]))
    assert outcome.legal
    assert outcome.state.result.winner == 2
    assert "down to 2" in outcome.state.result.reason
