"""The moderators' console's HTTP API on a real server (issue 43): every console endpoint refused to
players, guests and the token-less, saying which rule; a moderator who may not correct balances or
drain nodes; an admin's correction through the ledger, which ``tuolaji admin audit`` then finds
sound; an audit no endpoint can change; bans that shut the account out (sign-in, tokens, a guest
from its browser, its open socket) with the reason and the end; a mute that silences phrases."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.live_server import REPO, LiveServer
from tests.server.wsclient import Client
from tuolaji.server.api import ROUTES

PASSWORD = "tractor-77"


def admin_cli(server: LiveServer, *args: str) -> subprocess.CompletedProcess[str]:
    """``tuolaji admin ARGS --db`` the server's database (the real command line)."""
    command = [sys.executable, "-m", "tuolaji.cli", "admin", *args, "--db", server.db_url]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=60, check=False)


async def register(http: httpx.AsyncClient, nickname: str) -> tuple[str, int]:
    answer = await http.post("/api/register", json={"nickname": nickname, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    return body["token"], body["account"]["id"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def console_routes(node: str) -> list[tuple[str, str]]:
    """Every console endpoint (method, path with its parameters filled in), from the server's own table."""
    found = []
    for path, name, methods in ROUTES:
        if name.startswith("console_"):
            filled = path.replace("{id:str}", "1").replace("{node:str}", node)
            found += [(method, filled) for method in methods]
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One node for the module (each test makes accounts of its own)."""
    args = ("--bot-delay", "0", "--log-level", "info", "--node-name", "solo")
    with LiveServer(tmp_path_factory.mktemp("console-api") / "db.sqlite3", args) as server:
        yield server


@pytest.fixture(scope="module")
def staff(server: LiveServer) -> dict[str, str]:
    """The tokens of a moderator (``mod``) and an admin (``boss``), their roles given by ``tuolaji admin grant``;
    ``granted`` is what the command printed for the admin."""
    tokens = {}
    for nickname, role in (("mod", "moderator"), ("boss", "admin")):
        answer = httpx.post(f"{server.url}/api/register", json={"nickname": nickname, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        tokens[nickname] = answer.json()["token"]
        done = admin_cli(server, "grant", nickname, "--role", role)
        assert done.returncode == 0, done.stderr
        tokens["granted"] = done.stdout
    return tokens


async def test_every_console_endpoint_is_refused_to_players_guests_and_the_tokenless(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        player, _ = await register(http, "player1")
        guest = (await http.post("/api/guest")).json()["token"]
        routes = console_routes("solo")
        assert len(routes) == 16
        for method, path in routes:
            body: dict[str, Any] | None = {} if method == "POST" else None
            anonymous = await http.request(method, path, json=body)
            assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "auth_required", path
            for token in (player, guest):
                refused = await http.request(method, path, json=body, headers=bearer(token))
                assert refused.status_code == 403, (method, path, refused.text)
                error = refused.json()["error"]
                assert error["code"] == "forbidden" and error["needs"] == "moderator"
                assert "moderator or admin role" in error["message"] and "players and guests" in error["message"]
        me = (await http.get("/api/me", headers=bearer(player))).json()
        assert me["role"] is None


async def test_a_moderator_may_not_correct_balances_or_drain_an_admin_may(
    server: LiveServer, staff: dict[str, str]
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        mod, boss = staff["mod"], staff["boss"]
        boss_id = (await http.get("/api/me", headers=bearer(boss))).json()["account"]["id"]
        _, player_id = await register(http, "player2")
        assert re.fullmatch(r"boss \(account \d+\): player -> admin\n", staff["granted"])
        refused = admin_cli(server, "grant", "nobody", "--role", "admin")
        assert refused.returncode == 2 and "no account named 'nobody'" in refused.stderr
        assert (await http.get("/api/me", headers=bearer(mod))).json()["role"] == "moderator"
        correction = {"points": 5, "silver": 120, "reason": "lost in the crash of 12 May"}
        path = f"/api/console/accounts/{player_id}/correct"
        refused_mod = await http.post(path, json=correction, headers=bearer(mod))
        assert refused_mod.status_code == 403
        assert refused_mod.json()["error"] == {
            "code": "forbidden",
            "message": "correcting a balance needs the admin role (a moderator may not)",
            "needs": "admin",
        }
        drain = await http.post("/api/console/nodes/solo/drain", json={}, headers=bearer(mod))
        assert drain.status_code == 403 and drain.json()["error"]["needs"] == "admin"
        no_reason = await http.post(path, json={"silver": 5}, headers=bearer(boss))
        assert no_reason.status_code == 400 and "reason is required" in no_reason.json()["error"]["message"]
        done = await http.post(path, json=correction, headers=bearer(boss))
        assert done.status_code == 200, done.text
        assert done.json()["account"]["silver"] == 1120 and done.json()["line"]["reason"] == correction["reason"]
        detail = (await http.get(f"/api/console/accounts/{player_id}", headers=bearer(mod))).json()
        assert detail["ledger"][0]["cause"] == "correction" and detail["ledger"][0]["actor_id"] == boss_id
        assert [entry["action"] for entry in detail["audit"]] == ["correct"]
    audit = admin_cli(server, "audit")
    assert audit.returncode == 0, audit.stdout
    assert "sound: every balance equals its ledger" in audit.stdout
    assert re.search(r"correction\s+積分 \+5\s+silver \+120", audit.stdout)


async def test_no_endpoint_edits_or_deletes_the_audit(server: LiveServer) -> None:
    assert [(path, methods) for path, name, methods in ROUTES if "audit" in path] == [("/api/console/audit", ("GET",))]
    async with httpx.AsyncClient(base_url=server.url) as http:
        boss, _ = await register(http, "boss2")
        assert admin_cli(server, "grant", "boss2", "--role", "admin").returncode == 0
        sent = await http.post("/api/console/notice", json={"kind": "maintenance", "minutes": 5}, headers=bearer(boss))
        assert sent.status_code == 200
        before = (await http.get("/api/console/audit", headers=bearer(boss))).json()["entries"]
        assert [entry["action"] for entry in before[:2]] == ["notice", "grant"]
        for method in ("PUT", "PATCH", "DELETE", "POST"):
            for path in ("/api/console/audit", f"/api/console/audit/{before[0]['id']}"):
                tried = await http.request(method, path, json={"actor": "nobody"}, headers=bearer(boss))
                assert tried.status_code in (404, 405), (method, path, tried.status_code)
        after = (await http.get("/api/console/audit", headers=bearer(boss))).json()["entries"]
        assert after == before


async def test_a_ban_shuts_the_account_out_with_its_reason_and_end(server: LiveServer, staff: dict[str, str]) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        mod = staff["mod"]
        token, player_id = await register(http, "cheater3")
        client = await Client.open(server.url, token=token)
        ban = {"reason": "cheating", "note": "two accounts at one table", "minutes": 60}
        banned = await http.post(f"/api/console/accounts/{player_id}/ban", json=ban, headers=bearer(mod))
        assert banned.status_code == 200 and banned.json()["told"] is True
        until = banned.json()["sanction"]["until"]
        shut = await client.wait(lambda m: m["type"] == "error" and m["code"] == "banned")
        assert shut["params"]["reason"] == "cheating" and shut["params"]["until"][:16] == until[:16]
        assert await client.closed_with() == 4005
        login = await http.post("/api/login", json={"nickname": "cheater3", "password": PASSWORD})
        assert login.status_code == 403
        error = login.json()["error"]
        assert error["code"] == "banned" and error["reason"] == "cheating" and error["until"][:16] == until[:16]
        assert (await http.get("/api/me", headers=bearer(token))).status_code == 403
        guest = await http.post("/api/guest", headers=bearer(token))
        assert guest.status_code == 403 and guest.json()["error"]["code"] == "banned"
        again = await Client.open(server.url, token=token, hello=False)
        await again.send("hello", token=token)
        assert (await again.wait_type("error"))["code"] == "banned"
        assert await again.closed_with() == 4005
        lifted = await http.post(
            f"/api/console/accounts/{player_id}/unban", json={"note": "appeal"}, headers=bearer(mod)
        )
        assert lifted.status_code == 200
        assert (await http.post("/api/login", json={"nickname": "cheater3", "password": PASSWORD})).status_code == 200
        twice = await http.post(f"/api/console/accounts/{player_id}/unban", json={}, headers=bearer(mod))
        assert twice.status_code == 409


async def test_a_muted_player_says_no_phrase_and_is_told_until_when(server: LiveServer, staff: dict[str, str]) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        mod = staff["mod"]
        token, player_id = await register(http, "loud4")
        client = await Client.open(server.url, token=token)
        assert (await client.request("play_now", bot="random"))["type"] == "ack"
        assert (await client.request("phrase", phrase="hello"))["type"] == "ack"
        mute = {"reason": "abuse", "minutes": 30}
        assert (
            await http.post(f"/api/console/accounts/{player_id}/mute", json=mute, headers=bearer(mod))
        ).status_code == 200
        refused = await client.request("phrase", phrase="hurry")  # one node: the order is carried out at once
        assert refused["code"] == "muted" and refused["params"]["reason"] == "abuse" and refused["params"]["until"]
        lifted = await http.post(f"/api/console/accounts/{player_id}/unmute", json={}, headers=bearer(mod))
        assert lifted.status_code == 200
        assert (await client.request("phrase", phrase="thanks"))["type"] == "ack"
        await client.close()
