"""The body's paragraphs as a reader gets them: two repeats the record audit found, and the byline, taken out.

Every body algorithm hands over paragraphs; three defects a reader sees come from the page's markup rather
than from the choice of content, so they are handled once here, after the metadata stage has read the
paragraphs as found:

- the headline again as the first paragraph (the page's ``h1`` inside the content node): the record has
  the title in its own field. It is dropped when the first paragraph equals the extracted title (white
  space and case aside) and more text follows. When the copy is among the first ``HEAD_BYLINE_LINES``
  paragraphs with only short lines above it (under ``BODY_LINE_MIN`` characters: a navigation row, a
  kicker, a date, "Photo: X / Caption / Close"), those lines are the page's header, which a small page's
  content node holds: they go with it. Without the copy, short head lines that are all a picture
  gallery's controls ("Caption", "Close", "Back to Gallery") or its picture's credit ("Photo: X, AP"), at
  least one of them a control, go too (:func:`_gallery_controls`), and so does a portal's font-size tool
  ("字号:T|T") left opening the text once the headline and the byline above it went;
- a browser's notice anywhere in the text (a video player's "To view this video please enable JavaScript",
  "Dein Browser ist leider veraltet.");
- the same paragraph twice in a row (an image's alt text and its caption, a teaser and the lead, a
  widget rendered twice): the second copy is dropped when it holds at least ``REPEAT_MIN_CHARS``
  characters (shorter repeats are table cells and list items: "Yes", "—", "获奖");
- a byline or dateline paragraph at the head of the text ("By Jane Doe and John Roe · Updated March 4,
  2025, 6:15 p.m. ET", "Von Jane Doe, dpa", "Stand: 28.04.2023 16:11 Uhr", "记者 张三 李四", "di Marco
  Rossi", "Pubblicato il 25/11/2026 alle 07:15", a date with its time alone: "2026年11月25日 9時12分"): the
  record has the writers and the dates in fields of their own, and the datasets' truths leave such lines
  out. A paragraph among the first ``HEAD_BYLINE_LINES`` (up to the second line of body text: a lead may stand
  above the byline; after the headline's copy: a line above it is the page's header) goes when it is at most
  ``BYLINE_MAX_CHARS`` long and nothing is left of it once the writers' names the metadata stage found
  (or the names the line itself gives, when one of them is among those), dates, times and the words of
  bylines and datelines (``BYLINE_WORDS``) are taken out, and it named a writer or dated the article
  ("Published", "Updated", "Stand", "发布时间" and a number). Only whole paragraphs go: "本报讯（记者
  张三）今天……" and "By the end of the year, ..." go on with prose and stay. ``figures["byline_paragraphs"]``
  counts them. A line of names alone goes only when each is a person's (not "Staff Reports");
- a line that is only a time relative to the page's rendering ("2 min ago", "1 hr ago", "vor 5 Minuten",
  "hace 2 horas"), a live blog's entry header: stale once the record is stored, it tells a reader nothing
  (an entry's clock time, "10:42", stays: it dates the entry).

``newscrawl eval`` counts the first two (``audit_title_first_line``, ``audit_dup_paragraph``:
``evaluation/audit.py``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from newscrawl.extract.boilerplate import BODY_LINE_MIN
from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.metadata.author import (
    MAX_BYLINE_LINE,
    MONTH_WORDS,
    REPORTER_RANK,
    byline_value,
    date_line,
    is_person_name,
    plain_name,
    role_line,
    split_names,
)
from newscrawl.extract.metadata.dates import find_dates

#: a paragraph this long (white space aside) repeated right after itself is a copy, not a cell of a table
REPEAT_MIN_CHARS = 20
#: the opening paragraphs where a byline is looked for: the headline, a lead, the byline, a dateline and an
#: update line (a Postmedia page's "By X" / "Published Jun 05" / "Last updated 15 hours ago" under the lead).
#: Checked leave-one-dataset-out over 3 / 4 / 5 / 6 on the body sets' truths: every fold chose 5 (6 ties)
HEAD_BYLINE_LINES = 5
#: ... before the text goes on past this many lines of body text (the lead ``auto`` puts before it, a
#: subtitle: "9. September 2025 um 15:46 Uhr / X" under both). Leave-one-dataset-out over 0 / 1 / 2: three
#: folds chose 2, fundus's tied 1 and 2; 0 lost scrapinghub and fundus pages
HEAD_LONG_LINES = 2
#: the longest byline paragraph: the author stage's bound for a "By X" line (two of its byline lines)
BYLINE_MAX_CHARS = 2 * MAX_BYLINE_LINE
#: the notice a page shows a browser without JavaScript or too old for it, or in place of an embed it needs
#: consent for (a video player's fallback: "To
#: view this video please enable JavaScript, and consider upgrading to a web browser that supports HTML5
#: video"; "Dein Browser ist leider veraltet."; "您的浏览器不支持视频播放"), a paragraph of its own
_BROWSER_NOTICE = lazy_compile(
    r"^\W*(?:to view this video,? please enable javascript|please enable javascript"
    r"|your (?:web )?browser (?:is (?:out of date|outdated|not supported)|does not support)"
    r"|(?:dein|ihr) browser (?:ist|wird) (?:leider )?(?:veraltet|nicht (?:mehr )?unterstützt)"
    r"|(?:您的|你的)?浏览器(?:版本)?(?:过低|太旧|不支持)"
    # a consent placeholder for an embedded post or video (Zeit, Spiegel, FAZ)
    r"|an dieser stelle finden sie (?:einen )?externen inhalt"
    r"|(?:empfohlener (?:redaktioneller|externer) |externer )inhalt\s*$|wir benötigen ihre zustimmung)",
    re.IGNORECASE,
)
NOTICE_MAX_CHARS = 200


def _browser_notice(paragraph: str) -> bool:
    """Whether ``paragraph`` is a browser notice (:data:`_BROWSER_NOTICE`; a substring test first).

    >>> _browser_notice("Dein Browser ist leider veraltet."), _browser_notice("The browser wars are back.")
    (True, False)
    """
    low = paragraph.lower()
    if "browser" not in low and "javascript" not in low and "浏览器" not in low and "inhalt" not in low and (
        "zustimmung" not in low
    ):
        return False
    return bool(_BROWSER_NOTICE.match(paragraph))


#: a portal's font-size tool in the header, left opening the text once the headline and the info line went:
#: "字号:T|T", "【字体：大 中 小】", "字號：大 中 小"
_FONT_TOOL = lazy_compile(r"\s*[【\[(（]?\s*(?:字号|字號|字体|字體)\s*[:：][^。！？]*$")
FONT_TOOL_MAX = 24
#: a picture gallery's controls, each a line of its own above the text ("Caption", "Close", "Back to
#: Gallery"), and the credit of the picture shown ("Photo: Jane Doe, AP")
_GALLERY_CONTROL = lazy_compile(
    r"(?:(?:show |hide |toggle )?captions?|close|open|expand|collapse|enlarge|zoom|full ?screen|"
    r"(?:back to|view|open) (?:the )?gallery|next|previous|prev|schließen|fermer|cerrar|关闭"
    r"|(?:click|tap) (?:here )?to (?:enlarge|expand|zoom)|zum vergrößern (?:klicken|anklicken))",
    re.IGNORECASE,
)
_PICTURE_CREDIT = lazy_compile(r"(?:photo|image|picture|foto|bild|credit)s?\s*:\s*\S", re.IGNORECASE)
_WEEKDAYS = (
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun "
    "montag dienstag mittwoch donnerstag freitag samstag sonntag lundi mardi mercredi jeudi vendredi samedi "
    "dimanche lunes martes miércoles jueves viernes sábado domingo"
)
#: the words a byline or dateline holds besides names and numbers (matched whole, case aside): the writer's
#: label, list words, the dateline's verbs, reading times, months and weekdays, time zones, wire services
BYLINE_WORDS = lazy_compile(
    r"\b(?:by|von|vom|par|por|door|written|geschrieben|verfasst|text|texte|words|fotos?|photos?|and|und|et|"
    r"y|e|published|updated|last|posted|modified|aktualisiert|veröffentlicht|erschienen|stand|publié|publiée|"
    r"mis|à|jour|le|publicado|actualizado|el|de|del|on|at|am|um|uhr|the|[ap]\.?\s?m|ago|hours?|min|mins|"
    r"minutes?|days?|read|lesedauer|lesezeit|staff|writers?|reporters?|correspondents?|st|nd|rd|th|"
    # Italian and Portuguese: "di X", "Pubblicato il 25/11/2026 alle 07:15", "Atualizado há 2 horas"
    r"di|da|pubblicato|aggiornato|il|alle|ore|atualizado|atualizada|em|às|há|horas?|minutos?|modifié|a|las|"
    # the buttons a byline line holds ("25 November 2026 Share Save")
    r"share|save|teilen|merken|partager|"
    r"e[sd]?t|c[sd]?t|p[sd]?t|m[sd]?t|gmt|utc|bst|cest|cet|mesz|mez|"
    r"reuters|ap|afp|dpa|apa|efe|ansa|epd|kna|sda|upi|associated|press|"
    + "|".join(sorted({w.lower() for w in MONTH_WORDS} | set(_WEEKDAYS.split()), key=len, reverse=True))
    + r")\b\.?"
    # Chinese: reporters' labels with their paper and rank ("澎湃新闻首席记者", "本报通讯员",
    # "21世纪经济报道记者"), "发自北京" or "北京报道" closing the line, the dateline's labels, a date's units
    r"|(?:[\u4e00-\u9fff]{1,8}?(?:日报|晚报|早报|晨报|报道|报|社|网|台|新闻|客户端))?"
    rf"(?:{REPORTER_RANK}?(?:记者|通讯员)|(?:专栏|特约|签约)?作者|(?:特约)?评论员)"
    r"|实习生|撰文|撰稿人?|执笔人?"
    r"|文\s*[/／·、&]\s*图|图\s*[/／·、&]\s*文|文\s*[/／|｜丨]|丨|发自[\u4e00-\u9fff]{2,4}$"
    # where the reporters filed from, closing the line ("记者 X 北京报道")
    r"|(?<=\s)[\u4e00-\u9fff]{2,4}报道$"
    r"|来源|稿源|责任编辑|编辑"
    # and the tools a portal puts on that line: a comment counter, "手机看新闻", share, print, font size
    r"|有\s*\d*\s*人参与|参与互动|手机看新闻|我要评论|评论|跟贴|分享到?|打印|收藏|字号"
    r"|发布时间|更新时间|发布日期|发表时间|发布于|更新于|(?<=\d)\s*[年月日时時分]"
    # the "h" of a time written "10h03" (French, Portuguese)
    r"|\bh(?=\d\d\b)",
    re.IGNORECASE,
)
#: the label of a dateline: with a number, a paragraph of only such words dates the article
DATELINE_LABEL = lazy_compile(
    r"\b(?:published|updated|posted|modified|aktualisiert|veröffentlicht|erschienen|stand|publié|"
    r"mis à jour|publicado|actualizado|pubblicato|aggiornato|atualizado|modifié|min(?:ute)?s?\s+read|"
    r"lesedauer|lesezeit)\b"
    r"|发布时间|更新时间|发布日期|发表时间|发布于|更新于",
    re.IGNORECASE,
)
#: a year: with more numbers and nothing but a dateline's words, a paragraph may be a date and time alone
_YEAR = lazy_compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
#: ... the fewest numbers of a date and time alone: the year, the day, the hour and the minute
DATE_TIME_NUMBERS = 4


def _dated_with_time(text: str) -> bool:
    """Whether ``text`` holds a date with its time of day in a form :data:`DATE_AND_TIME` leaves
    ("2026年11月25日 9時12分", "Wed 25 Nov 2026 08.15 GMT"); a date alone may be a table's or a list's."""
    if _YEAR.search(text) is None or len(_NUMBERS.findall(text)) < DATE_TIME_NUMBERS:
        return False
    hits = find_dates(text, relative=False, limit=1)
    return bool(hits) and hits[0].has_time


#: a word glued to the next by markup ("UhrLesedauer", "2026Updated"): split before the words are matched
_GLUE = lazy_compile(r"(?<=[a-z])(?=[A-Z])|(?<=\d)(?=[^\W\d_])")
#: a date with its year and a time of day, in digits ("2026-11-23 18:40", "2026年11月23日 18:40"): a line of
#: only this (and byline words) dates the article as a label would
DATE_AND_TIME = lazy_compile(
    r"(?<!\d)\d{4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}\s*日?\s*(?:[T\s]|&nbsp;)*\d{1,2}\s*[:：]\s*\d{2}"
)
_NUMBERS = lazy_compile(r"\d+")
_WORD_CHARS = lazy_compile(r"[^\W_]")


#: a line this long at most may be a relative time alone
RELATIVE_LINE_MAX_CHARS = 24
#: a relative time alone on a line: "2 min ago", "1 hr ago", "vor 5 Minuten", "hace 2 horas", "just now"
_RELATIVE_LINE = lazy_compile(
    r"(?:\d{1,3}\s*(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)\.?\s+ago|just\s+now|"
    r"vor\s+\d{1,3}\s+(?:Sekunden|Minuten?|Stunden?|Tagen?)|"
    r"hace\s+\d{1,3}\s+(?:segundos?|minutos?|horas?|días?)|há\s+\d{1,3}\s+(?:segundos?|minutos?|horas?|dias?)|"
    r"il\s+y\s+a\s+\d{1,3}\s+(?:secondes?|minutes?|heures?|jours?)|\d{1,3}\s+(?:minuti|ore)\s+fa)",
    re.IGNORECASE,
)


def relative_time_line(paragraph: str) -> bool:
    """True for a line that is only a time relative to the page's rendering.

    >>> relative_time_line("2 min ago"), relative_time_line("Updated 2 min ago"), relative_time_line("10:42")
    (True, False, False)
    """
    if len(paragraph) > RELATIVE_LINE_MAX_CHARS:
        return False
    return _RELATIVE_LINE.fullmatch(paragraph.strip()) is not None


def _key(text: str) -> str:
    return "".join(text.split()).casefold()


def finish_paragraphs(
    paragraphs: Sequence[str], title: str | None, authors: Sequence[str] = ()
) -> tuple[str, ...]:
    """``paragraphs`` without a leading copy of ``title``, without a paragraph repeated right after
    itself, and without byline paragraphs at their head (see :func:`finish_body`).

    >>> finish_paragraphs(["Harbour reopens", "The harbour reopened on Monday."], "Harbour Reopens")
    ('The harbour reopened on Monday.',)
    >>> cap = "湘江长沙段水位降至历史最低值。本报记者摄"
    >>> finish_paragraphs([cap, cap, "正文。"], None)
    ('湘江长沙段水位降至历史最低值。本报记者摄', '正文。')
    >>> finish_paragraphs(["获奖", "获奖"], None)
    ('获奖', '获奖')
    """
    return finish_body(paragraphs, title, authors)[0]


def finish_body(
    paragraphs: Sequence[str], title: str | None, authors: Sequence[str] = ()
) -> tuple[tuple[str, ...], int]:
    """The finished paragraphs (:func:`finish_paragraphs`) and how many byline paragraphs went.

    >>> finish_body(["Harbour reopens", "By Jane Doe | Reuters", "The harbour reopened on Monday."],
    ...             "Harbour reopens", ["Jane Doe"])
    (('The harbour reopened on Monday.',), 1)
    """
    out: list[str] = []
    keys: list[str] = []
    previous = None
    for paragraph in paragraphs:
        key = _key(paragraph)
        if key and key == previous and len(key) >= REPEAT_MIN_CHARS:
            continue
        if len(key) <= RELATIVE_LINE_MAX_CHARS and relative_time_line(paragraph):
            continue  # a live blog's "2 min ago": stale once stored
        if len(paragraph) <= NOTICE_MAX_CHARS and _browser_notice(paragraph):
            continue
        out.append(paragraph)
        keys.append(key)
        previous = key
    title_key = _key(title) if title else None
    if title_key:
        # the page's header above the headline's copy (a nav row, the info line: short lines only)
        head = next((i for i, k in enumerate(keys[:HEAD_BYLINE_LINES]) if k == title_key), 0)
        if 0 < head < len(out) - 1 and all(len(k) < BODY_LINE_MIN for k in keys[:head]):
            del out[:head], keys[:head]
    if title_key and len(out) > 1 and keys[0] == title_key:
        del out[0], keys[0]
    controls = _gallery_controls(out)
    del out[:controls], keys[:controls]
    bylines = _head_bylines(out, keys, authors, title_key)
    for i in reversed(bylines):
        del out[i]
    while len(out) > 1 and len(out[0]) <= FONT_TOOL_MAX and _FONT_TOOL.match(out[0]):
        del out[0]  # the header's font-size tool, left first once the byline above it went
    return tuple(out), len(bylines)


def _gallery_controls(paragraphs: Sequence[str]) -> int:
    """How many lines at the head are a picture gallery's controls and its picture's credit: short lines
    only, at least one of them a control ("Caption", "Close"), every one a control or a credit, and the
    text goes on after them.

    >>> _gallery_controls(["Photo: Jane Doe, AP", "Caption", "Close", "The show opens on Friday " * 3])
    3
    >>> _gallery_controls(["Photo: Jane Doe, AP", "The show opens on Friday " * 3])
    0
    >>> _gallery_controls(["click to enlarge", "The show opens on Friday " * 3])
    1
    """
    n = 0
    for paragraph in paragraphs[:HEAD_BYLINE_LINES]:
        if len(paragraph) >= BODY_LINE_MIN:
            break
        n += 1
    lead = [p.strip() for p in paragraphs[:n]]
    if n == len(paragraphs) or not any(_GALLERY_CONTROL.fullmatch(p) for p in lead):
        return 0
    return n if all(_GALLERY_CONTROL.fullmatch(p) or _PICTURE_CREDIT.match(p) for p in lead) else 0


def _head_bylines(
    paragraphs: Sequence[str], keys: Sequence[str], authors: Sequence[str], title: str | None
) -> list[int]:
    """Indexes of the byline paragraphs among the first ``HEAD_BYLINE_LINES``, up to the line of body text
    after ``HEAD_LONG_LINES`` such lines (a lead); never every paragraph. A line above a copy of the
    headline still in place (``title``, its key; ``keys`` are the paragraphs'; a long line stands above it)
    is left as it was: without it the headline would open the text."""
    found: list[int] = []
    long_lines = 0
    for i, paragraph in enumerate(paragraphs[:HEAD_BYLINE_LINES]):
        if title is not None and keys[i] == title:
            found.clear()
        elif is_byline(paragraph, authors):
            found.append(i)
        elif len(paragraph) >= BODY_LINE_MIN:
            long_lines += 1
            if long_lines > HEAD_LONG_LINES:
                break
    if found:  # the byline block's other lines beside a byline: the writer's role, a date alone
        block, todo = set(found), list(found)
        while todo:
            i = todo.pop()
            for j in (i - 1, i + 1):
                if 0 <= j < HEAD_BYLINE_LINES and j < len(paragraphs) and j not in block:
                    if _byline_companion(paragraphs[j], keys[j], title):
                        block.add(j)
                        todo.append(j)
        found = sorted(block)
    return found if len(found) < len(paragraphs) else []


def _byline_companion(paragraph: str, key: str, title: str | None) -> bool:
    """A line of a byline block beside its byline: the writer's role ("BBC News, Business reporter") or a
    date alone ("24 November 2026")."""
    return key != title and (role_line(paragraph) or date_line(paragraph))


@lru_cache(maxsize=256)
def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    """The writers' names, longest first, each whole where it starts or ends in a Latin letter or digit."""
    parts = []
    for name in sorted(names, key=len, reverse=True):
        part = re.escape(name)
        if name[0].isascii() and name[0].isalnum():
            part = r"(?<!\w)" + part
        if name[-1].isascii() and name[-1].isalnum():
            part += r"(?!\w)"
        parts.append(part)
    return re.compile("|".join(parts), re.IGNORECASE)


def _person_like(name: str) -> bool:
    """A Chinese personal name, or two to four capitalised words none of which is a role ("Staff") and not
    all words of a byline ("The Associated Press").

    >>> _person_like("Jane Doe"), _person_like("The Associated Press"), _person_like("Staff Reports")
    (True, False, False)
    """
    if is_person_name(name):
        return True
    return plain_name(name) and _WORD_CHARS.search(BYLINE_WORDS.sub(" ", name)) is not None


def is_byline(paragraph: str, authors: Sequence[str]) -> bool:
    """Whether ``paragraph`` is only a byline or dateline: nothing left once the names of ``authors`` (and
    those the line gives, when it names one of them), dates, times and ``BYLINE_WORDS`` are taken out,
    and it named a writer or holds a dateline's label and a number.

    >>> is_byline("By Jane Doe and John Roe · Updated March 4, 2025, 6:15 p.m. ET", ["Jane Doe"])
    True
    >>> is_byline("By the end of the year, the council had voted.", ["Jane Doe"])
    False
    >>> is_byline("记者 张三 李四", ["张三", "李四"]), is_byline("本报讯（记者 张三）今天上午，", ["张三"])
    (True, False)
    >>> is_byline("Stand: 28.04.2023 16:11 Uhr", [])
    True
    """
    if len(paragraph) > BYLINE_MAX_CHARS:
        return False
    names = tuple(sorted({n for n in authors if n}))
    found = _names_pattern(names).findall(paragraph) if names else []
    if found:  # the line's own names too when one of them is a writer found ("By X and Y", X found)
        own = split_names(byline_value(paragraph))
        if {n.casefold() for n in names} & {n.casefold() for n in own}:
            names = tuple(sorted({*names, *own}))
            found = _names_pattern(names).findall(paragraph)
    rest, named = paragraph, False
    if found:
        rest, named = _names_pattern(names).sub(" ", paragraph), True
        if _WORD_CHARS.search(rest) is None and not all(map(_person_like, found)):
            return False  # names alone, and not all a person's ("Staff Reports"): may be the text's
    dated = (DATELINE_LABEL.search(rest) and _NUMBERS.search(rest)) or DATE_AND_TIME.search(rest)
    if not named and not dated and not _dated_with_time(rest):
        return False
    rest = BYLINE_WORDS.sub(" ", _GLUE.sub(" ", rest))
    return _WORD_CHARS.search(_NUMBERS.sub("", rest)) is None
