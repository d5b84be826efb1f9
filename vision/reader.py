"""``BoardReader``: one camera frame in, one ``Observation`` out (or no reading, and why).

Per frame the reader

1. locates the board (its markers every frame, looked for first where the last fit put them,
   so a bumped camera is followed and one or two covered markers are bridged; or the fixed
   position found at calibration);
2. fetches the spot samples (at each spot, and where a standing piece's top is seen from this
   slanted camera) and the background probes (``vision.sampling``), and takes the light out;
3. refuses a frame too dark, or with its paper clipped white, saying which way the camera's
   exposure should go (``Diagnostics.exposure``; ``vision.camera_reader.CameraReader`` steps a
   camera that allows it);
4. classifies every spot against the empty board and the learned piece classes, allowing for
   glossy highlights, and gives each spot its class probabilities (``vision.classify``);
5. looks for anything over the board: probes that no longer look like the board's background
   after the light is accounted for (a hand, an arm, its shadow; a standing piece's shadow is
   excused), a spot that looks like neither the empty board nor any piece, or a corner marker
   covered while the spots beside it changed. Any of these makes the frame *occluded*: it yields
   no reading at all, because a half-covered board read as a board is how a referee goes wrong.

It never raises for a bad frame: an unreadable image, a board out of view or a covered marker
all come back as an occluded ``Observation`` whose ``reason`` says what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from engine.core import Piece
from engine.observation import Observation, Reading

from . import markers as mk
from . import registration as rg
from . import sampling
from . import tone

from .calibration import (ALIKE, OVER_EXPOSED, TOO_DARK, Calibration, classify_all, clipped, frame_looks,
                          read_samples)
from .classify import Verdicts, band_mean, class_gap, hue
from .occlusion import HandCheck, shadow_reach

# A class less likely than this on a spot is left out of its reading's ``probs``: the referee
# reads no board through it (``arbiter.referee.DOUBT_P``), and the journal need not keep it.
PROB_LEAST = 1e-4


@dataclass
class Diagnostics:
    """What the last ``read`` saw, for the overlay and for tuning: per spot best distance and
    choice, the probe deviations, and the registration used."""

    registration: rg.Registration | None = None
    best: dict[str, float] = field(default_factory=dict)
    deviating_probes: np.ndarray | None = None
    probe_deviation: np.ndarray | None = None
    unknown_spots: list[str] = field(default_factory=list)
    # a lone spot unlike every look that was read as its nearest look all the same
    # (``Pattern.lone_odd``: a gem mirroring the lamp whole)
    odd_read: list[str] = field(default_factory=list)
    # "lower" or "raise" when the frame's exposure made it unreadable or unsure: a camera that
    # lets itself be set can be stepped that way (``arbiter play`` does); ``note`` says why.
    exposure: str = ""
    note: str = ""
    # the spots were looked for where the board surface's bend puts them (``vision.surface``);
    # False with no bend measured, or with the camera moved too far from where it was
    bent: bool = False
    # the share of the printed lines' marks whose ink the frame does not show, and which they are
    # (indices into ``Family.ink``; ``_ink_hidden``): the overlay marks them
    ink_hidden: float = 0.0
    ink_gone: np.ndarray | None = None
    # (M,) per mark of ``Family.ink``: whether the frame could measure it (``_ink_hidden``): with
    # ``ink_gone``, the probe check does not count a probe whose lines all show
    ink_seen: np.ndarray | None = None


@dataclass
class _Seen:
    """A frame located and measured, ready to classify (``BoardReader._seen``)."""

    image: np.ndarray
    reg: rg.Registration
    layout: sampling.Layout
    rel: sampling.Relative
    ratio: np.ndarray
    raw: sampling.Samples


class BoardReader:
    """Reads frames of one calibrated board. ``sees`` is "colour": owners and kinds."""

    sees = "colour"

    def __init__(self, calibration: Calibration, *, probe_threshold: float | None = None,
                 probe_count: int = 2, in_frame: bool = True):
        self.cal = calibration
        self.in_frame = in_frame
        self.layout = calibration.layout()
        # The board read through its homography alone, for a camera moved too far from where the
        # surface's bend was measured (``vision.surface.Bend.holds_for``).
        self._flat = self.layout if calibration.bend is None else calibration.layout(bent=False)
        self.board = _board_of(calibration)
        self.probe_threshold = probe_threshold or calibration.family.probe_threshold
        self.probe_count = probe_count
        self.last = Diagnostics()
        self._hands = HandCheck.of(calibration, self.probe_threshold, probe_count)
        self._markers = mk.marker_layout(self.board)
        x0, y0, x1, y1 = mk.board_extent(self.board)
        self._corners = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float64)
        self._last_view: dict | None = None  # the last board this reader read (``_hidden_marker``)
        self._shadow_reach = shadow_reach(calibration.probes, calibration.family)  # (P, N)
        # keeps the last good fit for covered markers, starting from the calibration picture's
        self._locator = calibration.locator.tracker(self.board, calibration.frame_size)
        self._templates = {kind: calibration.class_templates(kind) for kind in self.layout.groups}
        self._unknown = {kind: unknown_above(calibration, kind, T) for kind, (_k, T) in self._templates.items()}
        self._darkest = {kind: _darkest_piece(T) for kind, (_k, T) in self._templates.items() if len(T)}

    def read(self, frame) -> Observation:
        self.last = Diagnostics()
        seen = self._seen(frame)
        if isinstance(seen, Observation):
            return seen
        return self._classified(seen)

    def _seen(self, frame) -> Observation | _Seen:
        """The frame located and its light measured (``_Seen``), or the blocked ``Observation``
        saying why it cannot be read: what every classifier needs first (registration, the
        exposure refusals, the board's lines hidden by an arm)."""
        image = getattr(frame, "image", frame)
        if (not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or image.size == 0
                or image.dtype != np.uint8):
            return Observation.blocked("the camera frame is empty or not a colour image (8 bits per channel)")
        if self.cal.locator.method != "markers" and (image.shape[1], image.shape[0]) != self.cal.frame_size:
            return Observation.blocked(f"the frame is {image.shape[1]}x{image.shape[0]} but the calibration was made "
                                       f"at {self.cal.frame_size[0]}x{self.cal.frame_size[1]}")
        try:
            reg = self._locator.locate(image, self.board)
        except rg.RegistrationError as exc:
            return Observation.blocked(f"board not found: {exc}")
        self.last.registration = reg
        bent = self.cal.bend is not None and self.cal.bend.holds_for(reg.board_to_image, self._corners)
        self.last.bent = bent
        layout = self.layout if bent else self._flat
        rel, ratio, raw = read_samples(self.cal, layout, image, reg.board_to_image)
        if not np.all(np.isfinite(raw.probes)) or any(not np.all(np.isfinite(v)) for v in raw.spots.values()):
            return Observation.blocked("part of the board is outside the picture")
        level = float(np.median(raw.probes.mean(axis=1)))
        if level < TOO_DARK:
            self.last.exposure = "raise"
            return Observation.blocked(f"the picture is too dark (the paper at {level:.0f} of 255): add light or "
                                       f"raise the camera's exposure (--exposure)")
        washed = self._washed_out(raw.probes)
        if washed:
            self.last.exposure = "lower"  # a camera that can be set is stepped down (``arbiter play``)
            self.last.note = (f"the picture is over-exposed ({washed:.0%} of the paper shows as pure white, so "
                              f"white pieces cannot be told from it): lower the camera's exposure (--exposure) "
                              f"or dim the lamp")
            return Observation.blocked(self.last.note)
        hidden = self._ink_hidden(image, reg.board_to_image, rel, raw, layout)
        if hidden:
            return Observation.blocked(hidden)
        return _Seen(image, reg, layout, rel, ratio, raw)

    def _classified(self, seen: _Seen) -> Observation:
        """The hand-set classifier's reading of a located frame (``vision.classify``)."""
        image, reg, rel, ratio = seen.image, seen.reg, seen.rel, seen.ratio
        looks = frame_looks(rel, self._templates)
        flat = self._flattened(rel, looks)
        if flat:
            self.last.exposure = "lower"
            self.last.note = (f"the picture is over-exposed (a {flat} shows nearly as the board, the camera's "
                              f"white flattening them together): lower the camera's exposure (--exposure) or dim "
                              f"the lamp")
            return Observation.blocked(self.last.note)
        curves: dict[str, np.ndarray] = {}
        verdicts = classify_all(self.cal, self.layout, rel, self._templates, in_frame=self.in_frame, looks=looks,
                                curves=curves)
        covered = self.probe_check(ratio, self._shade_ok(verdicts))
        if covered:
            return Observation.blocked(covered)
        points: dict[str, Reading] = {}
        unknown = []
        for kind, (keys, v) in verdicts.items():
            limit = np.full(len(v.best), self._unknown[kind])
            if self.cal.family.patterns[kind].split and np.any(v.choice >= 0):
                # pieces named by their groups in this frame: what is unlike its own group is odd
                limit = odd_limits(v, limit)
            darker = self._darker_than_darkest(kind, rel.top[kind], v, curves.get(kind))
            for j, i in enumerate(self.layout.groups[kind]):
                name = self.cal.family.spots[i]
                self.last.best[name] = float(v.best[j])
                if v.best[j] > limit[j] and not darker[j]:
                    unknown.append(name)
                    odd_kind = kind
                c = int(v.choice[j])
                piece = None if c < 0 else Piece(*keys[c])
                probs = {None if c2 == 0 else keys[c2 - 1]: float(p) for c2, p in enumerate(v.probs[j]) if p >= PROB_LEAST}
                points[name] = Reading(piece, float(v.confidence[j]), probs=probs)
        if len(unknown) == 1 and self.cal.family.patterns[odd_kind].lone_odd:
            # a gem mirroring the lamp whole, not a hand (``Pattern.lone_odd``): read as nearest
            self.last.odd_read, unknown = unknown, []
        if unknown:
            self.last.unknown_spots = unknown
            return Observation.blocked(f"something unexpected on {', '.join(sorted(unknown)[:6])}"
                                       f"{'...' if len(unknown) > 6 else ''} (a hand, or a piece off its point)")
        ordered = {s: points[s] for s in self.cal.family.spots}
        return self._finished(Observation(ordered, self.sees), reg, image)

    def _finished(self, obs: Observation, reg: rg.Registration, image: np.ndarray) -> Observation:
        """``obs``, unless a corner marker the fit did without is covered (``_hidden_marker``);
        the spots beside a covered marker that a hand did not reach are given as unread."""
        hidden, unread = self._hidden_marker(reg, image, obs)
        if hidden:
            return Observation.blocked(hidden)
        self._last_view = obs.view()  # as read: the next frame's spots are held to these
        if unread:
            points = {s: Reading.unknown(unread[s]) if s in unread else r for s, r in obs.points.items()}
            obs = Observation(points, obs.sees)
        return obs

    def _washed_out(self, probes: np.ndarray) -> float:
        """The share of the paper clipped white in every channel, when it is ``OVER_EXPOSED`` or
        more, else 0.

        Clipped paper hides how light a piece beside it is: a white man and the paper read the
        same, and the reader's own confidence cannot see it (measured: white men on paper clipped
        by a doubled exposure read as empty, each 97% sure). So such a frame gives no reading; the
        play loop steps the camera's exposure down and the next frames read. (Calibration is
        stricter: it asks for a darker exposure from the start, at two clipped channels.)"""
        share = float(np.mean(clipped(probes, channels=3)))
        return share if share >= OVER_EXPOSED else 0.0

    def _ink_hidden(self, image: np.ndarray, H: np.ndarray, rel, raw, layout: sampling.Layout) -> str:
        """A reason when the board's printed lines are hidden at ``INK_HIDDEN`` of their marks
        or more, else "".

        A hand or an arm over the board hides the lines under it; so does nothing else that
        belongs on a board (the marks, ``Family.ink``, lie clear of every piece). The probe
        check sees a hand by the edge of the light it changes, and a large pale arm covering
        most of the board changes the light of nearly every probe alike: a photoreal frame's
        arm, over 18 of morabaraba's 24 points, read as light wooden men on all of them. Its
        lines were gone at 45% of their marks; on the clear frames of the photoreal sets at
        none. A mark counts as gone when no pixel within ``INK_REACH`` of it shows its
        ink at a power (``tone.ink_powers``) of ``INK_GONE`` or more, where a frame's tone
        curve keeps between 0.2 and 5: a line a pixel wide is missed by a fit two or three pixels
        off (the simulator's, whose camera moves away from its calibration's every frame: a
        fifth of one frame's marks within a pixel, 3% within three), an arm's width never."""
        if rel.ink is None or raw.ink is None or self.cal.ink_empty is None or len(rel.ink) != len(self.cal.ink_empty):
            return ""
        then = self.cal.ink_empty
        scale = raw.ink / np.maximum(rel.ink, 1e-6)  # the frame's light at each mark (``sampling``)
        px = np.rint(sampling.project(H, layout.ink_at)).astype(np.int64)  # (M, 2)
        r = INK_REACH
        dy, dx = np.mgrid[-r:r + 1, -r:r + 1]
        xs, ys = px[:, 0, None] + dx.ravel(), px[:, 1, None] + dy.ravel()  # (M, w)
        inside = ((xs >= 0) & (xs < image.shape[1]) & (ys >= 0) & (ys < image.shape[0])).all(axis=1)
        if inside.sum() < INK_LEAST:
            return ""
        near = image[np.clip(ys, 0, image.shape[0] - 1), np.clip(xs, 0, image.shape[1] - 1)].astype(np.float64)
        near = near / np.maximum(scale[:, None, :], 1e-6)  # (M, w, 3) relative to the board there
        # the pixel nearest the printed ink: the darkest, or for ink lighter than the board the lightest
        best = np.where(then > 1, near.max(axis=1), near.min(axis=1))
        p = tone.ink_powers(best, then)
        seen = inside & np.isfinite(p)
        if seen.sum() < INK_LEAST:
            return ""
        gone = seen & (p < INK_GONE)
        self.last.ink_seen = seen
        share = float(gone.sum() / seen.sum())
        self.last.ink_hidden = share
        self.last.ink_gone = np.flatnonzero(gone)
        if share < INK_HIDDEN:
            return ""
        near_spot = np.bincount(layout.ink_near[gone], minlength=len(self.cal.family.spots))
        spot = self.cal.family.spots[int(np.argmax(near_spot))]
        return (f"something is over the board near {spot} (the board's lines are hidden at {share:.0%} of "
                f"their marks: a hand or arm?)")

    def _flattened(self, rel, looks) -> str:
        """The name of a piece class that this frame's light flattens against the board, else "".

        Only for pieces much lighter than the board under them (white and yellow rings on the
        blue cloth): the board itself is then far from clipped, so ``_washed_out`` sees nothing,
        but the camera's tone curve bends the pieces towards white faster than the board
        (``vision.tone``). Their looks as this frame shows them are predicted through that
        curve; where, at ``FLAT_SHARE`` of their spots or more, a look comes within twice
        ``ALIKE`` of the bare board (the margin calibration asks of the pieces picture), a ring
        and the empty cloth cannot be told apart reliably and the frame gives no reading.
        Measured on the photoreal renders: every ring read as empty at +1.4 EV with the lamp
        on the setup, and single rings at +0.4 EV under a bright warm lamp; frames with the
        bent looks 0.17 or more from the board read right."""
        if rel.scale is None:
            return ""
        for kind, (keys, T) in self._templates.items():
            share = tone.washed_out(T, looks[kind], 2 * ALIKE)
            if len(share) and float(share.max()) >= FLAT_SHARE:
                return self.cal.family.class_name(*keys[int(np.argmax(share))])
        return ""

    def _hidden_marker(self, reg: rg.Registration, image: np.ndarray,
                       obs: Observation) -> tuple[str, dict[str, str]]:
        """(a reason when a marker the fit did without is covered and the cover may reach the
        board, else ""; the spots beside a covered marker to give as unread, each with its note).

        A hand reaching across a corner hides its marker; the fit goes on with the other three
        (or the last good one), and a pale hand under a bright lamp can look like the paper to
        the probes, and like a white man on the corner point. The place where a missing marker
        should be is known: straightened out, it still shows the marker's pattern when the
        detector merely missed it (blur, a steep view). When it does not, something covers it:
        a cup on the corner is harmless, a hand is not. So the frame is read only if the spots
        near that corner read as they did in the last frame this reader read (a reader that has
        read none refuses): a cup changes nothing there, a hand does. Even then those spots are
        not read: the cup may hide the corner point too, and what the camera sees there is the
        cup (a glass cup over a7 read as the man seen there a frame before, when he had gone:
        docs/learned-reader.md). They are given as unread, and the referee waits for them
        only when a step turns on them."""
        if not reg.method.startswith("markers"):
            return "", {}
        unread: dict[str, str] = {}
        now = obs.view()
        for m in self._markers:
            if m.id in reg.markers_seen or rg.marker_likeness(image, reg.board_to_image, m) >= MARKER_LIKE:
                continue
            spots = self.cal.family.spots
            d = np.linalg.norm(self.cal.family.xy - np.asarray(m.centre), axis=1)
            near = [spots[i] for i in np.flatnonzero(d <= d.min() + MARKER_REACH)]
            corner = spots[int(np.argmin(d))]
            if self._last_view is None or any(now[s] != self._last_view.get(s) for s in near):
                return (f"something is over the board near {corner}, covering a corner marker (a hand or arm? "
                        f"if a cup or the like stands on the marker, move it off)", {})
            for s in near:
                unread[s] = f"something covers the board's corner marker beside {corner} (move it off the corner)"
        return "", unread

    def _darker_than_darkest(self, kind: str, top: np.ndarray, v, curve: np.ndarray | None = None) -> np.ndarray:
        """Spots read as the darkest piece class that show darker still, in every channel, than
        the darker half of that class's look: no hand or piece off its point, whatever their
        distance.

        A glossy black man's calibrated look holds the lamp's highlight over part of its top; under
        another lamp, or in a dim frame, none of it shows and the man is darker than any look
        (photoreal renders: 0.13 of the board's brightness against a look of 0.57, 0.39 from it,
        over the 0.3 that marks something unknown). What is unknown on a board is lighter than
        the darkest piece, not darker: skin, a sleeve lit by the lamp, a piece half on the paper.
        So a spot is let through only when it is darker in every channel than even the darker
        half of that look and of its hue (within ``DARK_HUE``): dark skin in shadow can be as
        dark as a black man, but it is redder. (``_darkest_piece`` says which class, once.)"""
        if kind not in self._darkest:
            return np.zeros(len(v.choice), bool)
        darkest, body, look_hue = self._darkest[kind]
        if curve is not None:
            darkest, body, look_hue = _darkest_piece(tone.bend(self._templates[kind][1], curve))
        seen = top.mean(axis=1)
        like = np.abs(hue(seen) - look_hue[None]).mean(axis=1) <= DARK_HUE
        return (v.choice == darkest) & np.all(seen < body[None], axis=1) & like

    def _shade_ok(self, verdicts) -> np.ndarray:
        """Probes within a standing piece's shadow reach of a spot read as occupied."""
        occupied = np.zeros(len(self.cal.family.spots), bool)
        for kind, (_keys, v) in verdicts.items():
            occupied[self.layout.groups[kind]] = v.choice >= 0
        return self._shadow_reach[:, occupied].any(axis=1)

    def probe_check(self, ratio: np.ndarray, shade_ok: np.ndarray | None = None,
                    tints: np.ndarray | None = None, standing: np.ndarray | None = None) -> str:
        """A reason if the background shows something over the board, else '' (``vision.occlusion``;
        ``tints`` and ``standing``: the standing pieces' colours, ``HandCheck.check``)."""
        gone = None
        if self.last.ink_seen is not None:
            gone = np.zeros(len(self.last.ink_seen), bool)
            gone[self.last.ink_gone] = True
        verdict = self._hands.check(ratio, shade_ok, tints, standing, self.last.ink_seen, gone)
        self.last.probe_deviation = verdict.deviation
        self.last.deviating_probes = verdict.deviating
        return verdict.reason




# How much a missing marker's place must still look like its pattern (normalised correlation)
# for the frame to be read: seen markers score 0.8-0.95; a hand or a card over one, below 0.3.
MARKER_LIKE = 0.5
# Spots this much (board units) further from a covered marker than the nearest one may be under
# what covers it, and must read unchanged.
MARKER_REACH = 1.0


# A frame whose printed lines are hidden at this share of their marks or more shows something over
# the board (``BoardReader._ink_hidden``): on the photoreal sets' clear frames none were, under
# their hands up to 0.45 (48 of 85 hand frames 0.15 or more).
INK_HIDDEN = 0.15
# A mark whose ink shows at a power (``tone.ink_powers``) under this is hidden; a frame's tone
# curve gives 0.2-5 (``tone.ink_gamma``).
INK_GONE = 0.1
# Fewer marks than this (of the ones calibration saw ink at) say nothing either way.
INK_LEAST = 20
# How far (pixels) round a mark its ink is looked for: a fit a few pixels off misses a thin line.
INK_REACH = 3


# A frame in which a light piece's look comes near the bare board at this share of its spots or
# more gives no reading (``BoardReader._flattened``).
FLAT_SHARE = 0.1
# How far (mean per-channel difference of ``classify.hue``) a spot darker than the darkest look may
# stray from that look's hue and still be taken for that piece (``_darker_than_darkest``):
# a black man without its highlight lay 0.03 from its look (photoreal); skin, its red half as much
# again as its blue, lies 0.2 or more from a neutral look.
DARK_HUE = 0.12
# For pieces named by their groups in the frame (``Pattern.split``), a spot further from its
# look than this many times the frame's median piece is unlike any piece there.
UNKNOWN_SPREAD = 2.0
# ... and than this many times the median of its own group in the frame, for a group this large
# or larger (a median of five moves only when three of them are odd).
ODD_GROUP_LEAST = 5


def odd_limits(v: Verdicts, floor: np.ndarray) -> np.ndarray:
    """How far each spot of a kind named by its groups (``Pattern.split``) may lie from its look
    before it shows something that is no piece: ``floor`` (the calibration's limit), raised to
    ``UNKNOWN_SPREAD`` times the frame's median piece, and for a spot read as one of a group of
    ``ODD_GROUP_LEAST`` or more, to that many times its own group's median.

    A lamp can move one class far from its look and leave the other near: on a photoreal blind
    frame (a 3220 K lamp, warm and bright, to one side) the fourteen gold gems lay a median 0.26
    from gold's look and the fourteen silver ones 0.09 from silver's; the frame's median piece
    (0.14) did not lift the calibration's limit (0.30), and two gold gems at 0.31 and 0.32, no
    further from their group than its spread, made the frame "something unexpected". Against
    their own group each is 1.2 times the median, and the frame reads right. A hand over the
    board still shows: to lift a group's median it must cover half the group, and an arm that
    large hides the board's lines (``_ink_hidden``) and changes its light (``probe_check``)
    first; no hand frame of the photoreal sets (75 over Brain Hanky) or the simulator's was
    read with this limit."""
    limit = np.maximum(floor, UNKNOWN_SPREAD * float(np.median(v.best[v.choice >= 0])))
    for c in np.unique(v.choice[v.choice >= 0]):
        group = v.choice == c
        if group.sum() >= ODD_GROUP_LEAST:
            limit[group] = np.maximum(limit[group], UNKNOWN_SPREAD * float(np.median(v.best[group])))
    return limit


def _darkest_piece(templates: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """(index of the darkest class look, the mean of its darker half of samples, the hue of its
    mean): what ``BoardReader._darker_than_darkest`` compares each frame's spots with."""
    looks = templates.mean(axis=1)  # (C, 3)
    darkest = int(np.argmin(looks.mean(axis=1)))
    return darkest, band_mean(templates[darkest], (0.0, 0.5)), hue(looks[darkest])


def unknown_above(cal: Calibration, kind: str, templates: np.ndarray) -> float:
    """The best distance above which a spot of ``kind`` shows something that is no piece.

    ``cal.unknown``, measured at calibration; for a kind whose pieces are named by their groups
    in the frame (``Pattern.split``: Brain Hanky's rings and gems, whose look moves with the lamp
    by as much as the two sides' pieces differ) no less than the two looks' own difference: a
    piece that far from its look is still nearer its own group than a finger is to either."""
    pat = cal.family.patterns[kind]
    if not pat.split or len(templates) < 2:
        return cal.unknown
    gaps = [class_gap(templates[a], templates[b], **pat.look())
            for a in range(len(templates)) for b in range(a + 1, len(templates))]
    return max(cal.unknown, min(gaps))


def _board_of(cal: Calibration):
    import engine

    return engine.load(cal.game, **cal.options).board
