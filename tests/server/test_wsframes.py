"""The direct text-frame writer (``tuolaji.server.wsframes``) writes frames a WebSocket client reads
as the text sent, at every length class of RFC 6455 §5.2 (7-bit, 16-bit and 64-bit lengths)."""

from __future__ import annotations

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.server import ServerProtocol
from websockets.uri import parse_uri

from tuolaji.server.wsframes import frame_header


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65_535, 65_536, 200_000])
def test_a_client_reads_the_frame_as_the_text_written(size: int) -> None:
    data = ("拖拉機" * size)[: size // 3].encode() + b"x" * (size % 3)
    client = ClientProtocol(parse_uri("ws://127.0.0.1/ws"), max_size=None)
    server = ServerProtocol()
    client.send_request(client.connect())
    server.receive_data(b"".join(client.data_to_send()))
    request = next(event for event in server.events_received() if isinstance(event, Request))
    server.send_response(server.accept(request))
    client.receive_data(b"".join(server.data_to_send()))
    client.receive_data(frame_header(len(data)) + data + frame_header(2) + b"ok")
    frames = [event for event in client.events_received() if isinstance(event, Frame)]
    assert [(frame.opcode, frame.fin, bytes(frame.data)) for frame in frames] == [
        (Opcode.TEXT, True, data),
        (Opcode.TEXT, True, b"ok"),
    ]
