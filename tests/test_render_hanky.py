"""Brain Hanky pictures: both webs in colour, rings on points, gems on gem spots, wrapped edges."""

from types import SimpleNamespace

import numpy as np
import pytest

from engine.boards import brain_hanky_board
from engine.boards.brain_hanky import R
from vision import docs_pictures
from vision.pictures import render_state
from vision.render_hanky import (HANKY_BACKGROUND, HANKY_COLOURS, WEB_COLOURS, edge_segments,
                                 hanky_point_to_pixel, render_hanky)

U = 90  # render_hanky's default unit_px
VARIANTS = [(6, False), (6, True), (6, True, False), (12, True)]


def near(img, xy, colour, tol=40):
    x, y = xy
    return np.abs(img[y, x].astype(int) - np.array(colour)).max() <= tol


def board_pixel(hboard, x, y, title=None):
    """Pixel of board coordinates (x, y), located through a point's pixel (no layout re-derived)."""
    px, py = hboard.graph.coords["Oa1.n"]
    c, r = hanky_point_to_pixel(hboard, "Oa1.n", title=title)
    return round(c + (x - px) * U), round(r - (y - py) * U)


def coloured_near(img, centre, colour, radius, tol=40):
    """Distances from ``centre`` of the pixels within ``radius`` that are close to ``colour``."""
    cx, cy = centre
    ys, xs = np.mgrid[cy - radius:cy + radius + 1, cx - radius:cx + radius + 1]
    patch = img[cy - radius:cy + radius + 1, cx - radius:cx + radius + 1].astype(int)
    hit = np.abs(patch - np.array(colour)).max(axis=2) <= tol
    return np.hypot(xs[hit] - cx, ys[hit] - cy)


def test_both_webs_are_drawn_in_their_colours():
    b = brain_hanky_board(6, False)
    img = render_hanky(b)
    c = b.graph.coords
    for square in ("Oc3", "Bc3"):  # midpoint of the square's north-east side
        (x1, y1), (x2, y2) = c[f"{square}.e"], c[f"{square}.n"]
        assert near(img, board_pixel(b, (x1 + x2) / 2, (y1 + y2) / 2), WEB_COLOURS[square[0]])
    assert near(img, hanky_point_to_pixel(b, "Oc3.n"), WEB_COLOURS["O"])  # points: dots in web colour
    assert near(img, hanky_point_to_pixel(b, "Bc3.n"), WEB_COLOURS["B"])
    assert near(img, hanky_point_to_pixel(b, "Oc3"), HANKY_BACKGROUND, tol=0)  # an empty gem spot


def test_a_ring_is_hollow_and_sits_on_its_point():
    b = brain_hanky_board(6, False)
    img = render_hanky(b, {"Oc3.n": 2})
    centre = hanky_point_to_pixel(b, "Oc3.n")
    dist = coloured_near(img, centre, HANKY_COLOURS[2]["ring"], round(0.25 * U))
    assert len(dist) > 40  # an annulus in the ring colour ...
    assert dist.min() >= 3  # ... with a hole: the centre shows the point, not the ring
    assert not near(img, centre, HANKY_COLOURS[2]["ring"])
    assert near(img, centre, WEB_COLOURS["O"])
    # centred on the point: the annulus reaches equally far on every side
    cx, cy = centre
    row = img[cy].astype(int)
    hits = np.flatnonzero(np.abs(row - np.array(HANKY_COLOURS[2]["ring"])).max(axis=1) <= 40)
    hits = hits[np.abs(hits - cx) < 0.25 * U]
    assert abs((hits.min() + hits.max()) / 2 - cx) <= 1


def test_a_gem_fills_its_gem_spot():
    b = brain_hanky_board(6, False)
    img = render_hanky(b, {"Oc3": 1})
    assert near(img, hanky_point_to_pixel(b, "Oc3"), HANKY_COLOURS[1]["gem"], tol=10)
    assert near(img, hanky_point_to_pixel(b, "Oc3.n"), WEB_COLOURS["O"])  # the points stay free


def test_engine_pieces_and_plain_owners_draw_alike():
    b = brain_hanky_board(6, False)
    a = render_hanky(b, {"Oc3": SimpleNamespace(owner=3, kind="gem"),
                         "Oc3.e": SimpleNamespace(owner=3, kind="ring")})
    c = render_hanky(b, {"Oc3": 3, "Oc3.e": 3})
    assert np.array_equal(a, c)


def test_a_full_cluster_keeps_every_piece_apart():
    b = brain_hanky_board(6, False)
    pos = {"Oc3": 1, **{f"Oc3.{d}": 1 for d in "enws"}, "Bd4": 2, **{f"Bd4.{d}": 2 for d in "enws"}}
    img = render_hanky(b, pos)
    for name, piece in pos.items():
        kind = "ring" if "." in name else "gem"
        spot = hanky_point_to_pixel(b, name)
        if kind == "gem":
            assert near(img, spot, HANKY_COLOURS[piece]["gem"], tol=10)
        else:  # the ring's band, just inside its outer edge, towards its own square's centre
            sq = hanky_point_to_pixel(b, name.split(".")[0])
            d = np.array(sq) - np.array(spot)
            inner = np.array(spot) + d / np.hypot(*d) * 0.1 * U
            assert near(img, tuple(np.round(inner).astype(int)), HANKY_COLOURS[piece]["ring"])


def wrapped_orange_bridge(b):
    n = b.size
    for a, c in b.web_edges("O", "bridges"):
        (x1, y1), (x2, y2) = b.graph.coords[a], b.graph.coords[c]
        if abs(x2 - x1) > n / 2 and y1 == y2:
            return a, c
    raise AssertionError("no wrapped east-west orange bridge")


def test_a_wrapped_bridge_is_drawn_to_the_boundary_not_across_the_board():
    periodic, plain = brain_hanky_board(6, True), brain_hanky_board(6, False)
    a, _ = wrapped_orange_bridge(periodic)
    y = periodic.graph.coords[a][1]
    wrapped, flat = render_hanky(periodic), render_hanky(plain)
    # Across the board on the bridge's row, the gem spots of the orange squares stay bare cloth,
    # as on the plain board, which has no such bridge at all.
    for x in (1.5, 2.5, 3.5, 4.5):
        spot = board_pixel(periodic, x, y)
        assert near(wrapped, spot, HANKY_BACKGROUND, tol=0)
        assert near(flat, board_pixel(plain, x, y), HANKY_BACKGROUND, tol=0)
    # The two halves run from the endpoints to the boundary (the plain board has nothing there).
    n = periodic.size
    for x in (n - 0.08, 0.08):
        assert near(wrapped, board_pixel(periodic, x, y), WEB_COLOURS["O"])
        assert near(flat, board_pixel(plain, x, y), HANKY_BACKGROUND, tol=0)


def test_edge_segments_stay_on_the_board():
    b = brain_hanky_board(6, True)
    a, c = wrapped_orange_bridge(b)
    pieces = edge_segments(b, a, c)
    assert len(pieces) == 2
    for p, q in pieces:
        for x, y in (p, q):
            assert -1e-9 <= x <= 6 + 1e-9 and -1e-9 <= y <= 6 + 1e-9
        assert any(v in (0, 6) for v in (*p, *q) if abs(v - round(v)) < 1e-9)  # reaches the boundary
    assert edge_segments(b, "Oc3.e", "Od3.w") == [(b.graph.coords["Oc3.e"], b.graph.coords["Od3.w"])]
    # every edge's pieces add up to its length: nothing is lost or doubled across the boundary,
    # except edges lying along the boundary, which show on both opposite edges
    for e in b.graph.edges:
        total = sum(np.hypot(q[0] - p[0], q[1] - p[1]) for p, q in edge_segments(b, *e))
        lengths = (1 - 2 * R, R * 2 ** 0.5, 2 * (1 - 2 * R))  # bridge, side, bridge along the boundary
        assert any(np.isclose(total, length) for length in lengths)


def test_corner_square_of_a_periodic_web_shows_in_all_four_corners():
    b = brain_hanky_board(6, True)
    img = render_hanky(b, {"Ba1": 1})
    for x in (0, 6):
        for y in (0, 6):
            assert near(img, board_pixel(b, x, y), HANKY_COLOURS[1]["gem"], tol=10)


def test_highlights_draw_halos_not_discs():
    b = brain_hanky_board(6, False)
    plain = render_hanky(b)
    for name in ("Oc3.n", "Bd4"):
        lit = render_hanky(b, highlights={name: (0, 200, 0)})
        diff = np.argwhere(np.abs(plain.astype(int) - lit.astype(int)).sum(axis=2) > 0)
        cx, cy = hanky_point_to_pixel(b, name)
        dist = np.hypot(diff[:, 1] - cx, diff[:, 0] - cy)
        assert len(diff) > 0 and dist.min() > 0.12 * U
        if name == "Bd4":  # a square's halo surrounds the whole cluster: its points lie inside
            assert dist.min() > R * U


def test_piles_add_a_strip_below_the_board():
    b = brain_hanky_board(6, False)
    bare = render_hanky(b)
    piled = render_hanky(b, piles={1: 2, 3: 5})
    assert piled.shape[0] > bare.shape[0] and piled.shape[1] == bare.shape[1]
    assert np.array_equal(piled[:bare.shape[0] - 10], bare[:bare.shape[0] - 10])  # the board does not move
    strip = piled[bare.shape[0]:].astype(int)
    for side in (1, 3):
        assert (np.abs(strip - np.array(HANKY_COLOURS[side]["gem"])).max(axis=2) <= 10).sum() > 30
    assert not (np.abs(strip - np.array(HANKY_COLOURS[2]["gem"])).max(axis=2) <= 10).any()


def test_title_moves_the_board_down_consistently():
    b = brain_hanky_board(6, False)
    title = "brain-hanky\nplayer 1 to move"
    img = render_hanky(b, {"Oc3": 2}, title=title)
    assert hanky_point_to_pixel(b, "Oc3", title=title)[1] > hanky_point_to_pixel(b, "Oc3")[1]
    assert near(img, hanky_point_to_pixel(b, "Oc3", title=title), HANKY_COLOURS[2]["gem"], tol=10)


def test_unknown_names_are_clear_errors():
    b = brain_hanky_board(6, False)
    with pytest.raises(ValueError, match="Oz9"):
        render_hanky(b, {"Oz9": 1})
    with pytest.raises(ValueError, match="Oc3.q"):
        render_hanky(b, highlights={"Oc3.q": (0, 0, 255)})
    with pytest.raises(ValueError, match="Bz1"):
        hanky_point_to_pixel(b, "Bz1")
    with pytest.raises(ValueError, match="side 9"):
        render_hanky(b, {"Oc3": 9})
    with pytest.raises(ValueError, match="side 9"):
        render_hanky(b, piles={9: 1})


@pytest.mark.parametrize("args", VARIANTS)
def test_every_board_variant_renders(args):
    b = brain_hanky_board(*args)
    img = render_hanky(b, {"Oa1": 1, "Oa1.e": 2}, labels=True, title=b.graph.description, piles={1: 1})
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape[1] >= b.size * U
    for web in "OB":
        colour = np.array(WEB_COLOURS[web])
        assert (np.abs(img.astype(int) - colour).max(axis=2) <= 10).sum() > 1000


def test_render_state_dispatches_to_the_hanky_renderer():
    b = brain_hanky_board(6, False)
    state = SimpleNamespace(position=lambda: {"Oc3": 1}, captures=lambda: {1: 0, 2: 3},
                            result=None, to_move=2, phase="placement")
    game = SimpleNamespace(name="brain-hanky", board=b.graph)
    img = render_state(game, state, labels=False)
    expected = render_hanky(b, {"Oc3": 1}, piles={1: 0, 2: 3},
                            title="brain-hanky\nplayer 2 to move, placement")
    assert np.array_equal(img, expected)


def test_docs_pictures_include_the_hanky_boards(tmp_path):
    written = docs_pictures.write_hanky_pictures(tmp_path)
    assert sorted(p.name for p in written) == sorted(
        f"brain-hanky-{v}.png" for v in ("plain", "periodic", "orange-periodic", "expanded"))
    assert all(p.stat().st_size > 0 for p in written)


def test_a_printed_cloth_draws_its_ground_webs_and_a_readable_title():
    """``cloth`` draws the board as ``arbiter print-board`` prints it: the cloth's ground and web
    colours, and a title on paper above it (dark text on the blue would not read)."""
    from engine.boards import brain_hanky_board
    from vision.render_hanky import CLOTHS, hanky_point_to_pixel, render_hanky

    hb = brain_hanky_board(6, False, None)
    img = render_hanky(hb, {}, unit_px=60, title="lay out these pieces", cloth="blue")
    blue = CLOTHS["blue"]
    assert tuple(img[2, 2]) == (255, 255, 255)  # the title band
    c, r = hanky_point_to_pixel(hb, hb.graph.points[0], unit_px=60, title="lay out these pieces")
    assert tuple(img[img.shape[0] - 3, img.shape[1] // 2]) == blue.background
    web = blue.webs[hb.point_web[hb.graph.points[0]]]
    assert np.abs(img[r, c].astype(int) - np.array(web)).max() <= 10
    plain = render_hanky(hb, {}, unit_px=60)
    assert tuple(plain[2, 2]) != blue.background  # the default stays the cream of the docs
