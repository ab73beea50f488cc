"""A room to come back to (issue 17) in the browser: a private table's invite link opened in a second
browser leads a new guest to the seats; quick phrases show by the speaker's seat in each reader's
language, are muted per speaker (remembered) and rate-limited; the creator lists the table; the
leaderboard and a profile, with a replay of one of its hands."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.live_server import LiveServer
from tests.standings import prepared, set_balances, store_hand
from tests.web.client import Player, guest_number
from tests.web.conftest import SERVER_ARGS
from tuolaji.room.effects import HandSeat
from tuolaji.room.phrases import PHRASES
from tuolaji.store.db import open_database, sqlite_url

pytestmark = pytest.mark.browser
T = TypeVar("T")

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 812}
RECORD_PHRASES = """window.__phrases = [];
window.addEventListener('tuolaji:phrase', (event) => window.__phrases.push(event.detail));"""
"""An init script: every quick phrase the page received (shown or muted) is kept in ``__phrases``."""
PHRASE_TEXTS = """async () => {
  const { PHRASES, phraseText } = await import('/static/phrases.js');
  const i18n = await import('/static/i18n.js');
  const before = i18n.language();
  const out = {};
  for (const phrase of PHRASES) {
    out[phrase] = ['zh-Hans', 'zh-Hant', 'en'].map((lang) => { i18n.setLanguage(lang); return phraseText(phrase); });
  }
  i18n.setLanguage(before);
  return out;
}"""


def new_page(browser: Browser, contexts: list[BrowserContext], locale: str, viewport: dict[str, int] = DESKTOP) -> Page:
    context = browser.new_context(viewport=viewport, locale=locale)  # type: ignore[arg-type]
    contexts.append(context)
    page = context.new_page()
    page.add_init_script(RECORD_PHRASES)
    return page


def apart(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` to its end on an event loop of its own thread (Playwright's runs in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()


def say(page: Page, phrase: str) -> None:
    page.locator("[data-action=phrases]").click()
    page.locator(f"#phrase-dialog [data-phrase={phrase}]").click()
    expect(page.locator("#phrase-dialog")).to_be_hidden()


def test_an_invite_link_seats_a_new_guest_and_phrases_show_mute_and_slow_down(
    browser: Browser, server: LiveServer, screenshots: Path, contexts: list[BrowserContext]
) -> None:
    alice = Player(new_page(browser, contexts, "zh-TW"), server.url, screenshots)
    a = alice.page
    alice.enter_as_guest()
    form = alice.fill_create_form()
    form.locator("[name=private]").check()
    form.locator("button[value=create]").click()
    expect(a.locator("#table-screen")).to_be_visible()
    a.locator("[data-action=invite]").click()
    link = a.locator("#invite-link").input_value()
    assert re.fullmatch(re.escape(server.url) + r"/#join/[A-Za-z0-9_-]{16,}", link), link
    expect(a.locator("#invite-dialog")).to_contain_text("大廳裡看不到")
    alice.shot("invite")
    a.locator("[data-action=close-invite]").click()

    # Carol's lobby does not show it.
    carol = Player(new_page(browser, contexts, "zh-CN"), server.url, screenshots)
    carol.enter_as_guest()
    expect(carol.page.locator("#table-list .empty-note")).to_be_visible()

    # Bob opens the link in a browser that has never been here: as a new guest, straight to the seats.
    bob = Player(new_page(browser, contexts, "en-US"), server.url, screenshots)
    b = bob.page
    b.goto(link)
    expect(b.locator("#auth-screen")).to_be_visible()
    b.locator("#guest").click()
    expect(b.locator("#table-screen")).to_be_visible()
    expect(b.locator(".status-line")).to_have_text("Watching")
    assert b.evaluate("() => location.hash") == ""
    b.locator(".seat[data-seat='2'] [data-action=join]").click()
    expect(b.locator(".seat[data-seat='2'] .nick")).to_contain_text("(you)")
    expect(a.locator(".seat[data-seat='2'] .nick")).to_contain_text(guest_number(b.locator("#me-nick").inner_text()))
    # Two bots, and the match starts (so that a reload keeps Bob's seat, R46).
    for seat in ("1", "3"):
        a.locator(f".seat[data-seat='{seat}'] [data-action=add-bot]").click()
        expect(a.locator(f".seat[data-seat='{seat}'] .badge.bot")).to_be_visible()
    a.locator("[data-action=start]").click()
    b.locator("[data-action=start]").click()
    alice.wait_for_play()

    # The client knows the server's phrases, each worded in the three languages.
    texts = a.evaluate(PHRASE_TEXTS)
    assert list(texts) == list(PHRASES)
    assert all(len(set(words)) >= 2 and all(words) for words in texts.values()), texts
    # A quick phrase shows by the speaker's seat, in each reader's language.
    say(a, "thanks")
    expect(b.locator(".seat[data-seat='0'] .phrase-bubble")).to_have_text("Thanks")
    expect(a.locator(".seat[data-seat='0'] .phrase-bubble")).to_have_text("謝謝")
    bob.shot("phrase")
    expect(b.locator(".phrase-bubble")).to_have_count(0, timeout=10_000)  # it goes away after a few seconds

    # Bob mutes Alice; her next phrase reaches his page but is not shown, while his own is.
    b.locator("[data-action=phrases]").click()
    mute = b.locator("#phrase-dialog [data-mute]")
    expect(mute).to_have_count(1)
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    b.locator("[data-action=close-phrases]").click()
    say(a, "hurry")
    expect(a.locator(".seat[data-seat='0'] .phrase-bubble")).to_have_text("快點吧")
    say(b, "hello")
    expect(b.locator(".seat[data-seat='2'] .phrase-bubble")).to_have_text("Hello, everyone")
    expect(a.locator(".seat[data-seat='2'] .phrase-bubble")).to_have_text("大家好")
    heard = b.evaluate("() => window.__phrases")
    assert [(item["phrase"], item["shown"]) for item in heard] == [("thanks", True), ("hurry", False), ("hello", True)]
    assert b.locator(".seat[data-seat='0'] .phrase-bubble").count() == 0
    # The mute is remembered.
    b.reload()
    bob.wait_for_play()
    b.locator("[data-action=phrases]").click()
    expect(b.locator("#phrase-dialog [data-mute]")).to_have_attribute("aria-pressed", "true")
    b.locator("[data-action=close-phrases]").click()

    # Too many phrases at once: refused in the reader's language.
    for _ in range(6):
        say(a, "again")
    expect(a.locator(".status-line.error")).to_contain_text("說得太快了")

    # The creator lists the table: Carol sees it in her lobby now.
    a.locator("[data-action=invite]").click()
    a.locator("[data-action=make-public]").click()
    expect(a.locator(".status-line")).to_contain_text("已公開到大廳")
    expect(a.locator("[data-action=invite]")).to_have_count(0)
    expect(carol.page.locator("#table-list .table-item")).to_have_count(1)

    # An invite link opened after logging out is kept until the next sign-in, which leads to the table.
    c = carol.page
    c.locator("#logout").click()
    expect(c.locator("#auth-screen")).to_be_visible()
    c.goto(link)
    expect(c.locator("#auth-screen")).to_be_visible()
    c.locator("#guest").click()
    expect(c.locator("#table-screen")).to_be_visible()
    expect(c.locator(".seat[data-seat='2'] .nick")).to_contain_text(guest_number(b.locator("#me-nick").inner_text()))
    for player in (alice, bob, carol):
        assert player.errors == []


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_leaderboard_and_a_profile_with_a_replay(
    browser: Browser,
    live_server_factory: Callable[..., LiveServer],
    tmp_path: Path,
    screenshots: Path,
    contexts: list[BrowserContext],
    viewport: dict[str, int],
) -> None:
    db_path = tmp_path / "standings.sqlite3"
    balances = {f"棋友{index:02d}": (500 - 15 * index, 1200 + 40 * index) for index in range(24)}
    balances["阿明"] = (310, 900)
    data = apart(prepared(db_path, balances))
    me = data["ids"]["阿明"]
    rival = data["ids"]["棋友00"]
    apart(_store_hands(db_path, me, rival, {me: balances["阿明"], rival: balances["棋友00"]}))
    server = live_server_factory(db_path=db_path, args=SERVER_ARGS)
    page = new_page(browser, contexts, "zh-TW", viewport)
    page.add_init_script(f"localStorage.setItem('tuolaji.token', {data['tokens']['阿明']!r})")
    player = Player(page, server.url, screenshots)
    page.goto(server.url)
    expect(page.locator("#lobby-screen")).to_be_visible()

    page.locator("#leaderboard-open").click()
    expect(page.locator("#leaderboard-screen")).to_be_visible()
    rows = page.locator(".board-row")
    expect(rows).to_have_count(20)
    expect(rows.first.locator(".name")).to_have_text("棋友00")
    expect(rows.first.locator(".place")).to_have_text("1")
    expect(rows.first.locator(".value")).to_have_text("500")
    expect(rows.first.locator(".title")).not_to_be_empty()
    expect(page.locator("#my-place")).to_have_text("我的名次：第 14 名")  # 13 friends have more than 310
    expect(page.locator(f".board-row[data-account='{me}']")).to_have_attribute("data-place", "14")
    page.locator("[data-action=next-page]").click()
    expect(rows).to_have_count(5)
    expect(page.locator("#board-page")).to_have_text("第 2/5 頁")
    page.locator("[data-board=silver]").click()
    expect(rows.first.locator(".name")).to_have_text("棋友23")
    expect(page.locator("#my-place")).to_have_text("我的名次：第 25 名")
    player.shot("leaderboard" if viewport is DESKTOP else "phone-leaderboard")

    page.locator("[data-board=points]").click()
    expect(rows.first.locator(".name")).to_have_text("棋友00")
    rows.first.locator("[data-action=profile]").click()
    expect(page.locator("#profile-screen")).to_be_visible()
    expect(page.locator("#profile-name")).to_have_text("棋友00")
    expect(page.locator("[data-balance=points] .place")).to_have_text("第 1 名")
    expect(page.locator("[data-side=dealer] td").first).to_have_text("2")
    expect(page.locator("[data-side=attackers] td").first).to_have_text("1")
    expect(page.locator("[data-side=all] td").first).to_have_text("3")
    expect(page.locator("#profile-screen .history-item")).to_have_count(3)
    player.shot("profile" if viewport is DESKTOP else "phone-profile")
    page.locator("#profile-screen [data-action=replay]").first.click()
    expect(page.locator("#replay-slider")).to_be_visible()
    page.locator("#history-screen [data-action=back]").click()
    expect(page.locator("#profile-screen")).to_be_visible()
    page.locator("#profile-screen [data-action=back]").click()
    expect(page.locator("#leaderboard-screen")).to_be_visible()
    assert player.errors == []


async def _store_hands(db_path: Path, me: int, rival: int, balances: dict[int, tuple[int, int]]) -> None:
    """Three real hands: the rival defends twice (dealer's team) and attacks once; 阿明 the other way.
    Then both get ``balances`` back, so the boards are as the test says."""
    db = await open_database(sqlite_url(db_path))
    try:
        for number, (first, second) in enumerate(((rival, me), (rival, me), (me, rival)), start=1):
            seats = [HandSeat(0, first, "a"), HandSeat(1, second, "b"), HandSeat(2, bot="heuristic")]
            seats.append(HandSeat(3, bot="random"))
            await store_hand(db, number, seats, seed=number * 7)
        await set_balances(db, balances)
    finally:
        await db.close()
