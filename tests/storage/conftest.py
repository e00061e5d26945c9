"""Fixtures for the real PostgreSQL and Redis servers on this machine; tests skip, saying why, without them.

``NEWSCRAWL_TEST_POSTGRES_DSN`` and ``NEWSCRAWL_TEST_REDIS_URL`` point them elsewhere. These servers are
shared and never stopped: tests of outages use servers of their own (``private_postgres``,
``private_redis`` in tests/conftest.py).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

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
        with psycopg.connect(POSTGRES_DSN, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
