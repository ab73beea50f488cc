"""In a 勞改 table a wrong follow asks for a confirmation; confirmed, it sentences the team (R30–R34)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.live_server import LiveServer
from tests.web.client import Player

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


def test_wrong_follow_asks_first_and_confirmed_is_laogai(
    browser: Browser, server: LiveServer, screenshots: Path
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800}, locale="en-US")
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    page.locator("#lang").select_option("en")
    player.start_with_bots(illegal_follow="laogai")
    player.bid_during_deal()
    player.wait_for_play()
    dialog = page.locator("#confirm-dialog")
    while player.wait_for_turn_or_end():
        if player.is_lead() or not select_wrong_follow(page):
            player.clear_selection()
            player.play_hint()
            continue
        size = player.hand_size()
        page.locator("[data-action=play]").click()
        expect(dialog).to_be_visible()
        expect(dialog.locator(".reason")).to_contain_text(re.compile(r"R2[345]"))
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
        player.shot("laogai-settlement")
        assert player.errors == []
        return
    pytest.fail("a whole hand went by without a follow that could be played wrong")
