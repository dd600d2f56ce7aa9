"""An account's display options (issue 33: the cards' size, a four-colour deck, a card confirmed
before it is played on a touch screen, a forced card played by itself), as the site's JSON; None
until the player sets one.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("prefs", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("prefs")
