"""The console's accounts (docs/PROTOCOL.md §4): look one up by name or id and see all of it —
balances, role, bans and mutes, sessions and live connection, seat, latest hands, ledger lines,
reports against it, what staff did to it — then ban or mute it (for a time or for good; its sockets
close at once on every node), lift that, or (admins only) correct its balances through the ledger.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tuolaji.server.api_console import parsed
from tuolaji.server.bus import BusDown
from tuolaji.server.http_io import HttpError, path_id
from tuolaji.server.services import Services
from tuolaji.server.staff import Staff, StaffGate
from tuolaji.store.accounts import AccountData
from tuolaji.store.audit import entries
from tuolaji.store.ledger import LedgerError, correct, line_to_json, lines_of
from tuolaji.store.records import hands_of
from tuolaji.store.reports import listed
from tuolaji.store.roles import role_of
from tuolaji.store.sanctions import history, impose, lift, standing
from tuolaji.wire.moderation import CorrectionRequest, LiftRequest, SanctionRequest
from tuolaji.wire.orders import Order, Sanctioned

SEARCH_MAX = 80
"""Longest text looked up, in characters."""


class ConsoleAccountsApi:
    """``/api/console/accounts`` (search), ``/api/console/accounts/{id}`` (all of it) and its
    ``ban``, ``unban``, ``mute``, ``unmute`` and ``correct``."""

    def __init__(self, services: Services, gate: StaffGate) -> None:
        self.db = services.db
        self.accounts = services.accounts
        self.bus = services.bus
        self.gate = gate

    async def _target(self, request: Request, staff: Staff) -> AccountData:
        """The account in the path (404 if none); staff may not act on themselves."""
        account_id = path_id(request.path_params["id"], "account")
        account = await self.accounts.get(account_id)
        if account is None:
            raise HttpError(404, "not_found", f"no account {account_id}")
        if account.id == staff.account.id:
            raise HttpError(403, "forbidden", "staff do not act on their own account", fields={"needs": "another"})
        return account

    async def _tell(self, order: Order) -> bool:
        """Tell every node; False if they cannot be reached now (the change holds in the database
        and takes effect there at each account's next sign-in or hello)."""
        try:
            await self.bus.cluster.broadcast(order)
        except BusDown:
            return False
        return True

    async def search(self, request: Request) -> Response:
        """``GET /api/console/accounts?q=TEXT``: accounts by id (``12``, ``#12``) or nickname (and its prefix)."""
        await self.gate.staff(request)
        text = request.query_params.get("q", "").strip()
        if not text or len(text) > SEARCH_MAX:
            raise HttpError(
                400, "bad_request", f"q must be an account id or a nickname of 1 to {SEARCH_MAX} characters"
            )
        return JSONResponse({"accounts": [account.to_json() for account in await self.accounts.search(text)]})

    async def account(self, request: Request) -> Response:
        """``GET /api/console/accounts/{id}``: everything the console shows of an account."""
        await self.gate.staff(request)
        account_id = path_id(request.path_params["id"], "account")
        account = await self.accounts.get(account_id)
        if account is None:
            raise HttpError(404, "not_found", f"no account {account_id}")
        held = await standing(self.db, account_id)
        body: dict[str, Any] = {
            "account": account.to_json(),
            "role": await role_of(self.db, account_id),
            "standing": {
                kind: item.to_json() if item else None for kind, item in (("ban", held.ban), ("mute", held.mute))
            },
            "sanctions": await history(self.db, account_id),
            "sessions": await self.accounts.sessions_of(account_id),
            "hands": await hands_of(self.db, account_id, 20),
            "ledger": await lines_of(self.db, account_id, 30),
            "reports": await listed(self.db, open_only=False, against=account_id, limit=30),
            "audit": await entries(self.db, 30, account_id=account_id),
        }
        try:
            body["connection"] = await self.bus.cluster.connection_of(account_id)
            seat = await self.bus.seat_of(account_id)
        except BusDown:
            body["connection"], seat = None, None
        body["seat"] = {"table": seat.table_id, "seat": seat.seat} if seat is not None else None
        return JSONResponse(body)

    async def _sanction(self, request: Request, kind: str) -> Response:
        staff = await self.gate.staff(request)
        account = await self._target(request, staff)
        asked = await parsed(request, SanctionRequest.from_json)
        if await role_of(self.db, account.id) is not None:
            text = f"account {account.id} holds a role: staff are not banned or muted (revoke the role first)"
            raise HttpError(403, "forbidden", text, fields={"needs": "player"})
        done = await impose(self.db, staff.actor, account.id, kind, asked.reason, asked.note, asked.minutes)
        told = await self._tell(Sanctioned(account.id, kind, True, asked.reason, done.until_ms))
        staff.did(kind, account=account.id)
        return JSONResponse({"sanction": done.to_json(), "told": told})

    async def _lift(self, request: Request, kind: str) -> Response:
        staff = await self.gate.staff(request)
        account = await self._target(request, staff)
        asked = await parsed(request, LiftRequest.from_json)
        ended = await lift(self.db, staff.actor, account.id, kind, asked.note)
        if not ended:
            raise HttpError(409, "not_in_force", f"no {kind} is in force on account {account.id}")
        told = await self._tell(Sanctioned(account.id, kind, False))
        staff.did(f"un{kind}", account=account.id)
        return JSONResponse({"lifted": kind, "told": told})

    async def ban(self, request: Request) -> Response:
        """``POST /api/console/accounts/{id}/ban``: sign-in refused, sockets closed on every node."""
        return await self._sanction(request, "ban")

    async def unban(self, request: Request) -> Response:
        """``POST /api/console/accounts/{id}/unban``."""
        return await self._lift(request, "ban")

    async def mute(self, request: Request) -> Response:
        """``POST /api/console/accounts/{id}/mute``: its quick phrases are refused (``muted``)."""
        return await self._sanction(request, "mute")

    async def unmute(self, request: Request) -> Response:
        """``POST /api/console/accounts/{id}/unmute``."""
        return await self._lift(request, "mute")

    async def correct(self, request: Request) -> Response:
        """``POST /api/console/accounts/{id}/correct`` (admins): a ledger ``correction`` line with its reason."""
        staff = await self.gate.staff(request, admin_for="correcting a balance")
        account = await self._target(request, staff)
        asked = await parsed(request, CorrectionRequest.from_json)
        try:
            line = await correct(
                self.db, account.id, asked.points, asked.silver, asked.reason, staff.account.id, actor=staff.actor
            )
        except LedgerError as error:
            raise HttpError(400, "bad_request", str(error)) from None
        staff.did("correct", account=account.id)
        fresh = await self.accounts.get(account.id)
        return JSONResponse({"line": line_to_json(line), "account": fresh.to_json() if fresh else None})
