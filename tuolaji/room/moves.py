"""The hand at a table: a round begins, and every game action goes through the log, re-arms the
clock and is broadcast, whoever makes it (a person, a bot, 託管, the clock)."""

from __future__ import annotations

from tuolaji.game.actions import Action, Bid, Play, SetAutoPlay
from tuolaji.game.driver import pass_the_rest, poll_bids
from tuolaji.game.errors import GameError
from tuolaji.game.round import Phase
from tuolaji.game.view import Event
from tuolaji.room.clock import Clock
from tuolaji.room.entries import RoundBegun, SeatRecord
from tuolaji.room.journal import Journal
from tuolaji.room.outbox import Outbox
from tuolaji.room.slowbots import SlowBots
from tuolaji.room.state import Refused, TableData
from tuolaji.rules import card_strings


class Moves:
    """Begins rounds and applies game actions (R15–R36 are the round's; the table's part is the log,
    the clock and who hears what)."""

    def __init__(self, data: TableData, outbox: Outbox, journal: Journal, clock: Clock, slow_bots: SlowBots) -> None:
        self._data = data
        self._outbox = outbox
        self._journal = journal
        self._clock = clock
        self._slow_bots = slow_bots

    def start_round(self) -> None:
        """The match's next round begins: its snapshot goes to the log, the clock runs for the deal."""
        data = self._data
        match = data.match
        assert match is not None
        seats = tuple(SeatRecord(seat.player, seat.bot, seat.ready, seat.away_autoplay) for seat in data.seats)
        snapshot = match.to_json()
        setup = match.next_setup().to_json()
        entry = RoundBegun(data.number + 1, data.now, seats, snapshot, setup, data.private, data.invite, data.creator)
        self._journal.record(entry)
        self._clock.new_round()
        self._slow_bots.forget()
        data.hand_end = None
        self._outbox.changed()
        self._clock.arm()
        self._outbox.broadcast([])

    def apply(self, action: Action, checked: bool = True, skip: str | None = None) -> None:
        """Apply ``action`` through the log, re-arm the clock and broadcast the events to all but
        ``skip`` (who gets the full picture instead); ``checked=False`` for a move
        :func:`~tuolaji.room.autoplay.legal_play` made."""
        events = self._journal.record_action(action, checked)
        for event in events:
            if event.type == "retract" and not event.data.get("first", True):
                self._clock.retracted(int(event.data["seat"]))  # R31
        self._clock.arm()
        self._outbox.broadcast(events, skip)
        if any(event.type == "autoplay" for event in events):
            self._outbox.changed(skip)
        if isinstance(action, SetAutoPlay) and action.on:
            round_ = self._data.round
            if round_ is not None and round_.phase is Phase.BIDDING:
                self.auto_bids()  # R45: a seat gone to 託管 in the bid window bids or says 不叫 at once

    def request(self, action: Action, need_round: bool = True) -> None:
        """A person's ``action``; :class:`~tuolaji.room.state.Refused` if the round refuses it
        (``need_round=False``: also between hands, for 託管)."""
        data = self._data
        round_ = data.round
        if round_ is None or (need_round and round_.phase is Phase.FINISHED):
            raise Refused(
                "wrong_phase",
                f"{action.type}: no hand is being played at table {data.id}",
                params={"reason": "no_hand", "action": action.type, "table": data.id},
            )
        if isinstance(action, Play):
            self._clock.note_play(action.seat)
        try:
            self.apply(action)
        except GameError as error:
            raise Refused(error.code, str(error), error.rule, error.params) from None
        if isinstance(action, Bid):
            self.auto_bids()

    def confirm_laogai(self, play: Play, confirmed: bool) -> None:
        """In a ``laogai`` table with ``warn_wrong_follow`` a follow that breaks R23–R25 is played only
        when the player confirms it; otherwise it is refused with ``confirm_laogai`` and the rule it breaks."""
        round_ = self._data.round
        if confirmed or round_ is None or not self._data.options.warn_wrong_follow:
            return
        refusal = round_.wrong_follow(play.seat, play.cards)
        if refusal is not None:
            # The message is the rule text alone: the client shows it in its confirmation dialog.
            params = {"seat": play.seat, "action": "play", "cards": card_strings(play.cards)}
            raise Refused("confirm_laogai", refusal.message, refusal.rule, {**params, **refusal.to_params()})

    def auto_bids(self) -> None:
        """Bots and 託管 seats bid on what they hold now (R16–R18) and, once the deal is over, say
        不叫 at once when they want no bid (R19), through the one driver; each bid and pass is logged
        like any action (the driver applied it to the round already). The clock closes the window
        when every seat is done (:meth:`~tuolaji.room.clock.Clock.arm`)."""
        data = self._data
        round_ = data.round
        assert round_ is not None
        choosers = [data.choosers[seat] if data.is_auto(seat) else None for seat in range(4)]
        placed: list[tuple[Action, list[Event]]] = [*poll_bids(round_, choosers)]
        placed += pass_the_rest(round_, (seat for seat in range(4) if choosers[seat] is not None))
        if not placed:
            return
        for action, _ in placed:
            self._journal.log_action(action)
        self._clock.arm()
        self._outbox.broadcast([event for _, events in placed for event in events])
