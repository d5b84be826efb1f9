"""Sealed journal lines: a game's secrets (goals, hidden bead choices, a code, a solo game's drawn
codes) never stand in clear in the journal before the game is over, survive a crash in the 0600
secret file beside it, and are written in clear once the game ends (docs/journal.md, "Secrets")."""

from __future__ import annotations

import json
import random
import stat

import pytest
from click.testing import CliRunner

import engine
from arbiter.cli import main as cli
from arbiter.journal import Journal, JournalError, load_journal, load_public, resume, secret_path
from arbiter.sim.scenario import Player, Table
from engine.protocol import Draws

CIRCLES = "thinking-in-circles"


def secret_words(steps: list[str]) -> list[bytes]:
    """What must not be in the journal's bytes: every secret step, and every goal's letters."""
    out = []
    for s in steps:
        if s.startswith(("goal=", "beads=", "code=")):
            out.append(s.encode())
            if s.startswith("goal="):
                out.append(s.split("=", 1)[1].encode())
    return out


def circles_table(tmp_path, seed: int = 4):
    g = engine.load(CIRCLES, lockdown=True, spin_cycle=2)
    j = Journal.new(g.name, g.options, directory=tmp_path, reader="occupancy")
    return g, j, Table(g, "occupancy", journal=j)


def test_mid_game_the_journal_holds_no_secret_in_clear_and_the_end_reveals_them(tmp_path):
    g, j, t = circles_table(tmp_path)
    made: list[str] = []
    Player(t, rng=random.Random(4), on_act=made.append).play(max_steps=25)
    assert not t.session.over and any(s.startswith("beads=") for s in made)
    data = j.path.read_bytes()
    for word in secret_words(made):
        assert word not in data, word
    assert b'"step":"goal"' in data and b'"step":"beads"' in data and b'"sealed":' in data
    # The secrets are kept beside it, readable by the referee's user alone.
    sp = secret_path(j.path)
    assert stat.S_IMODE(sp.stat().st_mode) == 0o600
    assert b"goal=" in sp.read_bytes()
    # Nobody else is shown them: reading the journal gives the public text only; a record refuses.
    c = load_journal(j.path)
    assert c.still_sealed and "goal" in c.steps and not any("=" in s for s in c.steps[:2])
    with pytest.raises(JournalError, match="sealed secret"):
        load_public(j.path)
    runner = CliRunner()
    res = runner.invoke(cli, ["export", str(j.path), "--out", str(tmp_path / "g.json")])
    assert res.exit_code == 2 and "sealed secret" in res.output + (res.stderr or "")
    assert not (tmp_path / "g.json").exists()
    res = runner.invoke(cli, ["replay", str(j.path)])
    assert res.exit_code != 0 and not any(w.decode() in res.output for w in secret_words(made))
    # Played to the end: the journal itself now says every secret, and export writes them.
    Player(t, rng=random.Random(5), on_act=made.append).play(max_steps=400)
    assert t.session.over
    c = load_journal(j.path)
    assert c.steps == made and not c.still_sealed and c.events[-1]["event"] == "reveal"
    res = runner.invoke(cli, ["export", str(j.path), "--out", str(tmp_path / "g.json")])
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "g.json").read_text())["steps"] == made
    # Nothing said aloud held a secret, the end included.
    assert not any(w.decode() in a.message for a in t.session.log for w in secret_words(made) if b"=" in w)


def test_a_game_abandoned_mid_way_resumes_with_its_secrets_still_sealed(tmp_path):
    g, j, t = circles_table(tmp_path)
    made: list[str] = []
    Player(t, rng=random.Random(7), on_act=made.append).play(max_steps=30)
    assert not t.session.over
    j.close()  # every line is fsynced as it is written: what a kill -9 leaves is this file
    del t
    r = resume(j.path)
    assert r.journal.steps == made  # the secrets came back from the secret file
    t2 = Table(g, "occupancy", history=r.journal.steps, journal=r.journal, resumed=True)
    Player(t2, rng=random.Random(8), on_act=made.append).play(max_steps=20)
    assert not t2.session.over  # (the SIGKILL test below plays a resumed game to its end)
    data = j.path.read_bytes()
    assert not any(w in data for w in secret_words(made))
    assert load_journal(j.path, unseal=True).steps == made


def test_a_crash_between_the_last_step_and_the_reveal_line_loses_nothing(tmp_path):
    """The game ended but the reveal line never landed: the record still shows the secrets (the
    steps show the game is over), and resuming writes the reveal line."""
    g, j, t = circles_table(tmp_path)
    made: list[str] = []
    Player(t, rng=random.Random(4), on_act=made.append).play(max_steps=400)
    assert t.session.over
    data = j.path.read_bytes()
    lines = data.splitlines(keepends=True)
    assert b'"event":"reveal"' in lines[-1]
    j.close()
    j.path.write_bytes(b"".join(lines[:-1]))  # as if killed before the reveal line was written
    assert load_journal(j.path).still_sealed
    assert load_public(j.path).steps == made  # over, so shown whole
    jj = Journal.open(j.path)
    assert jj.unrevealed and jj.steps == made
    jj.reveal()
    assert not load_journal(j.path).still_sealed
    jj.close()


def test_a_secret_file_of_another_game_is_refused(tmp_path):
    _, j, t = circles_table(tmp_path)
    Player(t, rng=random.Random(4)).play(max_steps=6)
    j.close()
    sp = secret_path(j.path)
    entries = [json.loads(x) for x in sp.read_text().splitlines()]
    entries[0]["clear"]["step"] = "goal=PPP"  # not what was sealed
    sp.write_text("".join(json.dumps(e) + "\n" for e in entries))
    assert load_journal(j.path, unseal=True).still_sealed  # the forged secret matches no line


def solo_brainmaster(tmp_path):
    g = engine.load("brainmaster", solo=True)
    rng = random.Random(11)
    chooser = g.new(draws=Draws([], rng)).draws()
    j = Journal.new(g.name, g.options, directory=tmp_path, reader="colour", chooser=chooser)
    return g, j, chooser, rng


def test_a_solo_code_drawn_by_the_companion_is_sealed_in_the_journal_and_never_said(tmp_path):
    g, j, chooser, rng = solo_brainmaster(tmp_path)
    assert chooser  # the first code is drawn as the game begins
    header = json.loads(j.path.read_bytes().splitlines()[0])
    assert header["chooser"] == [] and header["sealed"]
    code = "".join("RBGYOPCM"[c] for c in g.rules.decode(chooser[0]))
    assert code.encode() not in j.path.read_bytes()
    assert load_journal(j.path).chooser == [] and load_journal(j.path).still_sealed == [0]
    # The referee (resuming) gets the code back; later draws ride on steps, sealed too.
    j.close()
    r = resume(j.path, rng=rng)
    assert r.journal.chooser == chooser
    # The session says nothing of the draw ("the move chooser gives ..." once told the number).
    t = Table(g, "occupancy", state=g.new(draws=Draws(list(chooser), rng)), journal=r.journal, resumed=False)
    said = " ".join(a.message for a in t.session.log)
    assert "chooser" not in said and code not in said and str(chooser[0]) not in said
    r.journal.append_step("1:RRBB", draws=[5])
    line = j.path.read_bytes().splitlines()[-1]
    assert b"draws" not in line and b'"sealed"' in line
    assert load_journal(j.path).still_sealed == [0, 1]
    r.journal.close()
    assert Journal.open(j.path).chooser == chooser + [5]


def test_arbiter_play_killed_with_sigkill_keeps_its_secrets_sealed_and_resumes_to_a_revealed_end(tmp_path):
    """A real kill -9 of `arbiter play` mid-game (simulated players, seeded), then --resume."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, ARBITER_JOURNAL_DIR=str(tmp_path), PYTHONPATH=str(root))
    play = subprocess.Popen([sys.executable, "-m", "arbiter.cli", "play", CIRCLES, "--reader", "sim-occupancy",
                             "--seed", "3", "--speed", "20"], cwd=root, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 60
        path = None
        while time.monotonic() < end:
            path = next(iter(tmp_path.glob("*.jsonl")), None)
            if path is not None and path.read_bytes().count(b"\n") >= 12:
                break
            time.sleep(0.05)
        play.send_signal(signal.SIGKILL)
        play.wait(timeout=10)
    finally:
        if play.poll() is None:
            play.kill()
    assert path is not None
    before = load_journal(path, unseal=True)
    assert before.ended is None and not before.revealed and len(before.steps) >= 6
    secret = [s for s in before.steps if "=" in s]
    assert secret and all(s.encode() not in path.read_bytes() for s in secret)
    assert load_journal(path).still_sealed
    res = subprocess.run([sys.executable, "-m", "arbiter.cli", "play", CIRCLES, "--reader", "sim-occupancy",
                          "--seed", "3", "--speed", "0", "--resume", str(path)], cwd=root, env=env,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr
    assert not any(s in res.stdout for s in secret[:2])  # nothing said held a goal ...
    after = load_journal(path)  # ... and the journal, now over, shows every secret in clear
    assert after.revealed and not after.still_sealed
    assert after.steps[:len(before.steps)] == before.steps
    assert load_public(path).steps == after.steps


def test_a_missing_secret_file_stops_resume_with_what_to_do(tmp_path):
    _, j, t = circles_table(tmp_path)
    Player(t, rng=random.Random(4)).play(max_steps=6)
    j.close()
    secret_path(j.path).rename(tmp_path / "elsewhere")
    with pytest.raises(JournalError, match="secret file .* is missing"):
        resume(j.path)
    (tmp_path / "elsewhere").rename(secret_path(j.path))
    resume(j.path).journal.close()
