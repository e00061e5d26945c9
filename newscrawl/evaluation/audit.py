"""What a reader would reject in a record, found without ground truth: the record audit.

Each check looks at the fields a reader sees (title, author, publish time, text) and names one class of
defect; ``audit_record`` gives the classes a record shows. The checks are deliberately independent of the
extraction rules (their own patterns, not the extractor's), so they can catch what those rules miss:

- ``title_site_name``: the title is only a site or channel name ("新浪新闻", "News", the page's
  ``og:site_name``, the host);
- ``author_not_person``: the author is an organisation or a site ("新华网", "Associated Press"), or a
  sentence (more than ``AUTHOR_MAX_WORDS`` words or ``AUTHOR_MAX_CHARS`` characters);
- ``date_future``: the publish time is more than ``FUTURE_SLACK`` after the fetch time;
- ``date_ancient``: the publish time is before ``EARLIEST_YEAR`` (news on the web);
- ``dup_paragraph``: the same paragraph (at least ``DUP_MIN_CHARS`` characters) twice in a row (the same
  paragraph further apart is often the page's own: a refrain, a FAQ's answer, a table's row);
- ``lead_chrome``: the text starts with a breadcrumb trail or share buttons;
- ``lead_info_line``: the text starts with the page's info line, which the record holds in fields of its
  own: a date (and time) and labelled credits only ("2026-11-23 18:40 来源：新华网 作者：张三");
- ``mojibake``: text decoded with the wrong charset (U+FFFD, "锟斤拷", UTF-8 read as Latin-1 or cp1252);
- ``markup_left``: HTML character references or tags left in the text;
- ``title_first_line``: the text's first line is the title again.

``newscrawl eval`` counts the pages showing each class (``audit_<class>``; see ``report.py``). On
datasets whose truth includes the headline in the text (daniel-zh) ``title_first_line`` is the truth's
own convention, not a defect.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.metadata.title import name_key, site_names

#: publish times later than the fetch time by more than this are in the future (a zone slip is < 1 day)
FUTURE_SLACK = timedelta(days=1)
#: publish times before this year are not news on the web
EARLIEST_YEAR = 1995
#: a paragraph this long (white space aside) seen twice is a repeat, not a short refrain ("图片来源")
DUP_MIN_CHARS = 20
#: an author value longer than this is a sentence, not a byline
AUTHOR_MAX_CHARS = 60
AUTHOR_MAX_WORDS = 8

CLASSES: tuple[str, ...] = (
    "title_site_name",
    "author_not_person",
    "date_future",
    "date_ancient",
    "dup_paragraph",
    "lead_chrome",
    "lead_info_line",
    "mojibake",
    "markup_left",
    "title_first_line",
)

#: generic section or site words that are never a headline on their own
_SECTION_TITLE = lazy_compile(
    r"(?:首页|主页|新闻|新闻中心|新闻频道|国内|国内新闻|国际|国际新闻|社会|社会新闻|财经|体育|娱乐|科技|军事|"
    r"滚动新闻|要闻|正文|文章|详情|详细内容|内容页|新闻详情|新闻正文|"
    r"home|homepage|news|latest news|world|world news|politics|business|sport|sports|opinion|article|"
    r"nachrichten|startseite|aktuelles|accueil|actualités|noticias|portada)",
    re.IGNORECASE,
)
#: words that make an author value an organisation or a site
_ORG_AUTHOR = lazy_compile(
    r"(?:新闻网|新闻社|通讯社|日报|晚报|早报|周刊|报社|电视台|广播|网站|客户端|编辑部|官网|官方|门户|频道|"
    r"\.com|\.cn|\.net|\.org|www\.)|"
    r"\b(?:news|press|agency|times|post|herald|tribune|gazette|media|network|online|radio|tv|"
    r"redaktion|zeitung|nachrichten|staff|newsroom|desk|editorial board)\b",
    re.IGNORECASE,
)
_SENTENCE_END = lazy_compile(r"[。！？!?]|[a-z]{3}\.\s+[A-Z]")
_BREADCRUMB = lazy_compile(
    r"^(?:当前位置|您的位置|你的位置|现在位置|所在位置|位置)\s*[:：]|"
    r"^(?:首页|主页|home|startseite|accueil|inicio)\s*(?:[>›»/→|]|&gt;)|"
    r"^(?=[^\n]{0,80}$)(?![^\n]*[.。!?！？]$)[^\n>›»→]{1,20}\s[>›»→]\s[^\n>›»→]{1,20}\s[>›»→]\s",
    re.IGNORECASE,
)
_SHARE = lazy_compile(
    r"^(?:分享到|分享|转发到|share(?: this)?(?: article| story| on)?|teilen|partager|compartir)\s*[:：]?\s*"
    r"(?:$|微信|微博|qq|facebook|twitter|x|linkedin|whatsapp|email|e-mail|print|copy link|link kopieren)",
    re.IGNORECASE,
)
_SHARE_WORDS = frozenset(
    "facebook twitter x linkedin whatsapp email e-mail print pinterest reddit telegram messenger copy link "
    "微信 微博 qq空间 qq 朋友圈 新浪微博 腾讯微博 豆瓣 人人网 打印 复制链接".split()
)
_MOJIBAKE = lazy_compile(
    r"\ufffd|锟斤拷|烫烫烫|屯屯屯|"
    r"[ÃÂ][\u0080-\u00bf]|â€[\u0080-\u00bf™œ\u009d˜“”¢¦]|Ã[©¨¤¶¼ª§±³]|Â[\u00a0-\u00bf]"
)
#: a run of Latin-1 letters typical of GBK or UTF-8 bytes read as Latin-1 ("ÄÚÈÝ" for 内容)
_LATIN1_RUN = lazy_compile(r"[\u00c0-\u00ff]{4,}")
_ENTITY = lazy_compile(r"&(?:[a-zA-Z][a-zA-Z0-9]{1,7}|#\d{2,7}|#[xX][0-9a-fA-F]{2,6});")
_TAG = lazy_compile(
    r"</?(?:p|div|span|a|br|img|strong|em|b|i|u|script|style|iframe|table|tr|td|li|ul|ol|h[1-6]|font|"
    r"section|article|figure|figcaption|blockquote)(?:\s[^<>]{0,200})?/?>",
    re.IGNORECASE,
)
_SPACE = lazy_compile(r"\s+")
_ISO = lazy_compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?(.*)$")


def _squash(text: str) -> str:
    return _SPACE.sub("", text).lower()


def title_site_name(title: str | None, site_name: str | None = None, url: str | None = None) -> bool:
    """The title is only a site or section name.

    >>> title_site_name("新浪新闻"), title_site_name("Home"), title_site_name("Flood waters rise")
    (True, True, False)
    """
    if not title or not title.strip():
        return False
    key = name_key(title)
    if not key:
        return False
    if key in site_names() or _SECTION_TITLE.fullmatch(title.strip()):
        return True
    if site_name and key == name_key(site_name):
        return True
    host = urlsplit(url).hostname if url else None
    return bool(host) and key in {name_key(host), name_key(host.removeprefix("www."))}


def author_not_person(author: str | None) -> bool:
    """The author names an organisation or a site, or is a sentence.

    >>> author_not_person("新华网"), author_not_person("Associated Press"), author_not_person("张三")
    (True, True, False)
    """
    if not author or not author.strip():
        return False
    value = author.strip()
    if len(value) > AUTHOR_MAX_CHARS or len(value.split()) > AUTHOR_MAX_WORDS:
        return True
    if _SENTENCE_END.search(value):
        return True
    return bool(_ORG_AUTHOR.search(value)) or name_key(value) in site_names()


def _instant(value: str) -> datetime | None:
    m = _ISO.match(value.strip())
    if m is None:
        return None
    year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
    try:
        hour, minute = int(m.group(4) or 0), int(m.group(5) or 0)
        return datetime(year, month, day, hour, minute, tzinfo=UTC)
    except ValueError:
        return None


def date_future(published_at: str | None, fetched_at: datetime) -> bool:
    """The publish time is more than ``FUTURE_SLACK`` after the fetch time (offsets read as UTC: the
    slack covers them).

    >>> date_future("2031-01-02T10:00:00+08:00", datetime(2026, 11, 24, tzinfo=UTC))
    True
    """
    when = _instant(published_at) if published_at else None
    ref = fetched_at if fetched_at.tzinfo else fetched_at.replace(tzinfo=UTC)
    return when is not None and when > ref + FUTURE_SLACK


def date_ancient(published_at: str | None) -> bool:
    """The publish time is before ``EARLIEST_YEAR``.

    >>> date_ancient("1970-01-01T00:00:00"), date_ancient("2003-05-01")
    (True, False)
    """
    when = _instant(published_at) if published_at else None
    return when is not None and when.year < EARLIEST_YEAR


def paragraphs(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if line.strip()]


def dup_paragraph(text: str) -> bool:
    """The same paragraph of at least ``DUP_MIN_CHARS`` characters twice in a row.

    >>> line = "一段足够长的正文内容，写了二十多个字的样子。"
    >>> dup_paragraph(f"{line}\\n{line}"), dup_paragraph(f"{line}\\n中间\\n{line}")
    (True, False)
    >>> dup_paragraph("获奖\\n获奖")
    False
    """
    previous = None
    for line in paragraphs(text):
        key = _squash(line)
        if key == previous and len(key) >= DUP_MIN_CHARS:
            return True
        previous = key
    return False


def _share_line(line: str) -> bool:
    words = [w for w in re.split(r"[\s|/·•,，、]+", line.lower()) if w]
    return bool(words) and len(words) >= 2 and all(w in _SHARE_WORDS for w in words)


#: the items of a Chinese page's info line: a date with or without its time, a credit label and its value,
#: a comment counter or the tools beside them (an independent pattern: not the extractor's byline words)
_INFO_ITEM = (
    r"(?:\d{4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}\s*日?(?:\s*\d{1,2}[:：]\d{2}(?:[:：]\d{2})?)?"
    r"|(?:来源|稿源|作者|编辑|责任编辑|责编|记者|发布时间|时间)\s*[:：]\s*[^\s:：|｜]{1,20}"
    r"|有\s*\d+\s*人参与|参与互动\s*\(?\d*\)?|手机看新闻|我要评论|分享到?|打印|字号)"
)
_INFO_LINE = lazy_compile(rf"^(?:{_INFO_ITEM}[\s|｜·丨/]*)+$")
#: an info line is short
INFO_LINE_MAX_CHARS = 80


def lead_info_line(text: str) -> bool:
    """The text starts with the page's info line (a date, labelled credits; nothing else).

    >>> lead_info_line("2026-11-23 18:40 来源：新华网 作者：张三\\n正文")
    True
    >>> lead_info_line("2012年1月12日 17:09\\n正文"), lead_info_line("2026年11月23日，市里开会。\\n正文")
    (True, False)
    >>> lead_info_line("来源：新华网 记者获悉，……")
    False
    """
    lines = paragraphs(text)[:2]
    return any(len(line) <= INFO_LINE_MAX_CHARS and _INFO_LINE.match(line) is not None for line in lines)


def lead_chrome(text: str) -> bool:
    """The text starts with a breadcrumb trail or share buttons.

    >>> lead_chrome("首页 > 新闻 > 正文\\n正文"), lead_chrome("Share Facebook Twitter\\nBody")
    (True, True)
    >>> lead_chrome("Body")
    False
    """
    lines = paragraphs(text)[:2]
    return any(_BREADCRUMB.search(line) or _SHARE.match(line) or _share_line(line) for line in lines)


def mojibake(text: str) -> bool:
    """Text decoded with the wrong charset.

    >>> mojibake("caf\u00c3\u00a9"), mojibake("\u00c4\u00da\u00c8\u00dd\u00b5\u00c4"), mojibake("café")
    (True, True, False)
    """
    if _MOJIBAKE.search(text):
        return True
    return bool(_LATIN1_RUN.search(text)) and not _latin_words(text)


def _latin_words(text: str) -> bool:
    """Whether the runs of Latin-1 letters sit inside ordinary words (German, Icelandic... spelling):
    mojibake runs stand alone among other runs of such letters, with few ASCII letters around them."""
    runs = _LATIN1_RUN.findall(text)
    ascii_letters = sum(c.isascii() and c.isalpha() for c in text)
    return ascii_letters > 10 * sum(len(r) for r in runs)


def markup_left(text: str) -> bool:
    """HTML character references or tags left in the text.

    >>> markup_left("A&nbsp;B"), markup_left("<p>x</p>"), markup_left("AT&T and a < b")
    (True, True, False)
    """
    return bool(_ENTITY.search(text) or _TAG.search(text))


def title_first_line(title: str | None, text: str) -> bool:
    """The text's first line is the title.

    >>> title_first_line("标题", "标题\\n正文"), title_first_line("标题", "正文")
    (True, False)
    """
    lines = paragraphs(text)
    return bool(title and lines) and _squash(lines[0]) == _squash(title or "")


def audit_record(
    *,
    title: str | None,
    author: str | Sequence[str] | None,
    published_at: str | None,
    text: str,
    fetched_at: datetime,
    url: str | None = None,
    site_name: str | None = None,
) -> list[str]:
    """The defect classes (``CLASSES``) the record shows, in ``CLASSES`` order."""
    names = [author] if isinstance(author, str) else list(author or ())
    found = {
        "title_site_name": title_site_name(title, site_name, url),
        "author_not_person": any(author_not_person(n) for n in names),
        "date_future": date_future(published_at, fetched_at),
        "date_ancient": date_ancient(published_at),
        "dup_paragraph": dup_paragraph(text),
        "lead_chrome": lead_chrome(text),
        "lead_info_line": lead_info_line(text),
        "mojibake": mojibake(text),
        "markup_left": markup_left(text),
        "title_first_line": title_first_line(title, text),
    }
    return [name for name in CLASSES if found[name]]
