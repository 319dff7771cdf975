"""``flask db backup`` and ``flask db restore``: a consistent copy of the app's database taken while it serves, and a
copy put back while it is stopped, then brought to this version's schema.

SQLite: the online backup API, a few pages per step, every step read in one read transaction (one snapshot; in WAL
mode the app's writers go on meanwhile), into a temporary file beside FILE that is checked with ``PRAGMA
integrity_check`` and renamed only then. A restore copies the backup into a temporary file beside the database,
migrates it there, and renames it over the database once that has folded its WAL away (which SQLite allows only
when no other process has it open). PostgreSQL: ``pg_dump --format=custom`` of a snapshot the command exports (the
row counts it prints are the archive's), ``pg_restore --clean --if-exists --no-owner`` in one transaction; the URL's
credentials reach both through the environment (PGPASSWORD), never their command line.

A refusal (a FILE that exists, is no backup of this app or is newer than this version, a database that holds data,
a database in use, a missing client program) is one line on stderr and exit code 2.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import AppGroup
from sqlalchemy import URL, Connection, inspect, text

from . import db
from .models import BankPuzzle, Event, Game, Participant, Study, User

EXIT_REFUSED = 2
PAGES_PER_STEP = 1024  # SQLite pages copied per backup step: 4 MiB at the default page size
SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"
REVISION_TABLE = "alembic_version"
# The tables whose rows the summary line counts, with the words it uses.
COUNTED = {
    Game.__tablename__: "games",
    Event.__tablename__: "game events",
    Study.__tablename__: "studies",
    Participant.__tablename__: "participants",
    User.__tablename__: "accounts",
    BankPuzzle.__tablename__: "bank puzzles",
}
# Rows a restore may replace without --force: the schema's revision, the bank (refilled), work in progress.
REPLACEABLE = frozenset({REVISION_TABLE, BankPuzzle.__tablename__, "leases", "job_consumers", "rate_counts"})
# Query parameters of a PostgreSQL URL that libpq also reads from the environment.
LIBPQ_QUERY = {
    "host": "PGHOST",
    "port": "PGPORT",
    "sslmode": "PGSSLMODE",
    "sslrootcert": "PGSSLROOTCERT",
    "sslcert": "PGSSLCERT",
    "sslkey": "PGSSLKEY",
    "connect_timeout": "PGCONNECT_TIMEOUT",
}

db_cli = AppGroup("db", help="Back up the database while the app serves; restore a backup while it is stopped.")
Scalar = Callable[[str], Any]


class Refused(click.ClickException):
    """A request the command does not carry out: one line on stderr (``Error: ...``), exit code 2."""

    exit_code = EXIT_REFUSED


@dataclass(frozen=True)
class Contents:
    """What a database holds: its schema revision (None: no schema) and the rows of the counted tables it has."""

    revision: str | None
    rows: dict[str, int]

    def describe(self) -> str:
        """The revision and the counts, as the summary line shows them."""
        counts = ", ".join(f"{count} {COUNTED[table]}" for table, count in self.rows.items())
        return f"schema {self.revision or 'none'}: {counts or 'none of the app tables'}"


@db_cli.command("backup")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--force", is_flag=True, help="Replace FILE when it exists.")
def backup_command(file: Path, force: bool) -> None:
    """Copy the app's database into FILE while the app serves: a SQLite database file, or on PostgreSQL a pg_dump
    archive in its custom format."""
    url = db.engine_url(current_app.config["DATABASE_URL"])
    final = file.absolute()
    check_backup_target(final, force)
    with staged(final) as temp:
        if url.get_backend_name() == "sqlite":
            contents = sqlite_backup(sqlite_path(url), final, temp)
        else:
            contents = postgres_backup(current_app, url, temp)
        publish(temp, final, force)
    size = size_text(final.stat().st_size)
    click.echo(f"Backed up {db.display_url(current_app)} to {final} ({size}, {contents.describe()})")


@db_cli.command("restore")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--force", is_flag=True, help="Replace the database even when it holds data.")
def restore_command(file: Path, force: bool) -> None:
    """Replace the app's database (DATABASE_URL) with the backup FILE and bring it to this version's schema; the
    app must be stopped."""
    app = current_app
    url = db.engine_url(app.config["DATABASE_URL"])
    source = file.absolute()
    if url.get_backend_name() == "sqlite":
        found = sqlite_restore(app, source, sqlite_path(url), force)
    else:
        found = postgres_restore(app, url, source, force)
    problem = db.schema_problem(app)
    if problem is not None:
        raise click.ClickException(problem)
    migrated = "" if found == db.head_revision() else f", migrated from schema {found}"
    click.echo(f"Restored {source} into {db.display_url(app)}{migrated} ({engine_contents(app).describe()})")


def check_backup_target(final: Path, force: bool) -> None:
    """Refuse a FILE that exists (unless ``force``), is a folder, or lies in a folder that does not exist."""
    if final.is_dir():
        raise Refused(f"{final} is a folder: give the backup's file name")
    if final.exists() and not force:
        raise Refused(f"{final} exists: give --force to replace it")
    if not final.parent.is_dir():
        raise Refused(f"the folder {final.parent} does not exist: create it first")


def sqlite_path(url: URL) -> Path:
    """The file of a SQLite database URL; a database in memory has none to copy."""
    name = url.database
    if name is None or name in ("", ":memory:") or name.startswith("file:"):
        raise Refused(f"the database {url.render_as_string()} is not a file: only a SQLite file can be copied")
    return Path(name).absolute()


def sidecars(path: Path) -> tuple[Path, ...]:
    """The files SQLite keeps beside a database: its WAL, its shared memory and its rollback journal."""
    return tuple(path.with_name(path.name + suffix) for suffix in ("-wal", "-shm", "-journal"))


@contextlib.contextmanager
def staged(final: Path) -> Iterator[Path]:
    """A new temporary file in ``final``'s folder, removed with any journal of it unless it was moved into place."""
    handle, name = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".partial", dir=final.parent)
    os.close(handle)
    temp = Path(name)
    try:
        yield temp
    finally:
        for path in (temp, *sidecars(temp)):
            path.unlink(missing_ok=True)


def publish(temp: Path, final: Path, force: bool) -> None:
    """Give the finished ``temp`` its final name in one step; a file already there is replaced only with ``force``."""
    sync_file(temp)
    if force:
        os.replace(temp, final)
    else:
        try:
            os.link(temp, final)  # fails, unlike a rename, when the name was taken meanwhile
        except FileExistsError:
            raise Refused(f"{final} exists: give --force to replace it") from None
        except OSError:  # a file system without hard links
            if final.exists():
                raise Refused(f"{final} exists: give --force to replace it") from None
            os.replace(temp, final)
    sync_file(final.parent)


def sync_file(path: Path) -> None:
    """Flush a file's (or a folder's entries') data to the disk."""
    handle = os.open(path, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def size_text(size: int) -> str:
    """A file size for people: bytes, kB, MB or GB."""
    if size < 1000:
        return f"{size} bytes"
    value, unit = size / 1000, "kB"
    for larger in ("MB", "GB"):
        if value < 1000:
            break
        value, unit = value / 1000, larger
    return f"{value:.1f} {unit}"


def contents_of(tables: set[str], scalar: Scalar) -> Contents:
    """The revision and counted rows of a database whose tables are ``tables``, read through ``scalar``."""
    revision = scalar(f"SELECT version_num FROM {REVISION_TABLE}") if REVISION_TABLE in tables else None
    rows = {table: int(scalar(f'SELECT count(*) FROM "{table}"')) for table in COUNTED if table in tables}
    return Contents(revision, rows)


def holds_data(tables: set[str], scalar: Scalar) -> bool:
    """True when a table of the app other than the replaceable ones has a row."""
    kept = sorted(table for table in tables - REPLACEABLE if not table.startswith("sqlite_"))
    return any(scalar(f'SELECT 1 FROM "{table}" LIMIT 1') is not None for table in kept)


def sqlite_reader(connection: sqlite3.Connection) -> tuple[set[str], Scalar]:
    """The tables of a SQLite connection's database and a function giving the first value of a query."""
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def scalar(sql: str) -> Any:
        row = connection.execute(sql).fetchone()
        return None if row is None else row[0]

    return tables, scalar


def engine_contents(app: Flask) -> Contents:
    """What the app's database holds, read through its engine."""
    with db.engine_of(app).connect() as connection:
        return contents_of(*engine_reader(connection))


def engine_reader(connection: Connection) -> tuple[set[str], Scalar]:
    """The tables of a SQLAlchemy connection's database and a function giving the first value of a query."""
    return set(inspect(connection).get_table_names()), lambda sql: connection.execute(text(sql)).scalar()


def open_sqlite(path: Path, mode: str, timeout: float = 10.0) -> sqlite3.Connection:
    """A connection to an existing SQLite file (``mode`` ro or rw: never creates one), outside any transaction,
    waiting up to ``timeout`` seconds for a lock."""
    return sqlite3.connect(f"{path.as_uri()}?mode={mode}", uri=True, isolation_level=None, timeout=timeout)


def to_rollback_journal(connection: sqlite3.Connection) -> str:
    """Fold the database's WAL into it and leave it one self-contained file; the journal mode now in force."""
    mode: str = connection.execute("PRAGMA journal_mode = DELETE").fetchone()[0]
    return mode


def check_integrity(connection: sqlite3.Connection, path: Path) -> None:
    """Refuse a SQLite database that fails ``PRAGMA integrity_check``."""
    problems = [row[0] for row in connection.execute("PRAGMA integrity_check").fetchall()]
    if problems != ["ok"]:
        raise Refused(f"{path} fails SQLite's integrity check: {problems[0]}")


def sqlite_backup(database: Path, final: Path, temp: Path) -> Contents:
    """Copy the SQLite ``database`` into ``temp`` from one snapshot, a few pages per step, and check the copy."""
    if final == database or final in sidecars(database):
        raise Refused(f"{final} is the database itself: give another file")
    if not database.is_file():
        raise Refused(f"the database {database} does not exist: nothing to back up (is DATABASE_URL right?)")
    source = open_sqlite(database, "rw")
    try:
        with contextlib.closing(sqlite3.connect(temp, isolation_level=None)) as copy:
            source.execute("BEGIN")
            source.execute("SELECT count(*) FROM sqlite_master").fetchone()  # the snapshot every step reads
            source.backup(copy, pages=PAGES_PER_STEP, sleep=0)
            source.execute("ROLLBACK")
            to_rollback_journal(copy)
            check_integrity(copy, temp)
            return contents_of(*sqlite_reader(copy))
    finally:
        source.close()


def open_backup_file(file: Path) -> tuple[sqlite3.Connection, str]:
    """FILE opened read-only once it is a sound SQLite database of this app at a revision this version knows; the
    connection and the revision."""
    head = read_head(file)
    if head.startswith(PG_MAGIC):
        raise Refused(f"{file} is a PostgreSQL archive: restore it with DATABASE_URL set to a PostgreSQL database")
    if head != SQLITE_MAGIC:
        raise Refused(f"{file} is not a SQLite database: give a file made by `flask db backup`")
    try:
        connection = open_sqlite(file, "ro")
        check_integrity(connection, file)
        tables, scalar = sqlite_reader(connection)
        revision = scalar(f"SELECT version_num FROM {REVISION_TABLE}") if REVISION_TABLE in tables else None
    except sqlite3.DatabaseError as error:
        raise Refused(f"{file} cannot be read as a SQLite database: {error}") from None
    return connection, check_revision(file, revision)


def read_head(file: Path) -> bytes:
    """The first bytes of FILE, which name its format; refused when it is missing or not a file."""
    if not file.is_file():
        raise Refused(f"{file} does not exist or is not a file")
    with file.open("rb") as stream:
        return stream.read(len(SQLITE_MAGIC))


def check_revision(file: Path, revision: str | None) -> str:
    """The backup's schema revision; refused when it has none of this app's, or one this version does not know."""
    from alembic.script import ScriptDirectory

    if revision is None:
        raise Refused(f"{file} holds no schema revision of this app: it is not a backup made by `flask db backup`")
    known = {script.revision for script in ScriptDirectory.from_config(db.alembic_config()).walk_revisions()}
    if revision not in known:
        raise Refused(
            f"{file} is at schema revision {revision}, newer than this version knows: restore it with the version "
            "that made it"
        )
    return revision


def sqlite_restore(app: Flask, file: Path, database: Path, force: bool) -> str:
    """Put the backup FILE in place of the SQLite ``database``, migrated to the head revision; FILE's revision."""
    if file == database:
        raise Refused(f"{file} is the database itself: give a backup file")
    source, revision = open_backup_file(file)
    with contextlib.closing(source):
        check_sqlite_target(database, force)
        database.parent.mkdir(parents=True, exist_ok=True)
        with staged(database) as temp:
            with contextlib.closing(sqlite3.connect(temp, isolation_level=None)) as copy:
                source.backup(copy, pages=PAGES_PER_STEP, sleep=0)
            migrate_file(temp)
            temp.chmod(file_mode(database))
            db.dispose(app)
            release(database, force)
            os.replace(temp, database)
            sync_file(database.parent)
    return revision


def check_sqlite_target(database: Path, force: bool) -> None:
    """Refuse to replace a SQLite database that holds data or cannot be read (unless ``force``), or that another
    process has open."""
    if database.exists():
        try:
            with contextlib.closing(open_sqlite(database, "rw")) as connection:
                tables, scalar = sqlite_reader(connection)
                full = holds_data(tables, scalar)
                contents = contents_of(tables, scalar).describe()
        except sqlite3.DatabaseError as error:
            if not force:
                message = f"{database} cannot be read as a SQLite database ({error}): give --force to replace it"
                raise Refused(message) from None
        else:
            if full and not force:
                raise Refused(f"the database {database} holds data ({contents}): give --force to replace it")
    release(database, force)


def release(database: Path, force: bool) -> None:
    """Fold the database's WAL into it and so remove its -wal and -shm files, refused while another process has it
    open (SQLite leaves WAL mode only when no other connection is open); the stale journals of a missing database,
    or of an unreadable one with ``force``, are removed."""
    mode = "missing"
    if database.exists():
        try:
            with contextlib.closing(open_sqlite(database, "rw", timeout=1.0)) as connection:
                mode = to_rollback_journal(connection)
        except sqlite3.OperationalError as error:
            if "locked" in str(error):
                raise Refused(f"the database {database} is in use: stop the app before restoring") from None
            mode = "unreadable"
        except sqlite3.DatabaseError:
            mode = "unreadable"
    if mode == "missing" or (mode == "unreadable" and force):
        for path in sidecars(database):
            path.unlink(missing_ok=True)
    elif mode != "delete":
        raise Refused(f"the database {database} is in use or unreadable: stop the app, or give --force")


def file_mode(database: Path) -> int:
    """The permissions a restored database gets: those of the file it replaces, else a new file's."""
    if database.exists():
        return database.stat().st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def migrate_file(path: Path) -> None:
    """Bring the SQLite database at ``path`` to the head revision as ``init-db`` does, then fold its WAL into it."""
    from alembic import command

    database = db.open_database(f"sqlite:///{path}")
    try:
        with database.engine.begin() as connection:
            config = db.alembic_config()
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    finally:
        database.engine.dispose()
    with contextlib.closing(open_sqlite(path, "rw")) as connection:
        to_rollback_journal(connection)


def pg_environment(url: URL) -> dict[str, str]:
    """The environment for pg_dump and pg_restore: this one, with the URL's server, database and credentials as
    libpq's PG variables."""
    env = dict(os.environ)
    parts = {
        "PGHOST": url.host,
        "PGPORT": url.port,
        "PGUSER": url.username,
        "PGPASSWORD": url.password,
        "PGDATABASE": url.database,
    }
    for key, value in url.query.items():
        if key in LIBPQ_QUERY:
            parts[LIBPQ_QUERY[key]] = value if isinstance(value, str) else value[-1]
    env.update({name: str(value) for name, value in parts.items() if value is not None})
    return env


def pg_program(name: str) -> str:
    """The path of a PostgreSQL client program on PATH; refused when there is none."""
    found = shutil.which(name)
    if found is None:
        raise Refused(f"{name} is not on PATH: install PostgreSQL's client programs of the server's version")
    return found


def run_pg(arguments: list[str], env: dict[str, str]) -> str:
    """Run a PostgreSQL client program; its standard output, or an error with its last message when it fails."""
    done = subprocess.run(arguments, env=env, capture_output=True, check=False)
    if done.returncode != 0:
        lines = done.stderr.decode(errors="replace").strip().splitlines() or [f"exit code {done.returncode}"]
        raise click.ClickException(f"{Path(arguments[0]).name} failed: {lines[-1]}")
    return done.stdout.decode(errors="replace")


def major_version(program: str) -> int:
    """The major version of a PostgreSQL client program (``pg_dump (PostgreSQL) 15.13`` gives 15)."""
    found = re.search(r"\(PostgreSQL\) (\d+)", run_pg([program, "--version"], dict(os.environ)))
    return int(found.group(1)) if found else 0


def check_client_version(program: str, connection: Connection) -> None:
    """Refuse a pg_dump older than the server: it cannot dump it."""
    server = int((connection.dialect.server_version_info or (0,))[0])
    client = major_version(program)
    if client < server:
        raise Refused(f"pg_dump {client} cannot dump a PostgreSQL {server} server: put its version {server} on PATH")


def postgres_backup(app: Flask, url: URL, temp: Path) -> Contents:
    """Dump the PostgreSQL database into ``temp`` from a snapshot this connection exports, and check the archive
    reads back whole; what the snapshot holds."""
    program = pg_program("pg_dump")
    env = pg_environment(url)
    with db.engine_of(app).connect().execution_options(isolation_level="REPEATABLE READ") as connection:
        check_client_version(program, connection)
        with connection.begin():
            snapshot = connection.execute(text("SELECT pg_export_snapshot()")).scalar_one()
            contents = contents_of(*engine_reader(connection))
            run_pg([program, "--format=custom", f"--snapshot={snapshot}", f"--file={temp}"], env)
    run_pg([pg_program("pg_restore"), f"--file={os.devnull}", str(temp)], env)
    return contents


def archive_revision(program: str, file: Path, env: dict[str, str]) -> str | None:
    """The schema revision stored in a pg_dump archive (None: it has no revision table), once the whole archive
    reads back; refused when it is no archive or a damaged one."""
    head = read_head(file)
    if head == SQLITE_MAGIC:
        raise Refused(f"{file} is a SQLite database: restore it with DATABASE_URL set to a SQLite file")
    if not head.startswith(PG_MAGIC):
        raise Refused(f"{file} is not a pg_dump archive: give a file made by `flask db backup`")
    try:
        run_pg([program, f"--file={os.devnull}", str(file)], env)
        dumped = run_pg([program, "--data-only", f"--table={REVISION_TABLE}", "--file=-", str(file)], env)
    except click.ClickException as error:
        raise Refused(f"{file} cannot be read as a pg_dump archive: {error.message}") from None
    lines = dumped.splitlines()
    for number, line in enumerate(lines[:-1]):
        if line.startswith("COPY ") and f"{REVISION_TABLE} " in line:
            return None if lines[number + 1] == "\\." else lines[number + 1]
    return None


def check_postgres_target(app: Flask, force: bool) -> None:
    """Refuse to restore into a PostgreSQL database another client is connected to, or that holds data (unless
    ``force``)."""
    others = (
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
        "AND backend_type = 'client backend'"
    )
    with db.engine_of(app).connect() as connection:
        connected = connection.execute(text(others)).scalar_one()
        if connected:
            raise Refused(f"{db.display_url(app)} has {connected} other connections: stop the app before restoring")
        tables, scalar = engine_reader(connection)
        if holds_data(tables, scalar) and not force:
            contents = contents_of(tables, scalar).describe()
            raise Refused(f"the database {db.display_url(app)} holds data ({contents}): give --force to replace it")


def postgres_restore(app: Flask, url: URL, file: Path, force: bool) -> str:
    """Restore the pg_dump archive FILE into the PostgreSQL database in one transaction (all of it or nothing), then
    migrate it to the head revision; FILE's revision."""
    program = pg_program("pg_restore")
    env = pg_environment(url)
    revision = archive_revision(program, file, env)
    check_revision(file, revision)
    check_postgres_target(app, force)
    db.dispose(app)
    restore = [program, "--clean", "--if-exists", "--no-owner", "--single-transaction", f"--dbname={url.database}"]
    run_pg([*restore, str(file)], env)
    db.upgrade(app)
    return str(revision)
