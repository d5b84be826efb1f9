"""The real camera as a board reader: frames from ``vision.capture.Camera`` read by ``BoardReader``.

    reader = CameraReader(camera, BoardReader(calibration))
    obs = reader.read()       # never raises: a lost camera is an occluded Observation
    reader.health()           # "camera lost; will try to reopen it", or HEALTHY

This is ``engine.reader.Reader`` for ``arbiter play --reader camera``. Besides reading it keeps
the picture readable: when ``BoardReader`` refuses a frame as too dark or clipped white
(``Diagnostics.exposure``), it steps the camera's exposure that way, at most once every
``EXPOSURE_STEP_S`` because a camera's picture takes a few frames to settle after a change. A
camera that does not let its exposure be set keeps its reason (``Camera.exposure_refused``),
which ``health()`` then tells the players, with what to do by hand.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.observation import Observation
from engine.reader import HEALTHY, ReaderHealth

__all__ = ["CameraReader"]


class CameraReader:
    """The real camera read by the real vision code: ``read()`` never raises for a lost camera,
    it reports the board unseen with the camera's own words (and the camera reopens itself)."""

    sees = "colour"

    # Seconds between two exposure steps: the camera's picture takes a few frames to settle.
    EXPOSURE_STEP_S = 2.0

    def __init__(self, camera, board_reader, clock: Callable[[], float] = time.monotonic):
        self.camera = camera
        self.reader = board_reader
        self.clock = clock
        self._stepped_at: float | None = None
        self.exposure_note = ""  # what was last done about the exposure (or why it could not be)
        self._lost: str | None = None  # why the last read had no picture
        self._exposure_off = False  # the last frame read was refused for its exposure

    def read(self) -> Observation:
        frame = self.camera.read()
        if frame.image is None:
            self._lost = frame.problem or "no picture from the camera"
            return Observation.blocked(self._lost)
        self._lost = None
        obs = self.reader.read(frame.image)
        self._exposure_off = bool(self.reader.last.exposure)
        if self._exposure_off:
            self._step_exposure(self.reader.last.exposure)
        return obs

    def health(self) -> ReaderHealth:
        """The camera lost (its own words); or, while frames come too dark or too bright to read,
        what was done about the exposure or why it could not be done. Otherwise all well: once a
        stepped exposure gives readable frames, there is nothing left to say."""
        if self._lost is not None:
            return ReaderHealth(self._lost)
        if self._exposure_off:
            return ReaderHealth.of(self.exposure_note or "the picture is too dark or too bright to read")
        return HEALTHY

    def _step_exposure(self, change: str) -> None:
        """The frame was too bright or too dark to read: step the camera's exposure that way,
        at most once per ``EXPOSURE_STEP_S`` (a camera that refuses keeps its reason)."""
        now = self.clock()
        if self._stepped_at is not None and now - self._stepped_at < self.EXPOSURE_STEP_S:
            return
        self._stepped_at = now
        self.exposure_note = self.camera.adjust_exposure(change) or self.camera.exposure_refused or ""
