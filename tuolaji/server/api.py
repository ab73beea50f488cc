"""HTTP/JSON endpoints: accounts and sessions, options, tables, account histories, profiles and hand
records, leaderboards.

See docs/PROTOCOL.md §1. Errors are ``{"error": {"code", "message"}}`` with a 4xx status.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tuolaji.bots import BOT_NAMES
from tuolaji.game.options import ILLEGAL_FOLLOW_MODES, PRESET_NAMES, TableOptions
from tuolaji.server.config import ServerConfig
from tuolaji.server.limits import KeyedLimiter, LoginBackoff
from tuolaji.server.lobby import Lobby
from tuolaji.server.replay import record_details
from tuolaji.store.accounts import AccountData, AccountError, BadCredentials, login_key, session_id
from tuolaji.store.leaderboard import BOARDS, PAGE_SIZE, PAGES, board_page, place_of
from tuolaji.store.profiles import profile
from tuolaji.store.records import get_hand, hands_of
from tuolaji.wire.inbound import PROTOCOL_VERSION

MAX_BODY_BYTES: Final = 16 * 1024
HISTORY_LIMIT: Final = 100
DEFAULT_HISTORY: Final = 20
MAX_ID: Final = 2**31 - 1
"""Row ids are 32-bit integers (``Integer`` columns): a larger one names nothing."""
ERROR_STATUS: Final = {"nickname_taken": 409, "bad_credentials": 401, "busy": 503}


class HttpError(Exception):
    """An HTTP error answer (``headers`` are added to it, e.g. ``Retry-After``)."""

    def __init__(self, status: int, code: str, text: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(text)
        self.status, self.code, self.text, self.headers = status, code, text, headers


def _error(status: int, code: str, text: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": text}}, status_code=status, headers=headers)


Handler = Callable[[Request], Awaitable[Response]]


def _integer(text: str, largest: int) -> int | None:
    """``text`` as an integer 1…``largest`` if it is one (ASCII digits only), else None."""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(largest)):
        return None
    value = int(text)
    return value if 1 <= value <= largest else None


def _id(text: str, what: str) -> int:
    """A row id from a path: 404 naming the input when it is not an id 1…``MAX_ID`` (no such row can exist)."""
    value = _integer(text, MAX_ID)
    if value is None:
        raise HttpError(404, "not_found", f"no {what} {text[:40]!r}: {what} ids are integers 1…{MAX_ID}")
    return value


class Api:
    """The HTTP endpoints; ``lobby`` is set by the app's lifespan before any request arrives.

    Per client address (the peer, or ``X-Forwarded-For`` from a trusted proxy only): account
    requests (``account_limiter``) and guest creation (``guest_limiter``, per hour). Per nickname:
    failed log-ins back off (``login_backoff``). ``on_logout(account_id, session_id)`` is called
    after a token is logged out, so the lobby can close the sockets opened with it.
    """

    def __init__(self, config: ServerConfig | None = None) -> None:
        config = config or ServerConfig()
        self.lobby: Lobby | None = None
        self.account_limiter: KeyedLimiter[str] = KeyedLimiter.per_minute(
            config.account_rate_per_minute, config.account_burst
        )
        self.guest_limiter: KeyedLimiter[str] = KeyedLimiter.per_hour(config.guests_per_hour)
        self.login_backoff = LoginBackoff()
        self.on_logout: Callable[[int, str], None] | None = None

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
            Route("/api/accounts/{id:str}", self._wrap(self.account)),
            Route("/api/accounts/{id:str}/hands", self._wrap(self.account_hands)),
            Route("/api/accounts/{id:str}/profile", self._wrap(self.account_profile)),
            Route("/api/leaderboard", self._wrap(self.leaderboard)),
            Route("/api/hands/{id:str}", self._wrap(self.hand)),
            Route("/api/tables", self._wrap(self.tables)),
        ]

    def _wrap(self, handler: Handler) -> Handler:
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)
            except HttpError as error:
                return _error(error.status, error.code, error.text, error.headers)
            except AccountError as error:
                status = ERROR_STATUS.get(error.code, 400)
                headers = {"Retry-After": "1"} if status == 503 else None
                return _error(status, error.code, str(error), headers)

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

    @staticmethod
    def _address(request: Request) -> str:
        return request.client.host if request.client is not None else "unknown"

    @staticmethod
    def _refuse(code: str, text: str, wait: float) -> HttpError:
        seconds = max(1, round(wait))
        return HttpError(429, code, f"{text}; retry in {seconds} s", {"Retry-After": str(seconds)})

    def _limit(self, request: Request) -> None:
        """Count an account request against the client's address; refuse it (429) over the limit."""
        address = self._address(request)
        wait = self.account_limiter.check(address, time.monotonic())
        if wait is not None:
            raise self._refuse("rate_limited", f"too many account requests from {address}", wait)

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
        """``POST /api/guest``: a new guest account and its token (a few per address per hour)."""
        self._limit(request)
        await self._body(request)
        address = self._address(request)
        wait = self.guest_limiter.check(address, time.monotonic())
        if wait is not None:
            raise self._refuse("rate_limited", f"too many guest accounts from {address} this hour", wait)
        token, account = await self._lobby.accounts.create_guest()
        return self._session(token, account, 201)

    async def register(self, request: Request) -> Response:
        """``POST /api/register``: a new account with a password."""
        self._limit(request)
        body = await self._body(request)
        token, account = await self._lobby.accounts.register(body.get("nickname"), body.get("password"))
        return self._session(token, account, 201)

    async def login(self, request: Request) -> Response:
        """``POST /api/login``: a new token for a registered account.

        After 4 failures in a row for a nickname (any look-alike of it counts the same), each further
        failure locks its log-in out for longer (``login_locked``, 429 with ``Retry-After``)."""
        self._limit(request)
        body = await self._body(request)
        nickname = body.get("nickname")
        key = login_key(nickname)
        if key is not None:
            wait = self.login_backoff.wait(key, time.monotonic())
            if wait > 0:
                raise self._refuse("login_locked", f"too many failed log-ins for {nickname!r}", wait)
        try:
            token, account = await self._lobby.accounts.login(nickname, body.get("password"))
        except BadCredentials:
            if key is not None:
                self.login_backoff.strike(key, time.monotonic())
            raise
        if key is not None:
            self.login_backoff.clear(key)
        return self._session(token, account, 200)

    async def logout(self, request: Request) -> Response:
        """``POST /api/logout``: forget the bearer token (and close the sockets opened with it)."""
        await self._me(request)
        token = self._token(request)
        account_id = await self._lobby.accounts.logout(token)
        if account_id is not None and self.on_logout is not None:
            self.on_logout(account_id, session_id(token))
        return JSONResponse({"ok": True})

    async def me(self, request: Request) -> Response:
        """``GET /api/me``: the bearer token's account."""
        return JSONResponse({"account": (await self._me(request)).to_json()})

    async def account(self, request: Request) -> Response:
        """``GET /api/accounts/{id}``."""
        account = await self._account(_id(request.path_params["id"], "account"))
        return JSONResponse({"account": account.to_json()})

    async def account_hands(self, request: Request) -> Response:
        """``GET /api/accounts/{id}/hands``: the account's hands, newest first."""
        account_id = _id(request.path_params["id"], "account")
        limit = self._query_int(request, "limit", HISTORY_LIMIT) or DEFAULT_HISTORY
        before = self._query_int(request, "before", MAX_ID)
        await self._account(account_id)
        hands = await hands_of(self._lobby.db, account_id, limit, before)
        next_before = hands[-1]["id"] if len(hands) == limit else None
        return JSONResponse({"hands": hands, "next_before": next_before})

    async def account_profile(self, request: Request) -> Response:
        """``GET /api/accounts/{id}/profile``: titles, balances, places, record per side, latest hands."""
        account = await self._account(_id(request.path_params["id"], "account"))
        return JSONResponse(await profile(self._lobby.db, account))

    async def _account(self, account_id: int) -> AccountData:
        account = await self._lobby.accounts.get(account_id)
        if account is None:
            raise HttpError(404, "not_found", f"no account {account_id}")
        return account

    async def leaderboard(self, request: Request) -> Response:
        """``GET /api/leaderboard?by=points|silver&page=1``: a page of the top 100 registered accounts
        and, with a bearer token, the viewer's own place (null for a guest)."""
        board = request.query_params.get("by") or BOARDS[0]
        if board not in BOARDS:
            raise HttpError(400, "bad_request", f"by must be one of {', '.join(BOARDS)} (got {board[:40]!r})")
        page = self._query_int(request, "page", PAGES) or 1
        db = self._lobby.db

        async def mine() -> dict[str, Any] | None:
            if "authorization" not in request.headers:
                return None
            viewer = await self._me(request)
            return {"place": await place_of(db, board, viewer), "account": viewer.to_json()}

        # The page and the viewer's place are read side by side (two connections), not one after the other.
        entries, me = await asyncio.gather(board_page(db, board, page), mine())
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

    @staticmethod
    def _query_int(request: Request, name: str, largest: int) -> int | None:
        """Query parameter ``name`` as an integer 1…``largest`` (None if absent); 400 naming it otherwise."""
        text = request.query_params.get(name)
        if not text:
            return None
        value = _integer(text, largest)
        if value is None:
            raise HttpError(400, "bad_request", f"{name} must be an integer 1…{largest} (got {text[:40]!r})")
        return value

    async def hand(self, request: Request) -> Response:
        """``GET /api/hands/{id}``: a stored hand plus what a replay derives from it."""
        hand_id = _id(request.path_params["id"], "hand")
        record = await get_hand(self._lobby.db, hand_id)
        if record is None:
            raise HttpError(404, "not_found", f"no hand {hand_id}")
        return JSONResponse({"hand": {**record, **record_details(record)}})

    async def tables(self, request: Request) -> Response:
        """``GET /api/tables``: the open tables."""
        return JSONResponse({"tables": self._lobby.table_list()})
