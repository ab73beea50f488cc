"""The in-process players the server gives its tables: bots, 託管 and timeouts (R44–R46).

:func:`make_autoplayer` is the one place that picks a seat's in-process policy. The protocol's
default bot (``DEFAULT_BOT``, of ``add_bot`` and ``play_now`` without a name) also plays for 託管
seats and timeouts, and bids and stands in for slow bots, being fast enough to run in a table's
step. Whatever it proposes, the table (``tuolaji.room.table.legal_play``) only ever lets a legal
move through. Slow bots (:data:`~tuolaji.server.thinking.SLOW_BOTS`) think in worker processes
instead.
"""

from __future__ import annotations

from tuolaji.bots import make_bot
from tuolaji.game.driver import Chooser
from tuolaji.server.thinking import SLOW_BOTS
from tuolaji.wire.inbound import DEFAULT_BOT


def make_autoplayer(bot: str | None, seed: int) -> Chooser:
    """The in-process policy of a seat: its bot if fast; :data:`DEFAULT_BOT` for a person (託管,
    timeouts) and for a slow bot, whose bids it makes and whose move it plays if the thinking fails."""
    return make_bot(bot if bot is not None and bot not in SLOW_BOTS else DEFAULT_BOT, seed)
