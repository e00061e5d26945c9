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


#: libraries a plain extraction does not need at start: each is imported where it is first used
#: (charset detection for undeclared pages, e-mail dates, dateparser, the language model, the PSL;
#: statistics for the crawl report)
DEFERRED = (
    "charset_normalizer", "email", "dateparser", "py3langid", "numpy", "tldextract", "statistics", "scrapy",
)

#: run ``code`` in a fresh interpreter and print which of the DEFERRED modules it loaded, and how many
#: regular expressions newscrawl's own modules compiled meanwhile
_DEFERRED_PROBE = """
import re, sys
compiled = []
_compile = re._compile
def counting(pattern, flags):
    caller = sys._getframe(1)
    while caller is not None and caller.f_code.co_filename.endswith(("re/__init__.py", "functools.py")):
        caller = caller.f_back
    if caller is not None and "newscrawl" in caller.f_code.co_filename:
        compiled.append(pattern)
    return _compile(pattern, flags)
re._compile = counting
{code}
print(sorted({{m.split('.')[0] for m in sys.modules}} & set({deferred!r})), len(compiled))
"""


def deferred_modules_and_patterns(code: str) -> tuple[str, int]:
    probe = _DEFERRED_PROBE.format(code=code, deferred=DEFERRED)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded, patterns = done.stdout.strip().splitlines()[-1].rsplit(" ", 1)
    return loaded, int(patterns)


def test_importing_the_extraction_library_is_light():
    # start-up cost (issue 13): no heavy library and no regex compilation at import; the patterns are
    # compiled on first use (newscrawl.extract.lazyre)
    loaded, patterns = deferred_modules_and_patterns("import newscrawl.extract")
    assert loaded == "[]", f"import these where they are first used: {loaded}"
    assert patterns == 0, f"{patterns} pattern(s) compiled at import: use lazyre.lazy_compile, not re.compile"


def test_url_keys_load_the_public_suffix_list_only_when_a_registrable_domain_is_asked_for():
    # tldextract (with requests and urllib3) is 0.1 s of a crawl's start-up that spiders naming their
    # allowed domains never need
    code = (
        "from newscrawl.extract.urls import canonical_url, registrable_domain; "
        "print(canonical_url('https://n.example.cn/a/1.html', ['https://www.example.cn/a/1.html'], "
        "['example.cn'])); import sys; print('tldextract' in sys.modules); "
        "print(registrable_domain('news.sina.com.cn'), 'tldextract' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:3] == ["https://www.example.cn/a/1.html", "False", "sina.com.cn True"]


def test_extracting_with_auto_loads_no_other_algorithm():
    code = "from newscrawl.extract import extract; extract('<p>' + '正文内容。' * 50 + '</p>')"
    probe = f"{code}\nimport sys; print(sorted(m for m in sys.modules if '.algorithms.' in m))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded = done.stdout.strip().splitlines()[-1]
    assert loaded == "['newscrawl.extract.algorithms.auto', 'newscrawl.extract.algorithms.base']"


def test_building_the_command_line_is_light():
    code = "from newscrawl.cli import build_parser; build_parser()"
    assert deferred_modules_and_patterns(code)[0] == "[]"


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
