"""The extraction worker pool: tasks run in other processes; a crash, hang or error costs one task."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from newscrawl.bench.pages import SITE_NAME, serve, site_toml
from newscrawl.bench.site import crawler_env
from newscrawl.crawl import workers
from newscrawl.crawl.config import extract_workers, kill_after
from newscrawl.crawl.errors import ConfigError
from newscrawl.crawl.workers import (
    Fingerprint,
    PageTask,
    WorkerFailed,
    WorkerPool,
    default_workers,
    page_job,
    page_result,
    run_page_job,
)
from newscrawl.extract import Extraction
from newscrawl.pipelines.normalize import clean_text, content_hash
from newscrawl.storage.dedup import simhash

from .helpers import article_html
from .workers_support import echo, loaded, misbehave, sigint_handler, warm_state

PARAGRAPH = "临江市今天召开新闻发布会，介绍了今年以来城市建设的进展，相关负责人表示下一步将继续推进。"
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


@pytest.mark.parametrize("how", ["crash", "hang"])
def test_the_pages_queued_in_a_lost_worker_go_to_its_replacement(pool_of, how):
    # a worker is handed the next page while it works on one: when it is lost, only its page fails
    pool = pool_of(misbehave, kill_after=1.0)
    first = pool.submit("ok").result(WAIT)
    futures = [pool.submit(what) for what in (how, "ok", "ok", "raise", "ok")]
    with pytest.raises(WorkerFailed):
        futures[0].result(WAIT)
    answers = [f.result(WAIT) for f in (futures[1], futures[2], futures[4])]
    with pytest.raises(RuntimeError, match="bad page"):
        futures[3].result(WAIT)
    assert len(set(answers)) == 1 and first not in answers
    assert pool.started == 2 and pool.crashed + pool.killed == 1


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


def test_workers_start_with_dateparser_warm_from_the_fork_server(pool_of):
    # no warm-up of their own: what they have loaded comes from the fork server they are forked from
    assert pool_of(loaded, warm=None).submit("dateparser").result(WAIT) is True


def test_workers_start_with_the_sample_pages_extracted_and_frozen_in_the_fork_server(pool_of):
    # the fork server extracted WARM_PAGES and froze its objects
    assert pool_of(warm_state, warm=None).submit(None).result(WAIT) == (True, True)


def test_workers_start_with_the_pool_not_on_the_first_task(pool_of):
    pool = pool_of(echo, workers=2)
    deadline = time.monotonic() + WAIT
    while pool.started < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pool.started == 2
    assert len({pid for pid, _ in (pool.submit(n).result(WAIT) for n in range(4))}) <= 2


PRESTART = """
import os, sys
from multiprocessing import forkserver
from newscrawl.crawl.workers import WorkerPool, prestart
sys.path.insert(0, {tests!r})
from crawl.workers_support import misbehave
prestart(misbehave, 1)
pool = WorkerPool(misbehave, 1)
pool.start()
first = pool.submit("ok").result(60)
print(first != os.getpid(), forkserver._forkserver._forkserver_pid is None, pool.started)
try:
    pool.submit("crash").result(60)
except Exception as e:
    print(type(e).__name__)
print(pool.submit("ok").result(60) != first, forkserver._forkserver._forkserver_pid is not None, pool.started)
pool.close()
"""


def test_a_pool_takes_the_workers_forked_ahead_and_replaces_them_from_its_fork_server():
    code = PRESTART.format(tests=str(Path(__file__).parents[1]))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["True", "True", "1", "WorkerFailed", "True", "True", "2"], done.stderr


def test_workers_are_not_forked_ahead_from_a_process_running_threads():
    code = (
        "import threading, time; from newscrawl.crawl.workers import prestart; "
        "from tests.crawl.workers_support import echo; "
        "threading.Thread(target=time.sleep, args=(2,), daemon=True).start(); prestart(echo, 1)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).parents[2])
    assert done.returncode == 1 and "runs threads" in done.stderr


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
    assert direct.fingerprint == Fingerprint(content_hash(text), simhash(text), text)


def test_the_answer_carries_the_cleaned_text_once(monkeypatch):
    task = PageTask(body=b"<p>x</p>", url="https://news.example.cn/a.shtml", fingerprint=True)
    for raw in ("第一段\n第二段", "第一段  \n\n\n  第二段 "):
        monkeypatch.setattr(workers, "extract", lambda *a, raw=raw, **k: Extraction(text=raw))
        _, (_, _, sent) = run_page_job(task)
        assert sent == (None if raw == "第一段\n第二段" else "第一段\n第二段")  # not sent when unchanged
        assert page_result(run_page_job(task)).fingerprint.text == "第一段\n第二段"


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


# -- a crawl: pages the spider must classify are extracted by the workers too ------------------------------


def crawl_unmatched_pages(tmp_path: Path, workers: int, count: int = 4) -> dict[str, Any]:
    """Crawl ``count`` article pages given as start URLs that no pattern of the site file knows (so the
    spider's page-kind classifier decides), with ``workers`` workers; the crawl's stats."""
    folder = tmp_path / "set" / "pages"
    folder.mkdir(parents=True)
    for n in range(count):
        body = "".join(f"<p>第{n}篇第{k}段：{PARAGRAPH}</p>" for k in range(5))
        html = f'<html><head><meta charset="utf-8"><title>新闻{n}</title></head><body><h1>新闻{n}</h1>{body}'
        (folder / f"{n:03d}.html").write_text(html + "</body></html>", encoding="utf-8")
    run_dir = tmp_path / f"run-{workers}"
    (run_dir / "sites").mkdir(parents=True)
    with serve([folder.parent]) as server:
        toml = site_toml(server.base_url).replace("/a/.+$", "/nothing-here/.+$")
        (run_dir / "sites" / f"{SITE_NAME}.toml").write_text(toml, encoding="utf-8")
        starts = ",".join(f"{server.base_url}/a/set/{n:03d}.html" for n in range(count))
        args = [sys.executable, "-m", "scrapy", "crawl", SITE_NAME, "-a", f"start_urls={starts}"]
        for name, value in {
            "NEWSCRAWL_SITES_DIR": run_dir / "sites",
            "NEWSCRAWL_SQLITE_PATH": run_dir / "store.sqlite3",
            "NEWSCRAWL_STATS_FILE": run_dir / "stats.json",
            "NEWSCRAWL_EXTRACT_WORKERS": workers,
        }.items():
            args += ["-s", f"{name}={value}"]
        env = crawler_env()
        done = subprocess.run(args, cwd=run_dir, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return dict(json.loads((run_dir / "stats.json").read_text(encoding="utf-8"))["stats"])


@pytest.mark.parametrize("workers", [0, 1])
def test_pages_the_spider_classifies_are_extracted_once_by_the_workers(tmp_path, workers):
    stats = crawl_unmatched_pages(tmp_path, workers)
    assert stats["newscrawl/pages/classified_article"] == 4 and stats["item_scraped_count"] == 4
    assert stats["newscrawl/extract/count"] == 4  # by the spider only: stage 1 keeps its extraction
    # workers start when their first task comes: here only the spider gives them tasks
    assert stats.get("newscrawl/workers/started", 0) == workers


LOOK_AHEAD = """
import os, sys, tempfile, time
from newscrawl.crawl.workers import WorkerPool, look_ahead, prestart
sys.path.insert(0, {tests!r})
from crawl.workers_support import Ahead, misbehave
mark = os.path.join(tempfile.mkdtemp(), "taken")
prestart(misbehave, 1)
print(look_ahead(misbehave, None, Ahead({ahead}, mark=mark)), look_ahead(misbehave, None, Ahead()))
# the pool is asked only once the worker has taken its first task ahead (it then keeps the answer, or dies
# on it, before it reads its inbox): on a loaded machine the task asked could otherwise come first
deadline = time.monotonic() + 60
while not os.path.exists(mark) and time.monotonic() < deadline:
    time.sleep(0.01)
pool = WorkerPool(misbehave, 1)
pool.start()
answers = [pool.submit(what).result(60) for what in {asked}]
pool.close()
print([a[0] if isinstance(a, tuple) else "computed" for a in answers], pool.started, pool.ahead_taken)
"""


def look_ahead_run(ahead: list[str], asked: list[str]) -> list[str]:
    code = LOOK_AHEAD.format(tests=str(Path(__file__).parents[1]), ahead=", ".join(map(repr, ahead)),
                             asked=asked)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.split("\n")[:2]


def test_a_worker_looking_ahead_answers_a_task_it_computed_ahead_and_computes_the_others():
    first, answers = look_ahead_run(["ok"], ["ok", "ok"])
    assert first == "True False"  # handed to the one worker forked ahead, once
    # the first "ok" answered from the lookahead; the second, no longer kept there, computed
    assert answers == "['ahead', 'computed'] 1 1"


def test_a_task_asked_of_a_worker_lost_while_looking_ahead_goes_to_a_fresh_worker():
    # the worker crashes on a task of its own choosing: the task asked of it is not lost with it
    _, answers = look_ahead_run(["crash"], ["ok", "ok"])
    assert answers == "['computed', 'computed'] 2 0"


SPLIT_AHEAD = """
import os, sys, tempfile, time
from newscrawl.crawl.workers import WorkerPool, look_ahead, prestart
sys.path.insert(0, {tests!r})
from crawl.workers_support import Ahead, misbehave
mark = os.path.join(tempfile.mkdtemp(), "taken")
prestart(misbehave, 2)
print(look_ahead(misbehave, None, Ahead(*{ahead}, mark=mark), workers=2))
# the pool is asked once each worker has taken ahead what it will (it keeps the answer before it reads its
# inbox): a worker lost on a payload of its own takes no other
deadline = time.monotonic() + 60
lines = []
while len(lines) < 2 * {computed} and time.monotonic() < deadline:  # a line "pid payload" per payload
    time.sleep(0.01)
    lines = open(mark).read().split() if os.path.exists(mark) else []
print(dict(zip(lines[1::2], map(int, lines[::2]))))
pool = WorkerPool(misbehave, 2)
pool.start()
answers = [pool.submit(what).result(60) for what in {asked}]
pool.close()
print([["ahead", a[1]] if isinstance(a, tuple) else ["computed", a] for a in answers])
print(pool.started, pool.crashed, pool.ahead_taken, pool.ahead_computed)
"""


def split_run(
    ahead: list[str], asked: list[str], computed: int
) -> tuple[str, dict[str, int], list, list[int]]:
    """Two workers forked ahead and handed a lookahead over ``ahead``, the pool asked ``asked`` once
    ``computed`` payloads were taken ahead: whether look_ahead took, which worker (pid) took each payload
    ahead, each answer (ahead or computed, with the pid that computed it), and the pool's workers started,
    crashed, answers taken from a lookahead and payloads computed ahead."""
    tests = str(Path(__file__).parents[1])
    code = SPLIT_AHEAD.format(tests=tests, ahead=ahead, asked=asked, computed=computed)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    handed, taken, answers, counts = done.stdout.split("\n")[:4]
    return handed, eval(taken), eval(answers), [int(n) for n in counts.split()]


def test_two_workers_each_compute_ahead_their_share_and_are_asked_its_tasks():
    payloads = [f"page-{n}" for n in range(6)]
    handed, taken, answers, counts = split_run(payloads, [*payloads, "other"], computed=6)
    assert handed == "True"
    # positions 0, 2, 4 to one worker, 1, 3, 5 to the other: each computed ahead its share only
    assert taken["page-0"] == taken["page-2"] == taken["page-4"] != taken["page-1"]
    assert taken["page-1"] == taken["page-3"] == taken["page-5"]
    # each page's task went to the worker that computed it ahead; the one no share holds is computed
    assert answers[:6] == [["ahead", taken[p]] for p in payloads]
    assert answers[6][0] == "computed" and answers[6][1] in taken.values()
    assert counts == [2, 0, 6, 6]


def test_tasks_without_a_share_are_spread_over_the_workers_looking_ahead():
    # nothing to compute ahead; the tasks no share holds go to whichever worker is free, as in a crawl (each
    # takes 50 ms, so neither worker can answer all 40 before the other takes one, however loaded the machine)
    _, _, answers, counts = split_run([], [f"nap-{n}" for n in range(40)], computed=0)
    assert {how for how, _ in answers} == {"computed"} and len({pid for _, pid in answers}) == 2
    assert counts == [2, 0, 0, 0]


def test_the_share_of_a_worker_lost_while_looking_ahead_goes_to_its_replacement():
    # the second worker crashes on its first payload ahead: its share's tasks are computed by a fresh
    # worker (the task asked of the lost one tried once more), the first worker's answered from its lookahead
    handed, taken, answers, counts = split_run(["page-0", "crash", "page-2", "page-3"],
                                               ["page-0", "page-2", "page-3", "crash-free"], computed=3)
    assert handed == "True" and taken["page-0"] == taken["page-2"] != taken["crash"]
    assert answers[:2] == [["ahead", taken["page-0"]]] * 2
    assert answers[2][0] == "computed" and answers[2][1] not in taken.values()
    assert answers[3][0] == "computed"
    assert counts == [3, 1, 2, 2]


STUCK_SHARE = """
import os, sys, tempfile, time
from newscrawl.crawl.workers import WorkerPool, look_ahead, prestart
sys.path.insert(0, {tests!r})
from crawl.workers_support import Ahead, misbehave
mark = os.path.join(tempfile.mkdtemp(), "taken")
prestart(misbehave, 2)
pages = ["page-0", "hang", "page-2", "page-3", "page-4", "page-5", "page-6", "page-7"]
print(look_ahead(misbehave, None, Ahead(*pages, mark=mark), workers=2))
# asked once the second worker is stuck on the page it took ahead ("hang", its share's first)
deadline = time.monotonic() + 60
while "hang" not in (open(mark).read() if os.path.exists(mark) else "") and time.monotonic() < deadline:
    time.sleep(0.01)
pool = WorkerPool(misbehave, 2, kill_after={kill_after})
pool.start()
futures = {{p: pool.submit(p) for p in ["page-3", "page-5", "page-7", "page-0", "page-2"]}}
# the stuck worker holds page-3 and page-5 (the one it works on and the next); page-7 waits in its share
late = futures["page-7"].result(60)
print(futures["page-3"].done(), futures["page-5"].done())
print({{p: "ahead" if isinstance(f.result(120), tuple) else "computed" for p, f in futures.items()}})
pool.close()
print(pool.stolen, pool.killed)
"""


def test_the_tasks_waiting_for_a_worker_stuck_on_a_page_are_taken_by_another_worker():
    # the second worker hangs on a page of its share computed ahead: its share's next task is not held
    # until the kill limit (8 s) but taken by the idle worker after STEAL_AFTER (1 s); the two handed to
    # the stuck worker are answered by its replacement after the kill
    code = STUCK_SHARE.format(tests=str(Path(__file__).parents[1]), kill_after=8)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    handed, waiting, answers, counts = done.stdout.split("\n")[:4]
    assert handed == "True"
    assert waiting == "False False"  # page-7 answered while the pages handed to the stuck worker wait
    assert eval(answers) == {"page-3": "computed", "page-5": "computed", "page-7": "computed",
                             "page-0": "ahead", "page-2": "ahead"}
    assert counts == "1 1"  # one task taken from the stuck share, one worker killed
