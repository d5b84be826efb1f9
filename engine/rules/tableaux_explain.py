"""How the companion reads a Tableaux play off the board (``TableauxRules.explainer``).

Tableaux chips belong to nobody, so only whether a spot holds a chip matters: whatever the
reader, a board is compared as occupancy. A play shows as spots gone empty; chips never come back
within a round. From the spots that emptied, the explainer offers every chip count that could
have done it (``TableauxState.why_illegal`` decides which counts fit, given how many chips may
still stand two high). One count: the play is certain. Several (chips were stacked): the referee
asks, and the players answer with the buttons. No visible change at all (only chips off the top
of stacks): nothing to explain; the players tell the count with the buttons (docs/rules.md).

Between the rounds of a match the only step is ``next-round``: every spot filled again.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..core import NEXT_ROUND
from ..explain import Explainer, Explanation


class TableauxExplainer(Explainer):
    """Explain a board by the spots that emptied (works on a round or on a match of rounds)."""

    def _occupied(self, key: tuple) -> int:
        mask = 0
        for i, v in enumerate(key):
            if v is not None:
                mask |= 1 << i
        return mask

    def _round(self, state):
        return getattr(state, "round", state)

    def _matches(self, base, key: tuple, lift: Mapping[str, Any], depth: int,
                 thorough: bool = True) -> list[Explanation]:
        if depth != 1:
            return []  # two plays at once cannot be told apart from one bigger play
        rnd = self._round(base)
        seen = self._occupied(key)
        if getattr(base, "between", False):
            if seen == rnd.rules.full:
                step = base.rules.next_round
                return [Explanation((step,), (base.play(step),))]
            return []
        if rnd.phase != "taking":
            return []  # the chip count and draw size are chosen with the buttons
        now = rnd.occupied
        if seen & ~now or seen == now:
            return []
        names = rnd.rules.names
        emptied = tuple(names[i] for i in range(rnd.rules.n_spots) if now >> i & 1 and not seen >> i & 1)
        out = []
        for n in range(max(1, len(emptied)), min(rnd.draw, rnd.left) + 1):
            step = rnd.rules.take_emptying(n, emptied)
            if base.why_illegal(step) is None:
                out.append(Explanation((step,), (base.play(step),)))
        return out

    def _reason(self, state, key, emptied, filled, swapped, depth) -> str | None:
        rnd = self._round(state)
        if getattr(state, "between", False):
            return f"put a chip back on every spot for the next round ({NEXT_ROUND})"
        back = [self.spots[i] for i in range(len(key)) if key[i] is not None and not rnd.occupied >> i & 1]
        if back:
            return f"chips taken off do not come back: {', '.join(back)} should be empty"
        if rnd.phase != "taking":
            return "choose the chips in play and the draw size with the buttons first"
        gone = [s for s in self.spots if s in rnd.position() and key[self.index[s]] is None]
        if len(gone) > rnd.draw:
            return f"{len(gone)} spots were emptied, but a play takes at most {rnd.draw} chips"
        return None

    def in_progress(self, state, key: tuple):
        return None


__all__ = ["TableauxExplainer"]
