"""``tuolaji serve``: run the game server under uvicorn (SQLite file by default).

The options are :class:`~tuolaji.server.config.ServerConfig`'s fields, each declared once there
with its flag, default, help and allowed values; :func:`add_arguments` turns them into argparse
options and :func:`config_from_args` back into a config.
"""

from __future__ import annotations

import argparse
import gc
import logging
import socket
from collections.abc import Callable
from typing import Any

from tuolaji.native import build
from tuolaji.server.config import Option, ServerConfig, options
from tuolaji.server.deadlines import Config, http_protocol
from tuolaji.server.logs import configure

WS_MAX_BYTES = 1024 * 1024
"""Frames above this close the socket (1009); above 16 KiB they are refused with ``too_large``."""


def flag_of(name: str, option: Option) -> str:
    """The command-line flag of field ``name``: the option's own, or ``--`` and the name with dashes."""
    return option.flag or "--" + name.replace("_", "-")


def help_of(option: Option, kind: type[Any], default: Any) -> str:
    """The option's help with its ``default`` (as ``--help`` shows it, ``%`` escaped for argparse)."""
    if kind is bool:
        return option.help.replace("%", "%%")
    if option.shown:
        shown = option.shown
    else:
        value = default // option.unit if option.unit != 1 else default
        shown = f"{value:g}" if isinstance(value, float) else str(value)
    return f"{option.help} (default {shown})".replace("%", "%%")


def argument_type(option: Option, kind: type[Any]) -> Callable[[str], Any]:
    """An argparse type for the option: its parse, with a refusal argparse reports naming the flag."""

    def parse(text: str) -> Any:
        try:
            return option.parse(text, kind)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``tuolaji serve``: one per :class:`ServerConfig` field. An option not given is
    left out of the parsed namespace, so the field keeps its default (:func:`config_from_args`)."""
    defaults = ServerConfig()
    for field, option, kind in options():
        flag = flag_of(field.name, option)
        shown = help_of(option, kind, getattr(defaults, field.name))
        common: dict[str, Any] = {"dest": field.name, "default": argparse.SUPPRESS, "help": shown}
        if kind is bool:  # a flag turns its option on, or off when it is on by default (--no-metrics)
            parser.add_argument(flag, action="store_false" if getattr(defaults, field.name) else "store_true", **common)
        else:
            choices = option.choices or None
            metavar = option.metavar or (None if choices else flag.removeprefix("--").replace("-", "_").upper())
            parser.add_argument(flag, type=argument_type(option, kind), choices=choices, metavar=metavar, **common)


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    """The config of the parsed options: the fields given on the command line, defaults for the rest."""
    given = {field.name: getattr(args, field.name) for field, _, _ in options() if hasattr(args, field.name)}
    return ServerConfig(**given)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; SIGTERM or Ctrl-C restarts gracefully (the tables' logs keep every hand)."""
    config = config_from_args(args)
    configure(config.log_level, config.log_format, config.node_id)
    if build() != "compiled":
        logging.getLogger("tuolaji.serve").warning(
            "the rules and bots are not compiled: the search bot takes 2.5 to 3 times --search-budget-ms per "
            "move (tuolaji/native.py; reinstall with mypyc)",
            extra={"build": build()},
        )
    gc.set_threshold(*config.gc_thresholds)
    serve(config)
    return 0


def serve(config: ServerConfig) -> None:
    """Run the app for ``config`` under uvicorn until it stops."""
    import uvicorn

    from tuolaji.server.app import create_app
    from tuolaji.server.heap import freeze_start_up
    from tuolaji.server.wsframes import TextFramesProtocol

    app = create_app(config)

    class Server(uvicorn.Server):
        """uvicorn, telling the app before it closes the sockets (``server_restarting``)."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            freeze_start_up()  # the tables restored, the node serving: kept out of later collections

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            await app.prepare_shutdown()
            await super().shutdown(sockets)

    server = Server(
        Config(
            app,
            header_timeout=config.header_timeout,
            http=http_protocol(),
            timeout_keep_alive=config.keep_alive_timeout,
            limit_concurrency=config.max_connections or None,
            host=config.host,
            port=config.port,
            ws=TextFramesProtocol,
            ws_max_size=WS_MAX_BYTES,
            ws_per_message_deflate=config.ws_deflate,
            log_level=config.log_level,
            log_config=None,  # uvicorn's records go through the server's own log lines (tuolaji.server.logs)
            lifespan="on",
            proxy_headers=False,
            server_header=False,
        )
    )
    server.run()
