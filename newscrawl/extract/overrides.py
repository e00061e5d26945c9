"""A site's XPath overrides: one expression per field, run on the page's own parsed tree.

A site file can say where a field is (``[xpath] published_at = "//span[@class='date']"``). ``extract``
runs those expressions on its tree before noise stripping (``read_fields``) and hands the text to the same
stages as every other value: the publish and modification times go through the date parser and the page's
zone, the title is cleaned like the chains' values, author, editor and source lose their labels ("作者：",
"责任编辑：", "来源："), the body replaces the extracted text.
Expressions are compiled once per set (``compile_field_xpaths`` is cached), so a crawl compiles its
site's once.

>>> from newscrawl.extract.document import parse_html
>>> root = parse_html("<html><body><h1> A  title </h1><span class='d'>2024-09-03</span></body></html>")
>>> read_fields(root, compile_field_xpaths({"title": "//h1", "published_at": "//span[@class='d']"}))
{'published_at': '2024-09-03', 'title': 'A title'}
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from lxml import etree

from newscrawl.extract.document import Element, collapse, subtree_text

#: fields an override can give
FIELDS: tuple[str, ...] = ("title", "published_at", "modified_at", "author", "editor", "source", "body")

#: compiled overrides: (field, expression) pairs
FieldXPaths = tuple[tuple[str, etree.XPath], ...]


def compile_field_xpaths(field_xpaths: Mapping[str, str] | None) -> FieldXPaths:
    """Compile ``{field: xpath}``; ValueError names an unknown field or a bad expression."""
    if not field_xpaths:
        return ()
    return _compile(tuple(sorted(field_xpaths.items())))


@lru_cache(maxsize=256)
def _compile(items: tuple[tuple[str, str], ...]) -> FieldXPaths:
    out = []
    for name, expr in items:
        if name not in FIELDS:
            raise ValueError(f"field_xpaths: unknown field {name!r}; expected one of {', '.join(FIELDS)}")
        if not isinstance(expr, str):
            raise ValueError(f"field_xpaths.{name}: expected an XPath string, not {expr!r}")
        try:
            out.append((name, etree.XPath(expr)))
        except etree.XPathSyntaxError as e:
            raise ValueError(f"field_xpaths.{name}: bad XPath {expr!r}: {e}") from e
    return tuple(out)


def read_fields(root: Element, xpaths: FieldXPaths) -> dict[str, str]:
    """The text each expression finds in ``root``: the first match's text for a field, the paragraphs
    (``<p>`` inside each match, or the match) one per line for ``body``. Fields that find nothing, or
    whose expression fails on this page, are left out."""
    found: dict[str, str] = {}
    for name, xp in xpaths:
        try:
            result = xp(root)
        except etree.XPathError:
            continue
        matches = result if isinstance(result, list) else [result]
        if name == "body":
            paragraphs = [collapse(_text(p)) for m in matches for p in _paragraphs(m)]
            value = "\n".join(p for p in paragraphs if p)
        else:
            value = next((v for v in (collapse(_text(m)) for m in matches) if v), "")
        if value:
            found[name] = value
    return found


def _paragraphs(match: object) -> list[object]:
    if isinstance(match, etree._Element):
        return list(match.iter("p")) or [match]
    return [match]


def _text(match: object) -> str:
    if isinstance(match, etree._Element):
        return subtree_text(match) if isinstance(match.tag, str) else ""
    if isinstance(match, str | bytes):
        return match.decode() if isinstance(match, bytes) else str(match)
    if isinstance(match, int | float) and not isinstance(match, bool):
        return str(match)
    return ""
