"""Pencil marks, undo history, pauses, mistake checking and hints on games; rung, idempotency key and detail on events.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def game_columns() -> list[sa.Column[Any]]:
    """The columns this revision adds to games."""
    return [
        sa.Column("corner", sa.JSON(), nullable=True),
        sa.Column("centre", sa.JSON(), nullable=True),
        sa.Column("history", sa.JSON(), nullable=True),
        sa.Column("undo_depth", sa.Integer(), server_default="0", nullable=False),
        sa.Column("version", sa.Integer(), server_default="1", nullable=False),
        sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("paused_seconds", sa.Double(), server_default="0", nullable=False),
        sa.Column("pause_reason", sa.String(length=16), nullable=True),
        sa.Column("view", sa.String(length=32), nullable=True),
        sa.Column("check_mistakes", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("mistakes", sa.Integer(), server_default="0", nullable=False),
        sa.Column("hint", sa.JSON(), nullable=True),
        sa.Column("techniques", sa.JSON(), nullable=True),
    ]


def event_columns() -> list[sa.Column[Any]]:
    """The columns this revision adds to events."""
    return [
        sa.Column("rung", sa.Integer(), nullable=True),
        sa.Column("key", sa.String(length=64), nullable=True),
        sa.Column("detail", sa.JSON(), nullable=True),
    ]


def upgrade() -> None:
    """Add the play-state columns (plain ADD COLUMN: a batch copy of games would cascade-delete its events)."""
    for column in game_columns():
        op.add_column("games", column)
    for column in event_columns():
        op.add_column("events", column)
    op.create_index("uq_events_game_id_key", "events", ["game_id", "key"], unique=True)


def downgrade() -> None:
    """Drop the play-state columns."""
    op.drop_index("uq_events_game_id_key", table_name="events")
    for column in reversed(event_columns()):
        op.drop_column("events", column.name)
    for column in reversed(game_columns()):
        op.drop_column("games", column.name)
