"""The ``newscrawl`` command: ``extract``, ``eval``, ``bench``, ``demo``.

Each subcommand is one ``add_<name>(subparsers)`` function that declares its arguments and sets
``run=<function(args) -> exit code>``; to add one, write that function and list it in ``SUBCOMMANDS``.
Heavy imports happen inside the run functions so ``newscrawl --help`` stays quick.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import shlex
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from newscrawl import __version__
from newscrawl.cli.explain import SUBCOMMANDS as EXPLAIN_SUBCOMMANDS
from newscrawl.cli.options import (
    BAD_INPUT,
    FAILED,
    OK,
    Subparsers,
    add_fetched_option,
    add_setting_option,
    add_site_options,
    site_options,
)
from newscrawl.cli.report import SUBCOMMANDS as REPORT_SUBCOMMANDS
from newscrawl.cli.scale import SUBCOMMANDS as SCALE_SUBCOMMANDS
from newscrawl.cli.warc import SUBCOMMANDS as WARC_SUBCOMMANDS


def _extract_fn() -> Any:
    from newscrawl.extract import extract

    return extract


def _algorithms() -> tuple[str, ...]:
    from newscrawl.extract import ALGORITHMS

    return ALGORITHMS


def _progress(total: int, quiet: bool, desc: str) -> Any:
    from tqdm import tqdm

    disable = quiet or not sys.stderr.isatty()
    return tqdm(total=total, desc=desc, unit="page", file=sys.stderr, disable=disable)


def _quiet_library_logs() -> None:
    """Page failures are counted in the tables; keep the library's tracebacks off the terminal."""
    logging.getLogger("newscrawl.extract").setLevel(logging.CRITICAL)


def _git_revision() -> str | None:
    """``commit <short id>`` of the working directory's checkout (noting uncommitted changes), if any."""
    import subprocess

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout.strip()

    try:
        head = git("rev-parse", "--short", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.CalledProcessError):
        return None
    return f"commit {head}" + (" with uncommitted changes" if dirty else "")


def _positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _pick_algorithms(chosen: Sequence[str] | None, default: str = "auto") -> list[str]:
    if not chosen:
        return [default]
    if "all" in chosen:
        return list(_algorithms())
    return list(dict.fromkeys(chosen))


def _algorithm_option(p: argparse.ArgumentParser, *, many: bool) -> None:
    names = _algorithms()
    if many:
        p.add_argument(
            "--algorithm", "-a", action="append", choices=[*names, "all"], metavar="NAME",
            help=f"extraction algorithm, repeatable, or 'all' (one of: {', '.join(names)}; default auto)",
        )
    else:
        p.add_argument(
            "--algorithm", "-a", default="auto", choices=names, metavar="NAME",
            help=f"extraction algorithm (one of: {', '.join(names)}; default: %(default)s)",
        )


# --- extract ---------------------------------------------------------------------------------------------


def add_extract(sub: Subparsers) -> None:
    p = sub.add_parser(
        "extract", help="extract the text and metadata of HTML files",
        description="Extract main text, title, publish time and author of each HTML file ('-' reads stdin).",
    )
    p.add_argument(
        "paths", nargs="+", metavar="PATH",
        help="HTML file, - for standard input, or a .warc/.warc.gz archive (each HTML response in it)",
    )
    _algorithm_option(p, many=False)
    p.add_argument(
        "--format", "-f", choices=("json", "jsonl", "text"),
        help="json (pretty; default for one file), jsonl (one line per file; default for several), "
        "text (title and text)",
    )
    p.add_argument("--url", help="the page's URL (resolves relative links, helps site rules)")
    add_fetched_option(p)
    add_site_options(p)
    p.set_defaults(run=run_extract)


def read_page(path: str) -> bytes:
    """The bytes of a page file or of stdin (``-``), read up to the page size limit only."""
    from newscrawl.extract.limits import read_capped

    if path == "-":
        return read_capped(sys.stdin.buffer)
    with Path(path).open("rb") as f:
        return read_capped(f)


def _pages(paths: Sequence[str], url: str | None, fetched: datetime | None = None) -> Any:
    """(label, page bytes, URL, HTTP charset, fetch time) of every input: a file, stdin, or each HTML
    response of a WARC archive (fetched at its record's WARC-Date; a file at ``fetched``, None when not
    given). An input that cannot be read gives (label, None, message, None, None).
    """
    for path in paths:
        if path.endswith((".warc", ".warc.gz")):
            from newscrawl.storage.warc import DamagedRecord, archived_responses

            damaged: list[DamagedRecord] = []
            try:
                for n, archived in enumerate(archived_responses([path], damaged)):
                    if archived.status == 200 and archived.is_html():
                        page = archived.decoded_body()
                        yield f"{path}#{n}", page, archived.url, archived.charset(), archived.date
            except ValueError as e:
                yield path, None, str(e), None, None
            for error in damaged:  # each lost record named; the file's other records were extracted
                yield path, None, str(error), None, None
            continue
        try:
            yield path, read_page(path), url, None, fetched
        except OSError as e:
            yield path, None, f"cannot read {path}: {e.strerror or e}", None, None


def run_extract(args: argparse.Namespace) -> int:
    from newscrawl.extract import extract

    options = site_options(args.site, args.sites_dir)
    warcs = any(p.endswith((".warc", ".warc.gz")) for p in args.paths)
    fmt = args.format or ("json" if len(args.paths) == 1 and not warcs else "jsonl")
    status = OK
    first = True
    for path, page, url, charset, fetched in _pages(args.paths, args.url, args.fetched_at):
        if page is None:
            print(f"newscrawl extract: {url}", file=sys.stderr)
            status = BAD_INPUT
            continue
        # an archived page's relative publish times ("3小时前") are resolved against when it was fetched
        result = extract(
            page, url=url, algorithm=args.algorithm, http_charset=charset, reference_time=fetched, **options
        )
        if fmt == "text":
            if not first:
                print()
            if len(args.paths) > 1 or warcs:
                print(f"==> {path} <==")
            print(result.title or "")
            print()
            print(result.text)
        else:
            record = {"path": path, **result.to_dict()}
            if result.error:  # nothing was classified: no page kind or class to report
                record.update(page_kind=None, page_class=None)
            indent = 2 if fmt == "json" else None
            print(json.dumps(record, ensure_ascii=False, indent=indent, default=str))
        if result.error:
            print(f"newscrawl extract: {path}: {result.error}", file=sys.stderr)
            status = max(status, FAILED)
        first = False
    return status


# --- eval ------------------------------------------------------------------------------------------------


def add_eval(sub: Subparsers) -> None:
    p = sub.add_parser(
        "eval", help="measure extraction accuracy on datasets with ground truth",
        description="Run extraction on dataset directories (truth.jsonl + pages/<id>.html, or the file each "
        "truth line names as 'page'), score every "
        "metric the truth supports, print Markdown tables.",
    )
    p.add_argument("datasets", nargs="+", metavar="DATASET_DIR")
    _algorithm_option(p, many=True)
    p.add_argument("--out", type=Path, metavar="DIR", help="write per-page JSONL and summary.json here")
    p.add_argument("--with-text", action="store_true", help="keep the extracted text in the per-page JSONL")
    p.add_argument("--limit", type=_positive_int, metavar="N", help="only the first N pages of each dataset")
    p.add_argument(
        "--jobs", "-j", type=_positive_int, default=1, metavar="N",
        help="extract pages in N processes (same figures; times then measured under parallel load)",
    )
    p.add_argument("--markdown", type=Path, metavar="FILE", help="also write the report to FILE")
    p.add_argument("--floors", type=Path, metavar="FILE", help="TOML/JSON of minimum figures; exit 1 below")
    p.add_argument(
        "--compare", metavar="NAMES",
        help="also run other extractors on the same pages, comma-separated (trafilatura, "
        "trafilatura-precision, readability-lxml, newspaper4k; install them with the 'compare' extra); "
        "one not installed is named and skipped",
    )
    p.add_argument(
        "--tune", action="append", default=[], metavar="[ALGO:]PARAM=V1,V2,...",
        help="also run ALGO (default auto) at each value of PARAM and report, holding out each dataset in "
        "turn, whether the value chosen without it is as good on it (repeatable; docs/EVALUATION.md)",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.add_argument(
        "--explain-failures", type=Path, metavar="DIR",
        help="write an explain report (and index.html) here for each page whose F1 is below the threshold",
    )
    p.add_argument(
        "--explain-threshold", type=float, default=0.8, metavar="F",
        help="per-page F1 below which a page is explained: CJK F1 on zh datasets, else ScrapingHub F1 "
        "(default: %(default)s)",
    )
    p.set_defaults(run=run_eval)


def run_eval(args: argparse.Namespace) -> int:
    from newscrawl.evaluation.datasets import open_dataset
    from newscrawl.evaluation.lodo import lodo_section, parse_tune, variant_runners
    from newscrawl.evaluation.peers import load_peers, parse_peer_names, peer_notes, quiet_peer_logs
    from newscrawl.evaluation.report import check_floors, load_floors, markdown_report, tables
    from newscrawl.evaluation.runner import evaluate, public_record

    for path in args.datasets:
        if Path(path).is_file():  # a shell glob over the datasets folder also matches its MANIFEST
            print(f"newscrawl eval: skipping {path}: a file, not a dataset directory", file=sys.stderr)
    try:
        datasets = [open_dataset(d) for d in args.datasets if not Path(d).is_file()]
        floors = load_floors(args.floors) if args.floors else None
        peer_names = parse_peer_names(args.compare) if args.compare else []
        tunings = [parse_tune(spec) for spec in args.tune]
        variants = {name: fn for t in tunings for name, fn in variant_runners(t, _extract_fn()).items()}
    except ValueError as e:
        print(f"newscrawl eval: {e}", file=sys.stderr)
        return BAD_INPUT
    if not 0 <= args.explain_threshold <= 1:
        print("newscrawl eval: --explain-threshold must be between 0 and 1", file=sys.stderr)
        return BAD_INPUT
    algorithms = _pick_algorithms(args.algorithm)
    peers, missing = load_peers(peer_names)
    for name in missing:
        print(f"newscrawl eval: skipping {name}: not installed (pip install -e '.[compare]')",
              file=sys.stderr)
    _quiet_library_logs()
    quiet_peer_logs()
    total = sum(min(len(d), args.limit) if args.limit is not None else len(d) for d in datasets)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)

    runs = []
    others = {**peers, **variants}
    with _progress(total * (len(algorithms) + len(others)), args.quiet, "eval") as bar:
        progress = lambda r: bar.update()  # noqa: E731
        runs_iter = evaluate(
            datasets, algorithms, others=others, limit=args.limit, on_page=progress, jobs=args.jobs
        )
        for run in runs_iter:
            runs.append(run)
            if args.out and run.part_of is None:
                with (args.out / f"{run.dataset}.{run.algorithm}.jsonl").open("w", encoding="utf-8") as f:
                    for rec in run.records:
                        f.write(json.dumps(public_record(rec, args.with_text), ensure_ascii=False) + "\n")
    if args.out:
        summary = [
            {"dataset": r.dataset, "algorithm": r.algorithm, "part_of": r.part_of, **r.summary} for r in runs
        ]
        (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")

    shown = [r for r in runs if r.algorithm not in variants]
    held_out = lodo_section(tunings, runs)
    print(tables(shown))
    if held_out:
        print(held_out)
    for run in shown:
        if run.summary.get("exceptions"):
            print(f"newscrawl eval: {run.dataset}/{run.algorithm}: extract() raised on "
                  f"{run.summary['exceptions']} page(s)", file=sys.stderr)
    if args.markdown:
        command = "newscrawl " + shlex.join(args.argv)
        when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        notes = peer_notes(peers) + "\n" + held_out if peers else held_out
        report = markdown_report(shown, command, when, __version__, _git_revision(), notes)
        args.markdown.write_text(report, encoding="utf-8")
    if args.explain_failures:
        from newscrawl.evaluation.failures import write_failure_reports

        written = write_failure_reports(runs, datasets, args.explain_failures, args.explain_threshold)
        print(f"newscrawl eval: {len(written)} page(s) below F1 {args.explain_threshold:g} explained in "
              f"{args.explain_failures}", file=sys.stderr)
    if floors is not None:
        failures = check_floors(runs, floors)
        for line in failures:
            print(f"newscrawl eval: FLOOR {line}", file=sys.stderr)
        if failures:
            return FAILED
        print(f"newscrawl eval: all floors of {args.floors} held", file=sys.stderr)
    return OK


# --- bench -----------------------------------------------------------------------------------------------


def add_bench(sub: Subparsers) -> None:
    p = sub.add_parser(
        "bench", help="time extraction against lxml parsing alone",
        description="Time extract() per algorithm against the floor (lxml parsing the same bytes), page by "
        "page, interleaved; print median ms/page, pages/s and the ratio to the floor.",
    )
    p.add_argument("dataset", metavar="DATASET_DIR")
    _algorithm_option(p, many=True)
    p.add_argument(
        "--repeat", type=_positive_int, default=1, metavar="N", help="time each page N times, keep the best"
    )
    p.add_argument("--limit", type=_positive_int, metavar="N", help="only the first N pages")
    p.add_argument(
        "--metadata", action="store_true",
        help="also time the metadata stage alone (title, time, people, description, images, tags, section, "
        "language) after the first algorithm's body extraction",
    )
    p.add_argument(
        "--cpu", action="store_true",
        help="time CPU (process time) instead of wall-clock: on a loaded machine wall-clock times include "
        "the waits for a core, which grow the ratios to the floor",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(run=run_bench)


def run_bench(args: argparse.Namespace) -> int:
    import time

    from newscrawl.bench.extract import bench, bench_table, dataset_pages
    from newscrawl.evaluation.datasets import open_dataset
    from newscrawl.extract.native import describe

    if args.repeat < 1:
        print("newscrawl bench: --repeat must be at least 1", file=sys.stderr)
        return BAD_INPUT
    try:
        ds = open_dataset(args.dataset)
        pages = dataset_pages(ds, args.limit)
    except (ValueError, OSError) as e:
        print(f"newscrawl bench: {e}", file=sys.stderr)
        return BAD_INPUT
    _quiet_library_logs()
    with _progress(len(pages), args.quiet, "bench") as bar:
        def counted() -> Any:
            for page in pages:
                yield page
                bar.update()

        timings = bench(
            counted(), _pick_algorithms(args.algorithm), repeat=args.repeat, metadata=args.metadata,
            clock=time.process_time if args.cpu else time.perf_counter,
        )
    clock = "CPU time" if args.cpu else "wall-clock time"
    print(f"{ds.name}: {len(pages)} pages, best of {args.repeat}, one process, {clock}, {describe()}\n")
    print(bench_table(timings))
    return OK


# --- demo ------------------------------------------------------------------------------------------------


def add_serve(sub: Subparsers) -> None:
    p = sub.add_parser(
        "serve", help="serve a folder of saved pages on 127.0.0.1, to crawl it through the replay prefix",
        description="Serve DIR on 127.0.0.1 until Ctrl-C. Pages saved at their URL's path "
        "(DIR/news/2026/a.shtml for https://example.com/news/2026/a.shtml) are found through "
        "NEWSCRAWL_REPLAY_PREFIX=http://127.0.0.1:PORT/, so a site file can be tried without the network; "
        "a folder without index.html is served as a list of its files.",
    )
    p.add_argument("directory", type=Path, metavar="DIR")
    p.add_argument("--port", type=int, default=8000, help="port (default: %(default)s; 0: any free one)")
    p.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    import contextlib
    import time

    from newscrawl.crawl.demo import serve

    with contextlib.ExitStack() as stack:
        try:
            base = stack.enter_context(serve(args.directory, port=args.port, index_required=False))
        except OSError as e:  # no such folder, port taken
            print(f"newscrawl serve: {e}", file=sys.stderr)
            return BAD_INPUT
        print(f"serving {args.directory} at {base}/ (Ctrl-C stops); crawl a site through it:", flush=True)
        print(f"  scrapy crawl SITE -s NEWSCRAWL_REPLAY_PREFIX={base}/ -O out.jsonl", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
    return OK


def add_demo(sub: Subparsers) -> None:
    p = sub.add_parser(
        "demo", help="crawl the demo portal shipped under data/demo, served on 127.0.0.1",
        description="Serve data/demo on 127.0.0.1 at a free port, crawl it with the real `demo` site spider "
        "and pipelines, write OUTPUT/demo.jsonl and OUTPUT/demo.sqlite3 and print a summary.",
    )
    p.add_argument("--output", default="output", metavar="DIR", help="where the outputs go (default: output)")
    p.add_argument(
        "--incremental", action="store_true", help="keep OUTPUT/demo.sqlite3, skip articles stored there"
    )
    p.add_argument(
        "--no-extract", action="store_true", help="crawl without extraction (to measure crawl throughput)"
    )
    add_setting_option(p)
    p.set_defaults(run=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    from newscrawl.crawl import demo

    settings: dict[str, Any] = dict(args.set)
    if args.no_extract:
        settings["NEWSCRAWL_EXTRACT_ENABLED"] = False
    stats = demo.run_demo(args.output, incremental=args.incremental, settings=settings)
    print(demo.summary(stats))
    failed = stats.get("finish_reason") != "finished" or stats.get("spider_exceptions/count")
    return FAILED if failed else OK


# --- main ------------------------------------------------------------------------------------------------

#: every subcommand: a function that adds its parser to the subparsers and sets ``run``
SUBCOMMANDS: list[Callable[[Subparsers], None]] = [
    add_extract, add_eval, add_bench, add_demo, add_serve,
    *SCALE_SUBCOMMANDS, *EXPLAIN_SUBCOMMANDS, *WARC_SUBCOMMANDS, *REPORT_SUBCOMMANDS,
]


def build_parser() -> argparse.ArgumentParser:
    from newscrawl.extract.native import describe

    parser = argparse.ArgumentParser(prog="newscrawl", description="News crawling and content extraction.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}, {describe()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in SUBCOMMANDS:
        add(sub)
    return parser


def entry_point() -> int:
    """The ``newscrawl`` command (the console script, ``python -m newscrawl.cli``): :func:`main` on
    ``sys.argv``, then :func:`before_shutdown`. Its exit code."""
    try:
        return main()
    finally:
        before_shutdown()


def before_shutdown() -> None:
    """Make the interpreter's shutdown short, when the process ends: the garbage is collected once (so the
    finalizers of objects in reference cycles run, as the shutdown would run them), then every object
    left is frozen out of the collector's reach (``gc.freeze``). The shutdown's own collections, which
    walk the whole heap again as modules are torn down, then skip them; each object is still released as
    its module goes. From the command's return to the process's end (measured, this collection included):
    ``reextract`` of 511 real pages 0.18-0.22 -> 0.06-0.10 s, ``extract`` of them 0.05-0.065 -> 0.03-0.04
    s. Only for the command line: a program calling :func:`main` keeps its collector as it was."""
    gc.collect()
    gc.freeze()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``) and return the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    args.argv = argv
    from newscrawl.crawl.errors import ConfigError

    # a bad setting or a file that cannot be read or written is one line, not a traceback
    try:
        return int(args.run(args))
    except BrokenPipeError:  # the reader went away (`newscrawl extract ... | head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the final flush at exit has nowhere to fail
        return OK
    except ConfigError as e:
        print(f"newscrawl {args.command}: {e}", file=sys.stderr)
        return BAD_INPUT
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(f"newscrawl {args.command}: {where}{e.strerror or e}", file=sys.stderr)
        return FAILED

