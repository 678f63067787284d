"""The web board's ASGI application (Starlette): a page, its script, a JSON API per session
and a server-sent event stream per session.

Guard rails, each tested by an attack in tests/test_web_server.py:

- only the files of :data:`STATIC` are served, by name (no path reaches the disk);
- the Host header must name this machine (DNS rebinding), a POST must be JSON from no other
  origin (cross-site requests), and bodies are capped;
- a bad request is answered 4xx and changes nothing; sessions are capped in number and
  forgotten when idle.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..errors import GamecoreError
from .games import BadRequest, games_menu
from .replays import Replays
from .session import GameSession

__all__ = ["create_app", "STATIC", "LOCAL_HOSTS"]

#: The files the page is made of: URL name -> (file in gamecore/web/static, media type).
STATIC = {
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}
#: The names a request's Host header may give this server (``--host ::1`` is "[::1]").
LOCAL_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
MAX_BODY = 64 * 1024
MAX_REPLAY_BODY = 8 * 1024 * 1024
#: Event streams one game may have open at once (a tab has one).
MAX_STREAMS = 4
SESSION_ID = re.compile(r"^[A-Za-z0-9_-]{16,40}$")
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def _static(name: str) -> bytes:
    return resources.files("gamecore.web").joinpath("static").joinpath(name).read_bytes()


#: What the page shows for a game the server closed to make room (or after its idle time).
EVICTED = (
    "this game was closed to make room for other games on this server (it was finished, or no page "
    "had shown it for a while); start a new game"
)
#: A game no page has shown for this long (no event stream, no request) may make room.
UNSHOWN_SECONDS = 60.0


class Sessions:
    """The live sessions, at most ``limit`` and at most ``per_client`` for one client address
    (default half of ``limit``, at least 4). A new one makes room only by closing a finished game or
    one no page shows (the least recently used first), never a game a person is playing within
    its idle time: when none can go, the new session is refused."""

    def __init__(
        self, limit: int, idle_seconds: float, executor: Any, backend: str | None, per_client: int | None = None
    ) -> None:
        self.limit = limit
        self.per_client = per_client or max(4, limit // 2)
        self.idle_seconds = idle_seconds
        self.executor = executor
        self.backend = backend
        self.items: OrderedDict[str, GameSession] = OrderedDict()
        self.clients: dict[str, str] = {}  # session id -> the client address that made it
        self.evicted: OrderedDict[str, None] = OrderedDict()  # the last ones, for the page to say so

    def create(self, client: str = "") -> GameSession:
        now = time.monotonic()
        for sid, old in list(self.items.items()):
            if now - old.touched > self.idle_seconds:
                self.drop(sid, evicted=True)
        mine = [sid for sid in self.items if self.clients.get(sid) == client]
        if len(mine) >= self.per_client:
            self._make_room(mine, now, f"you already have {len(mine)} games open on this server; close a tab", 429)
        if len(self.items) >= self.limit:
            self._make_room(list(self.items), now, "too many games are running on this server; try again later", 503)
        session = GameSession(self.executor, self.backend)
        self.items[session.id] = session
        self.clients[session.id] = client
        return session

    def _make_room(self, candidates: list[str], now: float, refusal: str, status: int) -> None:
        """Close the least recently used of ``candidates`` that is finished or shown by no page."""
        for sid in candidates:  # least recently used first
            session = self.items[sid]
            shown = session.streams > 0 or now - session.touched < UNSHOWN_SECONDS
            if session.position.is_game_over() or not shown:
                self.drop(sid, evicted=True)
                return
        raise BadRequest(refusal, status)

    def get(self, sid: str) -> GameSession:
        session = self.items.get(sid) if SESSION_ID.match(sid) else None
        if session is None:
            if sid in self.evicted:
                raise BadRequest(EVICTED, 410)
            raise BadRequest("no such game: it ended or the server restarted; reload the page", 404)
        session.touched = time.monotonic()
        self.items.move_to_end(sid)
        return session

    def drop(self, sid: str, *, evicted: bool = False) -> None:
        session = self.items.pop(sid, None)
        self.clients.pop(sid, None)
        if session is not None:
            session.close()
            if evicted:
                self.evicted[sid] = None
                while len(self.evicted) > 4 * self.limit:
                    self.evicted.popitem(last=False)

    def close(self) -> None:
        for sid in list(self.items):
            self.drop(sid)


async def _json_body(request: Request, limit: int = MAX_BODY) -> dict[str, Any]:
    """The request's JSON object, refused unless it is JSON from this page and small."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise BadRequest("send JSON (Content-Type: application/json)", 415)
    origin = request.headers.get("origin")
    if origin is not None and origin != f"{request.url.scheme}://{request.headers.get('host')}":
        raise BadRequest("requests from other sites are refused", 403)
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise BadRequest(f"the request is larger than {limit} bytes", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BadRequest(f"the request is larger than {limit} bytes", 413)
    try:
        data = json.loads(body or b"{}")
    except (ValueError, RecursionError):
        raise BadRequest("the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    return data


def create_app(
    *,
    replay_path: str | None = None,
    max_sessions: int = 32,
    idle_minutes: float = 120,
    threads: int | None = None,
    backend: str | None = None,
) -> Starlette:
    """The web board. ``replay_path``: a tournament's ``games.json`` or results database,
    offered for replay; ``threads``: engines that think at once (default: the CPUs)."""
    replays = Replays.load(replay_path) if replay_path else Replays([], "")
    executor = ThreadPoolExecutor(max_workers=threads or max(2, os.cpu_count() or 2), thread_name_prefix="gamecore-web")
    sessions = Sessions(max_sessions, idle_minutes * 60, executor, backend)

    def answer(data: Any, status: int = 200) -> JSONResponse:
        return JSONResponse(data, status_code=status, headers=HEADERS)

    async def page(request: Request) -> Response:
        return Response(_static("index.html"), media_type="text/html; charset=utf-8", headers=HEADERS)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return answer({"error": "no such file"}, 404)
        return Response(_static(name), media_type=STATIC[name], headers=HEADERS)

    async def create(request: Request) -> Response:
        await _json_body(request)
        session = sessions.create(request.client.host if request.client else "")
        return answer(session.state(), 201)

    async def get_state(request: Request) -> Response:
        return answer(sessions.get(request.path_params["sid"]).state())

    async def action(request: Request) -> Response:
        session = sessions.get(request.path_params["sid"])
        name = request.path_params["action"]
        data = await _json_body(request, MAX_REPLAY_BODY if name == "replay-file" else MAX_BODY)
        handler = ACTIONS.get(name)
        if handler is None:
            raise BadRequest(f"no action {name!r}", 404)
        handler(session, data)
        session.step()
        return answer(session.state())

    def _replay(session: GameSession, data: dict[str, Any]) -> None:
        index = data.get("index")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(replays.games):
            raise BadRequest(f"index must be a game number from 0 to {len(replays.games) - 1}")
        session.load_replay(replays.games[index], replays.title(index))

    def _replay_file(session: GameSession, data: dict[str, Any]) -> None:
        uploaded = Replays.from_json(data.get("games"), str(data.get("name", "games.json"))[:100])
        index = data.get("index", 0)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(uploaded.games):
            raise BadRequest(f"index must be a game number from 0 to {len(uploaded.games) - 1}")
        session.load_replay(uploaded.games[index], uploaded.title(index))

    ACTIONS = {
        "new": lambda s, d: s.new_game(d.get("game"), d.get("options", {}), d.get("seats")),
        "seats": lambda s, d: s.set_seats(d.get("seats")),
        "move": lambda s, d: s.play(d.get("move")),
        "undo": lambda s, d: s.undo(),
        "redo": lambda s, d: s.redo(),
        "goto": lambda s, d: s.goto(d.get("ply")),
        "pause": lambda s, d: s.set_paused(d.get("paused")),
        "pace": lambda s, d: s.set_pace(d.get("pace")),
        "stop": lambda s, d: s.stop(),
        "import": lambda s, d: s.import_record(d.get("record")),
        "replay": _replay,
        "replay-file": _replay_file,
    }

    async def delete(request: Request) -> Response:
        origin = request.headers.get("origin")
        if origin is not None and origin != f"{request.url.scheme}://{request.headers.get('host')}":
            raise BadRequest("requests from other sites are refused", 403)
        sessions.drop(request.path_params["sid"])
        return answer({"closed": True})

    async def events(request: Request) -> Response:
        session = sessions.get(request.path_params["sid"])
        if session.streams >= MAX_STREAMS:
            raise BadRequest(f"this game already has {MAX_STREAMS} event streams open", 429)
        session.streams += 1

        async def stream() -> Any:
            sent = -1
            try:
                while not session.closed:
                    if session.version != sent:
                        sent = session.version
                        yield f"data: {json.dumps(session.state())}\n\n"
                    changed = session.changed
                    try:
                        await asyncio.wait_for(changed.wait(), 15)
                    except asyncio.TimeoutError:
                        if await request.is_disconnected():
                            return
                        yield ": keep-alive\n\n"
                    session.touched = time.monotonic()
            finally:
                session.streams -= 1

        return StreamingResponse(
            stream(), media_type="text/event-stream", headers={**HEADERS, "X-Accel-Buffering": "no"}
        )

    async def board_picture(request: Request) -> Response:
        # The current position as an SVG picture (?size=pixels): the page's board, for a link or a save.
        session = sessions.get(request.path_params["sid"])
        size = request.query_params.get("size")
        if size is not None and not (size.isdigit() and len(size) < 6):
            raise BadRequest("size must be a whole number of pixels, 50 to 4000")
        picture = session.board_svg() if size is None else session.board_svg(int(size))
        return Response(picture, media_type="image/svg+xml", headers=HEADERS)

    async def game_list(request: Request) -> Response:
        # Every registered game's options and seat players, read from its class: the menus.
        return answer({"games": games_menu()})

    async def replay_list(request: Request) -> Response:
        return answer({"source": replays.source, "games": [replays.title(i) for i in range(len(replays.games))]})

    async def bad_request(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, BadRequest)
        return answer({"error": str(exc)}, exc.status)

    async def refused(request: Request, exc: Exception) -> Response:
        return answer({"error": str(exc)[:300]}, 400)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return answer({"error": exc.detail}, exc.status_code)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        yield
        sessions.close()
        executor.shutdown(wait=False, cancel_futures=True)

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/static/{name}", static),
            Route("/api/games", game_list),
            Route("/api/replays", replay_list),
            Route("/api/sessions", create, methods=["POST"]),
            Route("/api/sessions/{sid}", get_state),
            Route("/api/sessions/{sid}", delete, methods=["DELETE"]),
            Route("/api/sessions/{sid}/events", events),
            Route("/api/sessions/{sid}/board.svg", board_picture),
            Route("/api/sessions/{sid}/{action}", action, methods=["POST"]),
        ],
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=LOCAL_HOSTS)],
        exception_handlers={BadRequest: bad_request, GamecoreError: refused, HTTPException: http_error},
        lifespan=lifespan,
    )
    app.state.sessions = sessions
    return app
