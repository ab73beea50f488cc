"""HTTP/JSON endpoints: accounts and sessions, options, tables, account histories, profiles and hand
records, leaderboards.

See docs/PROTOCOL.md §1. Errors are ``{"error": {"code", "message"}}`` with a 4xx status. The routes
exist before the server has started (:func:`routes`); until an :class:`Api` runs they answer 503
``starting``.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tuolaji.bots import BOT_NAMES
from tuolaji.game.options import ILLEGAL_FOLLOW_MODES, PRESET_NAMES, TableOptions
from tuolaji.server.api_accounts import AccountsApi
from tuolaji.server.api_records import RecordsApi
from tuolaji.server.feed import LobbyFeed
from tuolaji.server.http_io import Handler, error_response, guarded
from tuolaji.server.listing import invitation
from tuolaji.server.services import Services
from tuolaji.wire.inbound import INVITE_CODE
from tuolaji.wire.outbound import PROTOCOL_VERSION


class Api:
    """The HTTP endpoints of a running node: its ``services`` and the lobby's ``feed`` (the open tables)."""

    def __init__(self, services: Services, feed: LobbyFeed) -> None:
        self.services = services
        self.feed = feed
        self.sessions = AccountsApi(services)
        self.records = RecordsApi(services, self.sessions)

    def handlers(self) -> dict[str, Handler]:
        """Every endpoint's handler by its route name (:data:`ROUTES`)."""
        sessions, records = self.sessions, self.records
        return {
            "health": self.health,
            "options": self.options,
            "guest": sessions.guest,
            "register": sessions.register,
            "login": sessions.login,
            "logout": sessions.logout,
            "me": sessions.me,
            "account": records.account,
            "account_hands": records.account_hands,
            "account_profile": records.account_profile,
            "leaderboard": records.leaderboard,
            "hand": records.hand,
            "tables": self.tables,
            "invite": self.invite,
        }

    async def health(self, request: Request) -> Response:
        """``GET /api/health``: 200 when this node can serve the whole card room; 503 while it cannot
        reach the other nodes (Redis down: its own tables go on, new tables are refused)."""
        bus = self.services.bus
        status = bus.status()
        body = {"ok": bool(status["up"]), "protocol": PROTOCOL_VERSION, "node": bus.node_id, **status}
        return JSONResponse(body, status_code=200 if status["up"] else 503)

    async def options(self, request: Request) -> Response:
        """``GET /api/options``: default table options, presets, modes and bots."""
        return JSONResponse(
            {
                "defaults": TableOptions().to_json(),
                "presets": list(PRESET_NAMES),
                "illegal_follow": list(ILLEGAL_FOLLOW_MODES),
                "bots": list(BOT_NAMES),
            }
        )

    async def tables(self, request: Request) -> Response:
        """``GET /api/tables``: the open tables."""
        return JSONResponse({"tables": self.feed.table_list()})

    async def invite(self, request: Request) -> Response:
        """``GET /api/invites/{code}``: who invites to which table (number and inviter's nickname),
        for the landing page of an invite link; 404 ``not_found`` for a code no open table has."""
        code = str(request.path_params["code"])
        table_id = self.feed.invites.table_of(code) if INVITE_CODE.fullmatch(code) else None
        summary = self.feed.summaries.get(table_id) if table_id is not None else None
        if summary is None:
            return error_response(404, "not_found", "no open table has this invite code")
        return JSONResponse(invitation(summary))


ROUTES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("/api/health", "health", ("GET",)),
    ("/api/options", "options", ("GET",)),
    ("/api/guest", "guest", ("POST",)),
    ("/api/register", "register", ("POST",)),
    ("/api/login", "login", ("POST",)),
    ("/api/logout", "logout", ("POST",)),
    ("/api/me", "me", ("GET",)),
    ("/api/accounts/{id:str}", "account", ("GET",)),
    ("/api/accounts/{id:str}/hands", "account_hands", ("GET",)),
    ("/api/accounts/{id:str}/profile", "account_profile", ("GET",)),
    ("/api/leaderboard", "leaderboard", ("GET",)),
    ("/api/hands/{id:str}", "hand", ("GET",)),
    ("/api/tables", "tables", ("GET",)),
    ("/api/invites/{code:str}", "invite", ("GET",)),
)
"""Every endpoint: path, route name (:meth:`Api.handlers`), methods."""


def routes(running: Callable[[], dict[str, Handler] | None]) -> list[Route]:
    """Starlette routes of every endpoint, answered by the handlers ``running()`` gives (None: the
    server is starting, 503)."""

    def endpoint(name: str) -> Handler:
        async def answer(request: Request) -> Response:
            handlers = running()
            if handlers is None:
                return error_response(503, "starting", "the server is starting")
            return await handlers[name](request)

        return guarded(answer)

    return [Route(path, endpoint(name), methods=list(methods)) for path, name, methods in ROUTES]
