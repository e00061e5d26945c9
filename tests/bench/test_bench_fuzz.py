"""python -m newscrawl.bench.fuzz: reproducible inputs, what counts as a failure, slow inputs saved."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from newscrawl.bench import fuzz
from newscrawl.extract import extract

ARTICLE = "<html><body><h1>标题</h1>" + "<p>" + "正文内容很长。" * 60 + "</p></body></html>"


def test_an_input_is_made_again_from_its_seed_and_number_alone():
    assert fuzz.make_input(7, 123) == fuzz.make_input(7, 123)
    assert fuzz.make_input(7, 123) != fuzz.make_input(7, 124)
    assert fuzz.make_input(7, 123) != fuzz.make_input(8, 123)


def test_inputs_cover_every_kind_and_both_types():
    kinds = set()
    types = set()
    for i in range(600):
        kind, page, algorithm = fuzz.make_input(1, i)
        kinds.add(kind.split(" ")[0].rstrip(":"))
        types.add(type(page))
    assert {"mutated", "generated", "tag", "text", "re-encoded", "binary", "heavy"} <= kinds
    assert types == {bytes, str}


def large_inputs(seed: int, count: int) -> list[tuple[int, int]]:
    """(number, size) of the large inputs among the first ``count`` of ``seed``."""
    made = ((i, fuzz.make_input(seed, i)) for i in range(count))
    return [(i, len(page)) for i, (kind, page, _) in made if kind.startswith("large")]


def test_large_inputs_are_the_shapes_up_to_the_size_limit():
    sizes = [size for _, size in large_inputs(2, 4000)]
    assert sizes and all(50_000 < size <= 8 * 1024 * 1024 + 100_000 for size in sizes)


@pytest.mark.parametrize("op", fuzz.OPS)
def test_every_mutation_changes_the_page(op):
    page = fuzz.SEEDS[0]
    changed = [fuzz.mutate(page, [op], random.Random(n)) != page for n in range(20)]
    assert sum(changed) >= 15


def test_generated_pages_are_news_pages_with_a_head_and_a_body():
    page = fuzz.generate_page(random.Random(5))
    assert page.count("<head>") == 1 and page.endswith("</body></html>")
    assert extract(page).error is None or "nothing" in (extract(page).error or "")


def test_a_well_formed_record_has_no_problems():
    assert fuzz.problems(extract(ARTICLE)) == []
    assert fuzz.problems(extract(b"\x00\x01\x02" * 100)) == []  # an error is a documented outcome


@pytest.mark.parametrize(
    "change,problem",
    [
        ({"error": "internal error: KeyError: 'x'", "text": ""}, "internal error"),
        ({"error": "undecodable page"}, "an error with text"),
        ({"published_at": "2024-13-45"}, "published_at is not an ISO"),
        ({"page_kind": "video"}, "page_kind"),
        ({"title": 5}, "title is not a str"),
        ({"text": "a\x00b"}, "NUL"),
    ],
)
def test_a_malformed_record_is_a_problem(change, problem):
    record = replace(extract(ARTICLE), **change)
    assert any(problem in p for p in fuzz.problems(record)), fuzz.problems(record)


def test_a_failed_metadata_chain_is_a_problem():
    record = extract(ARTICLE)
    record = replace(record, figures={**record.figures, "metadata_failures": {"author": "ValueError"}})
    assert any("metadata_failures" in p for p in fuzz.problems(record))


def test_percentiles_take_the_nearest_rank():
    values = [float(v) for v in range(1, 10_001)]
    assert fuzz.percentile(values, 0.999) == 9990 and fuzz.percentile(values, 1.0) == 10_000
    assert fuzz.percentile([], 0.5) == 0.0


def test_an_input_over_the_limit_twice_is_over_it_and_saved_for_reproduction(tmp_path):
    result = fuzz.run_input(3, 4, limit=1e-9)  # every input takes more than a nanosecond
    assert result["cpu"] > 0 and result["cpu_again"] > 0 and fuzz.over_limit(result, 1e-9)
    assert not fuzz.over_limit(result, 10.0)
    assert not fuzz.over_limit({**result, "cpu_again": 0.0}, 1e-9)  # slow only the first time
    path = fuzz.save_input(tmp_path, 3, result)
    kind, page, _ = fuzz.make_input(3, 4)
    assert path.read_bytes() == (page.encode("utf-8", "surrogatepass") if isinstance(page, str) else page)
    assert json.loads(path.with_suffix(".json").read_text("utf-8"))["i"] == 4


def run(out, *args: str) -> int:
    return fuzz.main(["--seed", "5", "--jobs", "1", "--out", str(out), *args])


def test_a_run_reports_resumes_and_exits_0_when_nothing_failed(tmp_path, capsys):
    out = tmp_path / "run"
    assert run(out, "--inputs", "12", "--limit", "30") == 0
    lines = (out / "results-5.jsonl").read_text("utf-8").splitlines()
    assert sorted(json.loads(line)["i"] for line in lines) == list(range(12))
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert report["inputs"] == 12 and report["failures"] == [] and report["over_limit"] == []
    cpu = report["cpu_seconds"]
    assert 0 < cpu["median"] <= cpu["p99.9"] <= cpu["max"]
    printed = capsys.readouterr().out
    assert "12 inputs" in printed and "p99.9" in printed
    # a second run with the same folder and seed finds every input done and runs none again
    assert run(out, "--inputs", "12", "--limit", "30") == 0
    assert len((out / "results-5.jsonl").read_text("utf-8").splitlines()) == 12
    # a later range goes on from there; the report covers the range asked for
    assert run(out, "--first", "12", "--inputs", "3", "--limit", "30") == 0
    assert json.loads((out / "report.json").read_text("utf-8"))["inputs"] == 3
    assert len((out / "results-5.jsonl").read_text("utf-8").splitlines()) == 15


def test_an_input_running_past_the_timeout_is_killed_counted_and_saved(tmp_path):
    # the largest input among the first thousands: megabytes, far more than 0.05 s of work
    number, size = max(large_inputs(5, 3000), key=lambda found: found[1])
    assert size > 1_000_000
    out = tmp_path / "run"
    assert run(out, "--first", str(number), "--inputs", "1", "--timeout", "0.05") == 1
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert report["outcomes"] == {"killed": 1}
    assert report["failures"][0]["problems"] == ["still running after 0.05 s"]
    assert (out / "inputs" / f"5-{number}.json").exists()
