"""The one loopback server helper the demo, the benchmarks and the test sites share."""

from __future__ import annotations

import http.client
import socket
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler

import pytest

from newscrawl.crawl.loopback import NOT_FOUND, Reply, serve, serve_handler


def site(path: str) -> Reply:
    if path == "/a.html":
        return Reply(200, "<p>正文</p>".encode())
    if path == "/feed.xml":
        return Reply(200, b"<rss/>", "application/xml")
    return NOT_FOUND


def test_a_site_answers_with_its_status_body_and_type_and_sees_no_query_string():
    seen: list[str] = []

    def recording(path: str) -> Reply:
        seen.append(path)
        return site(path)

    with serve(recording) as base:
        assert base.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(base + "/a.html?utm_source=x") as r:
            assert (r.status, r.read(), r.headers["Content-Type"]) == (
                200, "<p>正文</p>".encode(), "text/html; charset=utf-8",
            )  # fmt: skip
        with urllib.request.urlopen(base + "/feed.xml") as r:
            assert r.headers["Content-Type"] == "application/xml"
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(base + "/missing")
        assert caught.value.code == 404
    assert seen == ["/a.html", "/feed.xml", "/missing"]


def test_one_connection_serves_several_requests():
    with serve(site) as base:
        conn = http.client.HTTPConnection(base.removeprefix("http://"), timeout=10)
        for _ in range(3):
            conn.request("GET", "/a.html")
            response = conn.getresponse()
            assert response.status == 200 and response.read() == "<p>正文</p>".encode()
        conn.close()


def test_the_port_is_released_when_the_block_ends():
    with serve(site) as base:
        port = int(base.rsplit(":", 1)[1])
    with socket.socket() as s, pytest.raises(OSError):
        s.settimeout(2)
        s.connect(("127.0.0.1", port))


def test_a_handler_class_is_served_as_it_is():
    class Teapot(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            self.send_response(418)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    with serve_handler(Teapot) as base, pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(base + "/")
    assert caught.value.code == 418


def test_a_taken_port_is_an_os_error():
    with serve(site) as base, pytest.raises(OSError):
        port = int(base.rsplit(":", 1)[1])
        with serve(site, port=port):
            pass
