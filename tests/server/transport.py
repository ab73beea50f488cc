"""A stand-in for the socket under one of uvicorn's protocols, for tests that drive a protocol by hand."""

from __future__ import annotations

import asyncio


class Wire(asyncio.Transport):
    """The socket side of one server connection: what the server writes, kept; its protocol swappable
    (an upgrade to a WebSocket)."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.wrote = asyncio.Event()
        """Set at each write (clear it to wait for the next)."""
        self.protocol: asyncio.BaseProtocol | None = None

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += data
        self.wrote.set()

    def is_closing(self) -> bool:
        return False

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def close(self) -> None:
        pass

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.protocol = protocol

    def get_protocol(self) -> asyncio.BaseProtocol:
        assert self.protocol is not None
        return self.protocol
