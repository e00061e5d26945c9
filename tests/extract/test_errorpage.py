"""Error pages served as pages (not found, removed, login wall, bot check): page kind ``error``."""

import pytest

from newscrawl.extract import extract
from newscrawl.extract.errorpage import ERROR_TEXT_MAX_CHARS, detect_error_page, text_error, title_error

NAV = "<nav><a href='/'>Home</a> <a href='/world'>World</a> <a href='/sport'>Sport</a></nav>"
ZH_NAV = "<div class='nav'><a href='/'>首页</a> <a href='/gn'>国内</a> <a href='/gj'>国际</a></div>"


def page(title: str, body: str) -> str:
    return f"<html><head><title>{title}</title></head><body>{body}</body></html>"


ERROR_PAGES = {
    "en_not_found": page(
        "Page not found | Example News",
        NAV + "<h1>Sorry, we can't find that page</h1><p>The page you requested could not be found. It may "
        "have been moved or deleted.</p><p><a href='/'>Return to the home page</a></p>",
    ),
    "zh_not_found": page(
        "页面不存在_示例新闻网",
        ZH_NAV + "<div class='box'><p>抱歉，您访问的页面不存在或已被删除！</p>"
        "<p><a href='/'>返回首页</a></p></div>",
    ),
    "zh_404_title_only": page("404 - 找不到文件或目录。", "<div><p>服务器错误，请稍后再试。</p></div>"),
    "de_not_found": page(
        "Seite nicht gefunden - Beispielzeitung",
        "<h1>Fehler 404</h1><p>Die angeforderte Seite wurde nicht gefunden. Bitte nutzen Sie die Suche.</p>",
    ),
    "fr_not_found": page(
        "Page introuvable - Le Journal", "<p>La page que vous recherchez est introuvable.</p>"
    ),
    "en_removed": page(
        "Example Times",
        NAV + "<article><p>This article has been removed at the request of the publisher.</p></article>",
    ),
    "zh_removed": page("新闻中心_示例网", ZH_NAV + "<div class='content'><p>该文章已被删除。</p></div>"),
    "de_removed": page("Beispielzeitung", "<main><p>Dieser Artikel ist nicht mehr verfügbar.</p></main>"),
    "zh_login": page("会员中心", "<div><p>请登录后查看全文。</p><form><input name='u'></form></div>"),
    "en_login": page(
        "Example Daily", "<main><h2>Subscribers only</h2><p>Please log in to continue reading.</p></main>"
    ),
    "bot_check": page(
        "Just a moment...",
        "<h1>Checking your browser before accessing example.com.</h1>"
        "<p>Please enable JavaScript and cookies to continue.</p>",
    ),
    "zh_bot_check": page("安全验证", "<div><p>检测到异常访问，请完成安全验证后继续。</p></div>"),
    "ja_not_found": page("ページが見つかりません | 例新聞", "<p>お探しのページは見つかりませんでした。</p>"),
}


@pytest.mark.parametrize("name", sorted(ERROR_PAGES))
def test_an_error_page_served_as_a_page_is_kind_error(name: str) -> None:
    r = extract(ERROR_PAGES[name].encode(), "https://news.example.com/2026/11/a.html")
    assert r.page_kind == "error", dict(r.figures["page_kind"])
    assert r.figures["page_kind"]["reason"].startswith("error page (")


@pytest.mark.parametrize("name", ["zh_not_found", "en_removed", "bot_check"])
def test_an_error_page_is_found_when_the_caller_says_article(name: str) -> None:
    # a removed article still sits at its article URL: the crawler gives the kind, the page says otherwise
    r = extract(ERROR_PAGES[name].encode(), "https://news.example.com/a.html", page_kind="article")
    assert r.page_kind == "error"


def test_the_kinds_of_error() -> None:
    assert text_error("抱歉，您访问的页面不存在！") == "not_found"
    assert text_error("This story has been removed.") == "removed"
    assert text_error("登录后查看完整内容") == "login"
    assert text_error("Please enable JavaScript to continue.") == "bot_check"
    assert title_error("Just a moment...") == "bot_check"
    assert title_error("Access denied | Example") == "bot_check"


STORY = "The harbour reopened on Monday after a week of repairs to the old sea wall and the piers. " * 4
ARTICLES = {
    # headlines holding error words, over real text
    "headline_404": page("Flight 404 lands safely - Ex", f"<h1>Flight 404 lands safely</h1><p>{STORY}</p>"),
    "headline_error": page("Error costs team a final", f"<h1>Error costs team a final</h1><p>{STORY}</p>"),
    "moment": page("Just a moment of silence", f"<h1>Just a moment of silence</h1><p>{STORY}</p>"),
    # a story about error pages, long enough to be one
    "about_404": page(
        "Why websites show 404 pages",
        "<h1>Why websites show 404 pages</h1>"
        + "".join(
            f"<p>Part {i}: when a page cannot be found, a server answers 404 Not Found. Designers now write "
            "friendly messages such as 'the page you requested could not be found'. Readers leave fast.</p>"
            for i in range(5)
        ),
    ),
    # a short brief: short text, no error wording
    "brief": page(
        "城南过街天桥今日通行_示例网",
        "<h1>城南过街天桥今日通行</h1><p>城南新建的过街天桥今日正式通行，方便了周边居民出行。</p>",
    ),
    # a story that quotes a login prompt in a long text
    "quotes_login": page(
        "网络诈骗新手法曝光",
        "<h1>网络诈骗新手法曝光</h1><p>"
        + "警方提醒，不法分子冒充平台发送短信，称“请登录后查看”账户异常，诱导市民点击链接输入密码。" * 12
        + "</p>",
    ),
}


@pytest.mark.parametrize("name", sorted(ARTICLES))
def test_a_real_article_with_error_words_stays_an_article(name: str) -> None:
    r = extract(ARTICLES[name].encode(), "https://news.example.com/a.html")
    assert r.page_kind == "article", dict(r.figures["page_kind"])


def test_a_title_part_must_be_the_whole_phrase() -> None:
    assert title_error("404 Not Found") == "not_found"
    assert title_error("Page not found – Example") == "not_found"
    assert title_error("页面不存在_新浪网") == "not_found"
    assert title_error("Flight 404 lands safely") is None
    assert title_error("Not found: the missing link in evolution") is None
    assert title_error(None) is None


def test_error_wording_in_a_long_text_is_not_an_error_page() -> None:
    long_text = "您访问的页面不存在。" + "正文内容。" * ERROR_TEXT_MAX_CHARS
    assert text_error(long_text) is None
    from lxml import html as lxml_html

    body = lxml_html.fromstring("<html><body><p>x</p></body></html>").find("body")
    assert body is not None
    assert detect_error_page("页面不存在", body, long_text) is None
    assert detect_error_page("页面不存在", body, "返回首页") == {
        "error_page": "not_found", "signal": "title", "phrase": "页面不存在"
    }


def test_an_empty_page_stays_empty() -> None:
    r = extract(page("404 Not Found", "<div></div>"))
    assert r.page_kind == "empty"
