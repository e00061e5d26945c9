"""Requests on the shared Redis queue as JSON: what crosses the network is data, never code.

scrapy-redis pickles requests by default, and unpickling runs whatever a pushed object's ``__reduce__``
names, so anyone able to write to the Redis could run code in every crawler. Here a request is the dict
of :meth:`scrapy.Request.to_dict`, written as JSON with its bytes (body, headers) tagged and encoded
in base64, and :func:`loads` accepts only what a request can hold: known keys of the right types, a
request class among Scrapy's own (``request_from_dict`` would instantiate any importable class it
names), callback names that are plain method names. Anything else raises :class:`Refused`, whose
``kind`` says why, so a crawler can count refusals by kind.

>>> from scrapy import Request
>>> data = dumps(Request("http://a.test/1", method="POST", body=b"\\xff", meta={"depth": 2}).to_dict())
>>> request = loads(data)
>>> request["body"], request["meta"], request["method"]
(b'\\xff', {'depth': 2}, 'POST')
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

#: the tag of a bytes value: ``{"$b": "<base64>"}``
BYTES_TAG = "$b"
#: the tag of a dict whose keys are not all plain strings: ``{"$d": [[key, value], ...]}``
PAIRS_TAG = "$d"
#: request classes a queued request may name (``_class``); Request itself is written without one
REQUEST_CLASSES = frozenset(
    {
        "scrapy.http.request.form.FormRequest",
        "scrapy.http.request.json_request.JsonRequest",
        "scrapy.http.request.rpc.XmlRpcRequest",
    }
)
#: queued values nested deeper than this are refused (meta of real requests is two or three levels)
MAX_DEPTH = 32
#: a method name, not a dunder (``__init__``, ``__class__``): callbacks are looked up on the spider by name
_METHOD_NAME = re.compile(r"(?!__)[A-Za-z_][A-Za-z0-9_]*\Z")
_TYPES: dict[str, tuple[type, ...]] = {
    "url": (str,),
    "method": (str,),
    "encoding": (str,),
    "priority": (int,),
    "dont_filter": (bool,),
    "body": (bytes, str),
    "headers": (dict,),
    "cookies": (dict, list),
    "meta": (dict,),
    "cb_kwargs": (dict,),
    "flags": (list,),
    "callback": (str, type(None)),
    "errback": (str, type(None)),
    "_class": (str,),
}


class Refused(ValueError):
    """A queue entry that is not a request this crawler accepts; ``kind`` names the reason."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind


class Unshareable(TypeError):
    """A request holding a value JSON cannot carry (it stays with the process that made it)."""


def _encode(value: Any, depth: int = 0) -> Any:
    if depth > MAX_DEPTH:
        raise Unshareable(f"nested deeper than {MAX_DEPTH}")
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise Unshareable(f"non-finite number {value!r}")
        return value
    if isinstance(value, bytes):
        return {BYTES_TAG: base64.b64encode(value).decode("ascii")}
    if isinstance(value, list | tuple):
        return [_encode(v, depth + 1) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in value):
            return {k: _encode(v, depth + 1) for k, v in value.items()}
        return {PAIRS_TAG: [[_encode(k, depth + 1), _encode(v, depth + 1)] for k, v in value.items()]}
    raise Unshareable(f"a {type(value).__name__} value")


def _decode(value: Any, depth: int = 0) -> Any:
    if depth > MAX_DEPTH:
        raise Refused("too deep", f"nested deeper than {MAX_DEPTH}")
    if isinstance(value, list):
        return [_decode(v, depth + 1) for v in value]
    if not isinstance(value, dict):
        return value
    if BYTES_TAG in value:
        encoded = value[BYTES_TAG]
        if len(value) != 1 or not isinstance(encoded, str):
            raise Refused("bad bytes", f"{value!r:.80}")
        try:
            return base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            raise Refused("bad bytes", f"not base64: {encoded!r:.80}") from None
    if PAIRS_TAG in value:
        pairs = value[PAIRS_TAG]
        if len(value) != 1 or not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 for p in pairs
        ):
            raise Refused("bad pairs", f"{value!r:.80}")
        try:
            return {_decode(k, depth + 1): _decode(v, depth + 1) for k, v in pairs}
        except TypeError:  # a list or dict as a key
            raise Refused("bad pairs", f"unhashable key in {value!r:.80}") from None
    if any(k.startswith("$") for k in value):
        raise Refused("unknown tag", f"{sorted(value)!r:.80}")
    return {k: _decode(v, depth + 1) for k, v in value.items()}


def dumps(request: dict[str, Any]) -> bytes:
    """The JSON form of a request's dict (:meth:`scrapy.Request.to_dict`); raises :class:`Unshareable`
    for a value JSON cannot carry (an object in ``meta``). Equal requests give equal bytes."""
    return json.dumps(_encode(request), sort_keys=True, separators=(",", ":"), allow_nan=False).encode()


def loads(data: bytes | str) -> dict[str, Any]:
    """A request's dict from its JSON form, checked; raises :class:`Refused` for anything else (a
    pickle, JSON of another shape, an unknown request class or callback)."""
    try:
        raw = json.loads(data)
    except (UnicodeDecodeError, ValueError, RecursionError):
        head = bytes(data[:2]) if isinstance(data, bytes) else data[:2].encode()
        kind = "pickle" if head[:1] == b"\x80" else "not JSON"
        raise Refused(kind, f"{len(data)} bytes") from None
    if not isinstance(raw, dict):
        raise Refused("not a request", f"JSON {type(raw).__name__}")
    request = _decode(raw)
    unknown = set(request) - set(_TYPES)
    if unknown:
        raise Refused("unknown field", ", ".join(sorted(unknown))[:80])
    if not isinstance(request.get("url"), str):
        raise Refused("not a request", "no url")
    for name, value in request.items():
        allowed = _TYPES[name]
        if not isinstance(value, allowed) or (bool not in allowed and isinstance(value, bool)):
            raise Refused("bad field", f"{name} is a {type(value).__name__}")
    for name in ("callback", "errback"):
        if request.get(name) is not None and not _METHOD_NAME.match(request[name]):
            raise Refused("bad callback", f"{name} {request[name]!r:.80}")
    if "_class" in request and request["_class"] not in REQUEST_CLASSES:
        raise Refused("request class", f"{request['_class']!r:.80} is not a Scrapy request class")
    return request
