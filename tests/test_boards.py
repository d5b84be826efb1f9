"""Board graphs match boards.md section 1, and bad board data is refused at load."""

import pytest

from engine.boards import BoardError, BoardGraph, board, board_names

# name: (points, edges, lines) as boards.md section 1 gives them
EXPECTED = {
    "morris9": (24, 32, 16),
    "morabaraba": (24, 40, 20),
    "morris6": (16, 20, 8),
    "morris6x": (16, 24, 8),
    "morris7": (17, 24, 8),
    "saba": (17, 32, 8),
    "three": (9, 16, 8),
    "three-plain": (9, 12, 6),
    "tableaux": (25, 0, 0),
}


def test_every_htjb_board_is_present():
    assert set(EXPECTED) <= set(board_names())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_counts_match_boards_md(name):
    b = board(name)
    assert (len(b.points), len(b.edges), len(b.lines)) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_line_is_a_straight_run_of_edges(name):
    b = board(name)
    for line in b.lines:
        for p, q in zip(line, line[1:]):
            assert b.adjacent(p, q)


def test_morris7_and_saba_count_only_the_squares():
    # the straight runs through d4 are paths, not lines (boards.md section 1)
    for name in ("morris7", "saba"):
        b = board(name)
        assert all("d4" not in line for line in b.lines)
        assert any("d4" in run for run in b.straight_runs())


def test_jumps_follow_straight_lines():
    three = board("three")
    assert ("a1", "d4", "g7") in three.jumps and ("g7", "d4", "a1") in three.jumps
    assert ("a1", "d1", "g1") in three.jumps
    assert ("a1", "d1", "d4") not in three.jumps  # a turn is not a jump
    saba = board("saba")
    assert ("b2", "d4", "f6") in saba.jumps and ("d2", "d4", "d6") in saba.jumps
    assert not any(o == "d4" for _, o, _ in board("morris6").jumps)  # no centre on morris6


def test_names_follow_the_7x7_grid():
    b = board("morris9")
    assert b.coords["a1"] == (0.0, 0.0) and b.coords["g7"] == (6.0, 6.0) and b.coords["d2"] == (3.0, 1.0)


def test_unknown_board_is_a_clear_error():
    with pytest.raises(BoardError, match="unknown board 'chess'.*known boards"):
        board("chess")


def _graph(edges, lines):
    pts = ("a1", "d1", "g1", "d4")
    return BoardGraph("bad", pts, {"a1": (0, 0), "d1": (3, 0), "g1": (6, 0), "d4": (3, 3)}, tuple(edges), tuple(lines))


def test_edge_to_unknown_point_is_refused():
    with pytest.raises(BoardError, match="unknown point z9"):
        _graph([("a1", "z9")], [])


def test_line_not_made_of_edges_is_refused():
    with pytest.raises(BoardError, match="not an edge"):
        _graph([("a1", "d1")], [("a1", "d1", "g1")])


def test_crooked_line_is_refused():
    with pytest.raises(BoardError, match="not straight"):
        _graph([("a1", "d1"), ("d1", "d4")], [("a1", "d1", "d4")])


def test_duplicate_edge_is_refused():
    with pytest.raises(BoardError, match="twice"):
        _graph([("a1", "d1"), ("d1", "a1")], [])
