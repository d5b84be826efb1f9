"""``LearnedReader``: the camera reader with a learned spot classifier.

Everything before classification is ``BoardReader``'s: the board located by its markers (or the
fixed fit), the frame refused when too dark or clipped white (with the way to step the exposure),
or when the board's printed lines are hidden by an arm. Then, instead of the hand-set measures:

1. one patch per spot (``vision.patches``), with the light the background probes measure at
   that spot taken out (``piece_book.evened``);
2. the patches through the embedder the calibration was made with (the spot network beside
   the pixel baseline's colours by default, or either alone);
3. each spot read by the calibration's piece book (``vision.piece_book``): probabilities over
   empty and every class that may stand there;
4. the hand check: background probes that changed unlike light (a standing piece's shadow
   excused where a piece was read), and any spot *foreign* to the book (nothing it may hold lies
   near: a hand, a cup) make the frame occluded, as a covered corner marker does.

Like ``BoardReader`` it never raises for a frame: whatever goes wrong comes back as an occluded
``Observation`` whose ``reason`` says what.

``reader_for(calibration)`` gives the reader a calibration was made for: this one for
``Calibration.classifier == "learned"``, ``BoardReader`` otherwise.
"""

from __future__ import annotations

import numpy as np

from engine.core import Piece
from engine.observation import Observation, Reading

from .calibration import Calibration, CalibrationError
from .occlusion import piece_tints
from .patches import PatchCutter
from .piece_book import PieceBookError, embed_frame, embedder_for
from .reader import BoardReader, _Seen


class LearnedReader(BoardReader):
    """Reads frames of one board calibrated with ``classifier="learned"``.

    ``embedder``: the one the calibration's book was made with (default: found by its name,
    ``piece_book.embedder_for``). Raises CalibrationError when the calibration has no book or
    the embedder is not the book's: calibrate again."""

    def __init__(self, calibration: Calibration, embedder=None, **kw):
        if calibration.book is None:
            raise CalibrationError("this calibration was made for the hand-set reader (no piece book): calibrate "
                                   "again with `arbiter calibrate GAME --classifier learned`")
        super().__init__(calibration, **kw)
        self.book = calibration.book
        try:
            self.embedder = embedder if embedder is not None else embedder_for(self.book.embedder)
            self.book.check_embedder(self.embedder)
        except PieceBookError as exc:
            raise CalibrationError(str(exc)) from None
        self._cutters = {id(self.layout): PatchCutter(calibration.family, self.layout.spot_at, board=self.board),
                         id(self._flat): PatchCutter(calibration.family, self._flat.spot_at, board=self.board)}
        self.last_book = None  # the last frame's ``BookReading``, for the overlay and for tuning

    def read(self, frame) -> Observation:
        try:
            return super().read(frame)
        except Exception as exc:  # a frame must never stop the game
            # a frame the front passed but the patches or the embedder could not take (the
            # network's runtime has errors of its own), said with what went wrong
            return Observation.blocked(f"the frame could not be read ({type(exc).__name__}: {exc})")

    def _classified(self, seen: _Seen) -> Observation:
        """The piece book's reading of a located frame (steps 1-4 of the module's text)."""
        fam = self.cal.family
        cutter = self._cutters[id(seen.layout)]
        looks = embed_frame(self.embedder, cutter, seen.image, seen.reg.board_to_image, seen.layout, seen.ratio)
        if not looks.valid.all():
            out = [fam.spots[i] for i in np.flatnonzero(~looks.valid)]
            return Observation.blocked(f"part of the board is outside the picture ({', '.join(out[:6])})")
        r = self.book.read(looks.emb, looks.offsets)
        if looks.foreign is not None:  # the network's own word on a hand over a spot counts too
            r.foreign = r.foreign | self.book.foreign_of(looks.foreign)
        self.last_book = r
        occupied = r.choice >= 0
        covered = self.probe_check(seen.ratio, self._shadow_reach[:, occupied].any(axis=1),
                                   piece_tints(looks.patches, occupied), occupied)
        if covered:
            return Observation.blocked(covered)
        for i, s in enumerate(fam.spots):
            self.last.best[s] = float(r.best[i])
        unknown = [fam.spots[i] for i in np.flatnonzero(r.foreign)]
        if unknown:
            self.last.unknown_spots = unknown
            return Observation.blocked(f"something unexpected on {', '.join(sorted(unknown)[:6])}"
                                       f"{'...' if len(unknown) > 6 else ''} (a hand, or a piece off its point)")
        conf = r.confidence()
        points = {}
        for i, s in enumerate(fam.spots):
            c = int(r.choice[i])
            piece = None if c < 0 else Piece(*self.book.classes[c])
            points[s] = Reading(piece, float(conf[i]), probs=self.book.probs_of(r, i))
        return self._finished(Observation(points, self.sees), seen.reg, seen.image)


def reader_for(calibration: Calibration, embedder=None, **kw) -> BoardReader:
    """The reader ``calibration`` was made for (``Calibration.classifier``)."""
    if calibration.classifier == "learned":
        return LearnedReader(calibration, embedder, **kw)
    return BoardReader(calibration, **kw)
