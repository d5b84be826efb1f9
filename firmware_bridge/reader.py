"""A sensor board as a board reader: the link's cells, through the sensor map, as an Observation.

    reader = SerialReader(link, sensor_map, game)
    obs = reader.read()          # never raises: a lost board is an occluded Observation
    reader.health()              # the board unplugged, the line too noisy ..., or HEALTHY

This is ``engine.reader.Reader`` for a sensor board (``arbiter play --reader serial``).

``sees`` is the board's own sensing kind: ``occupancy`` (reed switches: a piece or not) or
``polarity`` (hall sensors under magnets: player 1's pieces north side down, player 2's south).
A cell that reports a fault is an unread spot (``Reading.unknown``), never an empty one: read as
empty, a man standing on a broken sensor could be "removed" by a player who never touched it.
The referee weighs every value the game allows there, so a broken sensor stops the game only
when a step turns on that spot ("I can't read a7: the sensor under it reports a fault";
``arbiter sensor-monitor --test`` finds it).
"""

from __future__ import annotations

from engine.core import Piece
from engine.observation import Observation, Reading, spots_of
from engine.reader import ReaderHealth

from . import wire
from .host import SensorLink
from .maps import SensorMap

__all__ = ["SerialReader"]

_PIECES = {wire.NORTH: Piece(1, "piece"), wire.SOUTH: Piece(2, "piece")}
_OCCUPIED = Piece(0, "piece")
FAULT_NOTE = "the sensor under it reports a fault"
# A resync (a change report lost, the whole board asked for again) mends itself within a full
# scan's round trip, usually in tens of milliseconds: health says nothing of it until it has lasted
# this long, so the status line does not flash "out of step" at every lost report. Frames stay
# unread meanwhile (``read`` blocks them), so nothing is judged on a copy that may be wrong.
RESYNC_QUIET_S = 0.5


class SerialReader:
    """Reads ``game``'s spots off a sensor board. ``wait``: seconds ``read`` may wait for bytes
    (the loop's pace: 10 ms reads a 100 Hz board as fast as it scans, without spinning)."""

    frame_s = 0.02  # how often a simulated table should poll it (the stabiliser's 50 Hz)

    def __init__(self, link: SensorLink, sensor_map: SensorMap, game, *, wait: float = 0.01):
        if link.info is None:
            raise ValueError("open the link before making a reader of it")
        sensor_map.check_device(link.info.rows, link.info.cols)
        self.link = link
        self.map = sensor_map
        self.game = game
        self.sees = link.info.sensing
        self.wait = wait
        self.spots = spots_of(game)
        missing = [s for s in self.spots if s not in sensor_map.cells]
        if missing:
            raise ValueError(f"the sensor map has no cell for {', '.join(missing[:5])}")
        self._index = [(s, sensor_map.cells[s]) for s in self.spots]
        self._cache: tuple[tuple[int, ...], Observation] | None = None
        self.reads = 0
        self._resync_since: float | None = None  # when the link fell out of step (health's quiet time)

    def read(self) -> Observation:
        self.reads += 1
        link = self.link
        try:
            link.poll(self.wait)
        except Exception as exc:  # pragma: no cover - poll never raises; a bug must not end a game
            return Observation.blocked(f"sensor board: {exc}", self.sees)
        if not link.ready:
            return Observation.blocked(link.problem or "the sensor board is not ready", self.sees)
        cells = link.cells
        key = tuple(cells[c] for _, c in self._index)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        obs = self.observation(key)
        self._cache = (key, obs)
        return obs

    def health(self) -> ReaderHealth:
        """Why the board cannot be read now (unplugged, out of step, refused at the handshake),
        then what a player should know while it can (``SensorLink.warning``: the line too noisy,
        cells the board does not have)."""
        link = self.link
        down = None if link.ready else (link.problem or "the sensor board is not ready")
        resyncing = (not link.ready and link.serial is not None and link.hello_seen and link.refused is None
                     and not link.in_sync)
        if not resyncing:
            self._resync_since = None
        else:
            t = link.now()
            if self._resync_since is None:
                self._resync_since = t
            if t - self._resync_since < RESYNC_QUIET_S:
                down = None  # a resync under way: said only if it lasts (RESYNC_QUIET_S)
        return ReaderHealth.of(down, link.warning)

    def observation(self, states) -> Observation:
        """The Observation of one state per spot (in ``spots`` order)."""
        points = {}
        polarity = self.sees == "polarity"
        for (spot, _), v in zip(self._index, states):
            if v == wire.EMPTY:
                points[spot] = Reading(None, 1.0)
            elif v == wire.FAULT:
                points[spot] = Reading.unknown(FAULT_NOTE)
            elif polarity:
                points[spot] = Reading(_PIECES[v], 1.0)
            else:
                points[spot] = Reading(_OCCUPIED, 1.0)
        return Observation(points, self.sees)
