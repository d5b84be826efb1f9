"""Thinking In Circles refereed at the simulated table (arbiter.sim.scenario): the real session and
referee, the tokens read by a simulated reed-switch grid (occupancy: tokens belong to nobody).

The goals and bead choices are given the way a private page would give them
(``Session.enter_private``, as the private web page does: tests/test_web.py). The circle and a
Blocker are said with the buttons (here straight to the referee); the token move is made on the
board and read.
"""

import engine
from arbiter.sim.scenario import Action, Table

GAME = "thinking-in-circles"


def table(**opts) -> Table:
    return Table(engine.load(GAME, **opts), "occupancy")


def test_a_turn_at_the_table_with_a_wrong_move_caught_and_nothing_secret_offered_or_said():
    t = table(lockdown=True)
    assert t.session.menu_items() == []  # a goal is never offered on the buttons
    t.session.enter_private("goal=CST")
    t.session.enter_private("goal=PPT")
    st = t.session.state
    assert st.phase == "choosing"
    offered = {str(step) for kind, step in t.session.menu_items() if kind == "say"}
    assert offered == {"C1", "C2", "C3", "C4", "C5"}
    t.session.referee.enter("C3")
    offered = {str(step) for kind, step in t.session.menu_items() if kind == "say"}
    assert offered == {"block"}  # beads are never offered: they are given privately

    # A token moved before the beads are revealed is refused.
    t.do(Action("move", ("c3.1", "c3.3")))
    t.settle()
    kind, words = t.said()
    assert kind == "illegal" and "only once the beads are revealed" in words
    t.do(Action("move", ("c3.3", "c3.1")))
    t.settle()

    t.session.enter_private("beads=3w")
    t.session.enter_private("beads=1b")
    assert t.session.state.stage == "move"
    t.do(Action("lift", ("c3.1",)))
    t.settle()
    assert t.said() == ("in-progress", "Move the token on C3 to c3.3.")
    t.do(Action("put", ("c3.4",)))
    t.settle()
    kind, words = t.said()
    assert kind == "illegal" and "to c3.3" in words and "+2" in words
    t.do(Action("move", ("c3.4", "c3.3")))
    t.settle()
    assert t.session.history[-1] == "c3.1-c3.3"
    st = t.session.state
    assert st.tokens[2] == 3 and st.to_move == 2 and st.stage == "circle"
    aloud = [a.message for a in t.session.log]
    assert not any("CST" in m or "PPT" in m or "goal=" in m or "beads=" in m for m in aloud)


def test_a_game_to_a_win_at_the_table():
    # Player 1 white: C1 and C2 already on white; C3's token two spaces short of white.
    rules = engine.load(GAME).rules
    st = rules.setup((2, 13, 1, 5, 2), [("CST",), ("PPT",)])
    assert st.symbols()[:2] == ("W", "W")
    t = Table(engine.load(GAME), "occupancy", state=st)
    for text in ("C3", "beads=1w", "beads=1w"):
        t.session.referee.enter(text)
    t.do(Action("move", ("c3.1", "c3.3")))
    t.settle()
    st = t.session.state
    assert st.result is not None and st.result.winner == 1
    assert st.revealed_goals == (("CST",), ("PPT",))


def test_secret_steps_given_privately_are_journalled_and_announced_only_by_their_public_text(tmp_path):
    import random

    import pytest

    from arbiter.journal import Journal, load_journal
    from arbiter.sim.scenario import Player

    g = engine.load(GAME, lockdown=True, spin_cycle=2)
    j = Journal.new(g.name, g.options, directory=tmp_path, reader="occupancy")
    t = Table(g, "occupancy", journal=j)
    with pytest.raises(ValueError) as info:
        t.session.enter_private("goal=CCX")
    assert "CCX" not in str(info.value)
    t.session.enter_private("goal=CST")
    assert t.said() == ("step", "White: goal. White has written down a goal! White to play.")  # a second goal
    made = ["goal=CST"]
    Player(t, rng=random.Random(4), on_act=made.append).play(max_steps=400)
    assert t.session.over and [str(s) for s in t.session.history] == made
    aloud = [a.message for a in t.session.log]
    assert not any("goal=" in m or "beads=" in m for m in aloud)
    reveals = [m for m in aloud if "revealed together" in m]
    assert reveals and len(reveals) == sum(1 for s in made if s.startswith("beads=")) // 2
    assert any("reveals the secret goals" in m for m in aloud[-3:])
    # The journal has every step: sealed while the game went on, revealed at its end (docs/journal.md).
    assert load_journal(j.path).steps == made
    with pytest.raises(ValueError):
        t.session.enter_private("beads=1w")  # the game is over: nothing secret is due
