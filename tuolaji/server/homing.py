"""A client is best served by the node that runs its table: this node tells it which node that is.

A client connected to one node whose table runs on another has every message carried through Redis
both ways, which costs about half as much node CPU again as the move itself (docs/BENCHMARKS.md,
"Across nodes"). So when a table on another node seats one of this node's clients or lets it watch (the
``table`` message comes from that node), this node tells the client the node's name in a
``table_node`` message (docs/PROTOCOL.md §3). The client may connect again with ``/ws?node=NAME``,
which the proxy routes to that node (docs/nginx.conf); its ``hello`` there takes its seat back, and
the connection it leaves is closed only once the seat is attached to the new one
(:meth:`~tuolaji.server.clients.Clients.retire_replaced`), so the seat never goes to 託管 on the way.

No loop: a connection is told about a table's node once, at most :data:`MAX_HINTS` times in all,
and never about the node it asked for in ``?node=`` (it asked and was not put there: the proxy
does not route by node, or that node is down and the proxy fell back on another). A client that
ignores the message plays on through Redis, as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tuolaji.wire.outbound import table_node_message

MAX_HINTS = 3
"""``table_node`` messages one connection gets at most (a table that keeps moving does not keep its
clients moving)."""
MAX_NAME = 64
"""The longest node name a client may ask for (node names are letters and digits)."""


@dataclass
class Hints:
    """What one connection asked for and was told: the node named in its ``/ws?node=`` (None if
    none, or not a node's name), and the (table, node) pairs it was told about."""

    asked: str | None = None
    told: set[tuple[str, str]] = field(default_factory=set)

    @classmethod
    def asking(cls, node: str | None) -> Hints:
        """The hints of a connection opened with ``?node=`` ``node`` (anything but a node's name
        counts as asking for none: the connection is served here all the same)."""
        named = node is not None and 0 < len(node) <= MAX_NAME and node.isascii() and node.isalnum()
        return cls(node if named else None)


class Homing:
    """Decides when this node (``node_id``) tells a client the node of its table; ``on`` False
    (``--no-node-hints``): never."""

    def __init__(self, node_id: str, on: bool = True) -> None:
        self.node_id = node_id
        self.on = on

    def hint(self, hints: Hints, table_id: str, owner: str) -> dict[str, Any] | None:
        """The ``table_node`` message for a connection with ``hints`` whose table ``table_id`` runs
        on ``owner``, or None when it is not to be told (see the module docstring); a message given
        is counted as told."""
        if not self.on or owner in (self.node_id, hints.asked) or not owner:
            return None
        if (table_id, owner) in hints.told or len(hints.told) >= MAX_HINTS:
            return None
        hints.told.add((table_id, owner))
        return table_node_message(table_id, owner)
