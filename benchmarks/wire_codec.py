"""The JSON of a move on the wire: orjson (what the server uses) against the standard library.

Positions are real: a hand dealt, bid and played with hints to its middle. Timed (CPU, best of
``--repeat`` runs of ``--calls`` calls each): the public part of a ``state`` view (``ViewEncoder``'s
field dict, the part encoded once a broadcast) and a ``table`` summary with ``dumps`` and with
``json.dumps(ensure_ascii=False, separators=(",", ":"))``, which writes the same text; a client's
``play`` message read with ``load_json`` and with its standard-library path (the same values and
refusals, ``tuolaji.wire.json_limits``).

    .venv/bin/python benchmarks/wire_codec.py
"""

from __future__ import annotations

import argparse
import functools
import json
import time
from collections.abc import Callable
from typing import Any

from tuolaji.game import Play, Round
from tuolaji.game.actions import Bid, CloseBidding, CloseReview, DealCards
from tuolaji.game.options import TableOptions
from tuolaji.game.round import Phase, RoundSetup
from tuolaji.wire import json_limits
from tuolaji.wire.outbound import dumps
from tuolaji.wire.views import _public_fields


def mid_hand() -> Round:
    """A hand played with hints to its 12th trick."""
    round_ = Round(RoundSetup(seed=7, options=TableOptions(deal_interval_ms=0)))
    round_.apply(DealCards(216))
    seat, (suit, count) = next((seat, option) for seat in range(4) for option in round_.view(seat).bid_options)
    round_.apply(Bid(seat, suit, count))
    round_.apply(CloseBidding())
    while len(round_.tricks) < 12:
        if round_.phase is Phase.REVIEW:
            round_.apply(CloseReview())
            continue
        mover = round_.to_move
        assert mover is not None
        round_.apply(Play(mover, tuple(round_.hint(mover))))
    return round_


def best_us(work: Callable[[], Any], calls: int, repeat: int) -> float:
    """The best CPU time of ``calls`` calls of ``work`` over ``repeat`` runs, in µs a call."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(calls):
            work()
        best = min(best, time.process_time() - start)
    return best / calls * 1e6


def stdlib_dumps(data: Any) -> str:
    """The standard library's text of ``data`` as the server writes it."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def main() -> int:
    """Time each codec on each payload and print µs a call."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    view = mid_hand().view(0)
    public = _public_fields(view)
    summary = {
        "id": "t1",
        "options": TableOptions().to_json(),
        "state": "playing",
        "seats": [
            {"seat": seat, "kind": "person", "account": {"id": 100 + seat, "nickname": "拖拉機手"}, "bot": None}
            for seat in range(4)
        ],
        "levels": ["5", "3"],
    }
    play = '{"v":2,"type":"play","cards":["AS","AS"],"id":17}'
    assert dumps(public) == stdlib_dumps(public) and dumps(summary) == stdlib_dumps(summary)
    assert json_limits.load_json(play) == json_limits._load_exactly(play)
    print(f"{'payload':34} {'bytes':>6} {'stdlib µs':>10} {'orjson µs':>10} {'speed-up':>9}")
    payloads: list[tuple[str, dict[str, Any]]] = [("state view, public part", public), ("table summary", summary)]
    for name, data in payloads:
        slow = best_us(functools.partial(stdlib_dumps, data), args.calls, args.repeat)
        fast = best_us(functools.partial(dumps, data), args.calls, args.repeat)
        print(f"{'encode ' + name:34} {len(dumps(data).encode()):>6} {slow:>10.2f} {fast:>10.2f} {slow / fast:>8.1f}×")
    slow = best_us(lambda: json_limits._load_exactly(play), args.calls, args.repeat)
    fast = best_us(lambda: json_limits.load_json(play), args.calls, args.repeat)
    print(f"{'read a play message':34} {len(play):>6} {slow:>10.2f} {fast:>10.2f} {slow / fast:>8.1f}×")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
