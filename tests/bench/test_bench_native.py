"""``python -m newscrawl.bench.native``: the C statistics against the pure-Python ones over a dataset."""

from pathlib import Path

import pytest

from newscrawl.bench import native as check_native
from newscrawl.extract import native

needs_c = pytest.mark.skipif(
    native.cstats is None, reason=f"the C extension is not in use: {native.describe()}"
)


@needs_c
def test_every_statistics_extract_computes_is_compared(tiny_dataset: Path):
    lines: list[str] = []
    pages, compared, differ = check_native.check([tiny_dataset], lines.append)
    # per page: the whole parsed tree's statistics and counts, the body extract() computes statistics on,
    # and the attribute scans of the bytes and the text
    assert (pages, differ, lines) == (2, 0, [])
    assert compared >= 5 * pages


@needs_c
def test_an_attribute_scan_that_differs_is_named(tiny_dataset: Path, monkeypatch: pytest.MonkeyPatch):
    from newscrawl.extract import limits

    real = limits.python_attribute_counts

    def one_more(text, most=limits.MAX_ATTRIBUTES):  # type: ignore[no-untyped-def]
        yield from real(text, most)
        yield most + 1

    monkeypatch.setattr(limits, "python_attribute_counts", one_more)
    lines: list[str] = []
    pages, _, differ = check_native.check([tiny_dataset], lines.append)
    assert differ == len(lines) == 2 * pages  # the bytes and the text of each page
    assert lines[0].endswith(
        "attribute counts (bytes, max_attributes=1000), attribute counts (bytes, max_attributes=64), "
        "attribute counts (bytes, max_attributes=3), attribute counts (bytes, max_attributes=1) differ"
    )
    assert "(str, max_attributes=1000)" in lines[1]
    lines.clear()
    assert check_native.check_fuzz(3, 5, lines.append) == (6, 6)
    assert lines[0].startswith("fuzz 5:0 (")


@needs_c
def test_the_fuzz_inputs_scan_the_same() -> None:
    lines: list[str] = []
    assert check_native.check_fuzz(40, 2, lines.append) == (80, 0)
    assert lines == []


@needs_c
def test_a_difference_is_named(tiny_dataset: Path, monkeypatch: pytest.MonkeyPatch):
    from newscrawl.extract import stats

    real = stats.python_stats

    def off_by_one(body, block_tags=stats.BLOCK_TAGS):  # type: ignore[no-untyped-def]
        result = real(body, block_tags)
        result.chars[0] += 1
        return result

    monkeypatch.setattr(stats, "python_stats", off_by_one)
    lines: list[str] = []
    pages, _, differ = check_native.check([tiny_dataset], lines.append)
    assert differ == len(lines) >= pages  # (each statistics computed, not the tree counts)
    assert all(line.endswith(": chars differ") for line in lines)


def test_without_the_c_pass_it_says_so(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setattr(native, "cstats", None)
    assert check_native.main(["unused"]) == 2
    assert "statistics pass" in capsys.readouterr().out


@pytest.mark.skipif(native.csimhash is None, reason="the SimHash extension is not in use")
def test_a_fingerprint_that_differs_is_named(tiny_dataset: Path, monkeypatch: pytest.MonkeyPatch):
    from newscrawl.storage import dedup

    real = dedup.python_simhash
    monkeypatch.setattr(dedup, "python_simhash", lambda text, size=dedup.SHINGLE: real(text, size) ^ 1)
    lines: list[str] = []
    pages, _, differ = check_native.check([tiny_dataset], lines.append)
    assert differ == len(lines) == pages  # the cleaned text of each page's extraction
    assert all(line.endswith(": simhash differ") for line in lines)
    lines.clear()
    assert check_native.check_fuzz(3, 5, lines.append) == (6, 6)  # each input, whole and cut halfway
    assert all(line.endswith("simhash differ") for line in lines)
