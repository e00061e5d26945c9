"""Shared fixtures: a tiny dataset directory written by hand (pages/<id>.html + truth.jsonl)."""

import json
from pathlib import Path

import pytest

SENTENCE_ZH = "本市今天举行了城市更新座谈会，多位居民代表就老旧小区改造提出了具体建议。"
BODY_ZH = "".join(f"<p>第{i}段：{SENTENCE_ZH}</p>" for i in range(6))
PAGE_ZH = f"""<html><head><meta charset="utf-8"><title>城市更新座谈会召开_本地新闻</title>
<meta property="article:published_time" content="2024-03-05T09:30:00+08:00"></head>
<body><div class="nav"><a href="/">首页</a> <a href="/a">新闻</a> <a href="/b">体育</a></div>
<h1>城市更新座谈会召开</h1><div class="article">{BODY_ZH}</div>
<div class="footer">版权所有 联系我们</div></body></html>"""

BODY_EN = "".join(
    f"<p>Paragraph {i}: the harbour board approved a new plan for the old docks on Tuesday evening.</p>"
    for i in range(6)
)
PAGE_EN = f"""<html><head><meta charset="utf-8"><title>Harbour plan approved</title></head>
<body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/n">News</a></li></ul>
<article><h1>Harbour plan approved</h1>{BODY_EN}</article>
<footer>Subscribe to our newsletter</footer></body></html>"""


def write_dataset(root: Path, pages: dict[str, str], truths: list[dict]) -> Path:
    (root / "pages").mkdir(parents=True)
    for page_id, html in pages.items():
        (root / "pages" / f"{page_id}.html").write_bytes(html.encode("utf-8"))
    (root / "truth.jsonl").write_text(
        "".join(json.dumps(t, ensure_ascii=False) + "\n" for t in truths), encoding="utf-8"
    )
    return root


@pytest.fixture
def tiny_dataset(tmp_path: Path) -> Path:
    """Two pages: a Chinese one with text, title and date truth; an English one with snippet truth."""
    zh_text = "城市更新座谈会召开\n" + "\n".join(f"第{i}段：{SENTENCE_ZH}" for i in range(6))
    return write_dataset(
        tmp_path / "tiny",
        {"zh1": PAGE_ZH, "en1": PAGE_EN},
        [
            {"id": "zh1", "url": "https://news.example.cn/a/1.html", "title": "城市更新座谈会召开",
             "date": "2024-03-05", "text": zh_text, "author": None},
            {"id": "en1", "url": "hard::en1.html", "title": None, "date": None, "text": None,
             "with": ["the harbour board approved a new plan"], "without": ["Subscribe to our newsletter"]},
        ],
    )


@pytest.fixture
def private_redis(tmp_path_factory):
    """A Redis server of this test's own (tests/servers.py), stopped afterwards; skips without one."""
    from servers import RedisServer

    if RedisServer.reason():
        pytest.skip(RedisServer.reason())
    pytest.importorskip("scrapy_redis")
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def private_postgres():
    """A PostgreSQL cluster of this test's own (tests/servers.py), stopped and removed afterwards; skips
    without one. Its folder is made under the system temp folder, which user postgres can reach (pytest's
    temp folders are private to the user running the tests)."""
    import shutil
    import tempfile

    from servers import PostgresCluster

    if PostgresCluster.reason():
        pytest.skip(PostgresCluster.reason())
    pytest.importorskip("psycopg")
    folder = Path(tempfile.mkdtemp(prefix="newscrawl-pg-"))
    cluster = PostgresCluster(folder)
    try:
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)
