"""Database access: one engine per app, one session per request, and schema upgrades through Alembic."""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app, g, has_request_context, request
from sqlalchemy import (
    URL,
    Connection,
    CursorResult,
    Delete,
    Engine,
    Insert,
    Update,
    create_engine,
    event,
    make_url,
    text,
)
from sqlalchemy.orm import Session, sessionmaker

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
EXTENSION = "sudoku_db"
PLAIN_POSTGRES = ("postgresql", "postgres")  # driver names that leave SQLAlchemy to pick psycopg2
# The PostgreSQL advisory lock held while a starting server migrates (any number the app uses for nothing else).
MIGRATION_LOCK_KEY = 5_118_202_407


@dataclass(frozen=True)
class Database:
    """The engine of one app and its session factory."""

    engine: Engine
    sessions: sessionmaker[Session]


WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")
READS = ("GET", "HEAD", "OPTIONS")
AUDIT_INSERT = "INSERT INTO AUDIT_EVENTS "  # the audit trail records reads too


class WriteOnRead(RuntimeError):
    """A GET (or HEAD) request tried to change the database."""


def init_app(app: Flask) -> None:
    """Create the app's engine and session factory and close each request's session at teardown; with
    ``READ_ONLY_GETS`` (on in debug and testing) a GET that writes fails loudly."""
    app.extensions[EXTENSION] = open_database(app.config["DATABASE_URL"])
    app.teardown_appcontext(close_session)
    if app.config.get("READ_ONLY_GETS", app.debug or app.testing):
        event.listen(engine_of(app), "before_cursor_execute", refuse_write_on_read)


def is_write_on_read(statement: str) -> bool:
    """True when ``statement`` changes rows and runs for a GET, HEAD or OPTIONS request (a row of the audit trail,
    ``webapp.research.audit``, is the one write a page makes)."""
    if not (has_request_context() and request.method in READS):
        return False
    words = statement.lstrip().upper()
    return words.startswith(WRITES) and not words.startswith(AUDIT_INSERT)


def refuse_write_on_read(_connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
    """Raise WriteOnRead for a statement that changes rows during a GET request (pages never write)."""
    if is_write_on_read(statement):
        raise WriteOnRead(f"{request.method} {request.path} tried to change the database: {statement.split()[0]}")


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


def changed_rows(session: Session, statement: Update | Insert | Delete) -> int:
    """Run an UPDATE, INSERT or DELETE and return how many rows it changed (the rows returned, for one with RETURNING).

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

    head = head_revision()
    with engine_of(app).connect() as connection:
        current = MigrationContext.configure(connection).get_current_revision()
    if current == head:
        return None
    state = "has no schema yet" if current is None else f"is at schema revision {current}, this version needs {head}"
    return (
        f"the database {display_url(app)} {state}: run `flask --app webapp init-db` "
        "(or start the server with SUDOKU_MIGRATE_AT_START=on)"
    )


def head_revision() -> str | None:
    """The newest revision of the migrations: the schema this version knows."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def alembic_config() -> Config:
    """Alembic configuration pointing at the package's migrations, without an ini file."""
    from alembic.config import Config  # imported on use: processes that never migrate start faster

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    return config


def upgrade(app: Flask, revision: str = "head") -> None:
    """Bring the app's database to ``revision``; running it again changes nothing."""
    _ensure_sqlite_folder(app.config["DATABASE_URL"])
    with engine_of(app).begin() as connection:
        _upgrade_on(connection, revision)


def _upgrade_on(connection: Connection, revision: str) -> None:
    """Run the migrations up to ``revision`` on an open connection."""
    from alembic import command

    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


def upgrade_under_lock(app: Flask) -> str | None:
    """Bring the app's database to the head revision while holding a lock that every starting server takes
    (workers or hosts starting together migrate one after the other); the revision found, None on a fresh one."""
    from alembic.runtime.migration import MigrationContext

    _ensure_sqlite_folder(app.config["DATABASE_URL"])
    engine = engine_of(app)
    with migration_lock(engine), engine.begin() as connection:
        found = MigrationContext.configure(connection).get_current_revision()
        _upgrade_on(connection, "head")
    return found


@contextlib.contextmanager
def migration_lock(engine: Engine) -> Iterator[None]:
    """Hold the migration lock: a PostgreSQL advisory lock, or an exclusive lock on a file beside a SQLite
    database; other databases (and SQLite in memory) get none."""
    url = engine.url
    if engine.dialect.name == "postgresql":
        with engine.connect() as holder:
            holder.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
            holder.commit()
            try:
                yield
            finally:
                holder.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK_KEY})
                holder.commit()
    elif engine.dialect.name == "sqlite" and url.database not in (None, "", ":memory:"):
        with open(f"{url.database}.migrate-lock", "a") as lock_file:
            fcntl.flock(lock_file, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock_file, fcntl.LOCK_UN)
    else:
        yield


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
