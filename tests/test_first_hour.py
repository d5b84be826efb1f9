"""A new user's first hour (issue 30): one name per option across commands, messages that
suggest options the command takes, q stopping a simulated game, replay reading a journal,
OpenCV's own log lines kept off the screen."""

import contextlib
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from arbiter.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def command(path: str) -> click.Command:
    cmd = main
    for word in path.split():
        cmd = cmd.commands[word]
    return cmd


def shown(path: str) -> set[str]:
    """The options `arbiter PATH --help` shows."""
    ctx = click.Context(command(path), info_name=path)
    return {re.split(r"[ ,/]", rec[0])[0] for p in command(path).params
            if (rec := p.get_help_record(ctx)) is not None}


def every_command(group=main, prefix=""):
    for name, cmd in group.commands.items():
        if isinstance(cmd, click.Group):
            yield from every_command(cmd, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", cmd


# ---------------------------------------------------------------- one name per option
def test_every_command_that_opens_a_camera_names_its_backend_camera_backend():
    for path in ("play", "calibrate", "camera snapshot"):
        assert "--camera-backend" in shown(path), path
        assert "--backend" not in shown(path), path


def test_every_command_that_lights_leds_names_them_as_play_does():
    for path in ("play", "leds test"):
        assert {"--leds", "--leds-out", "--layout-map", "--brightness"} <= shown(path), path


def test_no_command_shows_an_option_name_that_means_two_things():
    """--backend (camera or LEDs?) and --map (sensor or LED map?) are shown nowhere; --leds is
    always where the LED signals go, never a count."""
    for path, cmd in every_command():
        names = shown(path)
        assert "--backend" not in names and "--map" not in names, path
        for p in cmd.params:
            record = p.get_help_record(click.Context(cmd))
            if record is not None and record[0].split()[0] == "--leds":
                assert isinstance(p.type, click.Choice) and "terminal" in p.type.choices, path


def test_every_option_is_explained_in_help():
    bare = [f"{path} {p.opts[0]}" for path, cmd in every_command() for p in cmd.params
            if isinstance(p, click.Option) and not p.hidden and not p.help]
    assert not bare, f"options without a word of help: {bare}"


def test_the_old_spellings_still_work(tmp_path):
    """Scripts written before the rename keep running: --backend, --map and --out of `leds test`,
    --backend of `calibrate` and `camera snapshot`, --leds N of the sensor commands."""
    assert run("leds", "map", "three", "--out", str(tmp_path / "m.json")).exit_code == 0
    out = run("leds", "test", "three", "--backend", "png", "--out", str(tmp_path / "l.gif"),
              "--map", str(tmp_path / "m.json"))
    assert out.exit_code == 0, out.output
    assert (tmp_path / "l.gif").exists()
    cal = run("calibrate", "three-mens-morris", "--sim", "--backend", "opencv", "--width", "640", "--height", "480",
              "--out", str(tmp_path / "cal.json"))
    assert cal.exit_code == 0, cal.output
    fw = run("sensor-firmware", "three", "--leds", "9", "--out", str(tmp_path / "pico"))
    assert fw.exit_code == 0 and "9 LEDs" in fw.output
    bad = run("camera", "snapshot", "--backend", "nope")
    assert bad.exit_code == 2 and "'--camera-backend'" in bad.output and "--backend'" not in bad.output


def test_play_says_what_it_calls_an_option_brought_from_another_command():
    for option, says in (("--backend", "--leds"), ("--map", "--layout-map"), ("--out", "--leds-out")):
        out = run("play", "nine-mens-morris", option, "x")
        assert out.exit_code == 2
        assert says in out.output and "has no option" not in out.output


def test_an_unknown_option_is_said_to_be_neither_the_commands_nor_the_games():
    out = run("play", "nine-mens-morris", "--camra", "1")
    assert out.exit_code == 2
    assert "arbiter play has no option --camra" in out.output and "`arbiter play --help`" in out.output
    assert "--teams" in out.output  # the game's own


def test_the_messages_suggest_options_by_the_names_the_commands_show():
    """The LED library's refusal on a computer that is not a Pi once said `--backend terminal`,
    which `play` refused; the camera's said `--backend picamera2`, which `play` called
    --camera-backend."""
    text = "\n".join(p.read_text() for folder in ("arbiter", "hardware", "vision", "firmware_bridge")
                     for p in (ROOT / folder).rglob("*.py"))
    assert not re.findall(r"--backend [a-z]", text)
    leds = {m for m in re.findall(r"--leds ([a-z][a-z-]*)", text)}
    cameras = set(re.findall(r"--camera-backend ([a-z][a-z0-9]*)", text))
    assert leds and cameras
    for path in ("play", "leds test"):
        choices = next(p.type.choices for p in command(path).params if "--leds" in p.opts)
        assert leds - {"board"} <= set(choices), path
    for path in ("play", "calibrate", "camera snapshot"):
        choices = next(p.type.choices for p in command(path).params if "--camera-backend" in p.opts)
        assert cameras <= set(choices), path


def test_play_without_a_camera_says_how_to_play_without_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = run("play", "nine-mens-morris")
    assert out.exit_code == 2 and "arbiter play nine-mens-morris --reader sim" in out.output


# ---------------------------------------------------------------- q stops a simulated game
def test_q_stops_play_reader_sim_as_docs_play_md_says(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), ARBITER_JOURNAL_DIR=str(tmp_path), COLUMNS="100", LINES="40")
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "arbiter.cli", "play", "nine-mens-morris", "--reader", "sim",
                             "--speed", "1"], stdin=slave, stdout=slave, stderr=slave, cwd=tmp_path, env=env)
    os.close(slave)
    out, sent_at = b"", None
    try:
        end = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < end:
            if select.select([master], [], [], 0.2)[0]:
                try:
                    out += os.read(master, 65536)
                except OSError:  # the terminal's other end closed: the process is ending
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        proc.wait(timeout=max(0.0, end - time.monotonic()))
                    break
            if sent_at is None and b"put a piece on" in out:  # the players are under way
                os.write(master, b"q")
                sent_at = time.monotonic()
                end = sent_at + 15
        assert sent_at is not None, out.decode(errors="replace")[-500:]
        assert proc.poll() is not None, "q did not stop the simulated game"
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        try:
            while select.select([master], [], [], 0.2)[0]:
                out += os.read(master, 65536)
        except OSError:
            pass
        os.close(master)
    text = out.decode(errors="replace")
    assert proc.returncode == 0 and "Stopped." in text and "--resume" in text, text[-500:]


# ---------------------------------------------------------------- replay, render, hint of a journal
def journal(tmp_path, lines, name="2025-05-01_14-03-22_tapatan.jsonl") -> str:
    header = {"arbiter_journal": 1, "game": "tapatan", "options": {}, "chooser": None,
              "created": "2025-05-01T14:03:22+00:00", "reader": "colour", "time_control": None}
    path = tmp_path / name
    path.write_text("".join(json.dumps(x) + "\n" for x in [header, *lines]))
    return str(path)


STEPS = [{"seq": 1, "event": "step", "ply": 1, "step": "d4"}, {"seq": 2, "event": "step", "ply": 2, "step": "a1"},
         {"seq": 3, "event": "step", "ply": 3, "step": "g1"}, {"seq": 4, "event": "takeback", "n": 1},
         {"seq": 5, "event": "step", "ply": 3, "step": "g7"}]


def test_replay_reads_a_journal_and_says_it_did(tmp_path):
    path = journal(tmp_path, STEPS)
    out = CliRunner().invoke(main, ["replay", path, "--json"], catch_exceptions=False)
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["applied"] == 3 and data["position"] == {"d4": 1, "a1": 2, "g7": 1}
    assert "journal" in out.stderr and f"arbiter export {path}" in out.stderr


def test_render_and_hint_read_a_journal(tmp_path):
    path = journal(tmp_path, STEPS)
    pic = run("render", path, "--out", str(tmp_path / "p.png"))
    assert pic.exit_code == 0 and (tmp_path / "p.png").exists()
    hint = CliRunner().invoke(main, ["hint", path, "--json", "--cache-dir", str(tmp_path / "cache")])
    assert hint.exit_code == 0, hint.output
    assert json.loads(hint.stdout)["to_move"] == 2


def test_a_damaged_journal_is_reported_as_a_journal(tmp_path):
    path = journal(tmp_path, STEPS)
    lines = Path(path).read_text().splitlines()
    lines[2] = "{not json"
    Path(path).write_text("\n".join(lines) + "\n")
    out = run("replay", path)
    assert out.exit_code == 2 and "line 3 is damaged" in out.output and "not valid JSON" not in out.output


def test_a_file_that_is_neither_is_still_not_valid_json(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"game": "tapatan"}\n{"b": 2}\n')
    out = run("replay", str(path))
    assert out.exit_code == 2 and "not valid JSON" in out.output


# ---------------------------------------------------------------- OpenCV's own log
def test_opencv_prints_nothing_before_arbiters_one_line(tmp_path):
    """With no camera 7, OpenCV logged `[ WARN:0@0.012] ... can't open camera by index` lines
    before arbiter's own message."""
    env = {k: v for k, v in os.environ.items() if k != "OPENCV_LOG_LEVEL"}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-m", "arbiter.cli", "camera", "snapshot", "--camera", "7"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [done.stderr.strip()], done.stderr
    assert done.stderr.startswith("arbiter: ")


@pytest.mark.parametrize("level", ["WARNING"])
def test_opencv_log_comes_back_when_asked(tmp_path, level):
    env = dict(os.environ, PYTHONPATH=str(ROOT), OPENCV_LOG_LEVEL=level)
    done = subprocess.run([sys.executable, "-c", "import arbiter.cli, os; print(os.environ['OPENCV_LOG_LEVEL'])"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == level


def test_play_without_a_sensor_board_says_how_to_play_without_one(tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_JOURNAL_DIR", str(tmp_path))
    out = run("play", "tapatan", "--reader", "serial", "--port", str(tmp_path / "no-such-port"))
    assert out.exit_code == 2 and "arbiter play tapatan --reader sim-occupancy" in out.output


def test_export_of_a_record_says_it_is_one_already(tmp_path):
    """It said the record had no journal header and should be moved out of the games folder."""
    path = tmp_path / "game.json"
    path.write_text('{"game": "tapatan", "steps": ["d4"]}')
    out = run("export", str(path), "--out", str(tmp_path / "out.json"))
    assert out.exit_code == 2 and "already a game record" in out.output and "games folder" not in out.output


def test_read_takes_the_calibration_play_takes(tmp_path, monkeypatch):
    """`read` wanted --calibration always, where `play` reads calibration-GAME.json by itself."""
    monkeypatch.chdir(tmp_path)
    missing = run("read", "three-mens-morris", "--image", "x.png")
    assert missing.exit_code == 2 and "no calibration calibration-three-mens-morris.json" in missing.output
    assert run("calibrate", "three-mens-morris", "--sim", "--width", "640", "--height", "480").exit_code == 0
    out = run("read", "three-mens-morris", "--image", "calibration-three-mens-morris.overlay.png", "--json")
    assert out.exit_code == 0, out.output
    assert "points" in json.loads(out.output)
