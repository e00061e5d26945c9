"""Stage 1: noise stripping, short/long classification and the matching extractor -- one ``extract`` call.

The raw body leaves the item here; the :class:`~newscrawl.extract.Extraction` is stored on the item's
internal ``extraction`` field for stage 2. Binary bodies served as HTML are dropped before extraction.
Switched off with ``NEWSCRAWL_EXTRACT_ENABLED = False`` (stage 2 then drops pages for lack of text).
The per-page limits come from ``NEWSCRAWL_MAX_BODY_BYTES``, ``NEWSCRAWL_MAX_NODES``,
``NEWSCRAWL_MAX_DEPTH`` and ``NEWSCRAWL_TIME_BUDGET`` (seconds); a page over one is dropped by stage 2
as ``extract_error`` with the limit named.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.statscollectors import StatsCollector

from newscrawl.crawl.config import ConfigError
from newscrawl.extract import ALGORITHMS, DEFAULT_TIMEZONE, Limits, extract, params_of
from newscrawl.extract.limits import DEFAULT_LIMITS

logger = logging.getLogger(__name__)

#: share of control bytes (other than tab, CR, LF, FF, ESC) above which a body is binary, not text;
#: HTML in any charset has practically none, random/compressed data about 27/256 = 10.5 %
BINARY_CONTROL_SHARE = 0.02
#: how much of the body the binary test reads
BINARY_SNIFF_BYTES = 4096
_CONTROL = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))


def looks_binary(body: bytes, share: float = BINARY_CONTROL_SHARE) -> bool:
    """True when ``body`` is not text: a NUL-free UTF-16 BOM aside, control bytes above ``share``.

    >>> looks_binary(b"<html><p>text</p></html>"), looks_binary(bytes(range(256)) * 4)
    (False, True)
    """
    head = body[:BINARY_SNIFF_BYTES]
    if not head or head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return False
    controls = len(head) - len(head.translate(None, _CONTROL))
    return controls / len(head) > share


def check_algorithm(algorithm: str) -> None:
    if algorithm not in ALGORITHMS:
        choices = ", ".join(ALGORITHMS)
        raise ConfigError(f"NEWSCRAWL_ALGORITHM: unknown algorithm {algorithm!r}; one of {choices}")


#: how a true/false parameter may be written in a setting
_BOOLS = {
    "1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False, "off": False,
}


def algorithm_params(settings: Mapping[str, Any], algorithm: str) -> dict[str, Any]:
    """Parameters of ``algorithm`` set as ``NEWSCRAWL_<ALGO>_<PARAM>`` settings, typed like the defaults."""
    out: dict[str, Any] = {}
    for name, default in params_of(algorithm).items():
        key = f"NEWSCRAWL_{algorithm.upper()}_{name.upper()}"
        value = settings.get(key)
        if value is None:
            continue
        try:
            if isinstance(default, bool):
                value = value if isinstance(value, bool) else _BOOLS[str(value).strip().lower()]
            elif isinstance(default, int | float):
                value = type(default)(value)
        except (KeyError, TypeError, ValueError) as e:
            raise ConfigError(f"{key}: expected {type(default).__name__}, got {value!r}") from e
        out[name] = value
    return out


#: the settings of the per-page limits (newscrawl.extract.limits), by Limits field; 0 switches one off
LIMIT_SETTINGS = {
    "max_body_bytes": "NEWSCRAWL_MAX_BODY_BYTES",
    "max_nodes": "NEWSCRAWL_MAX_NODES",
    "max_depth": "NEWSCRAWL_MAX_DEPTH",
    "time_budget": "NEWSCRAWL_TIME_BUDGET",
}


def limits_from_settings(settings: Any) -> Limits:
    """The per-page :class:`~newscrawl.extract.Limits` the ``NEWSCRAWL_MAX_*``/``NEWSCRAWL_TIME_BUDGET``
    settings give (unset: the library's default; 0: no limit)."""
    values: dict[str, int | float | None] = {}
    for field_name, key in LIMIT_SETTINGS.items():
        raw = settings.get(key)
        if raw is None or raw == "":
            values[field_name] = getattr(DEFAULT_LIMITS, field_name)
            continue
        kind = float if field_name == "time_budget" else int
        try:
            number = kind(raw)
        except (TypeError, ValueError) as e:
            raise ConfigError(f"{key}: expected a number (0: no limit), got {raw!r}") from e
        if number < 0:
            raise ConfigError(f"{key}: must be 0 (no limit) or more, got {raw!r}")
        values[field_name] = number or None
    return Limits(**values)  # type: ignore[arg-type]


def extractor_settings(settings: Mapping[str, Any]) -> tuple[str, dict[str, Any], Limits]:
    """(algorithm, its parameters, page limits) configured by ``NEWSCRAWL_ALGORITHM``,
    ``NEWSCRAWL_<ALGO>_<PARAM>`` and the limit settings: what every extraction of a crawl uses, in the
    pipeline and in the spider (which extracts pages no URL pattern classifies)."""
    algorithm = settings.get("NEWSCRAWL_ALGORITHM") or "auto"
    check_algorithm(algorithm)
    return algorithm, algorithm_params(settings, algorithm), limits_from_settings(settings)


class ExtractionPipeline:
    """Runs :func:`newscrawl.extract.extract` once per item that does not carry an extraction yet."""

    def __init__(
        self,
        algorithm: str = "auto",
        params: Mapping[str, Any] | None = None,
        stats: StatsCollector | None = None,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        check_algorithm(algorithm)
        self.algorithm = algorithm
        self.params = dict(params or {})
        self.stats = stats
        self.limits = limits

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ExtractionPipeline:
        settings = crawler.settings
        if not settings.getbool("NEWSCRAWL_EXTRACT_ENABLED", True):
            raise NotConfigured("NEWSCRAWL_EXTRACT_ENABLED is off")
        algorithm, params, limits = extractor_settings(settings)
        return cls(algorithm, params, crawler.stats, limits)

    def _inc(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(key)

    def process_item(self, item: Any) -> Any:
        if "url" not in item or item.get("extraction") is not None:
            item.pop("body", None)
            return item
        body = item.pop("body", None) or b""
        if looks_binary(body):
            self._inc("newscrawl/dropped/binary")
            raise DropItem(f"binary content served as a page: {item['url']}")
        reference = None
        if item.get("crawled_at"):
            reference = datetime.fromisoformat(item["crawled_at"])
        result = extract(
            body,
            item["url"],
            algorithm=self.algorithm,
            http_charset=item.get("http_charset"),
            reference_time=reference,
            timezone=item.get("timezone") or DEFAULT_TIMEZONE,
            prune_xpath=item.get("prune_xpath"),
            limits=self.limits,
            **self.params,
        )
        self._inc("newscrawl/extract/count")
        item["extraction"] = result
        return item
