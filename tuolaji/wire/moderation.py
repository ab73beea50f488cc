"""The moderators' console and players' reports on the wire (docs/PROTOCOL.md §4): the fixed lists a
client words in its reader's language, and every request body as a typed value, one parser each.

A body that breaks a rule raises :class:`BadRequest` naming the field and what it accepts; the
HTTP layer answers it ``400 bad_request``. Free text (a note, a notice) is stripped and bounded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

ROLES: Final = ("moderator", "admin")
"""The roles an account may hold (given by ``tuolaji admin grant``); an admin may do all a moderator may."""
REASONS: Final = ("cheating", "abuse", "stalling", "bot", "other")
"""Why a player is reported, banned or muted: 作弊, 辱罵/騷擾, 拖延/掛機, 外掛, 其他."""
CLOSE_REASONS: Final = ("broken", "cheating", "abuse", "maintenance", "other")
"""Why a moderator closes a table (the players are told it in their language)."""
OUTCOMES: Final = ("action_taken", "no_action", "unfounded")
"""How a moderator closes a report."""
NOTICE_KINDS: Final = ("maintenance", "message")
"""``maintenance``: the server restarts in ``minutes``; ``message``: the moderator's own words."""
SANCTIONS: Final = ("ban", "mute")
"""A ban shuts the account out (sign-in, its sessions, guests from it); a mute silences its quick phrases."""
NOTE_MAX: Final = 300
"""Longest note or notice text, in characters."""
MINUTES_MAX: Final = 60 * 24 * 366
"""Longest sanction or notice given in minutes (a year; longer is for good: ``minutes`` null)."""
NOTICE_MINUTES_MAX: Final = 24 * 60
AMOUNT_MAX: Final = 10**12
"""Largest correction of 積分 or silver either way."""


class BadRequest(ValueError):
    """A request body that breaks a rule; the message names the field and what it accepts."""


def _object(body: object) -> Mapping[str, Any]:
    if not isinstance(body, Mapping):
        raise BadRequest("the body must be a JSON object")
    return body


def _unknown(body: Mapping[str, Any], fields: tuple[str, ...]) -> None:
    extra = sorted(set(body) - set(fields))
    if extra:
        raise BadRequest(f"unknown field(s) {', '.join(map(repr, extra))}; the fields are {', '.join(fields)}")


def choice(body: Mapping[str, Any], name: str, choices: tuple[str, ...]) -> str:
    """Field ``name``: one of ``choices``."""
    value = body.get(name)
    if value not in choices:
        raise BadRequest(f"{name} must be one of {', '.join(choices)} (got {str(value)[:40]!r})")
    return str(value)


def note(body: Mapping[str, Any], name: str = "note", required: bool = False) -> str | None:
    """Field ``name``: text of at most :data:`NOTE_MAX` characters, stripped (None when absent or blank)."""
    value = body.get(name)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise BadRequest(f"{name} is required: a text of 1 to {NOTE_MAX} characters")
        return None
    if not isinstance(value, str):
        raise BadRequest(f"{name} must be a text of 1 to {NOTE_MAX} characters")
    text = value.strip()
    if len(text) > NOTE_MAX or not text.isprintable():
        raise BadRequest(f"{name} must be at most {NOTE_MAX} printable characters (got {len(text)})")
    return text


def integer(body: Mapping[str, Any], name: str, low: int, high: int, *, optional: bool = False) -> int | None:
    """Field ``name``: an integer ``low``…``high`` (None when ``optional`` and absent or null)."""
    value = body.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadRequest(f"{name} must be an integer {low}…{high} (got {str(value)[:40]!r})")
    return value


@dataclass(frozen=True)
class SanctionRequest:
    """Ban or mute an account: ``reason`` from :data:`REASONS`, a ``note``, for ``minutes`` (None: for good)."""

    reason: str
    note: str | None
    minutes: int | None

    @classmethod
    def from_json(cls, body: object) -> SanctionRequest:
        data = _object(body)
        _unknown(data, ("reason", "note", "minutes"))
        return cls(choice(data, "reason", REASONS), note(data), integer(data, "minutes", 1, MINUTES_MAX, optional=True))


@dataclass(frozen=True)
class LiftRequest:
    """Lift a ban or a mute, saying why."""

    note: str | None

    @classmethod
    def from_json(cls, body: object) -> LiftRequest:
        data = _object(body)
        _unknown(data, ("note",))
        return cls(note(data))


@dataclass(frozen=True)
class CorrectionRequest:
    """An admin's balance correction: 積分 and silver to add (negative: take), with a required reason."""

    points: int
    silver: int
    reason: str

    @classmethod
    def from_json(cls, body: object) -> CorrectionRequest:
        data = _object(body)
        _unknown(data, ("points", "silver", "reason"))
        points = integer(data, "points", -AMOUNT_MAX, AMOUNT_MAX, optional=True) or 0
        silver = integer(data, "silver", -AMOUNT_MAX, AMOUNT_MAX, optional=True) or 0
        reason = note(data, "reason", required=True)
        assert reason is not None
        return cls(points, silver, reason)


@dataclass(frozen=True)
class CloseTableRequest:
    """Close a table: ``reason`` from :data:`CLOSE_REASONS`, an optional ``note``."""

    reason: str
    note: str | None

    @classmethod
    def from_json(cls, body: object) -> CloseTableRequest:
        data = _object(body)
        _unknown(data, ("reason", "note"))
        return cls(choice(data, "reason", CLOSE_REASONS), note(data))


@dataclass(frozen=True)
class NoticeRequest:
    """A notice to everyone: ``maintenance`` in ``minutes``, or the moderator's ``text`` shown for ``minutes``."""

    kind: str
    minutes: int
    text: str | None

    @classmethod
    def from_json(cls, body: object) -> NoticeRequest:
        data = _object(body)
        _unknown(data, ("kind", "minutes", "text"))
        kind = choice(data, "kind", NOTICE_KINDS)
        minutes = integer(data, "minutes", 1, NOTICE_MINUTES_MAX)
        assert minutes is not None
        text = note(data, "text", required=kind == "message")
        return cls(kind, minutes, text)


@dataclass(frozen=True)
class DrainRequest:
    """Drain a node: between hands (``now`` false), or at once as after a lease loss; ``off`` ends a drain."""

    now: bool
    off: bool

    @classmethod
    def from_json(cls, body: object) -> DrainRequest:
        data = _object(body)
        _unknown(data, ("now", "off"))
        flags = {name: data.get(name, False) for name in ("now", "off")}
        for name, value in flags.items():
            if not isinstance(value, bool):
                raise BadRequest(f"{name} must be true or false (got {str(value)[:40]!r})")
        return cls(flags["now"], flags["off"])


@dataclass(frozen=True)
class ReportRequest:
    """A player's report of another after a hand they played together."""

    hand_id: int
    account_id: int
    reason: str
    note: str | None

    @classmethod
    def from_json(cls, body: object) -> ReportRequest:
        data = _object(body)
        _unknown(data, ("hand_id", "account_id", "reason", "note"))
        hand_id = integer(data, "hand_id", 1, 2**31 - 1)
        account_id = integer(data, "account_id", 1, 2**31 - 1)
        assert hand_id is not None and account_id is not None
        return cls(hand_id, account_id, choice(data, "reason", REASONS), note(data))


@dataclass(frozen=True)
class ReportClosing:
    """A moderator closes a report with an ``outcome`` from :data:`OUTCOMES` and an optional ``note``."""

    outcome: str
    note: str | None

    @classmethod
    def from_json(cls, body: object) -> ReportClosing:
        data = _object(body)
        _unknown(data, ("outcome", "note"))
        return cls(choice(data, "outcome", OUTCOMES), note(data))


def until_text(until_ms: int | None) -> str | None:
    """When a sanction ends, as ISO 8601 UTC (None: for good)."""
    if until_ms is None:
        return None
    return datetime.fromtimestamp(until_ms / 1000, UTC).isoformat(timespec="seconds")


def refusal(kind: str, reason: str, until_ms: int | None) -> tuple[str, dict[str, Any]]:
    """The English text and the params of the ``banned`` or ``muted`` refusal of a sanction of
    ``kind`` for ``reason`` until ``until_ms`` (docs/PROTOCOL.md §2.5): ``{"reason", "until"}``."""
    until = until_text(until_ms)
    lasting = f"until {until}" if until is not None else "for good"
    what = "this account is banned" if kind == "ban" else "your quick phrases are muted"
    return f"{what} ({reason}) {lasting}", {"reason": reason, "until": until}
