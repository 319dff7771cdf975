"""Games and their events.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the games and events tables."""
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("puzzle", sa.String(length=81), nullable=False),
        sa.Column("solution", sa.String(length=81), nullable=False),
        sa.Column("entries", sa.String(length=81), nullable=False),
        sa.Column("slider", sa.Double(), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("first_shown_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("solve_seconds", sa.Double(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("server_time", sa.DateTime(timezone=True), nullable=False),
        sa.Column("client_ms", sa.Double(), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("cell", sa.Integer(), nullable=True),
        sa.Column("digit", sa.Integer(), nullable=True),
        sa.Column("mode", sa.String(length=16), server_default="digit", nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_events_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
    )
    op.create_index(op.f("ix_events_game_id"), "events", ["game_id"], unique=False)


def downgrade() -> None:
    """Drop the events and games tables."""
    op.drop_index(op.f("ix_events_game_id"), table_name="events")
    op.drop_table("events")
    op.drop_table("games")
