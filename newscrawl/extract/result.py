"""Immutable values the extraction library hands out.

``Extraction`` is the public result of :func:`newscrawl.extract.extract`; ``BodyResult`` is what one
body-extraction algorithm returns to the pipeline; ``Found`` is one metadata field with where it came from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from newscrawl.extract.document import Element

PageClass = Literal["short", "long"]
#: "empty": the body holds no text at all (a bot-check page, a JavaScript app shell): neither an article
#: to keep nor a list to follow; "error": a page not found, an article removed, a login wall or a bot check
#: served as a page (``errorpage.py``): nothing a reader should get as an article
PageKind = Literal["article", "list", "empty", "error"]

_EMPTY: Mapping[str, Any] = MappingProxyType({})


def freeze(mapping: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """Return a read-only copy of ``mapping`` (nested dicts frozen too)."""
    if not mapping:
        return _EMPTY
    return MappingProxyType(
        {k: freeze(v) if isinstance(v, Mapping) else v for k, v in mapping.items()}
    )


@dataclass(frozen=True, slots=True)
class Found:
    """A metadata value and the rule of its fallback chain that produced it (``source``)."""

    value: str | None = None
    source: str | None = None

    def __bool__(self) -> bool:
        return bool(self.value)


NOT_FOUND = Found()


@dataclass(frozen=True, slots=True)
class ListEntry:
    """One entry of a list page: an article link with its anchor text and, when shown, its time."""

    title: str
    url: str
    published_at: str | None = None


@dataclass(frozen=True, slots=True)
class Image:
    """A picture of the article: its absolute URL and its caption (figcaption, else alt text), if any."""

    url: str
    caption: str | None = None


@dataclass(frozen=True, slots=True)
class BodyResult:
    """What a body-extraction algorithm found.

    ``paragraphs`` is the main text, one paragraph per item. ``node`` is the chosen content root in the
    cleaned tree (None for algorithms that do not work on one node, e.g. line or block based ones).
    ``figures`` holds the numbers behind the decision, for explanation and evaluation.
    """

    paragraphs: tuple[str, ...]
    node: Element | None = None
    figures: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    #: elements (in document order) that hold the first and last main-text paragraph, when known
    first: Element | None = None
    last: Element | None = None

    @property
    def text(self) -> str:
        return "\n".join(self.paragraphs)


@dataclass(frozen=True, slots=True)
class Extraction:
    """The clean record of one page.

    ``text`` holds one paragraph per line. ``published_at`` and ``modified_at`` are ISO 8601 at the
    precision the page gives: a date (``2024-09-03``), a time without an offset where the page's zone is
    unknown (``2024-09-03T04:03:19``), or a time with one; None when not found. ``sources`` names the rule
    behind each field, and ``sources["published_at_zone"]`` where the publish time's offset came from
    (``page``, ``site Asia/Shanghai``, ``language zh-CN: Asia/Shanghai``, ``host .cn: Asia/Shanghai``,
    ``instant``, ``reference``; None when it has none).
    ``algorithm`` names the extractor that produced ``text``; ``reason`` says why ``auto`` picked it.
    ``figures`` are the numbers behind the decisions (coarse text length, scores, chosen node path).
    ``canonical_link`` is the canonical URL the page declares (``<link rel=canonical>``, else
    ``og:url``) as written, not checked: :func:`newscrawl.extract.urls.canonical_url` makes a key of it.
    ``error`` is set when the page could not be decoded or parsed; the other fields are then empty.

    People and provenance: ``author`` is who wrote the article (several names joined; ``authors`` keeps
    them apart), ``editor`` the editor named on the page (责任编辑), ``source`` the organisation or wire
    service the story comes from (来源, 新华社), ``original_title`` the headline it first ran under (原标题).
    ``description`` is the page's summary (meta description, else the lead), ``images`` its pictures (the
    top image first), ``tags`` its keywords and ``section`` the part of the site it sits in. ``language``
    is the declared language, else the one detected from the text (``sources["language"]`` says which).
    """

    text: str = ""
    title: str | None = None
    published_at: str | None = None
    modified_at: str | None = None
    author: str | None = None
    authors: tuple[str, ...] = ()
    editor: str | None = None
    source: str | None = None
    original_title: str | None = None
    description: str | None = None
    images: tuple[Image, ...] = ()
    tags: tuple[str, ...] = ()
    section: str | None = None
    algorithm: str = ""
    page_class: PageClass = "long"
    page_kind: PageKind = "article"
    url: str | None = None
    language: str | None = None
    encoding: str | None = None
    coarse_length: int = 0
    node_path: str | None = None
    reason: str = ""
    figures: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    sources: Mapping[str, str | None] = field(default_factory=lambda: _EMPTY)
    entries: tuple[ListEntry, ...] = ()
    canonical_link: str | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        """A plain, JSON-serialisable dict of every field."""
        out: dict[str, Any] = {}  # asdict() cannot copy MappingProxyType, so build by hand
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if isinstance(value, Mapping):
                value = _thaw(value)
            elif name in ("entries", "images"):
                value = [asdict(e) for e in value]
            elif isinstance(value, tuple):
                value = list(value)
            out[name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Extraction:
        """The extraction :meth:`to_dict` gave (how a result crosses a process boundary: read-only
        mappings cannot be pickled).

        >>> e = Extraction(text="t", figures=freeze({"a": {"b": 1}}), entries=(ListEntry("x", "/x"),),
        ...                authors=("A", "B"), images=(Image("http://a/1.jpg", "c"),), tags=("t",))
        >>> Extraction.from_dict(e.to_dict()) == e
        True
        """
        values = dict(data)
        for name in ("figures", "sources"):
            values[name] = freeze(values.get(name))
        values["entries"] = tuple(ListEntry(**entry) for entry in values.get("entries") or ())
        values["images"] = tuple(Image(**image) for image in values.get("images") or ())
        for name in ("authors", "tags"):
            values[name] = tuple(values.get(name) or ())
        return cls(**values)


def _thaw(mapping: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _thaw(v) if isinstance(v, Mapping) else v for k, v in mapping.items()}
