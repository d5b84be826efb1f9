"""The camera's commands: ``print-board``, ``camera list|snapshot``, ``calibrate`` and ``read``.

``print-board`` draws the board to print; ``camera`` finds and tests the camera.

``calibrate`` walks a user through two pictures (the empty board, then the pieces laid out),
from a camera, from image files, or from the simulator (``--sim``, to try it without hardware).
It prints what it is doing, and every failure says what to change. ``read`` prints what one
picture shows, as text or as the JSON a script or test can use.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import click
import numpy as np

import engine

from ..files import write_atomic
from .common import GAME_ARGS, camera_backend_option, camera_source, console, exposure_options, fail, parse_game_options


def _load_game(name: str, extra: list[str]):
    options = parse_game_options(name, extra)
    return engine.load(name, **options)


def _imread(path: str, what: str) -> np.ndarray:
    import cv2

    if not Path(path).is_file():
        fail(f"{path}: no such picture (the {what})")
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        fail(f"{path}: not a picture OpenCV can read (the {what}); use PNG or JPEG")
    return img


def _parse_corners(text: str) -> list[tuple[float, float]]:
    try:
        pts = [tuple(float(v) for v in pair.split(",")) for pair in text.split()]
    except ValueError:
        pts = []
    if len(pts) != 4 or any(len(p) != 2 for p in pts):
        fail('--corners wants four "column,row" pairs: bottom-left bottom-right top-right top-left, '
                    'e.g. --corners "102,610 890,598 870,80 120,95"')
    return pts  # type: ignore[return-value]


def _warn(message: str) -> None:
    console.print(f"[yellow]Note:[/] {message}", soft_wrap=True)


def _exposure_hint(backend: str, verdict: str) -> str:
    if verdict == "over":
        return ("try --exposure with a smaller value than the one above" +
                (", or --ev -1" if backend == "picamera2" else "") + ", or dim the light on the board")
    return "try --exposure with a larger value than the one above, or --gain, or add light"


class _Capture:
    """Pictures for calibration from a camera, asking the user to get the board ready first."""

    def __init__(self, source: str, width: int, height: int, backend: str,
                 exposure: float | str | None = None, gain: float | None = None, ev: float | None = None):
        from vision.capture import Camera, CameraError, CameraSettings

        src: Any = int(source) if source.isdigit() else source
        self.cam = Camera(CameraSettings(source=src, width=width, height=height, backend=backend,
                                         exposure=exposure, gain=gain, ev=ev))
        try:
            self.cam.open()
        except CameraError as exc:
            fail(str(exc))
        for problem in self.cam.exposure_problems:
            _warn(problem)

    def take(self, prompt: str) -> np.ndarray:
        console.print(prompt)
        click.prompt("Press Enter when ready", default="", show_default=False, prompt_suffix=" ")
        return self.frame()

    def more(self, n: int) -> list[np.ndarray]:
        """``n`` more pictures of the same scene, without asking: the learned classifier learns
        each empty spot from several (``calibrate(more_empty=...)``), which shows the camera's
        own noise."""
        return [self.frame() for _ in range(n)]

    def frame(self) -> np.ndarray:
        frame = None
        for _ in range(6):  # let exposure settle; keep the last good frame
            got = self.cam.read()
            if got.image is not None:
                frame = got.image
        if frame is None:
            fail("the camera delivered no picture: check the cable and the light, then run calibrate again", 1)
        return frame

    def close(self) -> None:
        self.cam.close()


def _sim_pictures(game, position, seed: int, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    from vision import sim

    settings = sim.CameraSettings(size=size)
    empty = sim.simulate(sim.printed_scene(game.board, {}), seed, settings).image
    pieces = sim.simulate(sim.printed_scene(game.board, position), seed, settings).image
    return empty, pieces


@click.command(context_settings=GAME_ARGS)
@click.argument("game")
@click.option("--camera", "camera", default=None, help="Take the pictures with this camera (index or URL).")
@click.option("--image", "image", type=click.Path(dir_okay=False), default=None,
              help="The empty board from this picture file (you are then asked for the pieces picture).")
@click.option("--sim", "use_sim", is_flag=True, help="Use the simulated camera: try calibration without hardware.")
@click.option("--empty", "empty_path", type=click.Path(dir_okay=False), default=None,
              help="Picture of the empty board (with --pieces: no questions asked).")
@click.option("--pieces", "pieces_path", type=click.Path(dir_okay=False), default=None,
              help="Picture of the board with the pieces laid out as --layout shows.")
@click.option("--out", "out", type=click.Path(dir_okay=False), default=None,
              help="Calibration file to write [default: calibration-GAME.json].")
@click.option("--overlay", "overlay", type=click.Path(dir_okay=False), default=None,
              help="Overlay picture to write [default: beside --out, .overlay.png].")
@click.option("--layout", "show_layout", is_flag=True, help="Show how to lay out the pieces, write a picture of it, and stop.")
@click.option("--corners", default=None, help='Board without markers: its four corners in the picture, '
              '"c,r c,r c,r c,r" from bottom-left round to top-left.')
@click.option("--outline", is_flag=True, help="Board without markers: find it by its own outline.")
@click.option("--a1", "a1_corner", default=None, help='With --outline: "c,r", the picture pixel of the board corner '
              'beside a1 (player 1\'s left), so the board cannot be taken the wrong way round.')
@click.option("--classifier", type=click.Choice(["measured", "learned"]), default=None,
              help="How spots are read: the hand-set measures, or the learned classifier (spot patches, an "
                   "embedder, and the pieces learned from the pieces picture; docs/piece-book.md). "
                   "[default: the one measured best on the game's pieces; docs/calibration.md]")
@click.option("--full-set/--one-each", "full_set", default=None,
              help="The pieces picture shows several pieces of each kind (see --layout --full-set): the learned "
                   "classifier learns how each varies over the board; or one piece of each kind. "
                   "[default: --full-set with the learned classifier, else --one-each]")
@click.option("--seed", type=int, default=1, show_default=True, help="With --sim: which simulated camera.")
@click.option("--width", type=int, default=1280, show_default=True, help="Camera frame width.")
@click.option("--height", type=int, default=720, show_default=True, help="Camera frame height.")
@camera_backend_option()
@exposure_options
@click.pass_context
def calibrate(ctx: click.Context, game: str, camera: str | None, image: str | None, use_sim: bool,
              empty_path: str | None, pieces_path: str | None, out: str | None, overlay: str | None,
              show_layout: bool, corners: str | None, outline: bool, a1_corner: str | None, classifier: str | None,
              full_set: bool | None,
              seed: int,
              width: int, height: int, camera_backend: str, exposure: float | str | None, gain: float | None,
              ev: float | None) -> None:
    """Teach arbiter how GAME's board and pieces look to this camera.

    Two pictures are needed: the empty board, then the board with pieces on known spots (the
    game's start position, or one piece of each colour and kind as --layout shows). Game
    options (e.g. --players 3) go after the game's name. With --camera, pictures too bright
    or too dark are taken again after arbiter steps the camera's exposure, where it can.

    \b
    Examples:
      arbiter calibrate nine-mens-morris --layout
      arbiter calibrate nine-mens-morris --camera 0
      arbiter calibrate nine-mens-morris --empty empty.png --pieces pieces.png --out cal.json
      arbiter calibrate brain-hanky --sim
      arbiter calibrate nine-mens-morris --layout --full-set
      arbiter calibrate nine-mens-morris --camera 0 --classifier learned
      arbiter calibrate brainmaster --sim
    """
    from vision.calibration import (SURFACE_NOTE, CalibrationError, ExposureError, calibrate as run_calibration,
                                    calibration_layout, default_classifier)
    from vision.piece_book import COLOURS_WEIGHED, FOREIGN_RAISED

    g = _load_game(game, ctx.args)
    classifier = classifier or default_classifier(g)
    if full_set is None:
        full_set = classifier == "learned"
    position, described = calibration_layout(g, full=full_set)
    if show_layout:
        from vision.pictures import layout_picture
        from vision.render import save_png

        path = Path(out or f"layout-{game}.png")
        if path.suffix.lower() != ".png":
            path = path.with_suffix(".png")
        save_png(layout_picture(g, position), path)
        console.print(f"For the pieces picture of {game}, lay out {described}.")
        console.print(f"Picture of the layout: {path}")
        return
    sources = [s for s, on in (("--camera", camera is not None), ("--image", image is not None),
                               ("--sim", use_sim), ("--empty", empty_path is not None)) if on]
    if len(sources) != 1:
        fail("say where the pictures come from: one of --camera N, --image FILE, --sim, "
                 "or --empty IMG --pieces IMG" + (f" (not {' and '.join(sources)})" if sources else ""))
    if corners and outline:
        fail("use --corners or --outline, not both")
    method = "corners" if corners else "outline" if outline else "markers"
    corner_pts = _parse_corners(corners) if corners else None
    a1 = None
    if a1_corner:
        if not outline:
            fail("--a1 goes with --outline")
        try:
            a1 = tuple(float(v) for v in a1_corner.split(","))
        except ValueError:
            a1 = ()
        if len(a1) != 2:
            fail('--a1 wants one "column,row" pixel, e.g. --a1 102,610')
    elif outline:
        console.print("[yellow]Note:[/] the board looks the same turned round, so arbiter takes the side at the "
                      "bottom of the picture as player 1's. If readings come out rotated or with colours "
                      "swapped, calibrate again with --a1 COL,ROW (the corner beside a1).")
    out_path = Path(out or f"calibration-{game}.json")
    overlay_path = Path(overlay) if overlay else out_path.with_name(out_path.stem + ".overlay.png")

    console.print(f"[bold]Calibrating {game}[/] (board {g.board.name}).")
    if empty_path is not None:
        if pieces_path is None:
            fail("--empty needs --pieces too: the picture with the pieces laid out")
        empty_img = _imread(empty_path, "empty board")
        pieces_img = _imread(pieces_path, "pieces picture")
    elif image is not None:
        empty_img = _imread(image, "empty board")
        if pieces_path is None:
            console.print(f"Now a picture with {described}, taken from the same place.")
            pieces_path = click.prompt("Pieces picture file", type=click.Path(dir_okay=False))
        pieces_img = _imread(pieces_path, "pieces picture")
    elif use_sim:
        console.print(f"Using the simulated camera (seed {seed}, {width}x{height}).")
        empty_img, pieces_img = _sim_pictures(g, position, seed, (width, height))

    steps = itertools.count(1)

    def progress(message: str) -> None:
        console.print(f"  [{next(steps)}] {message}")

    def attempt(empty: np.ndarray, pieces: np.ndarray, more_empty=()):
        return run_calibration(g, empty, pieces, position=position, method=method,
                               corners=corner_pts, a1=a1, progress=progress, classifier=classifier,
                               more_empty=more_empty)

    if camera is None:
        try:
            cal = attempt(empty_img, pieces_img)
        except ExposureError as exc:
            fail(f"calibration failed: {str(exc).rstrip('.')}. Take the pictures again with the camera's exposure "
                 f"{'lowered' if exc.change == 'lower' else 'raised'} (check it with `arbiter camera snapshot "
                 f"--exposure VALUE`), or calibrate with --camera N and arbiter adjusts it", 1)
        except CalibrationError as exc:
            fail(f"calibration failed: {exc}", 1)
    else:
        cal, pieces_img = _calibrate_with_camera(camera, width, height, camera_backend, exposure, gain, ev, game,
                                                 described, attempt, MORE_EMPTY if classifier == "learned" else 0,
                                                 "--layout --full-set" if full_set else "--layout --one-each")
    try:
        write_atomic(out_path, cal.dumps())
    except OSError as exc:
        fail(f"cannot write {out_path}: {exc.strerror or exc}")
    _write_overlay(cal, pieces_img, overlay_path)
    classes = ", ".join(c.name for c in cal.family.classes if c.key in cal.templates)
    console.print(f"[bold green]Calibrated.[/] Learned {classes}; {len(cal.probes)} background probes.")
    if cal.book is not None:
        console.print(f"Classifier: learned, spots seen by the embedder {cal.book.embedder} "
                      f"({sum(len(e) for e in cal.book.exemplars)} pieces learned).")
        for note in cal.book.notes:  # the colours weighed more, or the hand sense raised, and why
            if note.startswith((COLOURS_WEIGHED, FOREIGN_RAISED)):
                console.print(note[0].upper() + note[1:])
    for note in cal.notes:
        if note.startswith(SURFACE_NOTE):  # how far the board is from flat, and that it is followed
            console.print(note[0].upper() + note[1:] + ".")
    console.print(f"Calibration: {out_path}")
    console.print(f"Overlay (check every spot reads as it should): {overlay_path}")


EXPOSURE_RETRIES = 3


# With the learned classifier, this many more pictures of the empty board are taken with the first.
MORE_EMPTY = 2


def _calibrate_with_camera(camera: str, width: int, height: int, backend: str, exposure, gain, ev, game: str,
                           described: str, attempt, more: int = 0, layout_flags: str = "--layout"):
    """Take both pictures and calibrate; when they are too bright or too dark, step the camera's
    exposure the way the calibration says and take them again (at most EXPOSURE_RETRIES times)."""
    from vision.calibration import CalibrationError, ExposureError

    first = "1. Clear every piece off the board; keep hands and shadows away."
    second = f"2. Lay out {described}. (See `arbiter calibrate {game} {layout_flags}`.)"
    cap = _Capture(camera, width, height, backend, exposure, gain, ev)
    try:
        shown = cap.cam.exposure()
        if shown is not None:
            console.print(f"Camera exposure: {shown.describe()}.")
        empty_img = cap.take(first)
        more_empty = cap.more(more)
        pieces_img = cap.take(second)
        for retry in itertools.count(1):
            try:
                return attempt(empty_img, pieces_img, more_empty), pieces_img
            except ExposureError as exc:
                what = "the paper is over-exposed" if exc.change == "lower" else "the pictures are too dark"
                if retry > EXPOSURE_RETRIES:
                    fail(f"calibration failed: {str(exc).rstrip('.')}. arbiter changed the camera's exposure {EXPOSURE_RETRIES} "
                         f"times and {what} still; set it by hand (`arbiter camera snapshot --exposure VALUE` "
                         f"to try values), or change the light on the board", 1)
                done = cap.cam.adjust_exposure(exc.change)
                if done is None:
                    fail(f"calibration failed: {str(exc).rstrip('.')}. {cap.cam.exposure_refused}", 1)
                console.print(f"[yellow]{what[0].upper() + what[1:]}:[/] {done}; taking the pictures again "
                              f"({retry} of {EXPOSURE_RETRIES}).", soft_wrap=True)
                empty_img = cap.take(first.replace("Clear every piece", "Clear every piece again"))
                more_empty = cap.more(more)
                pieces_img = cap.take(second)
            except CalibrationError as exc:
                fail(f"calibration failed: {exc}", 1)
    finally:
        cap.close()
    raise AssertionError("unreachable")


def _write_overlay(cal, image: np.ndarray, path: Path) -> None:
    from vision.learned_reader import reader_for
    from vision.overlay import draw_overlay
    from vision.render import save_png

    reader = reader_for(cal)
    obs = reader.read(image)
    save_png(draw_overlay(image, cal, obs, reader.last), path)


@click.command(context_settings=GAME_ARGS)
@click.argument("game")
@click.option("--calibration", "cal_path", type=click.Path(dir_okay=False), default=None,
              help="The file `arbiter calibrate` wrote [default: calibration-GAME.json, as for `arbiter play`].")
@click.option("--image", "image", required=True, type=click.Path(dir_okay=False), help="The picture to read.")
@click.option("--json", "as_json", is_flag=True, help="Print the reading as one JSON object.")
@click.option("--overlay", type=click.Path(dir_okay=False), default=None, help="Also write an overlay picture here.")
@click.pass_context
def read(ctx: click.Context, game: str, cal_path: str | None, image: str, as_json: bool, overlay: str | None) -> None:
    """Read one picture of GAME's board: what stands on every point.

    A picture with a hand over the board, or the board out of view, gives no reading
    ("occluded": true, with the reason) rather than a wrong one.
    """
    from vision.calibration import CalibrationError, load_calibration
    from vision.learned_reader import reader_for

    _load_game(game, ctx.args)
    if cal_path is None:
        cal_path = f"calibration-{game}.json"
        if not Path(cal_path).exists():
            fail(f"no calibration {cal_path}: calibrate first with `arbiter calibrate {game} --camera 0` "
                 f"(or --sim, to try it without a camera; docs/calibration.md), or pass --calibration FILE")
    try:
        cal = load_calibration(cal_path, game=game)
        reader = reader_for(cal)
    except CalibrationError as exc:
        fail(str(exc))
    img = _imread(image, "picture to read")
    obs = reader.read(img)
    if overlay:
        from vision.overlay import draw_overlay
        from vision.render import save_png

        save_png(draw_overlay(img, cal, obs, reader.last), overlay)
    if as_json:
        click.echo(json.dumps(obs.to_json()))
        return
    if obs.occluded:
        console.print(f"No reading: {obs.reason}")
        return
    pieces = {s: r.piece for s, r in obs.points.items() if r.piece is not None}
    from hardware.layout import load_map, spots_for

    from ..textboard import game_text

    g = engine.load(game)
    spots = spots_for(g)
    console.print(game_text(g, pieces, layout=load_map(None, spots), spots=spots))
    for s, p in pieces.items():
        console.print(f"  {s}: {cal.family.class_name(p.owner, p.kind)} "
                      f"(confidence {obs.points[s].confidence:.2f})")
    unsure = [s for s, r in obs.points.items() if r.confidence < 0.25]
    console.print(f"{len(pieces)} pieces on {len(obs.points)} spots" +
                  (f"; unsure about {', '.join(unsure)}" if unsure else ""))


@click.command("print-board")
@click.argument("game")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False),
              help="FILE.pdf (true scale, tiled over pages if needed) or FILE.png (one image + FILE.points.json).")
@click.option("--paper", type=click.Choice(["a4", "a3", "letter"]), default="a4", show_default=True,
              help="PDF: the paper the printer takes (a board larger than a page is tiled).")
@click.option("--dpi", type=click.IntRange(50, 1200), default=150, show_default=True,
              help="Dots per inch of the drawing.")
@click.option("--labels/--no-labels", default=True, help="Print point names beside the points.")
@click.option("--cloth", type=click.Choice(["blue", "white"]), default="blue", show_default=True,
              help="Brain Hanky only: the cloth's ground. On blue the camera tells white rings and silver "
                   "gems from the cloth; white saves ink, but a camera cannot read white rings on it.")
def print_board(game: str, out: str, paper: str, dpi: int, labels: bool, cloth: str) -> None:
    """Draw GAME's board at true scale with the four markers the camera looks for."""
    from vision import printable

    try:
        if out.lower().endswith(".pdf"):
            tiling = printable.write_pdf(game, out, paper=paper, dpi=dpi, labels=labels, cloth=cloth)
            pages = tiling.rows * tiling.cols
            how = "one page" if pages == 1 else f"{pages} pages ({tiling.rows} x {tiling.cols}): tape them along the dashed strips"
            console.print(f"wrote {out}: {how}. Print at 100% scale (no 'fit to page').", soft_wrap=True)
        elif out.lower().endswith(".png"):
            png, points = printable.write_png(game, out, dpi=dpi, labels=labels, cloth=cloth)
            console.print(f"wrote {png} and {points} (every point's pixel position)", soft_wrap=True)
        else:
            fail("--out must end in .pdf or .png")
    except ValueError as exc:
        fail(str(exc))


@click.group()
def camera() -> None:
    """Find and test the camera that watches the board."""


@camera.command("list")
def camera_list() -> None:
    """List the cameras OpenCV can open on this machine."""
    from vision.capture import list_cameras

    found = list_cameras()
    if not found:
        console.print("No cameras found. Plug in a USB camera (or enable the Pi camera) and try again; "
                      "a Pi camera module is used with --camera-backend picamera2.", soft_wrap=True)
        return
    for cam in found:
        size = f"{cam['size'][0]}x{cam['size'][1]}" if cam["size"] else "no frame delivered"
        console.print(f"  camera {cam['index']}: {cam['device']} ({size})")



@camera.command("snapshot")
@click.option("--camera", "source", default="0", show_default=True, help="Camera index, or a video file / URL.")
@camera_backend_option()
@click.option("--width", type=int, default=1280, show_default=True, help="Camera frame width.")
@click.option("--height", type=int, default=720, show_default=True, help="Camera frame height.")
@click.option("--out", "out", default="snapshot.png", show_default=True, type=click.Path(dir_okay=False),
              help="Picture file to write (PNG).")
@click.option("--warmup", type=int, default=5, show_default=True, help="Frames to skip while exposure settles.")
@exposure_options
def camera_snapshot(source: str, camera_backend: str, width: int, height: int, out: str, warmup: int,
                    exposure: float | str | None, gain: float | None, ev: float | None) -> None:
    """Take one picture with the camera and save it (to check framing, focus and light).

    It prints the exposure the camera uses and warns when the picture is over-exposed (the
    paper clipped white) or very dark; try --exposure, --gain (and --ev on a Pi camera) until
    it is neither.
    """
    from vision.capture import Camera, CameraError, CameraSettings, check_exposure
    from vision.render import save_png

    cam = Camera(CameraSettings(source=camera_source(source), width=width, height=height, backend=camera_backend,
                                exposure=exposure, gain=gain, ev=ev))
    try:
        cam.open()
    except CameraError as exc:
        fail(str(exc))
    try:
        for problem in cam.exposure_problems:
            _warn(problem)
        frame = None
        for _ in range(max(1, warmup + 1)):
            got = cam.read()
            if got.image is not None:
                frame = got
        if frame is None:
            fail("the camera delivered no picture: check the cable and lighting, then try again", 1)
        save_png(frame.image, out)
        state = cam.exposure()
    finally:
        cam.close()
    h, w = frame.image.shape[:2]
    console.print(f"wrote {out} ({w}x{h})")
    console.print("exposure: " + (state.describe() if state is not None else
                                  "fixed (a recording or stream, not a camera)"), soft_wrap=True)
    check = check_exposure(frame.image)
    if check.verdict is not None:
        console.print(f"[yellow]Warning:[/] {check.message()}: {_exposure_hint(camera_backend, check.verdict)}.",
                      soft_wrap=True)
