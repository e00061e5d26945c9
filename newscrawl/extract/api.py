"""The public entry point: ``extract(html, url=None, *, algorithm="auto", **params) -> Extraction``.

Stages, each a plain function testable alone: decode -> parse -> collect page metadata -> strip noise ->
classify (short/long, article/list) -> body extraction -> title, publish time, author.
A page that cannot be decoded or parsed, or that trips an internal error, gives an ``Extraction`` with
``error`` set; only a bad *argument* (unknown algorithm or parameter) raises, and it raises early.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from lxml import etree

from newscrawl.extract.algorithms import REGISTRY
from newscrawl.extract.classify import SHORT_THRESHOLD_BYTES
from newscrawl.extract.clean import compile_xpaths, prune_elements, strip_noise
from newscrawl.extract.decode import decode_html, strip_controls
from newscrawl.extract.document import (
    Element,
    ParseError,
    markup,
    node_path,
    parse_markup,
    strip_text_controls,
)
from newscrawl.extract.errorpage import detect_error_page
from newscrawl.extract.finish import finish_body
from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.limits import (
    DEFAULT_LIMITS,
    Budget,
    LimitExceeded,
    Limits,
    cap_bytes,
    cap_names,
    cap_text,
    check_attributes,
    check_start_tags,
    check_tree,
    cut_text,
)
from newscrawl.extract.listpage import kind_and_entries
from newscrawl.extract.metadata import collect_page_meta
from newscrawl.extract.metadata.language import load_model, needs_model
from newscrawl.extract.metadata.stage import find_metadata
from newscrawl.extract.overrides import compile_field_xpaths, read_fields
from newscrawl.extract.page import Page
from newscrawl.extract.result import BodyResult, Extraction, PageKind, freeze

logger = logging.getLogger(__name__)

#: every value ``algorithm=`` accepts
ALGORITHMS: tuple[str, ...] = tuple(REGISTRY)

@dataclass(slots=True)
class PreparedPage:
    """A page ready for the extractors: the result of :func:`prepare_page`, the input of :func:`run`.

    ``page`` is decoded, parsed, checked against the limits, its metadata collected, noise stripped and
    ``prune_xpath`` applied; ``budget`` is the page's time budget, already running.
    """

    page: Page
    encoding: str | None
    budget: Budget
    limits: Limits
    cut_bytes: int = 0
    #: characters of text cut by ``limits.max_text_chars``
    cut_chars: int = 0
    removed_noise_tags: int = 0
    removed_hidden: int = 0
    removed_by_prune_xpath: int = 0
    #: what the ``field_xpaths`` found on the page, by field (before noise stripping)
    overrides: dict[str, str] = dataclasses.field(default_factory=dict)


class PageError(Exception):
    """The page cannot be extracted (undecodable, unparsable or over a limit); ``encoding`` if known."""

    def __init__(self, message: str, encoding: str | None = None) -> None:
        super().__init__(message)
        self.encoding = encoding


def prepare_page(
    html: bytes | str | Element,
    url: str | None = None,
    *,
    http_charset: str | None = None,
    prune_xpath: str | Sequence[str] | None = None,
    field_xpaths: Mapping[str, str] | None = None,
    limits: Limits | None = None,
) -> PreparedPage:
    """The preparation step of :func:`extract`: decode, cap, parse, check limits, collect page metadata
    and what ``field_xpaths`` find, strip noise, apply ``prune_xpath``. Raises :class:`PageError` for a
    page that cannot go further and ValueError for a bad XPath or field.

    >>> prepared = prepare_page("<html><body><script>x()</script><p>正文</p></body></html>")
    >>> prepared.removed_noise_tags, prepared.page.root.xpath("string(//p)")
    (1, '正文')
    """
    prune = compile_xpaths(prune_xpath)  # compiled once per expression (cached)
    fields = compile_field_xpaths(field_xpaths)  # compiled once per site's set (cached)
    limits = DEFAULT_LIMITS if limits is None else limits
    budget = Budget(limits.time_budget)
    encoding = None
    cut = 0
    try:
        if isinstance(html, bytes | bytearray | memoryview):
            data, cut = cap_bytes(bytes(html), limits)
            decoded = decode_html(data, http_charset=http_charset)
            text, encoding = decoded.text, decoded.encoding
            if decoded.error:
                raise PageError(f"undecodable page: {decoded.error}", encoding)
            root = _checked_parse(text, limits, budget, decoded.utf8)
        elif isinstance(html, str):
            text, cut = cap_text(html, limits)
            text = _replace_surrogates(strip_controls(text))
            root = _checked_parse(text, limits, budget)
        elif isinstance(html, etree._Element):
            root = _copy_tree(html)
            text = etree.tostring(root, encoding="unicode")
            check_tree(root, limits)
        else:
            raise TypeError(f"html must be bytes, str or an lxml element, not {type(html).__name__}")
        cap_names(root)
        budget.check("parse")
        meta = collect_page_meta(root)
        overrides = read_fields(root, fields)
        report = strip_noise(root)
        pruned = prune_elements(root, prune)
        most = limits.max_text_chars
        cut_chars = cut_text(root, most) if most is not None and len(text) > most else 0
        if pruned or cut_chars:
            # the source-based extractors (seeds 001, 003) read the HTML text: give them the pruned page
            text = etree.tostring(root, encoding="unicode", method="html")
        budget.check("cleaning")
    except ParseError as e:
        raise PageError(f"unparsable page: {e}", encoding) from e
    except LimitExceeded as e:
        raise PageError(str(e), encoding) from e
    except RecursionError as e:
        raise PageError("page nested too deeply to process", encoding) from e
    except PageError:
        raise
    except Exception as e:  # a bad page must never escape as an exception (fuzzing found one that did)
        logger.exception("preparing %s failed", url or "<page>")
        raise PageError(f"internal error: {type(e).__name__}: {e}", encoding) from e
    return PreparedPage(
        page=Page(html=text, root=root, url=url, meta=meta, encoding=encoding),
        encoding=encoding,
        budget=budget,
        limits=limits,
        cut_bytes=cut,
        cut_chars=cut_chars,
        removed_noise_tags=report.noise_tags,
        removed_hidden=report.hidden,
        removed_by_prune_xpath=pruned,
        overrides=overrides,
    )


def extract(
    html: bytes | str | Element,
    url: str | None = None,
    *,
    algorithm: str = "auto",
    http_charset: str | None = None,
    reference_time: datetime | None = None,
    timezone: str | None = None,
    prune_xpath: str | Sequence[str] | None = None,
    field_xpaths: Mapping[str, str] | None = None,
    limits: Limits | None = None,
    page_kind: PageKind | None = None,
    **params: Any,
) -> Extraction:
    """Extract the main text and metadata of one page: :func:`prepare_page`, then :func:`run`.

    ``html`` is the raw bytes (decoded here: BOM, ``http_charset``, ``<meta>``, detection), text, or an
    lxml tree (copied, never changed). ``params`` override the algorithm's parameters by name.
    ``reference_time`` anchors relative dates ("3小时前", "昨天 09:27"). ``timezone`` (an IANA name, the
    site's zone) applies to times without an offset; None (the default) infers one from the page's
    declared language and region or its host, and where nothing implies one no zone is invented: such a
    time stays naive (``2024-09-03T04:03:19``). An offset on the page always wins.
    ``prune_xpath`` removes the elements one or more XPath expressions select before any extractor runs
    (a site's promo boxes, say); a bad expression raises ValueError.
    ``field_xpaths`` (``{"title": ..., "published_at": ..., "modified_at": ..., "author": ..., "body":
    ...}``, a site's overrides) are run on the page's tree; what they find wins over the chains and is
    parsed like every other value (``sources`` says ``xpath``). A bad field or expression raises ValueError.
    ``limits`` bounds the work on the page (size, elements, depth, time; see ``limits.py``): a page over
    a limit gives an ``error`` naming it (attributes are checked before parsing), except size, which
    cuts the page and says so in ``figures``; the time budget covers every stage, metadata included.
    ``page_kind`` is the kind the caller already knows (a crawler whose URL pattern says "article"): the
    page-kind classifier is then skipped (``figures["page_kind"]`` says so) and no list entries are read.

    >>> r = extract("<html><body><h1>T</h1><p>" + "正文内容。" * 40 + "</p></body></html>")
    >>> r.algorithm, r.text[:5]
    ('auto', '正文内容。')
    """
    algo_params = make_params(algorithm, params)
    check_timezone(timezone)
    check_page_kind(page_kind)
    compile_xpaths(prune_xpath)  # a bad expression raises here, before any work
    compile_field_xpaths(field_xpaths)
    try:
        prepared = prepare_page(
            html, url, http_charset=http_charset, prune_xpath=prune_xpath, field_xpaths=field_xpaths,
            limits=limits,
        )
    except PageError as e:
        return Extraction(url=url, encoding=e.encoding, error=str(e))
    return run(
        prepared, algorithm, algo_params,
        reference_time=reference_time, timezone=timezone, page_kind=page_kind,
    )  # fmt: skip


def make_params(algorithm: str, params: Mapping[str, Any]) -> Any:
    """The parameter object of ``algorithm`` with ``params`` applied; ValueError names what is wrong."""
    algo = REGISTRY.get(algorithm)
    if algo is None:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose one of: {', '.join(ALGORITHMS)}")
    return algo.make_params(params) if params else _default_params(algorithm)


@cache
def _default_params(algorithm: str) -> Any:
    """The default parameter object of ``algorithm``, built once (parameter objects are frozen)."""
    return REGISTRY[algorithm].make_params({})


def check_timezone(timezone: str | None) -> None:
    """Raise ValueError unless ``timezone`` is None or an IANA zone name."""
    if timezone is not None:
        try:
            ZoneInfo(timezone)
        except (ZoneInfoNotFoundError, ValueError) as e:
            hint = "use an IANA name such as 'Asia/Shanghai'"
            raise ValueError(f"unknown time zone {timezone!r}: {hint}") from e


def check_page_kind(page_kind: str | None) -> None:
    """Raise ValueError unless ``page_kind`` is None, ``"article"`` or ``"list"``."""
    if page_kind not in (None, "article", "list"):
        raise ValueError(f"page_kind must be 'article', 'list' or None, not {page_kind!r}")


def run(
    prepared: PreparedPage,
    algorithm: str = "auto",
    algo_params: Any = None,
    *,
    reference_time: datetime | None = None,
    timezone: str | None = None,
    page_kind: PageKind | None = None,
) -> Extraction:
    """The run step of :func:`extract`: classify, extract the body, find the metadata, within the page's
    time budget. Never raises for a bad page: the ``Extraction`` has ``error`` set instead. A given
    ``page_kind`` skips the page-kind classifier."""
    if algo_params is None:
        algo_params = make_params(algorithm, {})
    url, encoding = prepared.page.url, prepared.encoding
    try:
        result = _run(prepared, algorithm, algo_params, reference_time, timezone, page_kind)
        cut_figures: dict[str, Any] = {}
        if prepared.cut_bytes:
            cut_figures.update(cut_bytes=prepared.cut_bytes, max_body_bytes=prepared.limits.max_body_bytes)
        if prepared.cut_chars:
            most = prepared.limits.max_text_chars
            cut_figures.update(cut_text_chars=prepared.cut_chars, max_text_chars=most)
        if cut_figures:
            result = dataclasses.replace(result, figures=freeze({**result.figures, "limits": cut_figures}))
        return result
    except LimitExceeded as e:
        return Extraction(url=url, encoding=encoding, error=str(e))
    except RecursionError:
        return Extraction(url=url, encoding=encoding, error="page nested too deeply to process")
    except Exception as e:  # a bad page must never escape as an exception
        logger.exception("extraction failed on %s", url or "<page>")
        return Extraction(url=url, encoding=encoding, error=f"internal error: {type(e).__name__}: {e}")


_SURROGATE = lazy_compile("[\ud800-\udfff]")


def _replace_surrogates(text: str) -> str:
    """``text`` with lone surrogates (a ``surrogateescape`` decoding, bad JSON) as U+FFFD: no codec writes
    them, and the extractors that read the page's source encode it (fuzzing found one that failed)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


def _checked_parse(text: str, limits: Limits, budget: Budget, utf8: bytes | None = None) -> Element:
    """``text`` parsed, once the limits that bound lxml's own work allow it (start tags; attributes, read
    in the very bytes lxml is given), and its tree checked. ``utf8``: the text's bytes, when decoding has
    them."""
    data = markup(text, utf8)
    check_start_tags(data, limits)
    check_attributes(data, limits)
    budget.check("decode")
    root = parse_markup(data)
    check_tree(root, limits, source_bytes=len(data))
    return root


def _copy_tree(el: Element) -> Element:
    tree = el.getroottree()
    return etree.fromstring(etree.tostring(tree), parser=etree.HTMLParser()) if tree is not None else el


def _run(
    prepared: PreparedPage,
    algorithm: str,
    algo_params: Any,
    reference_time: datetime | None,
    timezone: str | None,
    known_kind: PageKind | None = None,
) -> Extraction:
    page, budget = prepared.page, prepared.budget
    stats = page.stats
    short_threshold = getattr(algo_params, "short_threshold", SHORT_THRESHOLD_BYTES)
    cls = page.classification(short_threshold)
    body: BodyResult = REGISTRY[algorithm].run(page, algo_params)
    budget.check("body extraction")
    if known_kind is None:
        kind, entries, kind_figures = kind_and_entries(page)
        budget.check("page kind")
    else:
        kind, entries, kind_figures = known_kind, (), {"reason": "given by the caller"}
    produced_by = str(body.figures.get("chosen", algorithm))
    given = prepared.overrides
    if page.meta.language is None and needs_model(body.text):
        budget.exclude(load_model())  # the language model's one-off load is not this page's time
    metadata = find_metadata(page, body, reference_time=reference_time, timezone=timezone, overrides=given)
    budget.check("metadata")
    bylines = 0
    if "body" in given:
        paragraphs = tuple(given["body"].split("\n"))
    else:  # the headline again as the first paragraph, a paragraph repeated right after itself, a byline
        # or dateline paragraph at the head: dropped
        found = metadata.fields
        credited = (*(found.get("authors") or ()), *filter(None, (found.get("editor"), found.get("source"))))
        paragraphs, bylines = finish_body(body.paragraphs, found.get("title"), credited)
    text = "\n".join(paragraphs)
    final_kind: PageKind = kind
    if kind == "article":  # also when the caller gave it: a removed article still sits at its article URL
        error_page = detect_error_page(page.meta.title, page.body, text)
        if error_page is not None:
            final_kind = "error"
            why = f"error page ({error_page['error_page']}): {error_page['signal']} {error_page['phrase']!r}"
            kind_figures = {**kind_figures, **error_page, "reason": why}
    figures: dict[str, Any] = dict(body.figures)
    if metadata.failures:
        figures["metadata_failures"] = dict(metadata.failures)
    # auto classifies by the content it found (seed 000's coarse node is usually one paragraph, which
    # calls most multi-paragraph articles short); the named algorithms report seed 000's classifier.
    page_class = str(body.figures.get("page_class", cls.page_class))
    coarse_length = int(body.figures.get("content_bytes", cls.coarse_length))
    figures.update(
        {
            "seed000_page_class": cls.page_class,
            "seed000_coarse_length": cls.coarse_length,
            "coarse_node": node_path(stats.elements[cls.node]) if len(stats) else None,
            "nodes": len(stats),
            "removed_noise_tags": prepared.removed_noise_tags,
            "removed_hidden": prepared.removed_hidden,
            "removed_by_prune_xpath": prepared.removed_by_prune_xpath,
            "byline_paragraphs": bylines,
            "page_kind": kind_figures,
        }
    )
    fields: dict[str, Any] = {
        k: strip_text_controls(v) if isinstance(v, str) else v for k, v in metadata.fields.items()
    }
    return Extraction(
        # (a text whose every paragraph is printable holds no control character: most, and no scan)
        text=text if all(p.isprintable() for p in paragraphs) else strip_text_controls(text),
        **fields,
        algorithm=produced_by,
        page_class=page_class,  # type: ignore[arg-type]
        page_kind=final_kind,
        url=page.url,
        encoding=prepared.encoding,
        coarse_length=coarse_length,
        node_path=node_path(body.node),
        reason=str(body.figures.get("why", f"algorithm {algorithm!r} requested")),
        figures=freeze(figures),
        sources=freeze({**metadata.sources, **({"text": "xpath"} if "body" in given else {})}),
        entries=entries,
        canonical_link=page.meta.canonical or page.meta.meta.get("og:url"),
    )


def params_of(algorithm: str) -> Mapping[str, Any]:
    """The default parameters of ``algorithm``, by name."""
    import dataclasses

    algo = REGISTRY[algorithm]
    return {f.name: f.default for f in dataclasses.fields(algo.params_type)}
