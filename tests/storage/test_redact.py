"""No password in any message: DSNs, Redis URLs and libpq's parse errors, in the library, a crawl's log,
``pg-load`` and ``bench-crawl``."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from newscrawl.storage.redact import MASK, RedactingFilter, redact, secrets_of

URL_DSN = "postgresql://postgres:S3cret%zzPW@127.0.0.1:1/test"  # libpq: invalid percent-encoded token
KEY_DSN = "host=127.0.0.1 port=1 dbname=test password=S3cret PWtail"  # libpq: missing "=" after "PWtail"
GOOD_DSN = "postgresql://postgres:S3cretGood@127.0.0.1:1/test"  # parses; nothing listens on port 1
SECRETS = ("S3cret", "PWtail")


def shows_no_secret(text: str) -> bool:
    return not any(s in text for s in SECRETS)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("postgresql://u:pw%zz@h/db down", f"postgresql://u:{MASK}@h/db down"),
        ("redis://:hunter22@h:6379/0", f"redis://:{MASK}@h:6379/0"),
        ("host=h password='a b' user=u", f"host=h password={MASK} user=u"),
        ("host=h PASSWORD = x1234 user=u", f"host=h PASSWORD = {MASK} user=u"),
        ("http://example.org/a:b@c is not a password", "http://example.org/a:b@c is not a password"),
    ],
)
def test_patterns(text, expected):
    assert redact(text) == expected


def test_the_words_of_a_misquoted_password_are_secrets():
    assert {"S3cret", "PWtail"} <= secrets_of(KEY_DSN)
    assert "S3cret%zzPW" in secrets_of(URL_DSN)
    assert redact('missing "=" after "PWtail"', secrets_of(KEY_DSN)) == f'missing "=" after "{MASK}"'


SHORT_URL_DSN = "postgresql://postgres:p%z@127.0.0.1:1/test"  # libpq: invalid percent-encoded token: "p%z"
SHORT_KEY_DSN = "host=127.0.0.1 port=1 dbname=test password=pw1 x"  # libpq: missing "=" after "x"


def shows_no_short_secret(text: str) -> bool:
    # a short secret shows as a word of its own (libpq quotes it); inside longer words it reveals nothing
    return not re.search(r'"p%z"|(?<!\w)pw1(?!\w)|"x"', text)


@pytest.mark.parametrize("secret", ["a", "pw1", "p%z", "x y", "***"])
def test_a_short_secret_is_masked_as_a_word_of_its_own(secret):
    assert redact(f'token: "{secret}"; {secret} failed', {secret}) == f'token: "{MASK}"; {MASK} failed'


def test_a_short_secret_inside_longer_words_leaves_them_alone():
    assert redact("pw12 xpw1 pw1_ ok", {"pw1"}) == "pw12 xpw1 pw1_ ok"
    assert redact("exit x code", {"x"}) == f"exit {MASK} code"


def test_every_password_of_a_dsn_is_a_secret_whatever_its_length():
    assert {"pw1", "x"} <= secrets_of(SHORT_KEY_DSN)
    assert "p%z" in secrets_of(SHORT_URL_DSN)
    assert "a" in secrets_of("postgresql://u:a@h/db") and "a" in secrets_of("host=h password=a")


def test_the_filter_redacts_messages_arguments_and_tracebacks():
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed: %s", ("S3cret%zzPW",), None)
    try:
        raise ValueError('invalid percent-encoded token: "S3cret%zzPW"')
    except ValueError:
        record.exc_info = sys.exc_info()
    RedactingFilter(secrets_of(URL_DSN)).filter(record)
    assert record.getMessage() == f"failed: {MASK}"
    assert "S3cret" not in record.exc_text and MASK in record.exc_text


@pytest.mark.parametrize(
    "dsns, shows",
    [((URL_DSN, KEY_DSN), shows_no_secret), ((SHORT_URL_DSN, SHORT_KEY_DSN), shows_no_short_secret)],
    ids=["passwords", "short passwords"],
)
def test_libpq_parse_errors_never_reach_the_sink_message(dsns, shows):
    psycopg = pytest.importorskip("psycopg")
    from newscrawl.storage.postgres import PostgresSink, PostgresUnavailable, check_dsn

    for dsn in dsns:
        with pytest.raises(psycopg.ProgrammingError) as raw:
            psycopg.conninfo.conninfo_to_dict(dsn)
        assert not shows(str(raw.value))  # libpq does quote them
        with pytest.raises(ValueError) as checked:
            check_dsn(dsn)
        assert shows(str(checked.value))
        with pytest.raises(PostgresUnavailable) as opened:
            PostgresSink(dsn, connect_timeout=1).open()
        assert shows(str(opened.value))


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = dict(os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings", PYTHONWARNINGS="ignore", **env)
    return subprocess.run(args, cwd=cwd, env=environ, capture_output=True, text=True, timeout=120)


def crawl(tmp_path: Path, dsn: str, **env: str) -> subprocess.CompletedProcess[str]:
    return run(
        [sys.executable, "-m", "scrapy", "crawl", "demo", "-s", "NEWSCRAWL_SQLITE_PATH=store.sqlite3",
         "-s", f"NEWSCRAWL_POSTGRES_DSN={dsn}", "-s", "LOG_LEVEL=DEBUG"],
        tmp_path, **env,
    )


@pytest.mark.parametrize("dsn", [URL_DSN, KEY_DSN, SHORT_URL_DSN, SHORT_KEY_DSN])
def test_a_crawl_with_an_unparsable_dsn_stops_with_one_line_and_no_secret(tmp_path, dsn):
    pytest.importorskip("psycopg")
    done = crawl(tmp_path, dsn)
    assert done.returncode == 2, done.stderr[-2000:]
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("scrapy crawl: NEWSCRAWL_POSTGRES_DSN: not a libpq DSN")
    assert shows_no_secret(done.stderr + done.stdout)
    assert shows_no_short_secret(done.stderr + done.stdout)


def test_an_unreachable_server_is_one_line_without_the_password(tmp_path):
    pytest.importorskip("psycopg")
    done = crawl(tmp_path, GOOD_DSN, NEWSCRAWL_REDIS_URL="")
    text = done.stderr + done.stdout
    assert done.returncode == 2 and "127.0.0.1:1/test unreachable" in text, text[-2000:]
    assert "S3cretGood" not in text


def test_a_crawl_log_never_shows_the_password(tmp_path, pg_dsn):
    # the shared server trusts every local connection, so a password in the DSN is accepted and ignored
    done = crawl(tmp_path, f"{pg_dsn} password=S3cretGood", NEWSCRAWL_REDIS_URL="")
    text = done.stderr + done.stdout
    assert "Overridden settings" in text and "PostgreSQL at 127.0.0.1:5432/test" in text, text[-2000:]
    assert "S3cretGood" not in text


@pytest.mark.parametrize("dsn", [URL_DSN, KEY_DSN, GOOD_DSN, SHORT_URL_DSN, SHORT_KEY_DSN])
def test_pg_load_shows_no_secret(tmp_path, dsn):
    pytest.importorskip("psycopg")
    spill = tmp_path / "spill.jsonl"
    spill.write_text('{"url": "http://a.test/1", "canonical_url": "http://a.test/1"}\n', encoding="utf-8")
    done = run([sys.executable, "-m", "newscrawl.cli", "pg-load", str(spill), "--dsn", dsn], tmp_path)
    assert done.returncode in (1, 2) and done.stderr.startswith("newscrawl pg-load: ")
    assert shows_no_secret(done.stderr + done.stdout) and "S3cretGood" not in done.stderr
    assert shows_no_short_secret(done.stderr + done.stdout)


def test_bench_crawl_shows_no_secret(tmp_path):
    pytest.importorskip("psycopg")
    done = run(
        [sys.executable, "-m", "newscrawl.cli", "bench-crawl", "--skip-crawl", "--items", "5",
         "--postgres", KEY_DSN],
        tmp_path,
    )
    assert "| PostgreSQL | skipped:" in done.stdout, done.stdout + done.stderr
    assert shows_no_secret(done.stdout + done.stderr)
