"""Scrapy settings for newscrawl. Per-site settings live in each site file's ``[settings]`` table.

newscrawl's own settings carry the ``NEWSCRAWL_`` prefix; every one, with its default and what it does,
is in :mod:`newscrawl.crawl.defaults` (the one home for their defaults, as Scrapy's
``default_settings.py``). Set one here to change it for every crawl, in a site file for one site, or
with ``-s NAME=VALUE`` for one run; :class:`newscrawl.crawl.config.ConfigAddon` checks them all at
start-up.
"""

from newscrawl.items import EXPORT_FIELDS

BOT_NAME = "newscrawl"
SPIDER_MODULES = ["newscrawl.spiders"]
NEWSPIDER_MODULE = "newscrawl.spiders"
SPIDER_LOADER_CLASS = "newscrawl.spiders.loader.SiteSpiderLoader"
# `scrapy crawl` printing a bad setting, argument or site file as one line, without a traceback
COMMANDS_MODULE = "newscrawl.commands"

# -- politeness -----------------------------------------------------------------------------------------
# an honest user agent: who we are and where to complain (replace the contact URL when you deploy)
USER_AGENT = "newscrawl/0.1 (+https://example.org/newscrawl/contact; news research crawler)"
ROBOTSTXT_OBEY = True
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 2
# items and requests of one response handled at once. Scrapy (2.19, asyncio reactor) starts this many
# asyncio tasks for every response, whatever it yields: 100 (its default) cost 0.46 ms of reactor CPU per
# response, 8 cost 0.06 ms; a newscrawl callback yields one item or a list page's requests
CONCURRENT_ITEMS = 8
DOWNLOAD_DELAY = 1.0
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 30.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 1.0
COOKIES_ENABLED = False
TELNETCONSOLE_ENABLED = False
# Scrapy's remote control: an HTTP server on localhost that runs the Python code sent to it (behind a token
# written to a file in the user's profile). Off like the telnet console; -s REMOTE_CONTROL_ENABLED=True
# turns it on for a crawl that needs it
REMOTE_CONTROL_ENABLED = False
DOWNLOAD_TIMEOUT = 30
DOWNLOAD_MAXSIZE = 16 * 1024 * 1024
# start page -> pagination pages -> article; deeper chains are rarely news
DEPTH_LIMIT = 5
RETRY_TIMES = 2

# -- components -----------------------------------------------------------------------------------------
DOWNLOADER_MIDDLEWARES = {
    # Scrapy's, fixed: requests waiting for a robots.txt in flight were let through unchecked
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "newscrawl.middlewares.RobotsTxtMiddleware": 100,
    # Scrapy's, without decoding every page on the reactor to look for a meta refresh
    "scrapy.downloadermiddlewares.redirect.MetaRefreshMiddleware": None,
    "newscrawl.middlewares.MetaRefreshMiddleware": 580,
    # after OffsiteMiddleware (50): only on-site article requests are looked up
    "newscrawl.middlewares.StoredArticlesMiddleware": 55,
    # after RobotsTxtMiddleware (100), so offsite, incremental and robots.txt rules apply to the original
    # URLs (robots.txt itself is then fetched through the replay prefix); before the cache (900)
    "newscrawl.middlewares.ReplayMiddleware": 120,
    # next to the downloader: archives responses as received (NEWSCRAWL_WARC_DIR), and answers requests
    # from archives instead of the network (NEWSCRAWL_WARC_REPLAY, set by `newscrawl reextract`)
    "newscrawl.crawl.warc.WarcMiddleware": 950,
    "newscrawl.crawl.warc.WarcReplayMiddleware": 960,
}
# distributed crawling: installs the Redis scheduler when NEWSCRAWL_REDIS_URL is set, nothing otherwise
ADDONS = {
    # passwords of NEWSCRAWL_POSTGRES_DSN and NEWSCRAWL_REDIS_URL never reach a log line (first, so the
    # filter is in place before anything else logs)
    "newscrawl.crawl.secrets.RedactAddon": -10,
    "newscrawl.crawl.distributed.RedisAddon": 0,
    # with JOBDIR: a JOBDIR left by a killed crawl has its request queue and seen requests reset
    "newscrawl.crawl.jobdir.JobdirAddon": 0,
    # Scrapy's feed exporter replaced: a feed that cannot be written (full disk) stops the crawl
    "newscrawl.crawl.feedexport.FeedAddon": 0,
    # a site whose pages need a browser (`render` in its site file): scrapy-playwright for those pages
    "newscrawl.crawl.render.RenderAddon": 0,
    # bad newscrawl settings and unwritable output files stop the crawl before it starts
    "newscrawl.crawl.config.ConfigAddon": 10,
}
EXTENSIONS = {
    # a summary in the log and a JSON stats file at the end of every crawl; one error line per type and host
    "newscrawl.crawl.summary.CrawlSummary": 0,
    # the reactor's loop lag, when NEWSCRAWL_LOOP_LAG_INTERVAL is set (bench-crawl --pages-from sets it);
    # before CrawlSummary, so its figures are in the stats the summary writes
    "newscrawl.crawl.looplag.LoopLag": -1,
    # each crawl's figures (fill rates, median text length, drops) in the store's `crawls` table
    "newscrawl.crawl.history.CrawlHistory": 10,
    # the start-up heap frozen out of the garbage collector's reach while the spider runs
    "newscrawl.crawl.gcfreeze.GcFreeze": 20,
}
ITEM_PIPELINES = {
    "newscrawl.pipelines.extraction.ExtractionPipeline": 300,
    "newscrawl.pipelines.record.RecordPipeline": 400,
    "newscrawl.pipelines.dedup.DuplicatePipeline": 500,
    "newscrawl.pipelines.storage.SqlitePipeline": 800,
    "newscrawl.pipelines.postgres.PostgresPipeline": 810,  # on when NEWSCRAWL_POSTGRES_DSN is set
}

# -- exports: `-O file.jsonl` writes the public record fields only, UTF-8 (never the raw HTML) -----------
FEED_EXPORT_ENCODING = "utf-8"
FEED_EXPORT_FIELDS = list(EXPORT_FIELDS)

LOG_LEVEL = "INFO"

# Scrapy's in-memory stats collector without its per-access deprecation hook (newscrawl.crawl.stats)
STATS_CLASS = "newscrawl.crawl.stats.CrawlStats"
