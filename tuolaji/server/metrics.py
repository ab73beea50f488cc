"""A node's metrics for Prometheus: what the shell counts and times as it works.

:class:`Metrics` holds the instruments the shell updates as things happen (moves, hands, the
latency of a move, the table log's batches, the bus's round trips, refusals, closes, errors,
settlements). What can be read off the node's state when Prometheus asks (connections, seats,
spectators, tables by state, queues) is not counted here but collected on each scrape
(``tuolaji.server.gauges``). The pure cores (``tuolaji.room``, ``tuolaji.game``) know nothing of
metrics.

Each :class:`Metrics` has a registry of its own (not ``prometheus_client``'s global one), so
several apps in one process (tests) never share or clash. With ``enabled`` false every instrument
is :data:`NOTHING`, which records nothing (``tuolaji serve --no-metrics``: no ``/metrics``, no cost).

Names follow Prometheus's conventions: the ``tuolaji_`` prefix, ``_total`` for counters, base
units (``_seconds``); every label has a fixed, small set of values (never an account or a table).
docs/OPERATIONS.md (Watching) says what each one tells.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, Literal, Protocol

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
)
from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector

from tuolaji.game.settlement import Change

ErrorKind = Literal["table", "log_write", "log_reload", "log_replay", "bot", "message", "send", "redis"]
"""What went wrong (``tuolaji_errors_total``): a table raised or could not carry a step out; its
log could not be written, reloaded or replayed; a slow bot could not think; a client's message could
not be handled; a message could not be sent; Redis answered with an error."""
ERROR_KINDS: Final[tuple[ErrorKind, ...]] = (
    "table",
    "log_write",
    "log_reload",
    "log_replay",
    "bot",
    "message",
    "send",
    "redis",
)
RefusalKind = Literal["messages", "flood", "joins", "tables", "accounts", "guests", "logins", "connections", "lobby"]
"""Which rate limit refused (``tuolaji_rate_limited_total``)."""
REFUSAL_KINDS: Final[tuple[RefusalKind, ...]] = (
    "messages",
    "flood",
    "joins",
    "tables",
    "accounts",
    "guests",
    "logins",
    "connections",
    "lobby",
)
TripKind = Literal["call", "write", "renew"]
"""A Redis round trip: a call the node waits for, a write it does not, the renewal of its leases."""
TRIP_KINDS: Final[tuple[TripKind, ...]] = ("call", "write", "renew")
LossReason = Literal["fenced", "lease"]
"""Why a table left this node for another: its log write was fenced off, or its lease went."""
LOSS_REASONS: Final[tuple[LossReason, ...]] = ("fenced", "lease")
CLOSE_CODES: Final = (1000, 1001, 1005, 1006, 1007, 1008, 1009, 1011, 1012, 1013, 4001, 4003, 4004, 4005, 4008, 4029)
"""WebSocket close codes counted by their number; any other is counted as ``other``."""

MOVE_BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
COMMIT_BUCKETS: Final = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)
BATCH_BUCKETS: Final = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
TRIP_BUCKETS: Final = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
THINK_BUCKETS: Final = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
GC_BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
LAG_BUCKETS: Final = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Count(Protocol):
    """A counter (``prometheus_client.Counter``, or :data:`NOTHING`)."""

    def inc(self, amount: float = 1) -> None:
        """Add ``amount``."""


class Timing(Protocol):
    """A histogram (``prometheus_client.Histogram``, or :data:`NOTHING`)."""

    def observe(self, amount: float) -> None:
        """Count one observation of ``amount``."""


class _Nothing:
    """An instrument that records nothing (metrics off)."""

    def inc(self, amount: float = 1) -> None:
        """Nothing."""

    def observe(self, amount: float) -> None:
        """Nothing."""


NOTHING: Final = _Nothing()


class _Maker:
    """Makes instruments on ``registry``, or :data:`NOTHING` without one. A labelled family comes
    back as its children, one per value, all made at once (so each shows 0 before it happens)."""

    def __init__(self, registry: CollectorRegistry | None) -> None:
        self.registry = registry

    def counter(self, name: str, text: str) -> Count:
        return NOTHING if self.registry is None else Counter(name, text, registry=self.registry)

    def counters(
        self, name: str, text: str, labels: Sequence[str], values: Iterable[Sequence[str]]
    ) -> dict[str, Count]:
        if self.registry is None:
            nothing: dict[str, Count] = {"/".join(value): NOTHING for value in values}
            return nothing
        family = Counter(name, text, labels, registry=self.registry)
        return {"/".join(value): family.labels(*value) for value in values}

    def histogram(self, name: str, text: str, buckets: Sequence[float]) -> Timing:
        return NOTHING if self.registry is None else Histogram(name, text, buckets=buckets, registry=self.registry)

    def histograms(
        self, name: str, text: str, label: str, values: Sequence[str], buckets: Sequence[float]
    ) -> dict[str, Timing]:
        if self.registry is None:
            nothing: dict[str, Timing] = dict.fromkeys(values, NOTHING)
            return nothing
        family = Histogram(name, text, (label,), buckets=buckets, registry=self.registry)
        return {value: family.labels(value) for value in values}


def _single(values: Sequence[str]) -> list[tuple[str]]:
    return [(value,) for value in values]


class Metrics:
    """The instruments of one node (one app); see the module docstring. ``registry`` is None when
    metrics are off."""

    def __init__(self, enabled: bool = True) -> None:
        self.registry = CollectorRegistry() if enabled else None
        if self.registry is not None:
            # No ``_created`` series beside each counter (a process-wide switch of prometheus_client's).
            disable_created_metrics()  # type: ignore[no-untyped-call]
            ProcessCollector(registry=self.registry)
            PlatformCollector(registry=self.registry)
        make = _Maker(self.registry)
        self._play(make)
        self._log_and_bus(make)
        self._clients(make)

    def _play(self, make: _Maker) -> None:
        """Tables, moves, hands, settlements."""
        self.moves = make.counter("tuolaji_moves_total", "Cards played at this node's tables (people, bots, 託管)")
        self.hands = make.counter("tuolaji_hands_total", "Hands finished and stored at this node's tables")
        self.move_latency = make.histogram(
            "tuolaji_move_latency_seconds",
            "A person's bid or play, from its command reaching the table's queue to the table's messages "
            "handed to the clients (after the log's commit)",
            MOVE_BUCKETS,
        )
        self.tables_opened = make.counter("tuolaji_tables_opened_total", "Tables opened on this node")
        self.tables_closed = make.counter("tuolaji_tables_closed_total", "Tables closed on this node")
        self.takeovers = make.counter(
            "tuolaji_table_takeovers_total", "Tables this node took over from their logs (their node died or froze)"
        )
        self.reloads = make.counter(
            "tuolaji_table_reloads_total", "Tables rebuilt from their logs after a failed step or write"
        )
        self._lost = make.counters(
            "tuolaji_tables_lost_total",
            "Tables another node runs now: fenced (a write refused) or lease (the lease went)",
            ("reason",),
            _single(LOSS_REASONS),
        )
        self._silver = make.counters(
            "tuolaji_settled_silver_total",
            "Silver moved by settlements: paid_in (lost by players), paid_out (won by players)",
            ("direction",),
            _single(("paid_in", "paid_out")),
        )
        self._points = make.counters(
            "tuolaji_settled_points_total",
            "積分 moved by settlements: paid_in (lost by players), paid_out (won by players)",
            ("direction",),
            _single(("paid_in", "paid_out")),
        )

    def _log_and_bus(self, make: _Maker) -> None:
        """The table log, Redis, the slow bots' pool."""
        self.log_batch_steps = make.histogram(
            "tuolaji_table_log_batch_steps", "Table steps written in one transaction (group commit)", BATCH_BUCKETS
        )
        self._log_commit_seconds = make.histograms(
            "tuolaji_table_log_commit_seconds",
            "Time to write and commit one batch of the table log: moves (and other steps), or hands settled",
            "kind",
            ("moves", "hands"),
            COMMIT_BUCKETS,
        )
        self.log_failed_batches = make.counter(
            "tuolaji_table_log_failed_batches_total", "Batches of the table log whose transaction failed"
        )
        self._trips = make.histograms(
            "tuolaji_bus_round_trip_seconds",
            "Redis round trips: call (the node waits for it), write (queued), renew (leases and heartbeat)",
            "kind",
            TRIP_KINDS,
            TRIP_BUCKETS,
        )
        self._redis_errors = make.counters(
            "tuolaji_redis_errors_total",
            "Redis errors: unreachable (no answer) or other (an error answer)",
            ("kind",),
            _single(("unreachable", "other")),
        )
        self.thinking_wait = make.histogram(
            "tuolaji_thinking_wait_seconds", "A slow bot's move, from asked to handed to a worker", THINK_BUCKETS
        )
        self.thinking_cpu = make.histogram(
            "tuolaji_thinking_cpu_seconds", "CPU a worker spent on one slow bot's move", THINK_BUCKETS
        )
        self._gc_pauses = make.histograms(
            "tuolaji_gc_pause_seconds",
            "Collections of Python's cyclic garbage collector, by generation: the whole node waits for each",
            "generation",
            ("0", "1", "2"),
            GC_BUCKETS,
        )
        self.loop_lag = make.histogram(
            "tuolaji_event_loop_lag_seconds",
            "How late the node's event loop ran a timer (sampled every 0.25 s): the time every table and "
            "socket of the node waited, for the collector or a long step",
            LAG_BUCKETS,
        )

    def _clients(self, make: _Maker) -> None:
        """Connections, refusals, closes, errors."""
        self.connections_opened = make.counter("tuolaji_connections_opened_total", "WebSocket connections accepted")
        codes = [str(code) for code in CLOSE_CODES] + ["other"]
        self._closes = make.counters(
            "tuolaji_websocket_closes_total",
            "WebSocket connections closed, by close code and by who closed (server or client)",
            ("by", "code"),
            [(by, code) for by in ("server", "client") for code in codes],
        )
        self._refusals = make.counters(
            "tuolaji_rate_limited_total",
            "Requests refused by a rate limit, by limit",
            ("kind",),
            _single(REFUSAL_KINDS),
        )
        self._errors = make.counters(
            "tuolaji_errors_total", "Errors logged by the server, by kind", ("kind",), _single(ERROR_KINDS)
        )

    @property
    def enabled(self) -> bool:
        """Whether this node counts anything (and serves ``/metrics``)."""
        return self.registry is not None

    def watch(self, collector: Collector) -> None:
        """Collect ``collector``'s figures on every scrape (gauges read off the node's state)."""
        if self.registry is not None:
            self.registry.register(collector)

    def unwatch(self, collector: Collector) -> None:
        """Stop collecting ``collector``."""
        if self.registry is not None:
            self.registry.unregister(collector)

    def exposition(self, accept: str) -> tuple[bytes, str]:
        """Every figure in the format ``accept`` asks for (Prometheus text or OpenMetrics), and its
        content type."""
        encoder, content_type = choose_encoder(accept)
        return (encoder(self.registry) if self.registry is not None else b""), content_type

    def lost(self, reason: LossReason) -> None:
        """A table left this node for another."""
        self._lost[reason].inc()

    def trip(self, kind: TripKind, seconds: float) -> None:
        """A Redis round trip took ``seconds``."""
        self._trips[kind].observe(seconds)

    def gc_paused(self, generation: str, seconds: float) -> None:
        """A collection of ``generation`` ("0", "1", "2") stopped the node for ``seconds``."""
        self._gc_pauses[generation].observe(seconds)

    def redis_error(self, unreachable: bool) -> None:
        """Redis did not answer (``unreachable``) or answered with an error."""
        self._redis_errors["unreachable" if unreachable else "other"].inc()

    def refused(self, kind: RefusalKind) -> None:
        """A rate limit refused a request."""
        self._refusals[kind].inc()

    def error(self, kind: ErrorKind) -> None:
        """An error the server logged."""
        self._errors[kind].inc()

    def closed(self, code: int, by_server: bool) -> None:
        """A WebSocket connection closed with ``code``."""
        label = str(code) if code in CLOSE_CODES else "other"
        self._closes[("server" if by_server else "client") + "/" + label].inc()

    def settled(self, changes: Iterable[Change]) -> None:
        """A hand's settlement moved these balances (one change per seated account)."""
        for change in changes:
            if change.silver:
                self._silver["paid_out" if change.silver > 0 else "paid_in"].inc(abs(change.silver))
            if change.points:
                self._points["paid_out" if change.points > 0 else "paid_in"].inc(abs(change.points))

    # The table log's watcher (``tuolaji.store.tablelog.LogWatcher``).

    def batch_committed(self, steps: int, seconds: float, hands: int) -> None:
        """The table log committed a batch of ``steps`` in ``seconds`` (``hands`` of them settling a hand)."""
        self.log_batch_steps.observe(steps)
        self._log_commit_seconds["hands" if hands else "moves"].observe(seconds)

    def batch_failed(self, steps: int) -> None:
        """A batch of the table log failed."""
        self.log_failed_batches.inc()


NO_METRICS: Final = Metrics(enabled=False)
"""Metrics that record nothing: the default of the parts that take a :class:`Metrics`."""
