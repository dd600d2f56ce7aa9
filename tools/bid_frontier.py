"""How often can a heuristic taker make its contracts, at a given taking rate? The frontier of
the issue's targets for the heuristic's bids (issue 37: prises made 70%, gardes 85%, a taking
rate not below 18.7%).

    python tools/bid_frontier.py --hands 20000 --seed 7 --jobs 2     # needs numpy (the research extra)

The deals of ``tools/fit_bids.py`` (one seat, within ``bid_model.FLOOR`` of the scale's prise,
takes a prise while the others pass; every seat then plays as the heuristic). A logistic model of
"made" on the hand's shape (``bid_model.features``) is fitted by Newton's method on the first
half of the hands and ranks the second half; for each share of the hands taken (the best-ranked
first) it prints the share made, and that of the last third taken (the hands a prise would get if
the better ones were gardes). No bid rule on these features can do better than the ranking by
the fitted probability, up to the fit's own error.
"""

from __future__ import annotations

import argparse
import sys
from multiprocessing import Pool

import numpy as np
from fit_bid_policy import fit
from fit_bids import outcomes

from tarot.engine import Contract

SHARES = (0.10, 0.20, 0.30, 0.37, 0.45, 0.55)


def logistic(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """L2-penalized logistic regression (the bid policy's fit with two choices, "down" and
    "made"): the weights of "made"'s logit."""
    return fit(x, np.ones((len(x), 2)), y.astype(int))[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000, help="deals a player count")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--players", type=int, nargs="*", default=[4])
    args = parser.parse_args()
    with Pool(args.jobs) as pool:
        for n in args.players:
            tasks = [(n, args.seed, i) for i in range(args.hands)]
            rows = [r for chunk in pool.map(outcomes, tasks, chunksize=50) for r in chunk
                    if r[1] == Contract.PRISE]
            x = np.array([r[0] for r in rows], dtype=float)
            y = np.array([r[3] for r in rows], dtype=float)
            half = len(rows) // 2
            w = logistic(x[:half], y[:half])
            p = 1.0 / (1.0 + np.exp(-x[half:] @ w))
            made = y[half:][np.argsort(-p)]
            print(f"players={n} hands={len(rows)} (of {args.hands}: the rest pass without the "
                  f"model) made_if_all_take={y.mean():.3f}")
            for share in SHARES:
                k = int(share * len(made))
                print(f"  take the best {share:.0%} of them: made {made[:k].mean():.3f}, "
                      f"the last third of those {made[2 * k // 3:k].mean():.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
