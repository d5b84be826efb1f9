"""Calibration from the owner's phone, step by step: the camera's picture, the two pictures
``arbiter calibrate`` takes, the same checks and messages, the overlay of what was found.

1. *begin*: a game and a camera (an index or URL, or ``sim``: the simulated camera that
   ``arbiter calibrate --sim`` uses). The page shows the camera's live picture.
2. *take* the empty board ("Clear every piece off the board; keep hands and shadows away.").
3. *take* the pieces laid out as the calibration layout says (its picture is shown: the same as
   ``arbiter calibrate GAME --layout``). The calibration runs (``vision.calibration.calibrate``,
   its progress said step by step), and on success is written where ``arbiter calibrate`` writes
   it (``calibration-GAME.json`` in the folder ``arbiter serve`` runs in, which ``arbiter play``
   reads), with the overlay picture beside it; on failure the page says why, in the command's
   words, and a camera whose pictures were too bright or too dark is stepped the way the
   calibration says before the pictures are taken again from step 2.

The camera is read from the server's threads, one at a time (a lock). Nothing here names a
family: the layout, the classes and the messages come from the game and from ``vision``.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

__all__ = ["Calibrator", "CalibrationSteps"]

FIRST = "1. Clear every piece off the board; keep hands and shadows away. Then take the picture."


class CalibrationSteps:
    """One calibration in progress (one game, one camera)."""

    def __init__(self, game_name: str, source: str, folder: Path):
        import engine
        from vision.calibration import calibration_layout, default_classifier

        self.game = engine.load(game_name)
        self.classifier = default_classifier(self.game)
        self.position, self.described = calibration_layout(self.game, full=self.classifier == "learned")
        self.source = source
        self.folder = folder
        self.step = "empty"  # then "pieces", then "done"
        self.said: list[str] = [f"Calibrating {self.game.name} (board {self.game.board.name}).", FIRST]
        self.empty = None
        self.result: dict[str, Any] | None = None
        self.overlay: bytes | None = None
        self.cam = None
        self._sim: dict[str, Any] = {}  # the simulated camera's picture per step (it is still)
        if source != "sim":
            from vision.capture import Camera, CameraError, CameraSettings

            src: Any = int(source) if source.isdigit() else source
            self.cam = Camera(CameraSettings(source=src))
            try:
                self.cam.open()
            except CameraError as exc:
                raise ValueError(f"{exc} (no camera? choose the simulated camera to try it)") from None
            self.said += [f"Note: {p}" for p in self.cam.exposure_problems]

    def picture(self):
        """What the camera sees now (the simulated camera: the board as the step wants it)."""
        if self.cam is None:
            from vision import sim

            want = "empty" if self.step == "empty" else "pieces"
            if want not in self._sim:
                scene = sim.printed_scene(self.game.board, {} if want == "empty" else self.position)
                self._sim[want] = sim.simulate(scene, 1, sim.CameraSettings(size=(1280, 720))).image
            return self._sim[want]
        frame = None
        for _ in range(3):  # the latest frame, exposure settled
            got = self.cam.read()
            if got.image is not None:
                frame = got.image
        if frame is None:
            raise ValueError("the camera delivered no picture: check the cable and the light")
        return frame

    def take(self) -> None:
        """Take the picture this step asks for; at the second, calibrate and save."""
        if self.step == "empty":
            self.empty = self.picture()
            self.step = "pieces"
            self.said.append(f"2. Lay out {self.described}, as the picture shows. Then take the picture.")
            return
        if self.step != "pieces":
            raise ValueError("the calibration is done: begin again to calibrate once more")
        pieces = self.picture()
        self._calibrate(pieces)

    def _calibrate(self, pieces) -> None:
        from vision.calibration import SURFACE_NOTE, CalibrationError, ExposureError, calibrate

        said = self.said
        n = [0]

        def progress(message: str) -> None:
            n[0] += 1
            said.append(f"  [{n[0]}] {message}")

        try:
            cal = calibrate(self.game, self.empty, pieces, position=self.position, progress=progress,
                            classifier=self.classifier)
        except ExposureError as exc:
            done = self.cam.adjust_exposure(exc.change) if self.cam is not None else None
            said.append(f"calibration failed: {str(exc).rstrip('.')}.")
            said.append(f"{done[0].upper() + done[1:]}; take the pictures again." if done else
                        "Set the camera's exposure by hand (`arbiter camera snapshot --exposure VALUE`), or change "
                        "the light on the board; then take the pictures again.")
            self._again()
            return
        except CalibrationError as exc:
            said.append(f"calibration failed: {exc}")
            self._again()
            return
        from ..files import write_atomic
        from vision.overlay import draw_overlay
        from vision.learned_reader import reader_for

        path = self.folder / f"calibration-{self.game.name}.json"
        overlay_path = path.with_name(path.stem + ".overlay.png")
        try:
            write_atomic(path, cal.dumps())
        except OSError as exc:
            said.append(f"cannot write {path}: {exc.strerror or exc}")
            self._again()
            return
        import cv2

        reader = reader_for(cal)
        obs = reader.read(pieces)
        overlay = draw_overlay(pieces, cal, obs, reader.last)
        ok, png = cv2.imencode(".png", overlay)
        self.overlay = png.tobytes() if ok else None
        if self.overlay is not None:
            write_atomic(overlay_path, self.overlay)
        classes = ", ".join(c.name for c in cal.family.classes if c.key in cal.templates)
        said.append(f"Calibrated. Learned {classes}; {len(cal.probes)} background probes.")
        for note in cal.notes:
            if note.startswith(SURFACE_NOTE):
                said.append(note[0].upper() + note[1:] + ".")
        said.append(f"Calibration: {path}")
        said.append("Overlay (check every spot reads as it should): below.")
        self.step = "done"
        self.result = {"path": str(path)}

    def _again(self) -> None:
        self.step, self.empty = "empty", None
        self.said.append(FIRST.replace("Clear every piece", "Clear every piece again"))

    def layout_png(self) -> bytes:
        import cv2

        from vision.pictures import layout_picture

        ok, png = cv2.imencode(".png", layout_picture(self.game, self.position))
        return png.tobytes()

    def close(self) -> None:
        if self.cam is not None:
            self.cam.close()
            self.cam = None


def _camera_source(source: Any) -> bool:
    """A camera the page may open: an index, a network stream, or the simulated camera; never a
    file path (no request reaches the file system outside the journals folder)."""
    if not isinstance(source, str) or not 0 < len(source) <= 200:
        return False
    if source == "sim" or (source.isdigit() and int(source) < 64):
        return True
    scheme, sep, rest = source.partition("://")
    return bool(sep) and scheme.lower() in ("http", "https", "rtsp") and bool(rest) and " " not in source


class Calibrator:
    """The owner's calibration, if one is going on; every call is one at a time."""

    def __init__(self, folder: str | Path = "."):
        self.folder = Path(folder)
        self.steps: CalibrationSteps | None = None
        self.lock = threading.Lock()

    def begin(self, game: Any, source: Any) -> str | None:
        import engine

        if not isinstance(game, str) or game not in engine.names():
            return "choose one of the games"
        if not _camera_source(source):
            return ("say which camera: its number (0, 1 ...), a stream's address (http://, https:// or "
                    "rtsp://), or sim for the simulated camera")
        with self.lock:
            if self.steps is not None:
                self.steps.close()
                self.steps = None
            try:
                self.steps = CalibrationSteps(game, source, self.folder)
            except ValueError as exc:
                return str(exc)
        return None

    def take(self) -> str | None:
        with self.lock:
            if self.steps is None:
                return "begin a calibration first"
            try:
                self.steps.take()
            except ValueError as exc:
                return str(exc)
        return None

    def status(self) -> dict[str, Any]:
        s = self.steps
        if s is None:
            return {"active": False}
        return {"active": True, "game": s.game.name, "step": s.step, "said": list(s.said),
                "described": s.described, "overlay": s.overlay is not None}

    def jpeg(self) -> bytes | None:
        import cv2

        with self.lock:
            if self.steps is None:
                return None
            try:
                img = self.steps.picture()
            except ValueError:
                return None
        h, w = img.shape[:2]
        if w > 960:
            img = cv2.resize(img, (960, int(h * 960 / w)))
        ok, jpg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 80])
        return jpg.tobytes() if ok else None

    def layout_png(self) -> bytes | None:
        with self.lock:
            return self.steps.layout_png() if self.steps is not None else None

    def overlay_png(self) -> bytes | None:
        s = self.steps
        return s.overlay if s is not None else None

    def close(self) -> None:
        with self.lock:
            if self.steps is not None:
                self.steps.close()
                self.steps = None
