"""Explaining what a reader sees: which legal steps turn a position into the board observed.

The referee judges every stable board by asking the game's family how it could have come about
(``Rules.explainer(sees).explain``). This module holds the shared machinery and the default way
to answer, which suits every family whose positions have few legal steps (the mill family, a
tic-tac-toe): predict the board as the reader would see it after each legal step, keep those
predictions in a table per state, and look the observed board up. Families with too many steps
to list (Brain Hanky's string moves) subclass ``Explainer`` and search instead.

Boards are compared as *keys*: tuples of view values (``engine.observation.view``) in the order
of ``Rules.spots``. A colour reader's value is ``(owner, kind)``, a polarity reader's the owner,
an occupancy reader's ``OCCUPIED``; None is an empty spot.

*Leftovers*: where the rules capture as a side effect (``State.leftovers``), the captured piece
stands on the board until someone lifts it. An explanation carries such pieces in ``lift`` (spot
-> view value); the referee passes what is still to lift back in with the next board.

Pure and cached: an explainer keeps, per state it has seen (up to ``MAX_CACHE``, oldest dropped
first), its key and its table of predicted boards, so judging a board that holds still costs a
dict look-up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .core import Piece, Step
from .observation import OCCUPIED, SEES
from .words import step_words

MAX_CACHE = 512  # states whose keys and tables are kept


@dataclass
class Explanation:
    """Steps that turn a base position into the observed board, and what is still to lift after."""

    steps: tuple[Step, ...]
    states: tuple[Any, ...]  # the state after each step
    lift: dict[str, Any] = field(default_factory=dict)  # spot -> view value of a leftover still standing
    base: str = "current"  # set by the referee: which position the steps start from

    @property
    def state(self):
        return self.states[-1]


@dataclass
class Progress:
    """A step half made (a piece lifted, a cluster half placed): where to look, and what to say."""

    points: tuple[str, ...]
    message: str


class _Memo:
    """What an explainer has worked out about one state: its key, and for tables its steps by key."""

    __slots__ = ("state", "key", "table", "entries", "caps")

    def __init__(self, state, key):
        self.state = state
        self.key = key
        self.table: dict[tuple, list] | None = None  # key -> [(step, after)]
        self.entries: list | None = None  # [(step, after, key)]
        self.caps: list | None = None  # [(step, after, key, leftovers as view values)]: captures to lift


def near(a: tuple, b: tuple, limit: int) -> bool:
    """Whether two keys differ in at most ``limit`` spots."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            n += 1
            if n > limit:
                return False
    return True


class Explainer:
    """How one family explains boards seen by one kind of reader. Subclasses give ``_matches``.

    ``explain(base, key, lift, depth)`` returns every explanation of ``depth`` steps (1 or 2)
    from ``base``; ``reason(state, key)`` the rule a board breaks when nothing explains it;
    ``in_progress(state, key)`` a step half made, or None.
    """

    def __init__(self, rules, sees: str):
        if sees not in SEES:
            raise ValueError(f"unknown reader kind {sees!r}; one of {', '.join(SEES)}")
        self.rules = rules
        self.sees = sees
        self.colours = sees != "occupancy"
        self.spots: tuple[str, ...] = tuple(rules.spots)
        self.index = {s: i for i, s in enumerate(self.spots)}
        self._memo: dict[int, _Memo] = {}

    # ------------------------------------------------------------------ keys
    def value(self, piece: Piece | None) -> Any:
        """A piece as this reader sees it."""
        if piece is None:
            return None
        if self.sees == "colour":
            return (piece.owner, piece.kind)
        return piece.owner if self.sees == "polarity" else OCCUPIED

    def values(self, spot: str) -> tuple:
        """Every view value this reader could see on ``spot`` in this game, empty first.

        The referee weighs each of them on a spot the reader could not read
        (``Reading.unknown``): which one stands there is the only thing it may not assume. By
        default a piece of any colour in play, of the kind that stands on ``spot``
        (``Rules.kind_at``); a family whose spots hold more (several kinds) says so here."""
        memo = self.__dict__.setdefault("_values", {})
        out = memo.get(spot)
        if out is None:
            kind = self.rules.kind_at(spot)
            out = (None,) + tuple(dict.fromkeys(self.value(Piece(c, kind))
                                                for c in range(1, self.rules.colours + 1)))
            memo[spot] = out
        return out

    def key(self, state) -> tuple:
        """``state``'s board as this reader sees it, spot by spot."""
        memo = self._memo.get(id(state))
        if memo is not None:
            return memo.key
        pos = state.position()
        value = self.value
        key = tuple([value(pos.get(s)) for s in self.spots])
        self._remember(_Memo(state, key))
        return key

    def _remember(self, memo: _Memo) -> _Memo:
        if len(self._memo) >= MAX_CACHE:
            for k in list(self._memo)[: MAX_CACHE // 4]:  # the oldest quarter; rebuilt if asked again
                del self._memo[k]
        self._memo[id(memo.state)] = memo
        return memo

    def _memo_of(self, state) -> _Memo:
        memo = self._memo.get(id(state))
        if memo is None:
            self.key(state)
            memo = self._memo[id(state)]
        return memo

    def normalise(self, key: tuple, lift: Mapping[str, Any]) -> tuple[tuple, dict[str, Any]]:
        """The board with leftovers that still stand taken off, and which of them still stand."""
        if not lift:
            return key, {}
        k = list(key)
        kept = {}
        for spot, v in lift.items():
            i = self.index[spot]
            if k[i] == v:
                k[i] = None
                kept[spot] = v
        return tuple(k), kept

    def seen_owner(self, key: tuple, spot: str) -> int | None:
        """The owner this reader saw on ``spot`` (None if empty or if it cannot see owners)."""
        v = key[self.index[spot]]
        if v is None or self.sees == "occupancy":
            return None
        return v[0] if self.sees == "colour" else v

    def name(self, colour: int) -> str:
        return self.rules.colour_name(colour)

    # ------------------------------------------------------------------ explaining
    def explain(self, base, key: tuple, lift: Mapping[str, Any], depth: int, *,
                thorough: bool = True) -> list[Explanation]:
        """Every ``depth``-step explanation of ``key`` from ``base`` (``lift``: leftovers pending).

        ``thorough``: also look for the rarer explanations that cost a wide search (an explainer
        that has none ignores it); the referee asks for them from the current position only.
        """
        if base.result is not None:
            return []
        return self._matches(base, key, lift, depth, thorough)

    def _matches(self, base, key: tuple, lift: Mapping[str, Any], depth: int,
                 thorough: bool = True) -> list[Explanation]:
        raise NotImplementedError

    def reason(self, state, key: tuple, depth: int = 0) -> str:
        """The rule a board breaks, in the engine's words where a step can be read off the change."""
        if state.result is not None:
            return f"the game is over ({state.result.reason})"
        now = self.key(state)
        diff = [i for i, (a, b) in enumerate(zip(now, key)) if a != b]
        spots = self.spots
        emptied = [spots[i] for i in diff if key[i] is None]
        filled = [spots[i] for i in diff if now[i] is None]
        swapped = [spots[i] for i in diff if now[i] is not None and key[i] is not None]
        why = self._reason(state, key, emptied, filled, swapped, depth)
        if why:
            return why
        if swapped:
            return f"the piece on {swapped[0]} is not the one that stood there"
        if len(diff) > 4:
            return f"{len(diff)} points changed at once"
        return "the board does not match any move allowed now"

    def _reason(self, state, key, emptied, filled, swapped, depth) -> str | None:
        return None

    def unseen_steps(self, state, most: int = 400) -> list[Step]:
        """Legal steps this reader cannot see: the board looks the same after them (Tableaux
        chips taken off the tops of stacks, a call such as ``chips=30``, a chip stacked where an
        occupancy grid feels nothing new). The players say these with the buttons. At most
        ``most`` legal steps are looked at (a crowded Brain Hanky board has thousands, and they
        all show)."""
        if state.result is not None:
            return []
        now = self.key(state)
        out = []
        for i, step in enumerate(state.iter_steps()):
            if i >= most:
                break
            if self.key(state.play(step)) == now:
                out.append(step)
        return out

    def in_progress(self, state, key: tuple) -> Progress | None:
        """A step half made: a piece of the mover lifted from where it may move, or a step that
        puts down several pieces (a cluster) partly made. None when the board shows neither."""
        if state.result is not None:
            return None
        now = self.key(state)
        diff = [s for s, a, b in zip(self.spots, now, key) if a != b]
        me = state.colour_to_move
        if len(diff) == 1 and key[self.index[diff[0]]] is None:
            spot = diff[0]
            piece = state.position().get(spot)
            if piece is None or piece.owner != me:
                return None
            to = self._lifted_to(state, spot)
            if not to:
                return None
            return Progress(tuple(to), "Where will it go? The lights show where it may move.")
        if diff and all(key[self.index[s]] is not None and self.seen_owner(key, s) in (None, me)
                        and now[self.index[s]] is None for s in diff):
            for step in self._multi_spot_steps(state):
                spots = self.rules.step_spots(step)
                missing = [s for s in spots if s not in diff]
                if missing and set(diff) <= set(spots):
                    return Progress(tuple(missing), self._finish_words(step))
        return None

    def _lifted_to(self, state, spot: str) -> list[str]:
        """Where a piece lifted from ``spot`` may go."""
        return list(dict.fromkeys(s.dst for s in state.legal_steps() if s.src == spot))

    def _multi_spot_steps(self, state):
        """Legal steps that put pieces on several spots at once (none in most families)."""
        if state.phase != "placement":
            return ()
        return [s for s in state.legal_steps() if len(self.rules.step_spots(s)) > 1 and s.src is None]

    def _finish_words(self, step: Step) -> str:
        return f"Finish {step_words(step)}."


class TableExplainer(Explainer):
    """The default: a table per state from each legal step's predicted board to the step.

    Every state's legal steps are few (a few dozen at most), so building the table once per state
    costs little, and two-step explanations look only at first steps whose result differs from
    the board in at most two spots (a placement, move or removal changes at most two), plus the
    men a step captured as a side effect (a Kuruka chain's jumped men), which may still stand.
    """

    def unseen_steps(self, state, most: int = 400) -> list[Step]:
        if state.result is not None:
            return []
        now = self.key(state)
        return [s for s, _after, k in self.table(state).entries if k == now]

    def table(self, state) -> _Memo:
        memo = self._memo_of(state)
        if memo.table is None:
            table: dict[tuple, list] = {}
            entries = []
            caps = []
            for step in state.legal_steps():
                after = state.play(step)
                k = self.key(after)
                table.setdefault(k, []).append((step, after))
                entries.append((step, after, k))
                left = state.leftovers(step, after)
                if left:
                    caps.append((step, after, k, {spot: self.value(pc) for spot, pc in left.items()}))
            memo.table, memo.entries, memo.caps = table, entries, caps
        return memo

    def _matches(self, base, key: tuple, lift: Mapping[str, Any], depth: int,
                 thorough: bool = True) -> list[Explanation]:
        nkey, kept = self.normalise(key, lift)
        memo = self.table(base)
        out = [Explanation((s,), (after,), dict(kept)) for s, after in memo.table.get(nkey, ())]
        for s, after, k, caps in memo.caps:  # captured men not lifted yet: the step, and what to lift
            if k != nkey:
                still = _still_standing(k, nkey, caps, self.index)
                if still is not None:
                    out.append(Explanation((s,), (after,), {**kept, **still}))
        if depth == 2:
            capped = {id(e[1]): e[3] for e in memo.caps}
            for s1, after1, k1 in memo.entries:
                caps1 = capped.get(id(after1), {})
                if after1.result is None and near(k1, nkey, 2 + len(caps1)):
                    for e in self._matches(after1, key, {**lift, **caps1}, 1):
                        out.append(Explanation((s1,) + e.steps, (after1,) + e.states, e.lift))
        return out

    @staticmethod
    def _why(state, text: str, otherwise: str) -> str | None:
        """What the rules say of the step written ``text``; ``otherwise`` when this game has no
        such step at all (a tic-tac-toe has no removals and no moves to name)."""
        try:
            step = state.parse(text)
        except ValueError:
            return otherwise
        return state.why_illegal(step)

    def _reason(self, state, key, emptied, filled, swapped, depth) -> str | None:
        """Read a step off the change and let the rules say what is wrong with it."""
        if swapped:
            return None
        me = state.colour_to_move
        pos = state.position()
        if len(filled) == 1 and not emptied:
            who = self.seen_owner(key, filled[0])
            if who is not None and who != me and state.phase != "removal":
                return f"it is {self.name(me)}'s turn, not {self.name(who)}'s"
            return state.why_illegal(filled[0])
        if len(emptied) == 1 and not filled:
            spot = emptied[0]
            if pos[spot].owner != me:
                return self._why(state, "x" + spot, f"pieces are not taken off in this game: put {spot} back")
            if state.phase == "removal":
                return f"take one of the other player's pieces off, not your own ({spot})"
            if state.phase == "placement":
                return f"pieces stay where they are put until all are placed: put {spot} back"
            return f"the piece on {spot} has nowhere to go"
        if len(emptied) == 1 and len(filled) == 1:
            src, dst = emptied[0], filled[0]
            owner = pos[src].owner
            if owner != me and state.phase != "removal":
                return f"it is {self.name(me)}'s turn, not {self.name(owner)}'s"
            why = self._why(state, f"{src}-{dst}", f"pieces do not move in this game: put {src} back")
            if why and "not next to" in why and self.rules.has_jumps:
                why = state.why_illegal(f"{src}*{dst}") or why
            if why is None:
                who = self.seen_owner(key, dst)
                if who is not None and who != me:
                    return f"it is {self.name(me)}'s turn, not {self.name(who)}'s"
            return why
        if depth == 0 and len(emptied) + len(filled) <= 4:
            # Two steps at once, the second not allowed: name the first and what is wrong after it.
            for s1, after1, k1 in self.table(state).entries:
                if near(k1, key, 2):
                    why = self.reason(after1, key, depth + 1)
                    return f"after {step_words(s1)}: {why}"
        return None


def _still_standing(want: tuple, seen: tuple, caps: Mapping[str, Any], index: Mapping[str, int]) -> dict | None:
    """Whether ``seen`` is ``want`` with some of the captured pieces ``caps`` still standing: which."""
    still = {spot: v for spot, v in caps.items() if seen[index[spot]] == v and want[index[spot]] is None}
    diff = sum(1 for w, g in zip(want, seen) if w != g)
    return still if diff == len(still) else None


__all__ = ["Explainer", "Explanation", "MAX_CACHE", "Progress", "TableExplainer", "near"]
