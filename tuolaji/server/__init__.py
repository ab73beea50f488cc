"""The game server: Starlette app (HTTP + WebSocket), lobby, table actors, clocks (docs/PROTOCOL.md)."""
