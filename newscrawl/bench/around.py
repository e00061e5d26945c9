"""What a page costs around ``extract()``: each part a crawl does per page, timed alone.

``python -m newscrawl.bench.around DIR... [--repeat N]`` takes the HTML pages of the given folders (a
dataset's pages, as ``bench-crawl --pages-from`` serves them) and, page by page, times in this process's
thread CPU time what a crawl with extraction workers does besides extraction: the task pickled by the
crawler and unpickled by the worker, ``extract()`` (for scale), the text cleaned and hashed and its SimHash
(worker), the answer made, pickled, unpickled and read back (worker and crawler), and the record's
full-text form (the crawler's SQLite writer thread). It prints milliseconds a page for each part, summed
over the pages and divided by their number, for every round. Alternate two trees (``PYTHONPATH``) to
compare them: one part's figure moves with the machine's load, the parts' ratios much less.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from multiprocessing.reduction import ForkingPickler

from newscrawl.bench.pages import page_files
from newscrawl.crawl.workers import PageTask, page_result
from newscrawl.extract import extract
from newscrawl.pipelines.normalize import clean_text, content_hash
from newscrawl.storage.dedup import simhash
from newscrawl.storage.search import index_form

#: the parts timed, in the order a page meets them (and where each runs)
PARTS = {
    "task pickled": "crawler",
    "task unpickled": "worker",
    "extract()": "worker",
    "clean text + content hash": "worker",
    "SimHash": "worker",
    "answer made and pickled": "worker",
    "answer unpickled and read": "crawler",
    "full-text form": "crawler (writer thread)",
}
#: pages extracted before timing (the first ones load what the library loads once)
WARM_PAGES = 20


def time_parts(bodies: Sequence[tuple[str, bytes]]) -> dict[str, float]:
    """Thread CPU seconds of each of :data:`PARTS` over the pages, summed."""
    spent = dict.fromkeys(PARTS, 0.0)
    clock = time.thread_time
    now = datetime.now(UTC)
    for url, body in bodies:
        task = PageTask(body, url, reference_time=now, page_kind="article", fingerprint=True)
        t0 = clock()
        sent = bytes(ForkingPickler.dumps(task))
        t1 = clock()
        task = pickle.loads(sent)
        t2 = clock()
        result = extract(task.body, task.url, reference_time=now, page_kind="article")
        t3 = clock()
        spent["task pickled"] += t1 - t0
        spent["task unpickled"] += t2 - t1
        spent["extract()"] += t3 - t2
        if not result.text:
            continue
        text = clean_text(result.text)
        digest = content_hash(text)
        t4 = clock()
        fingerprint = simhash(text)
        t5 = clock()
        data = result.to_dict()
        answer = bytes(ForkingPickler.dumps((True, (data, (digest, fingerprint, None)))))
        t6 = clock()
        page_result(pickle.loads(answer)[1])
        t7 = clock()
        index_form(text)
        t8 = clock()
        spent["clean text + content hash"] += t4 - t3
        spent["SimHash"] += t5 - t4
        spent["answer made and pickled"] += t6 - t5
        spent["answer unpickled and read"] += t7 - t6
        spent["full-text form"] += t8 - t7
    return spent


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.bench.around", description=__doc__)
    parser.add_argument("folders", nargs="+", metavar="DIR", help="folders of HTML pages (a dataset's)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N", help="rounds over the pages (1)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    try:
        files = page_files(args.folders)
    except ValueError as e:
        parser.error(str(e))
    bodies = [(f"http://127.0.0.1/a{path}", file.read_bytes()) for path, file in files.items()]
    time_parts(bodies[:WARM_PAGES])
    rounds = [time_parts(bodies) for _ in range(args.repeat)]
    print(f"{len(bodies)} pages, thread CPU ms a page, each round")
    print("| part | runs in | " + " | ".join(f"round {n}" for n in range(1, len(rounds) + 1)) + " |")
    print("|---|---|" + "---|" * len(rounds))
    for part, where in PARTS.items():
        figures = " | ".join(f"{spent[part] / len(bodies) * 1000:.3f}" for spent in rounds)
        print(f"| {part} | {where} | {figures} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
