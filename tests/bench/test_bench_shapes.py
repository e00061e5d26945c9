"""python -m newscrawl.bench.shapes: worst page shapes at a size, CPU time per stage of extract()."""

from __future__ import annotations

import pytest

from newscrawl.bench import shapes

SIZE = 40_000


@pytest.mark.parametrize("name", sorted(shapes.SHAPES))
def test_every_shape_makes_a_page_of_about_the_size_asked(name):
    page = shapes.SHAPES[name](SIZE)
    assert isinstance(page, bytes) and 0.7 * SIZE <= len(page) <= 1.1 * SIZE


def test_an_extracted_page_shows_every_stage():
    timing = shapes.time_shape("huge text node, Chinese", shapes.SHAPES["huge text node, Chinese"](SIZE), 1)
    assert timing.outcome.startswith("ok")
    assert list(timing.stages) == ["decode", "parse", "cleaning", "body extraction", "page kind", "metadata"]
    assert all(seconds >= 0 for seconds in timing.stages.values())
    assert timing.cpu >= sum(timing.stages.values()) * 0.5 and timing.lxml_cpu > 0


def test_a_refused_page_names_the_limit():
    timing = shapes.time_shape("deep nesting", shapes.SHAPES["deep nesting"](SIZE), 1)
    assert timing.outcome.startswith("refused") and "max_depth" in timing.outcome
    assert timing.stages == {}


def test_the_command_prints_the_table_and_fails_over_the_limit(capsys):
    args = ["--mb", "0.02", "--repeat", "1", "--only", "many links", "--only", "entity storm"]
    assert shapes.main(args) == 0
    out = capsys.readouterr().out
    assert "many links" in out and "entity storm" in out and "meta" in out and "!" not in out
    assert shapes.main([*args, "--limit", "1e-9"]) == 1
    assert "over 1e-09 s of CPU: many links, entity storm" in capsys.readouterr().out


def test_an_unknown_shape_is_refused():
    with pytest.raises(SystemExit):
        shapes.main(["--only", "no such shape"])
