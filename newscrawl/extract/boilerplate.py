"""Boilerplate hints used by ``auto`` (never by the faithful extractors): data, compiled once.

Class and id tokens are matched whole after splitting on ``-``, ``_``, space and camelCase, so
"comment-list" and "commentList" match "comment" while "commentary" does not.
"""

from __future__ import annotations

import re
from functools import lru_cache

from newscrawl.extract.lazyre import lazy_compile

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

#: class/id tokens whose text ``auto`` counts *against* a candidate content root (not only prunes): reader
#: comments and replies, because a long comment thread outweighs a short article (chinese-wce +0.012
#: CJK F1, scrapinghub +0.011 ScrapingHub F1), and footers, because a long footer outweighs a short
#: article (scrapinghub +0.005, Chinese sets unchanged). Adding the wider BOILERPLATE_TOKENS, or
#: sidebar/related/nav, to the score lost 0.01-0.04 on scrapinghub, so those are used for pruning only.
SCORE_NEGATIVE_TOKENS: frozenset[str] = frozenset(
    "comment comments commentlist reply replies pinglun liuyan discuss discussion disqus footer"
    " onetrust consent cookie cookies gdpr".split()
)

#: HTML5 elements that are page chrome wherever they stand outside the article
CHROME_TAGS: frozenset[str] = frozenset({"nav", "footer", "aside"})
#: a picture and its caption: a caption describes the image, it is not the article's text (the fundus,
#: trafilatura and ScrapingHub truths leave captions out; trafilatura drops <figure> unless asked for images)
FIGURE_TAGS: frozenset[str] = frozenset({"figure", "figcaption"})

#: class/id tokens of an image caption
CAPTION_TOKENS: frozenset[str] = frozenset({"caption", "figcaption", "legend", "legende"})
#: a cheap pre-check of a lower-cased value: every CAPTION_TOKENS member contains one of these
_CAPTION_HINT = lazy_compile(r"caption|legend")

_SPLIT = lazy_compile(r"[\s\-_:.]+|(?<=[a-z])(?=[A-Z])")
#: a utility-class variant prefix (Tailwind ``print:``, ``dark:``, ``md:[.x_&]:``): a condition, not a name
_VARIANT = lazy_compile(r"(?:^|(?<=\s))\S*:(?=\S)")


def attr_tokens(value: str | None) -> list[str]:
    """Lower-cased tokens of a class or id value; variant prefixes such as ``print:`` are not tokens.

    >>> attr_tokens("commentList main-nav print:max-w-full")
    ['comment', 'list', 'main', 'nav', 'max', 'w', 'full']
    """
    if not value:
        return []
    return [t.lower() for t in _SPLIT.split(_VARIANT.sub("", value)) if t]


@lru_cache(maxsize=8192)
def _has_token(value: str, tokens: frozenset[str]) -> bool:
    return any(tok in tokens for tok in attr_tokens(value))


def looks_like_boilerplate(cls: str | None, ident: str | None) -> bool:
    """Whether a class or id names a known kind of page chrome."""
    return bool(
        (cls and _has_token(cls, BOILERPLATE_TOKENS)) or (ident and _has_token(ident, BOILERPLATE_TOKENS))
    )


def is_caption(tag: str, cls: str | None) -> bool:
    """Whether an element is a picture or its caption: <figure>, <figcaption>, or a ``caption`` (or
    ``legend``, as French and German sites name a picture's caption) class.

    >>> is_caption("div", "wp-caption-text"), is_caption("p", "article-text")
    (True, False)
    """
    return tag in FIGURE_TAGS or bool(
        cls and _CAPTION_HINT.search(cls.lower()) and _has_token(cls, CAPTION_TOKENS)
    )


#: an id made from this many words of its element's own text is an anchor (a table of contents links to
#: ``h3#nav_nur_die_folie__1`` "Nur die Folie bleibt zurück"), not a name of what the element is
ANCHOR_ID_WORDS = 2
_WORDS = lazy_compile(r"\w+")


def is_anchor_id(ident: str | None, text: str) -> bool:
    """Whether an id spells at least ``ANCHOR_ID_WORDS`` words of ``text`` (its element's text): a slug
    for in-page links, whose words ("nav") say nothing about the element.

    >>> is_anchor_id("nav_nur_die_folie__1", "Nur die Folie bleibt zurück")
    True
    >>> is_anchor_id("comments", "Comments")
    False
    """
    if not ident:
        return False
    words = set(_WORDS.findall(text.lower()))
    return sum(1 for t in set(attr_tokens(ident)) if t in words) >= ANCHOR_ID_WORDS


#: classes that hide text from the eye and leave it to screen readers ("sr-only", "visually-hidden",
#: "screen-reader-text", "element-invisible", "go-vh"): "(opens in a new window)" inside a link is not
#: text a reader sees
_UNSEEN_CLASS = lazy_compile(
    r"(?:^|[\s_-])(?:sr[-_]?only|visually[-_]?hidden|screen[-_]?reader(?:[-_]?(?:text|only))?|element[-_]invisible"
    r"|off[-_]?screen|vh)(?=$|[\s_-])",
    re.IGNORECASE,
)


@lru_cache(maxsize=8192)
def is_unseen(cls: str | None) -> bool:
    """Whether a class hides its element's text from the eye (kept for screen readers). Cached: ``auto``
    asks about most elements of the content root, and a page repeats a few class names many times.

    >>> is_unseen("sr-only"), is_unseen("go-vh"), is_unseen("u-visuallyHidden"), is_unseen("hidden md:block")
    (True, True, True, False)
    """
    return bool(cls and _UNSEEN_CLASS.search(cls))


#: the class names of CSS frameworks that hide an element on every screen (Bootstrap's ``hidden``,
#: ``hide``, ``d-none``; Tailwind's ``hidden``; Bulma's ``is-hidden``)
HIDING_CLASSES = frozenset({"hidden", "hide", "d-none", "is-hidden"})
#: a class that shows the element again at some width or in some state ("hidden md:block", "d-none
#: d-lg-flex", Bootstrap 3's "visible-md"): hidden on a phone only, or until hovered, is not hidden
_SHOWN_AGAIN = lazy_compile(
    r"^(?:[\w-]+:)+(?:block|flex|inline(?:-[\w-]+)?|grid|table(?:-[\w-]+)?|contents|flow-root|list-item)$"
    r"|^d-(?:[a-z]+-)?(?:block|flex|inline(?:-[\w-]+)?|grid|table(?:-[\w-]+)?|contents)$|^visible-"
)


@lru_cache(maxsize=8192)
def is_hidden_class(cls: str | None) -> bool:
    """Whether a class hides its element on every screen: a CSS framework's hiding class and nothing that
    shows it again. A paywall's or a registration wall's offers, a gallery's overlay, a "saved" notice
    wait in the page this way for a script to show them. Cached as :func:`is_unseen` is.

    >>> [is_hidden_class(c) for c in ("intro-body__register hidden", "hidden md:block", "d-none d-lg-flex")]
    [True, False, False]
    >>> [is_hidden_class(c) for c in ("hidden-xs", "is-hidden", "hide-on-mobile", "visible-md hidden")]
    [False, True, False, False]
    """
    if not cls:
        return False
    tokens = cls.split()
    return not HIDING_CLASSES.isdisjoint(tokens) and not any(_SHOWN_AGAIN.match(t) for t in tokens)


#: a cheap pre-check of a lower-cased value: every SCORE_NEGATIVE_TOKENS member contains one of these.
#: A token that lower-cases to one of them lies whole in the value, so the lower-cased value holds it too.
#: (The same pattern with re.IGNORECASE on the value as it is took 5x as long: no first-letter scan.) The C
#: content scores (``_cscores``) look for the words themselves in an ASCII value, and ask only where one is.
NEGATIVE_HINT_WORDS = (
    "comment", "repl", "pinglun", "liuyan", "discus", "disqus", "footer", "onetrust", "consent", "cookie",
    "gdpr",
)  # fmt: skip
_NEGATIVE_HINT = lazy_compile("|".join(NEGATIVE_HINT_WORDS))


@lru_cache(maxsize=8192)
def counts_against(cls: str | None, ident: str | None) -> bool:
    """Whether a class or id names a block whose text counts against a content root (comments, footer).
    Cached: ``auto`` asks about every element, and a page repeats a few class names many times."""
    return bool(
        (cls and _NEGATIVE_HINT.search(cls.lower()) and _has_token(cls, SCORE_NEGATIVE_TOKENS))
        or (ident and _NEGATIVE_HINT.search(ident.lower()) and _has_token(ident, SCORE_NEGATIVE_TOKENS))
    )


#: A paragraph that starts the page furniture after an article (disclaimers, related links, comment
#: forms, print/close links): it and everything after it is cut when it stands in the last
#: ``TAIL_SHARE`` of the text.
CUT_MARKER = lazy_compile(
    r"^\s*[【\[(（]?\s*(?:免责)?声明[：:]"
    r"|^\s*(?:版权所有|版权声明|Copyright|©|相关新闻|相关阅读|相关链接|相关报道|相关文章|延伸阅读|推荐阅读"
    r"|热点推荐|网友评论|我要评论|发表评论|请您对该文章评分|上一篇|下一篇|分享到|【打印】|\[打印\]|打印本页|关闭窗口"
    r"|相關新聞|相關閱讀|延伸閱讀|热门推荐|熱門推薦|相关推荐|精彩推荐|编辑推荐|为(?:你|您)推荐|猜你喜欢|大家都在看"
    r"|更多精彩|热门文章|热门新闻|相关专题|(?:点击)?进入专题"
    # German public broadcasters' programme note and the boxes after the text (NDR, MDR, tagesschau, rbb)
    r"|Dieses Thema im Programm\b|Schlagwörter zu diesem Artikel|Weitere Informationen\s*$"
    r"|Sendung:\s)",
    re.IGNORECASE,
)
#: A disclaimer label standing alone ("声明：", "【免责声明】") after a line of body text cuts the rest
#: wherever it stands: the disclaimer block after a short brief is longer than the brief's last third. (Not
#: "相关新闻：": a related-links label whose links were pruned can stand between the lead and the body.)
CUT_LABEL = lazy_compile(r"^\s*[【\[(（]?\s*(?:免责|免責)?(?:声明|聲明)\s*[】\])）]?\s*[：:]?\s*$")
BODY_LINE_MIN = 50
#: A label of page furniture left alone at the end of the text once what it headed was pruned: a comments
#: section's, a related-stories box's, an advertisement's ("Anzeige", "Werbung")
TRAILING_LABEL = lazy_compile(
    r"^\s*(?:comments?|related(?: (?:articles|stories|posts))?|advertisement|anzeige|werbung"
    r"|ähnliche beiträge|verwandte artikel|you may also like|read more|loading\.*|おすすめ情報)\s*:?\s*$",
    re.IGNORECASE,
)
#: A reading-time line opening the text ("Lesezeit: 2 Minuten", "5 min read", "阅读时间：3分钟")
READING_TIME = lazy_compile(
    r"^\s*(?:(?:lesezeit|reading time|read time|temps de lecture|tiempo de lectura|阅读时间|閱讀時間)"
    r"\s*[:：]?\s*"
    r"(?:ca\.\s*)?\d{1,3}\s*(?:min(?:ute[ns]?|\.)?|分钟|分鐘)"
    r"|\d{1,3}\s*(?:min(?:ute)?s?)\.?\s*(?:read|lesezeit|de lecture))\s*$",
    re.IGNORECASE,
)
#: Short byline-like paragraphs (editor, source, reporter) trimmed from either edge of the text.
EDGE_LINE = lazy_compile(
    # (Xinhua's "【纠错】 【责任编辑:王思北 】": its report-an-error link before the editor)
    r"^\s*(?:[【\[]\s*(?:纠错|糾錯)\s*[】\]]\s*)?[(（【\[]?\s*(?:责任编辑|编辑|责编|本文来源|文章来源|稿件来源|来源|作者|记者|通讯员|本报记者|原标题|图片来源"
    r"|摄影|責任編輯|編輯|來源|記者|原標題|圖片來源|攝影)[：:\s]"
    # a credit line's roles: the writer's ("撰文/X", "文字｜X", "文/X"), the pictures' and the video's
    # ("摄影/X", "图/X", "视频/X"); a slash or a bar after a one-character role (a colon after 图 opens a
    # caption)
    r"|^\s*[(（【\[]?\s*(?:撰文|撰稿|文字|摄影|攝影|摄像|攝像)\s*[/／|｜丨：:]"
    r"|^\s*[(（【\[]?\s*(?:文|图|圖|视频|視頻)\s*[/／|｜丨]"
    r"|^\s*[(（]?(?:本文|内容|內容|稿件)由.{0,16}提供|未经授权.{0,4}不得转载|未經授權.{0,4}不得轉載"
    r"|^\s*(?:您(?:所在|现在)的位置|当前位置|您的浏览器.{0,12}(?:不支持|无法播放)|返回\S{0,8}首页|相关资讯请关注"
    r"|扫描二维码|长按(?:识别)?二维码|点【在看】|看都看完了)"
)
#: App and account promotion: "海量资讯、精准解读，尽在新浪财经APP", "关注XX公众号", "現已開設Facebook專頁".
#: A short one goes from the first paragraphs and when it ends in the last ``TAIL_SHARE`` of the text.
PROMO_LINE = lazy_compile(
    r"(?:下载|打开|关注|订阅|扫码|扫一扫|扫描二维码|长按识别|搜索|請讚好|讚好|追蹤|關注)[^。！？]{0,24}"
    r"(?:APP|App|app|客户端|客戶端|公众号|公眾號|微信号|服务号|视频号|抖音号|头条号|官方微博|官方微信|Facebook|專頁)"
    r"|尽在.{0,12}(?:APP|App|客户端)|(?:現已開設|已开通|已開通).{0,16}(?:Facebook|專頁|专页|公众号|微博|微信)"
)
#: A newsletter platform's subscription appeal in the text ("Thanks for reading X! Subscribe for free to
#: receive new posts and support my work.", "X is a reader-supported publication. To receive new posts and
#: support my work, consider becoming a free or paid subscriber."): it goes when it ends in the last
#: ``TAIL_SHARE`` of the text and is at most ``NEWSLETTER_MAX`` long (the publication's name varies)
NEWSLETTER_LINE = lazy_compile(
    r"^Thanks for reading\b[^\n]{1,80}?[!.]\s+Subscribe\b|\bTo receive new posts and support my work\b"
)
NEWSLETTER_MAX = 200
#: a promotion line runs to 100 characters ("…現已開設Facebook專頁…快點到Facebook Like我們的專頁！")
PROMO_MAX = 100
#: the first paragraphs where a promotion line is looked for
HEAD_LINES = 2
#: A label ending in a colon ("Lesen Sie auch:", "Sources:", "本篇新闻热门关键词:") that ends the text after a
#: sentence of the body introduces nothing: what followed it on the page (a list of links, the sources)
#: was pruned. Up to ``LABEL_RUN_MAX`` such lines go, each at most ``EDGE_LINE_MAX`` long; a longer run
#: is a list of labelled values (a recipe's or a product's data), not furniture.
DANGLING_LABEL = lazy_compile(r"[:：]\s*$")
LABEL_RUN_MAX = 2
#: how a paragraph of body text ends
SENTENCE_END = lazy_compile(r"[.!?。！？…\"'»«“”」』)）]\s*$")
#: measured on chinese-wce and daniel-zh: +0.004 / +0.002 CJK F1, scrapinghub unchanged
TAIL_SHARE = 0.3
EDGE_LINE_MAX = 60


def trim_edges(paragraphs: tuple[str, ...]) -> tuple[str, ...]:
    """Drop trailing page furniture, short byline paragraphs at either edge of an article, app or
    account promotion at its head and tail, and labels left dangling at its end (``DANGLING_LABEL``).

    >>> trim_edges(("正文第一段。", "正文第二段。", "责任编辑：王五"))
    ('正文第一段。', '正文第二段。')
    >>> trim_edges(("正文第一段。", "正文第二段。", "【纠错】 【责任编辑:王思北 】"))
    ('正文第一段。', '正文第二段。')
    >>> trim_edges(("The council met on Monday.", "It voted on Tuesday.", "Anzeige", "Comments"))
    ('The council met on Monday.', 'It voted on Tuesday.')
    >>> trim_edges(("Lesezeit: 2 Minuten", "Der Rat tagte am Montag.", "Er stimmte am Dienstag ab."))
    ('Der Rat tagte am Montag.', 'Er stimmte am Dienstag ab.')
    """
    paras = list(paragraphs)
    total = sum(len(p) for p in paras)
    seen = 0
    kept: list[str] = []
    body_seen = False
    for i, p in enumerate(paras):
        tail = seen >= (1 - TAIL_SHARE) * total
        if (tail or (body_seen and CUT_LABEL.match(p))) and CUT_MARKER.search(p):
            break
        body_seen = body_seen or len(p) >= BODY_LINE_MIN
        seen += len(p)
        ends_in_tail = seen >= (1 - TAIL_SHARE) * total  # a long promotion after a short article
        if (ends_in_tail or i < HEAD_LINES) and len(p) <= PROMO_MAX and PROMO_LINE.search(p):
            continue
        if ends_in_tail and len(p) <= NEWSLETTER_MAX and NEWSLETTER_LINE.search(p):
            continue
        kept.append(p)
    paras = kept
    while paras and len(paras[-1]) <= EDGE_LINE_MAX and (
        EDGE_LINE.search(paras[-1]) or CUT_MARKER.search(paras[-1]) or TRAILING_LABEL.match(paras[-1])
    ):
        paras.pop()
    while paras and len(paras[0]) <= EDGE_LINE_MAX and (
        EDGE_LINE.search(paras[0]) or READING_TIME.match(paras[0])
    ):
        paras.pop(0)
    run = 0  # dangling labels at the end: what they introduced (a related-links list, sources) was pruned
    while run < len(paras) and _dangling_label(paras[-1 - run]):
        run += 1
    if 0 < run <= LABEL_RUN_MAX and run < len(paras):
        last = paras[-1 - run]
        if len(last) >= BODY_LINE_MIN and SENTENCE_END.search(last):
            del paras[-run:]
    return tuple(paras)


def _dangling_label(p: str) -> bool:
    return len(p) <= EDGE_LINE_MAX and bool(DANGLING_LABEL.search(p))
