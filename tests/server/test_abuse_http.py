"""Issue 15's attacks on the HTTP side, each bounded, against a real server on 127.0.0.1.

Forged ``X-Forwarded-For``, password guessing, guest floods, oversized ids, text that is not
Unicode, argon2 floods, expired tokens; and the security headers on every response.
"""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from collections.abc import Callable

import httpx
import pytest

from tests.live_server import FAST_ARGS, REPO, LiveServer
from tests.server.wsclient import Client

Factory = Callable[..., LiveServer]


async def test_forged_forwarded_for_is_ignored_without_trusted_proxies(live_server_factory: Factory) -> None:
    """60 log-ins with 60 made-up addresses: all counted against 127.0.0.1 (30 a minute, bursts of 30)."""
    server = live_server_factory(args=FAST_ARGS)
    async with httpx.AsyncClient(base_url=server.url) as http:
        codes = []
        for number in range(60):
            answer = await http.post(
                "/api/login",
                json={"nickname": f"nobody{number}", "password": "password1"},
                headers={"X-Forwarded-For": f"198.51.100.{number}"},
            )
            codes.append(answer.status_code)
    assert codes[:30] == [401] * 30
    assert codes.count(429) >= 25
    assert server.errors() == []


async def test_forwarded_for_is_believed_from_a_trusted_proxy_only(live_server_factory: Factory) -> None:
    server = live_server_factory(args=(*FAST_ARGS, "--account-rate", "3", "--forwarded-allow-ips", "127.0.0.0/8"))
    async with httpx.AsyncClient(base_url=server.url) as http:

        async def login(forwarded: str) -> int:
            answer = await http.post(
                "/api/login",
                json={"nickname": "nobody", "password": "password1"},
                headers={"X-Forwarded-For": forwarded},
            )
            return answer.status_code

        assert [await login("203.0.113.7") for _ in range(4)] == [401, 401, 401, 429]
        assert await login("203.0.113.8") == 401  # another client behind the proxy
        # The proxy appends the address it saw: whatever the client wrote before it is not believed.
        assert await login("203.0.113.99, 203.0.113.7") == 429
        refused = await http.post("/api/login", json={}, headers={"X-Forwarded-For": "203.0.113.7"})
        assert "203.0.113.7" in refused.json()["error"]["message"]


async def test_failed_logins_lock_the_nickname_out(live_server_factory: Factory) -> None:
    """Four free failures; the fifth locks the nickname (and its look-alikes) for 30 s, even with the right password."""
    server = live_server_factory(args=(*FAST_ARGS, "--account-rate", "1000"))
    async with httpx.AsyncClient(base_url=server.url) as http:
        assert (await http.post("/api/register", json={"nickname": "carol", "password": "hunter22"})).status_code == 201
        assert (await http.post("/api/register", json={"nickname": "dave", "password": "hunter22"})).status_code == 201
        for _ in range(5):
            wrong = await http.post("/api/login", json={"nickname": "carol", "password": "guess-guess"})
            assert wrong.status_code == 401
        for nickname in ("carol", "CAROL", "сarol"):  # the last with a Cyrillic с
            locked = await http.post("/api/login", json={"nickname": nickname, "password": "hunter22"})
            assert locked.status_code == 429
            assert locked.json()["error"]["code"] == "login_locked"
            assert nickname in locked.json()["error"]["message"]
            assert 25 <= int(locked.headers["retry-after"]) <= 30
        assert (await http.post("/api/login", json={"nickname": "dave", "password": "hunter22"})).status_code == 200


async def test_guest_accounts_are_limited_per_address_per_hour(live_server_factory: Factory) -> None:
    server = live_server_factory(args=(*FAST_ARGS, "--guests-per-hour", "3"))
    async with httpx.AsyncClient(base_url=server.url) as http:
        made = [await http.post("/api/guest") for _ in range(3)]
        assert [answer.status_code for answer in made] == [201, 201, 201]
        refused = await http.post("/api/guest")
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
        assert "guest accounts from 127.0.0.1" in refused.json()["error"]["message"]
        assert int(refused.headers["retry-after"]) > 1000
        assert (await http.post("/api/register", json={"nickname": "erin", "password": "hunter22"})).status_code == 201


BIG = "99999999999999999999999"


@pytest.mark.parametrize(
    ("path", "status", "names"),
    [
        (f"/api/hands/{BIG}", 404, BIG),
        (f"/api/accounts/{BIG}", 404, BIG),
        (f"/api/accounts/{BIG}/hands", 404, BIG),
        ("/api/accounts/9223372036854775808", 404, "9223372036854775808"),
        ("/api/hands/2147483648", 404, "2147483648"),
        ("/api/hands/0", 404, "'0'"),
        ("/api/hands/abc", 404, "abc"),
        ("/api/hands/%EF%BC%91", 404, "１"),  # a fullwidth digit
        (f"/api/accounts/1/hands?before={BIG}", 400, "before"),
        (f"/api/accounts/1/hands?limit={BIG}", 400, "limit"),
        ("/api/accounts/1/hands?before=-5", 400, "before"),
        ("/api/accounts/1/hands?limit=" + "9" * 5000, 400, "limit"),
    ],
)
async def test_out_of_range_ids_are_404_or_400_naming_the_input(
    live_server: LiveServer, path: str, status: int, names: str
) -> None:
    async with httpx.AsyncClient(base_url=live_server.url) as http:
        await http.post("/api/guest")
        answer = await http.get(path)
    assert answer.status_code == status, answer.text
    assert names in answer.json()["error"]["message"]
    assert live_server.errors() == []


async def test_text_that_is_not_unicode_gets_a_clear_answer(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server.url) as http:
        login = await http.post("/api/login", content=b'{"nickname": "\\ud800x", "password": "hunter22"}')
        assert login.status_code == 400 and "lone surrogate" in login.json()["error"]["message"]
        register = await http.post("/api/register", content=b'{"nickname": "bob", "password": "hunter\\udc0022"}')
        assert register.status_code == 400 and "lone surrogate" in register.json()["error"]["message"]
        me = await http.get("/api/me", headers={b"Authorization": b"Bearer \xff\xfe"})
        assert me.status_code == 401
    assert live_server.errors() == []


async def test_every_response_carries_the_security_headers(live_server_factory: Factory) -> None:
    server = live_server_factory(args=(*FAST_ARGS, "--account-rate", "1"))
    async with httpx.AsyncClient(base_url=server.url) as http:
        answers = [
            await http.get("/"),
            await http.get("/static/app.js"),
            await http.get("/static/style.css"),
            await http.get("/api/health"),
            await http.get("/api/nothing-here"),
            await http.get("/api/hands/1"),
            await http.post("/api/guest"),
            await http.post("/api/guest"),  # 429
            await http.post("/api/health"),  # 405
        ]
    assert sorted({answer.status_code for answer in answers}) == [200, 201, 404, 405, 429]
    for answer in answers:
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert "server" not in answer.headers


async def test_password_checks_beyond_the_queue_answer_503_at_once(live_server_factory: Factory) -> None:
    """One argon2 thread and no queue: of 20 log-ins at once (5 at each of four accounts, as many
    as the log-in back-off lets run at once at one nickname) some are refused with 503 and
    ``Retry-After``, the others go through; the server stays well."""
    one_thread = ("--account-rate", "1000", "--hash-threads", "1", "--hash-queue", "0")
    server = live_server_factory(args=(*FAST_ARGS, *one_thread))
    names = [f"frank{n}" for n in range(4)]
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        for name in names:
            assert (
                await http.post("/api/register", json={"nickname": name, "password": "hunter22"})
            ).status_code == 201
        answers = await asyncio.gather(
            *(http.post("/api/login", json={"nickname": name, "password": "hunter22"}) for name in names * 5)
        )
        busy = [answer for answer in answers if answer.status_code == 503]
        assert busy and len(busy) < 20
        assert {answer.status_code for answer in answers} == {200, 503}
        assert all(a.json()["error"]["code"] == "busy" and a.headers["retry-after"] == "1" for a in busy)
        assert (await http.get("/api/health")).status_code == 200
    assert server.errors() == []


async def test_tokens_expire_after_session_days(live_server: LiveServer) -> None:
    """A token issued 31 days ago (the server default is 30) is refused over HTTP and WebSocket."""
    async with httpx.AsyncClient(base_url=live_server.url) as http:
        old = (await http.post("/api/guest")).json()["token"]
        fresh = (await http.post("/api/guest")).json()["token"]
        with sqlite3.connect(live_server.db_path) as db:
            db.execute("UPDATE sessions SET created_at = datetime('now', '-31 days') WHERE account_id = 1")
        assert (await http.get("/api/me", headers={"Authorization": f"Bearer {old}"})).status_code == 401
        assert (await http.get("/api/me", headers={"Authorization": f"Bearer {fresh}"})).status_code == 200
    client = await Client.open(live_server.url, token=old, hello=False)
    try:
        answer = await client.request("hello", token=old)
        assert answer["type"] == "error" and answer["code"] == "bad_token"
    finally:
        await client.close()


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("--session-days", "0", "must be above 0"),
        ("--guests-per-hour", "-1", "must be 0 or more"),
        ("--hash-queue", "x", "is not an integer"),
        ("--forwarded-allow-ips", "10.0.0.1,proxy.example", "'proxy.example' is not an IP address"),
    ],
)
def test_bad_options_are_refused_naming_them(option: str, value: str, says: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tuolaji.server", option, value],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert option in done.stderr and says in done.stderr
