"""CPU time per stage of ``extract()`` on the worst shapes of page up to the size limit (8 MiB).

Each shape is a page generated to ``--mb`` megabytes: dense tiny tags, deep nesting, long attribute
values, a huge text node, many scripts, many dates, huge tables... For each, the table gives the median
over ``--repeat`` runs of the CPU seconds (this thread's, so other processes on a loaded machine count
less than in wall time) of every stage of :func:`newscrawl.extract.prepare_page` and
:func:`newscrawl.extract.run` (their budget's laps: decode with the attribute check, parse with the tree
check, cleaning, body extraction, page kind, metadata), of the whole ``extract()`` call (default limits
but the time budget, which would stop a page at its limit), its wall time,
and lxml alone parsing the same bytes (the floor). A page refused by a limit shows the stages it went
through and the limit in its outcome. Exit code 1 when any ``extract()`` took more than ``--limit``
CPU seconds::

    python -m newscrawl.bench.shapes --mb 8 --repeat 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from newscrawl.bench.extract import parse_only
from newscrawl.extract import ALGORITHMS, Limits, PageError, extract, prepare_page, run

#: CPU seconds of ``extract()`` no page of the size limit may take (issue 14)
LIMIT_SECONDS = 1.0
#: stages as the budget names them, and their column headings
STAGES = {
    "decode": "decode",
    "parse": "parse",
    "cleaning": "clean",
    "body extraction": "body",
    "page kind": "kind",
    "metadata": "meta",
}

_ZH = "市政府昨天召开新闻发布会，介绍了今年城市建设的主要工作。负责人表示，新建道路将在年底前通车。"
_EN = "Officials said on Monday that the new bridge would open in the spring, after two years of work. "
_HEAD = (
    '<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>城市建设新进展_示例网</title>'
    '<meta property="article:published_time" content="2021-03-04T08:30:00+08:00"></head><body>'
    f"<h1>城市建设新进展</h1><p>{_ZH * 3}</p>"
)
_TAIL = "</body></html>"


def _fill(unit: str, size: int, head: str = _HEAD, tail: str = _TAIL) -> bytes:
    """``head``, ``unit`` repeated to make ``size`` bytes in all, ``tail``."""
    room = size - len(head.encode()) - len(tail.encode())
    return (head + unit * max(1, room // len(unit.encode())) + tail).encode()


def _nested_blocks(size: int) -> bytes:
    # blocks 190 deep (under max_depth), text at the bottom, as many as the element limit lets through
    depth = 190
    blocks = max(1, min(250, size // (depth * 11 * 2)))  # 250 blocks: 47,500 elements
    text = _ZH * max(1, (size // blocks - depth * 11) // len(_ZH.encode()))
    block = "<div>" * depth + f"<p>{text}</p>" + "</div>" * depth
    return (_HEAD + block * blocks + _TAIL).encode()


def _long_attributes(size: int) -> bytes:
    value = "a" * (size // 8)
    return _fill(f'<div data-x="{value}" class="{_EN[:40]}">x</div>', size)


def _many_attributes(size: int) -> bytes:
    # just under the count from which the attribute check counts pairs of attributes
    attributes = " ".join(f'a{i}="{i}"' for i in range(63))
    return _fill(f"<p {attributes}>x</p>", size)


def _huge_script(size: int) -> bytes:
    items = ",".join(f'{{"id":{i},"title":"标题{i}","url":"/a/{i}.html"}}' for i in range(size // 60))
    return (_HEAD + f'<script>window.__INITIAL_STATE__={{"list":[{items}]}}</script>' + _TAIL).encode()


def _jsonld(size: int) -> bytes:
    unit = (
        '<script type="application/ld+json">{"@type":"NewsArticle","headline":"标题",'
        '"datePublished":"2024-01-01T10:00:00+08:00","author":{"name":"王小明"},'
        f'"articleBody":"{_ZH}"}}</script>'
    )
    return _fill(unit, size)


def _distinct_references(size: int, form: str = "&#{};", first: int = 100_000) -> bytes:
    # no reference repeated: a cache of decoded references does not help (about 930,000 in 8 MiB)
    head, tail = _HEAD + "<p>", "</p>" + _TAIL
    room = size - len(head.encode()) - len(tail.encode())
    parts, used, n = [], 0, first
    while True:
        piece = form.format(n)
        if used + len(piece) > room:
            break
        parts.append(piece)
        used += len(piece)
        n += 1
    return (head + "".join(parts) + tail).encode()


def _binary(size: int) -> bytes:
    return random.Random(14).randbytes(size)


def _gbk(size: int, head: str) -> bytes:
    unit = f"<p>{_ZH}</p>"
    room = size - len(head.encode("gbk"))
    return (head + unit * (room // len(unit.encode("gbk"))) + _TAIL).encode("gbk")


_GBK_HEAD = "<html><head><title>城市建设新进展</title></head><body>"
_DECLARED_UTF8 = '<html><head><meta charset="utf-8"><title>城市建设新进展</title></head><body>'

#: name -> page of about ``size`` bytes
SHAPES: dict[str, Callable[[int], bytes]] = {
    "dense tiny tags": lambda n: _fill("<i>a</i>", n),
    "dense void tags": lambda n: _fill("<br>", n),
    "deep nesting": lambda n: _fill("<div>", n),
    "nested blocks 190 deep": _nested_blocks,
    "long attribute values": _long_attributes,
    "63 attributes per tag": _many_attributes,
    "huge text node, Chinese": lambda n: _fill(_ZH, n, _HEAD + "<p>", "</p>" + _TAIL),
    "huge text node, English": lambda n: _fill(_EN, n, _HEAD + "<p>", "</p>" + _TAIL),
    "one-letter words": lambda n: _fill("a ", n, _HEAD + "<p>", "</p>" + _TAIL),
    "text without tags": lambda n: _fill(_ZH, n, "", ""),
    "many <p> (just under max_nodes)": lambda n: _fill(
        f"<p>{_ZH * (n // 45_000 // len(_ZH.encode()) + 1)}</p>", n
    ),
    "many <script>": lambda n: _fill("<script>var a=1;</script>", n),
    "one huge script": _huge_script,
    "many JSON-LD blocks": _jsonld,
    "many dates in text": lambda n: _fill(
        "发布时间：2024年01月01日 10:00 2024-01-01 ", n, _HEAD + "<p>", "</p>" + _TAIL
    ),
    "many date metas": lambda n: _fill(
        '<meta property="article:published_time" content="2024-01-01T10:00">', n
    ),
    "huge table": lambda n: _fill("<tr><td>1</td><td>2</td></tr>", n, _HEAD + "<table>", "</table>" + _TAIL),
    "table of long cells": lambda n: _fill(
        f"<tr><td>{_ZH * 4}</td><td>{_EN * 2}</td></tr>", n, _HEAD + "<table>", "</table>" + _TAIL
    ),
    "many links": lambda n: _fill(
        '<li><a href="/news/2024/01/01/123456.html">第123456条新闻的标题</a></li>', n
    ),
    "many images": lambda n: _fill('<img src="/img/2024/01/photo123456.jpg" alt="图片说明">', n),
    "many comments": lambda n: _fill("<!-- comment --><p>x</p>", n),
    "entity storm": lambda n: _fill("&amp;&#x4e2d;&lt;", n, _HEAD + "<p>", "</p>" + _TAIL),
    "distinct numeric references": _distinct_references,
    "distinct named references": lambda n: _distinct_references(n, "&a{};", 0),
    "angle brackets": lambda n: _fill("< <", n, _HEAD + "<p>", "</p>" + _TAIL),
    "random bytes": _binary,
    "GBK, undeclared": lambda n: _gbk(n, _GBK_HEAD),
    "GBK declared as UTF-8": lambda n: _gbk(n, _DECLARED_UTF8),
}


@dataclass(frozen=True, slots=True)
class ShapeTiming:
    """Medians of one shape: CPU seconds by stage (those reached), of ``extract()`` and of lxml alone."""

    name: str
    size: int
    outcome: str
    stages: dict[str, float]
    cpu: float
    wall: float
    lxml_cpu: float


def _cpu(fn: Callable[[], object]) -> tuple[float, float]:
    start, cpu = time.perf_counter(), time.thread_time()
    fn()
    return time.thread_time() - cpu, time.perf_counter() - start


#: the default limits without the time budget, which would stop a slow page before its whole cost is measured
LIMITS = Limits(time_budget=None)


def time_shape(name: str, page: bytes, repeat: int, algorithm: str = "auto") -> ShapeTiming:
    """Median CPU seconds of each stage, of ``extract()`` and of lxml's parse alone on ``page`` (default
    limits, but no time budget)."""
    laps: dict[str, list[float]] = {}
    cpus, walls, floors = [], [], []
    outcome = "ok"
    for _ in range(repeat):
        floors.append(_cpu(lambda: parse_only(page))[0])
        cpu, wall = _cpu(lambda: extract(page, algorithm=algorithm, limits=LIMITS))
        cpus.append(cpu)
        walls.append(wall)
        try:  # extract() is prepare_page() then run(): again, for the stages' laps
            prepared = prepare_page(page, limits=LIMITS)
        except PageError as e:
            outcome = f"refused: {e}"
            continue
        result = run(prepared, algorithm)
        outcome = f"error: {result.error}" if result.error else f"ok, {len(result.text):,} chars of text"
        for stage, _, lap_cpu in prepared.budget.laps:
            laps.setdefault(stage, []).append(lap_cpu)
    return ShapeTiming(
        name,
        len(page),
        outcome,
        {k: statistics.median(v) for k, v in laps.items()},
        statistics.median(cpus),
        statistics.median(walls),
        statistics.median(floors),
    )


def table(timings: Sequence[ShapeTiming], limit: float = LIMIT_SECONDS) -> str:
    """A fixed-width table, seconds of CPU; ``!`` marks an ``extract()`` over ``limit``."""
    head = f"{'shape':<32} {'MB':>5} " + " ".join(f"{h:>6}" for h in STAGES.values())
    head += f" {'total':>7} {'wall':>6} {'lxml':>6}  outcome"
    lines = [head, "-" * len(head)]
    for t in timings:
        stages = " ".join(f"{t.stages[s]:6.3f}" if s in t.stages else f"{'-':>6}" for s in STAGES)
        mark = "!" if t.cpu > limit else " "
        lines.append(
            f"{t.name:<32} {t.size / 1e6:5.2f} {stages} {t.cpu:6.3f}{mark} {t.wall:6.3f} {t.lxml_cpu:6.3f}  "
            f"{t.outcome[:100]}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m newscrawl.bench.shapes", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--mb", type=float, default=8.0, help="size of each page in MB (default 8)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per shape, median kept (default 3)")
    parser.add_argument("--algorithm", choices=ALGORITHMS, default="auto")
    parser.add_argument("--only", action="append", metavar="SHAPE", help="run this shape (repeatable)")
    parser.add_argument("--limit", type=float, default=LIMIT_SECONDS, help="CPU seconds allowed (1)")
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.mb <= 0:
        parser.error("--repeat must be at least 1 and --mb positive")
    unknown = set(args.only or ()) - set(SHAPES)
    if unknown:
        parser.error(f"unknown shape {sorted(unknown)[0]!r}; known: {', '.join(SHAPES)}")
    size = int(args.mb * 1_000_000)
    extract(_HEAD.encode() + _TAIL.encode())  # one-time loads are not a page's cost
    timings = []
    for name, make in SHAPES.items():
        if args.only and name not in args.only:
            continue
        timings.append(time_shape(name, make(size), args.repeat, args.algorithm))
        print(table(timings[-1:], args.limit).splitlines()[-1], file=sys.stderr, flush=True)
    print(f"CPU seconds (median of {args.repeat}), pages of {args.mb:g} MB, algorithm {args.algorithm}")
    print(table(timings, args.limit))
    slow = [t.name for t in timings if t.cpu > args.limit]
    if slow:
        print(f"over {args.limit:g} s of CPU: {', '.join(slow)}")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
