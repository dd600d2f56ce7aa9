"""Duplicate events at tables: the events, their players, and each deal played at each table.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("organiser", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("starts", sa.Float, nullable=False),
        sa.Column("access", sa.String(16), nullable=False),
        sa.Column("bots", sa.Boolean, nullable=False),
        sa.Column("imposed_taker", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float),
    )
    op.create_index("ix_events_status", "events", ["status"])
    op.create_table(
        "event_players",
        sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("invited", sa.Boolean, nullable=False),
        sa.Column("registered", sa.Boolean, nullable=False),
        sa.Column("table_no", sa.Integer),
        sa.Column("table_id", sa.String(32)),
        sa.Column("seat", sa.Integer),
        sa.Column("percentage", sa.Float),
        sa.Column("rank", sa.Integer),
    )
    op.create_index("ix_event_players_player_id", "event_players", ["player_id"])
    op.create_table(
        "event_deals",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("etui", sa.Integer, nullable=False),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id")),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("scores", sa.JSON, nullable=False),
        sa.Column("taker", sa.Integer),
        sa.Column("partner", sa.Integer),
        sa.Column("contract", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("event_id", "table_no", "etui"),
    )
    op.create_index("ix_event_deals_event_id", "event_deals", ["event_id"])


def downgrade() -> None:
    op.drop_table("event_deals")
    op.drop_table("event_players")
    op.drop_table("events")
