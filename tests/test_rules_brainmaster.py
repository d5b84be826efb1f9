"""Rulebook-driven tests for Brainmaster (seed 002; rulings BM-1 and BM-2, docs/rules.md).

Notation: the code ``code=RBGY`` (a secret step), a guess ``3:RBGY`` (row 3), an answer ``3:2b1w``
(2 black, 1 white indicator pegs), and the calls ``next-code`` and ``next-round``. Colours: R red,
B blue, G green, Y yellow, O orange, P purple, C cyan, M magenta.
"""

import random

import pytest

import engine
from engine.core import Piece
from engine.rules.brainmaster import BLACK, WHITE, score, wrong_rows
from helpers import legal, play_all, reason_of

R, B, G, Y, O, P = range(6)


def crack(row: int, code: str) -> list[str]:
    """The breaker guesses ``code`` in ``row`` and the maker answers four black pegs."""
    return [f"{row}:{code}", f"{row}:4b0w"]


# ------------------------------------------------------------------------------ BM-1: the score
@pytest.mark.parametrize("secret, guess, black, white", [
    ((R, B, G, Y), (R, B, G, Y), 4, 0),
    ((R, B, G, Y), (Y, G, B, R), 0, 4),
    ((R, B, G, Y), (O, O, O, O), 0, 0),
    ((R, B, G, Y), (R, G, O, O), 1, 1),
    # Repeated colours: a peg of the code is matched at most once.
    ((R, R, B, B), (R, B, R, B), 2, 2),
    ((R, R, B, B), (B, B, B, B), 2, 0),  # only the code's two blues can be matched, both in place
    ((R, B, G, Y), (R, R, R, R), 1, 0),  # one red in the code: one black, no white for the other reds
    ((R, R, R, B), (B, R, O, O), 1, 1),  # the red in place is black; the blue in the wrong hole white
    ((R, R, G, G), (G, G, R, O), 0, 3),  # two greens and one red are right but misplaced
    ((Y, Y, Y, R), (R, Y, O, Y), 1, 2),  # the second yellow in place; the red and the last yellow misplaced
    ((O, B, O, B), (B, O, O, O), 1, 2),  # the third orange in place; a blue and an orange misplaced
])
def test_black_for_place_white_for_colour_without_double_counting(secret, guess, black, white):  # BM-1
    assert score(secret, guess) == (black, white)


def test_the_score_is_the_same_whichever_is_the_secret():
    rng = random.Random(4)
    for _ in range(300):
        a = tuple(rng.randrange(6) for _ in range(4))
        b = tuple(rng.randrange(6) for _ in range(4))
        assert score(a, b) == score(b, a)


# ------------------------------------------------------------------- a code, row by row
def test_the_maker_sets_the_code_first_then_the_breaker_fills_row_one():
    s = engine.load("brainmaster").new()
    assert s.phase == "set-up" and s.stage == "code" and s.to_move == 1 and s.private_to == 1
    assert "sets the code" in reason_of(s, "1:RBGY")
    s = s.play("code=RBGY")
    assert s.stage == "guess" and s.to_move == 2 and s.private_to is None
    assert "set once" in reason_of(s, "code=OOOO")
    assert "row 1" in reason_of(s, "2:RBGY")
    s = s.play("1:RROO")
    assert s.stage == "answer" and s.to_move == 1
    assert legal(s) == {"1:1b0w"}  # only the true answer may be given (BM-2)
    assert "answers row 1" in reason_of(s, "2:RBGY")


def test_a_guess_puts_its_four_pegs_and_an_answer_its_indicator_pegs_in_the_row():
    s = play_all("brainmaster", ["code=RBGY", "1:RGOB", "1:1b2w"])
    pos = s.position()
    assert [pos[f"r1{h}"] for h in "abcd"] == [Piece(3 + c, "code") for c in (R, G, O, B)]
    assert pos["r1k1"] == Piece(BLACK, "key") and pos["r1k2"] == pos["r1k3"] == Piece(WHITE, "key")
    assert "r1k4" not in pos and not any(p.startswith("r2") for p in pos)
    assert s.rules.step_spots(s.rules.parse("2:RBGY")) == ("r2a", "r2b", "r2c", "r2d")
    assert s.rules.step_spots(s.rules.parse("1:1b2w")) == ("r1k1", "r1k2", "r1k3")


def test_only_colours_in_play_and_whole_codes_are_accepted():
    s = play_all("brainmaster", ["code=RBGY"])
    assert "p is not a colour in play" in reason_of(s, "1:RBGP")  # five colours: R B G Y O
    assert "4 pegs" in reason_of(s, "1:RBG")
    assert "rows 1 to 10" in reason_of(s, "11:RBGY")
    six = play_all("brainmaster", ["code=RBGP"], colours=6)
    assert six.stage == "guess"


# ------------------------------------------------------------- BM-2: checking the indicator pegs
def test_a_miscounted_indicator_row_is_refused_naming_the_row_and_the_true_count():  # BM-2
    s = play_all("brainmaster", ["code=RRBG", "1:OOOO", "1:0b0w", "2:RBRY", "2:1b2w", "3:GRBR"])
    # Row 3, GRBR against RRBG: R in hole 2 and B in hole 3 are black; G and R misplaced: 2 black 2 white.
    why = reason_of(s, "3:3b1w")
    assert "row 3" in why and "3 black and 1 white given" in why and "2 black and 2 white" in why
    assert "bm-2" in why
    assert "row 3" in reason_of(s, "3:0b0w")
    with pytest.raises(engine.IllegalStep) as info:
        s.play("3:2b1w")
    assert "row 3" in info.value.reason
    assert s.play("3:2b2w").rows[-1][1] == (2, 2)


def test_the_whole_board_check_names_every_wrong_row():  # BM-2, a board read at once
    code = (R, R, B, G)
    rows = [((O, O, O, O), (0, 0)), ((R, B, R, Y), (1, 1)), ((G, R, B, R), (2, 2)), ((R, R, B, B), (3, 0))]
    assert wrong_rows(code, rows) == [2]  # RBRY against RRBG is 1 black and 2 white, not 1 and 1
    rows[3] = ((R, R, B, B), (2, 0))
    assert wrong_rows(code, rows) == [2, 4]
    assert wrong_rows(code, rows[:1] + [((R, B, R, Y), None)]) == []  # an unanswered row is not judged


# --------------------------------------------------------------------- ending a code, scoring
def test_four_black_pegs_crack_the_code_and_reveal_it():
    s = play_all("brainmaster", ["code=RBGY", "1:RBGO", "1:3b0w"] + crack(2, "RBGY"))
    assert s.phase == "round-over" and s.stage == "code-over"
    assert any("cracked" in e and "RBGY" in e and "2 rows" in e for e in s.events)
    assert s.revealed == ("RBGY",) and s.secrets() == {}
    assert legal(s) == {"next-code"}
    assert "next-code" in reason_of(s, "next-round")


def test_the_roles_swap_for_the_second_code_of_a_round():
    s = play_all("brainmaster", ["code=RBGY"] + crack(1, "RBGY") + ["next-code"])
    assert s.position() == {}  # the board is cleared
    assert s.maker == 2 and s.breaker == 1 and s.to_move == 2 and s.private_to == 2
    s = s.play("code=OOOO")
    assert s.to_move == 1 and s.secrets() == {2: {"code": "OOOO"}}


def test_a_code_not_cracked_in_every_row_holds_and_the_maker_scores():  # BM-2
    steps = ["code=RBGY"]
    for row in range(1, 9):
        steps += [f"{row}:OOOO", f"{row}:0b0w"]
    s = play_all("brainmaster", steps, rows=8)
    assert s.stage == "code-over" and any("held" in e and "RBGY" in e for e in s.events)
    s = play_all("brainmaster", ["next-code", "code=OOOO"] + crack(1, "OOOO"), state=s)
    # Player 1's code held: one point to player 1, who also cracked the other code (no second point).
    assert s.result.winner == 1 and s.scores == (1, 0)


@pytest.mark.parametrize("first, second, points", [
    (3, 5, (0, 1)),   # player 2 broke player 1's code in 3 rows, player 1 needed 5: player 2 scores
    (6, 2, (1, 0)),   # player 1 broke player 2's code quicker
    (4, 4, (0, 0)),   # equal rows: nobody scores (docs/rules.md)
    (None, 7, (1, 0)),  # player 1's code held: player 1 scores (and cracked the other code anyway)
    (5, None, (0, 1)),  # player 2's code held
    (None, None, (1, 1)),  # both held: each maker scores
])
def test_a_rounds_point_goes_to_the_quicker_breaker_or_the_maker_of_a_code_that_held(first, second, points):
    rows = 8
    steps = []
    for half, (code, n) in enumerate((("RBGY", first), ("YGBR", second))):
        steps += ["code=" + code] if half == 0 else ["next-code", "code=" + code]
        misses = rows if n is None else n - 1
        for row in range(1, misses + 1):
            steps += [f"{row}:OOOO", f"{row}:0b0w"]
        if n is not None:
            steps += crack(n, code)
    s = play_all("brainmaster", steps, rows=rows)
    assert s.scores == points
    a, b = points
    if a == b:
        assert s.result.draw and s.result.winner is None
    else:
        assert s.result.winner == (1 if a > b else 2) and not s.result.draw


def test_a_match_runs_its_agreed_rounds_and_most_points_wins():
    round_ = ["code=RBGY"] + crack(1, "RBGY") + ["next-code", "code=GGGG", "1:OOOO", "1:0b0w"] + crack(2, "GGGG")
    s = play_all("brainmaster", round_, rounds=2)
    assert s.result is None and s.stage == "code-over" and s.scores == (0, 1)
    assert legal(s) == {"next-round"}
    s = s.play("next-round")
    assert s.round_no == 2 and s.maker == 1 and s.position() == {}
    s = play_all("brainmaster", round_, state=s)
    assert s.scores == (0, 2) and s.result.winner == 2 and "2 rounds" in s.result.reason
    assert "game is over" in reason_of(s, "next-round")


def test_the_row_limit_follows_the_rows_option():
    for rows in (8, 12):
        g = engine.load("brainmaster", rows=rows)
        assert len(g.board.points) == rows * 8
        assert f"rows 1 to {rows}" in reason_of(play_all(g, ["code=RBGY"]), f"{rows + 1}:RBGY")
    with pytest.raises(engine.BadOption):
        engine.load("brainmaster", rows=7)
    with pytest.raises(engine.BadOption):
        engine.load("brainmaster", colours=9)
    with pytest.raises(engine.BadOption):
        engine.load("brainmaster", pegs=5)


# ------------------------------------------------------------------------------ secrets, solo
def test_the_code_step_is_shown_to_others_only_as_code():
    s = engine.load("brainmaster").new()
    rules = s.rules
    assert rules.public_text("code=RBGY") == "code" and rules.public_text("1:RBGY") == "1:RBGY"
    with pytest.raises(engine.IllegalStep) as info:
        play_all("brainmaster", ["code=RBGY"]).play("code=OOOO")
    assert "OOOO" not in str(info.value)  # a refused secret is not echoed
    from engine.words import describe_step

    said = describe_step(rules, s, rules.parse("code=RBGY"))
    assert "code" in said and "RBGY" not in said  # what a referee would announce
    s = s.play("code=RBGY")
    assert all("RBGY" not in e for e in s.events)
    assert s.secrets() == {1: {"code": "RBGY"}}
    assert rules.explainer("colour").unseen_steps(engine.load("brainmaster").new()) == []  # never on the buttons


def test_solo_the_companion_draws_the_code_and_names_each_answer():
    g = engine.load("brainmaster", solo=True, rounds=2)
    assert g.players == 1 and g.rules.draws_private
    with pytest.raises(ValueError):
        g.new()
    code = g.rules.encode((R, R, B, G))
    s = g.new(draws=[code, 0])
    assert s.stage == "guess" and s.to_move == 1 and s.private_to is None and s.secrets() == {}
    assert "companion makes the code" in reason_of(s, "code=RBGY")
    s = s.play("1:RBRY")
    assert s.events == ("row 1: 1 black and 2 white",)
    s = play_all(g, ["1:1b2w"] + crack(2, "RRBG") + ["next-round"], state=s)
    assert s.round_no == 2 and s.draws() == [code, 0]
    s = play_all(g, crack(1, "RRRR"), state=s)
    assert s.result.winner == 1 and "3 rows" in s.result.reason


def test_solo_draws_come_from_the_rng_and_replay_the_same():
    g = engine.load("brainmaster", solo=True)
    s = g.new(draws=random.Random(7))
    again = g.new(draws=s.draws())
    assert again.code == s.code and len(s.draws()) == 1


def test_a_solo_code_that_holds_ends_the_game_without_a_win():
    g = engine.load("brainmaster", solo=True, rows=8)
    s = g.new(draws=[g.rules.encode((R, R, R, R))])
    for row in range(1, 9):
        s = play_all(g, [f"{row}:OOOO", f"{row}:0b0w"], state=s)
    assert s.result.winner is None and not s.result.draw and "held" in s.result.reason


# ------------------------------------------------------------------------------ complete games
@pytest.mark.parametrize("options", [{}, {"colours": 2}, {"colours": 8, "rows": 12}, {"rows": 8, "rounds": 3},
                                     {"colours": 6}])
def test_complete_random_matches_end_with_the_rules_score(options):
    g = engine.load("brainmaster", **options)
    rng = random.Random(11)
    s = g.new()
    for _ in range(2000):
        if s.result is not None:
            break
        steps = s.legal_steps()
        s = s.play(steps[rng.randrange(len(steps))])
    assert s.result is not None
    rounds = g.options["rounds"]
    assert len(s.done) == 2 * rounds and sum(s.scores) <= 2 * rounds


def test_a_complete_solo_game_with_the_solver_cracks_every_code():
    from engine.codebreaker import hint

    g = engine.load("brainmaster", solo=True, rounds=3, colours=4)
    s = g.new(draws=random.Random(3))
    while s.result is None:
        if s.stage == "code-over":
            s = s.play("next-round")
        elif s.stage == "answer":
            s = s.play(s.legal_steps()[0])  # the player puts the pegs the companion named
        else:
            s = s.play(hint(s).best[0])
    assert s.result.winner == 1 and all(c.cracked and c.rows <= 6 for c in s.done)


def test_other_families_keep_nothing_secret():
    s = engine.load("nine-mens-morris").new()
    assert s.private_to is None and s.secrets() == {}
    assert s.rules.public_text("d2") == "d2" and not s.rules.draws_private
