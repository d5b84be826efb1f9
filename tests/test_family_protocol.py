"""The family protocol is enough: a game family written here, in the tests and nowhere else,
is refereed end to end by the product's shared code with no edit to it.

Tic-tac-toe on the 3x3 board with diagonals (the ``three`` board): X and O put their marks on
empty points in turn, three in a row wins, a full board is a draw. Marks never move, so it is a
family unlike any arbiter has (no movement phase, no removals). It is registered with the
engine's catalogue at run time, and then played through ``Session`` at the simulated table:
hands put marks down, the simulated camera is read by the real vision code (or a reed grid
feels them), the stabiliser and the referee judge, the journal records, the LEDs answer.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

import engine
from arbiter import referee as R
from arbiter.journal import Journal, load_journal
from arbiter.sim.scenario import Player, Table
from arbiter.session import FrameSink
from engine.boards import board as board_named
from engine.core import PLACE, IllegalStep, Piece, Result, Step, preflight
from engine.games import GameSpec, register, unregister
from engine.protocol import Rules, RulesBase, State, StateBase
from hardware.layout import load_map, spots_for
from hardware.signals import GameOver, IllegalChange, StepAccepted, Turn


# ============================================================================ the family
@dataclass(frozen=True)
class TicTacToeSettings:
    board: str = "three"
    players: int = 2
    move_cap: int = 0


class TicTacToeRules(RulesBase):
    family = "tic-tac-toe"
    piece_kinds = ("mark",)

    def __init__(self, name: str, settings: TicTacToeSettings):
        self.name = name
        self.settings = settings
        self.board = board_named(settings.board)
        self.players = 2
        self.steps = {p: Step(PLACE, None, p) for p in self.board.points}

    def colour_name(self, colour: int) -> str:
        return {1: "cross", 2: "nought"}[colour]

    def new(self, *, draws=None) -> "TicTacToeState":
        return TicTacToeState(self, {}, 1, None)

    def parse(self, text: str) -> Step:
        step = self.steps.get(str(text).strip())
        if step is None:
            raise IllegalStep(str(text), f"{text!r} is not a point of the 3x3 board: marks go on a1 .. g7")
        return step


class TicTacToeState(StateBase):
    __slots__ = ("rules", "marks", "turn", "result")

    def __init__(self, rules, marks, turn, result):
        self.rules = rules
        self.marks = marks
        self.turn = turn
        self.result = result

    @property
    def to_move(self) -> int:
        return self.turn

    @property
    def phase(self) -> str:
        return "over" if self.result else "placement"

    def position(self) -> dict[str, Piece]:
        return {p: Piece(o, "mark") for p, o in self.marks.items()}

    def legal_steps(self) -> tuple[Step, ...]:
        if self.result:
            return ()
        return tuple(s for p, s in self.rules.steps.items() if p not in self.marks)

    def why_illegal(self, step) -> str | None:
        step, why = preflight(self, step)
        if why:
            return why
        if step.dst in self.marks:
            return f"{step.dst} already holds a mark"
        return None

    def play(self, step) -> "TicTacToeState":
        why = self.why_illegal(step)
        if why:
            raise IllegalStep(str(step), why)
        marks = dict(self.marks)
        marks[str(step)] = self.turn
        result = None
        for line in self.rules.board.lines:
            if all(marks.get(p) == self.turn for p in line):
                result = Result(self.turn, False, f"three in a row on {'-'.join(line)}")
        if result is None and len(marks) == len(self.rules.board.points):
            result = Result(None, True, "the board is full")
        return TicTacToeState(self.rules, marks, 3 - self.turn, result)


SPEC = GameSpec("tic-tac-toe", "Tic-tac-toe: three in a row wins", "tic-tac-toe", TicTacToeSettings())


@pytest.fixture(autouse=True)
def registered():
    register(SPEC, TicTacToeRules)
    yield
    unregister("tic-tac-toe")


def table(reader, tmp_path, **kw) -> Table:
    g = engine.load("tic-tac-toe")
    j = Journal.new(g.name, g.options, directory=tmp_path, reader="colour" if reader == "camera" else "occupancy")
    return Table(g, reader, journal=j, pixels=FrameSink(load_map(None, spots_for(g)).count), **kw)


# ============================================================================ the protocol itself
def test_the_family_implements_the_protocol():
    g = engine.load("tic-tac-toe")
    assert isinstance(g.rules, Rules) and isinstance(g.new(), State)
    assert g.rules.spots == board_named("three").points
    assert g.new().colour_to_move == 1 and g.new().moves_left == 1 and g.new().removable() == ()


def test_a_won_game_replays_through_the_catalogue():
    state = engine.load("tic-tac-toe").new()
    for step in ["a1", "a4", "d4", "a7", "g7"]:
        state = state.play(step)
    assert state.result.winner == 1 and "a1-d4-g7" in state.result.reason


# ============================================================================ refereed at the table
@pytest.mark.parametrize("reader", ["camera", "occupancy"])
def test_a_whole_game_is_refereed_journalled_and_lit(reader, tmp_path):
    t = table(reader, tmp_path)
    player = Player(t, ["a1", "a4", "d4", "a7", "g7"])
    player.play()
    s = t.session
    assert s.over and s.result.winner == 1
    assert [str(x) for x in s.history] == ["a1", "a4", "d4", "a7", "g7"]
    assert load_journal(s.journal.path).steps == ["a1", "a4", "d4", "a7", "g7"]
    said = [a.message for a in s.log]
    assert any("Cross put a piece on d4. Nought to play." in m for m in said)
    assert "Cross wins: three in a row on a1-d4-g7." in said[-1]
    sent = [e for a in s.log for e in a.events]
    assert any(isinstance(e, StepAccepted) and e.points == ("g7",) for e in sent)
    assert any(isinstance(e, Turn) and e.player == 2 for e in sent)
    assert any(isinstance(e, GameOver) and e.winner == 1 for e in sent)
    assert any(px != (0, 0, 0) for px in s.pixels.frame), "the LEDs show the end of the game"


@pytest.mark.parametrize("reader", ["camera", "occupancy"])
def test_a_mark_taken_off_again_is_refused_and_put_back(reader, tmp_path):
    t = table(reader, tmp_path)
    t.run("put d4 cross; put a1 nought")
    log = t.run("take d4")
    v = [a.verdict for a in log if a.verdict is not None and a.verdict.kind == R.ILLEGAL]
    assert v and v[0].points == ("d4",)
    assert v[0].reason.endswith("put d4 back")
    assert any(isinstance(e, IllegalChange) and e.points == ("d4",) for a in log for e in a.events)
    log = t.run("put d4 cross")
    assert [a.kind for a in log if a.kind != "unchanged"] == ["restored"]
    t.run("put g7 cross")
    assert [str(x) for x in t.session.history] == ["d4", "a1", "g7"]


def test_a_mark_of_the_wrong_player_is_refused_by_the_camera(tmp_path):
    t = table("camera", tmp_path)
    t.run("put d4 cross")
    log = t.run("put a1 cross")  # cross again: it is nought's turn
    v = [a.verdict for a in log if a.verdict is not None and a.verdict.kind == R.ILLEGAL]
    assert v and v[0].points == ("a1",) and v[0].reason == "it is nought's turn, not cross's"
    t.run("take a1; put a1 nought")
    assert [str(x) for x in t.session.history] == ["d4", "a1"]


def test_a_mark_slid_on_before_the_next_is_a_correction(tmp_path):
    t = table("camera", tmp_path)
    t.run("put d4 cross")
    log = t.run("move d4 g7")
    assert [a.kind for a in log if a.kind not in ("unchanged",)] == ["correction"]
    assert [str(x) for x in t.session.history] == ["g7"]
    assert load_journal(t.session.journal.path).steps == ["g7"]
