"""The ``arbiter`` command line: one module per group of commands, registered here.

Commands read like sentences (``arbiter rules shax``, ``arbiter replay game.json --json``); every
command has ``--help``; errors are one line on stderr that says what to do, with exit status 2
for unusable input and 1 for an illegal game record (``common.fail``). An option has one name in every command that takes
it (``--camera``, ``--camera-backend``, ``--leds``, ``--leds-out``, ``--layout-map``, ``--port``,
``--sensor-map``); a renamed one keeps its old spelling as a hidden alias (``common.Renamed``).

==================  ==========================================================
module              commands
==================  ==========================================================
``games``           games, rules, replay, render
``hint``            hint
``play``            play, demo
``vision``          print-board, camera list|snapshot, calibrate, read
``leds``            leds map|test
``export``          export
``sensor``          sensor-sim, sensor-monitor, sensor-firmware
``web``             serve (and the page of ``play --web``)
==================  ==========================================================
"""

from __future__ import annotations

import os

# OpenCV logs its own warnings to stderr ("[ WARN:0@0.012] global cap_v4l.cpp ... can't open camera
# by index") before arbiter says what happened and what to do; silenced before anything imports
# cv2, since OpenCV reads this once. Set OPENCV_LOG_LEVEL=WARNING to see them again.
os.environ.setdefault("OPENCV_LOG_LEVEL", "SILENT")

import click  # noqa: E402

from . import export, games, hint, leds, play, sensor, vision, web  # noqa: E402


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="arbiter")
def main() -> None:
    """arbiter: a referee for abstract board games played on a real board.

    It watches the board (camera or sensor grid), checks every move against the rules and answers
    with LEDs. Start with `arbiter games`, then `arbiter rules GAME`.
    """


COMMANDS = (games.games, games.rules, games.replay_cmd, games.render, hint.hint, play.play, play.demo,
            vision.print_board, vision.camera, vision.calibrate, vision.read, leds.leds, export.export,
            *sensor.COMMANDS, web.serve)
for command in COMMANDS:
    main.add_command(command)

__all__ = ["main"]
