"""How the companion reads Thinking In Circles off the board (``CirclesRules.explainer``).

Only one step of a turn shows on the board: the token move once the beads are revealed. The
naming of a circle and a Blocker are said (the buttons, or the player's page), and the goals and
bead choices are given privately (``State.private_to``). So a state has at most one step a reader
can see, and the default table explainer finds it; this one adds the family's words:

- The tokens belong to nobody (``Piece(1, "token")``), so the default's checks of whose piece
  moved do not apply: a token may be moved by either player's turn.
- A secret step (a goal, a choice of beads) is never offered to be said with the buttons:
  ``unseen_steps`` keeps only steps whose public text is the step itself (the circle calls and
  ``block``).
- A token lifted from the circle to move is a step in progress, with its destination lit; a
  token moved before the beads are revealed, moved on the wrong circle or to the wrong space,
  is refused saying where it should stand.
"""

from __future__ import annotations

from ..explain import Progress, TableExplainer


class CirclesExplainer(TableExplainer):
    """The table explainer with the tracks' words: where the token goes, and when."""

    def unseen_steps(self, state, most: int = 400):
        rules = state.rules
        return [s for s in super().unseen_steps(state, most) if rules.public_text(s) == str(s)]

    def in_progress(self, state, key: tuple):
        if state.result is not None or state.stage != "move":
            return None
        now = self.key(state)
        diff = [i for i, (a, b) in enumerate(zip(now, key)) if a != b]
        src = state.rules.geometry.spot(state.circle, state.tokens[state.circle - 1])
        if [self.spots[i] for i in diff] == [src] and key[diff[0]] is None:
            dst = state.rules.geometry.spot(state.circle, state.target)
            return Progress((dst,), f"Move the token on C{state.circle} to {dst}.")
        return None

    def _reason(self, state, key, emptied, filled, swapped, depth) -> str | None:
        rules = state.rules
        stage = state.stage
        if stage == "goals":
            return "the tokens stay on their start spaces while the goals are given privately"
        if stage in ("circle", "answer", "beads"):
            if stage == "circle":
                wait = f"{rules.side_name(state.mover)} first names a circle"
            else:
                wait = f"C{state.circle} is named, and both players' beads are not in yet"
            back = ", ".join(emptied) if emptied else "the token"
            return f"a token moves only once the beads are revealed: {wait}; put {back} back"
        if stage != "move":
            return None
        want_src = rules.geometry.spot(state.circle, state.tokens[state.circle - 1])
        want_dst = rules.geometry.spot(state.circle, state.target)
        if len(emptied) == 1 and len(filled) == 1:
            return state.why_illegal(f"{emptied[0]}-{filled[0]}")
        if filled and not emptied:
            return f"no token is added: move the token on {want_src} to {want_dst}"
        if emptied and not filled:
            return f"no token leaves the board: move the token on {want_src} to {want_dst}"
        return f"only the token on C{state.circle} moves, from {want_src} to {want_dst}"


__all__ = ["CirclesExplainer"]
