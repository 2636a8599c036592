"""Raw TCP clients for the web tests: a websocket that never reads, a request sent in halves.

They speak HTTP/1.1 and RFC 6455 on a plain socket, so a test decides exactly which bytes go
out when and how much the client reads, which no websocket library lets it do.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
from typing import Any

OPCODE_TEXT = 0x1
OPCODE_CLOSE = 0x8


def masked_text_frame(text: str) -> bytes:
    """A client's text frame (clients must mask what they send)."""
    data = text.encode()
    mask = os.urandom(4)
    if len(data) < 126:
        head = bytes([0x80 | OPCODE_TEXT, 0x80 | len(data)])
    else:
        head = bytes([0x80 | OPCODE_TEXT, 0x80 | 126]) + struct.pack("!H", len(data))
    return head + mask + bytes(byte ^ mask[i % 4] for i, byte in enumerate(data))


def open_follower(port: int, match: str, tokens: list[str], receive_buffer: int) -> socket.socket:
    """A websocket to ``match`` past its handshake and first message, whose receive buffer is
    ``receive_buffer`` bytes; it reads nothing after the handshake's answer."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(30)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws/matches/{match} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while not answer.endswith(b"\r\n\r\n"):
        # One byte at a time: not a byte of the first frame is read here.
        byte = sock.recv(1)
        assert byte, "the server closed the websocket handshake"
        answer += byte
    assert answer.startswith(b"HTTP/1.1 101"), answer
    sock.sendall(masked_text_frame(json.dumps({"tokens": tokens})))
    return sock


def read_to_end(sock: socket.socket) -> tuple[list[tuple[int, bytes]], bool]:
    """Every frame the server sends until it closes the connection: ([(opcode, payload)],
    whether the connection ended); stops early if nothing comes for the socket's timeout."""
    data = bytearray()
    ended = False
    while True:
        try:
            chunk = sock.recv(1 << 16)
        except TimeoutError:
            break
        if not chunk:
            ended = True
            break
        data += chunk
    frames = []
    at = 0
    while at + 2 <= len(data):
        opcode, length = data[at] & 0x0F, data[at + 1] & 0x7F
        at += 2
        if length == 126:
            (length,) = struct.unpack("!H", data[at : at + 2])
            at += 2
        elif length == 127:
            (length,) = struct.unpack("!Q", data[at : at + 8])
            at += 8
        frames.append((opcode, bytes(data[at : at + length])))
        at += length
    return frames, ended


def start_request(
    port: int, method: str, path: str, body: dict[str, Any], token: str, sent: int
) -> tuple[socket.socket, bytes]:
    """Send a JSON request's headers and the first ``sent`` bytes of its body; returns the
    socket and the rest of the body, for ``finish_request``."""
    data = json.dumps(body).encode()
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
    ).encode()
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(head + data[:sent])
    return sock, data[sent:]


def finish_request(sock: socket.socket, rest: bytes) -> tuple[int, Any]:
    """Send the rest of the body and read the answer: (status, decoded JSON body)."""
    with sock:
        sock.sendall(rest)
        answer = b""
        while chunk := sock.recv(1 << 16):
            answer += chunk
    head, _, content = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(content)
