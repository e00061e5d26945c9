"""Per-page limits: each one named, overridable, and applied the documented way."""

from __future__ import annotations

import string

import pytest
from lxml import etree

from newscrawl.extract import ALGORITHMS, Limits, extract
from newscrawl.extract.document import Element, parse_html
from newscrawl.extract.limits import (
    Budget,
    LimitExceeded,
    attribute_counts,
    cap_bytes,
    cap_text,
    check_attributes,
    check_start_tags,
    check_tree,
    cut_text,
)

ARTICLE = "<html><body><h1>Title</h1>" + "<p>" + "正文内容很长。" * 60 + "</p>" * 3 + "</body></html>"


def nested(tag: str, depth: int) -> str:
    return "<html><body>" + f"<{tag}>x" * depth + "deep" + f"</{tag}>" * depth + "</body></html>"


def test_defaults_are_named_and_on() -> None:
    lim = Limits()
    assert lim.max_body_bytes and lim.max_nodes and lim.max_depth and lim.time_budget


@pytest.mark.parametrize(
    "field,value", [("max_nodes", 0), ("max_depth", -1), ("time_budget", 0), ("max_body_bytes", 1.5)]
)
def test_bad_limit_values_raise_early(field: str, value: float) -> None:
    with pytest.raises(ValueError, match=field):
        Limits(**{field: value})


def test_cap_bytes_cuts_before_a_tag() -> None:
    data, cut = cap_bytes(b"<p>one</p><p>two</p>", Limits(max_body_bytes=14))
    assert (data, cut) == (b"<p>one</p>", 10)


def test_cap_bytes_leaves_small_pages_alone() -> None:
    assert cap_bytes(b"<p>x</p>", Limits()) == (b"<p>x</p>", 0)


def test_cap_text_counts_characters() -> None:
    assert cap_text("<p>一二三</p><p>四</p>", Limits(max_body_bytes=12))[0] == "<p>一二三</p>"


def test_oversized_page_is_cut_and_still_extracted() -> None:
    html = ARTICLE.encode() + b"<div>" + b"<p>tail</p>" * 10_000 + b"</div>"
    r = extract(html, limits=Limits(max_body_bytes=len(ARTICLE.encode()) + 100))
    assert r.error is None and "正文内容很长" in r.text
    assert r.figures["limits"]["cut_bytes"] > 100_000


def test_too_many_elements_gives_an_error_naming_the_limit() -> None:
    html = "<html><body>" + "<p>x</p>" * 500 + "</body></html>"
    r = extract(html, limits=Limits(max_nodes=100))
    assert r.error and "max_nodes=100" in r.error and r.text == ""


def test_check_tree_counts_elements() -> None:
    assert check_tree(parse_html("<p>a</p><p>b</p>"), Limits()) == 4  # html, body, p, p


def test_deep_page_gives_an_error_naming_the_depth_limit() -> None:
    r = extract(nested("div", 300))
    assert r.error and "max_depth=200" in r.error


def test_depth_limit_is_overridable() -> None:
    html = nested("div", 60)
    assert extract(html).error is None
    r = extract(html, limits=Limits(max_depth=50))
    assert r.error and "max_depth=50" in r.error


def test_unlimited_lets_a_deep_page_through_without_crashing() -> None:
    r = extract(nested("div", 100_000), limits=Limits.unlimited())
    assert r.error is None and isinstance(r.text, str)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("tag", ["div", "b", "span", "table"])
def test_99000_deep_nesting_gives_a_clean_error_for_every_algorithm(tag: str, algorithm: str) -> None:
    # 198,004 tags: under the tag count of the default max_nodes (200,000), so parsed and refused for depth
    r = extract(nested(tag, 99_000), algorithm=algorithm)
    assert r.error and "max_depth" in r.error
    # 100,000 levels have more tags than that: refused before parsing, naming max_nodes
    r = extract(nested(tag, 100_000), algorithm=algorithm)
    assert r.error and "max_nodes" in r.error


def test_spent_budget_raises_limit_exceeded_naming_the_stage() -> None:
    budget = Budget(1e-9)
    with pytest.raises(LimitExceeded, match="after parse") as e:
        budget.check("parse")
    assert e.value.limit == "time_budget"


def test_no_budget_never_raises() -> None:
    Budget(None).check("anything")


def test_page_over_the_time_budget_gives_an_error() -> None:
    r = extract(ARTICLE, limits=Limits(time_budget=1e-9))
    assert r.error and "time_budget" in r.error


def test_limits_do_not_change_a_normal_extraction() -> None:
    assert extract(ARTICLE) == extract(ARTICLE, limits=Limits.unlimited())


class FakeCPU:
    """A thread's CPU clock that only moves when told to (no timing in the tests)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_time_budget_covers_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    from newscrawl.extract import limits
    from newscrawl.extract.metadata import stage

    cpu = FakeCPU()
    real = stage.find_people

    def slow_people(*args: object, **kwargs: object) -> object:
        cpu.now += 0.3  # a metadata chain that works long (dateparser on a hostile value, say)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(limits, "budget_clock", cpu)
    monkeypatch.setattr(stage, "find_people", slow_people)
    r = extract(ARTICLE, limits=Limits(time_budget=0.25))
    assert r.error and "after metadata" in r.error and "time_budget" in r.error and "CPU" in r.error


def test_the_budget_counts_cpu_seconds_not_wall_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    # a loaded machine: 1,000 wall seconds go by at every look at the clock, the page's thread works 0.1 s
    wall = iter(range(0, 10**9, 1_000))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(wall)))
    cpu = FakeCPU()
    budget = Budget(1.0, clock=cpu)
    for stage in ("decode", "parse", "cleaning", "body extraction", "page kind", "metadata"):
        cpu.now += 0.1
        budget.check(stage)
    assert [lap[1] for lap in budget.laps] == [1_000.0] * 6  # wall laps recorded
    assert [round(lap[2], 6) for lap in budget.laps] == [0.1] * 6
    assert round(budget.elapsed(), 6) == 0.6
    cpu.now += 0.5
    with pytest.raises(LimitExceeded, match="1.10 s of CPU after parse"):
        budget.check("parse")


def test_a_loaded_machine_does_not_refuse_a_page(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    wall = iter(range(0, 10**9, 60))  # a minute of wall time between any two looks at the clock
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(wall)))
    r = extract(ARTICLE, limits=Limits(time_budget=5.0))
    assert r.error is None and r.text


def test_the_budget_leaves_out_what_it_is_told_to(monkeypatch: pytest.MonkeyPatch) -> None:
    cpu = FakeCPU()
    budget = Budget(1.0, clock=cpu)
    cpu.now += 1.5  # a one-off load of the process (the language model)
    budget.exclude(1.5)
    budget.check("metadata")
    assert budget.laps[0][2] == 1.5  # the lap still shows it


def test_the_budget_reads_the_threads_cpu_clock() -> None:
    import time

    from newscrawl.extract import limits

    assert limits.budget_clock is time.thread_time


def flooded(count: int, attribute: str = "a{i}", sep: str = " ") -> str:
    """A page whose one <div> carries ``count`` attributes written as ``attribute``."""
    attrs = sep.join(attribute.format(i=i) for i in range(count))
    return f"<html><body><div {attrs}>x</div><p>{'正文内容。' * 40}</p></body></html>"


@pytest.mark.parametrize(
    "attribute,sep",
    [
        ("a{i}", " "),  # bare names
        ('a{i}=">"', " "),  # quoted values holding '>' (no '>' ends the tag early)
        ('a{i}="<"', " "),  # quoted values holding '<'
        ("a{i}", "/"),  # '/' separates attributes too
        ('a{i}=""', ""),  # no separator after a quoted value
        ("a<{i}", " "),  # '<' inside names
        ("a{i}=x'y", "\n"),  # unquoted values with quotes in them
    ],
)
def test_an_element_with_160000_attributes_is_refused_before_parsing(attribute: str, sep: str) -> None:
    # libxml2 took 34 s to parse one such <div>; the refusal names the limit
    r = extract(flooded(160_000, attribute, sep))
    assert r.error == "element with more than 1000 attributes, over the limit max_attributes=1000"
    assert r.text == ""


def test_attributes_up_to_the_limit_are_parsed() -> None:
    r = extract(flooded(999, 'a{i}="1"').encode())
    assert r.error is None and "正文内容" in r.text


def test_attribute_limit_can_be_lowered_and_switched_off() -> None:
    assert extract(flooded(60), limits=Limits(max_attributes=50)).error is not None
    r = extract(flooded(5_000), limits=Limits(max_attributes=None))
    assert r.error is None and "正文内容" in r.text


@pytest.mark.parametrize(
    "text",
    [
        '<p title="' + "<a b " * 400 + '">x</p>',  # tag-like text inside one quoted value
        "<p>" + "x" * 5_000 + "</p><script>" + "var a = 1; " * 1_000 + "</script>",  # long runs, no tag
        '<img src="data:image/png;base64,' + "QUJD" * 10_000 + '" alt="a > b">',
    ],
)
def test_long_markup_that_is_not_an_attribute_flood_passes(text: str) -> None:
    check_attributes(text, Limits(max_attributes=1_000))


def test_attribute_flood_in_a_tag_the_scan_cannot_miss_after_a_quoted_gt() -> None:
    # a quoted '>' elsewhere on the page switches to tokenizing the whole page
    text = '<a title="1 > 0">x</a><div ' + " ".join(f"a{i}" for i in range(1_001)) + ">"
    with pytest.raises(LimitExceeded, match="max_attributes=1000"):
        check_attributes(text, Limits())


def test_a_page_of_many_elements_just_under_the_attribute_limit_is_refused() -> None:
    # one element at 999 is fine; 1,700 of them took libxml2 28 s to parse (an 8 MB page)
    element = "<div " + " ".join(f"a{i}" for i in range(999)) + ">x</div>"
    assert extract(f"<html><body>{element}<p>{'正文内容。' * 40}</p></body></html>").error is None
    r = extract(f"<html><body>{element * 1_700}</body></html>")
    assert r.error and r.error.startswith("elements with too many attributes")
    assert "max_attributes=1000" in r.error


@pytest.mark.parametrize(
    "text,counts",
    [
        ('<p title="' + "<a" * 50_000, []),  # one unterminated quoted value: one attribute
        ("<a b " * 200, [399]),  # attribute names may start with "<": one tag (b, <a, b, <a, ...)
        ('<b x=">">' * 1_000, []),
        ("<div " + " ".join(f"a{i}" for i in range(70)) + ">" + "<p a b>" * 3, [70]),
        ('<div t="1 > 0" ' + " ".join(f"a{i}" for i in range(70)) + ">", [71]),
        # end tags: a bare one is passed over whole; libxml2 reads the attributes of any other
        ("</div>" * 100 + "<div " + " ".join(f"a{i}" for i in range(70)) + ">", [70]),
        ("</div " + " ".join(f"a{i}" for i in range(70)) + ">", [70]),
        ("</div/" + "/".join(f"a{i}" for i in range(70)) + ">", [70]),
        ("</SCRIPT><script>" + "<p " * 70 + "</script>", []),
    ],
)
def test_start_tags_are_read_as_html5_reads_them(text: str, counts: list[int]) -> None:
    assert list(attribute_counts(text)) == counts


def test_script_and_style_text_is_not_read_as_tags() -> None:
    # real pages' minified scripts hold "<d)return ..." runs that would count as hundreds of attributes
    code = "if(a<b)return " + " ".join(f"x{i}" for i in range(2_000))
    text = f"<script>{code}</script><STYLE>p<q {' '.join('a' for _ in range(2_000))}</STYLE><p>x</p>"
    assert list(attribute_counts(text)) == []
    check_attributes(text, Limits())
    flood = "<script " + " ".join(f"a{i}" for i in range(70)) + ">x</script>"
    assert list(attribute_counts(flood)) == [70]  # a script's own start tag is still read


# --- start tags, attributes per page, text length (issue 14: no page over 1 s of CPU at 8 MB) -----------


def test_a_page_of_far_more_start_tags_than_elements_allowed_is_refused_unparsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from newscrawl.extract import api

    def no_parse(data: bytes) -> object:
        raise AssertionError("parsed")

    monkeypatch.setattr(api, "parse_markup", no_parse)
    r = extract("<html><body>" + "<i>a</i>" * 500 + "</body></html>", limits=Limits(max_nodes=100))
    assert r.error == (
        "page too large: more than 400 tags (start and end tags, comments), over 4x the limit max_nodes=100"
    )


@pytest.mark.parametrize("unit", ["&#1;</p>", "&#1;<!a>", "&#1;<?a>", "&#1;<!--c-->", "</b>"])
def test_a_page_of_end_tags_or_comments_is_refused_unparsed_for_every_algorithm(
    unit: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # they make no element, but blockstats and linedensity read the source token by token: a million of
    # them (8 MiB of '&#1;</p>') cost 1.4-2.4 s of CPU there before this check
    from newscrawl.extract import api

    def no_parse(data: bytes) -> object:
        raise AssertionError("parsed")

    monkeypatch.setattr(api, "parse_markup", no_parse)
    page = "<html><body><p>" + unit * 500 + "</p></body></html>"
    for algorithm in ("auto", "blockstats", "linedensity"):
        r = extract(page, algorithm=algorithm, limits=Limits(max_nodes=100))
        assert r.error is not None and "max_nodes=100" in r.error, (algorithm, r.error)


def test_end_tags_of_the_elements_allowed_leave_room_under_the_tag_count() -> None:
    # a page at the element limit has about twice as many tags: 4x leaves room for them and for comments
    page = "<html><body>" + "<p>x</p><!-- c -->" * 95 + "</body></html>"
    check_start_tags(page, Limits(max_nodes=100))


def test_start_tags_in_scripts_and_styles_are_not_counted() -> None:
    inside = "<script>" + "<b>" * 500 + "</script><style>" + "<i>" * 500 + "</style>"
    check_start_tags(f"<html><body>{inside}<p>x</p></body></html>", Limits(max_nodes=100))
    with pytest.raises(LimitExceeded, match="max_nodes=100"):
        check_start_tags("<html><body>" + "<b>" * 500 + "</body></html>", Limits(max_nodes=100))


def test_start_tags_between_the_element_limit_and_4x_are_parsed_and_counted_as_elements() -> None:
    # 304 tags, under 4x the limit (400): parsed, then refused for its 152 elements (html, body, 150 p)
    r = extract("<html><body>" + "<p>x</p>" * 150 + "</body></html>", limits=Limits(max_nodes=100))
    assert r.error is not None and r.error.startswith("page too large: 152 elements")


def test_a_page_of_many_attributes_in_all_is_refused_naming_the_limit() -> None:
    attributes = " ".join(f"a{i}=v" for i in range(20))
    page = "<html><body>" + f"<p {attributes}>x</p>" * 30 + "</body></html>"  # 600 attributes, 33 elements
    r = extract(page, limits=Limits(max_nodes=100))
    assert r.error == "page too large: 600 attributes, over 4 per element of the limit max_nodes=100"
    assert extract(page, limits=Limits(max_nodes=200)).error is None


def parse(html: str) -> Element:
    return etree.fromstring(html)


@pytest.mark.parametrize(
    "html,most,kept,dropped",
    [
        ("<div><p>abc</p>tail<p>def</p>end</div>", 5, "<div><p>abc</p>ta</div>", 8),
        ("<div><p>abc</p>tail<p>def</p>end</div>", 2, "<div><p>ab</p></div>", 11),
        ("<div>ab<p>cd<b>ef</b>gh</p>ij<p>kl</p></div>", 5, "<div>ab<p>cd<b>e</b></p></div>", 7),
        ("<div><p>abc</p>tail<p>def</p>end</div>", 13, "<div><p>abc</p>tail<p>def</p>end</div>", 0),
    ],
)
def test_cut_text_keeps_the_first_characters_in_document_order(
    html: str, most: int, kept: str, dropped: int
) -> None:
    root = parse(html)
    assert cut_text(root, most) == dropped
    assert etree.tostring(root, encoding="unicode") == kept


def test_a_page_over_the_text_limit_is_cut_there_recorded_and_extracted() -> None:
    page = "<html><head><title>标题</title></head><body><h1>标题</h1><p>" + "正文内容。" * 1_000 + "</p>"
    page += "<p>" + "后面的内容。" * 1_000 + "</p></body></html>"
    r = extract(page, limits=Limits(max_text_chars=3_000))
    assert r.error is None and r.text.startswith("正文内容。") and "后面" not in r.text
    assert 2_000 < len(r.text) <= 3_000 and r.title == "标题"
    # cut: the first <p>'s last 2,000 characters of 5,000 and the 6,000 of the second (title and <h1> kept)
    assert r.figures["limits"] == {"cut_text_chars": 8_004, "max_text_chars": 3_000}


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_algorithm_reads_the_cut_page(algorithm: str) -> None:
    # the extractors that read the source (not the tree) get the cut page too
    page = "<html><body><p>" + "正文内容。" * 1_000 + "</p><p>" + "后面的内容。" * 1_000
    r = extract(page + "</p></body></html>", algorithm=algorithm, limits=Limits(max_text_chars=3_000))
    assert r.error is None and "后面" not in r.text and len(r.text) <= 3_000


def test_the_text_limit_is_named_overridable_and_can_be_switched_off() -> None:
    page = "<html><body><p>" + "word " * 240_000 + "</p></body></html>"  # 1.2M characters of text
    unhurried = Limits(time_budget=None)  # a loaded machine must not turn this into a time-budget test
    cut = extract(page, limits=unhurried)
    assert Limits().max_text_chars == 1_000_000 and 999_000 < len(cut.text) <= 1_000_000
    assert cut.figures["limits"]["cut_text_chars"] > 199_000
    whole = extract(page, limits=Limits(time_budget=None, max_text_chars=None))
    assert len(whole.text) == 1_200_000 - 1 and "limits" not in whole.figures


FLOOD = "<div " + " ".join(f"a{i}" for i in range(1_500)) + ">"


@pytest.mark.parametrize(
    "before",
    [
        "<!D<script></scr</scr</",  # a bogus comment to HTML5 (to the '>'), not a <script> (fuzzing)
        "<!-- <script> -->",  # a <script> in a comment starts no script
        "<!--><!--->",  # empty comments
        "<?php <script> ?>",  # a processing instruction is a bogus comment too
        "</ <script> x>",  # so is '</' and a space
    ],
)
def test_a_flood_after_a_script_start_that_html5_does_not_read_as_one_is_refused(before: str) -> None:
    # libxml2 parsed the 5,000 attributes after "<!D<script>" for minutes: the scan had taken the rest
    # of the page for script text
    with pytest.raises(LimitExceeded, match="max_attributes=1000"):
        check_attributes(before + FLOOD + "<p>x</p>", Limits())


def test_an_end_tag_flood_is_refused() -> None:
    # libxml2 reads an end tag's attributes too
    with pytest.raises(LimitExceeded, match="max_attributes=1000"):
        check_attributes("<p>x</div " + " ".join(f"a{i}" for i in range(1_500)) + ">", Limits())


@pytest.mark.skipif(etree.LIBXML_VERSION < (2, 14), reason="libxml2 parses <textarea> text before 2.14")
def test_a_script_start_in_a_textarea_is_text() -> None:
    with pytest.raises(LimitExceeded, match="max_attributes=1000"):
        check_attributes("<textarea><script></textarea>" + FLOOD, Limits())


def test_a_flood_inside_a_comment_is_no_tag() -> None:
    check_attributes(f"<!-- {FLOOD} --><p>x</p>", Limits())
    assert list(attribute_counts(f"<!--{FLOOD}--!><p>x</p>")) == []


@pytest.mark.parametrize(
    "before",
    [
        '<p a=\u00a0"x>',  # a no-break space is no white space to HTML: the value is unquoted, ends at '>'
        '<p a=\u3000"x>',  # nor an ideographic space
        '<script></\u017fcript><p a="</script>',  # 'ſ' is no 's' to HTML: the script ends at </script>
        '<scr\x0cipt><p a="</script>',  # the form feed is removed before parsing: a <script>
    ],
)
def test_a_flood_after_markup_only_html_reads_as_a_tag_boundary_is_refused(before: str) -> None:
    # each hid the next tag's 1,500 attributes from the scan (libxml2 parsed them)
    r = extract((before + FLOOD + '">x</p>').encode())
    assert r.error == "element with more than 1000 attributes, over the limit max_attributes=1000"


@pytest.mark.parametrize(
    "text",
    [
        '<div t="1 > 0" ' + " ".join(f"a{i}" for i in range(70)) + ">",
        "<p>中文</p><script>if(a<b)x()</script>" + "<div " + " ".join(f"属性{i}" for i in range(80)) + ">",
        "<TextArea><div " + " ".join(f"a{i}" for i in range(80)) + "></textarea>" + FLOOD,
    ],
)
def test_the_utf8_bytes_give_the_counts_of_the_text(text: str) -> None:
    assert list(attribute_counts(text.encode())) == list(attribute_counts(text)) != []


def test_the_smallest_page_with_too_many_attributes_is_still_counted() -> None:
    # a page is not counted when it is too small to hold too many attributes: two bytes each at least
    names = string.ascii_lowercase + string.digits + "-_.$@"  # one character each (HTML folds case)
    page = "<p " + " ".join(names) + ">"  # 41 attributes in 85 bytes; the limit: 40
    r = extract(page, limits=Limits(max_nodes=10))
    assert r.error == "page too large: 41 attributes, over 4 per element of the limit max_nodes=10"


def test_long_class_and_id_values_are_cut_on_every_element_the_root_included() -> None:
    from newscrawl.extract.limits import MAX_NAME_CHARS, cap_names

    long = "x" * (MAX_NAME_CHARS + 5)
    root = etree.fromstring(
        f'<html class="{long}"><head><meta id="{long}"/></head>'
        f'<body><p class="{long}" id="{long}">t</p><p class="short">u</p></body></html>'
    )
    assert cap_names(root) == 4
    assert [len(v) for v in root.xpath("//@class | //@id")] == [MAX_NAME_CHARS] * 4 + [5]
