"""Boilerplate hints used by ``auto`` (never by the faithful extractors): data, compiled once.

Class and id tokens are matched whole after splitting on ``-``, ``_``, space and camelCase, so
"comment-list" and "commentList" match "comment" while "commentary" does not.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: class/id tokens of page chrome: navigation, sharing, comments, related links, ads, footers
BOILERPLATE_TOKENS: frozenset[str] = frozenset(
    """nav navbar navigation menu breadcrumb breadcrumbs crumb crumbs footer foot copyright sidebar aside
    share sharing social sns comment comments reply replies related relate recommend recommended
    recommendation tuijian xiangguan hot hotnews popular rank ranking advert advertisement ad ads adv advs
    banner sponsor
    sponsored promo promotion newsletter subscribe subscription signup login tags tag keywords toolbar tools
    print pager pagination paging disclaimer cookie cookies modal popup widget"""
    .split()
)

#: class/id tokens of reader comments and replies. ``auto`` counts their text against a candidate content
#: root (not only prunes it), because a long comment thread outweighs a short article (measured: +0.012
#: CJK F1 on chinese-wce, +0.011 ScrapingHub F1 on scrapinghub; the wider BOILERPLATE_TOKENS set in the
#: score lost 0.01 on scrapinghub, so it is used for pruning only).
COMMENT_TOKENS: frozenset[str] = frozenset(
    "comment comments commentlist reply replies pinglun liuyan discuss discussion disqus".split()
)

#: HTML5 elements that are page chrome wherever they stand outside the article
CHROME_TAGS: frozenset[str] = frozenset({"nav", "footer", "aside"})

_SPLIT = re.compile(r"[\s\-_:.]+|(?<=[a-z])(?=[A-Z])")


def attr_tokens(value: str | None) -> list[str]:
    """Lower-cased tokens of a class or id value.

    >>> attr_tokens("commentList main-nav")
    ['comment', 'list', 'main', 'nav']
    """
    if not value:
        return []
    return [t.lower() for t in _SPLIT.split(value) if t]


@lru_cache(maxsize=8192)
def _has_token(value: str, tokens: frozenset[str]) -> bool:
    return any(tok in tokens for tok in attr_tokens(value))


def looks_like_boilerplate(cls: str | None, ident: str | None) -> bool:
    """Whether a class or id names a known kind of page chrome."""
    return bool(
        (cls and _has_token(cls, BOILERPLATE_TOKENS)) or (ident and _has_token(ident, BOILERPLATE_TOKENS))
    )


def looks_like_comments(cls: str | None, ident: str | None) -> bool:
    """Whether a class or id names a reader-comment block."""
    return bool((cls and _has_token(cls, COMMENT_TOKENS)) or (ident and _has_token(ident, COMMENT_TOKENS)))
