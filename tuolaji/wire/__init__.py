"""Everything that crosses a socket or a node, mirroring docs/PROTOCOL.md.

``inbound`` is what clients may send (the schema table, §2.2), checking its values with ``fields``;
``outbound`` builds what the server sends (messages and errors, §2.3, §2.5), ``views`` encodes a
hand's views and events, ``values`` the game's values (cards, suits) as JSON; ``nodes`` is what nodes
send each other (§3). Import the module you need: this package imports none of them.
"""
