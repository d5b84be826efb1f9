"""The rest of the HTJB rulebook refereed at the simulated table, through the simulated camera and
the real vision code: one game of each group, each with a mistake caught and put right.

Saba's Kuruka form (a chain of capturing jumps, its victims lifted after), a Vyura game, Kunjing
with four players, Stack (a stack confiscated), Tableaux's Advanced Play (the chip count and
draw size said with the buttons) and team play (partners sharing a colour, turns by seat).
"""

from __future__ import annotations

import pytest

import engine
from arbiter import referee as R
from arbiter.journal import Journal, load_journal
from arbiter.sim.scenario import Player, Table
from arbiter.session import FrameSink
from engine.core import Piece
from hardware.layout import load_map, spots_for
from hardware.signals import IllegalChange, Removable, Turn


def table(game, tmp_path, reader="camera", **kw) -> Table:
    g = engine.load(game) if isinstance(game, str) else game
    j = Journal.new(g.name, g.options, directory=tmp_path, reader="colour" if reader == "camera" else "occupancy")
    for step in kw.get("history", ()):
        j.append_step(step)
    return Table(g, reader, journal=j, pixels=FrameSink(load_map(None, spots_for(g)).count), **kw)


def kinds(log) -> list[str]:
    return [a.kind for a in log if a.kind not in ("start", "unchanged")]


def events(log, kind) -> list:
    return [e for a in log for e in a.events if isinstance(e, kind)]


def journalled(t: Table) -> list[str]:
    return load_journal(t.session.journal.path).steps


# A Kuruka Saba game where white's man on g4 can jump f4 and then b6 in one move (g4*d4*a7).
SABA_OPENING = ["a4", "f2", "d1", "b6", "b2", "f4", "g4", "g1", "g7", "a1", "f6", "b4", "d2", "d7"]


def test_kuruka_saba_a_chain_of_captures_its_victims_lifted_after_and_a_wrong_man_put_back(tmp_path):
    t = table("kuruka-saba", tmp_path, history=SABA_OPENING)
    log = t.run("move g4 a7")  # over f4 to d4, over b6 to a7: one move
    assert kinds(log) == ["waiting-removal"] and t.session.history[-1] == "g4*d4*a7"
    assert set(log[-1].verdict.to_remove) == {"f4", "b6"}
    assert "captured f4, b6" in log[-1].message
    log = t.run("take g7")  # a man of the player who just moved: nobody may lift it now
    assert kinds(log) == ["illegal"] and log[-1].verdict.points == ("g7",)
    assert events(log, IllegalChange)
    log = t.run("put g7 white")
    assert kinds(log) == ["restored"]
    t.run("take f4 b6")
    assert t.session.last_verdict.to_remove == () and journalled(t)[-1] == "g4*d4*a7"
    assert t.session.state.to_move == 2


def quiet_placements(game) -> list[str]:
    """Placements to the movement phase that complete no line: the first legal one each time."""
    state, steps = game.new(), []
    while state.phase == "placement":
        step = next(s for s in state.legal_steps() if state.play(s).phase != "removal" and not state.play(s).result)
        steps.append(str(step))
        state = state.play(step)
    return steps


def test_sita_vyura_a_man_moved_too_far_is_refused_and_the_game_goes_on(tmp_path):
    g = engine.load("sita-vyura")
    t = table(g, tmp_path, history=quiet_placements(g))
    state = t.session.state
    assert state.phase == "movement"
    me = state.colour_to_move
    src = next(s for s, p in state.position().items() if p.owner == me)
    far = next(s for s in g.rules.spots if s not in state.position() and s not in g.board.neighbours[src])
    log = t.run(f"move {src} {far}")
    why = log[-1].verdict.reason
    assert kinds(log) == ["illegal"] and ("not next to" in why or "not a straight jump" in why), why
    t.run(f"move {far} {src}")
    assert kinds(t.session.log)[-1] == "restored"
    step = next(s for s in state.legal_steps() if s.kind == "move")
    t.run(f"move {step.src} {step.dst}")
    assert t.session.history[-1] == step and journalled(t)[-1] == str(step)


def test_kunjing_four_players_a_man_out_of_turn_is_seen_by_its_colour(tmp_path):
    t = table(engine.load("kunjing", players=4), tmp_path)
    t.run("put d2 white; put d6 black; put b4 red")
    assert [str(s) for s in t.session.history] == ["d2", "d6", "b4"]
    assert events(t.session.log, Turn)[-1] == Turn(4)
    log = t.run("put f4 white")  # blue's turn
    assert kinds(log) == ["illegal"] and log[-1].verdict.reason == "it is blue's turn, not white's"
    t.run("take f4; put f4 blue")
    assert [str(s) for s in t.session.history] == ["d2", "d6", "b4", "f4"]
    assert "White to play" in t.session.log[-1].message


STACK_OPENING = ["g1", "a7", "d7", "f2", "g4", "d7"]  # black has stacked on white's d7


def test_stack_a_tresillo_confiscates_a_stack_and_a_protected_one_is_put_back(tmp_path):
    t = table("stack", tmp_path, history=STACK_OPENING)
    assert t.board.stack("d7") == (Piece(1, "man"), Piece(2, "man"))
    log = t.run("put g7 white")  # g1-g4-g7: a Tresillo
    assert kinds(log) == ["waiting-removal"] and "made a Tresillo" in log[-1].message
    assert set(events(log, Removable)[-1].points) == {"d7", "a7", "f2"}
    log = t.run("take g4")  # white's own chip, in the Tresillo
    assert kinds(log) == ["illegal"]
    t.run("put g4 white")
    log = t.run("take d7")  # the whole stack: black's top chip and white's beneath
    assert kinds(log) == ["step"] and t.session.history[-1] == "xd7"
    assert "d7" not in t.session.state.position() and journalled(t)[-1] == "xd7"
    assert t.session.state.captures()[1] == 1, "black's chip kept; white's own chip back to its reserve"


def test_tableaux_advanced_the_count_and_draw_said_with_buttons_and_a_greedy_take_put_back(tmp_path):
    t = table(engine.load("tableaux", advanced=True), tmp_path)
    assert t.session.sees == "occupancy", "chips belong to nobody: judged as occupancy whatever the reader"
    Player(t, ["chips=27", "draw=4"]).play()
    assert [str(s) for s in t.session.history] == ["chips=27", "draw=4"]
    assert [a.kind for a in t.session.log].count("offer") >= 3, "both choices said with the buttons"
    assert sum(len(t.board.stack(s)) for s in t.board.position) == 27
    log = t.run("take d4 c5 c4 c3 b4")  # five chips: the draw is four
    assert kinds(log) == ["illegal"] and "at most 4" in log[-1].verdict.reason
    # Put back at once: a chip at a time, the board on the way would show a smaller, legal play.
    t.run("quick put d4; quick put c5; quick put c4; quick put c3; put b4")
    assert kinds(t.session.log)[-1] == "restored"
    # Two spots emptied; two chips still stand on others: 2, 3 or 4 taken? The players say.
    log = t.run("take d4 c5")
    assert kinds(log) == ["ambiguous"] and len(log[-1].verdict.candidates) == 3
    log = t.run("press confirm")  # the first reading on offer: two chips
    assert kinds(log) == ["step"] and str(t.session.history[-1]) == "2:c5,d4"
    assert journalled(t)[-1] == "2:c5,d4"


def test_team_play_turns_go_by_seat_and_an_opponents_man_is_refused(tmp_path):
    t = table(engine.load("nine-mens-morris", teams=True), tmp_path)
    first = t.session.log[0]
    assert "White (player 1) to play" in first.message and Turn(1, 1) in first.events
    log = t.run("put d2 white")
    assert "Black (player 2) to play" in log[-1].message and Turn(2, 1) in log[-1].events
    log = t.run("put d6 white")  # white again: it is black's turn
    assert kinds(log) == ["illegal"] and log[-1].verdict.reason == "it is black's turn, not white's"
    t.run("take d6; put d6 black")
    log = t.run("put b4 white")
    assert "Black (player 4) to play" in log[-1].message and Turn(2, 2) in log[-1].events
    assert journalled(t) == ["d2", "d6", "b4"]


@pytest.mark.parametrize("game, options", [("tresillo-rapido", {}), ("tableaux", {"advanced": True})])
def test_the_rules_clock_plays_timeout_when_a_step_takes_too_long(game, options, tmp_path):
    g = engine.load(game, **options)
    t = table(g, tmp_path)
    if game == "tableaux":
        Player(t, ["chips=25", "draw=3"]).play()
    limit = t.session.state.time_limit
    assert limit
    before = len(t.session.history)
    t.wait(limit + 1.0)
    assert len(t.session.history) == before + 1 and str(t.session.history[-1]) == "timeout"
    assert journalled(t)[-1] == "timeout"


def test_the_menu_button_shows_a_solved_games_best_step_on_the_leds(tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_CACHE_DIR", str(tmp_path / "cache"))
    from hardware.signals import Hint

    t = table("tapatan", tmp_path, history=["d4", "a1"])
    log = [a for a in t.run("press menu") if a.kind == "hint"]
    assert len(log) == 1
    assert "White has a win in" in log[0].message and "best:" in log[0].message
    hint = events(log, Hint)[0]
    best = t.session.state.parse(log[0].message.split("best: ")[1].rstrip(".").replace("a piece on ", ""))
    assert hint.points == t.session.referee.step_spots(best)
    lit = t.session.signals.board_colours(t.time.t)
    assert any(p in lit for p in hint.points), "the best step's points are lit"
    t.run(f"put {best.dst} white")
    assert t.session.signals.state.hint is None, "a step clears the hint"


def test_the_menu_button_shows_what_lies_beneath_a_stack(tmp_path):
    from hardware.signals import Beneath

    t = table("stack", tmp_path, history=STACK_OPENING)
    log = [a for a in t.run("press menu") if a.kind == "hint"]
    assert "d7: white under black" in log[-1].message
    assert events(log, Beneath)[-1] == Beneath((("d7", (1, 2)),))
    sp = t.session.signals
    t0 = sp.state.beneath[1]
    d7 = sp.layout.points["d7"][0]
    assert sp.frame(t0 + 0.1)[d7] != sp.frame(t0 + 0.7)[d7], "the white chip, then the black one"
    assert "stacks: d7: white under black" in __import__("arbiter.screen", fromlist=["status_line"]).status_line(
        t.session, t.time.t)


def test_a_simulated_board_keeps_its_stacks_across_a_crash():
    from arbiter.sim.physical import PhysicalBoard, PhysicalError

    g = engine.load("stack")
    state = g.new()
    for step in STACK_OPENING:
        state = state.play(step)
    board = PhysicalBoard.of_state(g, state)
    assert board.stack("d7") == state.stack("d7")
    back = PhysicalBoard.from_json(g, board.to_json())
    assert back.stack("d7") == (Piece(1, "man"), Piece(2, "man")) and back.position == board.position
    for _ in range(3):
        back.put("d7", Piece(1, "man"))
    with pytest.raises(PhysicalError, match="stack of 5"):
        back.put("d7", Piece(2, "man"))
    assert back.lift("d7") == Piece(1, "man") and len(back.stack("d7")) == 4
