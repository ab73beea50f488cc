"""What every HTTP endpoint shares: JSON errors, request bodies, ids in paths and numbers in queries,
bearer tokens, the client's address (docs/PROTOCOL.md §1)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tuolaji.store.accounts import AccountError
from tuolaji.wire.json_limits import JsonLimitError, load_json

MAX_BODY_BYTES: Final = 16 * 1024
BODY_SECONDS: Final = 10.0
"""How long a request body may take to arrive (a slow sender holds a connection no longer)."""
MAX_ID: Final = 2**31 - 1
"""Row ids are 32-bit integers (``Integer`` columns): a larger one names nothing."""
ERROR_STATUS: Final = {"nickname_taken": 409, "bad_credentials": 401, "busy": 503, "banned": 403}
"""The status of an ``AccountError`` by its code (400 for any other)."""

Handler = Callable[[Request], Awaitable[Response]]


class HttpError(Exception):
    """An HTTP error answer (``headers`` are added to it, e.g. ``Retry-After``; ``fields`` to its
    error object, e.g. a ban's ``reason`` and ``until``)."""

    def __init__(
        self,
        status: int,
        code: str,
        text: str,
        headers: dict[str, str] | None = None,
        fields: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(text)
        self.status, self.code, self.text, self.headers, self.fields = status, code, text, headers, fields


def error_response(
    status: int, code: str, text: str, headers: dict[str, str] | None = None, fields: dict[str, Any] | None = None
) -> JSONResponse:
    """``{"error": {"code", "message", ...fields}}`` with ``status``."""
    body = {"code": code, "message": text, **(fields or {})}
    return JSONResponse({"error": body}, status_code=status, headers=headers)


def guarded(handler: Handler) -> Handler:
    """``handler`` with its :class:`HttpError` and ``AccountError`` answered as JSON errors."""

    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except HttpError as error:
            return error_response(error.status, error.code, error.text, error.headers, error.fields)
        except AccountError as error:
            status = ERROR_STATUS.get(error.code, 400)
            headers = {"Retry-After": "1"} if status == 503 else None
            return error_response(status, error.code, str(error), headers, error.fields)

    return endpoint


def integer(text: str, largest: int) -> int | None:
    """``text`` as an integer 1…``largest`` if it is one (ASCII digits only), else None."""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(largest)):
        return None
    value = int(text)
    return value if 1 <= value <= largest else None


def path_id(text: str, what: str) -> int:
    """A row id from a path: 404 naming the input when it is not an id 1…``MAX_ID`` (no such row can exist)."""
    value = integer(text, MAX_ID)
    if value is None:
        raise HttpError(404, "not_found", f"no {what} {text[:40]!r}: {what} ids are integers 1…{MAX_ID}")
    return value


def query_int(request: Request, name: str, largest: int) -> int | None:
    """Query parameter ``name`` as an integer 1…``largest`` (None if absent); 400 naming it otherwise."""
    text = request.query_params.get(name)
    if not text:
        return None
    value = integer(text, largest)
    if value is None:
        raise HttpError(400, "bad_request", f"{name} must be an integer 1…{largest} (got {text[:40]!r})")
    return value


def _too_large() -> HttpError:
    """413; the connection closes after it, so the rest of the body is not read (nor parsed) at all."""
    return HttpError(413, "too_large", f"body over {MAX_BODY_BYTES} bytes", {"Connection": "close"})


async def read_body(request: Request, limit: int = MAX_BODY_BYTES) -> bytes:
    """The request's body, read as it arrives and refused (413) as soon as it passes ``limit`` bytes
    (at once when its ``Content-Length`` says so), so a huge body is never held; 408 if it does not
    arrive within :data:`BODY_SECONDS`."""
    declared = request.headers.get("content-length")
    if declared is not None and (not (declared.isascii() and declared.isdigit()) or int(declared) > limit):
        raise _too_large()
    raw = bytearray()
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                raw += chunk
                if len(raw) > limit:
                    raise _too_large()
    except TimeoutError:
        raise HttpError(408, "timeout", f"the body did not arrive within {BODY_SECONDS:g} s") from None
    return bytes(raw)


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object body (``{}`` when empty); 413 or 400 when it is not one."""
    raw = await read_body(request)
    if not raw.strip():
        return {}
    try:
        data = load_json(raw)
    except JsonLimitError as error:
        raise HttpError(400, "bad_request", f"the body: {error}") from None
    if not isinstance(data, dict):
        raise HttpError(400, "bad_request", "the body must be a JSON object")
    return data


def client_address(request: Request) -> str:
    """The client's address (the peer, or ``X-Forwarded-For`` from a trusted proxy only)."""
    return request.client.host if request.client is not None else "unknown"


def too_many(code: str, text: str, wait: float) -> HttpError:
    """A 429 answer saying when to retry (``Retry-After``)."""
    seconds = max(1, round(wait))
    return HttpError(429, code, f"{text}; retry in {seconds} s", {"Retry-After": str(seconds)})


def bearer_token(request: Request) -> str:
    """The ``Authorization: Bearer`` token; 401 without one."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HttpError(401, "auth_required", "send Authorization: Bearer <token>")
    return token.strip()
