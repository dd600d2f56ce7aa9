"""Accounts, sessions, ratings, the chips and XP ledger, competitive games and who played them.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("name_key", sa.String(40), nullable=True))
        batch.add_column(sa.Column("password_hash", sa.String(200), nullable=True))
        batch.add_column(sa.Column("bot", sa.String(40), nullable=True))
        batch.add_column(sa.Column("chips", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("xp", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("renamed", sa.Float, nullable=True))
        batch.add_column(sa.Column("topped_up", sa.String(10), nullable=True))
        batch.create_unique_constraint("uq_players_name_key", ["name_key"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("competitive", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("counted", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("stake", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("chips", sa.Integer, nullable=False),
        sa.Column("xp", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_ledger_player_id", "ledger", ["player_id"])
    op.create_index("ix_ledger_game_id", "ledger", ["game_id"])
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("left", sa.Boolean, nullable=False),
        sa.Column("rank", sa.Integer, nullable=True),
        sa.Column("chips", sa.Integer, nullable=True),
        sa.Column("xp", sa.Integer, nullable=True),
        sa.Column("ordinal_before", sa.Float, nullable=True),
        sa.Column("ordinal_after", sa.Float, nullable=True),
    )
    op.create_index("ix_game_players_player_id", "game_players", ["player_id"])


def downgrade() -> None:
    op.drop_table("game_players")
    op.drop_table("ledger")
    op.drop_table("ratings")
    op.drop_table("sessions")
    with op.batch_alter_table("games") as batch:
        for col in ("stake", "counted", "competitive"):
            batch.drop_column(col)
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("uq_players_name_key", type_="unique")
        for col in ("topped_up", "renamed", "xp", "chips", "bot", "password_hash", "name_key"):
            batch.drop_column(col)
