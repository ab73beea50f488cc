"""Input that cannot hurt (issue 46, item 3), against a real server: frames that used to kill a
connection or freeze a private table are answered with ``bad_message``, the sender's connection
and the table go on, and the server logs no error."""

from __future__ import annotations

import httpx

from tests.live_server import LiveServer
from tests.server.wsclient import Client, Message
from tuolaji.wire.json_limits import MAX_NUMBER_CHARS


async def answer_to(client: Client, frame: str) -> Message:
    """Send a raw frame; the error it causes, then check the connection still answers a ping."""
    await client.send_raw(frame)
    error = await client.wait(lambda item: item["type"] == "error")
    pong = await client.request("ping")
    assert pong["type"] == "pong", pong
    return error


async def test_a_number_of_5000_digits_is_a_bad_message(live_server: LiveServer) -> None:
    client = await Client.open(live_server.url)
    try:
        error = await answer_to(client, '{"v":2,"type":"ping","id":' + "9" * 5000 + "}")
        assert error["code"] == "bad_message"
        assert error["params"] == {"reason": "number_too_long", "length": 5000, "limit": MAX_NUMBER_CHARS}
    finally:
        await client.close()
    assert live_server.errors() == []


async def test_a_lone_surrogate_is_a_bad_message_and_the_connection_goes_on(live_server: LiveServer) -> None:
    client = await Client.open(live_server.url)
    try:
        for frame in ('{"v":2,"type":"\\ud800"}', '{"v":2,"type":"nope","id":"\\udfff"}'):
            error = await answer_to(client, frame)
            assert error["code"] == "bad_message" and error["params"]["reason"] == "surrogate", error
    finally:
        await client.close()
    assert live_server.errors() == []


async def test_huge_numbers_in_account_bodies_are_400(live_server: LiveServer) -> None:
    body = '{"nickname": "alice", "password": ' + "1" * 5000 + "}"
    async with httpx.AsyncClient(base_url=live_server.url) as http:
        for path in ("/api/guest", "/api/register", "/api/login"):
            answer = await http.post(path, content=body)
            assert answer.status_code == 400, (path, answer.text)
            assert str(MAX_NUMBER_CHARS) in answer.json()["error"]["message"]
    assert live_server.errors() == []


async def test_a_bad_invite_never_reloads_a_private_table(live_server: LiveServer) -> None:
    owner, attacker = await Client.open(live_server.url), await Client.open(live_server.url)
    try:
        created = await owner.request("create_table", private=True)
        assert created["type"] == "ack", created
        table_id = (await owner.wait_type("table"))["table"]["id"]
        for invite in ("é", "\u0000", "x" * 65):
            refused = await attacker.request("watch", table=table_id, invite=invite)
            assert refused["code"] == "bad_message" and refused["params"]["field"] == "invite", refused
        refused = await attacker.request("watch", table=table_id, invite="wrong-code")
        assert refused["code"] == "private_table", refused
        synced = await owner.request("sync")
        assert synced["type"] == "ack", synced
    finally:
        await owner.close()
        await attacker.close()
    assert live_server.errors() == []
    assert not any("reloading" in line for line in live_server.log)
