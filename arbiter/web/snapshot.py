"""A refereed game as plain data for the page: the public view, and each player's private view.

Built in the session's thread, from what the session already holds for its screen and LEDs
(the referee's state, history and latest verdict, the clock, what was last said), so the page
shows exactly what the terminal shows. Nothing private goes into the public view: a secret step
(the one ``state.private_to`` asks for: a code, a goal, hidden beads) is listed by its public
text (``rules.public_text``) until the game is over, and what only a player may see
(``state.secrets()``) and the request for their secret step go only into that player's view;
the public view says no more than whose secret step is awaited.
"""

from __future__ import annotations

import math
from typing import Any

from engine.core import Step
from hardware.signals import Guidance

from .. import referee as R
from .svg import board_svg, colour_css

__all__ = ["private_view", "public_moves", "public_view", "QUIET"]

QUIET = frozenset({"unchanged", "seen"})  # announcements a page does not list
MESSAGES = 10  # how many of the latest messages a page lists


def _points(session, steps: tuple[Step, ...]) -> list[str]:
    out: list[str] = []
    for step in steps:
        for p in session.referee.step_spots(step):
            if p not in out:
                out.append(p)
    return out


def _marks(session) -> dict[str, str]:
    """Spot -> what the page rings it as: the last step, then what the referee waits on."""
    marks: dict[str, str] = {}
    if session.history:
        for p in _points(session, session.history[-1:]):
            marks[p] = "last"
    st = session.state
    if st.phase == "removal" and st.result is None:
        for p in st.removable():
            marks[p] = "removable"
    v = session.last_verdict
    waiting = session.waiting_for
    if v is not None:
        for p in v.to_remove:
            marks[p] = "take"
        if waiting in (R.ILLEGAL, R.CLEARED, R.TAKEBACK_PENDING, R.UNCLEAR):
            for p in v.points:
                marks[p] = "illegal" if waiting != R.TAKEBACK_PENDING else "candidate"
        elif waiting == R.IN_PROGRESS:
            for p in v.points:
                marks[p] = "put"
        elif waiting == R.AMBIGUOUS and v.candidates:
            for p in _points(session, v.candidates[session.offer % len(v.candidates)]):
                marks[p] = "candidate"
    if session.checking and session.log:  # after --resume: what to put on and take off
        for event in session.log[-1].events:
            if isinstance(event, Guidance):
                marks.update({p: "put" for p in event.put})
                marks.update({p: "take" for p in event.take})
    return marks


def _clocks(session, t: float) -> list[dict[str, Any]]:
    c = session.clock
    if c is None:
        return []
    rules = session.game.rules
    out = []
    for p in range(1, c.players + 1):
        left = c.remaining(p, t)
        colour = rules.colour_of(p)
        out.append({"player": p, "colour": rules.colour_name(colour), "css": colour_css(rules, colour),
                    "left": None if math.isinf(left) else round(left, 2),
                    "running": c.running == p and not c.paused and not c.stopped})
    return out


def _result_words(session) -> str | None:
    r = session.result
    if r is None:
        return None
    if r.winner is None:
        return f"The game is a draw: {R.plain(r.reason)}."
    return f"{session.referee.colour_name(r.winner).capitalize()} wins: {R.plain(r.reason)}."


def _controls(session) -> dict[str, Any]:
    """What the buttons mean now, so the page offers only what does something."""
    waiting = session.waiting_for
    v = session.last_verdict
    out: dict[str, Any] = {"confirm": None, "menu": "menu", "choose": []}
    if session.over:
        return {"confirm": None, "menu": None, "choose": []}
    if waiting == R.TAKEBACK_PENDING:
        out["confirm"] = "Yes, take it back"
    elif waiting == R.AMBIGUOUS and v is not None and v.candidates:
        out["choose"] = [session.candidate_words(i) for i in range(len(v.candidates))]
        out["menu"] = "next reading"
    elif session.to_say is not None:
        out["confirm"] = "Yes, say it"
    return out


def public_view(session, t: float | None = None, *, title: str = "") -> dict[str, Any]:
    """What everyone may see: board, turn, clocks, captures, moves and what arbiter last said."""
    t = session.now() if t is None else t
    rules = session.game.rules
    st = session.state
    heights = {}
    if rules.stack_limit > 1:
        heights = {spot: len(pile) for spot, pile in session.stacks()}
    said = []  # the latest things said, from the end of a log that only grows
    for a in reversed(session.log):
        if a.kind not in QUIET and a.message:
            said.append(a)
            if len(said) == MESSAGES:
                break
    said.reverse()
    mover = session.mover()
    last = said[-1] if said else None
    return {
        "live": True,
        "game": session.game.name,
        "title": title or session.game.name,
        "players": session.game.players,
        "board": board_svg(rules, st.position(), _marks(session), heights),
        "to_move": None if session.over else {"player": st.to_move, "colour": rules.colour_name(mover),
                                              "css": colour_css(rules, mover), "phase": st.phase,
                                              "moves_left": st.moves_left},
        "over": session.over,
        "result": _result_words(session),
        "clocks": _clocks(session, t),
        "captures": [{"colour": rules.colour_name(c), "css": colour_css(rules, c), "n": n}
                     for c, n in session.captures().items()],
        "stacks": session.stacks_words(),
        "moves": public_moves(session),
        "said": {"kind": last.kind, "message": last.message} if last else None,
        "waiting": session.waiting_for,
        "messages": [{"kind": a.kind, "message": a.message} for a in said],
        "health": session.reader_health().problem or "",
        "secrets_waiting": [] if session.over or st.private_to is None else [st.private_to],
        "controls": _controls(session),
    }


def public_moves(session) -> list[str]:
    """The steps so far as every page may show them: a secret step by its public text until the
    game is over (then every step in full, as the journal's reveal does)."""
    if session.state.result is not None:
        return [str(s) for s in session.history]
    public = session.game.rules.public_text
    return [public(s) for s in session.history]


def private_view(session, player: int, refused: str | None = None) -> dict[str, Any]:
    """What only ``player`` may see: what the game keeps secret for them (``state.secrets()``),
    the request for their secret step when ``state.private_to`` names them, and why their last
    entry was refused (``refused``, by its public text: what they typed is never repeated)."""
    rules = session.game.rules
    st = session.state
    colour = rules.colour_of(player)
    asks = None
    if not session.over and st.result is None and st.private_to == player:
        kinds = session.secret_kinds()
        what = " or ".join(kinds) if kinds else "secret step"
        example = f" (the whole step, or what follows \"{kinds[0]}=\")" if len(kinds) == 1 else ""
        asks = f"Your secret {what}: type it here{example}; nobody else sees it."
    mine = st.secrets().get(player) or {}
    tells = "; ".join(f"{name}: {value}" for name, value in mine.items()) or None
    return {"player": player, "colour": rules.colour_name(colour), "css": colour_css(rules, colour),
            "asks": asks, "tells": tells, "refused": refused}
