"""``python -m newscrawl.bench.around``: what a page costs around extract(), each part timed alone."""

from __future__ import annotations

import subprocess
import sys

from newscrawl.bench.around import PARTS, time_parts


def test_every_part_is_timed_on_pages_with_text(tiny_dataset):
    files = sorted((tiny_dataset / "pages").iterdir())
    pages = [(f"http://127.0.0.1/a/{p.name}", p.read_bytes()) for p in files]
    spent = time_parts(pages)
    assert set(spent) == set(PARTS) and all(seconds > 0 for seconds in spent.values())


def test_a_page_without_text_is_timed_up_to_its_extraction():
    spent = time_parts([("http://127.0.0.1/a/empty.html", b"<html><body></body></html>")])
    assert spent["extract()"] > 0 and spent["SimHash"] == spent["full-text form"] == 0


def test_the_command_prints_a_row_per_part_and_a_column_per_round(tiny_dataset):
    args = [sys.executable, "-m", "newscrawl.bench.around", str(tiny_dataset), "--repeat", "2"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("2 pages") and "round 2" in lines[1]
    rows = [line for line in lines if line.startswith("| ") and not line.startswith("| part")]
    assert [row.split(" | ")[0][2:] for row in rows] == list(PARTS)
    assert all(len(row.split(" | ")) == 4 for row in rows)


def test_a_folder_without_pages_is_a_usage_error(tmp_path):
    args = [sys.executable, "-m", "newscrawl.bench.around", str(tmp_path)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "no .html files" in done.stderr
