"""Every crawl ends with a summary and a JSON stats file; failed requests give one line per error and host."""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
from pathlib import Path

from scrapy import Request
from scrapy.settings import Settings

from newscrawl.bench.site import crawler_env, site_toml
from newscrawl.crawl.summary import ErrorDigest, crawl_summary, format_summary, stats_path

TIMEOUT = 90


def failed_request_line(url: str, logger: str = "scrapy.core.scraper") -> logging.LogRecord:
    try:
        raise ConnectionRefusedError("Connection was refused by other side")
    except ConnectionRefusedError:
        exc_info = sys.exc_info()
    return logging.LogRecord(
        logger, logging.ERROR, __file__, 1, "Error downloading %(request)s", ({"request": Request(url)},),
        exc_info,
    )


def test_one_line_per_error_type_and_host_without_traceback():
    digest = ErrorDigest()
    hosts = ["a.test", "a.test", "b.test"]
    records = [failed_request_line(f"http://{host}/{n}") for n, host in enumerate(hosts)]
    assert [digest.filter(r) for r in records] == [True, False, True]
    assert records[0].exc_info is None
    assert "further ConnectionRefusedError on a.test" in records[0].getMessage()
    error = "ConnectionRefusedError"
    assert digest.counts == {(error, "a.test"): 2, (error, "b.test"): 1}


def test_a_line_seen_by_two_handlers_is_decided_and_counted_once():
    digest = ErrorDigest()
    record = failed_request_line("http://a.test/1")
    assert digest.filter(record) and digest.filter(record)
    assert digest.counts == {("ConnectionRefusedError", "a.test"): 1}


def test_retry_lines_are_shown_once_but_not_counted():
    digest = ErrorDigest()
    retry = logging.LogRecord(
        "scrapy.downloadermiddlewares.retry", logging.ERROR, __file__, 1,
        "Gave up retrying %(request)s (failed %(retry_times)d times): %(reason)s",
        ({"request": Request("http://a.test/x"), "retry_times": 3, "reason": "503 Service Unavailable"},),
        None,
    )
    assert digest.filter(retry) and digest.counts == {}
    assert "further HTTP 503 Service Unavailable on a.test" in retry.getMessage()


def test_other_log_lines_pass_untouched():
    digest = ErrorDigest()
    line = logging.LogRecord("x", logging.ERROR, __file__, 1, "disk %s", ("full",), None)
    assert digest.filter(line) and line.getMessage() == "disk full"


STATS = {
    "response_received_count": 5,
    "downloader/response_status_count/200": 4,
    "downloader/response_status_count/404": 1,
    "newscrawl/pages/article": 3,
    "newscrawl/pages/list": 1,
    "item_scraped_count": 2,
    "newscrawl/dropped/no_text": 1,
    "newscrawl/errors/ConnectionRefusedError/b.test": 2,
    "newscrawl/extract/count": 3,
    "newscrawl/fill/a/records": 2,
    "newscrawl/fill/a/title": 2,
    "newscrawl/fill/a/text": 2,
    "newscrawl/fill/a/date": 1,
    "finish_reason": "finished",
}


def test_no_response_means_every_request_failed():
    assert crawl_summary({"downloader/request_count": 4})["no_response"]
    # a process of a distributed crawl that found the shared frontier empty sent nothing: not a failure
    assert not crawl_summary({})["no_response"]
    assert not crawl_summary(STATS)["no_response"]


def test_summary_counts_what_the_crawl_did():
    summary = crawl_summary(STATS)
    assert summary["responses_by_status"] == {"200": 4, "404": 1}
    assert summary["pages_by_kind"] == {"article": 3, "list": 1} and summary["records"] == 2
    assert summary["dropped"] == {"no_text": 1}
    assert summary["errors"] == {"ConnectionRefusedError": {"b.test": 2}}
    rates = {"records": 2, "title": 1.0, "date": 0.5, "author": 0.0, "text": 1.0}
    assert summary["fill_rates"] == {"a": rates}
    text = format_summary(summary)
    assert "ConnectionRefusedError on b.test 2" in text and "title 100%, date 50%, author 0%" in text


def test_stats_file_goes_beside_the_outputs(tmp_path):
    feed = Settings({"FEEDS": {str(tmp_path / "sina.jsonl"): {"format": "jsonlines"}}})
    assert stats_path(feed, "sina") == tmp_path / "sina.stats.json"
    store = Settings({"NEWSCRAWL_SQLITE_PATH": str(tmp_path / "db" / "x.sqlite3")})
    assert stats_path(store, "sina") == tmp_path / "db" / "sina.stats.json"
    given = Settings({"NEWSCRAWL_STATS_FILE": str(tmp_path / "s.json"), "NEWSCRAWL_SQLITE_PATH": ""})
    assert stats_path(given, "sina") == tmp_path / "s.json"
    assert stats_path(Settings({"NEWSCRAWL_SQLITE_PATH": ""}), "sina") is None


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_crawl_without_a_response_exits_non_zero_with_one_line_per_error(tmp_path: Path):
    (tmp_path / "sites").mkdir()
    (tmp_path / "sites" / "bench.toml").write_text(site_toml(f"http://127.0.0.1:{closed_port()}"))
    feed = tmp_path / "out" / "bench.jsonl"
    args = [sys.executable, "-m", "scrapy", "crawl", "bench", "-O", str(feed),
            "-s", f"NEWSCRAWL_SITES_DIR={tmp_path / 'sites'}", "-s", "NEWSCRAWL_SQLITE_PATH=",
            "-s", "NEWSCRAWL_EXTRACT_WORKERS=0"]
    env = crawler_env()
    done = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if "] ERROR:" in line]
    assert len(errors) == 1 and "ConnectionRefusedError" in errors[0], errors  # Scrapy's retry line
    assert "no response was received" in done.stderr
    summary = json.loads((feed.parent / "bench.stats.json").read_text())["summary"]
    assert summary["responses"] == 0 and summary["finish_reason"] == "finished"
    [(error, hosts)] = summary["errors"].items()
    assert "ConnectionRefused" in error and list(hosts) == ["127.0.0.1"]
