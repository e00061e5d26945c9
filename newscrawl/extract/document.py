"""Text to an lxml tree, and the tree walks every extractor shares (text of a node, paragraphs)."""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable, Iterator
from typing import TypeAlias

from lxml import etree

from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.native import cstats
from newscrawl.extract.tags import BLOCK_TAGS

#: an element of the trees newscrawl parses (lxml's etree parser: plain elements, not lxml.html's)
Element: TypeAlias = etree._Element

#: C0 control characters (but tab, LF, CR) and DEL: lxml would turn each into U+FFFD
_CONTROL_BYTES = bytes([*range(0, 9), 11, 12, *range(14, 32), 127])
#: what a text field must not carry: C0 controls but tab and LF, DEL, and C1 controls. A terminal acts
#: on them (ESC and CSI start escape sequences; CR overwrites a line), and ``&#27;`` puts one in a page.
#: Also the soft hyphen U+00AD: a hint where a browser may break a word, unseen unless it does; left in a
#: plain text it splits the word for a search index ("Zusammen\xadarbeit" is no match for "Zusammenarbeit")
_TEXT_CONTROLS = lazy_compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\xad]")
#: character references to those C0 controls and DEL (``&#27;``, ``&#x1B;``), and the noncharacters U+FFFE and
#: U+FFFF referenced or written (UTF-8 ``EF BF BE``/``BF``): libxml2 puts the character in the tree, where
#: lxml refuses to set a text holding it again (moving a dropped element's tail failed; cutting the text
#: of 8 MB of ``&#xFFFE;`` failed); removed before parsing, as the text fields would drop the character
#: anyway (html.unescape gives "" for each)
_CONTROL_NUMBER = (
    rb"&#(?:0*(?:[0-8]|1[124-9]|2[0-9]|3[01]|127|6553[45])(?![0-9])"
    rb"|[xX]0*(?:[0-8bBcCeEfF]|1[0-9a-fA-F]|7[fF]|[fF]{3}[eEfF])(?![0-9a-fA-F]));?"
)
_NONCHARACTER = rb"\xef\xbf[\xbe\xbf]"
_CONTROL_REFERENCE = lazy_compile(_CONTROL_NUMBER + b"|" + _NONCHARACTER)
#: the references alone, to tell whether a page holds one: the search opens with a literal, which the regex
#: engine looks for before trying the rest (a search of the alternation, tried at every byte, cost nine
#: times as much). Whether it holds a noncharacter is asked of the text (see :func:`markup`)
_CONTROL_NUMBER_ONLY = lazy_compile(_CONTROL_NUMBER)
_XML_DECL = lazy_compile(r"^\s*<\?xml[^>]*>", re.IGNORECASE)
#: ``</body>`` and ``</html>`` end tags: a browser ignores them (content after them still goes into the
#: body) but libxml2 drops everything after a stray ``</html>`` (an included header ending in ``</html>``
#: hid a gazette's whole article); they are removed before parsing
_BODY_END = lazy_compile(rb"</(?:body|html)\s*>", re.IGNORECASE)


def _strip_body_ends(data: bytes) -> bytes:
    # the reference of the C search (and its fallback): the regular expression
    return _BODY_END.sub(b"", data)


def _has_control_reference(data: bytes) -> bool:
    return _CONTROL_NUMBER_ONLY.search(data) is not None


#: the C extension's forms of the two byte searches of :func:`markup` (the same answers: one pass with
#: ``memchr`` for the '<' or '&' each opens with, a fifth of the regular expressions' time), when it is built
strip_body_ends: Callable[[bytes], bytes] = getattr(cstats, "strip_body_ends", _strip_body_ends)
has_control_reference: Callable[[bytes], bool] = getattr(
    cstats, "has_control_reference", _has_control_reference
)


class ParseError(ValueError):
    """The text could not be turned into an HTML tree."""


def _parser() -> etree.HTMLParser:
    return etree.HTMLParser(
        encoding="utf-8",
        remove_comments=True,
        remove_pis=True,
        no_network=True,
        recover=True,
        default_doctype=False,
        collect_ids=False,
    )


_PARSER = _parser()


def parse_html(text: str) -> Element:
    """Parse decoded HTML into its root element; raises ParseError when nothing parses.

    >>> parse_html("<p>hi</p>").tag
    'html'
    """
    return parse_markup(markup(text))


def markup(text: str, utf8: bytes | None = None) -> bytes:
    r"""The bytes lxml parses for ``text``: UTF-8 without an XML declaration, control characters, references
    to them, and ``</body>`` and ``</html>`` end tags. Raises ParseError for a page of white space.

    ``utf8`` is ``text`` in UTF-8 when the caller has it (``Decoded.utf8``: its control bytes are gone
    but for form feed and escape), so the text is not encoded again. The page is cleaned as bytes (a
    regular expression reads each byte as fast as each character), and what the attribute check reads
    is what libxml2 reads.

    >>> markup("<p>a&#27;b\x0c</p></body>")
    b'<p>ab</p>'
    """
    if _XML_DECL.match(text):
        text, utf8 = _XML_DECL.sub("", text, count=1), None
    if not text or text.isspace():  # (``text.strip()`` would copy the page)
        raise ParseError("the page is empty")
    if utf8 is None:
        data = text.encode("utf-8", "replace").translate(None, _CONTROL_BYTES)
    elif b"\x0c" in utf8 or b"\x1b" in utf8:
        data = utf8.translate(None, _CONTROL_BYTES)
    else:
        data = utf8
    data = strip_body_ends(data)
    # ``data`` is ``text`` in UTF-8 (valid, less whole ASCII characters), so it holds a written U+FFFE or
    # U+FFFF exactly when ``text`` does: a look for one character in the text, which a Latin-1 text
    # answers at once, costs a tenth of a search of the bytes (scrapinghub: 0.003 against 0.026 ms)
    if has_control_reference(data) or "\ufffe" in text or "\uffff" in text:
        data = _CONTROL_REFERENCE.sub(b"", data)
    return data


def parse_markup(data: bytes) -> Element:
    """Parse what :func:`markup` gives into its root element; raises ParseError when nothing parses."""
    try:
        root = etree.fromstring(data, parser=_PARSER)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as e:
        raise ParseError(f"lxml could not parse the page: {e}") from e
    if root is None:
        raise ParseError("the page has no HTML elements")
    return root


def strip_text_controls(text: str) -> str:
    r"""``text`` without control characters other than tab and line feed, and without soft hyphens.

    >>> strip_text_controls("a\x1b[31mred\x9b2J\r\nb"), strip_text_controls("Zusammen\xadarbeit")
    ('a[31mred2J\nb', 'Zusammenarbeit')
    """
    if text.isprintable():  # (no control character then: most field values, without a scan)
        return text
    return _TEXT_CONTROLS.sub("", text)  # a regex: str.translate looks each character up in a dict


def body_of(root: Element) -> Element:
    """The <body> (or <frameset>, or the root itself when neither exists)."""
    for child in root:
        if child.tag in ("body", "frameset"):
            return child
    return root


def collapse(text: str) -> str:
    """Collapse runs of white space (including U+3000 and NBSP) to one space and trim."""
    return " ".join(text.split())


def text_len(text: str | None) -> int:
    """Characters of ``text`` that are not white space."""
    if not text:
        return 0
    return len("".join(text.split()))


def subtree_text(el: Element) -> str:
    """The text of ``el``'s subtree in document order, its own tail left out: ``"".join(el.itertext())`` in
    one call into libxml2, which makes no Python string of each piece (over the elements the page kind
    reads, a third of the time). Comments' and processing instructions' own text is left out, as
    ``itertext`` leaves it, their tails kept.

    >>> subtree_text(parse_html("<p>a <b>bold</b> word<!-- note --> again</p> tail")[0][0])
    'a bold word again'
    """
    return etree.tostring(el, method="text", encoding=str, with_tail=False)


def iter_paragraph_pieces(
    node: Element, skip: Container[Element] = (), block_tags: Container[str] = BLOCK_TAGS
) -> Iterator[str | None]:
    """Yield the text pieces under ``node`` in document order, and None at every block boundary.

    Elements in ``skip`` are left out with their subtrees (their tails are kept). Iterative: safe on
    deeply nested pages.
    """
    walker = etree.iterwalk(node, events=("start", "end"))
    skipped = None  # lxml still reports the "end" of a skipped leaf: ignore it
    for event, el in walker:
        tag = el.tag
        if event == "end" and el is skipped:
            continue
        if not isinstance(tag, str):
            if event == "start":
                walker.skip_subtree()
                skipped = el
                if el is not node and el.tail:
                    yield el.tail
            continue
        if event == "start":
            if el in skip and el is not node:
                walker.skip_subtree()
                skipped = el
                if tag in block_tags:
                    yield None
                if el.tail:
                    yield el.tail
                continue
            if tag in block_tags:
                yield None
            if el.text:
                yield el.text
        else:
            if tag in block_tags:
                yield None
            if el is not node and el.tail:
                yield el.tail


def paragraphs(
    node: Element, skip: Container[Element] = (), block_tags: Container[str] = BLOCK_TAGS
) -> list[str]:
    """The text under ``node`` as paragraphs: block tags and <br> split, white space collapsed.

    The C extension's walk where it is built and the arguments are of the kinds it reads (``skip`` a set,
    frozenset, tuple or list of elements, ``block_tags`` a set or frozenset): the same paragraphs as
    :func:`python_paragraphs`, the reference, at a fifth of its time.

    >>> paragraphs(parse_html("<div>One <b>bold</b>\u3000word<p>Two</p>three<br>four</div>")[0][0])
    ['One bold word', 'Two', 'three', 'four']
    """
    if (
        _c_paragraphs is not None
        and type(skip) in _C_SKIP_TYPES
        and type(block_tags) in _C_TAG_SET_TYPES
    ):
        found = _c_paragraphs(node, skip, block_tags)
        if found is not None:
            return found
    return python_paragraphs(node, skip, block_tags)


#: the C extension's walk of :func:`paragraphs`, when it is built, and the containers it reads
_c_paragraphs: Callable[[Element, Container[Element], Container[str]], list[str] | None] | None = getattr(
    cstats, "paragraphs", None
)
_C_SKIP_TYPES = (set, frozenset, tuple, list)
_C_TAG_SET_TYPES = (set, frozenset)


def python_paragraphs(
    node: Element, skip: Container[Element] = (), block_tags: Container[str] = BLOCK_TAGS
) -> list[str]:
    """:func:`paragraphs` in Python: the reference of the C walk, and where it is not built."""
    out: list[str] = []
    buf: list[str] = []
    for piece in iter_paragraph_pieces(node, skip, block_tags):
        if piece is None:
            if buf:
                line = collapse("".join(buf))
                if line:
                    out.append(line)
                buf = []
        else:
            buf.append(piece)
    if buf:
        line = collapse("".join(buf))
        if line:
            out.append(line)
    return out


_WORD = lazy_compile(r"\w")


def _words(text: str | None) -> int:
    return len(_WORD.findall(text)) if text else 0


def _line_words(block: Element, block_tags: Container[str]) -> tuple[list[int], dict[Element, _Span]]:
    """Where each element of ``block`` starts and ends in its rendered lines, counted in word characters.

    Returns the running word count at every line break (``breaks[k]`` ends line k) and, per element,
    (first line, count at its start, last line, count at its end, its tail excluded).
    """
    breaks: list[int] = []
    where: dict[Element, _Span] = {}
    start: dict[Element, tuple[int, int]] = {}
    total = 0
    for event, el in etree.iterwalk(block, events=("start", "end")):
        tag = el.tag
        if not isinstance(tag, str):  # a comment or processing instruction: only its tail is text
            if event == "start":
                total += _words(el.tail)
            continue
        if tag in block_tags:
            breaks.append(total)
        if event == "start":
            start[el] = (len(breaks), total)
            total += _words(el.text)
        else:
            first, before = start[el]
            where[el] = (first, before, len(breaks), total)
            if el is not block:
                total += _words(el.tail)
    breaks.append(total)
    return breaks, where


def _is_inline(el: Element, block_tags: Container[str]) -> bool:
    return isinstance(el.tag, str) and el.tag not in block_tags


def spare_running_text(skip: Iterable[Element], block_tags: Container[str] = BLOCK_TAGS) -> set[Element]:
    """``skip`` without the inline elements that stand in running text.

    An inline element (not a block tag) that shares a rendered line with words outside it is part of a
    sentence: leaving it out would cut words from the paragraph ("包括先锋领航、等" for
    "包括先锋领航、<b><a>摩根大通</a></b>等"). Such a line is kept or dropped whole, never in part.

    >>> p = parse_html("<p>包括<b><a href='/s'>摩根大通</a></b>等</p><p><span>分享</span></p>")
    >>> sorted(el.tag for el in spare_running_text(p.iter("b", "span")))
    ['span']
    """
    cache: LineCache = {}
    return {el for el in skip if _running_text_block(el, block_tags, cache) is None}


def widen_to_paragraph(
    el: Element, block_tags: Container[str] = BLOCK_TAGS, cache: LineCache | None = None
) -> Element:
    """The block around ``el`` when ``el`` is an inline element in running text, else ``el``.

    A content node chosen inside a sentence (a bold phrase, a link) would give a fragment of a paragraph;
    its enclosing block gives the whole paragraph. Widening many elements of one unchanged tree, pass
    one ``cache`` to all the calls: each block's lines are then counted once, not once per element (600
    inline elements of one block cost 2.6 s of CPU without it).

    >>> p = parse_html("<div><p>包括<b>摩根大通</b>等</p></div>")
    >>> widen_to_paragraph(next(p.iter("b"))).tag
    'p'
    """
    block = _running_text_block(el, block_tags, {} if cache is None else cache)
    return el if block is None else block


_Span = tuple[int, int, int, int]
#: the lines of the blocks walked so far, for :func:`widen_to_paragraph` calls over one unchanged tree
LineCache = dict[Element, tuple[list[int], dict[Element, _Span]]]


def _running_text_block(el: Element, block_tags: Container[str], cache: LineCache) -> Element | None:
    """The nearest block ancestor of ``el`` if ``el`` is an inline element whose first line has words
    before it or whose last line has words after it (the words it shares a line with)."""
    if not _is_inline(el, block_tags):
        return None
    block = el.getparent()
    while block is not None and block.tag not in block_tags and block.getparent() is not None:
        block = block.getparent()
    if block is None:
        return None
    walked = cache.get(block)
    if walked is None:
        walked = cache[block] = _line_words(block, block_tags)
    breaks, where = walked
    first, before, last, after = where[el]
    line_start = breaks[first - 1] if first else 0
    shares = before > line_start or breaks[last] > after
    return block if shares else None


def node_path(el: Element | None) -> str | None:
    """A short, readable path of ``el``: ``/html/body/div[2]#main.content``."""
    if el is None:
        return None
    parts: list[str] = []
    cur: Element | None = el
    while cur is not None:
        tag = cur.tag if isinstance(cur.tag, str) else "?"
        parent = cur.getparent()
        label = tag
        if parent is not None:
            same = [c for c in parent if c.tag == tag]
            if len(same) > 1:
                label += f"[{same.index(cur) + 1}]"
        parts.append(label)
        cur = parent
    path = "/" + "/".join(reversed(parts))
    ident = el.get("id")
    cls = el.get("class")
    if ident:
        path += f"#{ident.strip()}"
    if cls:
        path += "." + ".".join(cls.split()[:3])
    return path


def drop_element(el: Element) -> None:
    """Remove ``el`` and its subtree from its parent, keeping its tail text in place."""
    parent = el.getparent()
    if parent is None:
        return
    tail = el.tail
    if tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(el)
