"""HTTP endpoints: health, options, guest / register / login / logout / me, errors, rate limits, static files."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from tests.live_server import FAST_ARGS, LiveServer


async def test_accounts_over_http(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server.url) as http:
        health = (await http.get("/api/health")).json()
        assert {key: health[key] for key in ("ok", "protocol", "bus", "up")} == {
            "ok": True,
            "protocol": 2,
            "bus": "local",
            "up": True,
        }
        options = (await http.get("/api/options")).json()
        assert options["defaults"]["preset"] == "nanning"
        assert options["bots"] == ["random", "heuristic", "search"]

        guest = await http.post("/api/guest")
        assert guest.status_code == 201
        account = guest.json()["account"]
        assert account["guest"] and account["nickname"].startswith("guest-")
        assert (account["points"], account["silver"]) == (0, 1000)
        assert account["rank"] == {"title": "布衣", "base": 1}
        assert account["wealth"] == {"title": "助理主管", "base": 8}

        made = await http.post("/api/register", json={"nickname": "Alice", "password": "hunter22"})
        assert made.status_code == 201
        token = made.json()["token"]
        taken = await http.post("/api/register", json={"nickname": "alice", "password": "hunter22"})
        assert taken.status_code == 409 and taken.json()["error"]["code"] == "nickname_taken"
        short = await http.post("/api/register", json={"nickname": "bob", "password": "123"})
        assert short.status_code == 400 and short.json()["error"]["code"] == "bad_password"
        reserved = await http.post("/api/register", json={"nickname": "guest-x", "password": "123456"})
        assert reserved.json()["error"]["code"] == "bad_nickname"
        garbage = await http.post("/api/register", content=b"{not json")
        assert garbage.status_code == 400 and garbage.json()["error"]["code"] == "bad_request"

        wrong = await http.post("/api/login", json={"nickname": "Alice", "password": "nope-nope"})
        assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "bad_credentials"
        login = await http.post("/api/login", json={"nickname": "ALICE", "password": "hunter22"})
        assert login.status_code == 200
        second = login.json()["token"]
        assert second != token

        auth = {"Authorization": f"Bearer {token}"}
        me = await http.get("/api/me", headers=auth)
        assert me.json()["account"]["nickname"] == "Alice"
        assert (await http.get(f"/api/accounts/{me.json()['account']['id']}")).json()["account"]["id"] == me.json()[
            "account"
        ]["id"]
        assert (await http.post("/api/logout", headers=auth)).json() == {"ok": True}
        assert (await http.get("/api/me", headers=auth)).status_code == 401
        assert (await http.get("/api/me", headers={"Authorization": f"Bearer {second}"})).status_code == 200
        assert (await http.get("/api/me")).json()["error"]["code"] == "auth_required"

        assert (await http.get("/api/hands/999")).status_code == 404
        assert (await http.get("/api/accounts/999")).status_code == 404
        assert (await http.get("/api/accounts/1/hands?limit=0")).status_code == 400
        assert (await http.get("/api/accounts/1/hands?limit=x")).status_code == 400
        assert (await http.get("/api/accounts/1/hands")).json() == {"hands": [], "next_before": None}
        assert (await http.get("/api/tables")).json() == {"tables": []}


async def test_serves_the_browser_client(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server.url) as http:
        index = await http.get("/")
        assert index.status_code == 200 and "<html" in index.text.lower()
        script = await http.get("/static/cards.js")
        assert script.status_code == 200 and "javascript" in script.headers["content-type"]
        assert (await http.get("/cards.js")).status_code == 200
        assert (await http.get("/static/nope.js")).status_code == 404


async def test_account_requests_are_rate_limited_per_address(
    live_server_factory: Callable[..., LiveServer],
) -> None:
    server = live_server_factory(args=(*FAST_ARGS, "--account-rate", "3"))
    async with httpx.AsyncClient(base_url=server.url) as http:
        made = await http.post("/api/register", json={"nickname": "carol", "password": "hunter22"})
        assert made.status_code == 201
        assert (await http.post("/api/guest")).status_code == 201
        assert (await http.post("/api/login", json={"nickname": "carol", "password": "hunter22"})).status_code == 200
        for path, body in (("/api/guest", {}), ("/api/login", {"nickname": "carol", "password": "hunter22"})):
            refused = await http.post(path, json=body)
            assert refused.status_code == 429, path
            assert refused.json()["error"]["code"] == "rate_limited"
            assert int(refused.headers["retry-after"]) >= 1
        # Other endpoints are not counted, and the refusals changed nothing.
        assert (await http.get("/api/health")).status_code == 200
        token = made.json()["token"]
        me = await http.get("/api/me", headers={"Authorization": f"Bearer {token}"})
        assert me.json()["account"]["nickname"] == "carol"
