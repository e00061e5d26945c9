"""URL keys: one normalising function, and the canonical URL a page may claim for itself.

A record is stored under its canonical URL, so that URL is a key other pages must not be able to take:
a page naming another site's article as its canonical would overwrite that article's record. A
declared canonical is accepted only on the page's own site: its host, a host within the crawl's allowed
domains when they are given, else a host of the same registrable domain (``news.sina.com.cn`` and
``finance.sina.com.cn`` are one site; ``a.github.io`` and ``b.github.io`` are not). Registrable domains
come from the Public Suffix List snapshot bundled with ``tldextract`` (private suffixes included);
nothing is fetched.

>>> normalize_url("HTTPS://News.Example.CN:443/a.html?id=7&utm_source=x&spm=a.b#top")
'https://news.example.cn/a.html?id=7'
>>> canonical_url("https://news.example.cn/a/1.html?utm_medium=rss", ["https://other.example/a/9.html"])
'https://news.example.cn/a/1.html'
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from ipaddress import ip_address
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit, urlunsplit

if TYPE_CHECKING:
    import tldextract

#: query parameters that only track who sent a visitor (analytics, ad clicks, newsletters); a URL key
#: keeps every other parameter, in its order and spelling
TRACKING_PREFIXES = ("utm_",)
TRACKING_PARAMS = frozenset(
    {
        "fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "twclid", "ttclid", "igshid",
        "mc_cid", "mc_eid", "_hsenc", "_hsmi", "mkt_tok", "spm", "scm", "share_token",
    }
)  # fmt: skip
_DEFAULT_PORTS = {"http": 80, "https": 443}


@lru_cache(maxsize=1)
def _suffix_list() -> tldextract.TLDExtract:
    """The suffix list bundled with tldextract, never updated over the network. Made on first use:
    importing tldextract (with requests and urllib3) is 0.1 s of CPU that a crawl whose spider names its
    allowed domains -- every site file's -- never needs (reextract's and the crawler's start-up)."""
    import tldextract

    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, include_psl_private_domains=True)


def _tracking(param: str) -> bool:
    name = param.split("=", 1)[0].lower()
    return name in TRACKING_PARAMS or name.startswith(TRACKING_PREFIXES)


def normalize_url(url: str) -> str:
    """``url`` as a key: scheme and host lower-cased, default port, fragment and tracking parameters
    dropped, an empty path made ``/``. Other parts are kept as written; a URL that does not split
    (a bad port, say) only loses its fragment.

    >>> normalize_url("http://Example.com:80?utm_campaign=z")
    'http://example.com/'
    """
    try:
        parts = urlsplit(url.strip())
        host, port = parts.hostname, parts.port
    except ValueError:
        return url.strip().split("#", 1)[0]
    if not host:
        return urlunsplit(parts._replace(fragment=""))
    scheme = parts.scheme.lower()
    host = host.rstrip(".")
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and port != _DEFAULT_PORTS.get(scheme):
        netloc += f":{port}"
    userinfo = parts.netloc.rpartition("@")[0]
    if userinfo:
        netloc = f"{userinfo}@{netloc}"
    query = "&".join(p for p in parts.query.split("&") if p and not _tracking(p))
    return urlunsplit((scheme, netloc, parts.path or "/", query, ""))


@lru_cache(maxsize=4096)
def registrable_domain(host: str) -> str:
    """The domain one registrant controls: ``news.sina.com.cn`` -> ``sina.com.cn``; an IP address, or a
    host under no known suffix, is its own.

    >>> registrable_domain("a.b.example.co.uk"), registrable_domain("me.github.io")
    ('example.co.uk', 'me.github.io')
    """
    host = host.lower().rstrip(".")
    try:
        ip_address(host.strip("[]"))
        return host
    except ValueError:
        pass
    return _suffix_list().extract_str(host).top_domain_under_public_suffix or host


def _within(host: str, domains: Iterable[str]) -> bool:
    return any(host == d or host.endswith("." + d) for d in (d.lower().strip(".") for d in domains))


def same_site(url: str, page_url: str, allowed_domains: Iterable[str] = ()) -> bool:
    """True when ``url`` is on ``page_url``'s site: the same host; or within ``allowed_domains`` when
    any are given; else of the same registrable domain. Only http(s) URLs are on a site."""
    try:
        a, b = urlsplit(url), urlsplit(page_url)
        host, page_host = a.hostname, b.hostname
    except ValueError:
        return False
    if a.scheme not in _DEFAULT_PORTS or not host or not page_host:
        return False
    host, page_host = host.rstrip("."), page_host.rstrip(".")
    if host == page_host:
        return True
    domains = tuple(allowed_domains)
    if domains:
        return _within(host, domains)
    return registrable_domain(host) == registrable_domain(page_host)


def canonical_url(page_url: str, declared: Iterable[str | None], allowed_domains: Iterable[str] = ()) -> str:
    """The key of the page at ``page_url``: the first ``declared`` canonical URL (``<link
    rel=canonical>``, ``og:url``; relative ones resolved) that is on the page's own site (see
    :func:`same_site`), normalised; ``page_url`` normalised otherwise.

    A home page claimed by a deeper page is ignored (a common template bug that would merge every
    article into one record).
    """
    page = normalize_url(page_url)
    domains = tuple(allowed_domains)
    for href in declared:
        if not href or not href.strip():
            continue
        try:
            found = normalize_url(urljoin(page, href.strip()))
        except ValueError:
            continue
        if not same_site(found, page, domains):
            continue
        if urlsplit(found).path == "/" and not urlsplit(found).query and urlsplit(page).path != "/":
            continue
        return found
    return page
