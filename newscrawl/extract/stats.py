"""Per-node text statistics over the body, computed once per page and shared by the extractors.

For every element ``i`` under <body> (pre-order index):

- ``chars[i]``  C_i: non-white-space characters in its subtree (text and tails inside it);
- ``tags[i]``   T_i: elements below it (its descendants, at least 1 when used as a divisor);
- ``link_chars[i]`` LC_i: characters inside <a> elements of its subtree;
- ``link_tags[i]``  LT_i: <a> elements in its subtree (itself included);
- ``line[i]``: number of block-level tags that open before it (SCEDD's approximate line number);
- ``depth[i]``: depth below <body>;
- ``classes[i]``, ``ids[i]``: its ``class`` and ``id`` attributes (None when absent), read on first use.

One pre-order pass and one reversed pass, no recursion, so a deeply nested page cannot overflow the stack.
Where the C extension is built (:mod:`newscrawl.extract.native`) both passes, and the class and id lists,
run in C over lxml's and libxml2's structs; the pure-Python code below is the reference, and the tests hold
the two equal list by list.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

from lxml import etree

from newscrawl.extract.document import Element
from newscrawl.extract.native import cstats
from newscrawl.extract.tags import BLOCK_TAGS


@dataclass(slots=True)
class NodeStats:
    elements: list[Element]
    tag: list[str]
    index: dict[Element, int]
    parent: list[int]
    chars: list[int]
    own_chars: list[int]
    tags: list[int]
    link_chars: list[int]
    link_tags: list[int]
    line: list[int]
    depth: list[int]
    line_sum: int
    _children: list[list[int]] | None = None
    _classes: list[str | None] | None = None
    _ids: list[str | None] | None = None

    def __len__(self) -> int:
        return len(self.elements)

    def children(self, i: int) -> list[int]:
        """Indices of the element children of ``i``, in document order (all lists built on first use)."""
        if self._children is None:
            lists: list[list[int]] = [[] for _ in self.elements]
            parent = self.parent
            for j in range(1, len(lists)):
                lists[parent[j]].append(j)
            self._children = lists
        return self._children[i]

    @property
    def classes(self) -> list[str | None]:
        """The ``class`` attribute of every element, None when it has none (read once per page: several
        stages ask, and reading an attribute of an lxml element costs more than a list lookup)."""
        if self._classes is None:
            self._classes = _attribute_values(self.elements, "class")
        return self._classes

    @property
    def ids(self) -> list[str | None]:
        """The ``id`` attribute of every element, None when it has none (read once per page)."""
        if self._ids is None:
            self._ids = _attribute_values(self.elements, "id")
        return self._ids

    def subtree_end(self, i: int) -> int:
        """Pre-order index one past the last descendant of ``i``."""
        return i + self.tags[i] + 1

    def text_density(self, i: int) -> float:
        """TD_i = C_i / T_i (CETD), T_i at least 1."""
        return self.chars[i] / max(self.tags[i], 1)

    def link_density(self, i: int) -> float:
        return self.link_chars[i] / self.chars[i] if self.chars[i] else 0.0

    def composite_density(self, i: int, body_link_share: float) -> float:
        """CETD's composite text density CTD_i.

        CTD_i = C_i/T_i * log_b((C_i/LC_i) * (T_i/LT_i)),  b = ln((C_i/nLC_i)*LC_i + (LC_b/C_b)*C_i + e)

        with nLC_i = C_i - LC_i; LC_i, LT_i, T_i and nLC_i taken as at least 1 (Sun et al., SIGIR 2011).
        """
        c = self.chars[i]
        if c == 0:
            return 0.0
        t = max(self.tags[i], 1)
        lc = max(self.link_chars[i], 1)
        lt = max(self.link_tags[i], 1)
        nlc = max(c - self.link_chars[i], 1)
        base = math.log((c / nlc) * self.link_chars[i] + body_link_share * c + math.e)
        value = (c / lc) * (t / lt)
        if value <= 0 or base <= 0:
            return 0.0
        return (c / t) * (math.log(value) / base)


def attribute_values(elements: list[Element], name: str) -> list[str | None]:
    """``name``'s value on every element, None where it has none (in C when the extension is built)."""
    return _attribute_values(elements, name)


def _attribute_values(elements: list[Element], name: str) -> list[str | None]:
    if cstats is None:
        return python_attribute_values(elements, name)
    values: list[str | None] = cstats.attribute_values(elements, name)
    return values


def python_attribute_values(elements: list[Element], name: str) -> list[str | None]:
    """``name``'s value on every element, None where it has none (the reference of the C pass)."""
    return [el.get(name) for el in elements]


def compute_stats(body: Element, block_tags: frozenset[str] = BLOCK_TAGS) -> NodeStats:
    """Compute the statistics of every element under ``body`` (``body`` is index 0).

    >>> from lxml import html
    >>> stats = compute_stats(html.fromstring("<div><p>ab <a>c d</a></p> e</div>"))
    >>> stats.tag, stats.chars, stats.link_chars, stats.parent
    (['div', 'p', 'a'], [5, 4, 2], [2, 2, 2], [-1, 0, 1])
    """
    if cstats is None:
        return python_stats(body, block_tags)
    elements = list(body.iter(etree.Element))
    return _node_stats(elements, *cstats.walk(body, elements, block_tags))


def python_stats(body: Element, block_tags: frozenset[str] = BLOCK_TAGS) -> NodeStats:
    """:func:`compute_stats` in pure Python: the reference of the C pass, and what runs without it."""
    elements = list(body.iter(etree.Element))
    n = len(elements)
    index = dict(zip(elements, range(n), strict=True))
    tag = cast(list[str], [el.tag for el in elements])  # etree.Element filters out comments and PIs
    get_index = index.get
    parent = [get_index(el.getparent(), 0) for el in elements]  # type: ignore[arg-type]  # below body: never None
    if n:
        parent[0] = -1
    own = [0] * n
    line = [0] * n
    depth = [0] * n
    nlines = 0
    for i, el in enumerate(elements):
        if tag[i] in block_tags:
            nlines += 1
        line[i] = nlines
        text = el.text
        if text and not text.isspace():  # (white space between tags: most texts and tails, no characters)
            own[i] += len("".join(text.split()))
        if i:
            p = parent[i]
            depth[i] = depth[p] + 1
            tail = el.tail
            if tail and not tail.isspace():
                own[p] += len("".join(tail.split()))
    chars = own[:]
    tags = [0] * n
    link_chars = [0] * n
    link_tags = [0] * n
    for i in range(n - 1, 0, -1):
        c = chars[i]
        if tag[i] == "a":
            link_chars[i] = c
            link_tags[i] += 1
        p = parent[i]
        chars[p] += c
        tags[p] += tags[i] + 1
        link_chars[p] += link_chars[i]
        link_tags[p] += link_tags[i]
    if n and tag[0] == "a":  # (the body itself: an <a> only when a fragment is its own body)
        link_chars[0] = chars[0]
        link_tags[0] += 1
    return _node_stats(
        elements, tag, index, parent, own, chars, tags, link_chars, link_tags, line, depth, nlines
    )


def _node_stats(
    elements: list[Element],
    tag: list[str],
    index: dict[Element, int],
    parent: list[int],
    own: list[int],
    chars: list[int],
    tags: list[int],
    link_chars: list[int],
    link_tags: list[int],
    line: list[int],
    depth: list[int],
    nlines: int,
) -> NodeStats:
    """The statistics from the lists both passes build, in the order the C pass returns them."""
    return NodeStats(
        elements=elements, tag=tag, index=index, parent=parent, chars=chars, own_chars=own, tags=tags,
        link_chars=link_chars, link_tags=link_tags, line=line, depth=depth, line_sum=nlines,
    )  # fmt: skip
