"""The C statistics pass against the pure-Python one on every page of some datasets.

Every statistics list ``extract()`` computes (each call of ``compute_stats`` while it runs: the body after
noise stripping, the bodies a stage computes again) is computed both ways and compared list by list, with
the ``class`` and ``id`` lists; so is the whole parsed tree of each page (head and all, before any
stripping), and the C walk's element, attribute and depth counts and long class/id values of that tree
against the XPaths ``check_tree`` and ``cap_names`` otherwise run. Exit status 1 when any differs, naming
the page, or 2 when the C pass is not built::

    python -m newscrawl.bench.native ../shared/datasets/*
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from lxml import etree

#: the lists compared, as NodeStats names them
FIELDS = (
    "tag", "parent", "chars", "own_chars", "tags", "link_chars", "link_tags", "line", "depth", "line_sum",
    "classes", "ids",
)


def differences(body: object) -> list[str]:
    """The fields whose C and pure-Python values differ for ``body`` (with the element index)."""
    from newscrawl.extract import stats

    c, python = stats.compute_stats(body), stats.python_stats(body)  # type: ignore[arg-type]
    found = [name for name in FIELDS if getattr(c, name) != getattr(python, name)]
    if c.elements != python.elements or c.index != python.index:
        found.append("elements")
    return found


def tree_count_differences(root: etree._Element) -> list[str]:
    """The counts of the C tree walk that differ from the XPaths' for the parsed document ``root``."""
    from newscrawl.extract import limits, native

    assert native.cstats is not None
    counts = native.cstats.tree_counts(root, limits.MAX_NAME_CHARS)
    if counts is None:
        return ["tree_counts (not the document's top element)"]
    elements = root.iter(etree.Element)
    expected = (
        int(limits._COUNT_ELEMENTS(root)),
        int(limits._COUNT_ATTRIBUTES(root)),
        max(sum(1 for _ in el.iterancestors()) for el in elements),
        len(limits._LONG_NAMES(root)),
    )
    names = ("elements", "attributes", "depth", "long names")
    return [f"tree {name}" for name, a, b in zip(names, counts, expected, strict=True) if a != b]


def check(folders: Sequence[Path], out: Callable[[str], object] = print) -> tuple[int, int, int]:
    """(pages, statistics compared, statistics differing) over every page of ``folders``."""

    from newscrawl.evaluation.datasets import Dataset
    from newscrawl.extract import extract, stats
    from newscrawl.extract.document import ParseError, markup, parse_markup

    original = stats.compute_stats
    counts = {"compared": 0, "differ": 0}
    where = [""]

    def checked(body: etree._Element, *args: object, **kwargs: object) -> stats.NodeStats:
        counts["compared"] += 1
        found = differences(body)
        if found:
            counts["differ"] += 1
            out(f"{where[0]}: {', '.join(found)} differ")
        return original(body, *args, **kwargs)  # type: ignore[arg-type]

    # the modules that call it (the page's statistics, node weights), not stats itself: differences() does

    modules = list(sys.modules.values())
    patched = [m for m in modules if getattr(m, "compute_stats", None) is original and m is not stats]
    for module in patched:
        module.compute_stats = checked  # type: ignore[attr-defined]
    pages = 0
    try:
        for folder in folders:
            ds = Dataset(folder)
            for truth, page in ds:
                pages += 1
                where[0] = f"{ds.name}/{truth.id}"
                try:
                    root = parse_markup(markup(page.decode("utf-8", "replace")))
                except ParseError:
                    root = None
                if root is not None:
                    checked(root)
                    counts["compared"] += 1
                    if found := tree_count_differences(root):
                        counts["differ"] += 1
                        out(f"{where[0]}: {', '.join(found)} differ")
                extract(page, truth.http_url)
    finally:
        for module in patched:
            module.compute_stats = original  # type: ignore[attr-defined]
    return pages, counts["compared"], counts["differ"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m newscrawl.bench.native", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    parser.add_argument("datasets", nargs="+", type=Path, metavar="DATASET_DIR")
    args = parser.parse_args(argv)
    from newscrawl.extract import native

    print(native.describe())
    if native.cstats is None:
        return 2
    pages, compared, differ = check(args.datasets)
    print(f"{pages} pages, {compared} statistics and tree counts compared, C against Python: {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
