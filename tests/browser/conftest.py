"""Browser test fixtures: Debian's Chromium for pytest-playwright and live werkzeug servers on temp databases."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from helpers.board_page import easy, nearly_solved, stuck  # noqa: F401  (fixtures)
from helpers.web import new_app
from playwright.sync_api import BrowserContext
from werkzeug.serving import make_server

from sudoku_engine.generate import warm_up
from webapp import db, jobs
from webapp.bank import pool, seed

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium (Playwright's own browser download is not available here)."""
    chromium = shutil.which("chromium")
    if chromium is None:
        message = "Debian's chromium is not installed (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return {**browser_type_launch_args, "executable_path": chromium, "args": CHROMIUM_ARGS}


@cache
def warm_engine() -> None:
    """Load or compile the engine's kernels once per test process, before a page waits on them (a first compile
    takes tens of seconds on a busy machine, longer than a page load may take)."""
    warm_up()


@pytest.fixture
def people() -> Iterator[list[BrowserContext]]:
    """The browser contexts a test opens, one per person (closed after it)."""
    opened: list[BrowserContext] = []
    yield opened
    for context in opened:
        context.close()


RAISED_LIMITS = {name: "1000 per minute" for name in ("LIMIT_NEW", "LIMIT_PUZZLE_LINK", "LIMIT_HINT")}


@contextmanager
def serving(instance: Path, htmx_source: str, **config: Any) -> Iterator[tuple[Flask, str]]:
    """Serve a migrated app on a temp database from a thread on a free port of 127.0.0.1, with a consumer of its job
    queue in threads beside it; yield it and its URL.

    ``config`` overrides the test app's settings (for example a rate limit low enough to reach).
    """
    warm_engine()
    # Every browser test opens its games from 127.0.0.1: the rate limits (tests/web/test_limits.py) are raised.
    app = new_app(instance, TESTING=False, HTMX_SOURCE=htmx_source, **{**RAISED_LIMITS, **config})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name=f"live-server-{htmx_source}", daemon=True)
    thread.start()
    try:
        with jobs.running_in_threads(app):  # a real consumer of the app's queue prepares studies and reports
            yield app, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()
        db.dispose(app)


@pytest.fixture(scope="session")
def live_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    """The live server that loads only the vendored htmx, and its app."""
    with serving(tmp_path_factory.mktemp("live") / "instance", "vendor") as served:
        yield served


@pytest.fixture(scope="session")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, str]]:
    """A live server whose bank holds the shipped seed set (the hardest known puzzles), as after ``make run``."""
    with serving(tmp_path_factory.mktemp("seeded") / "instance", "vendor") as (app, url):
        with db.sessions_of(app)() as session:
            pool.add(session, seed.read_seed(seed.SEED_FILE))
        yield app, url


@pytest.fixture(scope="session")
def base_url(live_app: tuple[Flask, str]) -> str:
    """The live server's URL; pages use paths relative to it."""
    return live_app[1]


@pytest.fixture(scope="session")
def cdn_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A live server whose pages load htmx from the CDN with SRI, falling back to the vendored copy."""
    with serving(tmp_path_factory.mktemp("cdn") / "instance", "cdn") as (_app, url):
        yield url


@pytest.fixture(scope="session")
def one_new_per_minute(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A live server that allows one New puzzle a minute per address (a 429 is in reach); its URL."""
    with serving(tmp_path_factory.mktemp("limited") / "instance", "vendor", LIMIT_NEW="1 per minute") as (_, url):
        yield url
