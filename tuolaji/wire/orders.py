"""What the moderators' console tells every node, and what each node says of itself.

An :data:`Order` travels to every node (on Redis the ``mod`` channel; on one node it is handed over
directly): :class:`Sanctioned` (an account was banned or muted, or that was lifted: its sockets close,
its phrases stop), :class:`NoticeSent` (a notice for every client), :class:`DrainOrder` (the node it
names drains, or stops draining) and :class:`CloseOrder` (the node running the table closes it).
:class:`NodeStatus` is a node's heartbeat: whether it drains and how many tables it runs.
``encode_order`` / ``decode_order`` are the one codec (``ValueError``/``KeyError``/``TypeError`` on
text no node wrote).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tuolaji.wire.outbound import dumps


@dataclass(frozen=True)
class Sanctioned:
    """``account_id`` is now banned or muted (``kind``) for ``reason`` (a code) until ``until_ms``
    (epoch ms; None: for good); ``active`` false: that sanction was lifted."""

    account_id: int
    kind: str
    active: bool
    reason: str | None = None
    until_ms: int | None = None


@dataclass(frozen=True)
class NoticeSent:
    """A notice for every client: ``kind`` (``maintenance``, ``message``), the moderator's ``text``
    (``message`` only), shown until ``ends_ms`` (epoch ms: for ``maintenance``, when it starts);
    ``id`` tells notices apart."""

    id: int
    kind: str
    ends_ms: int
    text: str | None = None

    def to_message(self, now_ms: int) -> dict[str, Any]:
        """The ``notice`` message's fields, with the time left at ``now_ms``."""
        return {"id": self.id, "kind": self.kind, "remaining_ms": max(0, self.ends_ms - now_ms), "text": self.text}


@dataclass(frozen=True)
class DrainOrder:
    """The node ``node`` drains (``on``), between hands or, with ``now``, at once; or stops draining."""

    node: str
    on: bool
    now: bool = False


@dataclass(frozen=True)
class CloseOrder:
    """The node running ``table_id`` closes it: the hand dissolved, nobody settled; the players are
    told ``reason`` (a code of ``tuolaji.wire.moderation.CLOSE_REASONS``)."""

    table_id: str
    reason: str


Order = Sanctioned | NoticeSent | DrainOrder | CloseOrder
"""What the console tells every node."""


def encode_order(order: Order) -> str:
    """The text of ``order`` on the ``mod`` channel."""
    match order:
        case Sanctioned(account_id, kind, active, reason, until_ms):
            body: dict[str, Any] = {"k": "sanction", "account": account_id, "kind": kind, "active": active}
            body.update(reason=reason, until=until_ms)
        case NoticeSent(notice_id, kind, ends_ms, text):
            body = {"k": "notice", "id": notice_id, "kind": kind, "ends": ends_ms, "text": text}
        case DrainOrder(node, on, now):
            body = {"k": "drain", "node": node, "on": on, "now": now}
        case CloseOrder(table_id, reason):
            body = {"k": "close", "table": table_id, "reason": reason}
    return dumps(body)


def _optional_int(value: object) -> int | None:
    return None if value is None else int(str(value))


def decode_order(text: str) -> Order:
    """The order :func:`encode_order` wrote."""
    body = json.loads(text)
    kind = body["k"]
    if kind == "sanction":
        reason = body.get("reason")
        return Sanctioned(
            int(body["account"]),
            str(body["kind"]),
            bool(body["active"]),
            None if reason is None else str(reason),
            _optional_int(body.get("until")),
        )
    if kind == "notice":
        text_ = body.get("text")
        return NoticeSent(int(body["id"]), str(body["kind"]), int(body["ends"]), None if text_ is None else str(text_))
    if kind == "drain":
        return DrainOrder(str(body["node"]), bool(body["on"]), bool(body["now"]))
    if kind == "close":
        return CloseOrder(str(body["table"]), str(body["reason"]))
    raise ValueError(f"unknown order {kind!r}")


@dataclass(frozen=True)
class NodeStatus:
    """A node as its heartbeat tells it: its name, whether it drains, how many tables it runs, and
    the start token of its process (``boot``; a node restarted under the same name has a new one)."""

    node: str
    draining: bool = False
    tables: int = 0
    boot: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"node": self.node, "draining": self.draining, "tables": self.tables, "boot": self.boot}

    def encode(self) -> str:
        """Its text (a node's heartbeat value)."""
        return dumps(self.to_json())

    @classmethod
    def decode(cls, node: str, text: str) -> NodeStatus:
        """The status :meth:`encode` wrote for ``node`` (an older node's heartbeat ``1``: not draining)."""
        data = json.loads(text)
        if not isinstance(data, dict):
            return cls(node)
        return cls(node, bool(data.get("draining", False)), int(data.get("tables", 0)), str(data.get("boot", "")))
