"""Outside servers some tests need (PostgreSQL, Redis), started on loopback ports by ``make test``.

``make test`` starts them with ``scripts/services.sh`` and exports their addresses: ``SUDOKU_TEST_POSTGRES_URL`` (a
server URL whose role may create databases) and ``SUDOKU_TEST_REDIS_URL``. Without an address a test skips with the
reason, except in CI or under ``make test`` (``SUDOKU_REQUIRE_SERVICES`` set), where a missing server is a failure.
"""

from __future__ import annotations

import os

import pytest

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
