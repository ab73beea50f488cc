"""Carries a client's messages to its table: posted to the table's host when the table runs here,
sent through the bus to the node that runs it otherwise."""

from __future__ import annotations

from tuolaji.room.commands import Player
from tuolaji.server.bus import BusDown
from tuolaji.server.connection import Connection
from tuolaji.server.hosting import Hosting
from tuolaji.server.tablehost import player_of
from tuolaji.wire.inbound import ClientMessage, table_command
from tuolaji.wire.nodes import Envelope


class Courier:
    """The way from this node's clients to every table."""

    def __init__(self, hosting: Hosting) -> None:
        self.hosting = hosting

    async def send(self, table_id: str, envelope: Envelope) -> bool:
        """Deliver ``envelope`` to the table's host, here or on its node; False if nobody runs it now."""
        if self.hosting.on_command(table_id, envelope):
            return True
        try:
            return await self.hosting.bus.send_command(table_id, envelope)
        except BusDown:
            return False

    def route_now(self, conn: Connection, table_id: str, msg: ClientMessage) -> bool:
        """Post a table message to its table's host if the table runs here (True); False if not."""
        host = self.hosting.running(table_id)
        if host is None:
            return False
        command = table_command(conn.id, _joining(conn, msg), msg)
        if command is not None:
            host.post(command)
        return True

    async def route(self, conn: Connection, table_id: str, msg: ClientMessage, quiet: bool = False) -> bool:
        """Hand a table message to its table, here or on its node; False (and, unless ``quiet``,
        ``table_moving``) if nobody runs it now."""
        if self.route_now(conn, table_id, msg):
            return True
        if await self.send(table_id, Envelope("message", conn.id, _joining(conn, msg), msg.text)):
            return True
        if not quiet:
            conn.error(
                "table_moving",
                f"{msg.type}: the table is moving to another server; try again",
                msg.id,
                params={"table": table_id, "type": msg.type},
            )
        return False


def _joining(conn: Connection, msg: ClientMessage) -> Player | None:
    """Who sits down, for a ``join`` (only a join shows who); None for any other message."""
    assert conn.account is not None
    return player_of(conn.account) if msg.type == "join" else None
