"""Other extractors, run beside newscrawl by ``newscrawl eval --compare`` on the same pages, in the same
process, scored by the same code.

Each peer gets the page as the text newscrawl decodes it (``newscrawl.extract.decode.decode_html``: BOM,
``<meta charset>``, detection), with a leading ``<?xml ... encoding=...?>`` declaration removed (it names
the bytes' encoding, which no longer applies, and lxml refuses a string that carries one). So a peer is
not judged on charset guessing: trafilatura given the bytes reads many GBK pages without a declaration as
garbage. The decoding is inside each peer's timing, as it is inside newscrawl's.

A peer whose package is not installed is named and skipped (``load_peers``); install them with
``pip install -e ".[compare]"``.

============================  ==================================================================
name                          call
============================  ==================================================================
``trafilatura``               ``bare_extraction(text, url=url, with_metadata=True,
                              include_comments=False)`` (comments are never part of a body truth)
``trafilatura-precision``     the same with ``favor_precision=True``
``readability-lxml``          ``Document(text).summary(html_partial=True)``, split into paragraphs by
                              newscrawl's own ``document.paragraphs``; title ``short_title()``
``newspaper4k``               ``Article(url, fetch_images=False)``, ``download(input_html=text)``,
                              ``parse()``; no network (no image fetching, the HTML is given);
                              ``language="zh"`` for an undeclared page of Chinese text
                              (``newspaper_language``; its Chinese tokenizer needs jieba)
============================  ==================================================================
"""

from __future__ import annotations

import importlib.util
import logging
import re
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from newscrawl.extract.decode import decode_html
from newscrawl.extract.document import body_of, paragraphs, parse_html

#: a peer: ``run(page_bytes, url=None, algorithm=name)`` -> an object with the fields ``evaluate_page`` reads
PeerFn = Callable[..., "PeerResult"]

_XML_DECL_RE = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
#: the URL newspaper4k is given for a page without one (it needs some URL; nothing is fetched)
NO_URL = "https://example.invalid/article"


@dataclass(frozen=True, slots=True)
class PeerResult:
    """What a peer found, with the field names of ``Extraction`` that evaluation reads."""

    text: str
    title: str | None
    published_at: str | None
    author: str | None
    algorithm: str
    authors: tuple[str, ...] = ()
    error: str | None = None
    page_class: str | None = None
    page_kind: str | None = None


PEER_NOTES = """\
## Other extractors

Rows named `trafilatura`, `trafilatura-precision`, `readability-lxml` and `newspaper4k` are those libraries,
run by `--compare` in the same process on the same pages and scored by the same code. Each is given the page
as the text newscrawl decodes it (BOM, `<meta charset>`, detection; a leading `<?xml ... encoding?>`
declaration removed), not the bytes, so none is judged on charset guessing; decoding is inside each one's
time. trafilatura: `bare_extraction(text, url=..., with_metadata=True, include_comments=False)`
(`favor_precision=True` for `trafilatura-precision`); readability-lxml: `Document(text).summary()` cut into
paragraphs by newscrawl's own block splitter, `short_title()`; newspaper4k: `Article(url,
fetch_images=False)`, `download(input_html=text)`, `parse()`, with `language="zh"` when the page declares
no language and its text is mostly ideographs (else it reads the page as English and finds nothing in
Chinese; its Chinese tokenizer is jieba). readability gives no date or author.
"""


#: the distribution each peer's version is read from
DISTRIBUTIONS = {"trafilatura": "trafilatura", "readability": "readability-lxml", "newspaper": "newspaper4k"}


def peer_notes(names: Iterable[str]) -> str:
    """``PEER_NOTES`` with the installed versions of the peers run."""
    from importlib.metadata import PackageNotFoundError, version

    versions = []
    for dist in dict.fromkeys(DISTRIBUTIONS[PEERS[n].module] for n in names):
        try:
            versions.append(f"{dist} {version(dist)}")
        except PackageNotFoundError:
            continue
    return PEER_NOTES + (f"Versions: {', '.join(versions)}.\n" if versions else "")


def decoded_text(page: bytes) -> str:
    """The page as every peer gets it: newscrawl's decoding, without an XML declaration."""
    return _XML_DECL_RE.sub("", decode_html(page).text, count=1)


def _iso(value: Any) -> str | None:
    if value is None or value == "":
        return None
    iso = getattr(value, "isoformat", None)
    return iso() if callable(iso) else str(value)


def run_trafilatura(page: bytes, url: str | None = None, algorithm: str = "trafilatura") -> PeerResult:
    import trafilatura

    precision = algorithm.endswith("-precision")
    doc = trafilatura.bare_extraction(
        decoded_text(page), url=url, with_metadata=True, include_comments=False, favor_precision=precision
    )
    if doc is None:
        return PeerResult("", None, None, None, algorithm)
    author = getattr(doc, "author", None) or None
    return PeerResult(
        text=getattr(doc, "text", None) or "",
        title=getattr(doc, "title", None) or None,
        published_at=_iso(getattr(doc, "date", None)),
        author=author,
        authors=tuple(a.strip() for a in author.split(";") if a.strip()) if author else (),
        algorithm=algorithm,
    )


def run_readability(page: bytes, url: str | None = None, algorithm: str = "readability-lxml") -> PeerResult:
    from readability import Document

    doc = Document(decoded_text(page), url=url)
    summary = doc.summary(html_partial=True)
    text = "\n".join(paragraphs(body_of(parse_html(summary)))) if summary.strip() else ""
    return PeerResult(text, doc.short_title() or None, None, None, algorithm)


#: one CJK ideograph; a page is read as Chinese by newspaper4k when they are this share of its letters
_IDEOGRAPH_RE = re.compile("[\u3400-\u4dbf\u4e00-\u9fff]")
_LETTER_RE = re.compile(r"[^\W\d_]")
CHINESE_SHARE = 0.3
_DECLARED_LANG_RE = re.compile(r"<html\b[^>]*\slang\s*=|content-language", re.IGNORECASE)


def newspaper_language(text: str) -> str | None:
    """The language newspaper4k is given: None (its own reading of the page's declaration) when the page
    declares one, else ``zh`` when ideographs are most of the letters of the page's visible text.

    Without this newspaper4k reads every undeclared page as English and finds no article in Chinese.

    >>> newspaper_language("<html><body><p>" + "新闻" * 50 + "</p></body></html>")
    'zh'
    """
    if _DECLARED_LANG_RE.search(text[:65_536]):
        return None
    body = " ".join(body_of(parse_html(text)).itertext()) if text.strip() else ""
    letters = len(_LETTER_RE.findall(body))
    return "zh" if letters and len(_IDEOGRAPH_RE.findall(body)) >= CHINESE_SHARE * letters else None


def run_newspaper(page: bytes, url: str | None = None, algorithm: str = "newspaper4k") -> PeerResult:
    from newspaper import Article

    text = decoded_text(page)
    language = newspaper_language(text)
    article = Article(url or NO_URL, fetch_images=False, **({"language": language} if language else {}))
    article.download(input_html=text)
    article.parse()
    authors = tuple(a for a in (article.authors or ()) if a)
    return PeerResult(
        text=article.text or "",
        title=article.title or None,
        published_at=_iso(article.publish_date),
        author=", ".join(authors) or None,
        authors=authors,
        algorithm=algorithm,
    )


@dataclass(frozen=True, slots=True)
class Peer:
    """A peer by name: the module it needs and the function that runs it."""

    name: str
    module: str
    run: PeerFn


PEERS: dict[str, Peer] = {
    p.name: p
    for p in (
        Peer("trafilatura", "trafilatura", run_trafilatura),
        Peer("trafilatura-precision", "trafilatura", run_trafilatura),
        Peer("readability-lxml", "readability", run_readability),
        Peer("newspaper4k", "newspaper", run_newspaper),
    )
}
#: the loggers peers write page-level complaints to (silenced during evaluation, as newscrawl's are)
PEER_LOGGERS = ("trafilatura", "htmldate", "courlan", "readability", "newspaper", "jieba")


def parse_peer_names(value: str) -> list[str]:
    """``--compare`` names, comma-separated; ValueError names an unknown one."""
    names = list(dict.fromkeys(n.strip() for n in value.split(",") if n.strip()))
    unknown = [n for n in names if n not in PEERS]
    if unknown:
        raise ValueError(f"unknown extractor {unknown[0]!r} for --compare; known: {', '.join(PEERS)}")
    return names


def load_peers(names: Iterable[str]) -> tuple[dict[str, PeerFn], list[str]]:
    """The runnable peers among ``names`` and the names skipped because their package is not installed.
    A runnable peer's package is imported now, once, before any page (and before ``--jobs`` forks)."""
    runnable: dict[str, PeerFn] = {}
    missing: list[str] = []
    for name in names:
        peer = PEERS[name]
        if importlib.util.find_spec(peer.module) is None:
            missing.append(name)
        else:
            importlib.import_module(peer.module)
            runnable[name] = peer.run
    if "newspaper4k" in runnable and importlib.util.find_spec("jieba") is not None:
        import jieba  # newspaper4k's Chinese tokenizer: load its dictionary once, not in every process

        jieba.setLogLevel(logging.CRITICAL)
        jieba.initialize()
    return runnable, missing


def quiet_peer_logs() -> None:
    """Page-level warnings of the peers are counted in the tables, not printed."""
    for name in PEER_LOGGERS:
        logging.getLogger(name).setLevel(logging.CRITICAL)
    warnings.filterwarnings("ignore", message="nltk is not installed")
