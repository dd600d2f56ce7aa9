"""The expert's review of a done deal (issue 35): queued by an account, worked out in the
background, kept for everyone who may see the deal.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("deal_id", sa.Integer, sa.ForeignKey("deals.id"), nullable=False, unique=True),
        sa.Column("requested_by", sa.String(32), sa.ForeignKey("players.id"), nullable=False, index=True),
        sa.Column("requested", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("claimed", sa.Float, nullable=True),
        sa.Column("review", sa.JSON, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("reviews")
