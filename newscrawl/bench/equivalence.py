"""Same records from two trees of the code: ``extract()`` old against new on every page of some datasets.

A speed change must not change what a reader sees. This runs ``extract()`` from each of two source trees
(each in a process of its own, ``PYTHONPATH`` set to the tree, so both can be any commit, this module
need not exist in the old one) over every page of the given datasets, with one fixed reference time (a
relative "3小时前" resolves alike), and compares the records field by field: text, title, dates, people,
images, tags, figures, sources, entries, error... Exit status 1 when any page differs, naming the page and
the fields::

    python -m newscrawl.bench.equivalence /tmp/old-tree . ../shared/datasets/* --algorithm auto
    python -m newscrawl.bench.equivalence /tmp/old-tree . ../shared/datasets/* --algorithm all --jobs 2

``--jobs 2`` runs the two trees side by side (one process each); ``--out DIR`` keeps each tree's records
(one JSON line per page and algorithm) for a closer look.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

#: the clock every relative time on the pages is resolved against, in both trees
REFERENCE_TIME = "2026-11-24T00:00:00+00:00"

#: run with ``PYTHONPATH`` set to a tree: writes one JSON line per page and algorithm to ``argv[1]``.
#: Only the long-standing public API is used (``extract``, ``Extraction.to_dict``, the dataset reader),
#: so any tree of the project can run it
_DUMP = r"""
import json, sys
from pathlib import Path
from datetime import datetime
from newscrawl.evaluation.datasets import Dataset
from newscrawl.extract import ALGORITHMS, extract

out, reference, algorithms, folders = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
when = datetime.fromisoformat(reference)
algos = list(ALGORITHMS) if algorithms == "all" else algorithms.split(",")
with open(out, "w", encoding="utf-8") as f:
    for folder in folders:
        ds = Dataset(Path(folder))
        for truth in ds.truths():
            page = ds.read_page(truth)
            for algo in algos:
                record = extract(page, truth.http_url, algorithm=algo, reference_time=when).to_dict()
                key = {"dataset": ds.name, "id": truth.id, "algorithm": algo}
                f.write(json.dumps({**key, "record": record}, ensure_ascii=False, sort_keys=True) + "\n")
"""


def dump(tree: Path, datasets: Sequence[Path], algorithms: str, out: Path) -> subprocess.Popen[bytes]:
    """Start a process extracting every page of ``datasets`` with the code of ``tree`` into ``out``."""
    env = {**os.environ, "PYTHONPATH": str(tree.resolve())}
    folders = [str(d.resolve()) for d in datasets]
    args = [sys.executable, "-c", _DUMP, str(out), REFERENCE_TIME, algorithms, *folders]
    return subprocess.Popen(args, env=env, cwd=str(tree.resolve()))


def read_records(path: Path) -> dict[tuple[str, str, str], dict[str, Any]]:
    """The records of one dump by (dataset, page id, algorithm)."""
    out: dict[tuple[str, str, str], dict[str, Any]] = {}
    with path.open(encoding="utf-8") as f:
        for line in f:
            obj = json.loads(line)
            out[(obj["dataset"], obj["id"], obj["algorithm"])] = obj["record"]
    return out


def differing_fields(old: Mapping[str, Any], new: Mapping[str, Any], prefix: str = "") -> Iterator[str]:
    """The fields of two records (dicts, nested) whose values differ, dotted for nested ones.

    >>> list(differing_fields({"text": "a", "figures": {"x": 1, "y": 2}}, {"text": "a", "figures": {"x": 1}}))
    ['figures.y']
    """
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key, _MISSING), new.get(key, _MISSING)
        if isinstance(a, Mapping) and isinstance(b, Mapping):
            yield from differing_fields(a, b, f"{prefix}{key}.")
        elif a != b or type(a) is not type(b):
            yield f"{prefix}{key}"


_MISSING = object()


def compare(old: Path, new: Path) -> list[str]:
    """One line per page whose records differ (or that one dump lacks), naming the fields."""
    a, b = read_records(old), read_records(new)
    lines = []
    for key in sorted(set(a) | set(b)):
        name = "/".join(key)
        if key not in a or key not in b:
            lines.append(f"{name}: only in the {'new' if key not in a else 'old'} tree's records")
            continue
        fields = list(differing_fields(a[key], b[key]))
        if fields:
            lines.append(f"{name}: {', '.join(fields)}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.bench.equivalence", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", type=Path, help="the old tree (a worktree of the commit to compare with)")
    parser.add_argument("new", type=Path, help="the new tree")
    parser.add_argument("datasets", type=Path, nargs="+", help="dataset folders (pages/, truth.jsonl)")
    parser.add_argument("--algorithm", default="auto",
                        help="an algorithm, several joined by commas, or 'all' (default: auto)")
    parser.add_argument("--jobs", type=int, choices=(1, 2), default=1,
                        help="2: run the two trees at once (default: one after the other)")
    parser.add_argument("--out", type=Path, help="keep the records here (old.jsonl, new.jsonl)")
    args = parser.parse_args(argv)
    for tree in (args.old, args.new):
        if not (tree / "newscrawl" / "extract").is_dir():
            parser.error(f"{tree} is not a tree of newscrawl (no newscrawl/extract)")
    datasets = [d for d in args.datasets if (d / "truth.jsonl").is_file()]
    for skipped in sorted(set(args.datasets) - set(datasets)):
        print(f"equivalence: {skipped} is no dataset (no truth.jsonl): skipped", file=sys.stderr)
    if not datasets:
        parser.error("no dataset folder given")
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.out or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        outs = folder / "old.jsonl", folder / "new.jsonl"
        procs = []
        for tree, out in zip((args.old, args.new), outs, strict=True):
            procs.append(dump(tree, datasets, args.algorithm, out))
            if args.jobs == 1:
                procs[-1].wait()
        if any(p.wait() != 0 for p in procs):
            print("equivalence: a tree's extraction failed (see above)", file=sys.stderr)
            return 2
        lines = compare(*outs)
        pages = len(read_records(outs[1]))
    for line in lines:
        print(line)
    print(f"{pages} records compared, {len(lines)} differ")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
