"""The Flask application factory: configuration, database, CSRF, error pages and blueprints."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click
from flask import Flask, Response, abort, current_app, g, request
from flask.cli import with_appcontext
from flask_wtf.csrf import CSRFProtect

from . import assets, db, errors, jobs, limits, research, security, validation
from .backup import db_cli
from .bank import fill, pool, top
from .bank.cli import pool_cli
from .config import load as load_settings
from .games import learning
from .play import bp as play_bp
from .research import report_cache
from .study import preparing
from .study.views import bp as study_bp

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_ROOT = PACKAGE_DIR.parent
csrf = CSRFProtect()
SCHEMA_CHECKED = "sudoku_schema_checked"  # app.extensions key: the database was found at the head revision
MIGRATED_FROM = "sudoku_migrated_from"  # app.extensions key: the revision a migration at start found (None: fresh)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app; ``config`` overrides the environment, which overrides the defaults."""
    config = dict(config or {})
    app = Flask(
        __name__,
        instance_path=config.pop("INSTANCE_PATH", None),
        template_folder=str(asset_folder("templates")),
        static_folder=str(asset_folder("static")),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(load_settings(app.instance_path, config))
    if app.config["HTMX_SOURCE"] not in assets.HTMX_SOURCES:
        raise ValueError(f"HTMX_SOURCE must be one of {assets.HTMX_SOURCES}, not {app.config['HTMX_SOURCE']!r}")
    validation.init_app(app)  # first: its converter bounds the routes added below
    db.init_app(app)
    if app.config["MIGRATE_AT_START"]:
        _migrate(app)
    pool.init_app(app)
    jobs.init_app(
        app,
        {preparing.JOB: preparing.prepare, report_cache.JOB: report_cache.compute},
        scheduled={
            learning.JOB: learning.fit_job,
            top.JOB: top.search_job,
            fill.JOB: fill.fill_job,
            preparing.RECOVER: preparing.recover,
        },
        at_start=(preparing.RECOVER, fill.JOB),
    )
    csrf.init_app(app)
    errors.init_app(app)
    app.context_processor(_htmx_context)
    app.before_request(_start_timer)
    app.before_request(_require_schema)
    app.after_request(_server_timing)
    app.cli.add_command(init_db_command)
    app.cli.add_command(pool_cli)
    app.cli.add_command(db_cli)
    app.register_blueprint(play_bp)
    app.register_blueprint(study_bp)
    research.init_app(app)
    limits.init_app(app)
    security.init_app(app)
    return app


def asset_folder(name: str) -> Path:
    """The ``templates`` or ``static`` folder: inside the installed package (a wheel ships it there), else at the top
    of the source tree (a checkout or an editable install)."""
    installed = PACKAGE_DIR / name
    return installed if installed.is_dir() else REPO_ROOT / name


def _require_schema() -> None:
    """Answer 503 with a plain message, and log what to run, while the database is not at the schema this version
    knows (a fresh or older database); checked until it is, then never again in this process."""
    if current_app.extensions.get(SCHEMA_CHECKED):
        return
    problem = db.schema_problem(current_app)
    if problem is not None:
        current_app.logger.error(problem)
        abort(503, description="This server's database is not set up yet. Please try again later.")
    current_app.extensions[SCHEMA_CHECKED] = True


def _migrate(app: Flask) -> None:
    """Bring the database to the schema this version knows, under the migration lock, before serving."""
    found = db.upgrade_under_lock(app)
    app.extensions[MIGRATED_FROM] = found
    app.extensions[SCHEMA_CHECKED] = True
    if found != db.head_revision():
        app.logger.warning(
            "migrated the database %s from %s to the latest schema", db.display_url(app), found or "no schema"
        )


def _start_timer() -> None:
    """Note when the request reached the app."""
    g.request_started = time.perf_counter()


def _server_timing(response: Response) -> Response:
    """Report the app's own time for the request in a Server-Timing header (read by benchmarks/play.py)."""
    started = g.get("request_started")
    if started is not None:
        response.headers["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.2f}"
    return response


# Pages of a study (a participant's, a study game's, a researcher's) load every asset from the app itself, whatever
# HTMX_SOURCE says: no third-party request while someone takes part. Play pages keep the CDN with SRI.
OWN_ASSETS_BLUEPRINTS = ("study", "research")


def _htmx_source() -> str:
    """Where this page loads htmx from: the vendored copy on study pages, else the configured source."""
    if request.blueprint in OWN_ASSETS_BLUEPRINTS or g.get("study_game"):
        return "vendor"
    return str(current_app.config["HTMX_SOURCE"])


def _htmx_context() -> dict[str, Any]:
    """Template variables that choose where the page loads htmx from."""
    return {
        "htmx": {
            "source": _htmx_source(),
            "cdn_url": assets.HTMX_CDN_URL,
            "sri": assets.HTMX_SRI,
            "vendor_path": assets.HTMX_VENDOR_PATH,
        }
    }


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create or upgrade the database schema (alembic upgrade head)."""
    db.upgrade(current_app)
    click.echo(f"Database is at the latest schema: {db.display_url(current_app)}")
