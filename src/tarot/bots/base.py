"""The bot interface: a bot sees one seat's view (never a hidden card) and returns an action.

A view carries everything the seat may know plus, on its turn, its legal options:
``view.legal`` (bids, calls, chelem choices, cards), ``view.ecart_options`` and
``view.poignee_options``. A bot returns one action per call; to show a poignée it returns the
``Poignee`` first and is asked again for its card. Given the same seed a bot makes the same
choices (bots with a time budget: see ``SearchBot``).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from tarot.engine import Action, View


class Bot:
    """Base class. Subclasses set ``name`` and implement :meth:`act`."""

    name: ClassVar[str] = "bot"

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        if options:
            raise TypeError(f"{type(self).__name__} has no option {', '.join(sorted(options))}")
        self.seed = seed
        self.rng = random.Random(seed)

    def act(self, view: View) -> Action:
        """The action to take for ``view.seat``, which is the seat to act."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed}>"
