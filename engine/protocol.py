"""The family protocol: everything the rest of arbiter asks of a game family, and nothing more.

A *family* is one ruleset with options (the mill family plays Nine Men's Morris, Morabaraba,
Shax and the 3x3 games; Brain Hanky plays its variants). The referee, the session, the journal,
the screen and the command line work with any family through the two small interfaces below, in
the spirit of OpenSpiel's uniform State API: they never look inside a family's state, and adding
a family adds no branch to them (``docs/adding-a-game.md`` lists the places a family plugs in).

``Rules`` is a loaded game's ruleset (``engine.load(name).rules``); ``State`` an immutable
position of it. ``RulesBase`` and ``StateBase`` give every member a sensible default, so a family
with one piece per spot, one step per turn and few legal steps (a tic-tac-toe) implements only
``new``, ``parse``, ``position``, ``legal_steps``, ``play``, ``why_illegal`` and the turn facts
``to_move``, ``phase`` and ``result``. Richer families override what differs: Brain Hanky's
clusters touch five spots (``step_spots``), its captured gems stay on the cloth until lifted
(``leftovers``), its turns have several moves (``moves_left``), and its crowded positions have
far too many string moves to list, so it explains a board by searching (``explainer``).

Explaining what a reader sees
-----------------------------
``Rules.explainer(sees)`` returns an ``engine.explain.Explainer`` for a colour, polarity or
occupancy reader: given a state and the board as that reader sees it, the steps (or two-step
sequences) that produce it, and, when none does, the reason in players' words. The default
(``engine.explain.TableExplainer``) predicts the view after every legal step and looks the board
up; Brain Hanky's searches only the string moves consistent with the change.

Vocabulary
----------
*player*  the person (1..``players``) whose turn it is: ``State.to_move``.
*colour*  the owner number on pieces (``Piece.owner``), 1..``colours``. Players and colours are
          the same numbers unless teams share a colour (Brain Hanky's four players in two teams):
          ``Rules.colour_of(player)`` maps one to the other.
*spot*    a place a piece can stand: the board's points and any cells off the graph (Brain
          Hanky's gem squares), in ``Rules.spots`` order; a reader reports every spot.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Iterator, Protocol, Sequence, runtime_checkable

from .core import CALL, JUMP, MOVE, REMOVE, TAKE, IllegalStep, Piece, Result, Step

if TYPE_CHECKING:  # pragma: no cover
    from .boards import BoardGraph
    from .explain import Explainer

class Draws:
    """A game's chance draws (Brain Hanky's move chooser): recorded values first, then an RNG.

    ``Rules.new(draws=...)`` takes this, a plain list of values (a record's), or a
    ``random.Random``. A journal resumed mid-game passes the values drawn so far and an RNG for
    the turns still to come.
    """

    def __init__(self, values: Sequence[int] = (), rng: random.Random | None = None):
        self.values = list(values)
        self.rng = rng


# Colour words players use for the pieces of colours 1..4 of the HTJB games (and any family that
# does not name its own): the men of the first player are white, the second's black.
COLOUR_WORDS = {1: "white", 2: "black", 3: "red", 4: "blue", 5: "green", 6: "yellow"}


@runtime_checkable
class State(Protocol):
    """An immutable position. ``play`` returns a new state; nothing mutates a state in place."""

    rules: "Rules"
    result: Result | None  # None while the game goes on

    @property
    def to_move(self) -> int: ...  # the player (1..players) who makes the next step

    @property
    def phase(self) -> str: ...  # "placement", "movement", "removal", "over", or a family's own word

    @property
    def colour_to_move(self) -> int: ...  # the colour of the pieces the player to move plays

    @property
    def moves_left(self) -> int: ...  # steps this player still makes in this turn, this one included

    @property
    def events(self) -> tuple[str, ...]: ...  # what the step that led here caused, in players' words

    def position(self) -> dict[str, Piece]: ...  # spot -> what stands there (top piece of a stack)
    def legal_steps(self) -> tuple[Step, ...]: ...
    def iter_steps(self) -> Iterator[Step]: ...  # the same steps, lazily: for families with many
    def play(self, step: Step | str) -> "State": ...  # IllegalStep naming the rule if not legal
    def why_illegal(self, step: Step | str) -> str | None: ...
    def parse(self, text: str) -> Step: ...
    def removable(self) -> tuple[str, ...]: ...  # spots the player to move may take a piece from now
    def captures(self) -> dict[int, int]: ...  # colour -> opponent pieces it has captured
    def leftovers(self, step: Step, after: "State") -> dict[str, Piece]: ...  # see StateBase
    def draws(self) -> list[int]: ...  # chance draws made so far (Brain Hanky's move chooser)
    def calls(self) -> tuple[Step, ...]: ...  # declarations legal now but never read off a board
    def stack(self, spot: str) -> tuple[Piece, ...]: ...  # everything on ``spot``, bottom first

    @property
    def time_limit(self) -> float | None: ...  # seconds the player to move has, if the rules clock it

    @property
    def private_to(self) -> int | None: ...  # the player whose next step is a secret (see StateBase)

    def secrets(self) -> dict[int, dict[str, str]]: ...  # player -> what only they may see now


@runtime_checkable
class Rules(Protocol):
    """A loaded game's ruleset: the start state, notation, and the facts every state shares."""

    name: str
    board: "BoardGraph"
    players: int
    family: str
    piece_kinds: tuple[str, ...]
    has_jumps: bool
    line_name: str
    stack_limit: int
    reads_as: str
    settle_s: float | None
    draws_private: bool

    @property
    def colours(self) -> int: ...  # how many piece colours are in play
    @property
    def spots(self) -> tuple[str, ...]: ...
    @property
    def draw_values(self) -> tuple[int, ...] | None: ...  # what a chance draw may be; None: none

    def new(self, *, draws: "Draws | Sequence[int] | random.Random | None" = None) -> State: ...
    def parse(self, text: str) -> Step: ...
    def spot_xy(self, spot: str) -> tuple[float, float]: ...
    def kind_at(self, spot: str) -> str: ...
    def colour_of(self, player: int) -> int: ...
    def team_of(self, player: int) -> int | None: ...
    def colour_name(self, colour: int) -> str: ...
    def piece_name(self, colour: int, kind: str) -> str: ...
    def step_spots(self, step: Step) -> tuple[str, ...]: ...
    def explainer(self, sees: str) -> "Explainer": ...
    def public_text(self, step: Step | str) -> str: ...  # a step as every player may see it


class RulesBase:
    """Defaults for ``Rules``: one colour per player, spots are the board's, steps touch their ends.

    Subclasses set ``name``, ``board`` and ``players`` and implement ``new`` and ``parse``.
    """

    name: str
    board: "BoardGraph"
    players: int
    family = ""  # the registry key of the family (engine.games.FAMILIES), set by each family
    piece_kinds: tuple[str, ...] = ("man",)  # the kinds of piece in play
    has_jumps = False  # whether a piece may leap over another (a long move is then read as a jump)
    line_name = "a line"  # what completing a line that removes is called, with its article ("a mill")
    stack_limit = 1  # pieces that may stand on one spot (Stack: 5; Tableaux: chips two high)
    reads_as = "colour"  # the most a reader needs to see ("occupancy": Tableaux chips belong to nobody)
    settle_s: float | None = None  # how long a board must hold still before a step is read (None: the reader's)
    # Whether the chance draws are secrets (a solo Brainmaster's codes, drawn by the companion):
    # then no one is told them, and a record or journal keeps them sealed until the game ends.
    draws_private = False

    def kind_at(self, spot: str) -> str:
        """The kind of piece that stands on ``spot`` (the first kind, unless a family says)."""
        return self.piece_kinds[0]

    @property
    def colours(self) -> int:
        return self.players

    @property
    def spots(self) -> tuple[str, ...]:
        """Every place a piece can stand: the board's points, then its cells off the graph."""
        return self.board.spots

    @property
    def draw_values(self) -> tuple[int, ...] | None:
        return None

    def spot_xy(self, spot: str) -> tuple[float, float]:
        return self.board.spot_coords[spot]

    def colour_of(self, player: int) -> int:
        return player

    def team_of(self, player: int) -> int | None:
        return None

    def colour_name(self, colour: int) -> str:
        return COLOUR_WORDS.get(colour, f"player {colour}")

    def piece_name(self, colour: int, kind: str) -> str:
        return f"{self.colour_name(colour)} {kind}"

    def step_spots(self, step: Step) -> tuple[str, ...]:
        """The spots ``step`` touches, in the order a player's hand visits them (lit on the LEDs)."""
        if step.kind == JUMP:
            return (step.src,) + step.path
        if step.kind == MOVE and step.path:
            return step.path
        if step.kind == TAKE:
            return step.path
        if step.kind == CALL:
            return ()
        return tuple(p for p in (step.src, step.dst) if p)

    # A family's secret steps, by the prefix of their text, and the word every player sees in
    # their place (Brainmaster: (("code=", "code"),)). Empty: nothing this family plays is secret.
    secret_prefixes: tuple[tuple[str, str], ...] = ()

    def public_text(self, step: Step | str) -> str:
        """``step`` as every player may see it (on the screen, the shared page, an announcement).

        The step itself, unless it is a secret (``State.private_to`` said it was due): then only
        what kind of step it was (a Brainmaster ``code=RBGY`` shows as ``code``), from
        ``secret_prefixes``."""
        text = str(step)
        if self.secret_prefixes:
            low = text.strip().lower()
            for prefix, word in self.secret_prefixes:
                if low.startswith(prefix):
                    return word
        return text

    def _known(self, text, how: str) -> tuple[str, Step | None]:
        """The opening of a word family's ``parse``: ``text`` stripped, and the step already
        interned under it (None if new). Not a string is an ``IllegalStep`` saying ``how`` to
        write one."""
        if not isinstance(text, str):
            raise IllegalStep(repr(text), how)
        t = text.strip()
        return t, self.__dict__.get("_steps", {}).get(t)

    def _intern(self, kind: str, text: str) -> Step:
        """One ``Step`` per text, for families whose steps are words (codes, goals, calls): made
        on first use and kept, so the same step parsed twice is the same object."""
        steps = self.__dict__.setdefault("_steps", {})
        st = steps.get(text)
        if st is None:
            st = steps[text] = Step(kind, None, text)
        return st

    def explainer(self, sees: str) -> "Explainer":
        """How this family explains a board seen by a ``sees`` reader (cached per reader kind)."""
        cache = self.__dict__.setdefault("_explainers", {})
        ex = cache.get(sees)
        if ex is None:
            ex = cache[sees] = self._make_explainer(sees)
        return ex

    def _make_explainer(self, sees: str) -> "Explainer":
        from .explain import TableExplainer

        return TableExplainer(self, sees)


class StateBase:
    """Defaults for ``State``: one step a turn, nothing left on the board after a step, no draws.

    Subclasses keep ``rules`` and ``result`` and implement ``to_move``, ``phase``, ``position``,
    ``legal_steps``, ``play`` and ``why_illegal``.
    """

    __slots__ = ()

    @property
    def colour_to_move(self) -> int:
        return self.rules.colour_of(self.to_move)

    @property
    def moves_left(self) -> int:
        return 1

    @property
    def events(self) -> tuple[str, ...]:
        return ()

    def iter_steps(self) -> Iterator[Step]:
        return iter(self.legal_steps())

    def parse(self, text: str) -> Step:
        return self.rules.parse(text)

    def removable(self) -> tuple[str, ...]:
        """Spots the player to move may take a piece from now (a mill's removal), else ()."""
        if self.phase != "removal":
            return ()
        return tuple(dict.fromkeys(s.dst for s in self.legal_steps() if s.kind == REMOVE))

    def captures(self) -> dict[int, int]:
        """Colour -> pieces of other colours it has taken; families that count keep a tally."""
        return {c: 0 for c in range(1, self.rules.colours + 1)}

    def leftovers(self, step: Step, after: Any) -> dict[str, Piece]:
        """Pieces ``step`` took off in the rules that still stand on the physical board after it.

        A removal step takes its piece off by hand as the step itself, so by default nothing is
        left over. Where the rules capture as a side effect of a move (a Brain Hanky gem taken
        when its square is enclosed), the players lift the piece afterwards: until they do, the
        reader still sees it, and the referee must not read it as a mistake.
        """
        return {}

    def draws(self) -> list[int]:
        return []

    def calls(self) -> tuple[Step, ...]:
        """Declarations the player to move may make now that no reader can see: a clock's
        ``timeout``, Stack's ``impasse``. They are legal steps (``play`` takes them) but are not in
        ``legal_steps()``, so nothing explains a board by guessing one; the session offers them
        through the clock and the buttons."""
        return ()

    def stack(self, spot: str) -> tuple[Piece, ...]:
        """Every piece on ``spot``, bottom first; ``position()`` shows only the last (the top)."""
        piece = self.position().get(spot)
        return (piece,) if piece is not None else ()

    # -- secrets (a code under its cover, a secret goal): what a front end must keep private --
    @property
    def private_to(self) -> int | None:
        """The player whose next step is a secret, or None (the default: nothing is secret).

        A front end takes that step from that player alone (their private page, or hidden entry
        while the others look away), never reads it off the board, never says it aloud, shows it
        to others only as ``rules.public_text(step)``, and keeps its full text sealed in any record
        others can read until the game is over. The engine itself plays the full step as usual."""
        return None

    def secrets(self) -> dict[int, dict[str, str]]:
        """What each player alone may see now: player -> {name: value} (a code maker: the code).

        Shown on that player's private page only; empty by default. A secret stops being one when
        the family announces it in ``events`` (a cracked code is revealed)."""
        return {}

    @property
    def time_limit(self) -> float | None:
        """Seconds the player to move has for this step where the rules clock each move (Rapido,
        Tableaux); None where they do not. The engine never reads a clock: when the time runs
        out, the session plays the ``timeout`` call (``calls()`` offers it)."""
        return None


__all__ = ["COLOUR_WORDS", "Draws", "Rules", "RulesBase", "State", "StateBase"]
