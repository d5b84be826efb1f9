"""Write the pictures of the signal language used in docs/signals.md.

    python -m hardware.docs_pictures docs/signals

Each signal gets one PNG: a filmstrip of the LED frames at a few moments after the event, drawn
by the ``png`` backend from the same ``SignalPlayer`` the referee drives, so the pictures are the
signals as they are, not drawings of them. The scenes are fixed, so a changed picture in a diff
means a signal changed.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from .layout import default_map, spots_for
from .palette import COLOUR_BLIND, STANDARD, Palette
from .picture import BoardPicture, filmstrip
from .signals import (Beneath, ClockWarning, Event, GameOver, GemToTake, Guidance, Hint, IllegalChange, MovesLeft, Removable,
                      SignalPlayer, StepAccepted, Turn)


@dataclass(frozen=True)
class Scene:
    """Events given at time 0 on ``target``'s board, pictured at ``times`` (seconds)."""

    name: str
    title: str
    target: str
    events: tuple[Event, ...]
    times: tuple[float, ...]


MORRIS = "nine-mens-morris"
SCENES = (
    Scene("step-accepted", "StepAccepted([a1, a4]): green on the step's points, fading", MORRIS,
          (Turn(1), StepAccepted(("a1", "a4"))), (0.2, 0.8, 1.2, 1.6)),
    Scene("illegal-change", "IllegalChange([d1, d2]): red, held until fixed; error pixel red", MORRIS,
          (Turn(1), IllegalChange(("d1", "d2"))), (0.0, 30.0)),
    Scene("guidance", "Guidance(put=[b4], take=[c4]): white breathing = put here, magenta blinking = take away",
          MORRIS, (Turn(1), Guidance(put=("b4",), take=("c4",))), (0.0, 0.3, 0.6, 1.0)),
    Scene("removable", "Removable([d7, g4, f2]): amber, gently swelling, on the pieces a mill lets you take",
          MORRIS, (Turn(1), Removable(("d7", "g4", "f2"))), (0.0, 0.8)),
    Scene("gem-to-take", "GemToTake([Oc3]): a blue pulse on the captured gem", "brain-hanky",
          (Turn(2), GemToTake(("Oc3",))), (0.0, 0.3, 0.6)),
    Scene("moves-left", "MovesLeft(2): the turn pixel blinks dark twice, then stays lit (two moves left)",
          "brain-hanky", (Turn(2), StepAccepted(("Oc3.n", "Oc3.e")), MovesLeft(2)), (0.1, 0.3, 0.5, 0.7, 1.2)),
    Scene("hint", "Hint([a1, d4]): cyan on a solved game's best step, from where to where in turn", "tapatan",
          (Turn(1), Hint(("a1", "d4"))), (0.2, 0.7)),
    Scene("team-turn", "Turn(1, seat=2): team play; the team's colour, blinking once per seat: its second player",
          "kunjing", (Turn(1, 2), StepAccepted(("d2",))), (0.1, 0.3, 0.5, 0.7, 1.2)),
    Scene("beneath", "Beneath([d7: 1 2, g1: 2 1 2]): each stack's chips in turn, bottom to top", "stack",
          (Turn(1), Beneath((("d7", (1, 2)), ("g1", (2, 1, 2))))), (0.1, 0.7, 1.3, 1.9)),
    Scene("clock-warning", "ClockWarning(1, 30 s): the clock pixel blinks yellow; faster under 10 s; red at 0",
          MORRIS, (Turn(1), ClockWarning(1, 30.0)), (0.0, 0.6, 21.0, 21.2, 31.0)),
    Scene("game-over", "GameOver(2): the winner's colour sweeps across the board", MORRIS,
          (Turn(1), GameOver(2)), (0.2, 0.6, 1.0, 1.4)),
)

MIXED = (Turn(1), Removable(("d7", "g4")), Guidance(put=("b4",), take=("f2",)), IllegalChange(("d1",)))


def scene_frames(scene: Scene, palette: Palette = STANDARD) -> list[tuple[float, list]]:
    """(time, frame) for each of the scene's moments."""
    spots = spots_for(scene.target)
    player = SignalPlayer(default_map(spots), palette=palette, spots=spots)
    for e in scene.events:
        player.handle(e, 0.0)
    return [(t, player.frame(t)) for t in scene.times]


def scene_picture(scene: Scene, palette: Palette = STANDARD) -> Image.Image:
    spots = spots_for(scene.target)
    layout = default_map(spots)
    picture = BoardPicture(layout, spots)
    player = SignalPlayer(layout, palette=palette, spots=spots)
    for e in scene.events:
        player.handle(e, 0.0)
    images = [picture.draw(player.frame(t)) for t in scene.times]
    labels = [f"t = {t:g} s" for t in scene.times] if len(scene.times) > 1 else []
    return filmstrip(images, labels, scale=0.5 if len(images) > 1 else 0.75, title=scene.title)


def turn_picture() -> Image.Image:
    """Turn(1) and Turn(2) in both palettes: the turn pixel in the mover's colour."""
    spots = spots_for(MORRIS)
    layout = default_map(spots)
    picture = BoardPicture(layout, spots)
    images, labels = [], []
    for pal in (STANDARD, COLOUR_BLIND):
        for p in (1, 2):
            player = SignalPlayer(layout, palette=pal, spots=spots)
            player.handle(Turn(p), 0.0)
            images.append(picture.draw(player.frame(0.0)))
            labels.append(f"Turn({p}), {pal.name}")
    return filmstrip(images, labels, scale=0.5, title="Turn(p): the turn pixel in the colour of the player to move")


def palettes_picture(events: Sequence[Event] = MIXED, t: float = 0.0) -> Image.Image:
    """One moment with several signals at once, in the standard and the colour-blind palette."""
    spots = spots_for(MORRIS)
    layout = default_map(spots)
    picture = BoardPicture(layout, spots)
    images = []
    for pal in (STANDARD, COLOUR_BLIND):
        player = SignalPlayer(layout, palette=pal, spots=spots)
        for e in events:
            player.handle(e, 0.0)
        images.append(picture.draw(player.frame(t), caption=f"{pal.name} palette"))
    return filmstrip(images, [], scale=0.6,
                     title="removable d7, g4 · put b4 · take f2 · illegal d1 · player 1 to move")


def write_all(out_dir: str | Path) -> list[Path]:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "turn.png"]
    turn_picture().save(written[0], optimize=True)
    for scene in SCENES:
        path = out / f"{scene.name}.png"
        scene_picture(scene).save(path, optimize=True)
        written.append(path)
    path = out / "palettes.png"
    palettes_picture().save(path, optimize=True)
    written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover
    for p in write_all(sys.argv[1] if len(sys.argv) > 1 else "docs/signals"):
        print(p)
