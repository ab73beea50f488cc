"""Issue 46's attacks on accounts and private tables, each bounded, against a real server on 127.0.0.1.

Concurrent password guesses get no more checks than guesses one after another; look-alike and
invisible nicknames and common passwords are refused naming the rule; the hands of a private
table are shown to its players only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx

from tests.live_server import FAST_ARGS, LiveServer
from tests.server.scenario import FAST, close_all, wait_state
from tests.server.wsclient import Client

Factory = Callable[..., LiveServer]
UNLIMITED = ("--account-rate", "0")


async def test_twelve_concurrent_guesses_get_the_checks_of_five_in_a_row(live_server_factory: Factory) -> None:
    """12 wrong guesses at once at one nickname: 5 are checked (the 4 free failures and the one
    that locks), the other 7 are refused before any password check; then the right password is
    locked out too. Twelve at once at another account get the same."""
    server = live_server_factory(args=(*FAST_ARGS, *UNLIMITED))
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        for nickname in ("victim", "second"):
            made = await http.post("/api/register", json={"nickname": nickname, "password": "hunter22"})
            assert made.status_code == 201
        for nickname in ("victim", "SECOND"):
            answers = await asyncio.gather(
                *(http.post("/api/login", json={"nickname": nickname, "password": f"guess-{n}"}) for n in range(12))
            )
            codes = sorted(answer.status_code for answer in answers)
            assert codes == [401] * 5 + [429] * 7, codes
            assert {a.json()["error"]["code"] for a in answers if a.status_code == 429} == {"login_locked"}
            right = await http.post("/api/login", json={"nickname": nickname, "password": "hunter22"})
            assert right.status_code == 429 and right.json()["error"]["code"] == "login_locked"
    assert server.errors() == []


async def test_concurrent_right_passwords_log_in_up_to_the_free_failures(live_server_factory: Factory) -> None:
    """Six log-ins at once with the right password: five are checked and succeed (as many as the
    free failures plus one, since each might have failed); the sixth is asked to retry in 1 s."""
    server = live_server_factory(args=(*FAST_ARGS, *UNLIMITED))
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        assert (await http.post("/api/register", json={"nickname": "wendy", "password": "hunter22"})).status_code == 201
        answers = await asyncio.gather(
            *(http.post("/api/login", json={"nickname": "wendy", "password": "hunter22"}) for _ in range(6))
        )
        assert sorted(answer.status_code for answer in answers) == [200] * 5 + [429]
        refused = next(answer for answer in answers if answer.status_code == 429)
        assert refused.headers["retry-after"] == "1"
        again = await http.post("/api/login", json={"nickname": "wendy", "password": "hunter22"})
        assert again.status_code == 200
    assert server.errors() == []


async def test_look_alike_invisible_and_guest_nicknames_and_weak_passwords_are_refused(
    live_server_factory: Factory,
) -> None:
    """The issue's list, each registered beside ``alice`` before; now each is refused with its rule."""
    server = live_server_factory(args=(*FAST_ARGS, *UNLIMITED))
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        assert (await http.post("/api/register", json={"nickname": "alice", "password": "hunter22"})).status_code == 201
        expected = {
            "ali\u034fce": (400, "invisible"),
            "alice\ufe0f": (400, "invisible"),
            "alice\u3164": (400, "invisible"),
            "alice\u2800": (400, "invisible"),
            "ɑlice": (409, None),
            "ᴀlice": (409, None),
            "Ꭺlice": (400, "scripts"),
            "աlice": (400, "scripts"),
            "ɡuest-abc": (400, "guest"),
            "guest\u3164-abc": (400, "invisible"),
        }
        for nickname, (status, reason) in expected.items():
            answer = await http.post("/api/register", json={"nickname": nickname, "password": "hunter22"})
            assert answer.status_code == status, (nickname, answer.text)
            assert answer.json()["error"].get("reason") == reason, (nickname, answer.text)
        for password, reason in (("123456", "common"), (" " * 6, "blank"), ("\x00" * 6, "control")):
            answer = await http.post("/api/register", json={"nickname": "bob", "password": password})
            error = answer.json()["error"]
            assert (answer.status_code, error["code"], error["reason"]) == (400, "bad_password", reason)
            assert "password" in error["message"]
    assert server.errors() == []


async def test_hands_of_a_private_table_are_shown_to_its_players_only(live_server: LiveServer) -> None:
    """A private table's hand (an escape, stored at once): its players replay it with their token;
    anyone else, and anyone without a token, gets 404; profiles list it without the table's id."""
    host, friend, stranger = [await Client.open(live_server.url) for _ in range(3)]
    try:
        assert (await host.request("create_table", options=FAST, private=True, seat=0))["type"] == "ack"
        summary = (await host.wait_type("table"))["table"]
        table_id, code = summary["id"], summary["invite"]
        assert (await friend.request("join", table=table_id, seat=1, invite=code))["type"] == "ack"
        for seat in (2, 3):
            assert (await host.request("add_bot", seat=seat))["type"] == "ack"
        for client in (host, friend):
            assert (await client.request("start"))["type"] == "ack"
        await wait_state(host, lambda view: view["phase"] in ("bidding", "playing"))
        assert (await host.request("leave"))["type"] == "ack"
        assert (await friend.wait_type("hand_end"))["result"]["kind"] == "escape"
        async with httpx.AsyncClient(base_url=live_server.url) as http:

            def bearer(client: Client) -> dict[str, str]:
                return {"Authorization": f"Bearer {client.token}"}

            listed = (await http.get(f"/api/accounts/{host.account['id']}/hands")).json()["hands"]
            assert len(listed) == 1 and listed[0]["table_id"] is None and listed[0]["private"] is True
            recent = (await http.get(f"/api/accounts/{friend.account['id']}/profile")).json()["recent"]
            assert recent[0]["table_id"] is None
            hand_id = listed[0]["id"]
            for headers in ({}, bearer(stranger), {"Authorization": "Bearer not-a-token"}):
                answer = await http.get(f"/api/hands/{hand_id}", headers=headers)
                assert answer.status_code == 404, answer.text
                assert table_id not in answer.text
            for player in (host, friend):
                answer = await http.get(f"/api/hands/{hand_id}", headers=bearer(player))
                assert answer.status_code == 200, answer.text
                record = answer.json()["hand"]
                assert record["table_id"] == table_id and record["private"] is True and len(record["hands"]) == 4
    finally:
        await close_all([host, friend, stranger])
    assert live_server.errors() == []
