"""Researchers, studies, their puzzles and participants; study games point at their participant and puzzle.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the study tables and add the study columns to games."""
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("email", name=op.f("uq_users_email")),
    )
    op.create_table(
        "studies",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("consent_text", sa.Text(), nullable=False),
        sa.Column("instructions", sa.Text(), nullable=False),
        sa.Column("order_scheme", sa.String(length=16), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["owner_id"], ["users.id"], name=op.f("fk_studies_owner_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_studies")),
        sa.UniqueConstraint("public_id", name=op.f("uq_studies_public_id")),
    )
    op.create_index(op.f("ix_studies_owner_id"), "studies", ["owner_id"], unique=False)
    op.create_table(
        "study_puzzles",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("study_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("puzzle", sa.String(length=81), nullable=False),
        sa.Column("solution", sa.String(length=81), nullable=False),
        sa.Column("d", sa.Double(), nullable=True),
        sa.Column("rating", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["study_id"], ["studies.id"], name=op.f("fk_study_puzzles_study_id_studies"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_study_puzzles")),
    )
    op.create_index(op.f("ix_study_puzzles_study_id"), "study_puzzles", ["study_id"], unique=False)
    op.create_index("uq_study_puzzles_study_position", "study_puzzles", ["study_id", "position"], unique=True)
    op.create_table(
        "participants",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("study_id", sa.Integer(), nullable=False),
        sa.Column("arrival", sa.Integer(), nullable=False),
        sa.Column("label_hash", sa.String(length=64), nullable=True),
        sa.Column("labels", sa.JSON(), nullable=False),
        sa.Column("order", sa.JSON(), nullable=False),
        sa.Column("latin_row", sa.Integer(), nullable=True),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("current", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("consented_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["study_id"], ["studies.id"], name=op.f("fk_participants_study_id_studies"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_participants")),
        sa.UniqueConstraint("public_id", name=op.f("uq_participants_public_id")),
    )
    op.create_index(op.f("ix_participants_study_id"), "participants", ["study_id"], unique=False)
    op.create_index("uq_participants_study_arrival", "participants", ["study_id", "arrival"], unique=True)
    op.create_index("ix_participants_study_label", "participants", ["study_id", "label_hash"], unique=False)
    # Plain ADD COLUMN (a batch copy of games would cascade-delete its events); SQLite cannot add a named
    # foreign key to an existing table, so these two links are kept by the app (webapp.study.studies), indexed.
    op.add_column("games", sa.Column("participant_id", sa.Integer(), nullable=True))
    op.add_column("games", sa.Column("study_puzzle_id", sa.Integer(), nullable=True))
    op.add_column("games", sa.Column("settings", sa.JSON(), nullable=True))
    op.create_index(op.f("ix_games_participant_id"), "games", ["participant_id"], unique=False)


def downgrade() -> None:
    """Drop the study columns of games and the study tables."""
    op.drop_index(op.f("ix_games_participant_id"), table_name="games")
    for column in ("settings", "study_puzzle_id", "participant_id"):
        op.drop_column("games", column)
    op.drop_table("participants")
    op.drop_table("study_puzzles")
    op.drop_table("studies")
    op.drop_table("users")
