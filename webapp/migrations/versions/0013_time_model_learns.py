"""The time model fitted to people, and learning from every game: games keep their puzzle's prior minutes; the time
model's versions record their fits (state, games, players, zone scales, figures); what a fit found per puzzle; leases
on shared work. Refits of the effort model leave force (the app no longer computes that scale), and the bank's unused
generated and imported rows, timed by it, make way for new ones (``flask pool ensure`` refills; shipped seed rows
stay and take their new figures from ``flask pool seed``).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | None = None
depends_on: str | None = None


def calibration_columns() -> tuple[sa.Column[object], ...]:
    """The calibrations table's new columns (new objects each time: a column belongs to one table)."""
    return (
        sa.Column("state", sa.String(length=16), server_default="done", nullable=False),
        sa.Column("games", sa.Integer(), server_default="0", nullable=False),
        sa.Column("players", sa.Integer(), server_default="0", nullable=False),
        sa.Column("sigma", sa.Double(), nullable=True),
        sa.Column("zones", sa.JSON(), nullable=True),
        sa.Column("figures", sa.JSON(), nullable=True),
        sa.Column("problem", sa.Text(), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )


def upgrade() -> None:
    """Add the columns and tables; retire the effort refits; drop the unused bank rows timed by the former model."""
    op.add_column("games", sa.Column("prior_minutes", sa.Double(), nullable=True))
    for column in calibration_columns():
        op.add_column("calibrations", column)
    op.create_table(
        "puzzle_times",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("calibration_id", sa.Integer(), nullable=False),
        sa.Column("puzzle", sa.String(length=81), nullable=False),
        sa.Column("finishers", sa.Integer(), nullable=False),
        sa.Column("censored", sa.Integer(), nullable=False),
        sa.Column("median_seconds", sa.Double(), nullable=True),
        sa.Column("minutes", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["calibration_id"],
            ["calibrations.id"],
            name=op.f("fk_puzzle_times_calibration_id_calibrations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_puzzle_times")),
    )
    op.create_index("uq_puzzle_times_calibration_puzzle", "puzzle_times", ["calibration_id", "puzzle"], unique=True)
    op.create_table(
        "leases",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("holder", sa.String(length=64), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_leases")),
    )
    op.execute(sa.text("UPDATE calibrations SET active = :off WHERE model = 'effort'").bindparams(off=False))
    op.execute(sa.text("DELETE FROM bank WHERE used = :off AND source <> 'seed'").bindparams(off=False))


def downgrade() -> None:
    """Drop the tables and columns (the bank rows removed are not restored: ``flask pool ensure`` refills it)."""
    op.drop_table("leases")
    op.drop_index("uq_puzzle_times_calibration_puzzle", table_name="puzzle_times")
    op.drop_table("puzzle_times")
    for column in reversed(calibration_columns()):
        op.drop_column("calibrations", column.name)
    op.drop_column("games", "prior_minutes")
