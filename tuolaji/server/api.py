"""HTTP/JSON endpoints: accounts and sessions, options, tables, account histories, profiles and hand
records, leaderboards, players' reports, and the moderators' console.

See docs/PROTOCOL.md §1 and §4. Errors are ``{"error": {"code", "message"}}`` with a 4xx status. The routes
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
from tuolaji.server.api_console import ConsoleApi
from tuolaji.server.api_console_accounts import ConsoleAccountsApi
from tuolaji.server.api_records import RecordsApi
from tuolaji.server.api_reports import ReportsApi
from tuolaji.server.http_io import Handler, error_response, guarded
from tuolaji.server.listing import invitation
from tuolaji.server.lobby import Lobby
from tuolaji.server.services import Services
from tuolaji.server.staff import StaffGate
from tuolaji.wire.inbound import INVITE_CODE
from tuolaji.wire.outbound import PROTOCOL_VERSION


class Api:
    """The HTTP endpoints of a running node: its ``services`` and its ``lobby`` (the open tables, whether
    it drains)."""

    def __init__(self, services: Services, lobby: Lobby) -> None:
        self.services = services
        self.lobby = lobby
        self.feed = lobby.feed
        self.sessions = AccountsApi(services)
        self.records = RecordsApi(services, self.sessions)
        gate = StaffGate(self.sessions)
        self.console = ConsoleApi(services, lobby.feed, gate)
        self.console_accounts = ConsoleAccountsApi(services, gate)
        self.reports = ReportsApi(services, self.sessions, gate)

    def handlers(self) -> dict[str, Handler]:
        """Every endpoint's handler by its route name (:data:`ROUTES`)."""
        sessions, records = self.sessions, self.records
        console, accounts, reports = self.console, self.console_accounts, self.reports
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
            "report": reports.report,
            "console_tables": console.tables,
            "console_close_table": console.close_table,
            "console_nodes": console.nodes,
            "console_drain": console.drain,
            "console_notice": console.notice,
            "console_hand": console.hand,
            "console_audit": console.audit,
            "console_search": accounts.search,
            "console_account": accounts.account,
            "console_ban": accounts.ban,
            "console_unban": accounts.unban,
            "console_mute": accounts.mute,
            "console_unmute": accounts.unmute,
            "console_correct": accounts.correct,
            "console_reports": reports.reports,
            "console_close_report": reports.close_report,
            "invite": self.invite,
        }

    async def health(self, request: Request) -> Response:
        """``GET /api/health``: 200 when this node can serve the whole card room; 503 while it cannot
        reach the other nodes (Redis down: its own tables go on, new tables are refused) or while it
        drains (``draining``: a load balancer sends it no new clients; its tables move to other nodes)."""
        bus = self.services.bus
        status = bus.status()
        draining = self.lobby.hosting.drain.on
        ok = bool(status["up"]) and not draining
        body = {"ok": ok, "protocol": PROTOCOL_VERSION, "node": bus.node_id, **status, "draining": draining}
        return JSONResponse(body, status_code=200 if ok else 503)

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
    ("/api/reports", "report", ("POST",)),
    ("/api/console/tables", "console_tables", ("GET",)),
    ("/api/console/tables/{id:str}/close", "console_close_table", ("POST",)),
    ("/api/console/nodes", "console_nodes", ("GET",)),
    ("/api/console/nodes/{node:str}/drain", "console_drain", ("POST",)),
    ("/api/console/notice", "console_notice", ("POST",)),
    ("/api/console/hands/{id:str}", "console_hand", ("GET",)),
    ("/api/console/audit", "console_audit", ("GET",)),
    ("/api/console/accounts", "console_search", ("GET",)),
    ("/api/console/accounts/{id:str}", "console_account", ("GET",)),
    ("/api/console/accounts/{id:str}/ban", "console_ban", ("POST",)),
    ("/api/console/accounts/{id:str}/unban", "console_unban", ("POST",)),
    ("/api/console/accounts/{id:str}/mute", "console_mute", ("POST",)),
    ("/api/console/accounts/{id:str}/unmute", "console_unmute", ("POST",)),
    ("/api/console/accounts/{id:str}/correct", "console_correct", ("POST",)),
    ("/api/console/reports", "console_reports", ("GET",)),
    ("/api/console/reports/{id:str}/close", "console_close_report", ("POST",)),
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
