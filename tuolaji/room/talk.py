"""The room's talk: a seated person's quick phrase reaches everyone at the table (spectators only
listen), so many at a time (:class:`~tuolaji.room.phrases.PhraseLimiter`)."""

from __future__ import annotations

from tuolaji.room.outbox import Outbox
from tuolaji.room.phrases import PhraseLimiter
from tuolaji.room.state import Refused, TableData


class Talk:
    """Quick phrases at one table."""

    def __init__(self, data: TableData, outbox: Outbox) -> None:
        self._data = data
        self._outbox = outbox
        self.limiter = PhraseLimiter()

    def say(self, client: str, phrase: str) -> None:
        """``client``'s player says ``phrase`` (an id of :data:`~tuolaji.room.phrases.PHRASES`);
        :class:`~tuolaji.room.state.Refused` if not seated or too many too fast."""
        data = self._data
        index = data.seated(client)
        player = data.seats[index].player
        assert player is not None
        limiter = self.limiter
        wait = limiter.take(player.id, data.now)
        if wait:
            raise Refused(
                "too_many_phrases",
                f"quick phrases: {limiter.burst} in a row, then one every {limiter.every_ms // 1000} s; wait {wait} ms",
                params={"wait_ms": wait, "table": data.id},
            )
        body = {"table_id": data.id, "seat": index, "account": player.id, "phrase": phrase}
        self._outbox.tell_all("phrase", body)
