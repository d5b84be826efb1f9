"""Mill rules that a planted bug got past: protection by several lines at once (G-4) and what
counts as the same position for the third-repetition draw (G-3).

Both found by mutation testing (docs/testing.md): with only the last of an opponent's standing
lines protected, or with the side to move left out of the repetition key, every rule test passed.
"""

from __future__ import annotations

from helpers import play_all


def test_every_standing_line_protects_its_men_not_only_the_last_one_found():
    # ruling G-4: side 2 stands in two mills (a1-d1-g1 and a7-d7-g7) and has one man outside
    # them (f4); side 1 completes c3-d3-e3 and may remove only f4.
    s = play_all("nine-mens-morris", "c3 a1 b6 d1 f6 g1 xb6 d3 a7 b4 d7 f2 g7 xf2 d6 f4 e3".split())
    assert s.phase == "removal" and s.to_move == 1
    assert [str(st) for st in s.legal_steps()] == ["xf4"]
    for man in ("a1", "d1", "g1", "a7", "d7", "g7"):
        assert "protected" in s.why_illegal("x" + man), man
    assert s.why_illegal("xf4") is None


# Three Men's Morris, after placement: side 1 on a1 g1 d4, side 2 on d1 a4 g7, side 1 to move.
# Men fly, so a side can bring its men back in three moves as well as in two: five plies make
# the same men with side 2 to move, five more the same men with side 1 to move again.
PLACEMENT = ["a1", "d1", "g1", "a4", "d4", "g7"]
SIDE_ONE_ROUND = ["g1-g4", "g7-d7", "g4-a7", "d7-g7", "a7-g1"]  # side 1 three moves, side 2 two
SIDE_TWO_ROUND = ["g7-d7", "g1-g4", "d7-a7", "g4-g1", "a7-g7"]  # side 2 three moves, side 1 two
SHUTTLE = ["g1-g4", "g7-d7", "g4-g1", "d7-g7"]  # both two: the same men, the same side to move


def men(state):
    return {p: pc.owner for p, pc in state.position().items()}


def test_the_same_men_with_the_other_side_to_move_is_not_the_same_position():
    # ruling G-3: a position is the men and who is to move. Here the men of the start come back
    # three times, but only twice with side 1 to move: no draw yet.
    start = play_all("three-mens-morris", PLACEMENT)
    after_one = play_all("three-mens-morris", SIDE_ONE_ROUND, state=start)
    assert men(after_one) == men(start) and after_one.to_move == 2
    after_two = play_all("three-mens-morris", SIDE_TWO_ROUND, state=after_one)
    assert men(after_two) == men(start) and after_two.to_move == 1
    assert after_two.result is None, "the start's men came back three times, but not three times with side 1 to move"
    # Once more with side 1 to move is the third time: drawn.
    third = play_all("three-mens-morris", SHUTTLE, state=after_two)
    assert men(third) == men(start) and third.to_move == 1
    assert third.result is not None and third.result.draw and "third time" in third.result.reason


def test_the_quiet_step_reference_agrees_with_the_game_on_random_games():
    # MillRules.quiet_core_py is the reference the C kernel is checked against: for a step that
    # completes no line it gives the men after it and the opponent's legal steps in order; for
    # one that does, None. Checked against the states the game itself reaches, placing,
    # sliding and flying (nine men's morris flies at three).
    import random

    import engine

    game = engine.load("nine-mens-morris")
    rules = game.rules
    checked = {"place": 0, "slide": 0, "fly": 0, "line": 0}
    for seed in range(4):
        rng = random.Random(seed)
        s = game.new()
        while s.result is None and s.plies < 200:
            if not s.pending:
                for st in s.legal_steps():
                    if st.kind not in ("place", "move"):
                        continue
                    m0, m1 = s.men
                    src = rules.index[st.src] if st.src else -1
                    got = rules.quiet_core_py(m0, m1, s.turn, src, rules.index[st.dst], s.hand[1 - s.turn])
                    after = s.play(st)
                    if after.pending or after.result is not None and "line" in after.result.reason:
                        assert got is None, st
                        checked["line"] += 1
                        continue
                    assert got is not None, f"{st} completes no line"
                    men, legal, _key = got
                    assert men == after.men
                    if after.result is None:
                        assert list(legal) == list(after.legal_steps()), st
                    kind = "place" if src < 0 else ("slide" if rules.adj[src] >> rules.index[st.dst] & 1 else "fly")
                    checked[kind] += 1
            s = s.play(rng.choice(s.legal_steps()))
    assert all(checked.values()), checked
