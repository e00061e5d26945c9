"""The body's paragraphs as a reader gets them: no headline copy first, no paragraph twice in a row."""

from newscrawl.extract import extract
from newscrawl.extract.finish import REPEAT_MIN_CHARS, finish_body, finish_paragraphs, is_byline

STORY = "<p>" + "The harbour reopened on Monday after a week of repairs to the old sea wall. " * 4 + "</p>"


def test_the_headline_inside_the_content_is_not_the_texts_first_line():
    html = (
        "<html><head><title>Harbour reopens after repairs - Example</title></head><body><article>"
        f"<h1>Harbour reopens after repairs</h1>{STORY}</article></body></html>"
    )
    r = extract(html)
    assert r.title == "Harbour reopens after repairs"
    assert r.text.startswith("The harbour reopened")


def test_a_caption_given_twice_is_kept_once():
    caption = "湘江长沙段水位降至历史最低值，本报记者摄于昨日下午。"
    story = "据水文部门介绍，今年入冬以来降水偏少，江水持续回落。" * 3
    body = "".join(f"<p>{s}</p>" for s in [caption, caption, story])
    r = extract(f"<html><body><div>{body}</div></body></html>")
    assert r.text.count(caption) == 1


def test_short_repeats_and_repeats_apart_stay():
    refrain = "A refrain that the song sings again"
    cells = ["获奖", "获奖", refrain, "A verse between", refrain]
    assert finish_paragraphs(cells, None) == tuple(cells)
    assert len(refrain.replace(" ", "")) >= REPEAT_MIN_CHARS


def test_a_text_that_is_only_the_title_is_kept():
    assert finish_paragraphs(["Only a headline"], "Only a headline") == ("Only a headline",)
    assert finish_paragraphs(["Headline", "Body."], "Another headline") == ("Headline", "Body.")


# bylines and datelines at the head of the text (``finish.is_byline``)

COUNCIL = (
    "<p>The Riverside city council voted 7-2 on Tuesday night to approve a network of protected bike lanes "
    "along three of the city's busiest corridors, ending a debate of more than two years.</p>"
    "<p>Supporters packed the chamber, and several spoke about friends injured in crashes on Main Street, "
    "where the first segment will be built next spring.</p>"
    "<p>Opponents, mostly owners of small shops along the corridor, said the loss of parking spaces would "
    "hurt business; the council agreed to study loading zones first.</p>"
)


def _page(head: str, body: str, title: str = "City council approves new bike lanes") -> str:
    page = f"<html><head><title>{title}</title>{head}</head><body><article><h1>{title}</h1>{body}</article>"
    return page + "</body></html>"


def test_an_english_byline_and_dateline_paragraph_is_not_the_texts_first_line():
    byline = '<p class="byline">By Maria Lopez and Tom Chen · Updated March 4, 2025, 6:15 p.m. ET</p>'
    r = extract(_page("", byline + COUNCIL))
    assert r.authors == ("Maria Lopez", "Tom Chen")
    assert r.text.startswith("The Riverside city council voted")
    assert "Maria Lopez" not in r.text
    assert r.figures["byline_paragraphs"] == 1


def test_a_german_byline_and_its_stand_line_go():
    story = (
        "<p>Der Stadtrat hat am Dienstagabend mit sieben zu zwei Stimmen ein Netz geschützter Radwege "
        "beschlossen, nach mehr als zwei Jahren Streit.</p>"
        "<p>Die Befürworter füllten den Saal; mehrere berichteten von Freunden, die auf der Hauptstraße "
        "verunglückt waren.</p>"
    )
    head = '<meta name="author" content="Jana Beispiel">'
    r = extract(
        _page(head, "<p>Von Jana Beispiel, dpa</p><p>Stand: 04.03.2025, 18:15 Uhr</p>" + story, "Radwege")
    )
    assert r.text.startswith("Der Stadtrat hat")
    assert r.figures["byline_paragraphs"] == 2


ZH_STORY = (
    "<p>本市今年将新建自行车道一百二十公里，市交通委员会昨天在新闻发布会上公布了这一计划，首批线路明年春天开工。</p>"
    "<p>据介绍，新建的自行车道将与公交站点和地铁站衔接，方便市民换乘，沿线还将增设停车设施和照明设施。</p>"
)


def test_a_chinese_reporters_paragraph_of_its_own_goes():
    r = extract(_page("", "<p>记者 张三 李四</p>" + ZH_STORY, "本市新建自行车道"))
    assert r.authors == ("张三", "李四")
    assert r.text.startswith("本市今年将新建")
    assert r.figures["byline_paragraphs"] == 1


def test_a_chinese_lead_naming_the_reporter_stays_whole():
    lead = "本报讯（记者 张三）今天上午，本市自行车道建设工程正式开工。"
    r = extract(_page("", f"<p>{lead}</p>" + ZH_STORY, "本市新建自行车道"))
    assert r.text.startswith(lead)
    assert r.figures["byline_paragraphs"] == 0


def test_a_chinese_date_and_source_line_goes():
    # a portal's info line inside a small page's content node: the date and the 来源 the record has
    line = "<div>2026-11-23 18:40 · 来源：央视新闻 作者：张三</div>"
    r = extract(_page("", line + ZH_STORY, "本市新建自行车道"))
    assert (r.source, r.author) == ("央视新闻", "张三")
    assert r.text.startswith("本市今年将新建")
    assert r.figures["byline_paragraphs"] == 1


def test_a_date_and_time_alone_and_the_editor_line_go():
    lines = "<p>2026年11月23日 18:40</p><p>来源：新华网 责任编辑：王五</p>"
    r = extract(_page("", lines + ZH_STORY, "本市新建自行车道"))
    assert (r.source, r.editor) == ("新华网", "王五")
    assert r.text.startswith("本市今年将新建")
    assert r.figures["byline_paragraphs"] == 2


def test_a_source_line_with_other_words_stays():
    line = "<p>来源：新华网 本市今年将继续推进慢行系统建设</p>"
    r = extract(_page("", line + ZH_STORY, "本市新建自行车道"))
    assert r.source == "新华网"  # the name ends at the space
    assert r.figures["byline_paragraphs"] == 0


def test_prose_opening_with_by_stays():
    head = '<meta name="author" content="Maria Lopez">'
    opening = "By the end of the year, the lanes will be open."
    r = extract(_page(head, f"<p>{opening}</p>" + COUNCIL))
    assert r.text.startswith(opening)
    assert r.figures["byline_paragraphs"] == 0


def test_a_long_paragraph_naming_the_writer_after_by_stays():
    head = '<meta name="author" content="Maria Lopez">'
    long_by = (
        "Written by Maria Lopez after three months of council meetings, this report follows the plan from "
        "its first draft to the vote on Tuesday."
    )
    r = extract(_page(head, f"<p>{long_by}</p>" + COUNCIL))
    assert r.text.startswith(long_by)


def test_what_is_and_is_not_a_byline():
    assert is_byline("Published 11:11 PM EST Nov 19, 2019", ())
    assert is_byline("Aktualisiert am 07.01.2026 - 18:50 UhrLesedauer: 4 Min.", ())
    assert is_byline("（记者 张三）", ("张三",))
    assert is_byline("澎湃新闻首席记者 张三", ("张三",))
    assert is_byline("本报记者 张三 本报通讯员 李四", ("张三", "李四"))
    assert not is_byline("他告诉记者张三", ("张三",))
    assert is_byline("文丨茉莉", ("茉莉",)) and is_byline("文 | 茉莉", ("茉莉",))
    assert is_byline("Jane Doe", ("Jane Doe",))  # a person's name alone under the headline
    assert not is_byline("Staff Reports", ("Staff Reports",))  # not a person's name: may be the text's
    assert not is_byline("The Associated Press", ("The Associated Press",))
    assert is_byline("2012-01-17 08:01", ())  # a date with its time, in digits
    assert is_byline("2012年01月12日 10:10 来源：长江商报", ("长江商报",))
    assert is_byline("2012-01-17 20:36:43 来源: 财华社(深圳) 有0人参与 手机看新闻", ("财华社(深圳)",))
    assert is_byline("来源：南方日报 参与互动(0)", ("南方日报",))
    assert not is_byline("评论：这项政策值得期待 2026-11-23 18:40 来源：新华网", ("新华网",))
    assert not is_byline("2012-01-17", ())  # a date alone may be a table's or a list's
    assert not is_byline("18:40", ())
    assert not is_byline("新华社", ("新华社",))  # an organisation alone: may be the text's
    assert not is_byline("Published", ())  # a dateline has a number
    assert not is_byline("By Jane Doe", ("Jane Doe-Roe",))  # no writer found in it
    assert not is_byline("By the way", ("Jane Doe",))
    assert not is_byline("By Jane Doe, our correspondent in Lagos", ("Jane Doe",))


def test_the_pages_header_above_the_headlines_copy_goes_with_it():
    # a small page's content node holds its header: the nav row, the date, the headline, then the text
    text = "The harbour reopened on Monday after a week of repairs to its northern wall."
    paragraphs = ["Home News World", "25.11.2026 14:03", "Harbour reopens", text, "More text."]
    assert finish_body(paragraphs, "Harbour reopens")[0] == tuple(paragraphs[3:])


def test_prose_above_the_headlines_copy_stays():
    standfirst = "A week of repairs to the northern wall ended on Monday, and the fishing fleet sailed out."
    paragraphs = [standfirst, "Harbour reopens", "The harbour reopened on Monday.", "More text."]
    assert finish_body(paragraphs, "Harbour reopens")[0] == tuple(paragraphs)


def test_a_byline_above_the_headlines_copy_goes_with_the_pages_header():
    # (before, the byline stayed: taken out alone, it would have left the headline opening the text)
    paragraphs = ["By Jane Doe", "Harbour reopens", "The harbour reopened on Monday after a week of repairs."]
    assert finish_body(paragraphs, "Harbour reopens", ("Jane Doe",)) == ((paragraphs[2],), 0)


def test_a_byline_is_never_the_whole_text():
    assert finish_body(["By Jane Doe"], None, ("Jane Doe",)) == (("By Jane Doe",), 0)


def test_italian_and_portuguese_byline_and_dateline_paragraphs_go():
    story = (
        "<p>Le piogge cadute durante la notte hanno fatto esondare alcuni torrenti dell'entroterra, e i "
        "vigili del fuoco sono intervenuti decine di volte fino all'alba.</p>"
        "<p>I sindaci hanno chiuso scuole e parchi per tutta la giornata, mentre la protezione civile invita "
        "a evitare gli spostamenti non necessari.</p>"
    )
    dated = "Pubblicato il 25/11/2026 alle 07:15 · Aggiornato il 25/11/2026 alle 11:40"
    lines = f"<p>di Marco Rossi</p><p>{dated}</p>"
    r = extract(_page("", lines + story, "Maltempo, scuole chiuse"))
    assert r.text.startswith("Le piogge cadute") and r.figures["byline_paragraphs"] == 2
    assert is_byline("25/11/2026 10h03 Atualizado há 2 horas", [])
    assert is_byline("Publié le 25 novembre 2026 à 14h03, modifié à 15h10", [])
    assert not is_byline("Il sindaco di Roma ha detto alle 10:03 che", [])


def test_a_date_and_time_alone_at_the_head_goes_but_a_document_number_stays():
    assert is_byline("2026年11月25日 9時12分", [])
    assert is_byline("Wed 25 Nov 2026 08.15 GMT", [])
    assert is_byline("25 November 2026 10:05 Share Save", [])  # the byline's buttons beside its date
    assert not is_byline("89/2022 10 12", [])
    assert not is_byline("2026 was a year of 3 wins and 4 losses", [])


def test_a_spanish_dateline_with_a_las_goes():
    line = (
        "Publicado el 25 de noviembre de 2026 a las 12:47 por Lucía Fernández · Actualizado el 26 de "
        "noviembre de 2026 a las 9:05"
    )
    assert is_byline(line, ["Lucía Fernández"])


def test_a_portals_font_size_tool_left_first_goes():
    first = "新华网长春12月9日电（记者张建）据有关部门提供的消息，9日下午发生一起车祸，伤员已送医。"
    got = finish_body(["车祸致多人受伤", "字号:T|T", first, "正文第二段。"], "车祸致多人受伤")
    assert got == ((first, "正文第二段。"), 0)
    # a line that only opens with the word goes on as text
    kept = "字体：宋体是一种常见的印刷字体，被广泛用于书籍和报纸的正文排版之中。"
    assert finish_body([kept, first], None) == ((kept, first), 0)


def test_a_video_players_no_javascript_notice_leaves_the_text():
    notice = "To view this video please enable JavaScript, and consider upgrading to a web browser"
    paras = ["The council met on Monday.", f"{notice} that supports HTML5 video", "It voted on Tuesday."]
    assert finish_body(paras, None)[0] == (paras[0], paras[2])
    about = "Your browser history is a record of the pages you visited, which the new law protects."
    assert finish_body([about, paras[2]], None)[0] == (about, paras[2])


def test_an_embeds_consent_placeholder_leaves_the_text():
    placeholder = (
        "An dieser Stelle finden Sie externen Inhalt, der den Artikel ergänzt. Sie können ihn mit einem "
        "Klick anzeigen lassen."
    )
    paras = ["Der Rat tagte am Montag.", "Empfohlener redaktioneller Inhalt", placeholder, "Er stimmte ab."]
    assert finish_body(paras, None)[0] == (paras[0], paras[3])
