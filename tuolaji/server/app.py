"""The ASGI application: HTTP API, the ``/ws`` WebSocket and the browser client's static files.

``create_app(config)`` opens the database (migrating it) in the lifespan, so the app is ready
before uvicorn accepts the first request.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import BaseRoute, Mount, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from tuolaji.server.api import Api
from tuolaji.server.config import ServerConfig
from tuolaji.server.lobby import Lobby
from tuolaji.server.ws import serve_socket
from tuolaji.store.db import open_database

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""The browser client (static ES modules), served at ``/`` and ``/static/``."""


def create_app(config: ServerConfig) -> Starlette:
    """The server application for ``config``."""
    api = Api()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        db = await open_database(config.db_url)
        lobby = Lobby(db, config)
        api.lobby = lobby
        try:
            yield
        finally:
            api.lobby = None
            await lobby.close()
            await db.close()

    async def websocket_endpoint(websocket: WebSocket) -> None:
        if api.lobby is None:
            await websocket.close(1013)
            return
        await serve_socket(websocket, api.lobby)

    routes: list[BaseRoute] = [*api.routes(), WebSocketRoute("/ws", websocket_endpoint)]
    if WEB_DIR.is_dir():
        routes.append(Mount("/static", StaticFiles(directory=WEB_DIR), name="static"))
        routes.append(Mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web"))
    return Starlette(routes=routes, lifespan=lifespan)
