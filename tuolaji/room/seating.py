"""Seating and admission at a table: sitting down, watching, bots, start (R20, R47), leaving (R43),
freeing seats, the end of a match, closing, and private tables with their invite codes."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Any

from tuolaji.game.actions import Escape
from tuolaji.game.settlement import escape_loss
from tuolaji.room.commands import Player
from tuolaji.room.effects import Closed, Seated
from tuolaji.room.entries import (
    BotSat,
    Freed,
    MadePrivate,
    MadePublic,
    MatchBegun,
    MatchEnded,
    MatchResumed,
    Readied,
    Sat,
    TableClosed,
)
from tuolaji.room.journal import Journal
from tuolaji.room.moves import Moves
from tuolaji.room.outbox import Outbox
from tuolaji.room.state import Refused, TableData, TableState

_IN_A_MATCH = (TableState.PLAYING, TableState.SETTLING, TableState.BETWEEN)


class Seating:
    """Who sits where and who may come in; ``seeds`` gives the seed of each new match."""

    def __init__(
        self, data: TableData, outbox: Outbox, journal: Journal, moves: Moves, seeds: Callable[[], int]
    ) -> None:
        self._data = data
        self._outbox = outbox
        self._journal = journal
        self._moves = moves
        self.seeds = seeds

    def join(self, client: str, player: Player, index: int, invite: str | None = None) -> None:
        """``player`` (connected as ``client``) sits down at the empty seat ``index``."""
        data = self._data
        if data.seat_of(player.id) is not None or data.client_seat(client) is not None:
            raise Refused("already_seated", "leave your current table first", params={"table": data.id})
        self._admit(client, player.id, invite)
        self._check_empty(index)
        data.watchers.discard(client)  # a spectator sits down
        self._journal.record(Sat(index, player))
        data.seats[index].client = client
        self._outbox.add(Seated(player.id, index))
        self._outbox.changed(skip=client)
        self._outbox.send_full(client, index)

    def play_now(self, client: str, player: Player, bot: str) -> None:
        """``player`` sits at seat 0 of this new table, three ``bot``s fill the rest, and the match starts."""
        self.join(client, player, 0)
        for index in (1, 2, 3):
            self.add_bot(index, bot)
        self.press_start(client)

    def seat_match(self, people: tuple[tuple[str, Player] | None, ...], bot: str) -> None:
        """A quick match's people sit down at this new table (a ``bot`` at each seat None), all ready:
        the match starts."""
        for index, person in enumerate(people):
            if person is None:
                self.add_bot(index, bot)
            else:
                self.join(*person, index)
        for person in people:
            if person is not None:
                self.press_start(person[0])

    def watch(self, client: str, invite: str | None) -> None:
        """``client`` watches as a spectator."""
        data = self._data
        if data.client_seat(client) is not None:
            raise Refused("already_seated", "leave your current table first", params={"table": data.id})
        self._admit(client, None, invite)
        data.watchers.add(client)
        self._outbox.changed(skip=client)
        self._outbox.send_full(client, None)

    def add_bot(self, index: int, bot: str) -> None:
        """The bot ``bot`` takes the empty seat ``index``."""
        self._check_empty(index)
        self._journal.record(BotSat(index, bot))
        self._outbox.changed()
        self.maybe_start()

    def remove_bot(self, index: int) -> None:
        """The bot at ``index`` goes; only while the table waits for a match (R47)."""
        data = self._data
        if data.seats[index].bot is None:
            raise Refused("seat_empty", f"seat {index} holds no bot", params={"seat": index, "table": data.id})
        if data.state in _IN_A_MATCH:
            raise Refused(
                "hand_in_progress",
                "bots can be removed only while the table waits for a match (R47)",
                "R47",
                {"table": data.id, "state": data.shown_state(), "rule": "R47"},
            )
        self.vacate(index, "removed")

    def press_start(self, client: str) -> None:
        """``client``'s player presses start (R20, R47); the match starts once all four are ready."""
        data = self._data
        index = data.seated(client)
        if data.state not in (TableState.WAITING, TableState.STOPPED):
            raise Refused(
                "not_ready_state",
                f"the table is {data.shown_state()}; start is pressed before a match (R20)",
                "R20",
                {"table": data.id, "state": data.shown_state(), "rule": "R20"},
            )
        self._journal.record(Readied(index))
        self._outbox.changed()
        self.maybe_start()

    def maybe_start(self) -> None:
        """Four seats filled and ready: a new match, or (R20) the stopped one goes on."""
        data = self._data
        if data.state not in (TableState.WAITING, TableState.STOPPED):
            return
        if not all(seat.kind != "empty" and (seat.ready or seat.bot is not None) for seat in data.seats):
            return
        if data.state is TableState.STOPPED and data.match is not None:
            self._journal.record(MatchResumed())
        else:
            self._journal.record(MatchBegun(self.seeds()))
        self._moves.start_round()

    def leave(self, client: str, escape: bool = True) -> None:
        """``client`` stops watching, or leaves its seat: during a hand that is an escape (R43), done
        only if ``escape`` (else refused with ``would_escape`` and what it would cost)."""
        data = self._data
        if client in data.watchers:
            data.watchers.discard(client)
            self._outbox.send(client, "left", {"table_id": data.id, "reason": "left"})
            self._outbox.changed()
            return
        index = data.seated(client)
        if data.hand_running():
            if not escape:
                player = data.seats[index].player
                cost = escape_loss(player.balance) if player is not None and player.balance is not None else None
                raise Refused(
                    "would_escape",
                    "leaving during a hand is an escape (R43): send leave with escape true to leave anyway",
                    "R43",
                    {
                        "rule": "R43",
                        "points": -cost.points if cost is not None else None,
                        "silver": -cost.silver if cost is not None else None,
                    },
                )
            # R43: leaving during a hand is an escape; the seat is freed once the hand is settled.
            self._moves.apply(Escape(index))
            return
        self.vacate(index, "left")

    def vacate(self, index: int, reason: str) -> None:
        """A seat is freed outside a hand: the match ends with it (R47)."""
        self.free_seat(index, reason)
        self.end_match()
        self._outbox.changed()

    def free_seat(self, index: int, reason: str, why: str | None = None) -> None:
        """Free seat ``index`` (if taken); its person hears ``left`` with ``reason`` (and ``why``)."""
        data = self._data
        seat = data.seats[index]
        player, client = seat.player, seat.client
        if seat.kind == "empty":
            return
        self._journal.record(Freed(index))
        if player is not None:
            self._outbox.add(Seated(player.id, None))
        if client is not None:
            self._outbox.send(client, "left", self._left(reason, why))

    def end_match(self) -> None:
        """The match ends (R3, R47): the table waits for four seats and four starts again."""
        data = self._data
        if data.match is None and data.state is TableState.WAITING:
            return
        self._journal.record(MatchEnded())
        data.deadline = None

    def close(self, reason: str, why: str | None = None) -> None:
        """The table closes: every seat is freed and every spectator told (``left`` with ``closed``, or
        with ``moderator`` and the moderator's reason code ``why``)."""
        data = self._data
        self._journal.record(TableClosed(reason))
        data.deadline = None
        told = "closed" if why is None else "moderator"
        for seat in data.seats:
            self.free_seat(seat.index, told, why)
        for client in sorted(data.watchers):
            self._outbox.send(client, "left", self._left(told, why))
        data.watchers.clear()
        self._outbox.add(Closed(reason))

    def _left(self, reason: str, why: str | None) -> dict[str, Any]:
        body: dict[str, Any] = {"table_id": self._data.id, "reason": reason}
        if why is not None:
            body["why"] = why
        return body

    def close_by_moderator(self, why: str) -> None:
        """A moderator closes the table: the hand under way (if any) is dropped unsettled — no record,
        no escape, no balance moves — and everyone hears ``left`` with ``moderator`` and ``why``."""
        self.close("moderator", why)

    def make_private(self, code: str, creator: int) -> None:
        """The new table is private, entered with ``code`` (or by ``creator``)."""
        self._journal.record(MadePrivate(code, creator))

    def make_public(self, client: str) -> None:
        """``client``'s player, the creator of this private table, lists it in the lobby."""
        data = self._data
        index = data.seated(client)
        player = data.seats[index].player
        assert player is not None
        if not data.private:
            return
        if player.id != data.creator:
            text = f"only the creator of table {data.id} can make it public"
            raise Refused("not_table_creator", text, params={"table": data.id})
        self._journal.record(MadePublic())
        self._outbox.changed()

    def _check_empty(self, index: int) -> None:
        data = self._data
        if data.seats[index].kind != "empty":
            raise Refused(
                "seat_taken", f"seat {index} of table {data.id} is taken", params={"seat": index, "table": data.id}
            )

    def _admit(self, client: str, account_id: int | None, invite: str | None) -> None:
        """A private table lets in its creator, its spectators (they came with the code) and whoever
        brings its invite code; anyone else is refused."""
        data = self._data
        if not data.private or client in data.watchers or (account_id is not None and account_id == data.creator):
            return
        if invite is not None and data.invite is not None and same_code(invite, data.invite):
            return
        raise Refused(
            "private_table",
            f"table {data.id} is private: it is joined and watched through its invite link",
            params={"table": data.id},
        )


def same_code(given: str, code: str) -> bool:
    """Whether ``given`` is the invite ``code``, compared in constant time as UTF-8 bytes (any text
    compares, never raises)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), code.encode("utf-8", "surrogatepass"))
