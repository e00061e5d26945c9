"""The per-element statistics pass in C (``newscrawl/extract/_cstats.c``; stats.py holds the reference)."""

from collections.abc import Container
from collections.abc import Set as AbstractSet

from lxml import etree

def walk(
    body: etree._Element, elements: list[etree._Element], block_tags: AbstractSet[str], /
) -> tuple[
    list[str],
    dict[etree._Element, int],
    list[int],
    list[int],
    list[int],
    list[int],
    list[int],
    list[int],
    list[int],
    list[int],
    int,
]: ...
def attribute_values(elements: list[etree._Element], name: str, /) -> list[str | None]: ...
def tree_counts(root: etree._Element, name_chars: int, /) -> tuple[int, int, int, int] | None: ...
def paragraphs(
    node: etree._Element, skip: Container[etree._Element], block_tags: AbstractSet[str], /
) -> list[str] | None: ...
def count_tags(root: etree._Element, names: AbstractSet[str], /) -> int: ...
def has_stripped_byte(data: bytes, /) -> bool: ...
def may_hold_attribute(root: etree._Element, name: str, value: str, /) -> bool: ...
