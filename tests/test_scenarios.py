"""The product at a simulated table: hands act on a board, a reader watches, the referee judges,
the journal records, the LEDs answer.

Every outcome runs through BOTH readers a real board can have: the simulated camera read by the
real vision code (``camera``: the scene is drawn, photographed with a fixed seeded pose, then
calibrated and read exactly as on the Pi) and a reed-switch grid that sees only occupancy
(``occupancy``). Scenarios are written in the little action language of ``arbiter.sim.scenario``.

Games: Nine Men's Morris and Morabaraba (mills and removals), Tapatan (a 3x3 game: a line wins)
and Brain Hanky (string moves, blocked crossings, gem captures and extra turns, two moves of a
turn at once). The crash test at the end kills ``arbiter play`` with SIGKILL at seeded moments
and resumes it, and the game must come out as an uninterrupted one.

Camera frames cost ~0.1 s each (0.25 s for the Brain Hanky cloth), so scenarios start from
positions reached by journal-style history rather than placing every piece, and frames are
cached per position across tests.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path

import pytest

import engine
import engine.protocol
from arbiter import referee as R
from arbiter.clocks import Clock
from arbiter.journal import Journal, load_journal
from arbiter.sim.physical import PhysicalBoard
from arbiter.sim.scenario import Player, ScenarioError, Table, parse
from arbiter.session import FrameSink
from engine.boards import brain_hanky_board
from engine.core import Piece
from hardware.signals import (
    ClockWarning,
    Fixed,
    GameOver,
    GemToTake,
    Guidance,
    IllegalChange,
    Removable,
    StepAccepted,
    Turn,
)

ROOT = Path(__file__).resolve().parent.parent
READERS = ("camera", "occupancy")
MILLS = ("nine-mens-morris", "morabaraba")
HTJB = MILLS + ("tapatan",)
W, B = Piece(1, "man"), Piece(2, "man")


# ============================================================================ helpers
def table(game, reader, tmp_path=None, *, journal=True, **kw) -> Table:
    """A game at the table; journalled (in tmp_path) unless the start is a hand-set position."""
    g = engine.load(game) if isinstance(game, str) else game
    j = None
    if journal and tmp_path is not None:
        j = Journal.new(g.name, g.options, directory=tmp_path, reader="colour" if reader == "camera" else "occupancy")
        for step in kw.get("history", ()):
            j.append_step(step)
    return Table(g, reader, journal=j, pixels=FrameSink(_layout_count(g)), **kw)


def _layout_count(g) -> int:
    from hardware.layout import load_map, spots_for

    return load_map(None, spots_for(g)).count


def kinds(log) -> list[str]:
    """What was announced, leaving out the start and boards judged unchanged (said to nobody)."""
    return [a.kind for a in log if a.kind not in ("start", "unchanged")]


def events(log, kind=None) -> list:
    out = [e for a in log for e in a.events]
    return [e for e in out if kind is None or isinstance(e, kind)]


def verdicts(log, kind) -> list:
    return [a.verdict for a in log if a.verdict is not None and a.verdict.kind == kind]


def journal_events(t: Table) -> list[tuple]:
    c = load_journal(t.session.journal.path)
    return [(e["event"], e.get("step", e.get("n"))) for e in c.events]


# ============================================================================ the scenario language
def test_the_scenario_language_reads_like_what_players_do():
    actions = parse("""
        put d1 white          # a man from beside the board
        quick move d1 d2; slide slowly a1 a4 a7
        hand 1.5
        press confirm
    """)
    assert [a.verb for a in actions] == ["put", "move", "slide", "hand", "press"]
    assert actions[1].quick and actions[2].slowly and actions[2].args == ("a1", "a4", "a7")
    with pytest.raises(ScenarioError, match="line 1: 'jump' is not an action"):
        parse("jump a1 a7")


def test_the_board_refuses_what_no_hand_can_do():
    t = table("nine-mens-morris", "occupancy")
    with pytest.raises(ScenarioError, match="no piece on d1 to lift"):
        t.run("lift d1")
    t.run("put d1 white")
    with pytest.raises(ScenarioError, match="already holds a white man"):
        t.run("put d1 black")
    with pytest.raises(ScenarioError, match="not a point"):
        t.run("put z9 black")


# ============================================================================ mill family and 3x3
@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("game", HTJB)
def test_a_legal_placement_is_journalled_before_it_is_lit(game, reader, tmp_path):
    t = table(game, reader, tmp_path)
    on_disk_when_lit = []
    handle = t.session.signals.handle

    def spy(event, at):  # what the journal file holds at the instant the LEDs hear of the step
        if isinstance(event, StepAccepted) and event.points:
            on_disk_when_lit.append(load_journal(t.session.journal.path).steps)
        handle(event, at)

    t.session.signals.handle = spy
    log = t.run("put d1 white")
    assert kinds(log) == ["step"]
    assert events(log, StepAccepted) == [StepAccepted(("d1",))] and Turn(2) in events(log)
    assert on_disk_when_lit == [["d1"]], "the step was on disk before the LEDs showed it"
    assert "White put a piece on d1. Black to play." in log[0].message
    assert t.session.pixels.frame != [(0, 0, 0)] * t.session.pixels.count


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("game", HTJB)
def test_a_piece_slid_slowly_on_is_corrected_at_every_point_it_rests(game, reader, tmp_path):
    t = table(game, reader, tmp_path)
    log = t.run("put d1 white; slide slowly d1 d4 d7" if game == "tapatan" else "put d1 white; slide slowly d1 d2 d3")
    last = "d7" if game == "tapatan" else "d3"
    assert kinds(log) == ["step", "correction", "correction"]
    assert "Got it, you meant: White put a piece on" in log[-1].message
    assert [str(s) for s in t.session.history] == [last]
    assert journal_events(t) == [("step", "d1"), ("correction", "d4" if game == "tapatan" else "d2"),
                                 ("correction", last)]
    assert Fixed() in events(log[1:])


@pytest.mark.parametrize("reader", READERS)
def test_a_quick_slide_is_read_only_where_it_stops(reader, tmp_path):
    t = table("nine-mens-morris", reader, tmp_path)
    log = t.run("put d1 white; slide d1 d2 d3")
    assert kinds(log) == ["step", "correction"], "d2 was passed, never read at rest"
    assert journal_events(t) == [("step", "d1"), ("correction", "d3")]


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("game", HTJB)
def test_a_takeback_is_confirmed_with_the_button(game, reader, tmp_path):
    t = table(game, reader, tmp_path, history=("d1",))
    log = t.run("put d7 black; take d7")
    assert kinds(log) == ["step", "takeback-pending"]
    assert "Take back one step?" in log[-1].message and "Press the button" in log[-1].message
    assert t.session.history == ("d1",) + ("d7",), "nothing is taken back before the button"
    log = t.run("press confirm")
    assert kinds(log) == ["takeback"] and Turn(2) in events(log)
    assert [str(s) for s in t.session.history] == ["d1"]
    assert journal_events(t)[-2:] == [("step", "d7"), ("takeback", 1)]
    log = t.run("put g7 black")
    assert kinds(log) == ["step"] and load_journal(t.session.journal.path).steps == ["d1", "g7"]


def test_a_takeback_is_also_confirmed_by_holding_the_board_still(tmp_path):
    t = table("nine-mens-morris", "occupancy", tmp_path, history=("d1", "d7"))
    log = t.run("take d7; wait 2.5")
    assert kinds(log) == ["takeback-pending", "takeback"]


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("game", HTJB)
def test_an_illegal_change_is_caught_then_put_back(game, reader, tmp_path):
    t = table(game, reader, tmp_path, history=("d1", "a7"))
    log = t.run("move d1 a1")  # a man moved while men are still being placed
    assert kinds(log) == ["illegal"]
    assert events(log, IllegalChange) == [IllegalChange(("a1", "d1"))] or \
        set(events(log, IllegalChange)[0].points) == {"a1", "d1"}
    assert "must place one" in log[0].message
    assert t.session.signals.status_colours(t.time.t).get("error") is not None
    log = t.run("move a1 d1")
    assert kinds(log) == ["restored"] and Fixed() in events(log)
    assert t.session.signals.state.illegal == ()
    log = t.run("put a1 white")
    assert kinds(log) == ["step"]
    assert load_journal(t.session.journal.path).steps == ["d1", "a7", "a1"], "nothing illegal was journalled"


def test_a_piece_out_of_turn_is_seen_by_the_camera_but_not_by_a_reed_grid(tmp_path):
    cam = table("nine-mens-morris", "camera", tmp_path / "c", history=("d1",))
    log = cam.run("put a1 white")  # black is to move
    assert kinds(log) == ["illegal"] and "it is black's turn, not white's" in log[0].message
    grid = table("nine-mens-morris", "occupancy", tmp_path / "o", history=("d1",))
    log = grid.run("put a1 white")
    assert kinds(log) == ["step"], "a reed grid sees a piece, not its colour (docs/play.md)"


@pytest.mark.parametrize("reader", READERS)
def test_a_knocked_piece_is_asked_back(reader, tmp_path):
    t = table("morabaraba", reader, tmp_path, history=("d1", "a7", "g1"))
    log = t.run("knock d1")
    assert kinds(log) == ["illegal"] and set(events(log, IllegalChange)[0].points) == {"d1"}
    log = t.run("put d1 white")
    assert kinds(log) == ["restored"]


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("game", HTJB)
def test_two_quick_placements_are_ambiguous_only_to_occupancy(game, reader, tmp_path):
    t = table(game, reader, tmp_path)
    log = t.run("quick put d1 white; put d7 black")
    if reader == "camera":
        assert kinds(log) == ["steps"] and [str(s) for s in t.session.history] == ["d1", "d7"]
        return
    # White on d1 and black on d7, or white on d7 and black on d1: a reed grid cannot tell.
    assert kinds(log) == ["ambiguous"]
    v = log[0].verdict
    assert set(v.candidates) == {("d1", "d7"), ("d7", "d1")}
    assert "Is it 1 of 2" in log[0].message and "menu" in log[0].message
    first = tuple(map(str, v.candidates[0]))
    want = ("d1", "d7")
    presses = "press confirm" if first == want else "press menu; press confirm"
    log = t.run(presses)
    assert kinds(log)[-1] == "steps" and [str(s) for s in t.session.history] == ["d1", "d7"]
    assert load_journal(t.session.journal.path).steps == ["d1", "d7"]


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("game", MILLS)
def test_a_mill_waits_for_the_removal_as_long_as_it_takes(game, reader, tmp_path):
    t = table(game, reader, tmp_path, history=("a1", "a7", "d1", "g7"))
    log = t.run("put g1 white")
    assert kinds(log) == ["waiting-removal"] and "White made a mill! Take one black piece off." in log[0].message
    assert set(events(log, Removable)[-1].points) == {"a7", "g7"}
    log = t.run("wait 5")
    assert kinds(log) == [] and t.session.state.phase == "removal", "no hurry: it waits"
    log = t.run("take a1")  # white takes its own man: not allowed
    assert kinds(log) == ["illegal"] and "not your own" in log[0].message
    log = t.run("put a1 white; take g7")
    assert kinds(log) == ["restored", "step"] and "took the black piece off g7" in log[-1].message
    assert t.session.signals.state.removable == ()
    assert load_journal(t.session.journal.path).steps[-2:] == ["g1", "xg7"]


@pytest.mark.parametrize("reader", READERS)
def test_a_line_wins_the_3x3_game_and_the_lights_say_so(reader, tmp_path):
    t = table("tapatan", reader, tmp_path, history=("a1", "a7", "d1", "g7"))
    log = t.run("put g1 white")
    assert kinds(log) == ["over"] and t.session.over
    assert GameOver(1) in events(log) and "White wins" in log[0].message
    assert load_journal(t.session.journal.path).steps[-1] == "g1"


def test_a_hand_over_the_board_is_waited_out_by_the_camera(tmp_path):
    t = table("nine-mens-morris", "camera", tmp_path)
    log = t.run("hand on; put d1 white; wait 1; hand off")
    assert kinds(log) == ["unseen", "seen", "step"], "nothing is judged while the hand is there"
    assert "(a hand or arm?)" in log[0].message


def test_a_reed_grid_does_not_see_hands_at_all(tmp_path):
    t = table("nine-mens-morris", "occupancy", tmp_path)
    log = t.run("hand on; put d1 white; hand off")
    assert kinds(log) == ["step"]


def test_a_bumped_camera_finds_the_board_again_by_its_markers(tmp_path):
    t = table("nine-mens-morris", "camera", tmp_path, history=("d1",))
    before = t.reader.image().copy()
    log = t.run("bump")
    assert kinds(log) == [], "the same board from a new angle is no change"
    assert (t.reader.image() != before).mean() > 0.2, "the camera really moved"
    log = t.run("put d7 black")
    assert kinds(log) == ["step"]


@pytest.mark.parametrize("reader", READERS)
def test_a_resumed_game_guides_the_players_to_set_the_board_right(reader, tmp_path):
    g = engine.load("nine-mens-morris")
    history = ("d1", "d7", "a1")
    # The board as found after the crash: d7 knocked off, a stray man on g4.
    board = PhysicalBoard(g, {"d1": W, "a1": W, "g4": B})
    t = table(g, reader, tmp_path, history=history, board=board, resumed=True, start=True)
    log = t.run("wait 0.6")
    assert kinds(log) == ["guidance"]
    assert events(log, Guidance) == [Guidance(put=("d7",), take=("g4",))]
    assert "put a piece on d7" in log[0].message.lower() and "take the piece off g4" in log[0].message.lower()
    log = t.run("take g4; put d7 black")
    assert kinds(log)[-1] == "resumed" and Fixed() in events(log)
    assert "matches the saved game" in log[-1].message
    assert t.run("put g1 black")[-1].kind == "step"


def test_a_step_made_while_arbiter_was_down_is_accepted_on_resume(tmp_path):
    g = engine.load("nine-mens-morris")
    board = PhysicalBoard(g, {"d1": W, "d7": B})
    t = table(g, "occupancy", tmp_path, history=("d1",), board=board, resumed=True)
    log = t.run("wait 0.6")
    assert kinds(log) == ["step"] and log[0].message.startswith("A step was made while I was away")


def test_a_flag_ends_the_game_on_time_and_is_journalled(tmp_path):
    t = table("nine-mens-morris", "occupancy", tmp_path, clock=Clock("30s"))
    log = t.run("put d1 white; wait 5")
    assert events(log, ClockWarning) == [], "black has 30 s, more than the 10 s warning"
    log = t.run("wait 15")
    assert [e.player for e in events(log, ClockWarning)] == [2]
    log = t.run("wait 10")
    assert kinds(log)[-1] == "over" and GameOver(1) in events(log)
    c = load_journal(t.session.journal.path)
    assert c.ended["winner"] == 1 and "ran out of time" in c.ended["reason"]


def test_a_reader_that_fails_now_and_then_does_not_end_the_game(tmp_path):
    t = table("tapatan", "occupancy", tmp_path)
    real = t.reader.read
    calls = {"n": 0}

    def flaky():
        calls["n"] += 1
        if calls["n"] % 4 == 0:
            raise OSError("sensor bus glitch")
        return real()

    t.session.reader.read = flaky
    log = t.run("put d4 white")
    assert "error" in kinds(log) and "sensor bus glitch" in next(a for a in log if a.kind == "error").message
    assert kinds(log)[-1] == "step" and t.session.history == ("d4",)


def test_a_journal_that_cannot_be_written_means_nothing_is_announced(tmp_path):
    t = table("tapatan", "occupancy", tmp_path)
    t.session.journal.close()  # the USB stick pulled out: the file is gone with it
    t.session.journal.path.rename(tmp_path / "elsewhere")
    log = t.run("put d4 white")
    assert "error" in kinds(log) and not events(log, StepAccepted)
    assert t.session.history == (), "the referee was rebuilt from the journal"


# ============================================================================ Brain Hanky
PLAIN = brain_hanky_board(6, False)
HANKY = engine.load("brain-hanky")
Y = 2
FAR2 = {"Oa6": 1, "Of1": 2}
STRING = {"Oc3.w": 1, "Oc3.n": Y, "Oc3.e": 1, "Oc3.s": Y, "Od3.w": 1}
NORTH = "Oc3.w-Oc3.n-Oc3.e-Od3.w-Od3.n"
SOUTH = "Oc3.w-Oc3.s-Oc3.e-Od3.w-Od3.n"
(BLUE_A, BLUE_B), = PLAIN.crossing[("Oc3.e", "Od3.w")]


def hanky(reader, rings, gems=None, to_move=1) -> Table:
    state = HANKY.rules.setup(rings=rings, gems={**FAR2, **(gems or {})}, to_move=to_move)
    return table(HANKY, reader, state=state, journal=False)


@pytest.mark.parametrize("reader", READERS)
def test_hanky_a_string_move_needs_colour_to_be_read(reader):
    t = hanky(reader, STRING)
    log = t.run("push " + NORTH.replace("-", " "))
    if reader == "camera":
        assert kinds(log) == ["step"] and t.session.history == (NORTH,)
        assert "pushed 4 rings from Oc3.w to Od3.n" in log[0].message
        return
    # The grid sees Oc3.w emptied and Od3.n filled; by the north or the south of Oc3 the rings
    # end up in different colours, which it cannot see. The players answer with the buttons.
    assert kinds(log) == ["ambiguous"] and set(log[0].verdict.candidates) == {(NORTH,), (SOUTH,)}
    Player(t).turn()  # they press menu until their move is offered, then confirm
    assert kinds(t.session.log)[-1] == "step" and t.session.history in ((NORTH,), (SOUTH,))


@pytest.mark.parametrize("reader", READERS)
def test_hanky_a_blocked_crossing_attempted_is_illegal_then_put_back(reader):
    t = hanky(reader, {"Oc3.e": 1, BLUE_A: Y, BLUE_B: Y})
    log = t.run("move Oc3.e Od3.w")
    assert kinds(log) == ["illegal"] and "BH-4" in log[0].verdict.reason
    assert set(events(log, IllegalChange)[0].points) == {"Oc3.e", "Od3.w"}
    log = t.run("move Od3.w Oc3.e")
    assert kinds(log) == ["restored"]


def bc3_capture_rings():
    pts = PLAIN.squares["Bc3"].points
    return {pts["e"]: 1, pts["w"]: 1, pts["s"]: 1, "Bc4.s": 1, "Oa3.n": Y, "Of4.n": Y, "Oc3.n": 1}


@pytest.mark.parametrize("reader", READERS)
def test_hanky_a_gem_capture_waits_for_the_gem_and_earns_an_extra_turn(reader):
    t = hanky(reader, bc3_capture_rings(), gems={"Bc3": Y})
    log = t.run("push Bc4.s Bc3.n")
    assert kinds(log) == ["waiting-removal"] and "captured the gold gem on Bc3" in log[0].message
    assert events(log, GemToTake)[-1] == GemToTake(("Bc3",))
    log = t.run("take Bc3")
    assert kinds(log) == []
    assert t.session.signals.state.gems == ()
    log = t.run("move Oc3.n Oc3.e")  # the turn's second move
    assert kinds(log) == ["step"] and t.session.state.to_move == 1, "a capturing turn earns another (BH-6)"
    assert t.run("move Oc3.e Oc3.s")[-1].kind == "step"


TWO_RINGS = {"Oc3.n": 1, "Oe2.n": 1, "Od5.e": Y}


@pytest.mark.parametrize("reader", READERS)
def test_hanky_the_last_move_of_a_turn_moved_on_is_a_correction(reader):
    t = hanky(reader, TWO_RINGS)
    log = t.run("move Oe2.n Oe2.w; move Oc3.n Oc3.e")
    assert kinds(log) == ["step", "step"] and t.session.state.to_move == 2
    log = t.run("move Oc3.e Oc4.s")  # before yellow moves: "no, there"
    assert kinds(log) == ["correction"] and log[0].verdict.undone == ("Oc3.n-Oc3.e",)
    assert t.session.history == ("Oe2.n-Oe2.w", "Oc3.n-Oc4.s")


def test_hanky_refereed_through_the_learned_reader_at_the_simulated_table():
    """Brain Hanky at the simulated table, read by the learned reader (the spot network beside
    the pixel colours, calibrated on the full layout). The network's hand sense calls the
    simulator's flat cloth foreign everywhere (it never saw such a table): calibration measures
    that on its own pictures and raises its level for this table (``piece_book.foreign_level``),
    so frames are read; a string move is told by its rings' colours, and a blocked crossing
    attempted is called illegal and put back. Before the level, every frame was refused as
    "something unexpected"."""
    from vision.learned_reader import LearnedReader

    def learned(rings) -> Table:
        state = HANKY.rules.setup(rings=rings, gems=FAR2, to_move=1)
        return Table(HANKY, "camera", state=state, journal=None, pixels=FrameSink(_layout_count(HANKY)),
                     camera={"classifier": "learned"})

    t = learned(STRING)
    assert isinstance(t.reader.reader, LearnedReader)
    assert t.reader.calibration.book.foreign_level > 0
    log = t.run("push " + NORTH.replace("-", " "))
    assert kinds(log) == ["step"] and t.session.history == (NORTH,), [e.message for e in log]
    assert "pushed 4 rings from Oc3.w to Od3.n" in log[0].message
    t = learned({"Oc3.e": 1, BLUE_A: Y, BLUE_B: Y})
    log = t.run("move Oc3.e Od3.w")
    assert kinds(log) == ["illegal"] and "BH-4" in log[0].verdict.reason
    assert kinds(t.run("move Od3.w Oc3.e")) == ["restored"]


@pytest.mark.parametrize("reader", READERS)
def test_hanky_a_whole_turn_taken_back_with_the_button(reader):
    t = hanky(reader, TWO_RINGS)
    t.run("move Oe2.n Oe2.w; move Oc3.n Oc3.e")
    log = t.run("quick move Oc3.e Oc3.n; move Oe2.w Oe2.n")
    assert kinds(log) == ["takeback-pending"] and "Take back 2 steps?" in log[0].message
    log = t.run("press confirm")
    assert kinds(log) == ["takeback"] and t.session.history == () and t.session.state.to_move == 1


@pytest.mark.parametrize("reader", READERS)
def test_hanky_both_moves_of_a_turn_at_once(reader):
    t = hanky(reader, TWO_RINGS)
    log = t.run("quick move Oc3.n Oc3.e; move Oe2.n Oe2.w")
    assert kinds(log) == ["steps"] and set(t.session.history) == {"Oc3.n-Oc3.e", "Oe2.n-Oe2.w"}
    assert t.session.state.to_move == 2 and Turn(2) in events(log)


# ---------------------------------------------------------------------------- the move chooser
def chooser_table(tmp_path, draws, rng_seed=5) -> Table:
    """Brain Hanky's two gems apart, played with the move chooser: arbiter draws k per turn."""
    g = engine.load("brain-hanky", move_chooser=True)
    state = g.rules.setup(rings=TWO_RINGS, gems=FAR2, draws=engine.protocol.Draws(draws, random.Random(rng_seed)))
    return Table(g, "camera", state=state, pixels=FrameSink(_layout_count(g)), journal=None)


def test_the_move_chooser_draw_is_said_and_counted_on_the_turn_pixel(tmp_path):
    t = chooser_table(tmp_path, [3, 1])
    start = t.session.log[0]
    assert "The move chooser gives White 3 moves this turn." in start.message
    from hardware.signals import MovesLeft
    assert MovesLeft(3) in start.events
    log = t.run("move Oe2.n Oe2.w")
    assert "White: 2 more moves." in log[-1].message and MovesLeft(2) in events(log)
    log = t.run("move Oc3.n Oc3.e; move Oe2.w Oe2.s")
    assert "The move chooser gives Yellow 1 move this turn." in log[-1].message
    assert t.session.state.to_move == 2 and MovesLeft(1) in events(log)
    # the turn pixel counts: one dark blink, then lit through the rest of the cycle
    sp = t.session.signals
    t0 = sp.state.moves[1]
    turn = sp.layout.status["turn"][0]
    assert sp.frame(t0 + 0.3)[turn] == (0, 0, 0) and sp.frame(t0 + 0.1)[turn] != (0, 0, 0)
    assert sp.frame(t0 + 1.0)[turn] != (0, 0, 0)


def test_play_with_the_move_chooser_journals_the_draws_and_resumes_them(tmp_path):
    env = {**os.environ, "ARBITER_JOURNAL_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "arbiter.cli", "play", "brain-hanky-battle-lines",
                          "--move-chooser", "--reader", "sim", "--seed", "4", "--speed", "0",
                          "--leds", "png", "--leds-out", str(tmp_path / "leds.png"),
                          "--script", str(_battle_script(tmp_path))],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "The move chooser gives White" in run.stdout
    journal = next(tmp_path.glob("*.jsonl"))
    c = load_journal(journal)
    assert len(c.steps) == 6 and c.chooser and all(k in (1, 2, 3) for k in c.chooser)
    from arbiter.journal import resume
    again = resume(journal, rng=random.Random(99))
    state = engine.load("brain-hanky-battle-lines", move_chooser=True).new(draws=c.chooser + [1] * 20)
    for step in c.steps:
        state = state.play(step)
    assert again.state.draws() == state.draws() and again.state.to_move == state.to_move
    again.journal.close()


def _battle_script(tmp_path) -> Path:
    """Six random legal steps of Battle Lines with the draws --seed 4 gives (a record)."""
    g = engine.load("brain-hanky-battle-lines", move_chooser=True)
    rng = random.Random(4)
    state = g.new(draws=engine.protocol.Draws([], rng))
    pick = random.Random(1)
    steps = []
    for _ in range(6):
        step = state.random_step(pick)
        steps.append(str(step))
        state = state.play(step)
    path = tmp_path / "battle.json"
    path.write_text(json.dumps({"game": g.name, "options": {"move_chooser": True}, "steps": steps,
                                "chooser": state.draws()}))
    return path


# ============================================================================ arbiter play
def _play(args, env, **kw):
    return subprocess.Popen([sys.executable, "-m", "arbiter.cli", "play", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kw)


def _env(folder: Path) -> dict:
    env = dict(os.environ, ARBITER_JOURNAL_DIR=str(folder), PYTHONPATH=str(ROOT), COLUMNS="100")
    return env


def test_play_plays_a_simulated_game_to_the_end(tmp_path):
    p = _play(["tapatan", "--reader", "sim-occupancy", "--seed", "4"], _env(tmp_path))
    out = p.communicate(timeout=60)[0].decode()
    assert p.returncode == 0, out
    assert "Game over" in out and "The journal:" in out
    (journal,) = tmp_path.glob("*.jsonl")
    assert load_journal(journal).steps


def test_play_with_a_camera_needs_a_calibration(tmp_path):
    p = _play(["nine-mens-morris", "--calibration", str(tmp_path / "none.json")], _env(tmp_path))
    out = p.communicate(timeout=60)[0].decode()
    assert p.returncode == 2 and "calibrate the camera first" in out
    assert not list(tmp_path.glob("*.jsonl")), "a refused start leaves no empty game for --resume to find"


def test_a_game_killed_at_random_moments_resumes_to_the_same_game(tmp_path):
    """SIGKILL at seeded moments (after a seeded number of journal lines, plus a seeded pause, so
    kills land between steps, between a piece's lift and put, and mid-write), resume after each;
    the journal and the exported record equal those of a run that was never interrupted."""
    record = json.loads(resources.files("arbiter").joinpath("data/demo-nine-mens-morris.json").read_text())
    script = tmp_path / "game.json"
    script.write_text(json.dumps(record))
    args = ["nine-mens-morris", "--reader", "sim-occupancy", "--script", str(script), "--leds", "terminal",
            "--speed", "40"]
    calm, crashed = tmp_path / "calm", tmp_path / "crashed"
    p = _play(args, _env(calm))
    assert p.wait(timeout=120) == 0, p.stdout.read().decode()

    rng = random.Random(6)
    total = len(record["steps"])
    kills = sorted(rng.sample(range(2, total - 2), 5))
    resume = False
    for k in kills:
        p = _play(args + (["--resume"] if resume else []), _env(crashed))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and p.poll() is None:
            found = list(crashed.glob("*.jsonl"))
            if found and found[0].read_bytes().count(b"\n") > k:
                time.sleep(rng.uniform(0, 0.03))
                break
            time.sleep(0.002)
        assert p.poll() is None, "the game ended before it could be killed"
        p.send_signal(signal.SIGKILL)
        p.wait()
        resume = True
    p = _play(args + ["--resume"], _env(crashed))
    out = p.communicate(timeout=120)[0].decode()
    assert p.returncode == 0, out
    assert "Game over: player 2 wins" in out

    (a,), (b,) = calm.glob("*.jsonl"), crashed.glob("*.jsonl")
    ja, jb = load_journal(a), load_journal(b)
    assert jb.steps == ja.steps == record["steps"]
    assert [(e["event"], e.get("step")) for e in jb.events] == [(e["event"], e.get("step")) for e in ja.events]
    for src, out_name in ((a, "calm.json"), (b, "crashed.json")):
        e = subprocess.run([sys.executable, "-m", "arbiter.cli", "export", str(src), "--out", str(tmp_path / out_name)],
                           cwd=ROOT, env=_env(tmp_path), capture_output=True, check=False)
        assert e.returncode == 0, e.stderr
    assert json.loads((tmp_path / "calm.json").read_text()) == json.loads((tmp_path / "crashed.json").read_text())


# ============================================================================ what a reed grid can referee
HANKY_FAMILY = tuple(n for n in engine.names() if n.startswith("brain-hanky"))
# Stacks and Tableaux's chips: a grid cannot tell a chip put on a stack, nor how many came off one.
UNDER_STACKS = ("stack", "tableaux")
# Brainmaster's guesses differ only in their pegs' colours, and its code is given privately, never
# made on the board: a grid cannot referee it (tests/test_brainmaster_table.py, with colours).
NEEDS_COLOUR = tuple(n for n in engine.names() if engine.spec(n).family == "brainmaster")


@pytest.mark.parametrize("game", [n for n in engine.names() if n not in HANKY_FAMILY + UNDER_STACKS + NEEDS_COLOUR])
def test_a_reed_grid_referees_every_mill_family_game_played_one_step_at_a_time(game):
    """Whose turn it is says whose piece went down, and a removal shows which piece went: for
    the mill family occupancy is enough, as long as players move one at a time (docs/play.md).
    A capturing jump's victim is lifted after the jump, as the lights ask."""
    t = table(game, "occupancy", journal=False)
    made = []
    Player(t, rng=random.Random(3), on_act=made.append).play(max_steps=40)
    assert "ambiguous" not in kinds(t.session.log) and "illegal" not in kinds(t.session.log)
    assert [str(s) for s in t.session.history] == made, "every step made was read as that step"
    lifted = sum(1 for a in t.session.log if a.verdict is not None and a.verdict.to_remove
                 and t.session.state.phase != "removal" and a.kind == "waiting-removal")
    assert t.session.over or len(made) + lifted >= 40, "the players never got stuck"


@pytest.mark.parametrize("game, options", [("stack", {}), ("tableaux", {"advanced": True})])
def test_a_reed_grid_referees_stacked_games_with_the_buttons_for_what_it_cannot_feel(game, options):
    """A chip put on a stack, or taken off one, changes nothing a grid feels: the players say
    those steps with the menu and confirm buttons; where several readings fit, they pick one."""
    t = table(engine.load(game, **options), "occupancy", journal=False)
    made = []
    Player(t, rng=random.Random(3), on_act=made.append).play(max_steps=40)
    assert "illegal" not in kinds(t.session.log)
    said = [a for a in t.session.log if a.kind == "offer"]
    assert said, "some steps had to be said with the buttons"
    assert [s.split(":")[0] for s in map(str, t.session.history)] == made[:len(t.session.history)]


def test_a_reed_grid_cannot_follow_brain_hanky_string_moves_alone():
    """A string move recolours rings; a grid sees only its two ends. Played by random players,
    Brain Hanky keeps stopping to ask which move it was (docs/play.md)."""
    t = table("brain-hanky", "occupancy", journal=False)
    Player(t, rng=random.Random(2)).play(max_steps=60)
    asked = verdicts(t.session.log, R.AMBIGUOUS)
    assert len(asked) >= 3 and all(len(c) == 1 and len(c[0].path) > 2 for v in asked for c in v.candidates)
