"""The web page's pictures in docs/web.md, taken in headless Chromium from simulated games.

    python -m arbiter.web.docs_pictures docs/web            # (make web-pictures)

Needs the web extra, Playwright (the dev extra) and Chromium (Debian: apt-get install chromium;
another one with ARBITER_CHROMIUM=/path). Each picture is a simulated game played to a moment
worth showing, served as ``arbiter play --web`` serves it, and photographed as a phone or a
laptop shows it: the games' pictures come out the same from the same seeds (the owner's page
shows a fresh game's links and start time on each run).
"""

from __future__ import annotations

import os
import random
import shutil
import sys
from pathlib import Path

from ..sim.scenario import Player, Table
from .hub import Hub
from .remote import attach
from .server import WebServer, make_app

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]


def _served(table: Table, title: str):
    hub = Hub()
    remote = attach(table.session, hub, title=title)
    server = WebServer(make_app(hub, remote=remote), "127.0.0.1", 0).start()
    return remote, server


def _moments():
    """(file name, viewport, the game's table, the script that brings it to the moment, the
    player whose page is shown: 0 for a spectator's)."""
    # A mill game seen by the camera (so colours count): white closes a mill and is to take a
    # black man off, on player 1's page on a laptop ...
    mill = Table("nine-mens-morris", "camera")
    yield "mill-laptop.png", (1100, 720), mill, "put a1; put b2 black; put d1; put d2 black; put g1", 1
    # ... then, after the removal, a white man put down on black's turn: a spectator's phone.
    yield "mill-phone.png", (390, 844), mill, "take b2; put d3 white", 0
    # Brain Hanky, clusters placed by simulated players from a seed.
    cloth = Table("brain-hanky", "camera")
    Player(cloth, rng=random.Random(3)).play(max_steps=8)
    yield "cloth-laptop.png", (1100, 720), cloth, "", 1


def _setup_picture(browser, out: Path) -> None:
    """The owner's page of ``arbiter serve`` on a phone: a game chosen, then started from it (its
    players' links), then a calibration on the simulated camera to its overlay."""
    import tempfile

    from ..cli import web as serve
    from ..cli import webpage

    from .calibrate import Calibrator

    folder = Path(tempfile.mkdtemp(prefix="arbiter-pictures-"))
    page = webpage.WebPage("127.0.0.1:0", journals=folder)
    launcher = serve.Launcher(page, folder)
    calibrator = Calibrator(folder)
    page.start(launcher=launcher, calibrator=calibrator)
    webpage.lend(page)
    try:
        shot = browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
        shot.goto(page.server.url(f"/setup/{launcher.token}"))
        shot.click("#setuptab")
        shot.wait_for_selector("#gamechoice option[value=morabaraba]", state="attached")
        shot.select_option("#gamechoice", "morabaraba")
        shot.select_option("#readerchoice", "sim-occupancy")
        shot.fill("#clockchoice", "10m+5s")
        shot.screenshot(path=str(out / "setup-phone.png"))
        print(out / "setup-phone.png")
        shot.click("#startgame")
        shot.wait_for_selector("#links figure")
        shot.screenshot(path=str(out / "setup-running-phone.png"))
        print(out / "setup-running-phone.png")
        shot.click("#stop")
        shot.wait_for_selector("#newgame:not([hidden])")
        # Calibration on the simulated camera, to its overlay.
        shot.select_option("#calgame", "nine-mens-morris")
        shot.fill("#calsource", "sim")
        shot.click("#calbegin")
        shot.wait_for_selector("#calsteps:not([hidden])")
        shot.click("#caltake")
        shot.wait_for_selector("#callayoutbox:not([hidden])")
        shot.click("#caltake")
        shot.wait_for_selector("#caloverlaybox:not([hidden])", timeout=60000)
        shot.wait_for_function("document.getElementById('caloverlay').naturalWidth > 0")
        shot.locator("#calsteps").screenshot(path=str(out / "calibrate-phone.png"))
        print(out / "calibrate-phone.png")
        shot.close()
    finally:
        calibrator.close()
        if launcher.running:
            launcher.stop()
            launcher.thread.join(10)
        webpage.lend(None)
        page.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0] if argv else "docs/web")
    out.mkdir(parents=True, exist_ok=True)
    chromium = os.environ.get("ARBITER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("no Chromium: apt-get install chromium (or set ARBITER_CHROMIUM)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        served = {}
        for name, (w, h), table, script, player in _moments():
            if id(table) not in served:
                served[id(table)] = _served(table, table.game.name)
            remote, server = served[id(table)]
            if script:
                table.run(script)
            page = browser.new_page(viewport={"width": w, "height": h})
            page.goto(server.url(remote.links.path(player)) if player else server.url("/"))
            page.wait_for_selector("#board svg")
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / name))
            page.close()
            print(out / name)
        for remote, server in served.values():
            server.stop()
        _setup_picture(browser, out)
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
