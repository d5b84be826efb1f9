"""Brainmaster (seed 002, rulings BM-1 and BM-2): a code maker hides a code, a code breaker guesses it.

A *code* is ``pegs`` code pegs (4 on the box's board) of ``colours`` colours (5 in the box; 2-8
here), repeats allowed. The breaker fills one guess row at a time; the maker answers each row with
indicator pegs: a black one per peg of the right colour in the right hole, a white one per peg
of a right colour in a wrong hole, no peg counted twice (``score``, BM-1). The code is cracked
when a row earns ``pegs`` black pegs; it holds when every row is used without that.

A *round* is two codes with the roles swapped: player 1 makes the first code, player 2 the
second. The round's point goes to the breaker who cracked in fewer rows; a code that held gives
its maker the point (BM-2; docs/rules.md says what a tie and two held codes give). A match is an
agreed number of rounds (``--rounds``); most points wins, equal points draw. Solo (``--solo``):
the companion is the code maker, drawing each code at random; the one player breaks one code a
round.

Steps and notation (a step is one physical transition of the board, as everywhere in arbiter)
--------------------------------------------------------------------------------------------
``code=RBGY``   the maker sets the code (a call: it goes under the cover, where no reader sees
                it). A *secret* step: see "Secrets" below. Solo games have none: the code is a
                chance draw (``Rules.new(draws=...)``).
``3:RBGY``      the breaker fills guess row 3 with red, blue, green, yellow (left to right); a
                cluster step, putting ``pegs`` pieces down at once.
``3:2b1w``      the maker answers row 3 with 2 black and 1 white indicator pegs (``3:0b0w``:
                none). Only the true answer is legal: a miscount is refused with the row named
                and the right count (BM-2), so the maker puts it right before play goes on.
``next-code``   the board cleared between the two codes of a round (roles swap).
``next-round``  the board cleared after a round, before the next one.

Colour letters: R red, B blue, G green, Y yellow, O orange, P purple, C cyan, M magenta (the
first ``colours`` of them are in play). Piece colours (``Piece.owner``): 1 black and 2 white for
indicator pegs (kind ``key``), 3.. the code colours in that order (kind ``code``), so a colour
keeps its number whatever ``--colours`` is. ``position()`` puts a row's black indicator pegs in
its first indicator holes and the white ones after them, and at the table the maker is asked to
put them so (``brainmaster_explain``): the referee compares boards hole by hole.

Secrets
-------
The code is private to its maker until it is cracked or holds. The state says so through the
family protocol's generic privacy members (``engine.protocol``): ``state.private_to`` is the
player whose next step is a secret (``code=...``), ``state.secrets()`` what each player alone may
see now (the maker: the code), ``rules.public_text(step)`` a step as everyone may see it
(``code``), and ``rules.draws_private`` that a solo game's chance draws are its codes. The code is
revealed in ``events`` when its last row is answered; ``state.revealed`` lists revealed codes.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass
from typing import NamedTuple, Sequence

from ..boards.brainmaster import BrainmasterBoard, brainmaster_board
from ..core import CALL, CLUSTER, NEXT_ROUND, IllegalStep, Piece, Result, Step, preflight
from ..protocol import Draws, RulesBase, StateBase
from .code_pegs import (BLACK, CODE, COLOUR_NAMES, FIRST_CODE_COLOUR, KEY, LETTERS, WHITE, answer_text,
                        answer_words, code_text, score)

NEXT_CODE = "next-code"
SET_CODE = "code="

_PHASES = {"code": "set-up", "guess": "placement", "answer": "placement", "code-over": "round-over", "over": "over"}
_GUESS = re.compile(r"^(\d+):([A-Za-z]+)$")
_ANSWER = re.compile(r"^(\d+):(\d+)[bB](\d+)[wW]$")


def wrong_rows(secret: Sequence[int], rows: Sequence[tuple[Sequence[int], tuple[int, int] | None]]) -> list[int]:
    """BM-2's check over a whole board: the (1-based) rows whose indicator pegs do not give the
    true score of their guess against ``secret`` (rows not answered yet are skipped)."""
    return [i for i, (guess, answer) in enumerate(rows, 1)
            if answer is not None and tuple(answer) != score(secret, guess)]


@dataclass(frozen=True)
class BrainmasterSettings:
    rows: int = 10  # guess rows on the board (8-12)
    colours: int = 5  # code colours in play (the box has 5)
    pegs: int = 4  # code holes a row
    rounds: int = 1  # agreed rounds (two codes each; solo: one code each)
    solo: bool = False  # the companion makes every code; one player breaks them

    @property
    def board(self) -> str:
        """The board's name (``arbiter games`` lists it): rows and holes a row."""
        return f"brainmaster-{self.rows}x{self.pegs}"


class CodeResult(NamedTuple):
    """One finished code: who made and broke it, in how many rows, whether it was cracked."""

    maker: int  # 0 for the companion (solo)
    breaker: int
    rows: int
    cracked: bool
    code: str


class _CodeDraws:
    """Solo codes drawn so far (values, memoised by code number) and the RNG for the rest, shared
    along a line of play so every state of one game sees the same codes."""

    def __init__(self, values: Sequence[int], rng: random.Random | None, count: int):
        bad = [v for v in values if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < count]
        if bad:
            raise ValueError(f"a drawn code is a number 0 to {count - 1}, not {bad[0]!r}")
        self.values = list(values)
        self.rng = rng
        self.count = count

    def value(self, n: int) -> int:
        while n >= len(self.values):
            if self.rng is None:
                raise IllegalStep("", f"the companion has no code for code {n + 1}: give the drawn codes "
                                      f"(a record's draws) or an RNG")
            self.values.append(self.rng.randrange(self.count))
        return self.values[n]


class BrainmasterRules(RulesBase):
    """A Brainmaster game: its board, colours and the interned steps its states share."""

    family = "brainmaster"
    piece_kinds = (CODE, KEY)
    line_name = "a cracked code"
    draws_private = True  # solo: the chance draws are the companion's codes
    secret_prefixes = ((SET_CODE, "code"),)  # the code step shows only that the code was set

    def __init__(self, name: str, settings: BrainmasterSettings):
        s = settings
        if not 8 <= s.rows <= 12:
            raise ValueError(f"the board has 8 to 12 guess rows, not {s.rows}")
        if not 2 <= s.colours <= len(LETTERS):
            raise ValueError(f"2 to {len(LETTERS)} code colours, not {s.colours}")
        if s.pegs != 4:
            raise ValueError(f"the board has 4 code holes a row, not {s.pegs}")
        if s.rounds < 1:
            raise ValueError("a match has at least one round")
        self.name = name
        self.settings = s
        self.geometry: BrainmasterBoard = brainmaster_board(s.rows, s.pegs)
        self.board = self.geometry.graph
        self.players = 1 if s.solo else 2
        self.sides = self.players
        self.pegs = s.pegs
        self.n_colours = s.colours
        self.letters = LETTERS[: s.colours]
        self.n_codes = s.colours ** s.pegs
        self._kinds = {p: (KEY if "k" in p else CODE) for p in self.board.points}
        self._steps: dict[str, Step] = {}
        self._guesses: dict[int, tuple[Step, ...]] = {}
        self.next_code = Step(CALL, None, NEXT_CODE)
        self.next_round = Step(CALL, None, NEXT_ROUND)
        self._code_steps: tuple[Step, ...] | None = None

    # ------------------------------------------------------------------ pieces
    @property
    def colours(self) -> int:
        return FIRST_CODE_COLOUR - 1 + self.n_colours

    def kind_at(self, spot: str) -> str:
        return self._kinds.get(spot, CODE)

    @property
    def piece_classes(self) -> tuple[tuple[int, str], ...]:
        """Every (colour, kind) of peg in play: black and white indicator pegs, then the code
        colours in letter order. Not every colour with every kind: a camera learns and reads
        these only (``vision.families``), so no red indicator peg is ever looked for."""
        return ((BLACK, KEY), (WHITE, KEY)) + tuple((FIRST_CODE_COLOUR + i, CODE) for i in range(self.n_colours))

    def colour_name(self, colour: int) -> str:
        if colour == BLACK:
            return "black"
        if colour == WHITE:
            return "white"
        i = colour - FIRST_CODE_COLOUR
        return COLOUR_NAMES[i] if 0 <= i < len(COLOUR_NAMES) else f"colour {colour}"

    def piece_name(self, colour: int, kind: str) -> str:
        return f"{self.colour_name(colour)} {'indicator peg' if kind == KEY else 'code peg'}"

    def side_name(self, side: int) -> str:
        return f"player {side}"

    @property
    def draw_values(self) -> tuple[int, ...] | None:
        """Solo: a code is drawn as its number (``decode``); two players draw nothing."""
        return tuple(range(self.n_codes)) if self.settings.solo else None

    def _make_explainer(self, sees: str):
        from .brainmaster_explain import BrainmasterExplainer

        return BrainmasterExplainer(self, sees)

    # ------------------------------------------------------------------ codes
    def decode(self, number: int) -> tuple[int, ...]:
        """Code number ``number`` (0 .. colours**pegs - 1) as its colours, first hole first."""
        out = []
        for _ in range(self.pegs):
            number, c = divmod(number, self.n_colours)
            out.append(c)
        return tuple(reversed(out))

    def encode(self, code: Sequence[int]) -> int:
        n = 0
        for c in code:
            n = n * self.n_colours + c
        return n

    def read_code(self, letters: str, text: str) -> tuple[int, ...]:
        """Colour letters -> a code, with an error a player can act on."""
        letters = letters.upper()
        if len(letters) != self.pegs:
            raise IllegalStep(text, f"a code has {self.pegs} pegs, one letter each (e.g. "
                                    f"{self.letters[:self.pegs].ljust(self.pegs, self.letters[0])}), not {len(letters)}")
        out = []
        for ch in letters:
            i = self.letters.find(ch)
            if i < 0:
                names = ", ".join(f"{L} {n}" for L, n in zip(self.letters, COLOUR_NAMES))
                raise IllegalStep(text, f"{ch} is not a colour in play ({names})")
            out.append(i)
        return tuple(out)

    # ------------------------------------------------------------------ steps
    def guess_step(self, row: int, code: Sequence[int]) -> Step:
        return self._intern(CLUSTER, f"{row}:{code_text(code)}")

    def answer_step(self, row: int, black: int, white: int) -> Step:
        return self._intern(CLUSTER, f"{row}:{answer_text(black, white)}")

    def code_step(self, code: Sequence[int]) -> Step:
        return self._intern(CALL, SET_CODE + code_text(code))

    def parse(self, text: str) -> Step:
        t, got = self._known(text, "write a guess as row:colours (3:RBGY), an answer as row:NbNw (3:2b1w)")
        if got is not None:
            return got
        low = t.lower()
        if low == NEXT_CODE:
            return self.next_code
        if low == NEXT_ROUND:
            return self.next_round
        if low.startswith(SET_CODE):
            return self.code_step(self.read_code(t[len(SET_CODE):], "code"))  # never echo a secret
        m = _ANSWER.match(t)
        if m:
            row, black, white = (int(g) for g in m.groups())
            self._check_row(row, t)
            if black + white > self.pegs:
                raise IllegalStep(t, f"a row has {self.pegs} indicator holes: {black} black and {white} white "
                                     f"are {black + white} pegs")
            return self.answer_step(row, black, white)
        m = _GUESS.match(t)
        if m:
            row = int(m.group(1))
            self._check_row(row, t)
            return self.guess_step(row, self.read_code(m.group(2), t))
        raise IllegalStep(t, f"{t!r} is not a Brainmaster step: write a guess as row:colours (3:RBGY), an "
                             f"answer as row:NbNw (3:2b1w), the code as code=RBGY, or next-code / next-round")

    def _check_row(self, row: int, text: str) -> None:
        if not 1 <= row <= self.settings.rows:
            raise IllegalStep(text, f"the board has rows 1 to {self.settings.rows}, not {row}")

    def step_row(self, step: Step) -> int | None:
        """The guess row a guess or answer step is on (None for a call)."""
        if step.kind != CLUSTER:
            return None
        return int(step.dst.split(":", 1)[0])

    def is_answer(self, step: Step) -> bool:
        return step.kind == CLUSTER and bool(_ANSWER.match(step.dst))

    def step_code(self, step: Step) -> tuple[int, ...]:
        """The colours of a guess or ``code=`` step."""
        if step.kind == CALL:
            return self.read_code(step.dst[len(SET_CODE):], "code")
        return self.read_code(step.dst.split(":", 1)[1], str(step))

    def step_answer(self, step: Step) -> tuple[int, int]:
        m = _ANSWER.match(step.dst)
        return int(m.group(2)), int(m.group(3))

    def step_spots(self, step: Step) -> tuple[str, ...]:
        """A guess fills its row's code holes; an answer its first black + white indicator holes."""
        row = self.step_row(step)
        if row is None:
            return ()
        g = self.geometry
        if self.is_answer(step):
            black, white = self.step_answer(step)
            return g.key_spots(row)[: black + white]
        return g.row_spots(row)

    def guesses(self, row: int) -> tuple[Step, ...]:
        """Every guess for ``row``, in code-number order (built once per row)."""
        got = self._guesses.get(row)
        if got is None:
            got = self._guesses[row] = tuple(self.guess_step(row, self.decode(n)) for n in range(self.n_codes))
        return got

    def code_steps(self) -> tuple[Step, ...]:
        if self._code_steps is None:
            self._code_steps = tuple(self.code_step(self.decode(n)) for n in range(self.n_codes))
        return self._code_steps

    # ------------------------------------------------------------------ states
    def new(self, *, draws: "Draws | Sequence[int] | random.Random | None" = None) -> "BrainmasterState":
        source = None
        if self.settings.solo:
            if isinstance(draws, Draws):
                source = _CodeDraws(draws.values, draws.rng, self.n_codes)
            elif isinstance(draws, random.Random):
                source = _CodeDraws((), draws, self.n_codes)
            elif draws is not None:
                source = _CodeDraws(list(draws), None, self.n_codes)
            else:
                raise ValueError("a solo game's codes are drawn: give draws= (the drawn codes, or an RNG)")
        elif draws is not None:
            raise ValueError(f"{self.name} has no chance draws unless played solo")
        st = BrainmasterState.__new__(BrainmasterState)
        st.rules = self
        st.round_no = 1
        st.half = 0
        st.code = None
        st.rows = ()
        st.scores = (0,) * self.players
        st.done = ()
        st.between = False
        st.result = None
        st.events = ()
        st.source = source
        if source is not None:
            st.code = self.decode(source.value(0))
        return st

    def round_points(self, first: CodeResult, second: CodeResult) -> tuple[int, int]:
        """A two-player round's points (BM-2; ties and two held codes: docs/rules.md)."""
        pts = [0, 0]
        for c in (first, second):
            if not c.cracked:
                pts[c.maker - 1] += 1  # the code held: its maker scores
        if first.cracked and second.cracked and first.rows != second.rows:
            quicker = first if first.rows < second.rows else second
            pts[quicker.breaker - 1] += 1
        return pts[0], pts[1]


class BrainmasterState(StateBase):
    """A Brainmaster position: the round, which code of it, the code, the rows so far, the scores.

    ``rows`` holds (guess, answer) per filled row, the answer None until the maker gives it;
    ``done`` every finished code (``CodeResult``) in order; ``code`` the current secret (None
    until the maker sets it).
    """

    __slots__ = ("rules", "round_no", "half", "code", "rows", "scores", "done", "between", "result", "events",
                 "source")

    # ------------------------------------------------------------------ turn facts
    @property
    def maker(self) -> int:
        """The code maker now: player 1 for a round's first code, player 2 for its second; 0 for
        the companion in a solo game."""
        return 0 if self.rules.settings.solo else 1 + self.half

    @property
    def breaker(self) -> int:
        return 1 if self.rules.settings.solo else 2 - self.half

    @property
    def stage(self) -> str:
        """Where the code stands: "code" (the maker sets it), "guess" (the breaker fills the next
        row), "answer" (the maker puts the indicator pegs), "code-over" (cracked or held: the
        board is to be cleared), "over"."""
        if self.result is not None:
            return "over"
        if self.between:
            return "code-over"
        if self.code is None:
            return "code"
        if self.rows and self.rows[-1][1] is None:
            return "answer"
        return "guess"

    @property
    def phase(self) -> str:
        """The stage in the words every family shares: setting the code is the code's "set-up",
        guesses and answers are "placement" (pegs put in holes), a finished code is "round-over"
        (the board is cleared before the next code)."""
        return _PHASES[self.stage]

    @property
    def to_move(self) -> int:
        if self.rules.settings.solo:
            return 1
        phase = self.stage
        if phase in ("code", "answer"):
            return self.maker
        if phase == "code-over":  # the next code's maker clears the board and sets it
            return 1 if self.half == 1 else 2
        return self.breaker

    @property
    def private_to(self) -> int | None:
        """The player whose next step is a secret: the maker setting the code."""
        return self.maker if self.stage == "code" and self.maker else None

    def secrets(self) -> dict[int, dict[str, str]]:
        """What each player alone may see: the code maker sees the code until it is revealed."""
        if self.code is None or self.between or self.result is not None or not self.maker:
            return {}
        return {self.maker: {"code": code_text(self.code)}}

    @property
    def revealed(self) -> tuple[str, ...]:
        """Every finished code, in order: public once its last row is answered."""
        return tuple(c.code for c in self.done)

    @property
    def row(self) -> int:
        """The row the next guess goes in (1-based)."""
        return len(self.rows) + 1 if self.stage == "guess" else len(self.rows)

    def draws(self) -> list[int]:
        """Solo: the numbers of the codes drawn so far (one per round begun)."""
        if self.source is None:
            return []
        return self.source.values[: self.round_no]

    def captures(self) -> dict[int, int]:
        return {}

    def position(self) -> dict[str, Piece]:
        """The guess rows as the board shows them: the code row is under its cover, not shown."""
        g = self.rules.geometry
        out: dict[str, Piece] = {}
        for row, (guess, answer) in enumerate(self.rows, 1):
            for spot, c in zip(g.row_spots(row), guess):
                out[spot] = Piece(FIRST_CODE_COLOUR + c, CODE)
            if answer is not None:
                black, white = answer
                for spot, colour in zip(g.key_spots(row), (BLACK,) * black + (WHITE,) * white):
                    out[spot] = Piece(colour, KEY)
        return out

    def legal_steps(self) -> tuple[Step, ...]:
        rules = self.rules
        phase = self.stage
        if phase == "over":
            return ()
        if phase == "code-over":
            return (rules.next_code,) if self._next_is_code() else (rules.next_round,)
        if phase == "code":
            return rules.code_steps()
        if phase == "answer":
            guess = self.rows[-1][0]
            return (rules.answer_step(len(self.rows), *score(self.code, guess)),)
        return rules.guesses(len(self.rows) + 1)

    def _next_is_code(self) -> bool:
        return not self.rules.settings.solo and self.half == 0

    def true_answer(self, row: int) -> tuple[int, int]:
        """BM-1's score of row ``row``'s guess against the code."""
        return score(self.code, self.rows[row - 1][0])

    def why_illegal(self, step: Step | str) -> str | None:
        step, why = preflight(self, step)
        if why:
            return why
        rules = self.rules
        phase = self.stage
        if step.kind == CALL:
            if step in (rules.next_code, rules.next_round):
                if phase != "code-over":
                    return "the code is still being played: the board is cleared once it is cracked or holds"
                if step != self.legal_steps()[0]:
                    return ("the round's second code comes first: clear the board for it (next-code)"
                            if self._next_is_code() else "the round is over: clear the board for the next round "
                                                         "(next-round)")
                return None
            if rules.settings.solo:
                return "in a solo game the companion makes the code"
            if phase != "code":
                return "the code is set once, before the first guess (ruling BM-2)"
            return None
        if phase == "code-over":
            return f"this code is over: clear the board ({self.legal_steps()[0]})"
        if phase == "code":
            return f"player {self.maker} first sets the code under the cover (given privately, ruling BM-2)"
        row = rules.step_row(step)
        if rules.is_answer(step):
            if phase != "answer":
                return "the indicator pegs answer a guess: the code breaker first fills the next row"
            if row != len(self.rows):
                return f"row {len(self.rows)} is the row to answer, not row {row}"
            given = rules.step_answer(step)
            true = self.true_answer(row)
            if given != true:
                return (f"row {row}'s indicator pegs are wrong: {answer_words(*given)} given, but the guess "
                        f"earns {answer_words(*true)} (ruling BM-2)")
            return None
        if phase == "answer":
            who = f"player {self.maker} first answers" if self.maker else "first put the indicator pegs for"
            return f"{who} row {len(self.rows)} (indicator pegs)"
        if row != len(self.rows) + 1:
            return f"the next guess goes in row {len(self.rows) + 1}, not row {row}"
        return None

    # ------------------------------------------------------------------ playing
    def _copy(self) -> "BrainmasterState":
        nxt = BrainmasterState.__new__(BrainmasterState)
        for name in BrainmasterState.__slots__:
            setattr(nxt, name, getattr(self, name))
        nxt.events = ()
        return nxt

    def play(self, step: Step | str) -> "BrainmasterState":
        why = self.why_illegal(step)
        if why:
            shown = self.rules.public_text(step) if isinstance(step, str) else repr(step)
            raise IllegalStep(shown, why)
        rules = self.rules
        step = rules.parse(step)
        nxt = self._copy()
        if step.kind == CALL:
            if step == rules.next_code:
                nxt.between = False
                nxt.half = 1
                nxt.code = None
                nxt.rows = ()
                nxt.events = (f"code 2 of round {self.round_no}: player {nxt.maker} makes it, "
                              f"player {nxt.breaker} breaks it",)
            elif step == rules.next_round:
                nxt.between = False
                nxt.round_no = self.round_no + 1
                nxt.half = 0
                nxt.rows = ()
                nxt.code = rules.decode(self.source.value(nxt.round_no - 1)) if self.source else None
                nxt.events = (f"round {nxt.round_no} begins",)
            else:
                nxt.code = rules.step_code(step)
                nxt.events = (f"player {self.maker} has set the code",)
            return nxt
        row = rules.step_row(step)
        if not rules.is_answer(step):
            nxt.rows = self.rows + ((rules.step_code(step), None),)
            if rules.settings.solo:  # the companion answers: the player puts the pegs it names
                nxt.events = (f"row {row}: {answer_words(*score(self.code, nxt.rows[-1][0]))}",)
            return nxt
        answer = rules.step_answer(step)
        nxt.rows = self.rows[:-1] + ((self.rows[-1][0], answer),)
        if answer[0] == rules.pegs:
            nxt._finish(True)
        elif row == rules.settings.rows:
            nxt._finish(False)
        return nxt

    def _finish(self, cracked: bool) -> None:
        """The code is cracked or has held: reveal it, score a finished round, end the match."""
        rules = self.rules
        s = rules.settings
        n = len(self.rows)
        shown = code_text(self.code)
        done = CodeResult(self.maker, self.breaker, n, cracked, shown)
        self.done = self.done + (done,)
        who = "the companion's" if not self.maker else f"player {self.maker}'s"
        if cracked:
            events = [f"player {self.breaker} cracked {who} code {shown} in {n} row{'s' * (n != 1)}"]
        else:
            events = [f"{who} code {shown} held: not cracked in {n} rows"]
        last_round = self.round_no == s.rounds
        if s.solo:
            self.scores = (self.scores[0] + n,)
            if last_round:
                self._solo_result()
            else:
                self.between = True
            self.events = tuple(events)
            return
        if self.half == 0:
            self.between = True
            self.events = tuple(events)
            return
        pts = rules.round_points(self.done[-2], self.done[-1])
        self.scores = (self.scores[0] + pts[0], self.scores[1] + pts[1])
        won = [f"player {p + 1}" for p in range(2) if pts[p]]
        events.append(f"round {self.round_no}: {' and '.join(won) or 'nobody'} "
                      f"score{'s' * (len(won) == 1)}; points {self.scores[0]}-{self.scores[1]}")
        self.events = tuple(events)
        if not last_round:
            self.between = True
            return
        a, b = self.scores
        words = f"{a}-{b} after {s.rounds} round{'s' * (s.rounds != 1)}"
        if a == b:
            self.result = Result(None, True, f"the points are level, {words}")
        else:
            self.result = Result(1 if a > b else 2, False, f"most points, {words}")

    def _solo_result(self) -> None:
        held = [c for c in self.done if not c.cracked]
        total = sum(c.rows for c in self.done)
        k = len(self.done)
        if held:
            self.result = Result(None, False, f"{len(held)} of {k} code{'s' * (k != 1)} held; {total} rows used")
        else:
            self.result = Result(1, False, f"every code cracked, in {total} row{'s' * (total != 1)} "
                                           f"({total / k:.2f} a code)")

    def __repr__(self) -> str:
        return (f"<brainmaster round {self.round_no} code {self.half + 1} {self.stage} rows={len(self.rows)} "
                f"scores={self.scores}>")


def all_codes(colours: int, pegs: int) -> list[tuple[int, ...]]:
    """Every code, in code-number order."""
    return list(itertools.product(range(colours), repeat=pegs))


__all__ = ["BLACK", "BrainmasterRules", "BrainmasterSettings", "BrainmasterState", "CODE", "COLOUR_NAMES",
           "CodeResult", "KEY", "LETTERS", "NEXT_CODE", "WHITE", "all_codes", "answer_text", "answer_words",
           "code_text", "score", "wrong_rows"]
