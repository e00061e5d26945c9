"""The C forms of the byte searches before parsing give the answers of their Python forms (the reference
and the fallback): :func:`newscrawl.extract.document.markup`'s (``</body>``/``</html>`` removal, the
control-reference search: regular expressions) and ``check_start_tags``' count of '<' (``bytes.count``)."""

from __future__ import annotations

import pytest
from cstats_support import needs_c

from newscrawl.extract import document, limits, native

hypothesis = pytest.importorskip("hypothesis")  # (the test extra has it)
st = hypothesis.strategies

BODY_ENDS = [
    b"", b"<", b"</", b"</body", b"</body>", b"</BoDy \t\n\r\x0b\x0c>", b"</html>x</HTML>", b"</bodyx>",
    b"</ body>", b"</body\xa0>", b"</body</body>", b"<</html>>", b"</htm>", b"</html", b"a</body >b",
    b"</b\xc3\xb6dy>", b"</\xe2\x80\xa8body>",
]
REFERENCES = [
    b"", b"&#", b"&#;", b"&#0", b"&#00000", b"&#9", b"&#10", b"&#13", b"&#11", b"&#127", b"&#128", b"&#1270",
    b"&#31;", b"&#32", b"&#65534", b"&#65535", b"&#65536", b"&#065535", b"&#x", b"&#x;", b"&#xb", b"&#Xd",
    b"&#xA", b"&#x1f", b"&#x20", b"&#x7F", b"&#x7f0", b"&#xfffe", b"&#xFFFF", b"&#x0fffe", b"&#x1fffe",
    b"&#xg", b"&&#27", b"&amp;#27", b"& #27", b"&#" + b"0" * 100 + b"27", b"&#" + b"9" * 100,
]


@needs_c
def test_the_c_searches_are_the_ones_in_use() -> None:
    # an extension built before them would fall back to the regular expressions silently
    assert native.cstats is not None
    assert document.strip_body_ends is native.cstats.strip_body_ends
    assert document.has_control_reference is native.cstats.has_control_reference


@needs_c
@pytest.mark.parametrize("data", BODY_ENDS)
def test_body_ends_are_removed_as_the_regular_expression_removes_them(data: bytes) -> None:
    for page in (data, b"<p>x</p>" + data + b"<p>y</p>", data * 3):
        assert document.strip_body_ends(page) == document._strip_body_ends(page)


@needs_c
@pytest.mark.parametrize("data", REFERENCES)
def test_control_references_are_found_as_the_regular_expression_finds_them(data: bytes) -> None:
    for page in (data, b"<p>x " + data + b" y</p>", data + b"1", data + b"a", data + b";"):
        assert document.has_control_reference(page) is document._has_control_reference(page)


@needs_c
def test_the_cases_hold_both_answers() -> None:
    # (so that the comparisons above are no comparisons of empty results)
    assert {document._has_control_reference(r) for r in REFERENCES} == {True, False}
    assert {document._strip_body_ends(b) == b for b in BODY_ENDS} == {True, False}


@needs_c
@pytest.mark.parametrize("size", [0, 1, 254, 255, 256, 509, 510, 511, 4_096, 100_003])
def test_the_c_count_of_a_byte_is_bytes_count(size: int) -> None:
    # blocks of 255 bytes count in one byte each: every size around them, all matches or a few
    assert limits._c_count_byte is not None
    for data in (b"<" * size, (b"<p>\xff" * size)[:size], bytes(size)):
        assert limits._c_count_byte(data, ord("<")) == data.count(b"<")
        assert limits._c_count_byte(data, 0) == data.count(b"\0")
    with pytest.raises(ValueError, match="0..255"):
        limits._c_count_byte(b"<", 256)


@needs_c
def test_a_page_without_body_ends_is_given_back_itself() -> None:
    page = b"<p>" + b"x" * 100 + b"</p>"
    assert document.strip_body_ends(page) is page


PIECES = [
    b"<", b"/", b">", b"</", b"body", b"BODY", b"html", b"HtMl", b"bod", b" ", b"\t", b"\x0b", b"\x0c",
    b"\xa0", b"&", b"#", b"&#", b"x", b"X", b"0", b"1", b"2", b"7", b"9", b"f", b"F", b"e", b"b", b"d",
    b"3", b"5", b"6", b";", b"\xc3\xa9", b"\xef\xbf\xbe",
]
pages = st.lists(st.sampled_from(PIECES), max_size=50).map(b"".join)


@needs_c
@hypothesis.settings(max_examples=1_000, deadline=None)
@hypothesis.given(pages)
def test_random_bytes_give_the_same_answers(data: bytes) -> None:
    assert limits._c_count_byte is not None
    assert limits._c_count_byte(data * 20, ord("<")) == (data * 20).count(b"<")
    assert document.strip_body_ends(data) == document._strip_body_ends(data)
    assert document.has_control_reference(data) is document._has_control_reference(data)
