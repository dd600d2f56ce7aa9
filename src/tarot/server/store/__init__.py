"""The database: the store (SQLAlchemy, group commit, the owner's fence), its schema and its
migrations (Alembic)."""
