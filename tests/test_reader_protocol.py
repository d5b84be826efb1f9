"""One Reader protocol (``engine.reader``): every reader the program has implements it, and the
screen shows any reader's trouble through the one call, ``health()``, without knowing which
reader it is.

The readers: the real camera (``vision.camera_reader.CameraReader``), a serial sensor board
(``firmware_bridge.reader.SerialReader``, and ``LockstepReader`` at a simulated table), and the
simulators (``arbiter.sim``: ``SimReader``, ``SensorGrid``, ``SimCamera``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine
from engine.core import Piece
from engine.observation import SEES, Observation, spots_of, view
from engine.reader import HEALTHY, Reader, ReaderHealth
from firmware_bridge.reader import SerialReader
from vision.camera_reader import CameraReader
from vision.capture import Frame

from arbiter.screen import status_line
from arbiter.session import Session, SimClock
from arbiter.sim.physical import PhysicalBoard, SensorGrid, SimCamera
from arbiter.sim.readers import SimReader, colour_reader, occupancy_reader
from arbiter.sim.sensor import LockstepReader, serial_table

ROOT = Path(__file__).resolve().parent.parent


class LostCamera:
    """A camera unplugged from the Pi: no picture, in ``vision.capture.Camera``'s own words."""

    exposure_refused = None

    def read(self):
        return Frame(None, 0.0, "camera lost; reopening failed: no device at index 0")

    def adjust_exposure(self, change):  # pragma: no cover - no frame, nothing to step
        raise AssertionError("no frame was read, so no exposure should be stepped")


class StillCamera:
    """A camera that gives one picture over and over."""

    exposure_refused = None

    def __init__(self, image):
        self.image = image

    def read(self):
        return Frame(self.image, 0.0)

    def adjust_exposure(self, change):  # pragma: no cover - the picture is readable
        raise AssertionError("a readable picture needs no exposure step")


@pytest.fixture(scope="module")
def tapatan_board():
    g = engine.load("tapatan")
    return PhysicalBoard.of_state(g, g.new().play("d4"))


def _check(reader, sees=None):
    assert isinstance(reader, Reader), f"{type(reader).__name__} is not an engine.reader.Reader"
    assert reader.sees in SEES
    if sees is not None:
        assert reader.sees == sees
    health = reader.health()
    assert isinstance(health, ReaderHealth)
    obs = reader.read()
    assert isinstance(obs, Observation) and obs.sees == reader.sees
    return obs, health


# ============================================================================ every reader is one
def test_the_simulated_readers_are_readers(tapatan_board):
    g = tapatan_board.game
    for reader, sees in ((SimReader(g, "polarity", board=tapatan_board.position), "polarity"),
                         (colour_reader(g), "colour"), (occupancy_reader(g), "occupancy")):
        if reader.board is None:
            reader.board = g.new().play("d4")  # a state, as the referee's tests give it
        obs, health = _check(reader, sees)
        assert health is HEALTHY and obs.view() == view(tapatan_board.position, spots_of(g), sees)
    grid = SensorGrid(tapatan_board)
    obs, health = _check(grid, "occupancy")
    assert health.ok and not obs.occluded
    camera = SimCamera(tapatan_board)
    obs, health = _check(camera, "colour")
    assert health.ok and obs.view() == view(tapatan_board.position, spots_of(g))


def test_a_sim_reader_given_no_board_says_so():
    reader = colour_reader(engine.load("tapatan"))
    with pytest.raises(ValueError, match="watches no board"):
        reader.read()
    assert reader.read(engine.load("tapatan").new()).sees == "colour"  # a board given is read as before


def test_the_camera_reader_is_a_reader_and_reads_through_the_real_vision_code(tapatan_board):
    sim = SimCamera(tapatan_board)
    reader = CameraReader(StillCamera(sim.image()), sim.reader)
    obs, health = _check(reader, "colour")
    assert health is HEALTHY and obs.view() == view(tapatan_board.position, spots_of(tapatan_board.game))


@pytest.mark.parametrize("sensing", ["occupancy", "polarity"])
def test_a_sensor_board_is_a_reader_whatever_it_senses(sensing):
    table, rig = serial_table("tapatan", sensing=sensing, history=["d4"])
    try:
        table.wait(0.2)
        reader = table.reader
        assert isinstance(reader, LockstepReader) and isinstance(reader, SerialReader)
        obs, health = _check(reader, sensing)
        assert health is HEALTHY and not obs.occluded
        assert obs.view()["d4"] is not None
    finally:
        rig.stop()


def test_the_session_takes_any_reader_by_the_protocol_alone(tapatan_board):
    """A reader that is nothing but the protocol (no class of ours) runs a session."""

    class Bare:
        sees = "occupancy"

        def read(self):
            return Observation.of_position({}, spots_of(tapatan_board.game), self.sees)

        def health(self):
            return HEALTHY

    assert isinstance(Bare(), Reader)
    session = Session(tapatan_board.game, Bare(), now=SimClock())
    session.start()
    session.poll()
    assert session.reader_health() is HEALTHY


# ============================================================================ health on the screen
def _session(game, reader):
    clock = SimClock()
    session = Session(game, reader, now=clock)
    session.start()
    return session, clock


def test_the_screen_shows_a_lost_camera_through_health(tapatan_board):
    reader = CameraReader(LostCamera(), SimCamera(tapatan_board).reader)
    session, clock = _session(tapatan_board.game, reader)
    session.poll()
    assert reader.health().problem == "camera lost; reopening failed: no device at index 0"
    assert "camera lost; reopening failed" in status_line(session, clock())


def test_the_camera_is_well_again_once_it_gives_pictures(tapatan_board):
    sim = SimCamera(tapatan_board)
    cam = LostCamera()
    reader = CameraReader(cam, sim.reader)
    reader.read()
    assert not reader.health().ok
    cam.read = StillCamera(sim.image()).read  # plugged back in
    reader.read()
    assert reader.health() is HEALTHY


def test_the_screen_shows_why_a_camera_cannot_have_its_exposure_stepped(tapatan_board):
    """Frames clipped white from a camera that refuses exposure changes: health says so, with
    what to do by hand, while the frames stay unreadable."""
    import numpy as np

    sim = SimCamera(tapatan_board)
    glare = np.clip(sim.image().astype(np.float32) * 3.0, 0, 255).astype(np.uint8)

    class Stubborn(StillCamera):
        exposure_refused = None

        def adjust_exposure(self, change):
            self.exposure_refused = ("this camera does not let arbiter set its exposure: it is fixed. "
                                     "To fix it, set it by hand")
            return None

    reader = CameraReader(Stubborn(glare), sim.reader)
    session, clock = _session(tapatan_board.game, reader)
    session.poll()
    assert "does not let arbiter set its exposure" in reader.health().problem
    assert "set it by hand" in status_line(session, clock())


def test_the_screen_shows_a_noisy_line_through_health():
    table, rig = serial_table("tapatan", device={"bit_errors": 0.10, "seed": 0})
    try:
        table.wait(4.0)
        problem = table.reader.health().problem
        assert problem is not None and "too noisy" in problem
        line = status_line(table.session, table.time.t)
        assert "too noisy" in line and "cable" in line
    finally:
        rig.stop()


def test_the_screen_shows_an_unplugged_board_through_health():
    table, rig = serial_table("tapatan")
    try:
        table.wait(0.2)
        assert table.reader.health() is HEALTHY
        assert "unplugged" not in status_line(table.session, table.time.t)
        rig.device.unplug()
        table.wait(0.2)
        assert "unplugged" in table.reader.health().problem
        assert "unplugged" in status_line(table.session, table.time.t)
    finally:
        rig.stop()


def test_a_reader_whose_health_fails_does_not_stop_the_screen(tapatan_board):
    class Broken(SimReader):
        def health(self):
            raise RuntimeError("the reader's own bug")

    reader = Broken(tapatan_board.game, board={})
    session, clock = _session(tapatan_board.game, reader)
    session.poll()
    assert session.reader_health() is HEALTHY
    assert "to move" in status_line(session, clock())


def test_reader_health_is_one_line_of_words_or_none():
    assert ReaderHealth.of(None, "", None) is HEALTHY and HEALTHY.ok
    assert ReaderHealth.of("the board is unplugged", "the line is noisy").problem == \
        "the board is unplugged; the line is noisy"
    for bad in ("", "   ", 3):
        with pytest.raises(ValueError):
            ReaderHealth(bad)
    with pytest.raises(AttributeError):
        HEALTHY.problem = "changed"  # frozen: one shared value


# ============================================================================ where the readers live
def _classes_with_read_and_sees(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            names = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
            assigned = {t.id for n in node.body if isinstance(n, (ast.Assign, ast.AnnAssign))
                        for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)}
            if "read" in names and "sees" in assigned:
                found.append(node.name)
    return found


def test_no_reader_is_defined_in_the_command_line_and_the_simulators_live_in_arbiter_sim():
    """The camera reader lives in vision, the simulators in arbiter/sim: the command line only
    chooses a reader, and the rest of arbiter only uses one."""
    for path in sorted((ROOT / "arbiter").rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[:2] == ("arbiter", "sim"):
            continue
        assert not _classes_with_read_and_sees(path), f"{rel} defines a reader: readers belong in vision/, " \
                                                      f"firmware_bridge/ or arbiter/sim/"
    for old in ("sim_readers", "physical", "sensor_sim", "scenario", "demo"):
        assert not (ROOT / "arbiter" / f"{old}.py").exists(), f"arbiter/{old}.py is back outside arbiter/sim/"


def test_a_short_resync_does_not_flash_on_the_status_line_but_a_long_one_and_an_unplug_do():
    """A lost change report puts the link out of step until the full scan it asks for comes
    back, usually within milliseconds: the screen stays quiet for that (the frames meanwhile are
    not read), says so once it lasts RESYNC_QUIET_S, and says an unplugged board at once."""
    from types import SimpleNamespace

    from firmware_bridge.maps import default_map
    from firmware_bridge.reader import RESYNC_QUIET_S, SerialReader

    g = engine.load("tapatan")
    m = default_map(g.rules.board)
    now = [100.0]
    link = SimpleNamespace(info=SimpleNamespace(rows=m.rows, cols=m.cols, sensing="occupancy"), ready=True,
                           serial=object(), hello_seen=True, refused=None, in_sync=True, problem=None,
                           warning=None, now=lambda: now[0])
    reader = SerialReader(link, m, g)
    assert reader.health() is HEALTHY
    lost = "a report from the sensor board was lost; reading the whole board again"
    link.ready, link.in_sync, link.problem = False, False, lost
    assert reader.health() is HEALTHY  # just fell out of step
    now[0] += RESYNC_QUIET_S / 2
    assert reader.health() is HEALTHY  # still mending: nothing to say yet
    link.ready, link.in_sync, link.problem = True, True, None  # the full scan came back
    assert reader.health() is HEALTHY
    link.ready, link.in_sync, link.problem = False, False, lost  # lost again, and for long
    assert reader.health() is HEALTHY
    now[0] += RESYNC_QUIET_S + 0.01
    assert reader.health().problem == lost
    link.serial, link.problem = None, "the sensor board is unplugged (gone); plug it back in"
    assert "unplugged" in reader.health().problem  # an unplug is said at once
