"""Brainmaster and Thinking In Circles refereed at the simulated table through the simulated camera:
hands put pegs in holes and move pennies round tracks, the simulated camera photographs the printed
board (``vision.sim``, pegs as domed solids, pennies on their spaces) and the real reader reads it
(``vision.families.pegs_in_holes``, ``tokens_on_tracks``), calibrated on simulated pictures of the
documented layouts as a user calibrates (``arbiter.sim.physical.sim_calibration``).

Secrets (a code, goals, beads) are given as a private page gives them (``Session.enter_private``);
a circle is said with the buttons (straight to the referee). Everything the board shows is read.
"""

from __future__ import annotations

import pytest

import engine
from arbiter.sim.scenario import Action, Table, step_actions

# The simulated camera's reader: the hand-set one (the simulator's default), and the learned one a
# real camera calibrates the pegs and tokens for (``Family.classifier``), whose odds must let the
# referee name a wrong row as surely (``Family.temperature_least``).
CLASSIFIERS = ("measured", "learned")


@pytest.mark.parametrize("classifier", CLASSIFIERS)
def test_brainmaster_guess_rows_read_by_the_camera_and_a_miscounted_indicator_row_named(classifier):
    t = Table(engine.load("brainmaster"), "camera", camera={"classifier": classifier})
    t.session.enter_private("code=RBGY")  # from the maker's private page
    assert t.session.state.stage == "guess"
    t.put_all(("r1a", "red"), ("r1b", "red"), ("r1c", "blue"), ("r1d", "orange"))
    assert t.said()[0] == "step" and t.session.history[-1] == "1:RRBO"
    # RRBO against RBGY earns one black and one white; the maker puts two black.
    t.put_all(("r1k1", "black"), ("r1k2", "black"))
    kind, words = t.said()
    assert kind == "illegal" and "row 1's indicator pegs are wrong: 2 black given" in words, words
    assert "1 black and 1 white" in words
    t.do(Action("lift", ("r1k2",)))
    t.put_all(("r1k2", "white"))
    assert t.said()[0] == "step" and t.session.history[-1] == "1:1b1w"
    # The next guess read colour by colour: yellow and green told from orange and blue.
    for action in step_actions(t.session.state, "2:YGBR"):
        t.do(action)
    t.settle()
    assert t.session.history[-1] == "2:YGBR", t.said()
    assert t.reader.reads > 0  # every step above was read off simulated camera frames


@pytest.mark.parametrize("classifier", CLASSIFIERS)
def test_brainmaster_a_guess_in_the_wrong_row_is_refused_by_the_camera_and_a_cracked_code_ends_it(classifier):
    t = Table(engine.load("brainmaster"), "camera", camera={"classifier": classifier})
    t.session.enter_private("code=GGYY")
    t.put_all(("r2a", "green"))
    kind, words = t.said()
    assert kind == "illegal" and "the next guess goes in row 1" in words, words
    t.do(Action("lift", ("r2a",)))
    t.settle()
    for text in ("1:GGYY", "1:4b0w"):
        for action in step_actions(t.session.state, text):
            t.do(action)
        t.settle()
        assert t.session.history[-1] == text, (text, t.said())
    st = t.session.state
    assert st.stage == "code-over" and st.revealed == ("GGYY",)


@pytest.mark.parametrize("classifier", CLASSIFIERS)
def test_thinking_in_circles_token_read_on_its_track_and_a_move_by_the_wrong_sum_refused(classifier):
    t = Table(engine.load("thinking-in-circles", lockdown=True), "camera", camera={"classifier": classifier})
    t.session.enter_private("goal=CST")
    t.session.enter_private("goal=PPT")
    t.session.referee.enter("C3")
    t.session.enter_private("beads=3w")
    t.session.enter_private("beads=1b")  # 3 - 1: the token on C3 moves two spaces clockwise
    t.do(Action("move", ("c3.1", "c3.4")))
    t.settle()
    kind, words = t.said()
    assert kind == "illegal" and "to c3.3" in words and "+2" in words, words
    t.do(Action("move", ("c3.4", "c3.3")))
    t.settle()
    assert t.session.history[-1] == "c3.1-c3.3", t.said()
    st = t.session.state
    assert st.tokens[2] == 3 and st.stage == "circle"
    # A token on another track moved instead of the named circle's is refused too.
    t.session.referee.enter("C1")
    t.session.enter_private("beads=2w")
    t.session.enter_private("beads=1b")  # +1
    start = next(s for s in t.board.position if s.startswith("c2."))
    nxt = f"c2.{(int(start.split('.')[1]) + 1) % 14}"
    t.do(Action("move", (start, nxt)))
    t.settle()
    assert t.said()[0] == "illegal"
    t.do(Action("move", (nxt, start)))
    t.settle()
    c1 = next(s for s in t.board.position if s.startswith("c1."))
    t.do(Action("move", (c1, f"c1.{(int(c1.split('.')[1]) + 1) % 14}")))
    t.settle()
    assert t.said()[0] == "step" and t.session.state.tokens[0] == (int(c1.split(".")[1]) + 1) % 14


def test_arbiter_play_referees_thinking_in_circles_through_the_simulated_camera(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    from arbiter.journal import load_journal

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "ARBITER_JOURNAL_DIR": str(tmp_path), "PYTHONPATH": str(root)}
    run = subprocess.run([sys.executable, "-m", "arbiter.cli", "play", "thinking-in-circles", "--reader", "sim",
                          "--seed", "3", "--speed", "0", "--leds", "png", "--leds-out", str(tmp_path / "leds.png")],
                         cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "Game over: player" in run.stdout and "wins" in run.stdout
    journal = load_journal(next(tmp_path.glob("*.jsonl")))
    moves = [s for s in journal.steps if "-" in s]  # the token moves the camera read
    assert len(moves) >= 5 and all(s.startswith("c") for s in moves)
