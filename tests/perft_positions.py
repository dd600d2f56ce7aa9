"""Build tests/data/perft.json: fixed seeded positions and their perft counts.

    python tests/perft_positions.py    # only when move generation is meant to change

The positions are stored as partial tarot-deal/1 records, so the data does not depend on how
they were found.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from playing import random_action
from tarot.engine import Chelem, Deal, DealRecord, Phase

DATA = Path(__file__).parent / "data" / "perft.json"
# (players, seed, cards left in the deal when the position is taken, depth)
SPECS = [(3, 1, 12, 12), (3, 2, 72, 4), (4, 3, 12, 12), (4, 4, 16, 8), (4, 5, 72, 5),
         (5, 6, 15, 15), (5, 7, 75, 5), (5, 8, 10, 10)]


def perft(deal: Deal, depth: int) -> int:
    if depth == 0 or deal.is_over:
        return 1
    total = 0
    for action in deal.legal_actions():
        child = deal.copy()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def position(players: int, seed: int, left: int) -> Deal:
    rng = random.Random(seed)
    for k in range(100):
        deal = Deal.new(players, seed % players, seed=seed * 1000 + k)
        while not deal.is_over and (deal.phase is not Phase.PLAY
                                    or sum(h.bit_count() for h in deal.hands) > left):
            deal.apply(random_action(deal, rng))
        if not deal.is_over:
            return deal
    raise RuntimeError("no position")


def main() -> None:
    out = []
    for players, seed, left, depth in SPECS:
        deal = position(players, seed, left)
        record = DealRecord.from_deal(deal).to_dict()
        if deal.phase is Phase.ANNOUNCE:
            deal.apply(Chelem(deal.taker, False))  # type: ignore[arg-type]
        counts = [perft(deal, d) for d in range(1, depth + 1)]
        out.append({"players": players, "record": record, "counts": counts})
        print(players, seed, counts)
    DATA.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
