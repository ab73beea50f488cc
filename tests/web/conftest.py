"""Browser fixtures: Debian's Chromium driven by Playwright (sync API), one browser per test module."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, sync_playwright

from tests.live_server import LiveServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_ARGS = ("--bot-delay", "0.03", "--next-hand-delay", "0.05", "--search-budget-ms", "20", "--log-level", "info")
"""Bots move almost at once, but not so fast that 託管 finishes the hand during a page reload (R46)."""
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Browser contexts a test opens (one per person: separate storage, so separate sessions); closed after it."""
    made: list[BrowserContext] = []
    yield made
    for context in made:
        context.close()


@pytest.fixture
def screenshots() -> Path:
    """Where the tests save their screenshots (git-ignored; copies live in docs/screenshots/)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def server(live_server_factory: Callable[..., LiveServer]) -> LiveServer:
    """A live server whose bots are quick (see SERVER_ARGS)."""
    return live_server_factory(args=SERVER_ARGS)
