"""Whole games, start to finish, for every game the engine offers, plus a sanity check of each
game's starting position.

Each script is a literal list of steps. The short ones were worked out by hand; the longer ones
(Shax, Shax-8, some 3x3 games) were found with a small deterministic search and then checked
step by step against the rules; the comments say how each game ends and why.
"""

import pytest

import engine
from helpers import HOME, interleave, owners, play_all

# --------------------------------------------------------------------------- the game scripts
NINE_SHUT_IN = interleave(["g1", "g4", "d7", "a7", "a4", "b2", "f2", "f6", "b6"],
                          ["a1", "g7", "f4", "b4", "d1", "d2", "d6", "c4", "e4"])
NINE_DOWN_TO_TWO = [
    "a1", "b6", "g1", "d6", "g7", "f6", "xg7", "a7", "b2", "c3", "d2", "e3", "f2", "xe3",
    "e4", "c5", "g7", "d5", "c4", "e5", "xa7",
    "c3-d3", "d6-d7", "d3-c3", "d7-d6", "xa1",
    "c3-d3", "d6-d7", "d3-c3", "d7-d6", "xg1",
    "c3-d3", "d6-d7", "d3-c3", "d7-d6", "xg7",
    "c3-a1", "d6-d7", "a1-c3", "d7-d6", "xe4",  # player 1 flies at three, to no avail
]
NINE_REPETITION = interleave(["a1", "g1", "g7", "a7", "d2", "f4", "d6", "b4", "c3"],
                             ["d1", "g4", "d7", "a4", "b2", "f2", "f6", "b6", "e5"]) + \
    ["c3-d3", "e5-e4", "d3-c3", "e4-e5"] * 2
SEVEN = [
    "a1", "a7", "d1", "g7", "g1", "xa7", "a7", "b2", "b6", "f2", "f6", "a4", "g4", "d4", "f4",
    # d1<->d2 swaps between a1-d1-g1 and b2-d2-f2: each swap makes a mill whose breaking move
    # made another, so each one removes (ruling G-5).
    "d1-d2", "xg4", "f4-g4", "d2-d1", "xg4", "f6-f4", "d1-d2", "xf4", "b6-b4", "d2-d1", "xg7",
]
SIX = [
    "a1", "a4", "d1", "a7", "g1", "xa4", "b2", "g4", "f2", "g7", "xa7", "f6", "d7", "b6",
    "a1-a4", "b2-d2", "a4-a7", "xd2",  # a7-d7-g7 is new
    "f2-d2", "a7-a4", "f6-f4", "a4-a1", "xb6",  # a1-d1-g1 was not left on the previous move
]
FIVE = [
    "a1", "a4", "d1", "a7", "g1", "xa4", "b2", "g4", "f2", "g7", "xa7", "f6",
    "a1-a4", "b2-b4", "g7-d7", "f6-d6", "a4-a1", "xb4",
]
THREE_MEN = ["a1", "d4", "g1", "d1", "a7", "a4", "a1-g4", "a4-d7"]
MORABARABA = [
    "a1", "b2", "g1", "d2", "g7", "f2", "xa1", "a7", "f4", "a1", "f6", "xg7",
    "e4", "d6", "e5", "b6", "xa7", "d5", "b4", "xa1", "c4", "c3", "g7", "d3", "a7", "e3", "xa7",
    "a1", "d1", "xa1",
    "g7-d7", "b4-a4", "d7-g7", "a4-b4", "xg1",
    "g7-d7", "b4-a4", "d7-g7", "a4-b4", "xc4",
    "g7-d7", "b4-a4", "d7-g7", "a4-b4", "xd5",
    "g7-g1", "b4-a4", "g1-g7", "a4-b4", "xe4",
]
MORABARABA_TEN_MOVES = MORABARABA[:-5] + [
    "g7-g1", "b4-a4", "g1-g7", "a4-a7", "g7-g1", "a7-d7", "g1-g7", "d7-a7", "g7-g1", "a7-a4",
]
SHAX_FILL = interleave(["a1", "g1", "g7", "a7", "d2", "f4", "d6", "b4", "e5", "d5", "c5", "c4"],
                       ["c3", "d3", "e3", "d1", "g4", "d7", "a4", "b2", "f2", "f6", "b6", "e4"])
SHAX = SHAX_FILL + [
    "xd2", "xd3",  # player 2 made the first jare, so removes first, then moves first
    "b2-d2", "b4-b2", "a4-b4", "a7-a4", "d7-a7", "g7-d7", "xa7", "g4-g7", "d7-a7", "xd2",
    "g7-g4", "a7-d7", "xd1", "f2-d2", "d7-a7", "xe4", "e3-d3", "a7-d7", "xd2", "d3-e3",
    "d7-a7", "xg4", "c3-d3", "a7-d7", "xb4", "d3-d2", "d7-a7", "xb6", "e3-d3", "b2-b4", "xd3",
]
SHAX8 = interleave(["a1", "g1", "g7", "a7", "d2", "f4", "d6", "b4"],
                   ["d1", "g4", "d7", "a4", "b2", "f2", "f6", "b6"]) + [
    "xf4", "xd1",  # no jare while placing: player 2 removes first
    "f2-f4", "d2-d1", "xb2", "f4-f2", "d1-d2", "f6-f4", "d2-d1", "xa4", "f2-d2", "b4-a4", "xg4",
    "f4-g4", "a4-b4", "d2-f2", "b4-a4", "xd7", "g4-f4", "d6-d7", "xf4",
]
JARE = ["a1", "a7", "a4", "g1", "d1", "d4",  # player 1 is shut in and passes
        "g1-g4", "d1-g1", "d4-d7", "a1-d1", "g4-g7"]
TAPATAN = ["a1", "d1", "g1", "a4", "a7", "g4", "a1-d4"]
ACHI_SHUT_IN = ["g1", "d4", "g4", "g7", "a7", "a4", "d7", "d1"]
ACHI_LINE = ["a1", "d1", "g1", "a4", "d4", "a7", "g4", "d7", "d4-g7"]  # g1-g4-g7
TANT_FANT = ["a1-a4", "g7-g4", "g1-d4", "d7-g7", "d4-d7", "g4-g1", "d1-d4", "g7-g4", "d4-g7",
             "a7-d4", "a4-a7"]
TANT_FANT_P2 = ["a1-a4", "a7-d4", "d1-a1", "d4-d1", "a1-d4", "g7-g4", "d4-a7", "d7-d4", "a7-d7",
                "d4-a1", "g1-d4", "g4-g1"]
SHISIMA = ["a1-a4", "a7-d4", "a4-a7", "d4-a1", "d1-d4"]
SHISIMA_REPETITION = ["a1-a4", "g7-g4", "a4-a1", "g4-g7"] * 2
SABR = ["a1-a4", "a7*a1", "g1-g4", "g7*g1"]
SABR_JUMP_WIN = ["a1-a4", "a7-d4", "a4-a7", "g7-g4", "g1*g7"]

# (game, options, steps, winner or None for a draw, words one of which the reason must contain)
COMPLETE = [
    ("nine-mens-morris", {}, NINE_SHUT_IN, 2, ("move",)),
    ("nine-mens-morris", {}, NINE_DOWN_TO_TWO, 2, ("2", "two")),
    ("nine-mens-morris", {}, NINE_REPETITION, None, ("third", "repet", "three")),
    ("seven-mens-morris", {}, SEVEN, 1, ("2", "two")),
    ("six-mens-morris", {}, SIX, 1, ("2", "two")),
    ("five-mens-morris", {}, FIVE, 1, ("2", "two")),
    ("three-mens-morris", {}, THREE_MEN, 2, ("line", "row")),
    ("morabaraba", {}, MORABARABA, 2, ("2", "two")),
    ("morabaraba", {}, MORABARABA_TEN_MOVES, None, ("ten", "10")),
    ("shax", {}, SHAX, 1, ("2", "two")),
    ("shax-8", {}, SHAX8, 1, ("2", "two")),
    ("jare", {}, JARE, 2, ("line", "row")),
    ("tapatan", {}, TAPATAN, 1, ("line", "row")),
    ("achi", {}, ACHI_SHUT_IN, 2, ("move",)),
    ("achi", {}, ACHI_LINE, 1, ("line", "row")),
    ("tant-fant", {}, TANT_FANT, 1, ("line", "row")),
    ("tant-fant", {}, TANT_FANT_P2, 2, ("line", "row")),
    ("shisima", {}, SHISIMA, 1, ("line", "row")),
    ("shisima", {}, SHISIMA_REPETITION, None, ("third", "repet", "three")),
    ("sabr", {}, SABR, 2, ("line", "row")),
    ("sabr", {}, SABR_JUMP_WIN, 1, ("line", "row")),
    # no placement in Shisima, so every step counts towards the cap (ruling G-3)
    ("shisima", {"move_cap": 6}, ["a1-a4", "g7-g4", "a4-a1", "g4-g7", "a1-a4", "g7-g4"], None,
     ("cap", "6", "moves")),
]


def _id(case):
    game, options, steps, winner, _ = case
    end = "draw" if winner is None else f"p{winner}"
    return f"{game}-{end}-{len(steps)}"


@pytest.mark.parametrize("case", COMPLETE, ids=[_id(c) for c in COMPLETE])
def test_complete_game(case):
    game, options, steps, winner, words = case
    s = play_all(game, steps[:-1], **options)
    assert s.result is None, f"the game ended early: {s.result}"
    s = s.play(steps[-1])
    assert s.result is not None, "the last step should end the game"
    assert s.phase == "over" and s.legal_steps() == ()
    if winner is None:
        assert s.result.draw and s.result.winner is None
    else:
        assert s.result.winner == winner and not s.result.draw
    reason = s.result.reason.lower()
    assert any(w in reason for w in words), reason
    for text in steps[-1:] + ["a1", "xa1", "a1-a4"]:  # nothing more may be played
        assert s.why_illegal(text)
        with pytest.raises(engine.IllegalStep):
            s.play(text)


MILL_GAMES = [n for n in engine.names() if engine.spec(n).family == "mills"]


def test_every_game_has_a_complete_game():
    covered = {case[0] for case in COMPLETE}
    assert set(MILL_GAMES) <= covered, set(MILL_GAMES) - covered


def test_the_catalogue_lists_the_rulebook_games():
    expected = {"nine-mens-morris", "seven-mens-morris", "six-mens-morris", "five-mens-morris",
                "three-mens-morris", "morabaraba", "shax", "shax-8", "jare", "tapatan", "achi",
                "tant-fant", "shisima", "sabr"}
    assert expected <= set(engine.names())


# ------------------------------------------------------------------------------ start states
MEN = {"nine-mens-morris": 9, "seven-mens-morris": 7, "six-mens-morris": 6, "five-mens-morris": 5,
       "three-mens-morris": 3, "morabaraba": 12, "shax": 12, "shax-8": 8, "jare": 3, "tapatan": 3,
       "achi": 4}
POINTS = {"nine-mens-morris": 24, "seven-mens-morris": 17, "six-mens-morris": 16, "five-mens-morris": 16,
          "three-mens-morris": 9, "morabaraba": 24, "shax": 24, "shax-8": 16, "jare": 9, "tapatan": 9,
          "achi": 9}
FIXED_START = {
    "tant-fant": {p: 1 for p in HOME[1]} | {p: 2 for p in HOME[2]},
    "shisima": {p: 1 for p in HOME[1]} | {p: 2 for p in HOME[2]},
    "sabr": {"a1": 1, "d1": 2, "g1": 1, "a7": 2, "d7": 1, "g7": 2},
}


@pytest.mark.parametrize("name", MILL_GAMES)
def test_start_state_is_sane(name):
    s = engine.load(name).new()
    assert s.result is None and s.to_move == 1
    assert s.captured_by(1) == s.captured_by(2) == 0
    assert engine.load(name).options["move_cap"] == 200  # ruling G-3 default
    if name in FIXED_START:
        assert s.phase == "movement"
        assert owners(s) == FIXED_START[name]
        assert s.in_hand(1) == s.in_hand(2) == 0
        assert all("-" in str(m) or "*" in str(m) for m in s.legal_steps())
        assert all(owners(s)[str(m).replace("*", "-").split("-")[0]] == 1 for m in s.legal_steps())
    else:
        assert name in MEN, f"no rulebook numbers written down for {name}"
        assert s.phase == "placement" and owners(s) == {}
        assert s.in_hand(1) == s.in_hand(2) == MEN[name]
        assert len(s.legal_steps()) == POINTS[name]  # any empty point may take the first man
        assert all(len(str(m)) == 2 for m in s.legal_steps())


@pytest.mark.parametrize("name", MILL_GAMES)
def test_start_is_fresh_each_time(name):
    g = engine.load(name)
    a, b = g.new(), g.new()
    first = a.legal_steps()[0]
    a.play(first)
    assert owners(b) == owners(g.new()) and b.to_move == 1


def test_unknown_game_and_bad_options():
    with pytest.raises(engine.UnknownGame):
        engine.load("eleven-mens-morris")
    with pytest.raises(engine.BadOption):
        engine.load("nine-mens-morris", move_cap=-1)
    with pytest.raises(engine.BadOption):
        engine.load("tapatan", move_cap="lots")
    with pytest.raises(engine.BadOption):
        engine.load("achi", no_such_option=True)
    assert engine.load("achi", move_cap=0).new().result is None  # 0 switches the cap off
