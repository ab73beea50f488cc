"""Slow bots: moves thought out elsewhere (:class:`~tuolaji.room.effects.AskBot`), played once the
bot's delay is over and its answer is here, and only for the position it was asked about."""

from __future__ import annotations

from dataclasses import dataclass

from tuolaji.game.actions import Action, Play
from tuolaji.game.round import Phase, Round
from tuolaji.room.autoplay import legal_play
from tuolaji.room.commands import TurnStamp
from tuolaji.room.effects import AskBot
from tuolaji.room.outbox import Outbox
from tuolaji.room.state import TableData


@dataclass(eq=False)
class PendingMove:
    """A slow bot's move being thought out for the turn at ``stamp``; played once ``answered`` and
    ``due`` (its delay is over)."""

    stamp: TurnStamp
    answer: Action | None = None
    answered: bool = False
    due: bool = False


class SlowBots:
    """The one slow bot's move the table waits for, if any. It never plays a move itself: the move
    to play, once there is one, is what :meth:`answer` and :meth:`due` return."""

    def __init__(self, data: TableData, outbox: Outbox) -> None:
        self._data = data
        self._outbox = outbox
        self.pending: PendingMove | None = None

    def forget(self) -> None:
        """Drop the pending move (a new round, a restore)."""
        self.pending = None

    def _current(self, stamp: TurnStamp) -> bool:
        round_ = self._data.round
        return (
            round_ is not None
            and stamp.number == self._data.number
            and round_.phase is Phase.PLAYING
            and round_.to_move == stamp.seat
            and round_.action_count == stamp.actions
        )

    def ask(self, round_: Round, seat: int) -> None:
        """Have the slow bot at ``seat`` think out its move, unless it already does for this very position."""
        if self.pending is not None and self._current(self.pending.stamp):
            return
        data = self._data
        assert data.match is not None
        bot = data.seats[seat].bot
        assert bot is not None
        stamp = TurnStamp(data.number, seat, round_.action_count)
        self.pending = PendingMove(stamp)
        self._outbox.add(AskBot(stamp, bot, data.match.seed + seat, round_.view(seat)))

    def answer(self, stamp: TurnStamp, action: Action | None) -> Play | None:
        """The bot's answer for ``stamp`` came: the move to play now, if its delay is over. An answer
        for a position that changed meanwhile is dropped (the bot thinks again when its turn comes)."""
        pending = self.pending
        if pending is None or pending.stamp != stamp or not self._current(stamp):
            return None
        pending.answer, pending.answered = action, True
        return self._ready_move()

    def due(self, round_: Round, seat: int) -> Play | None:
        """The slow bot's delay is over: the move to play now if its answer is here (else it comes
        with :meth:`answer`)."""
        self.ask(round_, seat)
        assert self.pending is not None
        self.pending.due = True
        return self._ready_move()

    def _ready_move(self) -> Play | None:
        pending = self.pending
        if pending is None or not pending.due or not pending.answered or not self._current(pending.stamp):
            return None
        self.pending = None
        round_ = self._data.round
        assert round_ is not None
        seat = pending.stamp.seat
        proposal = pending.answer
        if proposal is None:  # the thinking failed: the in-process player moves instead
            proposal = self._data.choosers[seat].choose(round_.view(seat))
        return legal_play(round_, seat, proposal)
