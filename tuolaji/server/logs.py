"""Structured logs: one JSON object a line (or readable text), saying which node, table, hand,
account, connection or request a line is about.

The server logs through the standard library, a logger per module, with what a line is about as
``extra`` fields and a message that stays the same from one occurrence to the next (the values go in
the fields, so lines can be counted and searched by their ``event``)::

    log.warning("another node owns the table now; giving it up", extra={"table": table_id, "hand": 3})

:func:`configure` (``tuolaji serve``: ``--log-format json|console``, ``--log-level``) makes every
record, the server's, uvicorn's or a library's, one line rendered by structlog with ``time`` (UTC,
ISO 8601, milliseconds), ``level``, ``event`` (the message), ``node``, ``logger``, then every ``extra``
field, the fields bound to the running task (:func:`bind`) and, for an exception, ``exception`` (the
traceback, in the same line). The fields that name things are :data:`FIELDS`. A record logged
through ``structlog.get_logger()`` comes out the same way.

Fields bound to a task (:func:`bind`, :func:`bind_only`) are in every line logged in that task and in
the tasks it starts: a WebSocket's reader binds its ``connection`` (and ``account`` after ``hello``),
an HTTP request its ``request``, a table's task its ``table``.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Final, TextIO

import structlog
from structlog.contextvars import bind_contextvars, clear_contextvars, merge_contextvars
from structlog.stdlib import ExtraAdder, ProcessorFormatter, add_log_level, add_logger_name
from structlog.typing import EventDict, Processor, WrappedLogger

FORMATS: Final = ("json", "console")
FIELDS: Final = ("node", "table", "hand", "account", "connection", "request", "seat")
"""The fields that name what a line is about (``seat``: 0–3 at its ``table``)."""
FIRST: Final = ("time", "level", "event", "node", "logger")
"""The fields every line starts with, in this order."""
ACCESS_FIELDS: Final = ("client", "method", "path", "http_version", "status")
"""uvicorn's access line's values, as fields."""
UVICORN_LOGGERS: Final = ("uvicorn", "uvicorn.error", "uvicorn.access")


def bind(**fields: object) -> None:
    """Add ``fields`` to every line logged from now on in this task and the tasks it starts."""
    bind_contextvars(**fields)


def bind_only(**fields: object) -> None:
    """This task's lines carry ``fields`` and none bound before (a task does not keep the fields of
    the one that started it, e.g. a table started from a client's connection)."""
    clear_contextvars()
    bind_contextvars(**fields)


def _record_time(logger: WrappedLogger, name: str, event: EventDict) -> EventDict:
    """``time``: when the record was made (UTC, ISO 8601 with milliseconds)."""
    record = event.get("_record")
    created = record.created if isinstance(record, logging.LogRecord) else datetime.now(UTC).timestamp()
    event["time"] = datetime.fromtimestamp(created, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return event


def _uvicorn_lines(logger: WrappedLogger, name: str, event: EventDict) -> EventDict:
    """uvicorn's records: an access line is the event ``http request`` with its values as fields;
    the coloured copy of a message goes."""
    event.pop("color_message", None)
    values = event.pop("positional_args", None)
    if event.get("logger") == "uvicorn.access" and isinstance(values, tuple) and len(values) == len(ACCESS_FIELDS):
        event["event"] = "http request"
        event.update(zip(ACCESS_FIELDS, values, strict=True))
    return event


def _node(node: str) -> Processor:
    def add(logger: WrappedLogger, name: str, event: EventDict) -> EventDict:
        event.setdefault("node", node)
        return event

    return add


def _first_fields(logger: WrappedLogger, name: str, event: EventDict) -> EventDict:
    """:data:`FIRST` first, then the rest as they came."""
    ordered: EventDict = {key: event.pop(key) for key in FIRST if key in event}
    ordered.update(event)
    return ordered


def _renderer(log_format: str, stream: TextIO) -> list[Processor]:
    if log_format == "json":
        return [structlog.processors.format_exc_info, structlog.processors.JSONRenderer(json.dumps, ensure_ascii=False)]
    if log_format == "console":
        return [structlog.dev.ConsoleRenderer(colors=stream.isatty(), timestamp_key="time")]
    raise ValueError(f"--log-format {log_format!r}: must be one of {', '.join(FORMATS)}")


def formatter(log_format: str, node: str, stream: TextIO = sys.stderr) -> ProcessorFormatter:
    """The formatter of every record: ``log_format`` ``json`` or ``console`` (:data:`FORMATS`), each
    line naming ``node``."""
    renderer = _renderer(log_format, stream)
    return ProcessorFormatter(
        foreign_pre_chain=[merge_contextvars, add_log_level, add_logger_name, ExtraAdder(), _uvicorn_lines],
        processors=[
            _record_time,
            _node(node),
            ProcessorFormatter.remove_processors_meta,
            _first_fields,
            *renderer,
        ],
        pass_foreign_args=True,
    )


def configure(level: str, log_format: str, node: str, stream: TextIO = sys.stderr) -> None:
    """Log records of ``level`` and above (``debug`` … ``error``) to ``stream``, one line each as
    ``log_format`` says, every line naming ``node``; ``structlog.get_logger()`` logs the same way."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter(log_format, node, stream))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in UVICORN_LOGGERS:  # had uvicorn's own logging set-up run, its records would skip this one
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
        logger.setLevel(logging.NOTSET)
        logger.disabled = False
    structlog.configure(
        processors=[merge_contextvars, add_log_level, add_logger_name, ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
