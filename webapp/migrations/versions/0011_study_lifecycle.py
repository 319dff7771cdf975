"""Study lifecycle and participant rights: a study's phase, caps and preview copies, deletion counts; a
participant's withdrawal; a game given up.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None

STUDY_COLUMNS = ("deleted_on_request", "deleted_on_withdrawal", "max_per_row", "max_participants", "preview_of")


def upgrade() -> None:
    """Add the columns (plain ADD COLUMN: a batch copy of games would cascade-delete its events); studies made
    before are open."""
    op.add_column("studies", sa.Column("phase", sa.String(length=16), server_default="open", nullable=False))
    op.add_column("studies", sa.Column("preview_of", sa.Integer(), nullable=True))
    op.add_column("studies", sa.Column("max_participants", sa.Integer(), nullable=True))
    op.add_column("studies", sa.Column("max_per_row", sa.Integer(), nullable=True))
    op.add_column("studies", sa.Column("deleted_on_withdrawal", sa.Integer(), server_default="0", nullable=False))
    op.add_column("studies", sa.Column("deleted_on_request", sa.Integer(), server_default="0", nullable=False))
    op.create_index(op.f("ix_studies_preview_of"), "studies", ["preview_of"], unique=False)
    op.add_column("participants", sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("games", sa.Column("gave_up_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Drop the new columns."""
    op.drop_column("games", "gave_up_at")
    op.drop_column("participants", "withdrawn_at")
    op.drop_index(op.f("ix_studies_preview_of"), table_name="studies")
    for column in (*STUDY_COLUMNS, "phase"):
        op.drop_column("studies", column)
