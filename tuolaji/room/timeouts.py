"""What happens when the table's clock runs out: the deal goes on (R15), bidding and a trick's review
close (R19, R33), a turn is over (R44, 託管 R45, slow bots), the next hand starts (R37), people who
did not come back after a restart lose their seats (R46)."""

from __future__ import annotations

from tuolaji.cards import DECK_SIZE
from tuolaji.game.actions import CloseBidding, CloseReview, DealCards, SetAutoPlay, Timeout
from tuolaji.game.round import Phase, Round
from tuolaji.room.autoplay import legal_play
from tuolaji.room.effects import Arm
from tuolaji.room.moves import Moves
from tuolaji.room.outbox import Outbox
from tuolaji.room.seating import Seating
from tuolaji.room.slowbots import SlowBots
from tuolaji.room.state import TableData, TableState

CARDS_PER_TICK = 4
"""Cards dealt per deal tick: one round of the table (R15)."""


class Timeouts:
    """Carries out what the table's deadline was for, once the shell's timer fires."""

    def __init__(self, data: TableData, outbox: Outbox, moves: Moves, seating: Seating, slow_bots: SlowBots) -> None:
        self._data = data
        self._outbox = outbox
        self._moves = moves
        self._seating = seating
        self._slow_bots = slow_bots

    def fired(self) -> None:
        """The shell's timer ran out (too early: it is armed again for the deadline)."""
        data = self._data
        deadline = data.deadline
        if deadline is None:
            return
        if data.now < deadline.at_ms:
            self._outbox.add(Arm(deadline.at_ms))  # early: the shell's timer rounds
            return
        data.deadline = None
        if deadline.kind == "next_hand":
            if data.state is TableState.BETWEEN:
                self._moves.start_round()
            return
        if deadline.kind == "reconnect":
            self._reconnect_over()
            return
        round_ = data.round
        if round_ is None or round_.phase is Phase.FINISHED or data.state is not TableState.PLAYING:
            return
        if deadline.kind == "deal":
            count = DECK_SIZE if data.options.deal_interval_ms == 0 else CARDS_PER_TICK
            self._moves.apply(DealCards(count))
            self._moves.auto_bids()
        elif deadline.kind == "bid":
            self._moves.apply(CloseBidding())
        elif deadline.kind == "review":
            self._moves.apply(CloseReview())
        elif deadline.kind == "turn" and deadline.seat is not None and deadline.seat == round_.to_move:
            self._turn_over(round_, deadline.seat)

    def _reconnect_over(self) -> None:
        """R46: who has not come back in time after the restart loses the seat."""
        away = [seat.index for seat in self._data.seats if seat.grace]
        for index in away:
            self._seating.free_seat(index, "removed")
        if away:
            self._seating.end_match()
            self._outbox.changed()

    def _turn_over(self, round_: Round, seat: int) -> None:
        data = self._data
        if data.is_slow(seat):
            play = self._slow_bots.due(round_, seat)
            if play is not None:
                self._moves.apply(play, checked=False)
            return
        if not data.is_auto(seat):
            if data.seats[seat].grace:
                # Away since a restart: 託管 now, without counting a timeout (R46, RULES-NOTES).
                self._moves.apply(SetAutoPlay(seat, True, "disconnect"))
            else:
                # R44: the clock ran out; count the timeout, then play for the seat.
                self._moves.apply(Timeout(seat))
            if data.round is not round_ or round_.phase is not Phase.PLAYING:
                return
        choice = data.choosers[seat].choose(round_.view(seat))
        self._moves.apply(legal_play(round_, seat, choice), checked=False)
