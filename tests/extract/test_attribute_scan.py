"""The C attribute scan (``_cstats.attribute_counts``) gives the counts of the regular expressions
(``limits.python_attribute_counts``, the reference) on hand-written markup, every prefix of it, and random
markup rich in the shapes that fooled the scan before (hypothesis)."""

from __future__ import annotations

import pytest
from cstats_support import needs_c

from newscrawl.extract import limits, native
from newscrawl.extract.limits import PAIRS_FROM, attribute_counts, python_attribute_counts

hypothesis = pytest.importorskip("hypothesis")  # (the test extra has it)
st = hypothesis.strategies


def run(names: str, n: int, sep: str = " ") -> str:
    return sep.join(f"{names}{i}" for i in range(n))


#: markup the scan has to read as HTML5 does (each a shape of the regular expressions' alternatives)
CASES = [
    "",
    "<",
    "<p",
    "</",
    '<p title="' + "<a" * 50,  # an unterminated quoted value
    "<a b " * 80,  # attribute names may start with "<"
    '<b x=">">' * 20,
    f"<div {run('a', 70)}>" + "<p a b>" * 3,
    f'<div t="1 > 0" {run("a", 70)}>',
    "</div>" * 3 + f"<div {run('a', 70)}>",
    f"</div {run('a', 70)}>",
    f"</div/{run('a', 70, '/')}>",
    "</SCRIPT><script>" + "<p " * 70 + "</script>",
    f"<script>if(a<b)return {run('x', 90)}</script><STYLE>p<q {run('a', 90)}</STYLE><p>x</p>",
    f"<script {run('a', 70)}>x</script>",
    f"<!D<script></scr</scr</<div {run('a', 70)}>",
    f"<!-- <script> --><div {run('a', 70)}>",
    f"<!--><!---><div {run('a', 70)}>",
    f"<?php <script> ?><div {run('a', 70)}>",
    f"</ <script> x><div {run('a', 70)}>",
    f"<!--{run('a', 70)}--!><p {run('b', 70)}>",
    f"<!-- a -- b --->< p {run('b', 70)}>",
    f'<p a=\u00a0"x><div {run("a", 70)}">x</p>',
    f'<p a=\u3000"x><div {run("a", 70)}">x</p>',
    f'<script></\u017fcript><p a="</script><div {run("a", 70)}">',
    f"<textarea><script></textarea><div {run('a', 70)}>",
    f"<TextArea><div {run('a', 80)}></textarea><div {run('a', 70)}>",
    f"<title>{run('<b', 70)}</titlex><p {run('c', 70)}></title>",
    f"<plaintext {run('a', 64)}>x<p {run('a', 65)}>",
    f"<div {run('a', 64)}><div {run('a', 65)}><div {run('a', 66)}>",
    f"<div {run('a', 1_001)}><div {run('a', 1_000)}><p {run('b', 999)}>",
    f'<div {run("a=", 70)} b="x"c d=\'e\'f g =  h>',
    f"<div\x0c{run('a', 70, chr(12))}\x0c/>",
    f"<p {run('a', 70)}/ >",
    f"<p{run('/a', 70, '')}>",
    "<p a=b/>" * 5 + f"<p {run('a', 70)} =x>",
    f"<div =a {run('a', 70)}>汉<p {run('属性', 80)}>",
    f"<p a='x\"><div {run('a', 70)}>'>",
    f"<script></scrip><div {run('a', 70)}></script><p {run('a', 70)}>",
    f"<style></stylex<div {run('a', 70)}></style ><p {run('a', 70)}>",
    f"<!-- a --!x <div {run('a', 70)}> --><p {run('a', 70)}>",
]


#: bytes that are no UTF-8 (a page lxml is given in its own encoding): a lone no-break space, Latin-1 letters
BYTE_CASES = [
    b'<p a=\xa0"x><div ' + run("a", 70).encode() + b'">',
    b"<p a\xa0=\xa0b " + run("\xe9", 70).encode("latin-1") + b">\x85<p>",
    b"<script>\xa0</script\xa0><div\x00" + run("a", 70, "\x00").encode() + b">",
]


def equal_counts(text: str | bytes, most: int) -> list[int]:
    c, python = list(attribute_counts(text, most)), list(python_attribute_counts(text, most))
    assert c == python, (text[:200], most)
    return c


@needs_c
def test_the_c_scan_is_the_one_in_use() -> None:
    # an extension built before the C scan would fall back to the regular expressions silently
    assert limits._c_attribute_counts is not None
    assert native.cstats is not None


@needs_c
@pytest.mark.parametrize("text", CASES)
@pytest.mark.parametrize("most", [1, 3, PAIRS_FROM, 65, 1_000])
def test_the_c_scan_counts_as_the_regular_expressions(text: str, most: int) -> None:
    counts = equal_counts(text, most)
    assert equal_counts(text.encode("utf-8"), most) == counts


@needs_c
@pytest.mark.parametrize("data", BYTE_CASES)
@pytest.mark.parametrize("most", [1, 3, PAIRS_FROM, 1_000])
def test_bytes_that_are_no_utf8_count_the_same(data: bytes, most: int) -> None:
    equal_counts(data, most)


@needs_c
def test_the_hand_written_cases_hold_heavy_tags() -> None:
    # (so that the comparisons above compare counts, not empty lists)
    assert sum(1 for text in CASES if list(python_attribute_counts(text))) >= 20


@needs_c
@pytest.mark.parametrize("text", CASES)
def test_every_prefix_counts_the_same(text: str) -> None:
    # a truncated tag, value, comment or raw-text end reads as the patterns' end of text (\Z)
    data = text.encode("utf-8")
    for end in range(0, len(data), max(1, len(data) // 200)):
        equal_counts(data[:end], 3)
        equal_counts(data[:end], PAIRS_FROM)


@needs_c
def test_the_c_scan_refuses_raw_names_it_cannot_compare() -> None:
    assert native.cstats is not None
    with pytest.raises(ValueError, match="lower-case ASCII"):
        native.cstats.attribute_counts(b"<p>", 64, 1_001, (b"Script",))
    with pytest.raises(ValueError, match="not a name"):
        native.cstats.attribute_counts(b"<p>", 64, 1_001, ("script",))


#: the pieces random markup is made of: tag openings of the raw-text elements and their near-miss ends,
#: comments and bogus comments, quotes, '=' and HTML's and Unicode's white space
PIECES = [
    "<", ">", "/", "=", '"', "'", " ", "\t", "\x0c", "\n", "\r", "\xa0", "\u3000", "a", "B", "-", "!", "?",
    "<script", "</script", "<SCRIPT", "</scr", "<style", "</Style", "<title", "</title", "<textarea",
    "</textarea", "<xmp", "</xmp", "<iframe", "</iframe", "<noembed", "</noembed", "<noframes",
    "</noframes", "<plaintext", "</plaintext", "<!--", "-->", "--!>", "<!-->", "<!--->", "<!D", "<?php",
    "</ ", "<p", "</p", "<div", " a", " b=", '="x"', "='y'", "=z", "\u017f", "</\u017fcript>", "汉", "--",
    "<!", "</", "<1", "='x\">", '="x\'>', "=\"", "='", "--->", "<!---", "-!>", "--!", "<p a='x\">",
    '<p a="x\'>',
] + [  # every raw-text element opened, and near-miss ends: one letter short, one more, in upper case
    piece
    for name in limits._SKIPPED_TEXT
    for piece in (f"<{name}>", f"</{name[:-1]}", f"</{name}x", f"</{name.upper()}>")
]


@st.composite
def heavy_tags(draw: st.DrawFn) -> str:
    # a tag with a number of attributes around the light run's limit and the page limit of the test
    count = draw(st.sampled_from([1, 2, 3, 4, 5, PAIRS_FROM - 1, PAIRS_FROM, PAIRS_FROM + 1, 70]))
    sep = draw(st.sampled_from([" ", "/", "\t", " /", "\x0c"]))
    attribute = st.sampled_from(["a", "b=c", 'd="<>"', "e='>'", "f= g", "<h", 'i="x"j', "="])
    attributes = sep.join(draw(st.lists(attribute, min_size=count, max_size=count)))
    name = draw(st.sampled_from(["p", "div", "/p", "script", "style", "title", "SCRIPT", "/script"]))
    return f"<{name} {attributes}" + draw(st.sampled_from([">", "", "/>", " >", '"', "'"]))


#: what hides markup from the scan, or seems to and does not: raw-text elements, comments, bogus comments,
#: quoted values (opened with HTML's white space and with Unicode's, which is none to HTML)
OPENERS = [
    "<script>", "<style x>", "<title>", "<textarea/>", "<xmp>", "<!--", "<!-->", "<!D", "<?", "</ ", "<p a='",
    '<p a="', '<p a=\xa0"', "<p a=\u3000'", "<p a =\x0c'", "<!---",
    "<p a='x\">", '<p a="x\'>',
]
#: what may or may not end it
CLOSERS = [
    "-->", "--!>", "--!", "--", "->", "-", ">", "'", '"', "</script>", "</scripts", "</ScRiPt", "</style",
    "</titl", "</title", "</textareax", "</xmp", "/>", "</",
] + [f"</{name[:-1]}" for name in limits._SKIPPED_TEXT]


@st.composite
def hiding(draw: st.DrawFn) -> str:
    # an opener, near-miss closers around a heavy tag, and perhaps the real end
    closers = st.lists(st.sampled_from(CLOSERS), max_size=3).map("".join)
    return draw(st.sampled_from(OPENERS)) + draw(closers) + draw(heavy_tags()) + draw(closers)


markups = st.lists(st.one_of(st.sampled_from(PIECES), heavy_tags(), hiding()), max_size=40).map("".join)


@needs_c
@hypothesis.settings(max_examples=1_000, deadline=None)
@hypothesis.given(markups, st.sampled_from([1, 2, 3, 5, PAIRS_FROM, 1_000]), st.integers(0, 100))
def test_random_markup_counts_the_same(text: str, most: int, cut: int) -> None:
    counts = equal_counts(text, most)
    data = text.encode("utf-8", "surrogatepass")
    assert equal_counts(data, most) == counts
    equal_counts(data[: len(data) * cut // 100], most)  # truncated anywhere, mid-character too


@needs_c
@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(
    markups,
    st.one_of(st.sampled_from([b"\xa0", b"\x85", b"\x0b", b"\x00", b"\xc2"]), st.binary(max_size=4)),
    st.sampled_from([1, 3, PAIRS_FROM]),
)
def test_random_bytes_in_random_markup_count_the_same(text: str, noise: bytes, most: int) -> None:
    # bytes of any value (Latin-1 white space among them) where the markup has an '=' or a space
    data = text.encode("utf-8", "surrogatepass").replace(b"=", b"=" + noise).replace(b" ", noise + b" ")
    equal_counts(data, most)
