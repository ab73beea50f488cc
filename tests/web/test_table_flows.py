"""Two people and a spectator at one table created by hand (sit, add bots, start), and what the table tells
them: 提醒 to both partners, 託管, trick cards that land once, the turn timer by the hand, the mute switch."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from tests.live_server import LiveServer
from tests.web.client import LONG, RECORD_SOUNDS, Player, guest_number, person, sounds

pytestmark = pytest.mark.browser


NEXT_EVENT = """() => {
  const table = document.querySelector('#table-screen');
  return table.dataset.myTurn === 'true' || document.querySelector('.seat.turn[data-seat="2"]') !== null
    || document.querySelector('[data-action=remind]') !== null || document.querySelector('#settle-dialog').open;
}"""
"""On the first player's page: my turn, my partner's turn (seat 2), a chance to remind, or the end."""

LANDED = """() => [...document.querySelectorAll('.trick .play[data-mark]')]
  .every((el) => el.getAnimations().every((x) => x.playState !== 'running'))"""
"""The marked plays have finished landing."""

TIMER_SETTLED = """() => {
  const timer = document.querySelector('#turn-timer');
  const bar = timer.querySelector('.turn-timer-bar');
  const target = parseFloat(bar.style.width || '0') / 100 * timer.clientWidth;
  return Math.abs(bar.getBoundingClientRect().width - target) < 10;
}"""
"""The turn timer's bar has caught up with the width last set (it eases to it over 0.25 s, so just after
a turn starts it is still growing from zero)."""
TIMER_BY_HAND = """() => {
  const timer = document.querySelector('#turn-timer').getBoundingClientRect();
  const hand = document.querySelector('#hand').getBoundingClientRect();
  const bar = document.querySelector('#turn-timer .turn-timer-bar').getBoundingClientRect();
  return {gap: hand.top - timer.bottom, width: timer.width, height: timer.height, bar: bar.width};
}"""


def play_my_turn(player: Player) -> None:
    if player.page.locator("#table-screen").get_attribute("data-my-turn") == "true":
        player.play_hint()


def test_people_sit_add_bots_start_remind_autoplay_and_a_spectator(
    browser: Browser, server: LiveServer, screenshots: Path, contexts: list[BrowserContext]
) -> None:
    alice = person(browser, contexts, server.url, screenshots, "zh-TW", RECORD_SOUNDS)
    bob = person(browser, contexts, server.url, screenshots, "en-US", RECORD_SOUNDS)
    a, b = alice.page, bob.page
    # Alice creates a table for people (no bots yet) and sits at South.
    form = alice.fill_create_form(review_seconds="1.5")
    form.locator("button[value=create]").click()
    expect(a.locator("#table-screen")).to_be_visible()
    expect(a.locator(".seat[data-seat='0'] .nick")).to_contain_text("(你)")
    # Bob finds it in the lobby and sits North, opposite Alice (R2: partners).
    b.locator(".table-item [data-action=join][data-seat='2']").click()
    expect(b.locator("#table-screen")).to_be_visible()
    expect(a.locator(".seat[data-seat='2'] .nick")).to_contain_text(guest_number(b.locator("#me-nick").inner_text()))
    # Alice adds two bots; both people press start.
    for seat in ("1", "3"):
        a.locator(f".seat[data-seat='{seat}'] [data-action=add-bot]").click()
        expect(a.locator(f".seat[data-seat='{seat}'] .badge.bot")).to_be_visible()
    a.locator("[data-action=start]").click()
    expect(a.locator(".seat[data-seat='0'] .badge.ready")).to_be_visible()
    b.locator("[data-action=start]").click()
    alice.wait_for_play()
    bob.wait_for_play()
    # A spectator watches from the lobby: every seat, the plays, no hand and no buttons to play.
    carol = person(browser, contexts, server.url, screenshots, "zh-CN", RECORD_SOUNDS)
    c = carol.page
    c.locator(".table-item [data-action=watch]").click()
    expect(c.locator("#table-screen")).to_be_visible()
    expect(c.locator(".seat[data-seat='0'] .nick")).to_contain_text(guest_number(a.locator("#me-nick").inner_text()))
    expect(c.locator(".seat[data-seat='2'] .nick")).to_contain_text(guest_number(b.locator("#me-nick").inner_text()))
    assert c.locator("#hand .card").count() == 0
    assert c.locator("[data-action=play]").count() == 0

    marked = False
    reminded = False
    timer_checked = False
    while not (reminded and marked and timer_checked):
        a.wait_for_function(NEXT_EVENT)
        assert not a.locator("#settle-dialog").evaluate("d => d.open"), "the hand ended first"
        if a.locator("[data-action=remind]").count() and not reminded:
            # 提醒 (R30): the reminder and the reminded partner are both told, each in their own language.
            a.locator("[data-action=remind]").click()
            # Said in the status line above the hand (a notice never covers the buttons).
            expect(a.locator(".status-line")).to_contain_text("已提醒")
            expect(b.locator(".status-line")).to_contain_text(
                "reminds you: your follow may break the rules; you can still retract"
            )
            reminded = True
        if a.locator("#table-screen").get_attribute("data-my-turn") == "true":
            if not timer_checked:
                # The turn timer sits right above the hand and empties as time goes by.
                a.wait_for_function(TIMER_SETTLED)
                first = a.evaluate(TIMER_BY_HAND)
                assert 0 <= first["gap"] <= 12 and first["height"] >= 8 and 0 < first["bar"] <= first["width"], first
                a.wait_for_function(
                    f"() => document.querySelector('#turn-timer .turn-timer-bar')"
                    f".getBoundingClientRect().width < {first['bar'] - 2}"
                )
                expect(a.locator("#turn-timer")).to_have_attribute("data-kind", "turn")
                expect(a.locator(".turn-timer-text")).to_have_text(re.compile(r"^\d+ 秒$"))
                timer_checked = True
            if not marked and a.locator(".trick:not(.settled):not(.last) .play").count() in (1, 2):
                # Cards already on the felt do not land again when the next ones arrive.
                count = a.locator(".trick .play").count()
                a.evaluate("() => document.querySelectorAll('.trick .play').forEach((el) => el.dataset.mark = '1')")
                a.wait_for_function(LANDED)
                alice.play_hint()
                a.wait_for_function(f"() => document.querySelectorAll('.trick .play').length > {count}")
                kept = a.evaluate("""() => [...document.querySelectorAll('.trick .play[data-mark]')]
                    .map((el) => el.getAnimations().filter((x) => x.playState === 'running').length)""")
                assert kept == [0] * count, kept
                marked = True
            else:
                alice.play_hint()
        if a.locator(".seat.turn[data-seat='2']").count():
            b.wait_for_function(
                "() => document.querySelector('#table-screen').dataset.myTurn === 'true'"
                " || !document.querySelector('.seat.turn[data-seat=\"2\"]')"
            )
            play_my_turn(bob)
    # From here on Bob's seat plays itself (託管), so that the hand goes on while Alice is busy.
    b.locator("[data-action=autoplay]").click()
    expect(b.locator("[data-action=autoplay]")).to_have_attribute("aria-pressed", "true")
    expect(b.locator(".status-line")).to_contain_text("Auto-play (託管) is on: the server plays for you")
    # The spectator saw the plays.
    expect(c.locator(".trick .play").first).to_be_visible()
    # 託管 shows as such and the play buttons are off while it plays for Alice (R45).
    a.locator("[data-action=autoplay]").click()
    expect(a.locator("[data-action=autoplay]")).to_have_attribute("aria-pressed", "true")
    expect(a.locator(".status-line")).to_have_text("託管中：系統替你出牌 · 按「取消託管」自己出牌")
    expect(a.locator("[data-action=play]")).to_be_disabled()
    expect(a.locator("[data-action=hint]")).to_be_disabled()
    expect(a.locator(".seat[data-seat='0'] .badge.auto")).to_have_text("託管")
    alice.shot("autoplay")
    a.locator("[data-action=autoplay]").click()
    expect(a.locator("[data-action=autoplay]")).to_have_attribute("aria-pressed", "false")
    # Sounds: Alice heard her turn; muted, she hears nothing more, and the switch survives a reload.
    assert "turn" in sounds(a)
    a.locator("#mute").click()
    expect(a.locator("#mute")).to_have_attribute("aria-pressed", "true")
    a.reload()
    expect(a.locator("#mute")).to_have_attribute("aria-pressed", "true")
    alice.wait_for_play()
    if alice.wait_for_turn_or_end():
        alice.play_hint()
    assert sounds(a) == []
    for player in (alice, bob, carol):
        assert player.errors == []


def test_a_settlement_being_read_stays_while_autoplay_ends_more_hands(
    browser: Browser, server: LiveServer, screenshots: Path, contexts: list[BrowserContext]
) -> None:
    """Under 託管 the next hands end while the last one's result is open: the open result is not redrawn under
    the player's finger (its buttons stay the same elements), it says how many hands ended since, and
    Continue shows the latest."""
    alice = person(browser, contexts, server.url, screenshots, "en-US", RECORD_SOUNDS)
    a = alice.page
    alice.start_with_bots()
    alice.wait_for_play()
    a.locator("[data-action=autoplay]").click()
    expect(a.locator("[data-action=autoplay]")).to_have_attribute("aria-pressed", "true")
    a.wait_for_function("() => document.querySelector('#settle-dialog').open", timeout=LONG)
    a.evaluate("() => { document.querySelector('[data-action=close-settlement]').dataset.mark = 'first'; }")
    later = a.locator("#settle-later")
    expect(later).to_have_text("1 more hand(s) ended since: press Continue for the latest", timeout=LONG)
    expect(a.locator("[data-action=close-settlement][data-mark=first]")).to_have_count(1)
    a.locator("[data-action=close-settlement]").click()
    # The latest result is shown at once, a new one: nothing is waiting behind it.
    expect(a.locator("#settle-dialog")).to_have_attribute("open", "")
    expect(a.locator("[data-action=close-settlement][data-mark=first]")).to_have_count(0)
    expect(a.locator("[data-action=close-settlement]")).to_have_count(1)
    expect(later).to_have_text(re.compile(r"^$|^\d+ more hand"))
    assert alice.errors == []
