"""JobdirGuard: a JOBDIR left by a killed crawl has its request queue and seen requests reset."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.settings import Settings
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from newscrawl.crawl.jobdir import RUNNING_MARK, JobdirAddon, JobdirGuard


def left_by_a_crawl(jobdir: Path, *, killed: bool) -> Path:
    """A JOBDIR as a crawl leaves it: seen requests, a queue, the spider's state; marked when killed."""
    (jobdir / "requests.queue" / "p0").mkdir(parents=True)
    (jobdir / "requests.queue" / "p0" / "0").write_bytes(b"\0\0\0\0stale")
    (jobdir / "requests.seen").write_bytes(b"\0\x14" + bytes(20))
    (jobdir / "spider.state").write_bytes(b"state")
    if killed:
        (jobdir / RUNNING_MARK).write_text("12345\n")
    return jobdir


def guard_for(jobdir: Path | None) -> JobdirGuard:
    crawler = get_crawler(settings_dict={"JOBDIR": str(jobdir)} if jobdir else {})
    return build_from_crawler(JobdirGuard, crawler)


def test_off_without_jobdir():
    with pytest.raises(NotConfigured):
        guard_for(None)


def test_killed_crawls_queue_and_seen_requests_are_reset(tmp_path, caplog):
    jobdir = left_by_a_crawl(tmp_path, killed=True)
    guard = guard_for(jobdir)
    assert guard.unclean
    assert not (jobdir / "requests.seen").exists() and not (jobdir / "requests.queue").exists()
    assert (jobdir / "spider.state").read_bytes() == b"state"
    assert "did not close" in caplog.text and str(jobdir) in caplog.text


def test_cleanly_paused_crawl_keeps_its_queue(tmp_path):
    jobdir = left_by_a_crawl(tmp_path, killed=False)
    assert not guard_for(jobdir).unclean
    assert (jobdir / "requests.seen").exists() and (jobdir / "requests.queue" / "p0" / "0").exists()


def test_a_crawl_that_never_opened_leaves_no_mark(tmp_path):
    guard_for(tmp_path / "job")
    assert not (tmp_path / "job" / RUNNING_MARK).exists()


def test_running_crawl_is_marked_until_it_closes(tmp_path):
    guard = guard_for(tmp_path / "job")
    guard.spider_opened(None)  # type: ignore[arg-type]
    assert (tmp_path / "job" / RUNNING_MARK).exists()
    guard.spider_closed(None, "finished")  # type: ignore[arg-type]
    assert not (tmp_path / "job" / RUNNING_MARK).exists()


def test_unclean_resume_is_counted(tmp_path):
    crawler = get_crawler(settings_dict={"JOBDIR": str(left_by_a_crawl(tmp_path, killed=True))})
    guard = build_from_crawler(JobdirGuard, crawler)
    guard.spider_opened(None)  # type: ignore[arg-type]
    assert crawler.stats.get_value("newscrawl/jobdir/unclean_resume") == 1


def test_addon_installs_the_guard_even_when_the_project_sets_extensions():
    settings = Settings({"EXTENSIONS": {"newscrawl.crawl.distributed.IdleClose": 10}}, priority="project")
    JobdirAddon().update_settings(settings)
    extensions = settings.getdict("EXTENSIONS")
    assert JobdirGuard in extensions and extensions["newscrawl.crawl.distributed.IdleClose"] == 10


def test_a_crawl_whose_store_lost_records_at_close_keeps_its_mark(tmp_path):
    # the store's last write failed after the crawl had finished: those pages are seen yet not stored
    crawler = get_crawler(settings_dict={"JOBDIR": str(tmp_path / "job")})
    guard = build_from_crawler(JobdirGuard, crawler)
    guard.spider_opened(None)  # type: ignore[arg-type]
    crawler.stats.set_value("newscrawl/sqlite/write_failed", 3)
    guard.spider_closed(None, "finished")  # type: ignore[arg-type]
    assert (tmp_path / "job" / RUNNING_MARK).exists()
