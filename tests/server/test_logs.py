"""The server's log lines (``tuolaji.server.logs``): every record, a plain ``logging`` call with
``extra`` fields, uvicorn's or structlog's, is one JSON object a line with ``time``, ``level``,
``event``, ``node`` and its fields, the fields bound to its task included; ``--log-format console``
writes readable text instead. (The live servers' lines are checked through a crash and a takeover
in ``tests/cluster/test_logs.py``.)"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
import structlog

from tuolaji.server import logs

ISO_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


@pytest.fixture
def stream() -> Iterator[io.StringIO]:
    """Where :func:`logs.configure` writes, for one test; the logging set-up before it comes back after."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    out = io.StringIO()
    yield out
    root.handlers[:] = handlers
    root.setLevel(level)
    structlog.reset_defaults()
    structlog.contextvars.clear_contextvars()


def lines(stream: io.StringIO) -> list[dict[str, Any]]:
    text = stream.getvalue()
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def test_a_logging_call_with_extra_fields_is_one_json_line(stream: io.StringIO) -> None:
    logs.configure("info", "json", "n1", stream)
    log = logging.getLogger("tuolaji.server.somewhere")
    log.debug("not at info")
    log.info("taken over from its log", extra={"table": "t0a1", "hand": 3, "fence": 2})
    log.warning("積分 and silver: %d", 7, extra={"account": 12})
    try:
        raise RuntimeError("the database went away\nfor a while")
    except RuntimeError:
        log.exception("table log: a batch failed; its tables reload and retry", extra={"steps": 4})
    first, second, third = lines(stream)
    assert list(first)[:5] == ["time", "level", "event", "node", "logger"]
    assert ISO_UTC.match(first["time"])
    assert first == {
        "time": first["time"],
        "level": "info",
        "event": "taken over from its log",
        "node": "n1",
        "logger": "tuolaji.server.somewhere",
        "table": "t0a1",
        "hand": 3,
        "fence": 2,
    }
    assert (second["level"], second["event"], second["account"]) == ("warning", "積分 and silver: 7", 12)
    assert third["level"] == "error" and third["steps"] == 4
    assert third["exception"].startswith("Traceback") and "RuntimeError: the database went away" in third["exception"]


async def test_a_task_s_bound_fields_are_in_its_lines_and_its_children_s_only(stream: io.StringIO) -> None:
    logs.configure("info", "json", "n1", stream)
    log = logging.getLogger("tuolaji.server.ws")

    async def table() -> None:
        logs.bind_only(table="t7")  # started from a connection's task: not that connection's lines
        log.info("table closed", extra={"hand": 1})

    async def connection() -> None:
        logs.bind_only(connection="n1.5")
        await asyncio.create_task(table())
        logs.bind(account=42)
        await asyncio.create_task(child())
        log.info("connection closed", extra={"code": 1000})

    async def child() -> None:
        log.info("from a task the connection started")

    await asyncio.create_task(connection())
    log.info("elsewhere")
    closed, started, connection_closed, elsewhere = lines(stream)
    assert (closed["table"], closed["hand"]) == ("t7", 1) and "connection" not in closed
    assert (started["connection"], started["account"]) == ("n1.5", 42)
    assert (connection_closed["connection"], connection_closed["code"]) == ("n1.5", 1000)
    assert "connection" not in elsewhere and "table" not in elsewhere


def test_uvicorn_s_and_structlog_s_lines_come_out_the_same_way(stream: io.StringIO) -> None:
    logs.configure("info", "json", "n1", stream)
    access = logging.getLogger("uvicorn.access")
    access.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", "/metrics", "1.1", 200)
    running = logging.getLogger("uvicorn.error")
    running.info("Uvicorn running on %s://%s:%d", "http", "127.0.0.1", 8000, extra={"color_message": "\x1b[1m"})
    structlog.get_logger("tuolaji.other").warning("a helper's line", table="t9")
    request, started, helper = lines(stream)
    assert request["event"] == "http request"
    assert (request["method"], request["path"], request["status"], request["client"]) == (
        "GET",
        "/metrics",
        200,
        "127.0.0.1:5000",
    )
    assert started["event"] == "Uvicorn running on http://127.0.0.1:8000" and "color_message" not in started
    assert (helper["level"], helper["event"], helper["table"]) == ("warning", "a helper's line", "t9")
    assert helper["node"] == "n1"
    assert ISO_UTC.match(helper["time"])


def test_the_console_format_is_readable_text(stream: io.StringIO) -> None:
    logs.configure("warning", "console", "n1", stream)
    log = logging.getLogger("tuolaji.server.tablehost")
    log.info("not at warning")
    log.warning("another node owns the table now; giving it up", extra={"table": "t3", "hand": 2})
    [line] = stream.getvalue().splitlines()
    assert not line.startswith("{")
    assert "another node owns the table now; giving it up" in line
    assert all(field in line for field in ("table=t3", "hand=2", "node=n1", "[warning"))


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="--log-format 'xml'"):
        logs.configure("info", "xml", "n1", io.StringIO())
