"""What several metadata chains read off one page, computed once per run of the metadata stage.

The title, time, people and image chains each look for the page's headline, the text right under it and
the page's declared authors. :func:`shared` keeps such a value in ``page.shared`` under a key naming what
was computed and from what; :func:`~newscrawl.extract.metadata.stage.find_metadata` empties it when it
starts, so every run of the stage computes each value once and a timed repeat of the stage costs what the
first run does. A value kept here is never changed by the chains that read it.

>>> from lxml import html
>>> from newscrawl.extract.page import Page
>>> page = Page("", html.fromstring("<html><body><h1>A</h1><div><h1>B</h1></div></body></html>"))
>>> [h.text for h in body_tagged(page, "h1")], shared(page, "answer", int, "42")
(['A', 'B'], 42)
>>> body_tagged(page, "h1") is body_tagged(page, "h1")
True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from newscrawl.extract.document import Element
from newscrawl.extract.page import Page

T = TypeVar("T")


def shared(page: Page, key: Hashable, compute: Callable[..., T], *args: Any) -> T:
    """``compute(*args)``, computed once per run of the metadata stage on ``page`` for ``key`` (which
    names the computation and every argument it depends on)."""
    memo = page.shared
    try:
        return memo[key]  # type: ignore[no-any-return]
    except KeyError:
        value = memo[key] = compute(*args)
        return value


def body_tagged(page: Page, tag: str) -> list[Element]:
    """The elements of the page's <body> tagged ``tag``, in document order: ``list(page.body.iter(tag))``
    read off the node statistics' tag list (no walk of the tree), once per run of the stage."""
    return shared(page, ("body_tagged", tag), _tagged, page, tag)


def _tagged(page: Page, tag: str) -> list[Element]:
    stats = page.stats
    tags, elements = stats.tag, stats.elements
    found: list[Element] = []
    i = -1
    try:
        while True:
            i = tags.index(tag, i + 1)  # (a scan in C: faster than iterating the tree)
            found.append(elements[i])
    except ValueError:
        return found


def page_tagged(page: Page, tag: str) -> list[Element]:
    """The page's elements tagged ``tag``, in document order: ``list(page.root.iter(tag))``, where the
    <body>'s part comes from :func:`body_tagged` and only the rest (the <head>) is walked."""
    return shared(page, ("page_tagged", tag), _page_tagged, page, tag)


def _page_tagged(page: Page, tag: str) -> list[Element]:
    root = page.root
    body = page.stats.elements[0] if len(page.stats) else None
    if body is None or body is root:
        return list(root.iter(tag))
    found: list[Element] = [root] if root.tag == tag else []
    for child in root:
        if child is body:
            found.extend(body_tagged(page, tag))
        else:
            found.extend(child.iter(tag))
    return found
