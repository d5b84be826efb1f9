"""Brainmaster's code breaker (engine/codebreaker.py) and its hints (arbiter hint, the menu button).

The numbers it reaches over every secret are measured by ``benchmarks/mastermind.py``; here, that
its tables agree with the rules' own score, that the codes it calls possible are exactly the ones
that fit the rows, and that its hints are offered where the project offers hints.
"""

import itertools
import random

import numpy as np
import pytest

import engine
from arbiter.hints import HintError, HintStore, solved_games
from engine.codebreaker import CodeHint, Codebreaker, hint
from engine.rules.brainmaster import score
from helpers import play_all


@pytest.fixture(scope="module")
def four():
    return Codebreaker(4, 4, width=6, limit=5)


def test_the_score_table_is_the_rules_score_for_every_pair(four):
    codes = list(itertools.product(range(4), repeat=4))
    for gi, g in enumerate(codes):
        for si, s in enumerate(codes):
            b, w = score(s, g)
            assert four.scores[gi, si] == b * 5 + w


def test_the_possible_codes_are_exactly_those_that_fit_every_row(four):
    rng = random.Random(2)
    codes = list(itertools.product(range(4), repeat=4))
    for _ in range(20):
        secret = rng.choice(codes)
        rows = [(g, score(secret, g)) for g in rng.sample(codes, rng.randrange(1, 4))]
        fits = [i for i, c in enumerate(codes) if all(score(c, g) == a for g, a in rows)]
        assert list(four.possible(rows)) == fits and codes.index(secret) in fits


def test_a_guess_is_always_a_code_and_the_last_possible_code_is_played(four):
    assert four.choose(np.array([37])) == 37
    assert four.choose(np.array([5, 9])) == 5
    with pytest.raises(ValueError, match="answer must be wrong"):
        four.choose(np.array([], dtype=np.int64))


def test_every_secret_is_found_within_five_guesses_with_four_colours(four):
    counts = []

    def walk(left, depth):
        g = four.choose(left, depth)
        answers = four.scores[g, left]
        for a in np.unique(answers):
            part = left[answers == a]
            if a == four.win:
                counts.append(depth + 1)
            else:
                walk(part, depth + 1)

    walk(np.arange(four.n), 0)
    assert len(counts) == 256 and max(counts) <= 5 and sum(counts) / 256 < 4.0


def test_a_stored_opening_gives_the_same_first_two_guesses(four):
    book = four.opening()
    fresh = Codebreaker(4, 4, width=6, limit=5)
    fresh.load_opening(book)
    everything = np.arange(four.n)
    assert fresh.choose(everything) == book["first"]
    answers = four.scores[book["first"]]
    for a, g in book["second"].items():
        assert fresh.choose(everything[answers == a], 1) == g
    with pytest.raises(ValueError, match="another game size"):
        Codebreaker(3, 4).load_opening(book)


def test_the_hint_counts_possible_codes_and_names_the_next_row():
    s = play_all("brainmaster", ["code=RBGY", "1:RRBB", "1:1b1w"], colours=4)
    got = hint(s)
    assert isinstance(got, CodeHint) and got.outcome == "open"
    rows = [((0, 0, 1, 1), (1, 1))]
    fits = [c for c in itertools.product(range(4), repeat=4) if score(c, (0, 0, 1, 1)) == (1, 1)]
    assert got.possible == len(fits) and f"{len(fits)} codes still possible" == got.words()
    assert got.best[0].startswith("2:") and s.why_illegal(got.best[0]) is None
    assert Codebreaker.for_size(4, 4).possible(rows).size == len(fits)
    assert hint(s.play(got.best[0])) is None  # the maker answers next: no hint for the breaker


def test_arbiter_hint_offers_brainmaster_and_keeps_the_opening_in_its_cache(tmp_path):
    assert "brainmaster" in solved_games()
    g = engine.load("brainmaster", colours=3)
    store = HintStore(tmp_path)
    s = play_all(g, ["code=RBGR"])
    got = store.hint(g, s)
    assert got.possible == 81 and got.best[0].startswith("1:")
    assert list(tmp_path.glob("brainmaster-3x4-*.json"))
    with pytest.raises(HintError, match="code breaker"):
        store.hint(g, s.play(got.best[0]))
