"""Commands for a :class:`~tuolaji.room.table.Table`: what clients ask, and what the server's shell
tells it (a clock fired, a bot answered, a hand was stored, the table was restored). Plain data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from tuolaji.cards import Card
from tuolaji.game.actions import Action
from tuolaji.game.settlement import Balance


@dataclass(frozen=True)
class Player:
    """A person as the table shows them: account id, nickname, rank and wealth titles (R42), and the
    account's ``balance`` when it sat down or was last settled (what an escape would cost it, R43;
    None when not known)."""

    id: int
    nickname: str
    rank: str = ""
    wealth: str = ""
    balance: Balance | None = None

    def shown(self) -> dict[str, Any]:
        """How the table's summary shows the person (``TableSummary`` seats' ``account``)."""
        return {"id": self.id, "nickname": self.nickname, "rank": self.rank, "wealth": self.wealth}

    def to_json(self) -> dict[str, Any]:
        """The whole record (log entries, messages between nodes): :meth:`shown` and the balance."""
        data = self.shown()
        if self.balance is not None:
            data.update(points=self.balance.points, silver=self.balance.silver)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Player:
        balance = Balance(int(data["points"]), int(data["silver"])) if "points" in data and "silver" in data else None
        rank, wealth = str(data.get("rank", "")), str(data.get("wealth", ""))
        return cls(int(data["id"]), str(data["nickname"]), rank, wealth, balance)


@dataclass(frozen=True)
class TurnStamp:
    """Where the table stood when a slow bot was asked: the table's hand ``number``, the ``seat`` to
    move and how many ``actions`` the round had."""

    number: int
    seat: int
    actions: int


@dataclass(frozen=True)
class Join:
    """``player`` (connected as ``client``) sits down at an empty ``seat``; ``invite`` is the code of a
    private table's invite link."""

    client: str
    player: Player
    seat: int
    ref: str | int | None = None
    invite: str | None = None


@dataclass(frozen=True)
class PlayNow:
    """``player`` sits at seat 0 of this new table, three ``bot``s fill the rest, and the match starts."""

    client: str
    player: Player
    bot: str
    ref: str | int | None = None


@dataclass(frozen=True)
class SeatMatch:
    """A quick match (快速開始) seats its people at this new table: ``people[seat]`` is the client and
    player of that seat, or None for a ``bot``; everyone is ready, and the match starts."""

    people: tuple[tuple[str, Player] | None, ...]
    bot: str


@dataclass(frozen=True)
class Watch:
    """``client`` watches as a spectator (no hidden cards); ``invite`` as for :class:`Join`."""

    client: str
    ref: str | int | None = None
    invite: str | None = None


@dataclass(frozen=True)
class MakePrivate:
    """The new table is private: hidden from the lobby, entered with the invite ``code`` (or by its
    ``creator``, the account that made it). Sent by the shell before the creator sits down."""

    code: str
    creator: int


@dataclass(frozen=True)
class MakePublic:
    """``client``'s player, the table's creator, lists the private table in the lobby."""

    client: str
    ref: str | int | None = None


@dataclass(frozen=True)
class Say:
    """``client``'s player says the quick phrase ``phrase`` (an id of ``tuolaji.room.phrases.PHRASES``)."""

    client: str
    phrase: str
    ref: str | int | None = None


@dataclass(frozen=True)
class Leave:
    """``client`` leaves its seat (during a hand: an escape, R43) or stops watching; with ``escape``
    False it leaves only if that is no escape (else it is refused with ``would_escape``)."""

    client: str
    ref: str | int | None = None
    escape: bool = True


@dataclass(frozen=True)
class AddBot:
    client: str
    seat: int
    bot: str
    ref: str | int | None = None


@dataclass(frozen=True)
class RemoveBot:
    client: str
    seat: int
    ref: str | int | None = None


@dataclass(frozen=True)
class Start:
    """``client``'s player presses start (R20, R47)."""

    client: str
    ref: str | int | None = None


@dataclass(frozen=True)
class RequestBid:
    client: str
    suit: int
    count: int
    ref: str | int | None = None


@dataclass(frozen=True)
class RequestPass:
    """``client``'s player says 不叫 in the bid window after the deal (R19)."""

    client: str
    ref: str | int | None = None


@dataclass(frozen=True)
class RequestPlay:
    """A lead or follow; ``confirmed`` answers a ``confirm_laogai`` refusal (``warn_wrong_follow`` tables)."""

    client: str
    cards: tuple[Card, ...]
    confirmed: bool = False
    ref: str | int | None = None


@dataclass(frozen=True)
class RequestRemind:
    client: str
    ref: str | int | None = None


@dataclass(frozen=True)
class RequestRetract:
    client: str
    ref: str | int | None = None


@dataclass(frozen=True)
class RequestAutoPlay:
    client: str
    on: bool
    ref: str | int | None = None


@dataclass(frozen=True)
class Attach:
    """A seated account's new connection ``client`` (reload, reconnect, another node: R46)."""

    client: str
    account_id: int


@dataclass(frozen=True)
class Sync:
    """``client`` missed a message (a gap in ``seq``): send it the full picture again."""

    client: str
    ref: str | int | None = None


@dataclass(frozen=True)
class Detach:
    """The connection ``client`` closed."""

    client: str


@dataclass(frozen=True)
class ClockFired:
    """The shell's timer for the last :class:`Arm` ran out."""


CLOCK_FIRED: Final = ClockFired()
"""The one :class:`ClockFired` the shell posts (it has no fields)."""


@dataclass(frozen=True)
class BotAnswer:
    """A slow bot's move for the turn at ``stamp``; ``action`` None when its thinking failed."""

    stamp: TurnStamp
    action: Action | None


@dataclass(frozen=True)
class HandSettled:
    """The hand ``number`` is stored (``hand_id``) with its ``settlement`` lines; ``accounts`` are the
    seated accounts' new JSON (by seat) and ``players`` how the table shows them now."""

    number: int
    hand_id: int | None
    settlement: tuple[dict[str, Any], ...] = ()
    accounts: dict[int, dict[str, Any]] = field(default_factory=dict)
    players: dict[int, Player] = field(default_factory=dict)


@dataclass(frozen=True)
class Resume:
    """The table was restored from its log (a restart, or another node took it over): nobody is
    connected; every seat keeps its player, and clocks start afresh (R46, docs/RULES-NOTES.md)."""


@dataclass(frozen=True)
class CloseTable:
    """A moderator closes the table (docs/PROTOCOL.md §4): a hand under way is dissolved without a
    settlement or an escape, and everyone at the table is told ``reason`` (a code the client words)."""

    reason: str


@dataclass(frozen=True)
class Refresh:
    """The seated players' titles changed (e.g. reloaded after a restore)."""

    players: dict[int, Player]


Command = (
    Join
    | PlayNow
    | SeatMatch
    | Watch
    | Leave
    | AddBot
    | RemoveBot
    | Start
    | RequestBid
    | RequestPass
    | RequestPlay
    | RequestRemind
    | RequestRetract
    | RequestAutoPlay
    | Attach
    | Sync
    | Detach
    | ClockFired
    | BotAnswer
    | HandSettled
    | Resume
    | Refresh
    | MakePrivate
    | MakePublic
    | Say
    | CloseTable
)
