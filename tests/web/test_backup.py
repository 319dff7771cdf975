"""``flask db backup`` and ``flask db restore``, run as the operator runs them (``flask`` in a process of its own).

A backup taken under load, on SQLite and on PostgreSQL: gunicorn serves a database while players post keyed board
actions over HTTP, ``flask db backup`` runs meanwhile, and the backup restored into a new database holds every action
acknowledged before the backup started exactly once, none sent after it ended, the row counts its line printed, the
latest schema, and serves the games. Besides: an older backup is migrated on restore, and each refusal (a FILE that
exists, a file that is no backup, a damaged or newer backup, a database that holds data or is in use, no pg_dump)
is exit code 2 with one line on stderr and changes nothing.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from flask import Flask
from helpers.jobs import wait_for
from helpers.services import free_port
from helpers.web import CSRF_META, PostgresDatabases, new_app, unique_name
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.pool import NullPool

from sudoku_engine.generate import generate_puzzle
from webapp import db
from webapp.backup import pg_environment
from webapp.models import Event, Game, User

ROOT = Path(__file__).resolve().parents[2]
VIEW = re.compile(r'data-view="([^"]+)"')
SECRET = "backup-test"
PLAYERS = 2
ACKED_FIRST = 40  # actions acknowledged before the backup starts
ACKED_AFTER = 10  # actions sent after the backup ended, and acknowledged, before the players stop


def flask(url: str, instance: Path, *arguments: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    """``flask --app webapp ARGUMENTS`` on the database ``url`` in a process of its own (PATH replaced when given)."""
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": SECRET, "SUDOKU_POOL_REFILL": "0"}
    env.pop("SUDOKU_REDIS_URL", None)
    if path is not None:
        env["PATH"] = path
    app = f"webapp:create_app({{'INSTANCE_PATH': {str(instance)!r}}})"
    command = [sys.executable, "-m", "flask", "--app", app, *arguments]
    return subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)


def succeeded(result: subprocess.CompletedProcess[str]) -> str:
    """The one line a command that succeeded printed."""
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1, result.stdout
    return lines[0]


def refused(result: subprocess.CompletedProcess[str], words: str) -> None:
    """The command was refused: exit code 2, nothing on stdout, one line on stderr with ``words`` and no traceback."""
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert words in lines[0], lines[0]
    assert result.stdout == ""


@contextmanager
def new_database(postgres: PostgresDatabases | None, folder: Path) -> Iterator[str]:
    """The URL of a database that does not exist yet (SQLite) or is empty, without any schema (PostgreSQL)."""
    name = unique_name("sudoku_restored")
    if postgres is None:
        yield f"sqlite:///{folder / 'restored' / f'{name}.db'}"
        return
    postgres.run(f'CREATE DATABASE "{name}"')
    url = postgres.url(name)
    try:
        yield url
    finally:
        postgres.drop(url)


@contextmanager
def engine_on(url: str) -> Iterator[Engine]:
    """An engine on ``url`` that keeps no connection open between uses, disposed afterwards."""
    engine = create_engine(url, poolclass=NullPool)
    try:
        yield engine
    finally:
        engine.dispose()


def revision_of(url: str) -> str | None:
    """The schema revision of the database at ``url``."""
    with engine_on(url) as engine, engine.connect() as connection:
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def add_account(url: str) -> None:
    """Store one researcher account: the database holds data."""
    with engine_on(url) as engine, engine.begin() as connection:
        connection.execute(User.__table__.insert().values(email="kept@example.org", password_hash="x"))


def accounts(url: str) -> int:
    """How many accounts the database holds."""
    with engine_on(url) as engine, engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(User)).scalar_one())


@pytest.fixture
def source(app: Flask) -> str:
    """The URL of a migrated database on the test's backend (its app's engine closed)."""
    db.dispose(app)
    return str(app.config["DATABASE_URL"])


@dataclass
class Player:
    """A browser on one game that keeps posting keyed corner marks until told to stop; what it sent and when each
    answer came (``time.monotonic``)."""

    index: int
    port: int
    puzzle: str
    cookies: dict[str, str] = field(default_factory=dict)
    token: str = ""
    game: str = ""
    sent: dict[str, float] = field(default_factory=dict)
    acknowledged: dict[str, float] = field(default_factory=dict)
    statuses: list[int] = field(default_factory=list)
    failure: BaseException | None = None

    def send(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, str, str]:
        """One request on a new connection; status, body and the Location's path."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers.update(
                {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": self.token, "HX-Request": "true"}
            )
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            page = response.read().decode()
        finally:
            connection.close()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        match = CSRF_META.search(page)
        self.token = match.group(1) if match else self.token
        return response.status, page, urllib.parse.urlparse(response.getheader("Location") or "").path

    def open_game(self) -> None:
        """Open a game on the puzzle through its link, load its page and report it shown (the clock starts)."""
        self.send("GET", f"/p/{self.puzzle}")
        status, _page, self.game = self.send("POST", f"/p/{self.puzzle}", {})
        assert status == 303 and self.game.startswith("/g/"), status
        status, page, _ = self.send("GET", self.game)
        view = VIEW.search(page)
        assert status == 200 and view, status
        assert self.send("POST", f"{self.game}/shown", {"view": view.group(1)})[0] == 200

    def play(self, stop: threading.Event) -> None:
        """Toggle corner marks on the empty cells, one keyed action at a time, until ``stop`` is set."""
        empty = [cell for cell, ch in enumerate(self.puzzle) if ch == "."]
        number = 0
        try:
            while not stop.is_set():
                cell = empty[number % len(empty)]
                key = f"p{self.index}-{number}"
                form = {"digit": str(number % 9 + 1), "mode": "corner", "key": key, "client_ms": str(number)}
                self.sent[key] = time.monotonic()
                status = self.send("POST", f"{self.game}/cell/r{cell // 9 + 1}c{cell % 9 + 1}", form)[0]
                if status == 200:
                    self.acknowledged[key] = time.monotonic()
                self.statuses.append(status)
                number += 1
        except BaseException as error:  # reported by the test
            self.failure = error


@contextmanager
def serving(url: str, instance: Path) -> Iterator[int]:
    """gunicorn (two sync workers) on the database ``url``, in a process group of its own; its port."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "SECRET_KEY": SECRET,
        "SUDOKU_HTMX": "vendor",
        "SUDOKU_POOL_REFILL": "0",
        "RATELIMIT_ENABLED": "false",
    }
    env.pop("SUDOKU_REDIS_URL", None)
    app = f"webapp:create_app({{'INSTANCE_PATH': {str(instance)!r}}})"
    command = [sys.executable, "-m", "gunicorn", "--workers", "2", "--bind", f"127.0.0.1:{port}", app]
    log = (instance.parent / "server.log").open("wb")
    server = subprocess.Popen(command, env=env, cwd=ROOT, start_new_session=True, stdout=log, stderr=log)
    try:
        wait_for(lambda: True if answers(port) else None, "the server to answer")
        yield port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)
        log.close()


def answers(port: int) -> bool:
    """True once the server answers its start page."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", "/")
        return connection.getresponse().status == 200
    except OSError:
        return False


def acknowledged_count(players: list[Player], after: float = 0.0) -> int:
    """How many actions the players had acknowledged, of those sent after ``after``."""
    return sum(
        1 for player in players for key, at in dict(player.sent).items() if at > after and key in player.acknowledged
    )


def stored_counts(url: str) -> dict[str | None, int]:
    """How many events each idempotency key has in the database at ``url`` (None: the events without a key)."""
    with engine_on(url) as engine, engine.connect() as connection:
        rows = connection.execute(select(Event.key, func.count()).group_by(Event.key)).all()
    return {key: int(count) for key, count in rows}


def printed_count(line: str, what: str) -> int:
    """The count a summary line gives for ``what`` (``3 game events``)."""
    found = re.search(rf"(\d+) {what}", line)
    assert found, line
    return int(found.group(1))


def test_a_backup_under_load_restores_every_action_acknowledged_before_it_exactly_once(
    source: str, tmp_path: Path, postgres: PostgresDatabases | None
) -> None:
    instance = tmp_path / "instance"
    archive = tmp_path / "backups" / "under-load.backup"
    archive.parent.mkdir()
    puzzles = [str(generate_puzzle(seed=700 + i, givens=30).puzzle) for i in range(PLAYERS)]
    stop = threading.Event()
    with serving(source, instance) as port:
        players = [Player(i, port, puzzles[i]) for i in range(PLAYERS)]
        for player in players:
            player.open_game()
        threads = [threading.Thread(target=player.play, args=(stop,)) for player in players]
        for thread in threads:
            thread.start()
        try:
            wait_for(lambda: True if acknowledged_count(players) >= ACKED_FIRST else None, "the first actions")
            started = time.monotonic()
            line = succeeded(flask(source, instance, "db", "backup", str(archive)))
            ended = time.monotonic()
            wait_for(lambda: True if acknowledged_count(players, ended) >= ACKED_AFTER else None, "later actions")
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=120)
    assert all(player.failure is None for player in players), [player.failure for player in players]
    before = {key for p in players for key, at in p.acknowledged.items() if at < started}
    during = {key for p in players for key, at in p.acknowledged.items() if started < at < ended}
    after = {key for p in players for key, at in p.sent.items() if at > ended}
    assert len(before) >= ACKED_FIRST and during, "the app acknowledged actions while the backup ran"
    assert f"to {archive} (" in line and "game events" in line
    events_in_backup = printed_count(line, "game events")
    assert not list(archive.parent.glob(".*.partial*"))  # no temporary file left

    with new_database(postgres, tmp_path) as target:
        restored = succeeded(flask(target, tmp_path / "restorer", "db", "restore", str(archive)))
        assert f"Restored {archive} into" in restored and "migrated" not in restored
        stored = stored_counts(target)
        assert {key: stored.get(key, 0) for key in before} == {key: 1 for key in before}
        assert not after & set(stored)
        assert set(stored) - {None} <= {key for player in players for key in player.sent}
        assert sum(stored.values()) == events_in_backup
        assert revision_of(target) == db.head_revision()
        check_served(target, tmp_path / "check", [player.game for player in players])


def check_served(url: str, instance: Path, games: list[str]) -> None:
    """An app on the restored database is at the latest schema and serves each game's page."""
    app = new_app(instance, DATABASE_URL=url)
    try:
        assert db.schema_problem(app) is None
        client = app.test_client()
        for path in games:
            response = client.get(path)
            assert response.status_code == 200 and 'data-cell="r1c1"' in response.get_data(as_text=True)
        with db.sessions_of(app)() as session:
            assert session.scalar(select(func.count()).select_from(Game)) == len(games)
    finally:
        db.dispose(app)


def older_revision() -> str:
    """The revision just before the migrations' head."""
    scripts = ScriptDirectory.from_config(db.alembic_config())
    head = scripts.get_revision(db.head_revision())
    assert head is not None and isinstance(head.down_revision, str)
    return head.down_revision


def test_a_backup_of_an_older_schema_is_migrated_on_restore(
    app: Flask, tmp_path: Path, postgres: PostgresDatabases | None
) -> None:
    url = str(app.config["DATABASE_URL"])
    old = older_revision()
    db.downgrade(app, old)
    db.dispose(app)
    backup = tmp_path / "old.backup"
    line = succeeded(flask(url, tmp_path / "instance", "db", "backup", str(backup)))
    assert f"schema {old}:" in line
    with new_database(postgres, tmp_path) as target:
        restored = succeeded(flask(target, tmp_path / "restorer", "db", "restore", str(backup)))
        assert f"migrated from schema {old}" in restored
        assert revision_of(target) == db.head_revision()


def test_backup_refuses_an_existing_file_unless_forced(source: str, tmp_path: Path) -> None:
    backup = tmp_path / "taken.backup"
    backup.write_text("an earlier file")
    refused(flask(source, tmp_path / "instance", "db", "backup", str(backup)), "give --force to replace it")
    assert backup.read_text() == "an earlier file"
    assert f"to {backup} (" in succeeded(flask(source, tmp_path / "instance", "db", "backup", str(backup), "--force"))
    assert backup.stat().st_size > len("an earlier file")


def test_restore_refuses_a_file_that_is_no_backup(source: str, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n" * 100)
    refused(flask(source, tmp_path / "instance", "db", "restore", str(notes)), "give a file made by `flask db backup`")
    refused(flask(source, tmp_path / "instance", "db", "restore", str(tmp_path / "missing")), "does not exist")


def test_restore_refuses_a_damaged_backup(source: str, tmp_path: Path) -> None:
    add_account(source)
    backup = tmp_path / "whole.backup"
    succeeded(flask(source, tmp_path / "instance", "db", "backup", str(backup)))
    damaged = tmp_path / "damaged.backup"
    damaged.write_bytes(backup.read_bytes()[: backup.stat().st_size // 2])
    result = flask(source, tmp_path / "instance", "db", "restore", "--force", str(damaged))
    refused(result, str(damaged))
    assert accounts(source) == 1


def test_restore_refuses_a_backup_newer_than_this_version(source: str, tmp_path: Path) -> None:
    with engine_on(source) as engine, engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = 'ffff_future'"))
    backup = tmp_path / "future.backup"
    succeeded(flask(source, tmp_path / "instance", "db", "backup", str(backup)))
    result = flask(source, tmp_path / "instance", "db", "restore", "--force", str(backup))
    refused(result, "schema revision ffff_future, newer than this version knows")
    assert revision_of(source) == "ffff_future"


def test_restore_refuses_a_database_that_holds_data_unless_forced(
    source: str, tmp_path: Path, postgres: PostgresDatabases | None
) -> None:
    backup = tmp_path / "empty.backup"
    succeeded(flask(source, tmp_path / "instance", "db", "backup", str(backup)))
    add_account(source)
    refused(flask(source, tmp_path / "instance", "db", "restore", str(backup)), "holds data (schema ")
    assert accounts(source) == 1
    restored = succeeded(flask(source, tmp_path / "instance", "db", "restore", "--force", str(backup)))
    assert "0 accounts" in restored and accounts(source) == 0
    if postgres is None:
        folder = Path(source.removeprefix("sqlite:///")).parent
        assert not list(folder.glob(".*.partial*"))  # the temporary copy went


def test_restore_refuses_a_database_in_use(source: str, tmp_path: Path) -> None:
    backup = tmp_path / "in-use.backup"
    succeeded(flask(source, tmp_path / "instance", "db", "backup", str(backup)))
    with engine_on(source) as engine, engine.connect() as holder:
        holder.execute(select(func.count()).select_from(User)).scalar_one()
        refused(flask(source, tmp_path / "instance", "db", "restore", str(backup)), "stop the app before restoring")
    assert revision_of(source) == db.head_revision()


def test_postgresql_backup_without_pg_dump_is_refused(
    source: str, tmp_path: Path, postgres: PostgresDatabases | None
) -> None:
    if postgres is None:
        pytest.skip("SQLite needs no client program")
    bare = str(Path(sys.executable).parent)  # the virtual environment's programs: no pg_dump there
    backup = tmp_path / "none.backup"
    refused(flask(source, tmp_path / "instance", "db", "backup", str(backup), path=bare), "pg_dump is not on PATH")
    assert not backup.exists()


def test_the_postgresql_credentials_go_to_the_client_programs_through_the_environment() -> None:
    url = db.engine_url("postgresql+psycopg://owner:s3cret@db.example.org:6543/sudoku?sslmode=require")
    env = pg_environment(url)
    assert (env["PGHOST"], env["PGPORT"], env["PGUSER"], env["PGDATABASE"]) == (
        "db.example.org",
        "6543",
        "owner",
        "sudoku",
    )
    assert env["PGPASSWORD"] == "s3cret" and env["PGSSLMODE"] == "require"
