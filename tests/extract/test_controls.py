"""Control characters (terminal escapes) never reach a text field."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from newscrawl.extract import extract
from newscrawl.extract.document import strip_text_controls
from newscrawl.pipelines.normalize import clean_line, clean_text

PARAGRAPH = "市气象台今天发布暴雪预警，城市道路清扫工作连夜展开，市民出行请注意安全。"


@pytest.mark.parametrize("escape", ["&#27;", "&#x1b;", "&#155;", "&#127;", "&#13;", "\x1b", "\u009b"])
def test_title_author_and_text_carry_no_control_characters(escape: str) -> None:
    page = (
        f"<html><head><title>暴雪{escape}[31m预警</title>"
        f'<meta name="author" content="张三{escape}[2J"></head><body><h1>暴雪{escape}[31m预警</h1>'
        f"<p>{PARAGRAPH}{escape}[2J</p><p>第二段：{PARAGRAPH}</p><p>第三段：{PARAGRAPH}</p></body></html>"
    )
    r = extract(page)
    fields = [r.text, r.title or "", r.author or ""]
    assert r.title and "[31m" in r.title and r.text.count(PARAGRAPH) == 3
    for value in fields:
        assert not any(ord(c) < 32 and c not in "\t\n" or 127 <= ord(c) < 160 for c in value), value


def test_strip_text_controls_keeps_tabs_newlines_and_printable_text() -> None:
    assert strip_text_controls("a\tb\nc\x00d\x07e\x85f\x9fg é 中") == "a\tb\ncdefg é 中"


def test_record_fields_from_xpath_overrides_are_cleaned_too() -> None:
    assert clean_line("标题\x1b[31m\x9b") == "标题[31m"
    assert clean_text("第一段\x1b[2J\n\n第二段\r") == "第一段[2J\n第二段"


#: what a text field must not carry: C0 controls but tab and line feed, DEL, the C1 controls, the soft hyphen
CONTROLS = {*range(0, 9), *range(11, 32), *range(127, 160), 0xAD}


@given(st.text(alphabet=st.characters(max_codepoint=0x3000)) | st.text())
def test_strip_text_controls_drops_exactly_the_control_characters(text: str) -> None:
    assert strip_text_controls(text) == "".join(ch for ch in text if ord(ch) not in CONTROLS)


def test_a_control_character_in_a_later_paragraph_is_dropped() -> None:
    # a C1 control written as a character (not a reference) reaches the paragraphs: only the third holds one
    page = (
        f"<html><body><h1>暴雪预警</h1><p>{PARAGRAPH}</p><p>第二段：{PARAGRAPH}</p>"
        f"<p>第三段：{PARAGRAPH}\u009b[2J</p></body></html>"
    )
    r = extract(page.encode("utf-8"))
    assert r.text.split("\n")[-1] == f"第三段：{PARAGRAPH}[2J" and r.text.count(PARAGRAPH) == 3


def test_soft_hyphens_do_not_split_the_words_of_text_and_title() -> None:
    # a German page hyphenated for narrow columns: "Zusammen&shy;arbeit" is one word to a reader and to search
    para = (
        "Die Zusammen&shy;arbeit der Gemeinden im Land&shy;kreis wird im kommenden Jahr deutlich enger, "
        "teilte die Kreis&shy;verwaltung am Montag mit. "
    )
    page = (
        "<html lang='de'><head><title>Mehr Zusammen&shy;arbeit</title></head>"
        "<body><h1>Mehr Zusammen&shy;arbeit</h1>"
        + "".join(f"<p>{n}. {para * 2}</p>" for n in range(1, 4))
        + "</body></html>"
    )
    r = extract(page)
    assert r.text.count("Die Zusammenarbeit der Gemeinden im Landkreis") == 6
    assert "Kreisverwaltung" in r.text and "\xad" not in r.text
    assert r.title == "Mehr Zusammenarbeit"
