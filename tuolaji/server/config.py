"""Server settings: :class:`ServerConfig`, whose every field is one ``tuolaji serve`` option.

Each field is declared with :func:`option` (or :func:`option_from`): its default, its help text,
its flag (``--`` and the field's name with dashes, unless named otherwise) and the values it takes
(a range, a list of choices, or a check of its own), in one place. ``tuolaji serve``
(:mod:`tuolaji.server.serve`) builds its command line from these declarations, so a new option is
one new field.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import math
import os
import secrets
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from tuolaji.server.connection import OUTBOX_BYTES
from tuolaji.server.deadlines import HEADER_TIMEOUT, KEEP_ALIVE_TIMEOUT
from tuolaji.server.feed import LOBBY_PER_ADDRESS
from tuolaji.server.limits import (
    ACCOUNT_RATE_PER_MINUTE,
    GUESTS_PER_HOUR,
    RATE_BURST,
    RATE_PER_SECOND,
    TABLES_PER_MINUTE,
)
from tuolaji.server.logs import FORMATS
from tuolaji.server.scrape import read_token
from tuolaji.store.accounts import DEFAULT_SESSION_DAYS, DEFAULT_START_SILVER
from tuolaji.store.db import DEFAULT_URL
from tuolaji.store.passwords import HASH_QUEUE, HASH_THREADS

DEFAULT_SEARCH_BUDGET_MS = 300.0
LOG_LEVELS = ("debug", "info", "warning", "error")
OPTION = "option"
"""The key of a field's :class:`Option` in its metadata."""

T = TypeVar("T")


def default_bot_workers() -> int:
    """Processes for slow bots' moves: every core but one, which is left to the event loop."""
    return max(1, (os.cpu_count() or 1) - 1)


def node_name(text: str) -> str:
    """A node's name: letters and digits only (client ids start with it); ``ValueError`` otherwise."""
    if not text.isalnum():
        raise ValueError(f"{text!r}: use letters and digits only")
    return text


def networks(text: str) -> tuple[str, ...]:
    """Comma-separated IP addresses or networks (as :func:`~tuolaji.server.http_guard.parse_networks`
    reads them), each checked; ``ValueError`` naming a bad one."""
    specs = tuple(spec.strip() for spec in text.split(",") if spec.strip())
    for spec in specs:
        try:
            ipaddress.ip_network(spec, strict=False)
        except ValueError:
            raise ValueError(f"{spec!r} is not an IP address or network") from None
    return specs


GC_THRESHOLDS = (5_000, 5, 200)
"""The cyclic garbage collector's thresholds of a node (``gc.set_threshold``; Python's own: 700, 10, 10)."""
GC_SHOWN = ",".join(str(threshold) for threshold in GC_THRESHOLDS)


def gc_thresholds(text: str) -> tuple[int, int, int]:
    """Three comma-separated whole numbers of 1 or more, as ``gc.set_threshold`` takes them;
    ``ValueError`` naming what is wrong."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 3 or not all(part.isascii() and part.isdigit() and int(part) >= 1 for part in parts):
        raise ValueError(f"{text!r} is not three whole numbers of 1 or more (young, middle, old), e.g. {GC_SHOWN}")
    young, middle, old = (int(part) for part in parts)
    return young, middle, old


def token_file(text: str) -> str:
    """The path of a file holding a bearer token (:func:`~tuolaji.server.scrape.read_token` reads
    it); ``ValueError`` naming the file if it holds none."""
    read_token(text)
    return text


@dataclass(frozen=True)
class Option:
    """How one :class:`ServerConfig` field is given on the command line.

    ``above``, ``at_least`` and ``at_most`` bound a number (a float must also be finite);
    ``choices`` lists the only values of a text; ``convert`` parses and checks a value of its own
    kind (raising ``ValueError``). ``unit``: the flag counts in units of this many (``--outbox-kib``
    sets bytes). ``shown``: the default as ``--help`` says it, when it is not the field's default.
    """

    help: str
    flag: str = ""
    above: float | None = None
    at_least: float | None = None
    at_most: float | None = None
    choices: tuple[str, ...] = ()
    convert: Callable[[str], Any] | None = None
    unit: int = 1
    metavar: str | None = None
    shown: str = ""

    def bounds(self) -> str:
        """The allowed range in words (``"above 0"``, ``"from 0 to 65535"``), or ``""`` if any."""
        low = f"above {self.above:g}" if self.above is not None else ""
        if self.at_least is not None:
            low = f"{self.at_least:g} or more" if self.at_most is None else f"from {self.at_least:g}"
        if self.at_most is None:
            return low
        return f"{low} to {self.at_most:g}" if self.at_least is not None else f"{low} and at most {self.at_most:g}"

    def parse(self, text: str, kind: type[Any]) -> Any:
        """The field's value from the flag's ``text``, for a field of ``kind`` (``int``, ``float``
        or ``str``); ``ValueError`` naming the text and what is allowed."""
        if self.convert is not None:
            return self.convert(text)
        if kind is str:
            if self.choices and text not in self.choices:
                raise ValueError(f"{text!r}: must be one of {', '.join(self.choices)}")
            return text
        try:
            value = kind(text)
        except ValueError:
            raise ValueError(f"{text!r} is not {'an integer' if kind is int else 'a number'}") from None
        if not self.allows(value):
            raise ValueError(f"{text!r}: must be {self.bounds() or 'finite'}")
        return value * self.unit

    def allows(self, value: float) -> bool:
        """Whether ``value`` (in the flag's units) is within the bounds."""
        return (
            math.isfinite(value)
            and (self.above is None or value > self.above)
            and (self.at_least is None or value >= self.at_least)
            and (self.at_most is None or value <= self.at_most)
        )


def option(default: T, how: Option) -> T:
    """A :class:`ServerConfig` field with ``default``, given on the command line as ``how`` says."""
    return dataclasses.field(default=default, metadata={OPTION: how})


def option_from(factory: Callable[[], T], how: Option) -> T:
    """A :class:`ServerConfig` field whose default comes from ``factory`` (see :func:`option`)."""
    return dataclasses.field(default_factory=factory, metadata={OPTION: how})


@dataclass(frozen=True)
class ServerConfig:
    """How the server runs; the table rules themselves are per table (``TableOptions``)."""

    host: str = option("127.0.0.1", Option("address to listen on"))
    port: int = option(8000, Option("port (0 picks a free one)", at_least=0, at_most=65535))
    db_url: str = option(
        DEFAULT_URL, Option("SQLAlchemy async URL (e.g. postgresql+asyncpg://user:pw@host/db)", flag="--db")
    )
    redis_url: str | None = option(
        None,
        Option(
            "Redis of a card room on many nodes (e.g. redis://127.0.0.1:6379/0): nodes on one PostgreSQL and one "
            "Redis serve any client and take over the tables of a node that dies (tuolaji.server.redisbus)",
            flag="--redis",
            metavar="URL",
            shown="this node alone",
        ),
    )
    node_id: str = option_from(
        lambda: secrets.token_hex(4),
        Option(
            "this node's name among the nodes, letters and digits (client ids start with it, and a client "
            "connects to this node with /ws?node=NAME through a proxy that routes by it: docs/nginx.conf)",
            flag="--node-name",
            convert=node_name,
            shown="random",
        ),
    )
    node_hints: bool = option(
        True,
        Option(
            "with --redis: tell no client whose table runs on another node that node's name (table_node), so "
            "clients stay where the proxy put them and reach such tables through Redis; for a proxy that does "
            "not route /ws?node=NAME (tuolaji.server.homing)",
            flag="--no-node-hints",
        ),
    )
    lease_seconds: float = option(
        5.0, Option("with --redis: a table's lease; another node takes a dead node's tables over after it", above=0)
    )
    start_silver: int = option(DEFAULT_START_SILVER, Option("silver of a new account (§13)", at_least=0))
    bot_delay: float = option(
        0.6,
        Option(
            "seconds a bot or 託管 seat waits before it moves, so people can follow the play (a search bot "
            "thinks meanwhile)",
            at_least=0,
        ),
    )
    bot_workers: int = option_from(
        default_bot_workers,
        Option(
            "worker processes in which slow bots (search) think (tuolaji.server.thinking)",
            above=0,
            shown="CPU cores - 1, at least 1",
        ),
    )
    search_budget_ms: float = option(
        DEFAULT_SEARCH_BUDGET_MS, Option("the search bot's time budget per move in ms", above=0)
    )
    next_hand_delay: float = option(
        3.0, Option("seconds between a hand's settlement and the next deal (R37)", at_least=0)
    )
    reconnect_grace: float = option(
        60.0,
        Option(
            "after a restart, seconds a table waiting for players keeps the seats of people not back yet (a "
            "table in a match keeps them until the hand after the restart ends, R46)",
            at_least=0,
        ),
    )
    seed: int | None = option(
        None, Option("seed of the match seeds, for reproducible tables in tests and debugging", shown="random")
    )
    account_rate_per_minute: float = option(
        ACCOUNT_RATE_PER_MINUTE,
        Option(
            "account requests (guest, register, login) per minute per client address, in bursts of as many "
            "(0: no limit)",
            flag="--account-rate",
            at_least=0,
        ),
    )
    guests_per_hour: float = option(
        GUESTS_PER_HOUR, Option("guest accounts a client address may create per hour (0: no limit)", at_least=0)
    )
    forwarded_allow_ips: tuple[str, ...] = option(
        (),
        Option(
            "comma-separated addresses or networks of trusted reverse proxies: only a request from one of them "
            "has its client address taken from X-Forwarded-For",
            convert=networks,
            shown="none, the header is ignored",
        ),
    )
    session_days: float = option(DEFAULT_SESSION_DAYS, Option("days a session token stays valid after log-in", above=0))
    hash_threads: int = option(
        HASH_THREADS, Option("threads hashing passwords with argon2, off the event loop", above=0)
    )
    hash_queue: int = option(
        HASH_QUEUE, Option("password checks that may wait for a thread; more are answered 503 at once", at_least=0)
    )
    rate_per_second: float = option(
        RATE_PER_SECOND, Option("messages per second a WebSocket connection may send (token bucket)", above=0)
    )
    rate_burst: float = option(RATE_BURST, Option("messages a WebSocket connection may send at once", above=0))
    hello_timeout: float = option(
        10.0, Option("seconds a new WebSocket connection has to authenticate with hello", above=0)
    )
    connections_per_address: int = option(
        20,
        Option(
            "open WebSocket connections one client address may have (0: no limit)",
            flag="--max-connections-per-address",
            at_least=0,
        ),
    )
    outbox_bytes: int = option(
        OUTBOX_BYTES,
        Option(
            "KiB of messages a client may fall behind by before it is disconnected (CLOSE_TOO_SLOW)",
            flag="--outbox-kib",
            above=0,
            unit=1024,
        ),
    )
    header_timeout: float = option(
        HEADER_TIMEOUT,
        Option(
            "seconds an HTTP connection has to send a request's headers, from its opening or its last response "
            "(idle and slow-loris sockets are closed)",
            above=0,
        ),
    )
    keep_alive_timeout: float = option(
        KEEP_ALIVE_TIMEOUT, Option("seconds an idle keep-alive HTTP connection stays open after a response", above=0)
    )
    max_connections: int = option(
        0,
        Option(
            "HTTP and WebSocket connections and requests the server takes at once; more are answered 503 (0: no limit)",
            at_least=0,
        ),
    )
    tables_per_minute: float = option(
        TABLES_PER_MINUTE,
        Option(
            "tables (create_table, play_now) one client address may open per minute, in bursts of as many "
            "(0: no limit)",
            flag="--tables-per-address",
            at_least=0,
        ),
    )
    lobby_per_address: int = option(
        LOBBY_PER_ADDRESS,
        Option("connections of one client address that may follow the lobby list at once (0: no limit)", at_least=0),
    )
    ws_deflate: bool = option(
        False, Option("offer permessage-deflate compression on WebSockets (less traffic, more CPU per message)")
    )
    gc_thresholds: tuple[int, int, int] = option(
        GC_THRESHOLDS,
        Option(
            "the cyclic garbage collector's thresholds: allocations between two passes of the youngest generation, "
            "then passes of each generation between two of the next (gc.set_threshold; each pass stops the whole "
            "node: docs/OPERATIONS.md)",
            convert=gc_thresholds,
            metavar="YOUNG,MIDDLE,OLD",
            shown=GC_SHOWN,
        ),
    )
    log_level: str = option("info", Option("how much the server logs", choices=LOG_LEVELS))
    log_format: str = option(
        "json",
        Option(
            "how log lines are written: json (one JSON object a line, for machines) or console (readable text) "
            "(tuolaji.server.logs)",
            choices=FORMATS,
        ),
    )
    metrics: bool = option(
        True, Option("serve no /metrics and count nothing (tuolaji.server.metrics)", flag="--no-metrics")
    )
    metrics_allow_ips: tuple[str, ...] = option(
        (),
        Option(
            "comma-separated addresses or networks that may read /metrics besides loopback (the client address "
            "as --forwarded-allow-ips gives it)",
            convert=networks,
            shown="loopback only",
        ),
    )
    metrics_token_file: str | None = option(
        None,
        Option(
            "file holding a bearer token (one word, 16 characters or more) with which a request may read /metrics "
            "from any address",
            convert=token_file,
            metavar="PATH",
            shown="none",
        ),
    )

    @property
    def account_burst(self) -> float:
        """Account requests a client address may make at once: as many as per minute."""
        return self.account_rate_per_minute


def options() -> list[tuple[dataclasses.Field[Any], Option, type[Any]]]:
    """Every field of :class:`ServerConfig` with its :class:`Option` and the kind of its values
    (``int``, ``float``, ``str``, ``bool``; ``None`` aside), in declaration order."""
    hints = typing.get_type_hints(ServerConfig)
    found = []
    for field in dataclasses.fields(ServerConfig):
        hint = hints[field.name]
        if typing.get_origin(hint) is types.UnionType:
            hint = next(kind for kind in typing.get_args(hint) if kind is not types.NoneType)
        found.append((field, field.metadata[OPTION], typing.get_origin(hint) or hint))
    return found
