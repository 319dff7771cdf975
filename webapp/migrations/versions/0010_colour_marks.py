"""Colour marks on games: a list of 81 colour numbers, None until the player colours a cell.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the colour marks column (plain ADD COLUMN: a batch copy of games would cascade-delete its events)."""
    op.add_column("games", sa.Column("colour", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Drop the colour marks column."""
    op.drop_column("games", "colour")
