"""A deadline for a request's headers on uvicorn's HTTP protocols (httptools and h11).

uvicorn closes a keep-alive connection that stays idle after a response (``timeout_keep_alive``),
but it sets no clock on a connection before its first request, nor on a request whose headers
trickle in: a client could hold a socket open for ever by sending nothing, or a byte a minute
(slow loris). :class:`HeaderDeadline` closes a connection whose next request's headers are not all
in within ``header_timeout`` seconds of the connection opening or of the last response ending. A
request under way (its headers in) or a connection upgraded to a WebSocket is not touched: bodies
have their own limit (``tuolaji.server.http_io.BODY_SECONDS``) and WebSockets their ``hello``
timeout and pings.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import TYPE_CHECKING, Any, Protocol

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT = 10.0
"""Seconds a connection has to send a request's headers, from its opening or its last response."""
KEEP_ALIVE_TIMEOUT = 5.0
"""Seconds an idle keep-alive connection stays open after a response (uvicorn's ``timeout_keep_alive``)."""


class _HttpProtocol(Protocol):
    """What :class:`HeaderDeadline` reads of a uvicorn HTTP protocol."""

    transport: asyncio.Transport
    cycle: Any


class Config(uvicorn.Config):
    """uvicorn's settings and the :data:`HEADER_TIMEOUT` its HTTP protocols are given."""

    def __init__(self, app: Any, header_timeout: float = HEADER_TIMEOUT, **settings: Any) -> None:
        super().__init__(app, **settings)
        self.header_timeout = header_timeout


class HeaderDeadline:
    """The header clock of one HTTP connection (``protocol``): armed when it opens and after each
    response, it closes the connection if no request is under way when it runs out."""

    def __init__(self, protocol: _HttpProtocol, seconds: float) -> None:
        self._protocol = weakref.ref(protocol)
        """Weakly: the protocol holds its clock, and a cycle would keep a finished connection (its
        request and headers) until the collector's rare full pass."""
        self.seconds = seconds
        self._timer: asyncio.TimerHandle | None = None

    def arm(self) -> None:
        """Start the clock again (the connection opened, or a response ended)."""
        self.disarm()
        protocol = self._protocol()
        if protocol is not None and not protocol.transport.is_closing():
            self._timer = asyncio.get_running_loop().call_later(self.seconds, self._due)

    def disarm(self) -> None:
        """Stop the clock (the connection is gone)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _due(self) -> None:
        self._timer = None
        protocol = self._protocol()
        if protocol is None:
            return
        transport, cycle = protocol.transport, protocol.cycle
        current: object = transport.get_protocol()
        if transport.is_closing() or current is not protocol:
            return  # closed already, or a WebSocket now
        if cycle is not None and not cycle.response_complete:
            return  # a request is under way; the clock starts again when its response ends
        transport.close()


if TYPE_CHECKING:
    _Uvicorn = H11Protocol
else:
    _Uvicorn = object


class _Guarded(_Uvicorn):
    """A uvicorn HTTP protocol with a :class:`HeaderDeadline` (mixed in before h11's or httptools',
    which share these methods)."""

    def __init__(self, config: uvicorn.Config, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self.deadline = HeaderDeadline(self, getattr(config, "header_timeout", HEADER_TIMEOUT))

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Open, with the header clock running."""
        super().connection_made(transport)
        self.deadline.arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """Gone: stop the clock."""
        self.deadline.disarm()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        """A response ended: the next request's headers are due within the deadline."""
        super().on_response_complete()
        self.deadline.arm()

    def handle_websocket_upgrade(self, *event: Any) -> None:
        """Hand the connection to the WebSocket protocol as uvicorn does, then stop the clock and let
        go of httptools' parser, which holds this protocol's methods: with that cycle every WebSocket
        would leave its HTTP protocol, request and headers (~15 objects) for the collector's rare
        full pass (docs/BENCHMARKS.md, Server)."""
        super().handle_websocket_upgrade(*event)
        self.deadline.disarm()
        self.__dict__.pop("parser", None)


class GuardedH11(_Guarded, H11Protocol):
    """uvicorn's h11 protocol with a :class:`HeaderDeadline`."""


def http_protocol() -> type[asyncio.Protocol]:
    """The HTTP protocol class to run: httptools' with the deadline when it is installed (uvicorn's
    own choice, ``http="auto"``), else h11's."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        return GuardedH11

    class GuardedHttpTools(_Guarded, HttpToolsProtocol):  # type: ignore[misc]
        """uvicorn's httptools protocol with a :class:`HeaderDeadline`."""

    return GuardedHttpTools
