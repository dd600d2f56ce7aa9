"""The search bot with the last tricks of every playout played exactly (``tarot.bots.endgame``),
as arena plug-ins, to measure what the exact end is worth against the search as shipped:

    PYTHONPATH=. tarot arena --players 4 --deals 100 --candidate bench.endgame_search:Solve2 \\
        --baseline search --think 0.1 --seed 1 --jobs 1

Each is calibrated for its own playouts (``calibrate.costs(solve)``): the exact end costs time,
so at one think time it gets fewer playouts than the baseline. What a playout costs with its
last 0, 2, 3 tricks solved (native kernel, sampled worlds of heuristic deals, every legal card):

    python bench/endgame_search.py [--players 4] [--worlds 150]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from tarot.bots.heuristic import HeuristicBot
from tarot.bots.knowledge import knowledge_of
from tarot.bots.playout import Board
from tarot.bots.sampler import sample_world
from tarot.bots.search import SearchBot
from tarot.engine import Deal, Phase


class Solve2(SearchBot):
    """The last 2 tricks of each playout solved exactly."""

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        super().__init__(seed, solve=2, **options)


class Solve3(SearchBot):
    """The last 3 tricks of each playout solved exactly."""

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        super().__init__(seed, solve=3, **options)


def main() -> None:
    parser = argparse.ArgumentParser(description="µs a playout with its last tricks solved exactly")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--worlds", type=int, default=150)
    args = parser.parse_args()
    rng = random.Random(1)
    worlds: list[Deal] = []
    seed = 0
    while len(worlds) < args.worlds:
        seed += 1
        deal = Deal.new(args.players, seed % args.players, seed=seed)
        bots = [HeuristicBot(seed=seed * 10 + s) for s in range(args.players)]
        while deal.phase is not Phase.DONE:
            seat = deal.turn
            assert seat is not None
            view = deal.view(seat)
            if deal.phase is Phase.PLAY and len(view.legal) > 1 and rng.random() < 0.3:
                world = sample_world(view, knowledge_of(view), rng)
                if world is not None:
                    worlds.append(world)
            deal.apply(bots[seat].act(view))
    for solve in (0, 2, 3, 0):  # 0 again: the first round warms up
        n = 0
        start = time.perf_counter()
        for world in worlds:
            board = Board(world, solve)
            legal = board.legal()
            for c in range(78):
                if legal >> c & 1:
                    board.after(c)
                    n += 1
        spent = time.perf_counter() - start
        print(f"players={args.players} solve={solve} us_per_playout={spent / n * 1e6:.2f}")


if __name__ == "__main__":
    main()
