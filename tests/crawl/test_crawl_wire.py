"""Requests on the shared Redis queue are JSON, checked when read: no pickle, no class or method by name."""

from __future__ import annotations

import json
import pickle

import pytest
from scrapy import FormRequest, Request

from newscrawl.crawl import wire


def roundtrip(request: Request) -> dict:
    return wire.loads(wire.dumps(request.to_dict()))


def test_a_request_comes_back_with_its_bytes_and_meta():
    request = Request(
        "http://a.test/x?y=1", method="POST", body=b"\x00\xff raw", headers={"X-K": "v"},
        meta={"depth": 3, "newscrawl_kind": "article", "redirect_urls": ["http://a.test/"]},
        cb_kwargs={"kind": "article"}, priority=-2, dont_filter=True, flags=["f"],
    )
    back = roundtrip(request)
    assert back["body"] == b"\x00\xff raw"
    assert back["headers"] == {b"X-K": [b"v"]}
    assert back["meta"] == request.meta and back["cb_kwargs"] == {"kind": "article"}
    assert (back["priority"], back["dont_filter"], back["flags"]) == (-2, True, ["f"])


def test_equal_requests_give_equal_bytes():
    # ZADD of the same member is idempotent: a push repeated after a lost reply queues nothing twice
    a = Request("http://a.test/1", meta={"b": 1, "a": 2})
    b = Request("http://a.test/1", meta={"a": 2, "b": 1})
    assert wire.dumps(a.to_dict()) == wire.dumps(b.to_dict())


def test_scrapy_request_classes_pass():
    back = roundtrip(FormRequest("http://a.test/f", formdata={"q": "1"}))
    assert back["_class"] == "scrapy.http.request.form.FormRequest"


def test_an_object_in_meta_cannot_be_shared():
    with pytest.raises(wire.Unshareable):
        wire.dumps(Request("http://a.test/1", meta={"o": object()}).to_dict())


class Payload:
    ran: list[str] = []

    def __reduce__(self):
        return (Payload.ran.append, ("ran",))


def test_a_pickle_is_refused_and_never_run():
    data = pickle.dumps({"url": "http://a.test/", "x": Payload()}, protocol=4)
    with pytest.raises(wire.Refused) as refused:
        wire.loads(data)
    assert refused.value.kind == "pickle"
    assert Payload.ran == []


@pytest.mark.parametrize(
    ("entry", "kind"),
    [
        # request_from_dict would instantiate any importable class, with matching keyword arguments
        ({"url": "x", "_class": "subprocess.Popen"}, "request class"),
        ({"url": "x", "args": "touch /tmp/pwned", "shell": True}, "unknown field"),
        ({"url": "x", "callback": "__init__"}, "bad callback"),
        ({"url": "x", "callback": "os.system"}, "bad callback"),
        ({"url": "x", "priority": "1"}, "bad field"),
        ({"url": "x", "priority": True}, "bad field"),
        ({"url": 5}, "not a request"),
        ({"method": "GET"}, "not a request"),
        ({"url": "x", "body": {"$b": "not base64!"}}, "bad bytes"),
        ({"url": "x", "meta": {"$x": 1}}, "unknown tag"),
        ({"url": "x", "meta": {"$d": [[["list"], 1]]}}, "bad pairs"),
        ([1, 2], "not a request"),
    ],
)
def test_entries_that_are_not_requests_are_refused_by_kind(entry, kind):
    with pytest.raises(wire.Refused) as refused:
        wire.loads(json.dumps(entry).encode())
    assert refused.value.kind == kind


def test_garbage_and_deep_nesting_are_refused():
    with pytest.raises(wire.Refused) as refused:
        wire.loads(b"\xff\xfe not json")
    assert refused.value.kind == "not JSON"
    deep: object = 1
    for _ in range(wire.MAX_DEPTH + 5):
        deep = [deep]
    with pytest.raises(wire.Refused) as refused:
        wire.loads(json.dumps({"url": "x", "meta": {"d": deep}}))
    assert refused.value.kind == "too deep"
