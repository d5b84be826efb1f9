"""The referee weighs an unsure reading by the reader's per-spot class probabilities.

A camera under a lamp may see a glossy black man as half white. The rules know which boards may
come next; the referee takes the explanation the reading supports clearly best, never a step the
reading does not clearly show, and never stops the game for a spot no legal step explains.
"""

from __future__ import annotations

import engine
from arbiter import referee as R
from arbiter.referee import Referee
from engine.core import Piece
from engine.observation import Observation, Reading

W, B = Piece(1, "man"), Piece(2, "man")
WV, BV = (1, "man"), (2, "man")


def reading(position, unsure=None, sees="colour", game="nine-mens-morris") -> Observation:
    """What a camera reports of ``position``, sure of every spot but those in ``unsure``
    (spot -> {value: probability}); the chosen piece is the most likely value."""
    g = engine.load(game)
    unsure = unsure or {}
    points = {}
    for spot in g.rules.spots:
        if spot in unsure:
            probs = unsure[spot]
            best = max(probs, key=probs.get)
            piece = None if best is None else Piece(*best)
            points[spot] = Reading(piece, probs[best], probs=probs)
        else:
            piece = position.get(spot)
            value = None if piece is None else (piece.owner, piece.kind)
            points[spot] = Reading(piece, 1.0, probs={value: 0.999})
    return Observation(points, sees)


def referee_after(*steps, game="nine-mens-morris") -> Referee:
    return Referee.from_steps(engine.load(game), list(steps))


def test_a_misread_man_no_step_explains_reads_as_the_board_unchanged():
    ref = referee_after("d2", "d6", "b4")
    pos = ref.state.position()  # black's d6 under the lamp: 0.6 white, 0.4 black
    v = ref.observe(reading(pos, {"d6": {WV: 0.6, BV: 0.4}}))
    assert v.kind == R.UNCHANGED and not v.accepted and ref.waiting_for is None


def test_a_step_made_beside_a_misread_man_is_accepted():
    ref = referee_after("d2", "d6", "b4")
    pos = dict(ref.state.position())
    pos["f4"] = B  # black places on f4 while d6 reads half white
    v = ref.observe(reading(pos, {"d6": {WV: 0.55, BV: 0.45}}))
    assert v.kind == R.STEP and v.steps == ("f4",)


def test_a_placement_read_unsure_between_two_colours_is_taken_for_the_player_to_move():
    ref = referee_after("d2", "d6")
    pos = dict(ref.state.position())
    pos["f4"] = W  # white to move; the new man reads 0.6 black
    v = ref.observe(reading(pos, {"f4": {BV: 0.6, WV: 0.4}}))
    assert v.kind == R.STEP and v.steps == ("f4",)


def test_two_readings_that_explain_different_steps_about_equally_are_not_guessed_at():
    ref = referee_after("d2", "d6")
    pos = dict(ref.state.position())  # white to move: a man on f4 or on b4, the camera cannot tell
    v = ref.observe(reading(pos, {"f4": {WV: 0.5, None: 0.5}, "b4": {WV: 0.45, None: 0.55}}))
    assert v.kind == R.UNCLEAR and not v.accepted and set(v.points) == {"f4", "b4"}
    assert len(ref.history) == 2
    clear = dict(pos)
    clear["f4"] = W
    assert ref.observe(reading(clear)).steps == ("f4",)


def test_an_unclear_board_names_the_spots_in_question_not_every_doubt():
    """Where two steps explain a board about equally, the players are shown the spots that tell
    them apart, not a man elsewhere that the reader doubted but no rival reading needs (black's
    d6 under a lamp: reading it white explains nothing)."""
    ref = referee_after("d2", "d6")
    pos = dict(ref.state.position())
    v = ref.observe(reading(pos, {"f4": {WV: 0.5, None: 0.5}, "b4": {WV: 0.45, None: 0.55},
                                  "d6": {BV: 0.7, WV: 0.3}}))
    assert v.kind == R.UNCLEAR and not v.accepted
    assert set(v.points) == {"f4", "b4"} and "d6" not in v.message


def test_a_sure_illegal_change_is_still_illegal():
    ref = referee_after("d2", "d6")
    pos = dict(ref.state.position())
    pos["f4"] = B  # black places out of turn, and the camera is sure of it
    # b6 may be a black man: no reading of it makes the board legal
    v = ref.observe(reading(pos, {"b6": {None: 0.9, BV: 0.1}}))
    assert v.kind == R.ILLEGAL and v.reason == "it is white's turn, not black's"


def test_an_illegal_board_a_doubted_spot_would_make_legal_is_unclear_for_a_while():
    """Black's f4 out of turn is legal if white's b6 went down first, and the reader gave b6 one
    chance in ten of being a white man: "something else happened" is then no likelier than
    that, so the players are shown b6, not told of an illegal move; but a board held so past
    ``doubt_hold_s`` is taken as read and called illegal."""
    ref = referee_after("d2", "d6")
    pos = dict(ref.state.position())
    pos["f4"] = B
    v = ref.observe(reading(pos, {"b6": {None: 0.9, WV: 0.1}}), t=10.0)
    assert v.kind == R.UNCLEAR and v.points == ("b6",) and not v.accepted
    assert ref.tick(11.0) is None and ref.waiting_for == R.UNCLEAR
    v = ref.tick(10.0 + ref.doubt_hold_s)
    assert v.kind == R.ILLEGAL and v.reason == "it is white's turn, not black's" and "f4" in v.points
    assert len(ref.history) == 2 and ref.waiting_for == R.ILLEGAL


def test_a_piece_read_surely_as_the_other_colour_beside_a_legal_step_is_unclear_not_illegal():
    """A glass gem read as the other metal with 3 chances in 10000 (a window mirrored whole):
    white's new man on f4 with black's d6 read white is no legal board, yet the step is the
    likeliest story. Nothing is accepted through so long a doubt; the players are shown d6, and
    the next clearer look is the step."""
    ref = referee_after("d2", "d6")
    pos = dict(ref.state.position())
    pos["f4"] = W
    pos["d6"] = W
    v = ref.observe(reading(pos, {"d6": {WV: 0.9997, BV: 0.0003}}))
    assert v.kind == R.UNCLEAR and v.points == ("d6",) and len(ref.history) == 2
    pos["d6"] = B
    v = ref.observe(reading(pos))
    assert v.kind == R.STEP and v.steps == ("f4",)
    # a doubt the reader never gave (under ``DOUBT_P``) keeps the board illegal
    ref = referee_after("d2", "d6")
    pos["d6"] = W
    v = ref.observe(reading(pos, {"d6": {WV: 0.99999, BV: 0.00001}}))
    assert v.kind == R.ILLEGAL


def test_a_doubted_board_read_clearly_as_it_was_is_unchanged_not_restored():
    ref = referee_after("d2", "d6")
    pos = dict(ref.state.position())
    odd = dict(pos)
    odd["d6"] = W  # no legal board, unless d6 is still black (one chance in a thousand)
    assert ref.observe(reading(odd, {"d6": {WV: 0.999, BV: 0.001}})).kind == R.UNCLEAR
    assert ref.observe(reading(pos)).kind == R.UNCHANGED and ref.waiting_for is None


def test_an_unsure_spot_never_makes_a_step_the_reading_does_not_support():
    ref = referee_after("d2", "d6")
    pos = ref.state.position()  # nothing new; f4 is a faint smudge (0.03 a white man)
    v = ref.observe(reading(pos, {"f4": {None: 0.97, WV: 0.03}}))
    assert v.kind == R.UNCHANGED and not v.accepted


def test_the_probabilities_coarsen_for_an_occupancy_referee():
    g = engine.load("nine-mens-morris")
    ref = Referee.from_steps(g, ["d2", "d6"], sees="occupancy")
    pos = dict(ref.state.position())
    pos["f4"] = W  # a colour camera's reading refereed as occupancy: unsure whose, sure it is a man
    v = ref.observe(reading(pos, {"f4": {WV: 0.5, BV: 0.48, None: 0.02}}))
    assert v.kind == R.STEP and v.steps == ("f4",)


def test_probabilities_survive_the_json_of_a_reading():
    obs = reading({}, {"d6": {WV: 0.6, BV: 0.4}})
    back = Observation.from_json(obs.to_json())
    assert back.points["d6"].probs == {WV: 0.6, BV: 0.4}
    assert back.points["d6"].piece == W


def test_a_surely_misread_man_on_a_still_board_does_not_stop_the_game():
    ref = referee_after("d2", "d6", "b4")
    pos = ref.state.position()  # d6 reads 0.9 white: no legal step explains a white man there
    v = ref.observe(reading(pos, {"d6": {WV: 0.9, BV: 0.1}}))
    assert v.kind == R.UNCHANGED and ref.waiting_for is None


def test_brain_hanky_a_misread_ring_beside_a_move_is_read_through():
    g = engine.load("brain-hanky")
    rings = {"Oc3.n": 1, "Oc3.e": 1, "Oc3.s": 1, "Od4.w": 2, "Bd4.n": 2}
    state = g.rules.setup(rings=rings, gems={"Oc3": 1, "Ob2": 2})
    ref = Referee(g, "colour", state=state)
    after = state.play("Oc3.n-Oc3.w")
    probs = {"Od4.w": {(1, "ring"): 0.55, (2, "ring"): 0.45}}  # a yellow ring glints white
    v = ref.observe(reading(after.position(), probs, game="brain-hanky"))
    assert v.kind == R.STEP and v.steps == ("Oc3.n-Oc3.w",)


def test_a_session_shows_a_doubted_board_as_unclear_then_as_illegal_once_held():
    """Through ``arbiter.session``: the stabiliser passes the doubted board once, the players see
    "unclear" at b6, and with nothing clearer seen for ``doubt_hold_s`` the session's ticks turn it
    into the illegal verdict, with the red lights."""
    from arbiter.session import Session

    game = engine.load("nine-mens-morris")
    ref = referee_after("d2", "d6")
    pos = dict(ref.state.position())
    pos["f4"] = B  # out of turn; b6 one chance in ten a white man

    class Doubting:
        sees = "colour"

        def read(self):
            return reading(pos, {"b6": {None: 0.9, WV: 0.1}})

    clock = [0.0]
    session = Session(game, Doubting(), history=["d2", "d6"], now=lambda: clock[0])
    kinds = []
    for _ in range(60):  # six seconds at ten frames a second
        clock[0] += 0.1
        kinds += [a.kind for a in session.poll() if a.verdict is not None]
    assert kinds[:1] == [R.UNCLEAR] and R.ILLEGAL in kinds
    assert len(session.history) == 2 and session.referee.waiting_for == R.ILLEGAL
    shown = session.last_verdict
    assert shown.kind == R.ILLEGAL and "f4" in shown.points


def test_two_moves_of_a_turn_seen_at_once_after_a_doubted_look_keep_the_order_that_look_showed():
    """A Brain Hanky turn places two clusters, in either order. The look after the first showed
    it made, with its gem read surely as the other metal (unclear); the next showed both. Either
    order leaves the same game; the record keeps the one the doubted look showed, whichever the
    explainer would have found first."""
    g = engine.load("brain-hanky")
    start = g.new()
    a = start.parse("Oc3")
    b = start.play(a).parse("Bd5")
    both = start.play(a).play(b)
    assert start.play(b).play(a).position() == both.position()
    found = Referee(g, "colour").observe(reading(both.position(), game="brain-hanky")).steps
    assert set(found) == {"Oc3", "Bd5"}
    later, sooner = (start.parse(found[0]), start.parse(found[1]))  # the explainer's order, reversed
    ref = Referee(g, "colour")
    half = start.play(sooner).position()
    gem = str(sooner)
    misread = {gem: {(2, "gem"): 0.9997, (1, "gem"): 0.0003}}  # white's new gem read as gold
    v = ref.observe(reading(half, misread, game="brain-hanky"))
    assert v.kind == R.UNCLEAR and v.points == (gem,)
    v = ref.observe(reading(both.position(), game="brain-hanky"))
    assert v.kind == R.STEPS and v.steps == (str(sooner), str(later))
    assert ref.state.position() == both.position() and ref.state.to_move == both.to_move
