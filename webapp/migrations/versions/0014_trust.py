"""Trust in a study's data: researchers' log-in sessions kept on the server, the live job consumers (a heartbeat)
and the consumer preparing each study, rate-limit counts shared by every worker, and the append-only audit trail
(triggers refuse to change or delete its rows).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | None = None
depends_on: str | None = None

APPEND_ONLY = "audit_events is append-only"
SQLITE_TRIGGERS = tuple(
    f"CREATE TRIGGER audit_events_no_{what} BEFORE {what.upper()} ON audit_events "
    f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END"
    for what in ("update", "delete")
)
POSTGRES_TRIGGER = (
    "CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS "
    f"$$ BEGIN RAISE EXCEPTION '{APPEND_ONLY}'; END $$",
    "CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events "
    "FOR EACH ROW EXECUTE FUNCTION audit_events_append_only()",
)


def upgrade() -> None:
    """Add the tables, the study's consumer column and the audit trail's triggers."""
    op.create_table(
        "login_sessions",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_login_sessions_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_login_sessions")),
    )
    op.create_index(op.f("ix_login_sessions_user_id"), "login_sessions", ["user_id"])
    op.create_table(
        "job_consumers",
        sa.Column("id", sa.String(length=96), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("queue", sa.String(length=64), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_job_consumers")),
    )
    op.add_column("studies", sa.Column("prepared_by", sa.String(length=96), nullable=True))
    op.create_table(
        "rate_counts",
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_rate_counts")),
    )
    op.create_index(op.f("ix_rate_counts_expires_at"), "rate_counts", ["expires_at"])
    op.create_table(
        "audit_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("study_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_events")),
    )
    op.create_index(op.f("ix_audit_events_at"), "audit_events", ["at"])
    op.create_index(op.f("ix_audit_events_study_id"), "audit_events", ["study_id"])
    triggers = POSTGRES_TRIGGER if op.get_bind().dialect.name == "postgresql" else SQLITE_TRIGGERS
    for statement in triggers:
        op.execute(sa.text(statement))


def downgrade() -> None:
    """Drop the tables (with the triggers and the function) and the column."""
    op.drop_table("audit_events")
    if op.get_bind().dialect.name == "postgresql":
        op.execute(sa.text("DROP FUNCTION audit_events_append_only()"))
    op.drop_index(op.f("ix_rate_counts_expires_at"), table_name="rate_counts")
    op.drop_table("rate_counts")
    op.drop_column("studies", "prepared_by")
    op.drop_table("job_consumers")
    op.drop_index(op.f("ix_login_sessions_user_id"), table_name="login_sessions")
    op.drop_table("login_sessions")
