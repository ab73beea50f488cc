"""What joins the server's nodes: the seat index, the lobby list, commands to a table's owner,
messages to clients, and which node owns which table.

A :class:`Bus` is that link. :class:`LocalBus` is the single-process one (``tuolaji serve`` without
``--redis``): everything stays in memory and every table is owned here. ``tuolaji.server.redisbus``
has the one for many nodes on one Redis. The lobby's parts talk only to the bus, and the bus calls
them back (:class:`Node`), so a node runs the same way alone or among many. What travels between
nodes is typed in ``tuolaji.wire.nodes``.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tuolaji.server.limits import EscapeCooldown
from tuolaji.wire.nodes import Delivery, Envelope, SeatRef, Summary, TableOpening
from tuolaji.wire.orders import NodeStatus, Order


class HostedTables(Protocol):
    """What a bus asks of the tables this node runs (the lobby's hosting part)."""

    def on_command(self, table_id: str, envelope: Envelope) -> bool:
        """A command for ``table_id``; False if this node does not run that table."""

    async def adopt(self, table_ids: Sequence[str]) -> set[str]:
        """Take over ``table_ids`` (their leases are ours now) from their logs, all in a few queries;
        the ids taken (not a closed table's)."""

    def owned(self) -> dict[str, OwnedTable]:
        """The tables run here."""

    async def open_table_ids(self) -> list[str]:
        """Every open table in the database."""

    def lost(self, table_id: str) -> None:
        """This node no longer owns ``table_id`` (its lease went to another node)."""

    def remote_incarnations(self) -> set[str]:
        """The other node processes (:func:`incarnation_of`) whose clients sit at or watch the tables
        run here."""

    def nodes_gone(self, incarnations: set[str]) -> None:
        """Those node processes died: their clients at the tables run here are disconnected (R46)."""

    def open_for(self, opening: TableOpening) -> None:
        """A draining node asks this one to open a new table for its client."""

    def drain_tick(self) -> None:
        """A while passed: a draining node hands over the tables it may give up now."""


class LocalClients(Protocol):
    """What a bus tells this node's clients (the lobby's connected clients)."""

    def on_deliver(self, delivery: Delivery, sender: str | None = None) -> None:
        """A message for one of this node's clients (with where it puts the client); ``sender`` is
        the other node it came from (the one that runs the client's table), None if it came from here."""

    def on_close_client(self, client: str, code: int, text: str) -> None:
        """Send ``text`` to one of this node's clients, then close its socket with ``code``."""

    def batch(self) -> contextlib.AbstractContextManager[None]:
        """Within the block (which must not wait), what :meth:`on_deliver` hands one client goes out
        in one write when it ends."""

    def on_logout(self, account_id: int, session: str) -> None:
        """``account_id`` logged out of ``session``: close this node's connections of that session."""

    def connection_of(self, account_id: int) -> str | None:
        """The client id of the account's connection on this node, if it has one."""


class Orders(Protocol):
    """What a bus hands the console's orders to (the lobby's moderation part)."""

    def on_order(self, order: Order) -> None:
        """An order of the moderators' console, for every node."""


class TableMoves(Protocol):
    """What a bus tells the part that takes this node's clients to their tables (the lobby's router)."""

    def on_moved(self, table_id: str) -> None:
        """Another node now runs ``table_id``: this node's clients at it attach there again."""

    def on_bus_restored(self) -> None:
        """The bus is back after being down: messages may have been lost on the way."""


class LobbyList(Protocol):
    """What a bus tells the lobby list (the lobby's feed)."""

    def on_summary(self, table_id: str, summary: Summary | None) -> None:
        """A table's lobby entry changed (None: it closed)."""

    def on_lobby_reset(self, summaries: dict[str, Summary]) -> None:
        """The whole lobby list, after the bus (re)connected."""


@dataclass(frozen=True)
class OwnedTable:
    """A table run here, as the bus re-asserts it: its lobby ``summary`` and ``seats`` (account id → seat)."""

    summary: Summary
    seats: dict[int, int]


@dataclass(frozen=True)
class Node:
    """The parts of this node a bus calls back."""

    tables: HostedTables
    clients: LocalClients
    feed: LobbyList
    moves: TableMoves
    orders: Orders


class BusDown(Exception):
    """The bus cannot reach the other nodes now (Redis is down)."""


class Cluster(ABC):
    """The card room across its nodes, as the moderators' console and a draining node need it: orders
    to every node, which nodes live and drain, who runs which table, where an account is connected."""

    @abstractmethod
    async def broadcast(self, order: Order) -> None:
        """Hand ``order`` to every node (this one included). Raises :class:`BusDown`."""

    @abstractmethod
    def set_draining(self, on: bool) -> None:
        """This node drains (it takes no tables over, and says so in its heartbeat), or no longer."""

    @abstractmethod
    def adopter(self) -> str | None:
        """Another live node that does not drain, to take this node's tables and new tables (the one
        running fewest), or None."""

    @abstractmethod
    def open_elsewhere(self, node: str, opening: TableOpening) -> None:
        """Ask ``node`` to open a new table for a client of this one."""

    @abstractmethod
    async def nodes(self) -> list[NodeStatus]:
        """Every live node with its status. Raises :class:`BusDown`."""

    @abstractmethod
    async def owners(self, table_ids: Sequence[str]) -> dict[str, str | None]:
        """The node running each of ``table_ids`` (None: nobody, it is moving). Raises :class:`BusDown`."""

    @abstractmethod
    async def connection_of(self, account_id: int) -> str | None:
        """The client id of the account's live connection, on any node. Raises :class:`BusDown`."""


class Bus(ABC):
    """The link between nodes; see the module docstring."""

    node_id: str
    incarnation: str
    """This node process: ``NODE.BOOT``, its name and a token of its start. Its clients' ids begin
    with it, so a node restarted under the same name never hands a new connection the id of one its
    earlier process had (other nodes' tables may still be sending to that one)."""
    fenced: bool
    """Whether table log writes carry a fencing token (tables may move between nodes)."""
    cluster: Cluster
    """The card room across its nodes (the console's orders, draining)."""

    _node: Node | None
    """The parts of this node the bus calls back, once started."""

    def batch(self) -> contextlib.AbstractContextManager[None]:
        """Within the block (which must not wait), the messages :meth:`deliver` hands one client of
        this node go out together when it ends (:meth:`LocalClients.batch`)."""
        node = self._node
        return node.clients.batch() if node is not None else contextlib.nullcontext()

    @abstractmethod
    async def start(self, node: Node) -> None:
        """Connect and start serving ``node``."""

    @abstractmethod
    async def close(self) -> None:
        """Release this node's tables and disconnect."""

    @abstractmethod
    def status(self) -> dict[str, Any]:
        """For the health endpoint: ``{"bus": "local" | "redis", "up": bool, ...}``."""

    @abstractmethod
    async def claim_seat(self, account_id: int, table_id: str) -> SeatRef | None:
        """Claim a seat of ``table_id`` for ``account_id``; the account's current place if it has one
        (nothing claimed). Raises :class:`BusDown`."""

    @abstractmethod
    async def seat_of(self, account_id: int) -> SeatRef | None:
        """Where ``account_id`` sits. Raises :class:`BusDown`."""

    @abstractmethod
    def seat_changed(self, account_id: int, table_id: str, seat: int | None) -> None:
        """The owner's word: ``account_id`` sits at ``seat`` of ``table_id``, or (None) no longer."""

    @abstractmethod
    def publish_summary(self, table_id: str, summary: Summary | None) -> None:
        """The owner's word: the table's lobby entry (None: it closed)."""

    @abstractmethod
    async def send_command(self, table_id: str, envelope: Envelope) -> bool:
        """Deliver ``envelope`` to the owner of a table this node does not run; False if no node runs
        it now. Raises :class:`BusDown`."""

    @abstractmethod
    def deliver(self, delivery: Delivery) -> None:
        """A message for a client, here or on its node (dropped if that cannot be done now)."""

    @abstractmethod
    def close_client(self, client: str, code: int, text: str) -> None:
        """Tell a client of another node ``text`` and close it with ``code``."""

    @abstractmethod
    async def connection_opened(self, account_id: int, client: str) -> str | None:
        """``client`` is now the account's connection; the one it replaces, if any."""

    @abstractmethod
    def connection_closed(self, account_id: int, client: str) -> None:
        """``client`` closed; it is no longer the account's connection (unless a newer one took over)."""

    @abstractmethod
    async def new_table(self, table_id: str) -> None:
        """This node runs the new table ``table_id``. Raises :class:`BusDown`."""

    @abstractmethod
    def escaped(self, account_id: int) -> None:
        """``account_id`` escaped from a hand (R43): it waits before it may sit again (``EscapeCooldown``)."""

    @abstractmethod
    async def escape_wait(self, account_id: int) -> float:
        """Seconds ``account_id`` must still wait after its escapes before it may sit. Raises :class:`BusDown`."""

    @abstractmethod
    def logout(self, account_id: int, session: str) -> None:
        """Close every node's connections of ``account_id`` that use ``session`` (a logged-out token)."""

    @abstractmethod
    def table_running(self, table_id: str) -> None:
        """This node now runs ``table_id`` (adopted): listen for its commands and tell the others."""

    @abstractmethod
    def table_gone(self, table_id: str) -> None:
        """This node no longer runs ``table_id`` (closed, lost, or handed over by a drain)."""

    @abstractmethod
    def follow(self, table_id: str) -> None:
        """Another node runs ``table_id`` now (this one lost it): this node's clients at it attach
        there and get their full picture from it."""


def node_of(client: str) -> str:
    """The node a client id belongs to (client ids are ``NODE.BOOT.N``)."""
    return client.partition(".")[0]


def incarnation_of(client: str) -> str:
    """The node process a client id belongs to: ``NODE.BOOT`` (see :attr:`Bus.incarnation`)."""
    return client.rpartition(".")[0]


def new_incarnation(node_id: str) -> str:
    """A name for this process of node ``node_id``, unlike any other process's."""
    return f"{node_id}.{secrets.token_hex(4)}"


class LocalBus(Bus):
    """One node: every table is here, every index in memory."""

    fenced = False

    def __init__(self, node_id: str, cooldown: EscapeCooldown | None = None) -> None:
        self.node_id = node_id
        self.incarnation = new_incarnation(node_id)
        self._node: Node | None = None
        self._seats: dict[int, SeatRef] = {}
        self._cooldown = cooldown or EscapeCooldown()
        self.cluster = LocalCluster(self)

    @property
    def node(self) -> Node:
        """The parts of this node the bus calls back (once started)."""
        assert self._node is not None, "the bus is not started"
        return self._node

    async def start(self, node: Node) -> None:
        self._node = node

    async def close(self) -> None:
        self._node = None

    def status(self) -> dict[str, Any]:
        return {"bus": "local", "up": True}

    async def claim_seat(self, account_id: int, table_id: str) -> SeatRef | None:
        current = self._seats.get(account_id)
        if current is not None:
            return current
        self._seats[account_id] = SeatRef(table_id, None)
        return None

    async def seat_of(self, account_id: int) -> SeatRef | None:
        return self._seats.get(account_id)

    def seat_changed(self, account_id: int, table_id: str, seat: int | None) -> None:
        if seat is not None:
            self._seats[account_id] = SeatRef(table_id, seat)
        elif (current := self._seats.get(account_id)) is not None and current.table_id == table_id:
            del self._seats[account_id]

    def publish_summary(self, table_id: str, summary: Summary | None) -> None:
        self.node.feed.on_summary(table_id, summary)

    async def send_command(self, table_id: str, envelope: Envelope) -> bool:
        return False  # there is no other node

    def deliver(self, delivery: Delivery) -> None:
        self.node.clients.on_deliver(delivery)

    def close_client(self, client: str, code: int, text: str) -> None:
        self.node.clients.on_close_client(client, code, text)

    async def connection_opened(self, account_id: int, client: str) -> str | None:
        return None  # the lobby keeps one connection per account itself

    def connection_closed(self, account_id: int, client: str) -> None:
        return None

    async def new_table(self, table_id: str) -> None:
        return None

    def escaped(self, account_id: int) -> None:
        self._cooldown.strike(account_id, time.time())

    async def escape_wait(self, account_id: int) -> float:
        return self._cooldown.wait(account_id, time.time())

    def logout(self, account_id: int, session: str) -> None:
        self.node.clients.on_logout(account_id, session)

    def table_running(self, table_id: str) -> None:
        return None

    def table_gone(self, table_id: str) -> None:
        return None

    def follow(self, table_id: str) -> None:
        return None  # no other node can take a table


class LocalCluster(Cluster):
    """One node's card room: itself alone."""

    def __init__(self, bus: LocalBus) -> None:
        self.bus = bus
        self.draining = False

    async def broadcast(self, order: Order) -> None:
        self.bus.node.orders.on_order(order)

    def set_draining(self, on: bool) -> None:
        self.draining = on

    def adopter(self) -> str | None:
        return None  # there is no other node

    def open_elsewhere(self, node: str, opening: TableOpening) -> None:
        raise AssertionError(f"one node has no other node {node!r} to open a table on")

    async def nodes(self) -> list[NodeStatus]:
        boot = self.bus.incarnation.partition(".")[2]
        return [NodeStatus(self.bus.node_id, self.draining, len(self.bus.node.tables.owned()), boot)]

    async def owners(self, table_ids: Sequence[str]) -> dict[str, str | None]:
        here = self.bus.node.tables.owned()
        return {table_id: self.bus.node_id if table_id in here else None for table_id in table_ids}

    async def connection_of(self, account_id: int) -> str | None:
        return self.bus.node.clients.connection_of(account_id)
