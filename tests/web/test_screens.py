"""The table at every screen shape, and the room at its decisive moments (issue 44): the layout checker
(tests/web/layout.py) over five window sizes, the waiting room, the bid history by a tap, 離開 that asks
before an escape with its exact cost, a trick taken, the system's timeouts and 託管 said, an invite
link's landing page and a mute switch that says what it does."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.live_server import LiveServer
from tests.web.client import GUEST_NAME, Player, guest_number
from tests.web.conftest import SERVER_ARGS
from tests.web.layout import SIZES, check_sizes, layout_problems, settle

pytestmark = pytest.mark.browser

PACED = (*SERVER_ARGS, "--bot-delay", "0.25")
"""Bots a little slower than the other browser tests' (a later option wins), so that a taken trick stays on
the felt for its animation before the next lead."""


@pytest.fixture
def server(live_server_factory: Callable[..., LiveServer]) -> LiveServer:
    return live_server_factory(args=PACED)


PHONE: ViewportSize = {"width": 375, "height": 812}
HEAR_ANIMATIONS = """() => {
  window.__animations = [];
  document.addEventListener('animationstart', (event) => window.__animations.push(event.animationName));
}"""
"""Keep the name of every CSS animation that starts on the page in ``__animations``."""


def shoot_sizes(page: Page, screenshots: Path, name: str) -> None:
    """A screenshot at each of the five sizes (NAME-WxH.png; the current ones are copied to docs/screenshots)."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        page.screenshot(path=str(screenshots / f"{name}-{width}x{height}.png"), animations="disabled")


def test_the_table_at_every_size_bids_by_a_tap_and_leaving_asks_first(
    browser: Browser, server: LiveServer, screenshots: Path
) -> None:
    page = browser.new_page(viewport=PHONE, locale="zh-TW")
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    assert check_sizes(page) == {}  # the lobby
    form = player.fill_create_form(bid_window_seconds="4")
    form.locator("button[value=create]").click()
    expect(page.locator("#table-screen")).to_be_visible()
    expect(page.locator(".info-table")).to_have_text(re.compile(r"^第 \d+ 桌$"))
    # The waiting room says who is ready and who the table still waits for.
    lines = page.locator(".waiting-list li")
    expect(lines).to_have_count(4)
    expect(lines.nth(0)).to_have_attribute("data-status", "missing")
    expect(lines.nth(0)).to_contain_text("按「開始」就準備好了")
    expect(page.locator(".waiting-list li[data-status=empty]")).to_have_count(3)
    expect(page.locator(".waiting-list li[data-status=empty]").first).to_contain_text("空位：等人入座")
    assert check_sizes(page) == {}
    for added in (1, 2, 3):
        page.locator(".seat [data-action=add-bot]").first.click()
        expect(page.locator(".waiting-list li[data-status=ready]")).to_have_count(added)
    page.locator("[data-action=start]").click()
    # The bid window after the deal (with the bid buttons the hand allows), at every size; it closes at
    # once when nobody can bid (R19), so the hand may already be in play.
    expect(page.locator("#table-screen")).to_have_attribute("data-phase", re.compile("^(bidding|playing)$"))
    if page.locator("#table-screen").get_attribute("data-phase") == "bidding":
        assert check_sizes(page) == {}
    player.wait_for_play()
    assert player.wait_for_turn_or_end()
    assert check_sizes(page) == {}
    shoot_sizes(page, screenshots, "table")

    # The whole bid history by a tap (not a hover), here on a phone.
    page.set_viewport_size(PHONE)
    bids = page.locator("[data-action=bids]")
    count = int(re.findall(r"\d+", bids.locator(".bid-count").inner_text())[0])
    bids.click()
    entries = page.locator("#bids-dialog .bid-entry")
    expect(entries).to_have_count(count)
    expect(entries.first).to_contain_text("亮")
    assert layout_problems(page) == []
    player.shot("phone-bids")
    page.locator("[data-action=close-bids]").click()

    # 離開 during a hand asks first, with the exact cost (R43: 6× the guest's bases, 0 積分 held); Stay keeps all.
    leave = page.locator("[data-action=leave]")
    leave.click()
    ask = page.locator("#confirm-dialog")
    expect(ask.locator("#escape-cost")).to_have_text("現在離開按逃跑處理：扣 48 銀子、0 積分，確定？")
    assert layout_problems(page) == []
    player.shot("phone-escape")
    ask.locator("[data-action=stay]").click()
    expect(ask).not_to_be_visible()
    expect(page.locator(".seat.pos-bottom .nick")).to_contain_text("(你)")
    expect(page.locator("#me-silver b")).to_have_text("1000")
    assert page.locator("#table-screen").get_attribute("data-phase") in ("playing", "review")
    assert not page.locator("#settle-dialog").evaluate("dialog => dialog.open")

    # A trick taken: its plays move toward the winner for a moment (until the next lead lands).
    page.evaluate(HEAR_ANIMATIONS)
    player.play_hint()
    page.wait_for_function("() => window.__animations.includes('take') && window.__animations.includes('win')")

    # Leaving anyway is the escape, and it costs what the question said.
    leave.click()
    ask.locator("[data-action=escape]").click()
    expect(page.locator("#settle-dialog #result-head")).to_contain_text("逃跑")
    expect(page.locator("#me-silver b")).to_have_text("952")
    assert player.errors == []
    page.close()


def test_the_system_says_what_it_did_for_me(browser: Browser, server: LiveServer, screenshots: Path) -> None:
    """R44–R45: each timeout is said with the cards played for me and the count toward 託管; the third
    turns 託管 on, says why and how to leave it; a play the system made is never offered for 撤牌. The
    notices sit above the hand, clear of the buttons."""
    page = browser.new_page(viewport=PHONE, locale="zh-TW")
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    player.start_with_bots(turn_seconds="1")
    player.wait_for_play()
    status = page.locator(".status-line")
    for count in (1, 2, 3):
        expect(status).to_contain_text(re.compile(rf"超時，已代你出 .+（{count}/3）"), timeout=15_000)
        assert page.locator("[data-action=retract]").count() == 0  # not the player's play to take back
        assert layout_problems(page) == []  # the notice covers no button
    expect(status).to_contain_text("連續超時 3 次，已為你託管：按「取消託管」就能自己出牌")
    player.shot("phone-timeout-autoplay")
    expect(status).to_have_text(re.compile(r"^託管中（連續超時 3 次）：系統替你出牌"), timeout=10_000)
    expect(page.locator("[data-action=autoplay]")).to_have_attribute("aria-pressed", "true")
    assert page.locator("[data-action=retract]").count() == 0
    page.locator("[data-action=autoplay]").click()
    expect(page.locator("[data-action=autoplay]")).to_have_attribute("aria-pressed", "false")
    expect(status).not_to_contain_text("託管中")
    assert player.errors == []
    page.close()


def test_an_invite_link_says_who_invites_before_sign_in_and_the_mute_switch_its_action(
    browser: Browser, server: LiveServer, screenshots: Path, contexts: list[BrowserContext]
) -> None:
    alice_context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-TW")
    contexts.append(alice_context)
    alice = Player(alice_context.new_page(), server.url, screenshots)
    alice.enter_as_guest()
    a = alice.page
    mute = a.locator("#mute")
    expect(mute).to_have_text("♪ 靜音")
    expect(mute).to_have_attribute("title", "聲音開著：按一下靜音")
    mute.click()
    expect(mute).to_have_text("♪ 開聲音")
    expect(mute).to_have_attribute("aria-pressed", "true")
    form = alice.fill_create_form()
    form.locator("[name=private]").check()
    form.locator("button[value=create]").click()
    a.locator("[data-action=invite]").click()
    link = a.locator("#invite-link").input_value()
    number = re.findall(r"\d+", a.locator(".info-table").inner_text())[0]
    name = a.locator("#me-nick").inner_text()
    assert GUEST_NAME.match(name)

    # A browser that has never been here lands on who invites to which table, before signing in.
    bob_context = browser.new_context(viewport=PHONE, locale="zh-TW")
    contexts.append(bob_context)
    b = bob_context.new_page()
    b.goto(link)
    expect(b.locator("#auth-screen")).to_be_visible()
    expect(b.locator("#invite-from")).to_have_text(f"{name} 邀請你加入第 {number} 桌")
    assert layout_problems(b) == []
    Player(b, server.url, screenshots).shot("phone-invite-landing")
    b.locator("#guest").click()
    expect(b.locator("#table-screen")).to_be_visible()
    expect(b.locator(".seat[data-seat='0'] .nick")).to_contain_text(guest_number(name))
    expect(b.locator(".waiting-list li[data-status=missing]")).to_contain_text(guest_number(name))
    # A link to no open table says so (and names no table).
    stranger = bob_context.new_page()
    b.locator("#logout").click()
    stranger.goto(f"{server.url}/#join/{'x' * 16}")
    expect(stranger.locator("#invite-from")).to_have_text("這個邀請連結已經失效（牌桌可能已經散了）。")
    assert alice.errors == []
