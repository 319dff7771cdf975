"""Test apps for web and browser tests: a migrated app on a fresh SQLite file or PostgreSQL database, loading the
vendored htmx."""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, make_url, text
from sqlalchemy.pool import NullPool

from webapp import create_app, db

CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')
DATABASES = ("sqlite", "postgresql")


def new_app(instance: Path, **config: Any) -> Flask:
    """A test app on a fresh SQLite file in ``instance``, migrated with Alembic like production.

    The bank does not refill in the background, on-demand generation gets a short budget and passwords a fast
    hash, unless asked.
    """
    settings: dict[str, Any] = {
        "TESTING": True,
        "INSTANCE_PATH": str(instance),
        "SECRET_KEY": "test-secret",
        "DATABASE_URL": f"sqlite:///{instance / 'test.db'}",
        "HTMX_SOURCE": "vendor",
        "POOL_REFILL": False,
        "POOL_GENERATE_BUDGET_S": 0.5,
        # A fast password hash: tests create and log in accounts thousands of times (the app's own is scrypt).
        "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
    }
    settings.update(config)
    app = create_app(settings)
    db.upgrade(app)
    return app


class PostgresDatabases:
    """Fresh databases on the test PostgreSQL server, each a copy of one template this process migrates once."""

    def __init__(self, server_url: str, scratch: Path) -> None:
        self.server = make_url(server_url)
        self.scratch = scratch
        self.admin = create_engine(self.server, isolation_level="AUTOCOMMIT", poolclass=NullPool)
        self.template: str | None = None

    def url(self, name: str) -> str:
        """The URL of the database ``name`` on the server."""
        return self.server.set(database=name).render_as_string(hide_password=False)

    def run(self, sql: str) -> None:
        """Run one statement outside a transaction (CREATE and DROP DATABASE need that)."""
        with self.admin.connect() as connection:
            connection.execute(text(sql))

    def migrated_template(self) -> str:
        """The name of this process's template database, created and migrated on first use."""
        if self.template is None:
            name = unique_name("sudoku_template")
            self.run(f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'UTF8'")
            app = create_app(
                {
                    "TESTING": True,
                    "INSTANCE_PATH": str(self.scratch),
                    "SECRET_KEY": "template",
                    "DATABASE_URL": self.url(name),
                    "POOL_REFILL": False,
                }
            )
            db.upgrade(app)
            db.dispose(app)
            self.template = name
        return self.template

    def create(self) -> str:
        """A new migrated database (a copy of the template); its URL."""
        name = unique_name("sudoku_test")
        self.run(f'CREATE DATABASE "{name}" TEMPLATE "{self.migrated_template()}"')
        return self.url(name)

    def drop(self, url: str) -> None:
        """Drop a database made by ``create``, closing any connection still open on it."""
        self.run(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')

    def close(self) -> None:
        """Drop the template and close the server connection."""
        if self.template is not None:
            self.drop(self.url(self.template))
            self.template = None
        self.admin.dispose()


def unique_name(prefix: str) -> str:
    """A database name no other test process or test uses."""
    return f"{prefix}_{os.getpid()}_{secrets.token_hex(4)}"


@contextmanager
def app_on(instance: Path, postgres: PostgresDatabases | None, **config: Any) -> Iterator[Flask]:
    """A migrated test app (``new_app``) on a fresh PostgreSQL database when ``postgres`` is given, else on SQLite;
    its engine is disposed and its PostgreSQL database dropped afterwards."""
    url = postgres.create() if postgres is not None and "DATABASE_URL" not in config else None
    try:
        app = new_app(instance, **({"DATABASE_URL": url} if url else {}), **config)
        try:
            yield app
        finally:
            db.dispose(app)
    finally:
        if url is not None and postgres is not None:
            postgres.drop(url)


def csrf_token_of(page: str) -> str:
    """The CSRF token in a page's meta tag."""
    match = CSRF_META.search(page)
    assert match, "no csrf-token meta tag in the page"
    return match.group(1)


def csrf_header_of(client: FlaskClient) -> dict[str, str]:
    """The CSRF header a post needs, with the token of the client's start page."""
    return {"X-CSRFToken": csrf_token_of(client.get("/").get_data(as_text=True))}


class Clock:
    """A server clock that only moves when told to."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock forward."""
        self.now += timedelta(seconds=seconds)
