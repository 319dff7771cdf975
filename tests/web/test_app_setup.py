"""The app factory's configuration, the secret key file, htmx loading and the vendored htmx file."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from webapp import assets, create_app, db

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_folders_are_at_repo_root(app: Flask) -> None:
    assert Path(app.template_folder or "") == REPO_ROOT / "templates"
    assert Path(app.static_folder or "") == REPO_ROOT / "static"


def built(tmp_path: Path, config: dict[str, str] | None = None) -> Flask:
    """An app in tmp_path whose engine is disposed at once (only its config is looked at)."""
    app = create_app({"INSTANCE_PATH": str(tmp_path), **(config or {})})
    db.dispose(app)
    return app


def test_default_database_is_sqlite_in_instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = built(tmp_path, {"SECRET_KEY": "k"})
    assert app.config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'sudoku.db'}"


def test_database_url_from_env_then_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "sqlite:///from-env.db")
    assert built(tmp_path, {"SECRET_KEY": "k"}).config["DATABASE_URL"] == "sqlite:///from-env.db"
    config = {"SECRET_KEY": "k", "DATABASE_URL": "sqlite:///from-config.db"}
    assert built(tmp_path, config).config["DATABASE_URL"] == "sqlite:///from-config.db"


def test_secret_key_from_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SECRET_KEY", "from-env")
    assert built(tmp_path).config["SECRET_KEY"] == "from-env"
    assert not (tmp_path / "secret_key").exists()


def test_secret_key_persists_in_instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = built(tmp_path / "instance").config["SECRET_KEY"]
    second = built(tmp_path / "instance").config["SECRET_KEY"]
    key_file = tmp_path / "instance" / "secret_key"
    assert first == second == key_file.read_text() and len(first) == 64
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in key_file.parent.iterdir()] == ["secret_key"]


def test_unknown_htmx_source_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="HTMX_SOURCE"):
        create_app({"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "k", "HTMX_SOURCE": "elsewhere"})


def test_htmx_source_from_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUDOKU_HTMX", "vendor")
    assert built(tmp_path, {"SECRET_KEY": "k"}).config["HTMX_SOURCE"] == "vendor"


def test_vendor_mode_loads_only_the_vendored_htmx(app: Flask) -> None:
    page = app.test_client().get("/").get_data(as_text=True)
    assert f'<script src="/static/{assets.HTMX_VENDOR_PATH}"></script>' in page
    assert "unpkg.com" not in page and "document.write" not in page


def test_cdn_mode_uses_sri_and_same_origin_fallback(make_app: Callable[..., Flask]) -> None:
    page = make_app(HTMX_SOURCE="cdn").test_client().get("/").get_data(as_text=True)
    tag = f'<script src="{assets.HTMX_CDN_URL}" integrity="{assets.HTMX_SRI}" crossorigin="anonymous"></script>'
    assert tag in page
    fallback = f'<script src="/static/js/htmx_fallback.js" data-htmx="/static/{assets.HTMX_VENDOR_PATH}"></script>'
    assert fallback in page and "<script>" not in page  # no inline script (the Content-Security-Policy has none)
    assert page.index(tag) < page.index(fallback)


def test_vendored_htmx_matches_sri_constant(app: Flask) -> None:
    vendored = REPO_ROOT / "static" / assets.HTMX_VENDOR_PATH
    digest = base64.b64encode(hashlib.sha384(vendored.read_bytes()).digest()).decode()
    assert f"sha384-{digest}" == assets.HTMX_SRI
    assert f'version:"{assets.HTMX_VERSION}"' in vendored.read_text()


def test_vendored_htmx_is_served(client: FlaskClient) -> None:
    response = client.get(f"/static/{assets.HTMX_VENDOR_PATH}")
    assert response.status_code == 200 and response.data.startswith(b"var htmx=")
    response.close()


def test_pages_send_csrf_token_through_htmx_headers(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<body hx-headers=\'{"X-CSRFToken": "' in page


def test_a_database_without_the_schema_answers_503_until_init_db(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A fresh database (no init-db): every page answers 503 with a plain message, never a traceback, and the log
    names the command; once the schema is at the head revision, the same running app serves."""
    app = built(tmp_path, {"HTMX_SOURCE": "vendor"})
    client = app.test_client()
    with caplog.at_level("ERROR"):
        fresh = client.get("/")
    assert fresh.status_code == 503 and "not set up yet" in fresh.get_data(as_text=True)
    assert "Traceback" not in fresh.get_data(as_text=True)
    assert "has no schema yet: run `flask --app webapp init-db`" in caplog.text
    db.upgrade(app, "0005")
    older = client.get("/")
    assert older.status_code == 503
    db.upgrade(app)
    assert client.get("/").status_code == 200
    assert client.get("/").status_code == 200  # checked once, then remembered


def test_every_response_carries_the_security_headers(client: FlaskClient) -> None:
    """Pages, fragments, static files and errors: a policy with no inline script and no framing, nosniff, and a
    referrer kept to this site."""
    for path in ("/", "/static/css/app.css", "/g/no-such-game", "/p/bad"):
        headers = client.get(path).headers
        policy = headers["Content-Security-Policy"]
        scripts = policy.split("script-src")[1].split(";")[0]
        assert scripts == " 'self' https://unpkg.com"  # no inline script, no eval
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
        assert headers["X-Content-Type-Options"] == "nosniff" and headers["X-Frame-Options"] == "DENY"
        assert headers["Referrer-Policy"] == "same-origin"


def test_session_cookie_is_httponly_lax_and_secure_on_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = built(tmp_path / "plain")
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax" and app.config["SESSION_COOKIE_HTTPONLY"]
    assert app.config["SESSION_COOKIE_SECURE"] is False
    monkeypatch.setenv("SUDOKU_SECURE_COOKIES", "on")
    assert built(tmp_path / "secure").config["SESSION_COOKIE_SECURE"] is True


def test_the_session_cookie_set_by_a_page_has_the_flags(client: FlaskClient) -> None:
    cookie = client.get("/").headers["Set-Cookie"]
    assert cookie.startswith("session=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # on only with SUDOKU_SECURE_COOKIES (a plain-HTTP server would lose it)


def test_a_body_over_the_size_limit_is_refused_with_413_before_it_is_read(client: FlaskClient) -> None:
    """A 2 MB form post (over MAX_CONTENT_LENGTH, 1 MB) gets 413 with a message, not a CSRF 400 or a 500."""
    response = client.post("/new", data={"slider": "10", "filler": "x" * 2_000_000})
    assert response.status_code == 413 and "Too large" in response.get_data(as_text=True)
    assert client.get("/").status_code == 200
