"""The 規則 page as a player's guide (issue 44): on a phone (375×812) and a desktop (1280×800), with every
precise wording opened, nothing is wider than the book (no sideways scrolling, the R26 examples
included); the text a player reads has no identifiers, file names or formulas, in any language; the
guide shows cards as pictures; the precise wording of a rule is one tap away."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.live_server import LiveServer

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 800}

WIDER_THAN_THE_BOOK = """(dialog) => {
  const body = dialog.querySelector('.rules-body');
  const right = body.getBoundingClientRect().left + body.clientWidth;
  const wide = [...body.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > right + 1)
    .map((el) => `${el.tagName}.${el.className} in ${el.closest('[id]')?.id}`);
  return {wide: wide.slice(0, 5), body: body.scrollWidth - body.clientWidth,
          page: document.documentElement.scrollWidth - window.innerWidth};
}"""
"""Elements whose right edge passes the book's, and how far the book and the page scroll sideways."""

IDENTIFIERS = re.compile(
    r"\w+\([\w, ]*\)|\.(?:md|py|js|json)\b|\b[a-z]+_[a-z_]+\b|\b(?:nanning|guigang|fourdeck|laogai)\b"
    r"|[=%×·`]|\*\*|\|[A-Z]\||\bn\b|\b(?:[2-9TJQKA][SHCD]|BJ|SJ)\b|undefined"
)
"""Code in a player's text: calls (key(P)), file names, snake_case, option values, formulas, markup,
card tokens (cards show as pictures or as ♠A)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("book") / "db.sqlite3", ("--log-level", "info")) as live:
        yield live


def open_book(browser: Browser, server: LiveServer, viewport: dict[str, int], language: str) -> Page:
    page = browser.new_page(viewport=viewport)  # type: ignore[arg-type]
    page.goto(server.url)
    page.locator("#lang").select_option(language)
    page.locator("#rules-open").click()
    expect(page.locator("#rules-dialog #rule-R47")).to_be_attached()
    return page


@pytest.mark.parametrize(
    ("viewport", "language"), [(PHONE, "zh-Hans"), (PHONE, "en"), (DESKTOP, "zh-Hant"), (DESKTOP, "en")]
)
def test_the_book_fits_and_reads_plainly(
    browser: Browser, server: LiveServer, viewport: dict[str, int], language: str, screenshots: Path
) -> None:
    page = open_book(browser, server, viewport, language)
    dialog = page.locator("#rules-dialog")
    dialog.locator("details").evaluate_all("els => els.forEach((el) => { el.open = true; })")
    measured = dialog.evaluate(WIDER_THAN_THE_BOOK)
    assert measured == {"wide": [], "body": 0, "page": 0}, measured
    text = dialog.inner_text()
    assert not IDENTIFIERS.search(text), IDENTIFIERS.search(text)
    assert dialog.locator(".rule").count() == 47
    assert dialog.locator("#rule-R26 .rule-example .card-run .card").count() > 100  # its examples in pictures
    assert dialog.locator(".rule-guide .card-run").count() > 20
    name = f"rulebook-{viewport['width']}-{language}"
    dialog.locator("#rule-R26").evaluate("el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(screenshots / f"{name}.png"))
    page.close()


def test_the_precise_rule_is_one_tap_away(browser: Browser, server: LiveServer) -> None:
    page = open_book(browser, server, PHONE, "zh-Hant")
    rule = page.locator("#rule-R43")
    expect(rule.locator(".rule-guide")).to_contain_text("對方兩人平分你真正付出的")  # how an escape is paid
    precise = rule.locator("details.rule-precise")
    expect(precise.locator("p").first).to_be_hidden()
    precise.locator("summary").click()
    expect(precise.locator("p").first).to_be_visible()
    expect(precise).to_contain_text("扣除玩家6倍底注，對方兩位玩家每人得3倍底注")  # seed 002, as paid
    page.goto(f"{page.url.split('#')[0]}#rules/R36")  # a refusal's rule link opens the rule's precise wording
    expect(page.locator("#rule-R36.focus details.rule-precise[open]")).to_be_visible()
    expect(page.locator("#rule-R36")).to_contain_text("貴港規則沒有上限")
    expect(page.locator("#rule-R5")).to_contain_text("升過 A 不停")
    expect(page.locator("#rule-R39")).to_contain_text("不會低於 0")
    page.close()
