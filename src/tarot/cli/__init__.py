"""The ``tarot`` command line: the typer application (``app``), the terminal game and its
rendering, the score tables and the command line's texts in French and English. Nothing outside
this package imports it (tests/test_layering.py)."""

from .commands import app

__all__ = ["app"]
