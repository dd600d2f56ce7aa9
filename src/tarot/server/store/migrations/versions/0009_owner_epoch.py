"""Tables owned by one process of several (``cluster``): the owner's epoch, which fences writes.

A process that claims a table adds one to its ``owner_epoch``; every write of the table's owner
checks it in the same transaction (``Store.fence``), so a stale owner's writes are refused.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("owner_epoch", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("owner_epoch")
