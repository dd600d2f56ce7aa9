"""The web server: FastAPI app, one asyncio actor per table, SQLAlchemy store (see docs/protocol.md)."""

from .web.app import create_app

__all__ = ["create_app"]
