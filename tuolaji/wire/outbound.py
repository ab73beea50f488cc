"""What the server sends a client (docs/PROTOCOL.md §2.3, §2.5): messages as compact JSON text.

Every server message is ``{"v": 2, "type": ..., ...}`` (:func:`message`); an ``error`` carries a
stable code and JSON-ready ``params`` (:func:`error_message`). A message that differs between its
recipients only in its last member (a ``table`` message's ``seat``) is encoded once up to that member
(:func:`message_head`) and finished per recipient (:func:`finish`), byte for byte what
:func:`dumps` of the whole message gives.

:func:`dumps` writes with orjson (4–10 times faster than the standard library on these messages,
docs/BENCHMARKS.md) the text ``json.dumps(data, ensure_ascii=False, separators=(",", ":"))`` would
write, but that orjson writes a float under 1e-4 without padding its exponent (``1e-5``, the same
number as ``1e-05``) and NaN or an infinity as ``null`` (not JSON; no message holds one, as
:mod:`tuolaji.wire.json_limits` refuses them on the way in); whatever orjson will not take as it is
(a lone surrogate, an int beyond 64 bits, a dataclass) goes the standard library's way, so the text
and the errors are the library's.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Final

import orjson

if TYPE_CHECKING:
    from tuolaji.wire.inbound import ProtocolError

PROTOCOL_VERSION: Final = 2
_ORJSON: Final = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
"""Keys as the standard library writes them; dataclasses and datetimes refused, as it refuses them."""


def dumps(data: Any) -> str:
    """Compact JSON, UTF-8 text kept as is (the encoding of every message). Text that cannot be
    encoded as UTF-8 (a lone surrogate) is escaped instead (``\\ud800``), so the answer can always
    be sent."""
    try:
        return orjson.dumps(data, option=_ORJSON).decode()
    except TypeError:
        pass
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    if not text.isascii():
        try:
            text.encode()
        except UnicodeEncodeError:
            return json.dumps(data, separators=(",", ":"))
    return text


def message(kind: str, **fields: Any) -> dict[str, Any]:
    """A server message: ``{"v": 2, "type": kind, ...fields}``."""
    return {"v": PROTOCOL_VERSION, "type": kind, **fields}


def table_node_message(table_id: str, node: str) -> dict[str, Any]:
    """The ``table_node`` message (docs/PROTOCOL.md §3): the client's table ``table_id`` runs on the
    node named ``node``, to which it may connect directly (``/ws?node=NODE``)."""
    return message("table_node", table_id=table_id, node=node)


def error_message(
    code: str,
    text: str,
    ref: str | int | None = None,
    rule: str | None = None,
    params: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``error`` message (docs/PROTOCOL.md §2.5): a stable ``code`` with JSON-ready ``params``
    for the client to word in its reader's language; ``text`` is the English fallback."""
    body = message("error", code=code, message=text, params=params or {})
    if ref is not None:
        body["ref"] = ref
    if rule is not None:
        body["rule"] = rule
    return body


def protocol_error_message(error: ProtocolError) -> dict[str, Any]:
    """The ``error`` message answering a refused client message."""
    return error_message(error.code, str(error), error.ref, error.rule, error.params)


def message_head(kind: str, **fields: Any) -> str:
    """The JSON text of ``message(kind, **fields)`` without its closing brace, for :func:`finish`."""
    return dumps(message(kind, **fields))[:-1]


def finish(head: str, name: str, value: Any) -> str:
    """``head`` (from :func:`message_head`) with the last member ``name: value``, closed."""
    return f"{head},{dumps(name)}:{dumps(value)}}}"
