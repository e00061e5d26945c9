"""Every crawl is recorded in the store; `newscrawl report` flags a site whose article template changed."""

from __future__ import annotations

import re
import shutil
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from newscrawl.crawl.demo import DEMO_DIR
from newscrawl.crawl.history import bucket_median
from newscrawl.storage.history import CrawlFigures, drift, history, record_crawl

from .test_crawl_e2e import DEMO_ARTICLES, run

FULL = {"title": 1.0, "date": 1.0, "author": 0.8, "text": 1.0}


def crawl(db: sqlite3.Connection, n: int, records: int = 20, chars: int = 1200, **fill: float) -> None:
    record_crawl(db, CrawlFigures("sina", f"2026-11-{10 + n:02d}T08:00:00+00:00", records=records,
                                  fill={**FULL, **fill}, median_text_chars=chars))  # fmt: skip


def test_steady_crawls_raise_no_alert() -> None:
    db = sqlite3.connect(":memory:")
    for n, chars in enumerate([1200, 1150, 1300, 1100]):
        crawl(db, n, chars=chars, author=0.7 + n * 0.02)
    assert drift(db) == []


def test_a_fill_rate_that_falls_is_flagged_with_both_figures() -> None:
    db = sqlite3.connect(":memory:")
    for n in range(3):
        crawl(db, n)
    crawl(db, 3, date=0.1)
    (alert,) = drift(db)
    assert (alert.site, alert.what, alert.latest, alert.baseline) == ("sina", "fill rate of date", 0.1, 1.0)
    assert str(alert) == "sina: fill rate of date fell to 10% from 100%"


def test_a_crawl_without_records_after_good_ones_is_flagged() -> None:
    db = sqlite3.connect(":memory:")
    crawl(db, 0)
    crawl(db, 1, records=0)
    assert [str(a) for a in drift(db)] == ["sina: records fell to 0 from 20"]


def test_a_first_crawl_has_no_baseline_and_a_small_one_is_judged_by_its_records_only() -> None:
    db = sqlite3.connect(":memory:")
    crawl(db, 0, date=0.0)
    assert drift(db) == []
    crawl(db, 1, records=2, date=0.0)  # too few records to judge its fill rates
    assert [str(a) for a in drift(db)] == ["sina: records fell to 2 from 20"]


def test_bucket_median() -> None:
    assert bucket_median(Counter()) is None
    assert bucket_median(Counter({100: 3, 2000: 2})) == 100


def demo_crawl(site_dir: Path, out: Path) -> None:
    code = (
        "import sys; from newscrawl.crawl.demo import run_demo; "
        "s = run_demo(sys.argv[1], incremental=True, settings={'NEWSCRAWL_INCREMENTAL': False}, "
        "directory=sys.argv[2]); sys.exit(0 if s.get('finish_reason') == 'finished' else 1)"
    )
    run([sys.executable, "-c", code, str(out), str(site_dir)], cwd=out.parent)


@pytest.fixture(scope="module")
def drifted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo crawled twice as it is, then once after its article template lost the body paragraphs'
    markup: the text moved into a script that fills the page in (as JavaScript-rendered portals do)."""
    root = tmp_path_factory.mktemp("drift")
    site = root / "site"
    shutil.copytree(DEMO_DIR, site)
    out = root / "output"
    demo_crawl(site, out)
    demo_crawl(site, out)
    for page in site.rglob("doc-*.shtml"):
        raw = page.read_bytes()
        charset = "gb18030" if b"charset" not in raw[:400].lower() else "utf-8"
        try:
            html = raw.decode(charset)
        except UnicodeDecodeError:
            continue
        html = re.sub(r"<p>(.*?)</p>", lambda m: f"<script>render({len(m.group(1))})</script>", html)
        page.write_bytes(html.encode(charset))
    demo_crawl(site, out)
    return out / "demo.sqlite3"


def test_every_demo_crawl_is_recorded(drifted: Path) -> None:
    with sqlite3.connect(drifted) as db:
        crawls = history(db, "demo")
    assert len(crawls) == 3
    first = crawls[0]
    assert first.records == DEMO_ARTICLES and first.pages > DEMO_ARTICLES
    assert first.fill["title"] == 1.0 and first.fill["text"] == 1.0 and first.median_text_chars
    assert first.algorithms and first.dropped.get("binary") == 1


def test_report_flags_the_changed_template_and_exits_non_zero(drifted: Path, tmp_path: Path) -> None:
    chart = tmp_path / "report.html"
    done = subprocess.run(
        [sys.executable, "-m", "newscrawl.cli", "report", "--db", str(drifted), "--chart", str(chart)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "DRIFT" in done.stdout and re.search(r"demo: (median text length|records|fill rate)", done.stdout)
    assert "demo: 3 crawl(s)" in done.stdout
    assert chart.read_text(encoding="utf-8").count("<svg") == 1


def test_report_without_a_store_is_a_usage_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "newscrawl.cli", "report", "--db", str(tmp_path / "none.sqlite3")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and "no store" in done.stderr
