"""auto's content scores in C (``_cscores.c``; ``auto.python_content_scores`` is the reference)."""

from collections.abc import Callable
from collections.abc import Set as AbstractSet

from lxml import etree

def content_scores(
    parent: list[int],
    tag: list[str],
    chars: list[int],
    own_chars: list[int],
    classes: list[str | None],
    ids: list[str | None],
    limit: float,
    aside_limit: float,
    link_penalty: float,
    decay: float,
    counts_against: Callable[[str | None, str | None], bool],
    article_tags: AbstractSet[str],
    hints: tuple[str, ...],
    /,
) -> list[float]: ...
def prose_and_links(
    tag: list[str],
    own_chars: list[int],
    chars: list[int],
    link_chars: list[int],
    parent: list[int],
    elements: list[etree._Element],
    headline_min: int,
    paragraph_min: int,
    max_link_share: float,
    /,
) -> tuple[int, int]: ...
def largest_group(
    parent: list[int], tag: list[str], classes: list[str | None], link_tags: list[int], /
) -> int: ...
