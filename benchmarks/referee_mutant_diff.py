"""Judge random boards by the referee and by one of its mutants side by side (docs/testing.md).

A surviving mutant is either a missing test or an equivalent change. Where neither a test nor an
argument comes easily (a limit crossed only by floating-point ties, an order that matters only
in a corner), this looks for a difference: random games of the mill family, each followed by a
board (the same, one or two steps on, an earlier position, a spot changed), read by a colour,
polarity or occupancy reader with up to three unsure spots (class probabilities drawn from a
list that includes the referee's limits) and up to two unread ones, observed twice and ticked
past the hold times; the verdicts, the history and any error must agree. The first difference
is printed with its board, the makings of a test.

It runs on mutmut's rewritten copy of the module (``python benchmarks/mutation.py referee``
leaves it in ``/tmp/arbiter-mutation/referee/mutants``), switching mutants through mutmut's own
``MUTANT_UNDER_TEST``, so no file is touched:

    python benchmarks/referee_mutant_diff.py _likeliest__mutmut_44 _game__mutmut_2 -n 600

Prints, per mutant, ``SAME`` with the count of boards tried, or ``DIFF`` and the first board
that tells it apart. "SAME" is no proof of equivalence, only a search that found nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

PROBS = (0.9, 0.6, 0.5, 0.45, 0.35, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05, 0.02, 0.0199, 0.01, 1e-3, 1e-4)
GAMES = ("nine-mens-morris", "tapatan", "three-mens-morris")


def value(piece, sees):
    if piece is None:
        return None
    return (piece.owner, piece.kind) if sees == "colour" else (piece.owner if sees == "polarity" else 0)


def scenario(rng: random.Random, games, engine, Piece, Observation, Reading):
    """A random game, a board after it and a reading of that board (see the module notes)."""
    game = engine.load(rng.choice(games))
    sees = rng.choice(("colour", "colour", "occupancy", "polarity"))
    reader = sees if rng.random() < 0.8 else "colour"
    state, steps = game.new(), []
    for _ in range(rng.randrange(0, 14)):
        if state.result:
            break
        step = rng.choice(state.legal_steps())
        steps.append(step)
        state = state.play(step)
    board, r = state, rng.random()
    if r < 0.45 and not state.result:
        board = state.play(rng.choice(state.legal_steps()))
        if r < 0.15 and not board.result and board.legal_steps():
            board = board.play(rng.choice(board.legal_steps()))
    elif r < 0.6:
        board = game.new()
        for step in steps[:rng.randrange(0, len(steps) + 1)]:
            board = board.play(step)
    pos = dict(board.position())
    spots = game.rules.spots
    if rng.random() < 0.3:
        spot = rng.choice(spots)
        pos.pop(spot, None)
        piece = rng.choice([None, Piece(1, "man"), Piece(2, "man")])
        if piece is not None:
            pos[spot] = piece
    unread = {s: "dim" for s in rng.sample(spots, rng.choice((1, 1, 2)))} if rng.random() < 0.25 else {}
    points = dict(Observation.of_position(pos, spots, reader, unread).points)
    classes = {"colour": [None, (1, "man"), (2, "man")], "polarity": [None, 1, 2], "occupancy": [None, 0]}[reader]
    unsure = set()
    for spot in rng.sample(spots, rng.choice((0, 1, 1, 2, 2, 3))):
        if spot in unread:
            continue
        chosen = value(pos.get(spot), reader) if rng.random() < 0.5 else rng.choice(classes)
        probs = {chosen: rng.choice(PROBS)}
        probs.update({c: rng.choice(PROBS) for c in classes if c != chosen and rng.random() < 0.7})
        if rng.random() < 0.1:
            del probs[chosen]  # a reader that gives its choice no probability
        piece = None if chosen is None else (Piece(*chosen) if reader == "colour" else
                                             Piece(chosen if reader == "polarity" else 0, "piece"))
        points[spot] = Reading(piece, 0.5, probs=probs)
        unsure.add(spot)
    sure_probs = rng.random() >= 0.2  # else probabilities only where the reader hesitates
    for spot, rd in list(points.items()):
        if spot not in unsure and rd.note is None and sure_probs:
            points[spot] = Reading(rd.piece, 1.0, probs={value(rd.piece, reader): 0.999})
    return game, sees, steps, Observation(points, reader)


def judged(R, game, sees, steps, obs, mutant: str):
    """What the referee (with ``mutant`` switched on, "" for none) makes of ``obs``."""
    os.environ["MUTANT_UNDER_TEST"] = mutant
    try:
        ref = R.Referee.from_steps(game, steps, sees)
        out = []
        for t in (10.0, 10.5):
            v = ref.observe(obs, t)
            out.append((v.kind, v.steps, v.undone, v.points, v.to_remove, v.candidates, v.reason, v.message,
                        ref.waiting_for))
        v = ref.tick(14.0)
        out.append(None if v is None else (v.kind, v.undone, v.points, v.message))
        return out + [tuple(ref.history)]
    except Exception as e:  # noqa: BLE001 - an error is an outcome to compare
        return [("error", type(e).__name__, str(e)[:100])]
    finally:
        os.environ["MUTANT_UNDER_TEST"] = ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mutants", nargs="+", help="mutant names, in full or after 'arbiter.referee.xǁRefereeǁ'")
    ap.add_argument("-n", type=int, default=600, help="boards per mutant (default 600)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default=",".join(GAMES), help=f"comma-separated (default {','.join(GAMES)})")
    ap.add_argument("--mutants-dir", type=Path, default=Path(os.environ.get(
        "ARBITER_MUTATION_DIR", "/tmp/arbiter-mutation")) / "referee" / "mutants",
        help="mutmut's rewritten copy of the project (benchmarks/mutation.py referee makes it)")
    args = ap.parse_args(argv)
    if not (args.mutants_dir / "arbiter" / "referee.py").exists():
        print(f"no mutated referee in {args.mutants_dir}: run python benchmarks/mutation.py referee first",
              file=sys.stderr)
        return 2
    sys.path.insert(0, str(args.mutants_dir))
    os.environ["MUTANT_UNDER_TEST"] = ""
    import engine
    from arbiter import referee as R
    from engine.core import Piece
    from engine.observation import Observation, Reading

    games = args.games.split(",")
    differs = 0
    for name in args.mutants:
        full = name if name.startswith("arbiter.") else f"arbiter.referee.xǁRefereeǁ{name}"
        rng, t0 = random.Random(args.seed), time.monotonic()
        for i in range(args.n):
            game, sees, steps, obs = scenario(rng, games, engine, Piece, Observation, Reading)
            a, b = judged(R, game, sees, steps, obs, ""), judged(R, game, sees, steps, obs, full)
            if a != b:
                differs += 1
                print(f"DIFF {name} at board {i}: {game.rules.name}, refereed as {sees}, read by {obs.sees}, "
                      f"after {[str(s) for s in steps]}")
                print("   unsure:", {s: (r.piece, dict(r.probs)) for s, r in obs.points.items()
                                     if r.probs and list(r.probs) != [value(r.piece, obs.sees)]})
                print("   unread:", obs.unread())
                print("   board: ", {s: value(r.piece, obs.sees) for s, r in obs.points.items() if r.piece})
                print("   code:  ", a)
                print("   mutant:", b, flush=True)
                break
        else:
            print(f"SAME {name}: {args.n} boards in {time.monotonic() - t0:.0f} s", flush=True)
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main())
