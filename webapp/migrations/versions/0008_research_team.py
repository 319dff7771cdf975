"""Research teams: administrators, disabled and invited accounts, and collaborators on a study.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the accounts' admin flag, disabling and invitation columns, and create study_members."""
    op.add_column("users", sa.Column("is_admin", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column("users", sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("users", sa.Column("invite_hash", sa.String(length=64), nullable=True))
    op.add_column("users", sa.Column("invite_until", sa.DateTime(timezone=True), nullable=True))
    op.create_index(op.f("ix_users_invite_hash"), "users", ["invite_hash"], unique=True)
    op.create_table(
        "study_members",
        sa.Column("study_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["study_id"], ["studies.id"], name=op.f("fk_study_members_study_id_studies"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_study_members_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("study_id", "user_id", name=op.f("pk_study_members")),
    )
    op.create_index(op.f("ix_study_members_user_id"), "study_members", ["user_id"], unique=False)


def downgrade() -> None:
    """Drop study_members and the accounts' new columns."""
    op.drop_index(op.f("ix_study_members_user_id"), table_name="study_members")
    op.drop_table("study_members")
    op.drop_index(op.f("ix_users_invite_hash"), table_name="users")
    for column in ("invite_until", "invite_hash", "disabled_at", "is_admin"):
        op.drop_column("users", column)
