"""The docs keep up with the code: every game is listed in the README, every command line the
docs show runs (or is listed with the hardware it needs), every option they name is the
command's own, and every record they show replays."""

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import engine
from helpers import ctrl_c_reaches_it

ROOT = Path(__file__).resolve().parent.parent


def test_readme_lists_every_game():
    readme = (ROOT / "README.md").read_text()
    missing = [name for name in engine.names() if f"`{name}`" not in readme]
    assert not missing, f"README's games table lacks {missing}"


def test_readme_quick_start_is_two_make_commands():
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("##", 1)[0]
    commands = [ln.split("#")[0].strip() for ln in quick.splitlines() if ln.startswith("    ")]
    assert [c for c in commands if c] == ["make demo", "make test"]


def test_ci_runs_the_readme_test_command():
    assert "make test" in (ROOT / ".ci" / "run").read_text()


# ------------------------------------------------------------------ every command the docs show
# The command lines in README.md and docs/*.md (fenced blocks without a language or marked as a
# shell, and indented blocks) are run as a new user would: in document order (README first, then
# docs/ by name), all in one fresh folder, with the journals and the hint cache in it too. Those
# that need hardware are listed below with the reason; those that run until stopped get Ctrl-C
# after a few seconds, as a user would press it. A doc change that adds a command either runs
# here or says why it cannot.

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PROGRAMS = {"arbiter", "make", "python", "python3", "pip", "sudo", "mpremote", "git", "blender"}

# (pattern matched at the start of the command, why it is not run here)
NEEDS_HARDWARE = [
    (r"make demo\b", "builds .venv with pip (downloads, minutes): its recipe is checked by "
                     "test_make_demo_installs_only_what_playing_needs, and `arbiter demo` runs below"),
    (r"make test\b", "the whole test suite, this test included"),
    (r"make photoreal\b", "renders pictures with Blender: hours"),
    (r"make bench-photoreal\b", "reads the photoreal sets: minutes; a benchmark, not a check"),
    (r"arbiter camera snapshot\b", "a camera"),
    (r"arbiter calibrate \S+ --camera\b", "a camera"),
    (r"arbiter play (?!.*--reader (sim|sim-occupancy)\b)(?!.*--reader serial).*", "a camera over the board"),
    (r"arbiter play .*--reader serial\b", "a sensor board (or `arbiter sensor-sim` running in another "
                                          "terminal: tests/test_serial_cli.py plays that pair)"),
    (r"arbiter sensor-monitor\b", "a sensor board"),
    (r"git (clone|sparse-checkout)\b", "fetches the repository (network); these tests run in a checkout"),
    (r"mpremote\b", "a Raspberry Pi Pico on USB"),
    (r"pip (install|uninstall)\b", "changes the Python environment (a Raspberry Pi's extras)"),
    (r".*--journal /media/", "a USB stick mounted there (tests/test_journal_safety.py checks --journal DIR)"),
    (r"make bench-journal\b", "a stress benchmark: half an hour"),
    (r"make mutation\b", "mutation testing: hours"),
    (r"make (train-data|heldout-data)\b", "renders training scenes with Blender: hours "
                                          "(tests/test_training_scenes.py checks what they draw)"),
    (r"make train-reader\b", "trains the spot network with PyTorch (the train extra): an hour"),
    (r"make bench-\S+", "a benchmark: minutes; it prints figures, it checks nothing"),
    (r"make web-pictures\b", "photographs the web page in Chromium for the docs"),
]

# (pattern, why it runs until stopped): started, given Ctrl-C once it has printed, and expected
# to stop cleanly (exit 0, no traceback), which is what a user does with it.
RUNS_UNTIL_STOPPED = [
    (r"arbiter sensor-sim\b", "a virtual board that runs until Ctrl-C"),
    (r"arbiter play brain-hanky --reader sim\b", "a whole Brain Hanky game on the simulated camera takes "
                                                 "minutes on 2 cores"),
    (r"arbiter serve\b", "the web page's server, which runs until Ctrl-C"),
]

FENCE = re.compile(r"^\s*```\s*(\w*)")


def doc_commands(text: str) -> list[tuple[int, str]]:
    """(line number, command) for every command line in the page's code blocks, in order."""
    lines = text.splitlines()
    out: list[tuple[int, str]] = []
    i, blank_before = 0, True
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m:
            shell = m.group(1) in ("", "sh", "bash", "shell", "console")
            i += 1
            while i < len(lines) and not FENCE.match(lines[i]):
                if shell:
                    out.append((i + 1, lines[i]))
                i += 1
            i, blank_before = i + 1, False
            continue
        if blank_before and lines[i].startswith("    ") and lines[i].strip():
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                out.append((i + 1, lines[i][4:]))
                i += 1
            blank_before = False
            continue
        blank_before = not lines[i].strip()
        i += 1
    commands = []
    for n, line in out:
        if line.split()[:1] and line.split()[0] in PROGRAMS:
            try:
                commands.append((n, shlex.join(shlex.split(line, comments=True))))
            except ValueError:  # a placeholder such as <the repository's address>
                commands.append((n, line.split("  #")[0].strip()))
    return commands


def all_doc_commands() -> list[tuple[str, int, str]]:
    return [(path.name, n, cmd) for path in DOCS for n, cmd in doc_commands(path.read_text())]


def _matches(table, command: str) -> str | None:
    for pattern, reason in table:
        if re.match(pattern, command):
            return reason
    return None


def _make_fixtures(where: Path) -> None:
    """The files a reader of the docs brings along: pictures from the camera (here the simulated
    one), the calibration `arbiter calibrate nine-mens-morris --camera 0` writes (here from
    those pictures) and game.json, the record README.md shows."""
    import engine
    from vision import sim
    from vision.calibration import calibrate, calibration_layout, default_classifier
    from vision.render import save_png

    g = engine.load("nine-mens-morris")
    # the pieces laid out as `arbiter calibrate nine-mens-morris --layout` shows them
    layout, _ = calibration_layout(g, full=default_classifier(g) == "learned")
    settings = sim.CameraSettings(size=(1280, 720))
    empty = sim.simulate(sim.printed_scene(g.board, {}), 1, settings).image
    pieces = sim.simulate(sim.printed_scene(g.board, layout), 1, settings).image
    state = g.new().play("d2").play("d6").play("a1")
    frame = sim.simulate(sim.printed_scene(g.board, state.position()), 2, settings).image
    for name, image in (("empty.png", empty), ("pieces.png", pieces), ("frame.png", frame), ("f.png", frame)):
        save_png(image, where / name)
    calibrate(g, empty, pieces, position=layout).save(where / "calibration-nine-mens-morris.json")
    readme = (ROOT / "README.md").read_text()
    record = re.search(r"A game record is JSON: `(\{.*?\})`", readme, re.S).group(1)
    (where / "game.json").write_text(record)


def _newest_journal(env) -> str:
    journals = sorted(Path(env["ARBITER_JOURNAL_DIR"]).glob("*.jsonl"), key=lambda p: p.stat().st_mtime)
    assert journals, "a doc command needs a journal, and no command before it played a game"
    return str(journals[-1])


def _argv(command: str, env) -> list[str]:
    """The command as run here: `arbiter` is this checkout's, and a journal the docs name (JOURNAL,
    or a path ending .jsonl that is not here) is the newest one the commands before it wrote."""
    words = shlex.split(command)
    words = [_newest_journal(env) if w == "JOURNAL" or (w.endswith(".jsonl") and not Path(w).exists()) else w
             for w in words]
    assert words[0] == "arbiter", f"the test does not know how to run {command!r}: list it in NEEDS_HARDWARE"
    return [sys.executable, "-m", "arbiter.cli", *words[1:]]


def _until_stopped(argv, cwd, env, timeout=60) -> tuple[int, str]:
    """Start it, wait until it has printed something and a second more, then Ctrl-C."""
    out = cwd / ".out.txt"
    with open(out, "wb") as fh:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                preexec_fn=ctrl_c_reaches_it)
        end = time.monotonic() + timeout
        while proc.poll() is None and out.stat().st_size == 0 and time.monotonic() < end:
            time.sleep(0.2)
        time.sleep(1.0)
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode, out.read_text(errors="replace")


def test_every_doc_command_that_needs_no_hardware_runs(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "OPENCV_LOG_LEVEL"}
    env.update(PYTHONPATH=str(ROOT), ARBITER_JOURNAL_DIR=str(tmp_path / "journals"),
               ARBITER_CACHE_DIR=str(tmp_path / "cache"), HOME=str(tmp_path), COLUMNS="100")
    _make_fixtures(tmp_path)
    failures, ran = [], []
    for doc, n, command in all_doc_commands():
        if _matches(NEEDS_HARDWARE, command):
            continue
        argv = _argv(command, env)
        if _matches(RUNS_UNTIL_STOPPED, command):
            status, output = _until_stopped(argv, tmp_path, env)
        else:
            done = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
                                  stdin=subprocess.DEVNULL)
            status, output = done.returncode, done.stdout + done.stderr
        ran.append(command)
        if status != 0 or "Traceback" in output or "[ WARN" in output:
            failures.append(f"{doc}:{n}: `{command}` exit {status}:\n{output[-600:]}")
    assert not failures, "\n\n".join(failures)
    assert len(ran) >= 25, ran  # the docs' commands are found at all


# ------------------------------------------------------------------ the options the docs name
def _snippets() -> list[tuple[str, str]]:
    """Every `arbiter ...` the docs show: the code blocks' commands and the inline code spans."""
    out = [(f"{doc}:{n}", c) for doc, n, c in all_doc_commands() if c.startswith("arbiter ")]
    for path in DOCS:
        for span in re.findall(r"`(arbiter [^`]+)`", path.read_text()):
            out.append((path.name, " ".join(span.split())))
    return out


def _command_of(words: list[str]):
    import click

    from arbiter.cli import main

    command, rest = main, words[1:]
    while isinstance(command, click.Group) and rest and rest[0] in command.commands:
        command, rest = command.commands[rest[0]], rest[1:]
    return command, rest


def test_every_option_the_docs_name_is_the_commands_own_name():
    """An option a page suggests is one the command shows in its --help (old spellings that are
    kept only for old scripts do not count), or an option of the game named."""
    import click

    import engine

    every_game_option = {f"--{o.name.replace('_', '-')}" for s in engine.games.specs() for o in s.options}
    wrong = []
    for where, text in _snippets():
        try:
            words = shlex.split(text)
        except ValueError:
            continue
        command, rest = _command_of(words)
        if isinstance(command, click.Group):
            continue
        shown = {o for p in command.params for o in p.opts + p.secondary_opts
                 if o not in getattr(p, "old", ())} | {"--help", "-h"}
        game = next((w for w in rest if not w.startswith("-")), None)
        if game in engine.names():
            declared = {f"--{o.name.replace('_', '-')}" for o in engine.spec(game).options}
        else:
            declared = every_game_option
        declared |= {f"--no-{o[2:]}" for o in declared}
        for word in rest:
            name = word.split("=")[0]
            if name.startswith("--") and name not in shown and name not in declared:
                wrong.append(f"{where}: `{text}`: {name}")
    assert not wrong, "options the docs suggest that the command does not show:\n" + "\n".join(wrong)


# ------------------------------------------------------------------ the records the docs show
def test_every_record_the_docs_show_replays():
    """docs/records.md's example once ended in `xb4` with no mill to allow it."""
    from arbiter.records import parse_record, replay

    records = []
    for path in DOCS:
        text = path.read_text()
        for block in re.findall(r"```json\n(.*?)```", text, re.S):
            data = json.loads(block)
            if isinstance(data, dict) and "steps" in data:
                records.append((path.name, data))
        for span in re.findall(r"`(\{\"game\".*?\})`", text):
            records.append((path.name, json.loads(span)))
    assert any(doc == "records.md" for doc, _ in records)
    for doc, data in records:
        outcome = replay(parse_record(data, doc))
        assert outcome.legal, f"{doc}: {data}: {outcome.illegal}"


# ------------------------------------------------------------------ make demo
def _make_dry_run(target: str) -> str:
    """What `make TARGET` would run in a fresh clone (no .venv yet)."""
    done = subprocess.run(["make", "-n", "-B", target, "PYTHON=python3"], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return done.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="no make here")
def test_make_demo_installs_only_what_playing_needs():
    demo = _make_dry_run("demo")
    installs = [ln for ln in demo.splitlines() if "pip install" in ln and "--upgrade pip" not in ln]
    assert installs and all(ln.rstrip().endswith("-e .") for ln in installs), demo
    assert "[dev]" not in demo and "[pi]" not in demo
    assert "arbiter demo" in demo
    assert "'.[dev,web]'" in _make_dry_run("test")
