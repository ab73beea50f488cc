"""The stored-hand viewer: what ``GET /api/hands/{id}`` derives from a hand record by replaying it
(:func:`record_details`), and ``tuolaji replay ID``, which prints a stored hand trick by trick
(replayed through ``Round.replay``)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from tuolaji.store.db import DEFAULT_URL

if TYPE_CHECKING:
    from tuolaji.game.round import RoundSetup

SEAT_NAMES = ("S", "E", "N", "W")
"""R1: 0 South, 1 East, 2 North, 3 West."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``tuolaji replay``."""
    parser.add_argument("id", type=int, help="hand record id (as in GET /api/hands/ID)")
    parser.add_argument("--db", default=DEFAULT_URL, help=f"SQLAlchemy async URL (default {DEFAULT_URL})")


async def _load(url: str, hand_id: int) -> dict[str, Any] | None:
    from tuolaji.store.db import open_database
    from tuolaji.store.records import get_hand

    db = await open_database(url)
    try:
        return await get_hand(db, hand_id)
    finally:
        await db.close()


def record_setup(record: dict[str, Any]) -> RoundSetup:
    """The ``RoundSetup`` a stored hand started from."""
    from tuolaji.game.options import TableOptions
    from tuolaji.game.round import RoundSetup

    return RoundSetup.from_json(TableOptions.from_json(record["options"]), record["setup"])


def record_details(record: dict[str, Any]) -> dict[str, Any]:
    """What a replay shows, derived by replaying a ``HandRecord``: each seat's 54 cards after the deal,
    the final bid and every bid before it, dealer and trump, and every judged trick (docs/PROTOCOL.md §1)."""
    from tuolaji.cards import RANKS, SUITS, format_card
    from tuolaji.game.actions import DealCards, action_from_json
    from tuolaji.game.round import Round

    round_ = Round(record_setup(record))
    dealt: list[list[str]] = [[], [], [], []]
    for raw in record["actions"]:
        action = action_from_json(raw)
        round_.apply(action)
        if isinstance(action, DealCards):
            dealt = [[format_card(card) for card in round_.hand(seat)] for seat in range(4)]
    return {
        "hands": dealt,
        "bid": round_.bid.to_json() if round_.bid is not None else None,
        "bids": [bid.to_json() for bid in round_.bids],
        "dealer": round_.dealer,
        "trump": {
            "level": RANKS[round_.level],
            "suit": SUITS[round_.trump.suit] if round_.trump is not None else None,
        },
        "tricks": [trick.to_json() for trick in round_.tricks],
    }


def print_hand(record: dict[str, Any], out: TextIO) -> None:
    """Replay ``record`` (a ``HandRecord``) and print it trick by trick."""
    from tuolaji.game.actions import action_from_json
    from tuolaji.game.round import Round

    setup_json = record["setup"]
    setup = record_setup(record)
    write: Callable[[str], object] = lambda line: out.write(line + "\n")  # noqa: E731
    seats = ", ".join(
        f"{SEAT_NAMES[seat['seat']]}={seat['nickname'] or 'bot:' + str(seat['bot'])}" for seat in record["seats"]
    )
    write(f"hand {record['id']} (table {record['table_id']}, hand {record['number']}), seed {setup.seed}")
    write(f"seats: {seats}; preset {setup.options.preset}, level {setup_json['level']}")
    round_ = Round(setup)
    tricks = 0
    for raw in record["actions"]:
        action = action_from_json(raw)
        for event in round_.apply(action):
            data = event.to_json()
            kind = data["type"]
            if kind == "bid":
                write(
                    f"  {data['kind']}: {SEAT_NAMES[data['seat']]} shows {data['count']}× level card of {data['suit']}"
                )
            elif kind == "bidding_closed":
                write(f"dealer {SEAT_NAMES[data['dealer']]}, trump {data['trump_suit']}, level {data['level']}")
            elif kind == "trick":
                tricks += 1
                trick = data["trick"]
                plays = " | ".join(f"{SEAT_NAMES[play['seat']]} {' '.join(play['cards'])}" for play in trick["plays"])
                extra = f" ×{trick['multiplier']}" if trick["multiplier"] > 1 else ""
                write(
                    f"trick {tricks:2}: {plays}  → {SEAT_NAMES[trick['winner']]} "
                    f"({trick['points']} pts{extra}; score {data['score']})"
                )
            elif kind in ("pass", "retract", "remind", "timeout", "autoplay", "laogai", "laogai_retract"):
                details = {key: value for key, value in data.items() if key != "type"}
                write(f"  {kind}: {details}")
            elif kind == "round_over":
                write(f"result: {data['result']}")
    for line in record["settlement"]:
        if line["account_id"] is not None:
            write(
                f"  {SEAT_NAMES[line['seat']]} {line['nickname']}: "
                f"積分 {line['points_delta']:+d} → {line['points']}, "
                f"silver {line['silver_delta']:+d} → {line['silver']}"
            )


def run(args: argparse.Namespace) -> int:
    """Print hand ``args.id`` from ``args.db``; 1 if there is no such hand."""
    record = asyncio.run(_load(args.db, args.id))
    if record is None:
        print(f"no hand {args.id} in {args.db}", file=sys.stderr)
        return 1
    print_hand(record, sys.stdout)
    return 0
