"""Messages out of a table: who hears it, its summary, ``state`` broadcasts and the full picture.

:class:`Outbox` collects the effects of one :meth:`~tuolaji.room.table.Table.handle` step in order;
every part of the table adds to it, and the table hands them to the shell at the end of the step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tuolaji.cards import RANKS
from tuolaji.game.settlement import Balance, Change, escape_loss
from tuolaji.game.view import Event, SeatView
from tuolaji.room.effects import Effect, Send, SendState, SendSummary
from tuolaji.room.state import TableData, TableState

Recipient = tuple[str, int | None]
"""A connection and the seat it sees the table from (None: a spectator)."""
ESCAPES_KEPT = 64
"""Balances whose escape cost a table keeps (four a hand; the rest from earlier hands)."""


class Outbox:
    """The effects of the step being handled, and the messages the table sends."""

    def __init__(self, data: TableData) -> None:
        self._data = data
        self._effects: list[Effect] = []
        self._escapes: dict[Balance, Change] = {}
        """What an escape costs each balance asked about (the balances of a hand's people do not
        change within it; a settlement makes new ones)."""

    def add(self, effect: Effect) -> None:
        """Append ``effect`` to the step's effects."""
        self._effects.append(effect)

    def send(self, client: str, kind: str, fields: dict[str, Any]) -> None:
        """Send ``client`` the message ``kind``."""
        self._effects.append(Send(client, kind, fields))

    def take(self) -> list[Effect]:
        """The step's effects, in order; the outbox is empty again."""
        effects, self._effects = self._effects, []
        return effects

    def recipients(self) -> list[Recipient]:
        """Everyone at the table: the seated connections by seat, then the spectators in order."""
        data = self._data
        seated: list[Recipient] = [(seat.client, seat.index) for seat in data.seats if seat.client]
        return seated + [(client, None) for client in sorted(data.watchers)]

    def tell_all(self, kind: str, fields: dict[str, Any]) -> None:
        """Send everyone at the table the message ``kind``."""
        for client, _ in self.recipients():
            self.send(client, kind, fields)

    def summary(self) -> dict[str, Any]:
        """The protocol's ``TableSummary``."""
        data = self._data
        round_, match = data.round, data.match
        levels = match.levels if match is not None else [data.options.start_level_index] * 2
        autoplay = round_.autoplay if round_ is not None else [False] * 4
        seats = [
            {
                "seat": seat.index,
                "kind": seat.kind,
                "account": seat.player.shown() if seat.player is not None else None,
                "bot": seat.bot,
                "ready": seat.ready or seat.bot is not None,
                "connected": seat.client is not None or seat.bot is not None,
                "autoplay": seat.bot is not None or (seat.player is not None and autoplay[seat.index]),
            }
            for seat in data.seats
        ]
        return {
            "id": data.id,
            "number": data.table_number,
            "options": data.options.to_json(),
            "state": data.shown_state(),
            "seats": seats,
            "levels": [RANKS[level] for level in levels],
            "dealer": match.dealer if match is not None else None,
            "hands_played": match.hands_played if match is not None else 0,
            "redeals": match.redeals_in_row if match is not None else 0,
            "spectators": len(data.watchers),
            "private": data.private,
            "invite": data.invite,
            "creator": data.creator,
        }

    def changed(self, skip: str | None = None) -> None:
        """The summary changed: tell the table (but ``skip``, who gets it with the full picture) and the lobby."""
        recipients = tuple(recipient for recipient in self.recipients() if recipient[0] != skip)
        self._effects.append(SendSummary(self.summary(), recipients))

    def state(self, recipients: Sequence[Recipient], events: Sequence[Event], full: bool) -> None:
        """A ``state`` message for each of ``recipients``: its seat's view and ``events``."""
        data = self._data
        round_ = data.round
        views: dict[int | None, SeatView] = {}
        if round_ is not None:
            views = round_.views(dict.fromkeys(seat for _, seat in recipients))
        hand = data.match.rounds_started if data.match is not None else 0
        clock = data.deadline.to_json(data.now) if data.deadline is not None else None
        costs = self._escape_costs(recipients)
        self._effects.append(SendState(tuple(recipients), views, tuple(events), data.seq, hand, full, clock, costs))

    def _escape_costs(self, recipients: Sequence[Recipient]) -> dict[int, Change]:
        """What leaving now would cost each seated person among ``recipients``: an escape (R43)
        during a hand, nothing between hands (no entry)."""
        data = self._data
        if not data.hand_running():
            return {}
        costs: dict[int, Change] = {}
        for _, seat in recipients:
            player = data.seats[seat].player if seat is not None else None
            if seat is not None and player is not None and player.balance is not None:
                costs[seat] = self._escape_loss(player.balance)
        return costs

    def _escape_loss(self, balance: Balance) -> Change:
        cost = self._escapes.get(balance)
        if cost is None:
            if len(self._escapes) >= ESCAPES_KEPT:
                self._escapes.clear()
            cost = self._escapes[balance] = escape_loss(balance)
        return cost

    def broadcast(self, events: Sequence[Event], skip: str | None = None) -> None:
        """The next ``state`` (``seq`` one more) with ``events`` to everyone at the table but ``skip``."""
        self._data.seq += 1
        recipients = [recipient for recipient in self.recipients() if recipient[0] != skip]
        if recipients:
            self.state(recipients, events, False)

    def send_full(self, client: str, seat: int | None, summary: bool = True) -> None:
        """The full picture for one connection (join, watch, reconnect, sync): the ``table`` summary
        (unless ``summary`` is False: it came with this step's :class:`SendSummary`), the full
        ``state`` and, between hands, the last hand's end and settlement."""
        data = self._data
        if summary:
            self.send(client, "table", {"table": self.summary(), "seat": seat})
        self.state([(client, seat)], [], True)
        if data.hand_end is not None and data.state in (TableState.BETWEEN, TableState.STOPPED):
            self.send(client, "hand_end", data.hand_end)
