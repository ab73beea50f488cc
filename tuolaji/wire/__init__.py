"""Everything that crosses a socket or a node, mirroring docs/PROTOCOL.md.

``fields`` checks the JSON values of cards, suits, ints and booleans; ``inbound`` is what clients may
send (the schema table); ``views`` encodes what the server sends of a hand (views and events).
"""
