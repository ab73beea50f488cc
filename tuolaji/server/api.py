"""HTTP/JSON endpoints: accounts and sessions, options, tables, account histories and hand records.

See docs/PROTOCOL.md §1. Errors are ``{"error": {"code", "message"}}`` with a 4xx status.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tuolaji.bots import BOT_NAMES
from tuolaji.game.options import ILLEGAL_FOLLOW_MODES, PRESET_NAMES, TableOptions
from tuolaji.server.limits import AddressLimiter
from tuolaji.server.lobby import Lobby
from tuolaji.server.protocol import PROTOCOL_VERSION
from tuolaji.server.replay import record_details
from tuolaji.store.accounts import AccountData, AccountError
from tuolaji.store.records import get_hand, hands_of

MAX_BODY_BYTES = 16 * 1024
HISTORY_LIMIT = 100


class HttpError(Exception):
    """An HTTP error answer (``headers`` are added to it, e.g. ``Retry-After``)."""

    def __init__(self, status: int, code: str, text: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(text)
        self.status, self.code, self.text, self.headers = status, code, text, headers


def _error(status: int, code: str, text: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": text}}, status_code=status, headers=headers)


Handler = Callable[[Request], Awaitable[Response]]


class Api:
    """The HTTP endpoints; ``lobby`` is set by the app's lifespan before any request arrives.

    ``account_limiter`` limits account creation and logins per client address (``rate_limited``).
    """

    def __init__(self, account_limiter: AddressLimiter | None = None) -> None:
        self.lobby: Lobby | None = None
        self.account_limiter = account_limiter or AddressLimiter()

    def routes(self) -> list[Route]:
        """Starlette routes of every endpoint."""
        return [
            Route("/api/health", self._wrap(self.health)),
            Route("/api/options", self._wrap(self.options)),
            Route("/api/guest", self._wrap(self.guest), methods=["POST"]),
            Route("/api/register", self._wrap(self.register), methods=["POST"]),
            Route("/api/login", self._wrap(self.login), methods=["POST"]),
            Route("/api/logout", self._wrap(self.logout), methods=["POST"]),
            Route("/api/me", self._wrap(self.me)),
            Route("/api/accounts/{id:int}", self._wrap(self.account)),
            Route("/api/accounts/{id:int}/hands", self._wrap(self.account_hands)),
            Route("/api/hands/{id:int}", self._wrap(self.hand)),
            Route("/api/tables", self._wrap(self.tables)),
        ]

    def _wrap(self, handler: Handler) -> Handler:
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)
            except HttpError as error:
                return _error(error.status, error.code, error.text, error.headers)
            except AccountError as error:
                status = {"nickname_taken": 409, "bad_credentials": 401}.get(error.code, 400)
                return _error(status, error.code, str(error))

        return endpoint

    @property
    def _lobby(self) -> Lobby:
        if self.lobby is None:
            raise HttpError(503, "starting", "the server is starting")
        return self.lobby

    async def _body(self, request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > MAX_BODY_BYTES:
            raise HttpError(413, "too_large", f"body over {MAX_BODY_BYTES} bytes")
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            raise HttpError(400, "bad_request", "the body is not JSON") from None
        if not isinstance(data, dict):
            raise HttpError(400, "bad_request", "the body must be a JSON object")
        return data

    def _limit(self, request: Request) -> None:
        """Count an account request against the client's address; refuse it (429) over the limit."""
        address = request.client.host if request.client is not None else "unknown"
        wait = self.account_limiter.check(address)
        if wait is not None:
            raise HttpError(
                429,
                "rate_limited",
                f"too many account requests from {address}; retry in {wait} s",
                {"Retry-After": str(wait)},
            )

    @staticmethod
    def _token(request: Request) -> str:
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise HttpError(401, "auth_required", "send Authorization: Bearer <token>")
        return token.strip()

    async def _me(self, request: Request) -> AccountData:
        account = await self._lobby.accounts.by_token(self._token(request))
        if account is None:
            raise HttpError(401, "auth_required", "unknown or logged-out token")
        return account

    @staticmethod
    def _session(token: str, account: AccountData, status: int) -> JSONResponse:
        return JSONResponse({"token": token, "account": account.to_json()}, status_code=status)

    async def health(self, request: Request) -> Response:
        """``GET /api/health``: 200 when this node can serve the whole card room; 503 while it cannot
        reach the other nodes (Redis down: its own tables go on, new tables are refused)."""
        bus = self._lobby.bus.status()
        body = {"ok": bool(bus["up"]), "protocol": PROTOCOL_VERSION, "node": self._lobby.bus.node_id, **bus}
        return JSONResponse(body, status_code=200 if bus["up"] else 503)

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

    async def guest(self, request: Request) -> Response:
        """``POST /api/guest``: a new guest account and its token."""
        self._limit(request)
        await self._body(request)
        token, account = await self._lobby.accounts.create_guest()
        return self._session(token, account, 201)

    async def register(self, request: Request) -> Response:
        """``POST /api/register``: a new account with a password."""
        self._limit(request)
        body = await self._body(request)
        token, account = await self._lobby.accounts.register(body.get("nickname"), body.get("password"))
        return self._session(token, account, 201)

    async def login(self, request: Request) -> Response:
        """``POST /api/login``: a new token for a registered account."""
        self._limit(request)
        body = await self._body(request)
        token, account = await self._lobby.accounts.login(body.get("nickname"), body.get("password"))
        return self._session(token, account, 200)

    async def logout(self, request: Request) -> Response:
        """``POST /api/logout``: forget the bearer token."""
        await self._me(request)
        await self._lobby.accounts.logout(self._token(request))
        return JSONResponse({"ok": True})

    async def me(self, request: Request) -> Response:
        """``GET /api/me``: the bearer token's account."""
        return JSONResponse({"account": (await self._me(request)).to_json()})

    async def account(self, request: Request) -> Response:
        """``GET /api/accounts/{id}``."""
        account = await self._lobby.accounts.get(request.path_params["id"])
        if account is None:
            raise HttpError(404, "not_found", f"no account {request.path_params['id']}")
        return JSONResponse({"account": account.to_json()})

    async def account_hands(self, request: Request) -> Response:
        """``GET /api/accounts/{id}/hands``: the account's hands, newest first."""
        account_id: int = request.path_params["id"]
        try:
            limit = int(request.query_params.get("limit", "20"))
            before_text = request.query_params.get("before")
            before = int(before_text) if before_text else None
        except ValueError:
            raise HttpError(400, "bad_request", "limit and before must be integers") from None
        if not 1 <= limit <= HISTORY_LIMIT:
            raise HttpError(400, "bad_request", f"limit must be 1…{HISTORY_LIMIT}")
        if await self._lobby.accounts.get(account_id) is None:
            raise HttpError(404, "not_found", f"no account {account_id}")
        hands = await hands_of(self._lobby.db, account_id, limit, before)
        next_before = hands[-1]["id"] if len(hands) == limit else None
        return JSONResponse({"hands": hands, "next_before": next_before})

    async def hand(self, request: Request) -> Response:
        """``GET /api/hands/{id}``: a stored hand plus what a replay derives from it."""
        record = await get_hand(self._lobby.db, request.path_params["id"])
        if record is None:
            raise HttpError(404, "not_found", f"no hand {request.path_params['id']}")
        return JSONResponse({"hand": {**record, **record_details(record)}})

    async def tables(self, request: Request) -> Response:
        """``GET /api/tables``: the open tables."""
        return JSONResponse({"tables": self._lobby.table_list()})
