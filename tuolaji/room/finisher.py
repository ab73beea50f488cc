"""The end of a hand at a table: the hand goes to be stored and settled (R39–R43), the table hears its
end and settlement, and the match goes on after a pause (R37), stops (R20) or ends (R46, R47)."""

from __future__ import annotations

from typing import Any

from tuolaji.cards import RANKS
from tuolaji.game.actions import SetAutoPlay, action_to_json
from tuolaji.game.match import Match, MatchState
from tuolaji.game.round import Round
from tuolaji.room.clock import Clock
from tuolaji.room.commands import HandSettled
from tuolaji.room.effects import HandSeat, StoreHand
from tuolaji.room.entries import BetweenHands, Settling, Stopped
from tuolaji.room.journal import Journal
from tuolaji.room.moves import Moves
from tuolaji.room.outbox import Outbox
from tuolaji.room.seating import Seating
from tuolaji.room.state import TableData, TableState


class Finisher:
    """Finishes hands: asks the shell to store them (:class:`StoreHand`), then, once settled, carries
    the match on."""

    def __init__(
        self, data: TableData, outbox: Outbox, journal: Journal, clock: Clock, moves: Moves, seating: Seating
    ) -> None:
        self._data = data
        self._outbox = outbox
        self._journal = journal
        self._clock = clock
        self._moves = moves
        self._seating = seating

    def finish(self) -> None:
        """The round just finished: the match takes its outcome, and the hand goes to be stored and
        settled (a redeal has nothing to store: it is settled at once)."""
        data = self._data
        round_ = data.round
        assert round_ is not None and round_.result is not None
        self._journal.record(Settling())
        data.deadline = None
        result = round_.result
        if result.kind == "redeal":
            self._after_hand(HandSettled(data.number, None))
            return
        seats = tuple(
            HandSeat(
                seat.index,
                seat.player.id if seat.player else None,
                seat.player.nickname if seat.player else None,
                seat.bot,
            )
            for seat in data.seats
        )
        self._outbox.add(
            StoreHand(
                number=data.number,
                options=data.options.to_json(),
                setup=round_.setup.to_json(),
                actions=tuple(action_to_json(action) for action in round_.actions),
                result=result,
                seats=seats,
                started_ms=data.started_ms,
                private=data.private,
            )
        )

    def settled(self, settled: HandSettled) -> None:
        """The shell stored the hand (or could not): carry on, unless it is not the hand waited for."""
        if self._data.state is not TableState.SETTLING or settled.number != self._data.number:
            return
        self._after_hand(settled)

    def _after_hand(self, settled: HandSettled) -> None:
        """Tell the table the hand's end and settlement, then carry the match on (R37) or end it."""
        data = self._data
        round_, match = data.round, data.match
        assert round_ is not None and match is not None and round_.result is not None
        result = round_.result
        self._tell(settled, match, result.to_json())
        if result.escaped is not None:
            self._seating.free_seat(result.escaped, "escaped")
        if result.kind == "dissolved" or (match.state is MatchState.OVER and result.kind == "redeal"):
            # R32 (retractions over 400) and R20 preset fourdeck: the table is dissolved.
            self._seating.close(result.kind)
            return
        removed = self._away(round_, match)
        if removed or match.state is MatchState.OVER:
            self._seating.end_match()
        elif match.state is MatchState.STOPPED:
            self._journal.record(Stopped())  # R20: three redeals in a row; everyone presses start again
            if any(seat.grace for seat in data.seats):
                # Away since a restart: removed if not back in time, as at a waiting table (R46).
                self._clock.set("reconnect", None, data.config.reconnect_grace_ms)
        else:
            self._journal.record(BetweenHands())
            self._clock.set("next_hand", None, data.config.next_hand_delay_ms)
        self._outbox.changed()

    def _tell(self, settled: HandSettled, match: Match, result: dict[str, Any]) -> None:
        """The seated accounts' new balances, their new titles (R42) and everyone the ``hand_end``."""
        data = self._data
        for index, account in settled.accounts.items():
            client = data.seats[index].client
            if client is not None:
                self._outbox.send(client, "account", {"account": account})
        for index, player in settled.players.items():
            if data.seats[index].player is not None:
                data.seats[index].player = player
        assert data.outcome_levels is not None
        body = {
            "table_id": data.id,
            "hand": match.rounds_started,
            "hand_id": settled.hand_id,
            "result": result,
            "levels": [RANKS[level] for level in data.outcome_levels],
            "dealer": data.next_dealer,
            "settlement": list(settled.settlement),
        }
        data.hand_end = body
        self._outbox.tell_all("hand_end", body)

    def _away(self, round_: Round, match: Match) -> bool:
        """The people still away at the hand's end are removed (R46), unless only a restart took them
        away: they are kept for one more hand, in 託管. Whether anyone was removed."""
        data = self._data
        away = [seat.index for seat in data.seats if seat.player is not None and seat.client is None]
        removed = False
        for index in away:
            seat = data.seats[index]
            if seat.grace:
                if match.state is MatchState.STOPPED:
                    continue  # no next hand to keep them for: the reconnect window below
                # Away only because of a restart: kept for one more hand, in 託管 (R46, RULES-NOTES).
                seat.grace = False
                if not round_.autoplay[index]:
                    self._moves.apply(SetAutoPlay(index, True, "disconnect"))
            else:
                self._seating.free_seat(index, "removed")  # R46: still away when the hand ended
                removed = True
        return removed
