"""The web page in a real browser: headless Chromium (Debian's ``chromium``) driven by Playwright.

Each test serves a simulated game (tests/web_helpers.py ``LiveGame``: uvicorn on a free port,
the game played from the test's thread) and looks at the page as a phone would. Without
Chromium or Playwright these tests skip, and the test run's last lines say so (conftest.py).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install -e '.[web]'")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed: pip install -e '.[dev]'")

CHROMIUM = os.environ.get("ARBITER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("no Chromium: apt-get install chromium", allow_module_level=True)

from arbiter import referee as R  # noqa: E402
from web_helpers import GAME, LiveGame, register_hide_and_seek, unregister_hide_and_seek  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
WAIT_MS = 5000


@pytest.fixture(scope="module")
def browser():
    """One Chromium for the file, with a fresh profile of its own (Playwright makes one in a
    temporary folder for every launch, and removes it after)."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def new_page(browser, **kw):
    """A page in a context of its own. Playwright's waiting for a condition evaluates its text,
    which the page's Content-Security-Policy forbids (no eval), so the test's contexts bypass it."""
    return browser.new_context(bypass_csp=True, **kw).new_page()


@pytest.fixture
def page(browser):
    p = new_page(browser, viewport={"width": 1000, "height": 900})
    yield p
    p.context.close()


def _moves(page) -> list[str]:
    return page.locator("#moves li").all_inner_texts()


def test_a_simulated_games_steps_appear_on_the_page(page, tmp_path):
    with LiveGame("nine-mens-morris", journals=tmp_path) as game:
        page.goto(game.url)
        page.wait_for_selector("#board svg")
        assert page.locator("#board .piece").count() == 0
        assert "White to move" in page.inner_text("#turn")
        game.run("put d2")
        page.wait_for_function("document.querySelectorAll('#moves li').length == 1", timeout=WAIT_MS)
        assert _moves(page) == ["d2"] and page.locator("#board .piece").count() == 1
        assert page.locator("#board .mark.last").count() == 1
        game.run("put f4 black")
        page.wait_for_function("document.querySelectorAll('#moves li').length == 2", timeout=WAIT_MS)
        assert _moves(page) == ["d2", "f4"] and page.locator("#board .piece").count() == 2
        assert "White to move" in page.inner_text("#turn") and "f4" in page.inner_text("#said")


def test_an_illegal_change_shows_its_message_and_clears_when_put_back(page):
    with LiveGame("tapatan", reader="camera") as game:  # the camera sees colours
        page.goto(game.url)
        game.run("put a1")
        page.wait_for_function("document.querySelectorAll('#moves li').length == 1", timeout=WAIT_MS)
        game.run("put d4 white")  # white again, on black's turn
        page.wait_for_selector("#said.illegal", timeout=WAIT_MS)
        said = page.inner_text("#said")
        assert "black's turn" in said and "Put it back" in said
        assert page.locator("#board .mark.illegal").count() == 1
        game.run("take d4")
        page.wait_for_selector("#said.restored", timeout=WAIT_MS)
        assert page.locator("#board .mark.illegal").count() == 0 and "black's turn" not in page.inner_text("#said")


def test_a_take_back_pressed_on_the_page_is_carried_out(page, tmp_path):
    with LiveGame("tapatan", journals=tmp_path) as game:
        page.goto(game.player_url(1))
        game.run("put a1; put d4 black; put g7; put a7 black")
        game.run("take a7; take g7")  # two turns back: it needs the confirm button
        page.wait_for_selector("#confirm:not([disabled])", timeout=WAIT_MS)
        assert "Take back" in page.inner_text("#said")
        page.click("#confirm")
        assert game.until(lambda: game.session.last_verdict.kind == R.TAKEBACK)
        page.wait_for_function("document.querySelectorAll('#moves li').length == 2", timeout=WAIT_MS)
        assert _moves(page) == ["a1", "d4"] and game.session.journal.steps == ["a1", "d4"]
        assert "Took back" in page.inner_text("#said")


def test_a_spectator_page_has_no_controls_and_a_forged_request_is_refused(page, browser):
    with LiveGame("tapatan") as game:
        page.goto(game.url)
        game.run("put a1; put d4 black; put g7; put a7 black; take a7; take g7")
        page.wait_for_selector("#said.takeback-pending", timeout=WAIT_MS)
        assert not page.locator("#controls").is_visible() and not page.locator("#private").is_visible()
        assert page.locator("button:visible", has_text="Confirm").count() == 0
        assert page.locator("#choices button").count() == 0
        forged = page.evaluate("""async () => {
            const post = (token) => fetch('/api/control', {method: 'POST', body: JSON.stringify({action: 'confirm'}),
                headers: Object.assign({'Content-Type': 'application/json'}, token ? {'X-Arbiter-Token': token} : {})});
            return [(await post(null)).status, (await post('AAAAAAAAAAAAAAAAAAAAAAAA')).status];
        }""")
        assert forged == [401, 401]
        # Another site open on the same phone: its request is refused even with a player's token.
        other = new_page(browser)
        other.set_content("<p>another site</p>")
        token = game.remote.links.tokens[1]
        status = other.evaluate("""async ([url, token]) => {
            try {
                const r = await fetch(url, {method: 'POST', body: JSON.stringify({action: 'confirm'}),
                    headers: {'Content-Type': 'application/json', 'X-Arbiter-Token': token}});
                return r.status;
            } catch (e) { return 'blocked'; }
        }""", [game.server.url("/api/control"), token])
        simple = other.evaluate("""async (url) => {
            await fetch(url, {method: 'POST', mode: 'no-cors', body: '{"action": "confirm"}',
                              headers: {'Content-Type': 'text/plain'}});
            return 'sent';
        }""", game.server.url("/api/control"))
        other.close()
        assert status == "blocked" and simple == "sent"
        game.until(lambda: False, timeout=0.3)
        assert game.session.waiting_for == R.TAKEBACK_PENDING and len(game.session.history) == 4


@pytest.fixture
def hide_and_seek():
    register_hide_and_seek()
    yield GAME
    unregister_hide_and_seek()


def test_one_players_private_page_never_shows_anothers_secret(browser, hide_and_seek):
    with LiveGame(GAME) as game:
        one, two, spectator = new_page(browser), new_page(browser), new_page(browser)
        for p, url in ((one, game.player_url(1)), (two, game.player_url(2)), (spectator, game.url)):
            p.goto(url)
        one.wait_for_selector("#secretform:not([hidden])", timeout=WAIT_MS)
        assert not two.locator("#secretform").is_visible()  # only the player state.private_to names is asked
        for p, point, then in ((one, "d7", 2), (two, "g1", None)):
            p.wait_for_selector("#secretform:not([hidden])", timeout=WAIT_MS)
            p.fill("#secret", point)
            p.click("#secretform button")
            assert game.until(lambda: game.session.state.private_to == then)  # the session carries it out
        assert len(game.session.history) == 2
        one.wait_for_function("document.getElementById('tells').textContent.includes('d7')", timeout=WAIT_MS)
        two.wait_for_function("document.getElementById('tells').textContent.includes('g1')", timeout=WAIT_MS)
        game.run("put a1; put g7 black")
        for p in (one, two, spectator):
            p.wait_for_function("document.querySelectorAll('#moves li').length == 4", timeout=WAIT_MS)
        assert "hide=" not in one.content() + two.content() + spectator.content()  # moves by their public text
        assert "hidden point: g1" not in one.content() and "hidden point: d7" not in two.content()
        assert "hidden point" not in spectator.content() and not spectator.locator("#private").is_visible()
        assert one.input_value("#secret") == ""  # the answer does not stay in the box
        for p in (one, two, spectator):
            p.context.close()


def test_the_page_at_a_phones_width(browser, tmp_path):
    with LiveGame("nine-mens-morris") as game:
        page = new_page(browser, viewport={"width": 390, "height": 844}, device_scale_factor=1)
        context = page.context
        page.goto(game.player_url(1))
        game.run("put d2; put f4 black; put b4")
        page.wait_for_function("document.querySelectorAll('#moves li').length == 3", timeout=WAIT_MS)
        # nothing wider than the phone: no sideways scrolling
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        box = page.locator("#board svg").bounding_box()
        assert 300 <= box["width"] <= 390
        assert page.locator("#confirm").bounding_box()["height"] >= 40  # big enough for a thumb
        shot = tmp_path / "phone.png"
        page.screenshot(path=str(shot))
        from PIL import Image

        assert Image.open(shot).size == (390, 844)
        context.close()


def test_a_past_game_is_replayed_step_by_step_on_the_history_tab(page, tmp_path):
    with LiveGame("tapatan", journals=tmp_path) as game:
        game.run("put a1; put d4 black; put g7")
        page.goto(game.url)
        page.click(".tab[data-tab=history]")
        page.wait_for_selector("#games tbody tr")
        cells = page.locator("#games tbody tr").first.locator("td").all_inner_texts()
        assert cells[1:] == ["tapatan", "2", "3", "unfinished"]
        page.locator("#games tbody tr").first.click()
        page.wait_for_selector("#replayboard svg")
        assert page.locator("#replayboard .piece").count() == 3 and "3 of 3" in page.inner_text("#replaystep")
        page.click("#prev")
        page.wait_for_function("document.getElementById('replaystep').textContent.startsWith('2 of 3')",
                               timeout=WAIT_MS)
        assert page.locator("#replayboard .piece").count() == 2 and "d4" in page.inner_text("#replaystep")
        page.click("#first")
        page.wait_for_function("document.getElementById('replaystep').textContent.startsWith('0 of 3')",
                               timeout=WAIT_MS)
        assert page.locator("#replayboard .piece").count() == 0
        with page.expect_download() as download:
            page.click("#download")
        record = json.loads(Path(download.value.path()).read_text())
        assert record["game"] == "tapatan" and record["steps"] == ["a1", "d4", "g7"]


def test_a_game_is_started_from_the_owners_page_and_watched_live(browser, tmp_path, monkeypatch):
    import arbiter.cli.web as cli_web
    import arbiter.cli.webpage as webpage

    page_server = webpage.WebPage("127.0.0.1:0", journals=tmp_path)
    launcher = cli_web.Launcher(page_server, tmp_path)
    page_server.start(launcher=launcher)
    monkeypatch.setattr(webpage, "_serving", page_server)
    page = new_page(browser, viewport={"width": 390, "height": 844})
    try:
        page.goto(page_server.server.url(f"/setup/{launcher.token}"))
        page.click("#setuptab")
        page.wait_for_selector("#gamechoice option[value=tapatan]", state="attached")
        page.select_option("#gamechoice", "tapatan")
        page.select_option("#readerchoice", "sim-occupancy")
        page.click("#startgame")
        page.wait_for_selector("#links figure", timeout=WAIT_MS)
        assert page.locator("#links svg.qr").count() == 2
        page.click(".tab[data-tab=live]")
        page.wait_for_function("document.querySelectorAll('#moves li').length >= 2", timeout=WAIT_MS)
        assert "tapatan" in page.inner_text("#title") and not page.locator("#controls").is_visible()
        page.click(".tab[data-tab=setup]")
        page.click("#stop")
        page.wait_for_selector("#newgame:not([hidden])", timeout=WAIT_MS)
        assert "ended" in page.inner_text("#setuplast")
    finally:
        page.context.close()
        if launcher.running:
            launcher.stop()
            launcher.thread.join(10)
        page_server.stop()


def test_the_camera_is_calibrated_from_the_owners_page(browser, tmp_path, monkeypatch):
    import arbiter.cli.web as cli_web
    import arbiter.cli.webpage as webpage
    from arbiter.web.calibrate import Calibrator

    page_server = webpage.WebPage("127.0.0.1:0", journals=tmp_path)
    launcher = cli_web.Launcher(page_server, tmp_path)
    calibrator = Calibrator(tmp_path)
    page_server.start(launcher=launcher, calibrator=calibrator)
    page = new_page(browser, viewport={"width": 390, "height": 844})
    try:
        page.goto(page_server.server.url(f"/setup/{launcher.token}"))
        page.click("#setuptab")
        page.wait_for_selector("#calgame option[value=tapatan]", state="attached")
        page.select_option("#calgame", "tapatan")
        page.fill("#calsource", "sim")
        page.click("#calbegin")
        page.wait_for_selector("#calsteps:not([hidden])", timeout=WAIT_MS)
        page.wait_for_function("document.getElementById('calcamera').naturalWidth > 0", timeout=10000)
        assert "Clear every piece" in page.inner_text("#calsaid")
        page.click("#caltake")
        page.wait_for_selector("#callayoutbox:not([hidden])", timeout=10000)
        page.wait_for_function("document.getElementById('callayout').naturalWidth > 0", timeout=10000)
        page.click("#caltake")
        page.wait_for_selector("#caloverlaybox:not([hidden])", timeout=30000)
        page.wait_for_function("document.getElementById('caloverlay').naturalWidth > 0", timeout=10000)
        assert "Calibrated." in page.inner_text("#calsaid") and page.locator("#caltake").is_hidden()
        assert (tmp_path / "calibration-tapatan.json").exists()
    finally:
        page.context.close()
        calibrator.close()
        page_server.stop()
