"""The board renderer: image format, where things are drawn, errors, PNG output."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import engine
from engine import Piece
from engine.boards import board, board_names
from vision.render import (
    DEFAULT_STYLE,
    HINT_LEGAL,
    PLAYER_COLOURS,
    BoardStyle,
    image_size,
    point_to_pixel,
    render_board,
    save_png,
)
from vision.pictures import render_state, state_title

MORRIS9 = board("morris9")


def near(img: np.ndarray, xy: tuple[int, int], colour, radius: int = 3, tol: int = 12) -> bool:
    """Every pixel in a small square round ``xy`` is within ``tol`` of ``colour`` (BGR)."""
    col, row = xy
    patch = img[row - radius:row + radius + 1, col - radius:col + radius + 1].astype(int)
    return bool(np.all(np.abs(patch - np.array(colour)) <= tol))


def test_image_is_bgr_uint8_of_the_announced_size():
    img = render_board(MORRIS9)
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    width, height = image_size(MORRIS9)
    assert img.shape[:2] == (height, width)


def test_corners_and_centre_map_inside_the_margin_with_y_up():
    style = DEFAULT_STYLE
    a1, g7 = point_to_pixel(MORRIS9, "a1"), point_to_pixel(MORRIS9, "g7")
    assert a1 == (style.margin_px, style.margin_px + round(6 * style.unit_px))  # bottom left
    assert g7 == (style.margin_px + round(6 * style.unit_px), style.margin_px)  # top right


@pytest.mark.parametrize("owner", [1, 2, 3, 4])
def test_a_piece_takes_its_player_colour_at_its_point(owner):
    img = render_board(MORRIS9, {"d2": Piece(owner, "man")}, labels=False)
    assert near(img, point_to_pixel(MORRIS9, "d2"), PLAYER_COLOURS[owner])
    assert not near(img, point_to_pixel(MORRIS9, "d6"), PLAYER_COLOURS[owner])


def test_plain_int_owner_draws_like_a_piece():
    as_piece = render_board(MORRIS9, {"b4": Piece(2, "man")})
    as_int = render_board(MORRIS9, {"b4": 2})
    assert np.array_equal(as_piece, as_int)


def test_point_to_pixel_follows_style_and_title():
    style = BoardStyle(unit_px=50, margin_px=30)
    plain = point_to_pixel(MORRIS9, "c5", style)
    titled = point_to_pixel(MORRIS9, "c5", style, title="two\nlines")
    assert plain == (30 + 2 * 50, 30 + 2 * 50)
    assert titled[0] == plain[0] and titled[1] > plain[1]
    img = render_board(MORRIS9, {"c5": 1}, style=style, title="two\nlines", labels=False)
    assert near(img, titled, PLAYER_COLOURS[1])


def test_highlight_draws_a_ring_round_the_point_only():
    style = DEFAULT_STYLE
    img = render_board(MORRIS9, highlights={"f4": HINT_LEGAL}, labels=False)
    col, row = point_to_pixel(MORRIS9, "f4")
    ring = style.piece_radius + style.highlight_width // 2 + 3
    for dc, dr in ((ring, 0), (-ring, 0), (0, ring), (0, -ring)):
        assert near(img, (col + dc, row + dr), HINT_LEGAL, radius=1, tol=20), (dc, dr)
    # Inside the ring the board shows through; the point itself keeps its dot.
    assert near(img, (col + ring // 2, row + ring // 2), style.background, radius=1)
    assert near(img, (col, row), style.line_colour, radius=1)


def test_other_piece_kinds_draw_in_player_colour():
    style = DEFAULT_STYLE
    img = render_board(MORRIS9, {"d2": Piece(3, "gem"), "d6": Piece(4, "ring"), "b4": Piece(1, "tower")},
                       labels=False)
    assert near(img, point_to_pixel(MORRIS9, "d2"), PLAYER_COLOURS[3])  # filled diamond
    col, row = point_to_pixel(MORRIS9, "d6")
    band = max(4, style.piece_radius // 3)
    assert near(img, (col + style.piece_radius - band // 2, row), PLAYER_COLOURS[4], radius=1)
    assert not near(img, (col + 8, row + 8), PLAYER_COLOURS[4], radius=1)  # hollow
    col, row = point_to_pixel(MORRIS9, "b4")
    assert near(img, (col + style.piece_radius // 2, row + style.piece_radius // 2), PLAYER_COLOURS[1])


@pytest.mark.parametrize("name", board_names())
def test_every_board_renders_empty(name):
    graph = board(name)
    img = render_board(graph)
    assert img.shape[:2][::-1] == image_size(graph)
    assert img.dtype == np.uint8


def test_empty_position_is_the_bare_board():
    assert np.array_equal(render_board(MORRIS9, {}), render_board(MORRIS9))
    assert np.array_equal(render_board(MORRIS9, None), render_board(MORRIS9))


def test_unknown_point_raises_a_clear_error():
    with pytest.raises(ValueError, match=r"z9.*morris9"):
        render_board(MORRIS9, {"z9": 1})
    with pytest.raises(ValueError, match=r"d4.*morris9"):  # not a point of Nine Men's Morris
        render_board(MORRIS9, highlights={"d4": HINT_LEGAL})
    with pytest.raises(ValueError, match="z9"):
        point_to_pixel(MORRIS9, "z9")


def test_unknown_player_and_bad_piece_raise():
    with pytest.raises(ValueError, match="player 9"):
        render_board(MORRIS9, {"d2": 9})
    with pytest.raises(ValueError, match="Piece"):
        render_board(MORRIS9, {"d2": "white"})


def test_render_state_places_the_game_position():
    game = engine.load("nine-mens-morris")
    state = game.new().play("d2").play("f4")
    title = state_title(game, state)
    assert "nine-mens-morris" in title and "player 1 to move" in title
    img = render_state(game, state, labels=False)
    assert near(img, point_to_pixel(game.board, "d2", title=title), PLAYER_COLOURS[1])
    assert near(img, point_to_pixel(game.board, "f4", title=title), PLAYER_COLOURS[2])


def test_save_png_round_trips(tmp_path):
    img = render_board(MORRIS9, {"a1": 1, "g7": 2})
    path = save_png(img, tmp_path / "deeper" / "board.png")
    back = cv2.imread(str(path), cv2.IMREAD_COLOR)
    assert back is not None and np.array_equal(back, img)


def test_save_png_reports_failure(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(OSError):
        save_png(render_board(MORRIS9), blocker / "board.png")
    with pytest.raises(ValueError, match="png"):
        save_png(render_board(MORRIS9), tmp_path / "board.jpg")


def test_a_stack_is_drawn_with_its_height_beside_the_top_piece():
    import engine
    from vision.pictures import draw, state_title

    g = engine.load("stack")
    s = g.new()
    for step in ["g1", "a7", "d7", "f2", "g4", "d7"]:
        s = s.play(step)
    img = render_state(g, s)
    plain = draw(g.board, s.position(), title=state_title(g, s))
    diff = np.argwhere(np.any(img != plain, axis=2))
    c, r = point_to_pixel(g.board, "d7", title=state_title(g, s))
    assert len(diff) > 20 and all(abs(x - c) < 60 and abs(y - r) < 60 for y, x in diff), "only beside d7"
