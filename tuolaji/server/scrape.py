"""``GET /metrics``: the node's figures for Prometheus, never for the public.

A request may read them when it comes from loopback or from an address in ``--metrics-allow-ips``,
or when it carries ``Authorization: Bearer`` with the token in ``--metrics-token-file``. Its address
is the one the trusted-proxy rule gives (``http_guard.TrustedProxies``): through a proxy in
``--forwarded-allow-ips`` it is the client's. A request that came through any other proxy (it
carries ``X-Forwarded-For`` or ``Forwarded`` from a peer that is not a trusted proxy) could be
anyone's, even from loopback, so only the token lets it in. Anything else is refused with 403 and
a message saying why and what would be let in.
"""

from __future__ import annotations

import hmac
import ipaddress
from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from tuolaji.server.http_guard import Network, TrustedProxies
from tuolaji.server.http_io import error_response
from tuolaji.server.metrics import Metrics

PATH: Final = "/metrics"
MIN_TOKEN_CHARS: Final = 16
FORWARDING_HEADERS: Final = (b"x-forwarded-for", b"forwarded")


def read_token(path: str) -> str:
    """The bearer token in the file ``path`` (surrounding whitespace dropped); ``ValueError`` naming
    the file if it cannot be read or the token is shorter than :data:`MIN_TOKEN_CHARS` or has spaces."""
    try:
        token = Path(path).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeError) as error:
        raise ValueError(f"{path!r}: cannot read the token ({error.__class__.__name__}: {error})") from None
    if len(token) < MIN_TOKEN_CHARS or any(char.isspace() for char in token):
        raise ValueError(f"{path!r}: the token must be one word of at least {MIN_TOKEN_CHARS} characters")
    return token


class Scrape:
    """The ``/metrics`` endpoint (an ASGI app) of ``metrics``, for requests as the class docstring
    of the module says; ``proxies`` is the node's trusted-proxy rule."""

    def __init__(
        self, metrics: Metrics, proxies: TrustedProxies, allowed: tuple[Network, ...], token: str | None
    ) -> None:
        self.metrics = metrics
        self.proxies = proxies
        self.allowed = allowed
        self._token = token.encode() if token is not None else None

    def refusal(self, scope: Scope) -> str | None:
        """Why the request of ``scope`` (as it reached the node, before the proxy rule) may not read
        the figures, or None if it may."""
        headers = scope.get("headers", ())
        if self._token is not None:
            given = next((value for name, value in headers if name == b"authorization"), b"")
            scheme, _, token = given.partition(b" ")
            if scheme.lower() == b"bearer" and hmac.compare_digest(token.strip(), self._token):
                return None
        wanted = "loopback, --metrics-allow-ips" + (" or the bearer token" if self._token is not None else "")
        peer = scope.get("client")
        forwarded = any(name in FORWARDING_HEADERS for name, _ in headers)
        if forwarded and (peer is None or not self.proxies.trusts(peer[0])):
            return (
                f"it came through a proxy that is not in --forwarded-allow-ips ({peer[0] if peer else 'unknown'}), "
                f"so its client is unknown; allowed: {wanted}"
            )
        client = self.proxies.client(scope).get("client")
        address = client[0] if client is not None else "unknown"
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return f"{address} is not allowed; allowed: {wanted}"
        if ip.is_loopback or any(ip in network for network in self.allowed):
            return None
        return f"{address} is not allowed; allowed: {wanted}"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = self.answer(Request(scope, receive))
        await response(scope, receive, send)

    def answer(self, request: Request) -> Response:
        """The answer to ``request``: the figures, or why not."""
        if request.method not in ("GET", "HEAD"):
            return error_response(405, "method_not_allowed", f"{PATH}: use GET", {"Allow": "GET, HEAD"})
        if not self.metrics.enabled:
            return error_response(404, "not_found", f"{PATH}: this node counts nothing (--no-metrics)")
        refusal = self.refusal(request.scope)
        if refusal is not None:
            return error_response(403, "forbidden", f"{PATH}: {refusal}")
        body, content_type = self.metrics.exposition(request.headers.get("accept", ""))
        return Response(body, headers={"Content-Type": content_type, "Cache-Control": "no-store"})
