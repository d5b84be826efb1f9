"""The catalogue: every game the engine referees, by its lower-case hyphenated name.

Each entry names its ruleset family, the fixed settings that make it that game, and the options a
player may change (the same names in ``engine.load``, in game records and on the command line).
A variant that a rulebook names is its own entry (``shax-8``); a choice a rulebook leaves to the
players is an option (``seven-mens-morris --flying``).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from typing import Any, Callable

from .boards import BoardGraph
from .core import BadOption, Option, UnknownGame, resolve_options
from .rules import mills
from .rules.brain_hanky import HankyRules, HankySettings
from .rules.mills import MillRules, MillSettings


def _positive(v: int) -> str | None:
    return None if v >= 0 else "must be 0 (no cap) or more"


MOVE_CAP = Option("move_cap", int, 200, "moves (placements aside) without a capture before a draw (0: no cap; ruling G-3)",
                  _positive)
FLYING = Option("flying", bool, False, "a player down to three men may fly to any empty point (ruling G-6)")


@dataclass(frozen=True)
class GameSpec:
    name: str
    summary: str  # one line for `arbiter games`
    family: str
    settings: Any
    options: tuple[Option, ...] = ()
    adjust: Callable[[Any, dict[str, Any]], Any] | None = None  # options -> settings
    notes: tuple[str, ...] = ()  # rulings and clarifications shown by `arbiter rules`


class Game:
    """A loaded game: a ruleset with its options resolved. ``new()`` gives the start state."""

    def __init__(self, spec: GameSpec, options: dict[str, Any]):
        self.spec = spec
        self.name = spec.name
        self.options = options
        settings = spec.adjust(spec.settings, options) if spec.adjust else spec.settings
        if "move_cap" in options:
            settings = replace(settings, move_cap=options["move_cap"])
        self.settings = settings
        family = FAMILIES[spec.family]
        try:
            self.rules = family(spec.name, settings)
        except ValueError as exc:
            raise BadOption(f"{spec.name}: {exc}") from None

    @property
    def board(self) -> BoardGraph:
        return self.rules.board

    @property
    def players(self) -> int:
        return self.settings.players

    def new(self, **kwargs):
        """The start state. Brain Hanky with ``move_chooser`` takes ``chooser=`` (draws or an RNG)."""
        return self.rules.new(**kwargs)

    def parse(self, text: str):
        return self.rules.parse(text)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"Game({self.name!r}{', ' + opts if opts else ''})"


def _seven_flying(settings: MillSettings, options: dict[str, Any]) -> MillSettings:
    return replace(settings, flying=mills.FLY_AT_THREE if options["flying"] else mills.FLY_NEVER)


def _hanky_options(settings: HankySettings, o: dict[str, Any]) -> HankySettings:
    """Options -> settings for the Brain Hanky games (BH-1, BH-2, BH-8)."""
    players = o.get("players", settings.players)
    expanded = o.get("expanded", False)
    if players >= 5 and not expanded:
        raise BadOption("five or six players need the 4x expanded board (--expanded)")
    size = o.get("size", settings.size) * (2 if expanded else 1)
    periodic = o.get("periodic", settings.periodic) or expanded
    sides = 2 if players == 4 else players
    gems = o.get("gems") or (14 if sides == 2 else 12)
    if gems % 2:
        raise BadOption(f"gems must be even (one cluster per web each turn, BH-2), not {gems}")
    return replace(
        settings, players=players, size=size, periodic=periodic, gems=gems,
        ring_capture=o.get("ring_capture", settings.ring_capture), scoring=o.get("scoring", False),
        extra_move=o.get("extra_move", False), move_chooser=o.get("move_chooser", False),
        orange_periodic_only=o.get("orange_periodic_only", False),
    )


def _between(lo: int, hi: int) -> Callable[[int], str | None]:
    return lambda v: None if lo <= v <= hi else f"must be {lo} to {hi}"


HANKY_COMMON = (
    Option("size", int, 6, "cells per side of the bandanna (BH-1)", _between(2, 13)),
    Option("expanded", bool, False, "the 4x expanded board: 2N x 2N, periodic (for 5-6 players)"),
    Option("extra_move", bool, False, "a capture adds one move to the turn instead of a whole extra turn (BH-6)"),
    Option("move_chooser", bool, False, "each turn has 1-3 moves, drawn by the move chooser (BH-6)"),
    MOVE_CAP,
)
HANKY_OPTIONS = (
    Option("players", int, 2, "2 or 3 players, 4 in two teams, 5-6 on the expanded board (BH-8)", _between(2, 6)),
    Option("gems", int, 0, "gems per player, even (0: 14 for two sides, 12 for more; BH-2)", _between(0, 100)),
    Option("periodic", bool, False, "the board wraps at its edges (BH-1)"),
    Option("ring_capture", bool, False, "alternate rules: eight rings on an octagon capture the rings inside (BH-7)"),
    Option("scoring", bool, False, "score 1 per captured ring and 5 per gem; most points wins (BH-7)"),
) + HANKY_COMMON
GEMLESS_OPTIONS = (
    Option("players", int, 2, "2 or 3 players", _between(2, 3)),
) + HANKY_COMMON
BATTLE_OPTIONS = (
    Option("periodic", bool, True, "the board wraps at its edges (--no-periodic: the variation without)"),
    Option("ring_capture", bool, False, "alternate rules: eight rings on an octagon capture the rings inside (BH-7)"),
    Option("orange_periodic_only", bool, False, "only the orange web wraps at the edges (variation)"),
) + HANKY_COMMON

HOME_START = (("a1", 1), ("d1", 1), ("g1", 1), ("a7", 2), ("d7", 2), ("g7", 2))
SABR_START = (("a1", 1), ("d1", 2), ("g1", 1), ("a7", 2), ("d7", 1), ("g7", 2))

_MORRIS = dict(line_effect=mills.LINE_REMOVES, lose_below=3, blocked=mills.BLOCKED_LOSES)
_THREE = dict(line_effect=mills.LINE_WINS, lose_below=0)

SPECS: tuple[GameSpec, ...] = (
    GameSpec("nine-mens-morris", "Nine Men's Morris: 9 men each on three squares; mills remove, fly at three",
             "mills", MillSettings("morris9", 9, flying=mills.FLY_AT_THREE, **_MORRIS), (MOVE_CAP,)),
    GameSpec("seven-mens-morris", "Seven Men's Morris: 7 men on two squares and the centre; mills only on the squares",
             "mills", MillSettings("morris7", 7, reform=mills.REFORM_UNLESS_OTHER, **_MORRIS),
             (FLYING, MOVE_CAP), _seven_flying),
    GameSpec("six-mens-morris", "Six Men's Morris: 6 men on two squares; no flying",
             "mills", MillSettings("morris6", 6, reform=mills.REFORM_NEVER, **_MORRIS), (MOVE_CAP,)),
    GameSpec("five-mens-morris", "Five Men's Morris: 5 men on two squares; no flying",
             "mills", MillSettings("morris6", 5, reform=mills.REFORM_NEVER, **_MORRIS), (MOVE_CAP,)),
    GameSpec("three-mens-morris", "Three Men's Morris: 3 men on the 3x3 board; men fly after placing; first line wins",
             "mills", MillSettings("three", 3, flying=mills.FLY_ALWAYS, blocked=mills.BLOCKED_PASSES, **_THREE),
             (MOVE_CAP,)),
    GameSpec("morabaraba", "Morabaraba: 12 cows each on the diagonal board; mills shoot cows, fly at three",
             "mills", MillSettings("morabaraba", 12, flying=mills.FLY_AT_THREE, reform=mills.REFORM_MORABARABA,
                                   ten_move_draw=True, repetition_draw=False, **_MORRIS), (MOVE_CAP,)),
    GameSpec("shax", "Shax: 12 each fill the 24 points; the first jare removes first; jare removes any piece",
             "mills", MillSettings("morris9", 12, line_effect=mills.LINE_REMOVES, protect_lines=False,
                                   shax_opening=True, lose_below=3, blocked=mills.BLOCKED_BESIEGED), (MOVE_CAP,)),
    GameSpec("shax-8", "Shax on the two-square board with 8 pieces each",
             "mills", MillSettings("morris6", 8, line_effect=mills.LINE_REMOVES, protect_lines=False,
                                   shax_opening=True, lose_below=3, blocked=mills.BLOCKED_BESIEGED), (MOVE_CAP,)),
    GameSpec("jare", "Jare: 3 each on the 3x3 board without diagonals; first line wins; no flying",
             "mills", MillSettings("three-plain", 3, blocked=mills.BLOCKED_PASSES, **_THREE), (MOVE_CAP,)),
    GameSpec("tapatan", "Tapatan: 3 each on the 3x3 board with diagonals; first line wins; a blocked player loses",
             "mills", MillSettings("three", 3, blocked=mills.BLOCKED_LOSES, **_THREE), (MOVE_CAP,)),
    GameSpec("achi", "Achi: 4 each on the 3x3 board; only rows and columns win; a blocked player loses",
             "mills", MillSettings("three", 4, lines="rows-columns", blocked=mills.BLOCKED_LOSES, **_THREE),
             (MOVE_CAP,)),
    GameSpec("tant-fant", "Tant Fant: start on the home ranks; a line anywhere but your own home rank wins",
             "mills", MillSettings("three", 3, start=HOME_START, home_rank_counts=False,
                                   blocked=mills.BLOCKED_PASSES, **_THREE), (MOVE_CAP,)),
    GameSpec("shisima", "Shisima: start on the home ranks; only a line through the centre wins",
             "mills", MillSettings("three", 3, start=HOME_START, lines="through-centre",
                                   blocked=mills.BLOCKED_PASSES, **_THREE), (MOVE_CAP,)),
    GameSpec("sabr", "Sabr: home ranks with the middle man swapped; moves or jumps; not on your own home rank",
             "mills", MillSettings("three", 3, start=SABR_START, home_rank_counts=False, jumps=True,
                                   blocked=mills.BLOCKED_PASSES, **_THREE), (MOVE_CAP,)),
)

SPECS += (
    GameSpec("brain-hanky", "Brain Hanky: clusters on two webs, string moves, capture every opponent gem",
             "brain-hanky", HankySettings(), HANKY_OPTIONS, _hanky_options),
    GameSpec("brain-hanky-gemless", "Brain Hanky without gems: capture rings until an opponent has fewer than 8",
             "brain-hanky", HankySettings(periodic=True, gemless=True, ring_capture=True), GEMLESS_OPTIONS,
             _hanky_options),
    GameSpec("brain-hanky-battle-lines", "Brain Hanky from a fixed battle-line start on the periodic board",
             "brain-hanky", HankySettings(periodic=True, battle_lines=True), BATTLE_OPTIONS, _hanky_options),
)

FAMILIES = {"mills": MillRules, "brain-hanky": HankyRules}

_BY_NAME = {spec.name: spec for spec in SPECS}


def register(spec: GameSpec, rules: type | None = None) -> None:
    """Add the game ``spec`` to the catalogue, and with ``rules`` its family's ruleset class.

    This is how a family plugs into the engine: its ruleset (a ``protocol.RulesBase`` subclass
    taking ``(name, settings)``) under ``spec.family``, and one ``GameSpec`` per game. Everything
    else (the referee, the command line, the journal) finds the game by its name from then on.
    """
    global SPECS
    if spec.name in _BY_NAME:
        raise ValueError(f"a game called {spec.name!r} is already registered")
    if rules is not None:
        known = FAMILIES.get(spec.family)
        if known is not None and known is not rules:
            raise ValueError(f"family {spec.family!r} is already registered with {known.__name__}")
        FAMILIES[spec.family] = rules
    elif spec.family not in FAMILIES:
        raise ValueError(f"unknown family {spec.family!r}: register it with its rules class")
    SPECS = SPECS + (spec,)
    _BY_NAME[spec.name] = spec


def unregister(name: str) -> None:
    """Take the game ``name`` out of the catalogue again (its family stays registered)."""
    global SPECS
    spec(name)
    SPECS = tuple(s for s in SPECS if s.name != name)
    del _BY_NAME[name]


def spec(name: str) -> GameSpec:
    try:
        return _BY_NAME[name]
    except KeyError:
        close = difflib.get_close_matches(name, list(_BY_NAME), n=3, cutoff=0.6) if isinstance(name, str) else []
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise UnknownGame(f"unknown game {name!r}{hint}; `arbiter games` lists them all") from None


def load(name: str, **options: Any) -> Game:
    """The game called ``name`` with ``options`` (keyword names as in records and on the CLI)."""
    sp = spec(name)
    resolved = resolve_options(name, sp.options, options)
    return Game(sp, resolved)


def names() -> list[str]:
    return [s.name for s in SPECS]


def specs() -> tuple[GameSpec, ...]:
    """Every registered game's spec, in catalogue order."""
    return SPECS


__all__ = ["BadOption", "Game", "GameSpec", "SPECS", "load", "names", "register", "spec", "specs", "unregister"]
