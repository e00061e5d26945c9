"""`newscrawl extract|explain --site NAME` apply a site file as a crawl of that site does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from newscrawl.cli import main

PROMO = "本报特别提示：订阅本报电子版的读者可在每周五收到完整的周末专刊"
PAGE = (
    "<html><head><meta charset='utf-8'><title>网站首页 - 临江新闻</title></head><body>"
    "<div class='top'><span class='headline'>临江市发布民生实事项目清单</span></div>"
    f"<div class='article'><div class='box-a1'><p>{PROMO}，{PROMO}。</p></div>"
    + "".join(f"<p>第{i}段：临江市政府今天举行新闻发布会，公布明年的民生实事项目清单。</p>" for i in range(6))
    + "</div></body></html>"
)
SITE = """name = "portal"
allowed_domains = ["news.example.cn"]
timezone = "Asia/Tokyo"
[start]
pages = ["https://news.example.cn/"]
[patterns]
article = ['/doc-\\\\w+\\\\.shtml$']
[xpath]
title = "//span[@class='headline']"
exclude = ["//div[@class='box-a1']"]
"""


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "sites").mkdir()
    (tmp_path / "sites" / "portal.toml").write_text(SITE, encoding="utf-8")
    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    return page, tmp_path / "sites"


def test_extract_with_site_applies_its_exclusions_and_overrides(files, capsys) -> None:
    page, sites = files
    assert main(["extract", str(page)]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["extract", str(page), "--site", "portal", "--sites-dir", str(sites)]) == 0
    with_site = json.loads(capsys.readouterr().out)
    assert PROMO in plain["text"] and PROMO not in with_site["text"]
    assert with_site["title"] == "临江市发布民生实事项目清单" != plain["title"]


def test_explain_with_site_explains_the_page_as_the_crawl_sees_it(files, capsys) -> None:
    page, sites = files
    assert main(["explain", str(page), "-f", "json", "--site", "portal", "--sites-dir", str(sites)]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["error"] is None and PROMO not in facts["extraction"]["text"]
    assert facts["metadata"]["title"]["value"] == "临江市发布民生实事项目清单"


def test_an_unknown_site_is_one_line_naming_the_known_ones(files, capsys) -> None:
    page, sites = files
    assert main(["extract", str(page), "--site", "nosuch", "--sites-dir", str(sites)]) == 2
    err = capsys.readouterr().err
    assert "--site: no site named 'nosuch'; one of: portal" in err and "Traceback" not in err


CREDITS = (
    "<div class='info'><span class='by'>本文作者：陈海波</span><span class='src'>来源：临江日报</span></div>"
)
CREDIT_XPATHS = """
author = "//span[@class='by']"
editor = "//p[@class='ed']"
source = "//span[@class='src']"
"""


def test_extract_with_site_strips_the_labels_of_credit_overrides(files, capsys) -> None:
    page, sites = files
    page.write_text(
        PAGE.replace("<div class='article'>", CREDITS + "<div class='article'>").replace(
            "</body>", "<p class='ed'>（责任编辑：周敏）</p></body>"
        ),
        encoding="utf-8",
    )
    site = sites / "portal.toml"
    site.write_text(site.read_text(encoding="utf-8").replace("[xpath]", "[xpath]" + CREDIT_XPATHS), "utf-8")
    assert main(["extract", str(page), "--site", "portal", "--sites-dir", str(sites)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (record["author"], record["editor"], record["source"]) == ("陈海波", "周敏", "临江日报")
    assert {record["sources"][k] for k in ("author", "editor", "source")} == {"xpath"}
