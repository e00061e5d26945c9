"""Secrets kept out of messages: passwords of database and Redis URLs, libpq ``password=`` values.

libpq quotes the part of a DSN it cannot parse, which may be the password
(``invalid percent-encoded token: "S3cret%zzPW"``, or ``missing "=" after "PWtail"`` for
``password=S3cret PWtail``), and tracebacks or other libraries may repeat a DSN. So every message about
a server goes through :func:`redact`, and a crawl's log handlers carry :class:`RedactingFilter`, which
applies it to every line. Two rules: patterns (a URL's ``user:password@``, a ``password=`` value) and
known secrets (:func:`secrets_of` a configured DSN or URL: its password and, for a key=value DSN, every
word after ``password=`` up to the next ``key=``, so a mis-quoted password is hidden whole). A known
secret is masked whatever its length: from :data:`MIN_SECRET_CHARS` characters wherever it occurs,
shorter ones wherever they stand as a word of their own (inside a longer word they would mask ordinary
text, and there they reveal nothing).

>>> redact("postgresql://postgres:S3cret%zzPW@db:5432/test failed")
'postgresql://postgres:***@db:5432/test failed'
>>> redact('missing "=" after "PWtail"', secrets_of("host=db password=S3cret PWtail"))
'missing "=" after "***"'
>>> redact('invalid percent-encoded token: "p%z"', secrets_of("postgresql://u:p%z@db/test"))
'invalid percent-encoded token: "***"'
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from functools import lru_cache
from urllib.parse import unquote

MASK = "***"
#: ``scheme://user:password@``: the password part
_URL_PASSWORD = re.compile(r"(?P<head>\b[a-zA-Z][\w+.-]*://[^\s:/@]*:)(?P<secret>[^\s@/]*)(?=@)")
#: ``password=value`` or ``password='quoted value'`` (libpq key=value form; ``passwd`` and ``pass``
#: spellings of other tools too)
_KEY_PASSWORD = re.compile(
    r"(?P<head>\b(?:password|passwd|pass|pwd)\s*=\s*)(?P<secret>'(?:[^'\\]|\\.)*'?|\"(?:[^\"\\]|\\.)*\"?|\S+)",
    re.IGNORECASE,
)
#: a ``key=`` that ends the words of a mis-quoted password
_NEXT_KEY = re.compile(r"^[A-Za-z_]+=")
#: known secrets shorter than this are masked only where they stand as a word of their own (not inside a
#: longer one: a password ``pw1`` must not turn ``pw12`` or a secret ``x`` every "x" of a line into ``***``)
MIN_SECRET_CHARS = 4


def secrets_of(dsn: str | None) -> set[str]:
    """The strings of ``dsn`` (a libpq DSN or a URL) that must never be shown.

    >>> sorted(secrets_of("redis://:hunter22@h:6379/0"))
    ['hunter22']
    >>> sorted(secrets_of("host=h password='a b' user=u"))
    ["'a b'", 'a b']
    >>> sorted(secrets_of("host=h password=pw1 x user=u"))
    ['pw1', 'x']
    """
    found: set[str] = set()
    if not dsn:
        return found
    for m in _URL_PASSWORD.finditer(dsn):
        found |= {m["secret"], unquote(m["secret"])}
    for m in _KEY_PASSWORD.finditer(dsn):
        secret = m["secret"]
        found |= {secret, secret.strip("'\"")}
        # what follows an unquoted value up to the next key=: libpq reads it as keys and quotes the words
        rest = dsn[m.end() :].split()
        for word in rest:
            if _NEXT_KEY.match(word):
                break
            found |= {word, word.strip("'\"")}
    found.discard("")
    return found


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with URL passwords, ``password=`` values and every one of ``secrets`` masked (those shorter
    than :data:`MIN_SECRET_CHARS` where they stand as a word of their own).

    >>> redact("user pw1 logged in; pw12 and xpw1 are other words", {"pw1"})
    'user *** logged in; pw12 and xpw1 are other words'
    """
    text = _URL_PASSWORD.sub(lambda m: m["head"] + MASK, text)
    text = _KEY_PASSWORD.sub(lambda m: m["head"] + MASK, text)
    for secret in sorted(secrets, key=len, reverse=True):
        if len(secret) >= MIN_SECRET_CHARS:
            text = text.replace(secret, MASK)
        elif secret:
            text = _short_secret(secret).sub(MASK, text)
    return text


@lru_cache(maxsize=64)
def _short_secret(secret: str) -> re.Pattern[str]:
    # the secret not inside a longer word: no letter or digit just before or after it
    return re.compile(rf"(?<!\w){re.escape(secret)}(?!\w)")


class RedactingFilter(logging.Filter):
    """A log filter that passes every record with its message (and traceback) redacted."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets: set[str] = set(secrets)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):
            message = str(record.msg)
        clean = redact(message, self.secrets)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.secrets)
        return True


def install(secrets: Iterable[str] = ()) -> RedactingFilter:
    """Put one :class:`RedactingFilter` on every handler of the root logger (once; later calls add
    their secrets to it) and return it."""
    root = logging.getLogger()
    found = next(
        (f for h in root.handlers for f in h.filters if isinstance(f, RedactingFilter)), None
    )
    log_filter = found or RedactingFilter()
    log_filter.secrets |= set(secrets)
    for handler in root.handlers:
        if log_filter not in handler.filters:
            handler.addFilter(log_filter)
    return log_filter
