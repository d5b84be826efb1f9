"""A match of rounds: points carried from round to round until a side reaches the target.

Three HTJB games are played as matches: Tresillo Conquer's Advanced Play (first to 30; players
alternate starting), Stack (first to 50; the player to the right of the previous round's first
player starts the next round; optionally "hold your man" elimination) and Tableaux's Advanced
Play (first to 50). ``MatchRules`` wraps a family's ruleset that can play one round
(``new_round(first, active)``) and tally it (``round_points(state)``); every other question goes
to the round being played, so a match looks to the rest of arbiter like any game of its family.

Between rounds the state's phase is ``"round-over"`` and its one legal step is the call
``next-round``: the board is set up for the next round (cleared, or refilled for Tableaux), which
is the position that step predicts, so a camera sees the players doing it.

Elimination (Stack, "hold your man"): when a player reaches the target, the player who plays
just before them is eliminated for failing to hold their man; the scores start again and the
match goes on among the players left, until one remains, who wins (docs/rules.md).
"""

from __future__ import annotations

from typing import Any

from ..core import CALL, NEXT_ROUND, IllegalStep, Piece, Result, Step, preflight
from ..protocol import RulesBase, StateBase


class MatchRules(RulesBase):
    """A family's round ruleset played as a match to ``target`` points."""

    def __init__(self, inner: Any, target: int, *, elimination: bool = False, rotate: int = 1):
        self.inner = inner
        self.name = inner.name
        self.board = inner.board
        self.players = inner.players
        self.family = inner.family
        self.piece_kinds = inner.piece_kinds
        self.has_jumps = inner.has_jumps
        self.line_name = inner.line_name
        self.stack_limit = inner.stack_limit
        self.reads_as = inner.reads_as
        self.settle_s = inner.settle_s
        self.settings = inner.settings
        self.target = target
        self.elimination = elimination
        self.rotate = rotate  # how far the first player moves on each round (one seat on)
        self.next_round = Step(CALL, None, NEXT_ROUND)

    # Everything about the pieces and the board is the round's.
    @property
    def colours(self) -> int:
        return self.inner.colours

    @property
    def sides(self) -> int:
        return self.inner.sides

    @property
    def spots(self) -> tuple[str, ...]:
        return self.inner.spots

    def kind_at(self, spot: str) -> str:
        return self.inner.kind_at(spot)

    def colour_of(self, player: int) -> int:
        return self.inner.colour_of(player)

    def team_of(self, player: int) -> int | None:
        return self.inner.team_of(player)

    def colour_name(self, colour: int) -> str:
        return self.inner.colour_name(colour)

    def piece_name(self, colour: int, kind: str) -> str:
        return self.inner.piece_name(colour, kind)

    def side_name(self, side: int) -> str:
        name = getattr(self.inner, "side_name", None)
        return name(side) if name else f"player {side}"

    def step_spots(self, step: Step) -> tuple[str, ...]:
        return self.inner.step_spots(step)

    def _make_explainer(self, sees: str):
        make = getattr(self.inner, "match_explainer", None)
        return make(self, sees) if make else super()._make_explainer(sees)

    def parse(self, text: str) -> Step:
        if isinstance(text, str) and text.strip().lower() == NEXT_ROUND:
            return self.next_round
        return self.inner.parse(text)

    def new(self, *, draws=None) -> "MatchState":
        if draws is not None:
            raise ValueError(f"{self.name} has no chance draws")
        sides = self.inner.sides
        st = MatchState.__new__(MatchState)
        st.rules = self
        st.scores = (0,) * sides
        st.round_no = 1
        st.first = 0
        st.active = (True,) * self.inner.colours
        st.eliminated = ()
        st.between = False
        st.result = None
        st.last = None
        st.events = ()
        st.round = self.inner.new_round(0, st.active)
        st._settle()
        return st


class MatchState(StateBase):
    """A position in a match: the round being played (``round``), the scores, the round number."""

    __slots__ = ("rules", "round", "scores", "round_no", "first", "active", "eliminated", "between",
                 "result", "last", "events")

    @property
    def to_move(self) -> int:
        return self.round.to_move

    @property
    def colour_to_move(self) -> int:
        return self.round.colour_to_move

    @property
    def phase(self) -> str:
        if self.result is not None:
            return "over"
        return "round-over" if self.between else self.round.phase

    @property
    def moves_left(self) -> int:
        return 1 if self.between else self.round.moves_left

    @property
    def time_limit(self) -> float | None:
        return None if self.between or self.result is not None else self.round.time_limit

    def position(self) -> dict[str, Piece]:
        return self.round.position()

    def stack(self, spot: str) -> tuple[Piece, ...]:
        return self.round.stack(spot)

    def legal_steps(self) -> tuple[Step, ...]:
        if self.result is not None:
            return ()
        return (self.rules.next_round,) if self.between else self.round.legal_steps()

    def calls(self) -> tuple[Step, ...]:
        return () if self.between or self.result is not None else self.round.calls()

    def removable(self) -> tuple[str, ...]:
        return () if self.between else self.round.removable()

    def captures(self) -> dict[int, int]:
        return self.round.captures()

    def leftovers(self, step: Step, after: Any) -> dict[str, Piece]:
        if self.between or after.round_no != self.round_no:
            return {}
        return self.round.leftovers(step, after.round)

    def parse(self, text: str) -> Step:
        return self.rules.parse(text)

    def why_illegal(self, step: Step | str) -> str | None:
        step, why = preflight(self, step)
        if why:
            return why
        if self.between:
            if step == NEXT_ROUND:
                return None
            return (f"round {self.round_no} is over: set the board up for the next round "
                    f"({NEXT_ROUND}) before playing on")
        if step == NEXT_ROUND:
            return f"round {self.round_no} is still being played"
        return self.round.why_illegal(step)

    def play(self, step: Step | str) -> "MatchState":
        why = self.why_illegal(step)
        if why:
            raise IllegalStep(step if isinstance(step, str) else repr(step), why)
        step = self.rules.parse(step)  # the game's own step, also for a Step built by hand
        nxt = MatchState.__new__(MatchState)
        for name in MatchState.__slots__:
            setattr(nxt, name, getattr(self, name))
        nxt.last = step
        nxt.events = ()
        if self.between:
            nxt.between = False
            nxt.round_no = self.round_no + 1
            nxt.first = self._next_first()
            nxt.round = self.rules.inner.new_round(nxt.first, nxt.active)
            nxt.events = (f"round {nxt.round_no} begins", *nxt.round.events)
            nxt._settle()
            return nxt
        nxt.round = self.round.play(step)
        nxt.events = nxt.round.events
        nxt._settle()
        return nxt

    def _next_first(self) -> int:
        """The seat that starts the next round: the next one on, skipping eliminated players."""
        n = len(self.active)
        for k in range(self.rules.rotate, self.rules.rotate + n):
            seat = (self.first + k) % n
            if self.active[seat]:
                return seat
        return self.first

    def _settle(self) -> None:
        """A finished round: add its tally, and end the match or wait for the next round."""
        rnd = self.round
        if rnd.result is None:
            return
        rules = self.rules
        inner = rules.inner
        pts = inner.round_points(rnd)
        scores = tuple(a + b for a, b in zip(self.scores, pts))
        self.scores = scores
        words = ", ".join(f"{rules.side_name(i + 1)} {v}" for i, v in enumerate(scores))
        self.events = self.events + (f"round {self.round_no} over ({rnd.result.reason}); scores: {words}",)
        best = max(scores)
        leaders = [i for i, v in enumerate(scores) if v == best]
        if best < rules.target or len(leaders) > 1:
            self.between = True  # nobody there yet, or a tie at the top: another round
            return
        winner = leaders[0]
        if rules.elimination:
            self._eliminate(winner)
            return
        self.result = Result(winner + 1, False, f"{rules.side_name(winner + 1)} reached {best} points "
                                                f"(target {rules.target}); scores: {words}")

    def _eliminate(self, winner: int) -> None:
        """Hold your man: the player before the winner is out; the rest play on from nothing."""
        rules = self.rules
        n = len(self.active)
        before = next((winner - k) % n for k in range(1, n) if self.active[(winner - k) % n])
        active = list(self.active)
        active[before] = False
        self.active = tuple(active)
        self.eliminated = self.eliminated + (before + 1,)
        self.events = self.events + (f"{rules.side_name(winner + 1)} reached {rules.target}: "
                                     f"{rules.side_name(before + 1)}, who plays before, failed to hold "
                                     f"their man and is eliminated",)
        left = [i for i, a in enumerate(active) if a]
        if len(left) == 1:
            self.result = Result(left[0] + 1, False, f"{rules.side_name(left[0] + 1)} is the last player left "
                                                     f"after elimination (hold your man)")
            return
        self.scores = (0,) * len(self.scores)
        self.between = True

    def __repr__(self) -> str:
        return f"<match round {self.round_no} scores={self.scores} {self.round!r}>"


__all__ = ["MatchRules", "MatchState"]
