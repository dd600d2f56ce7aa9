"""The daily challenge: each day's deals (from a secret kept until the day is over) and each
player's play of each deal.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenge_days",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "challenge_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("day", sa.String(10), sa.ForeignKey("challenge_days.day"), nullable=False),
        sa.Column("deal", sa.Integer, nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id")),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("score", sa.Integer),
        sa.Column("side", sa.String(16)),
        sa.Column("contract", sa.String(16)),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float),
        sa.UniqueConstraint("day", "deal", "player_id"),
    )
    op.create_index("ix_challenge_entries_day", "challenge_entries", ["day"])
    op.create_index("ix_challenge_entries_player_id", "challenge_entries", ["player_id"])


def downgrade() -> None:
    op.drop_table("challenge_entries")
    op.drop_table("challenge_days")
