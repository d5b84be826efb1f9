"""The referee, outcome by outcome, for the mill family and Brain Hanky, through a camera
(colour) and a reed-switch grid (occupancy only).

Boards are shown to the referee as a perfect simulated reader reports them
(``arbiter.sim.readers``); a physical board that no engine state describes (a piece slid one
point too far, a captured gem still on the cloth) is written with ``changed``.
"""

from __future__ import annotations

import random

import pytest

import engine
from arbiter import referee as R
from arbiter.referee import Referee, Verdict
from arbiter.sim.readers import SimReader, changed, colour_reader
from arbiter.stabiliser import Stabiliser
from engine.boards import brain_hanky_board
from engine.core import Piece
from engine.observation import Observation

READERS = ("colour", "occupancy")
W, B = Piece(1, "man"), Piece(2, "man")


class Table:
    """A game on a table: the referee and a reader watching the same physical board."""

    def __init__(self, name: str, sees: str, state=None, **options):
        self.game = engine.load(name, **options)
        self.reader = SimReader(self.game, sees)
        self.ref = Referee(self.game, sees, state=state)
        self.sees = sees

    def show(self, board, t=None) -> Verdict:
        """The board (a state or a {spot: Piece} mapping) settles and is judged."""
        v = self.ref.observe(self.reader.read(board), t)
        assert v.kind in R.KINDS
        assert v.state is self.ref.state
        return v

    def after(self, *steps):
        """The engine state after ``steps`` from the referee's current state (not shown)."""
        s = self.ref.state
        for step in steps:
            s = s.play(step)
        return s

    def play(self, *steps) -> Verdict:
        """Make ``steps`` on the board one at a time, each one judged; the last verdict."""
        v = None
        for step in steps:
            v = self.show(self.after(step))
            assert v.accepted and v.steps == (step,), (step, v)
        return v


def accepted_one(v: Verdict, step: str) -> bool:
    """Whether ``v`` accepted ``step``, or (occupancy) offered it among ambiguous candidates."""
    return v.steps == (step,) or (v.kind == R.AMBIGUOUS and (step,) in v.candidates)


# ============================================================================ mill family
MILL_GAMES = ("nine-mens-morris", "morabaraba", "tapatan", "three-mens-morris")
# A 3x3 placement that completes no line, then the movement phase begins with white to move.
THREE_OPENING = ("a1", "d1", "g1", "g4", "d7", "a7")


@pytest.mark.parametrize("sees", READERS)
@pytest.mark.parametrize("name", MILL_GAMES)
def test_the_start_position_is_unchanged(name, sees):
    t = Table(name, sees)
    v = t.show(t.ref.state)
    assert v.kind == R.UNCHANGED and not v.accepted and not v.points
    assert "White to play" in v.message


@pytest.mark.parametrize("sees", READERS)
@pytest.mark.parametrize("name", MILL_GAMES)
def test_a_placement_is_accepted_and_announced(name, sees):
    t = Table(name, sees)
    v = t.show(t.after("d1"))
    assert v.kind == R.STEP and v.steps == ("d1",) and v.points == ("d1",)
    assert t.ref.history == ("d1",) and t.ref.state.to_move == 2
    assert v.message == "White put a piece on d1. Black to play."


@pytest.mark.parametrize("sees", READERS)
@pytest.mark.parametrize("name", MILL_GAMES)
def test_the_same_board_again_is_unchanged(name, sees):
    t = Table(name, sees)
    t.play("d1")
    v = t.show(t.ref.state)
    assert v.kind == R.UNCHANGED and t.ref.history == ("d1",)


@pytest.mark.parametrize("sees", READERS)
@pytest.mark.parametrize("name", MILL_GAMES)
def test_two_quick_placements_are_both_taken(name, sees):
    # White places, black places before the board settles: two steps at once.
    t = Table(name, sees)
    v = t.show(t.after("a1", "g7"))
    if sees == "colour":
        assert v.kind == R.STEPS and v.steps == ("a1", "g7")
        assert t.ref.history == ("a1", "g7")
    else:
        # A reed grid cannot see who put which piece: a1 then g7, or g7 then a1.
        assert v.kind == R.AMBIGUOUS and set(v.candidates) == {("a1", "g7"), ("g7", "a1")}
        assert set(v.points) == {"a1", "g7"} and not v.accepted
        assert t.ref.history == ()
        chosen = t.ref.choose(("a1", "g7"))
        assert chosen.kind == R.STEPS and chosen.steps == ("a1", "g7")
        assert t.ref.history == ("a1", "g7")


@pytest.mark.parametrize("sees", READERS)
@pytest.mark.parametrize("name", ("nine-mens-morris", "morabaraba"))
def test_a_mill_waits_for_a_removal_and_shows_what_may_go(name, sees):
    t = Table(name, sees)
    t.play("a1", "b4", "d1", "f4")
    v = t.show(t.after("g1"))
    assert v.kind == R.WAITING_REMOVAL and v.steps == ("g1",) and v.accepted
    assert set(v.to_remove) == {"b4", "f4"}
    assert "White made a mill! Take one black piece off." in v.message
    again = t.show(t.ref.state)
    assert again.kind == R.WAITING_REMOVAL and set(again.to_remove) == {"b4", "f4"} and not again.accepted
    done = t.show(t.after("xf4"))
    assert done.kind == R.STEP and done.steps == ("xf4",) and not done.to_remove
    assert "took the black piece off f4" in done.message and "Black to play" in done.message


def test_morabaraba_diagonal_mill_waits_for_a_removal():
    t = Table("morabaraba", "colour")
    t.play("a1", "d7", "b2", "g7")
    v = t.show(t.after("c3"))
    assert v.kind == R.WAITING_REMOVAL and set(v.to_remove) == {"d7", "g7"}


@pytest.mark.parametrize("sees", READERS)
@pytest.mark.parametrize("name", ("nine-mens-morris", "morabaraba"))
def test_a_mill_and_its_removal_at_once_are_two_steps(name, sees):
    t = Table(name, sees)
    t.play("a1", "b4", "d1", "f4")
    v = t.show(t.after("g1", "xb4"))
    assert v.kind == R.STEPS and v.steps == ("g1", "xb4")
    assert t.ref.state.to_move == 2


@pytest.mark.parametrize("sees", READERS)
@pytest.mark.parametrize("name", ("nine-mens-morris", "morabaraba"))
def test_a_piece_slid_on_after_it_was_put_down_is_a_correction(name, sees):
    # The classic: white's piece rests on d2 long enough to be accepted, then slides on to d3.
    t = Table(name, sees)
    t.play("a7", "g7", "d2")
    slid = changed(t.ref.state, {"d2": None, "d3": W})
    v = t.show(slid)
    assert v.kind == R.CORRECTION and v.undone == ("d2",) and v.steps == ("d3",)
    assert v.accepted and t.ref.history == ("a7", "g7", "d3")
    assert t.ref.state.to_move == 2 and "you meant" in v.message


@pytest.mark.parametrize("sees", READERS)
def test_a_flown_piece_moved_again_before_the_opponent_is_a_correction(sees):
    # Three Men's Morris: men fly after placement. White's man lands on d4, then is moved to a4.
    t = Table("three-mens-morris", sees)
    t.play(*THREE_OPENING, "a1-d4")
    v = t.show(changed(t.ref.state, {"d4": None, "a4": W}))
    assert v.kind == R.CORRECTION and v.undone == ("a1-d4",) and v.steps == ("a1-a4",)


@pytest.mark.parametrize("sees", READERS)
def test_no_correction_once_the_opponent_has_moved(sees):
    t = Table("nine-mens-morris", sees)
    t.play("a7", "g7", "d2", "b6")
    v = t.show(changed(t.ref.state, {"d2": None, "d3": W}))
    assert v.kind == R.ILLEGAL and t.ref.history == ("a7", "g7", "d2", "b6")


@pytest.mark.parametrize("sees", READERS)
@pytest.mark.parametrize("name", MILL_GAMES)
def test_a_takeback_waits_for_the_button(name, sees):
    t = Table(name, sees)
    t.play("a1", "g7", "d1")
    earlier = t.ref._states[1]  # the board after white's a1
    v = t.show(earlier)
    assert v.kind == R.TAKEBACK_PENDING and not v.accepted
    assert set(v.points) == {"g7", "d1"} and "Take back 2 steps?" in v.message
    assert t.ref.history == ("a1", "g7", "d1"), "nothing is taken back until it is confirmed"
    done = t.ref.confirm_takeback()
    assert done.kind == R.TAKEBACK and done.undone == ("g7", "d1") and done.accepted
    assert t.ref.history == ("a1",) and t.ref.state.to_move == 2
    assert t.ref.confirm_takeback() is None, "nothing left to confirm"


@pytest.mark.parametrize("sees", READERS)
def test_a_takeback_is_confirmed_by_holding_the_board_still(sees):
    t = Table("tapatan", sees)
    t.play("a1", "g7")
    v = t.show(t.ref._states[1], t=10.0)
    assert v.kind == R.TAKEBACK_PENDING
    assert t.ref.tick(11.0) is None, "held one second: not yet"
    done = t.ref.tick(12.0)
    assert done.kind == R.TAKEBACK and done.undone == ("g7",)
    assert t.ref.tick(20.0) is None


def test_a_takeback_abandoned_by_putting_the_board_back_is_restored():
    t = Table("nine-mens-morris", "colour")
    t.play("a1", "g7")
    assert t.show(t.ref._states[0]).kind == R.TAKEBACK_PENDING
    v = t.show(t.ref.state)
    assert v.kind == R.RESTORED and t.ref.history == ("a1", "g7")
    assert t.ref.confirm_takeback() is None


@pytest.mark.parametrize("sees", READERS)
@pytest.mark.parametrize("name", MILL_GAMES)
def test_a_piece_put_down_out_of_turn_is_illegal_until_put_back(name, sees):
    t = Table(name, sees)
    t.play("d1")
    # Black is to move, but white puts down another piece (a reed grid sees only "a piece").
    v = t.show(changed(t.ref.state, {"a7": W}))
    if sees == "colour":
        assert v.kind == R.ILLEGAL and v.points == ("a7",)
        assert v.reason == "it is black's turn, not white's"
        assert "red lights" in v.message
        back = t.show(t.ref.state)
        assert back.kind == R.RESTORED and "back as it was" in back.message
    else:
        assert v.kind == R.STEP and v.steps == ("a7",), "occupancy cannot tell whose piece it was"


@pytest.mark.parametrize("sees", READERS)
def test_a_move_to_a_point_not_next_to_it_is_illegal_with_the_reason(sees):
    t = Table("tapatan", sees)
    t.play(*THREE_OPENING)
    v = t.show(changed(t.ref.state, {"a1": None, "g7": W}))
    assert v.kind == R.ILLEGAL and set(v.points) == {"a1", "g7"}
    assert "not next to" in v.reason
    assert t.ref.waiting_for == R.ILLEGAL
    # The game waits: a legal move is still accepted from the position before the illegal one.
    ok = t.show(t.after("a1-d4"))
    assert ok.kind == R.STEP and ok.steps == ("a1-d4",) and t.ref.waiting_for is None


@pytest.mark.parametrize("sees", READERS)
def test_taking_a_piece_off_without_a_mill_is_illegal(sees):
    t = Table("nine-mens-morris", sees)
    t.play("a1", "g7", "d1")
    v = t.show(changed(t.ref.state, {"a1": None}))  # black takes a white piece off
    assert v.kind == R.ILLEGAL and v.points == ("a1",)
    assert "no line was completed" in v.reason


def test_moving_a_piece_during_placement_is_illegal():
    t = Table("nine-mens-morris", "colour")
    t.play("a1", "g7", "d1")
    v = t.show(changed(t.ref.state, {"g7": None}))  # black lifts its own piece
    assert v.kind == R.ILLEGAL and "until all are placed" in v.reason


@pytest.mark.parametrize("sees", READERS)
def test_removing_an_own_piece_after_a_mill_is_illegal(sees):
    t = Table("nine-mens-morris", sees)
    t.play("a1", "b4", "d1", "f4", "g1")
    v = t.show(changed(t.ref.state, {"a1": None}))
    assert v.kind == R.ILLEGAL and "not your own" in v.reason
    assert set(v.to_remove) == {"b4", "f4"}, "the pieces that may go stay shown"


@pytest.mark.parametrize("sees", READERS)
def test_one_good_move_and_one_out_of_turn_names_what_went_wrong(sees):
    t = Table("tapatan", sees)
    t.play(*THREE_OPENING)
    # White moves a1-d4 and then, before black has moved, d7-a4 as well.
    v = t.show(changed(t.after("a1-d4"), {"d7": None, "a4": W}))
    assert v.kind == R.ILLEGAL and set(v.points) == {"a1", "d4", "d7", "a4"}
    assert v.reason.startswith("after a1 to ") and v.reason.endswith("it is black's turn, not white's")


@pytest.mark.parametrize("sees", READERS)
def test_a_knocked_board_asks_for_everything_to_be_put_back(sees):
    t = Table("nine-mens-morris", sees)
    t.play("a1", "g7", "d1", "a7", "b2", "f6")  # white a1 d1 b2, black g7 a7 f6
    knocked = {"a4": W, "d2": W, "c3": W, "g4": B, "b6": B, "e5": B}  # every piece bumped off its point
    v = t.show(knocked)
    assert v.kind == R.ILLEGAL and len(v.points) == 12
    assert v.message.startswith("Lots of pieces have moved!")
    assert t.show(t.ref.state).kind == R.RESTORED


@pytest.mark.parametrize("sees", READERS)
def test_a_lifted_piece_shows_where_it_may_go(sees):
    t = Table("tapatan", sees)
    t.play(*THREE_OPENING)
    v = t.show(changed(t.ref.state, {"a1": None}))
    assert v.kind == R.IN_PROGRESS and set(v.points) == {"a4", "d4"} and not v.accepted
    done = t.show(t.after("a1-a4"))
    assert done.kind == R.STEP and done.steps == ("a1-a4",)


@pytest.mark.parametrize("sees", READERS)
def test_two_quick_moves_in_the_movement_phase(sees):
    t = Table("tapatan", sees)
    t.play(*THREE_OPENING)
    # White a1-d4, black g4-g7 before the board settles. Even a reed grid sees which points
    # emptied and filled, and only one pairing is legal here.
    v = t.show(t.after("a1-d4", "g4-g7"))
    assert v.kind == R.STEPS and v.steps == ("a1-d4", "g4-g7")
    assert t.ref.history[-2:] == ("a1-d4", "g4-g7")


@pytest.mark.parametrize("sees", READERS)
def test_a_line_wins_a_3x3_game_and_the_game_stops(sees):
    t = Table("tapatan", sees)
    t.play("a1", "d7", "g1", "a4", "d4", "g4")  # white a1 g1 d4, black d7 a4 g4
    v = t.show(t.after("d4-d1"))
    assert v.kind == R.STEP and t.ref.state.result is not None
    assert "White wins" in v.message
    after = t.show(changed(t.ref.state, {"a4": None}))
    assert after.kind == R.ILLEGAL and "game is over" in after.reason


def test_an_ambiguity_is_settled_by_the_players_choice_and_can_be_refused():
    t = Table("nine-mens-morris", "occupancy")
    v = t.show(t.after("a1", "g7"))
    assert v.kind == R.AMBIGUOUS and t.ref.waiting_for == R.AMBIGUOUS
    with pytest.raises(ValueError, match="not one of the candidates"):
        t.ref.choose(("d2", "d6"))
    with pytest.raises(ValueError):
        t.ref.choose(7)
    done = t.ref.choose(v.candidates.index(("g7", "a1")))
    assert done.steps == ("g7", "a1") and t.ref.state.position()["g7"].owner == 1
    assert t.ref.choose(0) is None, "nothing left to choose"


def test_an_ambiguous_board_put_back_is_restored():
    t = Table("nine-mens-morris", "occupancy")
    assert t.show(t.after("a1", "g7")).kind == R.AMBIGUOUS
    assert t.show(t.ref.state).kind == R.RESTORED
    assert t.ref.choose(0) is None


def test_a_colour_reading_may_be_refereed_as_occupancy_but_not_the_other_way():
    game = engine.load("nine-mens-morris")
    board = game.new().play("d2")
    grid = Referee(game, "occupancy")
    assert grid.observe(colour_reader(game).read(board)).steps == ("d2",)
    cam = Referee(game, "colour")
    with pytest.raises(ValueError, match="sees less"):
        cam.observe(SimReader(game, "occupancy").read(board))


def test_polarity_reader_tells_owners_apart():
    t = Table("nine-mens-morris", "polarity")
    v = t.show(t.after("a1", "g7"))
    assert v.kind == R.STEPS and v.steps == ("a1", "g7")


def test_a_hidden_board_changes_nothing():
    t = Table("nine-mens-morris", "colour")
    v = t.ref.observe(t.reader.covered("a hand is over the board"))
    assert v.kind == R.UNSEEN and "hand" in v.message and not v.accepted


def test_a_referee_resumes_from_its_journal():
    steps = ["a1", "b4", "d1", "f4", "g1", "xb4"]
    ref = Referee.from_steps("nine-mens-morris", steps, sees="occupancy")
    assert ref.history == tuple(steps) and ref.state.to_move == 2
    reader = SimReader(ref.game, "occupancy")
    assert ref.observe(reader.read(ref.state)).kind == R.UNCHANGED
    # the last journalled step can still be corrected: xf4 instead of xb4
    v = ref.observe(reader.read(ref._states[-2].play("xf4")))
    assert v.kind == R.CORRECTION and v.undone == ("xb4",) and v.steps == ("xf4",)
    with pytest.raises(engine.IllegalStep):
        Referee.from_steps("nine-mens-morris", ["a1", "a1"])


def test_accepted_steps_are_exposed_before_anything_is_announced():
    # The caller journals verdict.undone / verdict.steps, then announces: both are on the verdict.
    t = Table("nine-mens-morris", "colour")
    journal: list[str] = []
    boards = (lambda: t.after("d2"), lambda: changed(t.after(), {"d2": None, "d3": W}), lambda: t.after("g7"))
    kinds = []
    for board in boards:
        v = t.show(board())
        kinds.append(v.kind)
        for s in v.undone:
            journal.remove(s)
        journal.extend(v.steps)
    assert kinds == [R.STEP, R.CORRECTION, R.STEP]
    assert journal == list(t.ref.history) == ["d3", "g7"]


# ============================================================================ Brain Hanky
PLAIN = brain_hanky_board(6, False)
FAR2 = {"Oa6": 1, "Of1": 2}  # gems far from the action, so nobody is out by accident
Y = 2  # side 2's rings are yellow
HANKY = engine.load("brain-hanky")


def ring(side: int) -> Piece:
    return Piece(side, "ring")


def gem(side: int) -> Piece:
    return Piece(side, "gem")


def hanky_table(sees: str, rings: dict, gems: dict | None = None, to_move: int = 1) -> Table:
    state = HANKY.rules.setup(rings=rings, gems={**FAR2, **(gems or {})}, to_move=to_move)
    return Table("brain-hanky", sees, state=state)


# Mixed colours round square Oc3: pushing from Oc3.w to Od3.n can go by the north or the south
# of the square; the two leave different colours behind, the same occupancy.
STRING = {"Oc3.w": 1, "Oc3.n": Y, "Oc3.e": 1, "Oc3.s": Y, "Od3.w": 1}
NORTH = "Oc3.w-Oc3.n-Oc3.e-Od3.w-Od3.n"
SOUTH = "Oc3.w-Oc3.s-Oc3.e-Od3.w-Od3.n"


@pytest.mark.parametrize("sees", READERS)
def test_hanky_a_string_move_is_accepted(sees):
    t = hanky_table(sees, STRING)
    v = t.show(t.after(NORTH))
    if sees == "colour":
        assert v.kind == R.STEP and v.steps == (NORTH,)
        assert set(v.points) == set(NORTH.split("-"))
        assert "pushed 4 rings from Oc3.w to Od3.n" in v.message and "White: one more move" in v.message
    else:
        # Occupancy sees only Oc3.w emptied and Od3.n filled: either route fits.
        assert v.kind == R.AMBIGUOUS and set(v.candidates) == {(NORTH,), (SOUTH,)}
        assert t.ref.choose(NORTH).steps == (NORTH,)
    assert t.ref.history == (NORTH,)


@pytest.mark.parametrize("sees", READERS)
def test_hanky_a_single_ring_step_is_clear_even_to_occupancy(sees):
    t = hanky_table(sees, {"Oc3.n": 1, "Od5.e": Y})
    v = t.show(t.after("Oc3.n-Oc3.e"))
    assert v.kind == R.STEP and v.steps == ("Oc3.n-Oc3.e",)


# The orange bridge Oc3.e-Od3.w crosses the blue bridge Bd3.n-Bd4.s (BH-4).
(BLUE_A, BLUE_B), = PLAIN.crossing[("Oc3.e", "Od3.w")]


@pytest.mark.parametrize("sees", READERS)
def test_hanky_a_blocked_crossing_attempted_is_illegal_with_the_ruling(sees):
    t = hanky_table(sees, {"Oc3.e": 1, BLUE_A: Y, BLUE_B: Y})
    v = t.show(changed(t.ref.state, {"Oc3.e": None, "Od3.w": ring(1)}))
    assert v.kind == R.ILLEGAL and set(v.points) == {"Oc3.e", "Od3.w"}
    assert "BH-4" in v.reason and BLUE_A in v.reason and BLUE_B in v.reason
    assert "BH-4" not in v.message, "the ruling id is for the record, not for the child"
    assert t.show(t.ref.state).kind == R.RESTORED


@pytest.mark.parametrize("sees", READERS)
def test_hanky_a_string_pushed_across_a_blocked_crossing_is_illegal(sees):
    # White's ring on Oc3.e pushes yellow's ring on Od3.w on to Od3.n, but crosses Bd3.n-Bd4.s.
    t = hanky_table(sees, {"Oc3.e": 1, "Od3.w": Y, BLUE_A: Y, BLUE_B: Y})
    v = t.show(changed(t.ref.state, {"Oc3.e": None, "Od3.w": ring(1), "Od3.n": ring(Y)}))
    assert v.kind == R.ILLEGAL and "BH-4" in v.reason and "Oc3.e" in v.reason


def bc3_capture_rings():
    """White rings on three points of Bc3 and on Bc4.s: Bc4.s-Bc3.n surrounds yellow's gem."""
    pts = PLAIN.squares["Bc3"].points
    assert "Bc3.n" in PLAIN.graph.neighbours["Bc4.s"]
    return {pts["e"]: 1, pts["w"]: 1, pts["s"]: 1, "Bc4.s": 1, "Oa3.n": Y, "Of4.n": Y, "Oc3.n": 1}


@pytest.mark.parametrize("sees", READERS)
def test_hanky_a_gem_capture_waits_for_the_gem_to_be_lifted_and_gives_an_extra_turn(sees):
    t = hanky_table(sees, bc3_capture_rings(), gems={"Bc3": Y})
    captured = t.after("Bc4.s-Bc3.n")
    assert "Bc3" not in captured.position(), "the engine moves the gem to white's pile at once"
    # ... but on the cloth it stays until it is lifted.
    v = t.show(changed(captured, {"Bc3": gem(Y)}))
    assert v.kind == R.WAITING_REMOVAL and v.steps == ("Bc4.s-Bc3.n",)
    assert v.to_remove == ("Bc3",)
    assert "captured the gold gem on Bc3" in v.message and "Lift the captured gem off Bc3" in v.message
    still = t.show(changed(captured, {"Bc3": gem(Y)}))
    assert still.kind == R.WAITING_REMOVAL and not still.accepted
    lifted = t.show(captured)
    assert lifted.kind == R.UNCHANGED and not lifted.to_remove
    # The turn's second move, then the extra turn: white moves again.
    t.play("Oc3.n-Oc3.e")
    assert t.ref.state.to_move == 1, "a capturing turn earns another turn (BH-6)"
    v = t.show(t.after("Oc3.e-Oc3.s"))
    assert v.kind == R.STEP and t.ref.state.to_move == 1


def test_hanky_play_goes_on_while_a_captured_gem_is_still_on_the_cloth():
    t = hanky_table("colour", bc3_capture_rings(), gems={"Bc3": Y})
    t.show(changed(t.after("Bc4.s-Bc3.n"), {"Bc3": gem(Y)}))
    v = t.show(changed(t.after("Oc3.n-Oc3.e"), {"Bc3": gem(Y)}))
    assert v.kind == R.WAITING_REMOVAL and v.steps == ("Oc3.n-Oc3.e",) and v.to_remove == ("Bc3",)


@pytest.mark.parametrize("sees", READERS)
def test_hanky_a_capture_and_the_next_move_at_once(sees):
    t = hanky_table(sees, bc3_capture_rings(), gems={"Bc3": Y})
    v = t.show(changed(t.after("Bc4.s-Bc3.n", "Oc3.n-Oc3.w"), {"Bc3": gem(Y)}))
    assert v.kind == R.WAITING_REMOVAL and set(v.steps) == {"Bc4.s-Bc3.n", "Oc3.n-Oc3.w"}
    assert v.to_remove == ("Bc3",) and "captured the gold gem on Bc3" in v.message
    # the turn is over and it captured: white's extra turn (BH-6)
    assert t.ref.state.to_move == 1 and t.ref.state.moves_left == 2


@pytest.mark.parametrize("sees", READERS)
def test_hanky_a_gem_lifted_without_a_capture_is_illegal(sees):
    t = hanky_table(sees, bc3_capture_rings(), gems={"Bc3": Y})
    v = t.show(changed(t.ref.state, {"Bc3": None}))
    assert v.kind == R.ILLEGAL and v.points == ("Bc3",) and "has not been captured" in v.reason


TWO_RINGS = {"Oc3.n": 1, "Oe2.n": 1, "Od5.e": Y}


@pytest.mark.parametrize("sees", READERS)
def test_hanky_both_moves_of_a_turn_at_once(sees):
    t = hanky_table(sees, TWO_RINGS)
    first = "Oc3.n-Oc3.e"
    second = next(s for s in t.after(first).legal_steps() if s.startswith("Oe2.n-") and len(s.path) == 2)
    v = t.show(t.after(first, second))
    # Either order leaves the same game; the referee takes one of them.
    assert v.kind == R.STEPS and v.steps in ((first, second), (second, first))
    assert t.ref.state.to_move == 2


@pytest.mark.parametrize("sees", READERS)
def test_hanky_a_string_push_and_a_second_move_at_once(sees):
    t = hanky_table(sees, {**STRING, "Oe2.n": 1})
    second = "Oe2.n-Oe2.w"
    v = t.show(t.after(NORTH, second))
    if sees == "colour":
        assert v.kind == R.STEPS and set(v.steps) == {NORTH, second}
        assert t.ref.state.to_move == 2
    else:
        # the grid sees two rings gone and two arrived; the string's route it cannot see
        assert v.kind == R.AMBIGUOUS and (second, NORTH) in v.candidates and (second, SOUTH) in v.candidates


def test_hanky_two_string_pushes_at_once_each_recolouring_rings():
    # The same mixed cluster round Oe5 as round Oc3: both moves recolour the rings they push.
    other = {p.replace("c3", "e5").replace("d3", "f5"): side for p, side in STRING.items()}
    t = hanky_table("colour", {**STRING, **other})
    second = NORTH.replace("c3", "e5").replace("d3", "f5")
    v = t.show(t.after(NORTH, second))
    assert v.kind == R.STEPS and set(v.steps) == {NORTH, second}


@pytest.mark.parametrize("sees", READERS)
def test_hanky_the_same_ring_moved_twice_in_one_turn(sees):
    # BH-6: the same ring may start both moves; the board shows only where it began and ended.
    t = hanky_table(sees, TWO_RINGS)
    v = t.show(t.after("Oc3.n-Oc3.e", "Oc3.e-Oc3.s"))
    assert v.kind == R.STEPS and v.steps == ("Oc3.n-Oc3.e", "Oc3.e-Oc3.s")
    assert t.ref.state.to_move == 2


@pytest.mark.parametrize("sees", READERS)
def test_hanky_the_last_move_of_a_turn_replaced_before_the_opponent_moves(sees):
    t = hanky_table(sees, TWO_RINGS)
    t.play("Oe2.n-Oe2.w", "Oc3.n-Oc3.e")
    assert t.ref.state.to_move == 2
    v = t.show(changed(t.ref.state, {"Oc3.e": None, "Oc4.s": ring(1)}))
    assert v.kind == R.CORRECTION and v.undone == ("Oc3.n-Oc3.e",) and v.steps == ("Oc3.n-Oc4.s",)


@pytest.mark.parametrize("sees", READERS)
def test_hanky_a_takeback(sees):
    t = hanky_table(sees, TWO_RINGS)
    t.play("Oe2.n-Oe2.w", "Oc3.n-Oc3.e")
    v = t.show(t.ref._states[0])
    assert v.kind == R.TAKEBACK_PENDING
    done = t.ref.confirm_takeback()
    assert done.undone == ("Oe2.n-Oe2.w", "Oc3.n-Oc3.e") and t.ref.history == ()


@pytest.mark.parametrize("sees", READERS)
def test_hanky_a_lifted_ring_shows_its_single_steps(sees):
    t = hanky_table(sees, {"Oc3.n": 1, "Od5.e": Y})
    v = t.show(changed(t.ref.state, {"Oc3.n": None}))
    assert v.kind == R.IN_PROGRESS and set(v.points) == {"Oc3.e", "Oc3.w", "Oc4.s"}


@pytest.mark.parametrize("sees", READERS)
def test_hanky_moving_an_opponent_ring_is_illegal(sees):
    t = hanky_table(sees, {"Oc3.n": 1, "Od5.e": Y})
    nxt = PLAIN.graph.neighbours["Od5.e"][0]
    v = t.show(changed(t.ref.state, {"Od5.e": None, nxt: ring(Y)}))
    assert v.kind == R.ILLEGAL and "not player 1's" in v.reason


@pytest.mark.parametrize("sees", READERS)
def test_hanky_phase_one_clusters(sees):
    t = Table("brain-hanky", sees)
    v = t.show(t.after("Oc3"))
    assert v.kind == R.STEP and v.steps == ("Oc3",)
    assert set(v.points) == {"Oc3", *PLAIN.squares["Oc3"].points.values()}
    assert t.show(t.after("Bd4")).steps == ("Bd4",)
    # Yellow places both clusters of the turn before the board settles.
    blue = next(s for s in t.after("Oa1").legal_steps() if s.startswith("B"))
    v = t.show(t.after("Oa1", blue))
    assert v.kind == R.STEPS and v.steps == ("Oa1", blue)
    assert t.ref.state.to_move == 1


@pytest.mark.parametrize("sees", READERS)
def test_hanky_half_a_cluster_is_in_progress(sees):
    t = Table("brain-hanky", sees)
    pts = PLAIN.squares["Oc3"].points
    v = t.show(changed(t.ref.state, {pts["n"]: ring(1), pts["e"]: ring(1)}))
    assert v.kind == R.IN_PROGRESS and set(v.points) == {"Oc3", pts["w"], pts["s"]}
    assert t.show(t.after("Oc3")).kind == R.STEP


def test_hanky_battle_lines_first_move():
    t = Table("brain-hanky-battle-lines", "colour")
    step = t.ref.state.random_step(random.Random(3))
    v = t.show(t.after(step))
    assert v.kind == R.STEP and v.steps == (step,)


def test_hanky_a_cluster_in_the_wrong_colour_is_illegal():
    t = Table("brain-hanky", "colour")
    board = changed(t.ref.state, {"Oc3": gem(Y), **{p: ring(Y) for p in PLAIN.squares["Oc3"].points.values()}})
    v = t.show(board)
    assert v.kind == R.ILLEGAL


# ============================================================================ timing and the whole chain
def test_a_takeback_hold_is_timed_from_the_first_tick_when_observe_had_no_time():
    t = Table("nine-mens-morris", "colour")
    t.play("a1", "g7")
    assert t.show(t.ref._states[1]).kind == R.TAKEBACK_PENDING
    assert t.ref.tick(100.0) is None
    assert t.ref.tick(101.9) is None
    assert t.ref.tick(102.0).kind == R.TAKEBACK


def test_a_takeback_seen_again_after_the_hold_is_confirmed():
    t = Table("nine-mens-morris", "colour")
    t.play("a1", "g7")
    assert t.show(t.ref._states[1], t=5.0).kind == R.TAKEBACK_PENDING
    assert t.show(t.ref._states[1], t=6.0).kind == R.TAKEBACK_PENDING
    v = t.show(t.ref._states[1], t=7.5)
    assert v.kind == R.TAKEBACK and v.undone == ("g7",)


def test_a_legal_move_that_repeats_an_earlier_position_is_a_move_not_a_takeback():
    t = Table("tapatan", "colour")
    t.play(*THREE_OPENING, "a1-a4", "g4-g7", "a4-a1")
    v = t.show(t.after("g7-g4"))  # the board after the opening again, and a legal move
    assert v.kind == R.STEP and v.steps == ("g7-g4",)


def test_the_expected_board_is_what_the_reader_should_see():
    t = Table("nine-mens-morris", "occupancy")
    t.play("d2")
    exp = t.ref.expected()
    assert exp["d2"] == "occupied" and exp["d3"] is None and len(exp) == 24


def test_a_piece_slid_slowly_through_the_stabiliser_and_the_referee():
    # A reed grid read at 50 Hz. White's piece passes over d2 for a moment (not a move), rests
    # on d3 long enough to be accepted, then is slid back to d2 before black moves: d2 replaces d3.
    game = engine.load("nine-mens-morris")
    reader = SimReader(game, "occupancy")
    ref = Referee(game, "occupancy")
    stab = Stabiliser.for_reader("occupancy")
    start = game.new()
    frames = ([(start, 0.02 * i) for i in range(10)]
              + [(start.play("d2"), 0.2 + 0.02 * i) for i in range(3)]  # passing over d2: 60 ms
              + [(reader.covered(), 0.26)]
              + [(start.play("d3"), 0.28 + 0.02 * i) for i in range(20)]  # resting on d3: 400 ms
              + [(start.play("d2"), 0.7 + 0.02 * i) for i in range(20)])  # moved back to d2
    verdicts = []
    for board, t in frames:
        obs = board if isinstance(board, Observation) else reader.read(board)
        stable = stab.feed(obs, t)
        if stable is not None:
            verdicts.append(ref.observe(stable, t))
    assert [v.kind for v in verdicts] == [R.UNCHANGED, R.STEP, R.CORRECTION]
    assert verdicts[1].steps == ("d3",)
    assert verdicts[2].undone == ("d3",) and verdicts[2].steps == ("d2",)
    assert ref.history == ("d2",)


# ============================================================================ more Brain Hanky
def test_hanky_three_players_a_step_and_the_turn_order():
    game = engine.load("brain-hanky", players=3)
    state = game.rules.setup(rings={"Oc3.n": 1, "Od5.e": 2, "Ob2.n": 3}, gems={"Oa6": 1, "Of1": 2, "Oa1": 3})
    ref = Referee(game, "colour", state=state)
    reader = colour_reader(game)
    s = state.play("Oc3.n-Oc3.e")
    s2 = s.play("Oc3.e-Oc3.s")
    v = ref.observe(reader.read(s2))
    assert v.kind == R.STEPS and v.steps == ("Oc3.n-Oc3.e", "Oc3.e-Oc3.s") and ref.state.to_move == 2
    assert "Yellow to play" in v.message


def test_hanky_polarity_reader_tells_the_string_routes_apart():
    t = hanky_table("polarity", STRING)
    v = t.show(t.after(SOUTH))
    assert v.kind == R.STEP and v.steps == (SOUTH,)


@pytest.mark.parametrize("sees", ["colour", "polarity"])
def test_hanky_two_moves_of_a_turn_whose_paths_cross_read_as_one_turn(sees):
    # White pushes the yellow ring on Bb5.e round to Bb5.s, then pushes on from Bb5.e through the
    # very ring it just moved: no split of the recoloured rings between the moves fits, only the
    # search between the ends seen finds it.
    g = engine.load("brain-hanky")
    state = g.rules.setup(rings={"Bb5.n": 1, "Bb5.e": 2, "Bb4.n": 2}, gems={"Oa6": 1, "Of1": 2})
    t = Table("brain-hanky", sees, state=state)
    v = t.show(t.after("Bb5.n-Bb5.e-Bb5.s", "Bb5.e-Bb5.s-Bb4.n-Bb4.e"))
    assert v.kind == R.STEPS and v.steps == ("Bb5.n-Bb5.e-Bb5.s", "Bb5.e-Bb5.s-Bb4.n-Bb4.e")
    assert t.ref.state.to_move == 2


def test_only_games_whose_pieces_stack_are_asked_what_lies_beneath(monkeypatch):
    """Telling explanations apart (``_distinct``) and listing stacks ask ``State.stack`` only where
    pieces stand on each other: its default costs a ``position()`` per spot, which took Brain
    Hanky's occupancy-only search from ~4 ms to ~130 ms p99 (benchmarks/referee.py)."""
    from engine.explain import Explanation
    from engine.protocol import StateBase

    asked = []
    real = StateBase.stack
    monkeypatch.setattr(StateBase, "stack", lambda self, spot: asked.append(spot) or real(self, spot))
    game = engine.load("nine-mens-morris")
    ref = Referee(game, sees="occupancy")
    start = game.new()
    found = [Explanation((s,), (start.play(s),)) for s in ("a1", "d2", "a1")]
    assert [str(e.steps[0]) for e in ref._distinct(found)] == ["a1", "d2"]
    assert asked == []

    stack_game = engine.load("stack")
    a, b = stack_game.new().legal_steps()[:2]
    stack_ref = Referee(stack_game, sees="occupancy")
    distinct = stack_ref._distinct([Explanation((a,), (stack_game.new().play(a),)),
                                    Explanation((b,), (stack_game.new().play(b),))])
    assert len(distinct) == 2

    from arbiter.session import Session
    session = Session(game, SimReader(game, "occupancy"))
    assert session.stacks() == () and asked == []
