"""The colours of the signal language, as LED colours (RGB, 0..255).

A signal is told apart by two things, its colour and its movement (steady, fading, pulsing,
blinking, sweeping; see ``hardware.signals``). The movement alone already separates every
signal, so a player who cannot tell two colours apart still reads the board; the colour-blind
palette goes further and keeps the pairs that matter most apart in hue for red-green colour
blindness (deuteranopia, protanopia), after Okabe and Ito's palette: "legal" is blue and
"illegal" vermillion instead of green and red.

Player colours are for the status pixel only (the pieces themselves are on the board). They
follow the pieces the renderer draws (``vision.render.PLAYER_COLOURS``: ivory, near-black,
crimson, deep blue) where an LED can show it; an LED cannot show black, so player 2, whose men
are black, is shown violet in the standard palette (no other signal uses violet) and sky blue
in the colour-blind one.

    >>> palette("colour-blind").legal
    (0, 110, 255)
"""

from __future__ import annotations

from dataclasses import dataclass, field

RGB = tuple[int, int, int]

OFF: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)


@dataclass(frozen=True)
class Palette:
    """One colour per signal, plus one per player for the status pixels."""

    name: str
    players: dict[int, RGB] = field(default_factory=dict)
    legal: RGB = (0, 255, 40)  # a step was accepted: fading on its points
    illegal: RGB = (255, 0, 0)  # a change the rules do not allow: held until fixed
    put: RGB = (255, 255, 255)  # "put a piece here": breathing
    take: RGB = (255, 0, 200)  # "take this piece away": blinking
    removable: RGB = (255, 120, 0)  # amber: a piece that may be taken after a mill
    gem: RGB = (0, 40, 255)  # blue: a captured gem to take off the board, pulsing
    clock: RGB = (255, 200, 0)  # a clock running low: blinking on the clock pixel
    hint: RGB = (0, 220, 200)  # cyan: the best step of a solved game, its points lit in turn
    test: RGB = (255, 255, 255)  # `arbiter leds test`: the pixel being checked

    def player(self, number: int) -> RGB:
        """The status colour of player ``number`` (1-based); a clear error for an unknown one."""
        try:
            return self.players[number]
        except KeyError:
            raise ValueError(f"the {self.name} palette has colours for players "
                             f"{', '.join(map(str, sorted(self.players)))}, not {number}") from None


STANDARD = Palette(
    name="standard",
    players={
        1: (255, 236, 200),  # warm white: the ivory men
        2: (150, 0, 255),  # violet: the black men (an LED cannot show black)
        3: (220, 10, 40),  # crimson men
        4: (20, 110, 190),  # deep blue men
        5: (255, 140, 0),  # orange: Brain Hanky's fifth and sixth sides (expanded board)
        6: (255, 0, 160),  # magenta
    },
)

COLOUR_BLIND = Palette(
    name="colour-blind",
    players={
        1: (255, 236, 200),  # warm white
        2: (40, 170, 255),  # sky blue
        3: (255, 90, 0),  # vermillion-orange
        4: (0, 200, 140),  # bluish green
        5: (230, 160, 0),  # amber-yellow (Okabe-Ito's yellow, deepened to read on an LED)
        6: (200, 80, 170),  # reddish purple
    },
    legal=(0, 110, 255),  # blue
    illegal=(255, 50, 0),  # vermillion
    put=(255, 255, 255),
    take=(220, 60, 200),  # reddish purple
    removable=(255, 210, 0),  # yellow
    gem=(40, 190, 255),  # sky blue, pulsing (legal blue fades once and never pulses)
    clock=(255, 210, 0),
)

PALETTES = {p.name: p for p in (STANDARD, COLOUR_BLIND)}


def palette(name: str) -> Palette:
    """The palette called ``name`` ("standard" or "colour-blind")."""
    try:
        return PALETTES[name]
    except KeyError:
        raise ValueError(f"unknown palette {name!r}; one of {', '.join(PALETTES)}") from None


def scale(colour: RGB, k: float) -> RGB:
    """``colour`` at ``k`` (0..1) of its brightness."""
    k = min(1.0, max(0.0, k))
    return (round(colour[0] * k), round(colour[1] * k), round(colour[2] * k))


def mix(below: RGB, above: RGB, alpha: float) -> RGB:
    """``above`` laid over ``below`` at opacity ``alpha`` (0..1): how signal layers combine."""
    a = min(1.0, max(0.0, alpha))
    return tuple(round(b + (c - b) * a) for b, c in zip(below, above))  # type: ignore[return-value]
