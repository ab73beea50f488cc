"""``tuolaji serve``: run the game server under uvicorn (SQLite file by default)."""

from __future__ import annotations

import argparse
import logging
import socket
from collections.abc import Callable

from tuolaji.native import build
from tuolaji.server.config import DEFAULT_SEARCH_BUDGET_MS, ServerConfig, default_bot_workers
from tuolaji.server.http_guard import parse_networks
from tuolaji.server.limits import ACCOUNT_RATE_PER_MINUTE, GUESTS_PER_HOUR
from tuolaji.store.accounts import DEFAULT_SESSION_DAYS, DEFAULT_START_SILVER
from tuolaji.store.db import DEFAULT_URL
from tuolaji.store.passwords import HASH_QUEUE, HASH_THREADS

GC_THRESHOLD = 20_000
WS_MAX_BYTES = 1024 * 1024
"""Frames above this close the socket (1009); above 16 KiB they are refused with ``too_large``."""


def _above_zero(kind: type[int] | type[float], zero: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite int or float (``kind``) above 0 (or ≥ 0 with ``zero``), with an
    error naming the input."""
    noun = "an integer" if kind is int else "a number"

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {noun}") from None
        if not (value >= 0 if zero else value > 0) or value == float("inf"):
            raise argparse.ArgumentTypeError(f"{text!r}: must be {'0 or more' if zero else 'above 0'}")
        return value

    return parse


def _networks(text: str) -> tuple[str, ...]:
    """An argparse type: comma-separated IP addresses or networks, each checked."""
    specs = tuple(spec.strip() for spec in text.split(",") if spec.strip())
    try:
        parse_networks(specs)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return specs


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``tuolaji serve``."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    parser.add_argument(
        "--db",
        default=DEFAULT_URL,
        help=f"SQLAlchemy async URL (default {DEFAULT_URL}; e.g. postgresql+asyncpg://user:pw@host/db)",
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        default=None,
        help="Redis of a card room on many nodes (e.g. redis://127.0.0.1:6379/0): nodes on one PostgreSQL and "
        "one Redis serve any client and take over the tables of a node that dies (default: this node alone)",
    )
    parser.add_argument(
        "--node-name",
        default=None,
        help="this node's name among the nodes (letters and digits; default: random)",
    )
    parser.add_argument(
        "--lease-seconds",
        type=_above_zero(float),
        default=5.0,
        help="with --redis: a table's lease; another node takes a dead node's tables over after it (default 5)",
    )
    parser.add_argument(
        "--start-silver",
        type=int,
        default=DEFAULT_START_SILVER,
        help="silver of a new account (default 1000)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        help="seconds a bot or 託管 seat waits before moving (default 0.6)",
    )
    parser.add_argument(
        "--bot-workers",
        type=_above_zero(int),
        default=default_bot_workers(),
        help="worker processes in which search bots think (default: CPU cores - 1, at least 1)",
    )
    parser.add_argument(
        "--search-budget-ms",
        type=_above_zero(float),
        default=DEFAULT_SEARCH_BUDGET_MS,
        help=f"the search bot's time budget per move in ms (default {DEFAULT_SEARCH_BUDGET_MS:g})",
    )
    parser.add_argument(
        "--next-hand-delay", type=float, default=3.0, help="seconds between settlement and the next deal"
    )
    parser.add_argument(
        "--reconnect-grace",
        type=float,
        default=60.0,
        help="after a restart, seconds a table waiting for players keeps the seats of people not back yet "
        "(default 60; a table in a match keeps them until the hand after the restart ends, R46)",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="seed of the match seeds, for reproducible tables (default: random)"
    )
    parser.add_argument(
        "--account-rate",
        type=float,
        default=ACCOUNT_RATE_PER_MINUTE,
        help="guest/register/login requests per minute per client address, in bursts of as many "
        f"(default {ACCOUNT_RATE_PER_MINUTE:g}; 0 turns the limit off)",
    )
    parser.add_argument(
        "--guests-per-hour",
        type=_above_zero(float, zero=True),
        default=GUESTS_PER_HOUR,
        help=f"guest accounts a client address may create per hour (default {GUESTS_PER_HOUR:g}; 0: no limit)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        type=_networks,
        default=(),
        help="comma-separated addresses or networks of trusted reverse proxies, whose X-Forwarded-For "
        "names the client (default: none, the header is ignored)",
    )
    parser.add_argument(
        "--session-days",
        type=_above_zero(float),
        default=DEFAULT_SESSION_DAYS,
        help=f"days a session token stays valid after log-in (default {DEFAULT_SESSION_DAYS:g})",
    )
    parser.add_argument(
        "--hash-threads",
        type=_above_zero(int),
        default=HASH_THREADS,
        help=f"threads hashing passwords with argon2, off the event loop (default {HASH_THREADS})",
    )
    parser.add_argument(
        "--hash-queue",
        type=_above_zero(int, zero=True),
        default=HASH_QUEUE,
        help=f"password checks that may wait for a thread; more are answered 503 (default {HASH_QUEUE})",
    )
    parser.add_argument(
        "--hello-timeout",
        type=_above_zero(float),
        default=10.0,
        help="seconds a new WebSocket connection has to authenticate with hello (default 10)",
    )
    parser.add_argument(
        "--max-connections-per-address",
        type=int,
        default=20,
        help="open WebSocket connections one client address may have (default 20; 0: no limit)",
    )
    parser.add_argument(
        "--outbox-kib",
        type=_above_zero(int),
        default=1024,
        help="KiB of messages a client may fall behind by before it is disconnected (default 1024)",
    )
    parser.add_argument(
        "--ws-deflate",
        action="store_true",
        help="offer permessage-deflate compression on WebSockets (less traffic, more CPU per message)",
    )
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; SIGTERM or Ctrl-C restarts gracefully (the tables' logs keep every hand)."""
    import gc

    import uvicorn

    from tuolaji.server.app import create_app

    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if build() != "compiled":
        logging.getLogger("tuolaji.serve").warning(
            "the rules and bots run as a %s build, not compiled: the search bot takes 2.5 to 3 times "
            "--search-budget-ms per move (tuolaji/native.py; reinstall with mypyc)",
            build(),
        )
    if args.node_name is not None and not args.node_name.isalnum():
        raise SystemExit(f"tuolaji serve: --node-name {args.node_name!r}: use letters and digits only")
    config = ServerConfig(
        db_url=args.db,
        redis_url=args.redis,
        lease_seconds=args.lease_seconds,
        **({"node_id": args.node_name} if args.node_name else {}),
        start_silver=args.start_silver,
        bot_delay=args.bot_delay,
        next_hand_delay=args.next_hand_delay,
        reconnect_grace=args.reconnect_grace,
        seed=args.seed,
        account_rate_per_minute=args.account_rate,
        account_burst=args.account_rate,
        bot_workers=args.bot_workers,
        search_budget_ms=args.search_budget_ms,
        forwarded_allow_ips=args.forwarded_allow_ips,
        hello_timeout=args.hello_timeout,
        connections_per_address=max(0, args.max_connections_per_address),
        outbox_bytes=int(args.outbox_kib) * 1024,
        guests_per_hour=args.guests_per_hour,
        session_days=args.session_days,
        hash_threads=args.hash_threads,
        hash_queue=args.hash_queue,
    )
    # Fewer, larger cyclic-GC passes: views and messages are short-lived, and gen-0 collections
    # every 700 allocations show up as latency spikes under load (docs/BENCHMARKS.md, Server).
    gc.set_threshold(GC_THRESHOLD, 20, 20)
    app = create_app(config)

    class Server(uvicorn.Server):
        """uvicorn, telling the app before it closes the sockets (``server_restarting``)."""

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            await app.prepare_shutdown()
            await super().shutdown(sockets)

    server = Server(
        uvicorn.Config(
            app,
            host=args.host,
            port=args.port,
            ws="websockets-sansio",
            ws_max_size=WS_MAX_BYTES,
            ws_per_message_deflate=args.ws_deflate,
            log_level=args.log_level,
            lifespan="on",
            proxy_headers=False,
            server_header=False,
        )
    )
    server.run()
    return 0
