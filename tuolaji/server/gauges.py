"""What a node's state says when Prometheus asks: connections, people, spectators, tables by state,
the queues of the slow bots' pool and of the table log, whether the bus is up.

These are read off the lobby's parts at each scrape (a ``prometheus_client`` collector) rather than
kept up to date as things change: nothing is paid for them between scrapes, and they cannot drift.
The pool's and the log's counts of what they did are read the same way.
"""

from __future__ import annotations

import collections
from collections.abc import Iterator

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from tuolaji.native import build
from tuolaji.room.table import TableState
from tuolaji.server.lobby import Lobby


def _gauge(name: str, text: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, text, value=value)


def _counter(name: str, text: str, value: float) -> CounterMetricFamily:
    return CounterMetricFamily(name, text, value=value)


class NodeGauges:
    """The figures of ``lobby``'s node read at each scrape (register it with ``Metrics.watch``)."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.build = build()

    def collect(self) -> Iterator[Metric]:
        """Every figure, as it is now."""
        yield from self._people()
        yield from self._tables()
        yield from self._work()

    def _people(self) -> Iterator[Metric]:
        clients, feed = self.lobby.clients, self.lobby.feed
        yield _gauge("tuolaji_connections", "Open WebSocket connections on this node", len(clients.by_id))
        yield _gauge(
            "tuolaji_accounts_connected",
            "Accounts with a connection on this node (past hello)",
            len(clients.by_account),
        )
        yield _gauge("tuolaji_lobby_subscribers", "Connections following the lobby list", len(feed.subscribers))

    def _tables(self) -> Iterator[Metric]:
        tables = [host.table for host in self.lobby.hosting.hosts.values()]
        by_state = collections.Counter(table.state for table in tables)
        states = GaugeMetricFamily("tuolaji_tables", "Tables run by this node, by state", labels=("state",))
        for state in TableState:
            states.add_metric((state.value,), by_state[state])
        yield states
        yield _gauge(
            "tuolaji_people_seated",
            "People seated at the tables run by this node (connected or not)",
            sum(len(table.players()) for table in tables),
        )
        yield _gauge(
            "tuolaji_bots_seated",
            "Bots seated at the tables run by this node",
            sum(1 for table in tables for seat in table.seats if seat.bot is not None),
        )
        yield _gauge(
            "tuolaji_spectators",
            "Spectators at the tables run by this node",
            sum(len(table.watchers) for table in tables),
        )

    def _work(self) -> Iterator[Metric]:
        services = self.lobby.services
        waiting, running = services.thinking.load()
        stats = services.thinking.stats
        yield _gauge("tuolaji_thinking_waiting", "Slow bots' moves waiting for a worker", waiting)
        yield _gauge("tuolaji_thinking_running", "Slow bots' moves being thought (or handed to a worker)", running)
        yield _counter("tuolaji_thinking_moves", "Slow bots' moves asked for", stats.asked)
        yield _counter(
            "tuolaji_thinking_replaced", "Slow bots' moves dropped for a newer one of the same table", stats.replaced
        )
        yield _counter(
            "tuolaji_thinking_shortened",
            "Slow bots' moves given a shorter budget (more tables than workers)",
            stats.shortened,
        )
        table_log = services.table_log
        yield _gauge(
            "tuolaji_table_log_queued_steps", "Table steps waiting for the next batch of the log", table_log.queued
        )
        yield _counter("tuolaji_table_log_commits", "Transactions of the table log (a batch is one)", table_log.commits)
        yield _counter("tuolaji_table_log_steps", "Table steps written to the log", table_log.writes)
        yield _gauge(
            "tuolaji_table_log_failing",
            "1 while every batch of the table log fails (the database does not answer), else 0",
            int(table_log.failing_since is not None),
        )
        bus = services.bus
        yield _gauge(
            "tuolaji_bus_up",
            "1 while the bus reaches the other nodes (Redis answers), else 0",
            int(bool(bus.status()["up"])),
        )
        info = GaugeMetricFamily(
            "tuolaji_node_info", "This node: its name, its bus and its build", labels=("node", "bus", "build")
        )
        info.add_metric((bus.node_id, str(bus.status()["bus"]), self.build), 1)
        yield info
