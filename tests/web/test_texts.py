"""Refusals and the rule book in the reader's language (issue 16): every error code of docs/PROTOCOL.md §2.5,
with the params the game really produces, reads in 简体, 繁體 and English with the seeds' terms and no
English message, seat number or "R13:" leaking through; the 規則 page holds R1–R47 in all three and is
reachable from the lobby and from the table."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.game.helpers import hands_with, playing_round, stacked_round
from tests.live_server import LiveServer
from tests.web.client import Player
from tuolaji.cards import DECK_SIZE, parse_cards
from tuolaji.game import Bid, DealCards, GameError, Play, Remind, Retract, TableOptions
from tuolaji.game.actions import Pass
from tuolaji.game.options import OptionError
from tuolaji.rules import Trump, follow_refusal, lead_refusal
from tuolaji.wire.inbound import ProtocolError, parse_client_message
from tuolaji.wire.outbound import error_message

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs"
LANGUAGES = ("zh-Hans", "zh-Hant", "en")
T10H = Trump("T", "H")
OTHER = parse_cards("3D 4D 6D QC")

DESCRIBE = """async (messages) => {
  const errors = await import('/static/errors.js');
  const i18n = await import('/static/i18n.js');
  const out = {};
  for (const lang of ['zh-Hans', 'zh-Hant', 'en']) {
    i18n.setLanguage(lang);
    out[lang] = messages.map((msg) => errors.describeError(msg));
  }
  return out;
}"""


def documented_codes() -> list[str]:
    """Every code in the code tables (``| code | params | meaning |``) of docs/PROTOCOL.md §2.5."""
    text = (DOCS / "PROTOCOL.md").read_text(encoding="utf-8")
    codes: set[str] = set()
    in_codes = False
    for line in text[text.index("### 2.5") :].splitlines():
        if line.startswith("| code |"):
            in_codes = True
        elif not line.startswith("|"):
            in_codes = False
        elif in_codes:
            codes.update(re.findall(r"`(\w+)`", line.split("|")[1]))
    return sorted(codes)


def game_refusal(action: Any, before: list[Any] | None = None, options: TableOptions | None = None) -> dict[str, Any]:
    hands = {0: "AS AS KS 9S 7D TH 2C", 1: "3S 3S 4H 5H", 2: "3S 6H 6D", 3: "QS 8H 8D"}
    round_ = playing_round(hands_with(hands), options=options or TableOptions(illegal_follow="reject"))
    for step in before or []:
        round_.apply(step)
    with pytest.raises(GameError) as caught:
        round_.apply(action)
    error = caught.value
    return error_message(error.code, str(error), None, error.rule, error.params)


def second_pass() -> dict[str, Any]:
    """A second 不叫 in the window after the deal (R19)."""
    round_ = stacked_round(hands_with({}), dealer=0)
    round_.apply(DealCards(DECK_SIZE))
    round_.apply(Pass(2))
    with pytest.raises(GameError) as caught:
        round_.apply(Pass(2))
    error = caught.value
    return error_message(error.code, str(error), None, error.rule, error.params)


def follow(lead: str, held: str, play: str, preset: str = "nanning", code: str = "illegal_follow") -> dict[str, Any]:
    refusal = follow_refusal(parse_cards(held) + OTHER, parse_cards(lead), parse_cards(play), T10H, preset)
    assert refusal is not None
    return error_message(code, refusal.message, None, refusal.rule, {"seat": 1, **refusal.to_params()})


def lead(cards: str) -> dict[str, Any]:
    refusal = lead_refusal(parse_cards(cards), T10H)
    assert refusal is not None
    return error_message("invalid_lead", refusal.message, None, refusal.rule, refusal.to_params())


def protocol(text: str) -> dict[str, Any]:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(text)
    error = caught.value
    return error_message(error.code, str(error), None, error.rule, error.params)


def option(data: dict[str, Any]) -> dict[str, Any]:
    with pytest.raises(OptionError) as caught:
        TableOptions.from_json(data)
    return error_message("bad_options", str(caught.value), None, None, caught.value.params)


Words = list[str | dict[str, str]]
"""Words a refusal's text must hold: the same in every language, or per language."""


def real_refusals() -> list[tuple[dict[str, Any], Words]]:
    """Refusals built by the real game, rules engine, options and protocol, each with words every
    language must show for it (card texts from its params)."""
    return [
        (game_refusal(Play(1, tuple(parse_cards("3S")))), [{"zh-Hans": "南家", "zh-Hant": "南家", "en": "South"}]),
        (game_refusal(Play(0, tuple(parse_cards("3S")))), ["♠3"]),
        (game_refusal(Play(0, tuple(parse_cards("AS 7D")))), ["♠A", "♦7"]),
        (game_refusal(Play(1, tuple(parse_cards("4H"))), [Play(0, tuple(parse_cards("KS")))]), ["♥4", "♠"]),
        (game_refusal(Play(1, tuple(parse_cards("3S 4H"))), [Play(0, tuple(parse_cards("KS")))]), ["1", "2"]),
        (game_refusal(Remind(3), [Play(0, tuple(parse_cards("KS")))]), []),
        (game_refusal(Retract(0), [Play(0, tuple(parse_cards("KS")))]), []),
        (game_refusal(Bid(0, 0, 1)), []),
        (game_refusal(Pass(0)), []),
        (second_pass(), [{"zh-Hans": "不叫", "zh-Hant": "不叫", "en": "不叫"}]),
        (follow("AS AS KS KS", "3S 3S 4S 4S 9S", "3S 3S 4S 9S"), ["♠3"]),
        (follow("AS AS", "3S 3S 4S", "3S 3D"), ["♦3"]),
        (follow("AS AS AS AS", "3S 3S 8S 8S 9S 9S 9S JS", "9S 9S 9S JS"), ["♠8"]),
        (follow("KS KS KS KS", "5S 5S 5S 8S 8S 8S", "5S 5S 5S 8S"), ["2", "1"]),
        (follow("AS AS KS KS", "3S 3S 4S", "3S 3S 3D 4D"), ["♠4"]),
        (follow("4S 4S 4S 4S 5S 5S 5S 5S", "3S 3S 4S 4S 5S 5S 5S 9S 9S JS JS", "3S 3S 9S 9S JS JS 5S 4S"), ["6"]),
        (follow("AS AS AS AS", "7S 7S 7S 7S 8S 8S 9S 9S 3S", "7S 7S 8S 9S", "guigang"), ["♠7"]),
        (follow("AS AS", "3S 3S 4S", "3S 4S", code="confirm_laogai"), ["♠3"]),
        (lead("AS 4D AH"), ["♠A", "♦4"]),
        (lead("AS KS"), ["♠K"]),
        (lead("AS AS AS KS KS"), ["♠A"]),
        (lead("AS AS QS QS"), ["♠Q"]),
        (protocol('{"v": 2, "type": "fly"}'), []),
        (protocol('{"v": 2, "type": "play", "cards": "ZZ"}'), []),
        (protocol("{"), []),
        (option({"turn_seconds": 0}), ["1", "600"]),
        (option({"colour": "red"}), ["colour"]),
    ]


# Documented params of the server's own refusals (PROTOCOL.md §2.5), as the rewritten table sends them.
SERVER_REFUSALS: list[tuple[dict[str, Any], Words]] = [
    (
        {"code": "seat_taken", "params": {"seat": 2, "table": "t1"}},
        [{"zh-Hans": "北家", "zh-Hant": "北家", "en": "North"}],
    ),
    ({"code": "not_your_turn", "params": {"reason": "not_to_move", "to_move": 3, "rule": "R21"}}, [{"en": "West"}]),
    ({"code": "wrong_phase", "params": {"reason": "no_hand", "action": "play", "table": "t1"}}, []),
    ({"code": "rate_limited", "params": {"reason": "closing"}}, []),
    ({"code": "rate_limited", "params": {"reason": "tables", "seconds": 12, "limit": 30}}, ["12"]),
    ({"code": "bad_token", "params": {"reason": "expired"}}, []),
    ({"code": "lobby_full", "params": {"limit": 10}}, ["10"]),
    ({"code": "rate_limited", "params": {"reason": "joins", "seconds": 42}}, ["42"]),
    ({"code": "escape_cooldown", "params": {"seconds": 61, "rule": "R43"}}, ["61"]),
    (
        {"code": "banned", "params": {"reason": "cheating", "until": "2026-12-07T10:00:00+00:00"}},
        [{"zh-Hans": "作弊", "zh-Hant": "作弊", "en": "cheating"}, "2026"],
    ),
    (
        {"code": "muted", "params": {"reason": "abuse", "until": None}},
        [{"zh-Hans": "永久", "zh-Hant": "永久", "en": "for good"}],
    ),
    ({"code": "would_escape", "params": {"rule": "R43", "points": 12, "silver": 48}}, ["48", "12"]),
    ({"code": "not_allowed", "params": {"reason": "system_play", "rule": "R31", "action": "retract", "seat": 1}}, []),
]


@pytest.fixture(scope="module")
def page(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    with LiveServer(tmp_path_factory.mktemp("texts") / "db.sqlite3", ("--log-level", "info")) as server:
        page = browser.new_page(locale="zh-TW")
        page.goto(server.url)
        expect(page.locator("#guest")).to_be_visible()
        yield page
        page.close()


def test_every_refusal_reads_in_each_language(page: Page) -> None:
    cases = real_refusals() + SERVER_REFUSALS
    messages = [json.loads(json.dumps(msg)) for msg, _ in cases]
    codes = documented_codes()
    assert len(codes) >= 25 and "confirm_laogai" in codes and "seat_taken" in codes
    plain = [{"code": code} for code in codes] + [{"code": "no_such_code"}]
    texts = page.evaluate(DESCRIBE, messages + plain)
    for lang in LANGUAGES:
        generic = texts[lang][-1]["text"]
        for (msg, words), got in zip(cases, texts[lang][: len(cases)], strict=True):
            text = got["text"]
            assert text and "{" not in text and text != generic, (lang, msg, text)
            assert not re.search(r"R\d+:|seat \d|play [2-9TJQKA][SHCD]", text), (lang, text)
            assert got["rule"] == msg.get("rule", msg["params"].get("rule")), (lang, msg, got)
            for word in words:
                wanted = word if isinstance(word, str) else word.get(lang, "")
                assert wanted in text, (lang, wanted, text)
            if lang != "en":
                assert not re.search(r"[A-Za-z]{3,}", text.replace("guest-", "").replace("colour", "")), (lang, text)
        for code, got in zip(codes, texts[lang][len(cases) : -1], strict=True):
            assert got["text"] != generic and "{" not in got["text"], (lang, code, got)
        assert generic in ("服务器拒绝了这个操作。", "伺服器拒絕了這個操作。", "The server refused that.")


def test_a_refused_register_reads_in_the_page_language(page: Page) -> None:
    page.locator("#lang").select_option("zh-Hant")
    form = page.locator("#auth-form")
    form.locator("[name=username]").fill("someone")
    form.locator("[name=password]").fill("123")
    form.locator("button[value=register]").click()
    expect(page.locator("#auth-error")).to_have_text("密碼要 6–128 個字元。")


@pytest.mark.parametrize(
    ("lang", "nickname", "password", "says"),
    [
        ("zh-Hans", "someone", "123456", "这个密码太常见，很容易被猜到；请换一个。"),
        ("en", "someone", "      ", "A password cannot be only spaces."),
        ("zh-Hant", "ali\u034fce", "Tuolaji-77", "暱稱裡不能有看不見的字元或控制字元。"),
        ("en", "guest-me", "Tuolaji-77", "Nicknames starting with guest (or looking like it) are kept for guests."),
    ],
)
def test_a_refused_register_names_its_rule_in_the_page_language(
    page: Page, lang: str, nickname: str, password: str, says: str
) -> None:
    """The server's ``reason`` picks the sentence (issue 46)."""
    page.locator("#lang").select_option(lang)
    form = page.locator("#auth-form")
    form.locator("[name=username]").fill(nickname)
    form.locator("[name=password]").fill(password)
    form.locator("button[value=register]").click()
    expect(page.locator("#auth-error")).to_have_text(says)


def rule_ids_of_the_book() -> list[str]:
    return re.findall(r'<a id="(R\d+)"></a>', (DOCS / "RULES.md").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("lang", "term"), [("zh-Hans", "劳改"), ("zh-Hant", "勞改"), ("en", "勞改")])
def test_the_rule_book_has_every_rule_in_each_language(page: Page, lang: str, term: str) -> None:
    page.locator("#lang").select_option(lang)
    page.locator("#rules-open").click()
    dialog = page.locator("#rules-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#rule-R47")).to_be_attached()  # the book is fetched once, then drawn
    ids = dialog.locator(".rule").evaluate_all("els => els.map((el) => el.id.replace('rule-', ''))")
    assert ids == rule_ids_of_the_book() == [f"R{n}" for n in range(1, 48)]
    texts = dialog.locator(".rule").all_inner_texts()
    assert all(len(text) > 20 and "undefined" not in text for text in texts)
    expect(dialog.locator("#rule-R33")).to_contain_text(term)
    expect(dialog.locator("#rule-R36 table tr")).to_have_count(8)
    if lang != "en":
        joined = "".join(texts)
        for seed_term in ("领牌" if lang == "zh-Hans" else "領牌", "甩牌", "拖拉機" if lang == "zh-Hant" else "拖拉机"):
            assert seed_term in joined
    dialog.locator("[data-action=close-rules]").click()
    expect(dialog).to_be_hidden()


def test_the_rule_book_opens_from_the_table(browser: Browser, server: LiveServer, screenshots: Path) -> None:
    page = browser.new_page(viewport={"width": 375, "height": 812}, locale="zh-CN")
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    player.start_with_bots()
    page.locator("#rules-open").click()
    dialog = page.locator("#rules-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text("规则书")
    page.goto(f"{server.url}/#rules/R31")
    expect(page.locator("#rule-R31.focus")).to_be_in_viewport()
    expect(page.locator("#rule-R31")).to_contain_text("每撤回一张牌扣 10 分")
    player.shot("phone-rules")
    page.locator("[data-action=close-rules]").click()
    expect(page.locator("#table-screen")).to_be_visible()
    assert player.errors == []
    page.close()


def test_every_contents_link_of_the_rule_book_goes_to_its_section(page: Page) -> None:
    page.set_viewport_size({"width": 375, "height": 700})
    page.locator("#rules-open").click()
    dialog = page.locator("#rules-dialog")
    expect(dialog.locator("#rule-presets")).to_be_attached()
    links = dialog.locator(".rules-contents a")
    hrefs = links.evaluate_all("els => els.map((el) => el.getAttribute('href'))")
    assert hrefs[-2:] == ["#rules/tables", "#rules/presets"] and len(hrefs) > 4
    for index, href in reversed(list(enumerate(hrefs))):
        links.nth(index).click()
        target = dialog.locator("#rule-" + href.removeprefix("#rules/"))
        expect(target.locator("h3, p").first).to_be_in_viewport()
    dialog.locator("[data-action=close-rules]").click()
    expect(dialog).to_be_hidden()
