"""newscrawl's extraction library: HTML in, an immutable ``Extraction`` out. Never imports Scrapy.

>>> from newscrawl.extract import extract, ALGORITHMS
>>> "auto" in ALGORITHMS
True
"""

from newscrawl.extract.api import (
    ALGORITHMS,
    PageError,
    PreparedPage,
    extract,
    params_of,
    prepare_page,
    run,
)
from newscrawl.extract.limits import Limits
from newscrawl.extract.result import Extraction, Found, ListEntry

__all__ = [
    "ALGORITHMS",
    "Extraction",
    "Found",
    "Limits",
    "ListEntry",
    "PageError",
    "PreparedPage",
    "extract",
    "params_of",
    "prepare_page",
    "run",
]
