"""The simulated physical board: real pieces on a real table, for scripted players to act on.

``arbiter.sim.readers`` hands the referee perfect readings of engine positions, which proves the
referee's logic. This module is one step closer to the product: a board on a table that players
*do things to* (lift a piece, put it down, slide it across points, knock it off its point, hold
a hand over the board, bump the camera), watched by the same readers a real board has (each an
``engine.reader.Reader``, as the real camera and sensor board are):

- ``SimCamera``: the board drawn as printed (``vision.sim.simple_scene``), photographed by the
  seeded simulated camera (``vision.sim.simulate``; a hand over the board is drawn in), and read
  by the REAL ``vision.reader.BoardReader`` after the REAL ``vision.calibration.calibrate``. So
  every frame the referee judges went through registration, light correction, hand detection and
  classification exactly as on the Pi.
- ``SensorGrid``: a reed-switch grid under the board: occupancy only, and blind to hands.

The board knows nothing of rules: it holds pieces where they were put. That is the point: a
player can put anything anywhere, and the referee has to make sense of it.

Speed and determinism. A camera frame costs ~0.1 s to simulate (0.2-0.4 s for the Brain Hanky
cloth), so frames are cached per (board, frame size, camera mount, hand, pieces): a board that
holds still is simulated once, however many frames the stabiliser asks for, and a position seen
again (a piece put back) is not drawn again. The camera pose is fixed per *mount* (a seed), as a
camera on its arm is; ``bump()`` moves it to a new seed, a new pose, and the reader finds the
board again by its markers. The same frame is read only once per camera (``BoardReader.read`` is
deterministic), which keeps a long simulated game fast without skipping the vision code.
"""

from __future__ import annotations

import json
import os
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from itertools import pairwise
from pathlib import Path
from typing import Any

import engine
from engine.core import Piece
from engine.observation import Observation
from engine.reader import HEALTHY, ReaderHealth

__all__ = ["PhysicalBoard", "PhysicalError", "SensorGrid", "SimCamera", "camera_size", "parse_piece",
           "piece_words", "sim_calibration"]


class PhysicalError(ValueError):
    """Something no hand can do to the board: lift from an empty point, put two pieces on one."""


def piece_words(game, piece: Piece) -> str:
    """A piece as players call it: "white man", "gold gem", "yellow ring"."""
    return game.rules.piece_name(piece.owner, piece.kind)


def _colour_words(rules) -> dict[str, tuple[int, str | None]]:
    """Every word a player may call a piece by -> (owner, kind, or None when the word says none):
    the colour names ("white", "yellow") and, where a kind has its own colour word (a Brain Hanky
    "gold" gem), that word too."""
    words: dict[str, tuple[int, str | None]] = {}
    for owner in range(1, rules.colours + 1):
        words.setdefault(rules.colour_name(owner).lower(), (owner, None))
        for kind in rules.piece_kinds:
            first = rules.piece_name(owner, kind).lower().split()[0]
            words.setdefault(first, (owner, kind))
    return words


def parse_piece(game, words: Iterable[str] | str, spot: str | None = None) -> Piece:
    """A piece from players' words: "white", "black man", "2", "yellow ring", "gold gem", "gold".

    Without a kind, the piece is of the kind that stands on ``spot`` (a Brain Hanky gem on a gem
    square, a ring elsewhere; a man on a morris board). A colour word that belongs to one kind
    ("gold") says both owner and kind.
    """
    parts = words.split() if isinstance(words, str) else list(words)
    if not parts:
        raise PhysicalError("which piece? say its colour, such as white or black")
    colour, kind = parts[0].lower(), (parts[1].lower() if len(parts) > 1 else None)
    rules = game.rules
    known = _colour_words(rules)
    if colour.isdigit():
        owner = int(colour)
    elif colour in known:
        owner, said = known[colour]
        kind = kind or said
    else:
        names = ", ".join(rules.colour_name(o) for o in range(1, rules.colours + 1))
        raise PhysicalError(f"no pieces are called {colour!r} here (the colours: {names})")
    if kind is None:
        kind = rules.kind_at(spot) if spot is not None else rules.piece_kinds[0]
    return Piece(owner, kind)


class PhysicalBoard:
    """The board on the table: what stands on each spot, whether a hand is over it, the camera mount.

    ``position`` holds what a camera sees on each spot, the top piece; where the game lets
    pieces stand on each other (``Rules.stack_limit``: Stack's chips, Tableaux's), ``under`` holds
    the pieces beneath, bottom first. ``held`` are pieces in the players' hands (lifted and not
    yet put down, or taken off the board). Every change calls the ``on_change`` callbacks (the simulator saves the board to a
    file there, so a resumed game finds the board as the crash left it) and bumps ``version``.
    """

    def __init__(self, game, position: Mapping[str, Piece] | None = None, *, mount: int = 1):
        self.game = engine.load(game) if isinstance(game, str) else game
        self.spots = self.game.rules.spots
        self._spot_set = frozenset(self.spots)
        self.position: dict[str, Piece] = {}
        self.under: dict[str, list[Piece]] = {}
        self.limit = max(1, int(getattr(self.game.rules, "stack_limit", 1)))
        for spot, piece in (position or {}).items():
            self._check_spot(spot)
            self.position[spot] = Piece(*piece)
        self.hand_over = False
        self.mount = int(mount)
        self.held: list[Piece] = []
        self.version = 0
        self.on_change: list[Callable[[PhysicalBoard], None]] = []

    @classmethod
    def of_state(cls, game, state, *, mount: int = 1) -> PhysicalBoard:
        """A board set up as ``state`` shows it (players laying out a position, or a resumed game)."""
        board = cls(game, state.position(), mount=mount)
        board.under = {s: list(state.stack(s)[:-1]) for s in board.position if len(state.stack(s)) > 1}
        return board

    def stack(self, spot: str) -> tuple[Piece, ...]:
        """Everything on ``spot``, bottom first."""
        top = self.position.get(spot)
        return () if top is None else tuple(self.under.get(spot, ())) + (top,)

    # ---------------------------------------------------------------- looking
    def key(self) -> frozenset:
        """The pieces on the board as a hashable value (what a camera frame depends on)."""
        return frozenset(self.position.items())

    def __repr__(self) -> str:
        pcs = " ".join(f"{s}={p.owner}{p.kind[0]}" for s, p in sorted(self.position.items()))
        return f"PhysicalBoard({self.game.name}, {pcs or 'empty'}{', hand over it' if self.hand_over else ''})"

    # ---------------------------------------------------------------- acting
    def _check_spot(self, spot: str) -> None:
        if spot not in self._spot_set:
            raise PhysicalError(f"{spot} is not a point of the {self.game.board.name} board")

    def _changed(self) -> None:
        self.version += 1
        for callback in list(self.on_change):
            callback(self)

    def put(self, spot: str, piece: Piece | None = None) -> None:
        """Put ``piece`` on ``spot``: by default the piece last lifted, else a new one from beside the board."""
        self._check_spot(spot)
        if spot in self.position and len(self.stack(spot)) >= self.limit:
            held = self.position[spot]
            if self.limit == 1:
                raise PhysicalError(f"{spot} already holds a {piece_words(self.game, held)}")
            raise PhysicalError(f"{spot} already holds a stack of {self.limit}: no more fit")
        if piece is None:
            if not self.held:
                raise PhysicalError(f"no piece in hand to put on {spot}: say which piece")
            piece = self.held.pop()
        elif piece in self.held:
            self.held.remove(piece)
        if spot in self.position:
            self.under.setdefault(spot, []).append(self.position[spot])
        self.position[spot] = Piece(*piece)
        self._changed()

    def lift(self, spot: str) -> Piece:
        """Lift the piece on ``spot`` into a hand (to put it down again: ``put(spot)``)."""
        self._check_spot(spot)
        if spot not in self.position:
            raise PhysicalError(f"there is no piece on {spot} to lift")
        piece = self._pop(spot)
        self.held.append(piece)
        self._changed()
        return piece

    def _pop(self, spot: str) -> Piece:
        """The top piece off ``spot``; the one beneath it, if any, is the top now."""
        piece = self.position.pop(spot)
        below = self.under.get(spot)
        if below:
            self.position[spot] = below.pop()
            if not below:
                del self.under[spot]
        return piece

    def take(self, spot: str) -> Piece:
        """Take what stands on ``spot`` off the board for good, a whole stack at once (a removal,
        a captured gem lifted, a confiscated stack); returns the top piece."""
        self._check_spot(spot)
        if spot not in self.position:
            raise PhysicalError(f"there is no piece on {spot} to take")
        self.under.pop(spot, None)
        piece = self.position.pop(spot)
        self._changed()
        return piece

    def take_chips(self, count: int, spots: Iterable[str] = ()) -> None:
        """Take ``count`` pieces off: everything on ``spots``, then single pieces from the spots
        that hold one, last spot first, then the tops of stacks (Tableaux: a play of ``count``)."""
        spots = list(spots)
        taken = 0
        for spot in spots:
            taken += len(self.stack(spot))
            self.take(spot)
        while taken < count:
            singles = [s for s in reversed(self.spots) if s in self.position and s not in self.under]
            stacked = [s for s in reversed(self.spots) if s in self.under]
            if not singles and not stacked:
                break
            self.lift((singles or stacked)[0])
            self.held.pop()
            taken += 1
        if taken != count:
            raise PhysicalError(f"{count} pieces to take, but {taken} came off")

    def move(self, src: str, dst: str) -> None:
        """Lift the piece on ``src`` and put it on ``dst`` (two changes; nothing is seen between)."""
        piece = self.lift(src)
        self.put(dst, piece)

    def push(self, path: Iterable[str]) -> None:
        """A string move: every piece on ``path`` moves on one place along it (Brain Hanky).

        The first point empties, the last (empty) point fills, and each point between takes the
        ring that stood before it, which is how a string of rings recolours (BH-3).
        """
        path = list(path)
        if len(path) < 2:
            raise PhysicalError("a ring move needs at least two points")
        for spot in path:
            self._check_spot(spot)
        if path[-1] in self.position:
            raise PhysicalError(f"the last point of a push must be empty; {path[-1]} is not")
        missing = [s for s in path[:-1] if s not in self.position]
        if missing:
            raise PhysicalError(f"no ring on {missing[0]} to push")
        before = {s: self.position[s] for s in path[:-1]}
        del self.position[path[0]]
        for src, dst in pairwise(path):
            self.position[dst] = before[src]
        self._changed()

    def knock(self, spot: str, onto: str | None = None) -> None:
        """Knock the piece on ``spot`` off its point: onto the free point ``onto``, or off the board
        (it rolls onto the table, out of the readers' sight, and is set beside the board)."""
        self._check_spot(spot)
        if spot not in self.position:
            raise PhysicalError(f"there is no piece on {spot} to knock")
        if onto is not None:
            self._check_spot(onto)
            if onto in self.position:
                raise PhysicalError(f"{onto} is taken; a knocked piece cannot land there")
        piece = self._pop(spot)
        if onto is not None:
            self.position[onto] = piece
        self._changed()

    def arrange(self, position: Mapping[str, Piece], under: Mapping[str, Iterable[Piece]] | None = None) -> None:
        """Lay the whole board out as ``position`` (setting up, or putting everything right), with
        the pieces ``under`` the tops where pieces stack."""
        for spot in position:
            self._check_spot(spot)
        self.position = {s: Piece(*p) for s, p in position.items()}
        self.under = {s: [Piece(*p) for p in ps] for s, ps in (under or {}).items() if ps and s in self.position}
        self._changed()

    def cover(self) -> None:
        """A hand (and arm) over the board."""
        if not self.hand_over:
            self.hand_over = True
            self._changed()

    def uncover(self) -> None:
        if self.hand_over:
            self.hand_over = False
            self._changed()

    def bump(self, mount: int | None = None) -> None:
        """Knock the camera on its arm: it now looks from another pose (another seed)."""
        self.mount = int(mount) if mount is not None else self.mount + 7919
        self._changed()

    # ---------------------------------------------------------------- a file that outlives a crash
    def to_json(self) -> dict[str, Any]:
        out = {"game": self.game.name, "mount": self.mount, "hand_over": self.hand_over,
               "position": {s: [p.owner, p.kind] for s, p in sorted(self.position.items())}}
        if self.under:
            out["under"] = {s: [[p.owner, p.kind] for p in ps] for s, ps in sorted(self.under.items())}
        return out

    @classmethod
    def from_json(cls, game, data: Mapping[str, Any]) -> PhysicalBoard:
        g = engine.load(game) if isinstance(game, str) else game
        if data.get("game") != g.name:
            raise PhysicalError(f"the saved board is a {data.get('game')} board, not {g.name}")
        board = cls(g, {s: Piece(int(o), str(k)) for s, (o, k) in data.get("position", {}).items()},
                    mount=int(data.get("mount", 1)))
        board.hand_over = bool(data.get("hand_over", False))
        board.under = {s: [Piece(int(o), str(k)) for o, k in ps] for s, ps in data.get("under", {}).items()
                       if s in board.position}
        return board

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the board to ``path`` (temporary file and rename: whole or not at all).

        No fsync: this stands for the physical world, which a killed process cannot lose; only
        a power cut could, and then the real board is still on the table.
        """
        from ..files import write_atomic

        write_atomic(path, json.dumps(self.to_json()), sync=False)

    @classmethod
    def load(cls, game, path: str | os.PathLike[str]) -> PhysicalBoard:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError) as exc:
            raise PhysicalError(f"cannot read the simulated board {path}: {exc}") from None
        return cls.from_json(game, data)


# ============================================================================ readers
class SensorGrid:
    """A reed-switch grid under the board: which spots hold a piece, nothing more.

    It feels magnets, not hands, so a hand over the board changes nothing; a grid is scanned
    fast (``frame_s`` 0.02 s: 50 Hz).
    """

    sees = "occupancy"
    frame_s = 0.02

    def __init__(self, board: PhysicalBoard):
        from .readers import occupancy_reader

        self.board = board
        self.reader = occupancy_reader(board.game)
        self.reads = 0
        self.broken: dict[str, str] = {}  # spot -> why its switch cannot be read (a test's broken sensor)

    def read(self) -> Observation:
        self.reads += 1
        return self.reader.read(self.board.position, self.broken)

    def health(self) -> ReaderHealth:
        """Always well: a broken switch is an unread spot of a working grid (``broken``)."""
        return HEALTHY


def camera_size(game) -> tuple[int, int]:
    """The simulated camera's frame size: the smallest its pieces read reliably at, as the
    reader's data for the game says (``vision.families.Family.frame``): 480x360 for every morris
    board, 800x600 for the Brain Hanky cloth's small rings (docs/calibration.md)."""
    from vision.families import family_for

    return family_for(game).frame


def _settings(size: tuple[int, int], hand: bool):
    from vision import sim

    # A camera mounted as docs/calibration.md asks: above the board, even light. The harsher
    # cameras are vision's own business (benchmarks/vision.py); here the subject is refereeing.
    return sim.CameraSettings.mild(size=size, hand=hand)


# Frames and calibrations shared by every simulated camera in the process: scenes repeat across
# games in tests (the start position, a position put back) and calibration costs a second for
# Brain Hanky.
_FRAMES: OrderedDict[tuple, Any] = OrderedDict()
_FRAME_CACHE = 48
_CALIBRATIONS: dict[tuple, Any] = {}
stats = {"rendered": 0, "reused": 0}


def _frame(board_graph, position: frozenset, mount: int, hand: bool, size: tuple[int, int], looks: tuple = ()):
    """(cache key, picture): ``looks`` is ``vision.sim.frozen_looks`` of the pieces' looks."""
    from vision import sim

    key = (board_graph.name, size, mount, hand, position) + ((looks,) if looks else ())
    img = _FRAMES.get(key)
    if img is not None:
        _FRAMES.move_to_end(key)
        stats["reused"] += 1
        return key, img
    scene = sim.printed_scene(board_graph, dict(position), looks=dict(looks) if looks else None)
    img = sim.simulate(scene, mount, _settings(size, hand)).image
    img.setflags(write=False)
    _FRAMES[key] = img
    stats["rendered"] += 1
    while len(_FRAMES) > _FRAME_CACHE:
        _FRAMES.popitem(last=False)
    return key, img


def sim_calibration(game, mount: int = 1, size: tuple[int, int] | None = None, *,
                    classifier: str | None = None, looks=None):
    """Calibrate the real vision code on simulated pictures, as a user does with the camera.

    The empty board, then the pieces laid out as ``calibration_layout`` says, both photographed
    from the camera ``mount``; ``calibrate`` checks them and learns the pieces (~0.1 s for a
    morris board, ~1 s for the Brain Hanky cloth). ``classifier``: "measured" (the hand-set
    reader) or "learned" (the piece book, from the full layout: ``--layout --full-set``); by
    default the one a real camera's calibration of the game uses
    (``vision.calibration.default_classifier``: learned for the mills, pegs and tokens), so the
    tables of the tests and ``arbiter demo`` referee through the reader that play uses
    (docs/learned-reader.md, "The simulated camera reads with the play default").
    ``looks``: the pieces' looks (``vision.sim.PieceLook`` data per (owner, kind)), which only
    the pictures know. Cached per game, options, mount, size, classifier and looks.
    """
    from vision import sim
    from vision.calibration import calibrate, calibration_layout, default_classifier

    g = engine.load(game) if isinstance(game, str) else game
    size = size or camera_size(g)
    classifier = classifier or default_classifier(g)
    frozen = sim.frozen_looks(looks)
    key = (g.name, tuple(sorted(g.options.items())), mount, size, classifier, frozen)
    cal = _CALIBRATIONS.get(key)
    if cal is None:
        layout, _ = calibration_layout(g, full=classifier == "learned")
        _, empty = _frame(g.board, frozenset(), mount, False, size, frozen)
        _, pieces = _frame(g.board, frozenset(layout.items()), mount, False, size, frozen)
        cal = calibrate(g, empty, pieces, position=layout, classifier=classifier)
        _CALIBRATIONS[key] = cal
    return cal


class SimCamera:
    """The simulated camera over the board, read by the real reader the calibration was made for
    (``vision.learned_reader.reader_for``: ``BoardReader``, or ``LearnedReader``).

    ``calibration``: default, calibrate on simulated pictures from the board's current mount
    (``sim_calibration``, with ``classifier``). After ``board.bump()`` the calibration stays as it
    was and the reader finds the board again by its markers, as on a real table. ``looks``: the
    players' pieces as ``vision.sim.PieceLook`` data per (owner, kind) (any colours, coins,
    beads), drawn in every picture; the reader knows them only from the calibration's pictures.
    ``frame_s``: 10 frames a second.
    """

    sees = "colour"
    frame_s = 0.1

    def __init__(self, board: PhysicalBoard, *, calibration=None, size: tuple[int, int] | None = None,
                 classifier: str | None = None, looks=None):
        from vision import sim
        from vision.learned_reader import reader_for

        self.board = board
        self.size = size or camera_size(board.game)
        self.looks = sim.frozen_looks(looks)
        self.calibration = calibration or sim_calibration(board.game, board.mount, self.size,
                                                          classifier=classifier, looks=looks)
        self.reader = reader_for(self.calibration)
        self._seen: OrderedDict[tuple, Observation] = OrderedDict()
        self.reads = 0  # frames read by BoardReader (distinct frames)
        self.frames = 0  # frames delivered

    def image(self):
        """The camera's current picture of the board (cached per physical state)."""
        b = self.board
        return _frame(b.game.board, b.key(), b.mount, b.hand_over, self.size, self.looks)[1]

    def read(self) -> Observation:
        b = self.board
        key, img = _frame(b.game.board, b.key(), b.mount, b.hand_over, self.size, self.looks)
        self.frames += 1
        obs = self._seen.get(key)
        if obs is None:
            obs = self.reader.read(img)
            self.reads += 1
            self._seen[key] = obs
            while len(self._seen) > _FRAME_CACHE:
                self._seen.popitem(last=False)
        return obs

    def health(self) -> ReaderHealth:
        """Always well: the simulated camera is never lost, and a hand over the board or a bumped
        mount is the board unseen (an occluded reading), not a camera in trouble."""
        return HEALTHY
