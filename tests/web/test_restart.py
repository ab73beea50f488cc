"""A graceful restart under a playing browser: the page reconnects by itself and the hand goes on (issue 13)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.live_server import LiveServer, free_port
from tests.web.client import DESKTOP, Player
from tests.web.conftest import SERVER_ARGS

pytestmark = pytest.mark.browser


def test_the_page_comes_back_by_itself_after_a_restart(browser: Browser, tmp_path: Path, screenshots: Path) -> None:
    db, port = tmp_path / "restart.sqlite3", free_port()
    server = LiveServer(db, SERVER_ARGS, port=port).start()
    try:
        page = browser.new_page(viewport=DESKTOP)
        player = Player(page, server.url, screenshots)
        player.enter_as_guest()
        player.start_with_bots()
        player.bid_during_deal()
        player.wait_for_play()
        for _ in range(2):
            assert player.wait_for_turn_or_end()
            player.play_hint()
        assert player.wait_for_turn_or_end()
        size = player.hand_size()
        names = page.locator(".seat .nick").all_inner_texts()

        server.stop()  # SIGTERM: the server tells the page and goes
        assert any("Application shutdown complete" in line for line in server.log)
        expect(page.locator("body")).to_have_attribute("data-conn", re.compile("waiting|connecting"))
        server = LiveServer(db, SERVER_ARGS, port=port).start()
        assert [fields["tables"] for fields in server.records("restored the open tables from their logs")] == [1]

        expect(page.locator("body")).to_have_attribute("data-conn", "open", timeout=30_000)
        expect(page.locator(player.table)).to_be_visible()
        expect(page.locator("#hand .card").first).to_be_visible()
        assert page.locator(".seat .nick").all_inner_texts() == names
        assert player.hand_size() == size  # a restart is not a disconnect: nobody played for the seat
        expect(page.locator("[data-action=autoplay]")).to_have_attribute("aria-pressed", "false")
        while player.wait_for_turn_or_end():
            player.play_hint()
        settle = page.locator("#settle-dialog")
        expect(settle).to_be_visible()
        expect(settle.locator("#result-head")).not_to_be_empty()
        assert player.errors == []
        assert server.errors() == []
    finally:
        server.stop()
