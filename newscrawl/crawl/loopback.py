"""HTTP servers on 127.0.0.1 for the demo, the benchmarks and the tests: one thread, a free port, quiet.

A site is a function from a path (the query string cut off) to a :class:`Reply`; :func:`serve` runs it
for a ``with`` block and yields the base URL. :func:`serve_handler` does the same for a ready
``http.server`` handler class (the demo serves a folder with ``SimpleHTTPRequestHandler``).

>>> import urllib.request
>>> with serve(lambda path: Reply(200, path.encode(), "text/plain")) as base:
...     urllib.request.urlopen(base + "/a/b.html?x=1").read()
b'/a/b.html'
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HTML = "text/html; charset=utf-8"
#: seconds to wait for the server thread once shut down
JOIN_TIMEOUT = 5


@dataclass(frozen=True, slots=True)
class Reply:
    """One response: status, body and ``Content-Type``."""

    status: int
    body: bytes
    content_type: str = HTML


#: the answer to a path a site does not have
NOT_FOUND = Reply(404, b"not found", "text/plain")

#: a site: path -> reply (called on the server's threads, one per connection)
Site = Callable[[str], Reply]


def handler_for(site: Site) -> type[BaseHTTPRequestHandler]:
    """A handler class answering every GET with ``site(path)`` (HTTP/1.1, no access log)."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            reply = site(self.path.split("?", 1)[0])
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
            pass

    return Handler


@contextmanager
def serve_handler(
    handler: Callable[..., BaseHTTPRequestHandler], host: str = "127.0.0.1", port: int = 0, name: str = "site"
) -> Iterator[str]:
    """Run ``handler`` on ``host``:``port`` (0: a free port) in a daemon thread for the ``with`` block;
    yields the base URL (``http://127.0.0.1:PORT``). OSError when the port cannot be had."""
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name=f"newscrawl-{name}", daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=JOIN_TIMEOUT)


@contextmanager
def serve(site: Site, host: str = "127.0.0.1", port: int = 0, name: str = "site") -> Iterator[str]:
    """Serve ``site`` for the ``with`` block; yields the base URL."""
    with serve_handler(handler_for(site), host, port, name) as base:
        yield base
