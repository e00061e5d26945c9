"""The C statistics pass against the pure-Python one on every page of some datasets.

Every statistics list ``extract()`` computes (each call of ``compute_stats`` while it runs: the body after
noise stripping, the bodies a stage computes again) is computed both ways and compared list by list, with
the ``class`` and ``id`` lists; so is the whole parsed tree of each page (head and all, before any
stripping), and the C walk's element, attribute and depth counts and long class/id values of that tree
against the XPaths ``check_tree`` and ``cap_names`` otherwise run; and the C attribute scan's counts
against the regular expressions' (``limits.python_attribute_counts``), on the bytes lxml is given and on
the text, at the page limit and at limits low enough to count most tags; and the C forms of ``markup``'s
byte searches (``</body>`` removal, control references) against their regular expressions; and the C
SimHash (``_csimhash``) against ``dedup.python_simhash`` on the cleaned text of each extraction, as a
crawl's worker fingerprints it. ``--fuzz N`` compares the scans, searches and SimHash (of the input taken
as text) on the first N inputs of ``python -m newscrawl.bench.fuzz`` too. Exit status 1 when any differs,
naming the page, or 2 when the C pass is not built::

    python -m newscrawl.bench.native ../shared/datasets/* --fuzz 2000
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


#: the attribute limits the scans are compared at: the default, the light run's own, and low ones under
#: which most tags of a page are counted
SCAN_LIMITS = (1_000, 64, 3, 1)


def attribute_count_differences(page: str | bytes) -> list[str]:
    """The limits at which the C attribute scan's counts differ from the regular expressions' on ``page``."""
    from newscrawl.extract import limits

    assert limits._c_attribute_counts is not None
    return [
        f"attribute counts ({type(page).__name__}, max_attributes={most})"
        for most in SCAN_LIMITS
        if list(limits.attribute_counts(page, most)) != list(limits.python_attribute_counts(page, most))
    ]


def markup_search_differences(data: bytes) -> list[str]:
    """The byte searches of :func:`newscrawl.extract.document.markup` whose C and regular-expression
    answers differ on ``data``."""
    from newscrawl.extract import document

    found = []
    if document.strip_body_ends(data) != document._strip_body_ends(data):
        found.append("body ends")
    if document.has_control_reference(data) is not document._has_control_reference(data):
        found.append("control references")
    return found


def simhash_differences(text: str) -> list[str]:
    """``["simhash"]`` when the C SimHash of ``text`` differs from the pure-Python one (nothing is compared
    when the SimHash extension is not in use)."""
    from newscrawl.extract import native
    from newscrawl.storage import dedup

    if native.csimhash is None or dedup.simhash(text) == dedup.python_simhash(text):
        return []
    return ["simhash"]


def check_fuzz(inputs: int, seed: int, out: Callable[[str], object] = print) -> tuple[int, int]:
    """(scans compared, scans differing) over the first ``inputs`` inputs of the fuzzer's ``seed``."""
    from newscrawl.bench.fuzz import make_input

    compared = differ = 0
    for index in range(inputs):
        kind, page, _ = make_input(seed, index)
        data = page.encode("utf-8", "surrogatepass") if isinstance(page, str) else page
        for form in (page, data[: len(data) // 2]):  # and cut halfway: a truncated tag, value or comment
            compared += 1
            found = attribute_count_differences(form)
            if isinstance(form, bytes):
                found += markup_search_differences(form)
            found += simhash_differences(form if isinstance(form, str) else form.decode("utf-8", "replace"))
            if found:
                differ += 1
                out(f"fuzz {seed}:{index} ({kind}): {', '.join(found)} differ")
    return compared, differ


def check(folders: Sequence[Path], out: Callable[[str], object] = print) -> tuple[int, int, int]:
    """(pages, statistics compared, statistics differing) over every page of ``folders``."""

    from newscrawl.evaluation.datasets import Dataset
    from newscrawl.extract import extract, stats
    from newscrawl.extract.document import ParseError, markup, parse_markup
    from newscrawl.pipelines.normalize import clean_text

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
                text = page.decode("utf-8", "replace")
                for form in (markup(text), text):
                    counts["compared"] += 1
                    found = attribute_count_differences(form)
                    if isinstance(form, bytes):  # (and the page's bytes, before markup removed anything)
                        found += markup_search_differences(form) + markup_search_differences(page)
                    if found:
                        counts["differ"] += 1
                        out(f"{where[0]}: {', '.join(found)} differ")
                try:
                    root = parse_markup(markup(text))
                except ParseError:
                    root = None
                if root is not None:
                    checked(root)
                    counts["compared"] += 1
                    if found := tree_count_differences(root):
                        counts["differ"] += 1
                        out(f"{where[0]}: {', '.join(found)} differ")
                result = extract(page, truth.http_url)
                if result.text:  # fingerprinted as a crawl's worker does (workers.page_job)
                    counts["compared"] += 1
                    if found := simhash_differences(clean_text(result.text)):
                        counts["differ"] += 1
                        out(f"{where[0]}: {', '.join(found)} differ")
    finally:
        for module in patched:
            module.compute_stats = original  # type: ignore[attr-defined]
    return pages, counts["compared"], counts["differ"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m newscrawl.bench.native", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    parser.add_argument("datasets", nargs="+", type=Path, metavar="DATASET_DIR")
    parser.add_argument(
        "--fuzz", type=int, default=0, metavar="N", help="fuzz inputs to compare the scans on"
    )
    parser.add_argument("--seed", type=int, default=1, help="the fuzz run's seed (default: 1)")
    args = parser.parse_args(argv)
    from newscrawl.extract import limits, native

    print(native.describe())
    if native.cstats is None or limits._c_attribute_counts is None:
        return 2
    pages, compared, differ = check(args.datasets)
    print(
        f"{pages} pages, {compared} statistics, tree counts, attribute scans and fingerprints compared, "
        "C against Python: "
        f"{differ} differ"
    )
    if args.fuzz:
        scans, fuzz_differ = check_fuzz(args.fuzz, args.seed)
        print(
            f"{args.fuzz} fuzz inputs (seed {args.seed}), {scans} attribute scans and fingerprints compared: "
            f"{fuzz_differ} differ"
        )
        differ += fuzz_differ
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
