"""Class/id token matching used by ``auto``."""

from newscrawl.extract.boilerplate import (
    _COMMENT_HINT,
    COMMENT_TOKENS,
    attr_tokens,
    looks_like_boilerplate,
    looks_like_comments,
)


def test_tokens_split_on_separators_and_camel_case():
    assert attr_tokens("commentList main-nav foo_bar") == ["comment", "list", "main", "nav", "foo", "bar"]


def test_whole_tokens_only():
    assert looks_like_comments("comment-box", None)
    assert looks_like_comments(None, "userReplies")
    assert not looks_like_comments("commentary", None)
    assert looks_like_boilerplate("site-footer", None)
    assert not looks_like_boilerplate("article-body", "main")


def test_the_cheap_pre_check_covers_every_comment_token():
    assert all(_COMMENT_HINT.search(token) for token in COMMENT_TOKENS)
