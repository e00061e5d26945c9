"""Search on the demo portal's articles: a title query finds its article first."""

import re
from pathlib import Path

import pytest

from newscrawl.extract import extract
from newscrawl.storage.search import search
from newscrawl.storage.sqlite import SqliteSink

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo"


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory):
    # pages 2, 3 ... of a split article are parts of its first page's record, never records of their own
    pages = sorted(p for p in DEMO.rglob("*.shtml") if not re.search(r"_\d+\.shtml$", p.name))
    if not pages:
        pytest.skip("no demo pages under data/demo")
    sink = SqliteSink(tmp_path_factory.mktemp("demo") / "demo.sqlite3")
    sink.open()
    records = []
    for page in pages:
        url = "http://demo.newscrawl.test/" + page.relative_to(DEMO).as_posix()
        result = extract(page.read_bytes(), url)
        if result.title and result.text:
            records.append({"url": url, "canonical_url": url, "site": "demo", "title": result.title,
                            "text": result.text})
    sink.write(records)
    yield sink, records
    sink.close()


def test_every_title_finds_its_article_first(demo_store):
    sink, records = demo_store
    assert len(records) >= 10
    missed = [r["title"] for r in records
              if [h.url for h in search(sink.db, r["title"], limit=1)] != [r["url"]]]
    assert missed == []


def test_the_first_words_of_a_title_find_its_article_first(demo_store):
    sink, records = demo_store
    missed = [r["title"][:5] for r in records
              if search(sink.db, r["title"][:5], limit=1)[0].url != r["url"]]
    assert len(missed) <= len(records) // 10, missed


def test_english_titles_and_words_find_their_article_first(demo_store):
    sink, records = demo_store
    english = {r["title"]: r["url"] for r in records if "/en/" in r["url"]}
    assert len(english) == 3, sorted(english)
    for title, url in english.items():
        assert search(sink.db, title, limit=1)[0].url == url
        # words of the title, lower case and in another order, as a user types them
        words = title.lower().split()
        query = " ".join(reversed([w for w in words if len(w) > 3][:3]))
        assert search(sink.db, query, limit=1)[0].url == url, query
    # a word in one English article only, shown highlighted in the snippet
    hit, = search(sink.db, "storks")
    assert "/en/2026-11-19/" in hit.url and "[storks]" in hit.snippet


def test_a_chinese_and_an_english_story_on_one_event_are_told_apart(demo_store):
    sink, _ = demo_store
    assert "/china/" in search(sink.db, "城际铁路", limit=1)[0].url
    assert "/en/" in search(sink.db, "intercity railway", limit=1)[0].url


def documented_demo_searches() -> list[tuple[str, str]]:
    """(query, comment) of docs/SCALE.md's searches of the demo's store (`--db output/demo.sqlite3`)."""
    import shlex

    text = (Path(__file__).resolve().parents[2] / "docs" / "SCALE.md").read_text(encoding="utf-8")
    found = []
    for line in text.splitlines():
        if line.startswith("newscrawl search ") and "--db output/demo.sqlite3" in line:
            command, _, comment = line.partition(" # ")
            found.append((shlex.split(command)[2], comment.strip()))
    return found


def test_the_documented_searches_of_the_demo_find_what_their_comments_say(demo_store, capsys):
    import json

    from newscrawl.cli import main

    sink, records = demo_store
    searches = documented_demo_searches()
    assert len(searches) >= 4
    text = {r["url"]: f"{r['title']}\n{r['text']}".lower() for r in records}
    for query, comment in searches:
        assert main(["search", query, "--db", sink.path, "--format", "jsonl", "--limit", "100"]) == 0, query
        hits = [json.loads(line)["url"] for line in capsys.readouterr().out.splitlines()]
        assert hits, query
        if "either word" in comment:  # "寒潮 OR 暴雪": articles with either, not only with both
            a, b = query.split(" OR ")
            assert {u for u in text if a in text[u] or b in text[u]} == set(hits)
        if "without" in comment:  # '"intercity railway" -delay'
            assert all("intercity railway" in text[u] and "delay" not in text[u] for u in hits)
        if "battery" in comment:  # 'ba*'
            assert any("battery" in text[u] for u in hits)
