"""A database that fails during a request (locked by another connection, a server that is down, connections cut)
gets 503 with Retry-After and a plain message, a page or an htmx fragment, and one log line; never a 500."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from helpers.services import admin_dsn, free_port, fresh_postgres_database
from helpers.web import csrf_header_of
from sqlalchemy import make_url

from webapp import db
from webapp.games import store

EULER_01 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
MESSAGE = "The server cannot reach its database just now"


def stored_game(app: Flask) -> str:
    """A game on a known puzzle, stored directly; its id."""
    with db.sessions_of(app)() as session:
        return store.new_game_from_text(session, EULER_01).id


def fault_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The log lines about database faults; no line logged may carry a traceback."""
    assert [r.getMessage() for r in caplog.records if r.exc_info is not None] == []
    return [r.getMessage() for r in caplog.records if "database unavailable" in r.getMessage()]


def assert_unavailable(response, *, fragment: bool) -> None:
    """A 503 with Retry-After and the plain message, as a fragment or a whole page."""
    text = response.get_data(as_text=True)
    assert response.status_code == 503, text
    assert int(response.headers["Retry-After"]) > 0
    assert MESSAGE in text and "Traceback" not in text and "OperationalError" not in text
    assert ("<html" in text) is not fragment


@pytest.mark.own_database
def test_a_locked_sqlite_database_answers_503_then_serves_again(
    make_app: Callable[..., Flask], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Another connection holds an exclusive lock: reads and writes give up after the short busy timeout with
    503, each logged once; once the lock is gone, the same app serves."""
    path = tmp_path / "locked.db"
    app = make_app(DATABASE_URL=f"sqlite:///{path}?timeout=0.2")
    game_id = stored_game(app)
    client = app.test_client()
    headers = csrf_header_of(client)
    db.dispose(app)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    with caplog.at_level("ERROR"):
        assert_unavailable(client.get(f"/g/{game_id}"), fragment=False)
        posted = client.post(f"/g/{game_id}/cell/r1c1", data={"digit": "4"}, headers={**headers, "HX-Request": "true"})
        assert_unavailable(posted, fragment=True)
    lines = fault_lines(caplog)
    assert len(lines) == 2 and all("database is locked" in line for line in lines), lines
    holder.execute("COMMIT")
    holder.close()
    assert client.get(f"/g/{game_id}").status_code == 200


def test_a_postgresql_server_that_is_down_answers_503(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """No server listens at the configured address: every page answers 503, never a 500."""
    pytest.importorskip("psycopg")
    from webapp import create_app

    url = f"postgresql+psycopg://sudoku@127.0.0.1:{free_port()}/sudoku?connect_timeout=2"
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "k", "DATABASE_URL": url})
    try:
        with caplog.at_level("ERROR"):
            assert_unavailable(app.test_client().get("/"), fragment=False)
            assert_unavailable(app.test_client().get("/g/x", headers={"HX-Request": "true"}), fragment=True)
        assert len(fault_lines(caplog)) == 2
    finally:
        db.dispose(app)


@pytest.fixture
def postgres_database() -> Iterator[str]:
    """A fresh database on the test PostgreSQL server; its URL."""
    with fresh_postgres_database("sudoku_faults") as url:
        yield url


@pytest.mark.own_database
def test_cut_postgresql_connections_answer_503_then_reconnect(
    make_app: Callable[..., Flask], postgres_database: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The server ends every connection of the app (as a restart does): the request on a dead pooled connection
    gets 503, and the next one connects afresh and is served."""
    import psycopg

    app = make_app(DATABASE_URL=postgres_database)
    game_id = stored_game(app)
    client = app.test_client()
    assert client.get(f"/g/{game_id}").status_code == 200
    name = make_url(postgres_database).database
    with psycopg.connect(admin_dsn(), autocommit=True) as admin:
        cut = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = %s", (name,)
        ).fetchone()
    assert cut is not None and cut[0] >= 1
    with caplog.at_level("ERROR"):
        assert_unavailable(client.get(f"/g/{game_id}"), fragment=False)
    assert len(fault_lines(caplog)) == 1
    assert client.get(f"/g/{game_id}").status_code == 200


def posted_mark(client, game_id: str, cell: str, key: str) -> int:
    """A corner mark on a cell, with its idempotency key, as the board posts it; the status."""
    headers = {**csrf_header_of(client), "HX-Request": "true"}
    data = {"digit": "5", "mode": "corner", "key": key}
    return client.post(f"/g/{game_id}/cell/{cell}", data=data, headers=headers).status_code


def stored_keys(url: str, game_id: str) -> list[str]:
    """The idempotency keys of a game's stored events, in order."""
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg", "postgresql")) as connection:
        rows = connection.execute(
            "SELECT key FROM events WHERE game_id = %s AND key IS NOT NULL ORDER BY id",
            (game_id,),
        ).fetchall()
    return [str(row[0]) for row in rows]


@pytest.mark.own_database
def test_a_full_disk_and_a_read_only_postgresql_answer_503_and_lose_nothing_acknowledged(
    make_app: Callable[..., Flask], postgres_database: str, caplog: pytest.LogCaptureFixture
) -> None:
    """PostgreSQL out of disk (its disk_full error, raised for every new event by a trigger) and then read-only (as
    a standby is, with the app's connections cut as a failover cuts them): each action then gets 503 with
    Retry-After, never a 500; every action acknowledged before is stored once; once the fault ends the same action,
    sent again with its key, is stored once."""
    import psycopg

    app = make_app(DATABASE_URL=postgres_database)
    game_id = stored_game(app)
    client = app.test_client()
    assert client.get(f"/g/{game_id}").status_code == 200
    assert [posted_mark(client, game_id, cell, f"k-{cell}") for cell in ("r1c1", "r1c2")] == [200, 200]
    name = make_url(postgres_database).database
    plain = postgres_database.replace("postgresql+psycopg", "postgresql")
    with psycopg.connect(plain, autocommit=True) as owner:
        owner.execute(
            "CREATE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; "
            "END $$"
        )
        owner.execute("CREATE TRIGGER full_disk BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION full_disk()")
    with caplog.at_level("ERROR"):
        response = client.post(
            f"/g/{game_id}/cell/r1c4",
            data={"digit": "5", "mode": "corner", "key": "k-r1c4"},
            headers={**csrf_header_of(client), "HX-Request": "true"},
        )
        assert_unavailable(response, fragment=True)
    with psycopg.connect(plain, autocommit=True) as owner:
        owner.execute("DROP TRIGGER full_disk ON events")
    with psycopg.connect(admin_dsn(), autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
    with caplog.at_level("ERROR"):
        statuses = [posted_mark(client, game_id, "r1c4", "k-r1c4") for _ in range(3)]
    assert 500 not in statuses and statuses[-1] == 503, statuses  # the first may meet a cut connection: 503 too
    assert all("No space left" in line or "read-only" in line or "terminat" in line for line in fault_lines(caplog))
    with psycopg.connect(admin_dsn(), autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = off')
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
    statuses = [posted_mark(client, game_id, "r1c4", "k-r1c4") for _ in range(2)]
    assert statuses[-1] == 200 and 500 not in statuses, statuses
    assert posted_mark(client, game_id, "r1c4", "k-r1c4") == 200  # the same key again: stored once
    assert stored_keys(postgres_database, game_id) == ["k-r1c1", "k-r1c2", "k-r1c4"]
