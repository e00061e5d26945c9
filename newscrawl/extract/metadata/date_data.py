"""Words and names the publish-time chain reads: meta keys, month names, labels. Data, not code.

Meta keys are lower-cased (``collect_page_meta`` lower-cases them). The lists come from the metadata
conventions pages use (Open Graph, Dublin Core, schema.org itemprop, Parse.ly, Sailthru, Weibo) and from
the keys Chinese portals use for their own tags (``PubDate``, ``publishdate``, ``apub:time``,
``og:release_date``).
"""

from __future__ import annotations

#: meta keys that give the publish time, strongest first
PUBLISHED_META_KEYS: tuple[str, ...] = (
    "article:published_time",
    "article:published:time",
    "og:published_time",
    "og:article:published_time",
    "article:published",
    "article:published_date",
    "datepublished",
    "rnews:datepublished",
    "pubdate",
    "publishdate",
    "publish-date",
    "publish_date",
    "publishtime",
    "publish_time",
    "publish-time",
    "published_time",
    "published-date",
    "published_date",
    "publication_date",
    "publication-date",
    "date_published",
    "firstpublishedtime",
    "originalpublicationdate",
    "article_date_original",
    "article.published",
    "og:release_date",
    "apub:time",
    "weibo: article:create_at",
    "weibo:article:create_at",
    "article:create_at",
    "sailthru.date",
    "parsely-pub-date",
    "cxenseparse:recs:publishtime",
    "shareaholic:article_published_time",
    "vr:published_time",
    "bt:pubdate",
    "prism.publicationdate",
    "citation_publication_date",
    "citation_date",
    "citation_online_date",
    "dc.date.issued",
    "dcterms.issued",
    "releasedate",
    "release_date",
    "displaydate",
    "video:release_date",
)

#: generic meta keys: often the page's generation or edit time; read after the <time> elements and the
#: dates near the text (htmldate set: 3 of 3 pages whose only date meta was ``date`` were a day or more
#: off; read before the text, they dated 2 htmldate and 2 trafilatura pages a day late)
WEAK_META_KEYS: tuple[str, ...] = (
    "dc.date.created",
    "dcterms.created",
    "datecreated",
    "dc.date",
    "dcterms.date",
    "created",
    "date",
)

#: meta keys of the last-modified time: a weak fallback, used only when nothing else dates the page
MODIFIED_META_KEYS: tuple[str, ...] = (
    "article:modified_time",
    "og:updated_time",
    "datemodified",
    "dc.date.modified",
    "dcterms.modified",
    "lastmodified",
    "last-modified",
    "eomportal-lastupdate",
    "dateupdate",
)

#: JSON-LD properties, strongest first; dateModified is kept apart as the weak fallback
JSON_LD_KEYS: tuple[str, ...] = ("datePublished", "dateCreated", "uploadDate")

#: schema.org types whose dates are the article's own (others, e.g. Organization or WebSite, are not)
JSON_LD_ARTICLE_TYPES: frozenset[str] = frozenset(
    """Article NewsArticle BlogPosting ReportageNews AnalysisNewsArticle OpinionNewsArticle
    BackgroundNewsArticle ReviewNewsArticle LiveBlogPosting SocialMediaPosting TechArticle ScholarlyArticle
    Report WebPage ItemPage VideoObject Blog Posting DiscussionForumPosting""".split()
)

#: month names and abbreviations, lower-case, without a trailing dot: en, de, fr, es, it, pt, nl; the
#: Nordic languages (sv, da, nb); ro, pl, cs, tr; ru and uk in the genitive a date uses ("5 марта 2020");
#: Arabic (the Egyptian and Gulf names, and the Levantine ones of one word: "24 نوفمبر 2026", "3 آذار 2026")
#: and Hindi ("24 नवंबर 2026")
MONTHS: dict[str, int] = {}
for _number, _names in enumerate(
    (
        "january jan januar janvier enero gennaio janeiro januari jänner jän "
        "ianuarie stycznia ledna ocak января січня يناير जनवरी",
        "february feb februar février fevrier febrero febbraio fevereiro februari feber "
        "februarie lutego února şubat subat февраля лютого فبراير شباط फरवरी फ़रवरी",
        "march mar märz maerz mars marzo março maart mrz marts martie marca března mart марта березня "
        "مارس آذار मार्च",
        "april apr avril abril aprile aprilie kwietnia dubna nisan апреля квітня أبريل ابريل نيسان अप्रैल",
        "may mai mayo maggio maio mei maj maja května mayıs mayis мая травня مايو أيار ايار मई",
        "june jun juni juin junio giugno junho iunie czerwca června haziran июня червня يونيو حزيران जून",
        "july jul juli juillet julio luglio julho iulie lipca července temmuz июля липня يوليو تموز जुलाई",
        "august aug août aout agosto augustus augusti sierpnia srpna ağustos agustos августа серпня أغسطس "
        "اغسطس آب अगस्त",
        "september sep sept septembre septiembre setiembre settembre setembro septembrie września "
        "září eylül eylul сентября вересня سبتمبر أيلول ايلول सितंबर सितम्बर",
        "october oct oktober octobre octubre ottobre outubro okt octombrie października října ekim "
        "октября жовтня أكتوبر اكتوبر अक्टूबर अक्तूबर",
        "november nov novembre noviembre novembro noiembrie listopada listopadu kasım kasim ноября "
        "листопада نوفمبر नवंबर नवम्बर",
        "december dec dezember décembre decembre diciembre dicembre dezembro dez decembrie grudnia "
        "prosince aralık aralik декабря грудня ديسمبر दिसंबर दिसम्बर",
    ),
    start=1,
):
    for _name in _names.split():
        MONTHS[_name] = _number

#: words just before a date that say it is the publish time (matched case-insensitively, colon optional)
PUBLISH_LABELS: tuple[str, ...] = (
    "发布时间", "發布時間", "发表时间", "發表時間", "发布日期", "发表日期", "发稿时间", "出版时间",
    "发表于", "發表於", "发布于", "發佈於", "发布", "发表", "时间", "時間", "日期", "稿件时间", "成文日期",
    "published on", "published", "posted on", "posted", "date", "veröffentlicht am", "veröffentlicht",
    "erschienen am", "erschienen", "publié le", "publié", "publicado el", "publicado", "pubblicato il",
    "gepubliceerd op", "gepubliceerd", "입력", "등록", "公開日", "配信日", "掲載日",
)

#: words just before a date that say it is the time the page was last changed
UPDATE_LABELS: tuple[str, ...] = (
    "更新时间", "更新於", "最后更新", "修改时间", "最后修改", "updated on", "updated", "last updated",
    "last modified", "modified", "aktualisiert am", "aktualisiert", "zuletzt aktualisiert", "mis à jour",
    "actualizado", "last edited", "edited", "geändert am", "zuletzt geändert", "modifié le", "modifié",
    "mis à jour le", "actualizado el", "actualizado a las",
    "aggiornato il", "aggiornato", "atualizado em", "atualizado", "laatste update", "bijgewerkt op",
    "bijgewerkt", "update", "수정", "업데이트", "更新日", "最終更新",
    "更新",
)
#: words just before a date that say it is *not* the publish time
OTHER_LABELS: tuple[str, ...] = (*UPDATE_LABELS, "copyright", "©")

#: time-zone abbreviations with an unambiguous offset in minutes, as pages write them: in capitals, after
#: a time (CST is left out: China or US Central; AST: Atlantic or Arabia)
ZONE_ABBREVIATIONS: dict[str, int] = {
    "UTC": 0, "GMT": 0, "Z": 0, "WET": 0, "WEST": 60, "BST": 60, "CET": 60, "MEZ": 60, "CEST": 120,
    "MESZ": 120, "EET": 120, "EEST": 180, "MSK": 180, "SAST": 120, "EAT": 180, "IST": 330, "PKT": 300,
    "ICT": 420, "WIB": 420, "HKT": 480, "SGT": 480, "PHT": 480, "AWST": 480, "JST": 540, "KST": 540,
    "ACST": 570, "ACDT": 630, "AEST": 600, "AEDT": 660, "NZST": 720, "NZDT": 780, "EDT": -240, "EST": -300,
    "CDT": -300, "MDT": -360, "MST": -420, "PDT": -420, "PST": -480, "AKDT": -480, "AKST": -540,
    "HST": -600,
}
#: North American zone names written without saying summer or winter time ("6:15 p.m. ET"): their offset
#: is the zone's on that day
GENERIC_ZONES: dict[str, str] = {
    "ET": "America/New_York", "CT": "America/Chicago", "MT": "America/Denver", "PT": "America/Los_Angeles",
}

#: time zones a page's declared language and region imply (BCP 47 primary language, region; region None:
#: the language alone). Only regions of one zone, and languages spoken in one (issue 12): ``zh`` alone,
#: ``en``, ``es``, ``pt`` or ``ru`` say nothing about the zone. Central Europe shares one zone, so ``de``
#: and ``it`` alone do. A page's UTC times are written in this zone, its times without offset read in it.
LANGUAGE_ZONES: dict[tuple[str, str | None], str] = {
    ("zh", "cn"): "Asia/Shanghai",
    ("zh", "tw"): "Asia/Taipei",
    ("zh", "hk"): "Asia/Hong_Kong",
    ("zh", "mo"): "Asia/Macau",
    ("zh", "sg"): "Asia/Singapore",
    ("ja", None): "Asia/Tokyo",
    ("ko", None): "Asia/Seoul",
    ("de", None): "Europe/Berlin",
    ("it", None): "Europe/Rome",
    ("nl", None): "Europe/Amsterdam",
    ("pl", None): "Europe/Warsaw",
    ("cs", None): "Europe/Prague",
    ("sk", None): "Europe/Bratislava",
    ("hu", None): "Europe/Budapest",
    ("sl", None): "Europe/Ljubljana",
    ("hr", None): "Europe/Zagreb",
    ("sv", None): "Europe/Stockholm",
    ("da", None): "Europe/Copenhagen",
    ("nb", None): "Europe/Oslo",
    ("no", None): "Europe/Oslo",
    ("fi", None): "Europe/Helsinki",
    ("et", None): "Europe/Tallinn",
    ("lv", None): "Europe/Riga",
    ("lt", None): "Europe/Vilnius",
    ("el", None): "Europe/Athens",
    ("ro", None): "Europe/Bucharest",
    ("bg", None): "Europe/Sofia",
    ("tr", None): "Europe/Istanbul",
    ("he", None): "Asia/Jerusalem",
    ("fa", None): "Asia/Tehran",
    ("th", None): "Asia/Bangkok",
    ("vi", None): "Asia/Ho_Chi_Minh",
    ("hi", None): "Asia/Kolkata",
    ("fr", "fr"): "Europe/Paris",
    ("fr", "be"): "Europe/Brussels",
    ("fr", "ch"): "Europe/Zurich",
    ("es", "es"): "Europe/Madrid",
    ("es", "co"): "America/Bogota",
    ("es", "pe"): "America/Lima",
    ("es", "ar"): "America/Argentina/Buenos_Aires",
    ("es", "bo"): "America/La_Paz",
    ("es", "ve"): "America/Caracas",
    ("es", "cl"): "America/Santiago",
    ("pt", "pt"): "Europe/Lisbon",
    ("en", "gb"): "Europe/London",
    ("en", "ie"): "Europe/Dublin",
    ("en", "in"): "Asia/Kolkata",
    ("en", "sg"): "Asia/Singapore",
    ("en", "nz"): "Pacific/Auckland",
}

#: time zones a page's host implies, by the end of the host name (country-code domains of one zone)
HOST_ZONES: tuple[tuple[str, str], ...] = (
    (".cn", "Asia/Shanghai"),
    (".tw", "Asia/Taipei"),
    (".hk", "Asia/Hong_Kong"),
    (".mo", "Asia/Macau"),
    (".jp", "Asia/Tokyo"),
    (".kr", "Asia/Seoul"),
    (".de", "Europe/Berlin"),
    (".at", "Europe/Vienna"),
    (".ch", "Europe/Zurich"),
    (".it", "Europe/Rome"),
    (".fr", "Europe/Paris"),
    (".nl", "Europe/Amsterdam"),
    (".be", "Europe/Brussels"),
    (".pl", "Europe/Warsaw"),
    (".cz", "Europe/Prague"),
    (".se", "Europe/Stockholm"),
    (".dk", "Europe/Copenhagen"),
    (".no", "Europe/Oslo"),
    (".fi", "Europe/Helsinki"),
    (".uk", "Europe/London"),
    (".ie", "Europe/Dublin"),
    (".in", "Asia/Kolkata"),
    (".il", "Asia/Jerusalem"),
    (".tr", "Europe/Istanbul"),
    (".gr", "Europe/Athens"),
    (".co", "America/Bogota"),
    (".bo", "America/La_Paz"),
    (".pe", "America/Lima"),
)
#: the zone a page's encoding implies, when neither its language nor its host says: a national
#: multi-byte charset (as ``decode`` names the codec it read the page with: GB2312 and GBK are read as
#: GB18030, Big5 as Big5-HKSCS). Big5 is Taiwan's and Hong Kong's; both keep +08:00, as Shanghai does
CHARSET_ZONES: dict[str, str] = {
    "gb18030": "Asia/Shanghai",
    "big5hkscs": "Asia/Taipei",
    "shift_jis": "Asia/Tokyo",
    "cp932": "Asia/Tokyo",
    "euc_jp": "Asia/Tokyo",
    "iso2022_jp": "Asia/Tokyo",
    "euc_kr": "Asia/Seoul",
    "cp949": "Asia/Seoul",
    "iso2022_kr": "Asia/Seoul",
}
