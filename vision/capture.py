"""Camera capture: OpenCV's VideoCapture or the Pi camera (Picamera2), behind one small interface.

A game night must survive a loose USB cable: ``Camera.read()`` never raises for a camera that
has gone away. It returns a ``Frame`` whose ``image`` is None and whose ``problem`` says what
happened, and it tries to open the camera again (at most once per ``retry_seconds``), so the
referee can pause and say "camera lost" while the game itself goes on.

Backends:
- ``opencv``: ``cv2.VideoCapture`` on a device index (``/dev/videoN``) or a file/URL, with the
  requested resolution and frame rate (the driver may pick the nearest it supports; the real
  size is reported).
- ``picamera2``: the Raspberry Pi camera stack, imported only when chosen (``pip install
  picamera2`` comes with Raspberry Pi OS), so everything else runs on any machine.
"""

from __future__ import annotations

import glob
import time
from dataclasses import dataclass, field
from typing import Callable

import cv2
import numpy as np


class CameraError(RuntimeError):
    """A camera that cannot be opened at all (wrong index, missing library); says what to do."""


@dataclass
class Frame:
    image: np.ndarray | None  # BGR uint8, or None when no frame could be read
    timestamp: float
    problem: str | None = None  # why there is no image


@dataclass
class CameraSettings:
    source: int | str = 0  # device index, or a video file / stream URL
    width: int = 1280
    height: int = 720
    fps: float = 30.0
    backend: str = "opencv"  # "opencv" or "picamera2"
    retry_seconds: float = 2.0


def list_cameras(max_index: int = 8) -> list[dict]:
    """Cameras OpenCV can open here: index, device path and the frame size it delivers."""
    found = []
    devices = sorted(glob.glob("/dev/video*"))
    indices = sorted({int(d.removeprefix("/dev/video")) for d in devices if d.removeprefix("/dev/video").isdigit()})
    for index in indices[:max_index] if indices else []:
        cap = cv2.VideoCapture(index)
        try:
            if cap.isOpened():
                ok, img = cap.read()
                size = (img.shape[1], img.shape[0]) if ok and img is not None else None
                found.append({"index": index, "device": f"/dev/video{index}", "size": size})
        finally:
            cap.release()
    return found


class _OpenCVSource:
    def __init__(self, settings: CameraSettings, opener: Callable = cv2.VideoCapture):
        self.settings = settings
        self.cap = opener(settings.source)
        if not self.cap.isOpened():
            raise CameraError(f"cannot open camera {settings.source!r}: check the cable, or list cameras "
                              f"with `arbiter camera list`")
        if isinstance(settings.source, int):
            self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, settings.width)
            self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, settings.height)
            self.cap.set(cv2.CAP_PROP_FPS, settings.fps)

    def read(self) -> np.ndarray | None:
        ok, img = self.cap.read()
        return img if ok and img is not None and img.size else None

    def size(self) -> tuple[int, int]:
        return int(self.cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(self.cap.get(cv2.CAP_PROP_FRAME_HEIGHT))

    def close(self) -> None:
        self.cap.release()


class _Picamera2Source:
    def __init__(self, settings: CameraSettings):
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError:
            raise CameraError("the picamera2 backend needs the picamera2 library (installed with Raspberry Pi "
                              "OS; `sudo apt install python3-picamera2`), or use --backend opencv") from None
        self.cam = Picamera2()
        config = self.cam.create_video_configuration(main={"size": (settings.width, settings.height),
                                                           "format": "BGR888"})
        self.cam.configure(config)
        self.cam.start()
        self._size = (settings.width, settings.height)

    def read(self) -> np.ndarray | None:
        img = self.cam.capture_array()
        return img[:, :, :3].copy() if img is not None else None

    def size(self) -> tuple[int, int]:
        return self._size

    def close(self) -> None:
        self.cam.stop()


@dataclass
class Camera:
    """A camera that reports and recovers from failures instead of ending the game."""

    settings: CameraSettings = field(default_factory=CameraSettings)
    clock: Callable[[], float] = time.monotonic
    opener: Callable | None = None  # for tests: replaces cv2.VideoCapture
    _source: object | None = field(default=None, init=False, repr=False)
    _last_try: float = field(default=-1e9, init=False, repr=False)
    failures: int = field(default=0, init=False)
    reopened: int = field(default=0, init=False)

    def open(self) -> None:
        """Open now; CameraError if the camera cannot be opened at all (at start-up, be loud)."""
        self._source = self._make()

    def _make(self):
        s = self.settings
        if s.backend == "opencv":
            return _OpenCVSource(s, self.opener or cv2.VideoCapture)
        if s.backend == "picamera2":
            return _Picamera2Source(s)
        raise CameraError(f"unknown camera backend {s.backend!r}: use opencv or picamera2")

    @property
    def size(self) -> tuple[int, int] | None:
        return self._source.size() if self._source is not None else None

    def read(self) -> Frame:
        now = self.clock()
        if self._source is None:
            if now - self._last_try < self.settings.retry_seconds:
                return Frame(None, now, "camera lost; waiting to try again")
            self._last_try = now
            try:
                self._source = self._make()
                self.reopened += 1
            except CameraError as exc:
                return Frame(None, now, f"camera lost; reopening failed: {exc}")
        try:
            img = self._source.read()
        except Exception as exc:  # a driver error must not end the game
            img = None
            problem = f"camera error: {exc}"
        else:
            problem = None if img is not None else "the camera returned no frame"
        if img is None:
            self.failures += 1
            self._drop()
            self._last_try = now
            return Frame(None, now, problem + "; will try to reopen it")
        return Frame(img, now)

    def _drop(self) -> None:
        if self._source is not None:
            try:
                self._source.close()
            except Exception:  # closing a dead device may fail too; it is gone either way
                pass
        self._source = None

    def close(self) -> None:
        self._drop()
