"""Questionnaires: a study's questions and per-puzzle items, and the participants' answers.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the studies' questionnaire column and create answers."""
    op.add_column("studies", sa.Column("questionnaire", sa.JSON(), nullable=True))
    op.create_table(
        "answers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("participant_id", sa.Integer(), nullable=False),
        sa.Column("block", sa.String(length=16), nullable=False),
        sa.Column("order_index", sa.Integer(), nullable=False),
        sa.Column("question", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=True),
        sa.Column("passed", sa.Boolean(), nullable=True),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["participant_id"],
            ["participants.id"],
            name=op.f("fk_answers_participant_id_participants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_answers")),
    )
    op.create_index(op.f("ix_answers_participant_id"), "answers", ["participant_id"], unique=False)
    op.create_index(
        "uq_answers_participant_place", "answers", ["participant_id", "block", "order_index", "question"], unique=True
    )


def downgrade() -> None:
    """Drop answers and the studies' questionnaire column."""
    op.drop_index("uq_answers_participant_place", table_name="answers")
    op.drop_index(op.f("ix_answers_participant_id"), table_name="answers")
    op.drop_table("answers")
    op.drop_column("studies", "questionnaire")
