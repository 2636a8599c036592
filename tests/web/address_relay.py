"""A browser's own client address: a relay on 127.0.0.1 that reaches the server from another
loopback address (Chromium cannot choose the address it connects from), so that browsers of one
test each stay under the server's per-address limits as people's browsers do."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

CHUNK = 65536


@dataclass
class Relay:
    """Connections to ``url`` (127.0.0.1 and a port of its own) reach ``port`` from
    ``address``."""

    port: int
    address: str
    listener: socket.socket = field(default_factory=socket.socket)
    url: str = ""

    def start(self) -> None:
        """Listen, and relay each connection on a thread of its own."""
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen()
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            try:
                upstream = socket.create_connection(
                    ("127.0.0.1", self.port), source_address=(self.address, 0)
                )
            except OSError:
                client.close()
                continue
            for source, target in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pump, args=(source, target), daemon=True).start()


def _pump(source: socket.socket, target: socket.socket) -> None:
    """Copy ``source`` to ``target`` until either ends, then end both."""
    with contextlib.suppress(OSError):
        while data := source.recv(CHUNK):
            target.sendall(data)
    for end in (source, target):
        with contextlib.suppress(OSError):
            end.shutdown(socket.SHUT_RDWR)


@contextlib.contextmanager
def relayed(port: int, address: str) -> Iterator[Relay]:
    """A relay to the server on ``port`` from ``address``, closed on exit."""
    relay = Relay(port, address)
    relay.start()
    try:
        yield relay
    finally:
        relay.listener.close()
