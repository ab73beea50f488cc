"""不叫 in the browser (R19, issue 44): after the deal a person with a bid left sees a 不叫 button next to
the bids; the bots have said 不叫 already, so pressing it ends a 600-second bid window at once and the
play begins."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.live_server import LiveServer
from tests.room.tablekit import CONFIG, TableDriver, person
from tuolaji.game.options import TableOptions
from tuolaji.game.round import Phase
from tuolaji.room.commands import PlayNow
from tuolaji.room.table import Table
from tuolaji.server.autoplay import make_autoplayer
from tuolaji.server.hosting import match_seeds

pytestmark = pytest.mark.browser

FORM = {"bid_window_seconds": "600", "deal_interval_ms": "0", "review_seconds": "0", "turn_seconds": "60"}
OPTIONS = TableOptions(bid_window_seconds=600, deal_interval_ms=0, review_seconds=0, turn_seconds=60)


def bid_left_at_seat_0(seed: int) -> bool:
    """Whether a server started with ``--seed`` leaves the person of its first table (``play_now``,
    three heuristic bots, the options of ``FORM``) a bid to make once the deal is over and the bots
    have bid: worked out on the same pure table the server runs."""
    table = Table("t", OPTIONS, CONFIG, make_autoplayer, match_seeds(seed).__next__)
    driver = TableDriver(table)
    driver.do(PlayNow("c1", person(1), "heuristic"))
    round_ = driver.round
    driver.run_until(lambda: round_.phase is not Phase.DEALING)
    return round_.phase is Phase.BIDDING and bool(round_.bid_options(0))


def test_pass_ends_the_bid_window(browser: Browser, tmp_path: Path, screenshots: Path) -> None:
    seed = next(seed for seed in range(200) if bid_left_at_seat_0(seed))
    args = ("--bot-delay", "0.03", "--log-level", "info", "--seed", str(seed))
    with LiveServer(tmp_path / "db.sqlite3", args) as server:
        page = browser.new_page(viewport={"width": 375, "height": 812}, locale="zh-TW")
        page.goto(server.url)
        page.locator("#guest").click()
        page.locator("#create-open").click()
        form = page.locator("#create-form")
        for name, value in FORM.items():
            form.locator(f"[name={name}]").fill(value)
        form.locator("button[value=bots]").click()
        table = page.locator("#table-screen")
        expect(table).to_have_attribute("data-phase", "bidding")
        button = page.locator(".bid-bar [data-action=pass]")
        expect(button).to_have_text("不叫")
        page.screenshot(path=str(screenshots / "phone-pass.png"))
        button.click()
        expect(table).to_have_attribute("data-phase", "playing", timeout=20_000)  # not 600 s: 不叫 closed it
        expect(button).to_have_count(0)
        page.close()
