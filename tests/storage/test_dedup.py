"""SimHash near-duplicates: shingles, fingerprints, the banded index in the store, the pipeline."""

import pytest

from newscrawl.storage.dedup import (
    BANDS,
    DuplicateIndex,
    bands,
    hamming,
    python_simhash,
    shingle_hash,
    shingles,
    simhash,
    tokens,
)

STORY = (
    "临江市今天发布寒潮蓝色预警，受强冷空气影响，预计未来三天全市最低气温将降至零下六摄氏度。\n"
    "市气象台提醒市民注意防寒保暖，外出时关注道路结冰情况，农业生产单位做好大棚蔬菜的防冻工作。\n"
    "交通部门表示，已安排除冰车辆在主要桥梁和高架路段待命，公交线路将视路况适当调整发车间隔。"
)
OTHER = (
    "青禾县冷链物流园一期工程昨日正式投入使用，园区建有冷库十二座，总库容达到三万吨。\n"
    "当地果蔬经预冷分拣后可在二十四小时内直达沿海城市的商超，损耗率明显下降，农户收入随之增加。"
)
ENGLISH = (
    "The harbour board approved a new plan for the old docks on Tuesday evening after a long debate. "
    "Work on the first warehouse is expected to start in the spring and to finish within two years."
)


def test_tokens_split_cjk_by_character_and_other_scripts_by_word():
    assert tokens("北京 Hello-World 2026年") == ["北", "京", "hello", "world", "2026", "年"]


def test_shingles_are_token_trigrams():
    assert shingles("今天下雪") == {"今 天 下", "天 下 雪"}
    assert shingles("The old docks open") == {"the old docks", "old docks open"}


def test_short_text_is_one_shingle():
    assert shingles("你好") == {"你 好"}


def test_same_text_same_fingerprint_whatever_the_spacing():
    assert simhash(STORY) == simhash(STORY.replace("\n", "  \n "))


def test_small_edit_is_near_and_other_story_is_far():
    edited = STORY.replace("三天", "五天")
    assert hamming(simhash(STORY), simhash(edited)) <= 8
    assert hamming(simhash(STORY), simhash(OTHER)) > 12
    assert hamming(simhash(ENGLISH), simhash(ENGLISH.replace("Tuesday", "Monday"))) <= 8


@pytest.mark.parametrize("fingerprint", [simhash, python_simhash])
def test_fingerprints_stay_those_already_stored(fingerprint):
    # values written by newscrawl before the SimHash was made faster: a store's duplicate index keeps them,
    # so the same text must give the same 64 bits (Chinese 3-grams, English word 3-grams, a short text), in
    # C (where built) and in Python
    mixed = STORY.splitlines()[0] + "\n" + ENGLISH.split(". ")[0]
    assert fingerprint(mixed) == 0x5967991FC3DF3474
    assert fingerprint("你好") == 0x9B6DA046F0236C49
    assert fingerprint("a b c d") == 0x30CC000688226830


@pytest.mark.parametrize("fingerprint", [simhash, python_simhash])
def test_fingerprint_is_the_majority_of_the_shingle_hashes_bits(fingerprint):
    grams = shingles(OTHER)
    slow = 0
    for i in range(64):
        ones = sum(shingle_hash(g) >> (63 - i) & 1 for g in grams)
        slow = slow << 1 | (ones > len(grams) / 2)
    assert fingerprint(OTHER) == slow


def test_empty_text_has_no_fingerprint():
    assert simhash(" ，。 ") == 0


def test_bands_cover_the_fingerprint():
    fp = 0x0123_4567_89AB_CDEF
    assert bands(fp) == (0x0123, 0x4567, 0x89AB, 0xCDEF) and len(bands(fp)) == BANDS


@pytest.fixture(params=[1, 2, 100], ids=lambda n: f"flush_every={n}")
def index(tmp_path, request):
    """Every fingerprint written at once, every second one, or all held in memory."""
    idx = DuplicateIndex(tmp_path / "store.sqlite3", flush_every=request.param)
    idx.open()
    yield idx
    idx.close()


def test_first_copy_is_not_a_duplicate(index):
    assert index.add("http://a/1", STORY) is None


def test_later_copy_points_to_the_first(index):
    index.add("http://a/1", STORY)
    index.add("http://b/2", OTHER)
    match = index.add("http://c/3", "（来源：临江日报）\n" + STORY)
    assert match is not None and match.canonical_url == "http://a/1"


def test_third_copy_still_points_to_the_first(index):
    index.add("http://a/1", STORY)
    index.add("http://b/2", STORY)
    assert index.add("http://c/3", STORY).canonical_url == "http://a/1"


def test_recrawled_first_copy_stays_the_original(index):
    index.add("http://a/1", STORY)
    index.add("http://b/2", STORY)
    assert index.add("http://a/1", STORY) is None
    assert index.add("http://b/2", STORY).canonical_url == "http://a/1"


def test_distance_zero_only_links_identical_texts(tmp_path):
    strict = DuplicateIndex(tmp_path / "s.sqlite3", max_distance=0)
    strict.open()
    strict.add("http://a/1", STORY)
    assert strict.add("http://b/2", STORY.replace("三天", "五天")) is None
    strict.close()


def test_bad_threshold_is_refused():
    with pytest.raises(ValueError, match="max_distance"):
        DuplicateIndex(":memory:", max_distance=64)


def test_pipeline_marks_the_copy_and_counts_it(tmp_path):
    from scrapy.utils.misc import build_from_crawler
    from scrapy.utils.test import get_crawler

    from newscrawl.items import NewsItem
    from newscrawl.pipelines.dedup import DuplicatePipeline

    crawler = get_crawler(settings_dict={"NEWSCRAWL_SQLITE_PATH": str(tmp_path / "c.sqlite3")})
    crawler.stats.open_spider()
    pipeline = build_from_crawler(DuplicatePipeline, crawler)
    pipeline.open_spider()
    first = pipeline.process_item(NewsItem(url="http://a/1", canonical_url="http://a/1", text=STORY))
    copy = pipeline.process_item(NewsItem(url="http://b/2?from=rss", canonical_url="http://b/2", text=STORY))
    pipeline.close_spider()
    assert first["duplicate_of"] is None and copy["duplicate_of"] == "http://a/1"
    assert crawler.stats.get_value("newscrawl/duplicates/found") == 1


def test_pipeline_is_off_when_disabled():
    from scrapy.exceptions import NotConfigured
    from scrapy.utils.misc import build_from_crawler
    from scrapy.utils.test import get_crawler

    from newscrawl.pipelines.dedup import DuplicatePipeline

    with pytest.raises(NotConfigured):
        build_from_crawler(DuplicatePipeline, get_crawler(settings_dict={"NEWSCRAWL_DEDUP": False}))


def test_store_made_before_duplicate_of_gets_the_column(tmp_path):
    import sqlite3

    from newscrawl.storage.sqlite import SqliteSink

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE articles (canonical_url TEXT PRIMARY KEY, url TEXT, site TEXT, title TEXT, "
               "text TEXT, first_crawled_at TEXT)")
    db.close()
    sink = SqliteSink(path)
    sink.open()
    sink.write([{"url": "http://a/1", "canonical_url": "http://a/1", "duplicate_of": "http://x/0"}])
    assert sink.get("http://a/1")["duplicate_of"] == "http://x/0"
    sink.close()


def written(path) -> list[str]:
    import sqlite3

    with sqlite3.connect(path) as db:
        return [url for (url,) in db.execute("SELECT canonical_url FROM fingerprints ORDER BY rowid")]


def test_fingerprints_are_written_in_batches_and_on_close(tmp_path):
    path = tmp_path / "store.sqlite3"
    idx = DuplicateIndex(path, flush_every=3)
    idx.open()
    idx.add("http://a/1", STORY)
    idx.add("http://b/2", OTHER)
    assert written(path) == []
    idx.add("http://c/3", ENGLISH)
    assert written(path) == ["http://a/1", "http://b/2", "http://c/3"]
    idx.add("http://d/4", STORY + "\n责任编辑：王敏")
    idx.close()
    assert written(path) == ["http://a/1", "http://b/2", "http://c/3", "http://d/4"]


def test_another_process_sees_the_first_copy_once_written(tmp_path):
    path = tmp_path / "store.sqlite3"
    first, second = DuplicateIndex(path, flush_every=10), DuplicateIndex(path, flush_every=10)
    first.open(), second.open()
    first.add("http://a/1", STORY)
    first.flush()
    assert second.add("http://b/2", STORY).canonical_url == "http://a/1"
    first.close(), second.close()


def test_a_url_added_again_before_writing_keeps_its_place(tmp_path):
    idx = DuplicateIndex(tmp_path / "store.sqlite3", flush_every=10)
    idx.open()
    idx.add("http://a/1", STORY)
    idx.add("http://b/2", STORY)
    assert idx.add("http://a/1", STORY) is None
    idx.close()
    assert written(tmp_path / "store.sqlite3") == ["http://a/1", "http://b/2"]


def test_bad_batch_size_is_refused():
    with pytest.raises(ValueError, match="flush_every"):
        DuplicateIndex(":memory:", flush_every=0)


def test_pipeline_uses_the_workers_fingerprint_only_for_the_text_it_was_made_from(tmp_path):
    from scrapy.utils.misc import build_from_crawler
    from scrapy.utils.test import get_crawler

    from newscrawl.items import NewsItem
    from newscrawl.pipelines.dedup import DuplicatePipeline

    crawler = get_crawler(settings_dict={"NEWSCRAWL_SQLITE_PATH": str(tmp_path / "c.sqlite3")})
    crawler.stats.open_spider()
    pipeline = build_from_crawler(DuplicatePipeline, crawler)
    pipeline.open_spider()
    pipeline.process_item(NewsItem(url="http://a/1", canonical_url="http://a/1", text=STORY))
    other = "The harbour board approved a new plan for the old docks on Tuesday evening, after a long debate."

    def item(n: int, made_from: str) -> NewsItem:
        # a fingerprint of STORY handed over with a text that is not STORY
        return NewsItem(url=f"http://b/{n}", canonical_url=f"http://b/{n}", text=other,
                        content_hash=made_from, fingerprint=("hash-of-story", simhash(STORY)))

    used = pipeline.process_item(item(1, "hash-of-story"))
    ignored = pipeline.process_item(item(2, "hash-of-another-text"))
    pipeline.close_spider()
    assert used["duplicate_of"] == "http://a/1" and ignored["duplicate_of"] is None
    assert "fingerprint" not in used and "fingerprint" not in ignored


def test_adding_a_fingerprint_asks_the_store_once(tmp_path):
    """Each statement lets go of the GIL, and the crawl's reactor then waits for its dispatcher and writer
    threads to give it back: one query finds the URL's own row and the rows sharing a band."""
    path = tmp_path / "store.sqlite3"
    idx = DuplicateIndex(path, flush_every=2)
    idx.open()
    idx.add("http://a/1", STORY)
    idx.add("http://b/2", OTHER)  # both written
    statements: list[str] = []
    idx.db.set_trace_callback(statements.append)
    copy = idx.add("http://c/3", STORY)
    again = idx.add("http://a/1", STORY)  # the first copy crawled again: still nobody's duplicate
    idx.db.set_trace_callback(None)
    idx.close()
    assert copy is not None and copy.canonical_url == "http://a/1" and again is None
    assert len([s for s in statements if s.lstrip().upper().startswith("SELECT")]) == 2
    assert written(path) == ["http://a/1", "http://b/2", "http://c/3"]
