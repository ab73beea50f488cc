"""Bots: ``make_bot(name, seed).choose(view) -> action``, from exactly what the seat sees.

``random`` (alias ``easy``) plays uniformly random legal moves; ``heuristic`` (``normal``) bids and
plays with card counting and intent, fast enough for auto-play (託管); ``search`` (``hard``) runs
determinized Monte-Carlo search over the heuristic. ``tuolaji arena`` (:mod:`tuolaji.bots.arena`)
plays them against each other in duplicate.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from tuolaji.bots.base import Bot
from tuolaji.bots.players.heuristic import HeuristicBot
from tuolaji.bots.players.random_player import RandomBot

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

    ``search`` takes the fields of :class:`~tuolaji.bots.montecarlo.config.SearchConfig` as options:
    ``budget_ms`` (time budget per move, default 300), ``horizon_tricks``, ``candidates``, …
    Unknown names and options raise ``ValueError``.
    """
    key = canonical_name(name)
    if key == "search":
        from tuolaji.bots.players.search import SearchBot, SearchConfig

        fields = {field.name for field in dataclasses.fields(SearchConfig)}
        unknown = sorted(set(options) - fields)
        if unknown:
            raise ValueError(f"bot {name!r} has no option {', '.join(unknown)}")
        return SearchBot(seed, SearchConfig(**options))
    if options:
        raise ValueError(f"bot {name!r} takes no options, got {', '.join(sorted(options))}")
    if key == "random":
        return RandomBot(seed)
    return HeuristicBot(seed)


__all__ = ["ALIASES", "BOT_NAMES", "Bot", "canonical_name", "make_bot"]
