"""The ASGI application: HTTP API, the ``/ws`` WebSocket and the browser client's static files.

``create_app(config)`` opens the node's services in the lifespan (``services.open_services``: the
database, migrated, the tables' log, the slow bots' worker pool, the accounts, the bus to the other
nodes), builds the lobby and the HTTP API on them, and restores every open table from its log, so the
app is ready (and the hands that were being played go on) before uvicorn accepts the first request.
At exit the tables stop first (all together), then the bus, the log writer, the pool (no worker
outlives the server) and the database. :meth:`App.prepare_shutdown` is the graceful part of a
restart (``tuolaji serve`` calls it on SIGTERM).

Each app has its own :class:`~tuolaji.server.metrics.Metrics` (its own registry), served at
``/metrics`` to those allowed (``tuolaji.server.scrape``); every HTTP request's log lines name it
(``request``).
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from tuolaji.server import logs
from tuolaji.server.api import Api, routes
from tuolaji.server.config import ServerConfig
from tuolaji.server.gauges import NodeGauges
from tuolaji.server.heap import GcPauses
from tuolaji.server.http_guard import SecurityHeaders, TrustedProxies, parse_networks
from tuolaji.server.http_io import Handler
from tuolaji.server.lobby import Lobby
from tuolaji.server.looplag import LoopLag
from tuolaji.server.metrics import Metrics
from tuolaji.server.scrape import PATH as METRICS_PATH
from tuolaji.server.scrape import Scrape, read_token
from tuolaji.server.services import open_services
from tuolaji.server.ws import serve_socket

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""The browser client (static ES modules), served at ``/`` and ``/static/``."""


class App:
    """The server application for a :class:`ServerConfig` (an ASGI callable).

    ``/ws`` is served straight from the outermost ASGI callable rather than through Starlette's
    middleware and router: a socket's reader task resumes once per incoming message, and every
    nested coroutine between the server and the handler is passed on each resume. The HTTP API,
    the static files and the lifespan are the Starlette app.

    Every HTTP response carries the security headers (``http_guard.SecurityHeaders``); the client
    address of HTTP and WebSocket requests comes from ``X-Forwarded-For`` only when the peer is one
    of ``config.forwarded_allow_ips`` (``http_guard.TrustedProxies``). ``/metrics`` is answered
    before that rule, which it applies itself (``scrape.Scrape``).
    """

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.lobby: Lobby | None = None
        """The running node's lobby (None before start-up and after shutdown)."""
        self._handlers: dict[str, Handler] | None = None
        self.proxies = TrustedProxies(parse_networks(config.forwarded_allow_ips))
        self.metrics = Metrics(config.metrics)
        token = read_token(config.metrics_token_file) if config.metrics_token_file is not None else None
        self.scrape = SecurityHeaders(
            Scrape(self.metrics, self.proxies, parse_networks(config.metrics_allow_ips), token)
        )
        self._requests = itertools.count(1)
        all_routes: list[BaseRoute] = list(routes(lambda: self._handlers))
        if WEB_DIR.is_dir():
            all_routes.append(Mount("/static", StaticFiles(directory=WEB_DIR), name="static"))
            all_routes.append(Mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web"))
        self.http = SecurityHeaders(Starlette(routes=all_routes, lifespan=self._lifespan))

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        async with open_services(self.config, self.metrics) as services:
            lobby = Lobby(services)
            gauges = NodeGauges(lobby)
            self.metrics.watch(gauges)
            pauses = GcPauses(self.metrics)
            pauses.install()
            lag = LoopLag(self.metrics, pauses)
            lag.start()
            try:
                await services.accounts.purge_sessions()
                await lobby.start()
                self.lobby, self._handlers = lobby, Api(services, lobby).handlers()
                yield
            finally:
                self.lobby, self._handlers = None, None
                await lobby.close()
                await services.bus.close()
                self.metrics.unwatch(gauges)
                lag.stop()
                pauses.remove()

    async def prepare_shutdown(self) -> None:
        """Before the server closes its sockets: let the tables finish their steps and tell every client
        ``server_restarting`` (the tables' logs hold everything; a restart resumes them)."""
        lobby = self.lobby
        if lobby is not None:
            await lobby.prepare_shutdown()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            logs.bind_only(request=f"{self.config.node_id}.r{next(self._requests)}")
            if scope["path"] == METRICS_PATH:
                await self.scrape(scope, receive, send)
                return
        scope = self.proxies.client(scope)
        if scope["type"] != "websocket":
            await self.http(scope, receive, send)
            return
        websocket = WebSocket(scope, receive, send)
        lobby = self.lobby
        if scope["path"] != "/ws" or lobby is None or lobby.stopping:
            code = 1013 if scope["path"] == "/ws" else 1008
            await websocket.close(code)
            self.metrics.closed(code, by_server=True)
            return
        await serve_socket(websocket, lobby)


def create_app(config: ServerConfig) -> App:
    """The server application for ``config``."""
    return App(config)
