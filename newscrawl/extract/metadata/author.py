"""Author: who wrote the article, an ordered fallback chain over what the page declares and the lines
around the text.

1. ``meta:<key>`` -- meta author, article:author, dc.creator, byl, sailthru.author, parsely-author ...
   (every tag of a repeated key: several ``<meta name="author">`` are several writers), unless the post's
   own author link by the headline ("/author/jane-doe/" showing "Jane Doe") names none of them
   (``byline:link``: the meta names the theme's or the site's owners), or a standfirst credits another
   (``line:credit``: "Ein Interview von X mit Y."; the meta names the account that posted it);
   ``meta:enp:author`` -- the ``<!--enpproperty <author>`` record of Chinese portals' CMS.
2. ``json-ld:author`` -- JSON-LD ``author`` / ``creator`` (a string, ``{"name": ...}`` or a list of them).
   A declared author that is only the site's own name (og:site_name, the host, ``data/site_names.txt``), a
   company or a Chinese news outlet (新京报, 新华社: :func:`is_outlet`) is held back; a site name or company
   is used only when rules 3-8 find nothing, an outlet never (it is the page's ``source``); nor is a site's
   column or feed (股市行情, 新浪财经-自媒体综合: :func:`is_column`), here or in an author box, nor a word of
   the host the copyright meta names ("chinanews" beside "www.chinanews.com,版权所有"). A JSON-LD
   author the page shows only after an editor's label ("Editor : X", "Redakteurin: X") is the story's editor:
   it is passed over for the byline by the text. A name that is a syndicated story's JSON-LD ``provider``
   (:func:`providers`: "Example Wire" on a portal's copy) is never the writer, wherever it shows: it is
   the page's ``source``. A JSON-LD Person the article names only by reference (``{"@id": ...}``, Yoast's
   graph) is the writer when rules 3-8 find none, if its name is a full name. ``arc:credits`` -- the
   writers of Arc XP's story record (``credits.by``) on a page without a JSON-LD article (:mod:`.arc`).
3. ``byline:itemprop`` / ``byline:rel`` -- ``itemprop="author"`` (its ``itemprop="name"``), ``rel="author"``.
4. ``line:writer`` -- a writer named in a line near the text (just above the first main paragraph,
   nearest first; the first and last ``EDGE_PARAGRAPHS`` paragraphs; the end of the content node and what
   follows it): 作者：X, 记者 X, 本报记者 X, 文/X, 文字/X, 撰文：X, 执笔：X, "By X" / "Von X" /
   "Geschrieben von X", "Text & Fotos: X", a credits table's "Interview" over "X", a closing
   "（X 上海报道）", a reporter's credit glued after the last sentence ("……价格等。记者X"), "08:19 [ X ]",
   forum "本贴由X于" / "X 发表于". Before 报道 the last word is the place
   filed from ("记者 X 山东冠县报道") unless it is a second name ("记者 X Y 报道") that neither ends like a
   place nor is a known one (``data/chinese_places.txt``). Traditional characters read alike
   ("聯合報╱記者X／台北報導", "〔記者X／台北報導〕"); an outlet among the names is the source ("文｜财新 X Y",
   "21世纪经济报道记者 X"); a photographer's credit ("记者 X 摄") counts only
   when no line names a writer otherwise. ``line:credit`` -- a short paragraph opening the text that
   credits the writer ("Eine Kolumne von X").
5. ``byline:class`` / ``byline:link`` -- an element near the text whose class or id says byline or author
   (in an author card too long to be a byline, up to ``MAX_CARD_CHARS``, the name its first heading
   holds), a link to an author page ("/author/x/"; an avatar's initials "JD" give the name the link's
   title holds). After rule 4 because portals' author boxes name the account that posted, not the reporter.
   A box naming an account for its releases ("江城发布 关注": a government office's account) names no writer.
   In a box holding more than the name, the name is its element's ("author-name", "author-meta-name") or
   the box's link naming a person ("<a>王小明</a> 某大学教授").
   ``line:label`` -- a paragraph anywhere in the text opening with a writer's label ("Autorin: X, Rolle"),
   unless among other labelled lines (a book's record: "Titel: / Autorin: / Verlag:").
6. ``line:sign-off`` -- the name after a blog post's closing greeting ("Euer Jan", "Liebe Grüße, Tine").
   ``line:name`` -- a line that is only a name: a Chinese name among the ``ABOVE_NAME_LINES`` lines above
   the text (below a breadcrumb row: above it is the site's menu), or a two-to-three-word Latin name
   closing the content node. ``line:dated-name`` -- a Latin
   name alone beside a date alone among those lines, when the site links an author page of that name.
   ``line:name-role`` -- a Latin name alone over a line of the writer's role ("BBC News, Business reporter").

7. ``line:opening`` / ``line:signature`` -- names alone between headline and text; an official notice's
   issuing body above its closing date.
8. ``byline:head-link`` -- the text of a link to the author page the <head> declares
   (``<link rel="author" href="/author/x">``), wherever the link sits. ``byline:author-page`` -- the name
   beside a link to "the author's" other posts whose address spells it ("zu allen Rezepten vom Autor").
9. ``page:copyright`` -- when nothing names a writer and nothing is held back: the person a footer's
   copyright credits ("© 2010 by Jane Doe"; "Copyright Jane Doe" when the title's headline names her).

The editor (责任编辑) and the source (来源) are never the author: they are fields of their own
(:mod:`newscrawl.extract.metadata.credits`). Values lose labels ("作者：") and trailing noise (dates,
times, "[打印]", "字号" ...), are capped at ``MAX_AUTHOR_CHARS`` and rejected when they are dates, URLs,
e-mail addresses, account slugs, placeholders ("null", "admin") or only punctuation.
:func:`split_names` turns a value into the list of names (``Extraction.authors``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from importlib.resources import files
from urllib.parse import urlsplit

from lxml import etree

from newscrawl.extract.document import Element, collapse, subtree_text
from newscrawl.extract.entities import unescape
from newscrawl.extract.lazyre import lazy_compile
from newscrawl.extract.metadata.date_data import MONTHS
from newscrawl.extract.metadata.dates import find_dates
from newscrawl.extract.metadata.shared import shared
from newscrawl.extract.metadata.title import (
    OWN_NAME_SUFFIX_CHARS,
    SiteContext,
    name_key,
    page_enp,
    site_names,
    text_anchor,
)
from newscrawl.extract.page import Page, PageMeta
from newscrawl.extract.result import NOT_FOUND, BodyResult, Found
from newscrawl.extract.stats import attribute_values
from newscrawl.extract.tags import BLOCK_TAGS, HEADING_TAGS

#: meta keys (lower-cased) naming the writer, best first
META_AUTHOR_KEYS: tuple[str, ...] = (
    "author",
    "article:author",
    "og:article:author",
    "dc.creator",
    "dc:creator",
    "dcterms.creator",
    "byl",
    "sailthru.author",
    "parsely-author",
    "cxenseparse:author",
    "citation_author",
    "dc.author",
    # plugins' and CMS keys, after the common ones (a page with both names the writer in the common one)
    "article:author_name",
    "og:author",
    "shareaholic:article_author_name",
    "dcsext.author",
    "vr:author",
    "analyticsattributes.author",
)
#: a twitter:labelN naming the writer in its twitter:dataN
_WRITTEN_BY = lazy_compile(
    r"^(?:written by|author|verfasst von|geschrieben von|autor(?:in)?|écrit par|auteur|escrito por|"
    r"scritto da|geschreven door|skrevet av|skriven av)\s*:?$",
    re.I,
)
#: meta keys whose values are "Last, First" (scholarly citation tags), turned round to "First Last"
CITATION_KEYS: frozenset[str] = frozenset({"citation_author", "dc.creator", "dc:creator"})
#: longest author-or-source value kept (a byline of several names fits; a sentence does not)
MAX_AUTHOR_CHARS = 80
#: paragraphs at each end of the main text searched for bylines
EDGE_PARAGRAPHS = 3
#: elements before the first main paragraph (and after the content node) searched for bylines
NEAR_ELEMENTS = 60
#: elements before the first main paragraph searched for byline markup (headers with the byline sit
#: higher than the plain-text byline lines)
MARKUP_ELEMENTS = 150
#: elements after the first main paragraph, and either side of the content node's end, searched for markup
EDGE_ELEMENTS = 40
#: keyword lines after a byline that may continue it with more writers (a role on each line) ...
MORE_BYLINE_LINES = 1
#: ... when their keyword opens the line (within this many characters: "本报实习生 X")
BYLINE_KEY_CHARS = 8
#: elements from the first main paragraph on whose lines are searched as they stand (a byline under a
#: heading inside the text is a few elements down; 20 kept every byline 40 found on the datasets)
TEXT_START_ELEMENTS = 20
#: a line longer than this is running text; a byline keyword in it counts only inside brackets
MAX_BYLINE_LINE = 60
#: lines right above the text where a bare Chinese name counts as the byline (headline, name, subtitle)
ABOVE_NAME_LINES = 3
#: the longest issuing body's name signing a notice
MAX_SIGNATURE_CHARS = 30
#: the opening paragraphs searched for a names-only byline between headline and text
OPENING_LINES = 4
#: a line opening with one of these under an opening byline is the article's subtitle ("——当代……")
SUBTITLE_DASHES = ("——", "—", "--")
#: the paragraph after such a byline is the text: at least this long
ANCHOR_TEXT_CHARS = 30
#: a line holding only a name is at most this long
MAX_NAME_LINE = 40
#: at most this many names in one byline
MAX_NAMES = 6
#: at most this many names taken from a declared list (JSON-LD; fundus has a page with nine)
MAX_LIST_NAMES = 12

#: words that follow 记者 in page furniture and running text, where no name follows ("记者调查", "记者了解到")
NOT_AFTER_REPORTER = (
    "调查|观察|手记|节|站|证|会|招待|采访|了解|获悉|从|在|看|发现|注意|问|表示|专访|走基层|体验|探访|实地|"
    "暗访|连线|来到|随机|日前|近日|昨日|今天|昨天|致电|联系|查询|登录|部落"
)
_ITEMPROP_NAME = etree.XPath(".//*[@itemprop='name']")
#: the ``itemprop`` values that mark the writer in schema.org microdata
_AUTHOR_ITEMPROPS = frozenset(("author", "creator"))
#: class / id tokens of byline markup; containers of comments, bios and author lists are not bylines
_BYLINE_CLASS = lazy_compile(
    r"(?:^|[\s_-])(?:by-?line|author|autor|auteurs?|autore|writer)(?:[\s_-]?name)?(?:$|[\s_-])", re.I
)
#: the class of the name's own element inside an author box ("author__name", "byline-name",
#: "author-meta-name")
_NAME_CLASS = lazy_compile(r"(?:author|byline|writer)(?:[_-][a-z]+)?[\s_-]*name", re.I)
_CLASSED = etree.XPath(".//*[@class]")
_NOT_BYLINE_CLASS = lazy_compile(
    r"comment|bio|avatar|description|about|box|list|more|posts|img|photo|social|follow", re.I
)

_CJK = r"\u3400-\u9fff"
#: a reporter's rank or post before 记者: "首席记者", "见习记者", "全媒体记者", "驻京记者", "特派记者"
REPORTER_RANK = rf"(?:首席|见习|实习|特派|特约|资深|全媒体|融媒体|驻[{_CJK}]{{1,3}}?)"
#: writer keywords: a name follows ("作者：X", "记者 X", "文/X", "执笔人：X")
_WRITER = lazy_compile(
    rf"(?:(?<![{_CJK}])|(?<=[报社台网站刊闻志视点端報臺網聞誌視點道]))"
    rf"(?:(?:专栏|特约|签约)?作者(?!简介|介绍|手记|的话|按|注|们)|撰文|执笔人?|撰稿人?|本报记者|"
    # (記者: the traditional characters of Hong Kong and Taiwan papers, "聯合晚報╱記者張博亭")
    rf"{REPORTER_RANK}?[记記]者(?!{NOT_AFTER_REPORTER})|(?:特约)?评论员(?!文章)|通讯员|实习生|编译|原作者|"
    # the writer who took the pictures too: "文/图 X", "图/文 X", "文·图/X"
    r"(?:文\s*[/／·、&]\s*图|图\s*[/／·、&]\s*文)\s*[/／|｜丨:：]?|文字?\s*[/／|｜丨]|文字?\s*[:：]|"
    r"[Aa]uthors?\s*:|Autor(?:in|en|innen)?\s*:|Autor(?:in)?\s*/\s*Autor(?:in)?\s*:?|Autor[/*:]in(?:nen)?\s*:?|"
    r"[Ww]ritten by\s*:?|"
    # Russian: "Автор: X", "Авторы: X", "Текст: X"
    r"Автор(?:ы)?\s*:|Текст\s*:|"
    # Arabic: "بقلم: X" (by the pen of), "كتب: X" (wrote), "إعداد: X" (prepared by); Hindi: "लेखक: X" (writer),
    # "रिपोर्ट: X" (report), "संवाददाता: X" (correspondent)
    r"بقلم|كتبت?\s*[:：\-–]|إعداد\s*:|लेखक\s*:|रिपोर्ट\s*:|संवाददाता\s*:)\s*[:：\-–]?\s*"
)
#: editor keywords (the value follows; "编辑部", "编辑推荐" are not credits)
EDITOR_KEYWORD = lazy_compile(
    r"(?:责任编辑|責任編輯|责编|編輯|编辑|主编)(?!部|推荐|精选|部落|器)\s*(?P<colon>[:：])?\s*"
)
#: source keywords (a colon is required: "来源" alone is common in running text)
SOURCE_KEYWORD = lazy_compile(
    # "来源于" after a word's end only ("10:21 来源于 《财新周刊》"; not "数据来源于")
    r"(?:来源|來源|稿源|出处|出自)\s*[:：]\s*|(?:本文|文章)来源于\s*|(?<![\u3400-\u9fff])来源于\s+"
)
#: a post's footer naming its writer after the time: "发布时间 2005/03/15 22:36:13 by 某网友"
_TIME_BY = lazy_compile(r"\d{1,2}:\d{2}(?::\d{2})?\s+(?:[Bb]y|BY|[Vv]on)\s+([^\s〓|｜]{2,30})")
#: writer patterns with the name as group 1: "2004年7月16日08:19 [ 黄宇 ]" (a bracketed name after the
#: time), forum posts "本贴由大卫于2005年…" and "ggjjzhzz 发表于 2005-9-15"
_WRITER_GROUPS: tuple[re.Pattern[str], ...] = (
    lazy_compile(rf"\d{{1,2}}:\d{{2}}\s*[\[【]\s*([{_CJK}·]{{2,4}})\s*[\]】]"),
    lazy_compile(r"本[贴帖]由\s*([^\s于]{2,20}?)\s*于"),
    lazy_compile(r"(?:^|\s)([^\s:：]{2,20})\s+(?:发表于|發表於|posted\s+(?:on|at))", re.I),
    _TIME_BY,
)
#: cheap pre-filter (``_any_key``): a line without any of these cannot hold a byline. Four parts, each tested
#: only where it can be: Latin words (plain substring tests), Chinese keywords (on a line that is not ASCII),
#: a time before a bracket (on a line with a colon), "by" and its kin opening the line. One alternation of
#: them all was tried at every character (no literal to look for first), 50 ns a character: 0.15 ms of
#: scrapinghub's median page, against 0.02 ms now
_CJK_KEY = lazy_compile(
    r"作者|撰|执笔|[记記]者|评论员|通讯员|实习生|编|編|文字?\s*[/／|｜丨:：·、&]|图\s*[/／·、&]\s*文|来源|來源|稿源|出处|出自|本[贴帖]由|发表于|發表於"
)
#: Arabic and Hindi writers' labels opening a line (_WRITER), tested only on a line opening with one of
#: their first letters (in the alternation above they slowed every Chinese line's test by a fifth)
_SCRIPT_LABELS = ("بقلم", "كتب", "إعداد", "लेखक", "रिपोर्ट", "संवाददाता")
_SCRIPT_KEY = lazy_compile(r"بقلم|كتبت?\s*[:：\-–]|إعداد\s*:|लेखक|रिपोर्ट\s*:|संवाददाता\s*:")
_SCRIPT_KEY_FIRST = frozenset(label[0] for label in _SCRIPT_LABELS)
_TIME_BRACKET = lazy_compile(r"\d:\d\d\s*[\[【]")
#: the verb a blog or forum byline opens with before its "by" ("Geschrieben von X", "erstellt von X",
#: "Publié par X"; not "Posted by", which opens the social-media posts embedded in a text)
_POSTED = (
    r"(?:[Gg]eschrieben|[Ee]rstellt|[Vv]erfasst|[Ee]ingestellt|[Ww]ritten|[Pp]ubli(?:é|ée)|[Éé]crit|"
    r"[Ee]scrito|[Pp]ublicado|[Ss]critto|[Pp]ubblicato|[Gg]eplaatst|"
    # the kind of piece before its writer: "Story by X", "Opinion by X", "Analysis by X", "Article by X"
    r"Story|STORY|Article|ARTICLE|Opinion|OPINION|Analysis|ANALYSIS|Commentary|Column|Review|Words|Text|Essay|Report)\s+"
)
_BY_OPENING = lazy_compile(
    rf"[\s~\-–—]*(?:{_POSTED})?(?:(?:[Bb][Yy]|Von|von|VON|Par|par|Por|por|Door|door|Di|di|da)\s|By[A-Z])"
)


def _any_key(line: str) -> bool:
    """Whether ``line`` holds a keyword of a byline, credit or source, or opens with "By" (the pre-filter).

    >>> _any_key("记者 张三"), _any_key("By Jane Doe"), _any_key("10:30 【王五】"), _any_key("Nothing here")
    (True, True, True, False)
    """
    return (
        "Author" in line
        or "author" in line
        or "Autor" in line
        or "posted" in line
        or "Автор" in line
        or "Текст" in line
        or (not line.isascii() and _CJK_KEY.search(line) is not None)
        or (line[:1] in _SCRIPT_KEY_FIRST and _SCRIPT_KEY.match(line) is not None)
        or (":" in line and _TIME_BRACKET.search(line) is not None)
        or _BY_OPENING.match(line) is not None
    )

#: English and European bylines at the start of a line, after a rule of dashes or a tilde ("---- by X",
#: "~ X"), after the verb of a post ("Geschrieben von X"), or glued to the name by inline markup
#: ("ByJ.R. Doe")
_BY = lazy_compile(
    rf"^[\s~\-–—]*(?:(?:{_POSTED})?(?:[Bb][Yy]|Von|von|VON|Par|par|Por|por|Door|door|Di|di|da)\s+(?=\S)|"
    r"By(?=[A-Z][a-z.]))"
)
#: what follows the first word of an enumeration: ", Politik und Sprache"
_ENUMERATION = lazy_compile(r"^\s*,[^,]{1,40}\s(?:und|and|et|y|e)\s")
#: a word glued to the next one by inline markup ("TimesNovember"; not "McDonald", "DeVito")
_GLUED = lazy_compile(r"[a-z]{3}[A-Z]")
#: a writer credit of a book or collection, not of the article ("Revised Edition Edited by X")
_EDITED_BY = lazy_compile(
    r"\b(?:[Ee]dited|[Cc]ompiled|[Hh]erausgegeben|[Rr]eviewed|[Ff]act[- ]checked|[Gg]eprüft|[Üü]berprüft)\s+"
    r"(?:by|von)\b"
)
#: a reporter's credit glued after the last sentence of the text: "……价格等。记者祝勇"
_REPORTER_CLOSING = lazy_compile(rf"[。！？”」]\s*(?:本报)?[记記]者\s*([{_CJK}]{{2,3}})\s*$")
#: a closing "（X）" / "（X 上海报道）" / "（记者 X）" at the end of the last paragraph
_CLOSING = lazy_compile(
    rf"[（(]\s*([{_CJK}·]{{2,4}}(?:[\s、]+[{_CJK}·]{{2,4}})*)\s*(?:[{_CJK}]{{2,6}}报道)?\s*[）)]\s*$"
)
#: "Posted by X", "Veröffentlicht von X", "Post author By X": the name follows the last such word
_BY_WORD = lazy_compile(r"(?:^|\s)(?:[Bb]y|BY|[Vv]on|vom|VON|[Pp]ar|[Pp]or|[Vv]an|door)\s*:?\s+(?=\S)")
#: links to an author's page ("/author/jane-doe/", "/autor/...", "/authors/...")
_AUTHOR_HREF = lazy_compile(r"/(?:author|autor|authors|autoren|writer)s?/[^/?#]+", re.I)
#: capitalised words of page furniture and headings that are never part of a person's name
NOT_NAME_WORDS = frozenset(
    """zur zum und the of and for with home news more startseite weiter lesen read comments kommentare share
    teilen back top contact kontakt impressum datenschutz privacy newsletter login menu team related similar
    posts ähnliche beiträge artikel""".split()
)
_HEADINGS = frozenset(HEADING_TAGS)
#: capitalised month names and abbreviations (English, German, French, Spanish) that may follow a byline's
#: name before the day ("By Jane Doe Dec 21st")
MONTH_WORDS = frozenset(
    """Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec January February March April May June July August
    September October November December Januar Februar März Mai Juni Juli Oktober Dezember Janvier Février
    Mars Avril Juin Juillet Août Septembre Octobre Novembre Décembre Enero Febrero Marzo Abril Mayo Junio
    Julio Agosto Septiembre Octubre Noviembre Diciembre""".split()
)
#: words of organisation names: a declared "author" with one is the outlet, held back like the site name
_ORGANISATION = lazy_compile(
    r"\b(?:GmbH|e\.\s?V|AG|KG|Ltd|Inc|LLC|S\.A|Verlag|Verlags|Media|Média|Medien|Editorial|Redaktion|"
    r"Redacci[oó]n|Nachrichten|Zeitung|Magazin|Magazine|Online|Stiftung|Verband|Group|Gruppe)\b"
)
#: endings of Chinese organisation names (大汉网络, 某某出版社, 某某研究院): a declared "author" like this
#: is held back like a company
_CJK_ORGANISATION = lazy_compile(
    r"(?:网络|公司|集团|出版社|杂志社|研究所|研究院|研究中心|大学|学院|协会|学会|委员会|政府|办公室|"
    r"工作室|编辑部|期刊|(?<=[\u3400-\u9fff]{3})[局厅部署处])$"
)
#: page furniture that looks like a short Chinese name
_FURNITURE = lazy_compile(
    r"返回|首页|顶部|本页|更多|相关|热点|专题|下载|登录|注册|搜索|导航|网友|留言|回复|正文|全文|分享|微信|微博|"
    r"评论|字号|图片|视频|新闻|国内|国际|社会|财经|体育|娱乐|科技|频道|关注|收藏|点赞|阅读|推荐|广告|打印|"
    r"显示|隐藏|展开|收起|全部|上一|下一|目录|简介|联系|订阅|"
    # an account named for its releases ("江城发布": a government office's)
    r"发布"
)
#: values that are placeholders or account handles rather than names
_PLACEHOLDER = lazy_compile(
    r"^(?:null|none|undefined|admin|administrator|unknown|anonymous|author|autor|autorin|quelle|source|"
    r"text|texte|interview|foto|fotos|photo|photos|von|by|geschrieben|kommentar|"
    # "作者：未知" (unknown), 佚名 / 匿名 (anonymous), 不详, 暂无 (none given), 网络整理 (from the web)
    r"未知|佚名|匿名|不详|暂无|网络整理)$|^@",
    re.I,
)
#: an account handle after the name ("Jane Doe @janedoe")
_TRAILING_HANDLE = lazy_compile(r"\s+@\w+$")
_EMAIL = lazy_compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
#: an e-mail address written against harvesters: "jane[at]example.net", "jane (at) example dot org"
_OBFUSCATED_EMAIL = lazy_compile(
    r"[\w.+-]\s*(?:[\[({]\s*(?:at|AT|@)\s*[\])}]|\s(?:at|AT)\s)\s*[\w-]+"
    r"(?:\.|\s*[\[({]\s*(?:dot|DOT|punkt)\s*[\])}]\s*|\s(?:dot|DOT)\s)[a-zA-Z]{2,}"
)
_SLUG = lazy_compile(r"^[a-z0-9]+(?:[._-][a-z0-9]+)+$")
_LOGIN_SEP = lazy_compile(r"[._-]")
_DIGITS = lazy_compile(r"\d{4}")
_LETTERS = lazy_compile(r"[^\W\d_]{2,}")
#: the words a date line may hold besides its digits: months, "Uhr", "am", ordinals' endings
_DATE_WORDS = lazy_compile(
    r"\b(?:" + "|".join(sorted(MONTH_WORDS, key=len, reverse=True)) + r"|Uhr|am|um|at|on|st|nd|rd|th)\b\.?",
    re.I,
)
#: leftovers of markup or code: a value with these is not a name
_MARKUP = lazy_compile(r"[=<>{}→»]|&\w+;|^\d")
#: soft hyphens, zero-width and private-use characters (icon fonts)
_INVISIBLE = lazy_compile(r"[\xad\u200b-\u200f\ue000-\uf8ff]")
#: where a value ends: a date, a time, a bracket, a keyword of the next field, page furniture
_VALUE_END = lazy_compile(
    r"\d{2,4}\s*[-/.年]\s*\d{1,2}|\d{1,2}\s*[:：]\s*\d{2}|[\[【〔<|｜丨]|"
    # 发布 as a label ("发布时间", "发布于"), not the end of an account's name ("上海发布", "城东发布")
    r"(?:来源|來源|作者|编辑|责任编辑|责编|时间|日期|发布(?=[于時时日：:])|发表|更新|点击|阅读|浏览|字号|字体|打印|"
    r"评论|分享|关注|订阅|"
    r"收藏|关闭|推荐|原标题|摄影?|图片|报道|发自|出自|出处|稿源|举报|整合|撰稿|编译|供稿|"
    # a chart's maker's verb after the name ("新华社记者 X 编制"), the tools a byline row holds ("文字大小：
    # 【大】【中】【小】", "手机版")
    r"编制|制图|文字大小|手机版|"
    # an account card's counts after its name ("X 文章 41076 总阅读", "总篇数919篇", "粉丝 12万")
    r"总篇数|粉丝|(?<=\s)文章(?=\s|\d|$)|文章(?=\d|总)|"
    # the same in the traditional characters of Hong Kong and Taiwan papers ("台北報導", "攝影", "採訪")
    r"報導|報道|报导|發自|攝影?|採訪|即時|"
    # a dateline's 电 / 讯 ("5月3日电", "张三 电"), not the end of a name ("腾讯", "商讯", "张讯")
    rf"(?:(?<![{_CJK}])|(?<=日))[电讯]\b|"
    r"\b(?:Veröffentlicht|Aktualisiert|Published|Updated|Stand|Posted|Archiv|Weitere)\b)"
)
_NAME_SPLIT = lazy_compile(r"[\s\u3000、,，;；/／_（）()【】\[\]]+|\band\b|&|和|及")
#: separators between the names of a list: punctuation, "&", and "and" in the languages of the datasets
_LIST_SEP = lazy_compile(
    r"\s*[;；、,，&]\s*|\s+(?:and|And|und|y|et|e|og|och|en|i|und|AND|UND|"
    r"im Gespräch mit|in conversation with)\s+"
)
#: a Chinese news outlet or wire service: a declared "author" like this is the page's source, not a writer
#: a newsroom's code for a writer after the name: "Elena Oberholzer (obe)"; Korean "기자" (reporter)
_STAFF_CODE = lazy_compile(r"\s*\([a-z]{2,5}\.?\)?$|\s+기자$|(?<=[가-힣]{2})기자$")
#: a declared value that credits a picture, not a writer ("Image: Getty Images")
_PICTURE_CREDIT = lazy_compile(
    r"^(?:Image|Images|Photo|Photos|Foto|Fotos|Bild|Picture|Credit|Illustration)s?\s*:", re.I
)
_OUTLET = lazy_compile(
    rf"^[{_CJK}A-Za-z]{{1,12}}(?:日报|晚报|早报|晨报|商报|时报|周刊|杂志|报社|报|通讯社|新闻社|社|网|网站|"
    rf"电视台|广播电台|台|客户端|新闻|传媒|集团|频道|在线|媒体|"
    # and in traditional characters: "聯合報", "華視新聞", "中時電子報"
    rf"日報|晚報|報|新聞|網|電視台|電視|臺)$"
    # a news service named for its bulletins, alone or after a word: "商讯", "财经快讯" (not "张讯")
    rf"|^[{_CJK}A-Za-z]{{0,12}}(?:资讯|快讯|商讯|简讯|电讯)$"
)
#: a site's column or feed posting in the writer's place ("股市行情", "行情实时播报", "新浪财经-自媒体综合", a
#: portal's government channel "搜狐政务"): no writer, and no outlet either (see :func:`is_column`)
_COLUMN = lazy_compile(rf"^[{_CJK}A-Za-z·-]{{1,12}}(?:行情|播报|综合|政务)$")
#: two or more spaces, or an ideographic space: a gap between names, not inside one
_WIDE_GAP = lazy_compile(r"\s{2,}|\u3000")
#: the bracket closing a byline given in brackets ("（记者 张三）"): what follows is the text
_CLOSING_BRACKET = lazy_compile(r"[）)】\]]")
_CJK_NAME = lazy_compile(rf"^[{_CJK}·•]{{2,4}}$")
#: a place a byline files from, by its ending: a province, city, county, district, town, village, prefecture
_PLACE_SUFFIX = lazy_compile(rf"^[{_CJK}]{{1,8}}(?:省|市|县|区|镇|乡|村|州|旗|盟)$")
#: names closed by 摄 / 攝 (took the picture): a photographer's credit, after the writers' on its line
_PHOTO_CREDIT = lazy_compile(rf"[{_CJK}·\s、]{{2,20}}?[摄攝](?!影)")
#: the words after which a byline's last word is the place filed from ("山东冠县报道", "台北報導", "发自北京")
_FILED_FROM = frozenset({"报道", "发自", "報導", "報道", "报导", "發自"})
#: a newsroom's staff number opening a value in place of a name: "AP0015", "ZN012", "NBJ11331" (portals sign
#: pages with the editor's code: one to three capitals, three to six digits; "CCTV13" is a channel)
_STAFF_NUMBER = lazy_compile(r"^[A-Z]{1,3}[_-]?\d{3,6}\b")
#: the role after a name that put the story together ("（王小明 整理）")
_COMPILED_BY = "整理"
#: the roles of a byline's further writers ("记者 张三 通讯员 李四 实习生 王五"): they write too
_CO_WRITER_ROLE = rf"(?:本[报報])?(?:{REPORTER_RANK}?[记記]者|(?:特约)?通讯员|实习生)"
_CO_WRITER = lazy_compile(rf"^{_CO_WRITER_ROLE}$")
#: such a role glued to the writer's name ("实习记者 樊亮 记者惠禾"): the name follows it
_CO_WRITER_GLUED = lazy_compile(rf"^{_CO_WRITER_ROLE}(?=[{_CJK}]{{2,4}}$)")
#: a two-character Chinese name with a space between its characters, padded to line up with longer names
_PADDED_NAME = lazy_compile(rf"^[{_CJK}][\s\u3000]+[{_CJK}]$")
#: capitals a name's words open with: Latin, and Cyrillic ("Иван Петров")
_UPPER = "A-ZÀ-ÖØ-ÞĀ-ŽА-ЯЁ"
#: the outlet a writer wrote for, after the name: "Jane Doe For The Mail On Sunday", "Jane Doe for Reuters"
_FOR_OUTLET = lazy_compile(
    rf"(?<=\S)\s+(?:[Ff]or|FOR)\s+(?:[Tt]he\s+)?[{_UPPER}][\w.]*(?:\s+[{_UPPER}][\w.]*)*$"
)
_LATIN_WORD = rf"[{_UPPER}][\w.'’-]*"
_PARTICLE = r"(?:de|da|del|della|der|den|van|von|la|le|du|dos|di|bin|al)"
_LATIN_NAME = rf"{_LATIN_WORD}(?:\s+(?:{_PARTICLE}\s+)*{_LATIN_WORD}){{0,3}}"
#: one or more Latin-script names: "Jane Doe", "Jane Doe and John Roe", "A. Mayer, B. Roe & C. Poe"
_LATIN_FULL_NAME = rf"{_LATIN_WORD}(?:\s+(?:{_PARTICLE}\s+)*{_LATIN_WORD}){{1,3}}"
#: (after a comma only a name of two or more words follows: "Jane Doe, Reuters" is one name and an outlet)
#: an interview's byline names the guest and the interviewer: "Jane Doe im Gespräch mit John Roe"
_IN_CONVERSATION = r"(?:im Gespräch mit|in conversation with)"
_LATIN_FULL = lazy_compile(_LATIN_FULL_NAME)
_LATIN_NAMES = lazy_compile(
    rf"{_LATIN_NAME}(?:\s*,\s*{_LATIN_FULL_NAME}|\s+(?:and|And|und|&|y|et|e)\s+{_LATIN_NAME}|"
    rf"\s+{_IN_CONVERSATION}\s+{_LATIN_FULL_NAME}){{0,5}}"
)
#: what joins the names of a list: commas, "and", "&"
#: a dateline's label that follows the writer's name on the same line ("Von Anna Schmidt Stand: 25.11.2026")
_LABEL_AFTER_NAME = lazy_compile(
    # (or glued to the name, its element right after the byline's: "By Li HuaPublished: Nov 24, 2026")
    r"(?:\s+|(?<=[a-zà-ÿ]))(?:Stand|Aktualisiert|Veröffentlicht|Published|Updated|Posted|Publié|Publicado|"
    r"Actualizado|Pubblicato|Aggiornato|Atualizado)\b"
)
_NAMES_JOINER = lazy_compile(r"\s*,\s*|\s+(?:and|&)\s+|\s+")
#: the wire service after a writer's name in capitals, AP's style: "JANE DOE Associated Press"
_CAPS_THEN_WIRE = lazy_compile(r"\s+(?:The\s+)?(?:Associated\s+Press|Reuters|Bloomberg(?:\s+News)?)$")
#: a writer's full name in brackets closing the text, German and Austrian papers' habit: "… (Jane Doe) +++"
_LATIN_CLOSING = lazy_compile(rf"\(\s*({_LATIN_FULL_NAME})\s*\)[\s+*.]*$")
#: a date then the writer alone on a line: "11.12.2019 - Jane Doe", "2019-12-11 | Jane Doe"
_DATE_THEN_NAME = lazy_compile(
    rf"^\s*(?:\d{{1,2}}\.\s?\d{{1,2}}\.\s?\d{{2,4}}|\d{{4}}-\d{{2}}-\d{{2}})\s*[-–—|·•]\s*({_LATIN_FULL_NAME})\s*$"
)
_URL = lazy_compile(r"https?://|www\.|\.(?:com|cn|net|org|html?)\b", re.I)
_DATE_ONLY = lazy_compile(r"^[\d\s:：/.\-年月日T+]+$")
_STRIP = " \t\r\n\u3000:：-–—|｜丨/／╱·•,，;；。()（）[]【】〔〕<>《》\"'“”‘’□■●◆~"
_BRACKETED = lazy_compile(r"[（(\[【〔]([^（()\[\]【】〔〕]{2,40})[）)\]】〕]")


def clean_value(value: str | None) -> str | None:
    """Trim an author-or-source value; None when nothing name-like is left.

    >>> clean_value("By Jane Doe 2021-03-05 10:00")
    'Jane Doe'
    """
    if not value:
        return None
    value = collapse(_INVISIBLE.sub("", unescape(value)))  # html.unescape raised on 4,300-digit numbers
    if ("at" in value or "AT" in value or "@" in value) and _OBFUSCATED_EMAIL.search(value):
        return None  # (before the value is cut at its bracket: "jane[at]example.net" is no "jane")
    value = _BY.sub("", value, count=1)
    value = value.strip(_STRIP)
    end = _VALUE_END.search(value)
    if end:
        value = value[: end.start()]
    value = _TRAILING_HANDLE.sub("", value).strip(_STRIP)
    if not value or len(value) > MAX_AUTHOR_CHARS or _URL.search(value) or _DATE_ONLY.match(value):
        return None
    if _PLACEHOLDER.match(value) or _SLUG.match(value) or _MARKUP.search(value) or _DIGITS.search(value):
        return None
    if _EMAIL.search(value) or _EDITED_BY.search(value) or _STAFF_NUMBER.match(value):
        return None
    if not any(ch.isalpha() for ch in value):
        return None
    return value


def _names(run: str) -> str | None:
    """The leading run of person names in ``run`` ("王建宏 张文攀 报道" -> "王建宏 张文攀").

    >>> _names("Jane Doe and John Roe, Reuters"), _names("王建宏 张文攀 2004-07-16")
    ('Jane Doe and John Roe', '王建宏、张文攀')
    >>> _names("JANE DOE and JOHN ROE Associated Press"), _names("张三 通讯员 李四 实习生 王五")
    ('JANE DOE and JOHN ROE', '张三、李四、王五')
    >>> _names("王小明、李华）初雪过后，古城墙迎来客流高峰")
    '王小明、李华'
    """
    run = run.lstrip(_STRIP)
    label = _LABEL_AFTER_NAME.search(run)
    if label:
        run = run[: label.start()]  # "Von Anna Schmidt Stand: 25.11.2026": the label ends the names
    latin = _LATIN_NAMES.match(run)
    if latin is None and "\u0600" <= run[:1] <= "\u097f":
        script = _SCRIPT_NAME.match(run)  # an Arabic or Hindi name: its words up to a date's or a place's
        if script:
            return _script_name(script.group(0))
    if latin:
        value = latin.group(0).strip(_STRIP)
        wire = _CAPS_THEN_WIRE.search(value)
        if wire and all(w.isupper() for w in _NAMES_JOINER.split(value[: wire.start()]) if w):
            value = value[: wire.start()]  # "By JANE DOE Associated Press": AP's byline
        words = value.rsplit(None, 1)
        dated = run[latin.end() :].lstrip()[:1].isdigit()
        if dated and len(words) == 2 and words[1].rstrip(".") in MONTH_WORDS:
            value = words[0]  # "By Jane Doe Dec 21st, 2018": the date's month is no part of the name
        value = _without_place(value)
        if not value or _PLACEHOLDER.match(value) or _STAFF_NUMBER.match(value):
            return None  # "责任编辑：AP0015": a staff number names nobody
        return value
    end = _VALUE_END.search(run)
    cut_at_place = end is not None and run[end.start() : end.start() + 2] in _FILED_FROM
    head = run[: end.start()] if end else run
    close = _CLOSING_BRACKET.search(head)
    if close:  # "（记者王小明、李华）初雪过后，……": the bracket ends the byline, the text follows
        head, cut_at_place = head[: close.start()], False
    names: list[str] = []
    for token in _NAME_SPLIT.split(head):
        token = _CO_WRITER_GLUED.sub("", token.strip(_STRIP))
        if not token or _CO_WRITER.match(token):
            continue  # "记者 张三 实习生 李四": the role before the next writer is no name
        if not _CJK_NAME.match(token) or _PLACEHOLDER.match(token) or token == _COMPILED_BY:
            break  # (整理 is no value's end: "网络整理" is one word, a placeholder)
        names.append(token)
        if len(names) >= MAX_NAMES:
            break
    if cut_at_place and len(names) > 1 and head.rstrip().endswith(names[-1]) and not _is_writer(names[-1]):
        names.pop()  # "彭冲 山东冠县报道": the last word before 报道 is the place ("张三 李四 报道": a name)
    # "、" between the names keeps them apart whatever their surnames ("放飞&心情" stays two names)
    return "、".join(names) or None


#: the most words of a place glued after a byline's name ("Rio de Janeiro")
MAX_PLACE_WORDS = 3
_PARTICLE_WORD = lazy_compile(rf"^{_PARTICLE}$")


def _without_place(value: str) -> str:
    """A Latin byline's names without the place filed from glued after the last one ("María López Madrid"
    -> "María López"): its last words are a known place (``data/latin_places.txt``) and the last name keeps
    two words or more without them ("Marco Roma" stays).

    >>> _without_place("María López Madrid"), _without_place("João Silva São Paulo")
    ('María López', 'João Silva')
    >>> _without_place("Ana Díaz y María López Madrid"), _without_place("Marco Roma")
    ('Ana Díaz y María López', 'Marco Roma')
    """
    words = value.split()
    if len(words) < 3:
        return value
    places = latin_places()
    for n in range(min(MAX_PLACE_WORDS, len(words) - 2), 0, -1):
        if " ".join(words[-n:]).casefold() not in places:
            continue
        head = " ".join(words[:-n])
        last = _LIST_SEP.split(head)[-1].split()
        if len(last) >= 2 and not _PARTICLE_WORD.match(last[-1]):
            return head
        return value
    return value


#: a name in a script without capitals after a writer's label: Arabic or Devanagari words (letters and
#: their marks; not the Arabic comma, the danda or digits)
_SCRIPT_NAME = lazy_compile(
    r"[\u0621-\u065f\u0671-\u06d3]+(?:[ \t]+[\u0621-\u065f\u0671-\u06d3]+)*"
    r"|[\u0900-\u0963\u0970-\u097f]+(?:[ \t]+[\u0900-\u0963\u0970-\u097f]+)*"
)
#: the most words of such a name ("عبد الله محمد أحمد")
MAX_SCRIPT_NAME_WORDS = 4
#: words that end such a name: "in", "from", weekdays, "updated", "by" (Hindi's postposition), a month
_NOT_SCRIPT_NAME = frozenset(
    """في من و - الأحد الاثنين الثلاثاء الأربعاء الخميس الجمعة السبت نشر تحديث آخر मंगलवार सोमवार बुधवार
    गुरुवार शुक्रवार शनिवार रविवार अपडेटेड प्रकाशित द्वारा""".split()
) | frozenset(MONTHS)
#: ... those of them long enough to be told glued to the name's last word
_GLUED_STOPS = tuple(w for w in _NOT_SCRIPT_NAME if len(w) >= 4 and w[0] >= "\u0600")


def _script_name(run: str) -> str | None:
    """The name opening ``run`` (Arabic or Devanagari words): its words up to one of
    ``_NOT_SCRIPT_NAME``, also when markup glued that word to the name's last ("राम शर्माअपडेटेड").

    >>> _script_name("محمد أحمد الثلاثاء"), _script_name("राम शर्माअपडेटेड"), _script_name("محمد")
    ('محمد أحمد', 'राम शर्मा', None)
    """
    words: list[str] = []
    for word in run.split()[: MAX_SCRIPT_NAME_WORDS + 1]:
        if word in _NOT_SCRIPT_NAME:
            break
        glued = next((w for w in _GLUED_STOPS if word.endswith(w) and len(word) > len(w)), None)
        if glued:
            words.append(word[: -len(glued)])
            break
        words.append(word)
    return " ".join(words) if 2 <= len(words) <= MAX_SCRIPT_NAME_WORDS else None


def _is_writer(word: str) -> bool:
    """True when ``word`` before a byline's 报道 is a writer's name, not the place filed from: a name
    (:func:`is_person_name`) that neither ends like a place nor is a known one (``data/chinese_places.txt``).

    >>> _is_writer("李四"), _is_writer("山东冠县"), _is_writer("成都"), _is_writer("郑州")
    (True, False, False, False)
    """
    return is_person_name(word) and not _PLACE_SUFFIX.match(word) and word not in chinese_places()


def _json_ld_author(meta: PageMeta) -> str | None:
    for obj in meta.json_ld:
        value = obj.get("author") or obj.get("creator")
        if not value:
            continue
        items = value if isinstance(value, list) else [value]
        names: list[str] = []
        for item in items:
            name = _person_name(item) if isinstance(item, dict) else item
            if isinstance(name, list):
                name = " ".join(n for n in name if isinstance(n, str))
            if isinstance(name, str) and _PICTURE_CREDIT.match(name.strip()):
                continue
            cleaned = clean_value(name) if isinstance(name, str) else None
            if cleaned and cleaned not in names:
                names.append(cleaned)
        if names:
            return join_names(n for name in names[:MAX_LIST_NAMES] for n in split_names(name))
    return None


def _json_ld_persons(meta: PageMeta) -> list[str]:
    """The names of the JSON-LD authors typed ``Person`` (a reference ``{"@id": ...}`` looked up in the
    page's graph), cleaned, in order: the people a structured record says wrote the article."""
    by_id: dict[str, dict[str, object]] | None = None
    for obj in meta.json_ld:
        value = obj.get("author")
        if not value:
            continue
        names: list[str] = []
        for item in value if isinstance(value, list) else [value]:
            if not isinstance(item, dict):
                continue
            if set(item) <= {"@id", "@type"} and isinstance(item.get("@id"), str):
                if by_id is None:
                    by_id = {o["@id"]: o for o in meta.json_ld if isinstance(o.get("@id"), str)}
                item = by_id.get(item["@id"], item)  # Yoast: {"author": {"@id": "#/schema/person/1"}}
            kind = item.get("@type")
            if "Person" not in (kind if isinstance(kind, list) else [kind]):
                continue
            name = _person_name(item)
            cleaned = clean_value(name) if isinstance(name, str) else None
            if cleaned and cleaned not in names:
                names.append(cleaned)
        if names:
            return names[:MAX_LIST_NAMES]
    return []


def _same_people(names: Iterable[str], others: Iterable[str]) -> bool:
    """True when a name of one list is, or is part of, a name of the other ("Jane Doe" and "Jane Doe,
    Reuters"; "박준석" and "박준석 기자 외 1명"): the two sources credit the same writer."""
    a = [n.casefold() for n in names]
    b = [n.casefold() for n in others]
    return any(x in y or y in x for x in a for y in b)


def _shown_byline(page: Page, body: BodyResult, names: Iterable[str]) -> bool:
    """True when the byline markup by the text names one of ``names``."""
    shown = _byline_markup(page, body).value
    return bool(shown) and _same_people(names, [shown or ""])


def _person_name(item: dict[str, object]) -> object:
    """A JSON-LD person's ``name``, else ``givenName`` and ``familyName`` put together."""
    name = item.get("name")
    if name:
        return name
    given, family = item.get("givenName"), item.get("familyName")
    parts = [p for p in (given, family) if isinstance(p, str) and p.strip()]
    return " ".join(parts) if parts else None


def _element_text(el: Element) -> str:
    return collapse(el.get("content") or subtree_text(el))


#: a label opening a byline element without a colon ("Author Jane Doe", "Autorin Jane Doe")
_BYLINE_LABEL = lazy_compile(r"^\s*(?:Author|Autor(?:in)?|Auteur|Autore|Written by|Verfasst von)\s+(?=\S)")
#: the roles a magazine's credit line names before the writer ("Text und Interview: Jane Doe", "Text: X")
_ROLE_LABEL = lazy_compile(
    r"^\s*(?:Text|Texte|Interview|Words|Story)(?:\s*(?:und|and|&|/|,)\s*(?:Text|Interview|Fotos?|Bilder|"
    r"Photos?|Recherche))*\s*:\s*(?=\S)"
)


#: a label opening a byline element that is not a writer's (those are removed before): "Quelle:", "Foto:",
#: "本文来源：", "责任编辑："
_OTHER_LABEL = lazy_compile(r"^\s*[^\W\d_]{2,20}\s*[:：]\s*\S")


def _byline_value(text: str) -> str | None:
    """The name in a byline element's text ("Posted on May 2 by Jane Doe" -> "Jane Doe")."""
    text = _BYLINE_LABEL.sub("", _WRITER.sub("", text, count=1), count=1)
    text = _ROLE_LABEL.sub("", text, count=1)
    matches = list(_BY_WORD.finditer(text))
    if matches:
        text = text[matches[-1].end() :]
    elif _OTHER_LABEL.match(text):
        return None  # "Quelle: dpa", "Foto: X": a source's or a photographer's credit, not the writer's
    value = clean_value(text)
    latin = _LATIN_NAMES.match(value) if value else None
    return _without_place(latin.group(0).strip(_STRIP)) if latin else value


def _byline_markup(page: Page, body: BodyResult) -> Found:
    """Byline markup near the text: itemprop="author", then rel="author", then a byline/author class or id.

    Only the elements from ``MARKUP_ELEMENTS`` before the text to the end of the near range are looked at:
    bylines sit by the text, and a whole-tree search costs more than the rest of the chain.
    """
    stats = page.stats
    elements, tags, classes, ids = stats.elements, stats.tag, stats.classes, stats.ids
    # every element's itemprop read in one pass (in C: a third of what an XPath for the holders costs)
    itemprops = attribute_values(elements, "itemprop")
    rel: str | None = None
    linked: str | None = None
    marked: str | None = None
    hinted: dict[tuple[str | None, str | None], bool] = {}  # a page repeats its class names: each read once
    for i in near_indexes(page, body):
        if itemprops[i] in _AUTHOR_ITEMPROPS:
            el = elements[i]
            inner = _ITEMPROP_NAME(el)
            value = clean_value(_element_text(inner[0]) if inner else _element_text(el))
            if value and not _in_aside(el):
                return Found(value, "byline:itemprop")
        if tags[i] == "a" and (rel is None or linked is None):
            el = elements[i]
            get = el.get
            if rel is None and "author" in (get("rel") or "").split():
                rel = _byline_value(_element_text(el))
                rel = None if rel and _in_aside(el) else rel
            if linked is None and _author_href(get("href")):
                linked = clean_value(_element_text(el))
                if linked and _INITIALS.match(linked):  # an avatar's initials: the link's title names them
                    linked = _initials_name(linked, get("title") or get("aria-label")) or linked
                linked = None if linked and _in_aside(el) else linked
        if marked is None:
            cls, ident = classes[i], ids[i]
            if cls is None and ident is None:
                continue
            pair = (cls, ident)
            hint = hinted.get(pair)
            if hint is None:
                low = f"{cls or ''} {ident or ''}".lower()
                hint = hinted[pair] = "aut" in low or "byline" in low or "writer" in low
            if not hint:
                continue
            marks = f"{cls or ''} {ident or ''}"
            if _BYLINE_CLASS.search(marks) and not _NOT_BYLINE_CLASS.search(marks):
                el = elements[i]
                text = _element_text(el)
                if next(el.iter("form", "input"), None) is not None:
                    continue  # a comment form marked "author": its labels ("昵称", "用户名") are no names
                if len(text) <= MAX_BYLINE_LINE:
                    # an author box holding the name and the role apart: the name's element
                    named = next((d for d in _CLASSED(el) if _NAME_CLASS.search(d.get("class", ""))), None)
                    if named is None:
                        # ... or the box's link naming a person, the role or bio beside it ("<p><a>王小明</a>
                        # </p><span>某大学教授</span>": guancha's columnist box)
                        named = next(
                            (a for a in el.iter("a") if is_person_name(_element_text(a).strip())), None
                        )
                    shown = text if named is None else _element_text(named)
                    marked = _byline_value(shown)
                    if marked and _release_account(marked):
                        marked = None
                elif len(text) <= MAX_CARD_CHARS:
                    marked = _card_name(el)
                marked = None if marked and _in_aside(el) else marked
    if rel:
        return Found(rel, "byline:rel")
    if marked:
        return Found(marked, "byline:class")
    return Found(linked, "byline:link") if linked else NOT_FOUND


def _release_account(name: str) -> bool:
    """Whether an author box's ``name`` is an account named for its releases ("中国广州发布", "上海发布": a
    government office's, on a portal's account platform): no writer. (发布 as a label, "发布于", "发布时间",
    ends a value before it: ``_VALUE_END``.)

    >>> _release_account("中国广州发布"), _release_account("张三")
    (True, False)
    """
    return len(name) > 2 and name.endswith("发布")


#: the longest author card read for its heading's name (the name, a role line, buttons and counts; a
#: longer element marked "author" is a page section or the <body> of an author's archive)
MAX_CARD_CHARS = 300
#: the first heading in an author card
_CARD_HEADING = etree.XPath("(.//*[self::h2 or self::h3 or self::h4 or self::h5 or self::h6])[1]")


def _card_name(box: Element) -> str | None:
    """The writer's name in an author card too long to read as a byline (a heading holding the name or
    the link to the writer's profile, then the writer's role or bio, a follow button, counts): the
    heading's first link, or the heading itself, when that is only a person's name."""
    for heading in _CARD_HEADING(box):
        link = next(heading.iter("a"), None)
        value = _name_only(_element_text(heading if link is None else link), True)
        if value and not _CJK_NAME.match(value):
            return value
    return None


#: a link's text that is only a person's initials (an avatar's "JD")
_INITIALS = lazy_compile(rf"^[{_UPPER}]{{2,3}}$")


def _initials_name(initials: str, title: str | None) -> str | None:
    """The name an avatar's initials stand for, from the link's title ("Jane Doe, Professor of ...", "Jane
    Doe" for "JD"); None when the title's name does not have those initials."""
    name = (title or "").split(",", 1)[0].strip()
    words = name.split()
    if not 2 <= len(words) <= 4 or "".join(w[0] for w in words).upper() != initials:
        return None
    return clean_value(name) if _LATIN_NAMES.fullmatch(name) else None


#: the most elements between two author links of one byline (a related article's byline is further on)
BYLINE_LINK_GAP = 20


def _rel_authors(page: Page, body: BodyResult) -> list[str]:
    """The names of the ``rel="author"`` links of the first byline by the text, in order, without repeats:
    links each at most ``BYLINE_LINK_GAP`` elements after the one before."""
    elements, tags = page.stats.elements, page.stats.tag
    names: list[str] = []
    last = -1
    for i in near_indexes(page, body):
        if tags[i] != "a" or "author" not in (elements[i].get("rel") or "").split():
            continue
        value = _byline_value(_element_text(elements[i]))
        if not value or _in_aside(elements[i]):
            continue
        if names and i - last > BYLINE_LINK_GAP:
            break
        last = i
        if value not in names:
            names.append(value)
    return names


def _own_author_link(page: Page, body: BodyResult) -> str | None:
    """The name an author-page link by the text shows when the link's address spells that name
    ("/author/boris-t-kaiser/" showing "Boris T. Kaiser"): the post's writer as its CMS knows it. None when
    links name several people (a list of related posts)."""
    stats = page.stats
    elements, tags = stats.elements, stats.tag
    found: str | None = None
    anchor = text_anchor(page, body)
    if anchor is None:
        return None
    top = range(max(0, anchor - MARKUP_ELEMENTS), min(len(tags), anchor + EDGE_ELEMENTS))
    for i in [i for i in top if tags[i] == "a"]:  # (the byline sits by the headline, related lists below)
        el = elements[i]
        href = el.get("href")
        if not _author_href(href):
            continue
        m = _AUTHOR_HREF.search(href or "")
        if m is None:
            continue
        value = clean_value(_element_text(el))
        slug = m.group(0).rstrip("/").rsplit("/", 1)[-1]
        if not value or name_key(slug) != name_key(value) or _in_aside(el):
            continue
        if found is not None and found != value:
            return None
        found = value
    return found


#: containers whose names are not the article's writer: a comment's author, a picture's licence or caption
_ASIDE_CLASS = lazy_compile(
    r"(?:^|[\s_-])(?:comments?|commentlist|licen[cs]e|caption|copyright)(?:$|[\s_-])", re.I
)
#: ancestors of byline markup looked at for such a container (a comment's author sits 2-3 levels in)
ASIDE_DEPTH = 4


def _in_aside(el: Element) -> bool:
    """True when ``el`` sits in a comment or its form, a figure or a picture's licence or caption box
    (within ``ASIDE_DEPTH`` ancestors): the name there is a commenter's or a photographer's."""
    for k, anc in enumerate(el.iterancestors()):
        if k >= ASIDE_DEPTH:
            break
        if anc.tag in ("figure", "figcaption", "form"):
            return True
        cls, ident = anc.get("class"), anc.get("id")
        if (cls or ident) and _ASIDE_CLASS.search(f"{cls or ''} {ident or ''}"):
            return True
    return False


def _author_href(href: str | None) -> bool:
    """Whether ``href`` links to a writer's page (``_AUTHOR_HREF``)."""
    if not href:
        return False
    if href.isascii():  # (an ASCII link matches only with '/aut' or '/writer' in it: no regex for most)
        low = href.lower()
        if "/aut" not in low and "/writer" not in low:
            return False
    return bool(_AUTHOR_HREF.search(href))


def near_indexes(page: Page, body: BodyResult) -> list[int]:
    """Pre-order indexes around the text: ``MARKUP_ELEMENTS`` before the first main paragraph to
    ``EDGE_ELEMENTS`` after it, and ``EDGE_ELEMENTS`` either side of the content node's end."""
    stats = page.stats
    index = stats.index
    anchor = text_anchor(page, body)
    if anchor is None:
        return []
    n = len(stats)
    top = range(max(0, anchor - MARKUP_ELEMENTS), min(n, anchor + EDGE_ELEMENTS))
    if body.node is None or body.node not in index:
        return list(top)
    end = stats.subtree_end(index[body.node])
    bottom = range(max(top.stop, end - EDGE_ELEMENTS), min(n, end + EDGE_ELEMENTS))
    return [*top, *bottom]


def _range_lines(page: Page, start: int, stop: int) -> list[str]:
    """The text lines of the elements ``start``..``stop`` (pre-order indexes of ``page.stats``).

    Walks the pre-order list with a stack of open elements, so tails come after their element's subtree.
    """
    stats = page.stats
    els, tags = stats.elements, stats.tags
    block = BLOCK_TAGS
    out: list[str] = []
    buf: list[str] = []
    stack: list[tuple[int, bool, str | None]] = []  # open elements: (end index, is block, tail)
    skip_end = -1  # headings are never bylines: their text is left out, unless only a writer's label
    for i in range(start, stop):
        if i < skip_end:
            continue
        while stack and stack[-1][0] <= i:
            _, is_block, tail = stack.pop()
            if is_block and buf:
                out.append(" ".join("".join(buf).split()))
                buf = []
            if tail:
                buf.append(tail)
        el = els[i]
        tag = el.tag
        is_block = tag in block
        if is_block and buf:
            out.append(" ".join("".join(buf).split()))
            buf = []
        end = i + tags[i] + 1
        if tag in _HEADINGS:
            if _is_label(el):
                buf.append(el.text or "")
            else:
                skip_end = end
        else:
            text = el.text
            if text:
                buf.append(text)
        stack.append((end, is_block, el.tail))
    while stack and stack[-1][0] <= stop:
        _, is_block, tail = stack.pop()
        if is_block and buf:
            out.append(" ".join("".join(buf).split()))
            buf = []
        if tail:
            buf.append(tail)
    if buf:
        out.append(" ".join("".join(buf).split()))
    return _join_labels([line for line in out if line])


#: a writer's label alone, its name in the next element ("<h4>Autor</h4><p><a>Jane Doe</a></p>")
_LABEL_ONLY = lazy_compile(r"^(?:Autor(?:in)?|Author|作者)\s*[:：]?$")
#: a writer's role alone in a magazine's credits table, its name in the next element
_ROLE_ONLY = lazy_compile(r"^(?:Text|TEXT|Texte|Interview|INTERVIEW|Words|WORDS)\s*:?$")
#: the longest such label
MAX_LABEL_CHARS = 9


def _is_label(el: Element) -> bool:
    """True for a heading that is only a writer's label: its text is kept as a byline line."""
    text = el.text
    if not text or len(el) or len(text) > 3 * MAX_LABEL_CHARS:
        return False
    return bool(_LABEL_ONLY.match(text.strip()))


def _join_labels(lines: list[str]) -> list[str]:
    """``lines`` with a line that is only a writer's label joined to the next one ("Autor" + "Jane Doe" ->
    "Autor: Jane Doe")."""
    short = [k for k, line in enumerate(lines) if len(line) <= MAX_LABEL_CHARS]  # (cheap: no regex per line)
    for k in short:
        line = lines[k]
        if k + 1 >= len(lines):
            break
        after = lines[k + 1]
        if _LABEL_ONLY.match(line) or (
            # a credits table's role over a name alone ("Interview" / "SVEN MICHAELSEN")
            _ROLE_ONLY.match(line) and len(after) <= MAX_NAME_LINE and _LATIN_NAMES.fullmatch(after)
        ):
            lines[k : k + 2] = [f"{line.rstrip(':： ')}: {after}"]
            break
    return lines


def text_start_lines(page: Page, body: BodyResult) -> list[str]:
    """The lines of the first ``TEXT_START_ELEMENTS`` elements from the first main paragraph on, as they
    stand: a byline the body algorithm left out ("von X" under a heading inside the text)."""
    anchor = text_anchor(page, body)
    if anchor is None:
        return []
    return _range_lines(page, anchor, min(len(page.stats), anchor + TEXT_START_ELEMENTS))


#: a breadcrumb row: two arrows with a crumb between ("首页 > 财经 > 正文")
_CRUMB_ROW = lazy_compile(r"[>»›＞→][^>»›＞→]+[>»›＞→]")


def near_lines(page: Page, body: BodyResult) -> tuple[list[str], list[str], list[str]]:
    """Lines where bylines sit, best first: before the first main paragraph (nearest first), the edges of
    the text, after the content node. Then the lines where a bare name is a byline: the one right above
    the text (up to a breadcrumb row), and the last one of the content node."""
    stats = page.stats
    index = stats.index
    lines: list[str] = []
    above: list[str] = []
    closing: list[str] = []
    anchor = text_anchor(page, body)
    if anchor is not None:
        # nearest first: a byline sits right above the text, navigation further up
        before = _range_lines(page, max(0, anchor - NEAR_ELEMENTS), anchor)
        lines.extend(reversed(before))
        for line in before[: -ABOVE_NAME_LINES - 1 : -1]:
            if _CRUMB_ROW.search(line):
                break  # a breadcrumb row: above it is the site's navigation ("和讯网 > 股票 > 正文")
            above.append(line)
    paras = body.paragraphs
    above.extend(paras[:2])  # the text may start with its byline
    lines.extend(paras[:EDGE_PARAGRAPHS])
    lines.extend(paras[max(EDGE_PARAGRAPHS, len(paras) - EDGE_PARAGRAPHS) :])
    if body.node is not None and body.node in index:
        # the end of the node as it stands (the body algorithm may have trimmed byline lines off the
        # paragraphs), then what follows it
        start = index[body.node]
        end = stats.subtree_end(start)
        half = NEAR_ELEMENTS // 2
        tail = _range_lines(page, max(start, end - half), end)
        lines.extend(tail)
        closing = tail[-1:]
        lines.extend(_range_lines(page, end, min(len(stats), end + half)))
    elif paras:
        closing = [paras[-1]]
    return lines, above, closing


#: the key under which a run of the metadata stage keeps :func:`near_lines` once read (``metadata.shared``)
NEAR_LINES_KEY = "near_lines"


def read_near_lines(page: Page, body: BodyResult) -> tuple[list[str], list[str], list[str]]:
    """:func:`near_lines`, read once per run of the metadata stage (the author chain reads them when no
    declared author settles it; the editor's English label is looked for in them then)."""
    return shared(page, NEAR_LINES_KEY, near_lines, page, body)


#: a Latin-script writer's label opening a line: the line is a byline even when a role runs on after the
#: name ("Autorin: Jane Doe, Projektleiterin der Stiftung in Tunis.")
_LABEL_OPENING = lazy_compile(r"^\W{0,3}(?:Autor(?:in|en|innen)?|Authors?|Written by)\s*:\s*(?=\S)")
#: ... a label in the singular names one writer, so on a short line too what follows the name's comma is
#: the role, not a second person ("Autorin: Jane Doe, Projektleiterin der Stiftung."; "Autoren: A, B" stays)
_ONE_WRITER_LABEL = lazy_compile(r"^\W{0,3}(?:Autor(?:in)?|Author)\s*:\s*(?=\S)")
#: ... a label in the plural names several: on a long line the names after the first one's comma are kept
#: up to the first piece that is not a name ("Autoren: Jane Doe, John Roe, beide Projektleiter der ...")
_WRITERS_LABEL = lazy_compile(r"^\W{0,3}(?:Autoren|Autorinnen|Authors)\s*:\s*(?=\S)")


#: a name after a singular label's comma: capitalised words only ("John Roe", "J. Roe"; a role has small
#: words or a role's word: "Head of the Unit", "Projektleiterin der Stiftung", "Senior Editor")
_PLAIN_NAME = lazy_compile(rf"[{_UPPER}][\w'’-]*\.?(?:\s+[{_UPPER}][\w'’-]*\.?){{1,3}}")
#: words of a writer's role or title written after the name ("Jane Doe, Senior Editor")
ROLE_WORDS = frozenset(
    """editor editors writer reporter correspondent journalist columnist author contributor contributing
    staff senior chief head director manager founder professor student intern producer analyst
    redakteur redakteurin journalistin korrespondent korrespondentin autor autorin chefredakteur
    chefredakteurin leiter leiterin volontär volontärin mitarbeiter mitarbeiterin gastautor gastautorin
    rédacteur rédactrice journaliste correspondant redactor redactora periodista""".split()
)


def plain_name(part: str) -> bool:
    """True for two to four capitalised words none of which is a role's ("Jane Doe", not "Senior Editor")."""
    return bool(_PLAIN_NAME.fullmatch(part)) and not ROLE_WORDS & {w.lower().strip(".") for w in part.split()}


def _more_names(tail: str) -> bool:
    """True when what follows a singular label's name after its comma is more names, not the writer's
    role: "Author: Jane Doe, John Roe" names two writers, "Autorin: Jane Doe, Projektleiterin" one."""
    parts = [p.strip(" .;") for p in _LIST_SEP.split(tail)]
    return bool(parts) and all(plain_name(p) for p in parts)


def _leading_names(tail: str) -> list[str]:
    """The names opening ``tail`` (what follows a plural label's first name and its comma), up to the
    first piece that is not a name: "John Roe und Max Muster, beide Projektleiter" -> John Roe, Max Muster.

    >>> _leading_names(" John Roe und Max Muster, beide Projektleiter der Stiftung.")
    ['John Roe', 'Max Muster']
    """
    names: list[str] = []
    for part in _LIST_SEP.split(tail):
        part = part.strip(" .;")
        if not plain_name(part):
            break
        names.append(part)
    return names


def _keyword_values(line: str, pattern: re.Pattern[str], people: bool, photos: bool = True) -> Iterator[str]:
    short = len(line) <= MAX_BYLINE_LINE
    pieces: Iterable[str] = (line,) if short else (m.group(1) for m in _BRACKETED.finditer(line))
    label = _ONE_WRITER_LABEL if short else _LABEL_OPENING
    if people and len(line) <= 2 * MAX_BYLINE_LINE and label.match(line):
        head, _, tail = line.partition(",")
        if not (short and _more_names(tail)):
            # the name, without the role after its comma; a plural label's other names kept
            more = _leading_names(tail) if _WRITERS_LABEL.match(line) else []
            pieces = (", ".join([head, *more]),)
    photographers: list[str] = []
    for piece in pieces:
        for m in pattern.finditer(piece):
            run = piece[m.end() :]
            value = _names(run) if people else clean_value(run)
            if value and people and _PHOTO_CREDIT.match(run):
                photographers.append(value)  # "（記者X攝） 〔記者Y／台北報導〕": Y wrote, X took the picture
            elif value:
                yield value
    if photos:
        yield from photographers


def _name_only(line: str, latin: bool) -> str | None:
    """``line`` when it is nothing but a person's name: 2-4 CJK characters, or (when ``latin``) two or
    three capitalised words without closing punctuation."""
    stripped = line.strip(_STRIP)
    if not stripped or len(stripped) > MAX_NAME_LINE:
        return None
    if _CJK_NAME.match(stripped):
        if _VALUE_END.search(stripped) or _FURNITURE.search(stripped) or not _has_surname(stripped):
            return None
        return None if _OUTLET.match(stripped) else stripped  # "华商报" above the text: the source
    if not latin or line.rstrip(" \"'”’»)）")[-1:] in ".!?:…" or site_name_like(stripped):
        return None
    words = stripped.split()
    if _LATIN_NAMES.fullmatch(stripped) and 2 <= len(words) <= 3 and not NOT_NAME_WORDS & {
        w.lower() for w in words
    }:
        return stripped
    return None


@lru_cache(maxsize=1)
def chinese_surnames() -> frozenset[str]:
    """Common Chinese surnames (``data/chinese_surnames.txt``)."""
    text = files("newscrawl").joinpath("data", "chinese_surnames.txt").read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


@lru_cache(maxsize=1)
def chinese_places() -> frozenset[str]:
    """Places a Chinese byline files from without a suffix (``data/chinese_places.txt``)."""
    text = files("newscrawl").joinpath("data", "chinese_places.txt").read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


@lru_cache(maxsize=1)
def latin_places() -> frozenset[str]:
    """Places a Latin-script byline files from, glued after the name (``data/latin_places.txt``),
    casefolded."""
    text = files("newscrawl").joinpath("data", "latin_places.txt").read_text(encoding="utf-8")
    return frozenset(
        line.strip().casefold() for line in text.splitlines() if line.strip() and not line.startswith("#")
    )


def _has_surname(name: str) -> bool:
    surnames = chinese_surnames()
    return name[:1] in surnames or name[:2] in surnames


def site_name_like(text: str) -> bool:
    return name_key(text) in site_names()


def is_organisation(value: str) -> bool:
    """True when ``value`` names a company or institution rather than a person.

    >>> is_organisation("Example Verlag GmbH"), is_organisation("大汉网络"), is_organisation("张三")
    (True, True, False)
    """
    return bool(_ORGANISATION.search(value) or _CJK_ORGANISATION.search(value.replace(" ", "")))


def is_person_name(value: str) -> bool:
    """True when ``value`` is a short Chinese personal name with a common surname, not page furniture.

    >>> is_person_name("尹娟"), is_person_name("新京报"), is_person_name("更多新闻")
    (True, False, False)
    """
    return (
        bool(_CJK_NAME.match(value))
        and _has_surname(value)
        and not _FURNITURE.search(value)
        and not _VALUE_END.search(value)
        and not is_outlet(value)
    )


def is_outlet(value: str) -> bool:
    """True when ``value`` names a Chinese news outlet or wire service rather than a person.

    >>> is_outlet("新京报"), is_outlet("新华社"), is_outlet("澎湃新闻"), is_outlet("张三")
    (True, True, True, False)
    >>> is_outlet("财经》综合")  # a publication's title marks: "【作者：《财经》综合报道】"
    True
    """
    return bool(_OUTLET.match(value.replace(" ", ""))) or "》" in value or site_name_like(value)


def is_column(value: str) -> bool:
    """True when ``value`` names a site's column or feed, not a person (an author box's "股市行情", a
    portal's "新浪财经-自媒体综合" in its author meta): neither the writer nor the page's source.

    >>> is_column("股市行情"), is_column("新浪财经-自媒体综合"), is_column("张三"), is_column("新京报")
    (True, True, False, False)
    """
    return _COLUMN.match(value.replace(" ", "")) is not None


def split_names(value: str | None) -> tuple[str, ...]:
    """The names in an author value, in order, without repeats.

    >>> split_names("Jane Doe and John Roe"), split_names("王建宏 张文攀"), split_names("甲乙丙、丁戊")
    (('Jane Doe', 'John Roe'), ('王建宏', '张文攀'), ('甲乙丙', '丁戊'))
    >>> split_names("大渡 美咲"), split_names("伊琳  李清芬"), split_names("赵  培")
    (('大渡 美咲',), ('伊琳', '李清芬'), ('赵培',))
    """
    if not value:
        return ()
    parts = [
        _FOR_OUTLET.sub("", _STAFF_CODE.sub("", p)).strip(_STRIP)
        for p in _LIST_SEP.split(value)
        if not _PICTURE_CREDIT.match(p.strip())  # "Jane Doe, Image: Getty Images"
    ]
    names: list[str] = []
    for part in parts:
        words = part.split()
        wide = _WIDE_GAP.split(part.strip())
        if len(words) > 1 and all(_CJK_NAME.match(w) and _has_surname(w) for w in words):
            pieces = words  # Chinese names are listed with spaces between them ("大渡 美咲" is one name)
        elif len(wide) > 1 and all(_CJK_NAME.match(w) for w in wide):
            pieces = wide  # a wide gap parts names whatever their surnames ("伊琳  李清芬", "甲乙　丙丁")
        elif _PADDED_NAME.match(part):
            pieces = ["".join(words)]  # a two-character name padded to the width of three ("赵  培")
        else:
            pieces = [part]
        names.extend(p for p in pieces if p and p not in names)
    return tuple(names)


def join_names(names: Iterable[str]) -> str:
    """One author string of ``names``: "、" between Chinese names, "; " between others.

    >>> join_names(["王建宏", "张文攀"]), join_names(["Jane Doe", "John Roe"])
    ('王建宏、张文攀', 'Jane Doe; John Roe')
    """
    names = list(names)
    cjk = all(_CJK_NAME.match(n) for n in names)
    return ("、" if cjk else "; ").join(names)


#: a role written in a byline list in place of a name ("Jane Doe, Staff writer")
_STAFF_ROLE = lazy_compile(
    r"^(?:(?:senior\s+|contributing\s+)?staff(?:\s+(?:writers?|reporters?))?|(?:staff\s+)?correspondent|"
    # "Jane Doe, Contributing Columnist", "Jane Doe, Senior Reporter", "Chief Political Correspondent"
    r"(?:(?:senior|contributing|chief|guest|special|political|business|foreign|sports|staff|associate|"
    r"deputy|managing|executive|news|health|science|tech(?:nology)?|opinion|investigative|national)\s+){1,3}"
    r"(?:writers?|reporters?|columnists?|correspondents?|editors?|contributors?|critics?))$",
    re.I,
)
#: "Jane Doe. Example Outlet": a writer's full name, a full stop, the outlet (1-4 capitalised words)
_NAME_DOT_OUTLET = lazy_compile(rf"^(.+?[a-z]{{2}})\.\s+((?:[{_UPPER}][\w'’-]*\s*){{1,4}})$")


def outlet_apart(
    names: tuple[str, ...], site: SiteContext, published_by: frozenset[str]
) -> tuple[tuple[str, ...], str | None]:
    """The writers of a byline list, and the outlet it names beside them (the page's ``source``).

    Only a list that names a person changes: a staff role beside the person goes ("Staff writer"), and
    the page's own site or declared publisher is the outlet ("Jane Doe, Example Insider" on Example
    Insider). A wire service beside a person stays a name of the list: the shared sets' truths keep
    "Jane Doe, dpa" as the writers. One value "Jane Doe. Example Outlet" is a writer and an outlet.

    >>> site = SiteContext(PageMeta(meta={"og:site_name": "Example Insider"}), "https://example.com/a")
    >>> outlet_apart(("Jane Doe", "Example Insider"), site, frozenset())
    (('Jane Doe',), 'Example Insider')
    >>> outlet_apart(("Jane Doe. Example Outlet",), site, frozenset())
    (('Jane Doe',), 'Example Outlet')
    >>> outlet_apart(("Jane Doe", "Staff writer"), site, frozenset())
    (('Jane Doe',), None)
    >>> outlet_apart(("Example Insider",), site, frozenset())
    (('Example Insider',), None)
    >>> outlet_apart(("Jane Doe", "dpa"), site, frozenset())
    (('Jane Doe', 'dpa'), None)
    """
    if len(names) == 1:
        m = _NAME_DOT_OUTLET.match(names[0])
        if m and _LATIN_FULL.fullmatch(m.group(1)):
            return (m.group(1),), m.group(2).strip()
        return names, None

    def own(name: str) -> bool:
        # the page's own names only: a known wire service ("Reuters" in data/site_names.txt) stays
        key = name_key(name)
        if not key:
            return False
        if key in published_by or any(n.startswith(key) for n in site.names):
            return True
        return site.host.startswith(key) and len(key) + OWN_NAME_SUFFIX_CHARS >= len(site.host)

    def person(name: str) -> bool:
        if not (_LATIN_FULL.fullmatch(name) or is_person_name(name)):
            return False
        return not (is_organisation(name) or own(name) or _STAFF_ROLE.match(name))

    if not any(map(person, names)):
        return names, None
    outlet = next((n for n in names if not person(n) and own(n)), None)
    kept = tuple(n for n in names if person(n) or not (own(n) or _STAFF_ROLE.match(n)))
    return kept, outlet


def _turn_citation(value: str) -> str:
    """"Brazil, Rachel" -> "Rachel Brazil" (the form of scholarly citation tags)."""
    last, sep, first = value.partition(",")
    if sep and last.strip() and first.strip() and "," not in first and len(last.split()) == 1:
        return f"{first.strip()} {last.strip()}"
    return value


def _writer_line(lines: list[str], paragraphs: tuple[str, ...]) -> Found:
    """A writer named by a keyword (作者, 记者, By ...) in ``lines``, or in brackets closing the text; a
    photographer's credit ("记者 X 摄") only when no line names a writer otherwise."""
    return _writer_line_of(lines, paragraphs, photos=False) or _writer_line_of(lines, paragraphs, photos=True)


def _writer_line_of(lines: list[str], paragraphs: tuple[str, ...], photos: bool) -> Found:
    for i, line in enumerate(lines):
        for value in _keyword_values(line, _WRITER, people=True, photos=photos):
            # "本报记者 A B" over "本报实习生 C": a byline of several lines, each with its role
            names = list(split_names(value))
            for other in lines[i + 1 : i + 1 + MORE_BYLINE_LINES]:
                if len(other) <= MAX_BYLINE_LINE and _WRITER.search(other.strip()[:BYLINE_KEY_CHARS]):
                    names += [n for v in _keyword_values(other, _WRITER, people=True) for n in split_names(v)]
            # the outlet before its reporters ("文｜财新 王小明 李华") is the source, not a writer
            people = [n for n in names if not is_outlet(n)] or names
            return Found(join_names(dict.fromkeys(people)), "line:writer")
        by = _by_line(line) or _role_line(line)
        if by:
            return Found(by, "line:writer")
        m = _DATE_THEN_NAME.match(line)
        if m and len(line) <= MAX_BYLINE_LINE and not NOT_NAME_WORDS & set(m.group(1).lower().split()):
            return Found(m.group(1), "line:writer")
        for pattern in _WRITER_GROUPS:
            m = pattern.search(line)
            grouped = clean_value(m.group(1)) if m else None
            if grouped:
                return Found(grouped, "line:writer")
    if paragraphs:
        m = _CLOSING.search(paragraphs[-1])
        if m:
            closing = _names(m.group(1))
            # the outlet before its reporter ("（新民网 李欣）") is the source, not a second writer
            people = [n for n in split_names(closing) if not is_outlet(n)]
            if people:
                return Found(join_names(people), "line:writer")
        m = _REPORTER_CLOSING.search(paragraphs[-1][-BYLINE_END_CHARS:])
        if m and is_person_name(m.group(1)):
            return Found(m.group(1), "line:writer")
        m = _LATIN_CLOSING.search(paragraphs[-1][-BYLINE_END_CHARS:])
        if m and not NOT_NAME_WORDS & {w.lower() for w in m.group(1).split()}:
            return Found(m.group(1), "line:writer")
    return NOT_FOUND


def _by_line(line: str) -> str | None:
    """The names of a "By X" / "Von X" line, or of such a piece between bars ("Food | By X | May 2").
    A single word opening an enumeration is no byline ("Von Sprachregeln, Politik und Sprache": German
    "von" also means "of"); nor is a name with the next word glued to it ("By Example TimesMay 2")."""
    if len(line) > 2 * MAX_BYLINE_LINE:
        return None
    pieces = [line]
    if "|" in line and not _BY.match(line):
        pieces = line.split("|")[1:]
    for piece in pieces:
        m = _BY.match(piece)
        if not m:
            continue
        rest = piece[m.end() :]
        by = _names(rest)
        if not by or (" " not in by and _ENUMERATION.match(rest[len(by) :])):
            continue
        if _GLUED.search(by):
            continue
        return by
    return None


#: what may follow the names of a role line: its end, or the next credit ("Text: X, Fotos: Y", "Text: X | ")
_ROLE_NAMES_END = lazy_compile(r"\s*(?:$|[,;|/(])")


#: a German standfirst crediting the writer: "Ein Interview von X mit Y.", "Eine Kolumne von X"
_OPENING_CREDIT = lazy_compile(r"^Eine?\s+[A-ZÄÖÜ][a-zäöüß-]+\s+von\s+(?=[A-ZÄÖÜ])")


def _opening_credit(paragraphs: tuple[str, ...]) -> Found:
    """The writer a short paragraph opening the text credits: "Ein Interview von Jane Doe mit John Roe.",
    "Eine Kolumne von Jane Doe" (a full name: "Ein Flug von American Airlines" opens running text, but
    runs on past the line's length)."""
    for paragraph in paragraphs[:EDGE_PARAGRAPHS]:
        m = _OPENING_CREDIT.match(paragraph) if len(paragraph) <= MAX_BYLINE_LINE else None
        if m and _LATIN_FULL.match(paragraph, m.end()):
            value = _names(paragraph[m.end() :])
            if value:
                return Found(value, "line:credit")
    return NOT_FOUND


def _role_line(line: str) -> str | None:
    """The writer of a magazine's credit line: "Text: Jane Doe", "Text & Fotos: Jane Doe", "Interview:
    Jane Doe, Fotos: John Roe". A full name of two words or more, and nothing but credits after it: a
    role word opens running text too ("Interview: Wie es weitergeht")."""
    if len(line) > MAX_BYLINE_LINE or line[:1] not in "TIWtiw" or not (m := _ROLE_LABEL.match(line)):
        return None
    rest = line[m.end() :]
    names = _LATIN_NAMES.match(rest)
    if not names or not _LATIN_FULL.match(rest) or not _ROLE_NAMES_END.match(rest, names.end()):
        return None
    return _names(rest)


#: what parts the names of a CJK byline line ("张三、李四", "张三 李四")
_NAME_GAPS = lazy_compile(r"[、，,\s&]+")


def _opening_byline(paragraphs: tuple[str, ...]) -> Found:
    """Names alone on a line between the headline and the text, as reposted articles open ("标题 / 茉莉 /
    正文", "标题 / 赵延东、风笑天 / 正文"): a line of one to ``MAX_NAMES`` CJK names within the first
    ``OPENING_LINES`` paragraphs, after a short headline-like line and before a long one or a dash-led
    subtitle ("——当代中国的精神危机"). A pen name needs no surname here: the place says it is a byline."""
    for i in range(1, min(OPENING_LINES, len(paragraphs) - 1)):
        before, line, after = paragraphs[i - 1], paragraphs[i].strip(_STRIP), paragraphs[i + 1]
        subtitle = after.lstrip().startswith(SUBTITLE_DASHES)  # "标题 / 作者 / ——副标题 / 正文"
        if len(before) > MAX_NAME_LINE or before.endswith(("。", "！", "？", ".", "!", "?")):
            continue
        if (len(after) < ANCHOR_TEXT_CHARS and not subtitle) or len(line) > MAX_NAME_LINE:
            continue
        names = [n.strip(_STRIP) for n in _NAME_GAPS.split(line) if n.strip(_STRIP)]
        if names and len(names) <= MAX_NAMES and all(
            _CJK_NAME.match(n) and not _FURNITURE.search(n) and not _VALUE_END.search(n) and not is_outlet(n)
            for n in names
        ):
            return Found(join_names(names), "line:opening")
    return NOT_FOUND


#: the paragraphs of the content node, in order (a bold line of names opening the text)
_NODE_PARAGRAPHS = etree.XPath(".//p")
#: separators between the names of a bold line ("Jane Doe/John Roe", "Jane Doe and John Roe")
_BOLD_NAMES_SEP = lazy_compile(r"\s*[/,&|]\s*|\s+(?:and|und|et|y)\s+")


def _bold_names(body: BodyResult) -> Found:
    """The writers a paragraph in bold names before the text, as small papers open an article ("<p><b>Jane
    Doe/John Roe</b></p>"): one of the first ``OPENING_LINES`` paragraphs of the content node that is
    nothing but a bold run of full names (two to four capitalised words each). A line in capitals is a
    dateline or a heading ("NEW YORK"), not a byline."""
    if body.node is None:
        return NOT_FOUND
    seen = 0
    for p in _NODE_PARAGRAPHS(body.node):
        text = collapse(subtree_text(p))
        if not text:
            continue
        seen += 1
        if seen > OPENING_LINES:
            break
        if len(text) > MAX_NAME_LINE or text.isupper() or len(p) != 1 or p[0].tag not in ("b", "strong"):
            continue
        if collapse(p.text or "") or collapse(p[0].tail or "") or collapse(subtree_text(p[0])) != text:
            continue
        names = _BOLD_NAMES_SEP.split(text.strip(_STRIP))
        if names and all(
            _LATIN_FULL.fullmatch(n)
            and not NOT_NAME_WORDS & {w.lower() for w in n.split()}
            and not MONTH_WORDS & set(n.split())
            for n in names
        ):
            return Found(join_names(names), "line:opening")
    return NOT_FOUND


def _labelled_paragraph(paragraphs: tuple[str, ...]) -> Found:
    """A paragraph anywhere in the text that opens with a writer's label ("Autorin: Jane Doe, Projektleiterin
    der Stiftung."): the writer of a text that closes with an interview or a contact box, where the edges
    of the text hold no byline. A label among other labelled lines is a record's field, not a byline (a
    book review's "Titel: X / Autorin: Y / Verlag: Z")."""
    for i, paragraph in enumerate(paragraphs):
        if len(paragraph) > 2 * MAX_BYLINE_LINE or not _LABEL_OPENING.match(paragraph):
            continue
        around = paragraphs[max(0, i - 1) : i] + paragraphs[i + 1 : i + 2]
        if any(len(p) <= MAX_BYLINE_LINE and _OTHER_LABEL.match(p) for p in around):
            continue
        for value in _keyword_values(paragraph, _WRITER, people=True):
            return Found(value, "line:label")  # (the names without the role after their comma)
    return NOT_FOUND


#: a blog post's closing greeting before the writer's name ("Euer Jan", "Liebe Grüße, Tine", "Cheers, Sam")
_SIGN_OFF = lazy_compile(
    rf"^(?:Euer|Eure|Eurer|Dein|Deine|(?:Viele|Liebe|Herzliche|Beste)\s+Grüße|Cheers|Yours)[,!]?\s+"
    rf"({_LATIN_WORD}(?:\s+{_LATIN_WORD})?)[.!]?$"
)


#: the author page the <head> links to (``<link rel="author" href="/author/jane-doe">``)
_HEAD_AUTHOR_LINK = etree.XPath(
    "/html/head/link[contains(concat(' ', normalize-space(@rel), ' '), ' author ')]/@href"
)
#: the links of the body to a given address
_LINKS_TO = etree.XPath("/html/body//a[@href = $href]")


def _linked_author(page: Page) -> Found:
    """The name a link to the author page the <head> declares shows (Plone and others write
    ``<link rel="author">`` in the head and the byline far below the text): ``byline:head-link``."""
    for href in _HEAD_AUTHOR_LINK(page.root):
        if not isinstance(href, str) or not _AUTHOR_HREF.search(href):
            continue
        path = urlsplit(href.strip()).path
        for el in [*_LINKS_TO(page.root, href=href), *_LINKS_TO(page.root, href=path)]:
            value = clean_value(_element_text(el))
            if value and not _in_aside(el):
                return Found(value, "byline:head-link")
    return NOT_FOUND


#: a link's text speaking of "the author" ("zu allen Rezepten vom Autor", "More from this author")
_THE_AUTHOR = lazy_compile(
    r"\b(?:vom|des|der|dieses|dieser|the|this|l['’]|dell['’])\s*(?:Autor(?:s|in)?|author|auteur|autore)\b",
    re.I,
)
#: the longest such link text (a sentence about an author is no link to their page)
MAX_AUTHOR_LINK_TEXT = 60


def _more_by_author(page: Page) -> Found:
    """The name beside a link to "the author's" other posts whose address spells that name: an author box
    of a recipe or a guide ("Jane Doe" + "zu allen Rezepten vom Autor" -> /experten/jane-doe), which no
    byline class marks and which sits far from the text."""
    els = page.stats.elements
    for i in [i for i, tag in enumerate(page.stats.tag) if tag == "a"]:
        link = els[i]
        text = link.text  # (the link's own text: reading every link's whole text costs more)
        if not text or not ("utor" in text or "uthor" in text or "uteur" in text):
            continue
        text = _element_text(link)
        if len(text) > MAX_AUTHOR_LINK_TEXT or not _THE_AUTHOR.search(text):
            continue
        slug = urlsplit(link.get("href", "")).path.rstrip("/").rsplit("/", 1)[-1]
        key = name_key(slug)
        box = link.getparent()
        if not key or box is None:
            continue
        for el in box.iter():
            if el is link or not isinstance(el.tag, str):
                continue
            for piece in (el.text, el.tail) if el is not box else (el.text,):
                value = _name_only(piece or "", True)
                if value and name_key(value) == key and not _in_aside(link):
                    return Found(value, "byline:author-page")
    return NOT_FOUND


def _sign_off(paragraphs: tuple[str, ...]) -> Found:
    """The name after a closing greeting in the last paragraph of the text ("Euer HansEhrlich")."""
    m = _SIGN_OFF.match(paragraphs[-1].strip()) if paragraphs else None
    value = clean_value(m.group(1)) if m else None
    if not value or NOT_NAME_WORDS & {w.lower() for w in value.split()}:
        return NOT_FOUND
    return Found(value, "line:sign-off")


def _signature(paragraphs: tuple[str, ...]) -> Found:
    """The issuing body signing an official notice: the text closes with an organisation's name and then
    a date alone ("吉林省人民政府 / 2022年1月27日"), the 落款 of Chinese government documents."""
    if len(paragraphs) < 3:
        return NOT_FOUND
    name, date = paragraphs[-2].strip(_STRIP), paragraphs[-1].strip()
    if not _DATE_ONLY.match(date) or not _DIGITS.search(date) or len(name) > MAX_SIGNATURE_CHARS:
        return NOT_FOUND
    return Found(name, "line:signature") if _CJK_ORGANISATION.search(name) else NOT_FOUND


def _name_line(above: Iterable[str], closing: Iterable[str]) -> Found:
    """A line by the text that is only a person's name."""
    # a bare Latin-script name only when closing the text: above it, headings look the same
    for line, latin in [*((x, False) for x in above), *((x, True) for x in closing)]:
        value = _name_only(line, latin)
        if value:
            return Found(value, "line:name")
    return NOT_FOUND


#: a line of a date alone: at most this long, the date's digits and words (a byline row's "19. Oktober 2019",
#: "May 2, 2023", "02.05.2023 | 10:14")
MAX_DATE_LINE = 30


def date_line(line: str) -> bool:
    """True for a line that is only a date (at most ``MAX_DATE_LINE`` long): "19. Oktober 2019"."""
    line = line.strip(_STRIP)
    if not line or len(line) > MAX_DATE_LINE or not _DIGITS.search(line):
        return False
    hits = find_dates(line, relative=False, limit=1)
    return bool(hits) and not _LETTERS.search(_DATE_WORDS.sub("", line))


#: the links of a page to author pages
_AUTHOR_LINKS = etree.XPath("//a[contains(@href, '/aut') or contains(@href, '/writer')]/@href")


def _author_page_of(page: Page, name: str) -> bool:
    """Whether the page links to an author page whose address spells ``name`` ("/author/jane-doe/")."""
    key = name_key(name)
    for href in _AUTHOR_LINKS(page.root):
        m = _AUTHOR_HREF.search(str(href))
        if m and name_key(m.group(0).rstrip("/").rsplit("/", 1)[-1]) == key:
            return True
    return False


#: the last word of a writer's role on a line of its own under the name ("Business reporter", "Political
#: correspondent", "Sports editor")
_ROLE_END = frozenset(
    """reporter reporters correspondent correspondents editor writer columnist journalist presenter analyst
    producer critic commentator""".split()
)
#: the parts of a role line: the role and the outlet ("BBC News, Business reporter")
_ROLE_PARTS = lazy_compile(r"\s*(?:[,|·•]|\s[-–—]\s)\s*")
#: the most words of a part of a role line
MAX_ROLE_WORDS = 4


def role_line(line: str) -> bool:
    """True for a line that is only a writer's role, perhaps with the outlet: "BBC News, Business
    reporter", "Political correspondent", "Senior Reporter | Example Times" (each part at most
    ``MAX_ROLE_WORDS`` words; a part not the role is capitalised words, the outlet).

    >>> role_line("BBC News, Business reporter"), role_line("Political correspondent")
    (True, True)
    >>> role_line("The reporter said"), role_line("Jane Doe")
    (False, False)
    """
    if not line or len(line) > MAX_BYLINE_LINE:
        return False
    role = False
    for part in _ROLE_PARTS.split(line.strip(_STRIP)):
        words = part.split()
        if not words or len(words) > MAX_ROLE_WORDS:
            return False
        if words[-1].lower() in _ROLE_END and (_STAFF_ROLE.match(part) or words[0][:1].isupper()):
            role = True
        elif not all(w[:1].isupper() or w[:1].isdigit() for w in words):
            return False
    return role


def _name_over_role(above: list[str]) -> Found:
    """A line right above the text that is only a person's name, with a line of the writer's role under it
    (BBC's byline block: "Jane Doe" over "BBC News, Business reporter"; ``above`` is nearest first)."""
    for i in range(1, min(len(above), ABOVE_NAME_LINES + 1)):
        value = _name_only(above[i], True)
        if value and not _CJK_NAME.match(value) and role_line(above[i - 1]):
            return Found(value, "line:name-role")
    return NOT_FOUND


def _dated_name(page: Page, above: list[str]) -> Found:
    """A line right above the text that is only a person's name, beside a line that is only a date, when
    the site has an author page of that name: the byline row of a theme that prints the writer and the
    day on lines of their own, unmarked ("Jane Doe" under "19. Oktober 2019"; the author link sits in a
    list of the writer's other posts). ``above`` is nearest first; a bare name line above the text alone
    may be a kicker or a section's name ("Digital Life" over "05/08/2019")."""
    for i, line in enumerate(above[:ABOVE_NAME_LINES]):
        value = _name_only(line, True)
        if value and not _CJK_NAME.match(value):
            beside = above[max(0, i - 1) : i] + above[i + 1 : min(i + 2, ABOVE_NAME_LINES)]
            if any(date_line(b) for b in beside) and _author_page_of(page, value):
                return Found(value, "line:dated-name")
    return NOT_FOUND


#: a footer's copyright notice: "© 2010 Jane Doe", "Copyright Jane Doe |", "(CC) 2006-2008 by Jane Doe"
_COPYRIGHT = lazy_compile(
    r"(?:©|\([cC]\)|\b[Cc]opyright\b|\bCOPYRIGHT\b|(?<![\d.])(?:19|20)\d\d\s*[-–]\s*(?:19|20)\d\d(?=\s+by\s))"
    r"[\s:]*(?:(?:19|20)\d\d(?:\s*[-–]\s*(?:19|20)\d\d)?\s*)?(?:by\s+)?"
)
#: where the copyright's holder ends: a bar, a dash between spaces, "All rights reserved", the next credit
_HOLDER_END = lazy_compile(
    r"\s*(?:[|·•,;]|\s[-–—]\s|\.\s|\b(?:All|Alle)\s|\b[A-Z]\w+\s+by\s|\b(?:19|20)\d\d\b)|\s*$"
)
#: the separator between a <title>'s headline and the site's name
_TITLE_PART = lazy_compile(r"\s[|–—-]\s|\s?\|\s?|\s::\s")
#: elements at the end of the page searched for a copyright notice (the footer)
FOOTER_ELEMENTS = 120
#: the longest footer line read for one (a whole page's text in one element is no footer)
MAX_FOOTER_LINE = 300


def _copyright_mark(text: str | None) -> bool:
    """Whether ``text`` holds a copyright's mark ("©", "Copyright") or a "by" (the "2006-2008 by X" form)."""
    if not text:
        return False
    return "©" in text or "opyright" in text or "OPYRIGHT" in text or " by " in text


def _copyright_holder(page: Page) -> Found:
    """The person a copyright notice at the end of the page names: a personal site's or blog's writer
    ("COPYRIGHT JANE DOE", "(CC) 2006-2008 by Jane Doe Hosted by ..."). Only a name of two or three
    capitalised words counts (a company, a site's name or one word is no writer), and only when nothing
    else names one."""
    stats = page.stats
    n = len(stats)
    els = stats.elements
    headline: str | None = None
    seen: set[int] = set()
    for i in range(n - 1, max(0, n - FOOTER_ELEMENTS) - 1, -1):  # (the footer's last notice first)
        el = els[i]
        block = -1  # the element whose text holds the mark: its own, or its parent's for a tail
        if _copyright_mark(el.text):
            block = i
        elif _copyright_mark(el.tail):
            block = stats.parent[i]
        if block < 0 or block in seen:
            continue
        seen.add(block)
        line = _element_text(els[block])
        if len(line) > MAX_FOOTER_LINE:
            continue
        if headline is None:
            headline = name_key(_TITLE_PART.split(page.meta.title or "", maxsplit=1)[0])
        for m in _COPYRIGHT.finditer(line):
            rest = line[m.end() :]
            end = _HOLDER_END.search(rest)
            holder = rest[: end.start()] if end else rest
            value = _name_only(holder, True)
            if not value or is_organisation(value) or _CJK_NAME.match(value):
                continue
            words = page_spelling(page, value).split()
            if any(w.isupper() and len(w) > 1 for w in words) and not all(w.isupper() for w in words):
                continue  # an acronym beside words in their usual case: a company's name ("KBS World")
            # "© 2010 by Jane Doe" credits a person; "© 2023 Example World" a company or the site, unless
            # the title's headline part names the holder too (a personal site's "About Jane Doe | ...")
            if m.group(0).rstrip().endswith("by") or name_key(value) in headline:
                return Found(value, "page:copyright")
    return NOT_FOUND


#: characters of a long line searched for a byline at each end: bylines open or close a paragraph
#: ("记者 张三 报道 ..." / "...（记者 张三）"), and searching a megabyte line whole took seconds
BYLINE_END_CHARS = 300


def _line_ends(lines: list[str]) -> list[str]:
    """``lines`` with each long line replaced by its two ends (where a byline in it would be)."""
    out: list[str] = []
    for line in lines:
        if len(line) <= 2 * BYLINE_END_CHARS:
            out.append(line)
        else:
            out += (line[:BYLINE_END_CHARS], line[-BYLINE_END_CHARS:])
    return out


def keyword_lines(lines: Iterable[str]) -> list[str]:
    """The lines that may hold a byline, a credit or a source (the cheap pre-filter)."""
    return [line for line in _line_ends(list(lines)) if _any_key(line) or _other_byline(line)]


def _other_byline(line: str) -> bool:
    """A byline shape without a keyword the pre-filter knows: "11.12.2019 - Jane Doe", "22:36 by X" (plain
    string tests first: adding these to the pre-filter's keywords made it half as slow again)."""
    if line[:1].isdigit() and _DATE_THEN_NAME.match(line):
        return True
    if "| By " in line or "| by " in line or "ritten by" in line:
        return True  # "Food | By Jane Doe | May 2", "Written by: Jane Doe"
    if line[:1] in "TIWtiw" and ":" in line and _ROLE_LABEL.match(line):
        return True  # "Text & Fotos: Jane Doe"
    return ("by " in line or "By " in line or "BY " in line or "von " in line) and bool(_TIME_BY.search(line))


def keyword_values(line: str, pattern: re.Pattern[str], people: bool) -> Iterator[str]:
    """Values following ``pattern`` in ``line``: names (``people``) or a cleaned value."""
    return _keyword_values(line, pattern, people)


def names_after(run: str) -> str | None:
    """The leading run of person names in ``run`` (see :func:`_names`)."""
    return _names(run)


def byline_value(text: str) -> str | None:
    """The writer's names in a byline given as text, label dropped ("记者 张三 李四" -> "张三、李四").

    >>> byline_value("作者：陈海波"), byline_value("By Jane Doe and John Roe")
    ('陈海波', 'Jane Doe; John Roe')
    """
    text = _BY.sub("", _WRITER.sub("", collapse(text), count=1), count=1)
    value = _names(text) or clean_value(text)
    return join_names(split_names(value)) if value else None


def _labelled_author(meta: PageMeta) -> str | None:
    """The value of a ``twitter:dataN`` tag whose ``twitter:labelN`` says "Written by" (the pair WordPress
    SEO plugins write: label "Verfasst von", data "Karoline Herr"), or of a ``twitter:misc:<label>`` tag with
    such a label (``<meta name="twitter:misc:Written by" content="Karoline Herr">``)."""
    for n in range(1, 5):
        label = meta.meta.get(f"twitter:label{n}")
        if label is None:
            break
        if _WRITTEN_BY.match(label.strip()):
            return meta.meta.get(f"twitter:data{n}")
    for key, value in meta.meta.items():
        if key.startswith("twitter:misc:") and _WRITTEN_BY.match(key[len("twitter:misc:") :].strip()):
            return value
    return None


def declared_authors(page: Page) -> tuple[tuple[str, str], ...]:
    """:func:`_declared` of the page, read once per run of the metadata stage (the author and the source
    chains both read it)."""
    return shared(page, "declared_authors", _declared_tuple, page.meta)


def _declared_tuple(meta: PageMeta) -> tuple[tuple[str, str], ...]:
    return tuple(_declared(meta))


def json_ld_author(page: Page) -> str | None:
    """:func:`_json_ld_author` of the page, read once per run of the metadata stage."""
    return shared(page, "json_ld_author", _json_ld_author, page.meta)


def _declared(meta: PageMeta) -> Iterator[tuple[str, str]]:
    """(key, cleaned value) of every declared author meta tag, best key first."""
    labelled = clean_value(_labelled_author(meta))
    if labelled:
        yield "twitter:data", labelled
    for key in META_AUTHOR_KEYS:
        raw = meta.multi.get(key) or ([meta.meta[key]] if key in meta.meta else [])
        for item in raw:
            if _PICTURE_CREDIT.match(item.strip()):
                continue
            head, underscore, _ = item.partition("_")
            if underscore and is_outlet(head.strip()):
                item = head  # "财讯网_提供股票、基金……": the site's name and its tagline, not a writer
            value = clean_value(_turn_citation(item) if key in CITATION_KEYS else item)
            if value:
                yield key, value


def _host(url: str) -> str:
    try:
        return (urlsplit(url.strip()).hostname or "").removeprefix("www.")
    except ValueError:  # a malformed address ("http://[x")
        return ""


def declared_outlets(page: Page) -> Iterator[Found]:
    """Declared authors (meta, JSON-LD) that name a news outlet: the page's source, not its writer; then
    the JSON-LD ``provider`` of a syndicated story (:func:`providers`)."""
    for key, value in declared_authors(page):
        if is_outlet(value):
            yield Found(value, f"meta:{key}")
    ld_author = json_ld_author(page)
    if ld_author and is_outlet(ld_author):
        yield Found(ld_author, "json-ld:author")
    for name in providers(page.meta, page.url).values():
        yield Found(name, "json-ld:provider")


def providers(meta: PageMeta, url: str | None) -> dict[str, str]:
    """The organisations a syndicated story's JSON-LD names as its ``provider`` besides its publisher and
    the page's own site (a portal's copy of a newspaper's or an agency's story: ``"provider": {"@type":
    "Organization", "name": "Example Wire"}``), by name key. They are the story's source, never its
    writer: a byline or declared author naming only the provider names no person."""
    out: dict[str, str] = {}
    published_by: frozenset[str] | None = None
    for obj in meta.json_ld:
        item = obj.get("provider")
        if not isinstance(item, dict):
            continue
        name, kind, home = item.get("name"), item.get("@type"), item.get("url")
        if not isinstance(name, str) or not isinstance(kind, str) or "Organization" not in kind:
            continue
        if isinstance(home, str) and url and _host(home) == _host(url):
            continue  # the site's own desk ("Yahoo News Australia" on au.news.yahoo.com): no other source
        value = clean_value(name)
        key = name_key(value) if value else ""
        if published_by is None:
            published_by = publishers(meta)
        if key and key not in published_by:
            out[key] = value or name
    return out


def byline_outlet(page: Page, body: BodyResult) -> Found:
    """A news outlet the byline markup by the text names (``<a class="author">央视新闻</a>``): the
    page's source, which :func:`find_author` does not take for a writer."""
    markup = _byline_markup(page, body)
    value = markup.value or ""
    if _chinese_outlet(value) and not _SELF_REFERENCE.match(value):
        return Found(value.replace("《", "").replace("》", ""), f"{markup.source}:outlet")
    return NOT_FOUND


#: "本报", "本台", "本网": the page's outlet naming itself, no name
_SELF_REFERENCE = lazy_compile(r"^本(?:报|台|网|刊|社|站)")


def _chinese_outlet(value: str) -> bool:
    """A Chinese outlet's name (新京报, 央视新闻, a title in 《》: "《财经》综合"); an English byline's
    "Reuters" is left to the wire rules."""
    return bool(_OUTLET.match(value.replace(" ", ""))) or "》" in value


def find_author(
    page: Page, body: BodyResult, near: tuple[list[str], list[str], list[str]] | None = None
) -> Found:
    """The page's writer by the chain in the module docstring, several names joined by
    :func:`join_names`; ``Found()`` when none.

    ``near`` is :func:`near_lines` of the page with its first list already passed through
    :func:`keyword_lines`, when the caller has them.
    """
    found = _author_chain(page, body, near)
    names = split_names(found.value)
    if len(names) == 1 and found.source and found.source.startswith(("meta:", "json-ld:")):
        names = (full_name(page, body, names[0]) or names[0],)
    spelled = tuple(page_spelling(page, n) for n in names)
    if all(s != n or not _in_capitals(n) for s, n in zip(spelled, names, strict=True)):
        names = spelled  # (all or none: "LISA ROE; Eric Doe" reads as a fault)
    return Found(join_names(names), found.source) if names else found


#: a word of a name in its usual case: a capital first ("Doe", "McDonald", "O'Neill", "AG"), or a particle
_USUAL_CASE_WORD = lazy_compile(rf"^(?:[{_UPPER}]\S*|{_PARTICLE})$")


#: the parts of a name between spaces, hyphens and apostrophes
_NAME_PARTS = lazy_compile(r"[\s\-'’]+")
#: ... the letters after the first of the longest part of a name in capitals the page is searched for
MIN_SPELLING_TAIL = 3
#: ... and the most places of it looked at
MAX_SPELLING_HITS = 50


def _in_capitals(name: str) -> bool:
    return len(name.split()) > 1 and name.isupper()


def page_spelling(page: Page, name: str) -> str:
    """``name`` as the page also writes it in its usual case, when the byline prints it in capitals
    ("MEG KINNARD" -> "Meg Kinnard" where the page's meta or text says "Meg Kinnard"); ``name`` itself
    when it is not all capitals, is one word (an agency's "AFP"), or the page has no one other spelling.
    The case of a name is not guessed: "MCDONALD", "DIMAGGIO" or "VAN DER BERG" have no safe rule."""
    if not _in_capitals(name):
        return name
    # the page is searched where the longest part of the name it holds shows in small letters after its
    # first ("innard" of "Kinnard"; "ohn" of "John" for "John McRoe"): a case-blind search of a whole page
    # costs milliseconds
    html = page.html
    tails = sorted((p[1:].lower() for p in _NAME_PARTS.split(name)), key=len, reverse=True)
    tail = next((t for t in tails if len(t) >= MIN_SPELLING_TAIL and t in html), None)
    if tail is None:
        return name
    words = r"[\s\xa0]+".join(re.escape(w) for w in name.split())
    spelled = re.compile(rf"(?<!\w){words}(?!\w)", re.I)
    forms: set[str] = set()
    reach = 2 * len(name) + 10
    at = html.find(tail)
    for _ in range(MAX_SPELLING_HITS):
        if at < 0 or len(forms) > 1:
            break
        for m in spelled.finditer(html, max(0, at - reach), at + reach):
            form = " ".join(m.group(0).split())
            if not form.isupper() and all(_USUAL_CASE_WORD.match(w) for w in form.split()):
                forms.add(form)
        at = html.find(tail, at + 1)
    return forms.pop() if len(forms) == 1 else name


#: words of a declared login spelled out ("jane.doe", "jane_doe" -> "Jane Doe"): at most this many
MAX_LOGIN_WORDS = 3


def _declared_logins(meta: PageMeta) -> Iterator[tuple[str, str]]:
    """(source, login) of the declared authors (meta tags, JSON-LD names) that are account logins of
    words ("jane.doe")."""
    raw = [(f"meta:{k}", v) for k in META_AUTHOR_KEYS for v in meta.multi.get(k) or [meta.meta.get(k) or ""]]
    for obj in meta.json_ld:
        value = obj.get("author") or obj.get("creator")
        for item in value if isinstance(value, list) else [value]:
            name = _person_name(item) if isinstance(item, dict) else item
            if isinstance(name, str):
                raw.append(("json-ld:author", name))
    for source, value in raw:
        if _SLUG.match(value.strip()):
            yield source, value.strip()


def spelled_login(page: Page) -> Found:
    """The writer's name where the page declares only a login of words ("jane.doe") and writes that name
    elsewhere in its usual case ("Jane Doe"): the case of a name is never guessed. ``Found()`` otherwise."""
    for source, login in _declared_logins(page.meta):
        words = _LOGIN_SEP.split(login)
        if not 2 <= len(words) <= MAX_LOGIN_WORDS or not all(w.isalpha() and len(w) > 1 for w in words):
            continue
        capitals = " ".join(words).upper()
        spelled = page_spelling(page, capitals)
        if spelled != capitals:
            return Found(spelled, source)
    return NOT_FOUND


#: a declared first name is completed by a surname the page writes after it at least this many times
#: (and no other: "Nils" -> "Nils Doe" when the page says "Nils Doe" twice and "Nils" nothing else)
FULL_NAME_MIN_TIMES = 2
#: a declared login is spelled out when the page shows it as words: at least this many letters
MIN_LOGIN_CHARS = 8
_SURNAME = r"[ \xa0]+([A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ'’]+(?:-[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+)?)(?![\w-])"


def full_name(page: Page, body: BodyResult, name: str) -> str | None:
    """The writer's full name where the page declares a single word: a first name the page completes with
    one surname (``FULL_NAME_MIN_TIMES``), or a login the byline by the text spells as words ("marydoerr"
    shown as "Mary Doerr"). None when ``name`` is no such word or the page says nothing certain."""
    if not name.isalpha():
        return None
    html = page.html
    if name[0].isupper() and name[1:].islower():
        if html.count(f"{name} ") < FULL_NAME_MIN_TIMES:
            return None  # (a plain count first: a regular expression over a big page costs milliseconds)
        surnames: dict[str, int] = {}
        for m in re.finditer(f"{name}{_SURNAME}", html):  # (a literal start: searched fast)
            before = html[m.start() - 1 : m.start()]
            if not (before.isalnum() or before in "_-"):
                surnames[m.group(1)] = surnames.get(m.group(1), 0) + 1
        if len(surnames) != 1:
            return None
        surname, times = surnames.popitem()
        return f"{name} {surname}" if times >= FULL_NAME_MIN_TIMES else None
    if name.islower() and len(name) >= MIN_LOGIN_CHARS:
        shown = _byline_markup(page, body).value
        return shown if shown and " " in shown and name_key(shown) == name else None
    return None


#: a host's own name (its first label) this long is a name, not a chance run of letters
MIN_HOST_LABEL_CHARS = 6


def _holds_host_name(site: SiteContext, value: str) -> bool:
    """True when ``value`` is the host's own name with more words: the site's or club's name ("EFC
    Bayrische Bembel" on bayrische-bembel.de). The name alone may be a person's own blog ("Jane Doe" on
    janedoe.com), so it does not count."""
    label = site.label
    if len(label) < MIN_HOST_LABEL_CHARS:
        return False
    key = name_key(value)
    return key != label and label in key


#: meta keys naming the publisher
META_PUBLISHER_KEYS = ("dc.publisher", "dcterms.publisher", "publisher")


def publishers(meta: PageMeta) -> frozenset[str]:
    """The name keys of the page's declared publishers: meta ``DC.publisher`` and kin, JSON-LD ``publisher``
    organisations. A declared author of the same name is the publisher ("Example Verlag" as both)."""
    names = [meta.meta[k] for k in META_PUBLISHER_KEYS if k in meta.meta]
    for obj in meta.json_ld:
        value = obj.get("publisher")
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict) and isinstance(item.get("name"), str):
                kind = item.get("@type")
                kinds = kind if isinstance(kind, list) else [kind]
                if any(isinstance(k, str) and "Organization" in k for k in kinds):
                    names.append(item["name"])
    return frozenset(k for k in map(name_key, names) if k)


#: an editor's label the page shows before a name, in the languages of the datasets
_EDITOR_LABEL = r"(?:Editor|EDITOR|Edited by|Redaktur|Redakteur(?:in)?|Penyunting|Editado por|Editora?)"
#: an editor's label is this near the name it labels (tags between, the label's colon)
MAX_EDITOR_LABEL_GAP = 200
#: ... ending where the name starts: the label, its colon, tags between
_EDITOR_LABEL_BEFORE = lazy_compile(rf"{_EDITOR_LABEL}\s*:?\s*(?:<[^<>]*>\s*)*$")


def _shown_as_editor(page: Page, name: str) -> bool:
    """Whether the page shows ``name`` only after an editor's label ("Editor : <a>Jane Doe</a>"): a
    declared author who is the story's editor, while the byline by the text names the reporter. Tags may
    stand between the label and the name; quoted values of scripts ("'editor': 'X'") do not count."""
    html = page.html
    shown = ">" + name  # (the name as an element's text, not inside a script's string)
    at = html.find(shown)
    if at < 0:
        return False
    edited = True
    while at >= 0 and edited:
        edited = bool(_EDITOR_LABEL_BEFORE.search(html, max(0, at - MAX_EDITOR_LABEL_GAP), at + 1))
        at = html.find(shown, at + len(shown))
    return edited


def _copyright_host(meta: PageMeta, value: str) -> bool:
    """Whether a declared author is a word of the host the page's copyright meta names: the site's own name
    ("chinanews" beside ``<meta name="copyright" content="www.chinanews.com,版权所有">``), never a writer.

    >>> meta = PageMeta(meta={"copyright": "www.chinanews.com,版权所有"})
    >>> _copyright_host(meta, "chinanews"), _copyright_host(meta, "Jane Doe"), _copyright_host(meta, "com")
    (True, False, False)
    """
    holder = meta.meta.get("copyright")
    if not holder or not value.isascii() or not value.isalpha() or len(value) < MIN_HOST_LABEL_CHARS:
        return False
    return f".{value.lower()}." in holder.lower()


def _author_chain(
    page: Page, body: BodyResult, near: tuple[list[str], list[str], list[str]] | None
) -> Found:
    meta = page.meta
    site = SiteContext.of(page)
    held: Found = NOT_FOUND  # a declared "author" that is only the site's own name or a company
    declared: dict[str, list[str]] = {}
    published_by = publishers(meta)
    provided = providers(meta, page.url) if meta.json_ld else {}
    for key, value in declared_authors(page):
        if (
            is_outlet(value)
            or is_column(value)
            or _copyright_host(meta, value)
            or (provided and name_key(value) in provided)
        ):
            continue
        head = value.split(",", 1)[0].strip()
        if (
            site.is_site(value)
            or is_organisation(value)
            or (head != value and site.is_site(head))
            or _holds_host_name(site, value)
            or name_key(value) in published_by
        ):
            # "Example Verlag GmbH, Nürnberg, Germany": the organisation, without its address
            named = head if is_organisation(head) or site.is_site(head) else value
            held = held or Found(named, f"meta:{key}")
        elif value not in declared.setdefault(key, []):
            declared[key].append(value)
    # a key naming more writers than any byline does is a reference list ("citation" tags of every paper
    # cited), not the article's writers
    declared = {k: v for k, v in declared.items() if len(v) <= MAX_LIST_NAMES}
    if declared:
        key, values = next(iter(declared.items()))
        names = [n for v in values for n in split_names(v)]
        # a JSON-LD Person the meta tags do not name is the writer: the meta tag then names the publisher,
        # the account that posted or the theme's author ("Condé Nast", "Grist" beside the reporter)
        persons = [
            p
            for p in _json_ld_persons(meta)
            if not (is_outlet(p) or site.is_site(p) or is_organisation(p) or name_key(p) in provided)
        ]
        if persons and not _same_people(names, persons) and not _shown_byline(page, body, names):
            return Found(join_names(n for p in persons for n in split_names(p)), "json-ld:author")
        # a JSON-LD list that names these writers and more is the fuller byline (meta often gives one)
        listed = split_names(json_ld_author(page))
        if len(listed) > len(names) and set(names) <= set(listed):
            return Found(join_names(listed), "json-ld:author")
        # ... and so is the byline's list of author links by the text
        linked = _rel_authors(page, body)
        if len(linked) > len(names) and set(names) <= set(linked) and len(linked) <= MAX_NAMES:
            return Found(join_names(linked), "byline:rel")
        # the post's own author link by the text ("/author/fabian/" showing "Fabian") naming none of the
        # declared people: the meta tag names the theme's or the site's owners
        own = _own_author_link(page, body)
        if own and not _same_people(names, [own]):
            return Found(own, "byline:link")
        credit = _opening_credit(body.paragraphs)
        if credit.value and not _same_people(names, split_names(credit.value)):
            return credit  # the text says who wrote it; the meta tag names the account that posted it
        return Found(join_names(names), f"meta:{key}")
    enp = page_enp(page).get("author")
    if enp:
        enp_value = byline_value(enp)
        if enp_value and not is_outlet(enp_value):
            return Found(enp_value, "meta:enp:author")
    ld_value = json_ld_author(page)
    ld_named = ld_value is not None
    if ld_value is None and (login := spelled_login(page)):
        return login
    if ld_value and _shown_as_editor(page, ld_value):
        ld_value = None  # the CMS declares the story's editor: the byline by the text names the writer
    if ld_value and provided and name_key(ld_value) in provided:
        ld_value = None  # a syndicated story credited to its provider only: no writer declared
    if ld_value and not is_outlet(ld_value):
        if not (site.is_site(ld_value) or is_organisation(ld_value)):
            return Found(ld_value, "json-ld:author")
        held = held or Found(ld_value, "json-ld:author")
    arc = meta.arc
    if arc is not None and arc.authors and not ld_named:  # Arc XP's story record (metadata.arc)
        arc_value = join_names(n for a in arc.authors for n in split_names(clean_value(a)))
        if arc_value and not (is_outlet(arc_value) or site.is_site(arc_value) or is_organisation(arc_value)):
            return Found(arc_value, "arc:credits")
        held = held or (Found(arc_value, "arc:credits") if arc_value else NOT_FOUND)
    markup = _byline_markup(page, body)
    if markup and _chinese_outlet(markup.value or ""):
        markup = NOT_FOUND  # an author box naming a news outlet (qq: "央视新闻"): the source (byline_outlet)
    if markup and is_column(markup.value or ""):
        markup = NOT_FOUND  # an author box naming the site's column ("股市行情"): no writer
    if markup and provided and name_key(markup.value or "") in provided:
        markup = NOT_FOUND
    if markup and (site.is_own_name(markup.value or "") or is_organisation(markup.value or "")):
        held = held or markup  # an author box naming the site: a byline may still name a person
        markup = NOT_FOUND
    if markup.source in ("byline:itemprop", "byline:rel"):
        return markup
    if near is None:
        lines, above, closing = read_near_lines(page, body)
        lines = keyword_lines(lines)
    else:
        lines, above, closing = near
    # a keyword byline beats class markup (portals' "author" boxes often name the account, not the writer)
    found = (
        _writer_line(lines, body.paragraphs)
        or _writer_line(keyword_lines(text_start_lines(page, body)), ())
        or _opening_credit(body.paragraphs)
        or markup
        or _labelled_paragraph(body.paragraphs)
        or _sign_off(body.paragraphs)
        or _name_line(above, closing)
        or _name_over_role(above)
        or _dated_name(page, above)
        or _opening_byline(body.paragraphs)
        or _bold_names(body)
        or _signature(body.paragraphs)
        or _linked_author(page)
        or _more_by_author(page)
    )
    if found and not (provided and name_key(found.value or "") in provided):
        return found
    if meta.json_ld and not ld_named:
        # a Person the article names only by reference ({"author": {"@id": "#/schema/person/1"}}, Yoast's
        # graph), when the page shows no byline: a full name only (the graph's Person is often the site's
        # account: "redaktion", "ElVallenc.cat")
        persons = [p for p in _json_ld_persons(meta) if _LATIN_FULL.fullmatch(p) or is_person_name(p)]
        persons = [
            p for p in persons if not (site.is_site(p) or is_organisation(p) or name_key(p) in provided)
        ]
        if persons:
            return Found(join_names(persons), "json-ld:author")
    return held or _copyright_holder(page)
