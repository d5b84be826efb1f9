"""The web server: a Starlette application on uvicorn, in a thread beside the referee.

Routes (everything the page needs; nothing else answers):

=====================================  ==========================================================
``GET /``                              the page, as a spectator sees it (no controls)
``GET /p/{token}``                     the page for the player whose link this is: controls and
                                       their private panel (an unknown token: 404)
``GET /static/{name}``                 the page's script and style (a fixed list, from the package)
``GET /api/state``                     the latest public view (JSON)
``GET /api/events``                    the public view, pushed as Server-Sent Events
``GET /api/me``                        who the ``X-Arbiter-Token`` header's player is
``GET /api/private/events``            that player's private view, pushed (token in the header)
``POST /api/control``                  ``{"action": "confirm"|"menu"|"undo"|"hint"|"choose",
                                       "index": n}``: a button, for a player
``POST /api/secret``                   ``{"text": ...}``: the secret step asked of that player (``state.private_to``)
``GET /api/games``                     the journals folder, as a list of games
``GET /api/games/{name}``              one game's moves; ``/board/{n}``: the board after n steps;
                                       ``/record``: the game record to download
``GET /setup/{token}``                 ``arbiter serve``'s owner page: start, resume, stop a game
``GET /api/catalogue``                 the games and their options
``GET /api/setup``                     (owner) the game running, its player links, games to resume
``POST /api/setup/start|resume|stop``  (owner) ``{"game", "options", "reader", "clock"}``,
                                       ``{"name"}``, ``{}``
``GET /api/calibrate``                 (owner) the calibration's step and what it said
``POST /api/calibrate/begin|take``     (owner) ``{"game", "source"}``; ``{}``: the next picture
``GET /api/calibrate/picture.jpg``     (owner) the camera now; ``layout.png``, ``overlay.png``
=====================================  ==========================================================

Security, for a page on a club's shared network: GET never changes anything (so a link or an
image cannot press a button); a request that does needs a player's token in a header (never in
the URL's query, never logged: uvicorn's access log is off), a JSON body of at most 4 KiB, and,
from a browser, an ``Origin`` (or ``Sec-Fetch-Site``) showing it comes from this page itself, so
another site open on the same phone cannot send one. Static files come from a fixed list and
journals through ``history`` only, so no request reaches a file outside the journals folder.
Every answer says ``no-store`` and ``no-referrer`` (a player's link must not leak to another site),
and the page's Content-Security-Policy lets it load only its own script and style.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from importlib import resources
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

from .history import History, HistoryError
from .hub import Hub

__all__ = ["WebServer", "make_app", "parse_address"]

STATIC = {"app.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8"}
MAX_BODY = 4096
KEEPALIVE_S = 15.0
HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff",
           "X-Frame-Options": "DENY"}
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")


def _asset(name: str) -> bytes:
    return resources.files("arbiter.web").joinpath("static", name).read_bytes()


def parse_address(text: str | None, default_port: int = 8000) -> tuple[str, int]:
    """``HOST:PORT``, ``HOST`` or ``:PORT`` (or None) as (host, port); localhost by default."""
    if text is None or text == "":
        return "127.0.0.1", default_port
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = text, str(default_port)
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"{text!r} is not HOST:PORT (a port is a number up to 65535), e.g. 0.0.0.0:8000")
    return host, int(port)


def make_app(hub: Hub, *, remote=None, history: History | None = None, launcher=None, calibrator=None):
    """The Starlette application for one hub, its game's remote (None: no game yet; a game
    started later is put on ``app.state.stage.remote``), its history, and with ``arbiter serve``
    the launcher that starts games from the owner's page (``Launcher`` in ``arbiter.cli.web``)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response, StreamingResponse
    from starlette.routing import Route

    stage = SimpleNamespace(remote=remote)
    page = _asset("index.html")
    assets = {name: _asset(name) for name in STATIC}

    def respond(body: Any, status: int = 200) -> Response:
        return JSONResponse(body, status_code=status, headers=HEADERS)

    def refuse(status: int, why: str) -> Response:
        return respond({"error": why}, status)

    def player_of(request: Request) -> int | None:
        if stage.remote is None:
            return None
        return stage.remote.links.player(request.headers.get("x-arbiter-token"))

    def is_owner(request: Request) -> bool:
        return launcher is not None and launcher.owner(request.headers.get("x-arbiter-token"))

    def cross_site(request: Request) -> bool:
        """A request another site's page sent (the phone's browser says so in its headers)."""
        origin = request.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc != request.headers.get("host", ""):
            return True
        return request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none")

    async def body_of(request: Request) -> dict[str, Any] | Response:
        if cross_site(request):
            return refuse(403, "a request from another site is refused")
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return refuse(415, "send JSON")
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                return refuse(413, "too long")
        try:
            data = json.loads(raw or b"{}")
        except ValueError:
            return refuse(400, "not JSON")
        if not isinstance(data, dict):
            return refuse(400, "send a JSON object")
        return data

    def html(request: Request) -> Response:
        return Response(page, media_type="text/html; charset=utf-8",
                        headers={**HEADERS, "Content-Security-Policy": CSP})

    async def index(request: Request) -> Response:
        return html(request)

    async def player_page(request: Request) -> Response:
        if stage.remote is None or stage.remote.links.player(request.path_params["token"]) is None:
            return Response("No such player link: ask for the link on the Pi's screen.", status_code=404,
                            media_type="text/plain; charset=utf-8", headers=HEADERS)
        return html(request)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return refuse(404, "not found")
        return Response(assets[name], media_type=STATIC[name], headers=HEADERS)

    async def state(request: Request) -> Response:
        return Response(hub.public()[1], media_type="application/json", headers=HEADERS)

    def stream(read) -> Response:
        async def events():
            wake = hub.listen()
            try:
                last = None
                while not hub_closed.is_set():
                    got = read()
                    if got is None:  # no longer allowed (a player link of a game that has ended)
                        break
                    version, body = got
                    if version != last:
                        last = version
                        yield b"id: %d\ndata: %s\n\n" % (version, body)
                    try:
                        await asyncio.wait_for(wake.wait(), KEEPALIVE_S)
                    except asyncio.TimeoutError:
                        yield b": still here\n\n"
                    wake.clear()
            finally:
                hub.leave(wake)

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={**HEADERS, "X-Accel-Buffering": "no"})

    async def events(request: Request) -> Response:
        return stream(hub.public)

    async def me(request: Request) -> Response:
        p = player_of(request)
        if p is None:
            return refuse(401, "no player link")
        return respond({"player": p, "players": stage.remote.session.game.players})

    async def private_events(request: Request) -> Response:
        p = player_of(request)
        if p is None:
            return refuse(401, "no player link")
        token = request.headers.get("x-arbiter-token")
        held = stage.remote

        def mine():
            # Checked at every view: once the game whose link this is has gone (arbiter serve
            # starts another), the stream ends rather than show the new game's player p.
            if stage.remote is not held or held.links.player(token) != p:
                return None
            return hub.private(p)

        return stream(mine)

    async def from_player(request: Request, needs: str, submit) -> Response:
        """A player's request (a control, a secret): its JSON body, the player its link names
        (401 without one), then ``submit(player, data)``, whose words are a refusal (400)."""
        data = await body_of(request)
        if isinstance(data, Response):
            return data
        p = player_of(request)
        if p is None:
            return refuse(401 if stage.remote is not None else 404, f"{needs} a player's link")
        why = submit(p, data)
        return refuse(400, why) if why else respond({"ok": True})

    async def control(request: Request) -> Response:
        def submit(p, data):
            action = data.get("action")
            return stage.remote.submit(p, action if isinstance(action, str) else "", data.get("index"))

        return await from_player(request, "the controls need", submit)

    async def secret(request: Request) -> Response:
        return await from_player(request, "a secret needs",
                                 lambda p, data: stage.remote.submit(p, "secret", data.get("text")))

    def need_history() -> History:
        if history is None:
            raise HistoryError("no journals folder")
        return history

    async def games(request: Request) -> Response:
        try:
            return respond({"games": await asyncio.to_thread(need_history().games)})
        except HistoryError as exc:
            return refuse(404, str(exc))

    async def game(request: Request) -> Response:
        try:
            return respond(await asyncio.to_thread(need_history().game, request.path_params["name"]))
        except HistoryError as exc:
            return refuse(404, str(exc))

    async def game_board(request: Request) -> Response:
        try:
            return respond(await asyncio.to_thread(need_history().board, request.path_params["name"],
                                                   request.path_params["n"]))
        except HistoryError as exc:
            return refuse(404, str(exc))

    async def record(request: Request) -> Response:
        name = request.path_params["name"]
        try:
            data = await asyncio.to_thread(need_history().record, name)
        except HistoryError as exc:
            return refuse(404, str(exc))
        download = name.removesuffix(".jsonl") + ".json"
        return Response(json.dumps(data, indent=1) + "\n", media_type="application/json",
                        headers={**HEADERS, "Content-Disposition": f'attachment; filename="{download}"'})

    # ---------------------------------------------------------------- setup (arbiter serve)
    async def owner_page(request: Request) -> Response:
        if launcher is None or not launcher.owner(request.path_params["token"]):
            return Response("No such setup link: it is printed on the Pi's screen by arbiter serve.",
                            status_code=404, media_type="text/plain; charset=utf-8", headers=HEADERS)
        return html(request)

    async def catalogue(request: Request) -> Response:
        from .catalogue import catalogue as games_catalogue

        return respond({"games": games_catalogue()})

    async def setup_state(request: Request) -> Response:
        if not is_owner(request):
            return refuse(401, "the setup needs the owner's link")
        return respond(await asyncio.to_thread(launcher.status))

    async def setup_action(request: Request) -> Response:
        data = await body_of(request)
        if isinstance(data, Response):
            return data
        if not is_owner(request):
            return refuse(401 if launcher is not None else 404, "the setup needs the owner's link")
        what = request.path_params["what"]
        if what == "start":
            why = launcher.start(data)
        elif what == "resume":
            why = launcher.resume(data.get("name"))
        elif what == "stop":
            why = launcher.stop()
        else:
            return refuse(404, "not found")
        return refuse(400, why) if why else respond({"ok": True})

    # ---------------------------------------------------------------- calibration (arbiter serve)
    async def calibration(request: Request) -> Response:
        if not is_owner(request) or calibrator is None:
            return refuse(401, "calibration needs the owner's link")
        return respond(calibrator.status())

    async def calibration_action(request: Request) -> Response:
        data = await body_of(request)
        if isinstance(data, Response):
            return data
        if not is_owner(request) or calibrator is None:
            return refuse(401, "calibration needs the owner's link")
        what = request.path_params["what"]
        if what == "begin":
            why = await asyncio.to_thread(calibrator.begin, data.get("game"), data.get("source"))
        elif what == "take":
            why = await asyncio.to_thread(calibrator.take)
        else:
            return refuse(404, "not found")
        return refuse(400, why) if why else respond(calibrator.status())

    async def calibration_picture(request: Request) -> Response:
        if not is_owner(request) or calibrator is None:
            return refuse(401, "calibration needs the owner's link")
        what = request.path_params["what"]
        make, media = {"picture.jpg": (calibrator.jpeg, "image/jpeg"), "layout.png": (calibrator.layout_png, "image/png"),
                       "overlay.png": (calibrator.overlay_png, "image/png")}.get(what, (None, ""))
        if make is None:
            return refuse(404, "not found")
        body = await asyncio.to_thread(make)
        if body is None:
            return refuse(404, "no picture yet")
        return Response(body, media_type=media, headers=HEADERS)

    hub_closed = threading.Event()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        hub.loop = asyncio.get_running_loop()  # where the session's publishes wake the streams
        yield

    routes = [
        Route("/", index), Route("/p/{token}", player_page), Route("/static/{name}", static),
        Route("/api/state", state), Route("/api/events", events), Route("/api/me", me),
        Route("/api/private/events", private_events),
        Route("/api/control", control, methods=["POST"]), Route("/api/secret", secret, methods=["POST"]),
        Route("/api/games", games), Route("/api/games/{name}", game),
        Route("/api/games/{name}/board/{n:int}", game_board), Route("/api/games/{name}/record", record),
        Route("/setup/{token}", owner_page), Route("/api/catalogue", catalogue), Route("/api/setup", setup_state),
        Route("/api/setup/{what}", setup_action, methods=["POST"]),
        Route("/api/calibrate", calibration), Route("/api/calibrate/{what}", calibration_action, methods=["POST"]),
        Route("/api/calibrate/{what}", calibration_picture, methods=["GET"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.closed = hub_closed
    app.state.hub = hub
    app.state.stage = stage
    return app


class WebServer:
    """uvicorn serving ``app`` in a daemon thread; ``start`` returns once it listens."""

    def __init__(self, app, host: str = "127.0.0.1", port: int = 8000):
        import uvicorn

        self.app = app
        self.config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                                     lifespan="on", timeout_graceful_shutdown=1, ws="none")
        self.server = uvicorn.Server(self.config)
        self.thread = threading.Thread(target=self.server.run, name="arbiter-web", daemon=True)
        self.host = host
        self.port = port

    def start(self, timeout: float = 10.0) -> "WebServer":
        self.thread.start()
        end = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > end:
                raise OSError(f"the web server could not listen on {self.host}:{self.port} "
                              f"(in use? try another port)")
            time.sleep(0.02)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return self

    def url(self, path: str = "/", host: str | None = None) -> str:
        h = host or self.host
        if ":" in h:
            h = f"[{h}]"
        return f"http://{h}:{self.port}{path}"

    def stop(self) -> None:
        """End the pages' streams and the server (at most a second or two)."""
        self.app.state.closed.set()
        hub = self.app.state.hub
        if hub.loop is not None:
            try:
                hub.loop.call_soon_threadsafe(hub._wake)
            except RuntimeError:
                pass
        self.server.should_exit = True
        self.thread.join(timeout=5)
