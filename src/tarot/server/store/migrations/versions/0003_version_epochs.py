"""Table versions in 64 bits: a restore starts a new epoch of 2**32 versions (table.EPOCH).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.alter_column("version", type_=sa.BigInteger, existing_type=sa.Integer, existing_nullable=False)
    with op.batch_alter_table("actions") as batch:
        batch.alter_column("table_version", type_=sa.BigInteger, existing_type=sa.Integer,
                           existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.alter_column("table_version", type_=sa.Integer, existing_type=sa.BigInteger,
                           existing_nullable=False)
    with op.batch_alter_table("tables") as batch:
        batch.alter_column("version", type_=sa.Integer, existing_type=sa.BigInteger, existing_nullable=False)
