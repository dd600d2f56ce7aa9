"""Alembic environment: the URL comes from the config set by ``tarot.server.store.store.migrate``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool

from tarot.server.store.schema import Base

config = context.config
target_metadata = Base.metadata


def run_migrations_online() -> None:
    url = config.get_main_option("sqlalchemy.url")
    assert url is not None
    engine = create_engine(url, poolclass=pool.NullPool)
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


run_migrations_online()
