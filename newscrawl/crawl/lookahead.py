"""An archive's pages extracted ahead by the extraction worker of ``newscrawl reextract``.

A re-extraction knows its pages from the start: the archive's responses, in the order the replay
(:mod:`newscrawl.crawl.replay`) hands them to the spider. Its worker (forked ahead of the crawler:
:func:`~newscrawl.crawl.workers.prestart`) is ready long before the replay asks it for the first page --
the main process is still importing Scrapy and building the crawler -- and between two pages it waits
while the main process runs the spider, stage 2 and the sinks. :class:`ArchiveLookahead` has it spend
that time extracting the pages it will be asked for, in replay order, with the very
:class:`~newscrawl.crawl.workers.PageTask` the extraction pipeline will send: the crawl's extractor
options, the site's fields, and per page the body as Scrapy decodes it, the URL, the charset of the
``Content-Type`` header, the fetch time of the record (the reference of relative times) and the page
kind the spider gives it (``article`` for a URL the site calls an article).

An answer computed ahead is given only to a task equal to the one it was computed for, field for field
(body, options, site fields, fetch time...), so a wrong guess costs the time it took, never a record: the
task is then computed as it would have been. One difference is allowed: an answer computed with the text's
fingerprint (``NEWSCRAWL_DEDUP``) answers the same task asked without it (the replay has the main process
fingerprint texts while the worker is behind): the fingerprint is the one the main process computes from the
same text with the same functions.

The worker computes ahead at most :data:`WINDOW` pages past the furthest it was asked for, and drops the
answers to pages as far behind it, which the replay passed over (a page the spider did not extract: a
redirect, a split article's later page...); the first page of a split article is asked for after its
later pages.

With several workers (reextract's default: one per CPU) each has a share of the pages (:meth:`split`): the
pages whose position in replay order is the worker's number modulo the workers, so that all of them work
from the replay's start, as the replay asks them in turn; their pool hands each page's task to the worker
of its share (:meth:`owner`), any other task to any worker. Each worker computes ahead only its share,
within the same window (in positions: together they keep as many answers as one did).

Made in the main process by :func:`newscrawl.crawl.warc.look_ahead` (which knows the crawl's settings and
the site), used in the worker, where it reads the archive itself; it imports no Scrapy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import IO, Any

from newscrawl.crawl.workers import PageTask
from newscrawl.storage.warc import ArchivedResponse, ArchiveEntry, DamagedRecord, read_at

#: the charset parameter of a Content-Type header, as the spider reads it (newscrawl.spiders.news)
_CHARSET = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.IGNORECASE)
#: pages the worker extracts ahead of the last one it was asked for, at most (each answer kept is an
#: extraction as a dict, some kB: 64 hold a few MB, and keep a worker busy for a second or more)
WINDOW = 64
#: Content-Encoding values a page may carry for the worker to decode it as Scrapy's HttpCompressionMiddleware
#: does (other codings are left to the replay)
DECODED = frozenset({"", "identity", "gzip", "x-gzip", "deflate"})


@dataclass
class ArchiveLookahead:
    """The pages of an archive to extract ahead: each ``(entry, page kind)``, in replay order, and the task
    every page shares (``template``: its options and site fields; body, URL, charset, fetch time and page
    kind are each page's). Implements :class:`~newscrawl.crawl.workers.Lookahead`."""

    template: PageTask
    pages: list[tuple[ArchiveEntry, str | None]]
    window: int = WINDOW
    #: this lookahead's share of the pages: those at a position ``share`` modulo ``shares`` (:meth:`split`)
    share: int = 0
    shares: int = 1
    #: the worker's state (not sent): each page's position by URL (its first), the URLs computed ahead
    #: or asked for, the answers kept by URL with their position and task, the next position to compute,
    #: the last position asked for, open files, counts
    _index: dict[str, int] = field(default_factory=dict, repr=False)
    _done: set[str] = field(default_factory=set, repr=False)
    _kept: dict[str, tuple[int, PageTask, tuple[bool, Any]]] = field(default_factory=dict, repr=False)
    _next: int = 0
    _asked: int = -1
    _files: dict[str, IO[bytes]] = field(default_factory=dict, repr=False)
    _taken: int = 0
    _computed: int = 0

    def __post_init__(self) -> None:
        for position, (entry, _) in enumerate(self.pages):
            self._index.setdefault(entry.url, position)

    def __getstate__(self) -> dict[str, Any]:
        return {"template": self.template, "pages": self.pages, "window": self.window, "share": self.share,
                "shares": self.shares}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state)  # type: ignore[misc]

    def next(self) -> PageTask | None:
        """The task of the next page to compute ahead; None when there is none, or none within the window."""
        while self._next < len(self.pages) and self._next <= self._asked + self.window:
            position = self._next
            entry, kind = self.pages[position]
            self._next += 1
            if position % self.shares != self.share or self._index[entry.url] != position:
                continue  # another worker's, or twice in the archive (the replay reads its first)
            if entry.url in self._done:
                continue  # asked for already
            self._done.add(entry.url)
            task = self.task(entry, kind)
            if task is not None:
                self._computed += 1
                return task
        return None

    def task(self, entry: ArchiveEntry, kind: str | None) -> PageTask | None:
        """The task the extraction pipeline sends for ``entry`` (None for a page it does not extract as it
        stands: not a success, not HTML, coded in a way left to Scrapy, unreadable, or without a fetch
        time)."""
        try:
            response = read_at(self._file(entry.path), entry)
        except (DamagedRecord, OSError):
            return None
        if not 200 <= response.status < 300 or response.date is None or not response.is_html():
            return None
        coding = response.header("Content-Encoding").strip().lower()
        if coding not in DECODED:
            return None
        body = response.body if coding in ("", "identity") else response.decoded_body()
        # the spider's crawled_at (whole seconds, UTC, as ISO text) read back by the pipeline
        fetched = response.date.astimezone(UTC).replace(microsecond=0).isoformat(timespec="seconds")
        return replace(
            self.template,
            body=body,
            url=entry.url,
            http_charset=header_charset(response),
            reference_time=datetime.fromisoformat(fetched),
            page_kind=kind,
        )

    def _file(self, path: str) -> IO[bytes]:
        stream = self._files.get(path)
        if stream is None:
            stream = self._files[path] = open(path, "rb")  # noqa: SIM115 - open while the worker is
        return stream

    def keep(self, payload: PageTask, answer: tuple[bool, Any]) -> None:
        self._kept[payload.url] = (self._index[payload.url], payload, answer)

    def take(self, payload: Any) -> tuple[bool, Any] | None:
        """The answer kept for ``payload`` when it was computed for that very task (see the module)."""
        if not isinstance(payload, PageTask):
            return None
        self._done.add(payload.url)
        position = self._index.get(payload.url)
        if position is not None and position > self._asked:
            # the replay is at this page: what lies far behind it, it passed over (a page whose item waits
            # for others, a split article's first page, asks a little later)
            self._asked = position
            self._next = max(self._next, position + 1)
            for url in [u for u, (p, _, _) in self._kept.items() if p < position - self.window]:
                del self._kept[url]
        kept = self._kept.pop(payload.url, None)
        if kept is None:
            return None
        _, task, answer = kept
        if task.fingerprint and not payload.fingerprint:
            payload = replace(payload, fingerprint=True)
        if task != payload:
            return None
        self._taken += 1
        return answer

    def counts(self) -> tuple[int, int]:
        return self._taken, self._computed

    def split(self, count: int) -> list[ArchiveLookahead]:
        """``count`` lookaheads over this one's pages, the n-th computing ahead those at a position n modulo
        ``count`` (see the module): a worker's pages are spread over the whole replay, as its turns are."""
        return [
            ArchiveLookahead(self.template, self.pages, self.window, share, count) for share in range(count)
        ]

    def owner(self, payload: Any) -> int | None:
        """The share (of :meth:`split`'s lookaheads) that computes ``payload`` ahead: that of its page's
        first position; None for a task of a page not in the archive's list."""
        position = self._index.get(payload.url) if isinstance(payload, PageTask) else None
        return None if position is None else position % self.shares


def header_charset(response: ArchivedResponse) -> str | None:
    """The charset of the response's ``Content-Type``, as the spider reads it (the last such header)."""
    values = [v for k, v in response.headers if k.lower() == "content-type"]
    if not values:
        return None
    m = _CHARSET.search(values[-1])
    return m.group(1) if m else None
