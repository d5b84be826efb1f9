"""How the companion reads Brainmaster off the board (``BrainmasterRules.explainer``).

A step is read straight off the row being filled, not looked up in a table of every legal step's
board (the default explainer's way, which a guess row's 625 to 4096 codes make slow, and whose
predicted boards would crowd the explainer's cache): a colour reader's four code pegs in the next
row *are* the guess; the indicator pegs in the row being answered are the answer; an empty board
between codes is ``next-code`` or ``next-round``. Two steps seen at once (an answer and the next
guess) are read the same way, one after the other. A reader that cannot tell colours gets the
default table's answer (every guess fits: the players pick one with the buttons).

On top of reading, the family's own words and patience:

- A guess row or an answer being put in peg by peg is a step in progress, not a mistake: the
  lights show the holes still to fill. (The shared test for a half-made cluster asks that the
  pieces be the mover's colour, which code pegs never are.)
- A finished answer that miscounts is refused with BM-2's words, naming the row, what the pegs
  say and what the guess earns, from the pegs as the reader sees them in the row's indicator
  holes, in whatever holes they stand.
- The indicator pegs must stand black first, from the row's first indicator hole, then white:
  the referee compares boards hole by hole, so a right count in another order is asked to be
  put in that order rather than read as the answer.
- Clearing the board between codes peg by peg is in progress until it is empty.
- A secret step (the code) is never offered to be said with the buttons: it is given privately
  (``State.private_to``), so ``unseen_steps`` leaves it out.

A colour reader is needed: an occupancy grid cannot tell one guess from another.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..explain import Explanation, Progress, TableExplainer
from .code_pegs import BLACK, CODE, FIRST_CODE_COLOUR, KEY, WHITE, answer_words


class BrainmasterExplainer(TableExplainer):
    """The table explainer with Brainmaster's rows: progress peg by peg, BM-2's words for a miscount."""

    def unseen_steps(self, state, most: int = 400):
        """Only an answer of no indicator pegs changes nothing a reader sees. The code is given
        privately, never said with the buttons."""
        if state.result is None and state.stage == "answer" and state.true_answer(state.row) == (0, 0):
            return [state.rules.answer_step(state.row, 0, 0)]
        return []

    def _matches(self, base, key: tuple, lift: Mapping[str, Any], depth: int,
                 thorough: bool = True) -> list[Explanation]:
        if base.result is not None:
            return []
        if self.sees != "colour" and base.stage == "guess":
            return super()._matches(base, key, lift, depth, thorough)  # every guess fits: the players say
        step = self._read_step(base, key, depth)
        if step is None or base.why_illegal(step) is not None:
            return []
        after = base.play(step)
        if depth == 1:
            return [Explanation((step,), (after,))] if self.key(after) == key else []
        return [Explanation((step,) + e.steps, (after,) + e.states, e.lift)
                for e in self._matches(after, key, lift, 1, thorough)]

    def _read_step(self, state, key: tuple, depth: int):
        """The one step the board shows from ``state`` (the first of two when ``depth`` is 2)."""
        rules = state.rules
        g = rules.geometry
        stage = state.stage
        if stage == "code-over":
            nxt = state.legal_steps()[0]
            return nxt if depth == 1 and all(v is None for v in key) else None
        if stage == "answer":
            row = state.row
            if depth == 2:
                return rules.answer_step(row, *state.true_answer(row))
            seen = self._seen_answer(key, g.key_spots(row))
            return rules.answer_step(row, *seen) if seen is not None else None
        if stage == "guess":
            code = []
            for spot in g.row_spots(state.row):
                v = key[self.index[spot]]
                if v is None or v[1] != CODE or v[0] < FIRST_CODE_COLOUR:
                    return None
                code.append(v[0] - FIRST_CODE_COLOUR)
            if max(code) >= rules.n_colours:
                return None
            return rules.guess_step(state.row, code)
        return None  # the code is given privately, never read off the board

    def _row_change(self, state, key: tuple) -> tuple[list[str], list[str]] | None:
        """(filled spots, spots of the row still empty) when the only change from ``state`` is
        pegs put into empty holes of the row being filled now (the guess's code holes or the
        answer's indicator holes); None for any other change."""
        stage = state.stage
        if stage not in ("guess", "answer"):
            return None
        g = state.rules.geometry
        row = state.row
        holes = g.row_spots(row) if stage == "guess" else g.key_spots(row)
        now = self.key(state)
        filled, missing = [], []
        for i, (a, b) in enumerate(zip(now, key)):
            if a == b:
                continue
            spot = self.spots[i]
            if spot not in holes or a is not None or b is None:
                return None
            filled.append(spot)
        missing = [h for h in holes if key[self.index[h]] is None]
        return filled, missing

    def _seen_answer(self, key: tuple, holes) -> tuple[int, int] | None:
        """(black, white) among the pegs in ``holes`` as a colour reader sees them; None if the
        reader cannot tell colours, or a hole holds something other than an indicator peg."""
        if self.sees != "colour":
            return None
        black = white = 0
        for h in holes:
            v = key[self.index[h]]
            if v is None:
                continue
            owner, kind = v
            if kind != KEY or owner not in (BLACK, WHITE):
                return None
            black += owner == BLACK
            white += owner == WHITE
        return black, white

    def in_progress(self, state, key: tuple):
        if state.result is not None:
            return None
        if state.stage == "code-over":
            # Clearing the board peg by peg for the next code: only lifts, some pegs still in.
            now = self.key(state)
            left = [s for s, a, b in zip(self.spots, now, key) if b is not None]
            if left and all(b is None or a == b for a, b in zip(now, key)) and now != key:
                return Progress(tuple(left), "Clear the board for the next code.")
            return None
        change = self._row_change(state, key)
        if change is None or not change[0] or not change[1]:
            return None
        filled, missing = change
        row = state.row
        if state.stage == "guess":
            if self.sees == "colour" and any(key[self.index[s]][1] != CODE for s in filled):
                return None
            return Progress(tuple(missing), f"Finish the guess in row {row}.")
        seen = self._seen_answer(key, state.rules.geometry.key_spots(row))
        true = state.true_answer(row)
        if seen is not None and (seen[0] > true[0] or seen[1] > true[1]):
            return None  # more pegs of a colour than the row earns: a miscount, not a half-made answer
        if seen is not None and sum(seen) >= sum(true):
            return None
        return Progress(tuple(missing), f"Finish row {row}'s indicator pegs.")

    def _reason(self, state, key, emptied, filled, swapped, depth):
        if state.stage == "answer":
            row = state.row
            holes = state.rules.geometry.key_spots(row)
            change = self._row_change(state, key)
            seen = self._seen_answer(key, holes)
            if change is not None and seen is not None:
                true = state.true_answer(row)
                if seen != true:
                    return state.why_illegal(state.rules.answer_step(row, *seen))
                return (f"row {row}'s count is right ({answer_words(*true)}); put the black pegs first, from "
                        f"the row's first indicator hole, then the white ones")
        if state.stage == "guess" and filled and not emptied and not swapped:
            row = state.row
            g = state.rules.geometry
            rows = {s[1:-1] for s in filled if state.rules.kind_at(s) == CODE}
            if rows and rows != {str(row)}:
                return f"the next guess goes in row {row} ({', '.join(g.row_spots(row))})"
            if any(state.rules.kind_at(s) == KEY for s in filled):
                return f"the indicator pegs answer a guess: the code breaker first fills row {row}"
        if state.stage == "code":
            return f"player {state.maker} first gives the code privately; the board waits for the first guess"
        if state.stage == "code-over":
            return "this code is over: take every peg off the board for the next code"
        if emptied and not filled and state.stage in ("guess", "answer"):
            return f"pegs stay in their rows until the code is over: put {', '.join(emptied)} back"
        return None


__all__ = ["BrainmasterExplainer"]
