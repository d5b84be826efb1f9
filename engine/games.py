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
from .rules.brainmaster import BrainmasterRules, BrainmasterSettings
from .rules.circles import CirclesRules, CirclesSettings
from .rules.match import MatchRules
from .rules.mills import MillRules, MillSettings
from .rules.stack import SINGLE, TEAMS as STACK_TEAMS, TWO_COLOURS, StackRules, StackSettings
from .rules.tableaux import TableauxRules, TableauxSettings
from .rules.twin_grids import TwinRules, TwinSettings


def _positive(v: int) -> str | None:
    return None if v >= 0 else "must be 0 (no cap) or more"


MOVE_CAP = Option("move_cap", int, 200, "moves (placements aside) without a capture before a draw (0: no cap; ruling G-3)",
                  _positive)
FLYING = Option("flying", bool, False, "a player down to three men may fly to any empty point (ruling G-6)")
TEAMS = Option("teams", bool, False, "team play: four players in two teams sharing a colour, partners alternating "
                                     "with opponents (A1 B1 A2 B2)", omit_default=True)


def _flying_option(flights: int) -> Option:
    return Option("flying", bool, False, f"a player down to three men may fly to any empty point, at most "
                                         f"{flights} flights in the game (ruling G-6)")


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
        if "move_cap" in options and hasattr(settings, "move_cap"):
            settings = replace(settings, move_cap=options["move_cap"])
        self.settings = settings
        family = FAMILIES[spec.family]
        try:
            rules = family(spec.name, settings)
        except ValueError as exc:
            raise BadOption(f"{spec.name}: {exc}") from None
        target = getattr(settings, "match_target", 0)
        if target:  # played as a match of rounds (Conquer advanced, Stack, Tableaux advanced)
            rules = MatchRules(rules, target, elimination=getattr(settings, "elimination", False))
        self.rules = rules

    @property
    def board(self) -> BoardGraph:
        return self.rules.board

    @property
    def players(self) -> int:
        """People taking turns (four in team play, where two teams share two colours)."""
        return self.rules.players

    def new(self, **kwargs):
        """The start state. Brain Hanky with ``move_chooser`` takes ``chooser=`` (draws or an RNG)."""
        return self.rules.new(**kwargs)

    def parse(self, text: str):
        return self.rules.parse(text)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"Game({self.name!r}{', ' + opts if opts else ''})"


def _seven_flying(settings: MillSettings, options: dict[str, Any]) -> MillSettings:
    return _mill_options(replace(settings, flying=mills.FLY_AT_THREE if options["flying"] else mills.FLY_NEVER),
                         options)


def _mill_options(settings: MillSettings, o: dict[str, Any]) -> MillSettings:
    """The options the mill family shares: team play, flying with a flight count, players."""
    if o.get("teams"):
        settings = replace(settings, teams=True)
    if "flying" in o and settings.flights:
        settings = replace(settings, flying=mills.FLY_AT_THREE if o["flying"] else mills.FLY_NEVER)
    if "players" in o:
        settings = replace(settings, players=o["players"])
    return settings


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
             "mills", MillSettings("morris9", 9, flying=mills.FLY_AT_THREE, **_MORRIS), (TEAMS, MOVE_CAP),
             _mill_options),
    GameSpec("seven-mens-morris", "Seven Men's Morris: 7 men on two squares and the centre; mills only on the squares",
             "mills", MillSettings("morris7", 7, reform=mills.REFORM_UNLESS_OTHER, **_MORRIS),
             (FLYING, TEAMS, MOVE_CAP), _seven_flying),
    GameSpec("six-mens-morris", "Six Men's Morris: 6 men on two squares; no flying",
             "mills", MillSettings("morris6", 6, reform=mills.REFORM_NEVER, **_MORRIS), (TEAMS, MOVE_CAP),
             _mill_options),
    GameSpec("five-mens-morris", "Five Men's Morris: 5 men on two squares; no flying",
             "mills", MillSettings("morris6", 5, reform=mills.REFORM_NEVER, **_MORRIS), (TEAMS, MOVE_CAP),
             _mill_options),
    GameSpec("three-mens-morris", "Three Men's Morris: 3 men on the 3x3 board; men fly after placing; first line wins",
             "mills", MillSettings("three", 3, flying=mills.FLY_ALWAYS, blocked=mills.BLOCKED_PASSES, **_THREE),
             (MOVE_CAP,)),
    GameSpec("morabaraba", "Morabaraba: 12 cows each on the diagonal board; mills shoot cows, fly at three",
             "mills", MillSettings("morabaraba", 12, flying=mills.FLY_AT_THREE, reform=mills.REFORM_MORABARABA,
                                   ten_move_draw=True, repetition_draw=False, **_MORRIS), (TEAMS, MOVE_CAP),
             _mill_options),
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
             (TEAMS, MOVE_CAP), _mill_options),
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


# Saba, Sita and Tano (the Saba board: two squares and the eight-path centre star). The plain
# forms jump without capturing and win by capturing 5, 4 or 3 men; the Kuruka forms capture by
# jumping, chain jumps and win by capturing every man; Lazima makes the jump mandatory (G-8).
_SABA = dict(line_effect=mills.LINE_REMOVES, jumps=True, blocked=mills.BLOCKED_LOSES, line_word="pillar")
_KURUKA = dict(_SABA, jump_captures=True, chain_jumps=True, reform=mills.REFORM_UNLESS_OTHER, lose_below=1)


def _saba_specs() -> tuple[GameSpec, ...]:
    out = []
    for name, men, goal, word in (("saba", 7, 5, "Saba"), ("sita", 6, 4, "Sita"), ("tano", 5, 3, "Tano")):
        out.append(GameSpec(
            name, f"{word}: {men} men each on the Saba board; pillars remove, jumps do not capture; capture {goal} to win",
            "mills", MillSettings("saba", men, win_captures=goal, lose_below=0, **_SABA), (TEAMS, MOVE_CAP),
            _mill_options))
        out.append(GameSpec(
            f"kuruka-{name}", f"Kuruka {word}: {word} where a jumped man is captured and jumps chain; capture every man",
            "mills", MillSettings("saba", men, **_KURUKA), (TEAMS, MOVE_CAP), _mill_options))
        out.append(GameSpec(
            f"lazima-{name}", f"Lazima {word}: Kuruka {word} in which a player who can jump must, except to make a pillar",
            "mills", MillSettings("saba", men, jump_mandatory=True, **_KURUKA), (TEAMS, MOVE_CAP), _mill_options))
    return tuple(out)


# Kubwa Tatu and its smaller forms (two squares joined at the midpoints), the Vyura ("frogs":
# corner links too, and jumps) and Nyoka ("snakes": corner links, no jumps) games, Tatu Ndege
# ("birds": any move flies). Pillars remove where the page says so; the smallest forms are won by
# the first line. "Flying option (N flights)" is the option --flying with the page's count (G-6).
def _small_square_specs() -> tuple[GameSpec, ...]:
    out = []
    forms = (  # name, board, men, captures to win (0: first line wins), jumps, summary word
        ("kubwa-tatu", "morris6", 6, 4, True, "Kubwa Tatu"), ("mbili-na-nusu", "morris6", 5, 3, True, "Mbili na Nusu"),
        ("mbili", "morris6", 4, 2, True, "Mbili"), ("moja-na-nusu", "morris6", 3, 0, True, "Moja na Nusu"),
        ("sita-vyura", "morris6x", 6, 4, True, "Sita Vyura"), ("tano-vyura", "morris6x", 5, 3, True, "Tano Vyura"),
        ("ene-vyura", "morris6x", 4, 0, True, "Ene Vyura"), ("tatu-vyura", "morris6x", 3, 0, True, "Tatu Vyura"),
        ("sita-nyoka", "morris6x", 6, 4, False, "Sita Nyoka"), ("tano-nyoka", "morris6x", 5, 3, False, "Tano Nyoka"),
        ("ene-nyoka", "morris6x", 4, 0, False, "Ene Nyoka"), ("tatu-nyoka", "morris6x", 3, 0, False, "Tatu Nyoka"),
    )
    for name, board_name, men, goal, jumps, word in forms:
        where = "through the midpoints" if board_name == "morris6" else "through the midpoints and corners"
        how = "moves or non-capturing jumps" if jumps else "moves, no jumps"
        teams = (TEAMS,) if men >= 4 else ()
        if goal:
            settings = MillSettings(board_name, men, line_effect=mills.LINE_REMOVES, jumps=jumps, win_captures=goal,
                                    lose_below=0, flights=men, blocked=mills.BLOCKED_LOSES, line_word="pillar")
            summary = f"{word}: {men} men on two squares joined {where}; {how}; pillars remove; remove {goal} to win"
            options = (_flying_option(men),) + teams + (MOVE_CAP,)
        else:
            settings = MillSettings(board_name, men, jumps=jumps, blocked=mills.BLOCKED_PASSES, **_THREE)
            summary = f"{word}: {men} men on two squares joined {where}; {how}; the first line of three wins"
            options = teams + (MOVE_CAP,)
        out.append(GameSpec(name, summary, "mills", settings, options, _mill_options))
    out.append(GameSpec(
        "tatu-ndege", "Tatu Ndege: 3 men on two squares; after placing, a man may move to any open spot; first line wins",
        "mills", MillSettings("morris6x", 3, flying=mills.FLY_ALWAYS, blocked=mills.BLOCKED_PASSES, **_THREE),
        (MOVE_CAP,)))
    return tuple(out)


def _players(lo: int, hi: int, what: str) -> Option:
    return Option("players", int, lo, what, _between(lo, hi))


KUNJING = GameSpec(
    "kunjing", "Kunjing (Dilemma): 3 or 4 players, 4 men each on the large board; jumps chain; first line wins",
    "mills", MillSettings("morabaraba", 4, players=3, jumps=True, chain_jumps=True, blocked=mills.BLOCKED_PASSES,
                          **_THREE),
    (_players(3, 4, "3 or 4 players, each with 4 men of their own colour"), MOVE_CAP), _mill_options)

SPECS += _saba_specs() + _small_square_specs() + (KUNJING,)


# Tresillo (T-1 to T-5): 12 chips each on the large board; a Tresillo is any of its 20 lines.
_TRESILLO = dict(lose_below=0, blocked=mills.BLOCKED_LOSES, line_word="Tresillo")


def _conquer_options(settings: MillSettings, o: dict[str, Any]) -> MillSettings:
    settings = _mill_options(settings, o)
    if o.get("alternative"):
        settings = replace(settings, line_effect=mills.LINE_HANDS_OVER_OR_REMOVES)
    if o.get("advanced"):
        settings = replace(settings, match_target=o.get("target") or 30)
    elif o.get("target"):
        raise BadOption("--target is the goal of Advanced Play: give --advanced too")
    return settings


def _rapido_options(settings: MillSettings, o: dict[str, Any]) -> MillSettings:
    settings = _mill_options(settings, o)
    if o.get("base", "pluck") == "stay":
        settings = replace(settings, line_effect=mills.LINE_HANDS_OVER)
    return replace(settings, move_clock=float(o.get("clock", 5)))


def _one_of(*choices: str) -> Callable[[str], str | None]:
    return lambda v: None if v in choices else f"must be one of {', '.join(choices)}"


TRESILLO_SPECS = (
    GameSpec("tresillo-stay", "Tresillo Stay: place 12 chips each; a Tresillo makes the opponent hand over a chip; "
             "most chips collected wins", "mills",
             MillSettings("morabaraba", 12, line_effect=mills.LINE_HANDS_OVER, placement_only=True, **_TRESILLO),
             (TEAMS, MOVE_CAP), _mill_options),
    GameSpec("tresillo-pluck", "Tresillo Pluck: place 12 chips each; a Tresillo removes an opponent chip; most "
             "chips collected wins", "mills",
             MillSettings("morabaraba", 12, line_effect=mills.LINE_REMOVES, placement_only=True, **_TRESILLO),
             (TEAMS, MOVE_CAP), _mill_options),
    GameSpec("tresillo-conquer", "Tresillo Conquer: place, then move to adjacent spots; a Tresillo removes; "
             "block the opponent or take 10 chips", "mills",
             MillSettings("morabaraba", 12, line_effect=mills.LINE_REMOVES, move_after_all_placed=True,
                          lose_below=3, blocked=mills.BLOCKED_LOSES, line_word="Tresillo"),
             (Option("alternative", bool, False, "Alternative Play: a Tresillo makes the opponent hand over an "
                                                 "unplayed chip, or a chip is removed if they have none (T-3)"),
              Option("advanced", bool, False, "Advanced Play: a match of rounds, players taking turns to start; "
                                              "1 point per captured chip, 2 per trapped opponent chip (T-3)"),
              Option("target", int, 0, "points that win an Advanced Play match (0: the rulebook's 30)",
                     _between(0, 1000)),
              TEAMS, MOVE_CAP), _conquer_options),
    GameSpec("tresillo-rapido", "Tresillo Rapido: Pluck (or Stay) with a per-move clock; time out and the turn "
             "passes", "mills",
             MillSettings("morabaraba", 12, line_effect=mills.LINE_REMOVES, placement_only=True, **_TRESILLO),
             (Option("base", str, "pluck", "the game played fast: pluck or stay (T-5)", _one_of("pluck", "stay")),
              Option("clock", int, 5, "seconds for each play (T-5)", _between(1, 600)),
              TEAMS, MOVE_CAP), _rapido_options),
)


def _stack_options(settings: StackSettings, o: dict[str, Any]) -> StackSettings:
    players = o.get("players", 2)
    if o.get("teams") and o.get("two_colours"):
        raise BadOption("choose one of --teams (four players) and --two-colours (two players)")
    if o.get("teams"):
        if players not in (2, 4):  # 2 is the default: --teams alone means four players
            raise BadOption("team play is four players in two teams: leave out --players or give 4")
        settings = replace(settings, players=4, seating=STACK_TEAMS)
    elif o.get("two_colours"):
        if players != 2:
            raise BadOption("two colours each is the two-player form: leave out --players or give 2")
        settings = replace(settings, players=2, seating=TWO_COLOURS)
    else:
        settings = replace(settings, players=players, seating=SINGLE)
    if o.get("elimination") and settings.seating != SINGLE:
        raise BadOption("elimination (hold your man) is played each for themselves, not in teams or two colours each")
    return replace(settings, match_target=o.get("target", 50), elimination=o.get("elimination", False))


STACK = GameSpec(
    "stack", "Tresillo Stack: 2-4 players stack chips up to 5; a Tresillo confiscates a stack; first to 50 points",
    "stack", StackSettings(),
    (_players(2, 4, "2 to 4 players, 12 chips of their own colour each (T-4)"),
     Option("two_colours", bool, False, "two players, each playing two colours in turn"),
     Option("teams", bool, False, "team play: four players in two teams, partners alternating with opponents"),
     Option("target", int, 50, "points that win the match", _between(1, 1000)),
     Option("elimination", bool, False, "hold your man: when a player reaches the target, the player before "
                                        "them is out, and the rest play on"),
     MOVE_CAP), _stack_options)


def _tableaux_options(settings: TableauxSettings, o: dict[str, Any]) -> TableauxSettings:
    if o.get("advanced"):
        return replace(settings, advanced=True, match_target=o.get("target") or 50)
    if o.get("target"):
        raise BadOption("--target is the goal of Advanced Play: give --advanced too")
    return settings


TABLEAUX = GameSpec(
    "tableaux", "Tableaux: 25 chips on the spots; take 1-3 in turn; whoever takes the last chip loses",
    "tableaux", TableauxSettings(),
    (Option("advanced", bool, False, "Advanced Play: 25-48 chips and a draw of 3-9 chosen each round, "
                                     "10 s / 5 s per play, rounds to 50 points (TB-1)"),
     Option("target", int, 0, "points that win an Advanced Play match (0: the rulebook's 50)", _between(0, 1000))),
    _tableaux_options)

SPECS += TRESILLO_SPECS + (STACK, TABLEAUX)

SPECS += (
    GameSpec("brain-hanky", "Brain Hanky: clusters on two webs, string moves, capture every opponent gem",
             "brain-hanky", HankySettings(), HANKY_OPTIONS, _hanky_options),
    GameSpec("brain-hanky-gemless", "Brain Hanky without gems: capture rings until an opponent has fewer than 8",
             "brain-hanky", HankySettings(periodic=True, gemless=True, ring_capture=True), GEMLESS_OPTIONS,
             _hanky_options),
    GameSpec("brain-hanky-battle-lines", "Brain Hanky from a fixed battle-line start on the periodic board",
             "brain-hanky", HankySettings(periodic=True, battle_lines=True), BATTLE_OPTIONS, _hanky_options),
)



def _brainmaster_options(settings: BrainmasterSettings, o: dict[str, Any]) -> BrainmasterSettings:
    return replace(settings, rows=o["rows"], colours=o["colours"], pegs=o["pegs"], rounds=o["rounds"],
                   solo=o["solo"])


BRAINMASTER = GameSpec(
    "brainmaster", "Brainmaster: crack a hidden code of 4 coloured pegs; black and white indicator pegs answer "
                   "each guess; two codes a round, roles swapped",
    "brainmaster", BrainmasterSettings(),
    (Option("rows", int, 10, "guess rows on the board (boards.md section 5)", _between(8, 12)),
     Option("colours", int, 5, "code peg colours in play (the box has 5)", _between(2, 8)),
     Option("pegs", int, 4, "code pegs in a code (the board has 4 holes a row)",
            lambda v: None if v == 4 else "the board has 4 code holes a row: 4 is the only value"),
     Option("rounds", int, 1, "agreed rounds, two codes each (solo: one code each); most points wins",
            _between(1, 50)),
     Option("solo", bool, False, "one player breaks codes the companion makes")),
    _brainmaster_options,
    notes=("BM-1: black for a right colour in the right hole, white for a right colour in a wrong hole, no peg "
           "counted twice.",
           "BM-2: the companion checks every row's indicator pegs and names a wrong row; the code is given "
           "privately."))

SPECS += (BRAINMASTER,)


def _circles_options(settings: CirclesSettings, o: dict[str, Any]) -> CirclesSettings:
    return replace(settings, lockdown=o["lockdown"], goals=o["spin_cycle"] or 1, uncloned=o["uncloned"],
                   wild_cards=o["wild_cards"], first=o["first"])


THINKING_IN_CIRCLES = GameSpec(
    "thinking-in-circles", "Thinking In Circles: name a circle, outguess the other player's secret beads, and get "
                           "three adjacent tokens on your colour or your secret shapes",
    "circles", CirclesSettings(),
    (Option("lockdown", bool, False, "Lockdown: one Blocker each to refuse the circle the other player names; a "
                                     "token ending on a neutral space gives the player to move another (TC-4)"),
     Option("spin_cycle", int, 0, "Spin Cycle: 2 or 3 secret goals each (0: off, one goal; TC-2)",
            lambda v: None if v in (0, 2, 3) else "Spin Cycle gives 2 or 3 goals each (0 leaves it off)"),
     Option("uncloned", bool, False, "UnCloned: no goal may have the same shape twice side by side"),
     Option("wild_cards", bool, False, "Wild Cards: a token on your colour counts as any shape of your goal"),
     Option("first", str, "white", "the colour of player 1, who moves first (the rulebook: the other player "
                                   "chose the other colour)", _one_of("white", "black")),
     MOVE_CAP),
    _circles_options,
    notes=("TC-1: each player picks 1-3 beads of one colour in secret (white +1, black -1); the sum moves the "
           "named circle's token, clockwise when positive.",
           "TC-2: goals and beads are given privately; the goals are revealed when the game ends.",
           "TC-3: wins are checked after each move over all five triples, forward and backward; if both players "
           "win at once, the player who named the circle wins.",
           "TC-4 (Lockdown): a Blocker is spent after the other player names a circle; one a turn (docs/rules.md)."))

SPECS += (THINKING_IN_CIRCLES,)


def _twin_options(settings: TwinSettings, o: dict[str, Any]) -> TwinSettings:
    return replace(settings, gems=o.get("gems", settings.gems))


TWIN_GRIDS = GameSpec(
    "twin-grids", "The two-grid gem game: slide gems along your own grid; flank on a diagonal to capture; "
                  "trap or take all but one", "twin-grids", TwinSettings(),
    (Option("gems", int, 11, "11 (two 6x6 grids) or 15 (two 8x8 grids) gems each (GG-1)",
            lambda v: None if v in (11, 15) else "must be 11 or 15 (the rulebook's two boards)"),
     MOVE_CAP), _twin_options)

SPECS += (TWIN_GRIDS,)

FAMILIES = {"mills": MillRules, "brain-hanky": HankyRules, "stack": StackRules, "tableaux": TableauxRules,
            "brainmaster": BrainmasterRules, "circles": CirclesRules, "twin-grids": TwinRules}
# What each family is, in a line (``arbiter games`` lists the games under these headings).
FAMILY_TITLES = {
    "mills": "The mill family: place, move, jump; lines remove or win (Morris, Morabaraba, Shax, the 3x3 "
             "games, Saba, Kubwa Tatu, Vyura, Nyoka, Ndege, Kunjing, Tresillo)",
    "stack": "Tresillo Stack: chips stack up to five high; a Tresillo confiscates a stack",
    "tableaux": "Tableaux: take chips off the board; the last chip loses",
    "brain-hanky": "Brain Hanky: rings and gems on two webs",
    "brainmaster": "Brainmaster: a code of coloured pegs, cracked row by row",
    "circles": "Thinking In Circles: five tokens on five tracks, steered by secret beads",
    "twin-grids": "The two-grid gem game: gems slide on two offset grids; diagonal flanks capture",
}

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


__all__ = ["BadOption", "FAMILY_TITLES", "Game", "GameSpec", "SPECS", "load", "names", "register", "spec", "specs", "unregister"]
