"""Where this node's clients are: the table each one sits at or watches, and the one it asked for.

A client's place changes only through typed data: what the lobby itself asked (a join or watch on
its way, a spectator leaving, the seat the bus knows at ``hello``) and the place change a table's
delivery carries (:class:`~tuolaji.wire.nodes.AtTable`, :class:`~tuolaji.wire.nodes.LeftTable`,
:class:`~tuolaji.wire.nodes.TurnedAway`). The lobby routes a client's table messages by it, and
attaches its clients again when their table moves to another node.
"""

from __future__ import annotations

from dataclasses import dataclass

from tuolaji.wire.nodes import AtTable, LeftTable, PlaceChange, TurnedAway


@dataclass(frozen=True)
class Place:
    """Where a connection of this node is: the table, and whether it only watches."""

    table_id: str
    watching: bool


class Placement:
    """Every client's place and pending request on this node (plain data, no I/O)."""

    def __init__(self) -> None:
        self._places: dict[str, Place] = {}
        self._pending: dict[str, str] = {}
        self._unheard: set[str] = set()
        """Clients sent to their table (attach, watch) that it has not answered yet."""

    def apply(self, client: str, change: PlaceChange | None) -> None:
        """A delivery for ``client`` moved it (``change`` None: it did not).

        A ``table`` message seats the client (or makes it a spectator) and answers its request; a
        ``left`` message from its table takes it away; a refusal of its request ends that request.
        """
        match change:
            case AtTable(table_id, seat):
                place = self._places.get(client)
                if place is None or place.table_id != table_id or place.watching != (seat is None):
                    self._places[client] = Place(table_id, seat is None)
                self._pending.pop(client, None)
                self._unheard.discard(client)
            case LeftTable(table_id):
                place = self._places.get(client)
                if place is not None and place.table_id == table_id:
                    del self._places[client]
                    self._unheard.discard(client)
            case TurnedAway(table_id):
                if self._pending.get(client) == table_id:
                    del self._pending[client]

    def at(self, client: str) -> Place | None:
        """Where ``client`` sits or watches."""
        return self._places.get(client)

    def asked(self, client: str) -> str | None:
        """The table ``client`` asked to join or watch, while it has not answered."""
        return self._pending.get(client)

    def busy(self, client: str) -> bool:
        """Whether ``client`` is at a table or on its way to one."""
        return client in self._places or client in self._pending

    def where(self, client: str) -> str | None:
        """The table ``client`` is at, else the one it asked for."""
        place = self._places.get(client)
        return place.table_id if place is not None else self._pending.get(client)

    def ask(self, client: str, table_id: str) -> None:
        """``client`` asked ``table_id`` to let it sit or watch."""
        self._pending[client] = table_id

    def cancel(self, client: str) -> None:
        """``client``'s request never reached a table."""
        self._pending.pop(client, None)

    def seated(self, client: str, table_id: str) -> None:
        """``client``'s account sits at ``table_id`` (the bus said so at its ``hello``); it attaches
        there, and waits to hear from the table."""
        self._places[client] = Place(table_id, False)
        self._unheard.add(client)

    def unheard(self, client: str) -> None:
        """``client`` attaches again to its table (which moved): it waits to hear from the table."""
        if client in self._places:
            self._unheard.add(client)

    def waiting(self, client: str) -> str | None:
        """The table ``client`` was sent to and has not heard from yet (a ``table`` message), if any."""
        place = self._places.get(client)
        return place.table_id if place is not None and client in self._unheard else None

    def stop_watching(self, client: str) -> None:
        """``client`` leaves the table it watches (a spectator's leave always succeeds)."""
        place = self._places.get(client)
        if place is not None and place.watching:
            del self._places[client]

    def forget(self, client: str) -> set[str]:
        """``client`` disconnected: the tables that must hear it (where it was, and where it asked to be)."""
        tables: set[str] = set()
        self._unheard.discard(client)
        place = self._places.pop(client, None)
        if place is not None:
            tables.add(place.table_id)
        asked = self._pending.pop(client, None)
        if asked is not None:
            tables.add(asked)
        return tables

    def at_table(self, table_id: str) -> list[tuple[str, Place]]:
        """The clients at ``table_id`` and their places."""
        return [(client, place) for client, place in self._places.items() if place.table_id == table_id]

    def tables(self) -> set[str]:
        """Every table a client of this node is at."""
        return {place.table_id for place in self._places.values()}
