"""The table's one clock: what it runs for in each phase of a hand, and a turn's time (R44, R31)."""

from __future__ import annotations

from tuolaji.game.round import Phase
from tuolaji.room.slowbots import SlowBots
from tuolaji.room.state import Deadline, TableData, TableState


class Clock:
    """Sets :attr:`TableData.deadline <tuolaji.room.state.TableData.deadline>`; the table tells the
    shell to arm or disarm its timer when the deadline changed during a step."""

    def __init__(self, data: TableData, slow_bots: SlowBots) -> None:
        self._data = data
        self._slow_bots = slow_bots
        self._auto = False
        """Whether the turn clock runs for a seat that moves by itself (a bot's delay, not a turn's time)."""
        self._window_end = 0
        """When the bid window after the deal ends by its time (R19)."""
        self._left_at_play: dict[int, int] = {}
        """The time each seat had left on its turn when it last played (R31: a later retraction gives it back)."""

    def turn_ms(self) -> int:
        """A person's time for a turn (R44)."""
        return round(self._data.options.turn_seconds * 1000)

    def turn_running(self, seat: int | None) -> bool:
        """Whether the clock runs for ``seat``'s turn."""
        deadline = self._data.deadline
        return deadline is not None and deadline.kind == "turn" and deadline.seat == seat

    def set(self, kind: str, seat: int | None, delay_ms: float) -> None:
        """Run the clock for ``kind`` (``seat``'s turn) until ``delay_ms`` from now."""
        data = self._data
        data.deadline = Deadline(kind, seat, data.now + max(0, round(delay_ms)))

    def arm(self) -> None:
        """Set the clock for whatever the hand waits for now (keeping a deadline that still applies);
        a slow bot to move is asked for its move."""
        data = self._data
        round_ = data.round
        if round_ is None or data.state is not TableState.PLAYING:
            return
        phase, deadline = round_.phase, data.deadline
        kind = deadline.kind if deadline is not None else None
        if phase is Phase.DEALING:
            if kind != "deal":
                self.set("deal", None, data.options.deal_interval_ms)
        elif phase is Phase.BIDDING:
            if kind != "bid":  # the window after the deal opens (R19)
                self._window_end = data.now + round(data.options.bid_window_seconds * 1000)
            # R19: it closes at once when every seat said 不叫 or has no bid left; a bid reopens it
            end = data.now if round_.bidding_settled else self._window_end
            if deadline is None or kind != "bid" or deadline.at_ms != end:
                self.set("bid", None, end - data.now)
        elif phase is Phase.PLAYING:
            seat = round_.to_move
            auto = seat is not None and data.is_auto(seat)
            if not (self.turn_running(seat) and self._auto == auto):
                self.set("turn", seat, data.config.bot_delay_ms if auto else self.turn_ms())
                self._auto = auto
            if seat is not None and data.is_slow(seat):
                self._slow_bots.ask(round_, seat)
        elif phase is Phase.REVIEW:
            if kind != "review":
                self.set("review", None, data.options.review_seconds * 1000)
        else:
            data.deadline = None

    def note_play(self, seat: int) -> None:
        """A person at ``seat`` plays: keep the time its turn had left (R31)."""
        deadline = self._data.deadline
        if self.turn_running(seat) and not self._auto:
            assert deadline is not None
            self._left_at_play[seat] = max(0, deadline.at_ms - self._data.now)

    def retracted(self, seat: int) -> None:
        """A retraction that is not ``seat``'s first of the hand: only the first resets the turn timer
        (R31), so this one gives back the time its turn had left when it played."""
        self.set("turn", seat, self._left_at_play.get(seat, self.turn_ms()))
        self._auto = False

    def new_round(self) -> None:
        """A new round: no turn time is kept from the last one, and the clock stops."""
        self._left_at_play.clear()
        self._data.deadline = None
