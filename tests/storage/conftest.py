"""Fixtures for the real PostgreSQL and Redis servers on this machine; tests skip, saying why, without them.

``NEWSCRAWL_TEST_POSTGRES_DSN`` and ``NEWSCRAWL_TEST_REDIS_URL`` point them elsewhere.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

POSTGRES_DSN = os.environ.get(
    "NEWSCRAWL_TEST_POSTGRES_DSN", "host=127.0.0.1 port=5432 dbname=test user=postgres"
)
PROBE_TIMEOUT = 2


def postgres_reason() -> str | None:
    """Why PostgreSQL tests cannot run here, or None."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install -e '.[test]')"
    try:
        psycopg.connect(POSTGRES_DSN, connect_timeout=PROBE_TIMEOUT).close()
    except psycopg.Error as e:
        return f"no PostgreSQL at {POSTGRES_DSN!r}: {str(e).strip().splitlines()[-1]}"
    return None


@pytest.fixture
def pg_dsn() -> Iterator[str]:
    """A DSN whose search_path is a fresh schema, dropped afterwards."""
    reason = postgres_reason()
    if reason:
        pytest.skip(reason)
    import psycopg

    schema = f"nc_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(POSTGRES_DSN, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{POSTGRES_DSN} options='-csearch_path={schema}'"
    finally:
        ensure_postgres_running()
        with psycopg.connect(POSTGRES_DSN, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def _cluster() -> tuple[str, str] | None:
    versions = sorted(Path("/etc/postgresql").glob("*/main")) if Path("/etc/postgresql").is_dir() else []
    if not versions or shutil.which("pg_ctlcluster") is None:
        return None
    return versions[-1].parent.name, "main"


def restart_reason() -> str | None:
    if _cluster() is None:
        return "no local cluster to restart (pg_ctlcluster and /etc/postgresql/*/main needed)"
    if os.geteuid() != 0:
        return "restarting PostgreSQL needs root"
    return None


def pg_ctl(action: str) -> None:
    cluster = _cluster()
    assert cluster is not None
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", *cluster, action],
        check=True, capture_output=True, timeout=60,
    )


def ensure_postgres_running() -> None:
    """Start the local cluster again if a test left it stopped."""
    if _cluster() is None or postgres_reason() is None:
        return
    try:
        pg_ctl("start")
    except subprocess.CalledProcessError:
        pass
