"""What the web page's tests share: a game family with secrets, and a simulated game to watch.

*Hide and seek* (registered at run time, like the tic-tac-toe of test_family_protocol.py) is a
family with secret steps: first each player in turn hides a point of the 3x3 board with the
step ``hide=d7`` (``state.private_to`` names them; it is entered on their private page and
every page shows it only as ``hide``, ``rules.public_text``); then they take turns putting a
man on an empty point, and the first to put one on the other's hidden point wins. Each player's
``state.secrets()`` names their own hidden point, and nothing else ever does until the end.
"""

from __future__ import annotations

from dataclasses import dataclass

import engine
from engine.boards import board as board_named
from engine.core import CALL, PLACE, IllegalStep, Piece, Result, Step
from engine.games import GameSpec, register, unregister
from engine.protocol import RulesBase, StateBase

GAME = "hide-and-seek"
HIDE = "hide="


@dataclass(frozen=True)
class HideSettings:
    board: str = "three"
    players: int = 2
    move_cap: int = 0


class HideRules(RulesBase):
    family = "hide-and-seek"

    def __init__(self, name: str, settings: HideSettings):
        self.name = name
        self.settings = settings
        self.board = board_named(settings.board)
        self.players = 2
        self.steps = {p: Step(PLACE, None, p) for p in self.board.points}
        self.hides = {p: Step(CALL, None, HIDE + p) for p in self.board.points}

    def new(self, *, draws=None) -> "HideState":
        return HideState(self, {}, 1, {}, None)

    def parse(self, text: str) -> Step:
        t = str(text).strip()
        if t.lower().startswith(HIDE):
            step = self.hides.get(t[len(HIDE):].strip())
            if step is None:  # never echo a secret
                raise IllegalStep("hide", "that is not a point of the 3x3 board (a1 ... g7)")
            return step
        step = self.steps.get(t)
        if step is None:
            raise IllegalStep(t, f"{t!r} is not a point of the 3x3 board")
        return step

    def public_text(self, step) -> str:
        """A hiding step shows only as ``hide``."""
        text = str(step)
        return "hide" if text.strip().lower().startswith(HIDE) else text


class HideState(StateBase):
    __slots__ = ("rules", "men", "_to_move", "hidden", "result")

    def __init__(self, rules, men, to_move, hidden, result):
        self.rules, self.men, self._to_move, self.hidden, self.result = rules, men, to_move, hidden, result

    @property
    def to_move(self) -> int:
        return self._to_move

    @property
    def phase(self) -> str:
        if self.result is not None:
            return "over"
        return "hiding" if len(self.hidden) < 2 else "placement"

    @property
    def private_to(self):
        return self._to_move if self.phase == "hiding" else None

    def secrets(self):
        if self.result is not None:
            return {}
        return {p: {"hidden point": point} for p, point in self.hidden.items()}

    def position(self):
        return {p: Piece(o, "man") for p, o in self.men.items()}

    def legal_steps(self):
        if self.phase == "hiding":
            return tuple(self.rules.hides.values())
        if self.phase != "placement":
            return ()
        return tuple(self.rules.steps[p] for p in self.rules.board.points if p not in self.men)

    def why_illegal(self, step):
        step = step if isinstance(step, Step) else self.rules.parse(step)
        if self.result is not None:
            return "the game is over"
        if self.phase == "hiding":
            return None if step.kind == CALL else "both players must hide a point first, each on their own page"
        if step.kind == CALL:
            return "both points are hidden already"
        if step.dst in self.men:
            return f"{step.dst} is taken"
        return None

    def play(self, step):
        step = step if isinstance(step, Step) else self.rules.parse(step)
        why = self.why_illegal(step)
        if why:
            raise IllegalStep(self.rules.public_text(step), why)
        other = 3 - self._to_move
        if step.kind == CALL:
            return HideState(self.rules, self.men, other, {**self.hidden, self._to_move: step.dst[len(HIDE):]}, None)
        men = {**self.men, step.dst: self._to_move}
        result = None
        if self.hidden.get(other) == step.dst:
            result = Result(self._to_move, False, f"found the other player's hidden point {step.dst}")
        elif len(men) == len(self.rules.board.points):
            result = Result(None, True, "the board is full")
        return HideState(self.rules, men, other, self.hidden, result)


def register_hide_and_seek() -> None:
    register(GameSpec(GAME, "each hides a point; find the other's", "hide-and-seek", HideSettings()), HideRules)


def unregister_hide_and_seek() -> None:
    unregister(GAME)


__all__ = ["GAME", "register_hide_and_seek", "unregister_hide_and_seek"]


class LiveGame:
    """A simulated game with its page served by uvicorn on a free port (``url``), driven from
    the test's thread: ``run`` acts on the board, ``until`` lets simulated time pass (so the
    requests pages sent are carried out) until a condition holds."""

    def __init__(self, game: str, reader: str = "occupancy", journals=None, **kw):
        from arbiter.journal import Journal
        from arbiter.sim.scenario import Table
        from arbiter.web.history import History
        from arbiter.web.hub import Hub
        from arbiter.web.remote import attach
        from arbiter.web.server import WebServer, make_app

        g = engine.load(game)
        journal = Journal.new(game, g.options, directory=journals) if journals is not None else None
        self.table = Table(game, reader, journal=journal, **kw)
        self.session = self.table.session
        self.hub = Hub()
        self.remote = attach(self.session, self.hub, title=game)
        app = make_app(self.hub, remote=self.remote, history=History(journals) if journals is not None else None)
        self.server = WebServer(app, "127.0.0.1", 0).start()
        self.url = self.server.url("/")

    def player_url(self, player: int) -> str:
        return self.server.url(self.remote.links.path(player))

    def run(self, script: str):
        return self.table.run(script)

    def until(self, condition, timeout: float = 5.0) -> bool:
        import time

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.table.wait(0.05)
            if condition():
                return True
            time.sleep(0.01)
        return False

    def close(self) -> None:
        self.server.stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


__all__ += ["LiveGame"]
