"""The expert's review (issue 35): how long a deal takes, and whether its losses mean something.

    python bench/review.py --deals 20

1. **Time**: seconds to review a whole 4-player deal (heuristic bots everywhere) at the default
   budget (``tarot review``'s ``--playouts``), and the decisions in it.
2. **Calibration**: on the same seeded deals at 4 players, seat 1 played by the random bot, the
   heuristic, or the search bot (another seed than the review's), the other seats by the
   heuristic; the mean loss per decision of seat 1 with a 95% confidence interval (over the
   deals). The random bot should lose far more than the heuristic, and the search bot's own
   moves less than the heuristic's.
"""

from __future__ import annotations

import argparse
import statistics
import time

from tarot.bots import build_bot
from tarot.bots.review import DEFAULT_PLAYOUTS, ReviewSettings, review_deal
from tarot.bots.runner import play_deal
from tarot.engine import NATIVE, Deal, DealRecord


def record(players: int, seed: int, seat_bot: str, seat: int = 1) -> DealRecord:
    bots = [build_bot(seat_bot if s == seat else "heuristic", seed * 10 + s + 1000, None)
            for s in range(players)]
    return DealRecord.from_deal(play_deal(Deal.new(players, dealer=seed % players, seed=seed), bots))


def mean_ci(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else float("nan")
    return f"{m:6.2f} [{m - half:6.2f}, {m + half:6.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="seeded deals for the calibration")
    parser.add_argument("--timed", type=int, default=3, help="deals timed at the default budget")
    parser.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS)
    args = parser.parse_args()
    settings = ReviewSettings(playouts=args.playouts)
    print(f"engine core: {'native' if NATIVE else 'pure'}; budget {args.playouts} playouts a decision")

    times, counts = [], []
    for seed in range(1, args.timed + 1):
        rec = record(4, seed, "heuristic")
        start = time.perf_counter()
        review = review_deal(rec, settings)
        times.append(time.perf_counter() - start)
        counts.append(len(review.decisions))
    print(f"review of a 4-player deal: {statistics.fmean(times):.1f} s "
          f"(max {max(times):.1f} s), {statistics.fmean(counts):.0f} decisions")

    print(f"seat 1's mean loss per decision over {args.deals} deals [95% CI], the others heuristic:")
    for bot in ("random", "heuristic", "search"):
        losses = []
        for seed in range(1, args.deals + 1):
            review = review_deal(record(4, seed, bot), settings, seats=(1,))
            if review.seats[1].decisions:
                losses.append(review.seats[1].mean_loss)
        print(f"  {bot:10s} {mean_ci(losses)}")


if __name__ == "__main__":
    main()
