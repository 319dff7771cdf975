"""The difficulty scale and time model of issue 16: games keep their puzzle's effort, refits name their model, and
the bank's unused rows (rated on the earlier scale, some with more than 40 givens) make way for new ones.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add games.effort and calibrations.model (earlier refits: "call_count", out of force); drop unused bank rows."""
    op.add_column("games", sa.Column("effort", sa.Double(), nullable=True))
    op.add_column("calibrations", sa.Column("model", sa.String(length=16), server_default="call_count", nullable=False))
    op.execute(sa.text("UPDATE calibrations SET active = :off").bindparams(off=False))
    op.execute(sa.text("DELETE FROM bank WHERE used = :off").bindparams(off=False))


def downgrade() -> None:
    """Drop the two columns (the bank rows removed are not restored: ``flask pool ensure`` refills it)."""
    op.drop_column("calibrations", "model")
    op.drop_column("games", "effort")
