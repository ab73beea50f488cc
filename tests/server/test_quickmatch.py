"""快速開始 on one node (its queue in memory), over real WebSockets (issue 45): eight people make two
tables, ranks far apart sit apart, partners sit opposite, one who vanishes between the match and the
seats leaves no table waiting, a cancel empties the lobby's count; and what the queue refuses."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.live_server import FAST_ARGS, LiveServer
from tests.server import quickkit
from tests.server.wsclient import Client


@pytest.fixture
def live_server(live_server_factory: Callable[..., LiveServer]) -> LiveServer:
    return live_server_factory(args=(*FAST_ARGS, *quickkit.SERVER_ARGS))


async def test_quick_match_on_one_node(live_server: LiveServer) -> None:
    urls = [live_server.url]
    await quickkit.eight_people_make_two_tables(urls)
    await quickkit.ranks_far_apart_sit_apart(urls, live_server.db_url)
    await quickkit.partners_sit_opposite(urls)
    await quickkit.cancel_leaves_every_node(urls)
    await quickkit.one_vanishes_before_the_seats(urls)
    assert live_server.errors() == []


async def test_what_the_queue_refuses(live_server: LiveServer) -> None:
    person = await Client.open(live_server.url)
    await quickkit.queue(person, preset="guigang", bots_after=30, bot="hard")
    again = await person.request("quick_match")
    assert again["type"] == "error" and again["code"] == "already_queued"
    assert again["params"] == {"preset": "guigang", "illegal_follow": "laogai"}
    gone = await person.request("accept_match", match="nope")
    assert gone["type"] == "error" and gone["code"] == "match_gone" and gone["params"] == {"match": "nope"}
    wrong = await person.request("quick_match", bots_after=15)
    assert wrong["type"] == "error" and wrong["code"] == "bad_message" and wrong["params"]["field"] == "bots_after"
    other = await Client.open(live_server.url)
    no_pair = await other.request("quick_match", partner="nobody-has-it")
    assert no_pair["type"] == "error" and no_pair["code"] == "bad_pair"
    # Sitting down at a table leaves the queue, and says so.
    created = await person.request("create_table")
    assert created["type"] == "ack"
    left = await person.wait(lambda m: m["type"] == "match_cancelled")
    assert left["reason"] == "seated"
    busy = await person.request("quick_match")
    assert busy["type"] == "error" and busy["code"] == "already_seated"
    await quickkit.leave_all([person, other])
