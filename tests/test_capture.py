"""Camera capture through the real OpenCV VideoCapture (on a video file) and its recovery rules."""

import cv2
import numpy as np
import pytest

from vision.capture import Camera, CameraError, CameraSettings


@pytest.fixture
def video(tmp_path):
    path = str(tmp_path / "clip.avi")
    writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    assert writer.isOpened()
    for k in range(3):
        writer.write(np.full((120, 160, 3), 60 * (k + 1), np.uint8))
    writer.release()
    return path


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_frames_come_from_the_real_capture_library(video):
    cam = Camera(CameraSettings(source=video), clock=Clock())
    cam.open()
    frames = [cam.read() for _ in range(3)]
    assert all(f.image is not None and f.image.shape == (120, 160, 3) for f in frames)
    assert frames[0].image.mean() < frames[2].image.mean()
    assert cam.size == (160, 120)


def test_a_vanished_camera_is_reported_then_reopened(video):
    clock = Clock()
    cam = Camera(CameraSettings(source=video, retry_seconds=2.0), clock=clock)
    cam.open()
    for _ in range(3):
        cam.read()
    gone = cam.read()  # the clip has ended: like a camera that stopped delivering
    assert gone.image is None and "no frame" in gone.problem and cam.failures == 1
    clock.t = 1.0
    waiting = cam.read()
    assert waiting.image is None and "waiting" in waiting.problem and cam.reopened == 0
    clock.t = 2.5
    back = cam.read()
    assert back.image is not None and cam.reopened == 1


def test_a_driver_exception_does_not_escape(video):
    class Broken:
        def __init__(self, src):
            self.calls = 0

        def isOpened(self):
            return True

        def set(self, *a):
            return True

        def read(self):
            raise OSError("USB device disconnected")

        def release(self):
            raise OSError("already gone")

    cam = Camera(CameraSettings(source=0), clock=Clock(), opener=Broken)
    cam.open()
    frame = cam.read()
    assert frame.image is None and "USB device disconnected" in frame.problem


def test_unopenable_camera_and_unknown_backend_are_clear_errors(tmp_path):
    with pytest.raises(CameraError, match="cannot open camera"):
        Camera(CameraSettings(source=str(tmp_path / "missing.avi"))).open()
    with pytest.raises(CameraError, match="unknown camera backend"):
        Camera(CameraSettings(backend="webcam9000")).open()


def test_picamera2_backend_without_the_library_says_what_to_install():
    try:
        import picamera2  # noqa: F401
        pytest.skip("picamera2 is installed here")
    except ImportError:
        pass
    with pytest.raises(CameraError, match="picamera2"):
        Camera(CameraSettings(backend="picamera2")).open()


def test_camera_cli_lists_and_snapshots(video, tmp_path):
    from click.testing import CliRunner

    from arbiter.cli import main

    runner = CliRunner()
    listing = runner.invoke(main, ["camera", "list"])
    assert listing.exit_code == 0 and ("camera" in listing.output or "No cameras" in listing.output)
    out = tmp_path / "snap.png"
    shot = runner.invoke(main, ["camera", "snapshot", "--camera", video, "--out", str(out), "--warmup", "1"])
    assert shot.exit_code == 0, shot.output
    assert cv2.imread(str(out)).shape == (120, 160, 3)
    bad = runner.invoke(main, ["camera", "snapshot", "--camera", str(tmp_path / "none.avi")])
    assert bad.exit_code == 2 and "cannot open camera" in bad.output
