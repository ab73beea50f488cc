"""The nodes' log lines through what an operator must be told of: a node killed (``kill -9``) and its
table taken over by another, and the database going away and coming back. Every line of every
node is one JSON object with ``time``, ``level``, ``event``, ``node`` and ``logger``; each event
is one line with what it is about (table, hand, account, connection, request), however long it
lasts; and the metrics count the same events.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text
from sqlalchemy.engine import make_url

from tests.cluster.conftest import NodeFactory
from tests.cluster.test_nodes import FAST, tricks
from tests.databases import POSTGRES
from tests.live_server import FAST_ARGS, LiveServer, fields_of
from tests.server.players import Party, Player
from tests.server.wsclient import Client
from tuolaji.store.db import make_engine

ISO_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
LEVELS = {"debug", "info", "warning", "error", "critical"}


def every_line_is_json(node: LiveServer, name: str) -> list[dict[str, Any]]:
    """The node's lines, each checked to be a JSON object with the fields every line has."""
    records = []
    for line in node.log:
        fields = fields_of(line)
        assert fields is not None, f"not a JSON line: {line!r}"
        assert ISO_UTC.match(fields["time"]) and fields["level"] in LEVELS, fields
        assert isinstance(fields["event"], str) and fields["event"] and isinstance(fields["logger"], str), fields
        assert fields["node"] == name, fields
        records.append(fields)
    return records


async def figure(node: LiveServer, sample: str) -> float:
    """One sample of the node's ``/metrics`` (its name with labels, as the text shows it)."""
    async with httpx.AsyncClient(base_url=node.url) as http:
        body = (await http.get("/metrics")).text
    return float(next(line.rsplit(" ", 1)[1] for line in body.splitlines() if line.startswith(sample + " ")))


async def logged(node: LiveServer, event: str) -> None:
    """Wait (bounded) for a line of ``event``."""
    assert await asyncio.to_thread(node.logged, f'"event": "{event}"'), f"no {event!r} line"


async def test_every_line_is_json_with_its_fields_through_a_crash_and_a_takeover(nodes: NodeFactory) -> None:
    lease = ("--lease-seconds", "2")
    a, b = nodes("a", *lease), nodes("b", *lease)
    party = Party([await Player.guest(node.url) for node in (a, b, a, b)])
    table_id = await party.seat(FAST)  # created through a: a runs the table
    await party.until(lambda: tricks(party) >= 3, 120)
    a.kill()
    for player in party.players[0::2]:  # a's clients come back through b, which takes the table over
        await player.connect(b.url)
    await party.until(party.hand_over(1), 120)
    leaving = party.players[1]
    assert leaving.client is not None
    await leaving.client.close()
    await logged(b, "connection closed")

    for record in every_line_is_json(a, "a"):
        if record["event"] == "http request":  # every HTTP request's line names it
            assert record["request"].startswith("a.r") and record["path"].startswith("/api/")
    b_records = every_line_is_json(b, "b")
    [taken] = [record for record in b_records if record["event"] == "taken over from its log"]
    assert (taken["level"], taken["table"], taken["hand"], taken["fence"]) == ("warning", table_id, 1, 2)
    closed = [record for record in b_records if record["event"] == "connection closed"]
    assert {"by": "client", "code": 1000, "account": leaving.account_id} in [
        {key: record.get(key) for key in ("by", "code", "account")} for record in closed
    ]
    assert all(record["connection"].startswith("b.") for record in closed)
    assert a.errors() + b.errors() == []
    assert await figure(b, "tuolaji_table_takeovers_total") == 1
    assert await figure(b, 'tuolaji_websocket_closes_total{by="client",code="1000"}') >= 1
    assert await figure(b, "tuolaji_bus_up") == 1
    assert await figure(b, 'tuolaji_bus_round_trip_seconds_count{kind="call"}') > 0


async def test_the_database_going_away_and_back_is_one_line_each_way(tmp_path: Path, postgres: str) -> None:
    """The node's database refuses connections for a while (its sessions cut, new ones refused):
    the table log says so once, the table once, and both once when it answers again."""
    assert POSTGRES is not None
    name = make_url(postgres).database
    admin = make_engine(POSTGRES).execution_options(isolation_level="AUTOCOMMIT")
    args = (*FAST_ARGS, "--node-name", "pg1")
    server = LiveServer(tmp_path / "unused.sqlite3", args, database_url=postgres).start()
    person: Client | None = None
    try:
        person = await Client.open(server.url)
        assert (await person.request("play_now", options=FAST))["type"] == "ack"
        assert (await person.request("autoplay", on=True))["type"] == "ack"  # 託管: the table plays by itself
        await person.wait(lambda m: m["type"] == "state" and m["view"] and m["view"]["tricks_played"] >= 2, 60)
        async with admin.connect() as connection:
            await connection.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false'))
            await connection.execute(
                text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :name"), {"name": name}
            )
        await logged(server, "could not reload its log; trying again until it can")
        async with admin.connect() as connection:
            await connection.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
        await logged(server, "table log: writes succeed again")
        await logged(server, "reloaded from its log")
        person.cursor = len(person.log)
        await person.wait(lambda m: m["type"] == "state", 60)  # the table plays on
        assert await figure(server, 'tuolaji_errors_total{kind="log_reload"}') == 1
        assert await figure(server, "tuolaji_table_log_failed_batches_total") >= 1
        assert await figure(server, "tuolaji_table_log_failing") == 0
    finally:
        if person is not None:
            await person.close()
        server.stop()
        await admin.dispose()

    records = every_line_is_json(server, "pg1")

    def once(event: str) -> dict[str, Any]:
        [record] = [record for record in records if record["event"] == event]
        return record

    failed = once("table log: a batch failed; its tables reload and retry")
    assert failed["level"] == "error" and failed["steps"] >= 1 and "Traceback" in failed["exception"]
    back = once("table log: writes succeed again")
    assert back["level"] == "warning" and back["failed_seconds"] > 0 and back["failed_batches"] >= 1
    unwritten = once("could not write its log; reloading it")
    assert unwritten["level"] == "error" and unwritten["table"].startswith("t") and unwritten["hand"] >= 1
    unreloaded = once("could not reload its log; trying again until it can")
    assert unreloaded["table"] == unwritten["table"] and "exception" in unreloaded
    reloaded = once("reloaded from its log")
    assert reloaded["table"] == unwritten["table"] and reloaded["failed_tries"] >= 1
