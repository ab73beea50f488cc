"""What clients may send (docs/PROTOCOL.md §2.2): the schema of every client message type.

:func:`parse_client_message` turns one text frame into a validated :class:`ClientMessage` or raises
:class:`ProtocolError` with the error code and a message naming the problem.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from tuolaji.bots import canonical_name
from tuolaji.matching.entries import BOT_WAITS, KINDS
from tuolaji.room.commands import (
    AddBot,
    Command,
    Join,
    Leave,
    MakePublic,
    Player,
    RemoveBot,
    RequestAutoPlay,
    RequestBid,
    RequestPass,
    RequestPlay,
    RequestRemind,
    RequestRetract,
    Say,
    Start,
    Sync,
    Watch,
)
from tuolaji.room.phrases import PHRASES
from tuolaji.rules.presets import PRESETS
from tuolaji.wire.fields import CardFieldError, bool_field, cards_field, int_field, suit_field
from tuolaji.wire.json_limits import JsonLimitError, load_json
from tuolaji.wire.outbound import PROTOCOL_VERSION

MAX_FRAME_BYTES: Final = 16 * 1024
"""Frames above this are refused with ``too_large`` (the connection stays open)."""
MAX_BOT_NAME: Final = 40
DEFAULT_BOT: Final = "heuristic"
"""The bot of ``add_bot`` and ``play_now`` without a name (docs/PROTOCOL.md §2.2)."""


class ProtocolError(ValueError):
    """A refused client message: ``code`` and ``params`` as in docs/PROTOCOL.md §2.5, ``ref`` the message's ``id``."""

    def __init__(
        self,
        code: str,
        message: str,
        ref: str | int | None = None,
        rule: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.ref = ref
        self.rule = rule
        self.params: dict[str, Any] = dict(params or {})


Validator = Callable[[str, object], object]


def _string(max_length: int, min_length: int = 1) -> Validator:
    def check(name: str, value: object) -> object:
        if not isinstance(value, str) or not min_length <= len(value) <= max_length:
            raise ValueError(f"field {name!r} must be a string of {min_length}–{max_length} characters")
        return value

    return check


def _integer(low: int, high: int) -> Validator:
    return lambda name, value: int_field(name, value, low, high)


def _bot(name: str, value: object) -> object:
    if not isinstance(value, str) or len(value) > MAX_BOT_NAME:
        raise ValueError(f'field {name!r} must be a bot name (at most {MAX_BOT_NAME} characters), e.g. "hard"')
    try:
        return canonical_name(value)
    except ValueError as error:
        raise ValueError(f"field {name!r}: {error}") from None


def _object(name: str, value: object) -> object:
    if not isinstance(value, dict):
        raise ValueError(f"field {name!r} must be a JSON object")
    return value


def _phrase(name: str, value: object) -> object:
    if not isinstance(value, str) or value not in PHRASES:
        raise ValueError(f"field {name!r} must be a quick phrase id: one of {', '.join(PHRASES)}")
    return value


MAX_INVITE: Final = 64
"""The longest invite code taken (the server makes 16-character ``secrets.token_urlsafe`` codes)."""
INVITE_CODE: Final = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_INVITE}}}")
"""What an invite code looks like (anything else is no table's code)."""


def _invite(name: str, value: object) -> object:
    if not isinstance(value, str) or not INVITE_CODE.fullmatch(value):
        raise ValueError(f"field {name!r} must be an invite code: 1–{MAX_INVITE} of A–Z a–z 0–9 _ -")
    return value


MAX_AVOID: Final = 200
"""Accounts a ``quick_match`` may ask not to be seated with (the sender's mutes of the last day)."""


def _one_of(choices: tuple[str, ...]) -> Validator:
    def check(name: str, value: object) -> object:
        if not isinstance(value, str) or value not in choices:
            raise ValueError(f"field {name!r} must be one of {', '.join(map(repr, choices))}")
        return value

    return check


def _bots_after(name: str, value: object) -> object:
    if value is not None and (isinstance(value, bool) or value not in BOT_WAITS):
        raise ValueError(f"field {name!r} must be null (never) or one of {', '.join(map(str, BOT_WAITS))} (seconds)")
    return value


def _accounts(name: str, value: object) -> object:
    if not isinstance(value, list) or len(value) > MAX_AVOID:
        raise ValueError(f"field {name!r} must be a list of at most {MAX_AVOID} account ids")
    return frozenset(int_field(name, item, 1, 2**53) for item in value)


_TABLE_ID = _string(40)
_INVITE = _invite
_SEAT = _integer(0, 3)


@dataclass(frozen=True)
class Hello:
    """``hello``: authenticate with ``token``."""

    token: str


@dataclass(frozen=True)
class Ping:
    """``ping``: answered with ``pong``."""


@dataclass(frozen=True)
class Subscribe:
    """``lobby``: send me the lobby list and its changes (``on``), or stop."""

    on: bool


@dataclass(frozen=True)
class NewTable:
    """``create_table`` (``bot`` None: the creator sits at ``seat``) or ``play_now`` (the creator sits
    at seat 0, three ``bot`` seats, and the match starts). ``options`` override the defaults and are
    checked by ``TableOptions``."""

    options: dict[str, Any]
    private: bool
    seat: int
    bot: str | None


@dataclass(frozen=True)
class TakeSeat:
    """``join`` (at ``seat``) or ``watch`` (``seat`` None) a table named by its id (``table``), its
    invite code (``invite``), or both."""

    table: str | None
    invite: str | None
    seat: int | None

    @property
    def watching(self) -> bool:
        """Whether it is a ``watch``."""
        return self.seat is None


@dataclass(frozen=True)
class SeekMatch:
    """``quick_match`` (快速開始): queue for a table of ``preset`` and ``kind`` (field ``illegal_follow``);
    after ``bots_after`` seconds (None: never) ``bot``s fill the seats people did not take; never sit
    with the accounts of ``avoid``. ``pair``: wait for a partner, who comes with the code the answer
    gives; ``partner``: join the partner who has that code (the rest is theirs)."""

    preset: str
    kind: str
    bots_after: int | None
    bot: str
    avoid: frozenset[int]
    pair: bool
    partner: str | None


@dataclass(frozen=True)
class CancelMatch:
    """``cancel_match``: leave the quick-match queue (with one's partner)."""


@dataclass(frozen=True)
class AcceptMatch:
    """``accept_match``: the answer to ``match_found`` (the match's id ``match``)."""

    match: str


LobbyRequest = Hello | Ping | Subscribe | NewTable | TakeSeat | SeekMatch | CancelMatch | AcceptMatch
"""What a client asks of the lobby itself (every other message goes to its table)."""

Fields = dict[str, tuple[Validator, bool]]
TableCommand = Callable[[str, dict[str, Any], "str | int | None"], Command]
"""Builds the table command of a message from the sender's client id, its fields and its ``id``."""
LobbyBuilder = Callable[[dict[str, Any]], LobbyRequest]
"""Builds the lobby request of a message from its fields."""


@dataclass(frozen=True)
class MessageType:
    """A client message type: its ``fields`` (validator, required) and either the ``lobby`` request it
    is or, for the requests a seat or a spectator makes at its table, the ``table`` command it becomes."""

    fields: Fields
    table: TableCommand | None = None
    lobby: LobbyBuilder | None = None


SCHEMAS: Final[dict[str, MessageType]] = {
    "hello": MessageType({"token": (_string(200, 0), True)}, lobby=lambda f: Hello(f["token"])),
    "ping": MessageType({}, lobby=lambda f: Ping()),
    "lobby": MessageType({"on": (bool_field, True)}, lobby=lambda f: Subscribe(f["on"])),
    "create_table": MessageType(
        {"options": (_object, False), "seat": (_SEAT, False), "private": (bool_field, False)},
        lobby=lambda f: NewTable(f.get("options", {}), f.get("private", False), f.get("seat", 0), None),
    ),
    "play_now": MessageType(
        {"options": (_object, False), "bot": (_bot, False), "private": (bool_field, False)},
        lobby=lambda f: NewTable(f.get("options", {}), f.get("private", False), 0, f.get("bot", DEFAULT_BOT)),
    ),
    "join": MessageType(
        {"table": (_TABLE_ID, False), "seat": (_SEAT, True), "invite": (_INVITE, False)},
        lobby=lambda f: TakeSeat(f.get("table"), f.get("invite"), f["seat"]),
    ),
    "watch": MessageType(
        {"table": (_TABLE_ID, False), "invite": (_INVITE, False)},
        lobby=lambda f: TakeSeat(f.get("table"), f.get("invite"), None),
    ),
    "quick_match": MessageType(
        {
            "preset": (_one_of(tuple(PRESETS)), False),
            "illegal_follow": (_one_of(KINDS), False),
            "bots_after": (_bots_after, False),
            "bot": (_bot, False),
            "avoid": (_accounts, False),
            "pair": (bool_field, False),
            "partner": (_INVITE, False),
        },
        lobby=lambda f: SeekMatch(
            f.get("preset", "nanning"),
            f.get("illegal_follow", "laogai"),
            f.get("bots_after"),
            f.get("bot", DEFAULT_BOT),
            f.get("avoid", frozenset()),
            f.get("pair", False),
            f.get("partner"),
        ),
    ),
    "cancel_match": MessageType({}, lobby=lambda f: CancelMatch()),
    "accept_match": MessageType({"match": (_string(40), True)}, lobby=lambda f: AcceptMatch(f["match"])),
    "leave": MessageType(
        {"escape": (bool_field, False)}, lambda client, f, ref: Leave(client, ref, f.get("escape", True))
    ),
    "add_bot": MessageType(
        {"seat": (_SEAT, True), "bot": (_bot, False)},
        lambda client, f, ref: AddBot(client, f["seat"], f.get("bot", DEFAULT_BOT), ref),
    ),
    "remove_bot": MessageType({"seat": (_SEAT, True)}, lambda client, f, ref: RemoveBot(client, f["seat"], ref)),
    "start": MessageType({}, lambda client, f, ref: Start(client, ref)),
    "bid": MessageType(
        {"suit": (suit_field, True), "count": (_integer(1, 4), True)},
        lambda client, f, ref: RequestBid(client, f["suit"], f["count"], ref),
    ),
    "pass": MessageType({}, lambda client, f, ref: RequestPass(client, ref)),
    "play": MessageType(
        {"cards": (cards_field, True), "laogai": (bool_field, False)},
        lambda client, f, ref: RequestPlay(client, f["cards"], f.get("laogai", False), ref),
    ),
    "remind": MessageType({}, lambda client, f, ref: RequestRemind(client, ref)),
    "sync": MessageType({}, lambda client, f, ref: Sync(client, ref)),
    "retract": MessageType({}, lambda client, f, ref: RequestRetract(client, ref)),
    "autoplay": MessageType({"on": (bool_field, True)}, lambda client, f, ref: RequestAutoPlay(client, f["on"], ref)),
    "make_public": MessageType({}, lambda client, f, ref: MakePublic(client, ref)),
    "phrase": MessageType({"phrase": (_phrase, True)}, lambda client, f, ref: Say(client, f["phrase"], ref)),
}
"""Every client message type. ``v``, ``type`` and ``id`` are implied. A ``bot`` field arrives as the
bot's canonical name (``hard`` becomes ``search``). ``join`` and ``watch`` name the table by its id
(``table``), its invite code (``invite``, a private table) or both; the lobby checks one is there."""


@dataclass(frozen=True)
class ClientMessage:
    """A validated client message: ``fields`` hold converted values (suits as ints, cards as kinds);
    ``request`` is what it asks of the lobby (None: a message for the client's table)."""

    type: str
    fields: dict[str, Any]
    id: str | int | None = None
    text: str = ""
    """The frame it came from (forwarded as is to a table on another node)."""
    request: LobbyRequest | None = None


def _message_id(data: dict[str, Any]) -> str | int | None:
    ref = data.get("id")
    if ref is None:
        return None
    where = {"reason": "bad_field", "field": "id"}
    if isinstance(ref, bool) or not isinstance(ref, str | int) or (isinstance(ref, str) and len(ref) > 64):
        message = "field 'id' must be a string of at most 64 characters or an integer"
        raise ProtocolError("bad_message", message, params=where)
    if isinstance(ref, int) and not -(2**53) <= ref <= 2**53:
        raise ProtocolError("bad_message", "field 'id' is out of range", params=where)
    return ref


def parse_client_message(text: str) -> ClientMessage:
    """Validate one text frame against :data:`SCHEMAS`; raise :class:`ProtocolError` if it is refused."""
    size = len(text.encode())
    if size > MAX_FRAME_BYTES:
        limits = {"bytes": size, "limit": MAX_FRAME_BYTES}
        raise ProtocolError("too_large", f"message of {size} bytes; the limit is {MAX_FRAME_BYTES}", params=limits)
    try:
        data = load_json(text)
    except JsonLimitError as error:
        if error.reason == "not_json":
            raise ProtocolError("bad_json", str(error)) from None
        raise ProtocolError("bad_message", str(error), params=error.params) from None
    if not isinstance(data, dict):
        message = f"a message must be a JSON object, got {type(data).__name__}"
        raise ProtocolError("bad_message", message, params={"reason": "not_object"})
    ref = _message_id(data)
    if data.get("v") != PROTOCOL_VERSION or isinstance(data.get("v"), bool):
        message = f"field 'v' must be {PROTOCOL_VERSION} (protocol version)"
        raise ProtocolError("bad_message", message, ref, params={"reason": "bad_field", "field": "v"})
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in SCHEMAS:
        message = f"unknown message type {kind!r}; known: {', '.join(sorted(SCHEMAS))}"
        raise ProtocolError("unknown_type", message, ref, params={"type": kind if isinstance(kind, str) else None})
    schema = SCHEMAS[kind].fields
    extra = sorted(set(data) - set(schema) - {"v", "type", "id"})
    if extra:
        message = f"{kind}: unknown field(s) {', '.join(map(repr, extra))}"
        raise ProtocolError(
            "bad_message", message, ref, params={"reason": "unknown_field", "type": kind, "fields": extra}
        )
    fields: dict[str, Any] = {}
    for name, (validator, required) in schema.items():
        where = {"type": kind, "field": name}
        if name not in data:
            if required:
                raise ProtocolError(
                    "bad_message", f"{kind}: missing field {name!r}", ref, params={"reason": "missing_field", **where}
                )
            continue
        try:
            fields[name] = validator(name, data[name])
        except CardFieldError as error:
            raise ProtocolError("bad_card", f"{kind}: {error}", ref, params=where) from None
        except ValueError as error:
            raise ProtocolError(
                "bad_message", f"{kind}: {error}", ref, params={"reason": "bad_field", **where}
            ) from None
    build = SCHEMAS[kind].lobby
    return ClientMessage(kind, fields, ref, text, build(fields) if build is not None else None)


def table_command(client: str, player: Player | None, msg: ClientMessage) -> Command | None:
    """The table command a validated client message from ``client`` becomes (None: not a table
    message); a ``join`` needs the ``player`` who sits down."""
    kind, fields, ref = msg.type, msg.fields, msg.id
    if kind == "join":
        return Join(client, player, fields["seat"], ref, fields.get("invite")) if player is not None else None
    if kind == "watch":
        return Watch(client, ref, fields.get("invite"))
    build = SCHEMAS[kind].table
    return build(client, fields, ref) if build is not None else None
