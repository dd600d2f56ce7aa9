"""Names that look alike: each account's (and bot's) name's confusable skeleton
(``text_policy.skeleton``), filled for the names there are. Names that already share one are
kept; a new name or a rename may not take a skeleton an account holds.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tarot.server.community.text_policy import skeleton

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("skeleton", sa.String(80), nullable=True))
        batch.create_index("ix_players_skeleton", ["skeleton"])
    players = sa.table("players", sa.column("id", sa.String), sa.column("name", sa.String),
                       sa.column("name_key", sa.String), sa.column("skeleton", sa.String))
    conn = op.get_bind()
    named = conn.execute(sa.select(players.c.id, players.c.name).where(players.c.name_key.is_not(None))).all()
    for pid, name in named:
        conn.execute(sa.update(players).where(players.c.id == pid).values(skeleton=skeleton(name)))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_index("ix_players_skeleton")
        batch.drop_column("skeleton")
