"""The embedded default: serve the demo portal under ``data/demo`` on 127.0.0.1 and crawl it.

The demo portal has a stable address, :data:`DEMO_HOST` (``.test`` is reserved for testing, so it never
resolves); :func:`serve` runs ``http.server`` in a thread on a free loopback port and answers both
``/path`` and the web-archive replay form ``/http://demo.newscrawl.test/path``. :func:`run_demo` crawls
it with the real ``demo`` site spider through ``NEWSCRAWL_REPLAY_PREFIX``, so records carry the stable
URLs whatever port was free (and incremental re-runs recognise them), writes ``demo.jsonl`` and
``demo.sqlite3`` and returns the crawl stats; :func:`summary` turns them into the printed report.
"""

from __future__ import annotations

import contextlib
import functools
import io
import logging
import re
from collections.abc import Iterator, Mapping
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from typing import Any

from newscrawl.crawl.loopback import serve_handler
from newscrawl.crawl.shipped import shipped_dir

#: the demo portal's pages (the shipped ``data/demo``)
DEMO_DIR = shipped_dir("demo")
#: the address the demo portal's pages are known under (settings/sites/demo.toml)
DEMO_HOST = "http://demo.newscrawl.test"
#: files whose ``__BASE__`` placeholder is replaced by the site's address (absolute URLs are needed there)
TEMPLATED_SUFFIXES = (".xml", ".txt")


_REPLAY_PATH = re.compile(r"^/https?://[^/]+(/.*)?$")


class DemoHandler(SimpleHTTPRequestHandler):
    """Static files as a portal serves them; ``.html`` without a charset, like many Chinese portals.

    A path holding a whole URL (``/http://host/path``, as replay servers take it) serves ``/path``.
    """

    public_base = DEMO_HOST

    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".shtml": "text/html",
        ".html": "text/html",
        ".json": "application/json",
        ".xml": "application/xml",
        ".txt": "text/plain",
    }

    def translate_path(self, path: str) -> str:
        m = _REPLAY_PATH.match(path)
        return super().translate_path((m.group(1) or "/") if m else path)

    def send_head(self):  # type: ignore[no-untyped-def]
        path = Path(self.translate_path(self.path))
        if path.suffix not in TEMPLATED_SUFFIXES or not path.is_file():
            return super().send_head()
        body = path.read_bytes().replace(b"__BASE__", self.public_base.encode())
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        logging.getLogger(__name__).debug("demo server: " + format, *args)


@contextlib.contextmanager
def serve(
    directory: str | Path = DEMO_DIR, host: str = "127.0.0.1", port: int = 0, *, index_required: bool = True
) -> Iterator[str]:
    """Serve ``directory`` on ``host`` (port 0: a free one) in a thread; yields the base URL.

    Without ``index_required`` (a folder of saved pages, ``newscrawl serve``) a folder without
    ``index.html`` is served as a listing of its files, which a crawl can start from.
    """
    directory = Path(directory)
    if not directory.is_dir():
        raise FileNotFoundError(f"no folder {directory}")
    if index_required and not (directory / "index.html").is_file():
        raise FileNotFoundError(f"no demo site at {directory} (expected index.html there)")
    handler = functools.partial(DemoHandler, directory=str(directory))
    with serve_handler(handler, host, port, name="demo-server") as base:
        yield base


def run_demo(
    output: str | Path = "output",
    *,
    incremental: bool = False,
    settings: Mapping[str, Any] | None = None,
    directory: str | Path = DEMO_DIR,
) -> dict[str, Any]:
    """Crawl the demo site into ``output``/demo.jsonl and ``output``/demo.sqlite3; return the crawl stats.

    The pages are fetched from the loopback server through the replay prefix; records keep
    :data:`DEMO_HOST` URLs.

    Without ``incremental`` the database and the JSONL file start empty, so every run shows the whole
    crawl; with it, articles already stored are skipped and the new records are appended to the JSONL.
    A bad setting or an output that cannot be written raises :class:`~newscrawl.crawl.config.ConfigError`.
    """
    from scrapy.crawler import CrawlerProcess
    from scrapy.utils.project import get_project_settings

    from newscrawl.crawl.config import ConfigError, on_start_up_error

    output = Path(output)
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ConfigError(f"--output: cannot create the folder {output}: {e.strerror or e}") from e
    db = output / "demo.sqlite3"
    if not incremental:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
    project = get_project_settings()
    project.setmodule("newscrawl.settings", priority="project")
    project.set("NEWSCRAWL_SQLITE_PATH", str(db), "cmdline")
    project.set("NEWSCRAWL_INCREMENTAL", incremental, "cmdline")
    project.set("LOG_LEVEL", "ERROR", "cmdline")  # the expected drops are in the summary
    for key, value in (settings or {}).items():
        project.set(key, value, "cmdline")
    # an incremental crawl writes only what is new: appended, so the file keeps the earlier records
    feed = {"format": "jsonlines", "overwrite": not project.getbool("NEWSCRAWL_INCREMENTAL")}
    project.set("FEEDS", {str(output / "demo.jsonl"): feed}, "cmdline")
    with serve(directory) as base_url:
        project.set("NEWSCRAWL_REPLAY_PREFIX", base_url + "/", "cmdline")
        process = CrawlerProcess(project)
        crawler = process.create_crawler("demo")
        failed: list[BaseException] = []
        on_start_up_error(process.crawl(crawler), failed.append)
        process.start()
    if failed:
        raise failed[0]  # a bad setting (ConfigError) is one line on the command line
    stats = dict(crawler.stats.get_stats()) if crawler.stats else {}
    stats["newscrawl/demo/server"] = base_url
    stats["newscrawl/demo/jsonl"] = str(output / "demo.jsonl")
    stats["newscrawl/demo/sqlite"] = str(db)
    return stats


def _group(stats: Mapping[str, Any], prefix: str) -> dict[str, int]:
    return {k[len(prefix) :]: int(v) for k, v in sorted(stats.items()) if k.startswith(prefix)}


def _line(label: str, counts: Mapping[str, int]) -> str:
    shown = ", ".join(f"{k} {v}" for k, v in counts.items()) or "none"
    return f"  {label:<22}{shown}"


def summary(stats: Mapping[str, Any]) -> str:
    """A short human report of a demo crawl: pages by kind and class, extractors, failures, speed."""
    pages = int(stats.get("response_received_count", 0))
    elapsed = float(stats.get("elapsed_time_seconds", 0.0)) or 0.0
    items = int(stats.get("item_scraped_count", 0))
    skipped = {
        **_group(stats, "newscrawl/skipped/"),
        "robots.txt forbids": int(stats.get("robotstxt/forbidden", 0)),  # the site's wish, not a failure
    }
    failures = {
        **_group(stats, "newscrawl/dropped/"),
        **{
            "download errors": int(stats.get("downloader/exception_count", 0))
            - int(stats.get("downloader/exception_type_count/scrapy.exceptions.IgnoreRequest", 0)),
            "spider errors": int(stats.get("spider_exceptions/count", 0) or 0),
        },
    }
    rate = pages / elapsed if elapsed else 0.0
    rows = stats.get("newscrawl/sqlite/written", 0)
    lines = [
        f"newscrawl demo: crawled {DEMO_HOST}/ served from {stats.get('newscrawl/demo/server', '?')}",
        f"  {'pages fetched':<22}{pages} in {elapsed:.2f} s ({rate:.1f} pages/s)",
        _line("pages by kind", _group(stats, "newscrawl/pages/")),
        f"  {'records written':<22}{items}",
        _line("records by kind", _group(stats, "newscrawl/items/kind/")),
        _line("records by class", _group(stats, "newscrawl/items/class/")),
        _line("extractor used", _group(stats, "newscrawl/items/algorithm/")),
        _line("skipped", {k: v for k, v in skipped.items() if v}),
        _line("failures", {k: v for k, v in failures.items() if v}),
        f"  {'JSONL':<22}{stats.get('newscrawl/demo/jsonl')}",
        f"  {'SQLite':<22}{stats.get('newscrawl/demo/sqlite')} ({rows} rows written)",
    ]
    return "\n".join(lines)


if __name__ == "__main__":  # python -m newscrawl.crawl.demo [DIR]: serve the demo site (or DIR) until Ctrl-C
    import sys
    import time

    site = Path(sys.argv[1]) if len(sys.argv) > 1 else DEMO_DIR
    with serve(site) as base:
        print(f"serving {site} at {base}/ -- crawl it with:", flush=True)
        print(f"  scrapy crawl demo -s NEWSCRAWL_REPLAY_PREFIX={base}/ -O demo.jsonl", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
