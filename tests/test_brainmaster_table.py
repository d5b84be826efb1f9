"""Brainmaster refereed at the simulated table (arbiter.sim.scenario), read by a perfect colour reader.

These games are watched by ``arbiter.sim.readers.SimReader`` in colour: what a camera that reads
pegs without fault reports, so the referee's side is tested apart from the camera's (the simulated
camera and the real reader referee Brainmaster in tests/test_scenarios_pegs.py). The code is given the way a private page would give
it, straight to the referee (``Referee.enter``): the session has no private channel of its own
yet. Everything else is the real session and referee, judging boards the players make peg by peg.
"""

import engine
from arbiter.session import Session
from arbiter.sim.readers import SimReader
from arbiter.sim.scenario import Action, Table, step_actions


class _Watch:
    """The physical board as a reader's board to read (``SimReader`` reads ``position()``)."""

    def __init__(self, physical):
        self.physical = physical

    def position(self):
        return dict(self.physical.position)


def colour_table(game) -> Table:
    g = engine.load(game) if isinstance(game, str) else game
    t = Table(g, "occupancy", start=False)
    reader = SimReader(g, "colour", board=_Watch(t.board))
    reader.frame_s = t.frame_s
    t.reader = reader
    t.session = Session(g, reader, buttons=t.buttons, now=t.time)
    t.session.start()
    return t


def test_a_code_refereed_peg_by_peg_with_a_miscount_named_and_put_right():
    t = colour_table("brainmaster")
    assert t.session.menu_items() == []  # the code is never offered to be said aloud
    t.session.referee.enter("code=RBGY")  # from the maker's private page
    assert t.session.state.stage == "guess"

    t.put_all(("r1a", "red"))
    assert t.said() == ("in-progress", "Finish the guess in row 1.")
    t.put_all(("r1b", "red"), ("r1c", "blue"), ("r1d", "orange"))
    assert t.said()[0] == "step" and t.session.history[-1] == "1:RRBO"

    t.put_all(("r1k1", "black"))
    assert t.said() == ("in-progress", "Finish row 1's indicator pegs.")
    t.put_all(("r1k2", "black"))  # RRBO against RBGY earns 1 black and 1 white
    kind, words = t.said()
    assert kind == "illegal" and "row 1's indicator pegs are wrong: 2 black given" in words
    assert "1 black and 1 white" in words

    t.do(Action("lift", ("r1k2",)))
    t.do(Action("lift", ("r1k1",)))
    t.put_all(("r1k1", "white"), ("r1k2", "black"))
    kind, words = t.said()
    assert kind == "illegal" and "black pegs first" in words
    t.do(Action("lift", ("r1k2",)))
    t.do(Action("lift", ("r1k1",)))
    t.put_all(("r1k1", "black"), ("r1k2", "white"))
    assert t.said()[0] == "step" and t.session.history[-1] == "1:1b1w"

    t.put_all(("r3a", "red"))
    kind, words = t.said()
    assert kind == "illegal" and "the next guess goes in row 2" in words
    t.do(Action("lift", ("r3a",)))
    t.settle()

    for action in step_actions(t.session.state, "2:RBGY"):
        t.do(action)
    t.settle()
    for action in step_actions(t.session.state, "2:4b0w"):
        t.do(action)
    t.settle()
    st = t.session.state
    assert st.stage == "code-over" and st.revealed == ("RBGY",)
    assert "cracked" in t.said()[1] and "RBGY" in t.said()[1]

    for spot in ("r1a", "r1b", "r1c"):
        t.do(Action("lift", (spot,)))
    t.settle()
    assert t.said() == ("in-progress", "Clear the board for the next code.")
    for spot in sorted(t.board.position):
        t.do(Action("lift", (spot,)))
    t.settle()
    st = t.session.state
    assert st.stage == "code" and st.private_to == 2 and t.session.history[-1] == "next-code"
    assert t.session.menu_items() == []


def test_a_whole_round_at_the_table_is_scored_and_no_code_is_said_before_it_is_cracked():
    t = colour_table("brainmaster")
    t.session.referee.enter("code=GGYY")
    for text in ("1:RRBB", "1:0b0w", "2:GGYY", "2:4b0w", "next-code"):
        acts = step_actions(t.session.state, text)
        if not acts:  # no pegs to put (no indicator pegs): said with the buttons
            t.session.referee.enter(text)
            continue
        for action in acts:
            t.do(action)
        t.settle()
        if text == "next-code":
            for spot in sorted(t.board.position):
                t.do(Action("lift", (spot,)))
            t.settle()
        assert t.session.history[-1] == text, (text, t.said())
    t.session.referee.enter("code=OROR")
    for text in ("1:OROR", "1:4b0w"):
        for action in step_actions(t.session.state, text):
            t.do(action)
        t.settle()
    st = t.session.state
    assert st.result is not None and st.scores == (1, 0)  # player 1 cracked in 1 row, player 2 in 2
    assert [str(s) for s in t.session.history][0] == "code=GGYY"
    said_aloud = [a.message for a in t.session.log]
    assert not any("code=" in m for m in said_aloud)
    guessed = next(i for i, m in enumerate(said_aloud) if "2:GGYY" in m)
    assert not any("GGYY" in m for m in said_aloud[:guessed])  # nobody heard the code before the guess
