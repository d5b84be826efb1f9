"""Calibration: learn one board under one camera, check it, and keep it in a versioned file.

Two pictures are enough: the empty board, and the board with pieces on known spots (the game's
start position, or for games that start empty the documented layout of ``calibration_layout``:
one piece of each colour and kind). From them ``calibrate``

1. locates the board in each picture (its markers, four given corners, or its outline);
2. picks *probes* on the empty board: patches of plain background between the spots, which
   later tell the reader how the light has changed;
3. stores how every spot looks empty, relative to the background round it;
4. learns each piece class (white man, gold gem, ...) from the pieces picture;
5. checks its own work: the board is bright enough, no spot is washed out by glare, no two
   classes look alike, and both pictures read back exactly as they should. Any failure raises
   ``CalibrationError`` whose message says what to change.

The file is JSON with ``format``/``version`` fields; ``load_calibration`` refuses other formats,
newer versions, other games and damaged contents with a message that says what to do.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import engine
from engine.core import Piece

from . import registration as rg
from . import sampling, surface, tone
from .classify import (Verdicts, adapt, by_brightness, class_gap, decide, distances, empty_like_frame, follow_split,
                       by_print_under, lamp_shift, named_by_hue, odd_in_group, rank_by, split_doubt, split_pieces,
                       with_feet)
from .families import Family, family_for
# What the pieces picture shows lives in ``vision.layouts``; calibration's callers ask it here too.
from .layouts import COVER_SLANT, calibration_layout, cover_reach
from .occlusion import HandCheck, covering_looks, piece_tints, shadow_reach
from .patches import PatchCutter, PatchError
from .piece_book import (LikeTheBoard, PieceBook, PieceBookError, build_book, colour_part_of, embed_frame,
                         embedder_for, embedder_name, foreign_level, leave_one_out, shifted_empty, weigh_colours)

FORMAT = "arbiter-calibration"
# The file version written, and the newest read. Version 2 adds the classifier and, for the
# learned one, its piece book (``vision.piece_book``); a version 1 file (before them) is read by
# the hand-set reader it was made for.
VERSION = 2
CLASSIFIERS = ("measured", "learned")
MIN_PROBES = 12
TOO_DARK = 45.0  # grey level of the board background below which reading is unreliable
GLARE = 252.0  # a sample this bright in every channel is clipped: the camera sees glare, not colour
PAPER_CLIPPED = sampling.CLIPPED  # a background probe this bright in every channel: the paper is clipped white
OVER_EXPOSED = 0.3  # the share of clipped background probes that makes a picture over-exposed
ALIKE = 0.08  # two classes closer than this (mean |difference|, background = 1) are too alike
SURFACE_NOTE = "board surface:"  # how a calibration's note on its surface bend begins (``arbiter calibrate``)


class CalibrationError(ValueError):
    """Calibration failed or a calibration file cannot be used; the message says what to do."""


class ExposureError(CalibrationError):
    """The pictures are too bright or too dark for the camera to show the pieces' colours.

    ``change`` says which way the camera's exposure should go: "lower" (the paper is clipped
    white) or "raise" (the board is too dark). A command line that controls the camera may
    adjust the exposure and take the pictures again instead of giving up."""

    def __init__(self, message: str, change: str):
        super().__init__(message)
        self.change = change


@dataclass
class Locator:
    """How to find the board in a frame: ``method`` "markers" (every frame), or a fixed
    homography from given corners / the outline (the camera must not move after calibration).

    For "markers", ``board_to_image`` is the fit of the last calibration picture (None in files
    from before it was kept): the first frames a reader sees come from the camera that took it,
    so it is their last good fit (``tracker``)."""

    method: str = "markers"
    board_to_image: np.ndarray | None = None
    corners: list[list[float]] | None = None

    def locate(self, image: np.ndarray, board) -> rg.Registration:
        if self.method == "markers":
            return rg.register_markers(image, board)
        if self.board_to_image is None:
            raise rg.RegistrationError(f"calibration by {self.method} has no stored board position")
        return rg.Registration(self.board_to_image, 0.0, (), self.method)

    def tracker(self, board=None, frame_size: tuple[int, int] | None = None) -> Locator | rg.MarkerLocator:
        """A locator for one stream of frames (one per reader): for "markers" a
        ``registration.MarkerLocator``, which keeps the last good fit and reads a frame with
        markers covered through it while the markers in view agree; otherwise this fixed one.

        With ``board`` and ``frame_size`` (the calibration's), a markers tracker starts from the
        calibration picture's fit: a first frame with two markers missing (small and blurred, so
        the detector missed them; or covered) is located through it when the markers in view are
        where it puts them, as any later frame is through the frame before; a camera moved since
        calibration shows its markers elsewhere and is refused as before. (A marker covered, not
        merely missed, still needs the reader's covered-marker check: ``BoardReader._hidden_marker``.)"""
        if self.method != "markers":
            return self
        tracker = rg.MarkerLocator()
        if board is not None and frame_size is not None and self.board_to_image is not None:
            tracker.start_from(board, self.board_to_image, frame_size)
        return tracker


def find_board(image: np.ndarray, board, method: str = "markers", corners=None, a1=None) -> Locator:
    """A ``Locator`` for ``method`` fitted to ``image`` (raises RegistrationError).

    ``corners``: the four corner pixels for "corners". ``a1``: for "outline", the (col, row)
    pixel of the play area's (x0, y0) corner (beside point a1 on the HTJB boards). Every board today looks the same turned by a
    quarter, so without it the outline cannot tell which side is player 1's and takes the one
    at the bottom of the picture; a wrong guess would rename every point and swap the piece
    colours learned from the layout.
    """
    if method == "markers":
        rg.register_markers(image, board)  # fail now, with the marker message, if it cannot work
        return Locator("markers")
    if method == "corners":
        reg = rg.register_corners(board, corners)
        return Locator("corners", reg.board_to_image, [list(map(float, c)) for c in np.asarray(corners)])
    if method == "outline":
        from .outline import register_outline

        hint = None if a1 is None else (float(a1[0]), float(a1[1]))
        reg = register_outline(image, board, hint=hint)
        return Locator("outline", reg.board_to_image)
    raise CalibrationError(f"unknown way to find the board {method!r}: use markers, corners or outline")


@dataclass
class Calibration:
    game: str
    options: dict[str, Any]
    board: str
    family: Family
    locator: Locator
    frame_size: tuple[int, int]
    probes: np.ndarray  # (P, 2) board coordinates
    probe_empty: np.ndarray  # (P, 3) probe colours on the empty board
    background: np.ndarray  # (N, 3) empty-board background colour near each spot
    empty: dict[str, np.ndarray]  # kind -> (n, K, 3) relative colours of the empty spots
    templates: dict[tuple[int, str], np.ndarray]  # (owner, kind) -> (K, 3) relative colours
    unknown: float = 0.25  # a best distance above this means nothing fits
    # How far a right explanation typically lies from what is seen (``classify.probabilities``),
    # measured on the two calibration pictures, whose contents are known.
    scale: float = 0.03
    # kind -> ((n, K, 3) lowest, highest): each empty sample's range when the board is placed up to
    # ``Family.slack`` off (``classify.distances``); empty when the file has none (then ``empty``).
    envelope: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    created: str = ""
    notes: list[str] = field(default_factory=list)
    # (M, 3) the printed lines' ink (``Family.ink``) on the empty board, relative to the board
    # beside it; None in a file without it (then the frame's curve is measured on empty spots only)
    ink_empty: np.ndarray | None = None
    # The board's surface beyond the homography (``vision.surface``: a cloth's folds, the lens),
    # measured on the empty picture; None when it could not be (or a file without it).
    bend: surface.Bend | None = None
    # Which classifier reads the spots: "measured" (the hand-set measures, ``vision.classify``)
    # or "learned" (patches, an embedder and ``book``: ``vision.learned_reader``).
    classifier: str = "measured"
    book: PieceBook | None = None

    def layout(self, bent: bool = True) -> sampling.Layout:
        """Where to look: with the board surface's bend (``vision.surface``) if one was measured,
        or (``bent=False``) through the homography alone, for a camera moved too far from where
        the bend was measured."""
        return sampling.Layout.build(self.family, self.probes, self.bend if bent else None)

    def empty_look(self, kind: str):
        """What ``classify.distances`` compares with for an empty spot of ``kind``."""
        return self.envelope.get(kind) or self.empty[kind]

    def class_templates(self, kind: str) -> tuple[list[tuple[int, str]], np.ndarray]:
        keys = [c.key for c in self.family.classes_for(kind) if c.key in self.templates]
        k = len(self.family.patterns[kind].offsets)
        arr = np.array([self.templates[key] for key in keys], np.float32).reshape(len(keys), k, 3)
        return keys, arr

    # ------------------------------------------------------------------ file
    def to_json(self) -> dict[str, Any]:
        def arr(a: np.ndarray) -> Any:
            return np.round(np.asarray(a, np.float64), 4).tolist()

        return {
            "format": FORMAT, "version": VERSION, "created": self.created,
            "classifier": self.classifier, **({} if self.book is None else {"book": self.book.to_json()}),
            "game": self.game, "options": self.options, "board": self.board,
            "family": self.family.name, "spots": list(self.family.spots),
            "frame_size": list(self.frame_size),
            "locator": {"method": self.locator.method,
                        "board_to_image": None if self.locator.board_to_image is None else arr(self.locator.board_to_image),
                        "corners": self.locator.corners},
            "probes": arr(self.probes), "probe_empty": arr(self.probe_empty),
            "background": arr(self.background),
            "empty": {k: arr(v) for k, v in self.empty.items()},
            "envelope": {k: [arr(lo), arr(hi)] for k, (lo, hi) in self.envelope.items()},
            **({} if self.ink_empty is None else {"ink_empty": arr(self.ink_empty)}),
            **({} if self.bend is None else {"bend": self.bend.to_json()}),
            "classes": [{"owner": o, "kind": k, "name": self.family.class_name(o, k), "template": arr(t)}
                        for (o, k), t in self.templates.items()],
            "unknown": self.unknown, "scale": self.scale, "notes": self.notes,
        }

    def dumps(self) -> str:
        """The calibration file's text. ``arbiter calibrate`` writes it through ``arbiter.files``
        (whole or not at all); vision may not import arbiter, so it only gives the text."""
        return json.dumps(self.to_json(), separators=(",", ":")) + "\n"

    def save(self, path: str | Path) -> Path:
        """Write the text straight to ``path``: for tools and tests; the CLI writes atomically."""
        path = Path(path)
        path.write_text(self.dumps())
        return path


def load_calibration(path: str | Path, game: str | None = None) -> Calibration:
    """Read a calibration file; with ``game``, refuse one made for another game."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise CalibrationError(f"{path}: no such calibration file; make one with `arbiter calibrate`") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CalibrationError(f"{path}: not a readable calibration file ({exc}); run `arbiter calibrate` "
                               f"again to make a new one") from None
    return calibration_from_json(data, str(path), game)


def calibration_from_json(data: Any, source: str = "calibration", game: str | None = None) -> Calibration:
    def bad(what: str) -> CalibrationError:
        return CalibrationError(f"{source}: {what}; run `arbiter calibrate` again to make a new one")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad("this is not an arbiter calibration file")
    version = data.get("version")
    if not isinstance(version, int) or version < 1:
        raise bad(f"unknown calibration version {version!r}")
    if version > VERSION:
        raise CalibrationError(f"{source}: made by a newer arbiter (calibration version {version}, this one "
                               f"reads {VERSION}): update arbiter or calibrate again")
    name = data.get("game")
    if game is not None and name != game:
        raise CalibrationError(f"{source} is a calibration for {name}, not {game}: use the right file or run "
                               f"`arbiter calibrate {game}`")
    try:
        g = engine.load(name, **(data.get("options") or {}))
    except (engine.UnknownGame, engine.BadOption, TypeError) as exc:
        raise bad(f"its game cannot be loaded ({exc})") from None
    family = family_for(g)
    if list(family.spots) != data.get("spots") or g.board.name != data.get("board"):
        raise bad(f"it was made for a different {name} board than this arbiter has")
    try:
        loc = data["locator"]
        H = loc.get("board_to_image")
        locator = Locator(str(loc["method"]), None if H is None else _array(H, (3, 3)), loc.get("corners"))
        if locator.method not in ("markers", "corners", "outline"):
            raise ValueError(f"unknown locator {locator.method!r}")
        probes = _array(data["probes"], (None, 2))
        probe_empty = _array(data["probe_empty"], (len(probes), 3))
        n = len(family.spots)
        background = _array(data["background"], (n, 3))
        bend = None if data.get("bend") is None else surface.Bend.from_json(data["bend"])
        layout = sampling.Layout.build(family, probes) if len(probes) else None
        if layout is None or len(probes) < MIN_PROBES:
            raise ValueError("too few background probes")
        empty = {k: _array(data["empty"][k], (len(idx), len(family.patterns[k].offsets), 3))
                 for k, idx in layout.groups.items()}
        envelope = {}
        for k, pair in (data.get("envelope") or {}).items():
            if k not in layout.groups or len(pair) != 2:
                raise ValueError(f"an envelope for piece kind {k!r} that this board does not have")
            shape = (len(layout.groups[k]), len(family.patterns[k].offsets), 3)
            envelope[k] = (_array(pair[0], shape), _array(pair[1], shape))
        templates = {}
        for c in data["classes"]:
            kind = str(c["kind"])
            if kind not in family.patterns:
                raise ValueError(f"piece kind {kind!r} does not belong on this board")
            templates[(int(c["owner"]), kind)] = _array(c["template"], (len(family.patterns[kind].offsets), 3))
        size = data["frame_size"]
        frame_size = (int(size[0]), int(size[1]))
        unknown = float(data.get("unknown", 0.25))
        scale = float(data.get("scale", 0.03))
        if not (np.isfinite(scale) and scale > 0):
            raise ValueError(f"scale must be a positive number, not {scale}")
        ink_empty = data.get("ink_empty")
        if ink_empty is not None:
            ink_empty = _array(ink_empty, (len(family.ink), 3))
        # a version 1 file has no classifier: the hand-set one it was made for reads it
        classifier = str(data.get("classifier", "measured"))
        if classifier not in CLASSIFIERS:
            raise ValueError(f"unknown classifier {classifier!r}")
        book = None if data.get("book") is None else PieceBook.from_json(data["book"])
        if classifier == "learned" and book is None:
            raise ValueError("a learned classifier without its piece book")
        if book is not None and (book.spots != family.spots or book.spot_kind != family.spot_kind):
            raise ValueError("its piece book is for other spots than this board's")
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise bad(f"its contents are damaged ({exc})") from None
    return Calibration(name, dict(data.get("options") or {}), g.board.name, family, locator, frame_size,
                       probes, probe_empty, background, empty, templates, unknown, scale, envelope,
                       str(data.get("created", "")), list(data.get("notes", [])), ink_empty, bend,
                       classifier, book)


def _array(value: Any, shape: tuple) -> np.ndarray:
    a = np.asarray(value, np.float64)
    if a.ndim != len(shape) or any(s is not None and s != d for s, d in zip(shape, a.shape)):
        raise ValueError(f"expected an array of shape {shape}, found {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError("non-numbers in an array")
    return a


# ---------------------------------------------------------------------------- calibrate
def _expected(family: Family, position: Mapping[str, Any], kind: str, idx: np.ndarray) -> list:
    out = []
    for i in idx:
        p = position.get(family.spots[i])
        out.append(None if p is None else (p.owner, p.kind))
    return out


def piece_lift(family: Family, image: np.ndarray, H: np.ndarray) -> np.ndarray | None:
    """Where each spot's piece top is seen, as board offsets (``sampling.lift``), for this view."""
    heights = np.array([family.heights.get(k, 0.0) for k in family.spot_kind], np.float64)
    return sampling.lift(H, (image.shape[1], image.shape[0]), family.xy, heights)


def read_samples(cal: Calibration, layout: sampling.Layout, image: np.ndarray, H: np.ndarray):
    """(relative spot colours: ``sampling.Relative``, probe light ratios, raw samples) of one frame."""
    s = sampling.take(layout, image, H, piece_lift(cal.family, image, H))
    rel, ratio = sampling.normalise(layout, s, cal.probe_empty, cal.background)
    return rel, ratio, s


def frame_looks(rel: sampling.Relative, templates: Mapping[str, tuple]) -> dict[str, np.ndarray]:
    """{kind: the class looks as this frame's light shows them} (``vision.tone``: light pieces
    bent near white; the templates themselves when nothing bends)."""
    return {kind: T if rel.scale is None else tone.looks_in_frame(T, rel.scale[kind], rel.light[kind])
            for kind, (_keys, T) in templates.items()}


def classify_all(cal: Calibration, layout: sampling.Layout, rel: sampling.Relative,
                 templates: Mapping[str, tuple] | None = None, *, in_frame: bool = False,
                 looks: Mapping[str, np.ndarray] | None = None,
                 curves: dict[str, np.ndarray] | None = None) -> dict[str, Any]:
    """{kind: (keys, Verdicts)} for one frame's relative colours. ``templates``: the result of
    ``cal.class_templates`` per kind, made once by a reader rather than on every frame;
    ``looks``: ``frame_looks`` of them, when the caller has made it already.

    ``in_frame``: classify a second time against templates moved to this frame's own clearly
    read pieces (``classify.adapt``), as the reader does; calibration's read-back does not.
    ``curves``: a dict given here is filled with the ink curve (``_frame_ink``) each kind was
    read through, for the reader's later checks to see the looks as this frame showed them."""
    if templates is None:
        templates = {kind: cal.class_templates(kind) for kind in layout.groups}
    if looks is None:
        looks = frame_looks(rel, templates)
    out = {}
    lamps: dict[str, np.ndarray] = {}
    # a kind that shows another the lamp's colour is read first (``Pattern.lamp_from``)
    sources = {cal.family.patterns[k].lamp_from for k in layout.groups} - {""}
    for kind in sorted(layout.groups, key=lambda k: k not in sources):
        keys, T = templates[kind]
        pat = cal.family.patterns[kind]
        x, top, L = rel.base[kind], rel.top[kind], looks[kind]
        tint = None
        empty = cal.empty_look(kind)
        look = pat.look()
        if pat.ordered:  # sorted once here rather than in every comparison
            top, L, look = by_brightness(top), by_brightness(L), {**look, "ordered": False}
        d = distances(x, empty, L, top=top, **look)
        v = decide(d, cal.scale)
        if in_frame and pat.ink and len(T):
            g = _frame_ink(cal, kind, x, v, rel.ink)
            if g is not None:
                if curves is not None:
                    curves[kind] = g
                # the empty look and the pieces' looks as this frame's own curve shows them
                empty = tuple(tone.bend(e, g) for e in empty) if isinstance(empty, tuple) else tone.bend(empty, g)
                # from the calibrated looks, not the tone curve's guess at them (``frame_looks``)
                L = tone.bend(by_brightness(T) if pat.ordered else T, g)
                d = distances(x, empty, L, top=top, **look)
                v = decide(d, cal.scale)
        if in_frame and len(T):
            split = None
            # what the split compares: the tops as sampled, or unblurred (``Pattern.sharp``)
            by = (rel.unblurred or {}).get(kind, top)
            if pat.split:
                split = split_pieces(d, v, by, T, pat.split_band, pat.split_wide)
            if split is not None:
                # the pieces' own groups: the templates follow them, and they name each piece
                v = Verdicts(split, v.best, v.second, np.where(split >= 0, 1.0, v.confidence), v.probs)
            else:
                tint = lamps.get(pat.lamp_from)
                if tint is not None:
                    # no groups to go by: the looks in the lamp's tint rank the classes
                    d = _measure(x, empty, L, tint, top=top, **look)
                    v = decide(d, cal.scale)
            d = _measure(x, empty, adapt(top, L, v), tint, top=top, **look)
            v = decide(d, cal.scale)
            if split is not None:
                v = follow_split(v, split, d, split_doubt(by, split, T, pat.split_band, pat.split_wide))
            elif pat.hue_alone:
                # too few to group: the pieces whose hue is plain are named by it
                hue = named_by_hue(top, v, T, pat.split_band)
                if hue is not None:
                    v = follow_split(v, hue, d)
            if pat.join_band is not None:
                # a piece unlike every empty spot, like its own group
                v = odd_in_group(d, v, x, cal.empty[kind], pat.join_band)
            if pat.print_under:
                # the printed board shown through, only shaded, or hidden in a close call
                v = by_print_under(d, v, x, cal.empty[kind], pat.offsets, far=pat.print_far)
            if pat.foot_weight:
                # a man's foot beside its top, against the frame's other feet (``classify.with_feet``)
                d = rank_by(d, with_feet(d, v, x, weight=pat.foot_weight, brighter=pat.brighter))
                v = decide(d, cal.scale)
            if pat.empty_in_frame:
                v = empty_like_frame(d, v, int(np.argmax(T.mean(axis=(1, 2)))))
            if kind in sources and len(T):
                shift = lamp_shift(top, T, v, pat.split_band)
                if shift is not None:
                    lamps[kind] = shift
        out[kind] = (keys, v)
    out = {kind: out[kind] for kind in layout.groups}
    return out


def _measure(x: np.ndarray, empty, L: np.ndarray, tint: np.ndarray | None, **look) -> np.ndarray:
    """``classify.distances``, the classes ranked by the looks in the lamp's ``tint`` when a
    frame shows one (``Pattern.lamp_from``); whether a piece is there is judged without it
    (``classify.rank_by``)."""
    d = distances(x, empty, L, **look)
    return d if tint is None else rank_by(d, distances(x, empty, L * tint, **look))


def _frame_ink(cal: Calibration, kind: str, x: np.ndarray, v, ink: np.ndarray | None) -> np.ndarray | None:
    """This frame's ink curve (``tone.ink_gamma``) from the printed lines between the points
    (``Family.ink``) and the spots read surely empty, or None when that is too little ink, its
    samples disagree, or the curve is the calibration's (within 5% in every channel).

    Measured on the photoreal set: it put right every HTJB misread but one (a black man whose
    whole glossy top mirrors a large lamp), among them empty points read as black men in dim
    frames, white men in shade read as black, and the empty points and white men a tone curve
    swapped; nothing it changed went wrong (docs/photoreal.md)."""
    sure = (v.choice < 0) & (v.confidence >= 0.5)
    seen, then = [x[sure].reshape(-1, 3)], [cal.empty[kind][sure].reshape(-1, 3)]
    if ink is not None and cal.ink_empty is not None:  # same length: both come from ``Family.ink``
        seen.append(ink)
        then.append(cal.ink_empty)
    g = tone.ink_gamma(np.concatenate(seen), np.concatenate(then))
    if g is None or np.all(np.abs(g - 1) < 0.05):
        return None
    return g


def default_classifier(game) -> str:
    """The classifier a calibration of ``game`` uses unless told: the one measured best on its
    family's pieces (``Family.classifier``; docs/learned-reader.md, "Which reader is the default")."""
    return family_for(game).classifier


def calibrate(game, empty_image: np.ndarray, pieces_image: np.ndarray, *,
              position: Mapping[str, Any] | None = None, method: str = "markers", corners=None, a1=None,
              progress=None, classifier: str | None = None, embedder=None,
              more_empty: tuple[np.ndarray, ...] | list[np.ndarray] = ()) -> Calibration:
    """Learn ``game``'s board from an empty picture and a pieces picture (see the module text).

    ``position``: what the pieces picture shows (default: ``calibration_layout(game)``, several
    pieces of each class for the learned classifier).
    ``progress(message)`` is told each stage, for a command line to show.
    ``classifier``: "measured" (the hand-set measures) or "learned" (default: the one chosen for
    the game's pieces, ``default_classifier``): then the spots are learned
    as ``embedder`` (default ``piece_book.embedder_for()``) sees them, into a piece book
    (``vision.piece_book``), from the empty picture and any ``more_empty`` pictures of the empty
    board taken from the same place, and from the pieces picture (``_learn_book``).
    """
    family = family_for(game)
    classifier = classifier or family.classifier
    if classifier not in CLASSIFIERS:
        raise CalibrationError(f"unknown classifier {classifier!r}: use {' or '.join(CLASSIFIERS)}")
    say = progress or (lambda _m: None)
    board = game.board
    if position is None:
        position, _ = calibration_layout(game, full=classifier == "learned")
    for name, img in (("empty board", empty_image), ("pieces", pieces_image)):
        if (not isinstance(img, np.ndarray) or img.ndim != 3 or img.shape[2] != 3 or img.size == 0
                or img.dtype != np.uint8):
            raise CalibrationError(f"the {name} picture is not a colour image (8 bits per channel): check the camera or the file")
    if empty_image.shape != pieces_image.shape:
        raise CalibrationError(f"the two pictures differ in size ({empty_image.shape[1]}x{empty_image.shape[0]} and "
                               f"{pieces_image.shape[1]}x{pieces_image.shape[0]}): take both with the same camera")

    say("finding the board in the empty picture")
    try:
        locator = find_board(empty_image, board, method, corners, a1)
        H_empty = locator.locate(empty_image, board).board_to_image
        say("finding the board in the pieces picture")
        H_pieces = locator.locate(pieces_image, board).board_to_image
        if locator.method == "markers":
            locator.board_to_image = H_pieces  # the last picture: where play's first frames start from
    except rg.RegistrationError as exc:
        raise CalibrationError(str(exc)) from None

    say("measuring the board's surface (folds, lens)")
    bend = surface.measure(empty_image, board, H_empty)

    say("choosing background probes on the empty board")
    candidates = sampling.candidate_probes(family, board)
    pre = sampling.Layout.build(family, candidates, bend)
    s0 = sampling.take(pre, empty_image, H_empty)
    bad_spots = [family.spots[i] for k, idx in pre.groups.items()
                 for i, v in zip(idx, s0.spots[k]) if not np.all(np.isfinite(v))]
    if bad_spots:
        raise CalibrationError(f"part of the board is outside the picture ({', '.join(bad_spots[:6])}"
                               f"{'...' if len(bad_spots) > 6 else ''}): move the camera back or centre the board")
    keep = sampling.choose_probes(family, pre.probe_at, empty_image, H_empty)
    if keep.sum() < MIN_PROBES:
        raise CalibrationError("the empty board shows too little plain background between the points: is it "
                               "really empty, evenly lit and in focus?")
    probes, probe_empty = candidates[keep], s0.probes[keep]
    level = float(np.median(probe_empty.mean(axis=1)))
    if level < TOO_DARK:
        raise ExposureError(f"the board is too dark (background level {level:.0f} of 255): add light, or raise "
                            f"the camera's exposure or gain", "raise")
    _check_exposure("empty board", s0.probes[keep])
    layout = sampling.Layout.build(family, probes, bend)
    background = np.median(probe_empty[layout.near], axis=1)
    s_empty = sampling.take(layout, empty_image, H_empty)
    glare, washed = [], []
    for k, idx in layout.groups.items():
        clipped = np.mean(np.all(s_empty.spots[k] >= GLARE, axis=2), axis=1)
        for i, c in zip(idx, clipped):
            if c > 0.25:
                # Clipped paper all round the spot is exposure (or a lamp far too close); a bright
                # patch on paper that is not clipped is the lamp's reflection (glare). The fixes
                # differ, so the messages do.
                (washed if _paper_clipped_round(empty_image, H_empty, layout.spot_at[i]) else glare).append(family.spots[i])
    if washed:
        raise ExposureError(f"the picture is over-exposed round {', '.join(washed[:8])}"
                            f"{'...' if len(washed) > 8 else ''}: the paper there shows as pure white, so white "
                            f"pieces cannot be told from it; lower the camera's exposure, or move the lamp "
                            f"further off, and calibrate again", "lower")
    if glare:
        raise CalibrationError(f"glare on {', '.join(glare[:8])}{'...' if len(glare) > 8 else ''}: the light "
                               f"reflects straight into the camera there; move the lamp or tilt the camera")
    empty = {k: s_empty.spots[k] / background[idx][:, None, :] for k, idx in layout.groups.items()}
    envelope = _envelope(layout, empty_image, H_empty, background, empty, family.slack)
    ink_empty = s_empty.ink / background[layout.ink_near] if len(family.ink) else None

    cal = Calibration(game.name, dict(game.options), board.name, family, locator,
                      (empty_image.shape[1], empty_image.shape[0]), probes, probe_empty, background, empty, {},
                      envelope=envelope, ink_empty=ink_empty, bend=bend,
                      created=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"))

    say("learning the piece colours")
    rel, ratio, _s = read_samples(cal, layout, pieces_image, H_pieces)
    _check_exposure("pieces", _s.probes)
    occupied = np.array([family.spots[i] in position for i in range(len(family.spots))], bool)
    near = shadow_reach(probes, family)
    # pieces cast shadows, and a coloured piece tints its own (as play's check allows, in
    # ``learned_reader``): red and blue men laid out in full darkened and tinted the paper between
    # their points enough to be called a hand (docs/learned-reader.md, ninth session)
    tints = piece_tints(PatchCutter(family, layout.spot_at, board=board).cut(pieces_image, H_pieces).images, occupied)
    # a laid-out piece seen slanting over the probes beside it (a ring of a Brain Hanky cluster
    # stands over the probes at the cluster's edge: docs/learned-reader.md, "Pieces seen over the
    # paper beside them"): those probes may take its look, shaded or not
    looks = np.zeros((len(family.spots), 3))
    for k, idx in layout.groups.items():
        looks[idx] = np.log(np.maximum(rel.top[k].mean(axis=1), 1e-3))
    covers = covering_looks(probes, family.xy, cover_reach(family), occupied, looks)
    over = HandCheck.of(cal).check(ratio, near[:, occupied].any(axis=1), tints, occupied, covers=covers).reason
    if over:
        # The background changed between the two pictures in a way light does not: a hand or
        # an arm was over the board in one of them.
        raise CalibrationError(f"the two pictures disagree on the board between the points ({over.split(' (')[0]}): "
                               f"a hand or arm was probably over the board in one of them; take both again "
                               f"with hands away")
    learned: dict[tuple[int, str], list[np.ndarray]] = {}
    # the same pieces seen where an empty spot is, with the spot (index in its kind's group)
    at_foot: dict[tuple[int, str], list[tuple[int, np.ndarray]]] = {}
    for k, idx in layout.groups.items():
        for j, want in enumerate(_expected(family, position, k, idx)):
            if want is not None:
                learned.setdefault(want, []).append(rel.top[k][j])
                at_foot.setdefault(want, []).append((j, rel.base[k][j]))
    missing = [c.name for c in family.classes if c.key not in learned]
    if missing:
        raise CalibrationError(f"the pieces picture should show a {', '.join(missing)} but its spot is not "
                               f"set as expected: lay out the pieces as `arbiter calibrate {game.name} --layout` shows")
    cal.templates = {key: np.mean(v, axis=0) for key, v in learned.items()}
    if classifier == "learned":
        return _learn_book(cal, layout, board, embedder, empty_image, H_empty, pieces_image, H_pieces, position,
                           list(more_empty), say)

    say("checking that no two pieces look alike")
    # A piece that looks like the empty board first: pieces never laid out make every class look
    # like the board, and the board is the cause to name. Each piece is held against the empty
    # look of the spot it stands on: against every spot's (as before 2026-11-26) a white man seen
    # from nearly overhead came within 0.072-0.073 of a few other points' dots on two photoreal
    # setups whose white man differed from its own point by 0.106-0.111, as others' that
    # calibrated and read every frame right do. Whether a piece can be told from some other
    # empty point is what the read-back below checks: every point of the empty picture must read
    # empty.
    for kind in layout.groups:
        keys, _T = cal.class_templates(kind)
        idx = layout.groups[kind]
        for key in keys:
            close = [family.spots[idx[j]] for j in like_their_points(cal.empty[kind], at_foot[key])]
            if close:
                raise CalibrationError(f"the {family.class_name(*key)} on {', '.join(close[:6])} looks like the empty "
                                       f"board there: is it on its point? Use pieces that stand out from the board"
                                       f"{family.contrast_hint.format(game=game.name)}")
    for kind in layout.groups:
        keys, T = cal.class_templates(kind)
        pat = family.patterns[kind]
        for a in range(len(keys)):
            for b in range(a + 1, len(keys)):
                d = class_gap(T[a], T[b], **pat.look())
                if d < ALIKE:
                    raise CalibrationError(f"the {family.class_name(*keys[a])} and the {family.class_name(*keys[b])} "
                                           f"look too alike to this camera (difference {d:.2f}): use more light, "
                                           f"less colour cast, or pieces of clearer colours")
    if any(p.slack_most > family.slack for p in family.patterns.values()):
        cal.envelope = _widest_envelope(cal, layout, empty_image, H_empty, rel, occupied)

    say("checking that every spot reads correctly")
    worst = 0.0
    seen: list[float] = []  # best distances of empty spots in the pieces picture (a second look)
    for label, img, H, pos in (("empty board", empty_image, H_empty, {}), ("pieces", pieces_image, H_pieces, position)):
        rel, _r, _s = read_samples(cal, layout, img, H)
        wrong = []
        for kind, (keys, v) in classify_all(cal, layout, rel).items():
            idx = layout.groups[kind]
            for j, want in enumerate(_expected(family, pos, kind, idx)):
                got = None if v.choice[j] < 0 else keys[v.choice[j]]
                if got != want:
                    wrong.append(f"{family.spots[idx[j]]} reads {_word(family, got)}, not {_word(family, want)}")
                elif want is None:
                    worst = max(worst, float(v.best[j]))
                    if pos:
                        seen.append(float(v.best[j]))
        if wrong:
            raise CalibrationError(f"the {label} picture does not read back correctly: {'; '.join(wrong[:5])}"
                                   f"{' ...' if len(wrong) > 5 else ''}. Check for glare, shadows or pieces off "
                                   f"their points, and that the pieces are laid out as shown by --layout")
    # Nothing fits when the best distance is far beyond what an empty spot showed: a guard
    # against garbage (a spot wholly covered by something new). Hands are found by the probes.
    cal.unknown = float(max(0.3, 3 * worst))
    # The empty spots of the pieces picture are a second look at a known board: how far they
    # lie from their empty look is how far a right answer lies under this camera's noise.
    if seen:
        cal.scale = float(np.clip(np.percentile(seen, 50), 0.01, 0.08))
    cal.notes.append(f"{len(probes)} probes; worst empty-spot distance {worst:.3f}; unknown above {cal.unknown:.3f}")
    cal.notes.append(_surface_note(bend, H_empty))
    say("calibration checked")
    return cal


def _learn_book(cal: Calibration, layout: sampling.Layout, board, embedder, empty_image: np.ndarray,
                H_empty: np.ndarray, pieces_image: np.ndarray, H_pieces: np.ndarray, position: Mapping[str, Any],
                more_empty: list[np.ndarray], say) -> Calibration:
    """Finish ``cal`` for the learned reader: its piece book, checked (see ``vision.piece_book``).

    The hand-set checks (pieces alike by their mean colours, the read-back through the hand-set
    classifier) are not made: the book refuses what it cannot tell apart itself, and the
    pictures are read back through the book: every spot of every empty picture, and of the
    pieces picture, must read as it is, and no piece may read as foreign. With several pieces of
    a class, each piece is read back against the others only (its own exemplar left out), which
    is the real test of whether a piece is known by its class rather than by itself."""
    family = cal.family
    try:
        embedder = embedder if embedder is not None else embedder_for(network=family.network)
    except PieceBookError as exc:
        raise CalibrationError(str(exc)) from None
    say(f"learning the pieces as the embedder {embedder_name(embedder)} sees them")
    cutter = PatchCutter(family, layout.spot_at, board=board)
    shots = [("empty board", empty_image, H_empty), ("pieces", pieces_image, H_pieces)]
    for j, img in enumerate(more_empty):
        if not isinstance(img, np.ndarray) or img.shape != empty_image.shape or img.dtype != np.uint8:
            raise CalibrationError(f"empty picture {j + 2} is not a colour picture of the empty picture's size")
        try:
            H = cal.locator.locate(img, board).board_to_image
        except rg.RegistrationError as exc:
            raise CalibrationError(f"empty picture {j + 2}: {exc}") from None
        shots.append((f"empty board ({j + 2})", img, H))
    embs, empties, logits = {}, [], []
    for label, img, H in shots:
        _rel, ratio, _s = read_samples(cal, layout, img, H)
        if label.startswith("empty"):
            empties.append((img, H, ratio))
        looks = embed_frame(embedder, cutter, img, H, layout, ratio)
        emb = looks.emb
        if not looks.valid.all():
            out = [family.spots[i] for i in np.flatnonzero(~looks.valid)]
            raise CalibrationError(f"part of the board is outside the {label} picture ({', '.join(out[:6])}): move "
                                   f"the camera back or centre the board")
        embs[label] = emb
        logits.append(looks.foreign)
    keys = {s: (p.owner, p.kind) if hasattr(p, "owner") else tuple(p) for s, p in position.items()}

    def build(embedder, embs):
        return build_book(embedder_name(embedder), family.spots, family.spot_kind,
                          [e for label, e in embs.items() if label.startswith("empty")], embs["pieces"], keys,
                          classes=[c.key for c in family.classes], name_of=lambda k: family.class_name(*k),
                          colour_part=colour_part_of(embedder), temperature_least=family.temperature_least)

    try:
        embedder, book, embs = weigh_colours(embedder, embs, build)
    except LikeTheBoard as exc:
        raise CalibrationError(f"{exc}{family.contrast_hint.format(game=cal.game)}") from None
    except PieceBookError as exc:
        raise CalibrationError(str(exc)) from None
    # the edge spots' empty looks about their feet, for frames whose camera sees the pieces' tops
    # displaced otherwise than this one did (``piece_book.ShiftedEmpty``)
    from . import markers

    reach = COVER_SLANT * np.array([family.heights.get(k, 0.0) for k in family.spot_kind])
    try:
        book.shifted = shifted_empty(embedder, cutter, markers.board_extent(board), empties, layout, reach)
    except PatchError as exc:
        raise CalibrationError(f"the empty picture's edge spots could not be cut ({exc})") from None
    book.foreign_level, raised = foreign_level(logits)
    if raised:
        book.notes.append(raised)
    say("checking that every spot reads correctly")
    for label, emb in embs.items():
        want = {} if label.startswith("empty") else keys
        truth = np.array([0 if s not in want else 1 + book.classes.index(want[s]) for s in family.spots])
        r = book.read_distances(leave_one_out(book, emb, truth))  # each piece against the others of its class
        wrong = []
        for i, s in enumerate(family.spots):
            got = None if r.choice[i] < 0 else book.classes[r.choice[i]]
            if got != want.get(s):
                wrong.append(f"{s} reads {_word(family, got)}, not {_word(family, want.get(s))}")
            elif r.foreign[i]:
                wrong.append(f"{s} reads as something unexpected, not {_word(family, got)}")
        if wrong:
            raise CalibrationError(f"the {label} picture does not read back correctly: {'; '.join(wrong[:5])}"
                                   f"{' ...' if len(wrong) > 5 else ''}. Check for glare, shadows or pieces off "
                                   f"their points, and that the pieces are laid out as shown by --layout")
    cal.classifier, cal.book = "learned", book
    cal.notes += [f"classifier learned ({book.embedder}): {n}" for n in book.notes]
    cal.notes.append(_surface_note(cal.bend, H_empty))
    say("calibration checked")
    return cal


def _surface_note(bend, H_empty: np.ndarray) -> str:
    """The calibration's note on the board surface's bend (``arbiter calibrate`` shows it)."""
    return (f"{SURFACE_NOTE} not measured (too few of its points found on the empty picture)" if bend is None
            else f"{SURFACE_NOTE} bent up to {bend.largest_px(H_empty):.1f} px from a flat fit, followed "
                 f"({len(bend.points)} points)")


def _widest_envelope(cal: Calibration, layout: sampling.Layout, image: np.ndarray, H: np.ndarray,
                     rel: sampling.Relative, occupied: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per kind, the empty look's range at the pattern's ``slack_most`` when that still leaves
    every piece of the pieces picture twice ``ALIKE`` or more from it at its spot (measured:
    white rings on the cream cloth 0.08 at 0.03 units, on the blue cloth 0.18-0.36); else the
    family's own.

    Tolerance for a line landing a pixel off costs nothing on a board whose pieces differ from
    it a lot (Brain Hanky's rings on the blue cloth, where the saturated webs are several times
    the ground and a pixel of blur moves them far); on the light cloth a white ring differs from
    it only by its rim, which the same tolerance would swallow. The pieces picture says which."""
    fam = cal.family
    out = dict(cal.envelope)
    widened: dict[float, dict] = {}  # one envelope per slack, whichever kinds ask for it
    for k, idx in layout.groups.items():
        most = fam.patterns[k].slack_most
        rows = occupied[idx]
        if most <= fam.slack or not rows.any():
            continue
        if most not in widened:
            widened[most] = _envelope(layout, image, H, cal.background, cal.empty, most)
        lo, hi = widened[most][k]
        x = rel.base[k][rows]
        d = (np.maximum(lo[rows] - x, 0) + np.maximum(x - hi[rows], 0)).mean(axis=(1, 2))
        if d.min() >= 2 * ALIKE:
            out[k] = (lo, hi)
    return out


def like_their_points(empty: np.ndarray, pieces) -> list[int]:
    """The spots (indices into ``empty``, (n, K, 3) empty looks) of the ``pieces``, (spot, look)
    pairs seen where the empty spot is, that differ from their own spot's empty look by less than
    ``ALIKE`` (mean |difference|, the board's background 1): there calibration cannot see them."""
    return [j for j, look in pieces if float(np.mean(np.abs(empty[j] - look))) < ALIKE]


def _envelope(layout: sampling.Layout, image: np.ndarray, H: np.ndarray, background: np.ndarray,
              empty: dict[str, np.ndarray], slack: float) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each empty sample's lowest and highest colour with the board moved up to ``slack`` units in
    eight directions: what an empty spot may look like when the fit is a little off."""
    if slack <= 0:
        return {}
    lo = {k: v.copy() for k, v in empty.items()}
    hi = {k: v.copy() for k, v in empty.items()}
    for a in np.linspace(0, 2 * np.pi, 8, endpoint=False):
        shift = np.array([[1, 0, slack * np.cos(a)], [0, 1, slack * np.sin(a)], [0, 0, 1]])
        s = sampling.take(layout, image, H @ shift)
        for k, idx in layout.groups.items():
            v = s.spots[k] / background[idx][:, None, :]
            v = np.where(np.isfinite(v), v, empty[k])
            lo[k] = np.minimum(lo[k], v)
            hi[k] = np.maximum(hi[k], v)
    return {k: (lo[k], hi[k]) for k in empty}


def clipped(colours: np.ndarray, channels: int = 2) -> np.ndarray:
    """Per colour (..., 3): paper clipped white, at least ``channels`` channels at the top."""
    return np.sum(colours >= PAPER_CLIPPED, axis=-1) >= channels


def _paper_clipped_round(image: np.ndarray, H: np.ndarray, xy: np.ndarray, radius: float = 0.5) -> bool:
    """Is the paper clipped white on most of a ring ``radius`` board units round ``xy``?"""
    a = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    ring = xy + radius * np.stack([np.cos(a), np.sin(a)], axis=1)
    colours = sampling.fetch(image, sampling.project(H, ring))
    return bool(np.mean(clipped(colours)) >= 0.5)


def _check_exposure(label: str, probes: np.ndarray) -> None:
    """Refuse a picture whose plain paper is mostly clipped white (``ExposureError``, "lower").

    Automatic exposure over a white print often pushes the paper to 255: then a white piece, the
    paper and a lamp's highlight all read the same, and no light model can bring them apart."""
    share = float(np.mean(clipped(probes)))
    if share >= OVER_EXPOSED:
        raise ExposureError(f"the {label} picture is over-exposed: {share:.0%} of the paper between the points "
                            f"shows as pure white, so white pieces cannot be told from it; lower the camera's "
                            f"exposure (arbiter calibrate --exposure, or the camera's own settings) or dim the "
                            f"lamp, and calibrate again", "lower")


def _word(family: Family, key) -> str:
    return "empty" if key is None else family.class_name(*key)
