"""Hidden entry of a secret step on the Pi's terminal (``arbiter.cli.private_entry``): the player
is named, what they type is never echoed nor repeated, an illegal entry is refused, and the step is
journalled sealed. The last test runs ``arbiter play`` on a pseudo-terminal against a virtual
sensor board, as at a table with no web page."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import engine
from arbiter.cli.private_entry import ask_private
from arbiter.journal import Journal, load_journal
from arbiter.sim.scenario import Table
from helpers import ctrl_c_reaches_it

ROOT = Path(__file__).resolve().parent.parent
GAME = "thinking-in-circles"


def test_the_player_is_named_an_illegal_entry_refused_unrepeated_and_a_short_form_taken(tmp_path):
    g = engine.load(GAME)
    j = Journal.new(g.name, g.options, directory=tmp_path, reader="occupancy")
    t = Table(g, "occupancy", journal=j)
    said: list[str] = []
    typed = iter(["CCX", "", "goal=PPQ", "CST"])
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    assert ask_private(t.session, said.append, read)
    assert "player 1 (white)" in said[0].lower() and "look away" in said[0]
    assert all("hidden" in p for p in prompts) and len(prompts) == 4
    refusals = [s for s in said if s.startswith("Refused")]
    assert len(refusals) == 2
    for secret in ("CCX", "PPQ", "CST"):
        assert not any(secret in s for s in said + prompts)
        assert not any(secret in a.message for a in t.session.log)
    assert [str(s) for s in t.session.history] == ["goal=CST"]
    assert b"CST" not in j.path.read_bytes() and load_journal(j.path).steps == ["goal"]
    assert t.session.state.private_to == 2  # black's goal next
    assert not ask_private(t.session, said.append, lambda p: "XX", tries=2)  # gives up, asks again later
    assert t.session.state.private_to == 2


def test_nothing_is_asked_when_no_secret_step_is_due(tmp_path):
    g = engine.load("tapatan")
    t = Table(g, "occupancy")
    assert not ask_private(t.session, lambda s: None, lambda p: 1 / 0)


def _env(tmp_path) -> dict:
    # PYTHONFAULTHANDLER: a child that hangs and is sent SIGABRT prints every thread's stack
    env = dict(os.environ, ARBITER_JOURNAL_DIR=str(tmp_path / "journals"), PYTHONPATH=str(ROOT), TERM="xterm",
               PYTHONFAULTHANDLER="1")
    env.pop("COLUMNS", None)
    return env


def _plain(seen: bytearray) -> str:
    """The terminal's output without its escape sequences, for a failure's message."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", bytes(seen).decode("utf-8", "replace"))


def _controlling_tty() -> None:  # the child's stdin becomes its terminal, as a login shell's is
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    ctrl_c_reaches_it()


def _signals(pid: int) -> str:
    """The process's signal masks as the kernel has them (blocked, ignored, caught), for a failure."""
    try:
        lines = open(f"/proc/{pid}/status").read().splitlines()
    except OSError:
        return ""
    return " ".join(line for line in lines if line.startswith(("SigBlk", "SigIgn", "SigCgt")))


def _read_until(fd: int, pattern: bytes, seen: bytearray, timeout: float = 60.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if re.search(pattern, bytes(seen)):
            return True
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                return bool(re.search(pattern, bytes(seen)))
    return False


def test_arbiter_play_asks_each_goal_unseen_on_its_terminal(tmp_path):
    sim = subprocess.Popen([sys.executable, "-m", "arbiter.cli", "sensor-sim", GAME, "--seconds", "90"], cwd=ROOT,
                           env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    master, slave = pty.openpty()
    play = None
    try:
        port = None
        for line in sim.stdout:
            m = re.search(r"on port: (\S+)", line)
            if m:
                port = m.group(1)
                break
        assert port
        play = subprocess.Popen([sys.executable, "-m", "arbiter.cli", "play", GAME, "--reader", "serial", "--port",
                                 port, "--buttons", "none"], cwd=ROOT, env=_env(tmp_path), stdin=slave,
                                stdout=slave, stderr=slave, preexec_fn=_controlling_tty)
        os.close(slave)
        slave = None
        seen = bytearray()
        assert _read_until(master, rb"type your goal \(hidden\)", seen), bytes(seen)[-2000:]
        assert b"look away" in seen
        os.write(master, b"CCX\n")  # not a goal: refused, never shown
        # getpass turns the echo off, then prompts: type only after the prompt, as a player does
        assert _read_until(master, rb"Refused(.|\n)*type your goal \(hidden\)", seen), bytes(seen)[-2000:]
        os.write(master, b"CST\n")
        assert _read_until(master, rb"Player 2 \(black\), type your goal \(hidden\)", seen), bytes(seen)[-2000:]
        os.write(master, b"goal=PPT\n")
        assert _read_until(master, rb"Thank you, player 2", seen), bytes(seen)[-2000:]
        time.sleep(1.0)
        play.send_signal(signal.SIGINT)
        end = time.monotonic() + 30
        while play.poll() is None and time.monotonic() < end:  # keep reading: a full pty blocks it
            _read_until(master, rb"(?!)", seen, timeout=0.3)
        masks = ""
        if play.poll() is None:  # did not stop: have it say where (faulthandler) and how it takes signals
            masks = _signals(play.pid)
            play.send_signal(signal.SIGABRT)
            _read_until(master, rb"(?!)", seen, timeout=3.0)
        assert play.poll() == 0, masks + "\n" + _plain(seen)[-4000:]
        for secret in (b"CCX", b"CST", b"PPT"):
            i = bytes(seen).find(secret)
            assert i < 0, bytes(seen)[max(0, i - 300):i + 100]
        journal = next((tmp_path / "journals").glob("*.jsonl"))
        data = journal.read_bytes()
        assert b"CST" not in data and b"PPT" not in data
        assert load_journal(journal).steps == ["goal", "goal"]
        assert load_journal(journal, unseal=True).steps == ["goal=CST", "goal=PPT"]
    finally:
        if play is not None and play.poll() is None:
            play.kill()
            play.wait()
        if slave is not None:
            os.close(slave)
        os.close(master)
        sim.terminate()
        sim.wait(timeout=10)


def test_keyboard_buttons_give_the_terminal_back_in_line_mode_while_a_secret_is_typed():
    from arbiter.cli.play import KeyboardButtons

    master, slave = pty.openpty()
    with os.fdopen(slave, "r") as stream:
        keys = KeyboardButtons(stream)
        try:
            assert not termios.tcgetattr(slave)[3] & termios.ICANON  # cbreak: keys one by one
            with keys.typing():
                assert termios.tcgetattr(slave)[3] & termios.ICANON  # a line, backspace working
            assert not termios.tcgetattr(slave)[3] & termios.ICANON
        finally:
            keys.close()
    os.close(master)
