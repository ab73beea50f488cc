"""The endpoints that read what was played: accounts, their hands and profiles, hand records with
what a replay derives from them, and the leaderboards."""

from __future__ import annotations

import asyncio
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tuolaji.server.api_accounts import AccountsApi
from tuolaji.server.hand_history import record_details
from tuolaji.server.http_io import MAX_ID, HttpError, path_id, query_int
from tuolaji.server.services import Services
from tuolaji.store.accounts import AccountData
from tuolaji.store.leaderboard import BOARDS, PAGE_SIZE, PAGES, board_page, place_of
from tuolaji.store.profiles import profile
from tuolaji.store.records import get_hand, hands_of, players_of

HISTORY_LIMIT: Final = 100
DEFAULT_HISTORY: Final = 20


class RecordsApi:
    """``/api/accounts/{id}`` (and its ``hands``, ``profile``), ``/api/hands/{id}``, ``/api/leaderboard``;
    ``sessions`` tells who the viewer of a leaderboard is."""

    def __init__(self, services: Services, sessions: AccountsApi) -> None:
        self.db = services.db
        self.accounts = services.accounts
        self.sessions = sessions

    async def _account(self, account_id: int) -> AccountData:
        account = await self.accounts.get(account_id)
        if account is None:
            raise HttpError(404, "not_found", f"no account {account_id}")
        return account

    async def account(self, request: Request) -> Response:
        """``GET /api/accounts/{id}``."""
        account = await self._account(path_id(request.path_params["id"], "account"))
        return JSONResponse({"account": account.to_json()})

    async def account_hands(self, request: Request) -> Response:
        """``GET /api/accounts/{id}/hands``: the account's hands, newest first."""
        account_id = path_id(request.path_params["id"], "account")
        limit = query_int(request, "limit", HISTORY_LIMIT) or DEFAULT_HISTORY
        before = query_int(request, "before", MAX_ID)
        await self._account(account_id)
        hands = await hands_of(self.db, account_id, limit, before)
        next_before = hands[-1]["id"] if len(hands) == limit else None
        return JSONResponse({"hands": hands, "next_before": next_before})

    async def account_profile(self, request: Request) -> Response:
        """``GET /api/accounts/{id}/profile``: titles, balances, places, record per side, latest hands."""
        account = await self._account(path_id(request.path_params["id"], "account"))
        return JSONResponse(await profile(self.db, account))

    async def leaderboard(self, request: Request) -> Response:
        """``GET /api/leaderboard?by=points|silver&page=1``: a page of the top 100 registered accounts
        and, with a bearer token, the viewer's own place (null for a guest)."""
        board = request.query_params.get("by") or BOARDS[0]
        if board not in BOARDS:
            raise HttpError(400, "bad_request", f"by must be one of {', '.join(BOARDS)} (got {board[:40]!r})")
        page = query_int(request, "page", PAGES) or 1

        async def mine() -> dict[str, Any] | None:
            if "authorization" not in request.headers:
                return None
            viewer = await self.sessions.bearer(request)
            return {"place": await place_of(self.db, board, viewer), "account": viewer.to_json()}

        # The page and the viewer's place are read side by side (two connections), not one after the other.
        entries, me = await asyncio.gather(board_page(self.db, board, page), mine())
        return JSONResponse(
            {
                "by": board,
                "page": page,
                "pages": PAGES,
                "page_size": PAGE_SIZE,
                "entries": entries,
                "next_page": page + 1 if page < PAGES and len(entries) == PAGE_SIZE else None,
                "me": me,
            }
        )

    async def hand(self, request: Request) -> Response:
        """``GET /api/hands/{id}``: a stored hand plus what a replay derives from it. A hand of a
        private table is shown only to its players (bearer token); to anyone else it is 404, as a
        hand that does not exist."""
        hand_id = path_id(request.path_params["id"], "hand")
        record = await get_hand(self.db, hand_id)
        if record is None or (record["private"] and not await self._played(request, record)):
            raise HttpError(404, "not_found", f"no hand {hand_id}")
        return JSONResponse({"hand": {**record, **record_details(record)}})

    async def _played(self, request: Request, record: dict[str, Any]) -> bool:
        """Whether the request's bearer token (if any) is of an account seated in ``record``."""
        if "authorization" not in request.headers:
            return False
        try:
            viewer = await self.sessions.bearer(request)
        except HttpError:
            return False
        return viewer.id in players_of(record)
