"""python -m newscrawl.bench.equivalence: extract() of two trees compared page by page, field by field."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from newscrawl.bench import equivalence

REPO = Path(__file__).resolve().parents[2]


def _write_dump(path: Path, records: dict[str, dict]) -> Path:
    with path.open("w", encoding="utf-8") as f:
        for page_id, record in records.items():
            key = {"dataset": "set", "id": page_id, "algorithm": "auto"}
            f.write(json.dumps({**key, "record": record}) + "\n")
    return path


def test_nested_fields_that_differ_are_named_with_their_path():
    old = {"text": "a", "title": "T", "figures": {"x": 1, "page_kind": {"reason": "r"}}}
    new = {"text": "a", "title": "T2", "figures": {"x": 1, "page_kind": {"reason": "s"}}}
    assert list(equivalence.differing_fields(old, new)) == ["figures.page_kind.reason", "title"]


def test_a_value_of_another_type_differs_even_when_equal():
    assert list(equivalence.differing_fields({"n": 1}, {"n": 1.0})) == ["n"]
    assert list(equivalence.differing_fields({"n": 1}, {"n": 1})) == []


def test_compare_names_each_differing_page_and_pages_one_tree_lacks(tmp_path):
    old = _write_dump(tmp_path / "old.jsonl", {"p1": {"text": "a"}, "p2": {"text": "b"}, "p3": {"text": "c"}})
    new = _write_dump(tmp_path / "new.jsonl", {"p1": {"text": "a"}, "p2": {"text": "B"}})
    assert equivalence.compare(old, new) == [
        "set/p2/auto: text",
        "set/p3/auto: only in the old tree's records",
    ]


def _fake_tree(root: Path, text: str) -> Path:
    """A tree whose ``extract`` gives every page the same ``text`` (and the real dataset reader)."""
    pkg = root / "newscrawl"
    (pkg / "extract").mkdir(parents=True)
    (pkg / "evaluation").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "evaluation" / "__init__.py").write_text("")
    shutil.copy(REPO / "newscrawl" / "evaluation" / "datasets.py", pkg / "evaluation" / "datasets.py")
    (pkg / "extract" / "__init__.py").write_text(
        "ALGORITHMS = ('auto',)\n"
        "class _R:\n"
        "    def __init__(self, url, when): self.url, self.when = url, when\n"
        "    def to_dict(self):\n"
        f"        return {{'text': {text!r}, 'url': self.url, 'when': self.when.isoformat()}}\n"
        "def extract(page, url=None, *, algorithm, reference_time): return _R(url, reference_time)\n"
    )
    return root


def test_the_command_passes_on_one_tree_and_fails_naming_the_field(tiny_dataset, tmp_path, capsys):
    same = _fake_tree(tmp_path / "a", "text")
    assert equivalence.main([str(same), str(same), str(tiny_dataset), "--jobs", "2"]) == 0
    assert "2 records compared, 0 differ" in capsys.readouterr().out
    other = _fake_tree(tmp_path / "b", "other text")
    out_dir = tmp_path / "out"
    assert equivalence.main([str(same), str(other), str(tiny_dataset), "--out", str(out_dir)]) == 1
    out = capsys.readouterr().out
    assert f"{tiny_dataset.name}/en1/auto: text" in out and "2 records compared, 2 differ" in out
    # the records keep the page's URL and one reference time for both trees
    record = json.loads((out_dir / "old.jsonl").read_text().splitlines()[0])["record"]
    assert record["when"] == equivalence.REFERENCE_TIME


def test_a_folder_that_is_no_tree_is_refused(tmp_path, tiny_dataset):
    with pytest.raises(SystemExit):
        equivalence.main([str(tmp_path), str(REPO), str(tiny_dataset)])
