"""The Alembic migration and the init-db command: tables, schema equal to the models, idempotence."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask.testing import FlaskCliRunner
from helpers.web import PostgresDatabases
from sqlalchemy import inspect, make_url, text

from webapp import create_app, db
from webapp.models import Base


def table_names(app: Flask) -> set[str]:
    """Tables in the app's database."""
    return set(inspect(db.engine_of(app)).get_table_names())


def test_migration_creates_tables_and_index(app: Flask) -> None:
    assert table_names(app) == {
        "alembic_version",
        "games",
        "events",
        "bank",
        "users",
        "studies",
        "study_puzzles",
        "participants",
        "calibrations",
        "study_reports",
        "study_members",
        "answers",
        "puzzle_times",
        "leases",
        "login_sessions",
        "job_consumers",
        "rate_counts",
        "audit_events",
    }
    indexes = inspect(db.engine_of(app)).get_indexes("events")
    assert sorted((index["name"], index["column_names"], index["unique"]) for index in indexes) == [
        ("ix_events_game_id", ["game_id"], 0),
        ("uq_events_game_id_key", ["game_id", "key"], 1),
    ]
    foreign_keys = inspect(db.engine_of(app)).get_foreign_keys("events")
    assert [(fk["referred_table"], fk["options"].get("ondelete")) for fk in foreign_keys] == [("games", "CASCADE")]


def test_bank_table_indexes_d_and_keeps_puzzles_unique(app: Flask) -> None:
    inspector = inspect(db.engine_of(app))
    # PostgreSQL lists the index behind the unique constraint as well; it is checked as the constraint below.
    indexes = {i["name"]: i["column_names"] for i in inspector.get_indexes("bank") if "duplicates_constraint" not in i}
    assert indexes == {"ix_bank_d": ["d"], "ix_bank_used_d": ["used", "d"]}
    uniques = inspector.get_unique_constraints("bank")
    assert [(u["name"], u["column_names"]) for u in uniques] == [("uq_bank_puzzle", ["puzzle"])]
    assert {"target_d", "d", "bank_id"} <= {column["name"] for column in inspector.get_columns("games")}


def test_bank_revision_keeps_existing_games_and_events(make_app: Callable[..., Flask]) -> None:
    app = make_app()
    db.downgrade(app, "0001")
    with db.engine_of(app).begin() as connection:
        connection.execute(
            text(
                "INSERT INTO games (id, puzzle, solution, entries, source, created_at) "
                "VALUES ('g1', :p, :p, :p, 'url', '2025-01-01 00:00:00')"
            ),
            {"p": "." * 81},
        )
        connection.execute(text("INSERT INTO events (game_id, server_time, kind) VALUES ('g1', '2025-01-01', 'show')"))
    for revision in ("head", "0001", "head"):
        (db.upgrade if revision == "head" else db.downgrade)(app, revision)
        with db.engine_of(app).connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM events")).scalar() == 1
            assert connection.execute(text("SELECT id FROM games")).scalars().all() == ["g1"]


def test_time_model_revision_clears_the_unused_bank_and_retires_old_refits(make_app: Callable[..., Flask]) -> None:
    """0006: unused bank rows (rated on the earlier scale) go, served ones stay; earlier refits stay as history,
    out of force, marked as the call-count model; games gain an effort column."""
    app = make_app()
    db.downgrade(app, "0005")
    insert_bank = text(
        "INSERT INTO bank (puzzle, solution, d, label, predicted_minutes, se_like, hardest_technique, rating, source, "
        "created_at, used) VALUES (:p, :p, 2.0, 'Medium', 20, 2.0, 'pointing', '{}', 'import', '2025-01-01', :used)"
    )
    with db.engine_of(app).begin() as connection:
        for index, used in enumerate((False, True, False)):
            connection.execute(insert_bank, {"p": str(index) * 81, "used": used})
        connection.execute(
            text(
                "INSERT INTO calibrations (intercept, slope, puzzles, active, created_at) "
                "VALUES (2.0, 0.3, 5, :on, '2025-01-01')"
            ),
            {"on": True},
        )
    db.upgrade(app, "head")
    with db.engine_of(app).connect() as connection:
        assert connection.execute(text("SELECT puzzle FROM bank")).scalars().all() == ["1" * 81]
        model, active = connection.execute(text("SELECT model, active FROM calibrations")).one()
        assert model == "call_count" and not active
        assert connection.execute(text("SELECT count(effort) FROM games")).scalar() == 0


def test_learning_revision_clears_unused_rows_of_the_former_time_model_and_retires_effort_refits(
    make_app: Callable[..., Flask],
) -> None:
    """0013: unused generated and imported bank rows (timed by the former model) go, served ones and shipped seed
    rows stay; refits of the effort model leave force and stay as history; games gain their prior minutes."""
    app = make_app()
    db.downgrade(app, "0012")
    insert_bank = text(
        "INSERT INTO bank (puzzle, solution, d, label, predicted_minutes, se_like, hardest_technique, rating, source, "
        "created_at, used) VALUES (:p, :p, 2.0, 'Medium', 20, 2.0, 'pointing', '{}', :source, '2025-01-01', :used)"
    )
    rows = [("generated", False), ("generated", True), ("import", False), ("seed", False), ("seed", True)]
    with db.engine_of(app).begin() as connection:
        for index, (source, used) in enumerate(rows):
            connection.execute(insert_bank, {"p": str(index) * 81, "source": source, "used": used})
        connection.execute(
            text(
                "INSERT INTO calibrations (model, intercept, slope, puzzles, active, created_at) "
                "VALUES ('effort', -3.7, 0.7, 5, :on, '2025-01-01')"
            ),
            {"on": True},
        )
    db.upgrade(app, "head")
    with db.engine_of(app).connect() as connection:
        kept = connection.execute(text("SELECT puzzle FROM bank ORDER BY puzzle")).scalars().all()
        assert kept == ["1" * 81, "3" * 81, "4" * 81]
        model, active, state = connection.execute(text("SELECT model, active, state FROM calibrations")).one()
        assert model == "effort" and not active and state == "done"
        assert connection.execute(text("SELECT count(prior_minutes) FROM games")).scalar() == 0
    db.downgrade(app, "0012")
    db.upgrade(app, "head")  # and back again: the revision's columns are new objects each time


def test_migrated_schema_matches_models(app: Flask) -> None:
    with db.engine_of(app).connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []


def test_downgrade_to_base_drops_tables(app: Flask) -> None:
    with app.app_context():
        db.downgrade(app, "base")
    assert table_names(app) == {"alembic_version"}


def test_init_db_command_is_idempotent(runner: FlaskCliRunner, app: Flask) -> None:
    for _ in range(2):
        result = runner.invoke(args=["init-db"])
        assert result.exit_code == 0, result.output
        assert "latest schema" in result.output
    assert {"games", "events", "bank"} <= table_names(app)


def test_init_db_creates_instance_and_database(tmp_path: Path) -> None:
    instance = tmp_path / "new" / "instance"
    app = create_app({"INSTANCE_PATH": str(instance), "SECRET_KEY": "k"})
    try:
        result = app.test_cli_runner().invoke(args=["init-db"])
        assert result.exit_code == 0, result.output
        assert (instance / "sudoku.db").is_file()
        assert {"games", "events"} <= table_names(app)
    finally:
        db.dispose(app)


def test_init_db_creates_folder_of_sqlite_file(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere" / "deep" / "games.db"
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "k", "DATABASE_URL": f"sqlite:///{target}"})
    try:
        assert app.test_cli_runner().invoke(args=["init-db"]).exit_code == 0
        assert target.is_file()
    finally:
        db.dispose(app)


def test_a_plain_postgresql_url_runs_on_psycopg_3(tmp_path: Path, postgres_databases: PostgresDatabases) -> None:
    """``postgresql://`` names no driver (SQLAlchemy would look for psycopg2): the app uses psycopg 3."""
    url = postgres_databases.create()
    plain = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    assert plain.startswith("postgresql://")
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "k", "DATABASE_URL": plain})
    try:
        assert db.engine_of(app).dialect.driver == "psycopg"
        result = app.test_cli_runner().invoke(args=["init-db"])
        assert result.exit_code == 0, result.output
        assert "postgresql+psycopg://" in result.output and "***" in result.output  # the password hidden
        assert {"games", "events", "bank"} <= table_names(app)
    finally:
        db.dispose(app)
        postgres_databases.drop(url)
