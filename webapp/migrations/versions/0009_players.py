"""Anonymous players and the daily puzzle: each game records the player whose cookie started it and, for a daily
puzzle's game, its UTC date.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add games.player and games.daily (empty on existing games), each indexed."""
    op.add_column("games", sa.Column("player", sa.String(length=32), nullable=True))
    op.add_column("games", sa.Column("daily", sa.Date(), nullable=True))
    op.create_index(op.f("ix_games_player"), "games", ["player"], unique=False)
    op.create_index(op.f("ix_games_daily"), "games", ["daily"], unique=False)


def downgrade() -> None:
    """Drop the two columns and their indexes."""
    op.drop_index(op.f("ix_games_daily"), table_name="games")
    op.drop_index(op.f("ix_games_player"), table_name="games")
    op.drop_column("games", "daily")
    op.drop_column("games", "player")
