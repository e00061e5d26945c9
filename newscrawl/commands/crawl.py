"""``scrapy crawl`` as Scrapy has it, with configuration errors printed as one line and no traceback.

The spider's own site file being bad, an unknown spider, a bad spider argument (``-a max_pages=x``), a
bad setting (``-s NEWSCRAWL_ALGORITHM=x``) or an output file that cannot be written gives
``scrapy crawl: <what>: <problem>`` on standard error and exit code 2. A crawl stopped because its store
could not write, or a feed it could not write, exits with 1, and so does a crawl whose every request
failed (offline, every host unknown or refusing; a process of a distributed crawl that found no work
left is not one), and one that lost requests to a Redis outage or left records out of PostgreSQL,
spilled to a file or lost (``newscrawl/redis/lost``, ``newscrawl/postgres/spilled``,
``newscrawl/postgres/lost``). Anything else is reported as Scrapy reports it.
is reported as Scrapy reports it.
"""

from __future__ import annotations

import argparse
import logging
import sys

from scrapy.commands import crawl
from scrapy.exceptions import UsageError

from newscrawl.crawl.config import ConfigError, on_start_up_error
from newscrawl.crawl.distributed import REDIS_LOST
from newscrawl.crawl.feedexport import FEED_FAILED
from newscrawl.crawl.summary import lost, no_response
from newscrawl.pipelines.storage import SINK_FAILED

logger = logging.getLogger(__name__)

#: exit code of a crawl refused for its configuration (as argparse exits on bad arguments)
BAD_CONFIG = 2
#: finish reasons of crawls that failed (exit code 1)
FAILED_REASONS = (SINK_FAILED, FEED_FAILED, REDIS_LOST)


class Command(crawl.Command):
    def _refuse(self, error: Exception | str) -> None:
        print(f"scrapy crawl: {error}", file=sys.stderr)
        self.exitcode = BAD_CONFIG

    def _crawl_failed(self, error: BaseException) -> None:
        if isinstance(error, ConfigError):
            self._refuse(error)
        else:
            logger.error("the crawl could not start", exc_info=error)
            self.exitcode = 1

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give the name of one spider (scrapy list shows them)")
        assert self.crawler_process is not None
        disabled = getattr(self.crawler_process.spider_loader, "disabled", {})
        if args[0] in disabled and args[0] not in self.crawler_process.spider_loader.list():
            self._refuse(disabled[args[0]])  # its site file is bad (the loader warned about each one)
            return
        try:
            crawler = self._create_crawler(args[0])
        except KeyError:
            self._refuse(f"no spider named {args[0]!r} (scrapy list shows them)")
            return
        on_start_up_error(self.crawler_process.crawl(crawler, **opts.spargs), self._crawl_failed)
        self.crawler_process.start()
        if self.exitcode:
            return
        if self.crawler_process.bootstrap_failed:
            self.exitcode = 1
        elif crawler.stats is not None and (
            crawler.stats.get_value("finish_reason") in FAILED_REASONS
            or lost(crawler.stats.get_stats())
        ):
            self.exitcode = 1
        elif crawler.stats is not None and no_response(crawler.stats.get_stats()):
            print("scrapy crawl: no response was received (the crawl summary says why)", file=sys.stderr)
            self.exitcode = 1
