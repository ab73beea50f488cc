"""The page is served by the node that runs its table (issue 47): behind nginx configured from
docs/nginx.conf (``deploy/nginx_conf.py``), a page the proxy put on one node sits down at a table of
the other, is told that node (``table_node``), moves there (``/ws?node=NAME``) without a reload, a
banner or 託管, and plays; when that node dies, the page asks for it again, nginx falls back on the
other node, which takes the table over, and the page plays on there.

Two nodes on a fresh PostgreSQL database and Redis (``TUOLAJI_TEST_POSTGRES``, as the cluster tests).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, WebSocket, expect
from redis import Redis

from tests import waiting
from tests.cluster import conftest as cluster
from tests.cluster.test_nodes import FAST
from tests.databases import fresh_postgres
from tests.live_server import REPO, free_port
from tests.server.wsclient import Client
from tests.web.client import Player

pytestmark = pytest.mark.browser
nodes = cluster.nodes
"""The cluster tests' nodes, on this module's database and Redis."""
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
WAIT = 60.0
NODE_ARGS = ("--lease-seconds", "2", "--bot-delay", "0.03")
"""A dead node's table moves within about 2 s; bots move almost at once (``tests/web/conftest.py``)."""


def eventually(check: Callable[[], bool], what: str) -> None:
    """Poll ``check`` until it holds, failing after :data:`WAIT` seconds."""
    waiting.eventually(check, what, WAIT, every=0.05)


@pytest.fixture
def postgres() -> Iterator[str]:
    """A fresh PostgreSQL database (``tests.databases``), made and dropped on an event loop of its own
    thread: Playwright's sync API runs one in this thread."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    database = fresh_postgres()
    try:
        yield asyncio.run_coroutine_threadsafe(database.__aenter__(), loop).result(WAIT)
        asyncio.run_coroutine_threadsafe(database.__aexit__(None, None, None), loop).result(WAIT)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(WAIT)
        loop.close()


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """The Redis the nodes share: ``TUOLAJI_TEST_REDIS`` (emptied first), else one of the test's own."""
    if cluster.SHARED_REDIS:
        with Redis.from_url(cluster.SHARED_REDIS) as redis:
            redis.flushdb()
        yield cluster.SHARED_REDIS
        return
    if not Path(cluster.REDIS_SERVER).exists():
        pytest.skip(f"{cluster.REDIS_SERVER} is not installed and TUOLAJI_TEST_REDIS is not set")
    server = cluster.RedisProcess(tmp_path).start()
    try:
        yield server.url
    finally:
        server.kill()


@pytest.fixture
def front(tmp_path: Path) -> Iterator[Callable[[dict[str, str]], str]]:
    """Start nginx in front of nodes (name → base URL), configured by ``deploy/nginx_conf.py``; its
    URL. Stopped (by the PID started here) after the test."""
    if NGINX is None:
        pytest.skip("nginx is not installed")
    started: list[subprocess.Popen[bytes]] = []

    def start(named: dict[str, str]) -> str:
        port = free_port()
        prefix = tmp_path / "nginx"
        (prefix / "tmp").mkdir(parents=True)
        specs = [f"{name}={url.removeprefix('http://')}" for name, url in named.items()]
        script = [sys.executable, str(REPO / "deploy" / "nginx_conf.py"), *specs, "--listen", f"127.0.0.1:{port}"]
        config = subprocess.run(script, check=True, capture_output=True, text=True).stdout
        (prefix / "nginx.conf").write_text(config)
        command = [str(NGINX), "-e", "stderr", "-c", str(prefix / "nginx.conf"), "-p", str(prefix), "-g", "daemon off;"]
        started.append(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        url = f"http://127.0.0.1:{port}"

        def answers() -> bool:
            try:
                return httpx.get(url + "/api/health", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        eventually(answers, "nginx answers")
        return url

    yield start
    for process in started:
        process.terminate()
        process.wait(15)


def expect_closed(socket: WebSocket) -> None:
    """``socket`` closes (bounded)."""
    if not socket.is_closed():
        socket.wait_for_event("close", timeout=WAIT * 1000)


async def host_table(url: str, table: Future[str]) -> None:
    """A person at the node ``url`` opens a table with bots in seats 2 and 3 (its id into ``table``)
    and goes once someone sat down in seat 1 (a seat left before the match is freed)."""
    creator = await Client.open(url)
    try:
        assert (await creator.request("create_table", options=FAST))["type"] == "ack"
        table_id = (await creator.wait_type("table"))["table"]["id"]
        for seat in (2, 3):
            assert (await creator.request("add_bot", seat=seat))["type"] == "ack"
        table.set_result(table_id)
        await creator.wait(lambda item: item["type"] == "table" and item["table"]["seats"][1]["kind"] == "human", WAIT)
    finally:
        await creator.close()


def test_the_page_moves_to_its_tables_node_and_after_a_takeover_to_the_new_one(
    browser: Browser,
    contexts: list[BrowserContext],
    nodes: cluster.NodeFactory,
    front: Callable[[dict[str, str]], str],
    redis_url: str,
    screenshots: Path,
) -> None:
    servers = {"a": nodes("a", *NODE_ARGS), "b": nodes("b", *NODE_ARGS)}
    url = front({name: node.url for name, node in servers.items()})
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    contexts.append(context)
    page = context.new_page()
    states: list[dict[str, Any]] = []
    """Every ``state`` the page received, on any of its connections."""
    refused: list[dict[str, Any]] = []
    """Every ``table_moving`` refusal the page received."""
    plays: list[dict[str, Any]] = []
    """Every ``play`` the page sent."""

    def record(payload: str | bytes) -> None:
        message = json.loads(payload)
        if message.get("type") == "state":
            states.append(message)
        if message.get("type") == "error" and message.get("code") == "table_moving":
            refused.append(message)

    def record_sent(payload: str | bytes) -> None:
        message = json.loads(payload)
        if message.get("type") == "play":
            plays.append(message)

    def watch(socket: WebSocket) -> None:
        socket.on("framereceived", record)
        socket.on("framesent", record_sent)

    page.on("websocket", watch)
    player = Player(page, url, screenshots)
    with page.expect_websocket() as first:
        player.enter_as_guest()
    assert first.value.url == url.replace("http://", "ws://") + "/ws"
    token = page.evaluate("() => localStorage.getItem('tuolaji.token')")
    account = httpx.get(url + "/api/me", headers={"Authorization": f"Bearer {token}"}).json()["account"]["id"]
    redis = Redis.from_url(redis_url, decode_responses=True)

    def node_of_page() -> str:
        """The node of the page's connection (its client id is ``NODE.BOOT.N``)."""
        client = redis.get(f"tj:conn:{account}")
        return str(client).partition(".")[0] if client else ""

    eventually(lambda: node_of_page() in servers, "the page's connection is known")
    here = node_of_page()
    there = next(name for name in servers if name != here)

    # A person on the other node opens a table; the page sits down in it from the lobby.
    table: Future[str] = Future()
    with ThreadPoolExecutor(1) as pool:
        host = pool.submit(asyncio.run, host_table(servers[there].url, table))
        table_id = table.result(WAIT)
        with page.expect_websocket() as moved:
            page.locator(f"#table-list [data-table='{table_id}'] [data-action=join][data-seat='1']").click()
        assert moved.value.url.endswith(f"/ws?node={there}")
        expect(page.locator("#table-screen")).to_be_visible()
        host.result(WAIT)
    eventually(lambda: node_of_page() == there, f"the page moved to {there}, which runs its table")
    expect_closed(first.value)
    expect(page.locator(".seat[data-seat='1'] .nick")).to_contain_text("(you)")
    expect(page.locator("#reconnect")).to_be_hidden()

    page.locator(".seat[data-seat='0'] [data-action=add-bot]").click()
    expect(page.locator(".seat[data-seat='0'] .badge.bot")).to_be_visible()
    page.locator("[data-action=start]").click()
    player.wait_for_play()
    expect(page.locator("[data-action=autoplay]")).to_have_attribute("aria-pressed", "false")
    if player.wait_for_turn_or_end():
        player.play_hint()

    # Its node dies: the page asks for it again, nginx falls back on the other, which takes the table over.
    epoch = max(state["epoch"] for state in states)
    with page.expect_websocket(timeout=WAIT * 1000) as back:
        servers[there].kill()
    assert back.value.url.endswith(f"/ws?node={there}")
    eventually(lambda: node_of_page() == here, f"the page is back, on {here}")
    # The page is usually back before the takeover (a lease, 2 s): a play then is refused
    # (table_moving), and the page sends it again itself with the new owner's first state, if it is
    # still the page's turn with those cards in hand. Either way the player presses once.
    expect(page.locator("#reconnect")).to_be_hidden(timeout=20_000)
    expect(page.locator("#table-screen")).to_be_visible()
    expect(page.locator("#hand .card").first).to_be_visible()
    if player.wait_for_turn_or_end():
        sent = len(plays)
        player.play_hint()
        mine = plays[sent:]
        if refused:
            assert [refusal["ref"] for refusal in refused] == [mine[0]["id"]]
            assert len(mine) == 2 and mine[1]["cards"] == mine[0]["cards"] and mine[1]["id"] != mine[0]["id"]
            assert any(state["full"] and state["epoch"] > epoch for state in states)
            expect(page.locator("#table-screen .status-line")).to_contain_text("sent again for you")
        else:
            assert len(mine) == 1
    assert player.errors == []
    redis.close()
    assert servers[here].errors() == []
