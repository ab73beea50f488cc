"""Connections at a table: a seated person's connection comes and goes (R46), a client asks for the
full picture again, the table is resumed after a restore, the players' titles change."""

from __future__ import annotations

from tuolaji.game.actions import SetAutoPlay
from tuolaji.room.clock import Clock
from tuolaji.room.commands import Player
from tuolaji.room.moves import Moves
from tuolaji.room.outbox import Outbox
from tuolaji.room.seating import Seating
from tuolaji.room.slowbots import SlowBots
from tuolaji.room.state import Refused, TableData, TableState


class Connections:
    """Which connection acts for each seat, and what a connection gets when it comes."""

    def __init__(
        self, data: TableData, outbox: Outbox, clock: Clock, moves: Moves, seating: Seating, slow_bots: SlowBots
    ) -> None:
        self._data = data
        self._outbox = outbox
        self._clock = clock
        self._moves = moves
        self._seating = seating
        self._slow_bots = slow_bots

    def attach(self, client: str, account_id: int) -> None:
        """``client`` is the seated ``account_id``'s new connection (R46): 託管 since it went away ends.
        The client gets the full picture with the one summary; everyone else the change."""
        data = self._data
        index = data.seat_of(account_id)
        if index is None:
            # The seat went between hello and now (R46: removed at the end of the hand).
            self._outbox.send(client, "left", {"table_id": data.id, "reason": "removed"})
            return
        seat = data.seats[index]
        seat.client, seat.grace = client, False
        if seat.away_autoplay and data.round is not None:
            # The others hear the change and the summary; the client gets the table as it is after it.
            self._moves.apply(SetAutoPlay(index, False, "reconnect"), skip=client)
            self._outbox.send_full(client, index)
        else:
            self._outbox.send_full(client, index)
            self._outbox.changed(skip=client)

    def sync(self, client: str) -> None:
        """``client`` missed a message: the full picture again."""
        data = self._data
        seat = data.client_seat(client)
        if seat is None and client not in data.watchers:
            raise Refused("not_seated", f"you are not at table {data.id}", params={"table": data.id})
        self._outbox.send_full(client, seat)

    def detach(self, client: str) -> None:
        """The connection ``client`` closed: a spectator goes; a seat goes to 託管 during a match and
        is kept until the hand ends (R46), else it is freed."""
        data = self._data
        if client in data.watchers:
            data.watchers.discard(client)
            self._outbox.changed()
            return
        index = data.client_seat(client)
        if index is None:
            return
        seat = data.seats[index]
        seat.client = None
        round_ = data.round
        if data.state in (TableState.PLAYING, TableState.SETTLING, TableState.BETWEEN) and round_ is not None:
            # R46: the seat goes to 託管 at once and is kept until the hand ends.
            if not round_.autoplay[index]:
                self._moves.apply(SetAutoPlay(index, True, "disconnect"))
            self._outbox.changed()
            return
        self._seating.vacate(index, "removed")

    def resume(self) -> None:
        """The table was restored: nobody is connected, and the clocks start afresh (R46, RULES-NOTES)."""
        data = self._data
        for seat in data.seats:
            seat.client = None
            # A seat in 託管 since a disconnect was away before the restart: R46 as without one.
            seat.grace = seat.player is not None and not seat.away_autoplay
        data.watchers.clear()
        data.deadline = None
        self._slow_bots.forget()
        if data.state is TableState.PLAYING:
            self._clock.arm()
        elif data.state is TableState.BETWEEN:
            self._clock.set("next_hand", None, data.config.next_hand_delay_ms)
        elif data.state in (TableState.WAITING, TableState.STOPPED):
            self._clock.set("reconnect", None, data.config.reconnect_grace_ms)
        self._outbox.changed()

    def refresh(self, players: dict[int, Player]) -> None:
        """The seated ``players`` (by seat) are shown with their current titles (R42)."""
        changed = False
        for index, player in players.items():
            seat = self._data.seats[index]
            if seat.player is not None and seat.player.id == player.id and seat.player != player:
                seat.player = player
                changed = True
        if changed:
            self._outbox.changed()
