"""The ASGI application: HTTP API, the ``/ws`` WebSocket and the browser client's static files.

``create_app(config)`` opens the database (migrating it) and the slow bots' worker pool in the
lifespan, so the app is ready before uvicorn accepts the first request; at exit the tables stop
first, then the pool (no worker outlives the server), then the database.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from tuolaji.server.api import Api
from tuolaji.server.config import ServerConfig
from tuolaji.server.http_guard import SecurityHeaders, TrustedProxies, parse_networks
from tuolaji.server.lobby import Lobby
from tuolaji.server.thinking import ThinkingPool
from tuolaji.server.ws import serve_socket
from tuolaji.store.accounts import Accounts
from tuolaji.store.db import open_database
from tuolaji.store.passwords import PasswordHashing

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""The browser client (static ES modules), served at ``/`` and ``/static/``."""


def create_app(config: ServerConfig) -> ASGIApp:
    """The server application for ``config``.

    ``/ws`` is served straight from the outermost ASGI callable rather than through Starlette's
    middleware and router: a socket's reader task resumes once per incoming message, and every
    nested coroutine between the server and the handler is passed on each resume. The HTTP API,
    the static files and the lifespan are the Starlette app.

    Every HTTP response carries the security headers (``http_guard.SecurityHeaders``); the client
    address of HTTP and WebSocket requests comes from ``X-Forwarded-For`` only when the peer is one
    of ``config.forwarded_allow_ips`` (``http_guard.TrustedProxies``).
    """
    api = Api(config)
    proxies = TrustedProxies(parse_networks(config.forwarded_allow_ips))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        db = await open_database(config.db_url)
        thinking = ThinkingPool(config.bot_workers, config.search_budget_ms)
        lobby = Lobby(db, config, thinking)
        lobby.accounts.close()
        lobby.accounts = Accounts(
            db,
            config.start_silver,
            session_days=config.session_days,
            hashing=PasswordHashing(config.hash_threads, config.hash_queue),
        )
        await lobby.accounts.purge_sessions()
        api.lobby = lobby
        try:
            yield
        finally:
            api.lobby = None
            await lobby.close()
            await thinking.close()
            lobby.accounts.close()
            await db.close()

    routes: list[BaseRoute] = list(api.routes())
    if WEB_DIR.is_dir():
        routes.append(Mount("/static", StaticFiles(directory=WEB_DIR), name="static"))
        routes.append(Mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web"))
    http = SecurityHeaders(Starlette(routes=routes, lifespan=lifespan))

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        scope = proxies.client(scope)
        if scope["type"] != "websocket":
            await http(scope, receive, send)
            return
        websocket = WebSocket(scope, receive, send)
        if scope["path"] != "/ws" or api.lobby is None:
            await websocket.close(1013 if scope["path"] == "/ws" else 1008)
            return
        await serve_socket(websocket, api.lobby)

    return app
