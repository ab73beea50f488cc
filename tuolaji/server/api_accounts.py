"""The account endpoints: guests, registration, log-in, log-out, the bearer's own account.

Per client address (the peer, or ``X-Forwarded-For`` from a trusted proxy only): account requests
(``account_limiter``) and guest creation (``guest_limiter``, per hour). Per nickname: failed log-ins
back off (``login_backoff``), each attempt reserved before its password is checked. A log-out
closes, on every node, the sockets opened with its token. A banned account's log-in, its tokens and
the guests its browser would make are refused (403 ``banned``, why and until when).
"""

from __future__ import annotations

import time

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tuolaji.server.http_io import HttpError, bearer_token, client_address, json_body, too_many
from tuolaji.server.limits import KeyedLimiter, LoginBackoff
from tuolaji.server.services import Services
from tuolaji.store.accounts import AccountData, BadCredentials, BadNickname, BadPassword, login_key, session_id
from tuolaji.store.roles import role_of


class AccountsApi:
    """``/api/guest``, ``/api/register``, ``/api/login``, ``/api/logout``, ``/api/me``."""

    def __init__(self, services: Services) -> None:
        config = services.config
        self.accounts = services.accounts
        self.bus = services.bus
        self.metrics = services.metrics
        self.account_limiter: KeyedLimiter[str] = KeyedLimiter.per_minute(
            config.account_rate_per_minute, config.account_burst
        )
        self.guest_limiter: KeyedLimiter[str] = KeyedLimiter.per_hour(config.guests_per_hour)
        self.login_backoff = LoginBackoff()

    def _limit(self, request: Request) -> None:
        """Count an account request against the client's address; refuse it (429) over the limit."""
        address = client_address(request)
        wait = self.account_limiter.check(address, time.monotonic())
        if wait is not None:
            self.metrics.refused("accounts")
            raise too_many("rate_limited", f"too many account requests from {address}", wait)

    async def bearer(self, request: Request) -> AccountData:
        """The account of the request's bearer token; 401 without a valid one, 403 ``banned`` when a
        ban is in force on it."""
        account = await self.accounts.by_token(bearer_token(request))
        if account is None:
            raise HttpError(401, "auth_required", "unknown or logged-out token")
        await self.accounts.check_not_banned(account.id)
        return account

    @staticmethod
    def _session(token: str, account: AccountData, status: int) -> JSONResponse:
        return JSONResponse({"token": token, "account": account.to_json()}, status_code=status)

    async def guest(self, request: Request) -> Response:
        """``POST /api/guest``: a new guest account and its token (a few per address per hour)."""
        self._limit(request)
        await json_body(request)
        if "authorization" in request.headers:
            # A browser that holds a banned account's token makes no guest to play on with.
            holder = await self.accounts.by_token(bearer_token(request))
            if holder is not None:
                await self.accounts.check_not_banned(holder.id)
        address = client_address(request)
        wait = self.guest_limiter.check(address, time.monotonic())
        if wait is not None:
            self.metrics.refused("guests")
            raise too_many("rate_limited", f"too many guest accounts from {address} this hour", wait)
        token, account = await self.accounts.create_guest()
        return self._session(token, account, 201)

    async def register(self, request: Request) -> Response:
        """``POST /api/register``: a new account with a password; a refused nickname or password
        names the rule it breaks (``reason``)."""
        self._limit(request)
        body = await json_body(request)
        try:
            token, account = await self.accounts.register(body.get("nickname"), body.get("password"))
        except (BadNickname, BadPassword) as error:
            refusal = {"code": error.code, "message": str(error), "reason": error.reason}
            return JSONResponse({"error": refusal}, status_code=400)
        return self._session(token, account, 201)

    async def login(self, request: Request) -> Response:
        """``POST /api/login``: a new token for a registered account.

        After 4 failures in a row for a nickname (any look-alike of it counts the same), each further
        failure locks its log-in out for longer (``login_locked``, 429 with ``Retry-After``). The
        attempt is reserved before the password is checked, so concurrent guesses wait their turn."""
        self._limit(request)
        body = await json_body(request)
        nickname = body.get("nickname")
        key = login_key(nickname)
        if key is None:
            return await self._login(nickname, body.get("password"))
        wait = self.login_backoff.reserve(key, time.monotonic())
        if wait > 0:
            self.metrics.refused("logins")
            raise too_many("login_locked", f"too many failed log-ins for {nickname!r}", wait)
        try:
            response = await self._login(nickname, body.get("password"))
        except BadCredentials as error:
            self.login_backoff.failed(key, time.monotonic(), account=error.account)
            raise
        except BaseException:
            self.login_backoff.release(key)
            raise
        self.login_backoff.succeeded(key)
        return response

    async def _login(self, nickname: object, password: object) -> Response:
        token, account = await self.accounts.login(nickname, password)
        return self._session(token, account, 200)

    async def logout(self, request: Request) -> Response:
        """``POST /api/logout``: forget the bearer token (and close the sockets opened with it; a
        banned account may log out too)."""
        token = bearer_token(request)
        if await self.accounts.by_token(token) is None:
            raise HttpError(401, "auth_required", "unknown or logged-out token")
        account_id = await self.accounts.logout(token)
        if account_id is not None:
            self.bus.logout(account_id, session_id(token))
        return JSONResponse({"ok": True})

    async def me(self, request: Request) -> Response:
        """``GET /api/me``: the bearer token's account and its role in the moderators' console (null: a player)."""
        account = await self.bearer(request)
        return JSONResponse({"account": account.to_json(), "role": await role_of(self.accounts.db, account.id)})
