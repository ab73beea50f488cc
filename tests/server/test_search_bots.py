"""Search bots at a table: they think in worker processes while the table goes on serving.

To hold a bot in mid-thought without guessing at timings, a test freezes the server's bot worker
(SIGSTOP) before the bot's turn and thaws it (SIGCONT) once it has checked what it wanted.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import httpx

from tests.live_server import FAST_ARGS, LiveServer
from tests.server.scenario import FAST, close_all, drive, got, latest_view, wait_state
from tests.server.wsclient import Client, Message

SEARCH_ARGS = (*FAST_ARGS, "--search-budget-ms", "20", "--bot-workers", "1")
"""Quick search bots, and a single worker, so that freezing it holds every think."""
THINKER = 1
"""The search bot's seat in the tests that hold it: it plays right after the person at seat 0."""


def bot_workers(server: LiveServer) -> list[int]:
    """Process ids of the server's bot workers (its ``multiprocessing`` spawn children)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            if parent == server.pid and b"spawn_main" in (stat.parent / "cmdline").read_bytes():
                pids.append(int(stat.parent.name))
    return pids


def signal_all(pids: Sequence[int], signum: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signum)


@contextlib.contextmanager
def frozen(server: LiveServer) -> Iterator[list[int]]:
    """The bot workers stopped (SIGSTOP) for the block; they go on afterwards."""
    pids = bot_workers(server)
    assert pids, "no bot worker is running yet"
    signal_all(pids, signal.SIGSTOP)
    try:
        yield pids
    finally:
        signal_all(pids, signal.SIGCONT)


def plays_by(client: Client, seat: int, since: int = 0) -> list[Message]:
    """The ``play`` events of ``seat`` in the client's log from message ``since`` on."""
    return [
        event
        for item in client.log[since:]
        if item["type"] == "state"
        for event in item["events"]
        if event["type"] == "play" and event["seat"] == seat
    ]


def before_the_thinker(follow: bool = False) -> Callable[[Client], bool]:
    """A ``done`` condition: the person at seat 0 is to play (to ``follow``, if asked) and the search
    bot plays next, having played before in the hand (so its worker runs)."""

    def ready(client: Client) -> bool:
        state = client.latest("state")
        if state is None or state["view"] is None or not plays_by(client, THINKER):
            return False
        view = state["view"]
        leaders = (2, 3) if follow else (0, 2, 3)
        return view["phase"] == "playing" and view["to_move"] == 0 and view["leader"] in leaders

    return ready


async def person_and_bots(server: LiveServer) -> Client:
    """A person at seat 0, the search bot at seat 1 and heuristic bots at 2 and 3; the hand begins."""
    person = await Client.open(server.url)
    assert (await person.request("create_table", options=FAST, seat=0))["type"] == "ack"
    for seat, bot in ((THINKER, "hard"), (2, "normal"), (3, "heuristic")):
        assert (await person.request("add_bot", seat=seat, bot=bot))["type"] == "ack"
    assert (await person.request("start"))["type"] == "ack"
    return person


async def play_hint(client: Client) -> None:
    played = await client.request("play", cards=latest_view(client)["hint"])
    assert played["type"] == "ack", played


async def thinker_to_move(client: Client) -> Message:
    return await wait_state(client, lambda view: view["phase"] == "playing" and view["to_move"] == THINKER)


async def thinker_played(client: Client, since: int) -> None:
    await client.wait(lambda item: item["type"] == "state" and bool(plays_by(client, THINKER, since)))


async def hand_played(client: Client) -> None:
    await drive(client, got("hand_end"))
    end = client.latest("hand_end")
    assert end is not None and end["result"]["kind"] == "played"


async def test_search_bots_play_a_whole_hand(live_server_factory: Callable[..., LiveServer]) -> None:
    server = live_server_factory(args=SEARCH_ARGS)
    person = await Client.open(server.url)
    try:
        assert (await person.request("play_now", options=FAST, bot="hard"))["type"] == "ack"
        table = (await person.wait(lambda item: item["type"] == "table" and item["table"]["state"] == "playing"))[
            "table"
        ]
        assert [seat["bot"] for seat in table["seats"]] == [None, "search", "search", "search"]
        await hand_played(person)
        end = person.latest("hand_end")
        assert end is not None
        assert all(plays_by(person, seat) for seat in (1, 2, 3))
        async with httpx.AsyncClient(base_url=server.url) as http:
            record = (await http.get(f"/api/hands/{end['hand_id']}")).json()["hand"]
        assert [seat["bot"] for seat in record["seats"]] == [None, "search", "search", "search"]
        assert [line["bot"] for line in end["settlement"]] == [None, "search", "search", "search"]
        workers = bot_workers(server)
        assert len(workers) == 1
    finally:
        await close_all([person])
    # The pool shuts down with the server: no worker is left behind, nothing is logged as wrong.
    assert server.stop() == -signal.SIGTERM  # uvicorn ends a graceful shutdown by re-raising the signal
    assert "Application shutdown complete." in " ".join(server.log)
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)
    assert server.errors() == []
    assert [fields for fields in server.records() if fields.get("level") in ("warning", "error", "critical")] == []


async def test_the_table_answers_while_a_search_bot_thinks(live_server_factory: Callable[..., LiveServer]) -> None:
    server = live_server_factory(args=SEARCH_ARGS)
    person = await person_and_bots(server)
    spectator = await Client.open(server.url)
    try:
        await drive(person, before_the_thinker())
        with frozen(server):
            await play_hint(person)
            thinking = await thinker_to_move(person)
            mark = len(person.log)
            # The bot cannot finish thinking now, so these answers come from a table that is not waiting for it.
            assert (await spectator.request("watch", table=thinking["table_id"]))["type"] == "ack"
            watched = spectator.latest("state")
            assert watched is not None and watched["view"]["to_move"] == THINKER
            refused = await person.request("play", cards=latest_view(person)["hand"][:1])
            assert refused["code"] == "not_your_turn", refused
            assert plays_by(person, THINKER, mark) == []
        await thinker_played(person, mark)
        assert len(plays_by(person, THINKER, mark)) == 1
    finally:
        await close_all([person, spectator])
    assert server.errors() == []


async def test_an_answer_to_a_changed_position_is_dropped(live_server_factory: Callable[..., LiveServer]) -> None:
    server = live_server_factory(args=SEARCH_ARGS)
    person = await person_and_bots(server)
    try:
        await drive(person, before_the_thinker(follow=True))
        with frozen(server):
            await play_hint(person)
            await thinker_to_move(person)
            mark = len(person.log)
            # R31: the person takes the follow back while the bot thinks about the trick with it.
            assert (await person.request("retract"))["type"] == "ack"
            await wait_state(person, lambda view: view["to_move"] == 0)
        # The bot's answer comes back now, to a trick it no longer fits: it is dropped, not played.
        dropped = "dropped a slow bot's answer for a position that changed"
        assert await asyncio.to_thread(server.logged, dropped)
        assert [line["seat"] for line in server.records(dropped)] == [1]
        assert (await person.request("ping"))["type"] == "pong"
        assert plays_by(person, THINKER, mark) == [] and latest_view(person)["to_move"] == 0
        # The turn is handled afresh once the person has played again.
        await play_hint(person)
        await thinker_played(person, mark)
        assert len(plays_by(person, THINKER, mark)) == 1
        await hand_played(person)
    finally:
        await close_all([person])
    assert server.errors() == []


async def test_a_failed_think_plays_the_heuristic_move(live_server_factory: Callable[..., LiveServer]) -> None:
    server = live_server_factory(args=SEARCH_ARGS)
    person = await person_and_bots(server)
    try:
        await drive(person, before_the_thinker())
        with frozen(server) as workers:
            await play_hint(person)
            await thinker_to_move(person)
            mark = len(person.log)
            signal_all(workers, signal.SIGKILL)  # the worker dies in mid-thought
        await thinker_played(person, mark)
        assert await asyncio.to_thread(server.logged, "a slow bot could not think")
        [failed] = server.records("a slow bot could not think; it plays the in-process move")
        assert (failed["seat"], failed["bot"], failed["level"]) == (1, "search", "error") and "exception" in failed
        # The pool is replaced: the search bot thinks in a new worker for the rest of the hand.
        await hand_played(person)
        replaced = bot_workers(server)
        assert replaced and not set(replaced) & set(workers)
        assert len(plays_by(person, THINKER, mark)) > 1
        assert sum("could not think" in line for line in server.log) == 1
    finally:
        await close_all([person])


async def test_bots_by_name_or_level(live_server: LiveServer) -> None:
    host = await Client.open(live_server.url)
    lobby = await Client.open(live_server.url)
    try:
        assert (await host.request("create_table", options=FAST))["type"] == "ack"
        assert (await host.request("add_bot", seat=1, bot="hard"))["type"] == "ack"
        assert (await host.request("add_bot", seat=2, bot="search"))["type"] == "ack"
        assert (await host.request("add_bot", seat=3, bot="easy"))["type"] == "ack"
        table = await host.wait(lambda item: item["type"] == "table" and item["table"]["seats"][3]["kind"] == "bot")
        assert [seat["bot"] for seat in table["table"]["seats"]] == [None, "search", "search", "random"]
        assert (await host.request("remove_bot", seat=3))["type"] == "ack"
        unknown = await host.request("add_bot", seat=3, bot="deep-blue")
        assert unknown["code"] == "bad_message" and "'deep-blue'" in unknown["message"], unknown
        assert "search" in unknown["message"] and "hard" in unknown["message"]

        assert (await lobby.request("lobby", on=True))["type"] == "ack"
        listed = await lobby.wait_type("lobby")
        assert [seat["bot"] for seat in listed["tables"][0]["seats"]] == [None, "search", "search", None]
        unknown = await lobby.request("play_now", bot="grandmaster")
        assert unknown["code"] == "bad_message" and "'grandmaster'" in unknown["message"], unknown
        assert (await lobby.request("ping"))["type"] == "pong"
        tables = {item["table"]["id"] for item in lobby.log if item["type"] == "lobby_table"}
        assert tables <= {listed["tables"][0]["id"]}  # the refused play_now made no table
    finally:
        await close_all([host, lobby])
    assert live_server.errors() == []
