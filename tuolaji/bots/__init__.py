"""Bots: ``make_bot(name, seed).choose(view) -> action``, from exactly what the seat sees.

``random`` (alias ``easy``) plays uniformly random legal moves; ``heuristic`` (``normal``) bids and
plays with card counting and intent, fast enough for auto-play (託管); ``search`` (``hard``) runs
determinized Monte-Carlo search over the heuristic. ``tuolaji arena`` (:mod:`tuolaji.bots.arena`)
plays them against each other in duplicate.
"""

from __future__ import annotations

from typing import Any

from tuolaji.bots.base import Bot
from tuolaji.bots.heuristic import HeuristicBot
from tuolaji.bots.random_bot import RandomBot

BOT_NAMES = ("random", "heuristic", "search")
ALIASES = {"easy": "random", "normal": "heuristic", "hard": "search"}


def canonical_name(name: str) -> str:
    """The bot called ``name`` or by its level (``easy``, ``normal``, ``hard``); ``ValueError``
    naming it for an unknown one."""
    key = ALIASES.get(name, name)
    if key not in BOT_NAMES:
        raise ValueError(f"unknown bot {name!r}: expected one of {', '.join(BOT_NAMES)} or {', '.join(ALIASES)}")
    return key


def make_bot(name: str, seed: int = 0, **options: Any) -> Bot:
    """The bot called ``name`` (or its alias), deterministic for ``seed``.

    ``search`` takes ``budget_ms`` (time budget per move, default 300), ``horizon_tricks`` and
    ``candidates`` (see :mod:`tuolaji.bots.search`). Unknown names and options raise ``ValueError``.
    """
    key = canonical_name(name)
    if key == "search":
        from tuolaji.bots.search import SearchBot

        return SearchBot(seed, **options)
    if options:
        raise ValueError(f"bot {name!r} takes no options, got {', '.join(sorted(options))}")
    if key == "random":
        return RandomBot(seed)
    return HeuristicBot(seed)


__all__ = ["ALIASES", "BOT_NAMES", "Bot", "canonical_name", "make_bot"]
