"""Start-up cost: the commands that never crawl, and the extraction library, do not import Scrapy."""

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from newscrawl.storage.sqlite import SqliteSink

SENTENCE = "区政府今天公布了新的公交线路调整方案。"
PAGE = f"<html><head><title>标题</title></head><body><p>{SENTENCE * 8}</p></body></html>"

#: run ``code`` in a fresh interpreter and print the Scrapy/Twisted modules it loaded
_PROBE = """
import sys
{code}
print(sorted(m for m in sys.modules if m.split('.')[0] in ('scrapy', 'twisted')))
"""


def loaded_crawler_modules(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE.format(code=code)], capture_output=True, text=True, check=True
    )
    return done.stdout.strip().splitlines()[-1]


def test_importing_the_extraction_library_loads_no_scrapy():
    assert loaded_crawler_modules("import newscrawl.extract") == "[]"


def test_extract_command_loads_no_scrapy(tmp_path: Path):
    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    code = f"from newscrawl.cli import main; assert main(['extract', {str(page)!r}]) == 0"
    assert loaded_crawler_modules(code) == "[]"


@pytest.mark.parametrize("command", [["search", "公交"], ["export", "--format", "jsonl"]])
def test_store_commands_load_no_scrapy(tmp_path: Path, command: list[str]):
    db = tmp_path / "store.sqlite3"
    sink = SqliteSink(db)
    sink.open()
    sink.write([{"url": "http://a.test/1", "canonical_url": "http://a.test/1", "title": "公交线路",
                 "text": "区政府今天公布了新的公交线路调整方案。", "site": "a"}])
    sink.close()
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM articles").fetchone()[0] == 1
    code = f"from newscrawl.cli import main; assert main({[*command, '--db', str(db)]!r}) == 0"
    assert loaded_crawler_modules(code) == "[]"
