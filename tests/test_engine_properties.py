"""Properties of every game: random legal play stays consistent, notation round-trips, and
legality has one answer whichever way it is asked (legal_steps, why_illegal, play)."""

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import engine
from engine.rules.mills import all_steps

GAMES = [n for n in engine.names() if engine.spec(n).family == "mills"]


def check_consistent(state):
    rules = state.rules
    men = state.men
    for i in range(len(men)):
        for j in range(i + 1, len(men)):
            assert men[i] & men[j] == 0, "two players on one point"
    for p in range(len(men)):
        total = men[p].bit_count() + state.hand[p] + state.lost[p]
        assert total == rules.settings.men, "men appeared or vanished"
        assert state.hand[p] >= 0
    legal = state.legal_steps()
    assert (state.result is None) == bool(legal), "a running game must have a step; an ended one none"
    assert state.phase in ("placement", "movement", "removal", "over")
    pos = state.position()
    assert len(pos) == sum(m.bit_count() for m in men)
    for step in legal:
        assert state.why_illegal(step) is None, f"{step} is listed legal but why_illegal objects"
        assert rules.parse(str(step)) is step, "notation must round-trip to the same step"


def random_game(name, seed, max_steps=6000):
    """A seeded random game; 6000 steps bound any game (at most ~25 captures x 200-move cap)."""
    game = engine.load(name)
    rng = random.Random(seed)
    state = game.new()
    states = [state]
    while state.result is None and len(states) < max_steps:
        state = state.play(rng.choice(state.legal_steps()))
        states.append(state)
    return states


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playouts_stay_consistent(name, seed):
    states = random_game(name, seed)
    for s in states:
        check_consistent(s)
    assert states[-1].result is not None, "every game ends under the move cap"


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_other_step_is_refused_with_a_reason(name, seed):
    """For sampled positions, every step the game knows is either legal or refused with a reason."""
    states = random_game(name, seed)
    rng = random.Random(seed)
    candidates = all_steps(states[0].rules)
    for s in rng.sample(states, min(6, len(states))):
        legal = set(s.legal_steps())
        for step in candidates:
            why = s.why_illegal(step)
            if step in legal:
                assert why is None
            else:
                assert why, f"{step} is not legal in {s!r} but no reason was given"
                with pytest.raises(engine.IllegalStep):
                    s.play(str(step))


@pytest.mark.parametrize("name", [n for n in GAMES if engine.load(n).rules.fast])
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_fast_path_agrees_with_general_path(name, seed):
    states = random_game(name, seed)
    rng = random.Random(seed)
    for s in states:
        if s.result is not None or s.pending or s.besieged:
            continue
        step = rng.choice(s.legal_steps())
        quick = s._apply_quiet(step)
        if quick is None:
            continue
        full = s._apply(step)
        for attr in ("men", "hand", "lost", "turn", "pending", "opening", "quiet", "besieged", "depth"):
            assert getattr(quick, attr) == getattr(full, attr), attr
        assert quick.result == full.result
        assert quick.legal_steps() == full.legal_steps()
        assert _keys(quick) == _keys(full)


def _keys(state):
    return state.history.keys[: state.depth] if state.history is not None else []


def test_old_state_stays_valid_after_play():
    game = engine.load("nine-mens-morris")
    s0 = game.new()
    s1 = s0.play("d2")
    s2 = s0.play("a1")
    assert s0.position() == {} and s0.to_move == 1
    assert set(s1.position()) == {"d2"} and set(s2.position()) == {"a1"}


def test_branching_keeps_repetition_counts_apart():
    """Two lines of play from one state must not share their repetition history."""
    game = engine.load("six-mens-morris", move_cap=0)
    rng = random.Random(5)
    s = game.new()
    while s.phase != "movement" or s.result is not None:
        s = game.new()
        while s.result is None and s.phase != "movement":
            s = s.play(rng.choice(s.legal_steps()))
    branch_a = s.play(s.legal_steps()[0])
    branch_b = s.play(s.legal_steps()[-1])
    assert branch_a.history is not branch_b.history or branch_a.depth == branch_b.depth == 0
    assert branch_b.history.keys[: s.depth] == s.history.keys[: s.depth]


@pytest.mark.parametrize("name", GAMES)
def test_notation_parses_and_prints_alike(name):
    game = engine.load(name)
    for step in all_steps(game.rules):
        assert game.parse(str(step)) is step
        assert str(step) == step.text


@pytest.mark.parametrize("text,why", [
    ("", "empty"), ("z9", "not a point"), ("d2-", "not a move"), ("d2-d2", "another point"),
    ("a1*g1*g7", "jump"), ("d2--d3", "not a move"),
])
def test_malformed_notation_names_the_problem(text, why):
    s = engine.load("nine-mens-morris").new()
    with pytest.raises(engine.IllegalStep) as exc:
        s.play(text)
    assert why in exc.value.reason


def test_a_step_that_is_not_text_is_refused():
    s = engine.load("tapatan").new()
    with pytest.raises(engine.IllegalStep):
        s.play(42)


def test_unknown_game_and_option_are_clear_errors():
    with pytest.raises(engine.UnknownGame, match="nine-mens-morris"):
        engine.load("nine-men-morris")
    with pytest.raises(engine.BadOption, match="no option 'flying'"):
        engine.load("nine-mens-morris", flying=True)
    with pytest.raises(engine.BadOption, match="true or false"):
        engine.load("seven-mens-morris", flying="perhaps")
    with pytest.raises(engine.BadOption, match="whole number"):
        engine.load("tapatan", move_cap="many")


def test_options_come_in_under_record_and_cli_names():
    g = engine.load("seven-mens-morris", flying=True)
    assert g.options["flying"] is True
    assert engine.load("seven-mens-morris", **{"move-cap": 50}).options["move_cap"] == 50


@pytest.mark.parametrize("name", [n for n in GAMES if engine.load(n).rules.fast])
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_c_kernel_agrees_with_python_reference(name, seed):
    """The optional C kernel must give exactly what MillRules.quiet_core_py gives."""
    rules = engine.load(name).rules
    if rules.quiet_core == rules.quiet_core_py:
        pytest.skip("the C kernel is not built on this machine")
    rng = random.Random(seed)
    for s in random_game(name, seed):
        if s.result is not None or s.pending:
            continue
        for step in rng.sample(s.legal_steps(), min(4, len(s.legal_steps()))):
            if step.kind not in ("place", "move"):
                continue
            src = rules.index[step.src] if step.src else -1
            opp_hand = s.hand[1 - s.turn]
            args = (s.men[0], s.men[1], s.turn, src, rules.index[step.dst], opp_hand)
            assert rules.quiet_core(*args) == rules.quiet_core_py(*args)


def test_c_kernel_is_built_here():
    """CI machines have gcc: a silently failed kernel build would only show as a slow benchmark."""
    from engine.rules import mills

    assert mills._kernel is not None, "engine/rules/_millkernel.c did not build (see pip's output)"


def test_pure_python_fallback_plays_the_same_game(monkeypatch):
    from engine.rules import mills

    def play(seed):
        game = engine.load("nine-mens-morris")
        rng = random.Random(seed)
        s = game.new()
        out = []
        while s.result is None:
            st_ = rng.choice(s.legal_steps())
            out.append(str(st_))
            s = s.play(st_)
        return out, s.result

    with_kernel = play(11)
    monkeypatch.setattr(mills, "_kernel", None)
    assert engine.load("nine-mens-morris").rules.quiet_core.__func__ is mills.MillRules.quiet_core_py
    assert play(11) == with_kernel


def test_move_cap_counts_moves_not_placements():
    # ruling G-3: the cap ends endless shuffling; six placements do not use it up
    steps = ["a7", "d7", "a1", "a4", "g7", "g4", "g7-d4", "g4-g7"]
    s = engine.load("tapatan", move_cap=2).new()
    for text in steps[:7]:
        s = s.play(text)
        assert s.result is None, f"drawn too early, after {text}"
    s = s.play(steps[7])
    assert s.result is not None and s.result.draw and "2 moves" in s.result.reason
