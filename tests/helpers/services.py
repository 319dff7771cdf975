"""Outside servers some tests need (PostgreSQL, Redis), started on loopback ports by ``make test``.

``make test`` starts them with ``scripts/services.sh`` and exports their addresses: ``SUDOKU_TEST_POSTGRES_URL`` (a
server URL whose role may create databases) and ``SUDOKU_TEST_REDIS_URL``. Without an address a test skips with the
reason, except in CI or under ``make test`` (``SUDOKU_REQUIRE_SERVICES`` set), where a missing server is a failure.
"""

from __future__ import annotations

import contextlib
import os
import socket
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import make_url

POSTGRES = "SUDOKU_TEST_POSTGRES_URL"
REDIS = "SUDOKU_TEST_REDIS_URL"


def service_url(variable: str) -> str:
    """The address in ``variable``, or a skip (a failure when the services are required) when it is not set."""
    value = os.environ.get(variable, "").strip()
    if value:
        return value
    message = f"{variable} is not set: `make test` starts the server and sets it"
    if os.environ.get("CI") or os.environ.get("SUDOKU_REQUIRE_SERVICES"):
        pytest.fail(message)
    pytest.skip(message)


def postgres_url() -> str:
    """The test PostgreSQL server's URL (SQLAlchemy form, ``postgresql+psycopg://...``)."""
    return service_url(POSTGRES)


def redis_url() -> str:
    """The test Redis server's URL (``redis://127.0.0.1:PORT/0``)."""
    return service_url(REDIS)


@contextlib.contextmanager
def fresh_postgres_database(prefix: str) -> Iterator[str]:
    """A new, empty database named ``prefix`` plus a random tail on the test PostgreSQL server, dropped afterwards
    (with any connections left); its SQLAlchemy URL."""
    import psycopg

    server = make_url(postgres_url())
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_dsn(), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin_dsn(), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def free_port() -> int:
    """A loopback port nothing listens on (free when asked: a server started on it next is very likely to get it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def admin_dsn() -> str:
    """The test PostgreSQL server's URL as psycopg takes it (for statements outside the app)."""
    return make_url(postgres_url()).set(drivername="postgresql").render_as_string(hide_password=False)
