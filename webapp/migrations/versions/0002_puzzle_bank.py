"""The puzzle bank, and the difficulty asked for and served on each game.

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

GAME_COLUMNS = ("target_d", "d", "bank_id")


def upgrade() -> None:
    """Create the bank table and add the difficulty columns to games."""
    op.create_table(
        "bank",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("puzzle", sa.String(length=81), nullable=False),
        sa.Column("solution", sa.String(length=81), nullable=False),
        sa.Column("d", sa.Double(), nullable=False),
        sa.Column("label", sa.String(length=16), nullable=False),
        sa.Column("predicted_minutes", sa.Double(), nullable=False),
        sa.Column("se_like", sa.Double(), nullable=False),
        sa.Column("hardest_technique", sa.String(length=64), nullable=False),
        sa.Column("rating", sa.JSON(), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("served_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bank")),
        sa.UniqueConstraint("puzzle", name=op.f("uq_bank_puzzle")),
    )
    op.create_index(op.f("ix_bank_d"), "bank", ["d"], unique=False)
    op.create_index("ix_bank_used_d", "bank", ["used", "d"], unique=False)
    # Plain ADD COLUMN: a batch copy of games would drop the old table, and with it (ON DELETE CASCADE) the events.
    op.add_column("games", sa.Column("target_d", sa.Double(), nullable=True))
    op.add_column("games", sa.Column("d", sa.Double(), nullable=True))
    op.add_column("games", sa.Column("bank_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Drop the difficulty columns of games and the bank table."""
    for column in reversed(GAME_COLUMNS):
        op.drop_column("games", column)
    op.drop_index("ix_bank_used_d", table_name="bank")
    op.drop_index(op.f("ix_bank_d"), table_name="bank")
    op.drop_table("bank")
