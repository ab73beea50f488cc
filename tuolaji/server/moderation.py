"""What the moderators' console's orders do on this node (every node hears every order): a ban
closes the account's connection here, a mute silences its phrases, a notice reaches every client
here, a drain order naming this node drains it, and the node running a table a moderator closes
closes it."""

from __future__ import annotations

import logging

from tuolaji.server.clients import Clients
from tuolaji.server.hosting import Hosting
from tuolaji.wire.orders import CloseOrder, DrainOrder, NoticeSent, Order, Sanctioned

log = logging.getLogger(__name__)


class Moderation:
    """Carries the console's orders out on this node (the bus's :class:`~tuolaji.server.bus.Orders`)."""

    def __init__(self, clients: Clients, hosting: Hosting) -> None:
        self.clients = clients
        self.hosting = hosting

    def on_order(self, order: Order) -> None:
        """An order for every node; each part does its share here."""
        node = self.hosting.bus.node_id
        match order:
            case Sanctioned():
                self.clients.on_sanctioned(order)
            case NoticeSent():
                self.clients.announce(order)
            case DrainOrder(target, on, now) if target == node:
                if on:
                    self.hosting.drain.start(now)
                else:
                    self.hosting.drain.stop()
            case CloseOrder(table_id, reason):
                if self.hosting.close_table(table_id, reason):
                    log.info(
                        "closed by a moderator", extra={"table": table_id, "reason": reason, "action": "close_table"}
                    )
