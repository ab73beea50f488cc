"""A person at the browser client, driven through Playwright: the steps the browser tests share."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Locator, Page, ViewportSize, expect

FAST_OPTIONS = {
    "turn_seconds": "60",
    "bid_window_seconds": "1",
    "review_seconds": "0",
    "deal_interval_ms": "10",
}
"""Table options that make a hand against bots finish quickly (the person still has time to think)."""

GUEST_NAME = re.compile(r"^(遊客|游客|Guest )(\d{4,})$")
"""How the page shows a guest (the server names it guest-0042): 遊客0042, 游客0042 or Guest 0042."""


def guest_number(name: str) -> str:
    """The number in a guest's shown name, in whatever language (to compare one person across pages)."""
    match = re.search(r"\d{4,}", name)
    assert match is not None, name
    return match.group(0)


LONG = 60_000
"""Milliseconds a test waits for a whole hand (or a table's move) in the browser."""

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
"""The browser tests' desktop window."""

MY_TURN_OR_END = """() => {
  const table = document.querySelector('#table-screen');
  return table.dataset.myTurn === 'true' || document.querySelector('#settle-dialog').open;
}"""


class Player:
    """One browser page playing as a guest."""

    def __init__(self, page: Page, base_url: str, screenshots: Path) -> None:
        self.page = page
        self.base_url = base_url
        self.screenshots = screenshots
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    @property
    def table(self) -> str:
        return "#table-screen"

    def hand_size(self) -> int:
        return self.page.locator("#hand .card").count()

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(self.screenshots / f"{name}.png"), animations="disabled")

    def enter_as_guest(self) -> None:
        self.page.goto(self.base_url)
        self.page.locator("#guest").click()
        expect(self.page.locator("#lobby-screen")).to_be_visible()
        expect(self.page.locator("#me-nick")).to_have_text(GUEST_NAME)

    def fill_create_form(self, illegal_follow: str = "laogai", warn: bool = False, **options: str) -> Locator:
        """Open the create-table dialog and fill it: fast timers (``options`` override them), the 勞改 mode and
        the warn_wrong_follow box; the open form is returned."""
        page = self.page
        page.locator("#create-open").click()
        form = page.locator("#create-form")
        expect(form).to_be_visible()
        for name, value in {**FAST_OPTIONS, **options}.items():
            form.locator(f"[name={name}]").fill(value)
        form.locator("[name=illegal_follow]").select_option(illegal_follow)
        form.locator("[name=warn_wrong_follow]").set_checked(warn)
        return form

    def start_with_bots(self, illegal_follow: str = "laogai", warn: bool = False, **options: str) -> None:
        """Create a table from the form (see :meth:`fill_create_form`) and start it with three bots."""
        page = self.page
        form = self.fill_create_form(illegal_follow, warn, **options)
        form.locator("button[value=bots]").click()
        expect(page.locator(self.table)).to_be_visible()
        expect(page.locator("#hand .card").first).to_be_visible()

    def bid_during_deal(self, screenshot: str | None = None) -> bool:
        """Click a bid button if one shows up before the play starts; True when a bid was made."""
        page = self.page
        page.wait_for_function(
            """() => document.querySelector('.bid-bar button.bid')
                 || ['playing', 'finished'].includes(document.querySelector('#table-screen').dataset.phase)"""
        )
        button = page.locator(".bid-bar button.bid").last
        if page.locator(self.table).get_attribute("data-phase") not in ("dealing", "bidding"):
            return False
        if screenshot:
            self.shot(screenshot)
        try:
            button.click(timeout=2000)
        except Exception:  # the window closed or a bot's bid made the option go away
            return False
        return True

    def wait_for_play(self) -> None:
        """Wait until the deal and the bidding are over (216 cards at the tests' pace take over 2 s,
        more on a busy machine: the CI dry run beside an arena once needed more than 5)."""
        phase = re.compile("playing|review|finished")
        expect(self.page.locator(self.table)).to_have_attribute("data-phase", phase, timeout=20_000)

    def wait_for_turn_or_end(self) -> bool:
        """Wait until it is my turn (True) or the settlement shows (False)."""
        self.page.wait_for_function(MY_TURN_OR_END)
        return not self.page.locator("#settle-dialog").evaluate("dialog => dialog.open")

    def drag_select(self, first: int, last: int) -> None:
        """Press on card ``first`` and drag across to card ``last`` (seed 002: 按住滑鼠拖動選牌)."""
        cards = self.page.locator("#hand .card")
        # hover waits until the card has stopped moving (the hand lays itself out again when the
        # action bar appears at one's turn); a box read during that would press beside the cards.
        cards.nth(first).hover(position={"x": 3, "y": 8})
        start = cards.nth(first).bounding_box()
        end = cards.nth(last).bounding_box()
        assert start is not None and end is not None
        self.page.mouse.move(start["x"] + 3, start["y"] + 8)
        self.page.mouse.down()
        self.page.mouse.move(end["x"] + 3, end["y"] + 8, steps=8)
        self.page.mouse.up()

    def selected(self) -> int:
        return self.page.locator("#hand .card.selected").count()

    def clear_selection(self) -> None:
        for _ in range(self.selected()):
            self.page.locator("#hand .card.selected").first.click(position={"x": 3, "y": 8})
        assert self.selected() == 0

    def play_hint(self) -> None:
        """Press 提示 (it selects a legal move), then 出牌, and wait for the cards to leave the hand."""
        page = self.page
        before = self.hand_size()
        page.locator("[data-action=hint]").click()
        assert self.selected() > 0
        page.locator("[data-action=play]").click()
        page.wait_for_function(f"() => document.querySelectorAll('#hand .card').length < {before}")

    def check_last_trick(self) -> None:
        """Press 上一輪: the last judged trick shows (four plays, labelled); press again to go back."""
        page = self.page
        page.locator("[data-action=last-trick]").click()
        expect(page.locator(".trick.last .trick-label")).to_be_visible()
        expect(page.locator(".trick.last .play")).to_have_count(4)
        page.locator("[data-action=last-trick]").click()
        expect(page.locator(".trick.last")).to_have_count(0)

    def try_invalid_lead(self) -> str:
        """On my lead, play a trump with an off-suit card (R13); return the refusal (cards stay selected)."""
        page = self.page
        cards = page.locator("#hand .card")
        trump = page.locator("#hand .card[data-group=T]").first
        off_suit = page.locator("#hand .card:not([data-group=T])").last
        assert cards.count() >= 2
        trump.click(position={"x": 3, "y": 8})
        off_suit.click(position={"x": 3, "y": 8})
        assert self.selected() == 2
        page.locator("[data-action=play]").click()
        error = page.locator(".status-line.error")
        expect(error).to_be_visible()
        return error.inner_text()

    def is_lead(self) -> bool:
        return self.page.locator(self.table).get_attribute("data-lead") == "true"

    def has_off_suit(self) -> bool:
        hand = self.page.locator("#hand")
        trumps = hand.locator(".card[data-group=T]").count()
        return 0 < trumps < hand.locator(".card").count()


RECORD_SOUNDS = """window.__sounds = [];
window.addEventListener('tuolaji:sound', (event) => window.__sounds.push(event.detail));"""
"""An init script: the page's sound cues (sound.js announces each one it plays) are kept in ``__sounds``."""


def sounds(page: Page) -> list[str]:
    """The sound cues the page played since it loaded (needs :data:`RECORD_SOUNDS` as an init script)."""
    return list(page.evaluate("() => window.__sounds || []"))


def person(
    browser: Browser,
    contexts: list[BrowserContext],
    url: str,
    shots: Path,
    locale: str = "en-US",
    script: str | None = None,
    viewport: ViewportSize | None = None,
) -> Player:
    """A guest in a browser context of its own (kept in ``contexts`` to be closed), its page in ``locale``
    at ``viewport`` (desktop by default); ``script``, when given, runs in every page it loads."""
    context = browser.new_context(viewport=viewport or DESKTOP, locale=locale)
    contexts.append(context)
    page = context.new_page()
    if script is not None:
        page.add_init_script(script)
    player = Player(page, url, shots)
    player.enter_as_guest()
    return player
