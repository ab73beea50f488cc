"""A property-based fuzzer of a real server (issue 46, item 7): every WebSocket message type (from
``tuolaji.wire.inbound.SCHEMAS``) and every HTTP endpoint (``tuolaji.server.api.ROUTES``).

The strategies make wrong types, missing and extra fields, huge numbers, strings and arrays, deep
nesting, bad UTF-8 and lone surrogates, mixed with plausible values (the ids of real tables, cards,
seats, options) so that cases reach the tables too. A :class:`Probe` sends each case to a
:class:`~tests.live_server.LiveServer` and fails (:class:`Disturbed`) on a 500, a traceback or
error in the server's log, a connection that stops answering (a ``ping`` after each case must get
its ``pong``) or a bystander disturbed: a guest at a private table with three bots whose ``sync``
and ``ping`` must keep being answered.

Used by ``tests/server/test_fuzz.py`` (a short budget) and ``benchmarks/fuzz.py`` (a long one). The
probe runs its connections on an event loop of its own thread, so a synchronous ``@given`` test
drives it (:meth:`Probe.run`).
"""

from __future__ import annotations

import asyncio
import collections
import json
import threading
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from hypothesis import strategies as st

from tests.live_server import LiveServer, is_error
from tests.server.wsclient import Client, Message
from tuolaji.bots import BOT_NAMES
from tuolaji.cards import KINDS, format_card
from tuolaji.game.options import TableOptions
from tuolaji.room.phrases import PHRASES
from tuolaji.server.api import ROUTES
from tuolaji.wire.inbound import SCHEMAS

T = TypeVar("T")

ANSWER_SECONDS = 10.0
"""How long a connection may take to answer a ``ping`` after a case before it counts as mute."""
ACCEPTED_CLOSES = frozenset({1007, 1009})
"""Close codes a case may cause: text that is not UTF-8 (1007), a frame over 1 MiB (1009)."""
SERVER_ARGS = (
    "--bot-delay",
    "0.2",
    "--next-hand-delay",
    "0.05",
    "--log-level",
    "info",
    "--rate-per-second",
    "1000",
    "--rate-burst",
    "2000",
    "--account-rate",
    "100000",
    "--guests-per-hour",
    "100000",
)
"""A server for the fuzzer: no rate limit reached by the probe's own pace (each case waits for its answer)."""
ANSWERS = ("ack", "error", "pong")
BYSTANDER_OPTIONS = {"deal_interval_ms": 0, "bid_window_seconds": 0.5, "review_seconds": 0, "turn_seconds": 600}


def shorten(value: object, limit: int = 300) -> str:
    """``repr(value)``, cut to ``limit`` characters saying how long it was."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}…({len(text)} characters)"


@dataclass(frozen=True)
class Raw:
    """JSON text put into a frame as is (numbers longer than ``json.dumps`` writes, deep nesting)."""

    text: str


def encode(value: Any, ascii_only: bool = True) -> str:
    """``value`` as JSON text, :class:`Raw` parts as they are; with ``ascii_only`` False a lone
    surrogate stays in the text (it then cannot be sent as UTF-8 as it is)."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return (
            "{"
            + ",".join(f"{encode(str(key), ascii_only)}:{encode(item, ascii_only)}" for key, item in value.items())
            + "}"
        )
    if isinstance(value, list):
        return "[" + ",".join(encode(item, ascii_only) for item in value) + "]"
    return json.dumps(value, ensure_ascii=ascii_only)


CARDS = [format_card(kind) for kind in range(KINDS)]
SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
huge_numbers = st.builds(
    lambda sign, digits, tail: Raw(sign + "9" * digits + tail),
    st.sampled_from(["", "-"]),
    st.sampled_from([17, 101, 4301, 5000, 15000]),
    st.sampled_from(["", ".5", "e5", "e99999", "e400"]),
)
deep = st.builds(
    lambda depth, bracket: Raw(bracket[0] * depth + bracket[1] * depth),
    st.sampled_from([33, 200, 5000]),
    st.sampled_from(["[]", "{}"]),
)
strings = st.one_of(
    st.text(max_size=20),
    st.text(alphabet=SURROGATES, min_size=1, max_size=3),
    st.builds(lambda text, bad: text + bad, st.text(max_size=5), SURROGATES),
    st.sampled_from(["", "\x00", "é", "拖拉機", "\u202e", "%s%n{0}", "../../etc", "<script>"]),
    st.sampled_from([300, 5000, 20000]).map(lambda length: "A" * length),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([2**53 + 1, -(2**63), 2**64, 10**300]),
    st.floats(),
    strings,
    huge_numbers,
)
junk = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(st.text(max_size=6), children, max_size=5), deep
    ),
    max_leaves=12,
)
big_arrays = st.sampled_from([2000, 3000, 5000]).flatmap(
    lambda size: st.sampled_from([list(range(size)), ["AS"] * size, [[]] * size])
)


@dataclass
class Targets:
    """Real values for the plausible half of the cases: the bystander's table and its invite code."""

    table_id: str = ""
    invite: str = ""


def plausible(name: str, targets: Targets) -> st.SearchStrategy[Any]:
    """Values a client could mean for field ``name`` (some right, some just out of range)."""
    options = TableOptions().to_json()
    by_name: dict[str, st.SearchStrategy[Any]] = {
        "table": st.one_of(
            st.just(targets).map(lambda real: real.table_id), st.sampled_from(["t1", "0", "", "t" * 40])
        ),
        "invite": st.one_of(
            st.just(targets).map(lambda real: real.invite), st.text(alphabet="ABCabc012_-", min_size=1, max_size=64)
        ),
        "seat": st.integers(-2, 6),
        "count": st.integers(-1, 6),
        "suit": st.sampled_from(["S", "H", "C", "D", "s", "x", "SS", "♠"]),
        "cards": st.one_of(
            st.lists(st.sampled_from(CARDS), max_size=26), st.text(alphabet="AKQJT98765432SHCDsj ", max_size=100)
        ),
        "bot": st.sampled_from([*BOT_NAMES, "hard", "nobody", ""]),
        "phrase": st.sampled_from([*PHRASES, "nope"]),
        "token": st.text(max_size=200),
        "options": st.dictionaries(
            st.sampled_from([*options, "nope"]),
            st.one_of(
                st.sampled_from(list(options.values())),
                st.floats(),
                st.integers(),
                st.sampled_from([10**30, -1, 0, 1e308, "fourdeck", "nanning", "A", "laogai", "reject"]),
                huge_numbers,
            ),
            max_size=6,
        ),
    }
    return by_name.get(name, st.booleans())


def messages(targets: Targets) -> st.SearchStrategy[Any]:
    """A client message of any schema type: each field missing, plausible or junk, maybe extra fields,
    ``v``, ``type`` and ``id`` mostly right."""

    def of_type(kind: str) -> st.SearchStrategy[dict[str, Any]]:
        fields = {
            name: st.one_of(plausible(name, targets), plausible(name, targets), junk, big_arrays)
            for name in SCHEMAS[kind].fields
        }
        right = st.fixed_dictionaries({"v": st.just(2), "type": st.just(kind)}, optional={"id": st.integers(0, 10**6)})
        wrong = st.fixed_dictionaries(
            {},
            optional={
                "v": st.sampled_from([1, "2", None, 2.0, True]) | huge_numbers | junk,
                "type": st.just(kind) | strings | junk,
                "id": st.integers() | strings | junk | huge_numbers,
            },
        )
        extra = st.dictionaries(st.text(max_size=6), junk, min_size=1, max_size=2)
        return st.builds(
            lambda envelope, chosen, more: {**envelope, **chosen, **more},
            st.one_of(right, right, right, wrong),
            st.fixed_dictionaries({}, optional=fields),
            st.one_of(st.just({}), st.just({}), st.just({}), extra),
        )

    return st.one_of(*(of_type(kind) for kind in sorted(SCHEMAS)))


class Frame:
    """One WebSocket frame: ``data`` (text, or bytes to send as a text frame when not UTF-8) or a binary frame."""

    def __init__(self, data: str | bytes, binary: bool = False) -> None:
        self.data, self.binary = data, binary

    def __repr__(self) -> str:
        return f"Frame({shorten(self.data)}, binary={self.binary})"


def frames(targets: Targets) -> st.SearchStrategy[Frame]:
    """WebSocket frames: messages as JSON (surrogates escaped or raw), broken JSON, bad UTF-8, binary."""

    def as_frame(value: Any, ascii_only: bool) -> Frame:
        text = encode(value, ascii_only)
        try:
            text.encode()
        except UnicodeEncodeError:
            return Frame(text.encode("utf-8", "surrogatepass"))
        return Frame(text)

    structured = st.builds(
        as_frame, st.one_of(messages(targets), messages(targets), junk), st.sampled_from([True, True, True, False])
    )
    broken = st.one_of(
        st.builds(lambda frame, cut: Frame(frame.data[:cut]), structured, st.integers(0, 40)),
        st.binary(max_size=64).map(Frame),
        st.builds(
            lambda data: Frame(b'{"v":2,"type":"ping","id":"' + data + b'"}'),
            st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80"]),
        ),
        st.binary(max_size=64).map(lambda data: Frame(data, binary=True)),
    )
    return st.one_of(structured, structured, structured, broken)


class HttpCase:
    """One HTTP request."""

    def __init__(self, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> None:
        self.method, self.path, self.body, self.headers = method, path, body, headers

    def __repr__(self) -> str:
        return (
            f"HttpCase({self.method} {shorten(self.path)}, body={shorten(self.body)}, headers={shorten(self.headers)})"
        )


def http_cases() -> st.SearchStrategy[HttpCase]:
    """A request to any endpoint: its methods or another, odd ids in its path, odd queries, bodies
    and bearer tokens."""
    ids = st.one_of(
        st.integers(-(2**70), 2**70).map(str),
        strings.map(lambda text: text.encode("utf-8", "surrogatepass").decode("latin-1")),
        st.just("1"),
    )
    queries = st.dictionaries(
        st.sampled_from(["limit", "before", "offset", "page", "x"]), st.one_of(ids, st.just("10")), max_size=3
    )
    body_values = st.one_of(
        st.fixed_dictionaries(
            {},
            optional={
                "nickname": strings | junk | huge_numbers,
                "password": strings | junk | huge_numbers,
                "token": strings | junk,
            },
        ),
        junk,
    )
    bodies = st.one_of(
        st.none(),
        st.builds(
            lambda value, ascii_only: encode(value, ascii_only).encode("utf-8", "surrogatepass"),
            body_values,
            st.booleans(),
        ),
        st.binary(max_size=64),
    )
    tokens: st.SearchStrategy[dict[str, str]] = st.one_of(
        st.just({}),
        strings.map(lambda text: {"Authorization": "Bearer t" + quote(text, safe="", errors="surrogatepass")}),
    )

    def case(
        route: tuple[str, str, tuple[str, ...]],
        method: str,
        id_: str,
        query: dict[str, str],
        body: bytes | None,
        headers: dict[str, str],
    ) -> HttpCase:
        path = route[0].replace("{id:str}", quote(id_, safe=""))
        if query:
            path += "?" + "&".join(f"{key}={quote(value, safe='')}" for key, value in query.items())
        return HttpCase(method, path, body, headers)

    routes = st.sampled_from(ROUTES).flatmap(
        lambda route: st.tuples(st.just(route), st.sampled_from([*route[2] * 3, "GET", "POST", "PUT"]))
    )
    return st.builds(
        lambda chosen, *rest: case(chosen[0], chosen[1], *rest),
        st.one_of(routes, routes, routes, routes),
        ids,
        queries,
        bodies,
        tokens,
    )


class Disturbed(AssertionError):
    """The server misbehaved on a case: the message says how."""


class Probe:
    """A fuzzing client of ``server``: one connection that takes the cases, one bystander at a private
    table, an HTTP client; the answers seen by code in ``seen``."""

    def __init__(self, server: LiveServer, targets: Targets) -> None:
        self.server = server
        self.targets = targets
        self.seen: collections.Counter[str] = collections.Counter()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="fuzz probe", daemon=True)
        self._thread.start()
        self._client: Client | None = None
        self._bystander: Client | None = None
        self._http: httpx.AsyncClient | None = None
        self._asked = 0
        self._logged = 0

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        """Run ``work`` on the probe's loop and return its result."""
        return asyncio.run_coroutine_threadsafe(work, self._loop).result()

    def start(self) -> Probe:
        """Open the connections; seat the bystander at a private table with three bots."""
        self.run(self._start())
        return self

    async def _start(self) -> None:
        self._http = httpx.AsyncClient(base_url=self.server.url, timeout=ANSWER_SECONDS)
        bystander = await Client.open(self.server.url)
        self._bystander = bystander
        created = await bystander.request("create_table", options=BYSTANDER_OPTIONS, private=True)
        assert created["type"] == "ack", created
        table = (await bystander.wait_type("table"))["table"]
        self.targets.table_id, self.targets.invite = table["id"], table["invite"]
        for seat in (1, 2, 3):
            added = await bystander.request("add_bot", seat=seat)
            assert added["type"] == "ack", added
        started = await bystander.request("start")
        assert started["type"] == "ack", started
        self._client = await Client.open(self.server.url)
        await self._seat(self._client)

    async def _seat(self, client: Client) -> None:
        """Try to seat ``client`` at a new table of three bots with a hand under way, so that the cases'
        game messages reach a table (the cases may take it elsewhere; a refusal, e.g. a seat kept or
        the cooldown after an escape, is one more answer)."""
        answer = await self._ask(client, "play_now", options=BYSTANDER_OPTIONS)
        self._saw(answer)

    def close(self) -> None:
        """Close the connections and stop the probe's loop."""
        self.run(self._close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(ANSWER_SECONDS)
        self._loop.close()

    async def _close(self) -> None:
        for client in (self._client, self._bystander):
            if client is not None and not client.closed:
                await client.close()
        if self._http is not None:
            await self._http.aclose()

    def ws_case(self, frame: Frame) -> None:
        """Send ``frame``; raise :class:`Disturbed` if the server or the bystander suffers."""
        self.run(self._ws_case(frame))
        self._check_log(f"after frame {frame!r}")

    def http_case(self, case: HttpCase) -> None:
        """Send ``case``; raise :class:`Disturbed` on a 500 or if the server or the bystander suffers."""
        self.run(self._http_case(case))
        self._check_log(f"after {case!r}")

    async def _ws_case(self, frame: Frame) -> None:
        client = self._client
        assert client is not None
        since = len(client.log)
        if frame.binary:
            await client.send_raw(frame.data if isinstance(frame.data, bytes) else frame.data.encode())
        elif isinstance(frame.data, bytes):
            await client.ws.send(frame.data, text=True)
        else:
            await client.send_raw(frame.data)
        try:
            answer = await self._ask(client, "ping")
        except ConnectionError:
            code = await client.closed_with(ANSWER_SECONDS)
            if code not in ACCEPTED_CLOSES:
                raise Disturbed(f"the connection closed with {code} after {frame!r}") from None
            self.seen[f"closed {code}"] += 1
            await self._replace()
        except TimeoutError:
            raise Disturbed(f"no pong within {ANSWER_SECONDS} s after {frame!r}") from None
        else:
            if answer["type"] != "pong":
                raise Disturbed(f"ping answered with {answer} after {frame!r}")
            for message in client.log[since:]:
                self._saw(message)
            if any(message.get("type") == "left" for message in client.log[since:]):
                await client.close()
                await self._replace()
        await self._bystander_answers(f"{frame!r}")

    async def _replace(self) -> None:
        """A fresh guest takes the cases, seated at a new table (the last one left or was closed)."""
        self._client = await Client.open(self.server.url)
        await self._seat(self._client)

    async def _http_case(self, case: HttpCase) -> None:
        assert self._http is not None
        answer = await self._http.request(case.method, case.path, content=case.body, headers=case.headers)
        self.seen[f"HTTP {answer.status_code}"] += 1
        if answer.status_code >= 500 and answer.status_code != 503:
            raise Disturbed(f"{answer.status_code} for {case!r}: {answer.text[:300]}")
        await self._bystander_answers(f"{case!r}")

    async def _ask(self, client: Client, kind: str, **fields: Any) -> Message:
        """Send ``kind`` with an id no case uses; its ``ack``, ``error`` or ``pong``."""
        self._asked += 1
        ref = f"probe-{self._asked}"
        await client.send_raw(json.dumps({"v": 2, "type": kind, "id": ref, **fields}))
        return await client.wait(lambda item: item.get("ref") == ref and item["type"] in ANSWERS, ANSWER_SECONDS)

    def _saw(self, message: Message) -> None:
        if message.get("type") == "error":
            self.seen[f"error {message.get('code')}"] += 1
            if message.get("code") == "internal":
                raise Disturbed(f"internal error: {message}")

    async def _bystander_answers(self, after: str) -> None:
        bystander = self._bystander
        assert bystander is not None
        try:
            pong = await self._ask(bystander, "ping")
            synced = await self._ask(bystander, "sync")
        except (TimeoutError, ConnectionError) as error:
            raise Disturbed(f"the bystander got no answer ({error!r}) after {after}") from None
        if pong["type"] != "pong" or synced["type"] != "ack":
            raise Disturbed(f"the bystander got {pong} and {synced} after {after}")
        internal = [item for item in bystander.log if item.get("type") == "error" and item.get("code") == "internal"]
        if internal:
            raise Disturbed(f"the bystander got {internal[0]} after {after}")

    def _check_log(self, after: str) -> None:
        lines = self.server.log[self._logged :]
        self._logged += len(lines)
        if any(is_error(line) for line in lines):
            raise Disturbed(f"the server logged errors {after}:\n" + "\n".join(lines[-30:]))
