"""Shared fixtures: puzzles (from the corpora or generated) and migrated web apps on temp databases.

The web tests (tests/web) that build apps run twice, on SQLite and on PostgreSQL (the ``database`` parameter), but
those marked ``own_database`` (they give their apps a database of their own); the PostgreSQL runs need the server
``make test`` starts (tests/services.py). Browser tests stay on SQLite.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from sudoku_engine.generate import Generated, generate_puzzle

pytest.register_assert_rewrite("helpers")  # the shared helpers' asserts explain their failures as tests' do

from helpers.corpus import corpus_file, read_puzzles  # noqa: E402  (after the rewrite is registered)
from helpers.services import postgres_url  # noqa: E402
from helpers.web import DATABASES, Clock, PostgresDatabases, app_on, csrf_header_of  # noqa: E402


@pytest.fixture(scope="session")
def easy50() -> list[str]:
    """The 50 easy Project Euler 96 puzzles; skipped (failed in CI) when the corpus is absent."""
    return read_puzzles(corpus_file("projecteuler96_easy50.txt"))


@pytest.fixture(scope="session")
def generated() -> Generated:
    """One reproducible generated puzzle with its solution."""
    return generate_puzzle(seed=20240601, givens=36)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run the web tests that use a database on SQLite and on PostgreSQL (once, those that choose their own)."""
    if "database" not in metafunc.fixturenames or metafunc.definition.path.parent.name != "web":
        return
    if metafunc.definition.get_closest_marker("own_database") is None:
        metafunc.parametrize("database", DATABASES, indirect=True)


@pytest.fixture(scope="module")
def database(request: pytest.FixtureRequest) -> str:
    """The database the test's apps run on: sqlite (the default) or postgresql."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture(scope="session")
def postgres_databases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PostgresDatabases]:
    """Fresh databases on the test PostgreSQL server (skipped without it, failed when the services are required)."""
    databases = PostgresDatabases(postgres_url(), tmp_path_factory.mktemp("postgres-template"))
    yield databases
    databases.close()


@pytest.fixture(scope="module")
def postgres(database: str, request: pytest.FixtureRequest) -> PostgresDatabases | None:
    """The PostgreSQL databases when the test runs on PostgreSQL, else None."""
    if database == "postgresql":
        databases: PostgresDatabases = request.getfixturevalue("postgres_databases")
        return databases
    return None


@pytest.fixture
def make_app(tmp_path: Path, postgres: PostgresDatabases | None) -> Iterator[Callable[..., Flask]]:
    """Build migrated apps in a temp folder, each on a fresh database of the test's kind; their engines are disposed
    (and PostgreSQL databases dropped) after the test."""
    with ExitStack() as stack:
        numbers = count()

        def factory(**config: Any) -> Flask:
            return stack.enter_context(app_on(tmp_path / f"instance{next(numbers)}", postgres, **config))

        yield factory


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    """A migrated test app with CSRF protection on, as in production."""
    return make_app()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of the app."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """A runner for the app's CLI commands."""
    return app.test_cli_runner()


@pytest.fixture
def csrf_headers(client: FlaskClient) -> dict[str, str]:
    """The headers htmx sends: the page's CSRF token and HX-Request."""
    return {**csrf_header_of(client), "HX-Request": "true"}


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """A simulated clock in place of the server's: it moves only when a test advances it."""
    from webapp import models

    simulated = Clock()
    monkeypatch.setattr(models, "clock", simulated)
    return simulated
