"""JSON from a client, parsed within limits: the one reader of WebSocket frames and HTTP bodies.

:func:`load_json` refuses what the standard parser would take at a cost, or hand on as a value the
rest of the server cannot use: a number longer than :data:`MAX_NUMBER_CHARS` (CPython refuses to
turn an integer of more than 4,300 digits into an ``int`` with an uncaught ``ValueError``), nesting
deeper than :data:`MAX_DEPTH`, a number beyond a 64-bit float (``1e400``, which Python would make
infinite), ``NaN`` and ``Infinity`` (not JSON), and strings holding a lone surrogate
(``"\\ud800"``: such a string cannot be encoded as UTF-8, so echoing it would break the answer).
Each refusal is a :class:`JsonLimitError` naming the limit; its ``params`` carry the details for a
client to word the error in its reader's language.

Ordinary text is parsed by orjson (faster than the standard library, docs/BENCHMARKS.md), which
refuses NaN, infinities, numbers beyond a float and lone surrogates itself; text orjson refuses, and
text with a run of 20 digits or a minus and 19 (orjson would read an int beyond 64 bits as a float,
and a number of more than :data:`MAX_NUMBER_CHARS` characters has such a run), is parsed the
standard library's way below, which gives the value or the precise refusal.
"""

from __future__ import annotations

import json
import math
import re
import sys
from typing import Any, Final

import orjson

MAX_NUMBER_CHARS: Final = 100
"""The longest number literal taken (characters, sign and exponent included)."""
MAX_DEPTH: Final = 32
"""The deepest nesting of arrays and objects taken (a bare value is depth 0)."""

_STRINGS: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKETS: Final = re.compile(r"[\[\]{}]")
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_LONG_DIGITS: Final = re.compile(r"-[0-9]{19}|[0-9]{20}")
"""Where orjson may read an int beyond 64 bits (below -2**63 or above 2**64 - 1) as a float."""


class JsonLimitError(ValueError):
    """Text refused by :func:`load_json`: ``reason`` is ``not_json``, ``number_too_long``,
    ``number_out_of_range``, ``too_deep`` or ``surrogate``; ``params`` name the limit and what was found."""

    def __init__(self, reason: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.params: dict[str, Any] = {"reason": reason, **(params or {})}


def _number(text: str) -> None:
    if len(text) > MAX_NUMBER_CHARS:
        raise JsonLimitError(
            "number_too_long",
            f"a number of {len(text)} characters; the limit is {MAX_NUMBER_CHARS}",
            {"length": len(text), "limit": MAX_NUMBER_CHARS},
        )


def _int(text: str) -> int:
    _number(text)
    return int(text)


def _float(text: str) -> float:
    _number(text)
    value = float(text)
    if math.isinf(value):
        raise JsonLimitError(
            "number_out_of_range",
            f"the number {text} is beyond a 64-bit float",
            {"number": text, "limit": sys.float_info.max},
        )
    return value


def _constant(name: str) -> Any:
    raise JsonLimitError("not_json", f"not JSON: {name} is not a JSON value")


def depth(text: str) -> int:
    """The deepest nesting of arrays and objects in ``text`` (strings skipped; for valid JSON exact)."""
    deepest = level = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        level += 1 if bracket in "[{" else -1
        deepest = max(deepest, level)
    return deepest


def _surrogate() -> JsonLimitError:
    return JsonLimitError("surrogate", "a string holds a lone surrogate (\\ud800–\\udfff): not UTF-8 text")


def _check_strings(value: Any) -> None:
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise _surrogate()
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_strings(key)
            _check_strings(item)
    elif isinstance(value, list):
        for item in value:
            _check_strings(item)


def read_json(text: str) -> Any:
    """The value of JSON text the server wrote itself (a stored log entry), without the limits of a
    client's: by orjson, or by the standard library where a number may be an int beyond 64 bits
    (orjson would read it as a float)."""
    return json.loads(text) if _LONG_DIGITS.search(text) else orjson.loads(text)


def load_json(data: str | bytes) -> Any:
    """The value of JSON text ``data`` (bytes are UTF-8); :class:`JsonLimitError` when it is not
    JSON or passes a limit. The caller checks the size of ``data`` first."""
    try:
        text = data.decode() if isinstance(data, bytes) else data
    except UnicodeDecodeError as error:
        raise JsonLimitError("not_json", f"not UTF-8 text: {error.reason} at byte {error.start}") from None
    found = depth(text) if text.count("[") + text.count("{") > MAX_DEPTH else 0
    if found > MAX_DEPTH:
        params = {"depth": found, "limit": MAX_DEPTH}
        raise JsonLimitError("too_deep", f"nesting {found} levels deep; the limit is {MAX_DEPTH}", params)
    if not _LONG_DIGITS.search(text):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return _load_exactly(text)


def _load_exactly(text: str) -> Any:
    """:func:`load_json`'s parse by the standard library: the value, or the refusal naming the limit."""
    try:
        value = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise JsonLimitError("not_json", f"not JSON: {error}") from None
    if "\\u" in text:
        _check_strings(value)
    elif _SURROGATE.search(text):
        raise _surrogate()
    return value
