"""The web page's server, without a browser: views, controls, roles, secrets, history, limits.

A simulated game (a reed grid at a simulated table) runs in the test's thread; the page's
requests go through Starlette's test client, and are carried out at the session's next poll,
as they are while ``arbiter play --web`` runs. The browser tests are in test_web_browser.py.
"""

from __future__ import annotations

import json
import re
import threading
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install -e '.[web]'")
pytest.importorskip("httpx", reason="Starlette's test client needs httpx (the dev extra)")

with warnings.catch_warnings():  # Starlette would rather have httpx's successor; httpx serves
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

import engine  # noqa: E402
from arbiter import referee as R  # noqa: E402
from arbiter.journal import (Journal, JournalError, load_journal, replay_journal, resume,  # noqa: E402
                             secret_path)
from arbiter.sim.scenario import Table  # noqa: E402
from arbiter.web.history import History  # noqa: E402
from arbiter.web.hub import Hub  # noqa: E402
from arbiter.web.remote import PlayerLinks, attach  # noqa: E402
from arbiter.web.server import WebServer, make_app, parse_address  # noqa: E402
from arbiter.web.svg import board_svg  # noqa: E402
from web_helpers import GAME, register_hide_and_seek, unregister_hide_and_seek  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _game(game="tapatan", tmp_path=None, reader="occupancy", **kw):
    journal = Journal.new(game, engine.load(game).options, directory=tmp_path) if tmp_path else None
    table = Table(game, reader, journal=journal, **kw)
    hub = Hub()
    remote = attach(table.session, hub, title=game)
    app = make_app(hub, remote=remote, history=History(tmp_path) if tmp_path else None)
    return table, hub, remote, app


def _state(client) -> dict:
    return client.get("/api/state").json()


def _post(client, path, body, token=None, **headers):
    h = {"content-type": "application/json", **headers}
    if token is not None:
        h["x-arbiter-token"] = token
    return client.post(path, content=json.dumps(body), headers=h)


# ------------------------------------------------------------------ the board, from the geometry
def test_every_game_is_drawn_from_its_boards_geometry():
    """Every spot of every game's board is on the SVG, each piece of the start is drawn once."""
    for name in engine.names():
        g = engine.load(name)
        st = g.new()
        svg = board_svg(g.rules, st.position(), {})
        # a spot's own title is its name alone; a piece's is "SPOT: what stands there" (a spot's
        # name may hold a colon itself: the two-grid game's r:a1)
        titles = [t for t in re.findall(r"<title>([^<]+)</title>", svg) if t in g.rules.spots or ": " not in t]
        assert set(titles) == set(g.rules.spots), name
        assert svg.count('class="piece"') == len(st.position()), name


def test_a_board_that_wraps_round_draws_no_line_across_it():
    """Edges of a periodic board that cross its border are drawn as two short stubs."""
    g = engine.load("brain-hanky-gemless")
    svg = board_svg(g.rules, {}, {})
    d = re.search(r'class="edges" d="([^"]+)"', svg).group(1)
    for seg in re.findall(r"M([\d.]+) ([\d.]+)L([\d.]+) ([\d.]+)", d):
        x0, y0, x1, y1 = map(float, seg)
        assert abs(x1 - x0) < 150 and abs(y1 - y0) < 150  # no segment longer than 1.5 board units


def test_the_web_code_names_no_game_family():
    """No family's name (nor a game's) in the web code ("stack" is also the protocol's word for
    pieces standing on each other, ``State.stack``, so it is looked for as the family only).
    The script that photographs the page for the docs chooses games to photograph, by name."""
    names = (set(engine.games.FAMILIES) - {"stack"}) | {"hanky", "morris", "mill", "morabaraba", "tapatan"}
    for path in (ROOT / "arbiter" / "web").rglob("*"):
        if path.is_file() and path.name != "docs_pictures.py" and "__pycache__" not in path.parts:
            text = path.read_text().lower()
            for f in names:
                assert not re.search(rf"\b{re.escape(f)}\b", text), f"{path.name} names {f}"
            assert '"stack"' not in text and "family ==" not in text


# ------------------------------------------------------------------ the live view
def test_the_page_follows_the_game(tmp_path):
    table, hub, remote, app = _game(tmp_path=tmp_path, reader="camera")  # sees colours
    with TestClient(app) as client:
        v0 = _state(client)
        assert v0["live"] and v0["moves"] == [] and v0["to_move"]["colour"] == "white"
        table.run("put a1")
        v = _state(client)
        assert v["moves"] == ["a1"] and v["to_move"]["colour"] == "black"
        assert v["said"]["kind"] == "step" and "a1" in v["said"]["message"]
        assert 'class="mark last"' in v["board"]
        table.run("put d4 white")  # white again: out of turn
        v = _state(client)
        assert v["waiting"] == R.ILLEGAL and v["said"]["kind"] == "illegal"
        assert "black's turn" in v["said"]["message"] and 'mark illegal' in v["board"]
        table.run("take d4")
        v = _state(client)
        assert v["waiting"] is None and v["said"]["kind"] == "restored" and "mark illegal" not in v["board"]


def test_a_clock_is_shown_and_published_while_it_runs(tmp_path):
    from arbiter.clocks import Clock

    table, hub, remote, app = _game(clock=Clock("5m", 2))
    with TestClient(app) as client:
        before = hub.version
        table.wait(2.5)
        assert hub.version >= before + 2  # about once a second
        clocks = _state(client)["clocks"]
        assert [c["running"] for c in clocks] == [True, False]
        assert 296 < clocks[0]["left"] < 298 and clocks[1]["left"] == 300


# ------------------------------------------------------------------ controls and roles
def test_a_take_back_confirmed_on_the_page_is_carried_out(tmp_path):
    table, hub, remote, app = _game(tmp_path=tmp_path)
    token = remote.links.tokens[1]
    with TestClient(app) as client:
        table.run("put a1; put d4 black; put g7; put a7 black")
        table.run("take a7; take g7")  # two turns back: the confirm button is needed
        v = _state(client)
        assert v["waiting"] == R.TAKEBACK_PENDING and v["controls"]["confirm"]
        r = _post(client, "/api/control", {"action": "confirm"}, token)
        assert r.status_code == 200
        table.wait(0.1)
        v = _state(client)
        assert v["moves"] == ["a1", "d4"] and v["said"]["kind"] == "takeback"
        assert table.session.journal.steps == ["a1", "d4"]


def test_a_spectator_and_a_forger_cannot_press_a_button(tmp_path):
    table, hub, remote, app = _game(tmp_path=tmp_path)
    token = remote.links.tokens[1]
    with TestClient(app) as client:
        table.run("put a1; put d4 black; put g7; put a7 black; take a7; take g7")
        assert _post(client, "/api/control", {"action": "confirm"}).status_code == 401
        assert _post(client, "/api/control", {"action": "confirm"}, "x" * 24).status_code == 401
        forged = token[:-1] + ("A" if token[-1] != "A" else "B")  # one character off, never the token itself
        assert _post(client, "/api/control", {"action": "confirm"}, forged).status_code == 401
        # another site's page, with the right token even
        assert _post(client, "/api/control", {"action": "confirm"}, token,
                     origin="http://evil.example").status_code == 403
        assert _post(client, "/api/control", {"action": "confirm"}, token,
                     **{"sec-fetch-site": "cross-site"}).status_code == 403
        # a form post (no JSON) and a GET change nothing
        assert client.post("/api/control", content="action=confirm",
                           headers={"x-arbiter-token": token, "content-type": "application/x-www-form-urlencoded"}
                           ).status_code == 415
        assert client.get("/api/control", params={"action": "confirm"}).status_code == 405
        assert _post(client, "/api/control", {"action": "rm -rf"}, token).status_code == 400
        assert _post(client, "/api/control", {"action": "choose", "index": "1"}, token).status_code == 400
        assert client.post("/api/control", content=b"{" + b" " * 5000 + b"}",
                           headers={"x-arbiter-token": token, "content-type": "application/json"}).status_code == 413
        table.wait(0.1)
        assert _state(client)["waiting"] == R.TAKEBACK_PENDING  # nothing was pressed
        assert client.get("/p/" + "x" * 24).status_code == 404
        assert client.get("/p/" + token).status_code == 200
        assert client.get("/api/private/events").status_code == 401


def test_the_page_serves_only_its_own_files(tmp_path):
    table, hub, remote, app = _game(tmp_path=tmp_path)
    (tmp_path / "secret.txt").write_text("no")
    with TestClient(app) as client:
        page = client.get("/")
        assert page.status_code == 200 and "default-src 'self'" in page.headers["content-security-policy"]
        assert "http" not in re.sub(r'xmlns="http://www.w3.org/2000/svg"', "", client.get("/static/app.js").text
                                    ).replace("https", "")
        for path in ("/static/index.html", "/static/..%2Fhub.py", "/static/%2e%2e/server.py", "/../pyproject.toml",
                     "/api/games/secret.txt", "/api/games/..%2F..%2Fetc%2Fpasswd.jsonl",
                     "/api/games/%2e%2e%2fx.jsonl/record", "/api/games/x.jsonl/board/0"):
            r = client.get(path)
            assert r.status_code == 404, path
            assert "no" != r.text


def test_choosing_among_candidates_on_the_page(tmp_path):
    """Two quick placements a reed grid cannot tell apart: the page lists both, a player picks one."""
    table, hub, remote, app = _game("nine-mens-morris", tmp_path=tmp_path)
    token = remote.links.tokens[2]
    with TestClient(app) as client:
        table.run("quick put a1; put g7 black")
        v = _state(client)
        assert v["waiting"] == R.AMBIGUOUS and len(v["controls"]["choose"]) == 2
        words = v["controls"]["choose"][1]
        assert _post(client, "/api/control", {"action": "choose", "index": 1}, token).status_code == 200
        table.wait(0.1)
        v = _state(client)
        assert v["waiting"] is None and len(v["moves"]) == 2
        first = v["moves"][0]
        assert first in words


# ------------------------------------------------------------------ private pages
@pytest.fixture
def hide_and_seek():
    register_hide_and_seek()
    yield GAME
    unregister_hide_and_seek()


def test_a_secret_reaches_only_its_player(tmp_path, hide_and_seek, capsys):
    """White hides d7, black g1, each with a secret step on their own page when
    ``state.private_to`` names them: each sees only their own, nobody else ever sees either (the
    board's picture names every point, so it is left out of the search), and the journal holds
    neither until the game is over."""
    table, hub, remote, app = _game(GAME, tmp_path=tmp_path)
    t1, t2 = remote.links.tokens[1], remote.links.tokens[2]

    def public_words():
        v = _state(client)
        v.pop("board")
        return json.dumps(v)

    with TestClient(app) as client:
        assert _state(client)["secrets_waiting"] == [1]
        assert json.loads(hub.private(1)[1])["asks"] and json.loads(hub.private(2)[1])["asks"] is None
        assert _post(client, "/api/secret", {"text": "z9"}, t1).status_code == 200
        table.wait(0.1)
        refused = json.loads(hub.private(1)[1])["refused"]
        assert "not a point" in refused and "z9" not in refused  # refused without repeating it
        assert json.loads(hub.private(2)[1])["refused"] is None
        # black is not asked yet: a request out of turn is refused and changes nothing
        assert _post(client, "/api/secret", {"text": "hide=g1"}, t2).status_code == 200
        table.wait(0.1)
        assert "asked of you" in json.loads(hub.private(2)[1])["refused"] and not table.session.history
        assert _post(client, "/api/secret", {"text": "d7"}, t1).status_code == 200
        table.wait(0.1)
        assert _state(client)["secrets_waiting"] == [2] and json.loads(hub.private(1)[1])["refused"] is None
        assert _post(client, "/api/secret", {"text": "g1"}).status_code == 401  # no player's link
        assert _post(client, "/api/secret", {"text": "g1"}, "forged-token-0123456789").status_code == 401
        assert _post(client, "/api/secret", {"text": "hide=g1"}, t2).status_code == 200
        table.wait(0.1)
        mine, theirs = json.loads(hub.private(1)[1]), json.loads(hub.private(2)[1])
        assert mine["tells"] == "hidden point: d7" and theirs["tells"] == "hidden point: g1"
        assert "g1" not in json.dumps(mine) and "d7" not in json.dumps(theirs)
        assert mine["asks"] is None and theirs["asks"] is None
        v = _state(client)
        assert v["secrets_waiting"] == [] and v["moves"] == ["hide", "hide"]
        table.run("put a1; put g7 black; put a4")
        assert len(table.session.history) == 5 and "d7" not in public_words() and "g1" not in public_words()
        log = " ".join(a.message for a in table.session.log)
        assert "d7" not in log and "g1" not in log and "hidden point" not in log
        path = table.session.journal.path
        journal = path.read_text()
        assert "hide=" not in journal and '"d7"' not in journal and '"g1"' not in journal
        assert secret_path(path).stat().st_mode & 0o077 == 0  # beside the journal, for its owner only
        assert "d7" not in capsys.readouterr().out
        table.run("put d7 black")  # black finds white's hidden point
        assert table.session.over and table.session.result.winner == 2
        assert _state(client)["moves"][:2] == ["hide=d7", "hide=g1"]  # over: shown whole
    # The game is over: the secrets are revealed in the journal, checked against their digests.
    contents = load_journal(path)
    assert contents.revealed and not contents.still_sealed
    assert replay_journal(contents)[1].result.winner == 2


def test_a_resumed_game_gets_its_sealed_secrets_back(tmp_path, hide_and_seek):
    table, hub, remote, app = _game(GAME, tmp_path=tmp_path)
    s = table.session
    s.enter_private("hide=d7")
    s.enter_private("hide=g1")
    table.run("put a1; put g7 black")
    path = s.journal.path
    s.journal.close()
    r = resume(path, game=GAME)
    assert r.state.secrets() == {1: {"hidden point": "d7"}, 2: {"hidden point": "g1"}}
    assert r.state.phase == "placement"
    r.journal.close()
    # the secret file swapped for another's: its digests do not match, and the game says so
    table2, *_ = _game(GAME, tmp_path=tmp_path / "other")
    table2.session.enter_private("hide=a4")
    table2.session.enter_private("hide=g1")
    secret_path(path).write_bytes(secret_path(table2.session.journal.path).read_bytes())
    with pytest.raises(JournalError):
        resume(path, game=GAME)


def test_thinking_in_circles_goals_and_beads_on_the_private_pages(tmp_path):
    """A real family's secret steps, asked at any time in the game: each player's goal, then
    (after a circle is chosen) their beads, typed on their own page by what follows ``goal=`` or
    ``beads=``; every page lists them as ``goal`` and ``beads``, each private page shows its own
    goals only, and the journal holds neither mid-game."""
    table, hub, remote, app = _game("thinking-in-circles", tmp_path=tmp_path)
    t1, t2 = remote.links.tokens[1], remote.links.tokens[2]

    def private(p):
        return json.loads(hub.private(p)[1])

    with TestClient(app) as client:
        assert "goal" in private(1)["asks"] and private(2)["asks"] is None
        assert _post(client, "/api/secret", {"text": "CCX"}, t1).status_code == 200  # an illegal goal
        table.wait(0.1)
        assert private(1)["refused"].startswith("goal") and "CCX" not in private(1)["refused"]
        assert _post(client, "/api/secret", {"text": "CST"}, t1).status_code == 200
        table.wait(0.1)
        assert _post(client, "/api/secret", {"text": "goal=PPT"}, t2).status_code == 200
        table.wait(0.1)
        assert "CST" in private(1)["tells"] and "PPT" not in json.dumps(private(1))
        assert "PPT" in private(2)["tells"] and "CST" not in json.dumps(private(2))
        table.session.referee.enter("C3")  # the circle, said with the buttons (here straight to the referee)
        remote.publish()
        assert "beads" in private(table.session.state.private_to)["asks"]
        first = table.session.state.private_to
        assert _post(client, "/api/secret", {"text": "3w"}, remote.links.tokens[first]).status_code == 200
        table.wait(0.1)
        assert "3w" not in json.dumps({p: private(p) for p in (1, 2) if p != first})
        v = _state(client)
        assert v["moves"] == ["goal", "goal", "C3", "beads"]
        words = json.dumps(v)
        assert "CST" not in words and "PPT" not in words and "3w" not in words
        journal = table.session.journal.path.read_text()
        assert "CST" not in journal and "PPT" not in journal and "3w" not in journal


# ------------------------------------------------------------------ history
def test_the_history_lists_replays_and_downloads_games(tmp_path):
    table, hub, remote, app = _game(tmp_path=tmp_path)
    table.run("put a1; put d4 black; put g7")
    name = table.session.journal.path.name
    with TestClient(app) as client:
        games = client.get("/api/games").json()["games"]
        assert [g["name"] for g in games] == [name] and games[0]["steps"] == 3 and games[0]["game"] == "tapatan"
        assert games[0]["result"] == "unfinished"
        g = client.get(f"/api/games/{name}").json()
        assert g["moves"] == ["a1", "d4", "g7"]
        b = client.get(f"/api/games/{name}/board/2").json()
        assert b["move"] == "d4" and b["board"].count('class="piece"') == 2 and b["to_move"] == "White"
        assert client.get(f"/api/games/{name}/board/4").status_code == 404
        r = client.get(f"/api/games/{name}/record")
        assert "attachment" in r.headers["content-disposition"]
        assert r.json()["steps"] == ["a1", "d4", "g7"] and r.json()["game"] == "tapatan"


# ------------------------------------------------------------------ the server's thread
def test_the_referee_never_waits_on_a_page():
    """A publish with nobody reading, or with the loop gone, returns at once."""
    hub = Hub()
    t = time.perf_counter()
    for i in range(200):
        hub.publish({"i": i}, {1: {"x": i}})
    assert time.perf_counter() - t < 0.5
    assert json.loads(hub.public()[1]) == {"i": 199} and json.loads(hub.private(1)[1]) == {"x": 199}
    assert hub.private(2)[1] == b"{}"


def test_a_live_server_pushes_each_view(tmp_path):
    """uvicorn in its thread, a reader of the event stream, and views published from here."""
    import httpx

    hub = Hub()
    server = WebServer(make_app(hub), "127.0.0.1", 0).start()
    got: list[dict] = []

    def read():
        with httpx.stream("GET", server.url("/api/events"), timeout=10) as r:
            for line in r.iter_lines():
                if line.startswith("data: "):
                    got.append(json.loads(line[6:]))
                    if got[-1].get("n") == 3:
                        return

    try:
        reader = threading.Thread(target=read)
        reader.start()
        for n in range(1, 4):
            time.sleep(0.15)
            hub.publish({"n": n})
        reader.join(5)
        assert [v.get("n") for v in got][-1] == 3 and not reader.is_alive()
    finally:
        server.stop()
    assert not server.thread.is_alive()


def test_addresses():
    assert parse_address(None) == ("127.0.0.1", 8000)
    assert parse_address("0.0.0.0:8080") == ("0.0.0.0", 8080)
    assert parse_address(":9000") == ("127.0.0.1", 9000)
    assert parse_address("[::]:8000") == ("::", 8000)
    with pytest.raises(ValueError, match="HOST:PORT"):
        parse_address("pi:eighty")


def test_player_links_are_random_and_checked():
    a, b = PlayerLinks(2), PlayerLinks(2)
    assert a.tokens[1] != a.tokens[2] and a.tokens[1] != b.tokens[1] and len(a.tokens[1]) >= 24
    assert a.player(a.tokens[2]) == 2 and a.player(b.tokens[2]) is None
    assert a.player(None) is None and a.player("") is None and a.player("x" * 1000) is None


def test_the_terminals_qr_code_reads_back_as_the_address():
    """The half-block QR code, drawn as a picture, is read by OpenCV's QR reader as the URL."""
    import cv2
    import numpy as np

    from arbiter.web.qr import qr_text

    url = "http://192.168.1.20:8000/p/o81Yo8AoED9GM1zYShyqRMP5"
    rows = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in qr_text(url).splitlines()]
    light = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}
    grid = []
    for row in rows:
        grid.append([light[ch][0] for ch in row])
        grid.append([light[ch][1] for ch in row])
    picture = np.array(grid, dtype=np.uint8) * 255
    picture = np.pad(picture, 4, constant_values=255)
    picture = cv2.resize(picture, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    text, _points, _ = cv2.QRCodeDetector().detectAndDecode(picture)
    assert text == url


# ------------------------------------------------------------------ setup from the phone (arbiter serve)
@pytest.fixture
def serving(tmp_path, monkeypatch):
    """`arbiter serve`'s page and launcher, as the command sets them up, on a free port."""
    import arbiter.cli.web as cli_web
    import arbiter.cli.webpage as webpage

    from arbiter.web.calibrate import Calibrator

    page = webpage.WebPage("127.0.0.1:0", journals=tmp_path)
    launcher = cli_web.Launcher(page, tmp_path)
    calibrator = Calibrator(tmp_path)
    page.start(launcher=launcher, calibrator=calibrator)
    monkeypatch.setattr(webpage, "_serving", page)
    yield page, launcher
    calibrator.close()
    if launcher.running:
        launcher.stop()
        launcher.thread.join(10)
    page.stop()


def _until(condition, timeout=15.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_a_game_started_stopped_and_resumed_from_the_owners_page(serving, tmp_path):
    import httpx

    page, launcher = serving
    url = page.server.url
    owner = {"x-arbiter-token": launcher.token, "content-type": "application/json"}
    start = json.dumps({"game": "tapatan", "options": {"move_cap": 50}, "reader": "sim-occupancy", "speed": 1})
    assert httpx.get(url(f"/setup/{launcher.token}")).status_code == 200
    assert httpx.get(url("/setup/" + "x" * 24)).status_code == 404
    assert httpx.post(url("/api/setup/start"), content=start,
                      headers={"content-type": "application/json"}).status_code == 401
    assert httpx.get(url("/api/setup")).status_code == 401
    bad = httpx.post(url("/api/setup/start"), headers=owner,
                     content=json.dumps({"game": "tapatan", "options": {"move_cap": -3}, "reader": "sim"}))
    assert bad.status_code == 400 and "move_cap" in bad.json()["error"]
    assert httpx.post(url("/api/setup/start"), headers=owner, content=start).status_code == 200
    assert _until(lambda: json.loads(page.hub.public()[1]).get("game") == "tapatan")
    assert httpx.post(url("/api/setup/start"), headers=owner, content=start).json()["error"].startswith("a game of")
    status = httpx.get(url("/api/setup"), headers=owner).json()
    assert status["running"] and [link["player"] for link in status["links"]] == [1, 2]
    assert status["links"][0]["qr"].startswith("<svg")
    # the player's link works on the page the game borrowed
    assert httpx.get(url(status["links"][0]["path"])).status_code == 200
    assert _until(lambda: len(json.loads(page.hub.public()[1])["moves"]) >= 2)
    assert httpx.post(url("/api/setup/stop"), headers=owner, content="{}").status_code == 200
    assert _until(lambda: not launcher.running)
    assert page.server.app.state.stage.remote is None  # the page stays, without the game's controls
    status = httpx.get(url("/api/setup"), headers=owner).json()
    assert not status["running"] and "ended" in status["last"]
    [unfinished] = status["unfinished"]
    assert unfinished["game"] == "tapatan" and unfinished["steps"] >= 2
    steps = unfinished["steps"]
    assert httpx.post(url("/api/setup/resume"), headers=owner,
                      content=json.dumps({"name": unfinished["name"]})).status_code == 200
    assert _until(lambda: launcher.running and len(json.loads(page.hub.public()[1])["moves"]) > steps)
    assert httpx.post(url("/api/setup/resume"), headers=owner,
                      content=json.dumps({"name": "../x.jsonl"})).status_code == 400
    launcher.stop()
    assert _until(lambda: not launcher.running)


def test_the_catalogue_offers_every_game_with_its_options():
    from arbiter.web.catalogue import catalogue

    games = {g["name"]: g for g in catalogue()}
    assert set(games) == set(engine.names())
    seven = {o["name"]: o for o in games["seven-mens-morris"]["options"]}
    assert seven["flying"]["kind"] == "bool" and seven["flying"]["default"] is False


def test_the_camera_is_calibrated_step_by_step_from_the_owners_page(serving, tmp_path):
    """The simulated camera, as `arbiter calibrate --sim`: the same steps, checks and messages."""
    import httpx

    page, launcher = serving
    url = page.server.url
    owner = {"x-arbiter-token": launcher.token, "content-type": "application/json"}
    begin = json.dumps({"game": "nine-mens-morris", "source": "sim"})
    assert httpx.post(url("/api/calibrate/begin"), content=begin,
                      headers={"content-type": "application/json"}).status_code == 401
    assert httpx.get(url("/api/calibrate/picture.jpg")).status_code == 401
    for source in (str(tmp_path / "game.jsonl"), "/etc/passwd", "file:///etc/passwd", "", "99"):
        refused = httpx.post(url("/api/calibrate/begin"), headers=owner,
                             content=json.dumps({"game": "nine-mens-morris", "source": source}))
        assert refused.status_code == 400 and "simulated camera" in refused.json()["error"], source
    nocam = httpx.post(url("/api/calibrate/begin"), headers=owner, timeout=30,
                       content=json.dumps({"game": "nine-mens-morris", "source": "rtsp://127.0.0.1:9/none"}))
    assert nocam.status_code == 400
    status = httpx.post(url("/api/calibrate/begin"), headers=owner, content=begin, timeout=30).json()
    assert status["step"] == "empty" and "Clear every piece" in status["said"][-1]
    picture = httpx.get(url("/api/calibrate/picture.jpg"), headers=owner, timeout=30)
    assert picture.headers["content-type"] == "image/jpeg" and picture.content[:2] == b"\xff\xd8"
    status = httpx.post(url("/api/calibrate/take"), headers=owner, content="{}", timeout=30).json()
    assert status["step"] == "pieces" and "Lay out" in status["said"][-1]
    layout = httpx.get(url("/api/calibrate/layout.png"), headers=owner, timeout=30)
    assert layout.content[:4] == b"\x89PNG"
    status = httpx.post(url("/api/calibrate/take"), headers=owner, content="{}", timeout=60).json()
    said = "\n".join(status["said"])
    assert status["step"] == "done" and "Calibrated. Learned white man, black man" in said
    assert "checking that every spot reads correctly" in said
    assert (tmp_path / "calibration-nine-mens-morris.json").exists()
    assert (tmp_path / "calibration-nine-mens-morris.overlay.png").exists()
    assert httpx.get(url("/api/calibrate/overlay.png"), headers=owner).content[:4] == b"\x89PNG"
    again = httpx.post(url("/api/calibrate/take"), headers=owner, content="{}")
    assert again.status_code == 400 and "begin again" in again.json()["error"]
    from vision.calibration import load_calibration

    load_calibration(tmp_path / "calibration-nine-mens-morris.json", game="nine-mens-morris")


def test_a_failed_calibration_says_why_and_starts_again(tmp_path, monkeypatch):
    """Pictures too bright: the command's words, the advice for a camera arbiter cannot set (the
    simulated one), and step 1 again; any other failure in calibrate's words too."""
    import vision.calibration as calibration
    from arbiter.web.calibrate import Calibrator
    from vision.calibration import CalibrationError, ExposureError

    c = Calibrator(tmp_path)
    assert c.begin("tapatan", "sim") is None
    assert c.take() is None

    def too_bright(*args, **kwargs):
        raise ExposureError("the paper is over-exposed.", change="lower")

    monkeypatch.setattr(calibration, "calibrate", too_bright)
    assert c.take() is None
    said = c.status()["said"]
    assert said[-3] == "calibration failed: the paper is over-exposed."
    assert "exposure by hand" in said[-2] and said[-1].startswith("1. Clear every piece again")
    assert c.status()["step"] == "empty" and not (tmp_path / "calibration-tapatan.json").exists()

    def alike(*args, **kwargs):
        raise CalibrationError("white man and black man look alike")

    monkeypatch.setattr(calibration, "calibrate", alike)
    c.take()
    c.take()
    assert "calibration failed: white man and black man look alike" in c.status()["said"]
    c.close()


def test_a_private_stream_ends_with_its_game():
    """arbiter serve runs one game after another on one page: a player's private stream of the
    first game ends when the next begins, instead of showing the new game's player 1."""
    import httpx

    table, hub, remote, _app = _game()
    app = make_app(hub, remote=remote)
    server = WebServer(app, "127.0.0.1", 0).start()
    got: list[bytes] = []
    try:
        def read():
            with httpx.stream("GET", server.url("/api/private/events"), timeout=10,
                              headers={"x-arbiter-token": remote.links.tokens[1]}) as r:
                for line in r.iter_lines():
                    if line.startswith("data: "):
                        got.append(line.encode())

        reader = threading.Thread(target=read)
        reader.start()
        assert _until(lambda: len(got) >= 1, 5)
        nxt = Table("tapatan", "occupancy")  # the next game, with links of its own, as WebPage lends it
        app.state.stage.remote = attach(nxt.session, hub, publish=False)
        app.state.stage.remote.publish()
        reader.join(5)
        assert not reader.is_alive() and len(got) == 1
    finally:
        server.stop()


def test_a_port_in_use_is_refused_before_the_game_begins(tmp_path):
    """`play --web` on a port another program holds stops at once, leaving no journal behind."""
    import socket
    import subprocess
    import sys

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        r = subprocess.run([sys.executable, "-m", "arbiter.cli", "play", "tapatan", "--reader", "sim", "--journal",
                            str(tmp_path), "--web", f"127.0.0.1:{port}"], capture_output=True, text=True, timeout=60,
                           cwd=ROOT)
    assert r.returncode == 2 and "cannot listen" in r.stderr
    assert list(tmp_path.iterdir()) == []
