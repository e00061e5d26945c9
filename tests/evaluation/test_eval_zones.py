import pytest

from newscrawl.evaluation.zones import invented_offset, value_offset, zone_signals

EN_PAGE = b'<html lang="en-GB"><head><meta property="article:published_time" content="2024-09-03T04:03:19">'


def test_an_offset_on_a_page_without_any_zone_signal_is_invented():
    signals = zone_signals(EN_PAGE, "https://news.example.com/a")
    assert invented_offset("2024-09-03T04:03:19+08:00", signals)
    assert not invented_offset("2024-09-03T04:03:19", signals)  # no offset, nothing invented
    assert not invented_offset("2024-09-03", signals)


@pytest.mark.parametrize(
    "written",
    [
        b"2024-09-03T04:03:19Z",
        b"2024-09-03 04:03:19+0000",
        b"Tue, 03 Sep 2024 04:03:19 GMT",
        b"2024-09-03 04:03:19.000000 GMT",  # fractional seconds before the zone name
        b"September 3, 2024, 04:03 AM GMT",  # a 12-hour clock before the zone name
    ],
)
def test_an_offset_the_page_writes_is_supported(written):
    signals = zone_signals(EN_PAGE + b"<script>" + written + b"</script>", None)
    assert not invented_offset("2024-09-03T04:03:19+00:00", signals)
    assert invented_offset("2024-09-03T04:03:19+08:00", signals)  # a zone the page never names


@pytest.mark.parametrize(
    ("page", "url", "offset"),
    [
        (b'<html lang="zh-CN">', None, "+08:00"),
        (b"<html>", "https://news.sina.com.cn/c/1.shtml", "+08:00"),
        (b'<html lang="zh-TW">', None, "+08:00"),
        (b'<html lang="ja">', None, "+09:00"),
        (b'<meta http-equiv="Content-Language" content="ko-KR">', None, "+09:00"),
    ],
)
def test_a_chinese_or_other_regional_signal_supports_its_zone_only(page, url, offset):
    signals = zone_signals(page, url)
    assert not invented_offset(f"2024-09-03T04:03:19{offset}", signals)
    assert invented_offset("2024-09-03T04:03:19-05:00", signals)


def test_zh_alone_or_a_region_outside_the_table_infers_nothing():
    assert invented_offset("2024-09-03T04:03:19+08:00", zone_signals(b'<html lang="zh">', None))
    assert invented_offset("2024-09-03T04:03:19+08:00", zone_signals(b'<html lang="en-US">', None))
    assert not invented_offset("2024-09-03T04:03:19+08:00", zone_signals(b'<html lang="zh-SG">', None))


def test_value_offsets_are_normalised():
    assert value_offset("2024-09-03T04:03:19.5-0530") == "-05:30"
    assert value_offset("2024-09-03T04:03") is None


def test_a_declared_national_charset_is_a_regional_signal():
    signals = zone_signals(b'<meta http-equiv="Content-Type" content="text/html; charset=gb2312">', None)
    assert not invented_offset("2005-05-07T21:23:57+08:00", signals)
    assert invented_offset("2005-05-07T21:23:57+08:00", zone_signals(b'<meta charset="utf-8">', None))


def test_an_undeclared_national_charset_is_a_regional_signal_as_its_bytes_decode():
    # old portals' GBK pages declare no charset: the bytes themselves are the signal
    gbk = "<html><body><p>北京市今天发布了新的交通管理规定，自下月起施行。</p></body></html>".encode("gbk")
    assert not invented_offset("2005-05-07T21:23:57+08:00", zone_signals(gbk, None))
    assert invented_offset("2005-05-07T21:23:57+09:00", zone_signals(gbk, None))
    utf8 = gbk.decode("gbk").encode("utf-8")
    assert invented_offset("2005-05-07T21:23:57+08:00", zone_signals(utf8, None))


def test_the_pages_own_instant_in_another_offset_and_zone_abbreviations_are_supported():
    page = b'<script>{"datePublished":"2020-08-19T03:16:00.000Z"}</script><time datetime="2020-08-19T05:16">'
    signals = zone_signals(page, None)
    assert not invented_offset("2020-08-19T05:16:00+02:00", signals)  # 03:16Z, in the page's local clock
    assert invented_offset("2020-08-19T05:16:00+08:00", signals)  # another instant
    edt = zone_signals(b'"datePublished": "Tue, Sep 15 2020 10:01:41 EDT"', None)
    assert not invented_offset("2020-09-15T10:01:41-04:00", edt)


def test_a_declared_language_supports_its_zones_offset_at_that_date_summer_time_included():
    signals = zone_signals(b'<html lang="de-DE">', "https://example.de/a")
    assert not invented_offset("2022-02-03T15:34:00+01:00", signals)  # winter in Berlin
    assert not invented_offset("2022-07-03T15:34:00+02:00", signals)  # summer
    assert invented_offset("2022-02-03T15:34:00+02:00", signals)


def test_a_unix_time_the_page_writes_given_in_utc_invents_no_zone():
    # WeChat's shape: the publish time only as seconds since 1970 (1581517074 is 2020-02-12 14:17:54 UTC)
    signals = zone_signals(b'<html><script>var ct = "1581517074";</script>', None)
    assert not invented_offset("2020-02-12T14:17:54+00:00", signals)
    assert invented_offset("2020-02-12T22:17:54+08:00", signals)  # the same instant in a zone never named
    assert invented_offset("2020-02-13T14:17:54+00:00", signals)  # another instant


def test_milliseconds_are_a_unix_time_and_other_numbers_are_not():
    signals = zone_signals(b'<script>data = {"ts": 1581517074000, "id": "x1581517074"}</script>', None)
    assert not invented_offset("2020-02-12T14:17:54+00:00", signals)
    signals = zone_signals(b"<p>Order no. A1581517074</p>", None)
    assert invented_offset("2020-02-12T14:17:54+00:00", signals)


@pytest.mark.parametrize(
    "page",
    [b"<script>ct = 1581517074</script>", b"<script>{ct:  '1581517074'}</script>", b"<p>(1581517074)</p>",
     b"<p>at 1581517074</p>", b'<i data-t="1581517074">'],
)
def test_a_unix_time_is_read_after_any_delimiter_spaces_and_quote(page: bytes) -> None:
    assert not invented_offset("2020-02-12T14:17:54+00:00", zone_signals(page, None))


def test_a_page_of_white_space_is_read_once() -> None:
    # every space of a long run used to start a match that read the whole run: 20,000 spaces took 6 s,
    # this page would take hours
    page = b"<pre>" + b" \n" * 500_000 + b'</pre><script>var ct = "1581517074";</script>'
    assert not invented_offset("2020-02-12T14:17:54+00:00", zone_signals(page, None))


def test_a_north_american_zone_name_supports_that_days_offset_only():
    signals = zone_signals(b"<p>Updated March 4, 2025, 6:15 p.m. ET</p>", "https://example.com/a")
    assert not invented_offset("2025-03-04T18:15:00-05:00", signals)
    assert not invented_offset("2025-07-04T18:15:00-04:00", signals)
    assert invented_offset("2025-07-04T18:15:00-05:00", signals)  # summer: ET is -04:00
    assert invented_offset("2025-03-04T18:15:00+08:00", signals)


def test_a_german_clock_with_its_zone_supports_that_offset():
    signals = zone_signals(b"<p>Do 25.04.24 | 18:15 Uhr MESZ</p>", "https://example.com/a")
    assert not invented_offset("2024-04-25T18:15:00+02:00", signals)
    assert invented_offset("2024-04-25T18:15:00+01:00", signals)
