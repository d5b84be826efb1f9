"""How Brain Hanky explains a board a reader sees: by searching, not by listing.

A crowded Phase II position has thousands of string moves, so the table of predicted boards the
other families use (``engine.explain.TableExplainer``) cannot be built. Instead the change itself
pins a move down: the emptied point starts it, the filled point ends it, and the recoloured rings
lie on its path, so ``HankyState.matching_steps`` searches only paths consistent with that.

Two moves seen at once (a turn has two) are found by guessing the first move's two ends from the
net change (``_first_steps``); two that cross each other (the second through rings the first
recoloured) by trying every first move between the ends seen (``_crossing_first_steps``). Captured gems (and rings, with ring capture) stay on the cloth
until lifted (``HankyState.leftovers``): explanations carry them in ``lift``.

What each reader can tell: a colour reader pins every move down. An occupancy reader sees only
the start and end of a string move, so most string moves are ambiguous and need a button answer;
only the first ``MAX_CANDIDATES`` are offered.
"""

from __future__ import annotations

from collections import deque
from itertools import combinations
from typing import Any, Iterable, Iterator, Mapping

from ..core import Piece, SearchCut, Step
from ..explain import Explainer, Explanation

MAX_FIRST_STEPS = 64  # first steps tried when looking for two steps at once
MAX_CANDIDATES = 12  # occupancy only: string moves checked against one board
MAX_CROSSING = 24  # first moves tried for two moves of one turn that cross each other
CROSSING_BUDGET = 4000  # partial paths searched in all for such first moves


class HankyExplainer(Explainer):
    def __init__(self, rules, sees: str):
        super().__init__(rules, sees)
        hb = rules.hboard
        self._point_spots = tuple(s for s in self.spots if s in rules.index)
        self._neighbours = rules.board.neighbours
        self._web_of = hb.point_web  # point -> "O" or "B"

    # ------------------------------------------------------------------ explaining
    def _matches(self, base, key: tuple, lift: Mapping[str, Any], depth: int,
                 thorough: bool = True) -> list[Explanation]:
        nkey, kept = self.normalise(key, lift)
        out = []
        # With colours the engine returns at most one step; without, every colour pattern that
        # fits, possibly dozens on a dense board: no player could pick among them with a button,
        # so only the first few (shortest paths first) are checked and offered.
        for step in base.matching_steps(self._rings_seen(nkey), colours=self.colours, limit=MAX_CANDIDATES):
            after = base.play(step)
            still = self._fits(base, step, after, nkey, kept)
            if still is not None:
                out.append(Explanation((step,), (after,), still))
        if depth == 2:
            for first in self._first_steps(base, nkey):
                after1 = base.play(first)
                caps = self._leftovers(base, first, after1)
                for e in self._matches(after1, key, {**kept, **caps}, 1):
                    out.append(Explanation((first,) + e.steps, (after1,) + e.states, e.lift))
                if out and self.colours:
                    # Seen in colour, two moves that leave the same board leave the same game
                    # (the same two moves in either order): the first found is the answer, and
                    # the guesses left, each a search, need not run.
                    break
            if not out and self.colours and thorough:
                for first in self._crossing_first_steps(base, nkey):
                    after1 = base.play(first)
                    caps = self._leftovers(base, first, after1)
                    for e in self._matches(after1, key, {**kept, **caps}, 1):
                        out.append(Explanation((first,) + e.steps, (after1,) + e.states, e.lift))
                    if out:
                        break
        return out

    def _rings_seen(self, key: tuple) -> dict[str, Any]:
        """The rings of a key as ``matching_steps`` takes them (gem squares are not points)."""
        idx = self.index
        out = {}
        for p in self._point_spots:
            v = key[idx[p]]
            if v is not None:
                out[p] = Piece(*v) if self.sees == "colour" else (v if self.sees == "polarity" else True)
        return out

    def _leftovers(self, base, step: Step, after) -> dict[str, Any]:
        return {spot: self.value(pc) for spot, pc in base.leftovers(step, after).items()}

    def _fits(self, base, step: Step, after, nkey: tuple, kept: dict[str, Any]) -> dict[str, Any] | None:
        """Whether the board is ``after`` (captured pieces may still stand); the pieces still to lift."""
        want = self.key(after)
        caps = self._leftovers(base, step, after)
        if want == nkey and not caps:
            return dict(kept)
        idx = self.index
        for i, (w, g) in enumerate(zip(want, nkey)):
            if w != g and not (self.spots[i] in caps and caps[self.spots[i]] == g):
                return None
        still = dict(kept)
        still.update({s: v for s, v in caps.items() if nkey[idx[s]] == v})
        return still

    def _ring_diff(self, base, nkey: tuple) -> tuple[dict, dict, list, list, list]:
        """(rings now, rings seen, emptied points, filled points, recoloured points)."""
        now = {p: pc for p, pc in base.position().items() if pc.kind == "ring"}
        seen = self._rings_seen(nkey)
        emptied = [p for p in now if p not in seen]
        filled = [p for p in seen if p not in now]
        recoloured = []
        if self.colours:
            for p, v in seen.items():
                pc = now.get(p)
                if pc is not None and getattr(v, "owner", v) != pc.owner:
                    recoloured.append(p)
        return now, seen, emptied, filled, recoloured

    def _ring_value(self, owner: int) -> Any:
        """A ring of ``owner`` as ``matching_steps`` takes it from this reader."""
        if self.sees == "colour":
            return Piece(owner, "ring")
        return owner if self.sees == "polarity" else True

    def _first_steps(self, base, nkey: tuple) -> Iterator[Step]:
        """First steps that could begin a two-step explanation of the board.

        A move empties its first point and fills its last. Two moves with four different ends
        show as two emptied and two filled points, and the first move joins one of each. When the
        second move starts where the first ended (the same ring moved twice, BH-6) or ends where
        the first began, only one point is emptied and one filled, and the point in between is
        looked for among the neighbours of those two and of the recoloured rings.

        With colours, each guess of the first move's ends, together with a guess of which
        recoloured rings it recoloured, is a board the engine's colour-pruned ``matching_steps``
        answers in a fraction of a millisecond. Without colours the engine cannot prune (a dense
        board has thousands of string paths), so only single-ring first moves are tried, each
        checked directly. Missed: two moves whose paths cross each other's recoloured rings, and
        (occupancy) a string pushed first.
        """
        if base.phase == "placement":
            now, seen, _emptied, filled, _re = self._ring_diff(base, nkey)
            hit = set(filled)
            yield from (s for s in base.legal_steps() if set(self.rules.step_spots(s)[1:]) <= hit)
            return
        if base.phase != "movement":
            return
        now, seen, emptied, filled, recoloured = self._ring_diff(base, nkey)
        nb = self._neighbours
        web = self._web_of
        mine = self._ring_value(base.side + 1)
        me = base.side + 1

        # Who may make the second move: the mover again while the turn has moves left; after
        # its last move, the next player (or the mover again after a capture).
        def may_move_second(point: str) -> bool:
            return base.moves_left <= 1 or now[point].owner == me

        if len(emptied) == 2 and len(filled) == 2:
            # (first move's start, its end, the colour it leaves there, the other move's ends)
            ends = [(e, f, seen[f], [x for x in emptied + filled if x not in (e, f)])
                    for e in emptied for f in filled if web[e] == web[f] and now[e].owner == me
                    and may_move_second(emptied[1] if e == emptied[0] else emptied[0])]
        elif len(emptied) == 1 and len(filled) == 1:
            e, f = emptied[0], filled[0]
            if web[e] != web[f]:
                return  # both guesses below keep both moves on one web
            near = {x for x in nb[e]} | {x for x in nb[f]}
            for r in recoloured:
                near.update(nb[r])
            ends = []
            if now[e].owner == me:  # one ring moved twice: e -> x, then x -> f
                ends += [(e, x, mine, [f]) for x in sorted(near) if x not in now and x != f]
            if may_move_second(e):  # a ring moved on to f, then the ring on e into its place
                ends += [(y, f, seen[f], [e]) for y in sorted(near) if y != e and y in now and now[y].owner == me]
        else:
            return
        found: set[Step] = set()
        if not self.colours:
            for a, b, _colour, _other in ends:
                if b in nb[a] and base.why_illegal(f"{a}-{b}") is None:
                    step = base.parse(f"{a}-{b}")
                    if step not in found:
                        found.add(step)
                        yield step
            return
        base_rings = {p: self._ring_value(pc.owner) for p, pc in now.items()}
        for a, b, colour, other in ends:
            for part in self._recoloured_by_first(recoloured, (a, b), other):
                hypo = dict(base_rings)
                del hypo[a]
                hypo[b] = colour
                for r in part:
                    hypo[r] = seen[r]
                for step in base.matching_steps(hypo, colours=True):
                    if step not in found:
                        found.add(step)
                        yield step
                if len(found) >= MAX_FIRST_STEPS:
                    return

    def _crossing_first_steps(self, base, nkey: tuple) -> Iterator[Step]:
        """First moves of two that cross: the second runs through rings the first recoloured.

        Then no split of the recoloured rings between the moves is right (a ring may have been
        recoloured twice, or back), so the guesses of ``_first_steps`` miss. Seen in colour, the
        two emptied and two filled points still pin the first move down to a start and an end:
        the moves between them (one per distinct result, shortest first, at most
        ``MAX_CROSSING`` in all) are tried, each second move found by the exact colour search.
        Only when nothing else explains the board, and only for four distinct ends: the same
        ring moved twice across its own path is not looked for (it would cost a search of every
        move of that ring on every board no step explains).
        """
        if base.phase != "movement":
            return
        now, seen, emptied, filled, _recoloured = self._ring_diff(base, nkey)
        me = base.side + 1
        web = self._web_of
        idx = self.rules.index
        if len(emptied) != 2 or len(filled) != 2:
            return
        ends = [(e, f) for e in emptied for f in filled if web[e] == web[f] and now[e].owner == me]
        tried = 0
        budget = CROSSING_BUDGET // max(1, len(ends))
        for e, f in ends:
            moves = base._iter_ring_moves(roots=(idx[e],), target=idx[f], budget=budget)
            try:
                for step in moves:
                    tried += 1
                    if tried > MAX_CROSSING:
                        return
                    yield step
            except SearchCut:
                continue

    def _recoloured_by_first(self, recoloured: list[str], ends: tuple[str, str], other: list[str]):
        """Guesses of which recoloured rings the first of two moves recoloured.

        Only rings on its own web (a move stays on one web): when the other move is on the other
        web, exactly those. Otherwise the likeliest first, those nearer its ends than the other
        move's; then, up to four rings, every other subset; more (two long mixed strings on one
        web), none or all.
        """
        web = self._web_of[ends[0]]
        mine = tuple(r for r in recoloured if self._web_of[r] == web)
        same_web = [o for o in other if self._web_of[o] == web]
        if not same_web or not mine:
            return [mine]
        near_mine = self._distances(ends)
        near_other = self._distances(same_web)
        far = len(self._web_of)
        split = tuple(r for r in mine if near_mine.get(r, far) <= near_other.get(r, far))
        rest = ([c for k in range(len(mine) + 1) for c in combinations(mine, k)] if len(mine) <= 4
                else [(), mine])
        return [split] + [c for c in rest if c != split]

    def _distances(self, sources: Iterable[str]) -> dict[str, int]:
        """Steps along the web from the nearest of ``sources`` to every point."""
        dist = {s: 0 for s in sources}
        queue = deque(dist)
        nb = self._neighbours
        while queue:
            p = queue.popleft()
            for q in nb[p]:
                if q not in dist:
                    dist[q] = dist[p] + 1
                    queue.append(q)
        return dist

    # ------------------------------------------------------------------ half-made steps
    def _lifted_to(self, state, spot: str) -> list[str]:
        """A lifted ring may go to an empty neighbour its move may reach (string moves aside:
        listing them all could take seconds on a crowded cloth)."""
        if state.phase != "movement" or spot not in self.rules.index:
            return []
        pos = state.position()
        return [x for x in self._neighbours[spot] if x not in pos and state.why_illegal(f"{spot}-{x}") is None]

    def _finish_words(self, step: Step) -> str:
        return f"Finish the cluster on {step.dst}: a gem and four rings."

    # ------------------------------------------------------------------ illegal boards
    def _reason(self, state, key, emptied, filled, swapped, depth) -> str | None:
        """A string move recolours rings: read the move off the change first."""
        rules = self.rules
        gems_gone = [s for s in emptied if s not in rules.index]
        gems_new = [s for s in filled if s not in rules.index]
        rings_gone = [s for s in emptied if s in rules.index]
        rings_new = [s for s in filled if s in rules.index]
        if state.phase == "placement":
            if gems_gone or rings_gone:
                return "in Phase I pieces are only put down, one cluster at a time"
            new = set(gems_new) | set(rings_new)
            for sq, square in rules.hboard.squares.items():
                if new <= {sq, *square.points.values()}:
                    why = state.why_illegal(sq)
                    return why or f"a cluster on {sq} is a gem and four rings of the player to move"
            return "a cluster is a gem on a whole square and a ring on each of its four points"
        if gems_gone:
            return f"the gem on {gems_gone[0]} has not been captured: it stays until it is"
        if gems_new:
            return f"gems are not put down in Phase II ({gems_new[0]})"
        if len(rings_gone) == 1 and len(rings_new) == 1:
            src, dst = rings_gone[0], rings_new[0]
            path = self._guess_path(state, src, dst)
            why = state.why_illegal("-".join(path)) if path else state.why_illegal(f"{src}-{dst}")
            if why is None and path:
                return f"the rings between {src} and {dst} do not show the colours that move leaves"
            return why
        if len(rings_gone) == 1 and not rings_new:
            return f"a ring was taken off {rings_gone[0]}: rings move along the lines, they are not removed"
        if len(rings_new) == 1 and not rings_gone:
            return f"a ring was added on {rings_new[0]}: in Phase II rings only move"
        return None

    def _guess_path(self, state, src: str, dst: str) -> list[str] | None:
        """The shortest line of rings from ``src`` to ``dst`` (the path a player most likely pushed)."""
        pos = state.position()
        nb = self._neighbours
        parent = {src: None}
        queue = deque([src])
        while queue:
            p = queue.popleft()
            for q in nb[p]:
                if q in parent:
                    continue
                if q == dst:
                    path = [dst, p]
                    while parent[path[-1]] is not None:
                        path.append(parent[path[-1]])
                    return path[::-1]
                if q in pos:
                    parent[q] = p
                    queue.append(q)
        return None


__all__ = ["HankyExplainer", "MAX_CANDIDATES", "MAX_FIRST_STEPS"]
