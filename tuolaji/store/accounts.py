"""Accounts and sessions: guests, registration and log-in (argon2), opaque session tokens.

Balances (積分 and silver) change only through the ledger (:mod:`tuolaji.store.ledger`): the start
grant here, settlements in :func:`tuolaji.store.records.settle_hand`, an admin's corrections.
Nicknames are unique on their skeleton (:mod:`tuolaji.store.nicknames`); passwords are hashed off
the event loop (:mod:`tuolaji.store.passwords`); a session token expires ``session_days`` after it
was issued and a logged-out token is deleted.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from tuolaji.game.settlement import rank_title, wealth_title
from tuolaji.store.db import Database
from tuolaji.store.ledger import post
from tuolaji.store.models import Account, SessionToken, utcnow
from tuolaji.store.nicknames import GUEST_PREFIX, NICKNAME_MAX, NicknameError, guest_nickname, skeleton
from tuolaji.store.nicknames import check_nickname as _check_nickname
from tuolaji.store.passwords import (
    HashingBusy,
    PasswordError,
    PasswordHashing,
    common_passwords,
    encodes_as_utf8,
)
from tuolaji.store.passwords import check_password as _check_password
from tuolaji.store.sanctions import aware, standing
from tuolaji.wire.moderation import refusal

DEFAULT_START_SILVER: Final = 1000
"""Silver of a new account (§13, a server option)."""
DEFAULT_SESSION_DAYS: Final = 30.0
"""Days a session token stays valid after it is issued (a server option)."""
LOGIN_NICKNAME_MAX: Final = 4 * NICKNAME_MAX
"""Longer nicknames in a log-in are refused before any lookup (no valid nickname is that long)."""
ID_CHUNK: Final = 500
"""Ids per ``IN (…)`` list when many accounts are read at once (well under every driver's parameter limit)."""

__all__ = [
    "DEFAULT_SESSION_DAYS",
    "DEFAULT_START_SILVER",
    "GUEST_PREFIX",
    "AccountData",
    "AccountError",
    "Accounts",
    "BadCredentials",
    "BadNickname",
    "BadPassword",
    "Banned",
    "NicknameTaken",
    "ServerBusy",
    "check_nickname",
    "check_password",
    "login_key",
    "session_id",
]


class AccountError(ValueError):
    """A refused account operation; ``code`` is the protocol's error code (docs/PROTOCOL.md §1),
    ``reason`` (if any) the rule that refused it."""

    code = "bad_request"

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason

    @property
    def fields(self) -> dict[str, Any] | None:
        """What the HTTP error object carries beside its code and message (None: nothing)."""
        return None


class BadNickname(AccountError):
    """A nickname that breaks the rules of docs/PROTOCOL.md §1."""

    code = "bad_nickname"


class BadPassword(AccountError):
    """A password that breaks a rule of :func:`tuolaji.store.passwords.check_password`."""

    code = "bad_password"


class NicknameTaken(AccountError):
    """A nickname someone already has (case-insensitive)."""

    code = "nickname_taken"


class BadCredentials(AccountError):
    """An unknown nickname or a wrong password (not told apart to the client; ``account`` says,
    for the log-in back-off, whether the nickname named an account with a password)."""

    code = "bad_credentials"

    def __init__(self, message: str = "unknown nickname or wrong password", *, account: bool = False) -> None:
        super().__init__(message)
        self.account = account


class Banned(AccountError):
    """The account is banned (docs/PROTOCOL.md §4): sign-in, its tokens and guests made from it are
    refused, saying why (a reason code) and until when (``until_ms``, None: for good)."""

    code = "banned"

    def __init__(self, reason: str, until_ms: int | None) -> None:
        text, self.params = refusal("ban", reason, until_ms)
        super().__init__(text, reason)

    @property
    def fields(self) -> dict[str, Any] | None:
        return self.params


class ServerBusy(AccountError):
    """Too many password checks are running or waiting (the HTTP API answers 503)."""

    code = "busy"


@dataclass(frozen=True)
class AccountData:
    """A snapshot of an account's public numbers."""

    id: int
    nickname: str
    guest: bool
    points: int
    silver: int
    hands_played: int
    hands_won: int

    @classmethod
    def of(cls, row: Account) -> AccountData:
        """The snapshot of an ``Account`` row."""
        return cls(row.id, row.nickname, row.guest, row.points, row.silver, row.hands_played, row.hands_won)

    def to_json(self) -> dict[str, Any]:
        """The protocol's ``Account`` object: numbers plus titles and bases (R42, §13)."""
        rank, point_base = rank_title(self.points)
        wealth, silver_base = wealth_title(self.silver)
        return {
            "id": self.id,
            "nickname": self.nickname,
            "guest": self.guest,
            "points": self.points,
            "rank": {"title": rank, "base": point_base},
            "silver": self.silver,
            "wealth": {"title": wealth, "base": silver_base},
            "hands_played": self.hands_played,
            "hands_won": self.hands_won,
        }


def check_nickname(nickname: object) -> str:
    """The nickname, NFC-normalised; raise :class:`BadNickname` saying what is wrong."""
    try:
        return _check_nickname(nickname)
    except NicknameError as error:
        raise BadNickname(str(error), error.reason) from None


def check_password(password: object, nickname: str | None = None) -> str:
    """The password if it passes the rules of :func:`tuolaji.store.passwords.check_password`;
    :class:`BadPassword` naming the rule otherwise."""
    try:
        return _check_password(password, nickname)
    except PasswordError as error:
        raise BadPassword(str(error), error.reason) from None


def login_key(nickname: object) -> str | None:
    """The key a log-in with ``nickname`` is counted under (its skeleton), or None if it cannot be
    any account's nickname (then the log-in fails without a lookup)."""
    if not isinstance(nickname, str) or not 1 <= len(nickname) <= LOGIN_NICKNAME_MAX or not encodes_as_utf8(nickname):
        return None
    return skeleton(nickname)


def session_id(token: str) -> str:
    """The id under which a session token is stored (its SHA-256 hex digest); never the token itself."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Accounts:
    """Account and session operations on a :class:`Database`.

    ``session_days``: how long a token stays valid after it was issued; ``hashing``: where argon2
    runs (a default :class:`PasswordHashing` if not given; :meth:`close` stops it).
    """

    def __init__(
        self,
        db: Database,
        start_silver: int = DEFAULT_START_SILVER,
        *,
        session_days: float = DEFAULT_SESSION_DAYS,
        hashing: PasswordHashing | None = None,
    ) -> None:
        self.db = db
        self.start_silver = start_silver
        self.session_life = timedelta(days=session_days)
        self.hashing = hashing or PasswordHashing()
        common_passwords()  # read the list now, not on the event loop at the first registration

    def close(self) -> None:
        """Stop the password threads (after the checks already admitted)."""
        self.hashing.close()

    async def _insert(self, nickname: str | None, password_hash: str | None) -> tuple[str, AccountData]:
        """A new account named ``nickname`` (None: a guest, named by its id) and its session token."""
        token = secrets.token_urlsafe(32)
        async with self.db.writing("a new account"), self.db.sessions.begin() as session:
            guest = nickname is None
            # A guest's name needs its id: it has a name no nickname can have until the row has one.
            name = nickname if nickname is not None else f"\x02{token}"[:NICKNAME_MAX]
            row = Account(
                nickname=name,
                nickname_key=skeleton(name) if not guest else name,
                password_hash=password_hash,
                guest=guest,
                points=0,
                silver=0,
                hands_played=0,
                hands_won=0,
            )
            session.add(row)
            await session.flush()
            if guest:
                row.nickname = guest_nickname(row.id)
                row.nickname_key = skeleton(row.nickname)
                await session.flush()
            post(session, row, "start_grant", 0, self.start_silver)
            session.add(SessionToken(token_hash=session_id(token), account_id=row.id))
            data = AccountData.of(row)
        return token, data

    async def create_guest(self) -> tuple[str, AccountData]:
        """A new guest account (named :func:`~tuolaji.store.nicknames.guest_nickname` of its id) and
        its session token."""
        return await self._insert(None, None)

    async def _hash(self, password: str) -> str:
        try:
            return await self.hashing.hash(password)
        except HashingBusy as error:
            raise ServerBusy(str(error)) from None

    async def register(self, nickname: object, password: object) -> tuple[str, AccountData]:
        """A new account with a password; raises :class:`AccountError` subclasses."""
        name = check_nickname(nickname)
        secret = check_password(password, name)
        password_hash = await self._hash(secret)
        try:
            return await self._insert(name, password_hash)
        except IntegrityError:
            raise NicknameTaken(f"nickname {name!r} is taken (or one that looks the same)") from None

    async def _find(self, nickname: str, key: str) -> Account | None:
        """The account ``nickname`` names: by its skeleton ``key``, or by the key of before
        ``0003_nickname_skeleton`` (NFC, lower case) for an account that kept it; the exact nickname first."""
        name = unicodedata.normalize("NFC", nickname)
        legacy = name.lower()
        async with self.db.sessions() as session:
            rows = (
                (await session.execute(select(Account).where(Account.nickname_key.in_({key, legacy})))).scalars().all()
            )
        exact = [row for row in rows if row.nickname.casefold() == name.casefold()]
        by_key = [row for row in rows if row.nickname_key == key]
        found = exact or by_key
        return found[0] if found else None

    async def login(self, nickname: object, password: object) -> tuple[str, AccountData]:
        """A new session token for a registered account; :class:`BadCredentials` otherwise."""
        key = login_key(nickname)
        if key is None or not isinstance(nickname, str):
            raise BadCredentials()
        row = await self._find(nickname, key)
        if row is None or row.password_hash is None:
            raise BadCredentials()
        if not isinstance(password, str) or not encodes_as_utf8(password):
            raise BadCredentials(account=True)
        try:
            matches = await self.hashing.verify(row.password_hash, password)
        except HashingBusy as error:
            raise ServerBusy(str(error)) from None
        if not matches:
            raise BadCredentials(account=True)
        await self.check_not_banned(row.id)
        token = secrets.token_urlsafe(32)
        async with self.db.writing("a log-in"), self.db.sessions.begin() as session:
            await session.execute(
                delete(SessionToken).where(
                    SessionToken.account_id == row.id, SessionToken.created_at <= utcnow() - self.session_life
                )
            )
            session.add(SessionToken(token_hash=session_id(token), account_id=row.id))
        return token, AccountData.of(row)

    async def by_token(self, token: str, now: datetime | None = None) -> AccountData | None:
        """The account a session token belongs to, or None (unknown, logged out, or issued
        ``session_days`` or more before ``now``)."""
        cutoff = (now or utcnow()) - self.session_life
        async with self.db.sessions() as session:
            row = (
                await session.execute(
                    select(Account)
                    .join(SessionToken, SessionToken.account_id == Account.id)
                    .where(SessionToken.token_hash == session_id(token), SessionToken.created_at > cutoff)
                )
            ).scalar_one_or_none()
        return None if row is None else AccountData.of(row)

    async def logout(self, token: str) -> int | None:
        """Forget a session token; the id of the account it belonged to (None if it was unknown).

        Sockets opened with the token stay open until the caller closes them: the lobby closes
        every connection whose ``session_id(token)`` this was."""
        async with self.db.writing("a log-out"), self.db.sessions.begin() as session:
            row = await session.get(SessionToken, session_id(token))
            if row is None:
                return None
            account_id = row.account_id
            await session.execute(delete(SessionToken).where(SessionToken.token_hash == row.token_hash))
        return account_id

    async def purge_sessions(self, now: datetime | None = None) -> int:
        """Delete every expired session token; how many there were."""
        cutoff = (now or utcnow()) - self.session_life
        async with self.db.writing("expired sessions purged"), self.db.sessions.begin() as session:
            result = await session.execute(delete(SessionToken).where(SessionToken.created_at <= cutoff))
        return int(getattr(result, "rowcount", 0) or 0)

    async def search(self, text: str, limit: int = 20) -> list[AccountData]:
        """Accounts by id (``12`` or ``#12``) or by nickname: the one it names (as a log-in reads it)
        first, then those whose nickname starts with it, case-insensitively; at most ``limit``."""
        wanted = text.strip()
        digits = wanted.removeprefix("#")
        found: dict[int, AccountData] = {}
        if digits.isascii() and digits.isdigit() and len(digits) <= 10:
            account = await self.get(int(digits))
            if account is not None:
                found[account.id] = account
        key = login_key(wanted)
        if key is not None:
            named = await self._find(wanted, key)
            if named is not None:
                found.setdefault(named.id, AccountData.of(named))
            query = (
                select(Account)
                .where(func.lower(Account.nickname).startswith(wanted.lower(), autoescape=True))
                .order_by(Account.id)
                .limit(limit)
            )
            async with self.db.sessions() as session:
                for row in (await session.execute(query)).scalars():
                    found.setdefault(row.id, AccountData.of(row))
        return list(found.values())[:limit]

    async def check_not_banned(self, account_id: int) -> None:
        """Raise :class:`Banned` (why, until when) if a ban is in force on ``account_id``."""
        ban = (await standing(self.db, account_id)).ban
        if ban is not None:
            raise Banned(ban.reason, ban.until_ms)

    async def sessions_of(self, account_id: int) -> list[dict[str, Any]]:
        """The account's live sessions, newest first: when each was issued and when it expires (never the token)."""
        cutoff = utcnow() - self.session_life
        query = (
            select(SessionToken.created_at)
            .where(SessionToken.account_id == account_id, SessionToken.created_at > cutoff)
            .order_by(SessionToken.created_at.desc())
        )
        async with self.db.sessions() as session:
            issued = [aware(moment) for moment in (await session.execute(query)).scalars()]
        return [
            {"issued_at": moment.isoformat(), "expires_at": (moment + self.session_life).isoformat()}
            for moment in issued
        ]

    async def get(self, account_id: int) -> AccountData | None:
        """An account by id, or None."""
        async with self.db.sessions() as session:
            row = await session.get(Account, account_id)
        return None if row is None else AccountData.of(row)

    async def get_many(self, account_ids: Collection[int]) -> dict[int, AccountData]:
        """The accounts of ``account_ids`` that exist, by id (one query per :data:`ID_CHUNK` ids)."""
        wanted = sorted(set(account_ids))
        found: dict[int, AccountData] = {}
        async with self.db.sessions() as session:
            for start in range(0, len(wanted), ID_CHUNK):
                chunk = wanted[start : start + ID_CHUNK]
                rows = (await session.execute(select(Account).where(Account.id.in_(chunk)))).scalars()
                found.update((row.id, AccountData.of(row)) for row in rows)
        return found
