"""The search on a fifth of the budget it is given: ``tarot arena --candidate search --baseline
bench.baselines.budget:SearchFifth --playouts 3000`` plays the search at 3,000 playouts a decision
against itself at 600 (``--think 0.5``: 0.5 s against 0.1 s), so that "does five times the
thinking help?" (issue 37) is one duplicate match on the same deals, reproducible with
``--playouts``."""

from __future__ import annotations

from typing import Any

from tarot.bots.search import SearchBot

SHARE = 5  # the baseline thinks a fifth of what the candidate does


class SearchFifth(SearchBot):
    """``SearchBot`` with a fifth of the commands' ``--think`` / ``--playouts``."""

    name = "search/5"

    def __init__(self, seed: int | None = None, think: float = 0.5, playouts: int | None = None,
                 **options: Any) -> None:
        super().__init__(seed, think=think / SHARE,
                         playouts=None if playouts is None else max(1, playouts // SHARE), **options)
