"""The quick-match queue's data: who waits (:class:`Seeker`), in which queue (:class:`QueueKey`), as
one entry (:class:`QueueEntry`: a person, or two partners who queued together) and, once four people
were found, a match waiting for their answers (:class:`PendingMatch`).

Each has one JSON codec (``to_json`` / ``from_json``, and ``encode`` / ``decode`` for the text kept in
the queue's store). The text is canonical: the same value always gives the same text, so a store can
check that an entry is unchanged by comparing texts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Final

from tuolaji.game.options import ILLEGAL_FOLLOW_MODES
from tuolaji.room.commands import Player
from tuolaji.rules.presets import PRESETS

KINDS: Final = ILLEGAL_FOLLOW_MODES
"""The kinds of table one may queue for: 勞改 (``laogai``) or strict (``reject``), as ``illegal_follow``."""
BOT_WAITS: Final = (10, 30, 60)
"""The waits a player may choose before bots fill the empty seats, in seconds (or never: None)."""


def _text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


@dataclass(frozen=True)
class QueueKey:
    """One queue: a rules ``preset`` (``nanning``, ``guigang``, ``fourdeck``) and a ``kind`` of table."""

    preset: str
    kind: str

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise ValueError(f"unknown rules preset {self.preset!r}: expected one of {', '.join(PRESETS)} (§14)")
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind of table {self.kind!r}: expected one of {', '.join(KINDS)}")

    def to_json(self) -> dict[str, str]:
        """``{"preset", "illegal_follow"}`` (the kind is the table option it sets)."""
        return {"preset": self.preset, "illegal_follow": self.kind}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> QueueKey:
        return cls(str(data["preset"]), str(data["illegal_follow"]))


@dataclass(frozen=True)
class Seeker:
    """A person in the queue: ``player`` as tables show them, connected as ``client``, of rank title
    ``rank`` (its place in §13's table, ``rank_level``); ``avoid`` are the accounts they muted in the
    last day; ``away_ms`` when their connection closed (None: connected)."""

    player: Player
    client: str
    rank: int
    avoid: frozenset[int] = frozenset()
    away_ms: int | None = None

    @property
    def account_id(self) -> int:
        """The person's account."""
        return self.player.id

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player.to_json(),
            "client": self.client,
            "rank": self.rank,
            "avoid": sorted(self.avoid),
            "away_ms": self.away_ms,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seeker:
        away = data.get("away_ms")
        return cls(
            Player.from_json(data["player"]),
            str(data["client"]),
            int(data["rank"]),
            frozenset(int(account) for account in data.get("avoid", ())),
            None if away is None else int(away),
        )


@dataclass(frozen=True)
class QueueEntry:
    """One place in a queue: a person, or two partners who queued together (``seekers``), waiting
    since ``since_ms``. ``bots_after_ms``: how long they wait for people before ``bot``s fill the
    empty seats (None: never). ``not_before_ms``: no match before then (a player who left matched
    tables early waits longer). ``pair_code``: the first of two partners waits for the second, who
    brings this code (the entry is not matched meanwhile)."""

    id: str
    key: QueueKey
    seekers: tuple[Seeker, ...]
    since_ms: int
    bots_after_ms: int | None = None
    bot: str = "heuristic"
    not_before_ms: int = 0
    pair_code: str | None = None

    @property
    def people(self) -> int:
        """How many people the entry holds (1 or 2)."""
        return len(self.seekers)

    @property
    def accounts(self) -> tuple[int, ...]:
        """The accounts of its people."""
        return tuple(seeker.account_id for seeker in self.seekers)

    @property
    def away_since_ms(self) -> int | None:
        """Since when one of its people is away (the earliest), or None when all are connected."""
        times = [seeker.away_ms for seeker in self.seekers if seeker.away_ms is not None]
        return min(times) if times else None

    def seeker(self, account_id: int) -> Seeker | None:
        """The person of ``account_id`` in this entry."""
        return next((seeker for seeker in self.seekers if seeker.account_id == account_id), None)

    def with_seeker(self, account_id: int, client: str | None, away_ms: int | None = None) -> QueueEntry:
        """The entry with ``account_id`` connected as ``client`` (None: kept), away since ``away_ms``."""
        seekers = tuple(
            replace(seeker, client=client or seeker.client, away_ms=away_ms)
            if seeker.account_id == account_id
            else seeker
            for seeker in self.seekers
        )
        return replace(self, seekers=seekers)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "key": self.key.to_json(),
            "seekers": [seeker.to_json() for seeker in self.seekers],
            "since_ms": self.since_ms,
            "bots_after_ms": self.bots_after_ms,
            "bot": self.bot,
            "not_before_ms": self.not_before_ms,
            "pair_code": self.pair_code,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> QueueEntry:
        bots_after, code = data.get("bots_after_ms"), data.get("pair_code")
        seekers = tuple(Seeker.from_json(item) for item in data["seekers"])
        if not 1 <= len(seekers) <= 2:
            raise ValueError(f"a queue entry holds one or two people, not {len(seekers)}")
        return cls(
            str(data["id"]),
            QueueKey.from_json(data["key"]),
            seekers,
            int(data["since_ms"]),
            None if bots_after is None else int(bots_after),
            str(data.get("bot", "heuristic")),
            int(data.get("not_before_ms", 0)),
            None if code is None else str(code),
        )

    def encode(self) -> str:
        """Its canonical text (the store's form)."""
        return _text(self.to_json())

    @classmethod
    def decode(cls, text: str) -> QueueEntry:
        """The entry :meth:`encode` wrote."""
        return cls.from_json(json.loads(text))


@dataclass(frozen=True)
class PendingMatch:
    """Four people found for one table (``entries``), each asked to answer by ``deadline_ms``;
    ``bot``: the bots that fill the seats left (None: four people)."""

    id: str
    key: QueueKey
    entries: tuple[QueueEntry, ...]
    deadline_ms: int
    bot: str | None = None

    @property
    def seekers(self) -> tuple[Seeker, ...]:
        """Its people, entry by entry."""
        return tuple(seeker for entry in self.entries for seeker in entry.seekers)

    @property
    def accounts(self) -> tuple[int, ...]:
        """Its people's accounts."""
        return tuple(seeker.account_id for seeker in self.seekers)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "key": self.key.to_json(),
            "entries": [entry.to_json() for entry in self.entries],
            "deadline_ms": self.deadline_ms,
            "bot": self.bot,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PendingMatch:
        bot = data.get("bot")
        return cls(
            str(data["id"]),
            QueueKey.from_json(data["key"]),
            tuple(QueueEntry.from_json(item) for item in data["entries"]),
            int(data["deadline_ms"]),
            None if bot is None else str(bot),
        )

    def encode(self) -> str:
        """Its canonical text (the store's form)."""
        return _text(self.to_json())

    @classmethod
    def decode(cls, text: str) -> PendingMatch:
        """The match :meth:`encode` wrote."""
        return cls.from_json(json.loads(text))
