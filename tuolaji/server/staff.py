"""Who may use the moderators' console: the bearer of a token whose account holds a role
(``tuolaji admin grant``). Everyone else — players, guests — is refused with 403 ``forbidden``
naming the rule and the role it needs (``needs``); without a token, 401 ``auth_required``."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Final

from starlette.requests import Request

from tuolaji.server.api_accounts import AccountsApi
from tuolaji.server.http_io import HttpError
from tuolaji.store.accounts import AccountData
from tuolaji.store.audit import Actor
from tuolaji.store.roles import role_of

log = logging.getLogger(__name__)

CONSOLE_RULE: Final = (
    "the moderators' console is for accounts with the moderator or admin role "
    "(given by the operator: tuolaji admin grant NAME --role moderator|admin); players and guests may not use it"
)
ADMIN_RULE: Final = "{what} needs the admin role (a moderator may not)"


@dataclass(frozen=True)
class Staff:
    """A moderator or an admin, as the console sees them."""

    account: AccountData
    role: str

    @property
    def actor(self) -> Actor:
        """Who the audit says acted."""
        return Actor(self.account.id, self.account.nickname, self.role)

    def did(
        self, action: str, *, account: int | None = None, table: str | None = None, target: str | None = None
    ) -> None:
        """Log what this moderator or admin did: one line, the same message each time, with who
        (``actor``, ``role``), what (``action``) and to whom (``account``, ``table`` or another ``target``);
        the audit holds the whole of it."""
        fields = {"actor": self.account.id, "role": self.role, "action": action, "account": account, "table": table}
        log.info("staff action", extra={**fields, "target": target})


class StaffGate:
    """Lets staff in; ``sessions`` reads the bearer (a banned account is refused there)."""

    def __init__(self, sessions: AccountsApi) -> None:
        self.sessions = sessions

    async def staff(self, request: Request, admin_for: str | None = None) -> Staff:
        """The request's moderator or admin; ``admin_for`` names what needs the admin role, if it does."""
        account = await self.sessions.bearer(request)
        role = await role_of(self.sessions.accounts.db, account.id)
        if role is None:
            raise HttpError(403, "forbidden", CONSOLE_RULE, fields={"needs": "moderator"})
        if admin_for is not None and role != "admin":
            raise HttpError(403, "forbidden", ADMIN_RULE.format(what=admin_for), fields={"needs": "admin"})
        return Staff(account, role)
