"""Start-up checks of newscrawl's settings: each bad value is a ConfigError naming the setting."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.settings import Settings

from newscrawl.crawl.config import (
    ConfigAddon,
    ConfigError,
    check_services,
    check_settings,
    feed_files,
    warn_unknown_settings,
)


def settings(tmp_path: Path, **values: object) -> Settings:
    """newscrawl's settings, the store in ``tmp_path``, with ``values`` set as on the command line."""
    s = Settings()
    s.setmodule("newscrawl.settings", priority="project")
    s.set("NEWSCRAWL_SQLITE_PATH", str(tmp_path / "out" / "db.sqlite3"), priority="project")
    for name, value in values.items():
        s.set(name, value, priority="cmdline")
    return s


def test_the_default_settings_pass(tmp_path):
    check_settings(settings(tmp_path))


@pytest.mark.parametrize(
    ("name", "value", "problem"),
    [
        ("NEWSCRAWL_EXTRACT_ENABLED", "perhaps", "expected true or false, got 'perhaps'"),
        ("NEWSCRAWL_INCREMENTAL", "always", "expected true or false"),
        ("NEWSCRAWL_SINK_BATCH_SIZE", "ten", "expected a whole number, got 'ten'"),
        ("NEWSCRAWL_SINK_BATCH_SIZE", "0", "must be at least 1, got '0'"),
        ("NEWSCRAWL_MIN_TEXT_CHARS", "-1", "must be at least 0"),
        ("NEWSCRAWL_DUPLICATE_MAX_DISTANCE", "64", "must be between 0 and 63, got '64'"),
        ("NEWSCRAWL_ALGORITHM", "magic", "unknown algorithm 'magic'; one of auto"),
        ("NEWSCRAWL_AUTO_SHORT_THRESHOLD", "big", "expected int, got 'big'"),
        ("NEWSCRAWL_CETD_USE_COMPOSITE", "maybe", "expected bool, got 'maybe'"),
        ("NEWSCRAWL_CETD_NO_SUCH", "1", "cetd has no such parameter; its parameters: NEWSCRAWL_CETD_"),
        ("NEWSCRAWL_REPLAY_PREFIX", "ftp://mirror/", "not an http(s) URL prefix"),
        ("NEWSCRAWL_MAX_NODES", "lots", "expected a number (0: no limit), got 'lots'"),
        ("NEWSCRAWL_TIME_BUDGET", "-1", "must be 0 (no limit) or more"),
    ],
)
def test_bad_setting_is_named_with_its_problem(tmp_path, name, value, problem):
    with pytest.raises(ConfigError) as caught:
        check_settings(settings(tmp_path, **{name: value}))
    message = str(caught.value)
    assert message.startswith(f"{name}: ") and problem in message and "\n" not in message


def test_algorithm_parameters_of_the_right_type_pass(tmp_path):
    values = {"NEWSCRAWL_AUTO_SHORT_THRESHOLD": "4000", "NEWSCRAWL_CETD_USE_COMPOSITE": "no"}
    check_settings(settings(tmp_path, **values))


def test_sqlite_path_that_is_a_folder_is_named(tmp_path):
    with pytest.raises(ConfigError, match=rf"^NEWSCRAWL_SQLITE_PATH: {tmp_path} is a folder"):
        check_settings(settings(tmp_path, NEWSCRAWL_SQLITE_PATH=str(tmp_path)))


def test_feed_that_cannot_be_written_is_named(tmp_path):
    (tmp_path / "taken").write_text("")
    feed = str(tmp_path / "taken" / "out.jsonl")
    with pytest.raises(ConfigError, match=f"^feed {feed}: cannot create the folder"):
        check_settings(settings(tmp_path, FEEDS={feed: {"format": "jsonlines"}}))


def test_only_local_feed_files_are_checked(tmp_path):
    feeds = {
        "out.jsonl": {}, f"file://{tmp_path}/b.jsonl": {}, "s3://bucket/x.jsonl": {}, "stdout:": {},
        "%(name)s/%(time)s.jsonl": {},
    }  # fmt: skip
    found = feed_files(settings(tmp_path, FEEDS=feeds))
    assert found == [("out.jsonl", Path("out.jsonl")), (f"file://{tmp_path}/b.jsonl", tmp_path / "b.jsonl")]


def test_addon_checks_the_settings_it_is_given(tmp_path):
    with pytest.raises(ConfigError, match="NEWSCRAWL_DEDUP"):
        ConfigAddon().update_settings(settings(tmp_path, NEWSCRAWL_DEDUP="sometimes"))


@pytest.mark.parametrize(
    ("name", "value", "problem"),
    [
        ("NEWSCRAWL_TIME_BUDGET", "nan", "NEWSCRAWL_TIME_BUDGET: must be a finite number (0: no limit)"),
        ("NEWSCRAWL_MAX_NODES", "inf", "NEWSCRAWL_MAX_NODES: expected a number"),
        ("NEWSCRAWL_MAX_FEED_ENTRIES", "0", "NEWSCRAWL_MAX_FEED_ENTRIES: must be at least 1"),
        ("NEWSCRAWL_POSTGRES_RETRY_SECONDS", "nan", "NEWSCRAWL_POSTGRES_RETRY_SECONDS: must be a finite"),
        ("DOWNLOAD_DELAY", "fast", "DOWNLOAD_DELAY: expected a number, got 'fast'"),
        ("DOWNLOAD_TIMEOUT", "inf", "DOWNLOAD_TIMEOUT: expected a finite number"),
    ],
)
def test_non_numbers_and_non_finite_numbers_are_refused(tmp_path, name, value, problem):
    with pytest.raises(ConfigError) as info:
        check_settings(settings(tmp_path, **{name: value}))
    assert str(info.value).startswith(problem)


def test_a_store_that_is_not_sqlite_is_refused(tmp_path):
    store = tmp_path / "out" / "db.sqlite3"
    store.parent.mkdir()
    store.write_bytes(b"not a database " * 100)
    with pytest.raises(ConfigError, match=r"^NEWSCRAWL_SQLITE_PATH: .* is not a usable SQLite database"):
        check_settings(settings(tmp_path))


def test_a_jobdir_that_cannot_be_made_is_refused(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(ConfigError, match="^JOBDIR: cannot create the folder"):
        check_settings(settings(tmp_path, JOBDIR=str(tmp_path / "file" / "job")))


def test_misspelled_newscrawl_settings_are_warned_with_the_closest_name(tmp_path, caplog):
    s = settings(tmp_path, NEWSCRAWL_SQLITE_PAHT="x.sqlite3", NEWSCRAWL_MAX_FEED_ENTRYS="1")
    s.set("NEWSCRAWL_WHATEVER_ELSE", "1", priority="cmdline")
    unknown = "unknown newscrawl setting, ignored"
    assert warn_unknown_settings(s) == [
        f"NEWSCRAWL_MAX_FEED_ENTRYS: {unknown}; did you mean NEWSCRAWL_MAX_FEED_ENTRIES?",
        f"NEWSCRAWL_SQLITE_PAHT: {unknown}; did you mean NEWSCRAWL_SQLITE_PATH?",
        f"NEWSCRAWL_WHATEVER_ELSE: {unknown}",
    ]
    check_settings(s)  # warned, not refused
    assert "did you mean NEWSCRAWL_SQLITE_PATH?" in caplog.text


@pytest.mark.parametrize(
    ("name", "value", "problem"),
    [
        ("NEWSCRAWL_REDIS_URL", "notaurl", "NEWSCRAWL_REDIS_URL: not a Redis URL such as redis://"),
        ("NEWSCRAWL_REDIS_URL", "redis://:S3cret@127.0.0.1:1/0", "NEWSCRAWL_REDIS_URL: Redis at 127.0.0.1:1"),
        (
            "NEWSCRAWL_POSTGRES_DSN",
            "postgresql://u:S3cret@127.0.0.1:1/test",
            "NEWSCRAWL_POSTGRES_DSN: PostgreSQL at 127.0.0.1:1/test unreachable",
        ),
        ("NEWSCRAWL_POSTGRES_DSN", "password=S3cret PWtail", "NEWSCRAWL_POSTGRES_DSN: not a libpq DSN"),
    ],
)
def test_unreachable_services_are_refused_at_start_up(tmp_path, name, value, problem):
    with pytest.raises(ConfigError) as info:
        check_services(settings(tmp_path, **{name: value}))
    assert str(info.value).startswith(problem) and "S3cret" not in str(info.value)
