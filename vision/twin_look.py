"""How the two-grid gem game's board looks: a red grid and a blue grid, red gems and blue gems.

The rulebook's boards print each grid in its player's colour, so a player sees at a glance which
lines their gems travel along. The renderer (``vision.render``) asks this module, by board style,
for the ink of each point and line and the colour of each side's gems; the printed board, the
simulated camera and every picture are then drawn alike. Nothing here imports the renderer.
"""

from __future__ import annotations

BGR = tuple[int, int, int]

RED_INK: BGR = (60, 60, 200)  # the red grid's lines and points
BLUE_INK: BGR = (190, 120, 30)  # the blue grid's
GEMS: dict[int, BGR] = {
    1: (40, 30, 215),  # red gems: crimson, deeper than the red grid's ink
    2: (170, 70, 10),  # blue gems: a deep blue, apart from crimson for red-green colour-blind eyes too
}


def grid_ink(point: str) -> BGR | None:
    """The ink of ``point`` and of the lines from it: red for ``r:`` points, blue for ``b:``."""
    if point.startswith("r:"):
        return RED_INK
    if point.startswith("b:"):
        return BLUE_INK
    return None


__all__ = ["BLUE_INK", "GEMS", "RED_INK", "grid_ink"]
