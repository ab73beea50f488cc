"""A table's messages as deliveries: the effects that speak to clients, encoded as JSON text once each.

A table step's :class:`~tuolaji.room.effects.Send`, :class:`~tuolaji.room.effects.Refuse`,
:class:`~tuolaji.room.effects.Ack`, :class:`~tuolaji.room.effects.SendState` and
:class:`~tuolaji.room.effects.SendSummary` become :class:`~tuolaji.wire.nodes.Delivery` items: the
text for one client and, when the message moves it, where it is now (a ``table`` message seats it
or makes it a spectator, a ``left`` message takes it away, a refused join or watch turns it away).
The lobby learns its clients' places from these, never from the text.

What several clients get alike is encoded once per broadcast: a message whose fields are the very
same object for every recipient (``hand_end``, ``phrase``) within one step, the summary of the
``table`` messages (finished with each recipient's seat), and the public part of the ``state`` views.
"""

from __future__ import annotations

from typing import Any

from tuolaji.room.effects import Ack, Refuse, Send, SendState, SendSummary
from tuolaji.wire import outbound
from tuolaji.wire.nodes import AtTable, Delivery, LeftTable, PlaceChange, TurnedAway
from tuolaji.wire.views import ViewEncoder, event_json

Spoken = Send | Refuse | Ack | SendState | SendSummary
"""The effects that become messages."""


class Outgoing:
    """Encodes one table's messages; keep one per table (its view encoder caches the hand's tricks).
    ``epoch`` is the owner's fencing token, which every ``state`` carries (docs/PROTOCOL.md §3: a
    client drops a state of an older owner).

    Call :meth:`step` before each table step's effects, then :meth:`encode` on each of them in order.
    """

    def __init__(self, table_id: str, epoch: int = 0) -> None:
        self.table_id = table_id
        self.epoch = epoch
        self._views = ViewEncoder()
        self._shared: dict[tuple[str, int], tuple[dict[str, Any], str]] = {}

    def step(self) -> None:
        """A new step begins: what the last one encoded is not shared with it."""
        self._shared.clear()

    def reset(self) -> None:
        """The table was rebuilt: forget the cached tricks too."""
        self._shared.clear()
        self._views = ViewEncoder()

    def encode(self, effect: Spoken, asking: str | None = None) -> list[Delivery]:
        """The deliveries of ``effect``; ``asking`` is the client whose join or watch this step
        decides (a refusal to it turns it away from the table)."""
        match effect:
            case Send(client, kind, fields):
                return [Delivery(client, self._text(kind, fields), self._moved(kind, fields))]
            case Refuse(client, code, text, ref, rule, params):
                body = outbound.dumps(outbound.error_message(code, text, ref, rule, params))
                return [Delivery(client, body, TurnedAway(self.table_id) if client == asking else None)]
            case Ack(client, ref):
                return [Delivery(client, outbound.dumps(outbound.message("ack", ref=ref)))]
            case SendState():
                texts = self.state_texts(effect)
                return [Delivery(client, text) for (client, _), text in zip(effect.recipients, texts, strict=True)]
            case SendSummary(summary, recipients):
                head = outbound.message_head("table", table=summary)
                return [
                    Delivery(client, outbound.finish(head, "seat", seat), AtTable(self.table_id, seat))
                    for client, seat in recipients
                ]

    def internal_error(self, client: str, ref: str | int | None) -> Delivery:
        """The answer to a command the table could not carry out (it is rebuilt and goes on); a join
        or watch it was is over."""
        text = outbound.dumps(outbound.error_message("internal", "internal server error; the table goes on", ref))
        return Delivery(client, text, TurnedAway(self.table_id))

    def _text(self, kind: str, fields: dict[str, Any]) -> str:
        """A ``Send``'s text; the same ``fields`` object sent again within the step is not encoded again."""
        key = (kind, id(fields))
        shared = self._shared.get(key)
        if shared is not None and shared[0] is fields:
            return shared[1]
        text = outbound.dumps(outbound.message(kind, **fields))
        self._shared[key] = (fields, text)
        return text

    def _moved(self, kind: str, fields: dict[str, Any]) -> PlaceChange | None:
        if kind == "table":
            return AtTable(self.table_id, fields["seat"])
        if kind == "left":
            return LeftTable(self.table_id)
        return None

    def state_texts(self, effect: SendState) -> list[str]:
        """The ``state`` message of each recipient, as JSON text (the shared part encoded once)."""
        head = outbound.message_head(
            "state",
            table_id=self.table_id,
            epoch=self.epoch,
            hand=effect.hand,
            seq=effect.seq,
            full=effect.full,
            clock=effect.clock,
        )
        encoded = [(event.to, event_json(event)) for event in effect.events]
        views = effect.views
        public = self._views.public(next(iter(views.values())), effect.full) if views else ""
        texts = []
        for _, seat in effect.recipients:
            seen = ",".join(text for to, text in encoded if to is None or to == seat)
            view = self._views.seat_view(public, views[seat]) if views else "null"
            cost = effect.escape_costs.get(seat) if seat is not None else None
            escape = "null" if cost is None else f'{{"points":{-cost.points},"silver":{-cost.silver}}}'
            texts.append(f'{head},"events":[{seen}],"view":{view},"escape_cost":{escape}}}')
        return texts
