"""The history of crawls in the SQLite store, and layout-drift checks over it.

Every crawl adds one row to the ``crawls`` table (:func:`record_crawl`): the site, when it ran, pages
fetched, records written, the share of records with a title, a publish time, an author and a text, the
median text length, the extractors used and the drops by reason. A site's layout change that breaks
extraction shows there first: the fill rates or the median text length fall while the crawl still
"finishes". :func:`drift` compares a site's latest crawl with the median of its previous ones.

>>> db = sqlite3.connect(":memory:")
>>> for n, chars in enumerate([1200, 1180, 1250, 140]):
...     _ = record_crawl(db, CrawlFigures("demo", f"2026-11-2{n}T08:00:00+00:00", records=20,
...                       fill={"title": 1.0, "date": 1.0, "author": 0.9, "text": 1.0},
...                       median_text_chars=chars))
>>> [a.what for a in drift(db)]
['median text length']
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

TABLE = "crawls"
#: the record fields whose fill rate is kept, by the name reports use
FILL_FIELDS: Mapping[str, str] = {
    "title": "title", "date": "published_at", "author": "author", "text": "text",
}  # fmt: skip
#: a fill rate this much (absolute) below the previous crawls' median is flagged
FILL_DROP = 0.2
#: a median text length below this share of the previous crawls' median is flagged
LENGTH_SHARE = 0.5
#: previous crawls the latest one is compared with (their median)
BASELINE_CRAWLS = 5
#: a crawl with fewer records than this share of the previous crawls' median is flagged
RECORDS_SHARE = 0.5
#: crawls with fewer records than this are too small to judge their fill rates and lengths
MIN_RECORDS = 5

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site TEXT NOT NULL,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    finish_reason TEXT,
    pages INTEGER NOT NULL DEFAULT 0,
    records INTEGER NOT NULL DEFAULT 0,
    fill_title REAL, fill_date REAL, fill_author REAL, fill_text REAL,
    median_text_chars INTEGER,
    algorithms TEXT,
    dropped TEXT
);
CREATE INDEX IF NOT EXISTS {TABLE}_site ON {TABLE}(site, started_at);
"""


@dataclass(frozen=True, slots=True)
class CrawlFigures:
    """What one crawl of one site gave."""

    site: str
    started_at: str
    finished_at: str | None = None
    finish_reason: str | None = None
    pages: int = 0
    records: int = 0
    fill: Mapping[str, float | None] = field(default_factory=dict)  # by FILL_FIELDS name
    median_text_chars: int | None = None
    algorithms: Mapping[str, int] = field(default_factory=dict)
    dropped: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Alert:
    """A site whose latest crawl fell below its previous ones."""

    site: str
    what: str  # "fill rate of date", "median text length"
    latest: float
    baseline: float

    def __str__(self) -> str:
        if self.what == "median text length":
            chars = f"{self.latest:.0f} characters from {self.baseline:.0f}"
            return f"{self.site}: median text length fell to {chars}"
        if self.what == "records":
            return f"{self.site}: records fell to {self.latest:.0f} from {self.baseline:.0f}"
        return f"{self.site}: {self.what} fell to {self.latest:.0%} from {self.baseline:.0%}"


def ensure_table(db: sqlite3.Connection) -> None:
    db.executescript(_SCHEMA)


def record_crawl(db: sqlite3.Connection, figures: CrawlFigures) -> int:
    """Add one crawl's row; returns its id."""
    ensure_table(db)
    with db:
        cur = db.execute(
            f"INSERT INTO {TABLE} (site, started_at, finished_at, finish_reason, pages, records, fill_title, "
            "fill_date, fill_author, fill_text, median_text_chars, algorithms, dropped) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                figures.site, figures.started_at, figures.finished_at, figures.finish_reason, figures.pages,
                figures.records, *(figures.fill.get(name) for name in FILL_FIELDS), figures.median_text_chars,
                json.dumps(dict(figures.algorithms), sort_keys=True),
                json.dumps(dict(figures.dropped), sort_keys=True),
            ),
        )  # fmt: skip
    return int(cur.lastrowid or 0)


def history(db: sqlite3.Connection, site: str | None = None) -> list[CrawlFigures]:
    """Every recorded crawl (of ``site``), oldest first; none when the store has no history."""
    exists = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (TABLE,)).fetchone()
    if not exists:
        return []
    where, args = ("WHERE site = ?", (site,)) if site else ("", ())
    rows = db.execute(
        f"SELECT site, started_at, finished_at, finish_reason, pages, records, fill_title, fill_date, "
        f"fill_author, fill_text, median_text_chars, algorithms, dropped FROM {TABLE} {where} "
        "ORDER BY started_at, id",
        args,
    ).fetchall()
    return [
        CrawlFigures(
            site=r[0], started_at=r[1], finished_at=r[2], finish_reason=r[3], pages=r[4], records=r[5],
            fill=dict(zip(FILL_FIELDS, r[6:10], strict=True)), median_text_chars=r[10],
            algorithms=_json(r[11]), dropped=_json(r[12]),
        )  # fmt: skip
        for r in rows
    ]


def _json(value: str | None) -> dict[str, Any]:
    try:
        loaded = json.loads(value or "{}")
    except ValueError:
        return {}
    return loaded if isinstance(loaded, dict) else {}


def drift(
    db: sqlite3.Connection,
    site: str | None = None,
    *,
    fill_drop: float = FILL_DROP,
    length_share: float = LENGTH_SHARE,
    baseline_crawls: int = BASELINE_CRAWLS,
) -> list[Alert]:
    """Sites whose latest crawl's fill rates or median text length fell against their previous crawls.

    A fill rate is flagged when it is more than ``fill_drop`` below the median of up to
    ``baseline_crawls`` previous crawls; the median text length when it is under ``length_share`` of
    theirs; the number of records when it is under :data:`RECORDS_SHARE` of theirs (a crawl stopped
    early, with ``max_pages`` say, is flagged too). The fill rates and lengths of crawls with fewer than
    :data:`MIN_RECORDS` records are not judged, and such crawls are no baseline.
    """
    import statistics  # here, not at the top: ``newscrawl --help`` and ``extract`` need only the thresholds

    by_site: dict[str, list[CrawlFigures]] = {}
    for crawl in history(db, site):
        by_site.setdefault(crawl.site, []).append(crawl)
    alerts: list[Alert] = []
    for name, crawls in sorted(by_site.items()):
        *before, latest = crawls
        baseline = [c for c in before if c.records >= MIN_RECORDS][-baseline_crawls:]
        if not baseline:
            continue
        usual = statistics.median(c.records for c in baseline)
        if latest.records < RECORDS_SHARE * usual:
            alerts.append(Alert(name, "records", latest.records, usual))
        if latest.records < MIN_RECORDS:
            continue
        for label in FILL_FIELDS:
            past = [value for c in baseline if (value := c.fill.get(label)) is not None]
            now = latest.fill.get(label)
            if past and now is not None and now < statistics.median(past) - fill_drop:
                alerts.append(Alert(name, f"fill rate of {label}", now, statistics.median(past)))
        past_len = [c.median_text_chars for c in baseline if c.median_text_chars]
        now_len = latest.median_text_chars
        if past_len and now_len is not None and now_len < length_share * statistics.median(past_len):
            alerts.append(Alert(name, "median text length", now_len, statistics.median(past_len)))
    return alerts


def drift_chart(crawls: Sequence[CrawlFigures]) -> str:
    """An inline SVG of one site's fill rates (left, 0-100%) and median text length over its crawls."""
    from newscrawl.explain.svg import Series, chart

    colors = {"title": "#1f77b4", "date": "#ff7f0e", "author": "#2ca02c", "text": "#d62728"}
    series = []
    for label, hue in colors.items():
        points = [(n, 100 * (c.fill.get(label) or 0)) for n, c in enumerate(crawls, 1)]
        series.append(Series(f"{label} filled %", points, hue))
    longest = max((c.median_text_chars or 0 for c in crawls), default=0) or 1
    series.append(
        Series(
            f"median text length (100 = {longest} chars)",
            [(i + 1, 100 * (c.median_text_chars or 0) / longest) for i, c in enumerate(crawls)],
            "#555555",
            "dots",
        )
    )
    site = crawls[-1].site if crawls else "?"
    return chart(series, title=f"{site}: crawls", x_label="crawl", y_label="%")
