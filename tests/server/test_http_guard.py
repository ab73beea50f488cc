"""Which client address a request has: ``X-Forwarded-For`` is believed from trusted proxies only."""

from __future__ import annotations

from typing import Any

import pytest

from tuolaji.server.http_guard import TrustedProxies, parse_networks


def scope(peer: str, *headers: tuple[bytes, bytes], kind: str = "http") -> dict[str, Any]:
    return {"type": kind, "client": (peer, 5000), "scheme": "http", "headers": list(headers)}


PROXIES = TrustedProxies(parse_networks(["10.0.0.0/8", "::1"]))


@pytest.mark.parametrize(
    ("peer", "forwarded", "client"),
    [
        ("10.1.2.3", b"203.0.113.5", "203.0.113.5"),
        ("::1", b"2001:db8::7", "2001:db8::7"),
        ("10.1.2.3", b"198.51.100.1, 203.0.113.5, 10.9.9.9", "203.0.113.5"),  # right to left, past proxies
        ("203.0.113.9", b"198.51.100.1", "203.0.113.9"),  # not a proxy: the header is ignored
        ("10.1.2.3", b"unknown", "10.1.2.3"),  # not an address: the peer stays
        ("10.1.2.3", b"10.0.0.1, 10.0.0.2", "10.1.2.3"),  # only proxies: the peer stays
    ],
)
def test_the_client_is_the_last_address_before_the_trusted_proxies(peer: str, forwarded: bytes, client: str) -> None:
    assert PROXIES.client(scope(peer, (b"x-forwarded-for", forwarded)))["client"][0] == client


def test_no_trusted_proxies_means_the_header_is_ignored() -> None:
    original = scope("127.0.0.1", (b"x-forwarded-for", b"198.51.100.1"))
    assert TrustedProxies(()).client(original) is original


def test_forwarded_proto_sets_the_scheme_of_http_and_websocket() -> None:
    headers = ((b"x-forwarded-for", b"203.0.113.5"), (b"x-forwarded-proto", b"https"))
    assert PROXIES.client(scope("10.0.0.1", *headers))["scheme"] == "https"
    assert PROXIES.client(scope("10.0.0.1", *headers, kind="websocket"))["scheme"] == "wss"


def test_bad_networks_are_named() -> None:
    with pytest.raises(ValueError, match=r"'proxy\.example' is not an IP address"):
        parse_networks(["10.0.0.1", "proxy.example"])
