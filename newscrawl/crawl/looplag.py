"""How long the reactor stalls: a timer that should fire every ``NEWSCRAWL_LOOP_LAG_INTERVAL`` seconds
measures how late it fires (work that holds the reactor thread -- extraction inline, a sink write --
makes it late). Off by default (0); ``newscrawl bench-crawl --pages-from`` switches it on.

When the spider closes the stats get ``newscrawl/loop_lag/p50_ms``, ``.../p99_ms``, ``.../max_ms`` and
``.../samples``. On a loaded machine a late timer may only mean that the process waited for a CPU, so the
timer also records the reactor thread's own CPU time between two ticks (``newscrawl/loop_lag/cpu_p99_ms``,
``.../cpu_max_ms``): the work that held the reactor, whatever the load. The process's peak resident set
size (``newscrawl/loop_lag/peak_rss_kib``; extraction workers report theirs apart) and its CPU seconds
from the spider's opening to its closing, every thread of it (``newscrawl/loop_lag/process_cpu_s``;
start-up left out, workers apart) come with them.
"""

from __future__ import annotations

import resource
import time
from typing import Any, cast

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from newscrawl.crawl.config import with_defaults


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank; 0.0 for no values).

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.99), percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5)
    (5.0, 3.0)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * share // 1))
    return ordered[int(rank) - 1]


class LoopLag:
    """Extension: a self-rescheduling timer recording how late the reactor runs it."""

    def __init__(self, interval: float, stats: Any) -> None:
        self.interval = interval
        self.stats = stats
        self.lags: list[float] = []
        #: CPU seconds the reactor thread used between two ticks
        self.busy: list[float] = []
        self._call: Any = None
        self._due = 0.0
        self._cpu = 0.0
        self._process_cpu = 0.0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> LoopLag:
        interval = with_defaults(crawler.settings).getfloat("NEWSCRAWL_LOOP_LAG_INTERVAL")
        if interval <= 0:
            raise NotConfigured()  # off by default: Scrapy logs a WARNING for a NotConfigured with a reason
        extension = cls(interval, crawler.stats)
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_opened(self) -> None:
        self._cpu = time.thread_time()
        self._process_cpu = time.process_time()
        self._schedule()

    def _schedule(self) -> None:
        from twisted.internet import reactor
        from twisted.internet.base import ReactorBase

        self._due = time.monotonic() + self.interval
        self._call = cast(ReactorBase, reactor).callLater(self.interval, self._tick)

    def _tick(self) -> None:
        self.lags.append(max(0.0, time.monotonic() - self._due))
        cpu = time.thread_time()
        self.busy.append(cpu - self._cpu)
        self._cpu = cpu
        self._schedule()

    def spider_closed(self) -> None:
        if self._call is not None and self._call.active():
            self._call.cancel()
        if self.stats is None:
            return
        for name, value in (
            ("p50_ms", percentile(self.lags, 0.5)),
            ("p99_ms", percentile(self.lags, 0.99)),
            ("max_ms", max(self.lags, default=0.0)),
            ("cpu_p50_ms", percentile(self.busy, 0.5)),
            ("cpu_p99_ms", percentile(self.busy, 0.99)),
            ("cpu_max_ms", max(self.busy, default=0.0)),
        ):
            self.stats.set_value(f"newscrawl/loop_lag/{name}", round(value * 1000, 1))
        self.stats.set_value("newscrawl/loop_lag/samples", len(self.lags))
        peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
        self.stats.set_value("newscrawl/loop_lag/peak_rss_kib", peak_kib)
        cpu = time.process_time() - self._process_cpu
        self.stats.set_value("newscrawl/loop_lag/process_cpu_s", round(cpu, 3))
