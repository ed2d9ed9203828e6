"""Two witnesses that a command opens no network connection (docs/security.md, "Schemas never
fetch"): a real HTTP server on 127.0.0.1 that counts the requests it is sent, and a guard that
refuses, and records, every connection Python's socket module is asked to make.

The server serves a schema to whoever asks, so a command that fetches one goes on and finishes
(a test then fails on its count, never hangs); the guard catches an attempt before any packet
is sent, whatever the host. tests/test_user_schema.py shows both would see a fetch.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SERVED_SCHEMA = {"type": "string"}


@dataclass
class SchemaServer:
    port: int
    requests: list[str] = field(default_factory=list)  # the paths asked for, in order

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/{name}"


@contextmanager
def schema_server() -> Iterator[SchemaServer]:
    """An HTTP server on a free port of 127.0.0.1 answering every GET with SERVED_SCHEMA."""
    served = SchemaServer(0)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            served.requests.append(self.path)
            body = json.dumps(SERVED_SCHEMA).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/schema+json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):  # quiet: a test's output is its assertions
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    served.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield served
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


class ConnectionRefusedByTest(OSError):
    """What the guard raises in place of a connection."""


def guard_connections(monkeypatch) -> list:
    """From now on (for the test), every connect, name lookup or create_connection through
    Python's socket module raises ConnectionRefusedByTest; the returned list records each attempt."""
    attempts: list = []

    def refuse(what):
        def refused(*args, **kwargs):
            attempts.append((what, args[1:] if what.startswith("socket.") else args))
            raise ConnectionRefusedByTest(f"{what}: no connection in this test")
        return refused

    monkeypatch.setattr(socket.socket, "connect", refuse("socket.connect"))
    monkeypatch.setattr(socket.socket, "connect_ex", refuse("socket.connect_ex"))
    monkeypatch.setattr(socket, "create_connection", refuse("create_connection"))
    monkeypatch.setattr(socket, "getaddrinfo", refuse("getaddrinfo"))
    return attempts
