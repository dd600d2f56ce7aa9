"""Chat messages (a table's, kept with its game, and the lobby's) and mutes.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("audience", sa.String(16), nullable=False),
        sa.Column("text", sa.String(400), nullable=True),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_table_id", "chat", ["table_id"])
    op.create_index("ix_chat_game_id", "chat", ["game_id"])
    op.create_table(
        "mutes",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("muted_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("mutes")
    op.drop_table("chat")
