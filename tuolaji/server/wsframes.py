"""uvicorn's WebSocket protocol with a direct way out for text messages (the hot path of a move).

Through ASGI each message a client gets is a coroutine call down starlette, uvicorn and the
``websockets`` frame writer, and the connection's writer task wakes for it: about a fifth of a
move's CPU on a node (docs/BENCHMARKS.md, Server). :class:`TextFramesProtocol` is uvicorn's
``websockets-sansio`` protocol that also puts a function in the connection's ASGI scope
(``scope["extensions"][TEXT_FRAMES]``): it writes text messages, each a single unmasked frame
(RFC 6455 §5.2), to the socket at once in one write (one send syscall however many there are), or
answers False when that cannot be done now — the handshake
is not over, the connection is closing, the socket's buffer is full (uvicorn paused writing) or an
extension such as permessage-deflate was agreed — and the message then goes the ASGI way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import State

TEXT_FRAMES: Final = "tuolaji.text_frames"
"""The ASGI scope extension: ``Callable[[Sequence[bytes]], bool]``, write these UTF-8 text messages
now, in order, or say no (and write none)."""
WriteText = Callable[[Sequence[bytes]], bool]

_TEXT_FIN: Final = 0x81
"""FIN and opcode 1 (text): a whole message in one frame."""


def frame_header(size: int) -> bytes:
    """The header of an unmasked final text frame carrying ``size`` bytes (RFC 6455 §5.2)."""
    if size < 126:
        return bytes((_TEXT_FIN, size))
    if size < 1 << 16:
        return bytes((_TEXT_FIN, 126)) + size.to_bytes(2, "big")
    return bytes((_TEXT_FIN, 127)) + size.to_bytes(8, "big")


class TextFramesProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, offering :data:`TEXT_FRAMES` to the app."""

    def handle_connect(self, event: Request) -> None:
        """Open the connection as uvicorn does; its scope (made when the handshake is accepted) gets
        the direct writer."""
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][TEXT_FRAMES] = self.write_texts

    def write_texts(self, messages: Sequence[bytes]) -> bool:
        """Write the text ``messages`` (UTF-8), in order and in one write, now if the socket takes
        them without waiting; False (nothing written) otherwise."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or not self.writable.is_set()
            or self.conn.state is not State.OPEN
            or self.conn.extensions
            or self.transport.is_closing()
        ):
            return False
        if len(messages) == 1:
            data = messages[0]
            self.transport.write(frame_header(len(data)) + data)
        else:
            self.transport.write(b"".join([part for data in messages for part in (frame_header(len(data)), data)]))
        return True
