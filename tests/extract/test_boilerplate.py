"""Class/id token matching used by ``auto``."""

from newscrawl.extract.boilerplate import (
    _NEGATIVE_HINT,
    SCORE_NEGATIVE_TOKENS,
    attr_tokens,
    counts_against,
    looks_like_boilerplate,
)


def test_tokens_split_on_separators_and_camel_case():
    assert attr_tokens("commentList main-nav foo_bar") == ["comment", "list", "main", "nav", "foo", "bar"]


def test_whole_tokens_only():
    assert counts_against("comment-box", None)
    assert counts_against(None, "userReplies")
    assert counts_against("footer-bottom-text", None)
    assert not counts_against("commentary", None)
    assert looks_like_boilerplate("site-footer", None)
    assert not looks_like_boilerplate("article-body", "main")


def test_the_cheap_pre_check_covers_every_negative_token():
    assert all(_NEGATIVE_HINT.search(token) for token in SCORE_NEGATIVE_TOKENS)


def test_trim_edges_drops_portal_furniture_lines():
    from newscrawl.extract.boilerplate import trim_edges

    body = ("市政府今天公布了新的交通规划方案。" * 3, "计划在三年内新建五条地铁线路。" * 3)
    lead = ("您所在的位置： 首页 > 新闻 > 国内", "您的浏览器暂时无法播放此视频.")
    lines = (*lead, *body, "本文来源：某某日报 责任编辑：张三_NB001")
    assert trim_edges(lines) == body
