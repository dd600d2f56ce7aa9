"""``python -m tarot.cli``: the ``tarot`` command."""

from .commands import app

app()
