"""Real pages on loopback, for ``newscrawl bench-crawl --pages-from DIR...``.

``python -m newscrawl.bench.pages DIR...`` serves every HTML file of the given folders (a dataset's
``pages/`` folder when it has one) as an article under ``/a/<folder>/<file>``, behind generated list pages
(``/list/<k>.html``, :data:`PER_LIST` links each) and a home page linking every list. It prints its base
URL, serves until its standard input closes, and answers ``/__stats`` with the hits, the times of the
first and last request served and its own CPU seconds -- so the server runs in a process of its own and
its CPU is reported apart from the crawler's.

:func:`run_pages_crawl` starts that server, crawls it with the real spider and pipelines in a ``scrapy
crawl`` subprocess (politeness off) and returns pages/s (pages served over the time from the first
request served to the last), CPU seconds of crawler and server, and the reactor's loop lag
(:mod:`newscrawl.crawl.looplag`).
"""

from __future__ import annotations

import json
import re
import resource
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from newscrawl.bench.site import LOOPBACK_SETTINGS, crawl_command, crawler_env
from newscrawl.crawl import loopback
from newscrawl.crawl.loopback import NOT_FOUND, Reply
from newscrawl.evaluation.datasets import TRUTH_FILE, open_dataset

SITE_NAME = "bench-pages"
#: article links per generated list page (a portal channel page shows 20-60)
PER_LIST = 50
#: seconds between two samples of the reactor's loop lag
LAG_INTERVAL = 0.01


def page_files(folders: Sequence[str | Path]) -> dict[str, Path]:
    """``/a/<folder>/<file>`` -> file, for every page of each folder: a dataset's pages in its order (those
    its ``truth.jsonl`` names), else every ``.html``/``.htm`` file of the folder (its ``pages/`` when it has
    one), in name order."""
    out: dict[str, Path] = {}
    for folder in map(Path, folders):
        for file in _pages_of(folder):
            out[f"/a/{quote(folder.name)}/{quote(file.name)}"] = file
    return out


def _pages_of(folder: Path) -> list[Path]:
    if (folder / TRUTH_FILE).is_file():
        ds = open_dataset(folder)
        return [ds.page_path(t) for t in ds.truths()]
    root = folder / "pages" if (folder / "pages").is_dir() else folder
    if not root.is_dir():
        raise ValueError(f"{folder}: not a folder of HTML pages")
    files = sorted(p for p in root.iterdir() if p.suffix.lower() in (".html", ".htm") and p.is_file())
    if not files:
        raise ValueError(f"{folder}: no .html files in {root}")
    return files


def list_pages(paths: Sequence[str]) -> dict[str, bytes]:
    """The home page and the list pages linking ``paths``, as bytes by path."""
    lists = [paths[i : i + PER_LIST] for i in range(0, len(paths), PER_LIST)]
    out: dict[str, bytes] = {}
    for k, chunk in enumerate(lists):
        items = "".join(f'<li><a href="{p}">文章 {k * PER_LIST + i}</a></li>' for i, p in enumerate(chunk))
        out[f"/list/{k}.html"] = _html(f"列表 {k}", f"<ul>{items}</ul>")
    links = " ".join(f'<a href="/list/{k}.html">第{k + 1}页</a>' for k in range(len(lists)))
    out["/"] = _html("首页", f"<div>{links}</div>")
    return out


def _html(title: str, body: str) -> bytes:
    head = f'<head><meta charset="utf-8"><title>{title}</title></head>'
    return f"<!DOCTYPE html><html>{head}<body>{body}</body></html>".encode()


def site_toml(base_url: str) -> str:
    """The site file of the served pages at ``base_url`` (politeness off: a benchmark on loopback)."""
    escaped = re.escape(base_url)
    return f"""name = "{SITE_NAME}"
description = "dataset pages on loopback (newscrawl.bench.pages)"
allowed_domains = ["127.0.0.1"]
timezone = "Asia/Shanghai"

[start]
pages = ["{base_url}/"]

[patterns]
article = ['^{escaped}/a/.+$']
list = ['^{escaped}/list/\\d+\\.html$']

""" + LOOPBACK_SETTINGS


def serve_forever(folders: Sequence[str]) -> None:
    """The server process: serve the pages until standard input closes."""
    files = page_files(folders)
    bodies = {path: file.read_bytes() for path, file in files.items()}
    bodies.update(list_pages(list(files)))
    # no charset: a dataset's pages are in their own encodings, declared (or not) by themselves
    replies = {path: Reply(200, body, "text/html") for path, body in bodies.items()}
    hits: Counter[str] = Counter()
    times: dict[str, float] = {}
    lock = threading.Lock()

    def respond(path: str) -> Reply:
        if path == "/__stats":
            with lock:
                stats = {"hits": dict(hits), **times, "cpu": time.process_time()}
            return Reply(200, json.dumps(stats).encode(), "application/json")
        with lock:
            hits[path] += 1
            now = time.monotonic()
            times.setdefault("first", now)
            times["last"] = now
        return replies.get(path, NOT_FOUND)

    with loopback.serve(respond, name="benchpages") as base:
        print(f"{base} {len(files)}", flush=True)
        sys.stdin.read()  # until the benchmark closes our standard input


@dataclass(frozen=True)
class PagesServer:
    base_url: str
    articles: int

    def stats(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"{self.base_url}/__stats", timeout=30) as answer:
            return dict(json.load(answer))


@contextmanager
def serve(folders: Sequence[str | Path]) -> Iterator[PagesServer]:
    """Run the server process for the ``with`` block."""
    page_files(folders)  # a bad folder raises here, not in the server process
    process = subprocess.Popen(
        [sys.executable, "-m", "newscrawl.bench.pages", *map(str, folders)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=crawler_env(), text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        base_url, count = process.stdout.readline().split()
        yield PagesServer(base_url, int(count))
    finally:
        if process.stdin is not None:
            process.stdin.close()
        process.wait(30)


@dataclass(frozen=True)
class PagesRun:
    label: str
    pages: int
    seconds: float
    records: int
    ok: bool
    #: CPU seconds of the crawler process and its extraction workers (which report their own: they are
    #: forked by multiprocessing's fork server, whose children the crawler never waits for)
    crawler_cpu: float
    server_cpu: float
    lag_p99_ms: float
    lag_max_ms: float
    lag_samples: int
    lag_p50_ms: float = 0.0
    #: the reactor thread's CPU time between two timer ticks, 99th percentile and worst (the work that
    #: held the reactor; the wall-clock lag also counts the time the process waited for a CPU)
    busy_p99_ms: float = 0.0
    busy_max_ms: float = 0.0
    #: peak resident set size of the crawler process and of its workers together (each its own peak)
    peak_rss_mb: float = 0.0
    #: CPU seconds of the crawler process from the spider's opening to its closing (start-up left out),
    #: and of its extraction workers
    process_cpu: float = 0.0
    workers_cpu: float = 0.0

    def cpu_per_page_ms(self) -> tuple[float, float, float]:
        """Milliseconds of CPU per page served: crawler process (during the crawl), workers, server."""
        per_page = 1000 / self.pages if self.pages else 0.0
        return (self.process_cpu * per_page, self.workers_cpu * per_page, self.server_cpu * per_page)

    def best_rate(self, cpus: int, workers: int) -> float:
        """The pages/s this crawl's CPU per page allows at most on ``cpus`` CPUs with ``workers`` workers
        and no other load: the CPUs shared by crawler, workers and server, each worker one CPU at most,
        the crawler process one CPU (its reactor thread) at most."""
        crawler, extraction, server = (ms / 1000 for ms in self.cpu_per_page_ms())
        total = crawler + extraction + server
        limits = [cpus / total if total else 0.0, 1 / crawler if crawler else 0.0]
        if workers and extraction:
            limits.append(workers / extraction)
        return min(limits)

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.seconds if self.seconds > 0 else 0.0


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_pages_crawl(
    folders: Sequence[str | Path],
    *,
    extract: bool,
    workers: int,
    workdir: Path,
    settings: Mapping[str, str] | None = None,
    timeout: float = 1800,
) -> PagesRun:
    """One crawl of the pages of ``folders`` served by a fresh server process."""
    label = f"extraction, {workers} worker{'s' if workers != 1 else ''}" if extract else "no extraction"
    run_dir = workdir / f"pages-{uuid.uuid4().hex[:6]}"
    with serve(folders) as server:
        (run_dir / "sites").mkdir(parents=True)
        (run_dir / "sites" / f"{SITE_NAME}.toml").write_text(site_toml(server.base_url), encoding="utf-8")
        values = {
            "NEWSCRAWL_SITES_DIR": str(run_dir / "sites"),
            "NEWSCRAWL_SQLITE_PATH": str(run_dir / "store.sqlite3"),
            "NEWSCRAWL_STATS_FILE": str(run_dir / "stats.json"),
            "NEWSCRAWL_EXTRACT_ENABLED": str(extract),
            "NEWSCRAWL_EXTRACT_WORKERS": str(workers),
            "NEWSCRAWL_LOOP_LAG_INTERVAL": str(LAG_INTERVAL),
            "LOG_LEVEL": "WARNING",
            **(settings or {}),
        }
        args = crawl_command(SITE_NAME, values)
        before = _children_cpu()
        server_before = server.stats()["cpu"]
        env = crawler_env()
        done = subprocess.run(args, cwd=run_dir, env=env, capture_output=True, text=True, timeout=timeout)
        crawler_cpu = _children_cpu() - before
        served = server.stats()
    if done.returncode:
        sys.stderr.write(done.stderr[-2000:])
    stats = json.loads((run_dir / "stats.json").read_text(encoding="utf-8"))["stats"]
    return PagesRun(
        label=label,
        pages=sum(served["hits"].values()),
        seconds=served.get("last", 0.0) - served.get("first", 0.0),
        records=int(stats.get("item_scraped_count", 0)),
        ok=done.returncode == 0,
        crawler_cpu=crawler_cpu + float(stats.get("newscrawl/workers/cpu_seconds", 0.0)),
        process_cpu=float(stats.get("newscrawl/loop_lag/process_cpu_s", 0.0)),
        workers_cpu=float(stats.get("newscrawl/workers/cpu_seconds", 0.0)),
        server_cpu=served["cpu"] - server_before,
        lag_p99_ms=float(stats.get("newscrawl/loop_lag/p99_ms", 0.0)),
        lag_max_ms=float(stats.get("newscrawl/loop_lag/max_ms", 0.0)),
        lag_samples=int(stats.get("newscrawl/loop_lag/samples", 0)),
        lag_p50_ms=float(stats.get("newscrawl/loop_lag/p50_ms", 0.0)),
        busy_p99_ms=float(stats.get("newscrawl/loop_lag/cpu_p99_ms", 0.0)),
        busy_max_ms=float(stats.get("newscrawl/loop_lag/cpu_max_ms", 0.0)),
        peak_rss_mb=sum(int(stats.get(f"newscrawl/{k}/peak_rss_kib", 0)) for k in ("loop_lag", "workers"))
        / 1024,
    )


if __name__ == "__main__":
    serve_forever(sys.argv[1:])
