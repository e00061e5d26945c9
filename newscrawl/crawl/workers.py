"""Extraction off the reactor: a pool of worker processes that each extract one page at a time.

:class:`WorkerPool` runs a task function (here :func:`page_job`: extraction and the text's SimHash) in
``workers`` processes. Each process has a dispatcher thread in the crawler that hands it tasks, up to
:data:`PREFETCH` at once (the one it works on and the next, which a reader thread in the worker takes off
the pipe: the worker never waits between two pages for the dispatcher, itself waiting for the GIL while
the reactor runs), reads the answers in order and resolves each task's
:class:`~concurrent.futures.Future`; the reactor thread never waits. A worker that dies on a page (a
crash in a C library, the OOM killer) or is still busy ``kill_after`` seconds after it began it (killed)
costs that page only: its future fails with :class:`WorkerFailed`, a fresh worker takes its place and is
handed the pages that waited in the lost one.

Workers are started with the pool (not on its first task) and forked from a fork server started once,
which has imported the library, warmed dateparser and extracted two sample pages
(:mod:`newscrawl.crawl.preload`: so a replacement starts warm in milliseconds, never by forking the
threaded crawler), ignore SIGINT (a Ctrl-C in the terminal reaches the whole process group; the crawler
decides when they stop) and exit when the crawler's end of their pipe closes, so none
outlives a crawler that was killed.

Workers forked ahead by ``newscrawl reextract`` (:func:`prestart`) are handed a :class:`Lookahead` split in
one share per worker (:func:`look_ahead`): each computes its share's tasks while none is asked of it. Their
pool then hands each task of a share to the dispatcher of that share, which took the worker forked for it
(whatever order the dispatchers start in), and any other task to whichever dispatcher is free first; a
worker lost is replaced in its dispatcher, which goes on with its share. A pool without a lookahead (a
crawl) keeps one queue for all its dispatchers.

The pool does not bound its queue: the crawler does. Scrapy stops downloading while the responses its
scraper holds exceed ``SCRAPER_SLOT_MAX_ACTIVE_SIZE`` bytes, and a response is held until its item has
left the pipelines, so the pages waiting here are bounded by that setting.
"""

from __future__ import annotations

import collections
import functools
import gc
import logging
import multiprocessing
import os
import queue
import resource
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import UTC, datetime
from multiprocessing.connection import Connection
from multiprocessing.context import ForkContext, ForkServerContext, SpawnContext
from pathlib import Path
from typing import Any, NamedTuple, Protocol, cast

from newscrawl.extract import Extraction, Limits, extract
from newscrawl.extract.metadata.dates import warm_up

logger = logging.getLogger(__name__)

#: the multiprocessing contexts a pool may start its workers with (each has ``Process`` and ``Pipe``)
_Context = ForkServerContext | SpawnContext | ForkContext


class _Worker(NamedTuple):
    process: multiprocessing.process.BaseProcess
    conn: Connection
    #: handed a :class:`Lookahead` (:func:`look_ahead`), it computes tasks before they are asked for: the
    #: share of the split lookahead it was handed (None: none)
    share: int | None = None


class Lookahead(Protocol):
    """Tasks a worker computes before they are asked for, while it has nothing else to do (one at a time,
    between two tasks asked for): :meth:`next` gives the next one (None: none now), :meth:`keep` stores
    its answer, :meth:`take` gives the answer kept for a task asked for, if that is the very task (else
    None: the worker computes it), so an answer computed ahead is never an answer to another task."""

    def next(self) -> Any | None: ...

    def keep(self, payload: Any, answer: tuple[bool, Any]) -> None: ...

    def take(self, payload: Any) -> tuple[bool, Any] | None: ...

    def counts(self) -> tuple[int, int]:
        """(answers taken, tasks computed ahead)."""
        ...

    def split(self, count: int) -> list[Lookahead]:
        """``count`` lookaheads over this one's tasks, each computing only its share (one per worker)."""
        ...

    def owner(self, payload: Any) -> int | None:
        """Which of the lookaheads :meth:`split` gave (this one among them) computes ``payload`` ahead;
        None when none does."""
        ...


#: seconds a new worker may take to import the extraction library and warm dateparser before it is
#: taken for broken (typically 0.5-1 s; a loaded 2-core machine can take several times that)
START_TIMEOUT = 60.0
#: seconds a worker asked to stop may take before it is killed
STOP_TIMEOUT = 5.0
#: modules the fork server imports once, so that every worker forked from it starts with them loaded (and
#: warm: :mod:`newscrawl.crawl.preload`)
PRELOAD = ["newscrawl.crawl.workers", "newscrawl.crawl.preload"]
#: hand-written article pages (Chinese, English) the fork server extracts once before it forks a worker, so
#: that what the library loads on its first pages is loaded once, there: in newscrawl/data/warmup/
WARM_PAGES = {"zh.html": "http://warm-up.example.cn/a/1.html", "en.html": "http://warm-up.example.com/a/1"}


def default_workers(reserve: int = 1) -> int:
    """CPUs this process may use, less ``reserve`` (one for a crawl's reactor); at least 1."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, cpus - reserve)


def reextract_workers() -> int:
    """The extraction workers a re-extraction starts by default: one per CPU, where a crawl leaves one
    CPU to its reactor. A replay's main process mostly waits for the workers -- it reads the archive and
    runs the spider, stage 2 and the sinks, no network -- so a CPU left to it would idle: on 2 CPUs,
    511 real pages were re-extracted at 1.00x ``newscrawl extract``'s speed with 2 workers against 0.79x
    with 1, and 1,000 portal pages at 0.60x against 0.54x (medians of 5 alternated rounds).
    """
    return default_workers(reserve=0)


class WorkerFailed(Exception):
    """A worker crashed, was killed or did not start; ``how`` is ``crashed``, ``killed`` or ``start``."""

    def __init__(self, how: str, message: str) -> None:
        super().__init__(message)
        self.how = how


# -- the job ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PageTask:
    """One page to extract, with everything ``extract`` needs; picklable."""

    body: bytes
    url: str
    algorithm: str = "auto"
    params: dict[str, Any] = field(default_factory=dict)
    limits: Limits | None = None
    http_charset: str | None = None
    reference_time: datetime | None = None
    timezone: str | None = None
    prune_xpath: str | tuple[str, ...] | None = None
    #: the site's XPath overrides as (field, expression) pairs
    field_xpaths: tuple[tuple[str, str], ...] = ()
    page_kind: str | None = None
    #: also compute the SimHash of the cleaned text (for the near-duplicate pipeline)
    fingerprint: bool = False


class Fingerprint(NamedTuple):
    """What stage 2 and the near-duplicate index need of an extracted text, computed once, by the worker."""

    content_hash: str
    simhash: int
    #: the text they were computed from: ``clean_text`` of the extraction's text (the record's text of a
    #: page not split over several)
    text: str


@dataclass(frozen=True)
class PageResult:
    extraction: Extraction
    #: of the cleaned extracted text, when asked for and there is text
    fingerprint: Fingerprint | None = None


def page_job(task: PageTask) -> PageResult:
    """Extract one page (and fingerprint its text): the work a worker does, and an inline crawl."""
    from newscrawl.pipelines.normalize import clean_text, content_hash
    from newscrawl.storage.dedup import simhash

    result = extract(
        task.body,
        task.url,
        algorithm=task.algorithm,
        http_charset=task.http_charset,
        reference_time=task.reference_time,
        timezone=task.timezone,
        prune_xpath=task.prune_xpath,
        field_xpaths=dict(task.field_xpaths),
        limits=task.limits,
        page_kind=task.page_kind,  # type: ignore[arg-type]
        **task.params,
    )
    fingerprint = None
    if task.fingerprint and result.text:
        text = clean_text(result.text)
        fingerprint = Fingerprint(content_hash(text), simhash(text), text)
    return PageResult(result, fingerprint)


#: :func:`run_page_job`'s answer: the extraction as a dict, and the fingerprint as (content hash,
#: SimHash, cleaned text or None when it is the extraction's text as it stands: not sent twice)
Answer = tuple[dict[str, Any], tuple[str, int, str | None] | None]


def run_page_job(task: PageTask) -> Answer:
    """:func:`page_job` with a picklable answer (an Extraction's read-only mappings cannot cross a pipe)."""
    result = page_job(task)
    data, fp = result.extraction.to_dict(), result.fingerprint
    if fp is None:
        return data, None
    return data, (fp.content_hash, fp.simhash, None if fp.text == data["text"] else fp.text)


def page_result(answer: Answer) -> PageResult:
    """The :class:`PageResult` of :func:`run_page_job`'s answer."""
    data, sent = answer
    extraction = Extraction.from_dict(data)
    if sent is None:
        return PageResult(extraction)
    digest, fingerprint, text = sent
    return PageResult(extraction, Fingerprint(digest, fingerprint, extraction.text if text is None else text))


def warm_extraction() -> None:
    """What a worker does before its first page: load dateparser's data (0.3 s on a first call; a worker
    forked from the fork server finds it loaded, and this takes a few milliseconds)."""
    warm_up()


def warm_fork_server() -> None:
    """What the fork server does once, before it forks the first worker: :func:`warm_extraction`, then
    :func:`page_job` on the :data:`WARM_PAGES` (about 0.15 s of CPU), so the patterns compiled on first
    use, dateparser's Chinese and English data and the other loads of a first page are done once and
    every worker starts with them (a worker's first 10 pages took 0.25 s of CPU without them, 0.08 s
    with); then the objects made so far are frozen (``gc.freeze``): a worker's garbage collections never
    walk them, nor touch their pages, which stay shared with the fork server. The English page declares
    its language: the language model (20 MB, 0.07 s) is left to the workers that meet a page needing it,
    which a crawl of Chinese sites never does.
    """
    warm_extraction()
    folder = Path(__file__).resolve().parents[1] / "data" / "warmup"
    now = datetime.now(UTC)
    for name, url in WARM_PAGES.items():
        page_job(PageTask((folder / name).read_bytes(), url, reference_time=now, fingerprint=True))
    gc.collect()
    gc.freeze()


# -- the worker process -----------------------------------------------------------------------------------

_READY = "ready"
_TASK, _STOP_WORKER, _AHEAD = "task", "stop", "ahead"


def _worker_main(conn: Connection, task: Callable[[Any], Any], warm: Callable[[], None] | None) -> None:
    """A worker's loop: answer ``(True, value)`` or ``(False, error text)`` per ``(_TASK, payload)``, in
    order, until told to stop (``(_STOP_WORKER,)``: it answers with its peak RSS in KiB, its CPU seconds
    and its :meth:`Lookahead.counts`) or the crawler's end of the pipe closes. ``(_AHEAD, lookahead)``
    (:func:`look_ahead`) has it compute the lookahead's tasks while no task waits in its inbox."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if warm is not None:
        warm()
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    threading.Thread(target=_read_messages, args=(conn, inbox), name="newscrawl-inbox", daemon=True).start()
    conn.send(_READY)
    ahead: Lookahead | None = None
    while True:
        if ahead is not None and inbox.empty() and (payload := ahead.next()) is not None:
            ahead.keep(payload, _run(task, payload))
            continue
        message = inbox.get()
        if message is None:
            return
        if message[0] == _AHEAD:
            ahead = message[1]
            continue
        if message[0] != _TASK:
            usage = resource.getrusage(resource.RUSAGE_SELF)
            counts = ahead.counts() if ahead is not None else (0, 0)
            conn.send((usage.ru_maxrss, usage.ru_utime + usage.ru_stime, *counts))
            return
        kept = ahead.take(message[1]) if ahead is not None else None
        conn.send(kept if kept is not None else _run(task, message[1]))


def _run(task: Callable[[Any], Any], payload: Any) -> tuple[bool, Any]:
    try:
        return True, task(payload)
    except Exception as e:  # the task's own error: this page fails, the worker goes on
        return False, f"{type(e).__name__}: {e}"


def _read_messages(conn: Connection, inbox: queue.SimpleQueue[Any]) -> None:
    """A worker's reader thread: every message off the pipe as it comes, into ``inbox`` (None once the
    pipe is closed), so that the crawler's hand-over of the next page never waits for this one's end."""
    while True:
        try:
            inbox.put(conn.recv())
        except (EOFError, OSError):
            inbox.put(None)
            return


# -- workers forked ahead of their pool ---------------------------------------------------------------------

#: workers forked by :func:`prestart`, by (task, warm-up), not yet taken by a pool
_PRESTARTED: dict[tuple[Callable[[Any], Any], Callable[[], None] | None], list[_Worker]] = {}
_PRESTARTED_LOCK = threading.Lock()


def prestart(
    task: Callable[[Any], Any],
    workers: int,
    *,
    warm: Callable[[], None] | None = None,
    preload: Callable[[], None] | None = None,
) -> None:
    """Fork ``workers`` workers running ``task`` now, straight from this process, for the next
    :class:`WorkerPool` of that task and warm-up (``warm``) to take before it starts any from its fork
    server. Each runs ``preload`` (what the fork server does once: :func:`warm_fork_server`) and ``warm``
    before it says it is ready.

    For a command that knows at its start that it will extract (``newscrawl reextract``), once it has
    imported the extraction library and before it starts a thread or imports Scrapy: a worker is then a
    copy of a small process that already holds the library (it warms up while this process goes on), and
    the fork server -- which would import the library a second time -- starts only if a worker has to be
    replaced. A worker no pool takes exits with this process. RuntimeError when this process runs other
    threads (forking one is unsafe).
    """
    if threading.active_count() > 1:
        raise RuntimeError("prestart: this process runs threads; forking it is unsafe")
    context = multiprocessing.get_context("fork")
    started = []
    for _ in range(workers):
        mine, theirs = context.Pipe(duplex=True)
        ready = functools.partial(_warm_twice, preload, warm) if preload is not None else warm
        process = context.Process(
            target=_worker_main, args=(theirs, task, ready), name="newscrawl-worker", daemon=True
        )
        process.start()
        theirs.close()
        started.append(_Worker(process, mine))
    with _PRESTARTED_LOCK:
        _PRESTARTED.setdefault((task, warm), []).extend(started)


def _warm_twice(first: Callable[[], None], then: Callable[[], None] | None) -> None:
    first()
    if then is not None:
        then()


#: the lookaheads split over workers :func:`prestart` forked, by (task, warm-up): how many shares, and
#: which share a task is of (:meth:`Lookahead.owner`), for the next pool of that task to route its tasks by
_SPLIT: dict[tuple[Callable[[Any], Any], Callable[[], None] | None], tuple[int, Callable[[Any], int | None]]]
_SPLIT = {}


def look_ahead(
    task: Callable[[Any], Any], warm: Callable[[], None] | None, lookahead: Lookahead, workers: int = 1
) -> bool:
    """Split ``lookahead`` in one share per worker of the pool to come (``workers``: :meth:`Lookahead.split`)
    and hand each share to a worker :func:`prestart` forked for ``task`` and ``warm``: it computes its
    share's tasks while none is asked of it, from now (before its pool takes it) to its end. That pool
    hands each task to the worker of its share (:meth:`Lookahead.owner`), the others to any of them; a
    share no worker forked ahead holds is computed as it is asked, by the worker the pool starts for it.
    False when no worker waits, or the waiting ones look ahead already.

    A task asked for is answered from the lookahead only when it is the very task computed ahead
    (:meth:`Lookahead.take`); a worker killed or crashed while it looked ahead has its pool hand the task it
    was asked once more to a fresh worker (it may have died on a task of its own choosing), which takes the
    lost one's share and computes its tasks as they come."""
    with _PRESTARTED_LOCK:
        waiting = _PRESTARTED.get((task, warm), [])
        if not waiting or any(worker.share is not None for worker in waiting):
            return False
        shares = lookahead.split(workers)
        for n, (worker, share) in enumerate(zip(waiting, shares, strict=False)):  # workers: prestarted ones
            try:
                worker.conn.send((_AHEAD, share))
            except (OSError, ValueError):
                pass  # a worker gone: its pool replaces it, and the replacement computes its share on demand
            waiting[n] = worker._replace(share=n)
        _SPLIT[(task, warm)] = (workers, shares[0].owner)
    return True


def _take_prestarted(
    task: Callable[[Any], Any], warm: Callable[[], None] | None, shares: tuple[int | None, ...] | None = None
) -> _Worker | None:
    """The first worker forked ahead for ``task`` and ``warm`` that no pool took; with ``shares``, the first
    of those whose share (:attr:`_Worker.share`) is one of them."""
    with _PRESTARTED_LOCK:
        waiting = _PRESTARTED.get((task, warm), [])
        for n, worker in enumerate(waiting):
            if shares is None or worker.share in shares:
                return waiting.pop(n)
        return None


def _take_split(
    task: Callable[[Any], Any], warm: Callable[[], None] | None
) -> tuple[int, Callable[[Any], int | None]] | None:
    with _PRESTARTED_LOCK:
        return _SPLIT.pop((task, warm), None)


# -- the pool -----------------------------------------------------------------------------------------------

_STOP = object()
#: tasks handed to one worker at once: the one it works on and the next, so that it never waits between
#: two pages for the crawler's dispatcher thread (which waits for the GIL while the reactor runs)
PREFETCH = 2


#: seconds a worker may be busy on one task before the other workers take the tasks waiting for it (routed
#: shares): a page takes milliseconds; one past this is hostile or enormous, and its share's pages would
#: otherwise wait for it until the kill limit while the other workers idle
STEAL_AFTER = 1.0


class _Routed:
    """A pool's queue while its workers share a split lookahead (:func:`look_ahead`): the tasks of each share,
    which only that share's dispatcher takes, and the others, which any takes (after its share's). The tasks
    of a share whose worker has been busy on one task for ``STEAL_AFTER`` seconds are taken by any idle
    dispatcher (their answers computed ahead, if any, are not used)."""

    def __init__(self, shares: int, steal_after: float = STEAL_AFTER) -> None:
        self._ready = threading.Condition()
        self._own: list[collections.deque[Any]] = [collections.deque() for _ in range(shares)]
        self._any: collections.deque[Any] = collections.deque()
        #: when each share's worker began the task it is on (None: not waiting for an answer)
        self._busy: list[float | None] = [None] * shares
        self.steal_after = steal_after
        #: tasks taken from the share of a busy worker
        self.stolen = 0

    def put(self, job: Any, share: int | None = None) -> None:
        with self._ready:
            (self._any if share is None else self._own[share]).append(job)
            self._ready.notify_all()

    def busy(self, share: int, since: float | None) -> None:
        """Say that ``share``'s worker began a task at ``since`` (None: it answered)."""
        with self._ready:
            self._busy[share] = since
            if since is not None:
                self._ready.notify_all()  # a dispatcher waiting for work may take this share's in time

    def get(self, share: int | None, block: bool = True) -> Any:
        """The next job of ``share``, else the next of none, else the next of a share whose worker is stuck;
        :class:`queue.Empty` when none waits and not ``block``."""
        with self._ready:
            while True:
                if share is not None and self._own[share]:
                    return self._own[share].popleft()
                if self._any:
                    return self._any.popleft()
                wait: float | None = None
                now = time.monotonic()
                for other, since in enumerate(self._busy):
                    if other == share or since is None or not self._own[other]:
                        continue
                    left = since + self.steal_after - now
                    if left <= 0:
                        self.stolen += 1
                        return self._own[other].popleft()
                    wait = left if wait is None else min(wait, left)
                if not block:
                    raise queue.Empty
                self._ready.wait(wait)


@dataclass
class _Sent:
    """A task handed to a worker; ``started``: when the worker began it (None while it waits there)."""

    payload: Any
    future: Future[Any]
    started: float | None


class WorkerPool:
    """``workers`` processes running ``task`` (a module-level function, as processes import it by name).

    >>> pool = WorkerPool(abs, workers=1); pool.start()
    >>> pool.submit(-3).result(timeout=60)
    3
    >>> pool.close()
    """

    def __init__(
        self,
        task: Callable[[Any], Any],
        workers: int,
        *,
        kill_after: float | None = None,
        warm: Callable[[], None] | None = None,
        start_method: str = "forkserver",
    ) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers!r}")
        if kill_after is not None and kill_after <= 0:
            raise ValueError(f"kill_after must be positive or None, not {kill_after!r}")
        self.task = task
        self.workers = workers
        self.kill_after = kill_after
        self.warm = warm
        self.context = cast(_Context, multiprocessing.get_context(start_method))
        if start_method == "forkserver":
            self.context.set_forkserver_preload(PRELOAD)
        self._queue: queue.Queue[Any] = queue.Queue()
        #: while the workers forked ahead share a split lookahead: the queue by share, and a task's share
        self._routed: _Routed | None = None
        self._owner: Callable[[Any], int | None] | None = None
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        #: tasks whose worker crashed / was killed, and workers started (replacements included)
        self.crashed = 0
        self.killed = 0
        self.started = 0
        #: the peak resident set size (KiB) and the CPU seconds each worker stopped by :meth:`close`
        #: reported (workers are forked by the fork server, so the crawler's rusage never counts them)
        self.peak_rss_kib: list[int] = []
        self.cpu_seconds: list[float] = []
        #: answers the workers stopped by :meth:`close` gave from their lookahead, and tasks they computed
        #: ahead (:func:`look_ahead`)
        self.ahead_taken = 0
        self.ahead_computed = 0

    @property
    def stolen(self) -> int:
        """Tasks an idle worker took from the share of a worker stuck on one task (routed shares)."""
        return 0 if self._routed is None else self._routed.stolen

    # -- life cycle

    def start(self) -> None:
        """Start the workers (each imports the library and warms up before it takes a task)."""
        if self._threads:
            return
        split = _take_split(self.task, self.warm)
        # a share for each worker, else one queue as in a crawl (one worker has every task its own anyway)
        if split is not None and split[0] == self.workers > 1:
            self._owner = split[1]
            self._routed = _Routed(self.workers)
        for n in range(self.workers):
            # the n-th dispatcher takes the worker of the n-th share (not the n-th worker forked ahead:
            # dispatchers start in any order), and its share's tasks
            thread = threading.Thread(
                target=self._dispatch, args=(n,), name=f"newscrawl-worker-{n}", daemon=True
            )
            self._threads.append(thread)
            thread.start()

    def close(self, timeout: float = STOP_TIMEOUT) -> None:
        """Let the queued tasks finish, then stop every worker (killing one that does not stop)."""
        for _ in self._threads:
            (self._queue if self._routed is None else self._routed).put(_STOP)
        for thread in self._threads:
            thread.join()
        self._threads = []

    def submit(self, payload: Any) -> Future[Any]:
        """Queue ``payload``; the future gets the task's value, or fails with :class:`WorkerFailed` (a
        crash or a kill) or :class:`RuntimeError` (the task raised; the message is its error)."""
        if not self._threads:
            raise RuntimeError("WorkerPool.submit before start()")
        future: Future[Any] = Future()
        if self._routed is None or self._owner is None:
            self._queue.put((payload, future))
        else:
            self._routed.put((payload, future), self._owner(payload))
        return future

    # -- one dispatcher thread per worker

    def _spawn(self, share: int) -> tuple[multiprocessing.process.BaseProcess, Connection, bool]:
        """A worker ready for tasks: one :func:`prestart` forked (while tasks are routed by share, the
        worker of ``share``, or one of none), else a new one; and whether it looks ahead
        (:func:`look_ahead`)."""
        shares = None if self._routed is None else (share, None)
        prestarted = _take_prestarted(self.task, self.warm, shares)
        ahead = False
        if prestarted is not None:
            process, mine, ahead = prestarted.process, prestarted.conn, prestarted.share is not None
        else:
            mine, theirs = self.context.Pipe(duplex=True)
            process = self.context.Process(
                target=_worker_main, args=(theirs, self.task, self.warm), name="newscrawl-worker",
                daemon=True,
            )
            process.start()
            theirs.close()
        with self._lock:
            self.started += 1
        try:
            ready = mine.poll(START_TIMEOUT) and mine.recv() == _READY
        except (EOFError, OSError):
            ready = False
        if not ready:
            _kill(process)
            mine.close()
            raise WorkerFailed(
                "start", f"a worker did not start within {START_TIMEOUT:g} s (exit code {process.exitcode})"
            )
        return process, mine, ahead

    def _dispatch(self, share: int) -> None:
        """Hand tasks to a worker (that of ``share`` while tasks are routed by share); read its answers."""
        get = self._queue.get if self._routed is None else functools.partial(self._routed.get, share)
        process: multiprocessing.process.BaseProcess | None = None
        conn: Connection | None = None
        #: tasks handed to the current worker, oldest first (it works on the first, the others wait)
        sent: collections.deque[_Sent] = collections.deque()
        #: tasks handed to a worker that was lost before it took them: handed to its replacement first
        retry: collections.deque[tuple[Any, Future[Any]]] = collections.deque()
        stopping = False
        #: the current worker looks ahead (:func:`look_ahead`): lost, it may have died on a task of its own
        ahead = False
        try:
            try:  # now, not on the first task: the first pages find their workers started and warm
                process, conn, ahead = self._spawn(share)
            except WorkerFailed:
                pass  # the first task tries again, and fails with the reason if it fails again
            while True:
                # hand over tasks until PREFETCH wait in the worker (waiting for one only when it has none)
                while len(sent) < PREFETCH:
                    if retry:
                        payload, future = retry.popleft()
                    elif stopping:
                        break
                    else:
                        try:
                            job = get(block=not sent)
                        except queue.Empty:
                            break
                        if job is _STOP:
                            stopping = True
                            continue
                        payload, future = job
                        if not future.set_running_or_notify_cancel():
                            continue
                    try:
                        if process is None or conn is None:
                            process, conn, ahead = self._spawn(share)
                        conn.send((_TASK, payload))
                    except WorkerFailed as e:
                        future.set_exception(e)
                        continue
                    except (OSError, ValueError) as e:  # the worker is gone
                        if sent:  # it died on the task it works on: that one fails below, this one waits
                            retry.appendleft((payload, future))
                            break
                        assert process is not None
                        failed = self._crashed(process, e)
                        if ahead:  # lost on a task it computed ahead: this one goes to a fresh worker
                            retry.appendleft((payload, future))
                        else:
                            future.set_exception(failed)
                        ahead = False
                        _kill(process)
                        process = conn = None
                        continue
                    sent.append(_Sent(payload, future, time.monotonic() if not sent else None))
                if not sent:
                    if stopping and not retry:
                        break
                    continue
                assert process is not None and conn is not None
                head = sent.popleft()
                started = head.started or time.monotonic()
                if self._routed is not None:
                    self._routed.busy(share, started)
                try:
                    head.future.set_result(self._answer(process, conn, started))
                except RuntimeError as e:
                    head.future.set_exception(e)
                except Exception as e:  # WorkerFailed, or the pipe broke some other way: a fresh worker
                    _kill(process)
                    process = conn = None
                    if not isinstance(e, WorkerFailed):
                        e = WorkerFailed("crashed", f"worker lost: {type(e).__name__}: {e}")
                    retry.extendleft((s.payload, s.future) for s in reversed(sent))
                    sent.clear()
                    if ahead:  # it may have been lost on a task computed ahead: the head is tried again
                        retry.appendleft((head.payload, head.future))
                    else:
                        head.future.set_exception(e)
                    ahead = False
                if self._routed is not None:
                    self._routed.busy(share, None)
                if sent:
                    sent[0].started = time.monotonic()
        finally:
            for _, future in [*((s.payload, s.future) for s in sent), *retry]:  # only after a bug
                future.set_exception(WorkerFailed("crashed", "worker pool stopped"))
            if process is not None and conn is not None:
                usage = _stop(process, conn)
                if usage is not None:
                    with self._lock:
                        self.peak_rss_kib.append(usage[0])
                        self.cpu_seconds.append(usage[1])
                        self.ahead_taken += usage[2]
                        self.ahead_computed += usage[3]

    def _crashed(self, process: multiprocessing.process.BaseProcess, error: BaseException) -> WorkerFailed:
        process.join(1)
        with self._lock:
            self.crashed += 1
        code = process.exitcode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        failed = WorkerFailed("crashed", f"worker crashed ({how})")
        failed.__cause__ = error
        return failed

    def _answer(self, process: multiprocessing.process.BaseProcess, conn: Connection, started: float) -> Any:
        """The answer to the first task handed to the worker, which it began at ``started``."""
        try:
            left = None if self.kill_after is None else max(0.0, started + self.kill_after - time.monotonic())
            if not conn.poll(left):
                with self._lock:
                    self.killed += 1
                raise WorkerFailed("killed", f"worker killed: no answer after {self.kill_after:g} s")
            ok, value = conn.recv()
        except (EOFError, OSError) as e:
            raise self._crashed(process, e) from e
        if not ok:
            raise RuntimeError(value)
        return value


def _kill(process: multiprocessing.process.BaseProcess) -> None:
    process.kill()
    process.join(STOP_TIMEOUT)


def _stop(
    process: multiprocessing.process.BaseProcess, conn: Connection
) -> tuple[int, float, int, int] | None:
    """Ask a worker to stop; its peak RSS in KiB, CPU seconds and lookahead counts (answers taken from it,
    tasks computed ahead), when it answered."""
    usage = None
    try:
        conn.send((_STOP_WORKER,))
        if conn.poll(STOP_TIMEOUT):
            peak, cpu, taken, computed = conn.recv()
            usage = (int(peak), float(cpu), int(taken), int(computed))
    except (EOFError, OSError, ValueError, TypeError):
        pass
    process.join(STOP_TIMEOUT)
    if process.is_alive():
        _kill(process)
    conn.close()
    return usage
