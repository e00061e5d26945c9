"""Records of non-Chinese news pages in shapes the datasets do not hold: Spanish, Portuguese and Italian
bylines, BBC's byline block, Arc XP's script data, English credit labels. Hand-written pages, invented
names."""

from __future__ import annotations

import json

import pytest

from newscrawl.extract import extract

SENTENCE_ES = (
    "El ayuntamiento aprobó el martes un nuevo presupuesto para las escuelas de la ciudad, tras un largo "
    "debate entre los grupos municipales. "
)
SENTENCE_EN = (
    "The council met on Tuesday evening to discuss the new budget for schools across the city after a long "
    "debate. "
)
URL = "https://www.example.com/news/2026/11/24/story"


def page(top: str, en: bool = False, head: str = "", lang: str = "es") -> str:
    sentence = SENTENCE_EN if en else SENTENCE_ES
    paras = "".join(f"<p>{sentence * 3}</p>" for _ in range(6))
    return (
        f"<html lang='{lang}'><head><title>Un titular de prueba | Diario</title>{head}</head><body>"
        f"<nav>Inicio Noticias Deportes</nav><article><h1>Un titular de prueba sobre el presupuesto</h1>"
        f"<div class='meta'>{top}</div><div class='body'>{paras}</div></article>"
        f"<footer>Contacto Aviso legal</footer></body></html>"
    )


def author(html: str) -> tuple[str | None, str | None]:
    r = extract(html, url=URL)
    return r.author, r.sources.get("author")


# --- a place glued after the writer's name ---------------------------------------------------------


@pytest.mark.parametrize(
    "top",
    [
        "Por María López Madrid",
        "Por María López | Madrid",
        "<span>Por <a href='/autor/maria-lopez'>María López</a></span> <span>Madrid</span>",
    ],
)
def test_spanish_byline_loses_the_place_after_the_name(top):
    assert author(page(top)) == ("María López", "line:writer")


def test_portuguese_byline_loses_a_place_of_two_words():
    assert author(page("Por João Silva São Paulo", lang="pt")) == ("João Silva", "line:writer")


def test_italian_byline_loses_the_place():
    assert author(page("Di Marco Rossi Roma", lang="it")) == ("Marco Rossi", "line:writer")


def test_byline_in_capitals_over_a_dateline_line():
    r = extract(page("<p>Por MARÍA LÓPEZ</p><p>Madrid - 24 NOV 2026</p>"), url="https://www.example.com/a/b")
    assert (r.author, r.published_at) == ("MARÍA LÓPEZ", "2026-11-24")


def test_two_writers_lose_the_place_after_the_last():
    r = extract(page("Por Ana Díaz y María López Madrid"), url=URL)
    assert r.authors == ("Ana Díaz", "María López")


def test_a_surname_that_is_no_listed_place_stays():
    # Spanish double surnames: "García" is no place; "Lima" is a surname as often as the city (not listed)
    assert author(page("Por María López García")) == ("María López García", "line:writer")
    assert author(page("Por João Silva Lima", lang="pt")) == ("João Silva Lima", "line:writer")


def test_a_place_like_surname_stays_in_a_two_word_name():
    assert author(page("Di Marco Roma Milano", lang="it")) == ("Marco Roma", "line:writer")


# --- English credit labels ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "top", ["Article by Jane Doe", "Words by Jane Doe", "Written by Jane Doe", "Text: Jane Doe"]
)
def test_english_credit_labels_name_the_writer(top):
    assert author(page(top, en=True, lang="en")) == ("Jane Doe", "line:writer")


# --- BBC's byline block: the name, the writer's role, a date alone -----------------------------------


def bbc_page(block: str) -> str:
    paras = "".join(f"<div data-component='text-block'><p>{SENTENCE_EN * 3}</p></div>" for _ in range(6))
    return (
        "<html lang='en-GB'><head><title>Council budget row deepens - BBC News</title>"
        "<meta property='og:site_name' content='BBC News'></head><body><header><nav><a href='/'>Home</a>"
        "<a href='/news'>News</a><a href='/sport'>Sport</a></nav></header><main><article>"
        "<div data-component='headline-block'><h1>Council budget row deepens</h1></div>"
        f"<div data-component='byline-block'>{block}</div>{paras}</article></main>"
        "<footer>Copyright 2026 BBC.</footer></body></html>"
    )


BBC_BLOCK = (
    "<div data-testid='byline-new'><div><div><time datetime='2026-11-24T06:12:33.614Z'>24 November 2026"
    "</time></div></div><div data-testid='byline-new-contributors'><div><div><span>Jane Doe</span>"
    "<div><span>{role}</span></div></div></div></div></div>"
)


@pytest.mark.parametrize("role", ["BBC News, Business reporter", "Political correspondent"])
def test_bbc_byline_block_names_the_writer_without_the_role(role):
    r = extract(bbc_page(BBC_BLOCK.format(role=role)), url="https://www.bbc.co.uk/news/articles/c1x2y3")
    assert (r.author, r.sources["author"]) == ("Jane Doe", "line:name-role")
    assert r.published_at == "2026-11-24T06:12:33+00:00"
    assert r.text.startswith("The council met")  # the block's name, role and date are not the text's


def test_bbc_byline_block_with_a_date_alone():
    block = BBC_BLOCK.format(role="BBC News, Business reporter").replace(
        "<time datetime='2026-11-24T06:12:33.614Z'>24 November 2026</time>", "<span>24 November 2026</span>"
    )
    r = extract(bbc_page(block), url="https://www.bbc.co.uk/news/articles/c1x2y3")
    assert (r.author, r.published_at) == ("Jane Doe", "2026-11-24")
    assert r.text.startswith("The council met")


def test_older_bbc_byline_leaves_no_role_or_date_in_the_text():
    block = (
        "<div><div class='ssrcss-1-TextContributorName'>By Jane Doe</div>"
        "<div class='ssrcss-2-Contributor'>Business reporter, BBC News</div></div>"
        "<div><time datetime='2026-11-24'>24 November 2026</time></div>"
    )
    r = extract(bbc_page(block), url="https://www.bbc.co.uk/news/business-12345678")
    assert (r.author, r.published_at) == ("Jane Doe", "2026-11-24")
    assert r.text.startswith("The council met")


def test_a_name_over_a_line_that_is_no_role_is_no_byline():
    block = "<div><span>Jane Doe</span></div><div><span>Questions and answers</span></div>"
    r = extract(bbc_page(block), url="https://www.bbc.co.uk/news/articles/c1x2y3")
    assert r.author is None


# --- Arc XP's story record (Fusion.globalContent) ------------------------------------------------------


ARC_STORY = {
    "_id": "ABCDEF123",
    "type": "story",
    "headlines": {"basic": "El presupuesto municipal divide al pleno"},
    "credits": {"by": [{"type": "author", "name": "María López"}, {"type": "author", "name": "Juan Pérez"}]},
    "display_date": "2026-11-24T14:05:00.000Z",
    "first_publish_date": "2026-11-24T13:50:00.000Z",
    "last_updated_date": "2026-11-24T16:00:00.000Z",
}


def arc_page(story: dict[str, object], head: str = "", heading: str = "", attrs: str = "") -> str:
    paras = "".join(f"<p>{SENTENCE_ES * 3}</p>" for _ in range(6))
    record = json.dumps(story, ensure_ascii=False)
    attrs = attrs or 'id="fusion-metadata" type="application/javascript"'
    return (
        f"<html lang='es'><head><title>Portada | Diario</title>{head}</head><body><div id='fusion-app'>"
        f"<nav>Inicio España Economía</nav><article>{heading}{paras}</article></div>"
        f"<script {attrs}>window.Fusion=window.Fusion||{{}};Fusion.arcSite=\"diario\";"
        f"Fusion.globalContent={record};Fusion.globalContentConfig={{\"source\":\"content-api\"}};</script>"
        "</body></html>"
    )


ARC_URL = "https://www.example.com/espana/el-presupuesto-municipal/"


@pytest.mark.parametrize(
    "attrs", ['id="fusion-metadata" type="application/javascript"', 'type="application/javascript"']
)
def test_arc_story_record_gives_title_writers_and_dates(attrs):
    r = extract(arc_page(ARC_STORY, attrs=attrs), url=ARC_URL)
    assert (r.title, r.sources["title"]) == ("El presupuesto municipal divide al pleno", "meta:arc:headline")
    assert (r.authors, r.sources["author"]) == (("María López", "Juan Pérez"), "arc:credits")
    assert (r.published_at, r.sources["published_at"]) == ("2026-11-24T14:05:00+00:00", "arc:display_date")
    assert r.modified_at == "2026-11-24T16:00:00+00:00"


def test_arc_story_record_yields_to_a_json_ld_article():
    ld = (
        '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "Otro titular distinto",'
        '"datePublished": "2026-11-20T10:00:00Z", "author": {"@type": "Person", "name": "Ana Ruiz"}}</script>'
    )
    r = extract(arc_page(ARC_STORY, head=ld), url=ARC_URL)
    assert (r.author, r.published_at) == ("Ana Ruiz", "2026-11-20T10:00:00+00:00")


def test_arc_record_of_a_section_front_is_no_story():
    front = {"type": "collection", "headlines": {"basic": "Portada"}, "display_date": "2026-11-24T14:05:00Z"}
    r = extract(arc_page(front), url=ARC_URL)
    assert r.sources["published_at"] != "arc:display_date" and r.sources["title"] != "meta:arc:headline"


def test_a_fusion_script_of_another_type_is_not_read():
    # only the script the metadata's walk reads anyway: Arc's id or its type, no search of every script
    r = extract(arc_page(ARC_STORY, attrs='data-x="1"'), url=ARC_URL)
    assert r.sources["author"] != "arc:credits"


# --- live blogs: entry headers inside the text -----------------------------------------------------------

LIVE_SENTENCES = (
    "The minister arrived at the summit venue shortly after nine and spoke briefly to reporters outside.",
    "Delegates from thirty countries are expected to sign the agreement later today, officials said.",
    "Protesters gathered near the main entrance, holding banners and chanting slogans about the deal.",
)


def live_page(times: list[str]) -> str:
    entries = "".join(
        f"<div class='block'><p class='block-time'>{t}</p><h2>Update {i}</h2><p>{s} {s}</p><p>{s}</p></div>"
        for i, (t, s) in enumerate(zip(times, LIVE_SENTENCES, strict=True))
    )
    return (
        "<html lang='en'><head><title>Climate summit live: latest updates | The Daily</title></head><body>"
        "<nav>Home World Politics</nav><main><h1>Climate summit live: latest updates</h1>"
        f"<p class='byline'>By Jane Doe</p><div class='live-blog'>{entries}</div></main></body></html>"
    )


LIVE_URL = "https://www.example.com/world/live/2026/nov/24/climate-summit-live"


def test_live_blog_entry_headers_of_relative_times_leave_the_text():
    r = extract(live_page(["2 min ago", "1 hr ago", "vor 5 Minuten"]), url=LIVE_URL)
    lines = r.text.split("\n")
    assert not {"2 min ago", "1 hr ago", "vor 5 Minuten"} & set(lines)
    assert lines[0] == "Update 0"


def test_live_blog_entry_clock_times_stay_in_the_text():
    r = extract(live_page(["10:42", "10:15", "09:58"]), url=LIVE_URL)
    assert r.text.split("\n")[0] == "10:42"


def test_a_url_with_the_month_in_letters_dates_the_page():
    r = extract(live_page(["2 min ago", "1 hr ago", "3 hrs ago"]), url=LIVE_URL)
    assert (r.published_at, r.sources["published_at"]) == ("2026-11-24", "url")


# --- an English editor's label by the text ---------------------------------------------------------------


def en_page(top: str = "", last: str = "", head: str = "") -> str:
    paras = "".join(f"<p>{SENTENCE_EN * 3}</p>" for _ in range(6))
    return (
        f"<html lang='en'><head><title>Budget row | The Daily</title>{head}</head><body><nav>Home News</nav>"
        f"<article><h1>Budget row deepens</h1><div class='meta'>{top}</div><div class='body'>{paras}"
        f"<p>{last}</p></div></article><footer>About us</footer></body></html>"
    )


@pytest.mark.parametrize(
    ("top", "last", "head"),
    [
        ("By John Roe<br>Editor: Jane Doe", "", ""),
        ("By John Roe", "Edited by: <a href='/staff/jane-doe/'>Jane Doe</a>", ""),
        # a declared author settles the chain before it reads the lines: the text's last lines are read
        ("", "Editor : <a href='/author/1/jane-doe'>Jane Doe</a>", "<meta name='author' content='John Roe'>"),
    ],
)
def test_english_editor_label_by_the_text_names_the_editor(top, last, head):
    r = extract(en_page(top, last, head), url=URL)
    assert (r.author, r.editor, r.sources["editor"]) == ("John Roe", "Jane Doe", "line:editor")


@pytest.mark.parametrize(
    "last", ["Editor's note: This story was updated.", "Letters to the Editor: Send Us Yours"]
)
def test_an_editors_note_or_letters_page_names_no_editor(last):
    assert extract(en_page("By John Roe", last), url=URL).editor is None


# --- Korean, Russian, Arabic and Hindi pages ---------------------------------------------------------------

SENTENCE_KO = "시의회는 화요일 저녁 오랜 논쟁 끝에 시내 학교들을 위한 새 예산안을 논의했으며 결정을 내렸다. "
SENTENCE_RU = "Городской совет во вторник вечером обсудил новый бюджет для школ после долгих дебатов. "
SENTENCE_AR = "ناقش مجلس المدينة مساء الثلاثاء الميزانية الجديدة للمدارس بعد نقاش طويل بين الأعضاء. "
SENTENCE_HI = "नगर परिषद ने मंगलवार शाम को लंबी बहस के बाद शहर के स्कूलों के लिए नए बजट पर चर्चा की। "


def lang_page(lang: str, sentence: str, meta: str) -> str:
    paras = "".join(f"<p>{sentence * 3}</p>" for _ in range(6))
    return (
        f"<html lang='{lang}'><head><title>Headline | News</title></head><body><nav>Home</nav><article>"
        f"<h1>Headline</h1><div class='article-meta'>{meta}</div><div class='body'>{paras}</div></article>"
        "</body></html>"
    )


def test_korean_reporter_word_glued_to_the_name_is_no_part_of_it():
    meta = "<div class='writer-zone'><strong class='tit-name'><a>김철수</a></strong><span>기자</span></div>"
    r = extract(lang_page("ko", SENTENCE_KO, meta), url="https://www.example.co.kr/view/AKR20261124012300004")
    assert r.authors == ("김철수",)


@pytest.mark.parametrize("label", ["Автор: ", "Текст: "])
def test_russian_writer_label_names_the_writer(label):
    meta = f"<span>24 ноября 2026, 10:42</span><span>{label}Иван Петров</span>"
    r = extract(lang_page("ru", SENTENCE_RU, meta), url="https://www.example.ru/news/budget-12345")
    assert (r.author, r.sources["author"]) == ("Иван Петров", "line:writer")
    assert r.published_at == "2026-11-24T10:42:00"


@pytest.mark.parametrize(
    ("lang", "sentence", "shown"),
    [("ar", SENTENCE_AR, "الثلاثاء 24 نوفمبر 2026"), ("hi", SENTENCE_HI, "24 नवंबर 2026")],
)
def test_arabic_and_hindi_month_names_date_the_page(lang, sentence, shown):
    r = extract(lang_page(lang, sentence, f"<span>{shown}</span>"), url="https://www.example.com/news/12345")
    assert r.published_at == "2026-11-24"


@pytest.mark.parametrize(
    ("lang", "sentence", "meta", "writer"),
    [
        ("ar", SENTENCE_AR, "<span>بقلم: محمد أحمد</span> <span>الثلاثاء 24 نوفمبر 2026</span>", "محمد أحمد"),
        ("ar", SENTENCE_AR, "<span>كتب - عبد الله سالم</span>", "عبد الله سالم"),
        ("hi", SENTENCE_HI, "<span>लेखक: राम शर्मा</span> <span>24 नवंबर 2026</span>", "राम शर्मा"),
        ("hi", SENTENCE_HI, "<span>रिपोर्ट: राम शर्मा</span><span>अपडेटेड: 24 नवंबर 2026</span>", "राम शर्मा"),
    ],
)
def test_arabic_and_hindi_writer_labels_name_the_writer(lang, sentence, meta, writer):
    r = extract(lang_page(lang, sentence, meta), url="https://www.example.com/news/12345")
    assert (r.author, r.sources["author"]) == (writer, "line:writer")


def test_an_arabic_label_before_one_word_names_nobody():
    r = extract(lang_page("ar", SENTENCE_AR, "<span>إعداد: التحرير</span>"), url="https://www.example.com/n/1")
    assert r.author is None


# --- the Guardian: a weekday between a date's label and the date ------------------------------------------


def test_guardian_last_modified_line_gives_the_modification_time():
    meta = (
        "<address aria-label='Contributor info'><a rel='author' href='/profile/janedoe'>Jane Doe</a> in Paris"
        "</address><details><summary><span>Tue 24 Nov 2026 10.42 GMT</span></summary>"
        "<span>Last modified on Tue 24 Nov 2026 12.10 GMT</span></details>"
    )
    url = "https://www.theguardian.com/education/2026/nov/24/council-approves-new-school-budget"
    r = extract(lang_page("en", SENTENCE_EN, meta), url=url)
    assert (r.author, r.published_at) == ("Jane Doe", "2026-11-24T10:42:00+00:00")
    assert r.modified_at == "2026-11-24T12:10:00+00:00"


@pytest.mark.parametrize(
    ("opening", "agency"), [("(서울=연합뉴스) 김철수 기자 = ", "연합뉴스"), ("[서울=뉴시스] ", "뉴시스")]
)
def test_korean_wire_dateline_names_the_source(opening, agency):
    paras = "".join(f"<p>{SENTENCE_KO * 3}</p>" for _ in range(6))
    html = (
        "<html lang='ko'><head><title>시의회, 학교 예산안 승인 | 뉴스</title></head><body><article>"
        f"<h1>시의회, 학교 예산안 승인</h1><div class='body'><p>{opening}{SENTENCE_KO}</p>{paras}</div>"
        "</article>"
        "</body></html>"
    )
    assert extract(html, url="https://www.example.co.kr/view/AKR20261124012300004").source == agency
