"""Bounded work per page: named limits on size, element count, nesting depth and time.

Each limit is a field of :class:`Limits` (``None`` switches it off) and applies as follows:

=================  ===========  ==================================================================
limit              default      when a page goes over it
=================  ===========  ==================================================================
``max_body_bytes`` 8 MiB        the page is cut at the last ``<`` before the limit (characters for
                                ``str`` input) and extracted; ``figures["limits"]`` records the cut.
                                Article text comes early in a page; what lies megabytes in is
                                scripts, comments and endless listings, so a cut keeps the record.
``max_nodes``      50,000       ``error`` names the limit: the page is not extracted (every stage
                                is linear or worse in elements; a cut tree would be a wrong record).
``max_depth``      200          ``error`` names the limit. lxml's HTML parser stops reading at depth
                                256 and drops the rest of the page, so a page nested that deep
                                cannot be extracted faithfully; 200 reports it before that cut.
``max_attributes`` 1,000        ``error`` names the limit: an element with more attributes, or a page
                                whose elements hold more than ten times the attribute pairs of one
                                element at the limit, is refused before lxml parses it (libxml2 is
                                quadratic in attributes per element: one <div> with 160,000 of them
                                took 34 s to parse, 8 MB of 999-attribute elements 28 s).
``max_text_chars`` 1,000,000    the page's text after noise stripping is cut there (document order)
                                and extracted; ``figures["limits"]`` records the cut. Text stages
                                cost up to 0.2 us a character (an 8 MB text of one-character words
                                took 1.7 s of CPU); no page of the evaluation sets has half as much.
``time_budget``    5 s          CPU seconds of the thread running ``extract()`` (the page's own
                                work: a loaded machine does not spend it), checked after each stage
                                (parse, clean, body, page kind, metadata); a page over budget gives
                                an ``error`` naming the stage. A running stage is not interrupted:
                                the size and element limits bound what one stage costs, and a
                                crawler's worker process is killed at a hard limit of wall time
                                (``NEWSCRAWL_EXTRACT_KILL_AFTER``).
=================  ===========  ==================================================================

Nothing in the extraction library recurses on tree depth (the walks are ``iter``/``iterwalk`` loops),
so depth costs no stack; the depth limit is about faithful results, not crashes.

>>> Limits(max_nodes=10).max_nodes, Limits.unlimited().time_budget
(10, None)
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, BinaryIO

from lxml import etree

from newscrawl.extract.document import Element
from newscrawl.extract.native import cstats

#: bytes of a page extracted at most; 5x the largest page of the evaluation sets (1.6 MB), and
#: extraction of an 8 MiB page stays within a few seconds on one core
MAX_BODY_BYTES = 8 * 1024 * 1024
#: elements of a page at most; 5x the largest page of the evaluation sets (9,748 elements)
MAX_NODES = 50_000
#: nesting depth at most; 4x the deepest page of the evaluation sets (50), below libxml2's cut at 256
MAX_DEPTH = 200
#: attributes of one element at most; 14x the most of the evaluation sets (73, a de-WAZ page; 1,757
#: pages). libxml2 takes ~0.3 s for 10,000 attributes on one element and grows as their square
MAX_ATTRIBUTES = 1_000
#: a page's elements with more than PAIRS_FROM attributes may hold at most this many times the pairs of
#: attributes of one element at MAX_ATTRIBUTES (libxml2 compares each pair, 4-7 ns each: 5M pairs take
#: about 0.03 s; the evaluation sets' pages have at most 6,261 pairs over elements of 16 or more)
ATTRIBUTE_PAIRS_FACTOR = 10
#: characters of text (after noise stripping) extracted at most; 2x the most of the evaluation sets
#: (483,213: a German sports page; 1,757 pages), and about 0.2 s of the text stages on the worst text
MAX_TEXT_CHARS = 1_000_000
#: attributes of a page at most, this many per element of ``max_nodes`` (checked after parsing: the stages
#: read attributes; 24,000 elements of 63 attributes each, 8 MB, took 1.0 s of CPU). The most of the
#: evaluation sets is 10,154 attributes on a page, 3.7 per element
ATTRIBUTES_PER_NODE = 4
#: CPU seconds of work per page, checked between stages; typical pages take 5-20 ms
TIME_BUDGET_SECONDS = 5.0
#: how far back from the byte limit a cut looks for a ``<`` to cut before
_CUT_LOOKBACK = 65_536


class LimitExceeded(Exception):
    """A page went over one of its :class:`Limits`; ``limit`` names the field."""

    def __init__(self, limit: str, message: str) -> None:
        super().__init__(message)
        self.limit = limit


@dataclass(frozen=True, slots=True)
class Limits:
    """Limits on the work spent on one page; ``None`` switches a limit off. Bad values raise early."""

    max_body_bytes: int | None = MAX_BODY_BYTES
    max_nodes: int | None = MAX_NODES
    max_depth: int | None = MAX_DEPTH
    time_budget: float | None = TIME_BUDGET_SECONDS
    max_attributes: int | None = MAX_ATTRIBUTES
    max_text_chars: int | None = MAX_TEXT_CHARS

    def __post_init__(self) -> None:
        for field in fields(self):
            name = field.name
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise ValueError(f"limit {name} must be a positive number or None, got {value!r}")
            if name != "time_budget" and not isinstance(value, int):
                raise ValueError(f"limit {name} must be a whole number, got {value!r}")

    @classmethod
    def unlimited(cls) -> Limits:
        """No limits at all (for trusted input and measurements)."""
        return cls(None, None, None, None, None, None)


DEFAULT_LIMITS = Limits()


def cap_bytes(data: bytes, limits: Limits) -> tuple[bytes, int]:
    """``data`` cut to ``limits.max_body_bytes`` (before a ``<`` when one is near), and the bytes dropped.

    A ``<`` byte is never part of a multi-byte character in UTF-8 or GBK, so the cut splits no character.

    >>> cap_bytes(b"<p>abc</p><p>def</p>", Limits(max_body_bytes=15))
    (b'<p>abc</p>', 10)
    """
    cap = limits.max_body_bytes
    if cap is None or len(data) <= cap:
        return data, 0
    cut = data.rfind(b"<", max(0, cap - _CUT_LOOKBACK), cap)
    if cut <= 0:
        cut = cap
    return data[:cut], len(data) - cut


def read_capped(file: BinaryIO, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """At most ``limits.max_body_bytes + 1`` bytes of ``file``: enough for :func:`cap_bytes` to see the
    page is over the limit, never the rest (``/dev/zero`` and endless pipes end there).

    >>> import io
    >>> len(read_capped(io.BytesIO(bytes(100)), Limits(max_body_bytes=10)))
    11
    """
    cap = limits.max_body_bytes
    return file.read() if cap is None else file.read(cap + 1)


def cap_text(text: str, limits: Limits) -> tuple[str, int]:
    """The ``str`` form of :func:`cap_bytes`: the limit counts characters."""
    cap = limits.max_body_bytes
    if cap is None or len(text) <= cap:
        return text, 0
    cut = text.rfind("<", max(0, cap - _CUT_LOOKBACK), cap)
    if cut <= 0:
        cut = cap
    return text[:cut], len(text) - cut


# Tags as HTML5 (and libxml2 2.14) tokenizes them: a name, then attributes separated by white space or
# '/', each a name (any characters but white space, '/' and '>'; '=' ends it) and an optional value
# (quoted: anything up to the closing quote or the end of the page, '<' and '>' included; unquoted: up
# to white space or '>'). End tags count too: libxml2 reads their attributes. Possessive throughout:
# nothing is ever scanned twice. White space is HTML's (tab, line feed, form feed, carriage return,
# space): a no-break space is an attribute's character to libxml2, so '=\xa0"' opens no quoted value
# (read as one, it let a quote hide the next tag's 1,500 attributes from the scan)
_WS = r"\t\n\f\r "
_NAME = rf"[^{_WS}/>][^{_WS}/>=]*+"
_VALUE = rf"""(?:[{_WS}]*+=[{_WS}]*+(?:"[^"]*+(?:"|\Z)|'[^']*+(?:'|\Z)|[^{_WS}>]*+))?+"""
_ATTRIBUTE = rf"[{_WS}/]*+{_NAME}{_VALUE}"
_TAG = rf"</?[A-Za-z][^{_WS}/>]*+"
#: elements whose text is not markup, as libxml2 reads them: script and style; from libxml2 2.14 (an
#: HTML5 tokenizer) also the RCDATA and RAWTEXT elements (before it, their text was parsed as markup)
_RAW_TEXT = ("script", "style")
_SKIPPED_TEXT = _RAW_TEXT + (
    ("title", "textarea", "xmp", "iframe", "noembed", "noframes", "plaintext")
    if etree.LIBXML_VERSION >= (2, 14)
    else ()
)
#: what is no tag and holds none, as HTML5 reads it, after its '<': a comment (to ``-->``, ``--!>`` or the
#: end; ``<!-->`` and ``<!--->`` are empty), a bogus comment to the next '>' (``<!DOCTYPE``, ``<![CDATA[``,
#: ``<?php``, ``</ x>``), a '<' that opens nothing (with the text after it)
_NOT_A_TAG = (
    r"!--(?:->|>|(?:[^-]++|-(?!-!?>))*+(?:--!?>|\Z))"
    r"|!(?!--)[^>]*+>?|\?[^>]*+>?|/(?![A-Za-z])[^>]*+>?"
    r"|(?![A-Za-z!?/])[^<]*+"
)
#: elements with more attributes than this count towards a page's attribute pairs. Below it libxml2's
#: quadratic cost does not show: 8 MB of 100-attribute elements parse 0.5 s slower than of 1-attribute
#: ones (2.4 s; 400 attributes: 2.6 s slower). The most on one element in the evaluation sets is 73
PAIRS_FROM = 64


def _ascii_case(name: str) -> str:
    # ``name`` in any case of its ASCII letters, as HTML reads tag names (``(?i:script)`` would also
    # take "ſcript", which libxml2 does not: a '</ſcript>' in a script ended it early for the scan)
    return "".join(f"[{c}{c.upper()}]" for c in name)


def _compile(source: str, binary: bool) -> re.Pattern[Any]:
    # every pattern here is ASCII, so the bytes form reads UTF-8 as the text form reads its characters
    return re.compile(source.encode("ascii") if binary else source)


@lru_cache(maxsize=8)
def _light_run(most: int, binary: bool) -> re.Pattern[Any]:
    # from where it is matched, every stretch of text, comment and tag with at most ``most`` attributes,
    # one after the other: it stops at the first heavier tag (or the end). What follows a '<' decides
    # which of these it opens (they exclude each other but for the elements below and other tags), so a
    # '<' is not tried against every alternative in turn (a third of the scan's time on real pages)
    attributes = rf"(?:{_ATTRIBUTE}){{0,{most}}}+"
    light = rf"/?[A-Za-z][^{_WS}/>]*+{attributes}(?=[{_WS}/]*+(?:>|\Z))"
    # the common shape first, with '>': names of no quote, '=', '<' or '/', values in double quotes, each
    # after white space; it takes a tag only when the tag is just that, so any other falls to ``light``
    # (a tenth of the scan's time on real pages)
    plain_attribute = rf"""[{_WS}]++[^{_WS}/>="'<]++(?:="[^"]*+")?+"""
    plain = rf"/?[A-Za-z][^{_WS}/>]*+(?:{plain_attribute}){{0,{most}}}+[{_WS}]*+/?>"
    # <script>, <style> (...) whole: their text is not markup ("a<b" in a script is no tag); tried first,
    # on their first letters only
    raw = "|".join(
        rf"{_ascii_case(name)}(?=[{_WS}/>]){attributes}[{_WS}/]*+>(?:[^<]++|<(?!/{_ascii_case(name)}))*+"
        for name in _SKIPPED_TEXT
    )
    firsts = "".join(sorted({c for name in _SKIPPED_TEXT for c in (name[0], name[0].upper())}))
    # a bare end tag ("</div>", half the tags of a page) before all of them: ``plain`` takes it whole too,
    # but only after the test for the elements above and its attribute loop (a tenth of the scan's time:
    # scrapinghub 0.19 against 0.21 ms a page)
    end = rf"/[A-Za-z][^{_WS}/>]*+>"
    # comments whole, so a <script> in one does not hide what follows it (fuzzing found "<!D<script>",
    # a bogus comment to HTML5, read as a script to the end of the page, and libxml2 parsing the 5,000
    # attributes after it for minutes)
    return _compile(
        rf"(?:[^<]++|<(?:{end}|(?=[{firsts}])(?:{raw})|{plain}|{light}|{_NOT_A_TAG}))*+", binary
    )


@lru_cache(maxsize=8)
def _heavy_tag(most: int, binary: bool) -> re.Pattern[Any]:
    # a tag's name and at most ``most`` attributes (a tag with more is read no further)
    return _compile(rf"{_TAG}(?P<attributes>(?:{_ATTRIBUTE}){{0,{most}}}+)", binary)


@lru_cache(maxsize=2)
def _attributes(binary: bool) -> re.Pattern[Any]:
    # the attributes of one tag, counted by ``findall``
    return _compile(_ATTRIBUTE, binary)


def attribute_counts(text: str | bytes, most: int = MAX_ATTRIBUTES) -> Iterator[int]:
    """The attribute count of every start tag in ``text`` with more than :data:`PAIRS_FROM` (or ``most``)
    of them, ``most + 1`` for a tag with more than ``most`` (the rest of it is not read). One pass, as HTML5
    tokenizes: a quoted value may hold '<' and '>'; a tag ends at an unquoted '>'. ``text`` may be the
    UTF-8 bytes lxml is given (:func:`newscrawl.extract.document.markup`): the same counts.

    The C extension's scan (``_cstats.attribute_counts``) when it is built, else
    :func:`python_attribute_counts`, the reference: the two give the same counts on every input (a
    hypothesis test, and ``python -m newscrawl.bench.native`` over the evaluation sets).

    >>> list(attribute_counts("<p a b>x</p><div " + " ".join(f"a{i}" for i in range(70)) + ">"))
    [70]
    """
    if _c_attribute_counts is None:
        return python_attribute_counts(text, most)
    # every pattern is ASCII, so the UTF-8 form of a text gives its counts (surrogates: bytes >= 0x80 too)
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return iter(_c_attribute_counts(data, min(PAIRS_FROM, most), most + 1, _SKIPPED_NAMES))


#: the C scan, when the extension is built (an extension built before it lacks it: the regular expressions)
_c_attribute_counts: Callable[[bytes, int, int, tuple[bytes, ...]], list[int]] | None = getattr(
    cstats, "attribute_counts", None
)
_SKIPPED_NAMES = tuple(name.encode("ascii") for name in _SKIPPED_TEXT)


def python_attribute_counts(text: str | bytes, most: int = MAX_ATTRIBUTES) -> Iterator[int]:
    """:func:`attribute_counts` by regular expressions: the reference of the C scan, and its fallback.

    >>> list(python_attribute_counts("<div " + " ".join(f"a{i}" for i in range(70)) + ">"))
    [70]
    """
    binary = isinstance(text, bytes)
    light, heavy = _light_run(min(PAIRS_FROM, most), binary), _heavy_tag(most + 1, binary)
    attributes, pos, end = _attributes(binary), 0, len(text)
    while True:
        run = light.match(text, pos)
        assert run is not None  # the light run matches the empty string too
        pos = run.end()
        if pos >= end:
            return
        tag = heavy.match(text, pos)
        assert tag is not None  # the light run stops only before a start tag
        yield len(attributes.findall(text, tag.start("attributes"), tag.end()))
        pos = max(tag.end(), pos + 1)


def check_attributes(text: str | bytes, limits: Limits) -> None:
    """Raise :class:`LimitExceeded` when an element of ``text`` has more than ``limits.max_attributes``
    attributes, or its elements' attributes would cost libxml2 more than ten elements at that limit:
    run before parsing, since libxml2 compares every attribute of an element with every other (an 8 MB
    page of elements with 999 attributes each took 28 s to parse). Linear in the page.

    >>> try:
    ...     check_attributes("<div " + " ".join(f"a{i}" for i in range(20)) + ">", Limits(max_attributes=19))
    ... except LimitExceeded as e:
    ...     print(e)
    element with more than 19 attributes, over the limit max_attributes=19
    """
    limit = limits.max_attributes
    if limit is None:
        return
    budget = ATTRIBUTE_PAIRS_FACTOR * limit * (limit - 1) // 2
    pairs = 0
    for count in attribute_counts(text, limit):
        if count > limit:
            raise LimitExceeded(
                "max_attributes",
                f"element with more than {limit} attributes, over the limit max_attributes={limit}",
            )
        pairs += count * (count - 1) // 2
        if pairs > budget:
            raise LimitExceeded(
                "max_attributes",
                f"elements with too many attributes: over {budget:,} pairs of attributes of one element "
                f"({ATTRIBUTE_PAIRS_FACTOR} elements at the limit max_attributes={limit})",
            )


@lru_cache(maxsize=2)
def _start_tag(binary: bool) -> re.Pattern[Any]:
    # a tag (start or end), comment, <!...> or <?...>, or a <script>/<style> element's start tag and text
    # whole (its text makes no elements)
    raw = (rf"<{_ascii_case(name)}(?=[{_WS}/>])(?:[^<]++|<(?!/{_ascii_case(name)}))*+" for name in _RAW_TEXT)
    return _compile("|".join(raw) + "|<[A-Za-z/!?]", binary)


@lru_cache(maxsize=2)
def _tag_open(binary: bool) -> re.Pattern[Any]:
    # what every tag, comment, <!...> and <?...> opens with
    return _compile("<[A-Za-z/!?]", binary)


#: a page with more tags than this many times ``max_nodes`` is refused before it is parsed: lxml alone takes
#: about 0.6 s (quiet machine) to 2.5 s (loaded) on 8 MB of tiny tags (1M of them), and such a page would be
#: refused after parsing anyway. End tags, comments and ``<!...>``/``<?...>`` count too: they make no
#: element, but the algorithms that read the source token by token (blockstats, linedensity) pay for each
#: (8 MiB of ``&#1;</p>``: 1.4-2.0 s in blockstats, of ``&#N;</p>`` with N distinct: 2.4 s in linedensity),
#: and a page of N elements has about 2N tags. Below it the element count after parsing decides (4x leaves
#: room for end tags, comments and start tags libxml2 merges or drops: a second <body>, tags in <title>)
START_TAGS_FACTOR = 4


#: the C extension's count of one byte in bytes, when it is built
_c_count_byte: Callable[[bytes, int], int] | None = getattr(cstats, "count_byte", None)


def check_start_tags(text: str | bytes, limits: Limits) -> None:
    """Raise :class:`LimitExceeded` (naming ``max_nodes``) when ``text`` (or the UTF-8 bytes lxml is given)
    has more than :data:`START_TAGS_FACTOR` times ``limits.max_nodes`` tags (start and end tags,
    comments, ``<!...>`` and ``<?...>``) outside scripts and styles. Stops counting there, so it costs
    little more than a count of ``<`` on any page.

    >>> try:
    ...     check_start_tags("<p>x</p>" * 5, Limits(max_nodes=2))
    ... except LimitExceeded as e:
    ...     print(e)
    page too large: more than 8 tags (start and end tags, comments), over 4x the limit max_nodes=2
    """
    if limits.max_nodes is None:
        return
    most = START_TAGS_FACTOR * limits.max_nodes
    if len(text) <= most:  # (each tag takes a '<': no count of them needed)
        return
    binary = isinstance(text, bytes)
    if isinstance(text, str):
        opened = text.count("<")
    elif _c_count_byte is not None:  # (bytes.count reads a byte at a time: 2 GB/s against 13)
        opened = _c_count_byte(text, ord("<"))
    else:
        opened = text.count(b"<")
    if opened <= most:
        return
    # every tag opens with "<" and a letter, '/', '!' or '?', so no more of those than the limit settles
    # it, at a third of the full pattern's cost on text full of "<" (8 MB of "< <": 0.06 s against 0.18 s)
    if not any(count > most for count, _ in enumerate(_tag_open(binary).finditer(text), 1)):
        return
    for count, _ in enumerate(_start_tag(binary).finditer(text), 1):
        if count > most:
            raise LimitExceeded(
                "max_nodes",
                f"page too large: more than {most} tags (start and end tags, comments), over "
                f"{START_TAGS_FACTOR}x the limit "
                f"max_nodes={limits.max_nodes}",
            )


_COUNT_ELEMENTS = etree.XPath("count(//*)")


@lru_cache(maxsize=8)
def _at_depth(depth: int) -> etree.XPath:
    # the elements ``depth`` levels below the root, found level by level in C (no Python per element)
    return etree.XPath("/*" + "/*" * depth)


_COUNT_ATTRIBUTES = etree.XPath("count(//@*)")
#: characters of a class or id value kept (4,334 at most on the evaluation sets' pages): every class and
#: id test of the stages reads them token by token, and an unterminated class of a fuzzed page (input 59612
#: of seed 18) held 6.5 MB, 850,000 tokens: 1.4 s of CPU, though 0.5 s when timed again (the tests'
#: caches then knew it)
MAX_NAME_CHARS = 10_000
_LONG_NAMES = etree.XPath(
    f"descendant-or-self::*/@class[string-length() > {MAX_NAME_CHARS}]"
    f" | descendant-or-self::*/@id[string-length() > {MAX_NAME_CHARS}]"
)  # attributes, not elements tested: half the cost (0.27 ms a page of the evaluation sets); elements, not
# every node (``//`` visits the text nodes too): a tenth less (scrapinghub: 0.069 against 0.077 ms a page)


def cap_names(root: Element) -> int:
    """Cut ``class`` and ``id`` values of ``root``'s tree to :data:`MAX_NAME_CHARS`; the values cut.

    >>> root = etree.fromstring('<div class="' + 'a ' * 6_000 + '"><p id="x">t</p></div>')
    >>> cap_names(root), len(root.get("class")), root[0].get("id")
    (1, 10000, 'x')
    """
    if cstats is not None and (counts := cstats.tree_counts(root, MAX_NAME_CHARS)) is not None:
        if counts[3] == 0:  # (the C pass's count of long values: none, the usual answer, needs no XPath)
            return 0
    values = _LONG_NAMES(root)
    for value in values:
        value.getparent().set(value.attrname, value[:MAX_NAME_CHARS])
    return len(values)


def check_tree(root: Element, limits: Limits, source_bytes: int | None = None) -> int:
    """Raise :class:`LimitExceeded` when ``root``'s tree has too many elements or attributes (more than
    :data:`ATTRIBUTES_PER_NODE` per element of ``max_nodes``) or is nested too deeply. ``source_bytes``:
    the size of what was parsed, when known (every attribute takes at least two of its bytes, a name and
    what separates it: a page too small to hold too many is not counted).

    Returns the number of elements.

    >>> try:
    ...     check_tree(etree.fromstring("<a><b><c/></b></a>"), Limits(max_depth=2))
    ... except LimitExceeded as e:
    ...     print(e)
    page nested too deeply: deeper than the limit max_depth=2
    """
    counts = None if cstats is None else cstats.tree_counts(root, MAX_NAME_CHARS)
    if counts is not None:  # one C walk of the tree answers the three XPaths below
        elements: int = counts[0]
        _check_counts(limits, elements, counts[1], counts[2], source_bytes)
        return elements
    count = int(_COUNT_ELEMENTS(root))
    if limits.max_nodes is not None and count > limits.max_nodes:
        raise LimitExceeded(
            "max_nodes", f"page too large: {count} elements, over the limit max_nodes={limits.max_nodes}"
        )
    most = None if limits.max_nodes is None else ATTRIBUTES_PER_NODE * limits.max_nodes
    if most is not None and (source_bytes is None or source_bytes > 2 * most):
        attributes = int(_COUNT_ATTRIBUTES(root))
        if attributes > most:
            raise LimitExceeded(
                "max_nodes",
                f"page too large: {attributes} attributes, over {ATTRIBUTES_PER_NODE} per element of the "
                f"limit max_nodes={limits.max_nodes}",
            )
    depth = limits.max_depth
    if depth is not None and count > depth and _at_depth(depth)(root):
        raise LimitExceeded(
            "max_depth", f"page nested too deeply: deeper than the limit max_depth={depth}"
        )
    return count


def _check_counts(
    limits: Limits, count: int, attributes: int, deepest: int, source_bytes: int | None
) -> None:
    # check_tree's tests on the C pass's counts: the same limits, in the same order, with the same messages
    if limits.max_nodes is not None and count > limits.max_nodes:
        raise LimitExceeded(
            "max_nodes", f"page too large: {count} elements, over the limit max_nodes={limits.max_nodes}"
        )
    most = None if limits.max_nodes is None else ATTRIBUTES_PER_NODE * limits.max_nodes
    if most is not None and (source_bytes is None or source_bytes > 2 * most) and attributes > most:
        raise LimitExceeded(
            "max_nodes",
            f"page too large: {attributes} attributes, over {ATTRIBUTES_PER_NODE} per element of the "
            f"limit max_nodes={limits.max_nodes}",
        )
    depth = limits.max_depth
    if depth is not None and deepest >= depth:
        raise LimitExceeded(
            "max_depth", f"page nested too deeply: deeper than the limit max_depth={depth}"
        )


def cut_text(root: Element, most: int) -> int:
    """Cut ``root``'s tree in place after its first ``most`` characters of text (element text and tails in
    document order): the element where the limit falls keeps the part of its text or tail before it,
    everything after is removed. Returns the characters dropped (0: the tree was left alone).

    >>> root = etree.fromstring("<div><p>abc</p>tail<p>def</p>end</div>")
    >>> cut_text(root, 5), etree.tostring(root)
    (8, b'<div><p>abc</p>ta</div>')
    """
    seen = 0
    cut: tuple[bool, Element, int] | None = None  # (in the element's text, not its tail; where; kept)
    for event, el in etree.iterwalk(root, events=("start", "end")):
        piece = el.text if event == "start" else (el.tail if el is not root else None)
        if not piece:
            continue
        if cut is None and seen + len(piece) > most:
            cut = (event == "start", el, most - seen)
        seen += len(piece)
    if cut is None:
        return 0
    in_text, el, keep = cut
    if in_text:
        el.text = (el.text or "")[:keep]
        for child in list(el):
            el.remove(child)  # with its tail
    else:
        el.tail = (el.tail or "")[:keep]
    node: Element | None = el
    while node is not None:
        parent = node.getparent()
        if parent is not None:
            for sibling in list(node.itersiblings()):
                parent.remove(sibling)
        if node is not el or in_text:
            node.tail = None
        node = parent
    return seen - most


#: the clock of the time budget: CPU seconds of the thread running ``extract()`` (a crawl's worker process,
#: or the reactor thread with ``NEWSCRAWL_EXTRACT_WORKERS=0``), so a page is charged its own work, not
#: the machine's load (wall time had refused pages of 1 s of CPU at 5 s under load). Tests replace it
budget_clock: Callable[[], float] = time.thread_time


class Budget:
    """A per-page time budget in CPU seconds of this thread (:data:`budget_clock`), checked between stages
    with :meth:`check`; ``clock`` replaces the module's clock (tests).

    Each check also records the stage's lap in :attr:`laps`: its name, the wall seconds and the CPU
    seconds of this thread since the previous check (what ``python -m newscrawl.bench.shapes`` reports).

    >>> budget = Budget(None); budget.check("parse"); [name for name, _, _ in budget.laps]
    ['parse']
    """

    __slots__ = ("_clock", "_cpu", "_lap", "laps", "seconds", "start")

    def __init__(self, seconds: float | None, clock: Callable[[], float] | None = None) -> None:
        self.seconds = seconds
        self._clock = budget_clock if clock is None else clock
        self.start = self._cpu = self._clock()
        self._lap = time.perf_counter()
        self.laps: list[tuple[str, float, float]] = []

    def elapsed(self) -> float:
        """CPU seconds spent on the page so far (what the budget counts)."""
        return self._clock() - self.start

    def exclude(self, seconds: float) -> None:
        """Leave ``seconds`` (CPU) out of the budget (a one-off cost of the process, not of the page)."""
        self.start += seconds

    def check(self, stage: str) -> None:
        """Raise :class:`LimitExceeded` if the budget is spent (``stage`` names the stage just done)."""
        now, cpu = time.perf_counter(), self._clock()
        self.laps.append((stage, now - self._lap, cpu - self._cpu))
        self._lap, self._cpu = now, cpu
        if self.seconds is not None and (spent := cpu - self.start) > self.seconds:
            raise LimitExceeded(
                "time_budget",
                f"time budget exceeded: {spent:.2f} s of CPU after {stage}, "
                f"over the limit time_budget={self.seconds:g} s",
            )
