"""``newscrawl reextract`` against ``newscrawl extract`` on the same archived pages, side by side.

``python -m newscrawl.bench.reextract [--pages 1000] [--repeat 3] [-s NAME=VALUE ...]`` serves
:mod:`newscrawl.bench.site`'s portal of N articles on 127.0.0.1 (``--pages-from DIR...``: real pages
instead, the HTML files of those folders behind generated list pages, :mod:`newscrawl.bench.pages`),
crawls it once with ``scrapy crawl`` and ``NEWSCRAWL_WARC_DIR`` set (its records also go to a
JSON-lines file), then runs, ``--repeat`` times and alternating which goes first, the two commands over
the archive:

* ``newscrawl extract WARC...`` -- extraction only, of every HTML response in the archive, into a file;
* ``newscrawl reextract WARC... -o FILE --db FILE`` -- the spider, stage 1, stage 2, near-duplicates and
  the sinks, into a fresh store (``-s`` settings go to this command, e.g. ``NEWSCRAWL_EXTRACT_WORKERS``).

Both extract in one process: ``extract`` runs in one, so reextract gets one extraction worker
(:data:`EQUAL_FOOTING`, unless ``-s`` says otherwise) whatever the CPUs, and its main process -- the
spider, stage 2, the sinks -- is what it adds. (Its default, one worker per CPU, would turn the figure
into a count of this machine's cores.)

Every command runs with a bytecode cache of its own (``PYTHONPYCACHEPREFIX`` in the work folder, newscrawl
compiled into it before the first run, ``PYTHONDONTWRITEBYTECODE`` dropped): as an installed newscrawl
starts, rather than compiling newscrawl's modules from source at every start, which a checkout run with
``PYTHONDONTWRITEBYTECODE`` set does (about 0.1 s of CPU for ``extract``, 0.17 s for ``reextract``).

Each run's wall time and CPU time (user + system of the command and of every process it started: the
benchmark makes itself the subreaper of its descendants, so the extraction workers, forked by
multiprocessing's fork server, are counted too) are printed, with the workers' share from the crawl's
stats (on an idle machine the rest, the main process, bounds reextract's wall time); then the medians and
the ratio (extract's time / reextract's: a throughput ratio, both handling the same pages). Every
reextract's records are checked against the crawl's, field for field (crawl times aside); a difference
fails the benchmark (exit 1).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from newscrawl.bench.site import SITE_NAME, crawl_command, crawler_env, serve

#: record fields that differ between two runs by nature
RUN_TIMES = frozenset({"crawled_at", "first_crawled_at"})
#: prctl(2) option making this process adopt its orphaned descendants (Linux)
_PR_SET_CHILD_SUBREAPER = 36
#: seconds one command may take
TIMEOUT = 1800
#: settings reextract runs with unless ``-s`` gives others: one extraction process, as ``extract`` has
EQUAL_FOOTING = {"NEWSCRAWL_EXTRACT_WORKERS": "1"}


@dataclass(frozen=True)
class Archive:
    """A crawl of the generated portal: its WARC files, its records, and where its site file is."""

    warcs: list[Path]
    records: Path
    sites_dir: Path
    pages: int


@dataclass(frozen=True)
class Timing:
    wall: float
    cpu: float
    returncode: int
    stdout: str
    stderr: str
    #: CPU seconds of the extraction workers, as the crawl's stats report them (in ``cpu``; 0 without)
    workers_cpu: float = 0.0


def adopt_orphans() -> bool:
    """Make this process the subreaper of its descendants (Linux), so that processes orphaned by a
    command (multiprocessing's fork server and its workers) are waited for here and their CPU time
    counts in ``RUSAGE_CHILDREN``. False where that is not possible."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def reap(timeout: float = 10.0) -> None:
    """Wait for every descendant left (orphans adopted by :func:`adopt_orphans`), at most ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            if time.monotonic() > deadline:
                return
            time.sleep(0.01)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(args: Sequence[str], cwd: Path, env: Mapping[str, str], stdout: Path | None = None) -> Timing:
    """Run ``args``; wall time, and CPU time of it and its descendants (those waited for)."""
    reap(0)
    cpu = children_cpu()
    start = time.perf_counter()
    out = stdout.open("wb") if stdout is not None else subprocess.PIPE
    try:
        done = subprocess.run(
            list(args), cwd=cwd, env=dict(env), stdout=out, stderr=subprocess.PIPE, timeout=TIMEOUT
        )
    finally:
        if stdout is not None:
            out.close()  # type: ignore[union-attr]
    wall = time.perf_counter() - start
    reap()
    text = done.stdout.decode("utf-8", "replace") if done.stdout else ""
    return Timing(wall, children_cpu() - cpu, done.returncode, text, done.stderr.decode("utf-8", "replace"))


def bench_env(workdir: Path) -> dict[str, str]:
    """:func:`~newscrawl.bench.site.crawler_env` with the bytecode cache in ``workdir/pycache``."""
    env = crawler_env()
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(workdir / "pycache")
    return env


def compile_newscrawl(workdir: Path) -> None:
    """Compile the newscrawl package timed into the bytecode cache of :func:`bench_env`, so that no timed
    run compiles it."""
    package = Path(__file__).resolve().parents[1]
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], env=bench_env(workdir),
                   check=True, capture_output=True, timeout=TIMEOUT)


def crawl_archived(spider: str, sites: Path, workdir: Path) -> Path:
    """Crawl ``spider`` (its site file in ``sites``) with the WARC archive on, into ``workdir/warc``; its
    records also go to ``workdir/crawl.jsonl``, returned. RuntimeError when the crawl fails."""
    records = workdir / "crawl.jsonl"
    settings = {
        "NEWSCRAWL_SITES_DIR": str(sites),
        "NEWSCRAWL_SQLITE_PATH": str(workdir / "crawl.sqlite3"),
        "NEWSCRAWL_WARC_DIR": str(workdir / "warc"),
        "LOG_LEVEL": "WARNING",
    }
    args = [*crawl_command(spider, settings), "-o", str(records)]
    done = subprocess.run(args, cwd=workdir, env=bench_env(workdir), capture_output=True, text=True,
                          timeout=TIMEOUT)
    if done.returncode != 0:
        raise RuntimeError(f"the crawl of {spider} failed:\n{done.stderr[-3000:]}")
    return records


def archive_portal(articles: int, workdir: Path) -> Archive:
    """Crawl a generated portal of ``articles`` articles with the WARC archive on."""
    with serve(articles=articles) as site:
        sites = workdir / "sites"
        site.write_site_file(sites)
        records = crawl_archived(SITE_NAME, sites, workdir)
        pages = sum(site.hits.values())
    return Archive(sorted((workdir / "warc").glob("*.warc.gz")), records, sites, pages)


def archive_pages(folders: Sequence[str | Path], workdir: Path) -> Archive:
    """Crawl real pages (:mod:`newscrawl.bench.pages`: the HTML files of ``folders`` behind generated list
    pages, served by a process of their own) with the WARC archive on."""
    from newscrawl.bench import pages

    with pages.serve(folders) as server:
        sites = workdir / "sites"
        sites.mkdir(parents=True, exist_ok=True)
        (sites / f"{pages.SITE_NAME}.toml").write_text(pages.site_toml(server.base_url), encoding="utf-8")
        records = crawl_archived(pages.SITE_NAME, sites, workdir)
        served = sum(server.stats()["hits"].values())
    return Archive(sorted((workdir / "warc").glob("*.warc.gz")), records, sites, served)


def read_records(path: Path) -> dict[str, dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return {r["url"]: r for r in map(json.loads, f) if r}


def differences(expected: Path, got: Path, limit: int = 5) -> list[str]:
    """How the records of ``got`` differ from those of ``expected``, field for field (crawl times
    aside); at most ``limit`` lines."""
    first, second = read_records(expected), read_records(got)
    found: list[str] = []
    for url in sorted(first.keys() ^ second.keys()):
        found.append(f"{url}: only in {'the crawl' if url in first else 'the re-extraction'}")
    for url in sorted(first.keys() & second.keys()):
        a, b = first[url], second[url]
        for name in sorted((a.keys() | b.keys()) - RUN_TIMES):
            if a.get(name) != b.get(name):
                found.append(f"{url}: {name}: {a.get(name)!r:.80} != {b.get(name)!r:.80}")
    return found[:limit] if len(found) <= limit else [*found[:limit], f"... {len(found) - limit} more"]


def run_extract(archive: Archive, workdir: Path, n: int) -> Timing:
    args = [sys.executable, "-m", "newscrawl.cli", "extract", *map(str, archive.warcs)]
    return timed(args, workdir, bench_env(workdir), stdout=workdir / f"extract-{n}.jsonl")


def run_reextract(archive: Archive, workdir: Path, n: int, settings: Mapping[str, str]) -> Timing:
    stats = workdir / f"reextract-{n}.stats.json"
    args = [
        sys.executable, "-m", "newscrawl.cli", "reextract", *map(str, archive.warcs),
        "-o", str(workdir / f"reextract-{n}.jsonl"), "--db", str(workdir / f"reextract-{n}.sqlite3"),
        "-s", f"NEWSCRAWL_SITES_DIR={archive.sites_dir}", "-s", f"NEWSCRAWL_STATS_FILE={stats}",
    ]  # fmt: skip
    for name, value in settings.items():
        args += ["-s", f"{name}={value}"]
    timing = timed(args, workdir, bench_env(workdir))
    try:
        figures = json.loads(stats.read_text(encoding="utf-8")).get("stats", {})
    except (OSError, ValueError):
        return timing
    return replace(timing, workers_cpu=float(figures.get("newscrawl/workers/cpu_seconds", 0.0)))


def parse_settings(pairs: Sequence[str]) -> dict[str, str]:
    settings = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise ValueError(f"-s expects NAME=VALUE, got {pair!r}")
        settings[name] = value
    return settings


def reextract_settings(pairs: Sequence[str]) -> dict[str, str]:
    """The settings reextract runs with: :data:`EQUAL_FOOTING`, then ``-s`` pairs (ValueError when bad)."""
    return {**EQUAL_FOOTING, **parse_settings(pairs)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m newscrawl.bench.reextract",
        description="newscrawl reextract vs newscrawl extract on the archive of a generated portal",
    )
    parser.add_argument("--pages", type=int, default=1000, help="articles of the portal (default 1000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command (default 3)")
    parser.add_argument("-s", "--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting for reextract (e.g. NEWSCRAWL_EXTRACT_WORKERS=1)")
    parser.add_argument("--pages-from", nargs="+", metavar="DIR", help="archive these real pages instead "
                        "(HTML files of each folder, a dataset's pages/, behind generated list pages; "
                        "newscrawl.bench.pages) and compare the commands on that archive")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR and keep it (default: a "
                        "temporary folder)")
    args = parser.parse_args(argv)
    if args.pages < 1 or args.repeat < 1:
        parser.error("--pages and --repeat must be at least 1")
    try:
        settings = reextract_settings(args.set)
    except ValueError as e:
        parser.error(str(e))
    counted = adopt_orphans()
    with tempfile.TemporaryDirectory(prefix="newscrawl-bench-reextract-") as tmp:
        workdir = args.keep or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        compile_newscrawl(workdir)
        if args.pages_from:
            archive = archive_pages(args.pages_from, workdir)
        else:
            archive = archive_portal(args.pages, workdir)
        stored = len(read_records(archive.records))
        print(f"archive: {archive.pages} pages served, {stored} records, {len(archive.warcs)} WARC file(s)")
        runs: dict[str, list[Timing]] = {"extract": [], "reextract": []}
        failed = False
        for n in range(args.repeat):
            order = ("extract", "reextract") if n % 2 == 0 else ("reextract", "extract")
            for name in order:
                if name == "extract":
                    timing = run_extract(archive, workdir, n)
                    ok = timing.returncode == 0
                else:
                    timing = run_reextract(archive, workdir, n, settings)
                    ok = timing.returncode == 0
                    diff = differences(archive.records, workdir / f"reextract-{n}.jsonl") if ok else []
                    if diff:
                        failed = True
                        print("reextract's records differ from the crawl's:\n  " + "\n  ".join(diff))
                if not ok:
                    failed = True
                    print(f"{name} exited {timing.returncode}:\n{timing.stderr[-2000:]}", file=sys.stderr)
                runs[name].append(timing)
                workers = f" (extraction workers {timing.workers_cpu:.2f} s)" if timing.workers_cpu else ""
                print(f"run {n + 1} {name:9}: wall {timing.wall:6.2f} s, CPU {timing.cpu:6.2f} s{workers}")
        wall = {k: statistics.median(t.wall for t in v) for k, v in runs.items()}
        cpu = {k: statistics.median(t.cpu for t in v) for k, v in runs.items()}
        print(f"median extract  : wall {wall['extract']:6.2f} s, CPU {cpu['extract']:6.2f} s "
              f"({archive.pages / wall['extract']:.0f} pages/s)")
        pool_cpu = statistics.median(t.workers_cpu for t in runs["reextract"])
        print(f"median reextract: wall {wall['reextract']:6.2f} s, CPU {cpu['reextract']:6.2f} s "
              f"({archive.pages / wall['reextract']:.0f} pages/s; extraction workers {pool_cpu:.2f} s CPU)")
        print(f"reextract throughput / extract: {wall['extract'] / wall['reextract']:.2f}x wall, "
              f"{cpu['extract'] / cpu['reextract']:.2f}x CPU"
              + ("" if counted else " (CPU of orphaned worker processes not counted on this system)"))
        print("records: " + ("DIFFERENT" if failed else f"equal to the crawl's, field for field ({stored})"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
