"""The command line as a user meets it: listings, rules, replay (text and JSON), render, demo."""

import json

import pytest
from click.testing import CliRunner

import engine
from arbiter.cli import main


@pytest.fixture
def run():
    runner = CliRunner()

    def _run(*args):
        return runner.invoke(main, list(args), catch_exceptions=False)

    return _run


def write(tmp_path, data, name="game.json"):
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(p)


def test_games_lists_every_game(run):
    out = run("games")
    assert out.exit_code == 0
    for name in engine.names():
        assert name in out.output
    assert "--flying" in out.output


@pytest.mark.parametrize("name", engine.names())
def test_rules_explains_every_game(run, name):
    out = run("rules", name)
    assert out.exit_code == 0
    assert "End of the game" in out.output and "ruling" in out.output


def test_rules_follow_the_options(run):
    plain = run("rules", "seven-mens-morris").output
    flying = run("rules", "seven-mens-morris", "--flying").output
    assert "never fly" in plain and "fly a man to any empty point" in flying
    assert "400 moves" in run("rules", "tapatan", "--move-cap", "400").output
    assert "400 moves" in run("rules", "tapatan", "--move-cap=400").output


def test_rules_reject_unknown_game_and_option(run):
    bad = run("rules", "nine-men-morris")
    assert bad.exit_code == 2 and "did you mean nine-mens-morris" in bad.output
    bad = run("rules", "tapatan", "--flying")
    assert bad.exit_code == 2 and "no option --flying" in bad.output


def test_replay_json_reports_the_final_position(run, tmp_path):
    f = write(tmp_path, {"game": "tapatan", "options": {}, "steps": ["a1", "d1", "d4", "g1", "g7"]})
    out = run("replay", f, "--json")
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert data["legal"] is True and data["applied"] == 5 and data["illegal"] is None
    assert data["result"] == {"winner": 1, "draw": False, "reason": "player 1 completed a line of three"}
    assert data["position"] == {"a1": 1, "d1": 2, "d4": 1, "g1": 2, "g7": 1}
    assert data["phase"] == "over" and data["legal_steps"] == []
    assert set(data) == {"game", "options", "legal", "applied", "illegal", "to_move", "phase", "result",
                         "position", "legal_steps"}


def test_replay_stops_at_the_first_illegal_step(run, tmp_path):
    f = write(tmp_path, {"game": "nine-mens-morris", "steps": ["d2", "d6", "a1", "d2", "a4"]})
    out = run("replay", f, "--json")
    assert out.exit_code == 1
    data = json.loads(out.output)
    assert data["legal"] is False and data["applied"] == 3
    assert data["illegal"] == {"index": 3, "step": "d2", "reason": "d2 is already occupied"}
    assert data["to_move"] == 2 and data["legal_steps"] == sorted(data["legal_steps"])
    text = run("replay", f)
    assert text.exit_code == 1 and "illegal step 4 (d2)" in text.output


@pytest.mark.parametrize("content,message", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "expected a JSON object"),
    ('{"game": "chess", "steps": []}', "unknown game 'chess'"),
    ('{"game": "tapatan", "steps": "a1 d1"}', "must be a list"),
    ('{"game": "tapatan", "steps": [], "options": {"flying": true}}', "no option 'flying'"),
    ('{"game": "tapatan", "steps": [], "colour": 3}', "unknown field"),
])
def test_malformed_records_are_one_line_errors(run, tmp_path, content, message):
    out = run("replay", write(tmp_path, content))
    assert out.exit_code == 2
    assert message in out.output
    assert "Traceback" not in out.output


def test_missing_record_file(run, tmp_path):
    out = run("replay", str(tmp_path / "nope.json"))
    assert out.exit_code == 2 and "no such file" in out.output


def test_options_in_records_reach_the_engine(run, tmp_path):
    # with flying, player 1's man may leave the board's lines once down to three men
    steps = ["d2"]
    f = write(tmp_path, {"game": "seven-mens-morris", "options": {"flying": True}, "steps": steps})
    data = json.loads(run("replay", f, "--json").output)
    assert data["options"]["flying"] is True


def test_render_writes_a_png(run, tmp_path):
    f = write(tmp_path, {"game": "nine-mens-morris", "steps": ["d2", "d6"]})
    out_png = tmp_path / "pos.png"
    out = run("render", f, "--out", str(out_png))
    assert out.exit_code == 0, out.output
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_demo_referees_a_whole_game_through_the_camera_and_the_vision_code(run):
    out = run("demo", "--fast")
    assert out.exit_code == 0, out.output
    text = out.output
    # The story, in the order it happens at the table.
    for said in ("Calibrating the camera",
                 "I can't see the board (something is over the board",  # a hand, waited out
                 "Got it, you meant: Black put a piece on d6",  # a piece slid on: a correction
                 "White made a mill! Take one black piece off.",
                 "Not allowed: a7 is not next to g7",  # the illegal move ...
                 "The board is back as it was",  # ... put right
                 "Take back one step?", "Took back one step.",
                 "Someone bumps the camera",
                 "Black wins: player 1 is down to 2 pieces"):
        assert said in text, said
        text = text[text.index(said):]
    out_text = out.output
    assert "71 steps, every one seen by the camera and checked by the referee" in out_text
    assert "exported, it equals the scripted record" in out_text
    assert "● turn" in out_text, "the LEDs are drawn in the terminal"


def test_demo_pace_is_an_option(run):
    out = run("demo", "--help")
    assert "--delay" in out.output and "--fast" in out.output


def test_replay_of_a_brain_hanky_record_with_chooser_draws(run, tmp_path):
    steps = ["Oc3", "Bd4", "Oa1", "Bb2"]
    f = write(tmp_path, {"game": "brain-hanky", "options": {"gems": 2, "move_chooser": True},
                         "steps": steps, "chooser": [3, 1]})
    data = json.loads(run("replay", f, "--json").output)
    assert data["legal"] and data["phase"] == "movement" and data["chooser"] == [3]
    assert data["position"]["Oc3"] == 1 and data["position"]["Bd4.n"] == 1
    missing = write(tmp_path, {"game": "brain-hanky", "options": {"move_chooser": True}, "steps": []}, "m.json")
    out = run("replay", missing)
    assert out.exit_code == 2 and "chooser" in out.output


def test_replay_json_caps_a_huge_step_list(run, tmp_path):
    f = write(tmp_path, {"game": "brain-hanky-battle-lines", "steps": []})
    data = json.loads(run("replay", f, "--json", "--steps-limit", "25").output)
    assert len(data["legal_steps"]) == 25 and data["legal_steps_truncated"] is True
    small = json.loads(run("replay", write(tmp_path, {"game": "tapatan", "steps": []}, "t.json"), "--json").output)
    assert "legal_steps_truncated" not in small and len(small["legal_steps"]) == 9


def test_replay_says_what_lies_beneath_the_top_of_each_stack(run, tmp_path):
    f = write(tmp_path, {"game": "stack", "steps": ["a1", "a1", "a1", "d1"]})
    data = json.loads(run("replay", f, "--json").output)
    assert data["position"] == {"a1": 1, "d1": 2}
    assert data["stacks"] == {"a1": [1, 2, 1]}
    assert "stacks (bottom first): a1: 1 2 1" in run("replay", f).output
    plain = write(tmp_path, {"game": "tapatan", "steps": ["a1"]}, name="plain.json")
    assert "stacks" not in json.loads(run("replay", plain, "--json").output)
