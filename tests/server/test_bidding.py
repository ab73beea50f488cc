"""Bidding over the socket: a bid, 加固 (R17), 反主 (R18) and a refused bid, in a reproducible deal;
every view lists the whole bid history."""

from __future__ import annotations

from collections.abc import Callable

from tests.live_server import FAST_ARGS, LiveServer
from tests.server.scenario import close_all, four_at_table, wait_state
from tuolaji.cards import SUITS, make_card
from tuolaji.game.actions import Bid, DealCards
from tuolaji.game.match import Match
from tuolaji.game.options import TableOptions
from tuolaji.game.round import Round
from tuolaji.server.hosting import match_seeds

OPTIONS = {"deal_interval_ms": 0, "bid_window_seconds": 2.5, "review_seconds": 0, "turn_seconds": 60}


def first_deal(options: dict[str, float], seed: int) -> Round:
    """The first hand, dealt, of a table with ``options`` on a server started with ``--seed seed``."""
    round_ = Round(Match(TableOptions.from_json(options), next(match_seeds(seed))).next_setup())
    round_.apply(DealCards(216))
    return round_


def find_seed() -> tuple[int, int, int, int, int]:
    """A server seed whose first deal lets seat a bid 1 then 2 of suit x, and seat b overturn with 3 of y."""
    for seed in range(500):
        round_ = first_deal(OPTIONS, seed)
        held = [[round_.hand(seat).count(make_card(round_.level, suit)) for suit in range(4)] for seat in range(4)]
        for a in range(4):
            for x in range(4):
                for b in range(4):
                    for y in range(4):
                        if a != b and held[a][x] >= 2 and held[b][y] >= 3:
                            return seed, a, x, b, y
    raise AssertionError("no seed found")


async def test_bid_reinforce_overturn(live_server_factory: Callable[..., LiveServer]) -> None:
    seed, a, x, b, y = find_seed()
    server = live_server_factory(args=(*FAST_ARGS, "--seed", str(seed)))
    clients, _ = await four_at_table(server.url, OPTIONS)
    try:
        for client in clients:
            await wait_state(client, lambda view: view["phase"] == "bidding")
        first = await clients[a].request("bid", suit=SUITS[x], count=1)
        assert first["type"] == "ack", first
        reinforce = await clients[a].request("bid", suit=SUITS[x], count=2)
        assert reinforce["type"] == "ack", reinforce
        other = (b + 1) % 4 if (b + 1) % 4 != a else (b + 2) % 4
        low = await clients[other].request("bid", suit=SUITS[y], count=1)
        assert low["type"] == "error" and low["code"] == "bad_bid" and low["rule"] in ("R16", "R17", "R18"), low
        overturn = await clients[b].request("bid", suit=SUITS[y], count=3)
        assert overturn["type"] == "ack", overturn
        closed = await wait_state(clients[0], lambda view: view["phase"] == "playing")
        kinds = [
            event["kind"]
            for item in clients[0].log
            if item["type"] == "state"
            for event in item["events"]
            if event["type"] == "bid"
        ]
        assert kinds == ["bid", "reinforce", "overturn"]
        view = closed["view"]
        # R19: in the first hand of a match the standing bid makes its bidder the dealer (反主反莊).
        assert view["trump_suit"] == SUITS[y] and view["dealer"] == b and view["to_move"] == b
        assert view["bid"] == {"seat": b, "suit": SUITS[y], "count": 3}
        # R16–R18: bids are public, so every seat's view lists all of them in order, the standing one last.
        bids = [
            {"seat": a, "suit": SUITS[x], "count": 1},
            {"seat": a, "suit": SUITS[x], "count": 2},
            {"seat": b, "suit": SUITS[y], "count": 3},
        ]
        assert view["bids"] == bids
        for client in clients[1:]:
            assert (await wait_state(client, lambda view: view["phase"] == "playing"))["view"]["bids"] == bids
    finally:
        await close_all(clients)


def seed_with_an_answer(options: dict[str, float]) -> int:
    """A server seed whose first deal leaves another seat a bid after the first seat that can bid has
    made its first choice (so the window is still open for the first 不叫)."""
    for seed in range(500):
        round_ = first_deal(options, seed)
        bidder = next((seat for seat in range(4) if round_.bid_options(seat)), None)
        if bidder is None:
            continue
        suit, count = round_.bid_options(bidder)[0]
        round_.apply(Bid(bidder, suit, count))
        if any(round_.bid_options(seat) for seat in range(4) if seat != bidder):
            return seed
    raise AssertionError("no seed found")


async def test_pass_from_everyone_closes_a_long_window(live_server_factory: Callable[..., LiveServer]) -> None:
    """R19: 不叫 over the socket. With a window far longer than any wait here, the hand goes on only
    because every seat said 不叫 or could no longer bid: after one bid, the others and then the bidder
    say 不叫 (a 不叫 after the window closed is refused naming R19), and the bid stands."""
    options = {**OPTIONS, "bid_window_seconds": 600}
    server = live_server_factory(args=(*FAST_ARGS, "--seed", str(seed_with_an_answer(options))))
    clients, _ = await four_at_table(server.url, options)
    try:
        views = [(await wait_state(client, lambda view: view["phase"] == "bidding"))["view"] for client in clients]
        bidder = next(seat for seat, view in enumerate(views) if view["bid_options"])
        option = views[bidder]["bid_options"][0]
        assert (await clients[bidder].request("bid", suit=option["suit"], count=option["count"]))["type"] == "ack"
        order = [seat for seat in range(4) if seat != bidder] + [bidder]
        answers = {seat: await clients[seat].request("pass") for seat in order}
        assert answers[order[0]]["type"] == "ack", answers  # the window was open for the first 不叫
        for answer in answers.values():
            if answer["type"] != "ack":  # the window had closed: the seats left could not bid any more
                assert answer["code"] == "wrong_phase" and answer["rule"] == "R19", answer
                assert answer["params"]["reason"] == "bidding_closed", answer
        playing = await wait_state(clients[0], lambda view: view["phase"] == "playing")
        assert playing["view"]["bid"] == {"seat": bidder, **option}
        said = {
            event["seat"]
            for item in clients[0].log
            if item["type"] == "state"
            for event in item["events"]
            if event["type"] == "pass"
        }
        assert said == {seat for seat, answer in answers.items() if answer["type"] == "ack"}  # every 不叫 is public
    finally:
        await close_all(clients)
