"""Accounts and sessions: guests, registration and log-in (argon2), opaque session tokens.

Balances (積分 and silver) change only through :func:`tuolaji.store.records.settle_hand`.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from tuolaji.game.settlement import rank_title, wealth_title
from tuolaji.store.db import Database
from tuolaji.store.models import Account, SessionToken

DEFAULT_START_SILVER = 1000
"""Silver of a new account (§13, a server option)."""
GUEST_PREFIX = "guest-"
NICKNAME_MAX = 20
PASSWORD_MIN = 6
PASSWORD_MAX = 128

_hasher = PasswordHasher()


class AccountError(ValueError):
    """A refused account operation; ``code`` is the protocol's error code (docs/PROTOCOL.md §1)."""

    code = "bad_request"


class BadNickname(AccountError):
    """A nickname that breaks the rules of docs/PROTOCOL.md §1."""

    code = "bad_nickname"


class BadPassword(AccountError):
    """A password that is too short or too long."""

    code = "bad_password"


class NicknameTaken(AccountError):
    """A nickname someone already has (case-insensitive)."""

    code = "nickname_taken"


class BadCredentials(AccountError):
    """An unknown nickname or a wrong password (not told apart)."""

    code = "bad_credentials"


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
    if not isinstance(nickname, str):
        raise BadNickname("nickname must be a string")
    name = unicodedata.normalize("NFC", nickname)
    if not 1 <= len(name) <= NICKNAME_MAX:
        raise BadNickname(f"nickname must be 1–{NICKNAME_MAX} characters")
    if name != name.strip():
        raise BadNickname("nickname must not start or end with a space")
    if any(unicodedata.category(char).startswith("C") for char in name):
        raise BadNickname("nickname must not contain control characters")
    if name.lower().startswith(GUEST_PREFIX):
        raise BadNickname(f"nicknames starting with {GUEST_PREFIX!r} are kept for guests")
    return name


def check_password(password: object) -> str:
    """The password if it is 6–128 characters; :class:`BadPassword` otherwise."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise BadPassword(f"password must be a string of {PASSWORD_MIN}–{PASSWORD_MAX} characters")
    return password


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    """Account and session operations on a :class:`Database`."""

    def __init__(self, db: Database, start_silver: int = DEFAULT_START_SILVER) -> None:
        self.db = db
        self.start_silver = start_silver

    async def _insert(self, nickname: str, password_hash: str | None, guest: bool) -> tuple[str, AccountData]:
        token = secrets.token_urlsafe(32)
        async with self.db.writing(), self.db.sessions.begin() as session:
            row = Account(
                nickname=nickname,
                nickname_key=nickname.lower(),
                password_hash=password_hash,
                guest=guest,
                points=0,
                silver=self.start_silver,
                hands_played=0,
                hands_won=0,
            )
            session.add(row)
            await session.flush()
            session.add(SessionToken(token_hash=_token_hash(token), account_id=row.id))
            data = AccountData.of(row)
        return token, data

    async def create_guest(self) -> tuple[str, AccountData]:
        """A new guest account and its session token."""
        for _ in range(10):
            try:
                return await self._insert(GUEST_PREFIX + secrets.token_hex(3), None, True)
            except IntegrityError:
                continue
        raise AccountError("could not find a free guest nickname")

    async def register(self, nickname: object, password: object) -> tuple[str, AccountData]:
        """A new account with a password; raises :class:`AccountError` subclasses."""
        name = check_nickname(nickname)
        secret = check_password(password)
        password_hash = await asyncio.to_thread(_hasher.hash, secret)
        try:
            return await self._insert(name, password_hash, False)
        except IntegrityError:
            raise NicknameTaken(f"nickname {name!r} is taken") from None

    async def login(self, nickname: object, password: object) -> tuple[str, AccountData]:
        """A new session token for a registered account; :class:`BadCredentials` otherwise."""
        if not isinstance(nickname, str) or not isinstance(password, str):
            raise BadCredentials("unknown nickname or wrong password")
        key = unicodedata.normalize("NFC", nickname).lower()
        async with self.db.sessions() as session:
            row = (await session.execute(select(Account).where(Account.nickname_key == key))).scalar_one_or_none()
        if row is None or row.password_hash is None:
            raise BadCredentials("unknown nickname or wrong password")
        try:
            await asyncio.to_thread(_hasher.verify, row.password_hash, password)
        except (VerificationError, InvalidHashError):
            raise BadCredentials("unknown nickname or wrong password") from None
        token = secrets.token_urlsafe(32)
        async with self.db.writing(), self.db.sessions.begin() as session:
            session.add(SessionToken(token_hash=_token_hash(token), account_id=row.id))
        return token, AccountData.of(row)

    async def by_token(self, token: str) -> AccountData | None:
        """The account a session token belongs to, or None."""
        async with self.db.sessions() as session:
            row = (
                await session.execute(
                    select(Account)
                    .join(SessionToken, SessionToken.account_id == Account.id)
                    .where(SessionToken.token_hash == _token_hash(token))
                )
            ).scalar_one_or_none()
        return None if row is None else AccountData.of(row)

    async def logout(self, token: str) -> None:
        """Forget a session token."""
        async with self.db.writing(), self.db.sessions.begin() as session:
            await session.execute(delete(SessionToken).where(SessionToken.token_hash == _token_hash(token)))

    async def get(self, account_id: int) -> AccountData | None:
        """An account by id, or None."""
        async with self.db.sessions() as session:
            row = await session.get(Account, account_id)
        return None if row is None else AccountData.of(row)
