"""The moderators' console over HTTP (docs/PROTOCOL.md §4), for staff only (``StaffGate``): the live
tables on every node and closing one, the nodes and draining one (admins), a notice to everyone,
any stored hand with all four hands, and the audit (read only: no endpoint edits or deletes it).

Every action is written to the audit before it is carried out; what reaches other nodes goes as an
order on the bus (``tuolaji.wire.orders``), so it works whichever node the table or client is on.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, Final, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tuolaji.server.bus import BusDown
from tuolaji.server.feed import LobbyFeed
from tuolaji.server.hand_history import record_details
from tuolaji.server.http_io import MAX_ID, HttpError, json_body, path_id, query_int
from tuolaji.server.services import Services
from tuolaji.server.staff import StaffGate
from tuolaji.store.audit import entries, record
from tuolaji.store.records import get_hand
from tuolaji.store.tablelog import opened_at
from tuolaji.wire.moderation import BadRequest, CloseTableRequest, DrainRequest, NoticeRequest
from tuolaji.wire.orders import CloseOrder, DrainOrder, NoticeSent, Order

AUDIT_PAGE: Final = 50
AUDIT_LIMIT: Final = 200
T = TypeVar("T")


async def parsed(request: Request, parse: Callable[[object], T]) -> T:
    """The request's JSON body as ``parse`` reads it; 400 ``bad_request`` naming the field otherwise."""
    body = await json_body(request)
    try:
        return parse(body)
    except BadRequest as error:
        raise HttpError(400, "bad_request", str(error)) from None


async def reaching(call: Awaitable[T]) -> T:
    """``call``'s answer; 503 ``service_unavailable`` while the other nodes cannot be reached."""
    try:
        return await call
    except BusDown as error:
        raise HttpError(503, "service_unavailable", f"the other nodes cannot be reached now: {error}") from None


class ConsoleApi:
    """``/api/console/tables``, ``…/close``, ``/api/console/nodes``, ``…/drain``, ``/api/console/notice``,
    ``/api/console/hands/{id}``, ``/api/console/audit``."""

    def __init__(self, services: Services, feed: LobbyFeed, gate: StaffGate) -> None:
        self.db = services.db
        self.bus = services.bus
        self.feed = feed
        self.gate = gate

    async def _order(self, order: Order) -> None:
        await reaching(self.bus.cluster.broadcast(order))

    async def tables(self, request: Request) -> Response:
        """``GET /api/console/tables``: every open table on every node — its node, state, seats, hands
        and age — with the nodes."""
        await self.gate.staff(request)
        opened = await opened_at(self.db)
        ids = sorted(opened, key=lambda table_id: opened[table_id])
        owners = await reaching(self.bus.cluster.owners(ids))
        nodes = await reaching(self.bus.cluster.nodes())
        now = datetime.now(UTC)
        tables = [
            {
                "id": table_id,
                "node": owners.get(table_id),
                "opened_at": opened[table_id].isoformat(),
                "age_s": max(0, round((now - opened[table_id]).total_seconds())),
                "summary": self.feed.summaries.get(table_id),
            }
            for table_id in ids
        ]
        return JSONResponse({"tables": tables, "nodes": [node.to_json() for node in nodes]})

    async def close_table(self, request: Request) -> Response:
        """``POST /api/console/tables/{id}/close``: the table is closed on its node, the hand under way
        dissolved with no settlement and no escape; its players are told the reason."""
        staff = await self.gate.staff(request)
        table_id = request.path_params["id"]
        asked = await parsed(request, CloseTableRequest.from_json)
        if table_id not in await opened_at(self.db):
            raise HttpError(404, "not_found", f"no open table {table_id[:40]!r}")
        if (await reaching(self.bus.cluster.owners([table_id]))).get(table_id) is None:
            text = f"table {table_id} is moving to another node; try again in a moment"
            raise HttpError(409, "table_moving", text)
        summary = self.feed.summaries.get(table_id) or {}
        details: dict[str, Any] = {"state": summary.get("state"), "hands_played": summary.get("hands_played")}
        details["seated"] = [seat["account"]["id"] for seat in summary.get("seats", []) if seat.get("account")]
        await record(
            self.db, staff.actor, "close_table", target=table_id, reason=asked.reason, note=asked.note, details=details
        )
        await self._order(CloseOrder(table_id, asked.reason))
        staff.did("close_table", table=table_id)
        return JSONResponse({"table": table_id, "closing": True})

    async def nodes(self, request: Request) -> Response:
        """``GET /api/console/nodes``: every live node, whether it drains and how many tables it runs."""
        await self.gate.staff(request)
        nodes = await reaching(self.bus.cluster.nodes())
        return JSONResponse({"nodes": [node.to_json() for node in nodes], "node": self.bus.node_id})

    async def drain(self, request: Request) -> Response:
        """``POST /api/console/nodes/{node}/drain`` (admins): the node drains — or, with ``off``, no longer."""
        staff = await self.gate.staff(request, admin_for="draining a node")
        node = request.path_params["node"]
        asked = await parsed(request, DrainRequest.from_json)
        if node not in {status.node for status in await reaching(self.bus.cluster.nodes())}:
            raise HttpError(404, "not_found", f"no live node {node[:40]!r}")
        action = "undrain" if asked.off else "drain"
        await record(self.db, staff.actor, action, target=node, details={"now": asked.now})
        await self._order(DrainOrder(node, not asked.off, asked.now))
        staff.did(action, target=node)
        return JSONResponse({"node": node, "draining": not asked.off})

    async def notice(self, request: Request) -> Response:
        """``POST /api/console/notice``: a notice shown in every client on every node."""
        staff = await self.gate.staff(request)
        asked = await parsed(request, NoticeRequest.from_json)
        now_ms = round(time.time() * 1000)
        sent = NoticeSent(now_ms, asked.kind, now_ms + asked.minutes * 60_000, asked.text)
        details = {"kind": asked.kind, "minutes": asked.minutes}
        await record(self.db, staff.actor, "notice", target="everyone", note=asked.text, details=details)
        await self._order(sent)
        staff.did("notice", target="everyone")
        return JSONResponse({"notice": sent.to_message(now_ms)})

    async def hand(self, request: Request) -> Response:
        """``GET /api/console/hands/{id}``: a stored hand with all four hands, a private table's too."""
        await self.gate.staff(request)
        hand_id = path_id(request.path_params["id"], "hand")
        found = await get_hand(self.db, hand_id)
        if found is None:
            raise HttpError(404, "not_found", f"no hand {hand_id}")
        return JSONResponse({"hand": {**found, **record_details(found)}})

    async def audit(self, request: Request) -> Response:
        """``GET /api/console/audit?account=ID&before=ID&limit=N``: what staff did, newest first."""
        await self.gate.staff(request)
        limit = query_int(request, "limit", AUDIT_LIMIT) or AUDIT_PAGE
        before = query_int(request, "before", 2**63 - 1)
        account = query_int(request, "account", MAX_ID)
        found = await entries(self.db, limit, before, account)
        return JSONResponse({"entries": found, "next_before": found[-1]["id"] if len(found) == limit else None})
