"""Alembic environment: runs migrations on the connection the app hands over, or on sqlalchemy.url."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine, pool

from webapp.models import Base

target_metadata = Base.metadata


def run_migrations_offline() -> None:
    """Emit the migration SQL for sqlalchemy.url without connecting."""
    context.configure(
        url=context.config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_on(connection: Connection) -> None:
    """Run the migrations on one open connection."""
    # Batch mode lets later migrations alter SQLite tables by copying them.
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run on the connection passed in config.attributes, else on a fresh engine for sqlalchemy.url."""
    connection = context.config.attributes.get("connection")
    if connection is not None:
        run_on(connection)
        return
    engine = create_engine(context.config.get_main_option("sqlalchemy.url", ""), poolclass=pool.NullPool)
    try:
        with engine.connect() as fresh:
            run_on(fresh)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
