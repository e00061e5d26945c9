"""The extraction worker pool: tasks run in other processes; a crash, hang or error costs one task."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from newscrawl.crawl.config import extract_workers, kill_after
from newscrawl.crawl.errors import ConfigError
from newscrawl.crawl.workers import (
    PageTask,
    WorkerFailed,
    WorkerPool,
    default_workers,
    page_job,
    page_result,
    run_page_job,
)
from newscrawl.pipelines.normalize import clean_text, content_hash
from newscrawl.storage.dedup import simhash

from .helpers import article_html
from .workers_support import echo, misbehave, sigint_handler

#: seconds a test waits for one answer (a worker's start included, on a loaded machine)
WAIT = 60


@pytest.fixture
def pool_of() -> Iterator:
    pools: list[WorkerPool] = []

    def make(task, workers: int = 1, **kwargs) -> WorkerPool:
        pool = WorkerPool(task, workers, **kwargs)
        pool.start()
        pools.append(pool)
        return pool

    yield make
    for pool in pools:
        pool.close()


def test_tasks_run_in_worker_processes(pool_of):
    pool = pool_of(echo, workers=2)
    answers = [pool.submit(n).result(WAIT) for n in range(6)]
    assert [value for _, value in answers] == list(range(6))
    assert os.getpid() not in {pid for pid, _ in answers}


@pytest.mark.parametrize("how", ["crash", "exit"])
def test_a_crashing_page_costs_that_page_only(pool_of, how):
    pool = pool_of(misbehave)
    first = pool.submit("ok").result(WAIT)
    with pytest.raises(WorkerFailed, match="worker crashed") as failed:
        pool.submit(how).result(WAIT)
    assert failed.value.how == "crashed"
    replacement = pool.submit("ok").result(WAIT)
    assert replacement != first and pool.crashed == 1 and pool.started == 2


def test_a_hanging_page_is_killed_and_its_worker_replaced(pool_of):
    pool = pool_of(misbehave, kill_after=0.5)
    with pytest.raises(WorkerFailed, match="killed") as failed:
        pool.submit("hang").result(WAIT)
    assert failed.value.how == "killed" and pool.killed == 1
    assert pool.submit("ok").result(WAIT) and pool.started == 2


def test_an_error_in_the_task_keeps_the_worker(pool_of):
    pool = pool_of(misbehave)
    with pytest.raises(RuntimeError, match="ValueError: bad page"):
        pool.submit("raise").result(WAIT)
    pool.submit("ok").result(WAIT)
    assert pool.started == 1


def test_workers_ignore_ctrl_c(pool_of):
    # a Ctrl-C reaches the whole process group; the crawler drains its workers, they must not die first
    assert pool_of(sigint_handler).submit(None).result(WAIT) == "ignored"


def test_close_finishes_queued_tasks_and_reports_peak_memory_and_cpu():
    pool = WorkerPool(echo, 2)
    pool.start()
    futures = [pool.submit(n) for n in range(10)]
    pool.close()
    assert [f.result(0)[1] for f in futures] == list(range(10))
    assert len(pool.peak_rss_kib) == 2 and all(kib > 1000 for kib in pool.peak_rss_kib)
    assert len(pool.cpu_seconds) == 2 and all(seconds > 0 for seconds in pool.cpu_seconds)


def test_bad_pool_arguments_raise():
    with pytest.raises(ValueError, match="workers"):
        WorkerPool(echo, 0)
    with pytest.raises(ValueError, match="kill_after"):
        WorkerPool(echo, 1, kill_after=0)


def test_page_job_answer_crosses_a_pipe_unchanged():
    task = PageTask(body=article_html().encode(), url="https://news.example.cn/a.shtml", fingerprint=True)
    direct = page_job(task)
    assert page_result(run_page_job(task)) == direct
    text = clean_text(direct.extraction.text)
    assert direct.fingerprint == (content_hash(text), simhash(text))


def test_page_job_in_a_worker_matches_inline(pool_of):
    task = PageTask(body=article_html().encode(), url="https://news.example.cn/a.shtml", page_kind="article")
    answer = page_result(pool_of(run_page_job).submit(task).result(WAIT))
    assert answer == page_job(task) and answer.extraction.text


def test_worker_settings():
    assert extract_workers({}) == default_workers() >= 1
    assert extract_workers({"NEWSCRAWL_EXTRACT_WORKERS": "0"}) == 0
    assert kill_after({"NEWSCRAWL_EXTRACT_KILL_AFTER": "0"}) is None
    assert kill_after({"NEWSCRAWL_EXTRACT_KILL_AFTER": 2}) == 2.0
    with pytest.raises(ConfigError, match="^NEWSCRAWL_EXTRACT_WORKERS: must be 0"):
        extract_workers({"NEWSCRAWL_EXTRACT_WORKERS": "-1"})
    with pytest.raises(ConfigError, match="^NEWSCRAWL_EXTRACT_KILL_AFTER: expected seconds"):
        kill_after({"NEWSCRAWL_EXTRACT_KILL_AFTER": "soon"})
