"""Date search in text and structured values (newscrawl.extract.metadata.dates): bounded work."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest

from newscrawl.extract import extract
from newscrawl.extract.metadata import dates
from newscrawl.extract.metadata.dates import MAX_DATE_CANDIDATES, find_dates, parse_value

#: the issue-14 input: one date repeated 8,000 times (88 kB) in a single value
REPEATED = "2024-01-01 " * 8000
BODY = "<p>" + "这是一段新闻正文，讲述了本地发生的一件事情。" * 12 + "</p>"


def distinct_days(n: int) -> str:
    start = date(2000, 1, 1)
    return " ".join((start + timedelta(days=i)).isoformat() for i in range(n))


def test_a_repeated_date_gives_one_hit():
    hits = find_dates(REPEATED)
    assert [h.when for h in hits] == [datetime(2024, 1, 1)]


def test_distinct_dates_are_capped():
    hits = find_dates(distinct_days(3 * MAX_DATE_CANDIDATES))
    assert len(hits) == MAX_DATE_CANDIDATES
    assert hits[0].when == datetime(2000, 1, 1)


def test_candidates_looked_at_are_capped(monkeypatch: pytest.MonkeyPatch):
    calls = 0
    real = dates._with_time

    def counting(*args):
        nonlocal calls
        calls += 1
        return real(*args)

    monkeypatch.setattr(dates, "_with_time", counting)
    assert parse_value(REPEATED) == datetime(2024, 1, 1)
    find_dates(REPEATED + distinct_days(1000))
    assert 0 < calls <= 2 * MAX_DATE_CANDIDATES


@pytest.mark.parametrize(
    "head, top",
    [
        (f'<meta property="article:published_time" content="{REPEATED}">', ""),
        (f'<script type="application/ld+json">{{"datePublished":"{REPEATED}"}}</script>', ""),
        ("", f'<time datetime="{REPEATED}">x</time>'),
    ],
    ids=["meta", "json-ld", "time"],
)
def test_a_value_repeating_a_date_thousands_of_times_is_read_once(head: str, top: str):
    html = f"<html><head>{head}</head><body><h1>T</h1>{top}<div>{BODY}{BODY}</div></body></html>"
    r = extract(html, timezone=None)
    assert r.error is None
    assert r.published_at is not None and r.published_at.startswith("2024-01-01")


def test_a_stamp_keeps_the_precision_of_the_value():
    from newscrawl.extract.metadata.dates import parse_stamp

    assert [parse_stamp(v).has_time for v in ("2024-09-03", "2024-09-03T04:03", "2024年9月3日")] == [
        False, True, False,
    ]
    naive, aware = parse_stamp("2024-09-03 04:03:19"), parse_stamp("2024-09-03T04:03:19+02:00")
    assert (naive.when.tzinfo, naive.offset_from, aware.offset_from) == (None, None, "page")
    assert parse_stamp("1725336199").offset_from == "instant"


def test_before_compares_dates_by_day_and_naive_times_in_the_cutoffs_zone():
    from datetime import UTC

    from newscrawl.extract.metadata.dates import before, parse_stamp

    cutoff = datetime(2024, 9, 3, 12, 0, tzinfo=UTC)
    assert not before(parse_stamp("2024-09-03"), cutoff)
    assert before(parse_stamp("2024-09-02"), cutoff)
    assert before(parse_stamp("2024-09-03T11:00:00"), cutoff)
    assert not before(parse_stamp("2024-09-03T13:00:00+00:00"), cutoff)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("20 septembrie 2020 16:20", "2020-09-20T16:20:00"),
        ("5 марта 2020 г.", "2020-03-05T00:00:00"),
        ("3 października 2019", "2019-10-03T00:00:00"),
        ("12 Mart 2021", "2021-03-12T00:00:00"),
        ("29. listopadu 2022", "2022-11-29T00:00:00"),
        ("17 вересня 2021", "2021-09-17T00:00:00"),
        ("den 4 augusti 2020", "2020-08-04T00:00:00"),
    ],
)
def test_month_names_of_more_languages(text, expected):
    assert [h.when.isoformat() for h in find_dates(text)] == [expected]


def test_last_edited_is_not_a_publish_label():
    hits = find_dates("page revision: 8, last edited: 17 Jun 2018 15:15")
    assert [h.label for h in hits] == [dates.UPDATE_LABEL]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Do 25.04.24 | 14:07 Uhr", "2024-04-25T14:07:00"),
        ("3 May 2024 · 10:15", "2024-05-03T10:15:00"),
        ("2024-04-25 • 09:30", "2024-04-25T09:30:00"),
        ("Publié le : 06/02/2022 - 13:48", "2022-02-06T13:48:00"),
        ("21.01.2022 \u2013 13:30", "2022-01-21T13:30:00"),
        ("Nov 8, 2023 / 10:35 PM", "2023-11-08T22:35:00"),
    ],
)
def test_a_time_set_off_from_its_date_by_a_bar_dot_dash_or_slash_belongs_to_it(text, expected):
    assert [h.when.isoformat() for h in find_dates(text)] == [expected]


def test_a_bar_without_a_time_after_it_leaves_the_date_alone():
    hits = find_dates("Antenne Brandenburg | 24.04.2024 | Eva Kirchner")
    assert [(h.when.isoformat(), h.has_time) for h in hits] == [("2024-04-24T00:00:00", False)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a zone name after the time, as pages write it: in capitals
        ("Mar 3, 2021 10:00 AM EST", "2021-03-03T10:00:00-05:00"),
        ("4 March 2025 18:15 CEST", "2025-03-04T18:15:00+02:00"),
        ("4. März 2025 um 18:15 Uhr MEZ", "2025-03-04T18:15:00+01:00"),
        ("3 March 2025 09:00 AEDT", "2025-03-03T09:00:00+11:00"),
        # North American zone names without summer or winter time: that day's offset
        ("March 4, 2025, 6:15 p.m. ET", "2025-03-04T18:15:00-05:00"),
        ("July 4, 2025, 6:15 p.m. ET", "2025-07-04T18:15:00-04:00"),
        ("July 4, 2025 at 9:00 AM PT", "2025-07-04T09:00:00-07:00"),
        # words that are not zones: French "est" (is) and "et" (and), an unknown or ambiguous name
        ("4 mars 2025 à 18:15 est publié", "2025-03-04T18:15:00"),
        ("4 mars 2025 à 18:15 et mis à jour", "2025-03-04T18:15:00"),
        ("March 4, 2025 6:15 pm est", "2025-03-04T18:15:00"),
        ("March 4, 2025 6:15 PM CST", "2025-03-04T18:15:00"),
        ("March 4, 2025 6:15 PM IN Delhi", "2025-03-04T18:15:00"),
    ],
)
def test_a_zone_written_after_the_time_gives_its_offset_and_nothing_else_does(text, expected):
    assert parse_value(text).isoformat() == expected


def test_a_byline_time_in_eastern_time_is_published_in_its_offset():
    page = (
        "<html lang='en'><head><title>Council approves bike lanes</title></head><body><article>"
        "<h1>Council approves bike lanes</h1><p class='dateline'>Published March 4, 2025, 6:15 p.m. ET</p>"
        + "<p>" + "The council voted on Tuesday evening to approve protected bike lanes. " * 6 + "</p>"
        + "</article></body></html>"
    )
    got = extract(page.encode(), "https://example.com/local/bike-lanes")
    assert got.published_at == "2025-03-04T18:15:00-05:00"
    assert got.sources["published_at_zone"] == "page"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a dot between hour and minute before a zone name or am/pm: the Guardian, British papers
        ("Tue 4 Mar 2025 18.15 GMT", "2025-03-04T18:15:00+00:00"),
        ("4 March 2025 6.15pm", "2025-03-04T18:15:00"),
        # a price after a date is no time
        ("4 March 2025 12.50 EUR", "2025-03-04T00:00:00"),
        # Korean dates, with 오전/오후 and a full stop after the date (Naver's "입력 2025.03.04. 오후 6:15")
        ("2025년 3월 4일 18:15", "2025-03-04T18:15:00"),
        ("2025년 3월 4일 오후 6시 15분", "2025-03-04T18:15:00"),
        ("2025.03.04. 오후 6:15", "2025-03-04T18:15:00"),
        ("2025.03.04. 오전 12:05", "2025-03-04T00:05:00"),
    ],
)
def test_times_written_with_a_dot_and_korean_dates(text, expected):
    assert parse_value(text).isoformat() == expected
    assert [h.when.isoformat() for h in find_dates(text)] == [expected]


def test_korean_and_japanese_labels_tell_published_from_updated():
    korean = "입력 2025.03.04. 오후 6:15 수정 2025.03.05. 오전 9:01"
    text = korean + " 公開日：2025年3月1日 更新日：2025年3月2日"
    hits = find_dates(text)
    assert [h.label for h in hits] == [1, dates.UPDATE_LABEL, 1, dates.UPDATE_LABEL]
