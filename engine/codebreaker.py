"""A code breaker for Brainmaster: the codes still possible after some rows, and a next guess.

Every (secret, guess) score is worked out once per game size into a table (``scores``, one byte
each: black * (pegs + 1) + white), so the codes consistent with a board are a few array
comparisons, and judging a guess is counting how it would split them.

How a guess is chosen (``Codebreaker.choose``). The guesses are ranked by how many parts they
split the possible codes into (Kooi's "most parts": each part is an answer the maker could
give, so more parts leave less to learn), a guess that could itself be the code first among
equals, then the smaller expected part, then the lower code number. The best few (``width``)
are then tried ahead: each is followed by the same ranking on every part it makes, down to the
end, and the one whose whole continuation needs the fewest guesses in all (and never more than
the rows allow, ``limit``) is played; a set of more than ``LOOK_AHEAD_MOST`` codes is searched
ahead only in the opening (the first two guesses, worked out once per size and kept by the
caller), and otherwise gets the first-ranked guess. Nothing is random, so the same board always
gets the same hint; ``benchmarks/mastermind.py`` plays it against every secret.

This module needs numpy (a core dependency); the rules (``engine.rules.brainmaster``) do not, so
it is imported only where a hint or the benchmark asks for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import numpy as np

from .rules.brainmaster import all_codes, code_text, score
from .solve import Hint

OPEN = "open"  # a code breaker's hint has no win/loss value: the code is still to be found
WIDTH = 6  # top-ranked guesses tried ahead (benchmarks/mastermind.py measured 4 and 6 pegs' sizes with it)
LIMIT = 5  # guesses no secret should need: the 4-peg, 6-colour worst case Knuth showed possible
LOOK_AHEAD_MOST = 60  # larger sets are searched ahead only in the opening (own play meets at most 51 after it)
LOOK_AHEAD_WORK = 60 * 1296  # ... and with more colours, fewer: a search's cost grows with codes x set
# The opening is searched ahead up to 6 colours (1296 codes, 2.4-4.5 s once); with 7 or 8 colours
# one greedy follow-through of the first guess alone takes over a second, so it is ranked only.
WIDE_OPENING_MOST = 1296
RANK_WORK = 1296 * 1296  # scores counted to rank guesses, at most: every code up to 6 colours


class Codebreaker:
    """The solver for codes of ``pegs`` pegs in ``colours`` colours (shared per size: ``for_size``)."""

    def __init__(self, colours: int, pegs: int, *, width: int = 6, limit: int | None = None):
        self.colours = colours
        self.pegs = pegs
        self.width = width
        self.limit = limit  # most guesses any secret may take (None: no limit beyond the search)
        self.codes = np.array(all_codes(colours, pegs), dtype=np.int8)
        self.n = len(self.codes)
        self.answers = (pegs + 1) ** 2
        self.win = pegs * (pegs + 1)  # every peg black
        self.scores = _score_table(self.codes, colours, pegs)
        self._all = np.arange(self.n)
        self._memo: dict[bytes, tuple[int, int, int]] = {}  # possible codes -> (guess, total, worst)
        self.opening_ready = False  # the first two guesses are worked out (``opening``) or loaded

    @classmethod
    def for_size(cls, colours: int, pegs: int) -> "Codebreaker":
        return _shared(colours, pegs)

    # ------------------------------------------------------------------ reading a board
    def number(self, code: Sequence[int]) -> int:
        n = 0
        for c in code:
            n = n * self.colours + int(c)
        return n

    def answer_code(self, black: int, white: int) -> int:
        return black * (self.pegs + 1) + white

    def possible(self, rows: Sequence[tuple[Sequence[int], tuple[int, int]]]) -> np.ndarray:
        """The code numbers consistent with every answered row (guess, (black, white))."""
        keep = np.ones(self.n, dtype=bool)
        for guess, (black, white) in rows:
            keep &= self.scores[self.number(guess)] == self.answer_code(black, white)
        return np.flatnonzero(keep)

    # ------------------------------------------------------------------ choosing a guess
    def _ranked(self, left: np.ndarray) -> np.ndarray:
        """The guesses, best first by parts, then being possible, then expected part, then number.

        Every code is a candidate guess, unless that would mean more than ``RANK_WORK`` scores to
        count (a large set with 7 or 8 colours): then only the possible codes themselves are."""
        if self.n * len(left) <= RANK_WORK:
            guesses = self._all
            parts_of = self.scores[:, left].astype(np.int32)  # (guesses, possible codes)
        else:
            guesses = np.asarray(left)
            parts_of = self.scores[np.ix_(guesses, left)].astype(np.int32)
        k = len(guesses)
        offset = np.arange(k, dtype=np.int32)[:, None] * self.answers
        counts = np.bincount((parts_of + offset).ravel(), minlength=k * self.answers).reshape(k, self.answers)
        parts = (counts > 0).sum(axis=1)
        squares = (counts.astype(np.int64) ** 2).sum(axis=1)
        possible = np.isin(guesses, left)
        # np.lexsort sorts by the last key first: most parts, possible first, fewest squares, number.
        return guesses[np.lexsort((guesses, squares, ~possible, -parts))]

    def _greedy(self, left: np.ndarray) -> int:
        """The first-ranked guess for ``left`` (no look-ahead)."""
        if len(left) <= 2:
            return int(left[0])
        return int(self._ranked(left)[0])

    def _split(self, guess: int, left: np.ndarray) -> list[np.ndarray]:
        """The parts of ``left`` by the answer ``guess`` would get, the winning answer left out."""
        answers = self.scores[guess, left]
        out = []
        for a in np.unique(answers):
            if a != self.win:
                out.append(left[answers == a])
        return out

    def _follow(self, left: np.ndarray, depth: int) -> tuple[int, int]:
        """(total guesses over ``left``, worst) playing the greedy choice from here down, where
        ``depth`` guesses were made before."""
        g = self._greedy(left)
        hit = int(np.any(left == g))
        total, worst = (depth + 1) * hit, depth + 1 if hit else 0
        for part in self._split(g, left):
            t, w = self._follow(part, depth + 1)
            total, worst = total + t, max(worst, w)
        return total, worst

    def plan(self, left: np.ndarray, depth: int = 0, *, wide: bool = False) -> tuple[int, int, int]:
        """(guess, total guesses, worst case) for the possible codes ``left``, ``depth`` guesses in:
        the best of the ``width`` top-ranked guesses, each followed greedily to the end.

        More than ``LOOK_AHEAD_MOST`` possible codes (fewer with 7 or 8 colours, ``LOOK_AHEAD_WORK``)
        are searched ahead only when ``wide`` (the
        opening, worked out once): the solver's own play meets no larger set after its opening,
        and a board whose first guesses were the players' own gets the first-ranked guess at
        once rather than a search of seconds (its total and worst are then unknown, -1)."""
        key = left.tobytes() + bytes([depth])
        got = self._memo.get(key)
        if got is not None:
            return got
        if len(left) <= 2:
            g = int(left[0])
            got = (g, (depth + 1) + (depth + 2) * (len(left) - 1), depth + len(left))
        elif len(left) > min(LOOK_AHEAD_MOST, LOOK_AHEAD_WORK // self.n) and not wide:
            got = (int(self._ranked(left)[0]), -1, -1)
        else:
            best = None
            for g in self._ranked(left)[: self.width]:
                g = int(g)
                hit = int(np.any(left == g))
                total, worst = (depth + 1) * hit, depth + 1 if hit else 0
                for part in self._split(g, left):
                    t, w = self._follow(part, depth + 1)
                    total, worst = total + t, max(worst, w)
                over = self.limit is not None and worst > self.limit
                cand = (over, total, worst, g)
                if best is None or cand < best:
                    best = cand
            got = (best[3], best[1], best[2])
        self._memo[key] = got
        return got

    def choose(self, left: np.ndarray, depth: int = 0) -> int:
        """The next guess (a code number) for the possible codes ``left``."""
        if len(left) == 0:
            raise ValueError("no code fits these rows: an answer must be wrong")
        return self.plan(np.asarray(left), depth)[0]

    def _choose_wide(self, left: np.ndarray, depth: int) -> int:
        return self.plan(np.asarray(left), depth, wide=self.n <= WIDE_OPENING_MOST)[0]

    # ------------------------------------------------------------------ the opening book
    def opening(self) -> dict[str, object]:
        """The first guess and the second for every answer to it: the costly searches (the first
        two sets are the largest), worked out once per size. ``load_opening`` takes it back, so a
        caller may keep it on disk (``arbiter.hints``)."""
        everything = np.arange(self.n)
        first = self._choose_wide(everything, 0)
        answers = self.scores[first]
        second = {}
        for a in np.unique(answers):
            if a != self.win:
                second[int(a)] = self._choose_wide(everything[answers == a], 1)
        self.opening_ready = True
        return {"colours": self.colours, "pegs": self.pegs, "width": self.width, "limit": self.limit,
                "first": first, "second": second}

    def load_opening(self, book: dict) -> None:
        """Take a stored ``opening()`` as this solver's own choices for the first two guesses."""
        if (book.get("colours"), book.get("pegs"), book.get("width"), book.get("limit")) != \
                (self.colours, self.pegs, self.width, self.limit):
            raise ValueError("that opening book is for another game size or search")
        everything = np.arange(self.n)
        first = int(book["first"])
        self._memo[everything.tobytes() + bytes([0])] = (first, -1, -1)
        answers = self.scores[first]
        for a, g in book["second"].items():
            part = everything[answers == int(a)]
            self._memo[part.tobytes() + bytes([1])] = (int(g), -1, -1)
        self.opening_ready = True

    def hint(self, rows: Sequence[tuple[Sequence[int], tuple[int, int]]]) -> tuple[int, str]:
        """(codes still possible, the next guess as letters) after the answered ``rows``."""
        left = self.possible(rows)
        return len(left), self.code(self.choose(left, len(rows)))

    def code(self, number: int) -> str:
        return code_text(self.codes[number])


def _score_table(codes: np.ndarray, colours: int, pegs: int) -> np.ndarray:
    """scores[g, s] = black * (pegs + 1) + white for guess g against secret s (ruling BM-1)."""
    black = (codes[:, None, :] == codes[None, :, :]).sum(axis=2, dtype=np.int16)
    common = np.zeros_like(black)
    for c in range(colours):
        have = (codes == c).sum(axis=1, dtype=np.int16)
        common += np.minimum(have[:, None], have[None, :])
    out = (black * (pegs + 1) + (common - black)).astype(np.uint8)
    # One spot check against the rules' own scoring keeps the two from ever drifting apart.
    b, w = score(tuple(codes[-1]), tuple(codes[1]))
    assert out[1, -1] == b * (pegs + 1) + w
    return out


@lru_cache(maxsize=8)
def _shared(colours: int, pegs: int) -> Codebreaker:
    return Codebreaker(colours, pegs, width=WIDTH, limit=LIMIT)


@dataclass(frozen=True)
class CodeHint(Hint):
    """A Brainmaster hint: how many codes still fit the rows, and the guess to play next."""

    possible: int = 0

    def words(self) -> str:
        n = self.possible
        return f"{n} code{'s' * (n != 1)} still possible"


def state_rows(state) -> list[tuple[tuple[int, ...], tuple[int, int]]]:
    """The answered rows of a Brainmaster state (a guess waiting for its answer is left out)."""
    return [(g, a) for g, a in state.rows if a is not None]


def hint(state, solver: Codebreaker | None = None) -> CodeHint | None:
    """The code breaker's hint for ``state``: None unless the breaker is to guess."""
    if state.result is not None or state.stage != "guess":
        return None
    rules = state.rules
    solver = solver or Codebreaker.for_size(rules.n_colours, rules.pegs)
    rows = state_rows(state)
    left = solver.possible(rows)
    if len(left) == 0:  # only if a record was made without the rules' check of answers
        return None
    guess = solver.code(solver.choose(left, len(rows)))
    step = rules.guess_step(len(rows) + 1, rules.read_code(guess, guess))
    return CodeHint(OPEN, None, (str(step),), possible=len(left))


__all__ = ["CodeHint", "Codebreaker", "hint", "state_rows"]
