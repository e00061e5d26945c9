"""Decoding: BOM, declarations, mislabelled pages, detection, and input that is not text at all."""

from __future__ import annotations

import codecs

import pytest

from newscrawl.extract import extract
from newscrawl.extract.decode import (
    charset_from_content_type,
    chinese_score,
    declared_charset,
    decode_html,
    normalize_charset,
)

# Sentences written for these tests: enough common characters for detection to judge.
ZH = (
    "我们今天在北京发布了一条新闻，这是关于中国经济发展的报道。"
    "人民生活水平不断提高，社会各方面都有了很大的变化。"
)
ZH_TRAD = (
    "我們今天在台北發布了一條新聞，這是關於經濟發展的報導。"
    "人民生活水平不斷提高，社會各方面都有了很大的變化。"
)
DE = (
    "Grüße aus München – schön, dass Sie da sind. "
    "„Die Straße ist für alle“, sagt Frau Müller über die Übergänge."
)
JA = "今日は東京で新しいニュースを発表しました。これは日本の経済についての記事です。"


def page(body: str, head: str = "") -> str:
    return f"<html><head>{head}<title>t</title></head><body><p>{body}</p></body></html>"


def test_utf8_bom_is_dropped_and_decides() -> None:
    d = decode_html(codecs.BOM_UTF8 + page(ZH, '<meta charset="gbk">').encode("utf-8"))
    assert (d.encoding, d.source) == ("utf-8", "bom")
    assert d.text.startswith("<html>") and ZH in d.text


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_bom(codec: str) -> None:
    bom = codecs.BOM_UTF16_LE if codec.endswith("le") else codecs.BOM_UTF16_BE
    d = decode_html(bom + page(ZH).encode(codec))
    assert d.source == "bom" and ZH in d.text and not d.text.startswith("\ufeff")


def test_utf16_without_bom_is_recognised_by_its_nul_bytes() -> None:
    d = decode_html(page(DE).encode("utf-16-le"))
    assert d.encoding == "utf-16-le" and DE in d.text


def test_http_charset_wins_over_meta_when_both_read_the_bytes() -> None:
    # Big5 bytes of this text also decode strictly as GB18030 (into nonsense): the header decides
    data = page(ZH_TRAD, '<meta charset="gbk">').encode("big5")
    data.decode("gb18030")  # the premise: both declarations "work"
    d = decode_html(data, http_charset="big5")
    assert d.encoding == "big5hkscs" and ZH_TRAD in d.text


def test_meta_wins_over_a_wrong_single_byte_http_default() -> None:
    # servers often send "ISO-8859-1" by default; any byte string "decodes" as Latin-1
    d = decode_html(page(ZH, '<meta charset="gbk">').encode("gbk"), http_charset="ISO-8859-1")
    assert d.encoding == "gb18030" and ZH in d.text


def test_a_single_byte_http_charset_is_used_for_a_western_page() -> None:
    d = decode_html(page(DE).encode("cp1252"), http_charset="iso-8859-1")
    assert d.encoding == "cp1252" and DE in d.text


@pytest.mark.parametrize("label", ["gb2312", "GBK", "x-gbk", "cp936", "GB_2312-80"])
def test_gb_labels_decode_as_gb18030(label: str) -> None:
    text = ZH + "朱镕基"  # 镕 is in GBK but not in GB2312
    d = decode_html(page(text, f'<meta http-equiv="Content-Type" content="text/html; charset={label}">')
                    .encode("gbk"))
    assert d.encoding == "gb18030" and text in d.text


def test_declared_utf8_but_gbk_bytes() -> None:
    d = decode_html(page(ZH, '<meta charset="utf-8">').encode("gbk"))
    assert d.encoding == "gb18030" and ZH in d.text


def test_declared_gbk_but_utf8_bytes() -> None:
    d = decode_html(page(ZH, '<meta charset="gb2312">').encode("utf-8"))
    assert d.encoding == "utf-8" and ZH in d.text


def test_undeclared_gbk() -> None:
    d = decode_html(page(ZH).encode("gbk"))
    assert (d.encoding, d.source) == ("gb18030", "detected") and ZH in d.text


def test_undeclared_gbk_after_a_long_ascii_script() -> None:
    script = "<script>" + "var x = 1;\n" * 20_000 + "</script>"
    d = decode_html(page(ZH, script).encode("gbk"))
    assert d.encoding == "gb18030" and ZH in d.text


def test_undeclared_big5() -> None:
    d = decode_html(page(ZH_TRAD).encode("big5"))
    assert d.encoding == "big5hkscs" and ZH_TRAD in d.text


def test_undeclared_cp1252_german_is_not_read_as_gb18030() -> None:
    d = decode_html(page(DE).encode("cp1252"))
    assert d.encoding == "cp1252" and DE in d.text


def test_undeclared_polish_cp1250() -> None:
    pl = "Zażółć gęślą jaźń. Ładna łąka, święta środa, żółw i źrebię."
    d = decode_html(page(pl).encode("cp1250"))
    assert d.encoding == "cp1250" and pl in d.text


def test_shift_jis_declared() -> None:
    d = decode_html(page(JA, '<meta charset="Shift_JIS">').encode("shift_jis"))
    assert d.encoding == "cp932" and JA in d.text


def test_iso_2022_jp_undeclared() -> None:
    d = decode_html(page(JA).encode("iso2022_jp"))
    assert d.encoding == "iso2022_jp" and JA in d.text


def test_utf8_page_with_one_broken_byte_keeps_the_rest() -> None:
    data = page(ZH).encode("utf-8")
    i = data.index(ZH[5].encode("utf-8"))
    d = decode_html(data[: i + 2] + data[i + 3 :])  # the last byte of a 3-byte character is lost
    assert d.encoding == "utf-8" and d.text.count("\ufffd") == 1
    assert ZH[6:] in d.text


def test_stray_latin1_letter_in_a_utf8_page_reads_as_windows_1252() -> None:
    data = b"<html><body><p>" + ZH.encode("utf-8") + b" Caf\xe9 ok</p></body></html>"
    d = decode_html(data)
    assert d.encoding == "utf-8" and "Café ok" in d.text and ZH in d.text


def test_double_encoded_gbk_is_restored() -> None:
    # GBK bytes once read as windows-1252 and saved as UTF-8, with the original declaration kept
    mojibake = ZH.encode("gbk").decode("latin-1")
    d = decode_html(page(mojibake, '<meta charset="gb2312">').encode("utf-8"))
    assert d.source == "repaired" and ZH in d.text


def test_german_utf8_is_not_taken_for_double_encoding() -> None:
    d = decode_html(page(DE * 3).encode("utf-8"))
    assert d.encoding == "utf-8" and DE in d.text


def test_empty_bytes() -> None:
    d = decode_html(b"")
    assert (d.text, d.source, d.error) == ("", "empty", None)


def test_empty_bytes_give_an_error_from_extract() -> None:
    r = extract(b"")
    assert r.error and r.text == ""


def test_binary_garbage_is_flagged() -> None:
    data = bytes(range(256)) * 64
    d = decode_html(data)
    assert d.error and "binary" in d.error and isinstance(d.text, str)


def test_binary_garbage_gives_an_error_from_extract() -> None:
    r = extract(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40)
    assert r.error and "binary" in r.error


def test_nul_bytes_in_text_do_not_make_a_page_binary() -> None:
    d = decode_html(page("hello\x00 world " * 50).encode("utf-8"))
    assert d.error is None and d.encoding == "utf-8"


def test_mostly_nul_bytes_are_binary() -> None:
    d = decode_html(b"\x00\x00\x00A" * 1000 + b"<html>")
    assert d.error and "NUL" in d.error


def test_ascii_page_reports_its_declared_charset() -> None:
    d = decode_html(page("plain", '<meta charset="windows-1252">').encode("ascii"))
    assert (d.encoding, d.source) == ("cp1252", "ascii")


def test_normalize_charset_maps_labels_the_way_browsers_do() -> None:
    assert normalize_charset("GB2312") == "gb18030"
    assert normalize_charset("ISO-8859-1") == "cp1252"
    assert normalize_charset("Big5") == "big5hkscs"
    assert normalize_charset("shift-jis") == "cp932"


@pytest.mark.parametrize("label", ["bogus", "", None, "utf-7", "utf-16"])
def test_normalize_charset_refuses_unknown_and_unsafe_labels(label: str | None) -> None:
    assert normalize_charset(label) is None


def test_charset_from_content_type() -> None:
    assert charset_from_content_type('text/html; charset="GBK"') == "GBK"
    assert charset_from_content_type(b"text/html") is None


def test_declared_charset_reads_meta_and_xml_declaration() -> None:
    meta = b'<meta http-equiv="content-type" content="text/html;charset=gb2312">'
    assert declared_charset(meta) == "gb2312"
    assert declared_charset(b'<?xml version="1.0" encoding="Big5"?><html>') == "Big5"


def test_chinese_score_separates_a_right_reading_from_a_wrong_one() -> None:
    data = ZH_TRAD.encode("big5")
    assert chinese_score(data.decode("big5")) > 0.3
    assert chinese_score(data.decode("gb18030", "replace")) < 0.1


def test_decoded_gbk_page_extracts_its_text() -> None:
    r = extract(page(ZH * 4).encode("gbk"))
    assert r.error is None and r.encoding == "gb18030" and ZH in r.text


@pytest.mark.parametrize(
    "data,utf8",
    [
        (("<p>" + "中文" * 20 + "\x0c</p>\x01").encode(), ("<p>" + "中文" * 20 + "\x0c</p>").encode()),
        (b"<p>plain text, a little longer\x7f</p>" * 5, b"<p>plain text, a little longer</p>" * 5),  # ASCII
        ("<p>中文</p>".encode("gbk"), None),  # another codec: the text is encoded when parsed
        (codecs.BOM_UTF8 + b"<p>x</p>", None),
    ],
)
def test_utf8_pages_keep_their_bytes_for_the_parser(data: bytes, utf8: bytes | None) -> None:
    decoded = decode_html(data)
    assert decoded.utf8 == utf8
    assert utf8 is None or utf8.decode() == decoded.text
