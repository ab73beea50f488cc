"""Who the client is (trusted proxies only) and the security headers of every HTTP response.

:class:`TrustedProxies` replaces the ASGI scope's client address with the one a trusted reverse
proxy put in ``X-Forwarded-For``; from any other peer the header is ignored (so a client cannot
pick the address its rate limits are counted under). :class:`SecurityHeaders` adds a strict
Content Security Policy (no inline script or style, no framing) and its companions to every HTTP
response.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

CONTENT_SECURITY_POLICY: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""The browser client is plain ES modules and one stylesheet from this origin; the favicon is a
``data:`` image; the WebSocket is same-origin (``'self'`` covers ``ws:``/``wss:`` of this host)."""

SECURITY_HEADERS: Final = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
)


def parse_networks(specs: Iterable[str]) -> tuple[Network, ...]:
    """Addresses or CIDR networks (``10.0.0.1``, ``10.0.0.0/8``, ``::1``); ``ValueError`` naming a bad one."""
    networks = []
    for spec in specs:
        try:
            networks.append(ipaddress.ip_network(spec.strip(), strict=False))
        except ValueError:
            raise ValueError(f"--forwarded-allow-ips: {spec!r} is not an IP address or network") from None
    return tuple(networks)


def _trusted(host: str, networks: tuple[Network, ...]) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in network for network in networks)


class TrustedProxies:
    """The client address of a request, ``X-Forwarded-For`` believed from ``networks`` only.

    From a trusted peer, the header's addresses are read right to left (each proxy appends the
    address it saw) and the first one that is not itself a trusted proxy is the client.
    """

    def __init__(self, networks: tuple[Network, ...]) -> None:
        self.networks = networks

    def trusts(self, host: str) -> bool:
        """Whether the peer ``host`` is one of the trusted proxies."""
        return _trusted(host, self.networks)

    def client(self, scope: Scope) -> Scope:
        """``scope``, or a copy with ``client`` (and ``scheme`` from ``X-Forwarded-Proto``) replaced."""
        peer = scope.get("client")
        if not self.networks or peer is None or not _trusted(peer[0], self.networks):
            return scope
        forwarded = [value.decode("latin-1") for name, value in scope.get("headers", ()) if name == b"x-forwarded-for"]
        hops = [hop.strip() for line in forwarded for hop in line.split(",") if hop.strip()]
        client = next((hop for hop in reversed(hops) if not _trusted(hop, self.networks)), None)
        if client is None:
            return scope
        try:
            ipaddress.ip_address(client)
        except ValueError:
            return scope
        changed = {**scope, "client": (client, 0)}
        proto = next((value for name, value in scope.get("headers", ()) if name == b"x-forwarded-proto"), None)
        if proto is not None:
            scheme = proto.decode("latin-1").split(",")[-1].strip().lower()
            websocket = scope["type"] == "websocket"
            if scheme in ("http", "https"):
                changed["scheme"] = {"http": "ws", "https": "wss"}[scheme] if websocket else scheme
        return changed


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP response that lacks them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers.extend((name, value) for name, value in SECURITY_HEADERS if name not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
