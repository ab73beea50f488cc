"""Private tables and quick phrases over real WebSockets (issue 17): a private table is in no lobby
list, is watched or joined only through its invite code (which no table id or guess opens), keeps
all that across a restart, and its creator can list it; phrases reach the table, spectators only
listen, and a flood is cut short."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

import httpx

from tests.live_server import LiveServer
from tests.server.scenario import FAST
from tests.server.wsclient import Client, Message
from tuolaji.room.phrases import PHRASES

CODE = re.compile(r"^[A-Za-z0-9_-]{16,}$")
"""An invite code: URL-safe, at least 16 characters (96 random bits)."""


def table_of(message: Message) -> bool:
    return bool(message["type"] == "table")


async def listed(server: LiveServer) -> list[str]:
    async with httpx.AsyncClient(base_url=server.url) as http:
        return [table["id"] for table in (await http.get("/api/tables")).json()["tables"]]


async def invitation(server: LiveServer, code: str) -> tuple[int, object]:
    """``GET /api/invites/{code}``: the status and, when found, the body."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        answer = await http.get(f"/api/invites/{code}")
        return answer.status_code, answer.json() if answer.status_code == 200 else answer.json()["error"]["code"]


async def test_a_private_table_opens_only_with_its_invite_code_even_after_a_restart(
    tmp_path: Path, live_server_factory: Callable[..., LiveServer]
) -> None:
    db = tmp_path / "room.sqlite3"
    server = live_server_factory(db_path=db)
    lobby, host, friend, stranger, public = [await Client.open(server.url) for _ in range(5)]
    clients = [lobby, host, friend, stranger, public]
    try:
        assert (await lobby.request("lobby", on=True))["type"] == "ack"
        assert (await lobby.wait_type("lobby"))["tables"] == []
        assert (await host.request("create_table", options=FAST, private=True))["type"] == "ack"
        summary = (await host.wait(table_of))["table"]
        table_id, code = summary["id"], summary["invite"]
        assert summary["private"] and summary["creator"] == host.account["id"]
        assert CODE.match(code) and table_id not in code
        # A second private table gets another code.
        assert (await public.request("create_table", options=FAST, private=True))["type"] == "ack"
        other = (await public.wait(table_of))["table"]
        assert other["invite"] != code and CODE.match(other["invite"])
        assert (summary["number"], other["number"]) == (1, 2)  # 第 1 桌, 第 2 桌
        assert (await public.request("leave"))["type"] == "ack"
        # The landing page of an invite link learns who invites to which table, with the code only.
        assert await invitation(server, code) == (200, {"number": 1, "inviter": host.account["nickname"]})
        for guess in (table_id, code[:-1], other["invite"], "not a code!", "x" * 65):
            assert (await invitation(server, guess))[0] == 404, guess  # table 2 closed when it emptied
        # By its id, or by guesses, the stranger gets nowhere.
        for kind, fields in (("watch", {"table": table_id}), ("join", {"table": table_id, "seat": 1})):
            refused = await stranger.request(kind, **fields)
            assert (refused["code"], refused["params"]) == ("private_table", {"table": table_id}), refused
        for guess in (table_id, code[:-1], code.upper() if code.upper() != code else code.lower(), "x" * 16):
            refused = await stranger.request("watch", invite=guess)
            assert refused["code"] == "bad_invite", (guess, refused)
        refused = await stranger.request(
            "join", table=table_id, seat=1, invite=code[:-1] + ("A" if code[-1] != "A" else "B")
        )
        assert refused["code"] == "private_table"
        refused = await stranger.request("join", table=table_id, seat=1, invite=code[:-1] + "!")
        assert (refused["code"], refused["params"]["field"]) == ("bad_message", "invite"), refused
        refused = await stranger.request("watch")
        assert refused["code"] == "bad_message" and refused["params"]["field"] == "table"
        # With the code, a friend watches, then sits down.
        assert (await friend.request("watch", invite=code))["type"] == "ack"
        assert (await friend.wait(table_of))["seat"] is None
        assert (await friend.request("join", table=table_id, seat=2))["type"] == "ack"
        seated = await friend.wait(lambda m: m["type"] == "table" and m["seat"] == 2)
        assert seated["table"]["seats"][2]["account"]["id"] == friend.account["id"]
        # A public table shows up in the lobby; the private one never did.
        assert (await public.request("create_table", options=FAST))["type"] == "ack"
        shown = await lobby.wait(lambda m: m["type"] == "lobby_table" and m["table"]["seats"][0]["kind"] == "human")
        public_id = shown["table"]["id"]
        assert not shown["table"]["private"] and shown["table"]["invite"] is None
        assert shown["table"]["number"] == 2  # the smallest number no open table holds
        assert await listed(server) == [public_id]
        assert table_id not in str(lobby.log) and code not in str(lobby.log) and other["id"] not in str(lobby.log)
        server.stop()  # a restart while they sit (leaving first would close the waiting table)
    finally:
        for client in clients:
            await client.close()

    # After a restart the table is restored from its log: still private, still opened by the code.
    assert server.errors() == []
    server = live_server_factory(db_path=db)
    stranger, friend = await Client.open(server.url), await Client.open(server.url)
    try:
        assert (await stranger.request("watch", table=table_id))["code"] == "private_table"
        assert (await friend.request("watch", invite=code))["type"] == "ack"
        again = (await friend.wait(table_of))["table"]
        assert again["id"] == table_id and again["private"] and again["invite"] == code and again["number"] == 1
        assert await invitation(server, code) == (200, {"number": 1, "inviter": host.account["nickname"]})
        assert table_id not in await listed(server)
    finally:
        await stranger.close()
        await friend.close()
    assert server.errors() == []


async def test_the_creator_lists_the_table_and_phrases_reach_it(
    live_server_factory: Callable[..., LiveServer],
) -> None:
    server = live_server_factory()
    lobby, host, friend, watcher = [await Client.open(server.url) for _ in range(4)]
    try:
        assert (await lobby.request("lobby", on=True))["type"] == "ack"
        assert (await host.request("create_table", options=FAST, private=True))["type"] == "ack"
        summary = (await host.wait(table_of))["table"]
        table_id, code = summary["id"], summary["invite"]
        assert (await friend.request("join", table=table_id, seat=1, invite=code))["type"] == "ack"
        assert (await watcher.request("watch", invite=code))["type"] == "ack"

        # Quick phrases: everyone at the table hears a seated person; spectators only listen.
        assert (await host.request("phrase", phrase="thanks"))["type"] == "ack"
        for client in (host, friend, watcher):
            said = await client.wait(lambda m: m["type"] == "phrase")
            assert said == {
                "v": 2,
                "type": "phrase",
                "table_id": table_id,
                "seat": 0,
                "account": host.account["id"],
                "phrase": "thanks",
            }
        refused = await watcher.request("phrase", phrase="hurry")
        assert refused["code"] == "not_seated"
        refused = await friend.request("phrase", phrase="你好")
        assert refused["code"] == "bad_message" and refused["params"]["field"] == "phrase"
        assert all(phrase in refused["message"] for phrase in PHRASES)
        refs = [await host.send("phrase", phrase="hurry") for _ in range(5)]
        answers = [await host.wait(lambda m, ref=ref: m.get("ref") == ref) for ref in refs]  # type: ignore[misc]
        limited = [answer for answer in answers if answer["type"] == "error"]
        assert limited and all(answer["code"] == "too_many_phrases" for answer in limited)
        assert all(0 < answer["params"]["wait_ms"] <= 3000 for answer in limited)

        # Making it public: not the friend's call; the creator's.
        assert (await friend.request("make_public"))["code"] == "not_table_creator"
        assert (await lobby.request("make_public"))["code"] == "not_seated"
        assert (await host.request("make_public"))["type"] == "ack"
        shown = await lobby.wait(lambda m: m["type"] == "lobby_table" and m["table"]["id"] == table_id)
        assert not shown["table"]["private"] and shown["table"]["invite"] is None
        assert await listed(server) == [table_id]
        assert (await lobby.request("watch", table=table_id))["type"] == "ack"
        # The table closes: the lobby hears of it.
        for client in (host, friend):
            assert (await client.request("leave"))["type"] == "ack"
        await lobby.wait(lambda m: m["type"] == "lobby_table_removed" and m["table_id"] == table_id)
    finally:
        await asyncio.gather(*(client.close() for client in (lobby, host, friend, watcher)))
    assert server.errors() == []
