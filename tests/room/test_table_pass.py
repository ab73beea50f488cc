"""The bid window after the deal closes as soon as every seat has said 不叫 or has no bid left (R19,
docs/RULES-NOTES.md); bots and 託管 seats say it at once; no bid at the close is still a redeal (R20)."""

from __future__ import annotations

from tests.room.tablekit import OPTIONS, TableDriver, acts, client, seat_people_and_bots
from tuolaji.game.round import Phase
from tuolaji.room.commands import RequestAutoPlay, RequestBid, RequestPass
from tuolaji.room.effects import Refuse

WINDOW_MS = round(OPTIONS.bid_window_seconds * 1000)


def four_people_bidding() -> TableDriver:
    """Four people (accounts 1–4 at seats 0–3), the deal over, nobody has bid; with the tables'
    seed every seat holds a level card (checked)."""
    driver = TableDriver()
    seat_people_and_bots(driver, [1, 2, 3, 4])
    driver.run_until(lambda: driver.round.phase is Phase.BIDDING)
    assert all(driver.round.bid_options(seat) for seat in range(4)) and not driver.round.bids
    assert driver.armed == driver.now + WINDOW_MS
    return driver


def test_everyone_saying_pass_closes_the_window_at_once_and_redeals() -> None:
    driver = four_people_bidding()
    opened = driver.now
    for number in (1, 2, 3):
        driver.do(RequestPass(client(number), ref="pass"))
        assert driver.armed == opened + WINDOW_MS  # the window runs while anyone may still bid
    driver.do(RequestPass(client(4)))
    assert driver.armed == driver.now  # R19: every seat said 不叫
    out = driver.fire()
    assert acts(out)[0] == {"type": "close_bidding"}
    assert driver.round.result is not None and driver.round.result.kind == "redeal"  # R20: no bid, redeal


def test_a_bid_reopens_the_window_for_everyone() -> None:
    driver = four_people_bidding()
    for number in (2, 3, 4):
        driver.do(RequestPass(client(number)))
    suit, count = driver.round.bid_options(0)[-1]
    driver.do(RequestBid(client(1), suit, count))
    assert driver.round.view(None).passes == (False, False, False, False)
    for number in (2, 3, 4):
        out = driver.do(RequestPass(client(number)))
        assert not any(isinstance(effect, Refuse) for effect in out)
    if driver.round.bid_options(0):  # the bidder may still reinforce (R17): it has to say 不叫 too
        assert driver.armed != driver.now
        driver.do(RequestPass(client(1)))
    assert driver.armed == driver.now
    driver.fire()
    assert driver.round.phase is Phase.PLAYING and driver.round.dealer == 0 and driver.round.trump is not None


def test_a_bid_after_everyone_passed_keeps_the_window_open() -> None:
    """The window was about to close (every seat said 不叫) when a bid came: it runs on to its end."""
    driver = four_people_bidding()
    opened = driver.now
    for number in (1, 2, 3, 4):
        driver.do(RequestPass(client(number)))
    assert driver.armed == driver.now
    suit, count = driver.round.bid_options(1)[0]
    driver.do(RequestBid(client(2), suit, count))
    assert driver.armed == opened + WINDOW_MS
    driver.fire()
    assert driver.round.phase is Phase.PLAYING and driver.round.dealer == 1


def test_a_second_pass_is_refused_with_the_rule() -> None:
    driver = four_people_bidding()
    driver.do(RequestPass(client(1)))
    [refusal] = [effect for effect in driver.do(RequestPass(client(1), ref="again")) if isinstance(effect, Refuse)]
    assert refusal.code == "not_allowed" and refusal.rule == "R19" and refusal.params["reason"] == "already_passed"


def test_a_seat_gone_to_autoplay_in_the_window_bids_or_passes_at_once() -> None:
    """R45: 託管 bids like a bot, and a bot wanting no bid says 不叫 at once."""
    driver = four_people_bidding()
    out = driver.do(RequestAutoPlay(client(2), True))
    assert {action["type"] for action in acts(out) if action.get("seat") == 1} & {"bid", "pass"}
    assert driver.round.passed(1) or not driver.round.bid_options(1)
    assert not any(driver.round.passed(seat) for seat in (0, 2, 3))  # people say it themselves


def test_bots_say_pass_at_once_so_one_person_who_cannot_outbid_waits_for_nothing() -> None:
    """One person and three bots: after the deal the bots bid or say 不叫 in the same step; the
    person here holds no card that outbids the standing bid, so the window closes at once."""
    driver = TableDriver()
    seat_people_and_bots(driver, [1])
    out = driver.run_until(lambda: driver.round.phase is not Phase.DEALING)
    round_ = driver.round
    assert round_.bids and not round_.bid_options(0)
    assert all(round_.passed(seat) or not round_.bid_options(seat) for seat in (1, 2, 3))
    assert driver.armed == driver.now  # closed without waiting for the window
    assert {action["type"] for action in acts(out)} >= {"deal", "bid"}
    driver.fire()
    assert driver.round.phase is Phase.PLAYING
