"""uvicorn's WebSocket protocol with a direct way out and in for text messages (the hot path of a move).

Through ASGI each message a client gets is a coroutine call down starlette, uvicorn and the
``websockets`` frame writer, and the connection's writer task wakes for it: about a fifth of a
move's CPU on a node (docs/BENCHMARKS.md, Server). :class:`TextFramesProtocol` is uvicorn's
``websockets-sansio`` protocol that also puts a function in the connection's ASGI scope
(``scope["extensions"][TEXT_FRAMES]``): it writes text messages, each a single unmasked frame
(RFC 6455 §5.2), to the socket at once in one write (one send syscall however many there are), or
answers False when that cannot be done now — the handshake
is not over, the connection is closing, the socket's buffer is full (uvicorn paused writing) or an
extension such as permessage-deflate was agreed — and the message then goes the ASGI way.

The way in (``scope["extensions"][TEXT_IN]``): once the app hands the protocol a function, each whole
text message (UTF-8, unfragmented or not) is given to it from ``data_received``, in order, instead of
being queued for ``receive``; binary frames, the close and the disconnect still come through
``receive``. Through ASGI each message is a chain of coroutines and a future that wait, per
connection, until the client next sends: thousands of connections' worth sat in the garbage
collector's young generation (docs/BENCHMARKS.md, Server), and reading paused and resumed around
each message.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Sequence
from typing import Any, Final

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import State

TEXT_FRAMES: Final = "tuolaji.text_frames"
"""The ASGI scope extension: ``Callable[[Sequence[bytes]], bool]``, write these UTF-8 text messages
now, in order, or say no (and write none)."""
WriteText = Callable[[Sequence[bytes]], bool]
TEXT_IN: Final = "tuolaji.text_in"
"""The ASGI scope extension: ``Callable[[TextHandler], None]``, give every text message from now on
to this function, as it arrives, instead of to ``receive``."""
TextHandler = Callable[[str], None]

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
    """uvicorn's sans-I/O WebSocket protocol, offering :data:`TEXT_FRAMES` and :data:`TEXT_IN` to the app."""

    _text_handler: TextHandler | None = None
    _ping: Callable[[], None] | None = None
    _ping_context: contextvars.Context | None = None
    _lists: tuple[list[Any], list[Any], list[Any]] | None = None
    _heard_at = float("-inf")
    """When (the loop's clock) the client last sent anything."""

    def handle_connect(self, event: Request) -> None:
        """Open the connection as uvicorn does; its scope (made when the handshake is accepted) gets
        the direct writer."""
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][TEXT_FRAMES] = self.write_texts
            scope["extensions"][TEXT_IN] = self.listen

    def listen(self, handler: TextHandler) -> None:
        """Give each text message from now on to ``handler`` (see :data:`TEXT_IN`), beginning with any
        already queued for ``receive``, so none overtakes another."""
        self._text_handler = handler
        kept = []
        while not self.queue.empty():
            event = self.queue.get_nowait()
            text = event.get("text") if event["type"] == "websocket.receive" else None
            if isinstance(text, str):
                handler(text)
            else:
                kept.append(event)
        for event in kept:
            self.queue.put_nowait(event)
        if self.read_paused and self.queue.empty():
            self.read_paused = False
            self.transport.resume_reading()

    def send_receive_event_to_app(self) -> None:
        """A whole message has arrived: a text one goes to the app's handler when it gave one (and has
        not closed), anything else to uvicorn (which queues it, or closes on a text that is not UTF-8)."""
        handler = self._text_handler
        if handler is None or self.curr_msg_data_type != "text" or self.close_sent:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        try:
            text = data.decode()
        except UnicodeDecodeError:
            super().send_receive_event_to_app()
            return
        self.frames = self._own_lists()[2]
        handler(text)

    def data_received(self, data: bytes) -> None:
        """Read as uvicorn does, keeping this connection's lists (:meth:`_keep_lists`); note when the
        client was last heard from (:meth:`send_keepalive_ping`)."""
        self._heard_at = self.loop.time()
        self._own_lists()
        super().data_received(data)
        self._keep_lists()

    def send_keepalive_ping(self) -> None:
        """Ping as uvicorn does once nothing has come from the client for a whole ping interval, keeping
        this connection's lists (:meth:`_keep_lists`); a client heard from since is alive, and the
        check is armed again for an interval after it last spoke. A dead peer is still found within
        the interval and the ping timeout; a playing client (a move, or the browser's own ``ping``
        after 5 s of quiet) is not pinged at all: at a person's pace the pings and their pongs were
        some 3% of a node's CPU (docs/BENCHMARKS.md, Server)."""
        interval = self.ping_interval
        quiet = self.loop.time() - self._heard_at
        if interval is not None and quiet < interval:
            self._arm_ping(interval - quiet)
            return
        self._own_lists()
        super().send_keepalive_ping()
        self._keep_lists()

    def _own_lists(self) -> tuple[list[Any], list[Any], list[Any]]:
        """This connection's own lists for ``websockets``' events and writes and uvicorn's frames of a
        message: the ones it had when first asked. Each is in place, or was handed out and read."""
        if self._lists is None:
            self._lists = (self.conn.events, self.conn.writes, self.frames)
        return self._lists

    def _keep_lists(self) -> None:
        """Give ``websockets`` back its own lists (emptied) where it made new empty ones.

        ``websockets`` hands out each message's events, and each write, in its list and starts a new
        one, which then waits for the next message or ping (seconds), tracked by the cycle collector:
        thousands of connections' worth were a sixth of what its middle passes walked. The handed-out
        lists are done with once uvicorn has read them."""
        conn = self.conn
        events, writes, _ = self._own_lists()
        if conn.events is not events and not conn.events:
            events.clear()
            conn.events = events
        if conn.writes is not writes and not conn.writes:
            writes.clear()
            conn.writes = writes

    def schedule_ping(self) -> None:
        """Arm the next keepalive ping as uvicorn does, with a callback and a context made once per
        connection (uvicorn makes both anew at every ping): thousands of connections re-arm every 20 s,
        and what each arming makes waits, tracked by the cycle collector, for the next."""
        assert self.ping_interval is not None
        self._arm_ping(max(0.0, self.ping_interval - self.last_ping_rtt))

    def _arm_ping(self, delay: float) -> None:
        if self._ping is None:
            self._ping = self.send_keepalive_ping
            self._ping_context = contextvars.copy_context()
        self.ping_timer = self.loop.call_later(delay, self._ping, context=self._ping_context)

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
