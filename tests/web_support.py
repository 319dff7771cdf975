"""Test apps for web and browser tests: a migrated app on a fresh SQLite file, loading the vendored htmx."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from webapp import create_app, db

CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')


def new_app(instance: Path, **config: Any) -> Flask:
    """A test app on a fresh SQLite file in ``instance``, migrated with Alembic like production.

    The bank does not refill in the background and on-demand generation gets a short budget, unless asked.
    """
    settings: dict[str, Any] = {
        "TESTING": True,
        "INSTANCE_PATH": str(instance),
        "SECRET_KEY": "test-secret",
        "DATABASE_URL": f"sqlite:///{instance / 'test.db'}",
        "HTMX_SOURCE": "vendor",
        "POOL_REFILL": False,
        "POOL_GENERATE_BUDGET_S": 0.5,
    }
    settings.update(config)
    app = create_app(settings)
    db.upgrade(app)
    return app


def csrf_token_of(page: str) -> str:
    """The CSRF token in a page's meta tag."""
    match = CSRF_META.search(page)
    assert match, "no csrf-token meta tag in the page"
    return match.group(1)


def csrf_header_of(client: FlaskClient) -> dict[str, str]:
    """The CSRF header a post needs, with the token of the client's start page."""
    return {"X-CSRFToken": csrf_token_of(client.get("/").get_data(as_text=True))}
