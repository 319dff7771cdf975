"""Database access: one engine per app, one session per request, and schema upgrades through Alembic."""

from __future__ import annotations

import importlib.util
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app, g
from sqlalchemy import URL, CursorResult, Engine, Insert, Update, create_engine, event, make_url
from sqlalchemy.orm import Session, sessionmaker

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
EXTENSION = "sudoku_db"
PLAIN_POSTGRES = ("postgresql", "postgres")  # driver names that leave SQLAlchemy to pick psycopg2


@dataclass(frozen=True)
class Database:
    """The engine of one app and its session factory."""

    engine: Engine
    sessions: sessionmaker[Session]


def init_app(app: Flask) -> None:
    """Create the app's engine and session factory and close each request's session at teardown."""
    app.extensions[EXTENSION] = open_database(app.config["DATABASE_URL"])
    app.teardown_appcontext(close_session)


def open_database(url: str) -> Database:
    """An engine on ``url`` (SQLite with the pragmas below) and its session factory."""
    engine = create_engine(engine_url(url))
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return Database(engine, sessionmaker(engine, expire_on_commit=False))


def engine_url(url: str) -> URL:
    """``url`` parsed; a plain ``postgresql://`` (or ``postgres://``) URL goes to psycopg 3 when it is installed."""
    parsed = make_url(url)
    if parsed.drivername in PLAIN_POSTGRES and importlib.util.find_spec("psycopg") is not None:
        return parsed.set(drivername="postgresql+psycopg")
    return parsed


def _sqlite_pragmas(connection: sqlite3.Connection, _record: Any) -> None:
    """Enforce foreign keys and let readers and one writer work side by side (several workers)."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.close()


def engine_of(app: Flask) -> Engine:
    """The app's engine."""
    database: Database = app.extensions[EXTENSION]
    return database.engine


def sessions_of(app: Flask) -> sessionmaker[Session]:
    """The app's session factory, for work outside a request (CLI commands, background threads)."""
    database: Database = app.extensions[EXTENSION]
    return database.sessions


def get_session() -> Session:
    """The current request's session, opened on first use."""
    if "db_session" not in g:
        g.db_session = current_app.extensions[EXTENSION].sessions()
    session: Session = g.db_session
    return session


def close_session(_exc: BaseException | None = None) -> None:
    """Close the request's session, rolling back anything left uncommitted."""
    session = g.pop("db_session", None)
    if session is not None:
        session.close()


def changed_rows(session: Session, statement: Update | Insert) -> int:
    """Run an UPDATE or INSERT and return how many rows it changed (the rows returned, for one with RETURNING).

    PostgreSQL's driver reports -1 as the row count of an INSERT that returns rows, and SQLAlchemy adds RETURNING
    of the primary key to single-row INSERTs there, so an INSERT is best given its own RETURNING and counted so.
    """
    result = session.execute(statement)
    if isinstance(result, CursorResult) and not result.returns_rows:
        return result.rowcount
    return len(result.all())


def dispose(app: Flask) -> None:
    """Close every pooled connection of the app's engine."""
    engine_of(app).dispose()


def display_url(app: Flask) -> str:
    """The database URL with any password hidden."""
    return engine_url(app.config["DATABASE_URL"]).render_as_string(hide_password=True)


def schema_problem(app: Flask) -> str | None:
    """None when the app's database is at the migrations' head; else one line for the operator saying what to run."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    with engine_of(app).connect() as connection:
        current = MigrationContext.configure(connection).get_current_revision()
    if current == head:
        return None
    state = "has no schema yet" if current is None else f"is at schema revision {current}, this version needs {head}"
    return f"the database {display_url(app)} {state}: run `flask --app webapp init-db`"


def alembic_config() -> Config:
    """Alembic configuration pointing at the package's migrations, without an ini file."""
    from alembic.config import Config  # imported on use: processes that never migrate start faster

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    return config


def upgrade(app: Flask, revision: str = "head") -> None:
    """Bring the app's database to ``revision``; running it again changes nothing."""
    from alembic import command

    _ensure_sqlite_folder(app.config["DATABASE_URL"])
    config = alembic_config()
    with engine_of(app).begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def downgrade(app: Flask, revision: str) -> None:
    """Take the app's database back to ``revision`` (``base`` drops everything)."""
    from alembic import command

    config = alembic_config()
    with engine_of(app).begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)


def _ensure_sqlite_folder(url: str) -> None:
    """Create the folder of a SQLite database file so the first connection can create the file."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
