"""``tuolaji admin``: an operator's commands on the database, run beside the nodes.

``tuolaji admin audit`` proves every account's 積分 and silver equal the sum of its ledger lines
(:mod:`tuolaji.store.ledger`); it prints the totals by cause and every mismatch, and exits 1 if
there is one. ``tuolaji admin grant NAME --role moderator|admin`` gives a registered account a role
in the moderators' console, ``tuolaji admin revoke NAME`` takes it away (both in the audit,
:mod:`tuolaji.store.roles`); an unknown name, a guest or an unknown role exits 2 saying why.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TextIO

from tuolaji.store.db import DEFAULT_URL
from tuolaji.wire.moderation import ROLES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Subcommands and options of ``tuolaji admin``."""
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    audit = actions.add_parser("audit", help="check every balance against its ledger (exit 1 on a mismatch)")
    audit.add_argument("--db", default=DEFAULT_URL, help=f"SQLAlchemy async URL (default {DEFAULT_URL})")
    grant = actions.add_parser("grant", help="give a registered account a role in the moderators' console")
    grant.add_argument("name", metavar="NAME", help="the account's nickname")
    grant.add_argument("--role", required=True, choices=ROLES, help="moderator, or admin (also corrects balances)")
    grant.add_argument("--db", default=DEFAULT_URL, help=f"SQLAlchemy async URL (default {DEFAULT_URL})")
    revoke = actions.add_parser("revoke", help="take an account's role away")
    revoke.add_argument("name", metavar="NAME", help="the account's nickname")
    revoke.add_argument("--db", default=DEFAULT_URL, help=f"SQLAlchemy async URL (default {DEFAULT_URL})")


async def _audit(url: str, out: TextIO) -> int:
    from tuolaji.store.db import open_database
    from tuolaji.store.ledger import audit

    db = await open_database(url)
    try:
        found = await audit(db)
    finally:
        await db.close()
    print(f"accounts {found.accounts}, ledger lines {found.lines}", file=out)
    for cause, (points, silver) in sorted(found.by_cause.items()):
        print(f"  {cause:<12} 積分 {points:+,}  silver {silver:+,}", file=out)
    for bad in found.mismatches:
        print(
            f"MISMATCH account {bad.account_id}: balance {bad.points} 積分 / {bad.silver} silver, "
            f"ledger {bad.ledger_points} 積分 / {bad.ledger_silver} silver",
            file=out,
        )
    print("sound: every balance equals its ledger" if found.sound else f"{len(found.mismatches)} mismatches", file=out)
    return 0 if found.sound else 1


async def _role(url: str, name: str, role: str | None, out: TextIO) -> int:
    from tuolaji.store.db import open_database
    from tuolaji.store.roles import RoleError, grant, revoke

    db = await open_database(url)
    try:
        account_id, before = await (grant(db, name, role) if role is not None else revoke(db, name))
    except RoleError as error:
        print(f"refused: {error}", file=sys.stderr)
        return 2
    finally:
        await db.close()
    was = before or "player"
    print(f"{name} (account {account_id}): {was} -> {role or 'player'}", file=out)
    return 0


def run(args: argparse.Namespace) -> int:
    """Run ``tuolaji admin ACTION``."""
    if args.action == "audit":
        return asyncio.run(_audit(args.db, sys.stdout))
    if args.action in ("grant", "revoke"):
        return asyncio.run(_role(args.db, args.name, getattr(args, "role", None), sys.stdout))
    raise AssertionError(args.action)
