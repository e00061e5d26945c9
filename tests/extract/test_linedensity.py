"""linedensity (seed 001): line text density on the source."""

import pytest

from newscrawl.extract import extract
from newscrawl.extract.algorithms.linedensity import Line, estimate_threshold, render_lines

PARA = "今年春天，城东的老菜市场完成了改造，摊位重新规划，通道也拓宽了不少，附近居民买菜方便多了。"
NAV = (
    "<ul class='nav'>"
    + "".join(f"<li><a href='/channel/section-{i}/index.html'>栏目{i}</a></li>" for i in range(10))
    + "</ul>"
)
FOOTER = "<div class='foot'><a href='/about/us.html'>关于</a> | <a href='/contact/us.html'>联系</a></div>"


def page(paragraphs: int = 4) -> str:
    body = "".join(f"<p>{PARA}第{i}段</p>" for i in range(paragraphs))
    return (
        "<html><head><title>菜市场改造</title></head>"
        f"<body>{NAV}<div class='text'>{body}</div>{FOOTER}</body></html>"
    )


def test_keeps_dense_paragraph_lines_and_drops_link_lines():
    r = extract(page(), algorithm="linedensity")
    assert r.text.splitlines() == [f"{PARA}第{i}段" for i in range(4)]
    assert "栏目3" not in r.text and "关于" not in r.text


def test_a_line_is_charged_with_the_tags_before_its_text():
    lines = render_lines("<body><p>abcd</p><p>xy<br>z</p></body>")
    assert [ln.text for ln in lines] == ["abcd", "xy", "z"]
    assert (lines[0].text_bytes, lines[0].total_bytes) == (4, len("<body><p>abcd"))
    assert lines[2].total_bytes == len("<br>z")


def test_script_and_style_content_is_not_rendered_nor_charged():
    lines = render_lines("<body><script>var s = '脚本里的文字';</script><style>p{}</style><p>正文</p></body>")
    assert [ln.text for ln in lines] == ["正文"]
    assert lines[0].total_bytes == len("<body><p>正文".encode())


def test_threshold_override_changes_the_kept_lines():
    html = "<body><p><span class='x'>半密度行的文字内容</span></p><p>" + PARA + "</p></body>"
    kept_default = extract(html, algorithm="linedensity").text.splitlines()
    kept_strict = extract(html, algorithm="linedensity", threshold=0.9).text.splitlines()
    assert "半密度行的文字内容" in kept_default
    assert "半密度行的文字内容" not in kept_strict


def test_estimated_threshold_follows_the_page_and_is_clamped():
    balanced = [Line("x", 10, 20)] * 5
    assert estimate_threshold(balanced) == pytest.approx(0.5)
    texty = [Line("x", 90, 100)] * 5
    assert estimate_threshold(texty) == 0.8
    r = extract(page(), algorithm="linedensity", estimate_threshold=True)
    assert 0.4 <= r.figures["threshold"] <= 0.8


@pytest.mark.parametrize(
    "params, name",
    [({"threshold": 1.5}, "threshold"), ({"min_estimate": 0.9, "max_estimate": 0.5}, "min_estimate")],
)
def test_bad_parameter_raises_naming_it(params, name):
    with pytest.raises(ValueError, match=name):
        extract(page(), algorithm="linedensity", **params)


def _lines_token_by_token(source: str) -> list[tuple[str, int, int]]:
    """The formatter's lines read one token after another: what render_lines computes in bulk."""
    from newscrawl.extract.algorithms.blockstats import remove_raw_elements
    from newscrawl.extract.algorithms.linedensity import _TOKEN, LINE_BREAK_TAGS, NOT_RENDERED
    from newscrawl.extract.entities import unescape

    lines, parts, pending, total = [], [], 0, 0

    def flush() -> None:
        text = " ".join("".join(parts).split())
        if text:
            lines.append((text, len(text.encode()), total))

    for m in _TOKEN.finditer(remove_raw_elements(source, NOT_RENDERED)):
        tok, name, size = m.group(0), m.group(2), len(m.group(0).encode())
        if name is not None or tok.startswith(("<!", "<?")):
            pending += size
            if name is not None and name.lower() in LINE_BREAK_TAGS and parts:
                flush()
                parts, total = [], 0
        elif not unescape(tok).strip():
            pending += size
        else:
            parts.append(unescape(tok))
            total, pending = total + pending + size, 0
    if parts:
        flush()
    return lines


PIECES = [
    *("<p>", "</P>", "<br>", "<BR/>", "<i>", "</i>", "<!a>", "<?x>", "<!-- c -->", "<", ">", " ", "\n", "a"),
    *("中", "&amp;", "&lt;", "&#60;", "&#1;", "&#32;", "&not", "&notin;", "&no", "t;", "&#x", "41;", "&"),
    *("<b", "\x00", "<script>x<p>y</script>", "<head>h</head>", "é", "&nbsp;", "<div\n class=x>", "&#0;"),
    *("&#xFFFE;", "<a <b>"),
]


def test_lines_read_in_bulk_are_the_lines_read_token_by_token():
    import random

    rng = random.Random(7)
    for _ in range(3000):
        source = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 40)))
        got = [(ln.text, ln.text_bytes, ln.total_bytes) for ln in render_lines(source)]
        assert got == _lines_token_by_token(source), source


def test_a_page_of_millions_of_tiny_tokens_is_read_in_bulk():
    # 8 MiB of a blank reference between bogus comments: two million tokens (1.5 s read one by one)
    source = "<p>" + "&#1;<!a>" * 1_000_000 + "<p>word"
    assert [(ln.text, ln.total_bytes) for ln in render_lines(source)] == [("word", 8_000_010)]
