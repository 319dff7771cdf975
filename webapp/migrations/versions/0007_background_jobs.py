"""Studies prepared by a background job (state, pending work, progress, problem, heartbeat) and the cache of
validation reports computed by one.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the studies' preparation columns (existing studies are ready) and create study_reports."""
    op.add_column("studies", sa.Column("state", sa.String(length=16), server_default="ready", nullable=False))
    op.add_column("studies", sa.Column("pending", sa.JSON(), nullable=True))
    op.add_column("studies", sa.Column("prepared", sa.Integer(), server_default="0", nullable=False))
    op.add_column("studies", sa.Column("problem", sa.Text(), nullable=True))
    op.add_column("studies", sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "study_reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("study_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("body", sa.Text(), nullable=True),
        sa.Column("problem", sa.Text(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["study_id"], ["studies.id"], name=op.f("fk_study_reports_study_id_studies"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_study_reports")),
    )
    op.create_index("uq_study_reports_study_key", "study_reports", ["study_id", "key"], unique=True)


def downgrade() -> None:
    """Drop study_reports and the studies' preparation columns."""
    op.drop_index("uq_study_reports_study_key", table_name="study_reports")
    op.drop_table("study_reports")
    for column in ("heartbeat_at", "problem", "prepared", "pending", "state"):
        op.drop_column("studies", column)
