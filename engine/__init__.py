"""The rules engine: board geometry, game rules, states, legal steps, notation and results.

Pure: no I/O, no clocks, no randomness except an RNG passed in. Everything else in arbiter
(vision, sensor boards, LEDs, the referee) asks the engine what may happen next.

    >>> import engine
    >>> game = engine.load("nine-mens-morris")
    >>> state = game.new().play("d2")
    >>> state.to_move, state.phase
    (2, 'placement')
"""

from .core import BadOption, IllegalStep, Option, Piece, Result, Step, UnknownGame
from .games import Game, load, names, spec

__all__ = ["BadOption", "Game", "IllegalStep", "Option", "Piece", "Result", "Step", "UnknownGame",
           "load", "names", "spec"]
