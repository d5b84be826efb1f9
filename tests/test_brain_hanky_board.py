"""Brain Hanky geometry against boards.md section 2's sanity figures."""

from math import isclose, sqrt

import pytest

from engine.boards import board, brain_hanky_board
from engine.boards.brain_hanky import R


def web_figures(b, web):
    bridges = b.web_edges(web, "bridges")
    return {
        "squares": len(b.whole_squares[web]),
        "points": len(b.web_points(web)),
        "sides": len(b.web_edges(web, "sides")),
        "bridges": len(bridges),
        "crossings": sum(1 for br in bridges if br in b.crossing),
    }


def test_plain_board_figures():
    b = brain_hanky_board(6, False)
    assert web_figures(b, "O") == {"squares": 36, "points": 144, "sides": 144, "bridges": 60, "crossings": 60}
    assert web_figures(b, "B") == {"squares": 25, "points": 168, "sides": 144, "bridges": 84, "crossings": 60}


def test_blue_bridges_along_the_edges_cross_nothing():
    b = brain_hanky_board(6, False)
    lonely = [br for br in b.web_edges("B", "bridges") if br not in b.crossing]
    assert len(lonely) == 24
    for a, c in lonely:
        (x1, y1), (x2, y2) = b.graph.coords[a], b.graph.coords[c]
        assert (x1 == x2 and x1 in (0, 6)) or (y1 == y2 and y1 in (0, 6))


@pytest.mark.parametrize("size,expanded", [(6, False), (6, True)])
def test_periodic_board_figures(size, expanded):
    n = size * 2 if expanded else size  # the 4x expanded board is a 2N x 2N periodic board
    b = brain_hanky_board(n, True)
    for web in "OB":
        assert web_figures(b, web) == {"squares": n * n, "points": 4 * n * n, "sides": 4 * n * n,
                                       "bridges": 2 * n * n, "crossings": 2 * n * n}


@pytest.mark.parametrize("args", [(6, False, None), (6, True, None), (12, True, None), (6, True, False)])
def test_crossing_table_is_symmetric_and_crosses_webs(args):
    b = brain_hanky_board(*args)
    for br, others in b.crossing.items():
        for other in others:
            assert b.point_web[br[0]] != b.point_web[other[0]]
            assert br in b.crossing[other] or (br[1], br[0]) in b.crossing[other]
        assert b.crossing[(br[1], br[0])] == others


def test_each_orange_bridge_crosses_exactly_one_blue_bridge_at_its_midpoint():
    b = brain_hanky_board(6, False)
    c = b.graph.coords
    for br in b.web_edges("O", "bridges"):
        (other,) = b.crossing[br]
        mid = lambda e: ((c[e[0]][0] + c[e[1]][0]) / 2, (c[e[0]][1] + c[e[1]][1]) / 2)  # noqa: E731
        assert all(isclose(u, v) for u, v in zip(mid(br), mid(other)))


def test_orange_only_periodic_wrap_bridges_cross_both_edge_bridges():
    b = brain_hanky_board(6, True, False)
    doubles = [br for br in b.web_edges("O", "bridges") if len(b.crossing.get(br, ())) == 2]
    assert len(doubles) == 12


def test_points_sit_where_the_octagons_are_regular():
    b = brain_hanky_board(6, False)
    assert isclose(R, 1 / (2 + sqrt(2)))
    c = b.graph.coords
    assert all(isclose(u, v) for u, v in zip(c["Oa1.e"], (0.5 + R, 0.5)))
    assert all(isclose(u, v) for u, v in zip(c["Bc3.n"], (2, 2 + R)))
    # an octagon side (a bridge) is as long as a square side: the octagon is regular
    side = ((c["Oa1.e"][0] - c["Oa1.n"][0]) ** 2 + (c["Oa1.e"][1] - c["Oa1.n"][1]) ** 2) ** 0.5
    bridge = c["Ob1.w"][0] - c["Oa1.e"][0]
    assert isclose(side, bridge)


def test_names_and_partial_squares():
    b = brain_hanky_board(6, False)
    assert b.squares["Oa1"].centre == (0.5, 0.5) and b.squares["Bc3"].centre == (2, 2)
    corner = b.squares["Ba1"]
    assert not corner.whole and set(corner.points) == {"e", "n"}
    assert "Ba1" not in b.whole_squares["B"] and "Bb2" in b.whole_squares["B"]
    periodic = brain_hanky_board(6, True)
    assert periodic.squares["Ba1"].whole  # the corner square, split over the four corners


def test_octagons_enclose_the_other_webs_squares():
    b = brain_hanky_board(6, True)
    assert len(b.octagons) == 72
    for octa in b.octagons:
        assert len(set(octa.points)) == 8
        assert b.squares[octa.encloses].web != octa.web
        assert {b.point_web[p] for p in octa.points} == {octa.web}


def test_boards_are_registered_by_name():
    assert len(board("brain-hanky-6").points) == 144 + 168
    assert len(board("brain-hanky-6-periodic").points) == 288
    assert board("brain-hanky-12-periodic").period == 12
