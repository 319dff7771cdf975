"""Shared fixtures: puzzles (from the corpora or generated) and migrated web apps on temp databases."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from corpus_data import corpus_file, read_puzzles
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from web_support import csrf_header_of, new_app

from sudoku_engine.generate import Generated, generate_puzzle
from webapp import db


@pytest.fixture(scope="session")
def easy50() -> list[str]:
    """The 50 easy Project Euler 96 puzzles; skipped (failed in CI) when the corpus is absent."""
    return read_puzzles(corpus_file("projecteuler96_easy50.txt"))


@pytest.fixture(scope="session")
def generated() -> Generated:
    """One reproducible generated puzzle with its solution."""
    return generate_puzzle(seed=20240601, givens=36)


@pytest.fixture
def make_app(tmp_path: Path) -> Iterator[Callable[..., Flask]]:
    """Build migrated apps in a temp folder; their engines are disposed after the test."""
    apps: list[Flask] = []

    def factory(**config: Any) -> Flask:
        app = new_app(tmp_path / f"instance{len(apps)}", **config)
        apps.append(app)
        return app

    yield factory
    for app in apps:
        db.dispose(app)


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
