"""Step notation that names a point the board does not have is refused as such, in every game.

A step reaches the engine as text from a journal being resumed, a record being replayed, the
command line, a scenario, or the referee's choices answered with the buttons. A name the board
does not know is a typo or a reader bug; it must be refused with a reason that names it, by
``parse``, ``why_illegal`` and ``play`` alike, in every form of step: placements, moves, jumps
(and chains of them), removals, Brain Hanky paths and Tableaux plays naming the spots they
emptied. With the check skipped for one form the text was still refused, but for the wrong
reason (or with a ``KeyError``), and no test noticed; each form and each position in it is
therefore tested here, in the opening and in the movement phase.
"""

from __future__ import annotations

import random

import pytest

import engine

UNKNOWN = "z9"  # no board has a file z
HANKY_UNKNOWN = "Oz9.n"  # nor a Brain Hanky square z9


def mill_texts(known: str, other: str) -> list[str]:
    u = UNKNOWN
    return [
        u, f"x{u}",                                  # placement, removal
        f"{u}-{known}", f"{known}-{u}",              # a move from or to it
        f"{u}*{known}", f"{known}*{u}",              # a jump from or to it
        f"{known}*{u}*{other}", f"{known}*{other}*{u}",  # inside and at the end of a chain
    ]


def hanky_texts(a: str, b: str) -> list[str]:
    u = HANKY_UNKNOWN
    return [f"{u}-{a}", f"{a}-{u}", f"{a}-{u}-{b}", f"{a}-{b}-{u}", "Oz9"]


def tableaux_texts(spot: str) -> list[str]:
    return [f"1:{UNKNOWN}", f"2:{spot},{UNKNOWN}", f"2:{UNKNOWN},{spot}"]


def texts_for(game) -> list[tuple[str, str]]:
    """(text, the unknown name the reason must give) for every step form of ``game``."""
    rules = game.rules
    family = getattr(rules, "family", "")
    inner = getattr(rules, "inner", rules)
    if family == "brain-hanky":
        a, b = rules.names[0], rules.names[1]
        return [(t, "Oz9" if t == "Oz9" else HANKY_UNKNOWN) for t in hanky_texts(a, b)]
    if family == "tableaux":
        return [(t, UNKNOWN) for t in tableaux_texts(next(iter(rules.index)))]
    if family == "brainmaster":  # spots are implied by the row: an unknown row, or no step at all
        beyond = str(rules.settings.rows + 1)
        return [(f"{beyond}:RBGY", beyond), (f"{beyond}:1b0w", beyond), (UNKNOWN, UNKNOWN)]
    points = list(inner.index)
    return [(t, UNKNOWN) for t in mill_texts(points[0], points[1])]


def movement_state(game, seed: int = 3, limit: int = 400):
    """A position reached by random legal play past the opening (or the last one reached)."""
    rng = random.Random(seed)
    s = game.new()
    for _ in range(limit):
        if s.result is not None or s.phase not in ("placement", "opening", "removal"):
            break
        steps = s.legal_steps()
        if not steps:
            break
        s = s.play(rng.choice(steps))
    return s


def refused_naming(state, text: str, name: str) -> None:
    with pytest.raises(engine.IllegalStep) as info:
        state.rules.parse(text)
    assert name in info.value.reason, f"{text!r}: {info.value.reason!r} does not name {name}"
    why = state.why_illegal(text)
    assert why is not None and name in why, f"{text!r}: why_illegal said {why!r}"
    with pytest.raises(engine.IllegalStep) as info:
        state.play(text)
    assert name in info.value.reason


@pytest.mark.parametrize("name", engine.names())
def test_an_unknown_point_is_refused_by_name_in_every_step_form(name):
    game = engine.load(name)
    start = game.new()
    for text, unknown in texts_for(game):
        refused_naming(start, text, unknown)


@pytest.mark.parametrize("name", ["nine-mens-morris", "kuruka-saba", "kubwa-tatu", "stack", "brain-hanky",
                                  "brain-hanky-battle-lines", "tableaux"])
def test_an_unknown_point_is_refused_by_name_in_the_movement_phase(name):
    game = engine.load(name)
    s = movement_state(game)
    assert s.result is None, "the random game ended before the test could use it; change the seed"
    for text, unknown in texts_for(game):
        refused_naming(s, text, unknown)


def test_a_known_point_in_the_same_forms_is_not_refused_as_unknown():
    # The same texts with real points get past the name check (they may still be illegal
    # here, for a rule's reason): the check refuses names, not forms.
    s = engine.load("kuruka-saba").new()
    for text in ("a1", "xa1", "a1-d1", "a1*g1", "a1*g1*g7"):
        why = s.why_illegal(text)
        assert why is None or "not a point" not in why, f"{text!r}: {why!r}"
    hanky = engine.load("brain-hanky").new()
    why = hanky.why_illegal("Oc3.e-Od3.w")
    assert why is not None and "not a point" not in why  # rings move only in Phase II
    tab = engine.load("tableaux").new()
    assert tab.why_illegal("1") is None


def hand_built(game, text: str) -> engine.Step:
    """The Step a caller could build itself for ``text``, without the game's parser (which checks
    the names): what a replay tool, a test or a referee's own search may hand the rules."""
    from engine.core import CLUSTER, MOVE, parse_step_text, parse_take_or_call

    family = game.rules.family
    if family == "tableaux":
        kind, dst, path = parse_take_or_call(text, ())
        return engine.Step(kind, None, dst, path)
    if family == "brain-hanky":
        if "-" in text:
            path = tuple(text.split("-"))
            return engine.Step(MOVE, path[0], path[-1], path)
        return engine.Step(CLUSTER, None, text)
    return engine.Step(*parse_step_text(text))


@pytest.mark.parametrize("name", engine.names())
def test_a_hand_built_step_naming_an_unknown_point_is_refused_by_name(name):
    # A Step object skipped the parser (only text was parsed), so its point names were never
    # checked: a hand-built Step("z9") reached the board's index and raised KeyError out of
    # why_illegal and play, in every game, instead of the rules' refusal naming the point.
    game = engine.load(name)
    for s in (game.new(), movement_state(game)):
        for text, unknown in texts_for(game):
            step = hand_built(game, text)
            why = s.why_illegal(step)
            assert why is not None and unknown in why, f"{name} {text!r}: why_illegal said {why!r}"
            with pytest.raises(engine.IllegalStep) as info:
                s.play(step)
            assert unknown in info.value.reason, f"{name} {text!r}: {info.value.reason!r}"


def test_a_hand_built_step_is_played_as_the_games_own_step_for_its_text():
    # The text is the step: a Step built by hand with the text of a legal step but other fields
    # (here a placement's text carried as a call's) is played as the game's step for that text.
    game = engine.load("nine-mens-morris")
    s = game.new()
    own = s.legal_steps()[0]
    odd = engine.Step("call", None, own.dst)
    assert odd == own and odd.kind != own.kind
    assert s.why_illegal(odd) is None
    after = s.play(odd)
    assert after.position() == s.play(own).position()
    assert after.to_move == s.play(own).to_move
