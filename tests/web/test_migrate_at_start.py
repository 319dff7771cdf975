"""SUDOKU_MIGRATE_AT_START=on: servers starting together on one fresh database bring it to the latest schema one
after the other under a lock (a file lock beside a SQLite file, an advisory lock on PostgreSQL), and all start."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.services import fresh_postgres_database
from sqlalchemy import create_engine, text

from webapp import create_app, db

REPO_ROOT = Path(__file__).resolve().parents[2]
STARTERS = 3
START_TIMEOUT_S = 300  # a bound for a loaded machine, not a measurement
# Each process imports the app, says it is ready, waits for the others, then builds the app at the same moment.
STARTER = """
import json, sys, time
from pathlib import Path
from webapp import MIGRATED_FROM, create_app, db
ready, go, instance = (Path(arg) for arg in sys.argv[1:4])
ready.touch()
while not go.exists():
    time.sleep(0.002)
app = create_app({"INSTANCE_PATH": str(instance), "SECRET_KEY": "k", "POOL_REFILL": False})
print(json.dumps({"found": app.extensions[MIGRATED_FROM]}))
db.dispose(app)
"""


def start_together(tmp_path: Path, database_url: str) -> list[str | None]:
    """Start STARTERS processes that build the app at once on ``database_url``; the revision each one found."""
    env = {**os.environ, "DATABASE_URL": database_url, "SUDOKU_MIGRATE_AT_START": "on"}
    go = tmp_path / "go"
    readies = [tmp_path / f"ready{n}" for n in range(STARTERS)]
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", STARTER, str(ready), str(go), str(tmp_path / f"instance{n}")],
            cwd=REPO_ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n, ready in enumerate(readies)
    ]
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not all(ready.exists() for ready in readies):
            assert all(p.poll() is None for p in processes), [p.communicate() for p in processes]
            assert time.monotonic() < deadline, "the starters did not get ready"
            time.sleep(0.05)
        go.touch()
        outputs = [p.communicate(timeout=START_TIMEOUT_S) for p in processes]
    finally:
        for process in processes:
            process.kill()
    for process, (_out, err) in zip(processes, outputs):
        assert process.returncode == 0, err
    return [json.loads(out.strip().splitlines()[-1])["found"] for out, _err in outputs]


def assert_at_head_once(database_url: str, found: list[str | None]) -> None:
    """One alembic_version row at the head revision; exactly one starter found the database fresh."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
            tables = connection.execute(text("SELECT count(*) FROM games")).scalar()
    finally:
        engine.dispose()
    assert rows == [db.head_revision()] and tables == 0
    assert found.count(None) == 1 and found.count(db.head_revision()) == STARTERS - 1, found


def test_starters_on_one_fresh_sqlite_file_migrate_it_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared' / 'sudoku.db'}"
    assert_at_head_once(url, start_together(tmp_path, url))


@pytest.fixture
def postgres_database() -> Iterator[str]:
    """A fresh database on the test PostgreSQL server; its URL."""
    with fresh_postgres_database("sudoku_start") as url:
        yield url


def test_starters_on_one_fresh_postgresql_database_migrate_it_once(tmp_path: Path, postgres_database: str) -> None:
    assert_at_head_once(postgres_database, start_together(tmp_path, postgres_database))


def test_without_the_setting_a_fresh_database_is_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Off by default: the factory does not touch the schema (the server answers 503 until init-db)."""
    monkeypatch.delenv("SUDOKU_MIGRATE_AT_START", raising=False)
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "k", "HTMX_SOURCE": "vendor"})
    try:
        assert db.schema_problem(app) is not None
        assert app.test_client().get("/").status_code == 503
    finally:
        db.dispose(app)
