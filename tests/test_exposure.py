"""The camera's exposure: set at opening and stepped while open, through OpenCV (a fake
VideoCapture speaking V4L2's or DirectShow's conventions, refusing what a real driver refuses)
and Picamera2 (a fake ``picamera2`` module); judged on the picture; and `arbiter calibrate
--camera` lowering it and taking the pictures again when the paper is over-exposed."""

import sys
import types

import click
import cv2
import numpy as np
import pytest
from click.testing import CliRunner

import engine
from vision import sim
from vision.capture import Camera, CameraSettings, check_exposure, parse_exposure

AUTO, EXPOSURE, GAIN = cv2.CAP_PROP_AUTO_EXPOSURE, cv2.CAP_PROP_EXPOSURE, cv2.CAP_PROP_GAIN
SIZE = (640, 480)


class FakeCapture:
    """cv2.VideoCapture on a USB camera, as OpenCV's V4L2 backend shows it.

    ``normalized``: OpenCV 3 / OPENCV_VIDEOIO_V4L_RANGE_NORMALIZED (auto exposure 0.25 / 0.75)
    instead of the driver's own menu (1 manual, 3 aperture priority). Like the real backend, a
    value the driver rejects still makes ``set`` return True, and the property keeps its value.
    ``refuse``: properties whose ``set`` returns False; ``broken``: ones whose ``set`` raises.
    ``frames``: what the camera looks at (a picture at exposure 100; brighter in proportion)."""

    def __init__(self, *, backend="V4L2", normalized=False, exposure=156.0, automatic=True, refuse=(),
                 broken=(), limits=(1.0, 5000.0), frames=None, keep_exposure=False):
        self.backend = backend
        self.manual_values = (0.25,) if normalized else (1.0,)
        self.auto_values = (0.75,) if normalized else (3.0,)
        if backend == "DSHOW":
            self.manual_values, self.auto_values = (0.25,), (0.75,)
        self.props = {AUTO: self.auto_values[0] if automatic else self.manual_values[0], EXPOSURE: exposure,
                      GAIN: 0.0}
        self.refuse, self.broken, self.limits = set(refuse), set(broken), limits
        self.keep_exposure = keep_exposure
        self.frames = frames
        self.calls: list[tuple[int, float]] = []
        self.released = False

    def isOpened(self):
        return True

    def getBackendName(self):
        return self.backend

    def set(self, prop, value):
        self.calls.append((prop, value))
        if prop in self.broken:
            raise cv2.error("VIDIOC_S_CTRL: Input/output error")
        if prop in self.refuse:
            return False
        if prop == AUTO:
            if value in self.manual_values + self.auto_values:
                self.props[AUTO] = value
        elif prop == EXPOSURE:
            manual = self.props[AUTO] in self.manual_values or self.backend == "DSHOW"
            if manual and not self.keep_exposure:
                self.props[EXPOSURE] = float(min(max(value, self.limits[0]), self.limits[1]))
        elif prop in (GAIN,):
            self.props[prop] = float(value)
        return True  # as V4L2 does even when the driver ignored it

    def get(self, prop):
        return self.props.get(prop, -1.0)

    def read(self):
        if self.frames is None:
            return True, np.full((48, 64, 3), 128, np.uint8)
        base = self.frames()
        factor = self.props[EXPOSURE] / 100.0
        return True, np.clip(base.astype(np.float32) * factor, 0, 255).astype(np.uint8)

    def release(self):
        self.released = True


def opened(fake, **settings):
    cam = Camera(CameraSettings(source=0, **settings), opener=lambda src: fake)
    cam.open()
    return cam


# -- OpenCV ---------------------------------------------------------------------------------


def test_v4l2_manual_exposure_and_gain_are_set_and_read_back():
    fake = FakeCapture()
    cam = opened(fake, exposure=80, gain=12)
    assert (AUTO, 1.0) in fake.calls and (EXPOSURE, 80.0) in fake.calls and (GAIN, 12.0) in fake.calls
    assert cam.exposure_problems == []
    state = cam.exposure()
    assert (state.automatic, state.exposure, state.gain) == (False, 80.0, 12.0)
    assert "manual" in state.describe() and "exposure 80 (units of 100 µs)" in state.describe()


def test_normalized_v4l2_takes_the_quarter_values():
    """OpenCV 3's convention (0.25 manual): 1.0 is ignored by the driver, read back, and 0.25 tried."""
    fake = FakeCapture(normalized=True)
    cam = opened(fake, exposure=80)
    assert fake.props[AUTO] == 0.25 and fake.props[EXPOSURE] == 80.0
    assert cam.exposure().automatic is False
    assert cam.exposure_problems == []


def test_auto_turns_automatic_exposure_back_on():
    fake = FakeCapture(automatic=False)
    cam = opened(fake, exposure="auto")
    assert fake.props[AUTO] == 3.0 and cam.exposure().automatic is True


def test_nothing_is_touched_without_exposure_settings():
    fake = FakeCapture()
    opened(fake)
    assert all(prop not in (AUTO, EXPOSURE, GAIN) for prop, _ in fake.calls)


@pytest.mark.parametrize("how", ["refuse", "broken"])
def test_a_camera_that_refuses_is_reported_not_raised(how):
    fake = FakeCapture(**{how: (AUTO, EXPOSURE, GAIN)})
    cam = opened(fake, exposure=80, gain=3)
    text = " ".join(cam.exposure_problems)
    assert "this camera does not let arbiter set its exposure" in text
    assert "it refused exposure 80" in text and "it refused gain 3" in text and "v4l2-ctl" in text
    assert cam.read().image is not None  # and the camera still works
    assert cam.adjust_exposure("lower") is None
    assert "does not let arbiter set its exposure" in cam.exposure_refused and "v4l2-ctl" in cam.exposure_refused


def test_adjust_exposure_steps_one_stop_from_what_the_camera_reports():
    fake = FakeCapture(exposure=156)
    cam = opened(fake)
    done = cam.adjust_exposure("lower")
    assert done == "lowered the camera's exposure from 156 to 78 (units of 100 µs, manual)"
    assert fake.props[AUTO] == 1.0 and fake.props[EXPOSURE] == 78 and cam.settings.exposure == 78
    assert cam.exposure_refused is None
    assert "raised the camera's exposure from 78 to 156" in cam.adjust_exposure("raise")
    with pytest.raises(ValueError):
        cam.adjust_exposure("brighter")


def test_adjust_exposure_at_the_limit_or_ignored_says_so():
    cam = opened(FakeCapture(exposure=1, automatic=False))
    assert cam.adjust_exposure("lower") is None and "already as short as it goes" in cam.exposure_refused
    cam = opened(FakeCapture(exposure=156, keep_exposure=True))
    assert cam.adjust_exposure("lower") is None and "it kept 156" in cam.exposure_refused


def test_directshow_exposure_is_a_power_of_two():
    fake = FakeCapture(backend="DSHOW", exposure=-5, limits=(-13.0, 0.0))
    cam = opened(fake)
    assert "from -5 to -6 (log2 seconds" in cam.adjust_exposure("lower")
    assert fake.props[AUTO] == 0.25 and fake.props[EXPOSURE] == -6
    assert cam.exposure().units == "log2 seconds"


def test_an_adjusted_exposure_survives_reopening_the_camera():
    made = []

    class Flaky(FakeCapture):
        def read(self):
            return (False, None) if len(made) == 1 else super().read()

    def opener(src):
        made.append(Flaky(exposure=156))
        return made[-1]

    t = [0.0]
    cam = Camera(CameraSettings(source=0), opener=opener, clock=lambda: t[0])
    cam.open()
    cam.adjust_exposure("lower")
    assert cam.read().image is None  # the cable came loose
    t[0] = 5.0
    assert cam.read().image is not None and len(made) == 2
    assert made[1].props[EXPOSURE] == 78 and made[1].props[AUTO] == 1.0


def test_a_recording_has_no_exposure_to_set():
    cam = Camera(CameraSettings(source="clip.avi", exposure=50), opener=lambda src: FakeCapture())
    cam.open()
    assert "recording or a stream" in cam.exposure_problems[0]
    assert cam.exposure() is None
    assert cam.adjust_exposure("lower") is None and "recording" in cam.exposure_refused


def test_ev_is_for_the_pi_camera():
    cam = opened(FakeCapture(), ev=-1)
    assert "Pi camera" in cam.exposure_problems[0]


def test_parse_exposure():
    assert parse_exposure("auto") == "AUTO".lower() and parse_exposure(" Auto ") == "auto"
    assert parse_exposure("150") == 150.0 and parse_exposure("-6") == -6.0 and parse_exposure(None) is None
    for bad in ("bright", "nan", ""):
        with pytest.raises(ValueError):
            parse_exposure(bad)


# -- Picamera2 ------------------------------------------------------------------------------


def fake_picamera2(monkeypatch, *, controls, refuse=False, metadata=None):
    made = []

    class Picamera2:
        def __init__(self):
            self.camera_controls = controls
            self.sets: list[dict] = []
            self.state = dict(metadata or {"ExposureTime": 20000, "AnalogueGain": 2.0})
            made.append(self)

        def create_video_configuration(self, main):
            return {"main": main}

        def configure(self, config):
            self.size = config["main"]["size"]

        def start(self):
            pass

        def stop(self):
            pass

        def set_controls(self, wanted):
            if refuse:
                raise RuntimeError("Control ExposureTime is not supported")
            self.sets.append(dict(wanted))
            self.state.update({k: v for k, v in wanted.items() if k in ("ExposureTime", "AnalogueGain")})

        def capture_metadata(self):
            return dict(self.state)

        def capture_array(self):
            return np.zeros((self.size[1], self.size[0], 4), np.uint8)

    module = types.ModuleType("picamera2")
    module.Picamera2 = Picamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return made


NEW_LIBCAMERA = {"ExposureTimeMode": (0, 1, 0), "AnalogueGainMode": (0, 1, 0), "ExposureTime": (130, 3066985, 20000),
                 "AnalogueGain": (1.0, 16.0, 1.0), "ExposureValue": (-8.0, 8.0, 0.0)}
OLD_LIBCAMERA = {"AeEnable": (False, True, True), "ExposureTime": (130, 3066985, 20000),
                 "AnalogueGain": (1.0, 16.0, 1.0), "ExposureValue": (-8.0, 8.0, 0.0)}


def picam(**settings):
    cam = Camera(CameraSettings(backend="picamera2", width=64, height=48, **settings))
    cam.open()
    return cam


def test_picamera2_manual_exposure_with_the_mode_controls(monkeypatch):
    made = fake_picamera2(monkeypatch, controls=NEW_LIBCAMERA)
    cam = picam(exposure=10000)
    assert made[0].sets == [{"ExposureTimeMode": 1, "AnalogueGainMode": 1, "ExposureTime": 10000,
                             "AnalogueGain": 2.0}]  # the gain held where it was, or AE would undo the change
    state = cam.exposure()
    assert (state.automatic, state.exposure, state.gain, state.units) == (False, 10000.0, 2.0, "µs")
    assert cam.read().image.shape == (48, 64, 3) and cam.exposure_problems == []


def test_picamera2_manual_exposure_with_ae_enable_and_clamped(monkeypatch):
    made = fake_picamera2(monkeypatch, controls=OLD_LIBCAMERA)
    picam(exposure=9_000_000, gain=40)
    assert made[0].sets == [{"AeEnable": False, "ExposureTime": 3066985, "AnalogueGain": 16.0}]


def test_picamera2_auto_and_compensation(monkeypatch):
    made = fake_picamera2(monkeypatch, controls=NEW_LIBCAMERA)
    cam = picam(exposure="auto", ev=-1)
    assert made[0].sets == [{"ExposureTimeMode": 0, "AnalogueGainMode": 0, "ExposureValue": -1.0}]
    assert cam.adjust_exposure("lower") == "lowered the camera's exposure compensation from -1 to -2 EV"
    assert made[0].sets[-1] == {"ExposureValue": -2.0} and cam.settings.ev == -2.0
    assert cam.exposure().automatic is True and cam.exposure().ev == -2.0


def test_picamera2_manual_exposure_halves(monkeypatch):
    made = fake_picamera2(monkeypatch, controls=OLD_LIBCAMERA)
    cam = picam(exposure=20000)
    assert cam.adjust_exposure("lower") == "lowered the camera's exposure from 20000 µs to 10000 µs (manual)"
    assert made[0].sets[-1] == {"AeEnable": False, "ExposureTime": 10000, "AnalogueGain": 2.0}
    assert cam.settings.exposure == 10000


def test_picamera2_without_compensation_goes_manual(monkeypatch):
    controls = {k: v for k, v in OLD_LIBCAMERA.items() if k != "ExposureValue"}
    made = fake_picamera2(monkeypatch, controls=controls, metadata={"ExposureTime": 33000, "AnalogueGain": 1.0})
    cam = picam()
    assert made[0].sets == []
    assert "from 33000 µs to 66000 µs" in cam.adjust_exposure("raise")


def test_picamera2_refusals_are_reported(monkeypatch):
    fake_picamera2(monkeypatch, controls=NEW_LIBCAMERA, refuse=True)
    cam = picam(exposure=10000)
    assert "does not let arbiter set its exposure" in cam.exposure_problems[0]
    assert "--exposure MICROSECONDS" in cam.exposure_problems[0]
    assert cam.adjust_exposure("lower") is None and "not supported" in cam.exposure_refused
    fake_picamera2(monkeypatch, controls={})
    cam = picam(exposure=10000, ev=1)
    assert any("no ExposureTime control" in p for p in cam.exposure_problems)
    assert any("no ExposureValue control" in p for p in cam.exposure_problems)
    assert cam.adjust_exposure("lower") is None and "no ExposureTime control" in cam.exposure_refused


# -- judging a picture ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def morris():
    game = engine.load("nine-mens-morris")
    from vision.calibration import calibration_layout

    layout, _ = calibration_layout(game)
    settings = sim.CameraSettings(size=SIZE)
    empty = sim.simulate(sim.simple_scene(game.board, {}), 3, settings).image
    pieces = sim.simulate(sim.simple_scene(game.board, layout), 3, settings).image
    return {"empty": empty, "pieces": pieces}


def test_check_exposure(morris):
    img = morris["empty"]
    assert check_exposure(img).verdict is None and check_exposure(img).message() is None
    over = check_exposure(np.clip(img.astype(np.float32) * 2.5, 0, 255).astype(np.uint8))
    assert over.verdict == "over" and over.clipped > 0.02 and "over-exposed" in over.message()
    dark = check_exposure((img // 5).astype(np.uint8))
    assert dark.verdict == "dark" and "very dark" in dark.message()


# -- the command line -----------------------------------------------------------------------


def test_snapshot_reports_the_exposure_and_warns_when_over_exposed(morris, monkeypatch, tmp_path):
    from arbiter.cli import main

    fake = FakeCapture(exposure=300, frames=lambda: morris["empty"])
    monkeypatch.setattr(cv2, "VideoCapture", lambda src: fake)
    out = tmp_path / "snap.png"
    shot = CliRunner().invoke(main, ["camera", "snapshot", "--out", str(out), "--warmup", "0"])
    assert shot.exit_code == 0, shot.output
    assert "exposure: automatic, exposure 300 (units of 100 µs)" in shot.output
    assert "over-exposed" in shot.output and "--exposure with a smaller value" in shot.output
    good = CliRunner().invoke(main, ["camera", "snapshot", "--out", str(out), "--exposure", "100", "--gain", "4"])
    assert good.exit_code == 0, good.output
    assert "manual, exposure 100" in good.output and "gain 4" in good.output and "Warning" not in good.output
    dark = CliRunner().invoke(main, ["camera", "snapshot", "--out", str(out), "--exposure", "20"])
    assert "very dark" in dark.output and "--exposure with a larger value" in dark.output


def test_snapshot_with_a_camera_that_refuses(monkeypatch, tmp_path):
    from arbiter.cli import main

    monkeypatch.setattr(cv2, "VideoCapture", lambda src: FakeCapture(refuse=(AUTO, EXPOSURE)))
    shot = CliRunner().invoke(main, ["camera", "snapshot", "--out", str(tmp_path / "s.png"), "--exposure", "50"])
    assert shot.exit_code == 0, shot.output
    assert "does not let arbiter set its exposure" in shot.output and "v4l2-ctl" in shot.output
    bad = CliRunner().invoke(main, ["camera", "snapshot", "--exposure", "bright"])
    assert bad.exit_code == 2 and "auto" in bad.output


class Table:
    """The board under the fake camera: each 'Press Enter' puts out what the next picture needs."""

    def __init__(self, morris, monkeypatch):
        self.prompts = 0
        self.morris = morris
        monkeypatch.setattr(click, "prompt", self.prompt)

    def prompt(self, *args, **kwargs):
        self.prompts += 1
        return ""

    def frame(self):
        return self.morris["empty" if self.prompts % 2 == 1 else "pieces"]


@pytest.fixture
def over_exposure_check(monkeypatch):
    """The calibration's own exposure check is written elsewhere; this one refuses clipped paper."""
    import vision.calibration as calibration

    real = calibration.calibrate
    seen = []

    def checking(game, empty, pieces, **kw):
        seen.append(check_exposure(empty).clipped)
        if check_exposure(empty).verdict == "over":
            raise calibration.ExposureError("the empty board picture is over-exposed: lower the camera's exposure",
                                            "lower")
        return real(game, empty, pieces, **kw)

    monkeypatch.setattr(calibration, "calibrate", checking)
    return seen


def test_calibrate_lowers_the_exposure_and_takes_the_pictures_again(morris, monkeypatch, tmp_path,
                                                                    over_exposure_check):
    from arbiter.cli import main

    table = Table(morris, monkeypatch)
    fake = FakeCapture(exposure=400, frames=table.frame)
    monkeypatch.setattr(cv2, "VideoCapture", lambda src: fake)
    out = tmp_path / "cal.json"
    # the hand-set reader's calibration, from the one-each layout the table lays out
    result = CliRunner().invoke(main, ["calibrate", "nine-mens-morris", "--camera", "0", "--width", "640",
                                       "--height", "480", "--classifier", "measured", "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Camera exposure: automatic, exposure 400" in text
    assert ("The paper is over-exposed: lowered the camera's exposure from 400 to 200 (units of 100 µs, manual); "
            "taking the pictures again (1 of 3)") in text
    assert "from 200 to 100" in text and "(2 of 3)" in text and "Calibrated." in text
    assert table.prompts == 6 and len(over_exposure_check) == 3 and out.is_file()
    assert fake.props[EXPOSURE] == 100 and fake.props[AUTO] == 1.0 and fake.released


def test_calibrate_gives_up_after_three_tries(morris, monkeypatch, tmp_path, over_exposure_check):
    from arbiter.cli import main

    table = Table(morris, monkeypatch)
    fake = FakeCapture(exposure=4000, frames=table.frame)
    monkeypatch.setattr(cv2, "VideoCapture", lambda src: fake)
    result = CliRunner().invoke(main, ["calibrate", "nine-mens-morris", "--camera", "0", "--width", "640",
                                       "--height", "480", "--out", str(tmp_path / "cal.json")])
    text = " ".join(result.output.split())
    assert result.exit_code == 1, result.output
    assert "(3 of 3)" in text and "changed the camera's exposure 3 times" in text and "by hand" in text
    assert table.prompts == 8 and fake.props[EXPOSURE] == 500 and fake.released


def test_calibrate_with_a_camera_that_will_not_change(morris, monkeypatch, tmp_path, over_exposure_check):
    from arbiter.cli import main

    table = Table(morris, monkeypatch)
    monkeypatch.setattr(cv2, "VideoCapture", lambda src: FakeCapture(exposure=400, frames=table.frame,
                                                                      refuse=(AUTO, EXPOSURE)))
    result = CliRunner().invoke(main, ["calibrate", "nine-mens-morris", "--camera", "0", "--width", "640",
                                       "--height", "480", "--out", str(tmp_path / "cal.json")])
    text = " ".join(result.output.split())
    assert result.exit_code == 1, result.output
    assert "calibration failed: the empty board picture is over-exposed" in text
    assert "this camera does not let arbiter set its exposure: it refused exposure 200" in text and "v4l2-ctl" in text
    assert table.prompts == 2


def test_calibrate_from_files_says_how_to_fix_the_exposure(morris, monkeypatch, tmp_path, over_exposure_check):
    from arbiter.cli import main

    empty, pieces = tmp_path / "empty.png", tmp_path / "pieces.png"
    cv2.imwrite(str(empty), np.clip(morris["empty"].astype(np.float32) * 3, 0, 255).astype(np.uint8))
    cv2.imwrite(str(pieces), morris["pieces"])
    result = CliRunner().invoke(main, ["calibrate", "nine-mens-morris", "--empty", str(empty), "--pieces", str(pieces),
                                       "--out", str(tmp_path / "cal.json")])
    text = " ".join(result.output.split())
    assert result.exit_code == 1 and "over-exposed" in text and "arbiter camera snapshot --exposure" in text


# ---------------------------------------------------------------------------- arbiter play
def test_play_passes_the_exposure_to_the_camera(tmp_path, monkeypatch):
    """`arbiter play --exposure 120 --gain 2` opens the camera with those settings and shows
    what the camera refused, as calibrate does."""
    import vision.capture as capture
    from arbiter.cli import play as play_cli
    from vision.calibration import calibrate, calibration_layout
    from vision import sim

    g = engine.load("tapatan")
    layout, _ = calibration_layout(g)
    shots = [sim.simulate(sim.simple_scene(g.board, pos), 1000, sim.CameraSettings(size=(640, 480))).image
             for pos in ({}, layout)]
    path = tmp_path / "cal.json"
    calibrate(g, *shots, position=layout).save(path)
    opened = {}

    class FakeCamera:
        def __init__(self, settings):
            opened["settings"] = settings
            self.exposure_problems = ["this camera does not let arbiter set its exposure: test"]

        def open(self):
            opened["open"] = True

        def close(self):
            pass

    monkeypatch.setattr(capture, "Camera", FakeCamera)
    reader, _pressers = play_cli._open_camera(g, str(path), "0", "opencv", 640, 480, "none",
                                              exposure=120.0, gain=2.0, ev=None)
    s = opened["settings"]
    assert opened["open"] and (s.exposure, s.gain, s.ev) == (120.0, 2.0, None)
    assert reader.camera is not None


def test_play_refuses_exposure_without_a_camera():
    from click.testing import CliRunner
    from arbiter.cli import main

    result = CliRunner().invoke(main, ["play", "tapatan", "--reader", "sim", "--exposure", "100"])
    assert result.exit_code == 2 and "for --reader camera" in result.output, result.output


def test_play_steps_the_exposure_down_when_frames_are_over_exposed(tmp_path):
    """A frame the reader cannot read for its exposure (the paper clipped white) makes the play
    loop step the camera's exposure down, at most once per EXPOSURE_STEP_S; then frames read."""
    from vision.camera_reader import CameraReader
    from engine.observation import spots_of, view
    from vision.calibration import calibrate, calibration_layout
    from vision.capture import Frame
    from vision.reader import BoardReader

    g = engine.load("tapatan")
    layout, _ = calibration_layout(g)
    shots = [sim.simulate(sim.simple_scene(g.board, pos), 1000, sim.CameraSettings(size=(640, 480))).image
             for pos in ({}, layout)]
    reader = BoardReader(calibrate(g, *shots, position=layout))
    steps = []

    class Cam:
        gain = 3.0  # too bright until lowered twice
        exposure_refused = None

        def read(self):
            img = np.clip(shots[1].astype(np.float32) * self.gain, 0, 255).astype(np.uint8)
            return Frame(img, 0.0)

        def adjust_exposure(self, change):
            steps.append(change)
            self.gain /= 1.6
            return f"{change}ed the exposure"

    now = [0.0]
    cam = CameraReader(Cam(), reader, clock=lambda: now[0])
    obs = cam.read()
    assert obs.occluded and "over-exposed" in obs.reason and steps == ["lower"]
    assert cam.health().problem == "lowered the exposure", "the screen says what was done while it is unreadable"
    assert cam.read().occluded and steps == ["lower"], "a second step waits for the picture to settle"
    now[0] += CameraReader.EXPOSURE_STEP_S
    cam.read()
    assert steps == ["lower", "lower"]
    obs = cam.read()
    assert not obs.occluded and obs.view() == view(layout, spots_of(g))
    assert cam.exposure_note == "lowered the exposure"
    assert cam.health().ok, "once the frames read, the exposure is nothing to show"


def test_reader_refuses_dark_and_over_exposed_frames_saying_which_way():
    from engine.observation import spots_of, view
    from vision.calibration import calibrate, calibration_layout
    from vision.reader import BoardReader

    g = engine.load("tapatan")
    layout, _ = calibration_layout(g)
    shots = [sim.simulate(sim.simple_scene(g.board, pos), 1000, sim.CameraSettings(size=(640, 480))).image
             for pos in ({}, layout)]
    reader = BoardReader(calibrate(g, *shots, position=layout))
    # White men on paper clipped white: refused, saying to lower the exposure.
    bright = np.clip(shots[1].astype(np.float32) * 3.0, 0, 255).astype(np.uint8)
    obs = reader.read(bright)
    assert obs.occluded and "over-exposed" in obs.reason and reader.last.exposure == "lower"
    dark = (shots[0].astype(np.float32) * 0.15).astype(np.uint8)
    obs = reader.read(dark)
    assert obs.occluded and "too dark" in obs.reason and reader.last.exposure == "raise"
    assert not reader.read(shots[0]).occluded and reader.last.exposure == ""
