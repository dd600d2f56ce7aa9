"""The search bot as it was when issue 37 was filed (commit fd7a0bd, 2026-11-28), frozen as a
baseline: ``bench.baselines.search_2026:Search2026``.

A true freeze: its own copies of that day's search, sampler, worlds, bidding, écart and poignée
searches, heuristic (the club scale's bids), rollout policy and playout kernel (``_playout.pyx``,
compiled on first use by ``pyximport``; the pure board serves where it cannot be, with the same
choices), so later changes to ``tarot.bots`` do not move it. Only the engine (the rules) and the
bot interface are shared. Its budget is frozen too: by default the playout counts that day's
calibration gives for 0.5 s on the project's machine (``search.FROZEN_COSTS``, measured on
2026-11-29), whatever the machine, no clock; ``--think`` scales them, ``--playouts N`` is that
day's fixed budget. From the repository root:

    PYTHONPATH=. tarot arena --players 4 --deals 500 --candidate search \\
        --baseline bench.baselines.search_2026:Search2026 --seed 1 --jobs 2
"""

from __future__ import annotations

from .search import SearchBot


class Search2026(SearchBot):
    """The frozen search of 2026-11-28."""

    name = "search-2026"
    takes_budget = True  # --think and --playouts reach it (tarot.bots.registry.bot_options)


__all__ = ["Search2026"]
