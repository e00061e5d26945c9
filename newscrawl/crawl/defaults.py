"""Default values of newscrawl's own settings: the one home for them, as Scrapy's ``default_settings.py``.

A crawl's settings get every name here that no other source (``newscrawl/settings.py``, a site file's
``[settings]``, ``-s``) set, at Scrapy's ``default`` priority (:func:`newscrawl.crawl.config.with_defaults`),
so components read a setting without a fallback of their own. Constructors whose arguments mirror a setting
take their default from here too. This module is data only: it imports nothing.

Per-site settings live in each site file's ``[settings]`` table; an extractor's parameters are
``NEWSCRAWL_<ALGO>_<PARAM>`` with the paper's value as the default (``newscrawl.extract.params_of``).
"""

from typing import Any

# -- where the site files are --------------------------------------------------------------------------
#: folder of site files; None: the ``settings/sites`` shipped with newscrawl
NEWSCRAWL_SITES_DIR: str | None = None

# -- extraction (stage 1) ----------------------------------------------------------------------------------
#: run the extractor (False: crawl only, e.g. to measure crawl throughput)
NEWSCRAWL_EXTRACT_ENABLED = True
#: extractor name; its parameters are NEWSCRAWL_<ALGO>_<PARAM>
NEWSCRAWL_ALGORITHM = "auto"
#: per-page limits of extraction; None: newscrawl.extract.limits' defaults, 0: no limit. A page over one
#: is dropped as extract_error naming the limit
NEWSCRAWL_MAX_BODY_BYTES: int | None = None
NEWSCRAWL_MAX_NODES: int | None = None
NEWSCRAWL_MAX_DEPTH: int | None = None
NEWSCRAWL_MAX_ATTRIBUTES: int | None = None
#: characters of a page's text extracted at most; the rest is cut (recorded in the record's figures)
NEWSCRAWL_MAX_TEXT_CHARS: int | None = None
#: CPU seconds of the thread extracting a page (the page's own work: a loaded machine does not spend it)
NEWSCRAWL_TIME_BUDGET: float | None = None
#: worker processes extracting pages off the reactor (newscrawl.crawl.workers); None: CPUs - 1, at least
#: 1 (``newscrawl reextract``: one per CPU); 0: extract on the reactor thread, for debugging
NEWSCRAWL_EXTRACT_WORKERS: int | None = None
#: wall seconds a worker may spend on one page before it is killed and replaced, the page dropped as
#: extract_error (0: never). 3x the default time budget: a page past its budget gives up at the next
#: stage boundary, so only a stage that never returns (a C library looping), or a machine so loaded that
#: the page's CPU seconds take three times as long in wall time, reaches this hard limit
NEWSCRAWL_EXTRACT_KILL_AFTER = 15.0

# -- records (stage 2) -------------------------------------------------------------------------------------
#: add the extractor's figures to records
NEWSCRAWL_EXPORT_FIGURES = False
#: fewest characters (white space not counted) a text must keep once the title is taken out of it; below
#: this the "text" is a page title or a stray line (a truncated page gives its <title>), not a body, and
#: the page is dropped as no_text. News briefs run from about 60 characters up, so 20 drops no real article
NEWSCRAWL_MIN_TEXT_CHARS = 20

# -- near-duplicates ---------------------------------------------------------------------------------------
#: mark near-duplicates: ``duplicate_of`` = the first copy's canonical URL (SimHash)
NEWSCRAWL_DEDUP = True
#: Hamming bits within which two texts are near-duplicates, from ``newscrawl dedup-eval`` on chinese-wce,
#: daniel-zh, gne-pages and scrapinghub (491 pages, 120,295 distinct-article pairs): distinct articles are
#: never closer than 15 bits (the 3 pairs within 3 bits are one story twice in the data: with and without
#: a byline, or one page stored twice). Same text in other chrome: recall 0.94 at any threshold (misses
#: are extraction differences). Copies with one paragraph left out spread over 0-14 bits; through the 4x16
#: banded lookup their recall rises from 0.28 at 3 to 0.54 at 8 and barely after, with no new false pair
#: -- so 8, leaving 7 bits of margin to the closest distinct articles
NEWSCRAWL_DUPLICATE_MAX_DISTANCE = 8

# -- storage -----------------------------------------------------------------------------------------------
#: SQLite database the records are upserted into ('' switches it off)
NEWSCRAWL_SQLITE_PATH = "output/newscrawl.sqlite3"
#: records per database write; a batch is also flushed when the spider closes
NEWSCRAWL_SINK_BATCH_SIZE = 100
#: keep the full-text (FTS5) index in the SQLite database (``newscrawl search``)
NEWSCRAWL_SEARCH_INDEX = True
#: skip article URLs already stored in the SQLite database
NEWSCRAWL_INCREMENTAL = True
#: add each crawl's figures to the SQLite database's `crawls` table (`newscrawl report`)
NEWSCRAWL_CRAWL_HISTORY = True
#: PostgreSQL to upsert records into too (libpq DSN or URL; the environment variable of the same name
#: counts too; '' and unset: off). Never a password here: use ~/.pgpass or the environment variable
NEWSCRAWL_POSTGRES_DSN = ""
#: JSONL file for records PostgreSQL never took (``newscrawl pg-load`` reloads it)
NEWSCRAWL_POSTGRES_SPILL = "output/postgres-unwritten.jsonl"
#: seconds the final flush keeps retrying an unreachable server before spilling
NEWSCRAWL_POSTGRES_RETRY_SECONDS = 30.0
#: seconds a PostgreSQL statement may take (an upsert of up to 1,000 rows takes ~0.1 s on a local server)
#: before it is given up, on the server and in the client, and the connection dropped and retried
NEWSCRAWL_POSTGRES_TIMEOUT = 10.0

# -- several processes on Redis ----------------------------------------------------------------------------
#: Redis shared by crawler processes (the environment variable of the same name counts too; '': off)
NEWSCRAWL_REDIS_URL = ""
#: prefix of the crawl's Redis keys (one per crawl job)
NEWSCRAWL_REDIS_PREFIX = "newscrawl"
#: seconds the shared queue must stay empty before an idle process closes; long enough for another
#: process to parse the pages it is downloading (a second or two) and push their links
NEWSCRAWL_REDIS_IDLE_CLOSE = 10.0
#: seconds between an idle process's looks at the shared queue (Scrapy's engine looks every 5 s)
NEWSCRAWL_REDIS_POLL_INTERVAL = 0.5
#: seconds a Redis connect or reply may take: a local Redis answers in well under a millisecond, so this
#: only bounds how long a dead or hung server holds the reactor per attempt
NEWSCRAWL_REDIS_TIMEOUT = 2.0
#: seconds of Redis outage after which the requests held meanwhile are counted lost and the crawl fails
NEWSCRAWL_REDIS_OUTAGE_LIMIT = 300.0

# -- reporting ---------------------------------------------------------------------------------------------
#: the crawl's summary and stats as JSON (newscrawl.crawl.summary); None: beside the first local feed file
#: (sina.jsonl -> sina.stats.json), else <spider>.stats.json beside the SQLite store
NEWSCRAWL_STATS_FILE: str | None = None
#: seconds between two samples of the reactor's loop lag (newscrawl.crawl.looplag; 0: not measured)
NEWSCRAWL_LOOP_LAG_INTERVAL = 0.0

# -- fetching ----------------------------------------------------------------------------------------------
#: entries followed per feed, sitemap or list page, the rest counted in newscrawl/feeds/entries_cut: the
#: sitemap protocol's most (newscrawl.spiders.feeds.MAX_FEED_ENTRIES). Child sitemaps of a sitemap index
#: are requested one at a time, so a crawl holds about one sitemap's entries
NEWSCRAWL_MAX_FEED_ENTRIES = 50_000
#: the headless browser of sites whose pages need rendering (None: chromium found on the PATH)
NEWSCRAWL_CHROMIUM_PATH: str | None = None
#: set by a site file's `render`: scrapy-playwright fetches the pages it marks (newscrawl.crawl.render)
NEWSCRAWL_RENDER = False
#: fetch every URL as prefix + URL (web-archive replay), keeping the original URLs ('': off)
NEWSCRAWL_REPLAY_PREFIX = ""
#: a folder: every response is archived there as gzipped WARC 1.1 ('': off; newscrawl.crawl.warc)
NEWSCRAWL_WARC_DIR = ""
#: bytes: a new WARC file once one reaches this size (the size Heritrix uses)
NEWSCRAWL_WARC_MAX_BYTES = 1_000_000_000
#: WARC files that answer every request instead of the network (set by `newscrawl reextract`)
NEWSCRAWL_WARC_REPLAY: list[str] = []

#: every setting above by name
DEFAULTS: dict[str, Any] = {
    name: value for name, value in dict(globals()).items() if name.startswith("NEWSCRAWL_")
}
