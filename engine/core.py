"""What every game shares: steps and their notation, pieces, results, options, errors.

A *step* is one physical transition of the board (a placement, a slide or flight, a jump, a
removal after a mill). Multi-part turns are sequences of steps, so a camera or sensor grid can
be matched against the engine one transition at a time.

Notation (``str(step)``), which ``parse_step`` reads back exactly:

===========  ==================  ============================================
kind         text                meaning
===========  ==================  ============================================
place        ``d2``              put a piece from hand on d2
cluster      ``Oc3``             Brain Hanky: a gem and four rings on square Oc3
move         ``d2-d3``           slide along an edge, or fly (same text)
                                 Brain Hanky: ``Oc3.n-Oc3.e``, a string move lists its whole path
jump         ``a1*g1*g7``        leap over a piece to each landing in turn
remove       ``xg7``             take the opponent piece on g7 off the board
take         ``3``               Tableaux: take three chips; ``3:a1,d4`` also names the spots
                                 the take left empty (what a camera saw)
call         ``timeout``         a declaration or choice that moves no piece: ``timeout`` (a
                                 player's clock ran out), ``impasse`` (Stack), ``next-round``,
                                 ``chips=30`` and ``draw=5`` (Tableaux's advanced set-up)
===========  ==================  ============================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

PLACE, MOVE, JUMP, REMOVE, CLUSTER = "place", "move", "jump", "remove", "cluster"
TAKE, CALL = "take", "call"

# The words of the call steps every family shares.
TIMEOUT = "timeout"  # the player to move ran out of time (the engine never reads a clock)
IMPASSE = "impasse"  # Stack: the players agree no colour can dominate the board
NEXT_ROUND = "next-round"  # a match of rounds: the board is set up for the next round


class IllegalStep(ValueError):
    """A step the rules do not allow here; ``reason`` names the rule it breaks."""

    def __init__(self, step: str, reason: str):
        super().__init__(f"{step}: {reason}")
        self.step = step
        self.reason = reason


class SearchCut(RuntimeError):
    """A move search stopped at its budget before it could finish (a crowded Brain Hanky board)."""


class UnknownGame(KeyError):
    def __str__(self) -> str:  # KeyError quotes its message; a user should read plain text
        return str(self.args[0])


class BadOption(ValueError):
    """An option name or value a game does not accept."""


class Step(str):
    """One physical transition; the string value is its notation.

    A ``str`` subclass on purpose: hashing, equality and membership run at C speed (legal-step
    checks sit on the hot path), records and JSON take steps as they are, and ``step == "d2"``
    reads naturally in tests. Instances are interned per game, built once and handed out.

    ``src`` is the starting point (None for a placement or removal), ``dst`` the final point (the
    removed point for a removal, the square for a Brain Hanky cluster), ``path`` every landing
    point of a jump, or every point of a Brain Hanky ring move from the ring that starts it to
    the empty point it reaches (``Ob2.s-Ob2.e-Oc2.w``).

    A *take* (Tableaux) keeps its chip count as text in ``dst`` (``count`` gives it as a number)
    and the spots it left empty in ``path``; a *call* keeps its word in ``dst``.
    """

    kind: str
    src: str | None
    dst: str
    path: tuple[str, ...]

    def __new__(cls, kind: str, src: str | None, dst: str, path: tuple[str, ...] = ()):
        if kind in (PLACE, CLUSTER):
            text = dst
        elif kind == MOVE:
            text = "-".join(path) if path else f"{src}-{dst}"
        elif kind == JUMP:
            text = "*".join((src,) + tuple(path))
        elif kind == REMOVE:
            text = "x" + dst
        elif kind == TAKE:
            text = dst + (":" + ",".join(path) if path else "")
        elif kind == CALL:
            text = dst
        else:
            raise ValueError(f"unknown step kind {kind!r}")
        self = super().__new__(cls, text)
        self.kind = kind
        self.src = src
        self.dst = dst
        self.path = tuple(path)
        return self

    @property
    def text(self) -> str:
        return str.__str__(self)

    @property
    def count(self) -> int:
        """How many chips a take step takes (0 for every other kind)."""
        return int(self.dst) if self.kind == TAKE else 0

    def __repr__(self) -> str:
        return f"Step({str.__repr__(self)})"

    def __reduce__(self):
        return (Step, (self.kind, self.src, self.dst, self.path))


def parse_step_text(text: str) -> tuple[str, str | None, str, tuple[str, ...]]:
    """Split step notation into (kind, src, dst, path) without checking the board.

    Raises ValueError with a message a player can act on when the text is not notation at all.
    """
    t = text.strip()
    if not t:
        raise ValueError("empty step")
    if t[0] in "xX" and len(t) > 1 and "-" not in t and "*" not in t:
        return REMOVE, None, t[1:], ()
    if "*" in t:
        parts = t.split("*")
        if any(not p for p in parts) or len(parts) < 2:
            raise ValueError(f"{text!r} is not a jump: write from*landing[*landing...]")
        return JUMP, parts[0], parts[-1], tuple(parts[1:])
    if "-" in t:
        parts = t.split("-")
        if len(parts) != 2 or not all(parts):
            raise ValueError(f"{text!r} is not a move: write from-to, e.g. d2-d3")
        return MOVE, parts[0], parts[1], ()
    return PLACE, None, t, ()


def parse_take_or_call(text: str, words: tuple[str, ...]) -> tuple[str, str, tuple[str, ...]] | None:
    """Read a take (``3``, ``3:a1,d4``) or one of ``words`` (a call such as ``timeout`` or
    ``chips=30``) as (kind, dst, path); None when the text is neither (it may be a board step).

    ``words`` lists the calls a family knows; a word ending in ``=`` takes a whole number after it.
    Raises ValueError, with what to write instead, for text that starts like one but is malformed.
    """
    t = text.strip()
    head, sep, tail = t.partition(":")
    if head.isdigit():
        spots = tuple(tail.split(",")) if sep else ()
        if sep and (not tail or any(not p for p in spots)):
            raise ValueError(f"{text!r} is not a take: write the count, e.g. 3, or 3:a1,d4 with the emptied spots")
        return TAKE, str(int(head)), spots
    low = t.lower()
    for w in words:
        if w.endswith("="):
            if low.startswith(w):
                value = low[len(w):]
                if not value.isdigit():
                    raise ValueError(f"{text!r}: write {w} and a whole number, e.g. {w}30")
                return CALL, w + str(int(value)), ()
        elif low == w:
            return CALL, w, ()
    return None


def preflight(state: Any, step: Any) -> tuple["Step | None", str | None]:
    """The checks every ruleset makes first: the step must be notation this game knows, and no
    step is legal once the game is over. Returns (the interned step, None) or (None, reason)."""
    if not isinstance(step, str):
        return None, f"{step!r} is not a step: write it in the game's notation (arbiter rules GAME)"
    # A Step is parsed again from its text too: one built by hand (``Step(PLACE, None, "z9")``)
    # skips the parser's check of its point names and would reach the rules as a KeyError; the
    # rules' own parse answers an interned step with one dictionary look-up, and returns the
    # game's own step for the text, whatever fields the caller's copy carried.
    try:
        step = state.rules.parse(step.text if type(step) is Step else step)
    except IllegalStep as exc:
        return None, exc.reason
    if state.result is not None:
        return None, f"the game is over ({state.result.reason})"
    return step, None


class Piece(NamedTuple):
    """What stands on a point: its owner (1..n) and its kind ("man", "ring", "gem", ...)."""

    owner: int
    kind: str


@dataclass(frozen=True)
class Result:
    """How a game ended. ``winner`` is None for a draw; ``reason`` says why in plain words."""

    winner: int | None
    draw: bool
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "draw": self.draw, "reason": self.reason}


@dataclass(frozen=True)
class Option:
    """A game option: the same name in ``engine.load``, in records and on the command line."""

    name: str
    kind: type
    default: Any
    help: str
    check: Callable[[Any], str | None] | None = None
    # Left out of a game's resolved options (its records and journals) unless given: a choice
    # offered to games that had records before it existed (team play), so those stay as they were.
    omit_default: bool = False

    def coerce(self, value: Any) -> Any:
        if self.kind is bool:
            if isinstance(value, bool):
                out = value
            elif isinstance(value, str) and value.lower() in ("true", "yes", "1", "on"):
                out = True
            elif isinstance(value, str) and value.lower() in ("false", "no", "0", "off"):
                out = False
            else:
                raise BadOption(f"option {self.name} takes true or false, not {value!r}")
        elif self.kind is int:
            if isinstance(value, bool):
                raise BadOption(f"option {self.name} takes a whole number, not {value!r}")
            try:
                out = int(value)
            except (TypeError, ValueError):
                raise BadOption(f"option {self.name} takes a whole number, not {value!r}") from None
            if isinstance(value, float) and value != out:
                raise BadOption(f"option {self.name} takes a whole number, not {value!r}")
        else:
            out = self.kind(value)
        if self.check is not None:
            problem = self.check(out)
            if problem:
                raise BadOption(f"option {self.name}: {problem}")
        return out


def resolve_options(game: str, declared: tuple[Option, ...], given: dict[str, Any]) -> dict[str, Any]:
    """Merge given options over defaults; unknown names are an error naming the known ones."""
    by_name = {o.name: o for o in declared}
    out = {o.name: o.default for o in declared if not o.omit_default}
    for key, value in given.items():
        name = key.replace("-", "_")
        if name not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise BadOption(f"{game} has no option {key!r} (its options: {known})")
        out[name] = by_name[name].coerce(value)
    return out
