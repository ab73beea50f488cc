"""A table's determinism and its log (R3, R20, R43–R47; RULES-NOTES R46): the same commands give the
same effects; the log rebuilds the table after any prefix, also from its last snapshot; a table
restored after a restart resumes as RULES-NOTES decides."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from tests.room.tablekit import (
    CONFIG,
    OPTIONS,
    TURN_MS,
    TableDriver,
    acts,
    client,
    durable,
    entries,
    kinds,
    last_snapshot,
    make_table,
    of,
    person,
    seat_people_and_bots,
    sends,
    states_to,
)
from tuolaji.game.round import Phase
from tuolaji.room.commands import (
    AddBot,
    Attach,
    Detach,
    HandSettled,
    Join,
    Leave,
    MakePrivate,
    MakePublic,
    RequestAutoPlay,
    RequestBid,
    RequestPass,
    RequestRemind,
    RequestRetract,
    Resume,
    Say,
    Start,
    Watch,
)
from tuolaji.room.effects import Arm, Closed, Seated, SendSummary, StoreHand
from tuolaji.room.table import TableState

# ---------------------------------------------------------------------- scenarios


def play_until(driver: TableDriver, done: Callable[[], bool], people: tuple[int, ...] = ()) -> None:
    """Go on until ``done()``: ``people`` play their hints on their turns, the clock does the rest."""
    for _ in range(3_000):
        if done():
            return
        to_move = driver.table.round.to_move if driver.table.hand_running() and driver.table.round else None
        mover = next((number for number in people if driver.table.seat_of(number) == to_move), None)
        if mover is not None and not driver.round.autoplay[driver.seat(mover)]:
            driver.play_hint(mover)
        else:
            driver.fire()
    raise AssertionError("never done")


def followed(driver: TableDriver, number: int) -> Callable[[], bool]:
    """Person ``number`` has followed in the current trick, which is not judged yet (R30, R31)."""

    def done() -> bool:
        round_ = driver.table.round
        seat = driver.table.seat_of(number)
        return (
            round_ is not None
            and round_.phase in (Phase.PLAYING, Phase.REVIEW)
            and seat in round_.plays
            and round_.leader != seat
        )

    return done


def a_match_with_escapes(driver: TableDriver) -> TableDriver:
    """A private table (made public after its first hand) with two people and two bots: bids, own
    plays, a retraction, a reminder, quick phrases, timeouts, 託管 asked for and by a disconnect, a
    watcher, a settled hand, an escape, a new match, and the table closing."""
    driver.do(MakePrivate("invite-code-1", 1))
    driver.join(1, 0)
    driver.do(Watch("w", invite="invite-code-1"))
    driver.do(Join(client(2), person(2), 2, invite="invite-code-1"))
    driver.do(AddBot(client(1), 1, "random"))
    driver.do(AddBot(client(2), 3, "heuristic"))
    for number in (1, 2):
        driver.start(number)
    play_until(driver, followed(driver, 2), people=(1, 2))
    driver.do(RequestRetract(client(2)))  # R31
    play_until(driver, followed(driver, 2), people=(1, 2))
    driver.do(RequestRemind(client(1)))  # R30
    driver.do(RequestAutoPlay(client(2), True))
    driver.do(Detach(client(1)))
    driver.advance(3_000)
    driver.attach(1, "c1b")
    driver.do(Say(client(2), "thanks"))
    driver.run_to_hand_end()  # person 1 times out into 託管 on the way (R44, R45)
    driver.do(MakePublic("c1b"))
    driver.do(RequestAutoPlay(client(2), False))  # between hands
    driver.run_to_turn(2)
    driver.do(Leave(client(2)))  # an escape (R43)
    driver.join(3, 2)
    driver.do(Start("c1b"))
    driver.start(3)
    driver.run_to_turn(0)
    driver.do(Leave("c1b"))
    driver.do(Leave(client(3)))
    return driver


def redeals_stop_and_resume(driver: TableDriver) -> TableDriver:
    """Four people: a hand played in 託管, three redeals (R20), the match stopped and resumed."""
    for number in range(1, 5):
        driver.join(number, number - 1)
        driver.start(number)
    for number in range(1, 5):
        driver.do(RequestAutoPlay(client(number), True))
    driver.run_to_hand_end()
    for number in range(1, 5):
        driver.do(RequestAutoPlay(client(number), False))
    for _ in range(3):
        driver.run_to_hand_end()
    assert driver.state() is TableState.STOPPED
    for number in range(1, 5):
        driver.start(number)
    driver.run_until(lambda: driver.round.phase is Phase.BIDDING)
    bidder = next(number for number in range(1, 5) if driver.round.bid_options(number - 1))
    suit, count = driver.round.bid_options(bidder - 1)[0]
    driver.do(RequestBid(client(bidder), suit, count))  # a person's own bid (R16)
    for number in range(1, 5):
        driver.do(RequestPass(client(number)))  # 不叫 from everyone closes the window at once (R19)
    assert driver.table.deadline is not None and driver.table.deadline.at_ms == driver.table.now
    driver.run_to_turn(1)
    driver.do(Detach(client(4)))
    driver.run_to_hand_end()  # person 4 is removed (R46)
    return driver


def a_restart_mid_hand(driver: TableDriver) -> TableDriver:
    """One person and three bots; the server restarts mid-hand; the person comes back later."""
    seat_people_and_bots(driver, [1])
    driver.run_to_turn(0)
    restarted = driver.restart()
    restarted.do(Resume())
    tricks = len(restarted.round.tricks)
    restarted.run_until(lambda: len(restarted.round.tricks) >= tricks + 2)
    restarted.attach(1)
    restarted.run_to_hand_end()
    restarted.fire()
    return restarted


# ---------------------------------------------------------------------- determinism


def test_the_same_commands_at_the_same_times_give_the_same_effects() -> None:
    first = TableDriver()
    a_match_with_escapes(first)
    assert len(first.steps) > 150 and first.table.closed and first.table.number == 3
    twin = make_table()
    for index, step in enumerate(first.steps):
        assert twin.handle(step.command, step.now_ms) == list(step.effects), f"step {index}: {step.command}"
    other = make_table(seed=8)  # another match seed: another deal, so the comparison can fail
    assert any(other.handle(step.command, step.now_ms) != list(step.effects) for step in first.steps[:30])


# ---------------------------------------------------------------------- the log rebuilds the table


def same_as_its_log(driver: TableDriver) -> None:
    """The table rebuilt from its whole log, and from its last ``round`` entry on, is the live one."""
    live = durable(driver.table)
    assert durable(driver.rebuilt()) == live, f"after {driver.steps[-1].command}"
    if last_snapshot(driver.log) is not None:
        assert durable(driver.restored()) == live, f"after {driver.steps[-1].command} (from the snapshot)"


@pytest.mark.parametrize("scenario", [a_match_with_escapes, redeals_stop_and_resume, a_restart_mid_hand])
def test_the_log_rebuilds_the_table_after_every_step(scenario: Callable[[TableDriver], TableDriver]) -> None:
    first = TableDriver()
    first.checks.append(same_as_its_log)
    driver = scenario(first)
    seen = {entry["t"] for entry in driver.log}
    assert {"sit", "ready", "match", "round", "act", "settle", "between"} <= seen
    assert len(first.steps) + (len(driver.steps) if driver is not first else 0) > 100


def test_the_scenarios_cover_the_log_entries_and_actions() -> None:
    """The rebuild test above is only as good as what its scenarios record."""
    seen: set[str] = set()
    actions: set[str] = set()
    for scenario in (a_match_with_escapes, redeals_stop_and_resume):
        driver = scenario(TableDriver())
        seen |= {entry["t"] for entry in driver.log}
        actions |= {entry["action"]["type"] for entry in driver.log if entry["t"] == "act"}
    assert seen == {"sit", "bot", "ready", "match", "round", "act", "settle", "between", "stop", "resume"} | {
        "free",
        "end_match",
        "close",
        "private",
        "public",
    }
    assert actions == {
        "deal",
        "bid",
        "pass",
        "close_bidding",
        "play",
        "close_review",
        "retract",
        "remind",
        "timeout",
        "autoplay",
        "escape",
    }


# ---------------------------------------------------------------------- resume after a restart


def test_after_a_restart_the_seat_to_move_gets_a_full_turn_then_autoplay_without_a_timeout() -> None:
    """RULES-NOTES R46: nobody is connected after the restart; a person not back in time goes to 託管
    without a timeout counted."""
    driver = TableDriver()
    seat_people_and_bots(driver, [1])
    driver.do(Watch("w"))
    driver.run_to_turn(0)
    timeouts = driver.round.timeouts[0]
    restarted = driver.restart(after_ms=7_000)
    out = restarted.do(Resume())
    assert not entries(out) and of(out, Arm) == [Arm(restarted.now + TURN_MS)]
    summary = of(out, SendSummary)[-1]
    assert summary.recipients == () and summary.summary["spectators"] == 0
    assert not summary.summary["seats"][0]["connected"] and not summary.summary["seats"][0]["autoplay"]
    assert restarted.table.client_seat("c1") is None
    out = restarted.fire()
    assert acts(out)[0] == {"type": "autoplay", "seat": 0, "on": True, "reason": "disconnect"}
    assert acts(out)[1]["type"] == "play" and acts(out)[1]["seat"] == 0
    assert not any(action["type"] == "timeout" for action in acts(out))
    assert restarted.round.timeouts[0] == timeouts and restarted.round.autoplay[0]
    out = restarted.attach(1)  # coming back turns off what the disconnect turned on
    assert acts(out) == [{"type": "autoplay", "seat": 0, "on": False, "reason": "reconnect"}]


def test_a_person_away_since_the_restart_is_kept_for_that_hand_and_removed_after_the_next() -> None:
    """RULES-NOTES R46: away only because of the restart, kept (in 託管) at the end of that hand;
    still away at the end of the next one, removed."""
    driver = TableDriver()
    seat_people_and_bots(driver, [1, 2])
    driver.run_to_turn(1)
    restarted = driver.restart()
    restarted.do(Resume())
    restarted.attach(2)
    out = restarted.run_to_hand_end()
    assert of(out, StoreHand) and kinds(out)[-1] == "between"
    assert not of(out, Seated) and restarted.table.seat_of(1) == 0
    assert restarted.round.autoplay[0] and restarted.table.seats[0].away_autoplay
    assert restarted.state() is TableState.BETWEEN
    out = restarted.run_to_hand_end()
    assert kinds(out)[-2:] == ["free", "end_match"] and entries(out)[-2]["seat"] == 0
    assert of(out, Seated) == [Seated(1, None)] and restarted.state() is TableState.WAITING
    assert restarted.table.seat_of(2) == 1


def test_a_person_away_before_the_restart_is_still_removed_at_the_end_of_the_hand() -> None:
    """R46: a person who disconnected before the restart is not away *because of* it: removed when
    the hand ends, like without a restart."""
    driver = TableDriver()
    seat_people_and_bots(driver, [1, 2])
    driver.run_to_turn(0)
    driver.do(Detach(client(2)))  # 託管 (disconnect) before the restart
    restarted = driver.restart()
    restarted.do(Resume())
    restarted.attach(1)
    out = restarted.run_to_hand_end()
    assert kinds(out)[-2:] == ["free", "end_match"] and entries(out)[-2]["seat"] == 1
    assert of(out, Seated) == [Seated(2, None)] and restarted.state() is TableState.WAITING


def test_a_restart_while_settling_keeps_everyone_for_one_more_hand() -> None:
    """The shell restores a SETTLING table, resumes it and sends the stored hand's settlement."""
    driver = TableDriver(settle=False)
    seat_people_and_bots(driver, [1, 2])
    driver.do(RequestAutoPlay(client(1), True))
    driver.run_until(lambda: driver.state() is TableState.SETTLING)
    driver.do(RequestAutoPlay(client(2), False))  # person 2 went to 託管 after three timeouts (R45)
    restarted = driver.restart(from_snapshot=True)
    assert restarted.state() is TableState.SETTLING
    out = restarted.do(Resume())
    assert not entries(out) and restarted.armed is None
    out = restarted.do(HandSettled(1, 9))
    # Person 1 was in 託管 already; person 2 goes to it now, and both are kept.
    assert acts(out) == [{"type": "autoplay", "seat": 1, "on": True, "reason": "disconnect"}]
    assert kinds(out) == ["act", "between"] and not of(out, Seated)
    assert of(out, Arm) == [Arm(restarted.now + CONFIG.next_hand_delay_ms)] and not sends(out, "hand_end")
    out = restarted.fire()
    assert kinds(out)[0] == "round" and restarted.round.autoplay[:2] == [True, True]  # carried over (R45)


def test_a_waiting_table_frees_the_seats_of_people_not_back_in_time() -> None:
    """RULES-NOTES R46: after ``reconnect_grace_ms``."""
    driver = TableDriver()
    driver.join(1, 0)
    driver.join(2, 1)
    driver.start(2)
    restarted = driver.restart()
    out = restarted.do(Resume())
    assert of(out, Arm) == [Arm(restarted.now + CONFIG.reconnect_grace_ms)] and not entries(out)
    out = restarted.attach(1)
    assert of(out, SendSummary)[-1].summary["seats"][0]["connected"]
    restarted.advance(1_000)
    out = restarted.fire()
    assert kinds(out) == ["free"] and entries(out)[0]["seat"] == 1 and of(out, Seated) == [Seated(2, None)]
    assert restarted.table.seat_of(1) == 0 and not restarted.table.closed
    assert restarted.state() is TableState.WAITING


def test_a_waiting_table_nobody_comes_back_to_closes() -> None:
    driver = TableDriver()
    driver.join(1, 0)
    restarted = driver.restart()
    restarted.do(Resume())
    out = restarted.fire()
    assert kinds(out) == ["free", "close"] and of(out, Closed) == [Closed("empty")]


def test_people_away_since_a_restart_when_the_match_stops_get_the_reconnect_window() -> None:
    """R20 + RULES-NOTES R46: the third redeal in a row ends a hand cut by a restart; the match
    stops, so there is no next hand to keep the people who are not back for: as at any waiting
    table after a restart, they are removed after ``reconnect_grace_ms`` (else the table, with
    nobody connected and no clock, would wait forever)."""
    driver = TableDriver()
    for number in range(1, 5):
        driver.join(number, number - 1)
        driver.start(number)
    driver.run_to_hand_end()
    driver.run_to_hand_end()  # two redeals: nobody bids
    driver.fire()
    assert driver.round.phase is Phase.DEALING and driver.table.number == 3
    restarted = driver.restart()
    restarted.do(Resume())
    restarted.attach(1)
    out = restarted.run_to_hand_end()  # the third redeal
    assert kinds(out)[-1] == "stop" and restarted.state() is TableState.STOPPED
    assert of(out, Arm)[-1] == Arm(restarted.now + CONFIG.reconnect_grace_ms) and not of(out, Seated)
    assert kinds(restarted.start(1)) == ["ready"]
    restarted.attach(2)  # back in time
    out = restarted.fire()
    assert kinds(out) == ["free", "free", "end_match"] and of(out, Seated) == [Seated(3, None), Seated(4, None)]
    assert restarted.state() is TableState.WAITING and restarted.table.seat_of(2) == 1


def test_a_restart_between_hands_deals_the_next_hand_after_the_pause() -> None:
    driver = TableDriver()
    seat_people_and_bots(driver, [1])
    driver.do(RequestAutoPlay(client(1), True))
    driver.run_to_hand_end()
    restarted = driver.restart(from_snapshot=True)
    out = restarted.do(Resume())
    assert of(out, Arm) == [Arm(restarted.now + CONFIG.next_hand_delay_ms)]
    out = restarted.fire()
    assert kinds(out)[0] == "round" and entries(out)[0]["number"] == 2


def test_options_of_the_rebuilt_table_are_kept() -> None:
    options = replace(OPTIONS, preset="guigang", start_level="5")
    driver = TableDriver(make_table(options))
    seat_people_and_bots(driver, [1])
    rebuilt = driver.rebuilt()
    assert rebuilt.options == options and rebuilt.summary()["levels"] == ["5", "5"]
    assert durable(rebuilt) == durable(driver.table)


def test_a_table_rebuilt_after_a_failed_write_numbers_its_states_on() -> None:
    """The host rebuilds a table from its log when a write failed; its clients saw the states up to
    then, so the rebuilt table's states go on from there (a lower ``seq`` would look old to them)."""
    driver = TableDriver(make_table())
    seat_people_and_bots(driver, [1])
    driver.start(1)
    driver.run_until(lambda: driver.table.seq > 5)
    seen = driver.table.seq
    rebuilt = driver.rebuilt()
    assert rebuilt.seq == seen
    [full] = states_to(rebuilt.handle(Attach(client(1), person(1).id), driver.now), client(1))
    assert full.full and full.seq == seen
