"""快速開始 in the browser (issue 45): two people in two browsers, each willing to wait 10 s for people
before bots fill the seats, meet at one table through the quick-match dialog. The first one's panel
shows the queue, the wait and the estimate; the second one's lobby shows that one person queues."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.live_server import LiveServer
from tests.web.client import person

pytestmark = pytest.mark.browser


def queue_with_bots_after_10_s(page: Page) -> None:
    page.locator("#quick-open").click()
    form = page.locator("#quick-form")
    expect(form).to_be_visible()
    form.locator("[name=bots_after]").select_option("10")
    form.locator("[data-action=quick-queue]").click()
    expect(page.locator("#quick-panel")).to_be_visible()


def test_two_people_meet_through_quick_match(
    browser: Browser, contexts: list[BrowserContext], server: LiveServer, screenshots: Path
) -> None:
    a = person(browser, contexts, server.url, screenshots, "zh-TW", viewport={"width": 1100, "height": 800})
    b = person(browser, contexts, server.url, screenshots, "en-US", viewport={"width": 1100, "height": 800})
    queue_with_bots_after_10_s(a.page)
    panel = a.page.locator("#quick-panel")
    expect(panel).to_contain_text("排隊 1 人")
    expect(panel.locator(".quick-waited")).to_contain_text(re.compile(r"已等 \d+ 秒"))
    expect(panel.locator(".quick-estimate")).to_contain_text(re.compile(r"預計還要約 \d+ 秒"))
    a.shot("quick-match")
    expect(b.page.locator("#queue-counts")).to_contain_text("Nanning 1")
    queue_with_bots_after_10_s(b.page)
    # Guests are named by number, in the reader's language (遊客0002, Guest 0002).
    numbers = [re.sub(r"\D", "", player.page.locator("#me-nick").inner_text()) for player in (a, b)]
    for player in (a, b):
        expect(player.page.locator("#table-screen")).to_be_visible(timeout=30_000)
        seats = player.page.locator("#table-screen .seat-name .nick")
        for number in numbers:
            expect(seats.filter(has_text=re.compile(rf"\D{number}\b"))).to_have_count(1)
        expect(player.page.locator("#quick-panel")).to_be_hidden()
    assert a.errors == [] and b.errors == []
