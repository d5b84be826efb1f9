"""The piece book (``vision.piece_book``) and the learned reader (``vision.learned_reader``).

The book is tested on synthetic patches drawn with cv2: a pale board with dark printed lines
through each spot (a different set of lines on every spot, as corners, edges and crossings
differ), discs of the players' colours on them, a little noise and a change of light. The
embedder is the pixel baseline (``PixelEmbedder``), so the tests need no trained model; they
check what the book itself must do: tell 2, 3 and 4 colours apart from a handful of exemplars,
refuse two colours a camera cannot tell apart with a message that says what to change, call a
hand foreign, survive its file. The reader is tested end to end on the seeded camera simulator.
"""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

import engine
from engine.observation import spots_of, view
from vision import sim
from vision.calibration import CalibrationError, calibrate, calibration_layout, load_calibration
from vision.docs_pictures import random_position
from vision.learned_reader import LearnedReader, reader_for
from vision.piece_book import PieceBook, PieceBookError, PixelEmbedder, build_book, embedder_for, evened
from vision.reader import BoardReader

S = 48
# BGR colours of pieces a person tells apart at once
COLOURS = {"white": (235, 235, 230), "black": (35, 30, 30), "red": (40, 40, 200), "blue": (190, 90, 30),
           "green": (60, 170, 60), "yellow": (40, 210, 230)}


def background(rng, lines: int) -> np.ndarray:
    """An empty spot: pale paper with the printed lines ``lines`` (a bit mask of the four
    directions) meeting at its middle, and a dot there."""
    p = np.full((S, S, 3), (200, 210, 215), np.uint8)
    c = S // 2
    for bit, end in enumerate([(S, c), (0, c), (c, S), (c, 0)]):
        if lines & (1 << bit):
            cv2.line(p, (c, c), end, (40, 40, 40), 2)
    cv2.circle(p, (c, c), 3, (40, 40, 40), -1)
    return p


def with_piece(p: np.ndarray, colour, rng) -> np.ndarray:
    """A disc of ``colour`` a little off the middle, with a highlight and a rim."""
    q = p.copy()
    c = S // 2 + rng.integers(-1, 2, 2)
    cv2.circle(q, tuple(int(v) for v in c), 11, tuple(int(v) for v in colour), -1, cv2.LINE_AA)
    cv2.circle(q, tuple(int(v) for v in c), 11, tuple(int(v * 0.7) for v in colour), 1, cv2.LINE_AA)
    hl = tuple(int(min(255, v + 40)) for v in colour)
    cv2.circle(q, (int(c[0]) - 4, int(c[1]) - 4), 2, hl, -1)
    return q


def shot(rng, empty: list[np.ndarray], position: dict[int, tuple], colours: dict, light: float = 1.0,
         noise: float = 3.0) -> np.ndarray:
    """(N, S, S, 3): every spot's patch, pieces where ``position`` puts them, under ``light``."""
    out = []
    for i, p in enumerate(empty):
        q = with_piece(p, colours[position[i]], rng) if i in position else p
        q = q.astype(np.float32) * light + rng.normal(0, noise, q.shape)
        out.append(np.clip(q, 0, 255).astype(np.uint8))
    return np.stack(out)


def board(rng, n: int = 24) -> list[np.ndarray]:
    return [background(rng, int(rng.integers(1, 16))) for _ in range(n)]


def classes_of(names) -> dict:
    return {(i + 1, "man"): COLOURS[name] for i, name in enumerate(names)}


def make_book(rng, spots_bg, colours: dict, per_class: int = 2, frames: int = 2, embedder=None, **kw):
    emb = embedder or PixelEmbedder()
    n = len(spots_bg)
    names = tuple(f"p{i}" for i in range(n))
    keys = list(colours)
    layout = {}
    free = list(rng.permutation(n))
    for k in keys:
        for _ in range(per_class):
            layout[int(free.pop())] = k
    empties = [emb.embed(shot(rng, spots_bg, {}, colours)) for _ in range(frames)]
    pieces = emb.embed(shot(rng, spots_bg, layout, colours))
    book = build_book(emb.name, names, ("man",) * n, empties, pieces, {names[i]: k for i, k in layout.items()},
                      classes=keys, **kw)
    return emb, book


class _Unit:
    """The pixel baseline's vectors scaled to length 1, as the spot network gives them."""

    wants_evened = True

    def __init__(self):
        self.inner = PixelEmbedder()
        self.name = "unit-" + self.inner.name

    def embed(self, patches):
        e = self.inner.embed(patches)
        return e / np.linalg.norm(e, axis=1, keepdims=True)


@pytest.mark.parametrize("unit", [False, True], ids=["pixels", "unit-length"])
@pytest.mark.parametrize("colours", [("white", "black"), ("red", "blue", "white"),
                                     ("red", "blue", "green", "yellow")])
def test_book_tells_two_three_and_four_colours_apart(colours, unit):
    """Taught by two pieces of each colour, the book reads boards of those colours on every
    spot, under a light 20% dimmer or brighter than calibration's once it is taken out
    (``evened``, as the reader does with the probes' measure), every spot right and sure of it;
    with the embeddings of length 1 too, as the spot network gives them."""
    rng = np.random.default_rng(len(colours))
    bg = board(rng)
    cl = classes_of(colours)
    emb, book = make_book(rng, bg, cl, embedder=_Unit() if unit else None)
    assert book.classes == list(cl)
    keys = list(cl)
    for trial in range(6):
        position = {i: keys[int(rng.integers(len(keys)))] for i in range(len(bg)) if rng.random() < 0.6}
        light = float(rng.uniform(0.8, 1.2))
        # the reader takes the light out as the background probes measure it (here, known)
        patches = evened(shot(rng, bg, position, cl, light=light), np.full((len(bg), 3), light))
        r = book.read(emb.embed(patches))
        got = {i: keys[c] for i, c in enumerate(r.choice) if c >= 0}
        assert got == position, f"trial {trial}: {len(set(got.items()) ^ set(position.items()))} spots misread"
        assert not r.foreign.any()
        assert r.confidence().min() > 0.9
        assert np.allclose(r.probs.sum(axis=1), 1.0)


def test_two_colours_alike_are_refused_with_what_to_change():
    """Two sets a camera shows nearly the same (a grey 6 levels off another) are refused, and
    the message names both and says what to do; a pair a person tells apart is not."""
    rng = np.random.default_rng(7)
    bg = board(rng)
    alike = {(1, "man"): (120, 120, 120), (2, "man"): (126, 126, 126)}
    with pytest.raises(PieceBookError) as info:
        make_book(rng, bg, alike)
    msg = str(info.value)
    assert "player 1's man and the player 2's man look too alike" in msg
    assert "clearly different colours" in msg and "--full-set" in msg
    make_book(rng, bg, {(1, "man"): (120, 120, 120), (2, "man"): (60, 60, 60)})


def test_a_piece_not_laid_out_is_refused():
    """A pieces picture whose layout was not followed (a spot the layout puts a piece on shows
    the empty board) cannot teach that piece: calibration says so, naming the spot, rather than
    learning the empty board as a piece."""
    rng = np.random.default_rng(8)
    bg = board(rng)
    emb = PixelEmbedder()
    names = tuple(f"p{i}" for i in range(len(bg)))
    empties = [emb.embed(shot(rng, bg, {}, {}))]
    pieces = emb.embed(shot(rng, bg, {3: (2, "man")}, classes_of(("white", "black"))))
    with pytest.raises(PieceBookError, match=r"player 1's man on p0 looks like the empty board there"):
        build_book(emb.name, names, ("man",) * len(bg), empties, pieces, {"p0": (1, "man"), "p3": (2, "man")})


def test_a_hand_reads_as_foreign():
    """Skin over a spot (smooth, pinkish, across the whole patch) and a cup's rim are nothing
    the book knows: foreign, not empty or a piece; the clear spots beside them are not. (Three
    pieces of each colour: from three on, the book knows how a class varies, ``UNKNOWN_LEAST``.)"""
    rng = np.random.default_rng(9)
    bg = board(rng)
    cl = classes_of(("white", "black"))
    emb, book = make_book(rng, bg, cl, per_class=3)
    hand = np.zeros((2, S, S, 3), np.uint8)
    hand[0] = (120, 150, 215)  # skin, BGR
    cv2.circle(hand[0], (10, 40), 20, (95, 120, 180), -1)  # a knuckle's shade
    hand[1] = bg[1]
    cv2.circle(hand[1], (S // 2, S // 2), 12, (30, 60, 160), 6)  # a terracotta cup's rim
    emb_all = emb.embed(shot(rng, bg, {}, cl))
    emb_all[:2] = emb.embed(hand)
    r = book.read(emb_all)
    assert r.foreign[:2].all(), f"best distance {r.best[:2]} vs foreign beyond {book.unknown}"
    assert not r.foreign[2:].any()


def test_book_survives_its_file():
    """to_json / from_json give a book that reads the same, and damaged books are refused."""
    rng = np.random.default_rng(10)
    bg = board(rng)
    cl = classes_of(("red", "blue", "white"))
    emb, book = make_book(rng, bg, cl)
    again = PieceBook.from_json(json.loads(json.dumps(book.to_json())))
    x = emb.embed(shot(rng, bg, {0: (1, "man"), 5: (3, "man")}, cl))
    a, b = book.read(x), again.read(x)
    assert np.array_equal(a.choice, b.choice) and np.allclose(a.probs, b.probs, atol=1e-3)
    assert again.classes == book.classes and again.embedder == book.embedder
    bad = book.to_json()
    bad["classes"][0]["exemplars"] = [[1.0, 2.0]]
    with pytest.raises(ValueError, match="exemplars of shape"):
        PieceBook.from_json(bad)
    with pytest.raises(ValueError, match="version"):
        PieceBook.from_json({**book.to_json(), "version": 99})


def test_a_familys_least_temperature_sets_how_sure_the_books_odds_are():
    """Calibration's pieces read back clean, so the book's temperature is its floor: a family's
    own floor (``Family.temperature_least``, Brainmaster's pegs) makes the same reading surer,
    the choice unchanged; the families without one keep ``TEMPERATURE_LEAST``."""
    from vision.families import PEGS_TEMPERATURE, family_for
    from vision.piece_book import TEMPERATURE_LEAST

    cl = classes_of(("white", "black"))
    bg = board(np.random.default_rng(13))
    _e, usual = make_book(np.random.default_rng(14), bg, cl, per_class=3)
    emb, sharp = make_book(np.random.default_rng(14), bg, cl, per_class=3, temperature_least=TEMPERATURE_LEAST / 4)
    assert sharp.temperature == pytest.approx(usual.temperature / 4, rel=1e-6)
    x = emb.embed(shot(np.random.default_rng(15), bg, {0: (1, "man"), 5: (2, "man")}, cl))
    a, b = usual.read(x), sharp.read(x)
    assert np.array_equal(a.choice, b.choice) and np.all(b.confidence() >= a.confidence() - 1e-9)
    assert family_for(engine.load("brainmaster")).temperature_least == PEGS_TEMPERATURE < TEMPERATURE_LEAST
    assert family_for(engine.load("nine-mens-morris")).temperature_least is None


def test_a_book_is_only_read_with_its_own_embedder():
    rng = np.random.default_rng(11)
    emb, book = make_book(rng, board(rng), classes_of(("white", "black")))
    book.check_embedder(emb)
    with pytest.raises(PieceBookError, match="calibrate` again"):
        book.check_embedder(PixelEmbedder(rings=5))
    assert embedder_for(emb.name).name == emb.name
    with pytest.raises(PieceBookError, match="calibrate` again"):
        embedder_for("pixels-lab-x-y")


# ---------------------------------------------------------------------------- on the simulator
GAME = "nine-mens-morris"


def picture(game, position, seed: int) -> np.ndarray:
    return sim.simulate(sim.simple_scene(game.board, position), seed, sim.CameraSettings(size=(640, 480))).image


@pytest.fixture(scope="module")
def learned():
    game = engine.load(GAME)
    layout, _ = calibration_layout(game)
    # One piece of each class, said outright: the learned classifier's own default is the full set.
    cal = calibrate(game, picture(game, {}, 1000), picture(game, layout, 1000), position=layout,
                    classifier="learned", embedder=PixelEmbedder())
    return game, cal


def test_learned_calibration_reads_the_simulator(learned):
    """Calibrated with the learned classifier from the two usual pictures, the reader reads
    random positions under other simulated cameras exactly (or refuses, never misreads)."""
    game, cal = learned
    assert cal.classifier == "learned" and cal.book is not None
    reader = reader_for(cal)
    assert isinstance(reader, LearnedReader)
    read = 0
    for seed in (301, 302, 303):
        position = random_position(game, seed)
        obs = reader.read(picture(game, position, seed))
        if obs.occluded:
            continue
        read += 1
        truth = view(position, spots_of(game))
        wrong = {s: (truth[s], g) for s, g in obs.view().items() if truth[s] != g}
        assert not wrong, f"seed {seed}: {wrong}"
        for r in obs.points.values():
            assert r.probs and abs(sum(r.probs.values()) - 1) < 1e-6
    assert read >= 2


def test_learned_calibration_survives_its_file_and_old_files_read_measured(learned, tmp_path):
    """A learned calibration saved and loaded reads as before (version 2, its book inside); a
    file without a classifier (version 1, before the learned reader) is read by the hand-set
    reader it was made for; a learned file whose book is gone is refused as damaged."""
    game, cal = learned
    path = cal.save(tmp_path / "cal.json")
    data = json.loads(path.read_text())
    assert data["version"] == 2 and data["classifier"] == "learned" and "book" in data
    again = load_calibration(path, game=GAME)
    frame = picture(game, random_position(game, 305), 305)
    assert reader_for(again).read(frame).view() == reader_for(cal).read(frame).view()
    old = {k: v for k, v in data.items() if k not in ("classifier", "book")} | {"version": 1}
    (tmp_path / "old.json").write_text(json.dumps(old))
    old_cal = load_calibration(tmp_path / "old.json", game=GAME)
    assert old_cal.classifier == "measured" and old_cal.book is None
    assert type(reader_for(old_cal)) is BoardReader
    with pytest.raises(CalibrationError, match="--classifier learned"):
        LearnedReader(old_cal)
    (tmp_path / "broken.json").write_text(json.dumps({k: v for k, v in data.items() if k != "book"}))
    with pytest.raises(CalibrationError, match="without its piece book"):
        load_calibration(tmp_path / "broken.json", game=GAME)


def test_learned_reader_never_raises(learned):
    """Garbage in, an occluded Observation out, with a reason: never an exception."""
    _game, cal = learned
    reader = reader_for(cal)
    rng = np.random.default_rng(12)
    garbage = [None, "frame", np.zeros((0, 0, 3), np.uint8), np.zeros((480, 640), np.uint8),
               np.zeros((480, 640, 3), np.float32), np.zeros((480, 640, 3), np.uint8),
               np.full((480, 640, 3), 255, np.uint8), rng.integers(0, 256, (480, 640, 3), dtype=np.uint8),
               np.zeros((3, 3, 3), np.uint8)]
    for g in garbage:
        obs = reader.read(g)
        assert obs.occluded and obs.reason


def test_calibrate_refuses_an_unknown_classifier(learned):
    game, _cal = learned
    layout, _ = calibration_layout(game)
    with pytest.raises(CalibrationError, match="measured or learned"):
        calibrate(game, picture(game, {}, 1000), picture(game, layout, 1000), classifier="neural")


class _Flagging:
    """The pixel baseline with a network's ``read``: a foreign logit, high on ``flag`` spots."""

    wants_evened = True

    def __init__(self, flag: list[int]):
        self.inner = PixelEmbedder()
        self.name = self.inner.name
        self.flag = flag

    def read(self, patches):
        from types import SimpleNamespace

        foreign = np.full(len(patches), -5.0, np.float32)
        foreign[self.flag] = 3.0
        return SimpleNamespace(embedding=self.inner.embed(patches), foreign=foreign)


def test_an_embedders_own_foreign_word_blocks_the_frame(learned):
    """An embedder that says a spot is covered by something foreign (the spot network's
    ``foreign`` logit) is heeded: the frame gives no reading, naming the spot; with no spot
    flagged, the same frame reads."""
    game, cal = learned
    frame = picture(game, random_position(game, 306), 306)
    assert not reader_for(cal, _Flagging([])).read(frame).occluded
    obs = reader_for(cal, _Flagging([cal.family.spots.index("d5")])).read(frame)
    assert obs.occluded and "something unexpected on d5" in obs.reason


class _Tabled(_Flagging):
    """The pixel baseline with a foreign head that says ``base`` of every spot (a table unlike
    its training's: bare cloth and pieces called foreign alike) and ``base + 3`` of ``flag`` spots."""

    def __init__(self, base: float, flag: list[int]):
        super().__init__(flag)
        self.base = base

    def read(self, patches):
        out = super().read(patches)
        out.foreign = out.foreign + 5.0 + self.base
        return out


def test_foreign_level_rises_only_where_the_calibration_pictures_reach_it():
    """The network's foreign logit counts above 0 unless the calibration pictures, which show
    nothing foreign, come within ``FOREIGN_MARGIN`` of that: then above their highest plus the
    margin, with a note that says so. An embedder without the head leaves it at 0."""
    from vision.piece_book import FOREIGN_MARGIN, FOREIGN_RAISED, foreign_level

    assert foreign_level([None, None]) == (0.0, "")
    assert foreign_level([np.array([-6.0, -4.0]), np.array([-5.0])]) == (0.0, "")
    assert foreign_level([np.array([-FOREIGN_MARGIN - 0.5])]) == (0.0, "")
    level, note = foreign_level([np.array([-3.0, 1.5]), np.array([0.2, np.nan])])
    assert level == pytest.approx(1.5 + FOREIGN_MARGIN) and note.startswith(FOREIGN_RAISED)
    assert "up to 1.50" in note


def test_book_keeps_its_foreign_level_in_its_file():
    """A raised level survives the book's file; a book written before it had one reads at 0;
    a level that is no number of 0 or more is refused."""
    rng = np.random.default_rng(12)
    _emb, book = make_book(rng, board(rng), classes_of(("white", "black")))
    assert book.foreign_level == 0.0 and "foreign_level" not in book.to_json()
    book.foreign_level = 2.5
    again = PieceBook.from_json(json.loads(json.dumps(book.to_json())))
    assert again.foreign_level == 2.5
    assert list(again.foreign_of(np.array([2.4, 2.6]))) == [False, True]
    old = {k: v for k, v in book.to_json().items() if k != "foreign_level"}
    assert PieceBook.from_json(old).foreign_level == 0.0
    for bad in (-1.0, float("nan"), True, "high"):
        with pytest.raises(ValueError, match="foreign level"):
            PieceBook.from_json({**book.to_json(), "foreign_level": bad})


def test_calibration_raises_the_foreign_level_where_the_network_calls_its_table_foreign():
    """A network whose foreign head calls every spot of this table foreign (1.5, above its own
    0: the simulator's Brain Hanky, a cloth it never saw) no longer blocks every frame: the
    calibration pictures set the level above what they showed, and a spot the head calls
    foreign well beyond that (a hand) still blocks the frame, named. At -5 everywhere (a table
    like training's) the level stays 0."""
    from vision.piece_book import FOREIGN_MARGIN, FOREIGN_RAISED

    game = engine.load(GAME)
    layout, _ = calibration_layout(game)
    empty, pieces = picture(game, {}, 1000), picture(game, layout, 1000)
    frame = picture(game, random_position(game, 307), 307)
    cal = calibrate(game, empty, pieces, position=layout, classifier="learned", embedder=_Tabled(1.5, []))
    assert cal.book.foreign_level == pytest.approx(1.5 + FOREIGN_MARGIN, abs=1e-4)
    assert any(n.startswith(FOREIGN_RAISED) for n in cal.book.notes)
    assert not reader_for(cal, _Tabled(1.5, [])).read(frame).occluded
    obs = reader_for(cal, _Tabled(1.5, [cal.family.spots.index("d5")])).read(frame)
    assert obs.occluded and "something unexpected on d5" in obs.reason
    usual = calibrate(game, empty, pieces, position=layout, classifier="learned", embedder=_Tabled(-5.0, []))
    assert usual.book.foreign_level == 0.0 and not any(n.startswith(FOREIGN_RAISED) for n in usual.book.notes)


@pytest.mark.parametrize("name,options", [("nine-mens-morris", {}), ("kunjing", {"players": 4}), ("brain-hanky", {})])
def test_full_layout_shows_several_of_every_class_and_leaves_half_empty(name, options):
    """The full set (``--layout --full-set``): two or more pieces of every class, each on a spot
    of its kind, at most half of each kind's spots taken, the same layout every time."""
    from vision.layouts import full_layout
    from vision.families import family_for

    game = engine.load(name, **options)
    fam = family_for(game)
    pos = full_layout(game)
    assert pos == full_layout(game)
    for c in fam.classes:
        spots = [s for s, p in pos.items() if (p.owner, p.kind) == c.key]
        most = 24 if (fam.name, c.kind) == ("brain-hanky", "ring") else 6  # rings four to a cluster (next test)
        assert 2 <= len(spots) <= most, (c.name, spots)
        assert all(fam.spot_kind[fam.spots.index(s)] == c.kind for s in spots)
    for kind in set(fam.spot_kind):
        assert sum(p.kind == kind for p in pos.values()) <= fam.spot_kind.count(kind) // 2
    position, words = calibration_layout(game, full=True)
    assert position == pos and all(c.name in words for c in fam.classes)


@pytest.mark.parametrize("name", ["brain-hanky", "brain-hanky-gemless"])
def test_brain_hankys_full_layout_shows_clusters_as_play_does(name):
    """Brain Hanky's full set is laid out in clusters (``calibration._hanky_clusters``), because
    in play every gem stands among its rings and a patch shows them: whole clusters of each side,
    a cluster with one ring of the other side, a gem with two rings, a ring alone; none where a
    piece may hide a marker, and no more pieces than a set holds."""
    from vision.layouts import FULL_CLUSTERS, covers_marker, full_layout

    game = engine.load(name)
    hb = game.rules.hboard
    pos = full_layout(game)
    assert not set(pos) & set(covers_marker(game))
    counts = {}
    for p in pos.values():
        counts[p.owner, p.kind] = counts.get((p.owner, p.kind), 0) + 1
    gems = game.rules.settings.gems  # per side; four rings to a gem
    for side in (1, 2):
        assert counts.get((side, "ring"), 0) >= 2 * FULL_CLUSTERS
        assert counts.get((side, "ring"), 0) <= 4 * gems
    whole = mixed = lone = 0
    for q in hb.squares.values():
        rings = [pos.get(p) for p in q.points.values() if pos.get(p)]
        gem = pos.get(q.name)
        if not rings:
            assert gem is None, q.name  # no gem without rings beside it
            continue
        owners = {r.owner for r in rings}
        whole += len(rings) == 4 and len(owners) == 1
        mixed += len(owners) == 2
        lone += len(rings) == 1
        if gem is not None:
            assert gem.owner in owners and len(rings) >= 2, (q.name, gem, rings)
    assert whole >= 2 and mixed >= 2 and lone >= 2, (whole, mixed, lone)
    if name == "brain-hanky":
        assert counts[1, "gem"] == counts[2, "gem"] == FULL_CLUSTERS


def test_calibrate_command_learns_from_a_camera_with_more_empty_pictures(tmp_path):
    """`arbiter calibrate GAME --camera ... --classifier learned`: after the empty board's picture
    it takes two more of it without asking (``MORE_EMPTY``), and the file it writes is a learned
    calibration whose book was made from all three. The camera here is a video file of the
    simulator's pictures: 6 frames per picture taken (the exposure's settling), empty then the
    pieces laid out."""
    from click.testing import CliRunner

    from arbiter.cli import main
    from arbiter.cli.vision import MORE_EMPTY

    game = engine.load(GAME)
    layout, _ = calibration_layout(game)
    path = str(tmp_path / "camera.avi")
    writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"MJPG"), 10, (640, 480))
    assert writer.isOpened()
    for image, n in ((picture(game, {}, 1000), 6 * (1 + MORE_EMPTY)), (picture(game, layout, 1000), 6)):
        for _ in range(n):
            writer.write(image)
    writer.release()
    out = tmp_path / "cal.json"
    got = CliRunner().invoke(main, ["calibrate", GAME, "--camera", path, "--width", "640", "--height", "480",
                                    "--classifier", "learned", "--one-each", "--out", str(out)], input="\n\n")
    assert got.exit_code == 0, got.output
    assert "Classifier: learned" in got.output
    cal = load_calibration(out, game=GAME)
    assert cal.classifier == "learned"
    assert any(f"{1 + MORE_EMPTY} empty picture(s)" in n for n in cal.notes), cal.notes


class _Broken:
    """An embedder whose runtime fails, as a network's may (a RuntimeError of its own)."""

    name = PixelEmbedder().name

    def embed(self, patches):
        raise RuntimeError("the network's runtime gave up")


def test_an_embedder_that_fails_gives_no_reading_not_an_exception(learned):
    game, cal = learned
    obs = reader_for(cal, _Broken()).read(picture(game, random_position(game, 307), 307))
    assert obs.occluded and "RuntimeError: the network's runtime gave up" in obs.reason


@pytest.mark.parametrize("rings,reach,size", [(4, 0.35, 48), (3, 0.2, 33), (1, 0.5, 16)])
def test_pixel_embedder_gives_each_rings_lab_mean_and_lightness_spread(rings, reach, size):
    """``PixelEmbedder.embed`` (one stacked product for all patches) gives what its text says,
    computed here the slow, plain way: per patch, per ring, the mean Lab colour and the spread of
    lightness over the ring's pixels. Guards the speed-up (the products' order of summing aside)."""
    rng = np.random.default_rng(rings * 100 + size)
    patches = rng.integers(0, 256, (7, size, size, 3), np.uint8)
    e = PixelEmbedder(rings, reach)
    got = e.embed(patches)
    k = e._crop(size)
    a = (size - k) // 2
    c = (k - 1) / 2.0
    y, x = np.mgrid[0:k, 0:k]
    ring = np.floor(np.hypot(x - c, y - c) / (reach * size) * rings).astype(int)
    for n, p in enumerate(patches):
        lab = cv2.cvtColor(np.ascontiguousarray(p[a:a + k, a:a + k]), cv2.COLOR_BGR2LAB).astype(np.float64) / 255
        means, spreads = [], []
        for r in range(rings):
            px = lab[ring == r] if np.any(ring == r) else lab[k // 2:k // 2 + 1, k // 2]
            means.append(px.mean(axis=0))
            spreads.append(px[:, 0].std())
        want = np.concatenate([np.ravel(means), spreads])
        assert np.allclose(got[n], want, atol=2e-5), (n, got[n], want)


# ---------------------------------------------------------------------------- the edge spots' shifted empty looks
def test_shifted_empty_interpolates_between_its_grid_and_holds_at_its_edge():
    """``ShiftedEmpty.empty_for``: a look that changes linearly with the offset is given exactly
    between the grid's points, held at the grid's edge beyond it; spots without shifted looks
    keep the calibration's own; the book's file keeps them."""
    from vision.piece_book import ShiftedEmpty

    half, step = 2, 0.1
    k = np.arange(-half, half + 1) * step
    gx, gy = np.meshgrid(k, k, indexing="ij")
    looks = np.stack([np.stack([gx.ravel(), gy.ravel(), np.ones(25)], axis=1),
                      np.stack([2 * gx.ravel(), -gy.ravel(), np.zeros(25)], axis=1)]).astype(np.float32)
    sh = ShiftedEmpty(np.array([0, 2]), step, half, looks)
    empty = np.full((3, 3), 7.0, np.float32)
    got = sh.empty_for(empty, np.array([[0.05, -0.13], [0.3, 0.3], [0.5, -0.5]]))
    assert np.allclose(got[0], [0.05, -0.13, 1.0], atol=1e-6)
    assert np.allclose(got[1], 7.0)  # no shifted looks: the calibration's own
    assert np.allclose(got[2], [0.4, 0.2, 0.0], atol=1e-6)  # beyond the grid (0.2): held at its edge
    again = ShiftedEmpty.from_json(sh.to_json(), 3, 3)
    assert np.allclose(again.empty_for(empty, np.zeros((3, 2))), sh.empty_for(empty, np.zeros((3, 2))))
    with pytest.raises(ValueError, match="shifted empty looks"):
        ShiftedEmpty.from_json({**sh.to_json(), "spots": [0, 5]}, 3, 3)


def test_calibration_cuts_shifted_empty_looks_for_the_edge_spots_only(tmp_path):
    """A learned calibration keeps shifted empty looks for the spots whose patch, moved by as
    much as a camera can displace a piece's top, reaches the board's edge: on nine men's morris
    the outer and middle squares' sixteen points (a patch reaches 0.75 units about its centre, a
    piece's top up to 0.4 from its foot), not the inner square's. The book's file keeps them."""
    from vision.calibration import load_calibration

    game = engine.load(GAME)
    layout, _ = calibration_layout(game, full=True)
    cal = calibrate(game, picture(game, {}, 71), picture(game, layout, 71), position=layout, classifier="learned",
                    embedder=PixelEmbedder())
    sh = cal.book.shifted
    assert sh is not None
    inner = {"c3", "d3", "e3", "e4", "e5", "d5", "c5", "c4"}
    assert {cal.family.spots[i] for i in sh.spots} == set(cal.family.spots) - inner
    assert sh.looks.shape == (16, (2 * sh.half + 1) ** 2, cal.book.dim)
    # the middle of the grid is the empty picture's own look about the spot's foot: near the
    # calibration's (cut where its camera saw a piece's top, a little off the foot)
    mid = sh.looks[:, len(sh.looks[0]) // 2]
    far = sh.looks[:, 0]
    own = cal.book.empty[sh.spots]
    assert np.linalg.norm(mid - own, axis=1).mean() < np.linalg.norm(far - own, axis=1).mean()
    again = load_calibration(cal.save(tmp_path / "cal.json"), game=GAME)
    assert np.allclose(again.book.shifted.looks, sh.looks, atol=1e-4)


def test_pieces_the_colour_of_the_board_are_refused_when_a_colour_part_says_so():
    """A piece of the board's own colour (a hollow ring of the cloth's colour, only its rim's
    shading showing, as a white ring on a light cloth) is told from the board by its shape alone:
    with the embedder's colour part given, the book refuses it, saying so (``LikeTheBoard``, so
    that calibration can add the family's advice); pieces that differ in colour pass, and without
    a colour part nothing is checked (a network alone holds no colours apart)."""
    from vision.piece_book import SHAPE_ONLY, LikeTheBoard, colour_part_of

    rng = np.random.default_rng(21)
    cloth = (200, 210, 215)
    n = 12
    names = tuple(f"p{i}" for i in range(n))

    def picture(at: dict, ring) -> np.ndarray:
        out = []
        for i in range(n):
            p = np.full((S, S, 3), cloth, np.uint8)
            if at.get(i) == 1:  # a ring of the cloth's colour: its rim's shading only
                cv2.circle(p, (S // 2, S // 2), 9, ring, 2, cv2.LINE_AA)
            elif at.get(i) == 2:
                cv2.circle(p, (S // 2, S // 2), 11, COLOURS["black"], -1, cv2.LINE_AA)
            out.append(np.clip(p + rng.normal(0, 2.0, p.shape), 0, 255).astype(np.uint8))
        return np.stack(out)

    emb = PixelEmbedder(lightness=0.25)
    at = {2: 1, 5: 1, 8: 2, 10: 2}
    layout = {names[i]: (k, "man") for i, k in at.items()}
    empties = [emb.embed(picture({}, None)) for _ in range(2)]
    pieces = emb.embed(picture(at, (170, 180, 185)))
    args = (emb.name, names, ("man",) * n, empties, pieces, layout)
    with pytest.raises(LikeTheBoard, match=r"player 1's man is the colour of the board under it \(colour difference "
                                           r"0\.0\d\d, 0\.045 needed\).*stands out"):
        build_book(*args, colour_part=colour_part_of(emb))
    assert isinstance(build_book(*args), PieceBook)  # no colour part: not checked
    # a ring of a colour that stands out passes, by a margin
    pieces = emb.embed(picture(at, COLOURS["red"]))
    book = build_book(emb.name, names, ("man",) * n, empties, pieces, layout, colour_part=colour_part_of(emb))
    part = colour_part_of(emb)
    assert np.linalg.norm(part(pieces[[2, 5]]) - part(book.empty[[2, 5]]), axis=1).min() > 2 * SHAPE_ONLY


def test_the_joint_embedders_colour_part_is_its_second_parts_own():
    """``colour_part_of`` a ``JointEmbedder`` takes its pixel part back out of the joint vector, in
    the pixel part's own units (the joint weight divided out); a network alone has none."""
    from vision.piece_book import JointEmbedder, colour_part_of

    rng = np.random.default_rng(22)
    patches = shot(rng, board(rng, 6), {1: (1, "man")}, classes_of(("red",)))
    first, second = _Unit(), PixelEmbedder(lightness=0.25)
    joint = JointEmbedder(first, second, 2.0)
    got = colour_part_of(joint)(joint.embed(patches))
    assert np.allclose(got, second.embed(patches), atol=1e-6)
    assert colour_part_of(first) is None
    assert colour_part_of(JointEmbedder(first, _Unit())) is None


def test_every_reader_family_names_a_calibration_layout_that_exists():
    """Calibration asks the family which layouts suit its board (``Family.layout``,
    ``Family.full_layout``) and never which family it has: a family naming a layout
    ``vision.layouts`` does not hold would fail at a user's first calibration."""
    from pathlib import Path

    from vision.families import family_for
    from vision.layouts import FULL_LAYOUTS, LAYOUTS

    seen = {}
    for name in engine.names():
        fam = family_for(engine.load(name))
        assert fam.layout in LAYOUTS, (name, fam.layout)
        assert fam.full_layout == "spread" or fam.full_layout in FULL_LAYOUTS, (name, fam.full_layout)
        seen[fam.name] = (fam.layout, fam.full_layout)
    assert seen["brain-hanky"] == ("spread-squares", "clusters")
    assert seen["brainmaster"][0] == "peg-staircase" and seen["htjb"] == ("corners", "spread")
    src = (Path(__file__).resolve().parent.parent / "vision" / "layouts.py").read_text()
    assert all(f'"{fam}"' not in src for fam in seen), "the layouts name no family"


class _HueBlind:
    """A stand-in for the spot network, taught that no colour is special: the patch turned grey,
    shrunk to 12x12 pixels, its mean taken out, scaled to length 1. No hue; and, as a network's,
    a vector that a piece standing a pixel off or a highlight moves more than the piece's colour
    moves the colours."""

    wants_evened = True
    name = "hueblind-12"

    def embed(self, patches):
        grey = cv2.cvtColor(np.ascontiguousarray(patches).reshape(-1, S, 3), cv2.COLOR_BGR2GRAY).reshape(-1, S, S)
        e = np.stack([cv2.resize(g, (12, 12), interpolation=cv2.INTER_AREA) for g in grey]).reshape(len(grey), -1)
        e = e.astype(np.float32) - e.mean(axis=1, keepdims=True)
        return e / np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-6)


def test_calibration_weighs_the_colours_more_where_the_network_sees_no_hue():
    """Yellow and orange pegs of like lightness (Brainmaster's) are one look to a network blind to
    hue, which varies from spot to spot more than the colours do: at the default weight the book
    finds them too alike, though anyone tells them apart. Shown several of each, calibration
    (``weigh_colours``) weighs the colours more, the lightest of ``COLOUR_WEIGHTS`` that sets
    them apart, says so in the book's notes, names the weight in the embedder (so play reads as
    calibration did), and the book then reads boards of both right. Shown one of each (nothing
    measured of how each varies), or with an embedder whose colours cannot be weighed, the
    refusal stands; a pair the default tells apart keeps the default."""
    from vision.piece_book import COLOUR_WEIGHTS, JointEmbedder, TooAlike, colour_part_of, weigh_colours

    rng = np.random.default_rng(33)
    bg = board(rng, 24)
    n = len(bg)
    names = tuple(f"p{i}" for i in range(n))
    hues = {(1, "man"): (30, 190, 210), (2, "man"): (50, 150, 250)}  # yellow, orange (BGR), like lightness
    joint = JointEmbedder(_HueBlind(), PixelEmbedder(lightness=0.25), 2.0)

    def embs_for(colours, per_class, joint=joint):
        keys = list(colours)
        free = list(rng.permutation(n))
        layout = {int(free.pop()): k for k in keys for _ in range(per_class)}
        empty = [evened(shot(rng, bg, {}, colours), np.ones((n, 3))) for _ in range(2)]
        pieces = evened(shot(rng, bg, layout, colours), np.ones((n, 3)))
        out = {"empty board": joint.embed(empty[0]), "empty board (2)": joint.embed(empty[1]),
               "pieces": joint.embed(pieces)}
        return out, {names[i]: k for i, k in layout.items()}

    def builder(position, classes):
        def build(embedder, embs):
            return build_book(embedder.name, names, ("man",) * n,
                              [e for label, e in embs.items() if label.startswith("empty")], embs["pieces"],
                              position, classes=classes, colour_part=colour_part_of(embedder))
        return build

    embs, position = embs_for(hues, 4)
    build = builder(position, list(hues))
    with pytest.raises(TooAlike) as info:
        build(joint, embs)
    assert info.value.measured and "look too alike" in str(info.value)
    embedder, book, weighed = weigh_colours(joint, embs, build)
    assert embedder.weight in COLOUR_WEIGHTS and embedder.weight > joint.weight
    assert book.embedder == embedder.name and embedder.name.endswith(f"*{embedder.weight:g}")
    assert any(note.startswith(f"colours weighed {embedder.weight:g} (not 2)") for note in book.notes)
    assert np.allclose(weighed["pieces"], joint.reweigh(embs["pieces"], embedder.weight))
    # the lightest that does it: one step lighter is still refused
    lighter = [w for w in COLOUR_WEIGHTS if joint.weight < w < embedder.weight]
    for w in lighter:
        with pytest.raises(TooAlike):
            build(joint.with_weight(w), {k: joint.reweigh(e, w) for k, e in embs.items()})
    # reweighing is embedding with the heavier weight
    patches = shot(rng, bg, {0: (1, "man")}, hues)
    assert np.allclose(joint.reweigh(joint.embed(patches), embedder.weight), embedder.embed(patches), atol=1e-5)
    keys = list(hues)
    for trial in range(4):
        pos = {i: keys[int(rng.integers(2))] for i in range(n) if rng.random() < 0.6}
        r = book.read(embedder.embed(evened(shot(rng, bg, pos, hues), np.ones((n, 3)))))
        got = {i: keys[c] for i, c in enumerate(r.choice) if c >= 0}
        assert got == pos, f"trial {trial}: {len(set(got.items()) ^ set(pos.items()))} spots misread"
    # one of each (two sets of one grey): how each varies was not measured, the refusal
    # stands and no heavier weight is tried
    greys = {(1, "man"): (120, 120, 120), (2, "man"): (120, 120, 120)}
    smooth = JointEmbedder(_Unit(), PixelEmbedder(lightness=0.25), 2.0)
    embs1, position1 = embs_for(greys, 1, smooth)
    calls = []

    def counted(embedder, embs):
        calls.append(embedder.weight)
        return builder(position1, list(greys))(embedder, embs)

    with pytest.raises(TooAlike) as info:
        weigh_colours(smooth, embs1, counted)
    assert not info.value.measured and calls == [smooth.weight]
    # a network alone has no colours to weigh
    net = _HueBlind()
    with pytest.raises(TooAlike):
        weigh_colours(net, {k: e[:, :-joint.parts[1].dim] for k, e in embs.items()}, build)
    # a pair the default tells apart keeps the default, book and all
    apart = classes_of(("white", "black"))
    embs2, position2 = embs_for(apart, 4)
    embedder2, book2, weighed2 = weigh_colours(joint, embs2, builder(position2, list(apart)))
    assert embedder2 is joint and weighed2 is embs2 and not any("colours weighed" in x for x in book2.notes)


def test_a_weighed_embedders_name_brings_back_its_weight():
    """The book names the embedder with its weight (``JointEmbedder.name``); ``embedder_for``
    rebuilds it from that name with the same weight, as play does from a calibration file."""
    from vision.piece_book import JointEmbedder

    joint = JointEmbedder(PixelEmbedder(), PixelEmbedder(lightness=0.25), 2.0).with_weight(4.0)
    again = embedder_for(joint.name)
    assert isinstance(again, JointEmbedder) and again.weight == 4.0 and again.name == joint.name


def _calibrate_command(tmp_path):
    """`arbiter calibrate GAME --classifier learned --one-each` on the simulator's two pictures,
    written to files as a user's camera would leave them; the click result."""
    from click.testing import CliRunner

    from arbiter.cli import main

    game = engine.load(GAME)
    layout, _ = calibration_layout(game)
    empty, pieces = tmp_path / "empty.png", tmp_path / "pieces.png"
    cv2.imwrite(str(empty), picture(game, {}, 1000))
    cv2.imwrite(str(pieces), picture(game, layout, 1000))
    return CliRunner().invoke(main, ["calibrate", GAME, "--empty", str(empty), "--pieces", str(pieces),
                                     "--classifier", "learned", "--one-each", "--out", str(tmp_path / "cal.json")])


def test_calibrate_command_says_when_it_weighed_the_colours(tmp_path, monkeypatch):
    """`arbiter calibrate` says, in its summary, that the book weighed the colours more and why
    (``weigh_colours``' note), so a user knows the pieces were told apart by colour alone. The
    weighing is forced here (the simulator's men are told apart at the default)."""
    import vision.calibration as vc

    real = vc.weigh_colours

    def forced(embedder, embs, build):
        embedder, book, embs = real(embedder, embs, build)
        book.notes.append("colours weighed 4 (not 2): at 2 the white man and the black man look too alike")
        return embedder, book, embs

    monkeypatch.setattr(vc, "weigh_colours", forced)
    got = _calibrate_command(tmp_path)
    assert got.exit_code == 0, got.output
    assert "Colours weighed 4 (not 2): at 2 the white man and the black man look too alike" in got.output.replace("\n", " ")


def test_calibrate_command_says_when_it_raised_the_hand_sense(tmp_path, monkeypatch):
    """`arbiter calibrate` says when the network's hand sense was raised for this table, and
    how far (``foreign_level``'s note); forced here, as the pixel baseline has no such sense."""
    import vision.calibration as vc

    monkeypatch.setattr(vc, "foreign_level", lambda logits: (2.5, "hand sense raised to 2.50: the network took clear "
                                                                   "spots of the calibration pictures for something"))
    got = _calibrate_command(tmp_path)
    assert got.exit_code == 0, got.output
    assert "Hand sense raised to 2.50" in got.output.replace("\n", " ")
    assert load_calibration(tmp_path / "cal.json", game=GAME).book.foreign_level == 2.5
