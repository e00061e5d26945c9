"""The README and docs/*.md tell the truth: their commands parse, the settings, modules, files and spider
arguments they name exist, and their counts of the demo are the demo's.

What runs the documented examples for real lives beside what it checks: the search examples of
docs/SCALE.md in tests/storage/test_search_demo.py, the "Adding a site" walkthrough in
tests/crawl/test_crawl_serve.py, `newscrawl eval data/eval/demo` below.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import re
import shlex
from pathlib import Path

import pytest

from newscrawl.cli import build_parser, main
from newscrawl.crawl import defaults
from newscrawl.crawl.sites import read_sites
from newscrawl.spiders.news import NewsSpider

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: words that stand for a value the reader chooses, in commands and paths
PLACEHOLDERS = {"COMMAND", "SITE", "NAME", "DIR", "FILE", "URL", "example", "x"}
#: settings the docs name that newscrawl's code does not read: environment variables of the tests
TEST_ENVIRONMENT = {
    "NEWSCRAWL_FUZZ_EXAMPLES", "NEWSCRAWL_FUZZ_REPORT", "NEWSCRAWL_TEST_POSTGRES_OUTAGE",
    "NEWSCRAWL_TEST_REDIS_OUTAGE",
}
#: a path in the repository, as the docs write one
REPO_PATH = re.compile(r"(?<![\w./-])((?:newscrawl|tests|data|settings|docs|\.ci)/[\w./*-]*[\w/*])")
#: a misspelt setting quoted as the warning it gets (docs/RELIABILITY.md)
QUOTED_MISTAKES = {"NEWSCRAWL_SQLITE_PAHT"}
#: environment variables of the library that are no crawl setting (each read through os.environ)
LIBRARY_ENVIRONMENT = {"NEWSCRAWL_CACHE_DIR", "NEWSCRAWL_PURE_PYTHON"}


def doc_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def prose(path: Path) -> str:
    """The text with its line breaks and runs of spaces as one space, for finding phrases."""
    return " ".join(doc_text(path).split())


def commands(program: str) -> list[tuple[str, str]]:
    """(doc, command line) of every ``program ...`` line in a code block or an inline code span."""
    found = []
    for doc in DOCS:
        text = doc_text(doc)
        blocks = re.findall(r"```[^\n]*\n(.*?)```", text, re.S)
        lines = [line for block in blocks for line in block.replace("\\\n", " ").splitlines()]
        lines += re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
        for line in lines:
            line = line.strip()
            if line.startswith(program + " ") or line == program:
                found.append((doc.name, line))
    return found


def words(line: str) -> list[str]:
    """The words of a documented command: comments, redirections, ``&`` and ``[optional]`` brackets off."""
    line = re.sub(r"\s#\s.*$", "", line).replace("$D/", "../shared/datasets/")
    line = re.sub(r"\[([^\]]*)\]", r"\1", line)
    out = shlex.split(line)
    for stop in (">", "|", "&"):
        if stop in out:
            out = out[: out.index(stop)]
    return out


def newscrawl_commands() -> list[tuple[str, str]]:
    # "newscrawl <command>: <path>: <reason>" is a message format; "COMMAND --help" a placeholder
    return [(d, c) for d, c in commands("newscrawl") if not re.match(r"newscrawl (<|COMMAND\b|\S+:)", c)]


@pytest.mark.parametrize(("doc", "line"), newscrawl_commands(), ids=lambda v: v if len(v) < 60 else v[:60])
def test_every_documented_newscrawl_command_parses(doc, line, capsys):
    argv = [w if w not in ("...", "…") else "x" for w in words(line)[1:]]
    if len(argv) <= 1 and not argv[:1] == ["--help"]:  # "`newscrawl search`" in a sentence names the command
        commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
        assert not argv or argv[0] in commands, f"{doc}: no command `{line}`"
        return
    try:
        build_parser().parse_args(argv)
    except SystemExit as e:
        assert e.code == 0, f"{doc}: `{line}` does not parse: {capsys.readouterr().err.strip()}"


def test_every_documented_scrapy_command_names_a_site_and_spider_arguments_that_exist():
    sites, _ = read_sites(None)
    arguments = set(inspect.signature(NewsSpider.__init__).parameters) - {"self", "kwargs"}
    for doc, line in commands("scrapy"):
        argv = words(line)
        if argv[1:2] == ["crawl"] and len(argv) > 2 and ":" not in argv[2]:
            assert argv[2] in sites or argv[2] in PLACEHOLDERS, f"{doc}: `{line}`: no site {argv[2]!r}"
        for flag, value in zip(argv, argv[1:], strict=False):
            if flag == "-a":
                assert value.split("=")[0] in arguments, f"{doc}: `{line}`: no spider argument {value!r}"


def test_every_setting_the_docs_name_exists_and_every_setting_is_documented():
    named = set()
    for doc in DOCS:
        named |= set(re.findall(r"\bNEWSCRAWL_[A-Z0-9_]*[A-Z0-9]\b", doc_text(doc)))
    known = {name for name in vars(defaults) if name.startswith("NEWSCRAWL_")}
    assert named - known - TEST_ENVIRONMENT - QUOTED_MISTAKES - LIBRARY_ENVIRONMENT == set()
    assert known - named == set(), "settings with a default but no word in the docs"
    tests = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("*.py"))
    assert all(name in tests for name in TEST_ENVIRONMENT)
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "newscrawl").rglob("*.py"))
    assert all(f'environ.get("{name}")' in source for name in LIBRARY_ENVIRONMENT)


def test_every_module_the_docs_run_exists():
    modules = {m for doc in DOCS for m in re.findall(r"python -m (newscrawl[\w.]*)", doc_text(doc))}
    assert modules, "no python -m line found"
    assert [m for m in sorted(modules) if importlib.util.find_spec(m) is None] == []


def test_every_file_and_folder_the_docs_name_exists():
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "newscrawl").rglob("*.py"))
    missing = []
    for doc in DOCS:
        for path in REPO_PATH.findall(doc_text(doc)):
            if (ROOT / path.rstrip("/")).exists() or list(ROOT.glob(path)):
                continue
            if Path(path).stem in PLACEHOLDERS:  # settings/sites/example.toml: the file the reader writes
                continue
            if path.startswith("newscrawl/") and "." not in path and path in source:  # a stats key
                continue
            missing.append(f"{doc.name}: {path}")
    assert missing == []


def demo_truth() -> list[dict[str, object]]:
    lines = (ROOT / "data" / "eval" / "demo" / "truth.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_the_docs_count_the_demo_as_it_is():
    # data/eval/demo labels every article of the demo (tests/crawl/test_crawl_e2e.py ties it to the crawl)
    truth = demo_truth()
    articles = len(truth)
    chinese = sum(1 for t in truth if t["lang"] == "zh")
    english = sum(1 for t in truth if t["lang"] == "en")
    crawling, readme = prose(ROOT / "docs" / "CRAWLING.md"), prose(ROOT / "README.md")
    assert f"{chinese} invented Chinese articles" in crawling and f"{english} English ones" in crawling
    assert f"Expected: {articles} records ({english} of them from the English channel" in crawling
    assert f"the same {articles} records field for field" in crawling
    assert f"the demo portal's {articles} invented article pages" in readme
    # the resume test without its guard loses what was not stored before the kill
    said = re.search(r"loses (\d+) of the demo's (\d+) articles, the (\d+) stored", crawling)
    assert said is not None
    lost, total, stored = map(int, said.groups())
    assert (total, lost) == (articles, articles - stored)
    # counts of the demo as it was, kept in a measurement of that time, must say so
    for old in re.findall(r"[Tt]he demo's (\d+) articles(?! of the time)", crawling):
        assert int(old) == articles, f"docs/CRAWLING.md: the demo's {old} articles"


def test_the_eval_sample_of_a_fresh_clone_scores_every_figure_1(tmp_path):
    assert "every figure is 1.0" in prose(ROOT / "README.md")
    assert main(["eval", str(ROOT / "data" / "eval" / "demo"), "--out", str(tmp_path), "-q"]) == 0
    runs = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert [run["pages"] for run in runs if run["dataset"] == "demo"] == [len(demo_truth())]
    scores = {
        (r["dataset"], k): v for r in runs for k, v in r.items() if isinstance(v, float) and k != "ms_median"
    }
    assert len(scores) > 10 and set(scores.values()) == {1.0}, scores
    problems = ("errors", "exceptions", "empty", "empty_articles", "invented_offsets", "broken_paragraphs")
    assert {r[k] for r in runs for k in problems} == {0}
