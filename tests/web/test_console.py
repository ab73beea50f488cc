"""The moderators' console in a real browser (issue 43). On one node: a moderator closes a table in the
middle of a hand (its player is told why in their language, nobody is settled), and a player's report
after a hand is replayed and closed in the console. On two nodes (PostgreSQL, Redis): a ban disconnects
the player's open page on the other node with the reason and the end, a notice reaches a player on the
other node, and a node drained while a hand is played lets the hand finish there and the table's next
hand run on the other node, nobody penalised."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
import secrets
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, WebSocket, expect
from sqlalchemy import text

from tests.cluster.conftest import REDIS_SERVER, RedisProcess
from tests.databases import POSTGRES
from tests.live_server import REPO, LiveServer
from tests.waiting import eventually
from tests.web.client import DESKTOP, LONG, Player
from tests.web.conftest import SERVER_ARGS
from tuolaji.store.db import make_engine

pytestmark = pytest.mark.browser

PASSWORD = "tractor-77"


def guest_number(shown: str) -> str:
    """A guest's number from its name as a page shows it in any language (遊客0042, Guest 0042)."""
    found = re.search(r"\d+$", shown.strip())
    assert found is not None, shown
    return found.group()


def register(url: str, nickname: str) -> int:
    answer = httpx.post(f"{url}/api/register", json={"nickname": nickname, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    account_id: int = answer.json()["account"]["id"]
    return account_id


def admin(db_url: str, *args: str) -> str:
    """``tuolaji admin ARGS --db URL`` (the real command line); its output."""
    command = [sys.executable, "-m", "tuolaji.cli", "admin", *args, "--db", db_url]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def page_of(browser: Browser, contexts: list[BrowserContext], locale: str) -> Page:
    context = browser.new_context(viewport=DESKTOP, locale=locale)
    contexts.append(context)
    return context.new_page()


def log_in(page: Page, url: str, nickname: str) -> None:
    page.goto(url)
    form = page.locator("#auth-form")
    form.locator("[name=username]").fill(nickname)
    form.locator("[name=password]").fill(PASSWORD)
    form.locator("button[value=login]").click()
    expect(page.locator("#lobby-screen")).to_be_visible()


def console(browser: Browser, contexts: list[BrowserContext], url: str, nickname: str) -> Page:
    """A staff member's page, signed in, on the console's table list."""
    page = page_of(browser, contexts, "en-US")
    log_in(page, url, nickname)
    page.locator("#console-open").click()
    expect(page.locator("#console-screen")).to_be_visible()
    return page


def guest(browser: Browser, contexts: list[BrowserContext], url: str, shots: Path, locale: str) -> Player:
    player = Player(page_of(browser, contexts, locale), url, shots)
    player.enter_as_guest()
    return player


def account_of(page: Page, url: str) -> dict[str, Any]:
    token = page.evaluate("() => localStorage.getItem('tuolaji.token')")
    account: dict[str, Any] = httpx.get(f"{url}/api/me", headers={"Authorization": f"Bearer {token}"}).json()["account"]
    return account


def hands_of(url: str, account_id: int) -> list[dict[str, Any]]:
    hands: list[dict[str, Any]] = httpx.get(f"{url}/api/accounts/{account_id}/hands").json()["hands"]
    return hands


# ---------------------------------------------------------------------- one node


@pytest.fixture
def solo(live_server_factory: Callable[..., LiveServer]) -> LiveServer:
    server: LiveServer = live_server_factory(args=(*SERVER_ARGS, "--node-name", "solo"))
    return server


def test_a_moderator_closes_a_table_mid_hand_and_nobody_is_settled(
    browser: Browser, solo: LiveServer, screenshots: Path, contexts: list[BrowserContext]
) -> None:
    register(solo.url, "modclose")
    admin(solo.db_url, "grant", "modclose", "--role", "moderator")
    player = guest(browser, contexts, solo.url, screenshots, "zh-TW")
    player.start_with_bots()
    player.wait_for_play()
    before = account_of(player.page, solo.url)
    mod = console(browser, contexts, solo.url, "modclose")
    item = mod.locator("li.console-table")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("node solo")
    expect(item).to_contain_text("playing")
    # The moderator watches it as a spectator sees it (no hand of anyone's), then closes it from the console.
    item.locator("[data-action=watch]").click()
    expect(mod.locator("#table-screen")).to_be_visible()
    number = guest_number(player.page.locator("#me-nick").inner_text())
    expect(mod.locator(".seat[data-seat='0'] .nick")).to_have_text(re.compile(rf"\D{number}$"))
    expect(mod.locator(".trick, .seat").first).to_be_visible()
    assert mod.locator("#hand .card").count() == 0
    mod.locator("#console-open").click()
    item = mod.locator("li.console-table")
    expect(item).to_contain_text("node solo")
    item.locator("[data-action=close-table]").click()
    item.locator("select[name=reason]").select_option("cheating")
    mod.screenshot(path=str(screenshots / "console-tables.png"))
    item.locator("[data-action=confirm-close]").click()
    # The player is told why, in their language, and is back in the lobby: the hand is void.
    expect(player.page.locator("#toast")).to_have_text("管理員關閉了牌桌：牌桌上有人作弊。這一盤不算，誰都不扣分。")
    expect(player.page.locator("#lobby-screen")).to_be_visible()
    mod.locator("[data-action=refresh]").click()
    expect(mod.locator("li.console-table")).to_have_count(0)
    after = account_of(player.page, solo.url)
    assert (after["silver"], after["points"], after["hands_played"]) == (before["silver"], before["points"], 0)
    assert hands_of(solo.url, before["id"]) == []
    mod.locator("[data-tab=audit]").click()
    row = mod.locator("tr.audit-row[data-audit=close_table]")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("modclose")
    expect(row).to_contain_text("cheating at the table")
    assert player.errors == []


def test_a_report_after_a_hand_is_replayed_and_closed_in_the_console(
    browser: Browser, solo: LiveServer, screenshots: Path, contexts: list[BrowserContext]
) -> None:
    register(solo.url, "modreport")
    admin(solo.db_url, "grant", "modreport", "--role", "moderator")
    alice = guest(browser, contexts, solo.url, screenshots, "zh-TW")
    bob = guest(browser, contexts, solo.url, screenshots, "en-US")
    a, b = alice.page, bob.page
    alice.fill_create_form().locator("button[value=create]").click()
    expect(a.locator("#table-screen")).to_be_visible()
    b.locator(".table-item [data-action=join][data-seat='2']").click()
    expect(b.locator("#table-screen")).to_be_visible()
    for seat in ("1", "3"):
        a.locator(f".seat[data-seat='{seat}'] [data-action=add-bot]").click()
        expect(a.locator(f".seat[data-seat='{seat}'] .badge.bot")).to_be_visible()
    a.locator("[data-action=start]").click()
    expect(a.locator(".seat[data-seat='0'] .badge.ready")).to_be_visible()
    b.locator("[data-action=start]").click()
    for person in (alice, bob):  # both let the server play for them (託管), so the hand ends soon
        person.wait_for_play()
        person.page.locator("[data-action=autoplay]").click()
        expect(person.page.locator("[data-action=autoplay]")).to_have_attribute("aria-pressed", "true")
    a.wait_for_function("() => document.querySelector('#settle-dialog').open", timeout=LONG)
    bob_id = account_of(b, solo.url)["id"]
    a.locator(f"#settle-dialog [data-action=report][data-account='{bob_id}']").click()
    dialog = a.locator("#report-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("select[name=reason]").select_option("stalling")
    dialog.locator("input[name=note]").fill("waited out every turn")
    dialog.locator("[data-action=send-report]").click()
    expect(a.locator("#toast")).to_have_text("檢舉已送出，管理員會看這盤的回放。")
    # The moderator finds it among the open reports, replays the hand (all four hands), and closes it.
    mod = console(browser, contexts, solo.url, "modreport")
    mod.locator("[data-tab=reports]").click()
    report = mod.locator("li.console-report")
    expect(report).to_have_count(1)
    reporter, reported = (guest_number(page.locator("#me-nick").inner_text()) for page in (a, b))
    expect(report).to_contain_text(f"guest-{reporter} reported guest-{reported}")
    expect(report).to_contain_text("stalling")
    expect(report).to_contain_text("waited out every turn")
    report.locator("[data-action=replay]").click()
    expect(mod.locator("#history-screen .replay-hand")).to_have_count(4)
    expect(mod.locator("#history-screen .replay-hand .c").first).to_be_visible()
    mod.locator("#history-screen [data-action=back]").click()
    expect(mod.locator("#console-screen")).to_be_visible()
    report = mod.locator("li.console-report")
    report.locator("select[name=outcome]").select_option("action_taken")
    report.locator("input[name=note]").fill("warned")
    report.locator("[data-action=close-report]").click()
    expect(mod.locator("#console-screen")).to_contain_text("No open reports.")
    mod.locator("[data-tab=audit]").click()
    expect(mod.locator("tr.audit-row[data-audit=close_report]")).to_contain_text("warned")
    assert alice.errors == [] and bob.errors == []


# ---------------------------------------------------------------------- two nodes


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Nodes ``a`` and ``b`` on a fresh PostgreSQL database and a Redis of their own (module-wide)."""
    if not POSTGRES:
        pytest.skip("set TUOLAJI_TEST_POSTGRES to a scratch postgresql+asyncpg:// URL")
    if not Path(REDIS_SERVER).exists():
        pytest.skip(f"{REDIS_SERVER} is not installed")
    work = tmp_path_factory.mktemp("console-cluster")
    name = "t_" + secrets.token_hex(6)
    _database(f"CREATE DATABASE {name}")
    redis = RedisProcess(work).start()
    url = re.sub(r"/[^/]*$", f"/{name}", POSTGRES)
    started: list[LiveServer] = []
    try:
        for node in ("a", "b"):
            args = ("--redis", redis.url, "--node-name", node, "--lease-seconds", "2", *SERVER_ARGS)
            started.append(LiveServer(work / "unused.sqlite3", args, database_url=url).start())
        yield started[0], started[1]
    finally:
        for server in started:
            server.stop()
        redis.kill()
        _database(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _database(statement: str) -> None:
    """Run ``statement`` on the test PostgreSQL server (in a thread of its own: Playwright's loop runs in this one)."""

    async def run() -> None:
        assert POSTGRES is not None
        engine = make_engine(POSTGRES).execution_options(isolation_level="AUTOCOMMIT")
        try:
            async with engine.connect() as connection:
                await connection.execute(text(statement))
        finally:
            await engine.dispose()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()


def test_a_ban_closes_the_players_page_on_another_node(
    browser: Browser, cluster: tuple[LiveServer, LiveServer], screenshots: Path, contexts: list[BrowserContext]
) -> None:
    a, b = cluster
    register(a.url, "banned1")
    register(a.url, "modban")
    admin(a.db_url, "grant", "modban", "--role", "moderator")
    player = page_of(browser, contexts, "zh-CN")
    sockets: list[WebSocket] = []
    player.on("websocket", lambda socket: sockets.append(socket))
    log_in(player, b.url, "banned1")
    mod = console(browser, contexts, a.url, "modban")
    mod.locator("[data-tab=accounts]").click()
    mod.locator("#console-search").fill("banned1")
    mod.locator("[data-action=search]").click()
    form = mod.locator(".sanction-form")
    form.locator("select[name=reason]").select_option("cheating")
    form.locator("select[name=minutes]").select_option("1440")
    form.locator("input[name=note]").fill("played two seats at once")
    form.locator("[data-action=ban]").click()
    expect(mod.locator("#console-standing")).to_contain_text("banned until")
    # On node b the player's open page is disconnected at once, saying why and until when.
    note = player.locator("#ban-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("这个账号已被封禁（作弊），到 ")
    expect(player.locator("#auth-screen")).to_be_visible()
    [socket] = sockets
    if not socket.is_closed():
        socket.wait_for_event("close")
    player.locator("#guest").click()  # no guest from this browser either
    expect(player.locator("#auth-error")).to_contain_text("这个账号已被封禁（作弊）")
    player.screenshot(path=str(screenshots / "banned.png"))
    login = httpx.post(f"{b.url}/api/login", json={"nickname": "banned1", "password": PASSWORD})
    assert login.status_code == 403 and login.json()["error"]["reason"] == "cheating"
    assert login.json()["error"]["until"] is not None
    assert len(sockets) == 1  # the page did not connect again


def test_a_notice_reaches_a_player_on_another_node(
    browser: Browser, cluster: tuple[LiveServer, LiveServer], screenshots: Path, contexts: list[BrowserContext]
) -> None:
    a, b = cluster
    register(a.url, "modnotice")
    admin(a.db_url, "grant", "modnotice", "--role", "moderator")
    player = guest(browser, contexts, b.url, screenshots, "zh-TW")
    mod = console(browser, contexts, a.url, "modnotice")
    mod.locator("[data-tab=notice]").click()
    mod.locator("select[name=kind]").select_option("maintenance")
    mod.locator("input[name=minutes]").fill("10")
    mod.locator("[data-action=send-notice]").click()
    expect(mod.locator("#toast")).to_have_text("Notice sent")
    banner = player.page.locator("#notice")
    expect(banner).to_be_visible()
    expect(banner).to_have_text(re.compile("^伺服器將在 (10|9) 分鐘後維護重新啟動，請打完這盤。"))
    player.shot("notice")
    # Someone who comes while it lasts sees it too; the reader may put it away.
    late = guest(browser, contexts, b.url, screenshots, "en-US")
    expect(late.page.locator("#notice-text")).to_contain_text("restarts for maintenance in")
    late.page.locator("[data-action=dismiss-notice]").click()
    expect(late.page.locator("#notice")).to_be_hidden()
    assert player.errors == [] and late.errors == []


def test_a_drained_nodes_table_finishes_its_hand_and_plays_the_next_on_another_node(
    browser: Browser, cluster: tuple[LiveServer, LiveServer], screenshots: Path, contexts: list[BrowserContext]
) -> None:
    a, b = cluster
    register(b.url, "bossdrain")
    admin(b.db_url, "grant", "bossdrain", "--role", "admin")
    player = guest(browser, contexts, a.url, screenshots, "zh-TW")
    player.start_with_bots()  # the table runs on node a, the player's node
    player.wait_for_play()
    account = account_of(player.page, a.url)
    boss = console(browser, contexts, b.url, "bossdrain")
    expect(boss.locator("li.console-table")).to_contain_text("node a")
    boss.locator("[data-tab=nodes]").click()
    boss.locator("li.console-node[data-node=a] [data-action=drain]").click()
    expect(boss.locator("li.console-node[data-node=a]")).to_have_attribute("data-draining", "true")
    health = httpx.get(f"{a.url}/api/health")
    assert health.status_code == 503 and health.json()["draining"] is True and health.json()["up"] is True
    # The hand goes on on node a to its end (託管 plays it out quickly), then the table moves to node b.
    page = player.page
    page.locator("[data-action=autoplay]").click()
    page.wait_for_function("() => document.querySelector('#settle-dialog').open", timeout=LONG)
    headers = _bearer(boss)
    eventually(
        lambda: [table["node"] for table in _tables(b, headers)] == ["b"],
        "the table listed on node b",
        LONG / 1000,
        every=0.2,
    )
    assert a.logged("handed over by the drain") and b.logged("taken over from its log")
    # The next hand is dealt by node b; the player, still on node a, is at it and acts there (託管 off).
    expect(page.locator("#hand .card").first).to_be_visible(timeout=LONG)
    # The bar is drawn anew with each state of a hand in 託管, so the click is dispatched in the page.
    page.locator("[data-action=autoplay]").dispatch_event("click")
    expect(page.locator("[data-action=autoplay]")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#table-screen")).to_be_visible()
    boss.locator("[data-tab=tables]").click()
    expect(boss.locator("li.console-table")).to_contain_text("node b")
    played = hands_of(a.url, account["id"])
    assert played and all(hand["result"]["kind"] != "escape" for hand in played)
    first = min(played, key=lambda hand: hand["number"])
    assert first["number"] == 1
    record = httpx.get(f"{a.url}/api/hands/{first['id']}").json()["hand"]
    assert record["result"]["escaped"] is None
    ledger = httpx.get(f"{b.url}/api/console/accounts/{account['id']}", headers=headers).json()["ledger"]
    assert {line["cause"] for line in ledger} <= {"start_grant", "hand"}
    boss.locator("[data-tab=nodes]").click()
    boss.locator("li.console-node[data-node=a] [data-action=undrain]").click()
    expect(boss.locator("li.console-node[data-node=a]")).to_have_attribute("data-draining", "false")
    assert httpx.get(f"{a.url}/api/health").status_code == 200
    assert "sound: every balance equals its ledger" in admin(a.db_url, "audit")
    assert player.errors == []
    assert [line for line in a.errors() + b.errors() if "Traceback" in line] == []


def _bearer(page: Page) -> dict[str, str]:
    token = page.evaluate("() => localStorage.getItem('tuolaji.token')")
    return {"Authorization": f"Bearer {token}"}


def _tables(node: LiveServer, headers: dict[str, str]) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = httpx.get(f"{node.url}/api/console/tables", headers=headers).json()["tables"]
    return tables
