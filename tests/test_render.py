"""The renderer draws any board and position where the board data says, in the player colours."""

import cv2
import numpy as np
import pytest

import engine
from engine.boards import board, board_names
from vision.render import (PLAYER_COLOURS, BoardStyle, point_to_pixel, render_board, render_state,
                           save_png, state_title)


def near(img, xy, colour, tol=40):
    x, y = xy
    return np.abs(img[y, x].astype(int) - np.array(colour)).max() <= tol


@pytest.mark.parametrize("name", board_names())
def test_every_board_renders(name):
    img = render_board(board(name))
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape[0] > 100 and img.shape[1] > 100


def test_pieces_sit_on_their_points_in_player_colours():
    b = board("morris9")
    img = render_board(b, {"a1": 1, "d2": 2}, labels=False)
    assert near(img, point_to_pixel(b, "a1"), PLAYER_COLOURS[1])
    assert near(img, point_to_pixel(b, "d2"), PLAYER_COLOURS[2])
    style = BoardStyle()
    assert near(img, point_to_pixel(b, "g7"), style.line_colour)  # an empty point shows the board's dot


def test_engine_pieces_and_plain_owners_draw_alike():
    b = board("three")
    a = render_board(b, {"d4": engine.Piece(2, "man")})
    c = render_board(b, {"d4": 2})
    assert np.array_equal(a, c)


def test_highlight_draws_a_ring_around_a_point():
    b = board("three")
    plain = render_board(b, labels=False)
    lit = render_board(b, highlights={"d4": (0, 200, 0)}, labels=False)
    diff = np.argwhere(np.abs(plain.astype(int) - lit.astype(int)).sum(axis=2) > 0)
    cx, cy = point_to_pixel(b, "d4")
    dist = np.hypot(diff[:, 1] - cx, diff[:, 0] - cy)
    style = BoardStyle()
    assert len(diff) > 0 and dist.min() > style.piece_radius - 2  # a ring, not a filled disc


def test_title_moves_the_board_down_consistently():
    game = engine.load("tapatan")
    state = game.new().play("d4")
    img = render_state(game, state, labels=False)
    title = state_title(game, state)
    assert "player 2 to move" in title
    assert near(img, point_to_pixel(game.board, "d4", title=title), PLAYER_COLOURS[1])


def test_unknown_point_is_a_clear_error():
    with pytest.raises(ValueError, match="z9"):
        render_board(board("morris9"), {"z9": 1})
    with pytest.raises(ValueError, match="z9"):
        point_to_pixel(board("morris9"), "z9")


def test_save_png_round_trips(tmp_path):
    img = render_board(board("morris6"), {"a1": 1})
    path = save_png(img, tmp_path / "sub" / "b.png")
    back = cv2.imread(str(path))
    assert back is not None and np.array_equal(back, img)
    with pytest.raises(ValueError, match="png"):
        save_png(img, tmp_path / "b.jpg")
