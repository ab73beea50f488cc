"""The table's parts through their own API, each on the shared state of a table driven to the point
the test needs: the outbox (who hears what), the journal (entries change the state), the clock
(R44, R31), slow bots (asked once per position, answers for old positions dropped) and talk."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.room.tablekit import CONFIG, TURN_MS, TableDriver, client, make_table, person, seat_people_and_bots
from tuolaji.game.round import Phase
from tuolaji.room.clock import Clock
from tuolaji.room.commands import TurnStamp, Watch
from tuolaji.room.effects import AskBot, Record, Send, SendState, SendSummary
from tuolaji.room.entries import BotSat, Freed, MadePrivate, MadePublic, Readied, Sat
from tuolaji.room.journal import Journal
from tuolaji.room.outbox import Outbox
from tuolaji.room.slowbots import SlowBots
from tuolaji.room.state import Deadline, Refused, TableState
from tuolaji.room.table import Table
from tuolaji.room.talk import Talk


def two_people_and_watchers() -> Table:
    """People 1 and 3 at seats 2 and 0, bots elsewhere, spectators ``w2`` and ``w1``; not started."""
    driver = TableDriver()
    driver.join(1, 2)
    driver.join(3, 0)
    driver.do(Watch("w2"))
    driver.do(Watch("w1"))
    return driver.table


# ---------------------------------------------------------------------- outbox


def test_the_outbox_reaches_seats_in_order_then_spectators_in_order() -> None:
    table = two_people_and_watchers()
    outbox = Outbox(table)
    assert outbox.recipients() == [(client(3), 0), (client(1), 2), ("w1", None), ("w2", None)]
    outbox.changed(skip=client(1))
    outbox.tell_all("phrase", {"phrase": "hello"})
    summary, *phrases = outbox.take()
    assert isinstance(summary, SendSummary) and summary.summary == table.summary()
    assert [recipient for recipient, _ in summary.recipients] == [client(3), "w1", "w2"]
    assert [send.client for send in phrases if isinstance(send, Send)] == [client(3), client(1), "w1", "w2"]
    assert outbox.take() == []


def test_a_broadcast_counts_seq_even_when_nobody_hears_it() -> None:
    table = make_table()
    outbox = Outbox(table)
    outbox.broadcast([])
    assert table.seq == 1 and outbox.take() == []
    table = two_people_and_watchers()
    outbox = Outbox(table)
    before = table.seq
    outbox.broadcast([])
    (state,) = outbox.take()
    assert isinstance(state, SendState) and state.seq == before + 1 and not state.full and len(state.recipients) == 4


def test_the_full_picture_adds_the_last_hand_end_only_between_hands() -> None:
    table = two_people_and_watchers()
    outbox = Outbox(table)
    table.hand_end = {"hand": 1}
    outbox.send_full("w1", None)
    assert [type(effect) for effect in outbox.take()] == [Send, SendState]
    table.state = TableState.BETWEEN
    outbox.send_full("w1", None, summary=False)
    state, hand_end = outbox.take()
    assert isinstance(state, SendState) and state.full and state.recipients == (("w1", None),)
    assert hand_end == Send("w1", "hand_end", {"hand": 1})


# ---------------------------------------------------------------------- journal


def test_the_journal_applies_what_it_records() -> None:
    table = make_table()
    outbox = Outbox(table)
    journal = Journal(table, outbox, table._journal.autoplayer)
    journal.record(Sat(1, person(5)))
    journal.record(BotSat(2, "random"))
    journal.record(Readied(1))
    journal.record(MadePrivate("code", 5))
    assert [(seat.player, seat.bot, seat.ready) for seat in table.seats[1:3]] == [
        (person(5), None, True),
        (None, "random", True),
    ]
    assert (table.private, table.invite, table.creator) == (True, "code", 5)
    table.seats[1].client = "c5"
    journal.record(Freed(1))
    journal.record(MadePublic())
    assert table.seats[1].kind == "empty" and table.seats[1].client is None and not table.private
    assert [effect.entry for effect in outbox.take() if isinstance(effect, Record)] == [
        Sat(1, person(5)),
        BotSat(2, "random"),
        Readied(1),
        MadePrivate("code", 5),
        Freed(1),
        MadePublic(),
    ]


# ---------------------------------------------------------------------- clock


def test_the_clock_runs_for_each_phase_and_gives_back_turn_time_after_a_retraction() -> None:
    driver = TableDriver()
    seat_people_and_bots(driver, [1])
    table = driver.table
    clock = Clock(table, SlowBots(table, Outbox(table)))
    table.deadline = None
    clock.arm()
    assert table.deadline is not None and table.deadline.kind == "deal"
    seat = 0
    driver.run_to_turn(seat)
    table.deadline = None
    clock.arm()
    assert table.deadline == Deadline("turn", seat, driver.now + TURN_MS)
    assert clock.turn_running(seat) and not clock.turn_running((seat + 1) % 4)
    table.now = driver.now + 1_200
    clock.note_play(seat)
    table.now = driver.now + 9_000
    clock.retracted(seat)  # R31: a later retraction gives back the time left when it played
    assert table.deadline is not None and table.deadline.at_ms == driver.now + 9_000 + TURN_MS - 1_200
    clock.new_round()
    assert table.deadline is None
    clock.retracted(seat)
    assert table.deadline is not None and table.deadline.at_ms == table.now + TURN_MS


# ---------------------------------------------------------------------- slow bots


def a_slow_bot_to_move() -> tuple[TableDriver, int]:
    """A table whose bots are slow (never answered here), played until a bot is to move."""
    driver = TableDriver(make_table(config=replace(CONFIG, slow_bots=frozenset({"slow"}))))
    seat_people_and_bots(driver, [1], bot="slow")
    driver.run_until(lambda: driver.round.phase is Phase.PLAYING and driver.round.to_move != 0)
    seat = driver.round.to_move
    assert seat is not None
    return driver, seat


def test_a_slow_bot_is_asked_once_per_position() -> None:
    driver, seat = a_slow_bot_to_move()
    table, round_ = driver.table, driver.round
    outbox = Outbox(table)
    bots = SlowBots(table, outbox)
    bots.ask(round_, seat)
    bots.ask(round_, seat)
    (asked,) = outbox.take()
    assert isinstance(asked, AskBot) and asked.bot == "slow"
    assert asked.stamp == TurnStamp(table.number, seat, len(round_.actions)) and asked.view.seat == seat
    assert table.match is not None and asked.seed == table.match.seed + seat


def test_a_slow_bot_plays_when_both_due_and_answered_and_never_for_an_old_position() -> None:
    driver, seat = a_slow_bot_to_move()
    table, round_ = driver.table, driver.round
    bots = SlowBots(table, Outbox(table))
    assert bots.due(round_, seat) is None  # no answer yet
    assert bots.pending is not None
    stamp = bots.pending.stamp
    old = replace(stamp, actions=stamp.actions - 1)
    assert bots.answer(old, None) is None and not bots.pending.answered
    play = bots.answer(stamp, None)  # the thinking failed: the in-process player's move, checked
    assert play is not None and play.seat == seat and round_.check_play(seat, play.cards) is None
    assert bots.pending is None
    bots.ask(round_, seat)
    bots.forget()
    assert bots.pending is None and bots.answer(stamp, play) is None


# ---------------------------------------------------------------------- talk


def test_talk_is_for_the_seated_and_limited_per_person() -> None:
    table = two_people_and_watchers()
    outbox = Outbox(table)
    talk = Talk(table, outbox)
    with pytest.raises(Refused) as refused:
        talk.say("w1", "hello")
    assert refused.value.code == "not_seated"
    for _ in range(talk.limiter.burst):
        talk.say(client(1), "hello")
    with pytest.raises(Refused) as refused:
        talk.say(client(1), "hello")
    assert refused.value.code == "too_many_phrases" and refused.value.params["wait_ms"] > 0
    talk.say(client(3), "thanks")  # another person's own allowance
    said = [effect for effect in outbox.take() if isinstance(effect, Send)]
    assert len(said) == 4 * (talk.limiter.burst + 1)
    assert said[-1] == Send("w2", "phrase", {"table_id": "t1", "seat": 0, "account": 3, "phrase": "thanks"})
