"""A connection's messages are carried out in the order sent, those behind one that waits (a ``hello``
reading the database) waiting for it, and no more than ``inbox.MAX_WAITING`` of them
(``tuolaji.server.inbox``; the protocol hands text over as it arrives: ``wsframes.TEXT_IN``)."""

from __future__ import annotations

import json

from tests.live_server import LiveServer
from tests.server.wsclient import Client, guest_token
from tuolaji.server.inbox import MAX_WAITING


def burst(client: Client, bodies: list[dict[str, object]]) -> None:
    """Send ``bodies`` as text messages in one write, so the server reads them in one go."""
    protocol = client.ws.protocol
    for body in bodies:
        protocol.send_text(json.dumps({"v": 2, **body}).encode())
    client.ws.transport.write(b"".join(protocol.data_to_send()))


async def test_messages_behind_a_hello_wait_for_it_in_order_and_only_so_many(live_server: LiveServer) -> None:
    token, _ = await guest_token(live_server.url)
    client = await Client.open(live_server.url, token=token, hello=False)
    pings = MAX_WAITING + 36
    burst(
        client,
        [
            {"type": "hello", "token": token, "id": "h"},
            {"type": "lobby", "on": True, "id": "s"},
            *({"type": "ping", "id": index} for index in range(pings)),
        ],
    )
    waiting = MAX_WAITING - 2  # the hello and the lobby message are waiting too
    await client.wait(lambda m: m.get("ref") == waiting - 1)
    log = client.log
    welcome = next(index for index, m in enumerate(log) if m["type"] == "welcome")
    carried_out = [(index, m) for index, m in enumerate(log) if m.get("ref") in range(waiting) or m.get("ref") == "s"]
    assert all(index > welcome for index, _ in carried_out)
    assert [(m["type"], m["ref"]) for _, m in carried_out] == [("ack", "s")] + [("pong", ref) for ref in range(waiting)]
    dropped = [m for m in log if m.get("ref") in range(waiting, pings)]
    assert [m["ref"] for m in dropped] == list(range(waiting, pings))  # at once, while the hello was read
    assert {(m["type"], m["code"], m["params"]["reason"]) for m in dropped} == {("error", "rate_limited", "dropped")}
    assert (await client.request("ping"))["type"] == "pong"  # the connection goes on
    await client.close()


async def test_a_text_message_in_fragments_is_read_whole(live_server: LiveServer) -> None:
    client = await Client.open(live_server.url)
    text = json.dumps({"v": 2, "type": "ping", "id": 7})
    await client.ws.send([text[:5], text[5:12], text[12:]])
    assert (await client.wait(lambda m: m.get("ref") == 7))["type"] == "pong"
    await client.close()
