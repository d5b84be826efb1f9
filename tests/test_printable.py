"""Printable boards: true scale, points where the layout says, markers the detector finds."""

import json
import math
import re

import cv2
import numpy as np
import pytest

from vision import markers
from vision.printable import (PAPER_MM, UNIT_MM, mm_per_unit, plan_pages, render_pages, render_printable,
                              resolve, write_pdf, write_png)
from vision.render import BoardStyle

BOARDS = ["morris9", "morabaraba", "three", "saba", "brain-hanky-6", "brain-hanky-6-periodic"]
LINE = BoardStyle().line_colour


def pdf_pages(path):
    """Number of pages of a PDF (Pillow writes PDFs but does not read them back)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", path.read_bytes()))


def dpi_for(name):
    return 60 if name.startswith("brain-hanky") else 150  # a bandanna at 150 dpi is 4620 px square


@pytest.fixture(scope="module", params=BOARDS)
def printed(request, tmp_path_factory):
    name = request.param
    dpi = dpi_for(name)
    out = tmp_path_factory.mktemp("print") / f"{name}.png"
    png, js = write_png(name, out, dpi)
    image, layout = render_printable(name, dpi)
    return name, dpi, png, js, image, layout


def test_points_json_matches_layout(printed):
    name, dpi, _, js, _, layout = printed
    record = json.loads(js.read_text())
    assert record["board"] == layout.board.name and record["dpi"] == dpi
    assert record["mm_per_unit"] == pytest.approx(mm_per_unit(layout.board))
    assert set(record["points"]) == set(layout.board.points)
    for p, (c, r) in record["points"].items():
        assert (c, r) == pytest.approx(layout.to_pixel(layout.board.coords[p]))
    corners = layout.marker_pixel_corners()
    assert {int(k) for k in record["markers"]} == set(markers.marker_ids(layout.board))
    for k, quad in record["markers"].items():
        assert np.allclose(quad, corners[int(k)])


def test_png_file_is_the_rendered_image_with_its_dpi(printed):
    _, dpi, png, _, image, _ = printed
    data = png.read_bytes()
    assert b"pHYs" in data[:64]
    assert np.array_equal(cv2.imread(str(png)), image)


def test_true_scale(printed):
    _, dpi, _, _, image, layout = printed
    assert layout.px_per_unit == pytest.approx(mm_per_unit(layout.board) * dpi / 25.4)
    ex0, ey0, ex1, ey1 = markers.print_extent(layout.board)
    assert image.shape[1] == pytest.approx((ex1 - ex0) * layout.px_per_unit, abs=1)
    assert image.shape[0] == pytest.approx((ey1 - ey0) * layout.px_per_unit, abs=1)


def test_board_scale_per_family():
    assert mm_per_unit(resolve("morris9")[0]) == UNIT_MM["htjb"]
    for name in ("brain-hanky-6", "brain-hanky-6-periodic", "brain-hanky-12-periodic"):
        assert mm_per_unit(resolve(name)[0]) == pytest.approx(93.13, abs=0.01)
    # the bandanna: six cells on 22 inches
    assert 6 * mm_per_unit(resolve("brain-hanky-6")[0]) == pytest.approx(22 * 25.4)


def near_colour(image, c, r, colour, radius=1, tol=60):
    """Some pixel within ``radius`` of (c, r) is within ``tol`` of ``colour``."""
    c, r = round(c), round(r)
    patch = image[r - radius:r + radius + 1, c - radius:c + radius + 1].astype(int)
    return (np.abs(patch - np.array(colour)).max(axis=2) <= tol).any()


def test_lines_at_edge_midpoints_and_points_where_the_layout_says(printed):
    name, _, _, _, image, layout = printed
    board = layout.board
    hboard = resolve(name)[1]
    if hboard is None:
        colour_of = lambda a: LINE  # noqa: E731
    else:
        from vision.render_hanky import CLOTHS, PRINT_CLOTH
        colour_of = lambda a: CLOTHS[PRINT_CLOTH].webs[hboard.point_web[a]]  # noqa: E731
    period = board.period
    # On Brain Hanky a bridge of one web crosses one of the other at its midpoint (the orange on
    # top), so the line is looked for a little off the middle there.
    t = 0.5 if hboard is None else 0.3
    checked = 0
    for a, b in board.edges[::max(1, len(board.edges) // 12)]:
        (ax, ay), (bx, by) = board.coords[a], board.coords[b]
        if period and (abs(ax - bx) > period / 2 or abs(ay - by) > period / 2):
            continue  # wraps: no midpoint on the sheet
        c, r = layout.to_pixel((ax + t * (bx - ax), ay + t * (by - ay)))
        assert near_colour(image, c, r, colour_of(a)), (a, b)
        checked += 1
    assert checked >= 5
    for p in board.points:  # every point dot lies exactly (within 1 px) at to_pixel
        c, r = layout.to_pixel(board.coords[p])
        assert near_colour(image, c, r, colour_of(p), radius=1), p


def test_white_far_from_the_board(printed):
    _, _, _, _, image, layout = printed
    x0, y0, x1, y1 = markers.board_extent(layout.board)
    # between the top markers, beyond the labels; beside the board, off the middle row's labels
    for xy in [((x0 + x1) / 2 + 1.5, y1 + 0.8), (x0 - 0.8, y0 + 1.5), (x1 + 0.8, y1 - 1.5)]:
        c, r = (round(v) for v in layout.to_pixel(xy))
        assert (image[r - 2:r + 3, c - 2:c + 3] == 255).all(), xy


def test_markers_detected_where_the_layout_says(printed):
    _, _, png, _, _, layout = printed
    image = cv2.imread(str(png))
    corners, ids, _ = cv2.aruco.ArucoDetector(markers.dictionary()).detectMarkers(image)
    assert ids is not None
    assert sorted(ids.ravel().tolist()) == sorted(markers.marker_ids(layout.board))
    expected = layout.marker_pixel_corners()
    for quad, i in zip(corners, ids.ravel()):
        err = np.abs(quad.reshape(4, 2) - expected[int(i)]).max()
        assert err <= 2.0, (i, err)


@pytest.mark.parametrize("dpi", [72, 150, 300, 600])
def test_htjb_boards_fit_one_a4_page(dpi):
    for name in ("morris9", "morabaraba", "three", "saba"):
        _, layout = render_printable(name, dpi, labels=False)
        assert plan_pages(layout, "a4").pages == 1


def test_morris9_pdf_is_one_page(tmp_path):
    out = tmp_path / "m9.pdf"
    assert write_pdf("nine-mens-morris", out, "a4", 100).pages == 1
    assert pdf_pages(out) == 1


def test_brain_hanky_tiles_over_several_a4_pages(tmp_path):
    out = tmp_path / "bh.pdf"
    tiling = write_pdf("brain-hanky-6", out, "a4", 50)
    assert tiling.pages > 1 and tiling.pages == tiling.rows * tiling.cols
    assert pdf_pages(out) == tiling.pages
    # every page is exactly an A4 sheet at that resolution
    pages, tiling2, layout = render_pages("brain-hanky-6", "a4", 50)
    assert len(pages) == tiling.pages == tiling2.pages
    w_mm, h_mm = PAPER_MM["a4"]
    if tiling.landscape:
        w_mm, h_mm = h_mm, w_mm
    for page in pages:
        assert page.shape[1] == round(w_mm / 25.4 * 50) and page.shape[0] == round(h_mm / 25.4 * 50)
    # the grid covers the whole print, with overlap
    margin, overlap = 10 * 50 / 25.4, 10 * 50 / 25.4
    avail = (page.shape[1] - 2 * margin, page.shape[0] - 2 * margin)
    assert tiling.cols * (avail[0] - overlap) + overlap >= layout.width - 1
    assert tiling.rows * (avail[1] - overlap) + overlap >= layout.height - 1


def test_pdf_page_size_is_true(tmp_path):
    out = tmp_path / "m9.pdf"
    write_pdf("morris9", out, "letter", 100)
    text = out.read_bytes().decode("latin-1")
    box = text[text.index("/MediaBox"):].split("]")[0]
    w_pt, h_pt = (float(v) for v in box.replace("[", " ").split()[-2:])
    # 72 points per inch; letter is 215.9 x 279.4 mm (a pixel of rounding at 100 dpi allowed)
    assert w_pt == pytest.approx(215.9 / 25.4 * 72, abs=1) and h_pt == pytest.approx(279.4 / 25.4 * 72, abs=1)


def test_a3_holds_more_than_a4():
    _, layout = render_printable("brain-hanky-6", 30, labels=False)
    assert plan_pages(layout, "a3").pages < plan_pages(layout, "a4").pages


def test_unknown_names_and_papers_are_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="unknown game or board 'no-such-game'"):
        render_printable("no-such-game")
    with pytest.raises(ValueError, match="unknown paper"):
        write_pdf("morris9", tmp_path / "x.pdf", "a5")
    with pytest.raises(ValueError, match=".png"):
        write_png("morris9", tmp_path / "x.jpg")


def test_game_names_and_board_objects_give_the_same_print():
    a, la = render_printable("morabaraba", 100)
    b, lb = render_printable(resolve("morabaraba")[0], 100)
    assert np.array_equal(a, b) and la.px_per_unit == lb.px_per_unit
    graph, hboard = resolve("brain-hanky-gemless")
    assert hboard is not None and graph.name == "brain-hanky-6-periodic"


def test_unit_mm_override_scales_the_print():
    _, small = render_printable("morris9", 100, labels=False)
    _, big = render_printable("morris9", 100, labels=False, unit_mm=35)
    assert big.px_per_unit == pytest.approx(35 * 100 / 25.4)
    assert big.width == pytest.approx(small.width * 35 / UNIT_MM["htjb"], abs=2)
    assert plan_pages(big, "a4").pages > 1
    assert math.isclose(big.mm_per_unit, 35)


def test_print_board_command(tmp_path):
    from click.testing import CliRunner

    from arbiter.cli import main

    runner = CliRunner()
    pdf = tmp_path / "board.pdf"
    out = runner.invoke(main, ["print-board", "morris9", "--out", str(pdf)])
    assert out.exit_code == 0 and "one page" in out.output and pdf.read_bytes()[:5] == b"%PDF-"
    png = tmp_path / "board.png"
    out = runner.invoke(main, ["print-board", "nine-mens-morris", "--out", str(png), "--dpi", "100"])
    assert out.exit_code == 0 and (tmp_path / "board.points.json").exists()
    bad = runner.invoke(main, ["print-board", "chess", "--out", str(pdf)])
    assert bad.exit_code == 2 and "unknown game" in bad.output


def test_brain_hanky_prints_on_a_blue_cloth_that_every_piece_stands_out_from():
    """The default Brain Hanky print has a mid-grey ground under the whole play area (the markers
    keep white paper round them), and every piece colour differs from that ground by far more
    than from the white print: white rings and silver gems are what a camera could not tell
    from a light cloth."""
    from engine.boards import brain_hanky_board
    from vision.render_hanky import CLOTHS, HANKY_COLOURS, PRINT_CLOTH

    assert PRINT_CLOTH == "blue"
    image, layout = render_printable("brain-hanky", 30, labels=False)
    ground = np.array(CLOTHS["blue"].background)
    # a spot in the middle of an orange square's island of cloth, and the paper by a marker
    c, r = layout.to_pixel((0.5, 0.5))
    assert np.abs(image[round(r), round(c)].astype(int) - ground).max() <= 2
    m = layout.marker_pixel_corners()
    corner = next(iter(m.values()))[0]
    assert tuple(image[round(corner[1]) - 3, round(corner[0]) - 3]) == (255, 255, 255)
    for side in (1, 2):
        for kind in ("ring", "gem"):
            piece = np.array(HANKY_COLOURS[side][kind])
            assert np.abs(piece - ground).mean() > 40, (side, kind)
    # the white print is the board as it was before the cloth: no ground at all
    white, _ = render_printable("brain-hanky", 30, labels=False, cloth="white")
    assert tuple(white[round(r), round(c)]) == (255, 255, 255)
    # HTJB boards ignore the cloth; an unknown cloth is a clear error
    a, _ = render_printable("morris9", 50, cloth="white")
    b, _ = render_printable("morris9", 50)
    assert np.array_equal(a, b)
    with pytest.raises(ValueError, match="unknown cloth 'tartan': choose one of blue, white"):
        render_printable("brain-hanky", 30, cloth="tartan")
    assert brain_hanky_board(6, False, None).size == 6


def test_print_board_cloth_option(tmp_path):
    from click.testing import CliRunner

    from arbiter.cli import main

    runner = CliRunner()
    out = runner.invoke(main, ["print-board", "brain-hanky", "--out", str(tmp_path / "w.png"), "--dpi", "50",
                               "--cloth", "white"])
    assert out.exit_code == 0, out.output
    import cv2

    img = cv2.imread(str(tmp_path / "w.png"))
    assert img is not None and img.reshape(-1, 3).min(axis=1).mean() > 200  # mostly white paper
    out = runner.invoke(main, ["print-board", "brain-hanky", "--out", str(tmp_path / "s.png"), "--dpi", "50"])
    img = cv2.imread(str(tmp_path / "s.png"))
    assert out.exit_code == 0 and img.reshape(-1, 3).min(axis=1).mean() < 160  # mostly blue
    bad = runner.invoke(main, ["print-board", "brain-hanky", "--out", str(tmp_path / "x.png"), "--cloth", "red"])
    assert bad.exit_code == 2 and "blue" in bad.output
