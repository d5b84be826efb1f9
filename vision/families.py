"""Board families as data for the reader: where pieces stand, what they look like, how to sample.

The reader is one piece of code for every board. What differs between families is data:

* the *spots* where a piece can stand (board points; Brain Hanky adds a gem spot at the centre
  of every whole square) and which piece kinds may stand on each;
* the *sampling pattern* for each kind of spot, in board units: a small disc inside a chip or a
  gem, an annulus along the band of a hollow ring (its hole shows the board, so sampling there
  would see the point, not the piece);
* the *piece classes* to learn at calibration: (owner, kind) pairs with a name a person knows
  ("white man", "gold gem").

Which reading data a game gets is looked up by its engine family (``READERS``, keyed by
``Rules.family``); a family with no entry is read as men on points (a disc over every spot,
one class per colour and piece kind), which suits any game of flat pieces on points. A new
family whose pieces need another look (the two-grid gem game, Thinking In Circles, Brainmaster)
adds one entry here; only a piece that cannot be told by colour over a disc or an annulus would
need a classifier of its own. Spots, their coordinates, piece kinds and the names players call
the pieces by all come from the engine's family protocol, so they never disagree with the rules.

Sizes are in board units and follow the printed boards (``vision.printable``): HTJB men are
0.34 units in radius on boards whose points are one unit apart; Brain Hanky rings have their
coloured band between radii 0.07 and 0.135 and gems are diamonds 0.12 from centre to tip,
around points 0.29 units from their square's centre.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from collections.abc import Callable


@dataclass(frozen=True)
class Pattern:
    """Sample offsets (board units) round a spot's centre, and the radius a piece covers."""

    offsets: np.ndarray  # (K, 2) float64
    piece_radius: float  # how far from the centre a piece on this spot reaches
    # The share of samples a piece's look is compared over (``vision.classify.distances``): below
    # 1 for glossy pieces, whose highlight spoils a different part of the piece under each lamp.
    keep_class: float = 1.0
    # How much a sample lighter than a piece's look counts against it (``classify.distances``):
    # below 1 for glossy pieces, whose highlights add light but never take it away.
    brighter: float = 1.0
    # Compare with a piece's look in order of brightness, not sample by sample
    # (``classify.distances``): for pieces of one colour all over.
    ordered: bool = False
    # Measure a piece's distance from its look in proportion to how light that look is
    # (``classify.distances``): for pieces much lighter than the board under them (white rings
    # on a slate cloth), whose gloss and shading change them by a share of their brightness.
    relative: bool = False
    # Compare a piece with the pieces' looks by the hue of each sample alone, its brightness
    # divided out (``classify.distances``): for metal gems, mirrors whose light and dark facets
    # change with every lamp while gold stays warmer than silver. The empty board is still
    # compared in full.
    chroma: bool = False
    # Add this times the difference in hue of a spot's mean colour and a piece's look to the
    # distance (``classify.distances``): white and yellow rings differ in one channel only, which
    # the shading and gloss of the other two drown in a plain comparison.
    hue_weight: float = 0.0
    # In a frame that shows pieces of both of this kind's classes in two clear groups, name each
    # piece by its group (``classify.split_pair``), not by the calibration's looks alone.
    split: bool = False
    # The share of a spot's samples, darkest to lightest, whose mean colour ``split_pair`` uses:
    # a gem's darker part (clear of mirrored highlights), a ring's lighter part (its band, not the
    # cloth at its edges).
    split_band: tuple[float, float] = (0.0, 1.0)
    # How many times wider the second class's group spreads in a frame than the first's, as
    # ``split_pair`` expects before it sees them (``classify._prior_variances``): a coloured
    # piece's hue moves with what it mirrors and with the camera's tone curve, a white or silver
    # one's far less.
    split_wide: float = 1.0
    # Split this kind's pieces into their groups (``split``) by samples of their tops taken from
    # the picture as the camera gave it, not blurred by a printed line's width as every other
    # sample is (``sampling.smoothed``, ``Samples.unblurred``): a metal gem's tint lies in its
    # facets between the mirrored highlights, which a blur of a pixel mixes with those
    # highlights and, at its edge, with the cloth and the rings round it. The looks, the empty
    # squares and the printed pattern keep the blurred samples their measures were made on.
    sharp: bool = False
    # A spot read as empty that looks like none of the frame's empty spots joins the group of
    # pieces it is nearest when this band of its samples, darkest to lightest, is nearer that
    # group's brightness against the board than the empty spots' (``classify.odd_in_group``):
    # a gem's darkest tenth, its facets mirroring the room. None: never.
    join_band: tuple[float, float] | None = None
    # When the frame's pieces make no two groups, name each whose hue along the looks' line lies
    # plainly near one look by that look (``classify.named_by_hue``): for metal gems, whose hue
    # mirrors what is round them but stays on its own side; a ring's gloss can take a window's
    # colour whole (on the photoreal sets, rings named so read yellow ones white in six frames).
    hue_alone: bool = False
    # A spot read as a piece whose samples show the printed board as calibration saw it, a smooth
    # shading apart, is empty (``classify.print_shown``); one read as empty in a close call with
    # a piece that hides the print is that piece (``classify.print_hidden``): for pieces that
    # cover the print under them.
    print_under: bool = False
    # With ``print_under``: a spot read as empty that strays from its print more than this many
    # times the frame's clearly empty spots (``classify.print_hidden``) is the piece it is
    # nearest, close call or not; 0: never. For pieces whose empty spots lie clear of other
    # pieces' shadows (a gem square's middle; a ring point's edge can be shaded 27 times over).
    print_far: float = 0.0
    # Turn a spot read unsurely as the lightest piece empty when its foot looks like the frame's
    # empty spots (``classify.empty_like_frame``): white men on white paper.
    empty_in_frame: bool = False
    # Up to how much more slack than ``Family.slack`` calibration may allow this kind's empty look
    # (``calibration._widest_envelope``), if every piece of the pieces picture stays well clear of
    # the widened look: not for a piece that can look like the ground (a gem mirroring the cloth).
    slack_most: float = 0.0
    # Follow the frame's own tone curve, measured on the printed ink of its empty spots
    # (``tone.ink_gamma``), for the empty looks and the pieces' alike.
    ink: bool = False
    # One spot of this kind unlike every look, alone in its frame (nothing else there unknown),
    # is read as what it is nearest rather than refused as a hand (``BoardReader.read``): for
    # metal gems, whose facets can mirror a lamp whole. A hand covers more than one gem.
    lone_odd: bool = False
    # A sample of a piece's top clipped by the camera (any channel at ``sampling.CLIPPED``) shows
    # the lamp, not the piece; it is given the mean colour of the spot's unclipped samples
    # (``sampling.normalise``): for metal gems, whose mirrored lamp is white whatever the metal.
    fill_clipped: bool = False
    # The kind whose lightest pieces show this kind the colour of the frame's lamp
    # (``classify.lamp_shift``): metal gems mirror the lamp itself, which the light model,
    # measured on the board's ground, does not see; a white piece's gloss shows it as they do.
    lamp_from: str = ""
    # How much a piece's foot counts beside its top, compared with the feet of the frame's other
    # pieces of each class (``classify.with_feet``): for glossy men whose top can mirror a lamp.
    foot_weight: float = 0.0

    def look(self) -> dict:
        """How ``classify.distances`` compares a spot with a piece's look on this pattern."""
        return {"keep_class": self.keep_class, "brighter": self.brighter, "ordered": self.ordered,
                "relative": self.relative, "chroma": self.chroma, "hue_weight": self.hue_weight}

    @staticmethod
    def disc(radius: float, rings: int, piece_radius: float, per_ring: int = 6, **look) -> "Pattern":
        pts = [(0.0, 0.0)]
        for i in range(1, rings + 1):
            r = radius * i / rings
            n = per_ring * i
            for k in range(n):
                a = 2 * math.pi * (k + 0.5 * (i % 2)) / n
                pts.append((r * math.cos(a), r * math.sin(a)))
        return Pattern(np.array(pts, np.float64), piece_radius, **look)

    @staticmethod
    def annulus(radii: tuple[float, ...], per_ring: int, piece_radius: float, **look) -> "Pattern":
        pts = []
        for j, r in enumerate(radii):
            for k in range(per_ring):
                a = 2 * math.pi * (k + 0.5 * (j % 2)) / per_ring
                pts.append((r * math.cos(a), r * math.sin(a)))
        return Pattern(np.array(pts, np.float64), piece_radius, **look)


@dataclass(frozen=True)
class PieceClass:
    owner: int
    kind: str
    name: str  # "white man", "gold gem"

    @property
    def key(self) -> tuple[int, str]:
        return (self.owner, self.kind)


@dataclass(frozen=True)
class Family:
    """Everything the reader needs to know about one game's board and pieces."""

    name: str  # "htjb" or "brain-hanky"
    spots: tuple[str, ...]
    xy: np.ndarray  # (N, 2) board coordinates of the spots
    spot_kind: tuple[str, ...]  # per spot: the piece kind that may stand there ("man", "ring", "gem")
    patterns: dict[str, Pattern]  # piece kind -> sampling pattern
    classes: tuple[PieceClass, ...]
    # Background probes: keep ``probe_clear`` x a piece's radius from every spot, sample on a
    # grid of ``probe_step``, and demand an even look within ``probe_check`` of the probe on the
    # empty board. Brain Hanky's webs leave only small islands of cloth, so its values are tight.
    probe_clear: float = 1.45
    probe_step: float = 0.2
    probe_check: float = 0.13
    smooth: float = 0.03  # blur before sampling (board units): about the width of a printed line
    # A probe whose change of light differs from its neighbours' by more than this (log units)
    # deviates; Brain Hanky's probes sit close to the webs' lines and vary more on their own.
    probe_threshold: float = 0.1
    # How tall each kind of piece stands (board units): a camera at a slant sees its top away
    # from its foot, and the reader samples a piece there (``sampling.lift``).
    heights: dict[str, float] = field(default_factory=dict)
    # How far (board units) from a spot's centre a standing piece's shadow may reach: probes there
    # may darken (keeping the paper's colour) without anything being over the board.
    shadow_reach: float = 0.9
    # How far (board units) the board may land from where its fit says, for an empty spot still to
    # look empty (``vision.calibration._envelope``): lens distortion, a print not quite flat.
    slack: float = 0.05
    # The smallest camera frame (width, height) its pieces read reliably at (the simulator's size).
    frame: tuple[int, int] = (480, 360)
    # Said after "use pieces that stand out from the board" when calibration finds a piece like
    # the empty board: what else helps on this family's boards (``{game}``: the game's name).
    contrast_hint: str = ""
    # (M, 2) board points on the printed lines, clear of every spot's piece: the ink a frame's
    # tone curve is measured on (``tone.ink_gamma``) however full the board is.
    ink: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    # The committed spot network its pieces are read with by the learned reader (a file's stem in
    # vision/models, ``vision.spotnet.model_path``), chosen per family on the validation sets
    # (docs/learned-reader.md).
    network: str = "spotnet"
    # Which classifier a calibration of this family uses unless told (``arbiter calibrate
    # --classifier``, ``calibrate()``, the web page's calibration, the simulated camera): "measured"
    # (the hand-set reader) or "learned". Chosen per group of families by
    # a rule on the pooled validation, the fresh sets and the game sets through the referee
    # (docs/learned-reader.md, "Which reader is the default", "The game sets"; the mills' by the
    # twelfth session's fresh read, "The game sets' illegal frames traced").
    classifier: str = "measured"
    # The learned reader's least temperature for this family's pieces, as a share of how far a
    # piece lies from the board (None: ``piece_book.TEMPERATURE_LEAST``). Calibration's pictures
    # read back clean, so the fitted temperature is nearly always this floor, and it alone sets
    # how sure the reader's odds are. Fitted per family by the truth's log-loss on the validation
    # sets (docs/learned-reader.md, "The learned reader's odds fitted per family"): the pegs' odds
    # at the default were twice as costly as at a third of it, and so soft that the referee could
    # not call a miscounted indicator row (a black key peg read black at 0.99976 left white a
    # doubt above ``arbiter.referee.DOUBT_P``).
    temperature_least: float | None = None
    # Where the pieces picture puts one piece of each class (``vision.layouts.LAYOUTS``): "corners"
    # (the board's corners in turn), "spread-squares" (Brain Hanky's squares spread over the
    # cloth), "peg-staircase" (Brainmaster's code colours down the rows).
    layout: str = "corners"
    # The full set's layout (``vision.layouts.full_layout``): "spread" (several pieces of each class
    # spread farthest first) or "clusters" (Brain Hanky's clusters as play shows them).
    full_layout: str = "spread"

    def classes_for(self, kind: str) -> tuple[PieceClass, ...]:
        return tuple(c for c in self.classes if c.kind == kind)

    def class_name(self, owner: int, kind: str) -> str:
        for c in self.classes:
            if c.key == (owner, kind):
                return c.name
        return f"player {owner} {kind}"


# Piece heights, board units: HTJB men are about 5 mm tall on 22.5 mm units; Brain Hanky rings
# about 6 mm and gems about 9 mm on 93 mm cells.
MAN_HEIGHT, RING_HEIGHT, GEM_HEIGHT = 0.2, 0.065, 0.1
HTJB_MAN = Pattern.disc(0.27, 3, 0.34, keep_class=0.85, brighter=0.25, ordered=True, empty_in_frame=True, ink=True,
                        foot_weight=1.5)
# A ring's band: in order of brightness (its gloss and shaded side fall anywhere round it), in
# proportion to its brightness (on the blue cloth a white ring is several times the ground),
# with its hue weighed in (white and yellow differ in one channel), and named by its group in
# the frame (by the lighter half of its samples: the band, not the cloth at its edges) when the
# frame shows both sides' rings apart. Against a ring's look only its best-matching three quarters
# count, as for men and gems: a ring tilted on a fold, or lit low from one side, shows one side
# of its band as dark as the cloth (on the photoreal renders five rings read as empty so; with
# 0.67 to 0.85 kept all read right, and nothing else changed). A spot read empty in a close call
# with a ring, whose samples hide the print under it, is that ring (``Pattern.print_under``).
HANKY_RING = Pattern.annulus((0.085, 0.105, 0.125, 0.14), 12, 0.14, ordered=True, relative=True,
                             hue_weight=0.5, split=True, split_band=(0.5, 1.0), slack_most=0.02,
                             keep_class=0.75, ink=True, print_under=True)
# A gem, a metal mirror: by the hue of its darker two thirds (``classify._by_hue``), and by its
# group in the frame (silver cooler than gold, both moving with every lamp), told by the hue of
# its darker half: a gold gem mirroring a white lamp over many facets looks silvery in more than
# that (the stored photoreal sets, the game set too, with ``classify.LAMP_HUE`` discounted: 189
# -> 193 of 195 frames split right against the darker two thirds; the darkest third 191).
# One such gem unlike every look, alone in its frame, is a mirrored lamp (``Pattern.lone_odd``).
# A gem read as empty, unlike the frame's empty squares, whose darkest tenth is as dark as its
# group's joins it (``Pattern.join_band``); a spot read as a gem that shows the printed square
# under it, only shaded, is empty, and one read as empty that strays from its print six times as
# far as the empty squares do is a gem (``Pattern.print_under``, ``Pattern.print_far``).
# Its gold group spreads twice as wide as its silver one (``Pattern.split_wide``): within a frame,
# over the 412 stored photoreal frames with five or more of each metal, the median ratio of the
# two groups' spreads along the split's hue was 2.0 (robust) or 2.1 (standard deviations), under
# 1.3 in one frame in ten. (The yellow rings spread 5.5 times the white ones, but every stored
# frame's rings split right either way, and expected so wide, the simulator's yellow rings at
# 640x480 took white ones in two more frames: the rings keep 1.)
# Its groups are told by samples taken unblurred (``Pattern.sharp``): over the 506 stored frames
# with five or more gems of each metal, the two groups along the split's hue lay a median 11.1 of
# their spreads apart unblurred against 10.4 blurred (6.8 against 6.3 in the tenth of frames
# closest), and of the 599 frames with four gems or more, the true gems split wrongly in 5 rather
# than 7; through the whole reader 632 of the 638 Brain Hanky frames read right, against 630.
HANKY_GEM = Pattern.disc(0.08, 3, 0.12, per_ring=5, keep_class=0.67, chroma=True, split=True,
                         split_band=(0.0, 0.5), split_wide=2.0, sharp=True, lone_odd=True, fill_clipped=True,
                         lamp_from="ring", join_band=(0.0, 0.1), hue_alone=True, print_under=True, print_far=6.0)

def _classes(game) -> tuple[PieceClass, ...]:
    """Every (colour, kind) in play, named as players call them ("white man", "gold gem").

    A family whose colours and kinds do not all pair up lists its pieces itself
    (``Rules.piece_classes``: Brainmaster's indicator pegs are black or white only, its code pegs
    never are; Thinking In Circles' tokens belong to nobody); otherwise every colour in play
    comes in every kind."""
    rules = game.rules
    listed = getattr(rules, "piece_classes", None)
    if listed is None and hasattr(rules, "inner"):  # a match of rounds: its game's pieces
        listed = getattr(rules.inner, "piece_classes", None)
    if listed is not None:
        return tuple(PieceClass(o, k, rules.piece_name(o, k)) for o, k in listed)
    return tuple(PieceClass(o, k, rules.piece_name(o, k)) for o in range(1, rules.colours + 1)
                 for k in rules.piece_kinds)


def _spots(game) -> tuple[tuple[str, ...], np.ndarray, tuple[str, ...]]:
    rules = game.rules
    spots = tuple(rules.spots)
    xy = np.array([rules.spot_xy(s) for s in spots], np.float64)
    return spots, xy, tuple(rules.kind_at(s) for s in spots)


# Ink points lie this far apart along a line, and this many times a man's radius from any point.
INK_STEP = 0.25
INK_CLEAR = 1.4


def line_ink(board, xy: np.ndarray, clear: float, step: float = INK_STEP) -> np.ndarray:
    """(M, 2) points every ``step`` along the board's straight edges that lie ``clear`` or more
    from every spot: printed line that no piece standing on a point covers."""
    pts = []
    for a, b in getattr(board, "edges", ()):
        pa, pb = np.asarray(board.coords[a], float), np.asarray(board.coords[b], float)
        n = max(1, int(np.linalg.norm(pb - pa) / step))
        for t in (np.arange(n) + 0.5) / n:
            pts.append(pa + t * (pb - pa))
    if not pts:
        return np.zeros((0, 2))
    pts = np.array(pts)
    d = np.linalg.norm(pts[:, None, :] - xy[None], axis=2).min(axis=1)
    return pts[d >= clear]


def men_on_points(game) -> Family:
    """Flat pieces on points (HTJB men, chips): a disc sampled inside each piece."""
    spots, xy, kinds = _spots(game)
    return Family("htjb", spots, xy, kinds, {k: HTJB_MAN for k in set(kinds)}, _classes(game),
                  heights={k: MAN_HEIGHT for k in set(kinds)},
                  ink=line_ink(game.board, xy, INK_CLEAR * HTJB_MAN.piece_radius), classifier="learned")


def rings_and_gems(game) -> Family:
    """Brain Hanky's cloth: hollow rings on points (an annulus over the band), gems on squares."""
    spots, xy, kinds = _spots(game)
    return Family("brain-hanky", spots, xy, kinds, {"ring": HANKY_RING, "gem": HANKY_GEM}, _classes(game),
                  heights={"ring": RING_HEIGHT},  # a gem is sampled well inside its outline: no lift needed
                  probe_clear=1.8, probe_step=0.05, probe_check=0.05, smooth=0.012,
                  probe_threshold=0.15, frame=(800, 600), slack=0.0, shadow_reach=0.3,
                  layout="spread-squares", full_layout="clusters",
                  contrast_hint=", or print the board on the blue cloth (`arbiter print-board {game} --out "
                                "board.pdf`): white rings and silver gems cannot be told from a light one")


def gems_on_grids(game) -> Family:
    """The two-grid gem game: a gem on a grid point, read as a man on a point is (a disc sampled
    inside it, one class per colour). Its board's coordinates put a step between the grids 1.41
    units (``engine.boards.twin_grids``), so gems the size of HTJB men fit beside each other and
    the men's probes and pattern serve. What a real faceted or glassy gem needs of the reader is
    not measured yet: there is no photoreal set of these gems (docs/twin-grids.md)."""
    fam = men_on_points(game)
    return Family("twin-grids", fam.spots, fam.xy, fam.spot_kind, fam.patterns, fam.classes, heights=fam.heights,
                  ink=fam.ink)


def _glossy_disc(radius: float, rings: int, piece_radius: float, **look) -> Pattern:
    """A disc inside a round glossy piece, compared as a man is (its best-matching share, in order
    of brightness, a highlight counting little against it): a peg's domed head, a penny."""
    return Pattern.disc(radius, rings, piece_radius, keep_class=0.85, brighter=0.25, ordered=True, **look)


# The network trained with pegs and tokens beside the men, rings and gems (run 12): on their
# validation sets it misread 0.11% of pegs' points and 1.8% of tokens', run 9 (``spotnet``) 2.8%
# and 3.9%; on the mills and Brain Hanky, run 9 reads better (docs/learned-reader.md).
PIECES_NETWORK = "spotnet-pieces"


# Brainmaster's ``Family.temperature_least``: 0.35 of ``piece_book.TEMPERATURE_LEAST``, the share
# whose odds cost the truth least on the pegs' validation sets (pegs6-9, 12, 13: 0.0090 nats a spot
# against 0.0192 at the default; 0.0107 at 0.2, 0.0092 at 0.3, 0.0091 at 0.4).
PEGS_TEMPERATURE = 0.0175


def pegs_in_holes(game) -> Family:
    """Brainmaster: a code peg's domed head over each code hole, an indicator peg's small one over
    each indicator hole; a disc sampled inside each head, well within it (a head's rim is shaded
    and leans with the camera's slant), each raised to the head's height. The classes are the
    pegs in play (``Rules.piece_classes``): black and white indicator pegs and the code colours,
    learned from the calibration layout (``vision.calibration``: one peg of every colour)."""
    from .render_pegs import CODE_PEG_HEIGHT, CODE_PEG_R, KEY_PEG_HEIGHT, KEY_PEG_R

    spots, xy, kinds = _spots(game)
    # An indicator peg is compared more evenly than a code peg (lighter samples count 0.6, not a
    # quarter): an empty hole in a code peg's shadow is darker than its look, and must not come
    # nearer a black peg's (docs/brainmaster.md).
    # The hand check's probes keep 2.2 head radii (0.79 of a row pitch) from every code hole: on
    # simulated frames at a slant, a code peg's head leaning over the paper changed probes up to
    # 0.75 from its hole. The board's wide code hole pitch (engine.boards.brainmaster) leaves paper
    # that far out between the rows and beside the indicator block. Those probes lie in islands
    # and strips, so a probe's nearest neighbours reach further than on a board of open paper,
    # and a smooth change of light across the board differs more between them: a probe deviates
    # at 0.14 (log units), not 0.1 (tuning frames: 7 clear frames of 96 refused at 0.1, 1 at
    # 0.14; no hand read at either).
    return Family("brainmaster", spots, xy, kinds,
                  {"code": _glossy_disc(0.4 * CODE_PEG_R, 3, CODE_PEG_R, hue_weight=0.5),
                   "key": Pattern.disc(0.4 * KEY_PEG_R, 2, KEY_PEG_R, keep_class=0.7, brighter=0.6, ordered=True)},
                  _classes(game),
                  heights={"code": CODE_PEG_HEIGHT, "key": KEY_PEG_HEIGHT},
                  probe_clear=2.2, probe_step=0.1, probe_check=0.06, shadow_reach=1.0, frame=(960, 720),
                  probe_threshold=0.14, network=PIECES_NETWORK, classifier="learned", layout="peg-staircase",
                  temperature_least=PEGS_TEMPERATURE)


def tokens_on_tracks(game) -> Family:
    """Thinking In Circles: a penny on a track's space, a disc sampled inside it. One class, the
    token (``Rules.piece_classes``): the tokens belong to nobody, and each space's own symbol is
    its empty look, learned at calibration like any printed point."""
    from .render_circles import PENNY_HEIGHT, TOKEN_R

    spots, xy, kinds = _spots(game)
    return Family("circles", spots, xy, kinds, {k: _glossy_disc(0.6 * TOKEN_R, 3, TOKEN_R) for k in set(kinds)},
                  _classes(game), heights={k: PENNY_HEIGHT for k in set(kinds)},
                  probe_step=0.1, probe_check=0.06, shadow_reach=0.45, frame=(800, 600), network=PIECES_NETWORK,
                  classifier="learned")


# Engine family (``Rules.family``) -> the reader's data for a game of it.
READERS: dict[str, Callable[..., Family]] = {"mills": men_on_points, "brain-hanky": rings_and_gems,
                                             "twin-grids": gems_on_grids, "brainmaster": pegs_in_holes,
                                             "circles": tokens_on_tracks}


def family_for(game) -> Family:
    """The reader's view of ``game`` (an ``engine.Game``)."""
    return READERS.get(game.rules.family, men_on_points)(game)
