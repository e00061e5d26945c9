"""Imported by the extraction workers' fork server (:data:`newscrawl.crawl.workers.PRELOAD`), never by
anything else: it loads the extraction library, warms dateparser and extracts two sample pages
(:func:`~newscrawl.crawl.workers.warm_fork_server`, about 0.4 s of CPU) once, in the fork server, so every
worker forked from it -- a replacement for a crashed or killed one included -- starts warm, sharing those
pages with its siblings, instead of each paying the warm-up itself. multiprocessing preloads modules by
name only, hence a module whose import does the work.
"""

from __future__ import annotations

from newscrawl.crawl.workers import warm_fork_server

warm_fork_server()
