"""The FTS5 search index beside the SQLite store: kept in step with upserts, Chinese and English queries."""

import random
import sqlite3

import pytest

from newscrawl.cli.scale import SUBCOMMANDS
from newscrawl.storage.search import (
    FTS_TABLE,
    STALE_TABLE,
    QueryError,
    ensure_search_index,
    has_search_index,
    index_form,
    make_snippet,
    parse_query,
    search,
)
from newscrawl.storage.sqlite import SqliteSink


def record(n: int, title: str, text: str, site: str = "demo", published: str | None = "2026-11-20") -> dict:
    url = f"http://news.example.cn/{n}.shtml"
    return {"url": url, "canonical_url": url, "site": site, "title": title, "text": text,
            "published_at": published, "crawled_at": "2026-11-21T00:00:00+00:00"}


ARTICLES = [
    record(1, "北京今冬首场降雪来临", "市气象台发布暴雪预警。\n城市道路清扫工作连夜展开。"),
    record(2, "上海地铁新线开通运营", "新线全长三十公里，沿途设站二十座。\n北京的市民也前来体验。",
           site="other"),
    record(3, "Harbour board approves dock plan", "The harbour board voted on Tuesday.\nWork starts.",
           published="2026-10-01"),
    record(4, "City council budget", "The council discussed the harbour budget and the new dock lights."),
]


@pytest.fixture
def sink(tmp_path):
    s = SqliteSink(tmp_path / "crawl.sqlite3")
    s.open()
    s.write(ARTICLES)
    yield s
    s.close()


def urls(hits):
    return [h.url.rsplit("/", 1)[1] for h in hits]


def test_index_lives_in_the_store_file(sink):
    assert has_search_index(sink.db)


def test_chinese_substring_of_three_characters(sink):
    assert urls(search(sink.db, "气象台")) == ["1.shtml"]


def test_two_character_chinese_word(sink):
    assert urls(search(sink.db, "降雪")) == ["1.shtml"]


def test_one_chinese_character(sink):
    assert urls(search(sink.db, "雪")) == ["1.shtml"]


def test_chinese_characters_must_stand_together(sink):
    # 北 and 京 both occur in article 2's text, but only article 1's title... and article 2 has 北京 too;
    # 京北 occurs nowhere
    assert search(sink.db, "京北") == []


def test_two_character_term_ranks_title_hits_first(sink):
    assert urls(search(sink.db, "北京")) == ["1.shtml", "2.shtml"]


def test_english_word_any_case(sink):
    assert urls(search(sink.db, "TUESDAY")) == ["3.shtml"]


def test_title_query_ranks_that_article_first(sink):
    assert urls(search(sink.db, "harbour dock"))[0] == "3.shtml"


def test_every_term_must_occur(sink):
    assert urls(search(sink.db, "harbour lights")) == ["4.shtml"]


def test_mixed_long_and_short_terms(sink):
    assert urls(search(sink.db, "地铁新线 北京")) == ["2.shtml"]


def test_site_and_since_filters(sink):
    assert urls(search(sink.db, "北京", site="other")) == ["2.shtml"]
    assert urls(search(sink.db, "harbour", since="2026-11-01")) == ["4.shtml"]


def test_snippet_highlights_the_hit(sink):
    (hit,) = search(sink.db, "气象台")
    assert "[气象台]" in hit.snippet


def test_short_term_snippet_highlights_the_hit(sink):
    (hit,) = search(sink.db, "预警", highlight=("<b>", "</b>"))
    assert "<b>预警</b>" in hit.snippet


def test_upsert_replaces_the_indexed_text(sink):
    sink.write([record(1, "北京今冬首场降雪来临", "气温回升，积雪融化。")])
    assert search(sink.db, "气象台") == []
    assert urls(search(sink.db, "积雪融化")) == ["1.shtml"]
    assert sink.db.execute(f"SELECT COUNT(*) FROM {FTS_TABLE}").fetchone()[0] == len(ARTICLES)


def test_rows_stored_before_the_index_are_indexed(tmp_path):
    path = tmp_path / "old.sqlite3"
    old = SqliteSink(path, search=False)
    old.open()
    old.write(ARTICLES)
    old.close()
    new = SqliteSink(path)
    new.open()
    assert urls(search(new.db, "地铁新线")) == ["2.shtml"]
    new.close()


def test_like_wildcards_in_a_query_are_literal(sink):
    assert search(sink.db, "% 降雪") == search(sink.db, "降雪") != []


def test_english_term_matches_the_words_it_begins(sink):
    assert urls(search(sink.db, "harbo")) == ["3.shtml", "4.shtml"]
    (hit,) = search(sink.db, "lig")
    assert "[lights]" in hit.snippet


def test_short_english_term_is_a_whole_word(sink):
    sink.write([record(7, "Air quality report", "The air was clear.")])
    assert search(sink.db, "ai") == []
    assert urls(search(sink.db, "air")) == ["7.shtml"]


def test_query_terms_drop_quotes_repeats_and_bare_punctuation():
    query = parse_query('天气 北京大学 "AI" 天气 % Beijing')
    assert [t.text for t in query.terms] == ["天气", "北京大学", "AI", "Beijing"]


def test_match_expression_quotes_what_fts5_would_parse():
    expression = parse_query("a\"b NEAR 5G基站").match_expression()
    assert expression == '"a""b" AND "NEAR"* AND "5G 基 站"'


def test_or_finds_either_word(sink):
    both = set(urls(search(sink.db, "harbo OR 气象台")))
    assert both == set(urls(search(sink.db, "harbo"))) | set(urls(search(sink.db, "气象台")))
    assert len(both) > len(urls(search(sink.db, "harbo")))


def test_not_and_minus_leave_articles_out(sink):
    every = urls(search(sink.db, "harbo"))
    for query in ("harbo NOT lights", "harbo -lights"):
        kept = urls(search(sink.db, query))
        assert kept and len(kept) < len(every)
        assert all("lights" not in h.snippet for h in search(sink.db, query))


def test_a_quoted_phrase_needs_its_words_side_by_side(sink):
    sink.write([record(8, "Pier", "The old pier lights were lit."), record(9, "x", "Lights of the pier.")])
    assert "8.shtml" in urls(search(sink.db, '"pier lights"'))
    assert "9.shtml" not in urls(search(sink.db, '"pier lights"'))


def test_a_star_makes_any_word_a_prefix(sink):
    sink.write([record(7, "Air quality report", "The air was clear.")])
    assert search(sink.db, "ai") == []
    assert "7.shtml" in urls(search(sink.db, "ai*"))


def test_a_one_letter_term_highlights_whole_words_only():
    assert make_snippet("The wetland and a lake", ["a"], context=30) == "The wetland and [a] lake"


def test_relevance_is_positive_and_best_first(sink):
    hits = search(sink.db, "气象台")
    assert hits and all(h.score > 0 for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


@pytest.mark.parametrize("query", ["", "   ", "*", "%", "NOT 降雪", "-降雪", "OR"])
def test_a_query_with_nothing_to_look_for_is_refused(query):
    with pytest.raises(QueryError):
        parse_query(query)


@pytest.mark.parametrize("query", ["", "*"])
def test_cli_gives_a_usage_error_for_an_empty_query(sink, capsys, query):
    code, out = run_cli(["search", query, "--db", sink.path], capsys)
    assert code == 2 and "give a word or phrase to look for" in out.err
    assert "no article matches" not in out.err


def test_make_snippet_marks_every_term():
    assert make_snippet("a cat and a dog", ["cat", "dog"], context=20) == "a [cat] and a [dog]"


def run_cli(argv, capsys):
    import argparse

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    for add in SUBCOMMANDS:
        add(sub)
    args = parser.parse_args(argv)
    code = args.run(args)
    return code, capsys.readouterr()


def test_cli_prints_ranked_hits_with_snippets(sink, capsys):
    code, out = run_cli(["search", "气象台", "--db", sink.path], capsys)
    assert code == 0
    lines = out.out.splitlines()
    assert lines[0].startswith("1. 北京今冬首场降雪来临")
    assert "[气象台]" in out.out


def test_cli_exits_1_without_hits(sink, capsys):
    code, out = run_cli(["search", "火星基地", "--db", sink.path], capsys)
    assert code == 1 and "no article matches" in out.err


def test_cli_names_a_missing_database(tmp_path, capsys):
    code, out = run_cli(["search", "x", "--db", str(tmp_path / "none.sqlite3")], capsys)
    assert code == 2 and "none.sqlite3" in out.err


def other_writer(sink, *statements: str) -> None:
    """Run SQL statements on the store through a plain sqlite3 connection, as another program would."""
    db = sqlite3.connect(sink.path)
    with db:
        for statement in statements:
            db.execute(statement)
    db.close()


def test_index_survives_plain_sqlite_writes(sink):
    other_writer(sink, "DELETE FROM articles WHERE canonical_url LIKE '%/1.shtml'")
    assert search(sink.db, "气象台") == []


def test_rows_another_writer_inserted_are_caught_up_on_open(sink):
    other_writer(sink, "INSERT INTO articles (canonical_url, url, title, text) "
                       "VALUES ('http://x/9', 'http://x/9', '外部写入', '另一个程序写入的新闻正文')")
    again = SqliteSink(sink.path)
    again.open()
    assert [h.url for h in search(again.db, "程序写入")] == ["http://x/9"]
    again.close()


def test_sink_without_search_keeps_an_existing_index_in_step(sink):
    plain = SqliteSink(sink.path, search=False)
    plain.open()
    plain.write([record(9, "无索引写入", "这条记录由关闭搜索的写入者保存")])
    plain.close()
    assert urls(search(sink.db, "关闭搜索")) == ["9.shtml"]


def test_same_article_twice_in_one_batch_is_indexed_once_with_the_last_text(sink):
    sink.write([record(5, "同批两次", "第一版正文内容"), record(5, "同批两次", "第二版正文内容")])
    assert search(sink.db, "第一版") == []
    assert urls(search(sink.db, "第二版")) == ["5.shtml"]


def test_rows_another_writer_updates_are_reindexed_on_the_next_sync(sink):
    other_writer(sink, "UPDATE articles SET text = '改写后的正文没有原来的词' "
                       "WHERE canonical_url LIKE '%/1.shtml'")
    assert sink.db.execute(f"SELECT COUNT(*) FROM {STALE_TABLE}").fetchone()[0] == 1
    ensure_search_index(sink.db)
    assert search(sink.db, "气象台") == []
    assert urls(search(sink.db, "改写后")) == ["1.shtml"]
    assert sink.db.execute(f"SELECT COUNT(*) FROM {STALE_TABLE}").fetchone()[0] == 0


def test_a_rowid_reused_after_a_delete_is_indexed_with_its_new_text(sink):
    db = sqlite3.connect(sink.path)
    with db:
        last = db.execute("SELECT max(rowid) FROM articles").fetchone()[0]
        db.execute("DELETE FROM articles WHERE rowid = ?", (last,))
        db.execute("INSERT INTO articles (canonical_url, url, title, text) "
                   "VALUES ('http://x/8', 'http://x/8', '新行', '复用行号的新文章')")
        reused = db.execute("SELECT rowid FROM articles WHERE canonical_url = 'http://x/8'").fetchone()[0]
        assert reused == last
    db.close()
    ensure_search_index(sink.db)
    assert [h.url for h in search(sink.db, "复用行号")] == ["http://x/8"]
    assert search(sink.db, "lights") == []


def test_recrawl_with_the_same_text_queues_nothing(sink):
    sink.db.execute("CREATE TEMP TRIGGER count_queued AFTER INSERT ON articles_fts_stale "
                    "BEGIN SELECT 1; END")  # the queue is emptied in the same transaction: watch the rows
    queued = []
    sink.db.create_function("queued", 1, queued.append)
    sink.db.execute("DROP TRIGGER count_queued")
    sink.db.execute("CREATE TEMP TRIGGER count_queued AFTER INSERT ON articles_fts_stale "
                    "BEGIN SELECT queued(new.article); END")
    sink.write([dict(ARTICLES[0], crawled_at="2026-11-22T00:00:00+00:00")])
    assert queued == []
    sink.write([dict(ARTICLES[0], text="正文改了")])
    assert len(queued) == 1


def make_old_trigram_store(path) -> None:
    """A store as newscrawl 0.1 left it: a trigram index over the articles."""
    old = SqliteSink(path, search=False)
    old.open()
    old.write(ARTICLES)
    old.db.executescript(
        "CREATE VIRTUAL TABLE articles_fts USING fts5(title, author, text, content='articles', "
        "content_rowid='rowid', tokenize='trigram');"
        "INSERT INTO articles_fts(articles_fts) VALUES ('rebuild');"
    )
    old.close()


def test_a_sink_without_search_brings_an_old_index_up_to_date_before_writing(tmp_path):
    path = tmp_path / "old.sqlite3"
    make_old_trigram_store(path)
    plain = SqliteSink(path, search=False)
    plain.open()
    plain.write([record(9, "新写入", "升级之后写入的正文")])
    assert urls(search(plain.db, "升级之后")) == ["9.shtml"]
    plain.close()


def test_an_index_made_by_newscrawl_0_1_is_rebuilt(tmp_path, capsys):
    path = tmp_path / "old.sqlite3"
    make_old_trigram_store(path)
    code, out = run_cli(["search", "降雪", "--db", str(path)], capsys)
    assert code == 0
    assert "replacing the search index an older newscrawl made over 4 stored articles" in out.err
    new = SqliteSink(path)
    new.open()
    sql = new.db.execute("SELECT sql FROM sqlite_master WHERE name = 'articles_fts'").fetchone()[0]
    assert "trigram" not in sql
    assert urls(search(new.db, "降雪")) == ["1.shtml"]
    new.close()


def test_index_agrees_with_a_plain_substring_scan_after_mixed_writes(tmp_path):
    """Sink upserts, plain-SQL updates, deletes and inserts in random order: after a sync every
    query finds exactly the articles whose title, author or text holds the term."""
    rnd = random.Random(5)
    words = ["降雪", "地铁", "气象台", "预警", "市民", "harbour", "council", "budget", "北京", "上海"]
    sink = SqliteSink(tmp_path / "mixed.sqlite3")
    sink.open()
    plain = sqlite3.connect(sink.path, timeout=30)

    def text() -> str:
        return "，".join(rnd.sample(words, 3)) + "。"

    for step in range(300):
        n = rnd.randrange(40)
        action = rnd.random()
        if action < 0.5:
            sink.write([record(n, f"第{n}篇", text())])
        elif action < 0.7:
            with plain:
                plain.execute("UPDATE articles SET text = ? WHERE canonical_url LIKE ?",
                              (text(), f"%/{n}.shtml"))
        elif action < 0.85:
            with plain:
                plain.execute("DELETE FROM articles WHERE canonical_url LIKE ?", (f"%/{n}.shtml",))
        else:
            url = f"http://news.example.cn/{n}.shtml"
            with plain:
                plain.execute("INSERT OR IGNORE INTO articles (canonical_url, url, title, text) "
                              "VALUES (?, ?, ?, ?)", (url, url, f"第{n}篇", text()))
        if step % 50 == 49:
            ensure_search_index(sink.db)
    ensure_search_index(sink.db)
    rows = plain.execute("SELECT canonical_url, title, author, text FROM articles").fetchall()
    for word in words:
        expected = {url for url, *fields in rows if any(f and word.lower() in f.lower() for f in fields)}
        assert {h.url for h in search(sink.db, word, limit=1000)} == expected, word
    # and the index holds one entry per article, no more
    assert sink.db.execute(f"SELECT COUNT(*) FROM {FTS_TABLE}").fetchone()[0] == len(rows)
    plain.close()
    sink.close()


def test_a_row_inserted_and_updated_by_another_writer_is_indexed_once(sink):
    other_writer(sink,
                 "INSERT INTO articles (canonical_url, url, title, text) "
                 "VALUES ('http://x/9', 'http://x/9', '外部', '第一稿正文')",
                 "UPDATE articles SET text = '第二稿正文' WHERE canonical_url = 'http://x/9'")
    ensure_search_index(sink.db)
    assert search(sink.db, "第一稿") == []
    assert [h.url for h in search(sink.db, "第二稿")] == ["http://x/9"]
    assert sink.db.execute(f"SELECT COUNT(*) FROM {FTS_TABLE}").fetchone()[0] == len(ARTICLES) + 1
    # its one 稿 is indexed once (a second insert of the row would count it twice)
    sink.db.execute(f"CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, {FTS_TABLE}, 'row')")
    assert sink.db.execute("SELECT doc, cnt FROM temp.vocab WHERE term = '稿'").fetchone() == (1, 1)


def test_english_snippet_keeps_whole_words_around_the_hit(sink):
    long = ("Officials from several towns gathered in the old hall to hear the plan, "
            "and the harbour master explained why the new dock lights would be installed before winter.")
    sink.write([record(8, "Town meeting", long)])
    (hit,) = search(sink.db, "master")
    assert "[master]" in hit.snippet and hit.snippet.startswith("…")
    words = hit.snippet.strip("…").replace("[", "").replace("]", "").split()
    assert len(words) >= 8 and all(w in long.split() for w in words)


def test_a_hit_in_the_author_only_shows_the_author(sink):
    sink.write([record(6, "一则简讯", "今日无事。") | {"author": "韩雪"}])
    (hit,) = search(sink.db, "韩雪")
    assert hit.snippet == "[韩雪]"


def test_control_characters_another_writer_stored_never_reach_the_output(tmp_path):
    s = SqliteSink(tmp_path / "crawl.sqlite3")
    s.open()
    s.write([record(9, "Storm\x1b]0;pwned\x07 warning", "Storm\x1b[2J warning for the coast\x9b31m.")])
    hits = search(s.db, "storm")
    s.close()
    assert [(h.title, h.snippet) for h in hits] == [
        ("Storm]0;pwned warning", "[Storm][2J warning for the coast31m.")
    ]


@pytest.mark.parametrize("foreign", [False, True])
def test_a_file_that_is_not_a_store_gets_no_half_index(tmp_path, foreign):
    path = tmp_path / "x.sqlite3"
    db = sqlite3.connect(path)
    if foreign:
        db.execute("CREATE TABLE other (x)")
        db.commit()
    with pytest.raises(sqlite3.OperationalError, match="no articles table"):
        ensure_search_index(db)
    names = [row[0] for row in db.execute("SELECT name FROM sqlite_master")]
    assert names == (["other"] if foreign else [])
    db.close()


# -- since: instants, not strings ---------------------------------------------------------------------------

SPELLINGS = [
    "2026-11-20", "20261120", "2026-11-20T00:00", "2026-11-20T08:00:00+08:00", "2026-11-19T16:00:00-08:00",
    "2026-11-20T00:00:00Z",
]


@pytest.mark.parametrize("since", SPELLINGS)
def test_every_spelling_of_one_instant_finds_the_same_articles(sink, since):
    assert urls(search(sink.db, "harbour", since=since)) == ["4.shtml"]  # 2026-11-20; 3 is 2026-10-01


def test_since_compares_instants_across_offsets(tmp_path):
    s = SqliteSink(tmp_path / "t.sqlite3")
    s.open()
    s.write([
        record(1, "雪 A", "雪", published="2026-11-20T07:30:00+08:00"),  # 2026-11-19 23:30 UTC
        record(2, "雪 B", "雪", published="2026-11-19T20:30:00-05:00"),  # 2026-11-20 01:30 UTC
        record(3, "雪 C", "雪", published="2026-11-20T00:30:00"),  # no offset: UTC
        record(4, "雪 D", "雪", published=None),  # crawled 2026-11-21 00:00 UTC
        record(5, "雪 E", "雪", published="not a time"),  # unreadable: its crawl time
    ])
    found = sorted(urls(search(s.db, "雪", since="2026-11-20T08:00:00+08:00")))  # 2026-11-20 00:00 UTC
    assert found == ["2.shtml", "3.shtml", "4.shtml", "5.shtml"]
    assert sorted(urls(search(s.db, "雪", since="2026-11-20T01:00Z"))) == ["2.shtml", "4.shtml", "5.shtml"]
    s.close()


def test_a_date_alone_is_midnight_utc(tmp_path):
    s = SqliteSink(tmp_path / "t.sqlite3")
    s.open()
    s.write([record(1, "雪", "雪", published="2026-11-20")])
    assert urls(search(s.db, "雪", since="2026-11-20T00:00Z")) == ["1.shtml"]
    assert urls(search(s.db, "雪", since="2026-11-20T00:00:01Z")) == []
    s.close()


def test_a_bad_since_is_refused():
    from newscrawl.storage.search import since_utc

    with pytest.raises(ValueError, match="not an ISO 8601 date or time"):
        since_utc("2026-13-01")


def test_a_store_of_an_older_newscrawl_gets_the_time_index_on_open(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE articles (canonical_url TEXT PRIMARY KEY, url TEXT, site TEXT, title TEXT, "
               "published_at TEXT, crawled_at TEXT)")
    db.execute("INSERT INTO articles VALUES ('u', 'u', 's', 't', '2026-11-20T08:00:00+08:00', NULL)")
    db.commit()
    db.close()
    s = SqliteSink(path)
    s.open()
    index = s.db.execute("SELECT sql FROM sqlite_master WHERE name = 'articles_when_utc'").fetchone()
    assert index and "datetime(published_at)" in index[0]
    plan = " ".join(str(r) for r in s.db.execute(
        "EXPLAIN QUERY PLAN SELECT 1 FROM articles WHERE "
        "coalesce(datetime(published_at), datetime(crawled_at)) >= '2026-11-20 00:00:00'"))
    assert "articles_when_utc" in plan
    s.close()


def test_index_form_spaces_every_cjk_character_as_a_per_character_mapping_would():
    """The oracle maps each character alone (the index's form before it was made run by run)."""
    ranges = [(0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF)]
    spacing = {cp: f" {chr(cp)} " for first, last in ranges for cp in range(first, last + 1)}
    edges = [chr(cp) for first, last in ranges for cp in (first - 1, first, last, last + 1)]
    alphabet = [*edges, "a", "Z", "5", " ", "\n", "\u3000", "，", "。", "\U00020000", "é"]
    rnd = random.Random(13)
    for _ in range(5000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 30)))
        assert index_form(text) == text.translate(spacing), repr(text)
    assert index_form("") == "" and index_form(None) is None
