"""Helpers for in-process tests of :class:`~tuolaji.room.table.Table` with a fake clock.

A :class:`TableDriver` keeps the time (``now``), feeds commands to one table, collects what comes
out and keeps the table's log (the entries of its :class:`Record` effects, as the store keeps them:
their JSON through the one codec, read back through it whenever the table is rebuilt). "Firing the clock" is
``handle(ClockFired(), deadline)`` at the time the table last armed: no sleeps, no asyncio.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from tuolaji.bots import make_bot
from tuolaji.game.driver import Chooser
from tuolaji.game.options import TableOptions
from tuolaji.game.round import Round
from tuolaji.room.commands import (
    AddBot,
    Attach,
    ClockFired,
    Command,
    HandSettled,
    Join,
    Player,
    RequestPlay,
    Start,
)
from tuolaji.room.effects import Arm, Disarm, Effect, Record, Send, SendState, StoreHand
from tuolaji.room.entries import Entry, entry_from_json, entry_to_json
from tuolaji.room.table import Table, TableConfig, TableState

T = TypeVar("T")

START_MS = 1_000_000
"""The fake clock's start (any value works; not 0, so a deadline of 0 stands out)."""
SEED = 7
"""The first match seed the tables of these tests get."""
TURN_MS = 5_000
OPTIONS = TableOptions(deal_interval_ms=0, bid_window_seconds=1, review_seconds=0.5, turn_seconds=TURN_MS / 1000)
"""Fast table options: the whole deck in one deal tick (R15), short windows (R19, R33, R44)."""
CONFIG = TableConfig(bot_delay_ms=100, next_hand_delay_ms=500, reconnect_grace_ms=10_000)
"""The server's pace, shortened."""


def autoplayer(bot: str | None, seed: int) -> Chooser:
    """The tables' in-process players: the named fast bot, else (a person's 託管, a slow bot's
    fallback) the heuristic one; deterministic for ``seed``."""
    return make_bot(bot if bot in ("random", "heuristic") else "heuristic", seed)


def seeds(start: int = SEED) -> Callable[[], int]:
    """A deterministic source of match seeds."""
    return itertools.count(start).__next__


def person(number: int) -> Player:
    """The person (account ``number``) whose connection is :func:`client` ``(number)``."""
    return Player(number, f"p{number}", "布衣", "待業")


def client(number: int) -> str:
    """The connection id of :func:`person` ``(number)``."""
    return f"c{number}"


def make_table(
    options: TableOptions = OPTIONS, config: TableConfig = CONFIG, seed: int = SEED, table_id: str = "t1"
) -> Table:
    """A fresh table with the test autoplayer and seeds from ``seed``."""
    return Table(table_id, options, config, autoplayer, seeds(seed))


# ---------------------------------------------------------------------- looking at effects


def of(effects: Iterable[Effect], kind: type[T]) -> list[T]:
    """The effects of type ``kind``, in order."""
    return [effect for effect in effects if isinstance(effect, kind)]


def entries(effects: Iterable[Effect]) -> list[dict[str, Any]]:
    """The log entries recorded by ``effects``, in their stored JSON form."""
    return [entry_to_json(effect.entry) for effect in of(effects, Record)]


def decoded(log: Iterable[dict[str, Any]]) -> list[Entry]:
    """The typed entries of a stored ``log`` (the codec's round trip must give back the same JSON)."""
    typed = [entry_from_json(data) for data in log]
    assert [entry_to_json(entry) for entry in typed] == list(log)
    return typed


def kinds(effects: Iterable[Effect]) -> list[str]:
    """The ``t`` of each log entry recorded by ``effects``."""
    return [entry["t"] for entry in entries(effects)]


def acts(effects: Iterable[Effect]) -> list[dict[str, Any]]:
    """The actions (JSON) of the ``act`` entries recorded by ``effects``."""
    return [entry["action"] for entry in entries(effects) if entry["t"] == "act"]


def sends(effects: Iterable[Effect], kind: str, to: str | None = None) -> list[Send]:
    """The :class:`Send` effects of message ``kind`` (to the client ``to``, if given)."""
    return [effect for effect in of(effects, Send) if effect.kind == kind and (to is None or effect.client == to)]


def states_to(effects: Iterable[Effect], to: str) -> list[SendState]:
    """The :class:`SendState` effects that reach the client ``to``."""
    return [effect for effect in of(effects, SendState) if any(client == to for client, _ in effect.recipients)]


# ---------------------------------------------------------------------- comparing tables


def durable(table: Table) -> dict[str, Any]:
    """Everything of ``table`` that its log must rebuild: the summary (without who is connected or
    watching: connections are not durable), the seats, the match, the round and every seat's view."""
    summary = table.summary()
    summary["seats"] = [{key: value for key, value in seat.items() if key != "connected"} for seat in summary["seats"]]
    del summary["spectators"]
    round_ = table.round
    match = table.match
    return {
        "summary": summary,
        "state": table.state,
        "number": table.number,
        "started_ms": table.started_ms if round_ is not None else None,
        "seats": [seat.to_json() for seat in table.seats],
        "match": match.to_json() if match is not None else None,
        "match_state": match.state if match is not None else None,
        "setup": round_.setup.to_json() if round_ is not None else None,
        "actions": list(round_.actions) if round_ is not None else None,
        "views": [round_.view(seat) for seat in (0, 1, 2, 3, None)] if round_ is not None else None,
    }


def last_snapshot(log: Sequence[dict[str, Any]]) -> int | None:
    """The index of the last ``round`` entry (a snapshot) in ``log``, or None."""
    found = [index for index, entry in enumerate(log) if entry["t"] == "round"]
    return found[-1] if found else None


# ---------------------------------------------------------------------- the driver


@dataclass(frozen=True)
class Step:
    """One command handled: what, when, and what came out."""

    command: Command
    now_ms: int
    effects: tuple[Effect, ...]


class TableDriver:
    """Drives one :class:`Table` with a fake clock.

    ``settle``: answer each :class:`StoreHand` at once with a :class:`HandSettled` (hand ids 1, 2, …),
    as the server's shell does after storing the hand. After every step the driver checks that the
    timer it was told to arm is the table's deadline, and that every state message carries the view
    of its recipient's own seat (never another seat's cards).
    """

    def __init__(self, table: Table | None = None, *, settle: bool = True, now_ms: int = START_MS) -> None:
        self.table = table if table is not None else make_table()
        self.now = now_ms
        self.settle = settle
        self.log: list[dict[str, Any]] = []
        self.steps: list[Step] = []
        self.armed: int | None = None
        self._hand_ids = itertools.count(1)
        self.checks: list[Callable[[TableDriver], None]] = []
        """Called after every step (e.g. to compare the table with its rebuilt log)."""

    # ------------------------------------------------------------------ time and commands

    def do(self, command: Command) -> list[Effect]:
        """Handle ``command`` now; its effects (and, with ``settle``, those of the settlement that
        answers a :class:`StoreHand` among them)."""
        out = self.table.handle(command, self.now)
        self.steps.append(Step(command, self.now, tuple(out)))
        self.log.extend(entries(out))
        for effect in out:
            if isinstance(effect, Arm):
                self.armed = effect.at_ms
            elif isinstance(effect, Disarm):
                self.armed = None
        deadline = self.table.deadline
        assert self.armed == (deadline.at_ms if deadline is not None else None), (command, deadline, self.armed)
        for state in of(out, SendState):
            for _, seat in state.recipients:
                assert not state.views or state.views[seat].seat == seat
        for check in self.checks:
            check(self)
        stored = of(out, StoreHand)
        if self.settle and stored:
            out = out + self.do(HandSettled(stored[0].number, next(self._hand_ids)))
        return out

    def advance(self, ms: int) -> None:
        """Let ``ms`` milliseconds pass (nothing fires by itself)."""
        self.now += ms

    def fire(self) -> list[Effect]:
        """Move the clock to the armed deadline and fire it."""
        assert self.armed is not None, "no timer is armed"
        self.now = max(self.now, self.armed)
        return self.do(ClockFired())

    def run_until(self, done: Callable[[], bool], limit: int = 2_000) -> list[Effect]:
        """Fire the clock until ``done()``; every effect on the way."""
        out: list[Effect] = []
        for _ in range(limit):
            if done():
                return out
            out += self.fire()
        raise AssertionError(f"not done after {limit} clock fires")

    def run_to_hand_end(self, limit: int = 2_000) -> list[Effect]:
        """Fire the clock until the hand being played (or, between hands, the next one) is over; with
        ``settle`` also settled."""
        table = self.table
        number = table.number if table.hand_running() else table.number + 1
        return self.run_until(lambda: table.number > number or (table.number == number and not table.hand_running()))

    # ------------------------------------------------------------------ people

    def join(self, number: int, seat: int) -> list[Effect]:
        """:func:`person` ``(number)`` sits down at ``seat``."""
        return self.do(Join(client(number), person(number), seat, ref=f"join{number}"))

    def start(self, number: int) -> list[Effect]:
        """:func:`person` ``(number)`` presses start."""
        return self.do(Start(client(number), ref=f"start{number}"))

    def attach(self, number: int, connection: str | None = None) -> list[Effect]:
        """:func:`person` ``(number)`` reconnects (as ``connection``, default its usual client id)."""
        return self.do(Attach(connection or client(number), number))

    def seat(self, number: int) -> int:
        """The seat :func:`person` ``(number)`` holds."""
        seat = self.table.seat_of(number)
        assert seat is not None, f"person {number} is not seated"
        return seat

    def state(self) -> TableState:
        """The table's state now (a call, so that type checkers do not narrow it across steps)."""
        return self.table.state

    @property
    def round(self) -> Round:
        """The table's current round (there must be one)."""
        round_ = self.table.round
        assert round_ is not None, "no round"
        return round_

    def play_hint(self, number: int) -> list[Effect]:
        """:func:`person` ``(number)`` plays the hint of its seat's view (a legal move, §8)."""
        seat = self.seat(number)
        hint = self.round.view(seat).hint
        assert hint, f"seat {seat} has no hint: not its turn"
        return self.do(RequestPlay(client(number), hint, ref=f"play{number}"))

    def run_to_turn(self, seat: int, limit: int = 2_000) -> list[Effect]:
        """Fire the clock until ``seat`` is to move in the playing phase (people time out on the way,
        R44, unless it is their seat)."""
        return self.run_until(lambda: self.table.hand_running() and self.round.to_move == seat, limit)

    # ------------------------------------------------------------------ the log

    def rebuilt(self) -> Table:
        """The table rebuilt from its whole log so far."""
        return self.table.rebuilt(decoded(self.log))

    def restart(self, after_ms: int = 5_000, *, from_snapshot: bool = False) -> TableDriver:
        """A server restart ``after_ms`` later: a new driver whose table is rebuilt from this log (or
        only from its last ``round`` entry) and carries the log on; :class:`Resume` is not sent yet."""
        table = self.restored() if from_snapshot else self.rebuilt()
        driver = TableDriver(table, settle=self.settle, now_ms=self.now + after_ms)
        driver.log = list(self.log)
        driver._hand_ids = self._hand_ids
        driver.checks = list(self.checks)
        return driver

    def restored(self) -> Table:
        """The table restored from its last ``round`` entry onward (the older entries dropped)."""
        start = last_snapshot(self.log)
        assert start is not None, "no round entry in the log yet"
        table = self.table
        return Table.restore(table.id, table.options, table.config, autoplayer, seeds(), decoded(self.log[start:]))


def seat_people_and_bots(
    driver: TableDriver, people: Sequence[int], bot: str = "heuristic", *, start: bool = True
) -> None:
    """Seat ``people`` (account numbers 1, 2, …) at seats 0, 1, … in order, bots (``bot``) in the
    other seats (added by the first person), and, with ``start``, have every person press start."""
    for seat, number in enumerate(people):
        driver.join(number, seat)
    for seat in range(len(people), 4):
        driver.do(AddBot(client(people[0]), seat, bot, ref=f"bot{seat}"))
    if start:
        for number in people:
            driver.start(number)
