"""``arbiter demo``: a whole refereed game of Nine Men's Morris on a simulated table.

What it shows is the product working end to end, with nothing scripted on the referee's side:

- Simulated players play the scripted game record (``arbiter/data/demo-nine-mens-morris.json``,
  71 steps to a win) by putting, moving and taking pieces on a simulated physical board
  (``arbiter.sim.physical``). A few things go wrong on the way, as they do at a real table: a hand
  over the board, a piece slid on to the next point, a move to a point that is not next to it,
  a move taken back, a bumped camera.
- A simulated camera photographs the board (``vision.sim``: a printed board with its markers,
  a camera pose, light, noise, JPEG) and the REAL vision code reads every frame, after the REAL
  calibration from two simulated pictures, exactly as ``arbiter calibrate`` does.
- The stabiliser, the referee, the journal (in a temporary folder) and the LED signals are
  those of ``arbiter play``; the LEDs are drawn in the terminal at the moments that matter.

At the end the journal is exported and compared with the scripted record, so the demo checks
its own claim that every step was refereed and recorded. Frames are cached per board position
(a board that holds still is photographed once), which keeps the whole game to a few seconds
of computing; ``--delay`` paces the story for reading.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections import Counter
from contextlib import ExitStack
from importlib import resources

from rich.console import Console

from ..journal import Journal, load_journal
from ..records import parse_record
from ..screen import StoryScreen
from ..session import FrameSink
from . import physical
from .scenario import Action, Player, Table

RECORD = "data/demo-nine-mens-morris.json"


def _record():
    data = json.loads(resources.files("arbiter").joinpath(RECORD).read_text())
    return parse_record(data, "demo record")


def run_demo(console: Console, delay: float = 0.0, directory: str | os.PathLike[str] | None = None) -> bool:
    """Play the demo game, telling it on ``console``; True if everything checked out.

    ``directory``: keep the game's journal there (``arbiter demo --journal DIR``) instead of in a
    temporary folder removed afterwards."""
    from hardware.layout import load_map, spots_for
    from vision.calibration import calibration_layout

    record = _record()
    game = record.load_game()
    started = time.perf_counter()
    say = console.print
    say("[bold]arbiter demo[/]: a refereed game of Nine Men's Morris on a simulated table.")
    say("Simulated players move real-looking pieces; a simulated camera photographs the board and arbiter's "
        "own vision code reads every picture; the referee judges each settled board against the rules; every "
        "step is written to the journal before the LEDs (drawn below) announce it. Times are the table's "
        "(simulated) clock.\n", soft_wrap=True)

    t0 = time.perf_counter()
    cal = physical.sim_calibration(game)
    # the pieces picture the calibration was made from (``calibration_layout``): the learned reader
    # learns the men from the full set, the hand-set one from a man of each colour
    laid = Counter(calibration_layout(game, full=cal.classifier == "learned")[0].values())
    pieces = ", ".join(f"{cal.family.class_name(p.owner, p.kind)} x{n}" for p, n in sorted(laid.items()))
    say(f"Calibrating the camera from two pictures (the empty board, then {pieces}): "
        f"done in {time.perf_counter() - t0:.1f} s; the board is found by its four markers "
        f"({len(cal.probes)} background probes watch the light).", soft_wrap=True)

    spots = spots_for(game)
    layout = load_map(None, spots)
    sink = FrameSink(layout.count)
    screen = StoryScreen(console, pixels=sink, once=True, delay=delay,
                         leds_at={"step", "illegal", "waiting-removal", "correction", "takeback-pending",
                                  "takeback", "over"},
                         boards_at={"illegal", "correction", "takeback-pending", "over"})
    with ExitStack() as stack:
        folder = directory if directory is not None else stack.enter_context(
            tempfile.TemporaryDirectory(prefix="arbiter-demo-"))
        journal = Journal.new(game.name, game.options, directory=folder, reader="colour")
        table = Table(game, "camera", journal=journal, pixels=sink, screen=screen, start=False)
        narrate = _Narrator(screen, delay)
        player = Player(table, record.steps)
        table.session.start()
        _play(table, player, narrate, record.steps)
        journal.close()
        saved = load_journal(journal.path)
        same = saved.steps == list(record.steps)
        lines = saved.seq
    if directory is not None:
        say(f"The journal is kept in {journal.path}.", soft_wrap=True)
    s = table.session
    cam = table.reader
    elapsed = time.perf_counter() - started
    say("")
    if s.result is not None:
        say(f"[bold]{len(s.history)} steps, every one seen by the camera and checked by the referee.[/]")
    say(f"The camera took {cam.frames} frames of the board; {physical.stats['rendered']} different pictures were "
        f"simulated and {cam.reads} read by the vision code (a board that holds still is photographed once).",
        soft_wrap=True)
    say(f"The journal held {lines} events (steps, a correction, a take-back); exported, it "
        f"{'equals' if same else 'DIFFERS FROM'} the scripted record. {elapsed:.0f} s in all.", soft_wrap=True)
    say("Play one yourself: [bold]arbiter play nine-mens-morris --reader sim[/] (simulated), or with a camera: "
        "see docs/play.md.", soft_wrap=True)
    return same and s.result is not None


class _Narrator:
    def __init__(self, screen: StoryScreen, delay: float):
        self.screen = screen
        self.delay = delay

    def __call__(self, text: str) -> None:
        self.screen.line(f"\n  ── {text}", style="bold cyan")
        if self.delay:
            time.sleep(self.delay * 2)


def _play(table: Table, player: Player, narrate, steps) -> None:
    """Play the record, with the table's mishaps at fixed moments of the game."""
    s = table.session
    done: set[str] = set()

    def once(name: str) -> bool:
        if name in done:
            return False
        done.add(name)
        return True

    while not s.over:
        n = len(s.history)
        state = s.state
        nxt = steps[n] if n < len(steps) else None
        if n == 2 and s.waiting_for is None and once("hand"):
            narrate("White reaches over the board to put a man on g7; the camera sees a hand and waits.")
            table.board.cover()
            player.turn()
            table.board.uncover()
            table.settle()
            continue
        if nxt == "d6" and s.waiting_for is None and once("slide"):
            narrate("Black puts a man on d5, then slides it on to d6 before White moves.")
            table.run("put d5 black; slide d5 d6")
            continue
        if state.phase == "movement" and nxt and "-" in nxt and s.waiting_for is None and once("illegal"):
            src = nxt.split("-")[0]
            bad = _far_point(state, src)
            who = s.referee.colour_name(s.mover()).capitalize()
            narrate(f"The pieces are all down. {who} moves the man on {src} to {bad}, which is not next to it.")
            table.run(f"move {src} {bad}")
            narrate(f"{who} puts it back.")
            table.run(f"move {bad} {src}")
            continue
        if n >= 26 and state.phase == "movement" and s.waiting_for is None and once("takeback"):
            other = _other_move(state, nxt)
            if other is not None:
                src, dst = other.split("-")
                narrate(f"{s.referee.colour_name(s.mover()).capitalize()} moves {src} to {dst}, then changes their mind "
                        f"and puts it back.")
                table.run(f"move {src} {dst}; move {dst} {src}")
                narrate("The board shows the position before that move: arbiter asks, and the confirm button says yes.")
                table.run([Action("press", ("confirm",))])
                continue
        if n >= 34 and state.phase == "movement" and s.waiting_for is None and once("bump"):
            narrate("Someone bumps the camera: it now looks from another angle. The markers are found again.")
            table.run("bump")
            continue
        if not player.turn():
            break


def _far_point(state, src: str) -> str:
    board = state.rules.board
    pos = state.position()
    for p in board.points:
        if p not in pos and p != src and not board.adjacent(src, p):
            return p
    raise RuntimeError("no empty point far from the piece")  # pragma: no cover - the record has room


def _other_move(state, record_step: str | None) -> str | None:
    """A legal plain move other than the record's, that makes no mill (so one step takes it back)."""
    for step in state.legal_steps():
        if step.kind == "move" and step != record_step and state.play(step).phase != "removal":
            return str(step)
    return None


__all__ = ["run_demo"]
