"""A person plays through the browser client against three bots (issue 4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.live_server import LiveServer
from tests.web.client import Player

pytestmark = pytest.mark.browser

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 375, "height": 812}


def play_hand(player: Player, prefix: str, reload_after: int = 8) -> None:
    """Bid, select by dragging, use the hint, reload once mid-hand, and play to the settlement."""
    page = player.page
    player.bid_during_deal(screenshot=f"{prefix}bidding")
    player.wait_for_play()
    turns = 0
    reloaded = False
    while player.wait_for_turn_or_end():
        if turns == 0:
            # Select three cards by pressing and dragging across them, then drop the selection.
            player.drag_select(1, 3)
            assert player.selected() == 3
            player.clear_selection()
        if turns == 1:
            player.check_last_trick()
        if turns >= reload_after and not reloaded and not player.is_lead():
            reloaded = True
            page.locator("[data-action=hint]").click()
            player.shot(f"{prefix}mid-hand")
            player.clear_selection()
            size = player.hand_size()
            names = page.locator(".seat .nick").all_inner_texts()
            page.reload()
            # R46: the seat was on 託管 while away, so a few cards may have been played for it meanwhile.
            player.wait_for_play()
            expect(page.locator("#hand .card").first).to_be_visible()
            assert 0 < player.hand_size() <= size
            assert page.locator(".seat .nick").all_inner_texts() == names
            expect(page.locator("[data-action=autoplay]")).to_have_attribute("aria-pressed", "false")
            expect(page.locator("[data-action=last-trick]")).to_be_visible()  # the full state after the reload
            if not player.wait_for_turn_or_end():
                break
        player.play_hint()
        turns += 1
    settle = page.locator("#settle-dialog")
    expect(settle).to_be_visible()
    expect(settle.locator("#result-head")).not_to_be_empty()
    player.shot(f"{prefix}settlement")
    assert reloaded, f"the hand ended after only {turns} of my plays"


def test_whole_hand_against_bots(browser: Browser, server: LiveServer, screenshots: Path) -> None:
    page = browser.new_page(viewport=DESKTOP, locale="zh-TW")
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    expect(page.locator("#me-points")).to_contain_text("積分 0 布衣")
    expect(page.locator("#me-silver")).to_contain_text("銀子 1000")
    player.shot("lobby")
    player.start_with_bots()
    play_hand(player, "")
    page.locator("[data-action=close-settlement]").click()
    expect(page.locator("#settle-dialog")).to_be_hidden()
    # The finished hand is in the history and replays trick by trick.
    page.locator("#history-open").click()
    page.locator(".history-item [data-action=replay]").first.click()
    position = page.locator("#replay-pos")
    expect(position).to_contain_text(re.compile(r"1/\d+"))
    expect(page.locator(".replay-board .play")).to_have_count(4)
    page.locator("[data-action=next]").click()
    expect(position).to_contain_text(re.compile(r"2/\d+"))
    player.shot("replay")
    assert player.errors == []


def test_whole_hand_on_a_phone(browser: Browser, server: LiveServer, screenshots: Path) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, locale="zh-CN")
    page = context.new_page()
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    player.shot("phone-lobby")
    player.start_with_bots()
    play_hand(player, "phone-")
    assert player.errors == []
    context.close()


def test_hard_bots_on_a_phone(browser: Browser, server: LiveServer, screenshots: Path) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, locale="zh-TW")
    page = context.new_page()
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    # At a new table, a bot of the chosen level joins an empty seat.
    page.locator("#create-open").click()
    page.locator("#create-form button[value=create]").click()
    page.locator(".action-bar select[data-bot-level]").select_option(label="困難")
    page.locator(".seat [data-action=add-bot]").first.click()
    added = page.locator(".seat .badge.bot")
    expect(added).to_have_text(["困難"])
    expect(added).to_have_attribute("data-bot", "search")
    page.locator("[data-action=leave]").click()
    # The choice is remembered for "play now with bots".
    expect(page.locator("#bot-level")).to_have_value("search")
    player.shot("phone-bot-level")
    player.start_with_bots()
    expect(page.locator("#create-form [name=bot]")).to_have_value("search")
    bots = page.locator(".seat .badge.bot")
    expect(bots).to_have_text(["困難"] * 3)
    assert page.locator(".seat .badge.bot[data-bot=search]").count() == 3
    player.shot("phone-hard-bots")
    player.wait_for_play()
    if player.wait_for_turn_or_end():
        player.play_hint()
    expect(page.locator(".trick .play:not([data-seat='0'])").first).to_be_visible()
    assert player.errors == []
    context.close()


def test_refused_lead_shows_its_reason(browser: Browser, server: LiveServer, screenshots: Path) -> None:
    page = browser.new_page(viewport=DESKTOP)
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    player.start_with_bots(illegal_follow="reject")
    for _hand in range(3):
        player.bid_during_deal()
        player.wait_for_play()
        while player.wait_for_turn_or_end():
            if player.is_lead() and player.has_off_suit():
                reason = player.try_invalid_lead()
                assert re.search(r"R13", reason), reason
                player.shot("refused-lead")
                player.clear_selection()
                player.play_hint()
                assert player.errors == []
                return
            player.play_hint()
        page.locator("[data-action=close-settlement]").click()
    pytest.fail("never had the lead in three hands")


def test_hand_sorts_by_power_and_language_is_remembered(browser: Browser, server: LiveServer) -> None:
    page = browser.new_page(viewport=DESKTOP, locale="en-US")
    page.goto(server.url)
    expect(page.locator("#guest")).to_have_text("Play as guest")
    # R9 with level 10 and trump ♥: jokers, 正10, 副10s, 正2, 副2s, ♥ A..3, then ♠ ♣ ♦ A..3.
    shuffled = ["3S", "TD", "2C", "AH", "BJ", "TH", "KS", "2H", "SJ", "3H", "AD", "TS", "5C"]
    ordered = page.evaluate(
        "cards => import('/static/cards.js').then(m => m.sortCards(cards, {level: 'T', trumpSuit: 'H'}))",
        shuffled,
    )
    assert ordered == ["BJ", "SJ", "TH", "TS", "TD", "2H", "2C", "AH", "3H", "KS", "3S", "5C", "AD"]
    page.locator("#lang").select_option("zh-Hans")
    expect(page.locator("#guest")).to_have_text("游客试玩")
    page.reload()
    expect(page.locator("#guest")).to_have_text("游客试玩")
    page.locator("#lang").select_option("zh-Hant")
    expect(page.locator("#guest")).to_have_text("訪客試玩")
