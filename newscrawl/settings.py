"""Scrapy settings for newscrawl. Per-site settings live in each site file's ``[settings]`` table.

newscrawl's own settings carry the ``NEWSCRAWL_`` prefix:

NEWSCRAWL_SITES_DIR        folder of site files (default: settings/sites next to the package)
NEWSCRAWL_EXTRACT_ENABLED  run the extractor (False: crawl only, e.g. to measure crawl throughput)
NEWSCRAWL_ALGORITHM        extractor name (``auto``); parameters as NEWSCRAWL_<ALGO>_<PARAM>
NEWSCRAWL_EXPORT_FIGURES   add the extractor's figures to records
NEWSCRAWL_MIN_TEXT_CHARS   pages with less text (title taken out) are dropped as no_text
NEWSCRAWL_MAX_BODY_BYTES, NEWSCRAWL_MAX_NODES, NEWSCRAWL_MAX_DEPTH, NEWSCRAWL_TIME_BUDGET
                           per-page limits of extraction (unset: newscrawl.extract.limits' defaults;
                           0: off); a page over one is dropped as extract_error naming the limit
NEWSCRAWL_SQLITE_PATH      SQLite database the records are upserted into ('' switches it off)
NEWSCRAWL_SINK_BATCH_SIZE  records per database write
NEWSCRAWL_SEARCH_INDEX     keep the full-text (FTS5) index in the SQLite database (``newscrawl search``)
NEWSCRAWL_DEDUP            mark near-duplicates: ``duplicate_of`` = the first copy's canonical URL (SimHash)
NEWSCRAWL_DUPLICATE_MAX_DISTANCE  Hamming bits within which two texts are near-duplicates
NEWSCRAWL_REDIS_URL        Redis shared by crawler processes (setting or environment variable; unset: off)
NEWSCRAWL_REDIS_PREFIX     prefix of the crawl's Redis keys (one per crawl job)
NEWSCRAWL_REDIS_IDLE_CLOSE seconds the shared queue stays empty before a process closes
NEWSCRAWL_POSTGRES_DSN     PostgreSQL to upsert records into too (setting or environment variable; unset: off)
NEWSCRAWL_POSTGRES_SPILL   JSONL file for records PostgreSQL never took (``newscrawl pg-load`` reloads it)
NEWSCRAWL_INCREMENTAL      skip article URLs already stored in the SQLite database
NEWSCRAWL_REPLAY_PREFIX    fetch every URL as prefix + URL (web-archive replay), keeping original URLs
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
DOWNLOAD_DELAY = 1.0
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 30.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 1.0
COOKIES_ENABLED = False
TELNETCONSOLE_ENABLED = False
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
    # after OffsiteMiddleware (50): only on-site article requests are looked up
    "newscrawl.middlewares.StoredArticlesMiddleware": 55,
    # after RobotsTxtMiddleware (100), so offsite, incremental and robots.txt rules apply to the original
    # URLs (robots.txt itself is then fetched through the replay prefix); before the cache (900)
    "newscrawl.middlewares.ReplayMiddleware": 120,
}
# distributed crawling: installs the Redis scheduler when NEWSCRAWL_REDIS_URL is set, nothing otherwise
ADDONS = {
    "newscrawl.crawl.distributed.RedisAddon": 0,
    # with JOBDIR: a JOBDIR left by a killed crawl has its request queue and seen requests reset
    "newscrawl.crawl.jobdir.JobdirAddon": 0,
    # bad newscrawl settings and unwritable output files stop the crawl before it starts
    "newscrawl.crawl.config.ConfigAddon": 10,
}
ITEM_PIPELINES = {
    "newscrawl.pipelines.extraction.ExtractionPipeline": 300,
    "newscrawl.pipelines.record.RecordPipeline": 400,
    "newscrawl.pipelines.dedup.DuplicatePipeline": 500,
    "newscrawl.pipelines.storage.SqlitePipeline": 800,
    "newscrawl.pipelines.postgres.PostgresPipeline": 810,  # on when NEWSCRAWL_POSTGRES_DSN is set
}

# -- newscrawl ------------------------------------------------------------------------------------------
NEWSCRAWL_SITES_DIR = None
NEWSCRAWL_EXTRACT_ENABLED = True
NEWSCRAWL_ALGORITHM = "auto"
NEWSCRAWL_EXPORT_FIGURES = False
NEWSCRAWL_MIN_TEXT_CHARS = 20
NEWSCRAWL_SQLITE_PATH = "output/newscrawl.sqlite3"
NEWSCRAWL_SINK_BATCH_SIZE = 100
NEWSCRAWL_SEARCH_INDEX = True
NEWSCRAWL_DEDUP = True
NEWSCRAWL_DUPLICATE_MAX_DISTANCE = 8  # newscrawl.storage.dedup.DEFAULT_MAX_DISTANCE: where it comes from
NEWSCRAWL_POSTGRES_DSN = ""  # never a password here: use ~/.pgpass or the environment variable
NEWSCRAWL_INCREMENTAL = True
NEWSCRAWL_REPLAY_PREFIX = ""

# -- exports: `-O file.jsonl` writes the public record fields only, UTF-8 (never the raw HTML) -----------
FEED_EXPORT_ENCODING = "utf-8"
FEED_EXPORT_FIELDS = list(EXPORT_FIELDS)

LOG_LEVEL = "INFO"
