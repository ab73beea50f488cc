"""What nodes send each other (docs/ARCHITECTURE.md, "Many nodes"): typed messages, one codec each.

A client's message for a table travels to the table's owner as an :class:`Envelope`; what a table
has for a client comes back as a :class:`Delivery` (the message's JSON text, and where the client is
now if the message moved it: :class:`AtTable`, :class:`LeftTable`, :class:`TurnedAway`). Both are
also what the lobby and the table hosts hand each other on one node, so one node and many behave the
same. On Redis (``tuolaji.server.redisbus``) a node's channel carries :data:`NodeMessage` (one of
:class:`ForTable`, :class:`ForClients`, :class:`CloseClient`, :class:`TableOpening`), the ``lobby`` channel
:class:`SummaryChange`, the ``logout`` channel :class:`Logout`; the seat index holds
:class:`SeatRef`. ``encode`` gives the text, ``decode`` reads it back (``ValueError``/``KeyError``/
``TypeError`` on text no node wrote).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from tuolaji.room.commands import Player
from tuolaji.wire.outbound import dumps

Summary = dict[str, Any]
"""A table's lobby entry (``Table.summary()``, docs/PROTOCOL.md §2.3 ``TableSummary``): free-form JSON."""


@dataclass(frozen=True)
class AtTable:
    """The client now sits at ``seat`` of ``table_id`` (None: it watches)."""

    table_id: str
    seat: int | None


@dataclass(frozen=True)
class LeftTable:
    """The client is no longer at ``table_id``."""

    table_id: str


@dataclass(frozen=True)
class TurnedAway:
    """``table_id`` refused the client's join or watch: it is not on its way there any more."""

    table_id: str


PlaceChange = AtTable | LeftTable | TurnedAway
"""Where a delivered message puts its client."""


@dataclass(frozen=True)
class Delivery:
    """A message for the client ``client``: its JSON ``text`` and, when it moves the client, ``change``."""

    client: str
    text: str
    change: PlaceChange | None = None

    def to_json(self) -> list[Any]:
        """``[client, text]``, or with the change: ``[client, text, "at", table, seat]``,
        ``[client, text, "left", table]``, ``[client, text, "away", table]``."""
        match self.change:
            case None:
                return [self.client, self.text]
            case AtTable(table_id, seat):
                return [self.client, self.text, "at", table_id, seat]
            case LeftTable(table_id):
                return [self.client, self.text, "left", table_id]
            case TurnedAway(table_id):
                return [self.client, self.text, "away", table_id]

    @classmethod
    def from_json(cls, data: list[Any]) -> Delivery:
        """The delivery :meth:`to_json` wrote."""
        client, text = str(data[0]), str(data[1])
        if len(data) == 2:
            return cls(client, text)
        tag, table_id = data[2], str(data[3])
        change: PlaceChange
        if tag == "at":
            seat = data[4]
            change = AtTable(table_id, None if seat is None else int(seat))
        elif tag == "left":
            change = LeftTable(table_id)
        elif tag == "away":
            change = TurnedAway(table_id)
        else:
            raise ValueError(f"unknown place change {tag!r}")
        return cls(client, text, change)


EnvelopeKind = Literal["message", "attach", "watch", "detach"]


@dataclass(frozen=True)
class Envelope:
    """A command on its way to a table's host: ``kind`` is ``message`` (a client's table message,
    its JSON ``text``), ``attach`` (the client's account sits there and connected), ``watch`` or
    ``detach`` (the client's connection closed). ``player`` is the sender as the table shows it (for
    ``attach`` and a ``join`` message: the table needs it to seat the account); ``invite`` the code a
    ``watch`` of a private table comes back with (its spectator followed it)."""

    kind: EnvelopeKind
    client: str
    player: Player | None = None
    text: str | None = None
    invite: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Its JSON object (``invite`` only when there is one)."""
        data: dict[str, Any] = {
            "kind": self.kind,
            "client": self.client,
            "account": self.player.to_json() if self.player is not None else None,
            "text": self.text,
        }
        if self.invite is not None:
            data["invite"] = self.invite
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Envelope:
        """The envelope :meth:`to_json` wrote."""
        kind = data["kind"]
        if kind not in ("message", "attach", "watch", "detach"):
            raise ValueError(f"unknown envelope kind {kind!r}")
        account, text, invite = data.get("account"), data.get("text"), data.get("invite")
        return cls(
            kind,
            str(data["client"]),
            Player.from_json(account) if isinstance(account, dict) else None,
            text if isinstance(text, str) else None,
            invite if isinstance(invite, str) else None,
        )


@dataclass(frozen=True)
class ForTable:
    """An envelope for the table ``table_id``, sent to the node that runs it."""

    table_id: str
    envelope: Envelope


@dataclass(frozen=True)
class ForClients:
    """Messages for clients of the receiving node, in order, from the node ``node`` (which runs
    their tables; None from a node that did not say)."""

    deliveries: tuple[Delivery, ...]
    node: str | None = None


@dataclass(frozen=True)
class CloseClient:
    """Send the client ``client`` the message ``text``, then close its socket with ``code``."""

    client: str
    code: int
    text: str


@dataclass(frozen=True)
class TableOpening:
    """A new table for a client: its id and options (``TableOptions`` JSON), who asked (``client``,
    ``player``) and where they sit (``seat``), the ``bot`` of a ``play_now`` (None: ``create_table``),
    a private table's ``invite`` code and the request's ``ref``. A draining node sends it to another
    node, which opens the table there (docs/OPERATIONS.md, Deploy with a drain)."""

    table_id: str
    options: dict[str, Any]
    client: str
    player: Player
    seat: int
    bot: str | None = None
    invite: str | None = None
    ref: str | int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table_id,
            "options": self.options,
            "client": self.client,
            "player": self.player.to_json(),
            "seat": self.seat,
            "bot": self.bot,
            "invite": self.invite,
            "ref": self.ref,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableOpening:
        options, ref = data["options"], data.get("ref")
        if not isinstance(options, dict):
            raise TypeError("a table's options are a JSON object")
        return cls(
            str(data["table"]),
            options,
            str(data["client"]),
            Player.from_json(data["player"]),
            int(data["seat"]),
            None if data.get("bot") is None else str(data["bot"]),
            None if data.get("invite") is None else str(data["invite"]),
            ref if isinstance(ref, str | int) and not isinstance(ref, bool) else None,
        )


NodeMessage = ForTable | ForClients | CloseClient | TableOpening
"""What a node's own channel carries."""


def encode_node_message(item: NodeMessage) -> str:
    """The text of ``item`` on a node's channel."""
    match item:
        case ForTable(table_id, envelope):
            return dumps({"k": "cmd", "table": table_id, "e": envelope.to_json()})
        case ForClients(deliveries, node):
            return dumps({"k": "dlv", "m": [delivery.to_json() for delivery in deliveries], "n": node})
        case CloseClient(client, code, text):
            return dumps({"k": "close", "client": client, "code": code, "text": text})
        case TableOpening():
            return dumps({"k": "open", "o": item.to_json()})


def decode_node_message(text: str) -> NodeMessage:
    """The message :func:`encode_node_message` wrote."""
    body = json.loads(text)
    kind = body["k"]
    if kind == "cmd":
        return ForTable(str(body["table"]), Envelope.from_json(body["e"]))
    if kind == "dlv":
        node = body.get("n")
        return ForClients(tuple(Delivery.from_json(item) for item in body["m"]), None if node is None else str(node))
    if kind == "close":
        return CloseClient(str(body["client"]), int(body["code"]), str(body["text"]))
    if kind == "open":
        return TableOpening.from_json(body["o"])
    raise ValueError(f"unknown node message {kind!r}")


@dataclass(frozen=True)
class SummaryChange:
    """A table's lobby entry changed: its ``summary``, or None when the table closed."""

    table_id: str
    summary: Summary | None

    def encode(self) -> str:
        """Its text on the ``lobby`` channel."""
        return dumps({"id": self.table_id, "s": self.summary})

    @classmethod
    def decode(cls, text: str) -> SummaryChange:
        """The change :meth:`encode` wrote."""
        data = json.loads(text)
        summary = data["s"]
        if summary is not None and not isinstance(summary, dict):
            raise TypeError("a table's summary is a JSON object")
        return cls(str(data["id"]), summary)


def encode_summary(summary: Summary) -> str:
    """A table's summary as stored in the lobby index."""
    return dumps(summary)


def decode_summary(text: str) -> Summary:
    """A summary :func:`encode_summary` wrote."""
    summary = json.loads(text)
    if not isinstance(summary, dict):
        raise TypeError("a table's summary is a JSON object")
    return summary


@dataclass(frozen=True)
class Logout:
    """``account_id`` logged out of the session ``session``: close its connections that use it."""

    account_id: int
    session: str

    def encode(self) -> str:
        """``account|session``."""
        return f"{self.account_id}|{self.session}"

    @classmethod
    def decode(cls, text: str) -> Logout:
        """The logout :meth:`encode` wrote."""
        account, _, session = text.partition("|")
        return cls(int(account), session)


@dataclass(frozen=True)
class SeatRef:
    """Where an account sits: a table and (once the table confirmed it) the seat."""

    table_id: str
    seat: int | None

    def encode(self) -> str:
        """``table|seat`` (the seat empty while a join is being decided)."""
        return f"{self.table_id}|{'' if self.seat is None else self.seat}"

    @classmethod
    def decode(cls, text: str) -> SeatRef:
        """The place :meth:`encode` wrote."""
        table_id, _, seat = text.partition("|")
        return cls(table_id, int(seat) if seat else None)
