"""The search bot with the last tricks of every playout played exactly (``tarot.bots.endgame``),
as arena plug-ins, to measure what the exact end is worth against the search as shipped:

    PYTHONPATH=. tarot arena --players 4 --deals 100 --candidate bench.endgame_search:Solve2 \\
        --baseline search --think 0.1 --seed 1 --jobs 1

Each is calibrated for its own playouts (``calibrate.costs(solve)``): the exact end costs time,
so at one think time it gets fewer playouts than the baseline.
"""

from __future__ import annotations

from typing import Any

from tarot.bots.search import SearchBot


class Solve2(SearchBot):
    """The last 2 tricks of each playout solved exactly."""

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        super().__init__(seed, solve=2, **options)


class Solve3(SearchBot):
    """The last 3 tricks of each playout solved exactly."""

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        super().__init__(seed, solve=3, **options)
