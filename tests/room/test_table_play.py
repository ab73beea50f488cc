"""A table's hands in-process (R20, R31, R39–R45): turn clocks, timeouts into 託管, slow bots'
answers, redeals, and the settlement request of a finished hand. Fake clock throughout."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest

from tests.room.tablekit import (
    CONFIG,
    OPTIONS,
    TURN_MS,
    TableDriver,
    acts,
    autoplayer,
    client,
    entries,
    kinds,
    make_table,
    of,
    person,
    seat_people_and_bots,
    sends,
)
from tuolaji.cards import RANKS, Card, format_cards
from tuolaji.game.actions import Bid, Play, action_to_json
from tuolaji.game.round import Phase, team_of
from tuolaji.room.commands import (
    AddBot,
    BotAnswer,
    ClockFired,
    HandSettled,
    Join,
    Leave,
    Player,
    RequestAutoPlay,
    RequestPlay,
    RequestRetract,
    TurnStamp,
)
from tuolaji.room.effects import (
    Ack,
    Arm,
    AskBot,
    Closed,
    Disarm,
    Effect,
    HandSeat,
    Refuse,
    Seated,
    SendState,
    SendSummary,
    StoreHand,
)
from tuolaji.room.table import TableState, legal_play

SLOW = replace(CONFIG, slow_bots=frozenset({"search"}))
"""The server thinks out ``search`` bots' moves elsewhere (:class:`AskBot`)."""


def events(effects: Sequence[Effect], kind: str) -> list[dict[str, object]]:
    """The data of the broadcast events of type ``kind`` in ``effects``."""
    return [event.data for state in of(effects, SendState) for event in state.events if event.type == kind]


# ---------------------------------------------------------------------- timeouts and 託管 (R44, R45)


@pytest.mark.parametrize(("preset", "limit"), [("nanning", 3), ("fourdeck", 2)])
def test_timeouts_in_a_row_switch_the_seat_to_autoplay(preset: str, limit: int) -> None:
    """R44: a timeout is counted and a legal auto move played; R45: after ``limit`` in a row, 託管."""
    driver = TableDriver(make_table(replace(OPTIONS, preset=preset)))
    seat_people_and_bots(driver, [1])
    for count in range(1, limit + 1):
        driver.run_to_turn(0)
        assert driver.armed == driver.now + TURN_MS  # a person's full turn (R44)
        round_ = driver.round
        match = driver.table.match
        assert match is not None
        move = legal_play(round_, 0, autoplayer(None, match.seed).choose(round_.view(0)))
        out = driver.fire()
        assert acts(out)[:2] == [{"type": "timeout", "seat": 0}, action_to_json(move)]
        assert events(out, "timeout") == [{"seat": 0, "count": count, "limit": limit}]
        assert round_.timeouts[0] == count
        assert round_.autoplay[0] is (count == limit)
    assert events(out, "autoplay") == [{"seat": 0, "on": True, "reason": "timeouts"}]
    assert of(out, SendSummary)[-1].summary["seats"][0]["autoplay"]
    # In 託管 the seat moves after the bot delay, without timeouts.
    driver.run_to_turn(0)
    assert driver.armed == driver.now + CONFIG.bot_delay_ms
    out = driver.fire()
    assert [action["type"] for action in acts(out)][:1] == ["play"] and not events(out, "timeout")
    # R45: the player turns it off; the count starts again and the next turn is a full one.
    out = driver.do(RequestAutoPlay("c1", False, ref="off"))
    assert acts(out) == [{"type": "autoplay", "seat": 0, "on": False, "reason": "request"}]
    assert not driver.round.autoplay[0] and driver.round.timeouts[0] == 0
    driver.run_to_turn(0)
    assert driver.armed == driver.now + TURN_MS


def test_a_move_of_ones_own_breaks_the_run_of_timeouts() -> None:
    """R45: only timeouts *in a row* count (preset fourdeck: 2)."""
    driver = TableDriver(make_table(replace(OPTIONS, preset="fourdeck")))
    seat_people_and_bots(driver, [1])
    driver.run_to_turn(0)
    driver.fire()
    assert driver.round.timeouts[0] == 1
    driver.run_to_turn(0)
    out = driver.play_hint(1)
    assert [action["type"] for action in acts(out)][:1] == ["play"] and driver.round.timeouts[0] == 0
    driver.run_to_turn(0)
    driver.fire()
    assert driver.round.timeouts[0] == 1 and not driver.round.autoplay[0]


# ---------------------------------------------------------------------- a person's plays (R21, R33, §8)


def a_wrong_single(driver: TableDriver, seat: int) -> Card | None:
    """A card ``seat`` holds whose play, following a single-card lead now, breaks R23–R24, or None."""
    round_ = driver.round
    lead = round_.lead
    if round_.to_move != seat or lead is None or len(lead) != 1:
        return None
    return next((card for card in round_.hands[seat] if round_.check_play(seat, (card,)) is not None), None)


def to_a_wrong_follow(driver: TableDriver) -> Card:
    """Play on (person 1 at seat 0 plays its hints) until person 1 could follow wrongly; that card."""
    for _ in range(5_000):
        if driver.table.hand_running() and driver.round.to_move == 0:
            card = a_wrong_single(driver, 0)
            if card is not None:
                return card
            driver.play_hint(1)
        else:
            driver.fire()
    raise AssertionError("no chance to follow wrongly")


def test_a_wrong_follow_is_played_silently() -> None:
    """R33 as the seeds play it: in a ``laogai`` table a wrong follow is played at once, and the team
    is 勞改 when the trick is judged (R34)."""
    driver = TableDriver()
    seat_people_and_bots(driver, [1])
    card = to_a_wrong_follow(driver)
    out = driver.do(RequestPlay("c1", (card,), ref="w"))
    assert not of(out, Refuse) and Ack("c1", "w") in out
    assert acts(out)[0] == {"type": "play", "seat": 0, "cards": format_cards([card])}
    [store] = of(driver.run_to_hand_end(), StoreHand)
    assert store.result.kind == "laogai" and store.result.laogai_team == 0


def test_a_wrong_follow_is_played_only_once_confirmed_with_warn_wrong_follow() -> None:
    """§8 (illegal_follow laogai, ``warn_wrong_follow``): the follow is refused with ``confirm_laogai``
    and the rule it breaks; confirmed, it is played (and judged at the review, R33)."""
    driver = TableDriver(make_table(replace(OPTIONS, warn_wrong_follow=True)))
    seat_people_and_bots(driver, [1])
    card = to_a_wrong_follow(driver)
    out = driver.do(RequestPlay("c1", (card,), ref="w"))
    [refusal] = of(out, Refuse)
    assert (refusal.code, refusal.ref) == ("confirm_laogai", "w") and refusal.rule in ("R23", "R24")
    assert not entries(out) and driver.round.to_move == 0
    out = driver.do(RequestPlay("c1", (card,), confirmed=True, ref="w2"))
    assert acts(out)[0] == {"type": "play", "seat": 0, "cards": format_cards([card])} and Ack("c1", "w2") in out
    # The bots follow legally, so team 0 alone followed wrongly: 勞改 at the review (R33, R34).
    out = driver.run_to_hand_end()
    [store] = of(out, StoreHand)
    assert store.result.kind == "laogai" and store.result.laogai_team == 0 and store.result.levels == 3
    assert [event["team"] for event in events(out, "laogai")] == [0]
    assert driver.state() is TableState.BETWEEN


def test_a_wrong_follow_is_refused_at_a_reject_table() -> None:
    driver = TableDriver(make_table(replace(OPTIONS, illegal_follow="reject")))
    seat_people_and_bots(driver, [1])
    card = to_a_wrong_follow(driver)
    out = driver.do(RequestPlay("c1", (card,), confirmed=True, ref="w"))
    [refusal] = of(out, Refuse)
    assert refusal.code == "illegal_follow" and refusal.rule in ("R23", "R24") and not entries(out)


def test_a_play_out_of_turn_is_refused() -> None:
    driver = TableDriver()
    seat_people_and_bots(driver, [1])
    driver.run_to_turn(1)
    out = driver.do(RequestPlay("c1", (driver.round.hands[0][0],), ref=3))
    [refusal] = of(out, Refuse)
    assert (refusal.code, refusal.rule, refusal.ref) == ("not_your_turn", "R21", 3) and not entries(out)
    out = driver.do(RequestPlay("nobody", (driver.round.hands[0][0],), ref=4))
    assert [refusal.code for refusal in of(out, Refuse)] == ["not_seated"]


def test_retractions_over_400_points_dissolve_the_table() -> None:
    """R32: the hand stops at once, the player settles as an escape (R43), the table is dissolved."""
    driver = TableDriver(settle=False)
    seat_people_and_bots(driver, [1, 2])
    driver.run_until(
        lambda: driver.table.hand_running() and driver.round.to_move == 0 and driver.round.lead is not None
    )
    while driver.table.hand_running():
        driver.play_hint(1)
        out = driver.do(RequestRetract("c1"))
    assert driver.round.retraction_points[0] > 400
    [store] = of(out, StoreHand)
    assert store.result.kind == "dissolved" and store.result.escaped == 0 and store.result.cheaters == (0,)
    assert not of(out, Closed)  # not before the settlement
    out = driver.do(HandSettled(1, 3))
    assert kinds(out) == ["free", "close", "free", "free", "free"]
    assert of(out, Closed) == [Closed("dissolved")] and of(out, Seated) == [Seated(1, None), Seated(2, None)]
    assert [(send.client, send.fields["reason"]) for send in sends(out, "left")] == [
        ("c1", "escaped"),
        ("c2", "closed"),
    ]
    assert {send.client for send in sends(out, "hand_end")} == {"c1", "c2"}


# ---------------------------------------------------------------------- the deal (R15, R19)


def test_the_deal_is_paced_and_bots_bid_while_it_runs() -> None:
    """R15: four cards a tick (one round of the table) every ``deal_interval_ms``; R19 bids during it."""
    driver = TableDriver(make_table(replace(OPTIONS, deal_interval_ms=50)))
    seat_people_and_bots(driver, [1])
    assert driver.armed == driver.now + 50
    dealt: list[int] = []
    first_bid: int | None = None
    while driver.round.phase is Phase.DEALING:
        out = driver.fire()
        dealt.append(driver.round.dealt)
        if first_bid is None and any(action["type"] == "bid" for action in acts(out)):
            first_bid = driver.round.dealt
        assert driver.round.phase is not Phase.DEALING or driver.armed == driver.now + 50
    assert dealt == list(range(4, 217, 4))
    assert first_bid is not None and first_bid < 216  # a bot bid while the cards came (R19)
    # R19: the window after it, closed at once when nobody may bid any more (the bots said 不叫 at once)
    window = round(OPTIONS.bid_window_seconds * 1000) if driver.round.bid_options(0) else 0
    assert driver.armed == driver.now + window


def test_leaving_during_the_deal_is_an_escape_too() -> None:
    """R43: from the deal on; the first hand has no dealer yet (R19)."""
    driver = TableDriver(make_table(replace(OPTIONS, deal_interval_ms=50)), settle=False)
    seat_people_and_bots(driver, [1, 2])
    driver.fire()
    out = driver.do(Leave("c2"))
    [store] = of(out, StoreHand)
    assert store.result.kind == "escape" and store.result.escaped == 1 and store.result.dealer is None
    assert store.actions[0] == {"type": "deal", "count": 4}


# ---------------------------------------------------------------------- slow bots


def slow_table(*, person_plays: bool) -> TableDriver:
    """Person 1 at seat 0, a slow ``search`` bot at seat 1, heuristic bots at seats 2 and 3; started.
    Without ``person_plays`` the person asks for 託管 at once."""
    driver = TableDriver(make_table(config=SLOW))
    driver.join(1, 0)
    for seat, bot in ((1, "search"), (2, "heuristic"), (3, "heuristic")):
        driver.do(AddBot(client(1), seat, bot))
    driver.start(1)
    if not person_plays:
        driver.do(RequestAutoPlay("c1", True))
    return driver


def drive(driver: TableDriver, done: Callable[[TurnStamp], bool], *, person: int | None = None) -> TurnStamp:
    """Play on (the clock, the slow bot answering "thinking failed" at once, ``person`` playing its
    hints) until an :class:`AskBot` just sent satisfies ``done``; its stamp."""
    pending: TurnStamp | None = None
    for _ in range(5_000):
        if pending is not None and done(pending):
            return pending
        table = driver.table
        if pending is not None:
            out = driver.do(BotAnswer(pending, None))
            pending = None
        elif person is not None and table.hand_running() and driver.round.to_move == driver.seat(person):
            out = driver.play_hint(person)
        else:
            out = driver.fire()
        asks = of(out, AskBot)
        if asks:
            pending = asks[-1].stamp
    raise AssertionError("the position never came")


def leads(driver: TableDriver, seat: int) -> Callable[[TurnStamp], bool]:
    """``seat`` is asked to lead a trick."""
    return lambda stamp: stamp.seat == seat and driver.round.leader == seat and not driver.round.plays


def test_a_slow_bot_is_asked_and_its_answer_played_when_due() -> None:
    driver = slow_table(person_plays=False)
    stamp = drive(driver, leads(driver, 1))
    round_ = driver.round
    [ask] = of(driver.steps[-1].effects, AskBot)
    assert ask.bot == "search" and ask.view == round_.view(1)
    assert driver.table.match is not None and ask.seed == driver.table.match.seed + 1
    assert stamp == TurnStamp(driver.table.number, 1, len(round_.actions))
    assert driver.armed == driver.now + CONFIG.bot_delay_ms
    hint = round_.hint(1)
    choice = next(card for card in round_.hands[1] if card not in hint)  # a lead that is not the hint
    out = driver.do(BotAnswer(stamp, Play(1, (choice,))))
    assert out == []  # answered early: it waits for its turn to be due
    out = driver.fire()
    assert acts(out)[0] == {"type": "play", "seat": 1, "cards": format_cards([choice])}


def test_a_slow_bots_answer_for_a_position_that_changed_is_dropped() -> None:
    """A 託管 switch changes the position (one more action): the old answer records nothing."""
    driver = slow_table(person_plays=False)
    old = drive(driver, leads(driver, 1))
    armed = driver.armed
    out = driver.do(RequestAutoPlay("c1", False))
    assert acts(out) == [{"type": "autoplay", "seat": 0, "on": False, "reason": "request"}]
    [ask] = of(out, AskBot)
    assert ask.stamp == replace(old, actions=old.actions + 1) and not of(out, Arm) and driver.armed == armed
    hint = driver.round.hint(1)
    choice = next(card for card in driver.round.hands[1] if card not in hint)
    assert driver.do(BotAnswer(old, Play(1, (choice,)))) == []
    driver.fire()  # due: waits for the current answer
    assert driver.round.to_move == 1 and driver.armed is None
    out = driver.do(BotAnswer(ask.stamp, Play(1, (choice,))))
    assert acts(out)[0] == {"type": "play", "seat": 1, "cards": format_cards([choice])}
    assert driver.do(BotAnswer(ask.stamp, Play(1, (choice,)))) == []  # answered twice: the second is stale


def test_a_retraction_makes_a_slow_bots_answer_stale_and_resets_the_turn_clock_once() -> None:
    """R31: a follower retracts before the trick is judged; the first retraction of a hand resets the
    turn clock, a later one gives back the time that was left."""
    driver = slow_table(person_plays=True)

    def after_the_person(stamp: TurnStamp) -> bool:
        round_ = driver.round
        return stamp.seat == 1 and round_.leader in (2, 3) and 0 in round_.plays

    old = drive(driver, after_the_person, person=1)
    proposal = driver.round.hint(1)
    driver.advance(1_000)
    out = driver.do(RequestRetract("c1", ref="back"))
    [action] = acts(out)
    assert (action["type"], action["seat"]) == ("retract", 0) and not of(out, AskBot)
    assert driver.round.to_move == 0 and driver.armed == driver.now + TURN_MS  # the first retraction
    assert driver.do(BotAnswer(old, Play(1, tuple(proposal)))) == []
    driver.advance(2_000)
    out = driver.play_hint(1)
    [ask] = of(out, AskBot)
    assert ask.stamp == replace(old, actions=old.actions + 2)
    driver.advance(500)
    out = driver.do(RequestRetract("c1"))
    assert [action["type"] for action in acts(out)] == ["retract"]
    assert driver.armed == driver.now + TURN_MS - 2_000  # R31: only the first retraction resets it
    assert driver.round.retraction_points[0] > 0
    assert driver.do(BotAnswer(ask.stamp, None)) == []


def test_an_illegal_proposal_plays_the_hint() -> None:
    """§8: automatic moves are always legal."""
    driver = slow_table(person_plays=False)
    for proposal_of in (
        lambda seat: Play(seat, ()),
        lambda seat: Play((seat + 1) % 4, tuple(driver.round.hands[(seat + 1) % 4][:1])),
        lambda seat: Bid(seat, 0, 1),
    ):
        stamp = drive(driver, lambda stamp: stamp.seat == 1)
        hint = driver.round.hint(1)
        driver.do(BotAnswer(stamp, proposal_of(1)))
        out = driver.fire()
        assert acts(out)[0] == {"type": "play", "seat": 1, "cards": format_cards(hint)}


def test_failed_thinking_plays_the_in_process_move() -> None:
    driver = slow_table(person_plays=False)
    stamp = drive(driver, lambda stamp: stamp.seat == 1)
    match = driver.table.match
    assert match is not None
    round_ = driver.round
    expected = legal_play(round_, 1, autoplayer("search", match.seed + 1).choose(round_.view(1)))
    out = driver.fire()  # due before the answer came
    assert not acts(out) and of(out, Disarm)
    out = driver.do(BotAnswer(stamp, None))
    assert acts(out)[0] == action_to_json(expected)


# ---------------------------------------------------------------------- redeals (R20)


def four_people(driver: TableDriver) -> None:
    """People 1–4 at seats 0–3, all pressed start."""
    for number in range(1, 5):
        driver.do(Join(client(number), person(number), number - 1))
    for number in range(1, 5):
        driver.start(number)


def run_redeals(driver: TableDriver, count: int) -> list[Effect]:
    """Fire the clock through ``count`` hands nobody bids in; every effect."""
    out: list[Effect] = []
    for _ in range(count):
        step = driver.run_to_hand_end()
        assert [send.fields["result"]["kind"] for send in sends(step, "hand_end", "c1")] == ["redeal"]
        assert [send.fields["hand_id"] for send in sends(step, "hand_end", "c1")] == [None]
        assert not of(step, StoreHand)  # nothing is scored (R20)
        out += step
    return out


def test_three_redeals_stop_the_match_until_everyone_presses_start_again() -> None:
    """R20 (nanning): the match stops, and resumes from the same levels and dealer."""
    driver = TableDriver()
    four_people(driver)
    for number in range(1, 5):  # the first hand is played by the auto-players, who bid
        driver.do(RequestAutoPlay(client(number), True))
    driver.run_to_hand_end()
    assert driver.state() is TableState.BETWEEN
    for number in range(1, 5):  # now nobody bids
        driver.do(RequestAutoPlay(client(number), False))
    match = driver.table.match
    assert match is not None and match.hands_played == 1
    levels, dealer = list(match.levels), match.dealer
    assert dealer is not None
    out = run_redeals(driver, 3)
    assert kinds(out).count("between") == 2 and kinds(out)[-1] == "stop"
    assert driver.state() is TableState.STOPPED and driver.armed is None
    summary = driver.table.summary()
    assert summary["state"] == "stopped" and summary["redeals"] == 3 and summary["dealer"] == dealer
    assert summary["levels"] == [RANKS[level] for level in levels]
    assert not any(seat["ready"] for seat in summary["seats"])
    for number in (1, 2, 3):
        assert kinds(driver.start(number)) == ["ready"] and driver.state() is TableState.STOPPED
    out = driver.start(4)
    assert kinds(out) == ["ready", "resume", "round"]
    round_entry = entries(out)[2]
    assert round_entry["number"] == 5 and round_entry["setup"]["dealer"] == dealer
    assert round_entry["setup"]["level"] == RANKS[levels[team_of(dealer)]]
    assert round_entry["match"]["redeals_in_row"] == 0 and round_entry["match"]["levels"] == summary["levels"]
    assert driver.state() is TableState.PLAYING and driver.round.phase is Phase.DEALING


def test_three_redeals_dissolve_a_fourdeck_table() -> None:
    """R20, preset fourdeck: the table is dissolved instead."""
    driver = TableDriver(make_table(replace(OPTIONS, preset="fourdeck")))
    four_people(driver)
    out = run_redeals(driver, 3)
    assert kinds(out)[-6:] == ["settle", "close", "free", "free", "free", "free"]
    assert of(out, Closed) == [Closed("redeal")] and driver.table.closed
    assert of(out, Seated)[-4:] == [Seated(number, None) for number in range(1, 5)]
    assert [send.fields["reason"] for send in sends(out, "left")] == ["closed"] * 4
    assert driver.armed is None


# ---------------------------------------------------------------------- the settlement request


def test_a_finished_hand_is_stored_once_then_settled_and_the_next_one_dealt() -> None:
    """R39–R42 are the shell's (StoreHand); the table tells the settlement and carries on (R37)."""
    driver = TableDriver(settle=False)
    seat_people_and_bots(driver, [1])
    start = driver.now
    driver.do(RequestAutoPlay("c1", True))
    driver.run_until(lambda: not driver.table.hand_running())
    stored = [store for step in driver.steps for store in of(step.effects, StoreHand)]
    assert len(stored) == 1
    [store] = stored
    last = driver.steps[-1].effects
    round_, match = driver.round, driver.table.match
    assert match is not None and round_.result is not None
    assert store.number == 1 and store.options == OPTIONS.to_json() and store.started_ms == start
    assert store.setup == round_.setup.to_json() and store.result == round_.result
    assert store.actions == tuple(action_to_json(action) for action in round_.actions)
    assert store.seats == (
        HandSeat(0, 1, "p1", None),
        HandSeat(1, bot="heuristic"),
        HandSeat(2, bot="heuristic"),
        HandSeat(3, bot="heuristic"),
    )
    assert kinds(last) == ["act", "settle"] and of(last, Disarm) and driver.armed is None
    assert driver.table.summary()["state"] == "between"  # SETTLING shows as between
    assert driver.do(HandSettled(2, 5)) == []  # not this hand
    line = {"seat": 0, "points": 4}
    account = {"id": 1, "nickname": "p1", "points": 4}
    titled = Player(1, "p1", "秀才", "臨時工")
    out = driver.do(HandSettled(1, 42, (line,), {0: account}, {0: titled}))
    assert sends(out, "account", "c1")[0].fields == {"account": account}
    [end] = sends(out, "hand_end")
    assert end.client == "c1"
    assert end.fields == {
        "table_id": "t1",
        "hand": 1,
        "hand_id": 42,
        "result": round_.result.to_json(),
        "levels": [RANKS[level] for level in match.levels],
        "dealer": match.dealer,
        "settlement": [line],
    }
    assert kinds(out) == ["between"] and of(out, Arm) == [Arm(driver.now + CONFIG.next_hand_delay_ms)]
    summary = of(out, SendSummary)[-1].summary
    assert summary["state"] == "between" and summary["hands_played"] == 1
    assert summary["seats"][0]["account"]["rank"] == "秀才"
    assert driver.do(HandSettled(1, 42)) == []  # settled already
    due = driver.armed
    assert due is not None
    driver.advance(100)
    assert driver.do(ClockFired()) == [Arm(due)]  # early (the shell's timer rounds): armed again
    out = driver.fire()
    assert kinds(out)[0] == "round"
    round_entry = entries(out)[0]
    assert round_entry["number"] == 2 and round_entry["started_ms"] == driver.now
    assert round_entry["setup"]["dealer"] == match.dealer and driver.table.number == 2
    assert driver.state() is TableState.PLAYING
