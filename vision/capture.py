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

Exposure: automatic exposure over a white printed board often clips the paper to 255, and then
white pieces vanish into it. ``CameraSettings.exposure`` / ``gain`` / ``ev`` set it when the camera
is opened, ``Camera.adjust_exposure("lower")`` steps it by about one stop while it is open, and
``Camera.exposure()`` reports what the camera says it uses. A driver that refuses never raises:
the refusal is kept in ``exposure_problems`` / ``exposure_refused``, worded for the user.

How the two backends take these settings (conventions differ, so both are handled):
- OpenCV on Linux (V4L2): ``CAP_PROP_AUTO_EXPOSURE`` is the driver's own menu since OpenCV 4
  (1 = manual, 3 = aperture priority, which is a UVC camera's "auto"); OpenCV 3, or OpenCV 4 with
  ``OPENCV_VIDEOIO_V4L_RANGE_NORMALIZED=1``, maps that menu onto 0..1, so 0.25 = manual and
  0.75 = auto. ``CAP_PROP_EXPOSURE`` is ``exposure_time_absolute`` in units of 100 µs. OpenCV's
  V4L2 backend may return True from ``set`` although the driver refused, so every value is read
  back. DirectShow / Media Foundation (Windows) give ``CAP_PROP_EXPOSURE`` as log2 seconds
  (-13 .. 0: 122 µs .. 1 s), and their drivers mostly take 0.25 / 0.75 for manual / auto.
- Picamera2: ``ExposureTime`` in microseconds and ``AnalogueGain``; manual mode is
  ``AeEnable: False`` (libcamera before 0.5) or ``ExposureTimeMode`` / ``AnalogueGainMode`` = 1
  (libcamera 0.5 and later); ``ExposureValue`` is compensation in stops with automatic exposure.
"""

from __future__ import annotations

import glob
import math
import time
from dataclasses import dataclass, field, replace
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
    # Exposure: None leaves the camera as it is (usually automatic); "auto" turns automatic
    # exposure on; a number is a manual exposure in the camera's own units (OpenCV on Linux:
    # 100 µs; on Windows: log2 seconds, e.g. -6; Picamera2: microseconds).
    exposure: float | str | None = None
    gain: float | None = None  # sensor gain (OpenCV: the driver's scale; Picamera2: analogue gain, 1.0 = none)
    ev: float | None = None  # exposure compensation in stops, with automatic exposure (Picamera2 only)


AUTO = "auto"
CLIPPED_SHARE = 0.02  # over-exposed: more than this share of the middle clipped white
DARK_LEVEL = 80  # very dark: the brightest twentieth of the middle below this (the paper should be bright)

OPENCV_HELP = ("set it by hand instead: on Linux list the controls with `v4l2-ctl -d /dev/videoN --list-ctrls` "
               "and set them, e.g. `v4l2-ctl -d /dev/videoN -c auto_exposure=1 -c exposure_time_absolute=100` "
               "(older drivers: exposure_auto, exposure_absolute); on Windows or a Mac use the camera's own "
               "settings program; or add or dim the light on the board")
PICAMERA2_HELP = ("set it by hand instead with --exposure MICROSECONDS (e.g. --exposure 10000), --gain 1.0 "
                  "or --ev -1, or add or dim the light on the board")


class ExposureRefused(Exception):
    """The camera would not take an exposure setting (the message says what it refused)."""


@dataclass
class ExposureState:
    """What the camera reports about its exposure; a field is None when it does not say."""

    automatic: bool | None = None
    exposure: float | None = None
    gain: float | None = None
    ev: float | None = None
    units: str = ""  # what the exposure number means for this camera

    def describe(self) -> str:
        parts = []
        if self.automatic is not None:
            parts.append("automatic" if self.automatic else "manual")
        if self.exposure is not None:
            parts.append(f"exposure {_num(self.exposure)}" + (f" ({self.units})" if self.units else ""))
        if self.gain is not None:
            parts.append(f"gain {_num(self.gain)}")
        if self.ev is not None:
            parts.append(f"compensation {self.ev:+g} EV")
        return ", ".join(parts) if parts else "not reported by this camera"


@dataclass
class ExposureCheck:
    """How well exposed a picture is, judged over its middle (where the board should be)."""

    clipped: float  # share of the middle's pixels at 255 in every channel
    bright: float  # the brightest twentieth of the middle starts here (0..255)
    verdict: str | None  # "over", "dark" or None

    def message(self) -> str | None:
        if self.verdict == "over":
            return (f"over-exposed: {100 * self.clipped:.0f}% of the middle of the picture is clipped white, "
                    f"so white pieces cannot be told from the paper; lower the camera's exposure")
        if self.verdict == "dark":
            return (f"very dark: even the brightest part of the middle of the picture is only {self.bright:.0f} "
                    f"of 255; raise the camera's exposure or gain, or add light")
        return None


def check_exposure(image: np.ndarray) -> ExposureCheck:
    """Over-exposed (more than 2% of the middle clipped at 255 in all channels) or very dark?"""
    h, w = image.shape[:2]
    middle = image[h // 4: h - h // 4 or h, w // 4: w - w // 4 or w]
    if middle.ndim == 2:
        middle = middle[:, :, None]
    clipped = float(np.mean(np.all(middle >= 255, axis=2))) if middle.size else 0.0
    grey = middle.mean(axis=2) if middle.size else np.zeros(1)
    bright = float(np.percentile(grey, 95))
    verdict = "over" if clipped > CLIPPED_SHARE else "dark" if bright < DARK_LEVEL else None
    return ExposureCheck(clipped, bright, verdict)


def parse_exposure(text: str | float | None) -> float | str | None:
    """``--exposure``: "auto" or a number; ValueError otherwise."""
    if text is None or isinstance(text, (int, float)):
        return text
    text = text.strip().lower()
    if text == AUTO:
        return AUTO
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _num(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e5 else f"{value:.0f}"


def _refused(backend: str, what: str) -> str:
    help_text = PICAMERA2_HELP if backend == "picamera2" else OPENCV_HELP
    return f"this camera does not let arbiter set its exposure: {what}. To fix it, {help_text}."


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
        self.problems = self._apply(settings)

    def read(self) -> np.ndarray | None:
        ok, img = self.cap.read()
        return img if ok and img is not None and img.size else None

    # -- exposure -------------------------------------------------------------------------

    def _device(self) -> bool:
        return isinstance(self.settings.source, int)

    def _backend(self) -> str:
        try:
            return str(self.cap.getBackendName()).upper()
        except Exception:  # fakes, or an OpenCV without it
            return ""

    def _log_scale(self, value: float | None) -> bool:
        """DirectShow / Media Foundation: exposure in log2 seconds; V4L2: linear, 100 µs units."""
        backend = self._backend()
        if backend in ("DSHOW", "MSMF"):
            return True
        if backend == "V4L2":
            return False
        return value is not None and value < 0

    def _units(self, value: float | None) -> str:
        return "log2 seconds" if self._log_scale(value) else "units of 100 µs" if self._backend() == "V4L2" else \
            "the driver's units"

    def _get(self, prop: int) -> float | None:
        try:
            value = float(self.cap.get(prop))
        except Exception:
            return None
        return value if math.isfinite(value) else None

    def _set(self, prop: int, value: float) -> bool:
        try:
            return bool(self.cap.set(prop, value))
        except Exception:  # cv2.error from some backends instead of False
            return False

    def _set_automatic(self, on: bool) -> bool:
        """Automatic exposure on or off, in whichever convention the backend takes (read back)."""
        values = [3.0, 0.75, 0.0] if on else [1.0, 0.25]
        if self._backend() in ("DSHOW", "MSMF"):
            values = [0.75, 3.0] if on else [0.25, 1.0]
        accepted = False
        for value in values:
            if self._set(cv2.CAP_PROP_AUTO_EXPOSURE, value):
                accepted = True
                got = self._get(cv2.CAP_PROP_AUTO_EXPOSURE)
                if got is not None and abs(got - value) < 1e-6:
                    return True
        return accepted  # the driver said yes but does not report it: trust it

    def _apply(self, s: CameraSettings) -> list[str]:
        wanted = [name for name, v in (("exposure", s.exposure), ("gain", s.gain), ("ev", s.ev)) if v is not None]
        if not wanted:
            return []
        if not self._device():
            return [f"{s.source} is a recording or a stream, not a camera: its exposure cannot be set "
                    f"(ignoring --{' --'.join(wanted)})"]
        problems = []
        if s.exposure == AUTO:
            if not self._set_automatic(True):
                problems.append(_refused("opencv", "it refused automatic exposure (CAP_PROP_AUTO_EXPOSURE)"))
        elif s.exposure is not None:
            manual = self._set_automatic(False)
            if not self._set(cv2.CAP_PROP_EXPOSURE, float(s.exposure)):
                problems.append(_refused("opencv", f"it refused exposure {_num(float(s.exposure))} (CAP_PROP_EXPOSURE)"
                                         + ("" if manual else " and manual exposure (CAP_PROP_AUTO_EXPOSURE)")))
        if s.gain is not None and not self._set(cv2.CAP_PROP_GAIN, float(s.gain)):
            problems.append(_refused("opencv", f"it refused gain {_num(float(s.gain))} (CAP_PROP_GAIN)"))
        if s.ev is not None:
            problems.append("exposure compensation (--ev) works with the Pi camera (--camera-backend picamera2) only; "
                            "use --exposure VALUE with this camera")
        return problems

    def exposure(self) -> ExposureState | None:
        if not self._device():
            return None
        auto = self._get(cv2.CAP_PROP_AUTO_EXPOSURE)
        automatic = None
        if auto is not None:
            if any(abs(auto - v) < 1e-6 for v in (1.0, 0.25)):
                automatic = False
            elif any(abs(auto - v) < 1e-6 for v in (0.0, 2.0, 3.0, 0.75)):
                automatic = True
        value = self._get(cv2.CAP_PROP_EXPOSURE)
        if value is not None and value < 0 and not self._log_scale(value):
            value = None  # V4L2 says -1 for a control the driver lacks
        gain = self._get(cv2.CAP_PROP_GAIN)
        if gain is not None and gain < 0:
            gain = None
        return ExposureState(automatic, value, gain, None, self._units(value) if value is not None else "")

    def step(self, change: str) -> tuple[str, dict]:
        if not self._device():
            raise ExposureRefused(f"{self.settings.source} is a recording or a stream, not a camera")
        old = self._get(cv2.CAP_PROP_EXPOSURE)
        log = self._log_scale(old)
        if old is None or (not log and old <= 0):
            raise ExposureRefused("it does not report its exposure (CAP_PROP_EXPOSURE)")
        if log:
            new = old - 1 if change == "lower" else old + 1
        else:
            new = float(max(1, round(old / 2))) if change == "lower" else float(round(old * 2))
        if new == old:
            raise ExposureRefused(f"its exposure is already as {'short' if change == 'lower' else 'long'} as it goes "
                                  f"({_num(old)})")
        manual = self._set_automatic(False)
        if not self._set(cv2.CAP_PROP_EXPOSURE, new):
            raise ExposureRefused(f"it refused exposure {_num(new)} (CAP_PROP_EXPOSURE)"
                                  + ("" if manual else " and manual exposure (CAP_PROP_AUTO_EXPOSURE)"))
        got = self._get(cv2.CAP_PROP_EXPOSURE)
        if got is not None and abs(got - old) < 1e-9:
            raise ExposureRefused(f"asked for exposure {_num(new)}, it kept {_num(old)} (its limit, or automatic "
                                  f"exposure still on)")
        now = got if got is not None else new
        verb = "lowered" if change == "lower" else "raised"
        return (f"{verb} the camera's exposure from {_num(old)} to {_num(now)} ({self._units(now)}, manual)",
                {"exposure": now})

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
                              "OS; `sudo apt install python3-picamera2`), or use --camera-backend opencv") from None
        self.cam = Picamera2()
        config = self.cam.create_video_configuration(main={"size": (settings.width, settings.height),
                                                           "format": "BGR888"})
        self.cam.configure(config)
        self.cam.start()
        self._size = (settings.width, settings.height)
        self._manual = False
        self._ev: float | None = None
        self.problems = self._apply(settings)

    def read(self) -> np.ndarray | None:
        img = self.cam.capture_array()
        return img[:, :, :3].copy() if img is not None else None

    # -- exposure -------------------------------------------------------------------------

    def _controls(self) -> dict:
        try:
            return dict(self.cam.camera_controls)
        except Exception:
            return {}

    def _metadata(self) -> dict:
        try:
            return dict(self.cam.capture_metadata() or {})
        except Exception:
            return {}

    @staticmethod
    def _clamp(controls: dict, name: str, value: float) -> float:
        limits = controls.get(name)
        try:
            lo, hi = limits[0], limits[1]
            return float(min(max(value, lo), hi))
        except (TypeError, IndexError):
            return float(value)

    def _mode(self, controls: dict, manual: bool) -> dict:
        """Manual or automatic exposure: libcamera 0.5+ has mode controls, older ones AeEnable."""
        if "ExposureTimeMode" in controls:
            return {"ExposureTimeMode": 1 if manual else 0, **({"AnalogueGainMode": 1 if manual else 0}
                                                               if "AnalogueGainMode" in controls else {})}
        if "AeEnable" in controls:
            return {"AeEnable": not manual}
        return {}

    def _hold_gain(self, controls: dict, gain: float | None) -> dict:
        """With a manual exposure the gain must hold still too, or automatic gain undoes the change."""
        if "AnalogueGain" not in controls:
            return {}
        if gain is None:
            gain = self._metadata().get("AnalogueGain")
        return {} if gain is None else {"AnalogueGain": self._clamp(controls, "AnalogueGain", float(gain))}

    def _send(self, wanted: dict) -> None:
        try:
            self.cam.set_controls(wanted)
        except Exception as exc:
            raise ExposureRefused(f"it refused {', '.join(wanted)} ({exc})") from None

    def _apply(self, s: CameraSettings) -> list[str]:
        controls = self._controls()
        wanted: dict = {}
        problems = []
        if s.exposure == AUTO:
            mode = self._mode(controls, manual=False)
            if mode:
                wanted.update(mode)
            else:
                problems.append(_refused("picamera2", "it has no automatic exposure control (AeEnable)"))
        elif s.exposure is not None:
            if "ExposureTime" not in controls:
                problems.append(_refused("picamera2", "it has no ExposureTime control"))
            else:
                wanted.update(self._mode(controls, manual=True))
                wanted["ExposureTime"] = int(round(self._clamp(controls, "ExposureTime", float(s.exposure))))
                wanted.update(self._hold_gain(controls, s.gain))
                self._manual = True
        if s.gain is not None:
            if "AnalogueGain" not in controls:
                problems.append(_refused("picamera2", "it has no AnalogueGain control"))
            else:
                wanted["AnalogueGain"] = self._clamp(controls, "AnalogueGain", float(s.gain))
                if "AnalogueGainMode" in controls:
                    wanted["AnalogueGainMode"] = 1
        if s.ev is not None:
            if "ExposureValue" not in controls:
                problems.append(_refused("picamera2", "it has no ExposureValue control"))
            else:
                wanted["ExposureValue"] = self._clamp(controls, "ExposureValue", float(s.ev))
                self._ev = wanted["ExposureValue"]
        if wanted:
            try:
                self._send(wanted)
            except ExposureRefused as exc:
                problems.append(_refused("picamera2", str(exc)))
                self._manual, self._ev = False, None
        return problems

    def exposure(self) -> ExposureState | None:
        md = self._metadata()
        value = md.get("ExposureTime")
        gain = md.get("AnalogueGain")
        return ExposureState(not self._manual, float(value) if value is not None else None,
                             float(gain) if gain is not None else None, self._ev, "µs" if value is not None else "")

    def step(self, change: str) -> tuple[str, dict]:
        controls = self._controls()
        verb = "lowered" if change == "lower" else "raised"
        if not self._manual and "ExposureValue" in controls:
            old = self._ev or 0.0
            new = self._clamp(controls, "ExposureValue", old - 1 if change == "lower" else old + 1)
            if new == old:
                raise ExposureRefused(f"its exposure compensation is already at its limit ({old:+g} EV)")
            self._send({"ExposureValue": new})
            self._ev = new
            return f"{verb} the camera's exposure compensation from {old:+g} to {new:+g} EV", {"ev": new}
        if "ExposureTime" not in controls:
            raise ExposureRefused("it has no ExposureTime control")
        old = self._metadata().get("ExposureTime")
        if not old:
            raise ExposureRefused("it does not report its exposure time")
        old = float(old)
        new = float(round(self._clamp(controls, "ExposureTime", old / 2 if change == "lower" else old * 2)))
        if new == old:
            raise ExposureRefused(f"its exposure is already as {'short' if change == 'lower' else 'long'} as it goes "
                                  f"({_num(old)} µs)")
        self._send({**self._mode(controls, manual=True), "ExposureTime": int(new), **self._hold_gain(controls, None)})
        self._manual = True
        return f"{verb} the camera's exposure from {_num(old)} µs to {_num(new)} µs (manual)", {"exposure": new}

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
    # What the camera refused of the exposure settings when it was (re)opened, worded for the user.
    exposure_problems: list[str] = field(default_factory=list, init=False)
    # Why the last adjust_exposure() did nothing (None after one that worked).
    exposure_refused: str | None = field(default=None, init=False)

    def open(self) -> None:
        """Open now; CameraError if the camera cannot be opened at all (at start-up, be loud)."""
        self._source = self._make()

    def _make(self):
        s = self.settings
        if s.backend == "opencv":
            source = _OpenCVSource(s, self.opener or cv2.VideoCapture)
        elif s.backend == "picamera2":
            source = _Picamera2Source(s)
        else:
            raise CameraError(f"unknown camera backend {s.backend!r}: use opencv or picamera2")
        self.exposure_problems = list(getattr(source, "problems", []))
        return source

    def exposure(self) -> ExposureState | None:
        """What the camera says about its exposure now; None when closed, or for a recording."""
        if self._source is None:
            return None
        try:
            return self._source.exposure()
        except Exception:  # a driver error must not end the game
            return None

    def adjust_exposure(self, change: str) -> str | None:
        """Step the exposure about one stop ("lower" or "raise") from what the camera reports.

        Returns what was done ("lowered the camera's exposure from 156 to 78 ..."), or None when
        the camera does not allow it; ``exposure_refused`` then says why and what to do by hand.
        The new value is kept in ``settings``, so a camera that is reopened keeps it."""
        if change not in ("lower", "raise"):
            raise ValueError(f"change must be 'lower' or 'raise', not {change!r}")
        self.exposure_refused = None
        if self._source is None:
            self.exposure_refused = _refused(self.settings.backend, "the camera is not open")
            return None
        try:
            done, updates = self._source.step(change)
        except ExposureRefused as exc:
            self.exposure_refused = _refused(self.settings.backend, str(exc))
            return None
        except Exception as exc:  # a driver error must not end the game either
            self.exposure_refused = _refused(self.settings.backend, f"the driver failed ({exc})")
            return None
        self.settings = replace(self.settings, **updates)
        return done

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
