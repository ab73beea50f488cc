"""The table (桌) as a pure state machine: seats, the match, clocks, bots and 託管 (R1–R3, R15–R47).

A :class:`Table` is driven by :meth:`Table.handle`: a command (a client's request, a clock that
fired, a bot's answer, a stored hand…) and the time in, a list of effects out. It never awaits,
never reads a clock, never touches a socket or a database; the server's shell carries the effects
out: write the log, send messages, arm the timer, ask a slow bot, store a finished hand.

Every change of the table's durable state is one log entry (a :class:`Record` effect, plain JSON),
applied by the same code live and in :meth:`Table.restore`, so a table's log rebuilds it exactly.
A ``round`` entry is a snapshot (seats, match, the round's setup): the log before it may be dropped.
Connections (which client sits where, who watches), clocks and a slow bot's pending answer are not
durable: a restored table gets them back from :class:`Resume` and the clients' reconnections.

Clients are opaque ids (``client``) that the shell maps to its connections.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tuolaji.cards import DECK_SIZE, RANKS
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
    action_from_json,
    action_to_json,
)
from tuolaji.game.driver import Chooser, poll_bids
from tuolaji.game.errors import GameError
from tuolaji.game.match import Match, MatchState
from tuolaji.game.options import TableOptions
from tuolaji.game.round import Phase, Round, RoundSetup
from tuolaji.game.view import Event, SeatView
from tuolaji.room.commands import (
    AddBot,
    Attach,
    BotAnswer,
    ClockFired,
    Command,
    Detach,
    HandSettled,
    Join,
    Leave,
    MakePrivate,
    MakePublic,
    Player,
    PlayNow,
    Refresh,
    RemoveBot,
    RequestAutoPlay,
    RequestBid,
    RequestPlay,
    RequestRemind,
    RequestRetract,
    Resume,
    Say,
    Start,
    Sync,
    TurnStamp,
    Watch,
)
from tuolaji.room.effects import (
    Ack,
    Arm,
    AskBot,
    Closed,
    Disarm,
    Effect,
    HandSeat,
    Record,
    Refuse,
    Seated,
    Send,
    SendState,
    SendSummary,
    StoreHand,
)
from tuolaji.room.phrases import PhraseLimiter
from tuolaji.rules import card_strings

CARDS_PER_TICK = 4
"""Cards dealt per deal tick: one round of the table (R15)."""


class TableState(StrEnum):
    WAITING = "waiting"
    """Seats to fill or starts to press (R47)."""
    PLAYING = "playing"
    """A hand is being played."""
    SETTLING = "settling"
    """The hand is over and waits for its record and balances to be stored (shown as ``between``)."""
    BETWEEN = "between"
    """A hand was settled; the next one starts after a pause (R37)."""
    STOPPED = "stopped"
    """Three redeals in a row (R20): everyone presses start again."""
    CLOSED = "closed"


@dataclass(frozen=True)
class TableConfig:
    """The server's pace for its tables (the table's own rules are :class:`TableOptions`)."""

    bot_delay_ms: int = 600
    """A bot or 託管 seat waits this long before it moves, so people can follow the play."""
    next_hand_delay_ms: int = 3000
    """Pause between a hand's settlement and the next deal (R37)."""
    reconnect_grace_ms: int = 60_000
    """After a restart, how long a table that waits for players keeps the seats of people who have
    not reconnected (R46, docs/RULES-NOTES.md)."""
    slow_bots: frozenset[str] = frozenset()
    """Bots whose moves are thought out elsewhere (:class:`AskBot`); the others move in :meth:`Table.handle`."""


@dataclass(frozen=True)
class Deadline:
    """What the table's one clock runs for: ``kind`` (deal, bid, turn, review, next_hand, reconnect),
    the ``seat`` (turn only) and when (``at_ms``)."""

    kind: str
    seat: int | None
    at_ms: int

    def to_json(self, now_ms: int) -> dict[str, Any]:
        """The protocol's ``Clock`` object."""
        return {"kind": self.kind, "seat": self.seat, "remaining_ms": max(0, self.at_ms - now_ms)}


@dataclass
class SeatState:
    """One of the four seats: empty, a person (``player``) or a bot (``bot``)."""

    index: int
    player: Player | None = None
    bot: str | None = None
    ready: bool = False
    away_autoplay: bool = False
    """託管 was switched on because the player went away (R46); coming back switches it off."""
    client: str | None = None
    """The connection acting for the player now (not durable)."""
    grace: bool = False
    """Away only because the server restarted: not yet switched to 託管, not removed at this hand's end."""

    @property
    def kind(self) -> str:
        """``human``, ``bot`` or ``empty``."""
        return "human" if self.player is not None else "bot" if self.bot is not None else "empty"

    def to_json(self) -> dict[str, Any]:
        """The durable part (log snapshots)."""
        return {
            "player": self.player.to_json() if self.player is not None else None,
            "bot": self.bot,
            "ready": self.ready,
            "away": self.away_autoplay,
        }


class Refusal(Exception):
    """A request the table refuses; raised before anything changed."""

    def __init__(self, code: str, text: str, rule: str | None = None, params: dict[str, Any] | None = None) -> None:
        super().__init__(text)
        self.code, self.text, self.rule, self.params = code, text, rule, dict(params or {})


AutoPlayer = Callable[[str | None, int], Chooser]
"""Gives a seat's in-process player from its bot's name (None for a person: 託管 and timeouts) and a seed."""


class Table:
    """One table; see the module docstring. ``seeds`` gives the seed of each new match."""

    def __init__(
        self,
        table_id: str,
        options: TableOptions,
        config: TableConfig,
        autoplayer: AutoPlayer,
        seeds: Callable[[], int],
    ) -> None:
        self.id = table_id
        self.options = options
        self.config = config
        self._autoplayer = autoplayer
        self._seeds = seeds
        self.seats = [SeatState(index) for index in range(4)]
        self.watchers: set[str] = set()
        self.private = False
        """Hidden from the lobby; joined or watched only with :attr:`invite` (or by :attr:`creator`)."""
        self.invite: str | None = None
        """The code of the invite link, once the table was made private (it stays valid if made public)."""
        self.creator: int | None = None
        """The account that made the table private (the one who may make it public)."""
        self.state = TableState.WAITING
        self.match: Match | None = None
        self.number = 0
        """Hands started at this table, over all its matches (the stored hands' ``number``)."""
        self.started_ms = 0
        self.seq = 0
        self.deadline: Deadline | None = None
        self._clock_auto = False
        self._choosers: list[Chooser] = []
        self._left_at_play: dict[int, int] = {}
        self._pending: _PendingMove | None = None
        self._outcome_levels: tuple[int, int] | None = None
        self._next_dealer: int | None = None
        self._out: list[Effect] = []
        self._now = 0
        self._hand_end: dict[str, Any] | None = None
        """The last hand's ``hand_end`` while the table is between hands (for who connects then)."""
        self._phrases = PhraseLimiter()

    # ------------------------------------------------------------------ queries

    @property
    def round(self) -> Round | None:
        """The match's current (or last finished) round, if a match is running."""
        return self.match.round if self.match is not None else None

    def seat_of(self, account_id: int) -> int | None:
        """The seat ``account_id`` holds here, or None."""
        for seat in self.seats:
            if seat.player is not None and seat.player.id == account_id:
                return seat.index
        return None

    def client_seat(self, client: str) -> int | None:
        """The seat ``client`` acts for, or None."""
        for seat in self.seats:
            if seat.client == client:
                return seat.index
        return None

    def hand_running(self) -> bool:
        """Whether a hand is being played (dealt and not finished)."""
        round_ = self.round
        return round_ is not None and round_.phase is not Phase.FINISHED

    @property
    def closed(self) -> bool:
        return self.state is TableState.CLOSED

    def players(self) -> dict[int, Player]:
        """The seated people, by seat."""
        return {seat.index: seat.player for seat in self.seats if seat.player is not None}

    def summary(self) -> dict[str, Any]:
        """The protocol's ``TableSummary``."""
        round_ = self.round
        match = self.match
        levels = match.levels if match is not None else [self.options.start_level_index] * 2
        autoplay = round_.autoplay if round_ is not None else [False] * 4
        seats = [
            {
                "seat": seat.index,
                "kind": seat.kind,
                "account": seat.player.to_json() if seat.player is not None else None,
                "bot": seat.bot,
                "ready": seat.ready or seat.bot is not None,
                "connected": seat.client is not None or seat.bot is not None,
                "autoplay": seat.bot is not None or (seat.player is not None and autoplay[seat.index]),
            }
            for seat in self.seats
        ]
        return {
            "id": self.id,
            "options": self.options.to_json(),
            "state": self._shown_state(),
            "seats": seats,
            "levels": [RANKS[level] for level in levels],
            "dealer": match.dealer if match is not None else None,
            "hands_played": match.hands_played if match is not None else 0,
            "redeals": match.redeals_in_row if match is not None else 0,
            "spectators": len(self.watchers),
            "private": self.private,
            "invite": self.invite,
            "creator": self.creator,
        }

    def _shown_state(self) -> str:
        """The state players see: a hand being settled is already between hands."""
        return str(TableState.BETWEEN if self.state is TableState.SETTLING else self.state)

    # ------------------------------------------------------------------ handle

    def handle(self, command: Command, now_ms: int) -> list[Effect]:
        """Carry out ``command`` at time ``now_ms``; the effects, in order (:class:`Record` entries first
        in meaning: the shell writes them before it lets anything else out)."""
        self._now = now_ms
        before = self.deadline
        if self.state is TableState.CLOSED:
            self._refuse_closed(command)
        else:
            client, ref = getattr(command, "client", None), getattr(command, "ref", None)
            try:
                self._dispatch(command)
            except Refusal as refusal:
                assert client is not None
                self._out.append(Refuse(client, refusal.code, refusal.text, ref, refusal.rule, refusal.params))
            else:
                if client is not None and ref is not None:
                    self._out.append(Ack(client, ref))
            if self.state is TableState.PLAYING and self.round is not None and self.round.phase is Phase.FINISHED:
                self._finish_hand()
            # A table closes when nobody is seated at it (a new one is made private before its creator sits).
            if not self.closed and not isinstance(command, MakePrivate) and not self.players():
                self._close("empty")
        if self.deadline != before:
            self._out.append(Arm(self.deadline.at_ms) if self.deadline is not None else Disarm())
        out, self._out = self._out, []
        return out

    def _refuse_closed(self, command: Command) -> None:
        client = getattr(command, "client", None)
        if isinstance(command, Attach):
            self._out.append(Send(command.client, "left", {"table_id": self.id, "reason": "closed"}))
        elif client is not None and not isinstance(command, Detach):
            text = f"table {self.id} is closed"
            ref = getattr(command, "ref", None)
            self._out.append(Refuse(client, "no_table", text, ref, None, {"table": self.id}))

    def _dispatch(self, command: Command) -> None:
        match command:
            case Join(client, player, seat, _, invite):
                self._join(client, player, seat, invite)
            case PlayNow(client, player, bot):
                self._join(client, player, 0)
                for index in (1, 2, 3):
                    self._add_bot(index, bot)
                self._press_start(client)
            case Watch(client, _, invite):
                self._watch(client, invite)
            case Leave(client):
                self._leave(client)
            case AddBot(client, seat, bot):
                self._seat_of_client(client)
                self._add_bot(seat, bot)
            case RemoveBot(client, seat):
                self._seat_of_client(client)
                self._remove_bot(seat)
            case Start(client):
                self._press_start(client)
            case RequestBid(client, suit, count):
                self._game(Bid(self._seat_of_client(client), suit, count))
            case RequestPlay(client, cards, confirmed):
                play = Play(self._seat_of_client(client), cards)
                self._confirm_laogai(play, confirmed)
                self._game(play)
            case RequestRemind(client):
                self._game(Remind(self._seat_of_client(client)))
            case RequestRetract(client):
                self._game(Retract(self._seat_of_client(client)))
            case RequestAutoPlay(client, on):
                self._game(SetAutoPlay(self._seat_of_client(client), on), need_round=False)
            case Attach(client, account_id):
                self._attach(client, account_id)
            case Sync(client):
                self._sync(client)
            case Detach(client):
                self._detach(client)
            case ClockFired():
                self._clock_fired()
            case BotAnswer(stamp, action):
                self._bot_answer(stamp, action)
            case HandSettled():
                self._hand_settled(command)
            case Resume():
                self._resume()
            case Refresh(players):
                self._refresh(players)
            case MakePrivate(code, creator):
                self._record({"t": "private", "code": code, "creator": creator})
            case MakePublic(client):
                self._make_public(client)
            case Say(client, phrase):
                self._say(client, phrase)

    # ------------------------------------------------------------------ the log

    def _record(self, entry: dict[str, Any]) -> list[Event]:
        """Apply ``entry`` and, if that worked, append it to the log; the events of a game action."""
        events = self._apply_entry(entry)
        self._out.append(Record(entry))
        return events

    def _record_action(self, action: Action, checked: bool) -> list[Event]:
        """:meth:`_record` of a game action, without parsing back what was just built; ``checked=False``
        only for moves :func:`legal_play` has already checked."""
        events = self._apply_action(action, checked)
        self._log_action(action)
        return events

    def _log_action(self, action: Action) -> None:
        """Append a game action already applied to the round to the log."""
        self._out.append(Record({"t": "act", "action": action_to_json(action)}))

    def _apply_entry(self, entry: dict[str, Any]) -> list[Event]:
        """The one place where the durable state changes (live and when restoring)."""
        kind = entry["t"]
        if kind == "act":
            return self._apply_action(action_from_json(entry["action"]), True)
        if kind == "sit":
            seat = self.seats[entry["seat"]]
            seat.player, seat.bot, seat.ready, seat.away_autoplay = (
                Player.from_json(entry["player"]),
                None,
                False,
                False,
            )
        elif kind == "bot":
            seat = self.seats[entry["seat"]]
            seat.player, seat.bot = None, str(entry["bot"])
            seat.ready, seat.away_autoplay = True, False
        elif kind == "free":
            seat = self.seats[entry["seat"]]
            seat.player = seat.bot = seat.client = None
            seat.ready = seat.away_autoplay = seat.grace = False
        elif kind == "ready":
            self.seats[entry["seat"]].ready = True
        elif kind == "match":
            self.match = Match(self.options, int(entry["seed"]))  # its bots come with the round's snapshot
        elif kind == "resume":
            assert self.match is not None
            self.match.resume()
        elif kind == "round":
            self._apply_snapshot(entry)
        elif kind == "settle":
            assert self.match is not None
            outcome = self.match.finish_round()
            self._outcome_levels, self._next_dealer = outcome.levels_after, outcome.next_dealer
            self.state = TableState.SETTLING
        elif kind == "between":
            self.state = TableState.BETWEEN
        elif kind == "stop":
            self.state = TableState.STOPPED
            self._unready()
        elif kind == "end_match":
            self.match = None
            self.state = TableState.WAITING
            self._unready()
        elif kind == "close":
            self.state = TableState.CLOSED
        elif kind == "private":
            self.private, self.invite, self.creator = True, str(entry["code"]), int(entry["creator"])
        elif kind == "public":
            self.private = False
        else:
            raise ValueError(f"table {self.id}: unknown log entry {kind!r}")
        return []

    def _apply_action(self, action: Action, checked: bool) -> list[Event]:
        round_ = self.round
        assert round_ is not None
        events = round_.apply(action, checked=checked)
        if isinstance(action, SetAutoPlay):
            self.seats[action.seat].away_autoplay = action.on and action.reason == "disconnect"
        return events

    def _apply_snapshot(self, entry: dict[str, Any]) -> None:
        for seat, data in zip(self.seats, entry["seats"], strict=True):
            seat.player = Player.from_json(data["player"]) if data["player"] is not None else None
            seat.bot = data["bot"]
            seat.ready = bool(data["ready"])
            seat.away_autoplay = bool(data["away"])
        self.match = Match.from_json(self.options, entry["match"])
        self.match.start_round(RoundSetup.from_json(self.options, entry["setup"]))
        self.number = int(entry["number"])
        self.started_ms = int(entry["started_ms"])
        self.private = bool(entry.get("private", False))
        self.invite, self.creator = entry.get("invite"), entry.get("creator")
        self.state = TableState.PLAYING
        self._make_choosers()

    def _make_choosers(self) -> None:
        assert self.match is not None
        self._choosers = [self._autoplayer(seat.bot, self.match.seed + seat.index) for seat in self.seats]

    def _unready(self) -> None:
        for seat in self.seats:
            seat.ready = seat.bot is not None
            seat.away_autoplay = False

    @classmethod
    def restore(
        cls,
        table_id: str,
        options: TableOptions,
        config: TableConfig,
        autoplayer: AutoPlayer,
        seeds: Callable[[], int],
        entries: Iterable[dict[str, Any]],
    ) -> Table:
        """The table that ``entries`` (its log, from its last snapshot on) lead to; nobody connected.
        Continue it with :class:`Resume`."""
        table = cls(table_id, options, config, autoplayer, seeds)
        for entry in entries:
            table._apply_entry(entry)
        return table

    def rebuilt(self, entries: Iterable[dict[str, Any]]) -> Table:
        """This table (same id, options, config and players) rebuilt from ``entries``; nobody connected."""
        return Table.restore(self.id, self.options, self.config, self._autoplayer, self._seeds, entries)

    # ------------------------------------------------------------------ seating

    def _seat_of_client(self, client: str) -> int:
        seat = self.client_seat(client)
        if seat is None:
            raise Refusal("not_seated", f"you are not seated at table {self.id}", params={"table": self.id})
        return seat

    def _join(self, client: str, player: Player, index: int, invite: str | None = None) -> None:
        if self.seat_of(player.id) is not None or self.client_seat(client) is not None:
            raise Refusal("already_seated", "leave your current table first", params={"table": self.id})
        self._admit(client, player.id, invite)
        self._check_empty(index)
        self.watchers.discard(client)  # a spectator sits down
        self._record({"t": "sit", "seat": index, "player": player.to_json()})
        self.seats[index].client = client
        self._out.append(Seated(player.id, index))
        self._changed(skip=client)
        self._send_full(client, index)

    def _check_empty(self, index: int) -> None:
        if self.seats[index].kind != "empty":
            raise Refusal(
                "seat_taken", f"seat {index} of table {self.id} is taken", params={"seat": index, "table": self.id}
            )

    def _watch(self, client: str, invite: str | None) -> None:
        if self.client_seat(client) is not None:
            raise Refusal("already_seated", "leave your current table first", params={"table": self.id})
        self._admit(client, None, invite)
        self.watchers.add(client)
        self._changed(skip=client)
        self._send_full(client, None)

    def _add_bot(self, index: int, bot: str) -> None:
        self._check_empty(index)
        self._record({"t": "bot", "seat": index, "bot": bot})
        self._changed()
        self._maybe_start()

    def _remove_bot(self, index: int) -> None:
        if self.seats[index].bot is None:
            raise Refusal("seat_empty", f"seat {index} holds no bot", params={"seat": index, "table": self.id})
        if self.state in (TableState.PLAYING, TableState.SETTLING, TableState.BETWEEN):
            raise Refusal(
                "hand_in_progress",
                "bots can be removed only while the table waits for a match (R47)",
                "R47",
                {"table": self.id, "state": self._shown_state(), "rule": "R47"},
            )
        self._vacate(index, "removed")

    def _press_start(self, client: str) -> None:
        index = self._seat_of_client(client)
        if self.state not in (TableState.WAITING, TableState.STOPPED):
            raise Refusal(
                "not_ready_state",
                f"the table is {self._shown_state()}; start is pressed before a match (R20)",
                "R20",
                {"table": self.id, "state": self._shown_state(), "rule": "R20"},
            )
        self._record({"t": "ready", "seat": index})
        self._changed()
        self._maybe_start()

    def _maybe_start(self) -> None:
        if self.state not in (TableState.WAITING, TableState.STOPPED):
            return
        if not all(seat.kind != "empty" and (seat.ready or seat.bot is not None) for seat in self.seats):
            return
        if self.state is TableState.STOPPED and self.match is not None:
            self._record({"t": "resume"})
        else:
            self._record({"t": "match", "seed": self._seeds()})
        self._start_round()

    def _leave(self, client: str) -> None:
        if client in self.watchers:
            self.watchers.discard(client)
            self._out.append(Send(client, "left", {"table_id": self.id, "reason": "left"}))
            self._changed()
            return
        index = self._seat_of_client(client)
        if self.hand_running():
            # R43: leaving during a hand is an escape; the seat is freed once the hand is settled.
            self._apply(Escape(index))
            return
        self._vacate(index, "left")

    def _vacate(self, index: int, reason: str) -> None:
        """A seat is freed outside a hand: the match ends with it (R47)."""
        self._free_seat(index, reason)
        self._end_match()
        self._changed()

    def _free_seat(self, index: int, reason: str) -> None:
        seat = self.seats[index]
        player, client = seat.player, seat.client
        if seat.kind == "empty":
            return
        self._record({"t": "free", "seat": index})
        if player is not None:
            self._out.append(Seated(player.id, None))
        if client is not None:
            self._out.append(Send(client, "left", {"table_id": self.id, "reason": reason}))

    def _end_match(self) -> None:
        """The match ends (R3, R47): the table waits for four seats and four starts again."""
        if self.match is None and self.state is TableState.WAITING:
            return
        self._record({"t": "end_match"})
        self.deadline = None

    def _close(self, reason: str) -> None:
        self._record({"t": "close", "reason": reason})
        self.deadline = None
        for seat in self.seats:
            self._free_seat(seat.index, "closed")
        for client in sorted(self.watchers):
            self._out.append(Send(client, "left", {"table_id": self.id, "reason": "closed"}))
        self.watchers.clear()
        self._out.append(Closed(reason))

    # ------------------------------------------------------------------ private tables, quick phrases

    def _admit(self, client: str, account_id: int | None, invite: str | None) -> None:
        """A private table lets in its creator, its spectators (they came with the code) and whoever
        brings its invite code; anyone else is refused."""
        if not self.private or client in self.watchers or (account_id is not None and account_id == self.creator):
            return
        if invite is not None and self.invite is not None and hmac.compare_digest(invite, self.invite):
            return
        raise Refusal(
            "private_table",
            f"table {self.id} is private: it is joined and watched through its invite link",
            params={"table": self.id},
        )

    def _make_public(self, client: str) -> None:
        index = self._seat_of_client(client)
        player = self.seats[index].player
        assert player is not None
        if not self.private:
            return
        if player.id != self.creator:
            text = f"only the creator of table {self.id} can make it public"
            raise Refusal("not_table_creator", text, params={"table": self.id})
        self._record({"t": "public"})
        self._changed()

    def _say(self, client: str, phrase: str) -> None:
        """A seated person's quick phrase goes to everyone at the table (spectators only listen)."""
        index = self._seat_of_client(client)
        player = self.seats[index].player
        assert player is not None
        wait = self._phrases.take(player.id, self._now)
        if wait:
            raise Refusal(
                "too_many_phrases",
                f"quick phrases: {self._phrases.burst} in a row, then one every "
                f"{self._phrases.every_ms // 1000} s; wait {wait} ms",
                params={"wait_ms": wait, "table": self.id},
            )
        body = {"table_id": self.id, "seat": index, "account": player.id, "phrase": phrase}
        for recipient, _ in self._recipients():
            self._out.append(Send(recipient, "phrase", body))

    # ------------------------------------------------------------------ connections

    def _attach(self, client: str, account_id: int) -> None:
        index = self.seat_of(account_id)
        if index is None:
            # The seat went between hello and now (R46: removed at the end of the hand).
            self._out.append(Send(client, "left", {"table_id": self.id, "reason": "removed"}))
            return
        seat = self.seats[index]
        seat.client, seat.grace = client, False
        self._send_full(client, index)
        if seat.away_autoplay and self.round is not None:
            self._apply(SetAutoPlay(index, False, "reconnect"))  # broadcasts the change and the summary
        else:
            self._changed(skip=client)

    def _sync(self, client: str) -> None:
        seat = self.client_seat(client)
        if seat is None and client not in self.watchers:
            raise Refusal("not_seated", f"you are not at table {self.id}", params={"table": self.id})
        self._send_full(client, seat)

    def _detach(self, client: str) -> None:
        if client in self.watchers:
            self.watchers.discard(client)
            self._changed()
            return
        index = self.client_seat(client)
        if index is None:
            return
        seat = self.seats[index]
        seat.client = None
        round_ = self.round
        if self.state in (TableState.PLAYING, TableState.SETTLING, TableState.BETWEEN) and round_ is not None:
            # R46: the seat goes to 託管 at once and is kept until the hand ends.
            if not round_.autoplay[index]:
                self._apply(SetAutoPlay(index, True, "disconnect"))
            self._changed()
            return
        self._vacate(index, "removed")

    def _resume(self) -> None:
        for seat in self.seats:
            seat.client = None
            # A seat in 託管 since a disconnect was away before the restart: R46 as without one.
            seat.grace = seat.player is not None and not seat.away_autoplay
        self.watchers.clear()
        self.deadline = None
        self._pending = None
        if self.state is TableState.PLAYING:
            self._arm()
        elif self.state is TableState.BETWEEN:
            self._set_deadline("next_hand", None, self.config.next_hand_delay_ms)
        elif self.state in (TableState.WAITING, TableState.STOPPED):
            self._set_deadline("reconnect", None, self.config.reconnect_grace_ms)
        self._changed()

    def _refresh(self, players: dict[int, Player]) -> None:
        changed = False
        for index, player in players.items():
            seat = self.seats[index]
            if seat.player is not None and seat.player.id == player.id and seat.player != player:
                seat.player = player
                changed = True
        if changed:
            self._changed()

    # ------------------------------------------------------------------ the hand

    def _start_round(self) -> None:
        match = self.match
        assert match is not None
        self._record(
            {
                "t": "round",
                "number": self.number + 1,
                "started_ms": self._now,
                "seats": [seat.to_json() for seat in self.seats],
                "match": match.to_json(),
                "setup": match.next_setup().to_json(),
                "private": self.private,
                "invite": self.invite,
                "creator": self.creator,
            }
        )
        self._left_at_play.clear()
        self._pending = None
        self._hand_end = None
        self.deadline = None
        self._changed()
        self._arm()
        self._broadcast([])

    def _game(self, action: Action, need_round: bool = True) -> None:
        round_ = self.round
        if round_ is None or (need_round and round_.phase is Phase.FINISHED):
            raise Refusal(
                "wrong_phase",
                f"{action.type}: no hand is being played at table {self.id}",
                params={"reason": "no_hand", "action": action.type, "table": self.id},
            )
        deadline = self.deadline
        if isinstance(action, Play) and self._turn_running(action.seat) and not self._clock_auto:
            assert deadline is not None
            self._left_at_play[action.seat] = max(0, deadline.at_ms - self._now)
        try:
            self._apply(action)
        except GameError as error:
            raise Refusal(error.code, str(error), error.rule, error.params) from None
        if isinstance(action, Bid):
            self._auto_bids()

    def _confirm_laogai(self, play: Play, confirmed: bool) -> None:
        """In a ``laogai`` table with ``warn_wrong_follow`` a follow that breaks R23–R25 is played only
        when the player confirms it; otherwise it is refused with ``confirm_laogai`` and the rule it breaks."""
        round_ = self.round
        if confirmed or round_ is None or not self.options.warn_wrong_follow:
            return
        refusal = round_.wrong_follow(play.seat, play.cards)
        if refusal is not None:
            # The message is the rule text alone: the client shows it in its confirmation dialog.
            params = {"seat": play.seat, "action": "play", "cards": card_strings(play.cards)}
            raise Refusal("confirm_laogai", refusal.message, refusal.rule, {**params, **refusal.to_params()})

    def _apply(self, action: Action, checked: bool = True) -> None:
        """Apply ``action`` through the log, re-arm the clock and broadcast the events (``checked=False``
        for a move :func:`legal_play` made)."""
        events = self._record_action(action, checked)
        for event in events:
            if event.type == "retract" and not event.data.get("first", True):
                # R31: only the first retraction of a hand resets the turn clock.
                seat = int(event.data["seat"])
                self._set_deadline("turn", seat, self._left_at_play.get(seat, self._turn_ms()))
                self._clock_auto = False
        self._arm()
        self._broadcast(events)
        if any(event.type == "autoplay" for event in events):
            self._changed()

    def _is_auto(self, index: int) -> bool:
        round_ = self.round
        return self.seats[index].bot is not None or (round_ is not None and round_.autoplay[index])

    def _is_slow(self, index: int) -> bool:
        return self.seats[index].bot in self.config.slow_bots

    def _turn_ms(self) -> int:
        return round(self.options.turn_seconds * 1000)

    def _turn_running(self, seat: int | None) -> bool:
        deadline = self.deadline
        return deadline is not None and deadline.kind == "turn" and deadline.seat == seat

    def _set_deadline(self, kind: str, seat: int | None, delay_ms: float) -> None:
        self.deadline = Deadline(kind, seat, self._now + max(0, round(delay_ms)))

    def _arm(self) -> None:
        """Set the clock for whatever the hand waits for now (keeping a deadline that still applies)."""
        round_ = self.round
        if round_ is None or self.state is not TableState.PLAYING:
            return
        phase, deadline = round_.phase, self.deadline
        kind = deadline.kind if deadline is not None else None
        if phase is Phase.DEALING:
            if kind != "deal":
                self._set_deadline("deal", None, self.options.deal_interval_ms)
        elif phase is Phase.BIDDING:
            if kind != "bid":
                self._set_deadline("bid", None, self.options.bid_window_seconds * 1000)
        elif phase is Phase.PLAYING:
            seat = round_.to_move
            auto = seat is not None and self._is_auto(seat)
            if not (self._turn_running(seat) and self._clock_auto == auto):
                self._set_deadline("turn", seat, self.config.bot_delay_ms if auto else self._turn_ms())
                self._clock_auto = auto
            if seat is not None and self._is_slow(seat):
                self._ask(round_, seat)
        elif phase is Phase.REVIEW:
            if kind != "review":
                self._set_deadline("review", None, self.options.review_seconds * 1000)
        else:
            self.deadline = None

    def _clock_fired(self) -> None:
        deadline = self.deadline
        if deadline is None:
            return
        if self._now < deadline.at_ms:
            self._out.append(Arm(deadline.at_ms))  # early: the shell's timer rounds
            return
        self.deadline = None
        if deadline.kind == "next_hand":
            if self.state is TableState.BETWEEN:
                self._start_round()
            return
        if deadline.kind == "reconnect":
            away = [seat.index for seat in self.seats if seat.grace]
            for index in away:
                self._free_seat(index, "removed")  # R46: not back in time after the restart
            if away:
                self._end_match()
                self._changed()
            return
        round_ = self.round
        if round_ is None or round_.phase is Phase.FINISHED or self.state is not TableState.PLAYING:
            return
        if deadline.kind == "deal":
            count = DECK_SIZE if self.options.deal_interval_ms == 0 else CARDS_PER_TICK
            self._apply(DealCards(count))
            self._auto_bids()
        elif deadline.kind == "bid":
            self._apply(CloseBidding())
        elif deadline.kind == "review":
            self._apply(CloseReview())
        elif deadline.kind == "turn" and deadline.seat is not None and deadline.seat == round_.to_move:
            self._turn_over(round_, deadline.seat)

    def _turn_over(self, round_: Round, seat: int) -> None:
        if self._is_slow(seat):
            self._due(round_, seat)
            return
        if not self._is_auto(seat):
            if self.seats[seat].grace:
                # Away since a restart: 託管 now, without counting a timeout (R46, RULES-NOTES).
                self._apply(SetAutoPlay(seat, True, "disconnect"))
            else:
                # R44: the clock ran out; count the timeout, then play for the seat.
                self._apply(Timeout(seat))
            if self.round is not round_ or round_.phase is not Phase.PLAYING:
                return
        self._apply(legal_play(round_, seat, self._choosers[seat].choose(round_.view(seat))), checked=False)

    def _auto_bids(self) -> None:
        """Bots and 託管 seats bid on what they hold now (R16–R18), through the one driver; each bid
        is logged like any action (the driver applied it to the round already)."""
        round_ = self.round
        assert round_ is not None
        choosers = [self._choosers[seat] if self._is_auto(seat) else None for seat in range(4)]
        placed = poll_bids(round_, choosers)
        if not placed:
            return
        for bid, _ in placed:
            self._log_action(bid)
        self._arm()
        self._broadcast([event for _, events in placed for event in events])

    # ------------------------------------------------------------------ slow bots

    def _stamp_current(self, stamp: TurnStamp) -> bool:
        round_ = self.round
        return (
            round_ is not None
            and stamp.number == self.number
            and round_.phase is Phase.PLAYING
            and round_.to_move == stamp.seat
            and len(round_.actions) == stamp.actions
        )

    def _ask(self, round_: Round, seat: int) -> None:
        """Have a slow bot think out its move, unless it already does for this very position."""
        if self._pending is not None and self._stamp_current(self._pending.stamp):
            return
        assert self.match is not None
        bot = self.seats[seat].bot
        assert bot is not None
        stamp = TurnStamp(self.number, seat, len(round_.actions))
        self._pending = _PendingMove(stamp)
        self._out.append(AskBot(stamp, bot, self.match.seed + seat, round_.view(seat)))

    def _bot_answer(self, stamp: TurnStamp, action: Action | None) -> None:
        pending = self._pending
        if pending is None or pending.stamp != stamp or not self._stamp_current(stamp):
            return  # the position changed meanwhile: the bot thinks again when its turn comes
        pending.answer, pending.answered = action, True
        self._play_pending()

    def _due(self, round_: Round, seat: int) -> None:
        """A slow bot's delay is over: it plays now if its answer is here, else when it comes."""
        self._ask(round_, seat)
        assert self._pending is not None
        self._pending.due = True
        self._play_pending()

    def _play_pending(self) -> None:
        pending = self._pending
        if pending is None or not pending.due or not pending.answered or not self._stamp_current(pending.stamp):
            return
        self._pending = None
        round_ = self.round
        assert round_ is not None
        seat = pending.stamp.seat
        proposal = pending.answer
        if proposal is None:  # the thinking failed: the in-process player moves instead
            proposal = self._choosers[seat].choose(round_.view(seat))
        self._apply(legal_play(round_, seat, proposal), checked=False)

    # ------------------------------------------------------------------ the end of a hand

    def _finish_hand(self) -> None:
        round_, match = self.round, self.match
        assert round_ is not None and match is not None and round_.result is not None
        self._record({"t": "settle"})
        self.deadline = None
        result = round_.result
        if result.kind == "redeal":
            self._after_hand(HandSettled(self.number, None))
            return
        self._out.append(
            StoreHand(
                number=self.number,
                options=self.options.to_json(),
                setup=round_.setup.to_json(),
                actions=tuple(action_to_json(action) for action in round_.actions),
                result=result,
                seats=tuple(
                    HandSeat(
                        seat.index,
                        seat.player.id if seat.player else None,
                        seat.player.nickname if seat.player else None,
                        seat.bot,
                    )
                    for seat in self.seats
                ),
                started_ms=self.started_ms,
            )
        )

    def _hand_settled(self, settled: HandSettled) -> None:
        if self.state is not TableState.SETTLING or settled.number != self.number:
            return
        self._after_hand(settled)

    def _after_hand(self, settled: HandSettled) -> None:
        """Tell the table the hand's end and settlement, then carry the match on (R37) or end it."""
        round_, match = self.round, self.match
        assert round_ is not None and match is not None and round_.result is not None
        result = round_.result
        for index, account in settled.accounts.items():
            client = self.seats[index].client
            if client is not None:
                self._out.append(Send(client, "account", {"account": account}))
        for index, player in settled.players.items():
            if self.seats[index].player is not None:
                self.seats[index].player = player
        assert self._outcome_levels is not None
        body = {
            "table_id": self.id,
            "hand": match.rounds_started,
            "hand_id": settled.hand_id,
            "result": result.to_json(),
            "levels": [RANKS[level] for level in self._outcome_levels],
            "dealer": self._next_dealer,
            "settlement": list(settled.settlement),
        }
        self._hand_end = body
        for client, _ in self._recipients():
            self._out.append(Send(client, "hand_end", body))
        if result.escaped is not None:
            self._free_seat(result.escaped, "escaped")
        if result.kind == "dissolved" or (match.state is MatchState.OVER and result.kind == "redeal"):
            # R32 (retractions over 400) and R20 preset fourdeck: the table is dissolved.
            self._close(result.kind)
            return
        away = [seat.index for seat in self.seats if seat.player is not None and seat.client is None]
        removed = False
        for index in away:
            seat = self.seats[index]
            if seat.grace:
                if match.state is MatchState.STOPPED:
                    continue  # no next hand to keep them for: the reconnect window below
                # Away only because of a restart: kept for one more hand, in 託管 (R46, RULES-NOTES).
                seat.grace = False
                if not round_.autoplay[index]:
                    self._apply(SetAutoPlay(index, True, "disconnect"))
            else:
                self._free_seat(index, "removed")  # R46: still away when the hand ended
                removed = True
        if removed or match.state is MatchState.OVER:
            self._end_match()
        elif match.state is MatchState.STOPPED:
            self._record({"t": "stop"})  # R20: three redeals in a row; everyone presses start again
            if any(seat.grace for seat in self.seats):
                # Away since a restart: removed if not back in time, as at a waiting table (R46).
                self._set_deadline("reconnect", None, self.config.reconnect_grace_ms)
        else:
            self._record({"t": "between"})
            self._set_deadline("next_hand", None, self.config.next_hand_delay_ms)
        self._changed()

    # ------------------------------------------------------------------ messages out

    def _recipients(self) -> list[tuple[str, int | None]]:
        seated: list[tuple[str, int | None]] = [(seat.client, seat.index) for seat in self.seats if seat.client]
        return seated + [(client, None) for client in sorted(self.watchers)]

    def _changed(self, skip: str | None = None) -> None:
        """The summary changed: tell the table (but ``skip``, who gets it with the full picture) and the lobby."""
        recipients = tuple(recipient for recipient in self._recipients() if recipient[0] != skip)
        self._out.append(SendSummary(self.summary(), recipients))

    def _clock_json(self) -> dict[str, Any] | None:
        return self.deadline.to_json(self._now) if self.deadline is not None else None

    def _state(self, recipients: Sequence[tuple[str, int | None]], events: Sequence[Event], full: bool) -> None:
        round_ = self.round
        views: dict[int | None, SeatView] = {}
        if round_ is not None:
            views = round_.views(dict.fromkeys(seat for _, seat in recipients))
        hand = self.match.rounds_started if self.match is not None else 0
        self._out.append(SendState(tuple(recipients), views, tuple(events), self.seq, hand, full, self._clock_json()))

    def _broadcast(self, events: Sequence[Event]) -> None:
        self.seq += 1
        recipients = self._recipients()
        if recipients:
            self._state(recipients, events, False)

    def _send_full(self, client: str, seat: int | None) -> None:
        """The full picture for one connection (join, watch, reconnect); between hands also the last
        hand's end and settlement."""
        self._out.append(Send(client, "table", {"table": self.summary(), "seat": seat}))
        self._state([(client, seat)], [], True)
        if self._hand_end is not None and self.state in (TableState.BETWEEN, TableState.STOPPED):
            self._out.append(Send(client, "hand_end", self._hand_end))


@dataclass(eq=False)
class _PendingMove:
    """A slow bot's move being thought out for the turn at ``stamp``; played once ``answered`` and
    ``due`` (its delay is over)."""

    stamp: TurnStamp
    answer: Action | None = None
    answered: bool = False
    due: bool = False


def legal_play(round_: Round, seat: int, action: Action | None) -> Play:
    """``action`` if it is a play for ``seat`` (whose turn it is) that the round accepts without a
    wrong follow, else the round's hint: auto-play always plays legally (§8)."""
    if isinstance(action, Play) and action.seat == seat and round_.check_play(seat, action.cards) is None:
        return action
    return Play(seat, tuple(round_.hint(seat)))
