"""The table actor: one asyncio task and queue per table, owning its seats and its Match.

Everything that changes a table — client messages, disconnects, reconnects, clock expiries —
goes through the queue and is handled one item at a time, so the game state machine is never
touched concurrently. Every change of the hand is broadcast as a per-seat ``state`` message
(``Round.view(seat)``; spectators get the view of no seat) carrying only the events that
recipient may see. Time becomes actions here: the deal pace (R15), the bid window (R19), turn
clocks and timeouts (R44–R45), the review window (R33) and the pause between hands (R37).

A slow bot's move is thought out in the lobby's worker pool (``tuolaji.server.thinking``) from the
moment its turn comes; the answer comes back through the queue as a :class:`Thought` and is played
once the ``bot_delay`` of the turn is over, if the round still stands where it was asked
(:class:`~tuolaji.server.autoplay.TurnStamp`); a failed think plays the heuristic's move instead.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from tuolaji.cards import RANKS
from tuolaji.game.actions import (
    Action,
    Bid,
    CloseBidding,
    CloseReview,
    DealCards,
    Escape,
    Play,
    Remind,
    Retract,
    SetAutoPlay,
    Timeout,
    action_to_json,
)
from tuolaji.game.errors import GameError
from tuolaji.game.match import Match, MatchState
from tuolaji.game.options import TableOptions
from tuolaji.game.round import Phase, Round
from tuolaji.game.view import Event
from tuolaji.server.autoplay import (
    DEFAULT_BOT,
    Chooser,
    TurnStamp,
    auto_bid,
    auto_play,
    legal_play,
    make_autoplayer,
)
from tuolaji.server.clock import Expired, TableClock
from tuolaji.server.protocol import ClientMessage, message
from tuolaji.server.replay import setup_json
from tuolaji.server.thinking import SLOW_BOTS
from tuolaji.server.views import ViewEncoder, dumps, event_json
from tuolaji.store.records import HandWrite, SeatRecord, record_hand

if TYPE_CHECKING:
    from tuolaji.server.connection import Connection
    from tuolaji.server.lobby import Lobby
    from tuolaji.store.accounts import AccountData

log = logging.getLogger(__name__)

CARDS_PER_TICK = 4
"""Cards dealt per deal tick: one round of the table (R15)."""
ALL_CARDS = 216
_RULE = re.compile(r"\bR\d+\b")


@dataclass
class Seat:
    """One of the four seats: empty, a person (``account``) or a bot (``bot``)."""

    index: int
    account: AccountData | None = None
    bot: str | None = None
    conn: Connection | None = None
    ready: bool = False
    away_autoplay: bool = False
    """託管 was switched on because the player disconnected (R46); reconnecting switches it off."""
    chooser: Chooser | None = None

    @property
    def kind(self) -> str:
        """``human``, ``bot`` or ``empty``."""
        return "human" if self.account is not None else "bot" if self.bot is not None else "empty"

    def clear(self) -> None:
        """Empty the seat."""
        self.account, self.bot, self.conn, self.chooser = None, None, None, None
        self.ready = self.away_autoplay = False


@dataclass(frozen=True)
class ClientItem:
    """A validated message from a connection at (or joining) this table."""

    conn: Connection
    msg: ClientMessage


@dataclass(frozen=True)
class Reattach:
    """A seated player's new connection (reload or reconnect, R46)."""

    conn: Connection


@dataclass(frozen=True)
class Detach:
    """A connection at this table closed."""

    conn: Connection


@dataclass(frozen=True)
class Thought:
    """A slow bot's answer for the turn at ``stamp``: its ``action``, or the ``error`` of its thinking."""

    stamp: TurnStamp
    action: Action | None = None
    error: BaseException | None = None


@dataclass(frozen=True)
class _Stop:
    pass


Item = ClientItem | Reattach | Detach | Expired | Thought | _Stop


@dataclass(eq=False)
class _PendingMove:
    """A slow bot's move being thought out for the turn at ``stamp``; played once ``answer`` has
    come and the turn is ``due`` (its ``bot_delay`` is over)."""

    stamp: TurnStamp
    answer: Thought | None = None
    due: bool = False


@dataclass
class _Refusal(Exception):
    """A client message this table refuses (sent back as an ``error``)."""

    code: str
    text: str
    rule: str | None = field(default=None)


def _rule_of(text: str) -> str | None:
    found = _RULE.search(text)
    return found.group(0) if found else None


class TableActor:
    """A table: seats, spectators, the match and its clock, driven by one task."""

    def __init__(self, lobby: Lobby, options: TableOptions, table_id: str | None = None) -> None:
        self.lobby = lobby
        self.id = table_id or "t" + secrets.token_hex(4)
        self.options = options
        self.seats = [Seat(index) for index in range(4)]
        self.spectators: set[Connection] = set()
        self.match: Match | None = None
        self.state = "waiting"
        self.seq = 0
        self.closed = False
        self._queue: asyncio.Queue[Item] = asyncio.Queue()
        self.clock = TableClock(self._queue.put_nowait)
        self._clock_auto = False
        self._left_at_play: dict[int, float] = {}
        self._hand_started = datetime.now(UTC)
        self._finishing = False
        self._pending: _PendingMove | None = None
        self._encoder = ViewEncoder()
        self._task = asyncio.create_task(self._run(), name=f"table {self.id}")

    # ------------------------------------------------------------------ outside API

    def post(self, item: Item) -> None:
        """Queue an item for the table's task (a reconnect to a table that just closed is told so)."""
        if not self.closed:
            self._queue.put_nowait(item)
        elif isinstance(item, Reattach):
            item.conn.send(message("left", table_id=self.id, reason="closed"))

    async def stop(self) -> None:
        """Stop the task (server shutdown); seated players keep nothing but their stored balances."""
        self._queue.put_nowait(_Stop())
        await self._task

    @property
    def round(self) -> Round | None:
        """The match's current (or last finished) round, if a match is running."""
        return self.match.round if self.match is not None else None

    def seat_of(self, account_id: int) -> int | None:
        """The seat ``account_id`` holds here, or None."""
        for seat in self.seats:
            if seat.account is not None and seat.account.id == account_id:
                return seat.index
        return None

    def hand_running(self) -> bool:
        """Whether a hand is being played (dealt and not finished)."""
        round_ = self.round
        return round_ is not None and round_.phase is not Phase.FINISHED

    def summary(self) -> dict[str, Any]:
        """The protocol's ``TableSummary``."""
        round_ = self.round
        levels = self.match.levels if self.match else [self.options.start_level_index] * 2
        autoplay = round_.autoplay if round_ is not None else [False] * 4
        seats = []
        for seat in self.seats:
            account = None
            if seat.account is not None:
                data = seat.account.to_json()
                account = {
                    "id": data["id"],
                    "nickname": data["nickname"],
                    "rank": data["rank"]["title"],
                    "wealth": data["wealth"]["title"],
                }
            seats.append(
                {
                    "seat": seat.index,
                    "kind": seat.kind,
                    "account": account,
                    "bot": seat.bot,
                    "ready": seat.ready or seat.bot is not None,
                    "connected": seat.conn is not None or seat.bot is not None,
                    "autoplay": seat.bot is not None or (seat.account is not None and autoplay[seat.index]),
                }
            )
        return {
            "id": self.id,
            "options": self.options.to_json(),
            "state": self.state,
            "seats": seats,
            "levels": [RANKS[level] for level in levels],
            "dealer": self.match.dealer if self.match else None,
            "hands_played": self.match.hands_played if self.match else 0,
            "redeals": self.match.redeals_in_row if self.match else 0,
            "spectators": len(self.spectators),
        }

    # ------------------------------------------------------------------ the task

    async def _run(self) -> None:
        while True:
            item = await self._queue.get()
            if isinstance(item, _Stop):
                break
            try:
                await self._handle(item)
                if self.round is not None and self.round.phase is Phase.FINISHED and not self._finishing:
                    self._finishing = True
                    await self._finish_hand()
            except Exception:
                log.exception("table %s: error while handling %r", self.id, item)
                if isinstance(item, ClientItem):
                    item.conn.error("internal", "internal server error; the table goes on", item.msg.id)
            if not self.closed and not any(seat.account is not None for seat in self.seats):
                self._close("empty")
            if self.closed:
                break
        self.clock.stop()

    async def _handle(self, item: Item) -> None:
        match item:
            case ClientItem(conn, msg):
                try:
                    self._client(conn, msg)
                except _Refusal as refusal:
                    conn.error(refusal.code, refusal.text, msg.id, refusal.rule)
                    return
                if msg.id is not None:
                    conn.send(message("ack", ref=msg.id))
            case Reattach(conn):
                self._reattach(conn)
            case Detach(conn):
                self._detach(conn)
            case Expired():
                if self.clock.is_current(item):
                    self._expired()
            case Thought():
                self._thought(item)

    # ------------------------------------------------------------------ client messages

    def _client(self, conn: Connection, msg: ClientMessage) -> None:
        kind, fields = msg.type, msg.fields
        if kind == "join":
            self._join(conn, fields["seat"])
        elif kind == "watch":
            self._watch(conn)
        elif kind == "play_now":
            self._join(conn, 0)
            for index in (1, 2, 3):
                self._add_bot(index, fields.get("bot", DEFAULT_BOT))
            self._press_start(conn)
        elif kind == "leave":
            self._leave(conn)
        else:
            seat = self._seat_of_conn(conn)
            if kind == "add_bot":
                self._add_bot(fields["seat"], fields.get("bot", DEFAULT_BOT))
            elif kind == "remove_bot":
                self._remove_bot(fields["seat"])
            elif kind == "start":
                self._press_start(conn)
            elif kind == "autoplay":
                self.seats[seat].away_autoplay = False
                self._game(SetAutoPlay(seat, fields["on"]), need_round=False)
            else:
                action: Action
                if kind == "bid":
                    action = Bid(seat, fields["suit"], fields["count"])
                elif kind == "play":
                    action = Play(seat, fields["cards"])
                    self._confirm_laogai(action, fields.get("laogai", False))
                elif kind == "remind":
                    action = Remind(seat)
                else:
                    action = Retract(seat)
                self._game(action)

    def _seat_of_conn(self, conn: Connection) -> int:
        if conn.table is not self or conn.seat is None:
            raise _Refusal("not_seated", f"you are not seated at table {self.id}")
        return conn.seat

    def _take_seat(self, conn: Connection, index: int) -> None:
        account = conn.account
        if account is None:
            raise _Refusal("auth_required", "send hello first")
        if conn.table is not None or self.lobby.seated.get(account.id) is not None:
            raise _Refusal("already_seated", "leave your current table first")
        seat = self.seats[index]
        if seat.kind != "empty":
            raise _Refusal("seat_taken", f"seat {index} of table {self.id} is taken")
        seat.account, seat.conn, seat.ready = account, conn, False
        conn.table, conn.seat = self, index
        self.lobby.seated[account.id] = self

    def _join(self, conn: Connection, index: int) -> None:
        self._take_seat(conn, index)
        self._changed()
        self._send_state(conn)

    def _watch(self, conn: Connection) -> None:
        if conn.table is not None:
            raise _Refusal("already_seated", "leave your current table first")
        self.spectators.add(conn)
        conn.table, conn.seat = self, None
        self._changed()
        self._send_state(conn)

    def _add_bot(self, index: int, name: str) -> None:
        seat = self.seats[index]
        if seat.kind != "empty":
            raise _Refusal("seat_taken", f"seat {index} of table {self.id} is taken")
        seat.bot, seat.ready = name, True
        self._changed()
        self._maybe_start()

    def _remove_bot(self, index: int) -> None:
        seat = self.seats[index]
        if seat.bot is None:
            raise _Refusal("seat_empty", f"seat {index} holds no bot")
        if self.state in ("playing", "between"):
            raise _Refusal("hand_in_progress", "bots can be removed only while the table waits for a match (R47)")
        seat.clear()
        self._end_match()
        self._changed()

    def _press_start(self, conn: Connection) -> None:
        index = self._seat_of_conn(conn)
        if self.state not in ("waiting", "stopped"):
            raise _Refusal("not_ready_state", f"the table is {self.state}; start is pressed before a match (R20)")
        self.seats[index].ready = True
        self._changed()
        self._maybe_start()

    def _maybe_start(self) -> None:
        if self.state not in ("waiting", "stopped"):
            return
        if not all(seat.kind != "empty" and (seat.ready or seat.bot is not None) for seat in self.seats):
            return
        if self.state == "stopped" and self.match is not None:
            self.match.resume()
        else:
            self.match = Match(self.options, self.lobby.match_seed())
        for seat in self.seats:
            seat.chooser = make_autoplayer(seat.bot, self.match.seed + seat.index)
        self._start_round()

    def _leave(self, conn: Connection) -> None:
        if conn in self.spectators:
            self.spectators.discard(conn)
            conn.table = None
            conn.send(message("left", table_id=self.id, reason="left"))
            self._changed()
            return
        index = self._seat_of_conn(conn)
        if self.hand_running():
            # R43: leaving during a hand is an escape; the seat is freed once the hand is settled.
            self._apply(Escape(index))
            return
        self._free_seat(index, "left")
        self._end_match()
        self._changed()

    def _confirm_laogai(self, play: Play, confirmed: bool) -> None:
        """In a ``laogai`` table a follow that breaks R23–R25 is played only when the player confirms it
        (``"laogai": true``); otherwise it is refused with ``confirm_laogai`` and the rule it breaks."""
        round_ = self.round
        if confirmed or round_ is None or not self.options.warn_wrong_follow:
            return
        reason = round_.wrong_follow_reason(play.seat, play.cards)
        if reason is not None:
            # The message is the rule text alone: the client shows it in its confirmation dialog.
            raise _Refusal("confirm_laogai", reason, _rule_of(reason))

    def _game(self, action: Action, need_round: bool = True) -> None:
        round_ = self.round
        if round_ is None or (need_round and round_.phase is Phase.FINISHED):
            raise _Refusal("wrong_phase", f"{action.type}: no hand is being played at table {self.id}")
        if isinstance(action, Play) and self.clock.running("turn", action.seat) and not self._clock_auto:
            self._left_at_play[action.seat] = self.clock.deadline.remaining() if self.clock.deadline else 0.0
        try:
            self._apply(action)
        except GameError as error:
            raise _Refusal(error.code, str(error), _rule_of(str(error))) from None
        if isinstance(action, Bid):
            self._auto_bids()

    # ------------------------------------------------------------------ connections

    def _reattach(self, conn: Connection) -> None:
        account = conn.account
        index = self.seat_of(account.id) if account is not None else None
        if index is None:
            # The seat went between hello and now (R46: removed at the end of the hand).
            conn.send(message("left", table_id=self.id, reason="removed"))
            return
        seat = self.seats[index]
        if seat.conn is not None and seat.conn is not conn:
            seat.conn.table = seat.conn.seat = None  # the replaced connection no longer acts for the seat
        seat.conn = conn
        conn.table, conn.seat = self, index
        self._send_state(conn)
        if seat.away_autoplay and self.round is not None:
            seat.away_autoplay = False
            self._apply(SetAutoPlay(index, False, "reconnect"))  # broadcasts the change and the summary
        else:
            self._changed()

    def _detach(self, conn: Connection) -> None:
        if conn in self.spectators:
            self.spectators.discard(conn)
            self._changed()
            return
        index = conn.seat
        if index is None or self.seats[index].conn is not conn:
            return
        seat = self.seats[index]
        seat.conn = None
        round_ = self.round
        if self.state in ("playing", "between") and round_ is not None:
            # R46: the seat goes to 託管 at once and is kept until the hand ends.
            if not round_.autoplay[index]:
                seat.away_autoplay = True
                self._apply(SetAutoPlay(index, True, "disconnect"))
            self._changed()
            return
        self._free_seat(index, "removed")
        self._end_match()
        self._changed()

    def _free_seat(self, index: int, reason: str) -> None:
        seat = self.seats[index]
        if seat.account is not None:
            self.lobby.seated.pop(seat.account.id, None)
        if seat.conn is not None:
            seat.conn.table = seat.conn.seat = None
            seat.conn.send(message("left", table_id=self.id, reason=reason))
        seat.clear()

    def _end_match(self) -> None:
        """The match ends (R3, R47): the table waits for four seats and four starts again."""
        if self.match is None and self.state == "waiting":
            return
        self.match = None
        self.clock.stop()
        self.state = "waiting"
        for seat in self.seats:
            seat.ready = seat.bot is not None
            seat.away_autoplay = False

    def _close(self, reason: str) -> None:
        self.closed = True
        self.clock.stop()
        self.state = "closed"
        for seat in self.seats:
            self._free_seat(seat.index, "closed")
        for conn in self.spectators:
            conn.table = None
            conn.send(message("left", table_id=self.id, reason="closed"))
        self.spectators.clear()
        self.lobby.table_closed(self)
        log.info("table %s closed (%s)", self.id, reason)

    # ------------------------------------------------------------------ the hand

    def _start_round(self) -> None:
        assert self.match is not None
        self.match.start_round()
        self.state = "playing"
        self._hand_started = datetime.now(UTC)
        self._finishing = False
        self._left_at_play.clear()
        self._changed()
        self._arm()
        self._broadcast([])

    def _apply(self, action: Action, checked: bool = True) -> None:
        """Apply ``action`` to the round, re-arm the clock and broadcast the events.

        ``checked=False`` only for the auto-play's moves, which :func:`auto_play` has already checked.
        """
        round_ = self.round
        assert round_ is not None
        events = round_.apply(action, checked=checked)
        for event in events:
            if event.type == "retract" and not event.data.get("first", True):
                # R31: only the first retraction of a hand resets the turn clock.
                seat = int(event.data["seat"])
                self.clock.arm("turn", seat, self._left_at_play.get(seat, self.options.turn_seconds))
                self._clock_auto = False
        self._arm()
        self._broadcast(events)
        if any(event.type == "autoplay" for event in events):
            self._changed()

    def _is_auto(self, index: int) -> bool:
        round_ = self.round
        return self.seats[index].bot is not None or (round_ is not None and round_.autoplay[index])

    def _arm(self) -> None:
        """Set the clock for whatever the hand waits for now (keeping a deadline that still applies)."""
        round_ = self.round
        if round_ is None:
            return
        phase = round_.phase
        if phase is Phase.DEALING:
            if not self.clock.running("deal"):
                self.clock.arm("deal", None, self.options.deal_interval_ms / 1000)
        elif phase is Phase.BIDDING:
            if not self.clock.running("bid"):
                self.clock.arm("bid", None, self.options.bid_window_seconds)
        elif phase is Phase.PLAYING:
            seat = round_.to_move
            auto = seat is not None and self._is_auto(seat)
            if not (self.clock.running("turn", seat) and self._clock_auto == auto):
                delay = self.lobby.config.bot_delay if auto else self.options.turn_seconds
                self.clock.arm("turn", seat, delay)
                self._clock_auto = auto
            if seat is not None and self._is_slow(seat):
                self._ask(round_, seat)
        elif phase is Phase.REVIEW:
            if not self.clock.running("review"):
                self.clock.arm("review", None, self.options.review_seconds)
        else:
            self.clock.stop()

    def _expired(self) -> None:
        deadline = self.clock.deadline
        assert deadline is not None
        self.clock.stop()
        if deadline.kind == "next_hand":
            self._start_round()
            return
        round_ = self.round
        if round_ is None or round_.phase is Phase.FINISHED:
            return
        if deadline.kind == "deal":
            count = ALL_CARDS if self.options.deal_interval_ms == 0 else CARDS_PER_TICK
            self._apply(DealCards(count))
            self._auto_bids()
        elif deadline.kind == "bid":
            self._apply(CloseBidding())
        elif deadline.kind == "review":
            self._apply(CloseReview())
        elif deadline.kind == "turn" and deadline.seat is not None and deadline.seat == round_.to_move:
            seat = deadline.seat
            if self._is_slow(seat):
                self._due(round_, seat)
                return
            if not self._is_auto(seat):
                # R44: the clock ran out; count the timeout, then play for the seat.
                self._apply(Timeout(seat))
                if self.round is not round_ or round_.phase is not Phase.PLAYING:
                    return
            chooser = self.seats[seat].chooser
            assert chooser is not None
            self._apply(auto_play(round_, seat, chooser), checked=False)

    # ------------------------------------------------------------------ slow bots

    def _is_slow(self, index: int) -> bool:
        return self.seats[index].bot in SLOW_BOTS

    def _ask(self, round_: Round, seat: int) -> None:
        """Have the pool think out a slow bot's move, unless it already does for this very position."""
        if self._pending is not None and self._pending.stamp.is_current(round_):
            return
        assert self.match is not None
        stamp = TurnStamp.of(round_, seat)
        pending = self._pending = _PendingMove(stamp)
        bot = self.seats[seat].bot
        assert bot is not None
        try:
            future = self.lobby.thinking.ask(bot, self.match.seed + seat, round_.view(seat))
        except Exception as error:
            pending.answer = Thought(stamp, error=error)
            return

        def answered(done: asyncio.Future[Action | None]) -> None:
            if not done.cancelled():  # cancelled: the pool shut down with the server
                error = done.exception()
                self.post(Thought(stamp, None if error is not None else done.result(), error))

        future.add_done_callback(answered)

    def _thought(self, thought: Thought) -> None:
        """A slow bot's answer came: keep it if its turn still stands, play it if the turn is due."""
        pending = self._pending
        if pending is None or pending.stamp is not thought.stamp or not thought.stamp.is_current(self.round):
            log.info("table %s: dropped seat %d's answer for a position that changed", self.id, thought.stamp.seat)
            return
        pending.answer = thought
        self._play_pending()

    def _due(self, round_: Round, seat: int) -> None:
        """A slow bot's ``bot_delay`` is over: it plays now if its answer is here, else when it comes."""
        self._ask(round_, seat)
        assert self._pending is not None
        self._pending.due = True
        self._play_pending()

    def _play_pending(self) -> None:
        pending = self._pending
        if pending is None or not pending.due or pending.answer is None or not pending.stamp.is_current(self.round):
            return
        self._pending = None
        round_, seat, answer = pending.stamp.round, pending.stamp.seat, pending.answer
        if answer.error is None:
            play = legal_play(round_, seat, answer.action)
        else:
            log.error(
                "table %s: seat %d's %s bot could not think; it plays the %s move",
                self.id,
                seat,
                self.seats[seat].bot,
                DEFAULT_BOT,
                exc_info=answer.error,
            )
            chooser = self.seats[seat].chooser
            assert chooser is not None
            play = auto_play(round_, seat, chooser)
        self._apply(play, checked=False)

    def _auto_bids(self) -> None:
        """Let bots and 託管 seats bid on what they hold now (R16–R18), until none wants to."""
        round_ = self.round
        for _ in range(16):
            if round_ is None or round_.phase not in (Phase.DEALING, Phase.BIDDING):
                return
            made = False
            for seat in self.seats:
                if seat.chooser is None or not self._is_auto(seat.index):
                    continue
                bid = auto_bid(round_, seat.index, seat.chooser)
                if bid is not None:
                    self._apply(bid)
                    made = True
            if not made:
                return

    async def _finish_hand(self) -> None:
        """Settle the finished round (R39–R43), store it, and carry the match on (R37) or end it."""
        match = self.match
        round_ = self.round
        assert match is not None and round_ is not None and round_.result is not None
        self.clock.stop()
        result = round_.result
        outcome = match.finish_round()
        number = match.rounds_started
        hand_id: int | None = None
        lines: list[dict[str, Any]] = []
        if result.kind != "redeal":
            try:
                settled = await record_hand(self.lobby.db, self._hand_write(round_, number))
            except Exception:
                log.exception("table %s: could not store hand %d", self.id, number)
            else:
                hand_id, lines = settled.hand_id, settled.lines
                for index, account in settled.accounts.items():
                    seat = self.seats[index]
                    seat.account = account
                    if seat.conn is not None:
                        seat.conn.send(message("account", account=account.to_json()))
        body = message(
            "hand_end",
            table_id=self.id,
            hand=number,
            hand_id=hand_id,
            result=result.to_json(),
            levels=[RANKS[level] for level in outcome.levels_after],
            dealer=outcome.next_dealer,
            settlement=lines,
        )
        self._send_all(body)
        if result.escaped is not None:
            self._free_seat(result.escaped, "escaped")
        if result.kind == "dissolved" or (outcome.state is MatchState.OVER and result.kind == "redeal"):
            # R32 (retractions over 400) and R20 preset fourdeck: the table is dissolved.
            self._close(result.kind)
            return
        away = [seat.index for seat in self.seats if seat.account is not None and seat.conn is None]
        for index in away:
            self._free_seat(index, "removed")  # R46: still away when the hand ended
        if away or outcome.state is MatchState.OVER:
            self._end_match()
        elif outcome.state is MatchState.STOPPED:
            self.state = "stopped"  # R20: three redeals in a row; everyone presses start again
            for seat in self.seats:
                seat.ready = seat.bot is not None
        else:
            self.state = "between"
            self.clock.arm("next_hand", None, self.lobby.config.next_hand_delay)
        self._changed()

    def _hand_write(self, round_: Round, number: int) -> HandWrite:
        setup = round_.setup
        assert round_.result is not None
        return HandWrite(
            table_id=self.id,
            number=number,
            seed=setup.seed,
            options=setup.options.to_json(),
            setup=setup_json(setup),
            actions=[action_to_json(action) for action in round_.actions],
            result=round_.result,
            seats=[
                SeatRecord(
                    seat.index,
                    seat.account.id if seat.account else None,
                    seat.account.nickname if seat.account else None,
                    seat.bot,
                )
                for seat in self.seats
            ],
            started_at=self._hand_started,
        )

    # ------------------------------------------------------------------ messages out

    def _recipients(self) -> list[Connection]:
        return [seat.conn for seat in self.seats if seat.conn is not None] + list(self.spectators)

    def _send_all(self, body: dict[str, Any]) -> None:
        text = dumps(body)
        for conn in self._recipients():
            conn.send_text(text)

    def _changed(self) -> None:
        """The summary changed: tell the table and the lobby."""
        summary = self.summary()
        for seat in self.seats:
            if seat.conn is not None:
                seat.conn.send(message("table", table=summary, seat=seat.index))
        if self.spectators:
            text = dumps(message("table", table=summary, seat=None))
            for conn in self.spectators:
                conn.send_text(text)
        self.lobby.table_changed(self)

    def _state_texts(self, targets: Sequence[int | None], events: Sequence[Event], full: bool = False) -> list[str]:
        """The ``state`` message for each target seat (None: a spectator), as JSON text; ``full`` views
        carry the whole trick history (join, watch, reconnect)."""
        round_ = self.round
        deadline = self.clock.deadline
        head = dumps(
            message(
                "state",
                table_id=self.id,
                hand=self.match.rounds_started if self.match else 0,
                seq=self.seq,
                full=full,
                clock=deadline.to_json() if deadline is not None else None,
            )
        )[:-1]
        encoded = [(event.to, event_json(event)) for event in events]
        views = [round_.view(seat) for seat in targets] if round_ is not None else []
        public = self._encoder.public(views[0], full) if views else ""
        texts = []
        for index, seat in enumerate(targets):
            seen = ",".join(text for to, text in encoded if to is None or to == seat)
            view = ViewEncoder.seat_view(public, views[index]) if views else "null"
            texts.append(f'{head},"events":[{seen}],"view":{view}}}')
        return texts

    def _broadcast(self, events: Sequence[Event]) -> None:
        self.seq += 1
        conns = [seat.conn for seat in self.seats if seat.conn is not None]
        targets: list[int | None] = [seat.index for seat in self.seats if seat.conn is not None]
        if self.spectators:
            targets.append(None)
        if not targets:
            return
        texts = self._state_texts(targets, events)
        for conn, text in zip(conns, texts, strict=False):
            conn.send_text(text)
        if self.spectators:
            for conn in self.spectators:
                conn.send_text(texts[-1])

    def _send_state(self, conn: Connection) -> None:
        """The full picture for one connection (join, watch, reconnect)."""
        conn.send(message("table", table=self.summary(), seat=conn.seat))
        conn.send_text(self._state_texts([conn.seat], [], full=True)[0])
