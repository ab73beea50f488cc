"""勞改 as the seeds have it: a wrong follow is played without a word, 撤牌 shows its cost and takes it back,
and left alone it is 勞改; with warn_wrong_follow the player is asked first (R30–R34)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.live_server import LiveServer
from tests.web.client import RECORD_SOUNDS, Player, sounds

pytestmark = pytest.mark.browser

WRONG_SWAP = """() => {
  const hand = [...document.querySelectorAll('#hand .card')];
  const chosen = hand.filter((card) => card.classList.contains('selected'));
  const group = chosen.length ? chosen[0].dataset.group : null;
  if (!group || !chosen.every((card) => card.dataset.group === group)) return -1;
  if (hand.filter((card) => card.dataset.group === group).length <= chosen.length) return -1;
  return hand.findIndex((card) => card.dataset.group !== group);
}"""
"""After 提示 selected a follow from the lead's suit-class: the index of a card of another class to swap
in, if the hand holds more of the lead's class than the follow needs (so the swap breaks R24), else -1."""


def select_wrong_follow(page: Page) -> bool:
    """Select a follow that keeps a card of the lead's suit-class in hand while playing another (R24)."""
    page.locator("[data-action=hint]").click()
    outside = int(page.evaluate(WRONG_SWAP))
    if outside < 0:
        return False
    hand = page.locator("#hand .card")
    page.locator("#hand .card.selected").first.click(position={"x": 3, "y": 8})
    hand.nth(outside).click(position={"x": 3, "y": 8})
    return True


def play_until_wrong_follow(player: Player) -> bool:
    """Play hints until it is my turn to follow with a wrong follow selected; False if the hand ended first."""
    while player.wait_for_turn_or_end():
        if not player.is_lead() and select_wrong_follow(player.page):
            return True
        player.clear_selection()
        player.play_hint()
    return False


def test_wrong_follow_is_silent_retract_shows_its_cost_and_laogai_follows(
    browser: Browser, server: LiveServer, screenshots: Path
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800}, locale="zh-TW")
    page.add_init_script(RECORD_SOUNDS)
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    player.start_with_bots(illegal_follow="laogai", review_seconds="5")
    player.bid_during_deal()
    player.wait_for_play()
    dialog = page.locator("#confirm-dialog")
    assert play_until_wrong_follow(player), "a whole hand went by without a follow that could be played wrong"
    # R33 as the seeds have it: the wrong follow is played at once, no question asked.
    size = player.hand_size()
    count = player.selected()
    page.locator("[data-action=play]").click()
    page.wait_for_function(f"() => document.querySelectorAll('#hand .card').length === {size - count}")
    expect(dialog).to_be_hidden()
    # 撤牌 says what it costs before it is done: 10 points a card (R31).
    retract = page.locator("[data-action=retract]")
    expect(retract).to_have_text(f"撤牌扣{10 * count}分")
    expect(retract).to_have_attribute("data-cost", str(10 * count))
    timer = page.locator("#turn-timer[data-kind=review]")
    expect(timer).to_contain_text(re.compile(rf"複核 \d\.\d 秒：撤牌扣 {10 * count} 分"))
    player.shot("retract-cost")
    retract.click()
    page.wait_for_function(f"() => document.querySelectorAll('#hand .card').length === {size}")
    expect(page.locator(".status-line")).to_contain_text(f"撤牌 {count} 張，我方扣 {10 * count} 分")
    # Played wrong again and left alone, the follow is judged at the end of the trick: 勞改 (R33–R34).
    if player.selected() == 0 or player.page.evaluate(WRONG_SWAP) < 0:
        player.clear_selection()
        assert select_wrong_follow(page)
    page.locator("[data-action=play]").click()
    settle = page.locator("#settle-dialog")
    expect(settle).to_be_visible(timeout=15_000)  # after the 5 s review window
    expect(settle.locator("#result-head")).to_have_text("我方 被勞改")
    expect(page.locator(".status-line")).to_contain_text("跟牌錯誤，我方被勞改")
    assert "laogai" in sounds(page) and "settlement" in sounds(page), sounds(page)
    player.shot("laogai-settlement")
    assert player.errors == []
    page.close()


def test_warn_wrong_follow_asks_first_in_the_readers_language(
    browser: Browser, server: LiveServer, screenshots: Path
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800}, locale="zh-TW")
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    player.start_with_bots(illegal_follow="laogai", warn=True)
    expect(page.locator("#warn-follow")).to_be_checked()  # one remembered choice, also for "play now"
    player.bid_during_deal()
    player.wait_for_play()
    dialog = page.locator("#confirm-dialog")
    assert play_until_wrong_follow(player), "a whole hand went by without a follow that could be played wrong"
    size = player.hand_size()
    page.locator("[data-action=play]").click()
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text("這樣跟牌不合規則")
    reason = dialog.locator(".reason").inner_text()
    # In the reader's language: no Latin letters but the ranks of cards (♠A, ♥K …).
    assert re.fullmatch(r"(?:[^A-Za-z]|(?<=[♠♥♣♦])[AKQJ])*規則 R2[345]", reason), reason
    expect(dialog.locator(".reason a.rule-link")).to_have_attribute("href", re.compile(r"#rules/R2[345]"))
    player.shot("laogai-confirm")
    # Cancelled, nothing is played and it is still my turn.
    page.locator("[data-action=cancel-wrong]").click()
    expect(dialog).to_be_hidden()
    assert player.hand_size() == size
    assert player.wait_for_turn_or_end()
    if player.selected() == 0:
        assert select_wrong_follow(page)
    page.locator("[data-action=play]").click()
    expect(dialog).to_be_visible()
    page.locator("[data-action=confirm-wrong]").click()
    settle = page.locator("#settle-dialog")
    expect(settle).to_be_visible()
    expect(settle).to_contain_text("勞改")
    assert player.errors == []
    page.close()
