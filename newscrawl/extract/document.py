"""Text to an lxml tree, and the tree walks every extractor shares (text of a node, paragraphs)."""

from __future__ import annotations

import re
from collections.abc import Container, Iterator

from lxml import etree

from newscrawl.extract.tags import BLOCK_TAGS

Element = etree._Element

#: C0 control characters (but tab, LF, CR) and DEL: lxml would turn each into U+FFFD
_CONTROL_BYTES = bytes([*range(0, 9), 11, 12, *range(14, 32), 127])
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*>", re.IGNORECASE)


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
    if text.lstrip()[:5].lower() == "<?xml":
        text = _XML_DECL.sub("", text, count=1)
    if not text.strip():
        raise ParseError("the page is empty")
    data = text.encode("utf-8", "replace").translate(None, _CONTROL_BYTES)
    try:
        root = etree.fromstring(data, parser=_PARSER)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as e:
        raise ParseError(f"lxml could not parse the page: {e}") from e
    if root is None:
        raise ParseError("the page has no HTML elements")
    return root


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
    """The text under ``node`` as paragraphs: block tags and <br> split, white space collapsed."""
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
