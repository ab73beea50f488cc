"""SIGTERM: the server tells every client ``server_restarting``, closes with 1012, and a restart on the
same database goes on with the same hand; nobody was put on 託管 for it (R46, docs/RULES-NOTES.md)."""

from __future__ import annotations

from pathlib import Path

from tests.live_server import LiveServer
from tests.server.scenario import FAST
from tests.server.wsclient import Client

ARGS = ("--bot-delay", "0.05", "--next-hand-delay", "0.05", "--log-level", "info")


async def test_a_graceful_restart_keeps_the_hand_and_the_seat(tmp_path: Path) -> None:
    db = tmp_path / "graceful.sqlite3"
    server = LiveServer(db, ARGS).start()
    try:
        person = await Client.open(server.url)
        assert (await person.request("play_now", options={**FAST, "turn_seconds": 600}))["type"] == "ack"
        before = await person.wait(
            lambda m: m["type"] == "state" and m["view"] and m["view"]["to_move"] == 0, timeout=60
        )
        table_id = before["table_id"]

        server.stop()
        restarting = await person.wait_type("server_restarting")
        assert restarting == {"v": 2, "type": "server_restarting"}
        assert await person.closed_with() == 1012

        server = LiveServer(db, ARGS).start()
        assert [fields["tables"] for fields in server.records("restored the open tables from their logs")] == [1]
        again = await Client.open(server.url, token=person.token)
        welcome = again.latest("welcome")
        assert welcome is not None and (welcome["table"], welcome["seat"]) == (table_id, 0)
        full = await again.wait(lambda m: m["type"] == "state" and m["full"])
        view = full["view"]
        assert (full["table_id"], full["hand"]) == (before["table_id"], before["hand"])
        assert view["hand"] == before["view"]["hand"] and view["to_move"] == 0
        assert view["tricks_played"] == before["view"]["tricks_played"]
        assert view["autoplay"] == [False, False, False, False]
        assert full["clock"]["kind"] == "turn" and full["clock"]["remaining_ms"] > 590_000  # a full turn
        await again.close()
        assert server.errors() == []
    finally:
        server.stop()
