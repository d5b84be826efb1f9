"""One validation at the referee's door, and what the referee makes of what a reader cannot see.

- A reading names every spot of the board or marks it unread (``Reading.unknown(note)``); a
  missing spot, a name the board does not have, a wrong type or a NaN is a reader's bug
  (``ReadingError`` naming the spot), never a guess. Before, a reading that lacked a7 read it as
  empty, and white's removal of the black man standing there was accepted.
- An unread spot is never empty: every value the game allows there is weighed. A step that spot
  alone decides is ``unclear`` with the reader's note; a step every reading shares is accepted;
  too many unread spots is ``unseen``. Before, a sensor reporting FAULT under a black man read
  as empty, and white's removal of that man was journalled while it stood there.
- A board that lost most of its pieces (more than half, at least 3) was cleared or covered: never
  a take-back. Before, an empty board held for two seconds took back the whole game.
- Holding the board still confirms a take-back of one turn only; more needs the button.
- Step notation naming a point the board does not have is refused with the point's name, for
  every kind of step and for steps entered with the buttons.
"""

from __future__ import annotations

import math

import pytest

import engine
from arbiter import referee as R
from arbiter.referee import Referee
from arbiter.sim.scenario import Table as SimTable
from arbiter.sim.readers import SimReader, changed
from arbiter.stabiliser import Stabiliser
from engine.core import IllegalStep, Piece
from engine.observation import Observation, Reading, ReadingError, check

NMM = "nine-mens-morris"
W, B = Piece(1, "man"), Piece(2, "man")
# White closes the mill a1-d1-g1 and is to take a black man: a7 or g7.
MILL = ("a1", "a7", "d1", "g7", "g1")
NOTE = "the sensor under it reports a fault"
READERS = ("colour", "occupancy")


class Table:
    """The referee and a perfect reader watching one board."""

    def __init__(self, name: str = NMM, sees: str = "colour", *steps: str):
        self.game = engine.load(name)
        self.reader = SimReader(self.game, sees)
        self.ref = Referee(self.game, sees)
        for step in steps:
            v = self.show(self.after(step))
            assert v.steps == (step,), (step, v)

    def after(self, *steps):
        s = self.ref.state
        for step in steps:
            s = s.play(step)
        return s

    def show(self, board, t=None, unread=None):
        return self.ref.observe(self.reader.read(board, unread), t)


def without(obs: Observation, *spots: str, **extra: Reading) -> Observation:
    points = {s: r for s, r in obs.points.items() if s not in spots}
    points.update(extra)
    return Observation(points, obs.sees)


# ============================================================================ the check at the door
@pytest.mark.parametrize("sees", READERS)
def test_a_reading_that_lacks_a_spot_is_a_reader_bug_not_an_empty_spot(sees):
    t = Table(NMM, sees, *MILL)
    obs = without(t.reader.read(t.ref.state), "a7")  # the black man on a7 stands there; the reader forgot it
    with pytest.raises(ReadingError, match=r"the reading has no a7: a reader names every spot"):
        t.ref.observe(obs)
    assert t.ref.history == MILL, "xa7 was accepted for a black man nobody took"


def test_a_spot_the_board_does_not_have_is_refused_by_name():
    t = Table(NMM, "colour")
    obs = without(t.reader.read(t.after("d1")), zz=Reading(B))
    with pytest.raises(ReadingError, match=r"'zz', not a spot of this board"):
        t.ref.observe(obs)
    assert t.ref.history == ()


@pytest.mark.parametrize("sees", READERS)
def test_a_piece_that_is_not_a_piece_is_refused_not_taken_for_a_move(sees):
    t = Table(NMM, sees)
    obs = without(t.reader.read(t.ref.state), "d1", d1=Reading("black"))
    with pytest.raises(ReadingError, match=r"d1: the piece is str 'black', not a Piece"):
        t.ref.observe(obs)
    assert t.ref.history == ()


BAD = {
    "not a reading": (None, r"d1: the reader gave NoneType None, not a Reading"),
    "nan confidence": (Reading(None, math.nan), r"d1: confidence nan is not a number from 0 to 1"),
    "infinite confidence": (Reading(None, math.inf), r"d1: confidence inf"),
    "confidence above one": (Reading(None, 1.5), r"d1: confidence 1.5"),
    "confidence in words": (Reading(None, "sure"), r"d1: confidence 'sure'"),
    "nan probability": (Reading(None, 0.9, probs={None: math.nan}), r"d1: probability nan of None"),
    "probability of a value unseen": (Reading(None, 0.9, probs={None: 0.9, "white": 0.1}),
                                      r"d1: probs names 'white', which a colour reader cannot see"),
    "owner in words": (Reading(Piece("white", "man")), r"d1: .* needs a whole-number owner"),
    "unread with no note": (Reading(None, 0.0, note=""), r"d1: an unread spot's note must say why"),
    "unread with a piece": (Reading(W, 0.0, note="dim"), r"d1: an unread spot carries no piece"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_every_malformed_reading_is_refused_by_the_stabiliser_and_the_referee_naming_the_spot(case):
    reading, message = BAD[case]
    t = Table(NMM, "colour")
    obs = without(t.reader.read(t.ref.state), "d1", d1=reading)
    stab = Stabiliser(window_s=0.0, min_readings=1, spots=t.ref.spots)
    with pytest.raises(ReadingError, match=message):
        stab.feed(obs, 0.0)
    with pytest.raises(ReadingError, match=message):
        t.ref.observe(obs)
    assert stab.feed(t.reader.read(t.ref.state), 0.1) is not None, "a good reading after a bad one passes"


def test_a_nan_confidence_does_not_pass_the_stabiliser_even_without_spots():
    obs = Table(NMM, "colour").reader.read(engine.load(NMM).new())
    bad = without(obs, "a1", a1=Reading(None, math.nan))
    stab = Stabiliser(window_s=0.0, min_readings=1, min_confidence=0.5)
    with pytest.raises(ReadingError, match="a1: confidence nan"):
        stab.feed(bad, 0.0)


def test_check_refuses_what_is_not_an_observation_and_passes_a_blocked_one():
    with pytest.raises(ReadingError, match="not an Observation"):
        check({"a1": Reading(None)})
    blocked = Observation.blocked("a hand")
    assert check(blocked, ("a1",)) is blocked


@pytest.mark.parametrize("settings", [
    {"window_s": math.nan}, {"window_s": math.inf}, {"window_s": -0.1}, {"window_s": 1e6}, {"window_s": "0.2"},
    {"min_readings": 0}, {"min_readings": 2.5}, {"min_readings": True}, {"min_readings": 10**9},
    {"min_confidence": math.nan}, {"min_confidence": 1.5}, {"min_confidence": -0.1},
])
def test_the_stabiliser_refuses_settings_that_are_nan_infinite_or_out_of_range(settings):
    with pytest.raises(ValueError, match=next(iter(settings))):
        Stabiliser(**settings)


def test_the_stabiliser_and_the_referee_refuse_a_time_that_is_not_a_number():
    t = Table(NMM, "colour")
    obs = t.reader.read(t.ref.state)
    with pytest.raises(ValueError, match="not a finite number"):
        Stabiliser().feed(obs, math.nan)
    with pytest.raises(ValueError, match="not a finite number"):
        t.ref.observe(obs, math.inf)
    with pytest.raises(ValueError, match="not a finite number"):
        t.ref.tick(math.nan)
    for hold in (math.nan, -1, math.inf):
        with pytest.raises(ValueError, match="takeback_hold_s"):
            Referee(NMM, takeback_hold_s=hold)


def test_an_unread_spot_survives_json():
    obs = Table(NMM, "occupancy").reader.read(engine.load(NMM).new(), {"a7": NOTE})
    back = Observation.from_json(obs.to_json())
    assert back.points["a7"] == Reading.unknown(NOTE) and back.unread() == {"a7": NOTE}
    assert back.view() == obs.view()


# ============================================================================ unread spots
@pytest.mark.parametrize("sees", READERS)
@pytest.mark.parametrize("man_still_there", (True, False))
def test_a_removal_an_unread_spot_alone_decides_is_unclear_with_the_readers_note(sees, man_still_there):
    t = Table(NMM, sees, *MILL)
    board = t.ref.state if man_still_there else t.after("xa7")  # the reader cannot tell which
    v = t.show(board, unread={"a7": NOTE})
    assert v.kind == R.UNCLEAR and v.points == ("a7",) and not v.accepted
    assert v.message == "I can't read a7: the sensor under it reports a fault. Nothing changed yet."
    assert t.ref.history == MILL


@pytest.mark.parametrize("sees", READERS)
def test_a_step_every_reading_shares_is_accepted_beside_an_unread_spot(sees):
    t = Table(NMM, sees, *MILL)
    v = t.show(t.after("xg7"), unread={"a7": NOTE})  # white takes the other black man
    assert v.kind == R.STEP and v.steps == ("xg7",)
    # Black puts a man on b2: with a7 unread, black may also have... nothing else; accepted.
    v = t.show(t.after("b2"), unread={"a7": NOTE})
    assert v.kind == R.STEP and v.steps == ("b2",)


@pytest.mark.parametrize("sees", READERS)
def test_one_step_beside_an_unread_spot_is_accepted_not_read_as_two(sees):
    # a7 is empty and unread. White's man on d1 is one step; "d1, and black's man on a7 at once"
    # would be two, and fewer assumed steps win, as on a board read whole.
    t = Table(NMM, sees)
    v = t.show(t.after("d1"), unread={"a7": NOTE})
    assert v.kind == R.STEP and v.steps == ("d1",)
    v = t.show(t.after("a7"), unread={"a7": NOTE})  # black plays on the broken spot: only it says so
    assert v.kind == R.UNCLEAR and v.points == ("a7",) and NOTE in v.message
    assert t.ref.history == ("d1",), "a step only the unread spot shows is never guessed"


def test_the_unread_values_are_the_familys_through_the_protocol():
    mills = engine.load(NMM).rules
    assert mills.explainer("colour").values("a7") == (None, (1, "man"), (2, "man"))
    assert mills.explainer("occupancy").values("a7") == (None, "occupied")
    hanky = engine.load("brain-hanky").rules
    square = hanky.spots[-1]
    assert hanky.explainer("colour").values("Oc3.n") == (None, (1, "ring"), (2, "ring"))
    assert hanky.explainer("colour").values(square) == (None, (1, "gem"), (2, "gem"))
    assert hanky.explainer("polarity").values(square) == (None, 1, 2)


def test_a_brain_hanky_cluster_beside_an_unread_spot_is_accepted_and_one_on_it_is_not_guessed():
    game = engine.load("brain-hanky")
    st = game.new()
    first = st.legal_steps()[0]
    spots = game.rules.step_spots(first)
    far = next(s for s in game.rules.spots if s not in spots and s in game.rules.board.index)
    t = Table("brain-hanky", "colour")
    v = t.show(t.after(first), unread={far: "the light is too dim there"})
    assert v.steps == (first,)
    # The next cluster with one of its own rings unread: only the full cluster is a step, so the
    # unread ring is weighed as present (nothing else explains), and the step is accepted...
    second = t.ref.state.legal_steps()[0]
    ring = game.rules.step_spots(second)[1]
    v = t.show(t.after(second), unread={ring: "the light is too dim there"})
    assert v.steps == (second,)


@pytest.mark.parametrize("sees, unread, seen", [("colour", 3, True), ("colour", 4, False),
                                                ("occupancy", 5, True), ("occupancy", 6, False)])
def test_too_many_unread_spots_is_unseen(sees, unread, seen):
    t = Table(NMM, sees, "d1")
    spots = [s for s in t.ref.spots if s != "d1"][:unread]
    v = t.show(t.ref.state, unread={s: NOTE for s in spots})
    if seen:  # weighed: black may have put a man on any of them, so it is unclear, but seen
        assert v.kind == R.UNCLEAR and set(v.points) == set(spots)
    else:
        assert v.kind == R.UNSEEN and f"{unread} spots can't be read" in v.message and NOTE in v.message


def test_a_broken_switch_in_a_refereed_game_never_lets_a_removal_through():
    table = SimTable(NMM, "occupancy", history=MILL)
    table.reader.broken["a7"] = NOTE
    log = table.run("wait 1")
    assert table.session.history == MILL
    kinds = [a.verdict.kind for a in log if a.verdict is not None]
    assert R.UNCLEAR in kinds or not kinds
    log = table.run("take a7")  # white really takes it: still only the broken switch would say so
    assert table.session.history == MILL
    table.reader.broken.clear()  # the switch mended: the board is seen as it is
    table.run("wait 1")
    assert table.session.history == MILL + ("xa7",)


def test_a_sensor_reporting_fault_under_a_man_over_serial_is_unread_not_empty():
    from arbiter.sim.sensor import cells_of, serial_table
    from firmware_bridge import wire
    from firmware_bridge.reader import FAULT_NOTE

    table, rig = serial_table(NMM, history=MILL)
    try:
        cell = rig.map.cells["a7"]

        def faulty():
            cells = cells_of(rig.board.position, rig.map, rig.sensing)
            cells[cell] = wire.FAULT
            return cells

        rig.device.cells = faulty
        rig.device.moved(table.time.t)
        log = table.run("wait 1")
        assert table.session.history == MILL, "white's removal of a7 was journalled while the man stood there"
        said = [a.message for a in log if a.verdict is not None and a.verdict.kind == R.UNCLEAR]
        assert said and f"I can't read a7: {FAULT_NOTE}" in said[-1]
        assert rig.reader.read().points["a7"] == Reading.unknown(FAULT_NOTE)
        table.run("take g7")  # a removal every reading shares
        assert table.session.history == MILL + ("xg7",)
    finally:
        rig.stop()


def test_a_bad_reading_is_said_in_one_line_and_the_game_goes_on():
    table = SimTable("tapatan", "occupancy")
    grid = table.reader

    class Forgetful:
        sees, frame_s = grid.sees, grid.frame_s
        bad = True

        def read(self):
            obs = grid.read()
            return without(obs, "a1") if self.bad else obs

    reader = Forgetful()
    table.session.reader = reader
    log = table.run("put a1 white")
    errors = [a.message for a in log if a.kind == "error"]
    assert len(errors) == 1 and "\n" not in errors[0]
    assert errors[0].startswith("The board reader sent a bad reading, ignored: the reading has no a1")
    assert errors[0].endswith("The game goes on.")
    assert table.session.history == ()
    reader.bad = False
    table.run("wait 1")
    assert table.session.history == ("a1",)


# ============================================================================ a cleared board
@pytest.mark.parametrize("sees", READERS)
def test_an_emptied_board_is_cleared_never_a_takeback(sees):
    steps = ("a1", "a7", "d1", "g7", "b2", "f6")
    t = Table(NMM, sees, *steps)
    v = t.show({}, t=10.0)
    assert v.kind == R.CLEARED and not v.accepted
    assert v.message == "The board was cleared or covered: put the pieces back."
    assert set(v.points) == {"a1", "a7", "d1", "g7", "b2", "f6"}
    assert t.ref.tick(100.0) is None and t.ref.confirm_takeback() is None
    assert t.ref.history == steps, "an empty board held for the take-back time took back the whole game"
    assert t.show(t.ref.state).kind == R.RESTORED


@pytest.mark.parametrize("men, lost, cleared", [(7, 3, False), (7, 4, True), (6, 3, False), (4, 3, True),
                                                (2, 2, False)])
def test_a_board_is_cleared_when_it_lost_more_than_half_of_its_pieces_and_at_least_three(men, lost, cleared):
    steps = ("a1", "a7", "d1", "g7", "b2", "f6", "d2")[:men]  # placements: one man each
    t = Table(NMM, "colour", *steps)
    v = t.show(t.ref._states[len(steps) - lost], t=0.0)  # an earlier position: the last men lifted
    assert v.kind == (R.CLEARED if cleared else R.TAKEBACK_PENDING)


def test_a_cleared_board_in_a_refereed_game_asks_for_the_pieces_back():
    steps = ("a1", "a7", "d1", "g7", "b2", "f6")
    table = SimTable(NMM, "occupancy", history=steps)
    log = table.run("take a1 a7 d1 g7 b2 f6; wait 10")
    assert table.session.history == steps
    said = [a for a in log if a.verdict is not None]
    assert said[-1].verdict.kind == R.CLEARED and said[-1].message.startswith("The board was cleared or covered")
    log = table.run("put a1 white; put d1 white; put b2 white; put a7 black; put g7 black; put f6 black")
    assert table.session.history == steps
    assert [a.verdict.kind for a in log if a.verdict is not None][-1] == R.RESTORED


# ============================================================================ take-backs by holding still
def test_holding_still_does_not_take_back_more_than_one_turn():
    t = Table(NMM, "colour", "a1", "g7", "d1")
    v = t.show(t.ref._states[1], t=10.0)  # two turns back: black's g7 and white's d1
    assert v.kind == R.TAKEBACK_PENDING and "Take back 2 steps?" in v.message and "confirm button" in v.message
    assert t.ref.tick(11.0) is None and t.ref.tick(100.0) is None
    assert t.ref.history == ("a1", "g7", "d1")
    done = t.ref.confirm_takeback()
    assert done.kind == R.TAKEBACK and done.undone == ("g7", "d1")


def test_holding_still_takes_back_one_turn_of_two_steps():
    t = Table(NMM, "colour", *MILL, "xa7")  # white's turn: the mill g1 and the removal xa7
    v = t.show(t.ref._states[4], t=10.0)  # the board before g1
    assert v.kind == R.TAKEBACK_PENDING and "keep the board still" in v.message
    done = t.ref.tick(12.0)
    assert done is not None and done.kind == R.TAKEBACK and done.undone == ("g1", "xa7")


# ============================================================================ point names in notation
UNKNOWN_POINT = [
    ("nine-mens-morris", (), "a1-zz"),  # a move
    ("nine-mens-morris", (), "zz-a1"),
    ("nine-mens-morris", (), "zz"),  # a placement
    ("nine-mens-morris", MILL, "xzz"),  # a removal
    ("sabr", (), "a1*zz"),  # a jump
    ("stack", (), "a1-zz"),
    ("brain-hanky", (), "Oc3.n-zz"),  # a Brain Hanky path
]


@pytest.mark.parametrize("name, steps, text", UNKNOWN_POINT)
def test_a_step_naming_a_point_the_board_does_not_have_is_refused_by_name(name, steps, text):
    game = engine.load(name)
    st = game.new()
    for s in steps:
        st = st.play(s)
    with pytest.raises(IllegalStep, match="zz is not a point"):
        game.rules.parse(text)
    assert "zz is not a point" in st.why_illegal(text)
    ref = Referee.from_steps(game, steps)
    with pytest.raises(ValueError, match="zz is not a point"):  # a step entered with the buttons
        ref.enter(text)
    assert ref.history == tuple(steps)


# ============================================================================ never a guess, at random
@pytest.mark.parametrize("name, sees", [(n, s) for n in ("nine-mens-morris", "morabaraba", "tapatan") for s in READERS]
                         + [("brain-hanky", "colour")])
def test_an_unread_spot_never_makes_the_referee_accept_a_step_that_was_not_made(name, sees):
    """Random positions, a random step made (or none), a random spot unread: whatever the referee
    accepts is the step made, or it says unclear (or, for occupancy, offers candidates)."""
    import random

    game = engine.load(name)
    rng = random.Random(30)
    checked = accepted = 0

    def pick(state):  # Brain Hanky lists thousands of steps: it draws one
        return state.random_step(rng) if hasattr(state, "random_step") else rng.choice(state.legal_steps())

    for _ in range(120 if game.rules.family == "mills" else 40):
        st, steps = game.new(), []
        for _ in range(rng.randint(0, 24)):
            if st.result is not None:
                break
            step = pick(st)
            steps.append(step)
            st = st.play(step)
        if st.result is not None:
            continue
        made = pick(st) if rng.random() < 0.8 else None
        board = st.play(made) if made is not None else st
        ref = Referee.from_steps(game, steps, sees)
        spot = rng.choice(ref.spots)
        v = ref.observe(SimReader(game, sees).read(board, {spot: NOTE}))
        checked += 1
        if v.accepted:
            accepted += 1
            assert v.steps == (made,) or ref.explainer.key(ref.state) == ref.explainer.key(board), \
                (steps, made, spot, v)
        elif made is None:
            assert v.kind in (R.UNCHANGED, R.WAITING_REMOVAL, R.UNCLEAR), (steps, spot, v)
        else:
            assert v.kind in (R.UNCLEAR, R.AMBIGUOUS), (steps, made, spot, v)
            if v.kind == R.AMBIGUOUS:
                assert any(c[:1] == (made,) for c in v.candidates) or sees == "occupancy"
    assert checked > 30 and accepted > checked // 3, (checked, accepted)  # most steps are still accepted


def test_after_resume_an_unread_spot_is_neither_to_put_nor_to_take():
    from arbiter.sim.physical import PhysicalBoard

    game = engine.load(NMM)
    st = game.new()
    for s in MILL + ("xa7",):
        st = st.play(s)
    board = PhysicalBoard.of_state(game, st)
    board.take("d1")  # a white man lost while arbiter was away
    table = SimTable(NMM, "occupancy", history=MILL + ("xa7",), board=board, resumed=True, start=False)
    table.reader.broken["g7"] = NOTE  # the black man on g7 stands on a broken switch
    table.session.start()
    log = table.run("wait 1")
    guided = [a for a in log if a.kind == "guidance"]
    assert guided and guided[-1].message == "The board does not match the saved game: Put a piece on d1."
    table.run("put d1 white")
    assert not table.session.checking and table.session.history == MILL + ("xa7",)
