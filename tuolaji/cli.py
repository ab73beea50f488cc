"""The ``tuolaji`` command: ``simulate``, ``serve``, ``replay``, ``arena``, ``admin``.

Each subcommand lives in the module of its layer, which provides ``add_arguments(parser)`` and
``run(args) -> int``; this file only wires them up. Only the chosen command's layer is imported, so
``tuolaji simulate`` does not load the server.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS: dict[str, tuple[str, str]] = {
    "simulate": ("tuolaji.game.simulate", "play whole hands with random-legal players and summarise them"),
    "serve": ("tuolaji.server.serve", "run the game server (HTTP + WebSocket, SQLite by default)"),
    "replay": ("tuolaji.server.hand_history", "print a stored hand trick by trick"),
    "arena": ("tuolaji.bots.arena", "duplicate matches between two bots"),
    "admin": ("tuolaji.server.admin_cli", "an operator's commands on the database (audit, grant, revoke)"),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``only``, just that command's layer is imported and given its options."""
    parser = argparse.ArgumentParser(prog="tuolaji", description="Four-deck Tractor (四副牌拖拉機).")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module_name, summary) in COMMANDS.items():
        sub = commands.add_parser(name, help=summary, description=summary)
        if only is None or name == only:
            module = importlib.import_module(module_name)
            module.add_arguments(sub)
            sub.set_defaults(module=module)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    command = next((word for word in arguments if not word.startswith("-")), None)
    args = build_parser(command if command in COMMANDS else None).parse_args(arguments)
    result: int = args.module.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
