"""Fit the bid model (``tarot.bots.bid_model``) from outcomes: what each contract is worth.

    python tools/fit_bids.py --hands 40000 --seed 1 --jobs 2     # needs numpy (the research extra)

For each player count, ``--hands`` seeded deals: one seat (turning round the table), if its hand
is within ``bid_model.FLOOR`` of the heuristic's scale for a prise, takes each of the four
contracts in turn while the others pass, and every seat then plays the deal as the
heuristic does (its écart, call, poignées and cards). The taker's score is regressed, per player
count and contract, on the hand's shape (``bid_model.features``) by ridge least squares; the
weights go to ``src/tarot/bots/data/bid_model.json``, which the bots read without numpy. The same
seed gives the same file. It prints, per player count and contract, the deals, the share made,
the mean score and the fit's R².
"""

from __future__ import annotations

import argparse
import json
import sys
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from tarot.bots.arena import derive_seed
from tarot.bots.bid_model import FEATURES, FLOOR, features
from tarot.bots.evaluation import THRESHOLDS, hand_points
from tarot.bots.heuristic import HeuristicBot
from tarot.bots.runner import play_deal
from tarot.engine import Bid, Contract, Deal, Phase

OUT = Path(__file__).resolve().parents[1] / "src" / "tarot" / "bots" / "data" / "bid_model.json"
RIDGE = 1.0  # (in the units of the scores, which run to hundreds: a light hand on the weights)


def outcomes(task: tuple[int, int, int]) -> list[tuple[tuple[int, ...], int, int, bool]]:
    """One hand taken at each contract: (its features, the contract, the taker's score, made)."""
    players, seed, index = task
    dealer = index % players
    taker = (dealer + 1 + index // players) % players
    deal_seed = derive_seed(seed, index, "fit-bids", players)
    dealt = Deal.new(players, dealer, seed=deal_seed)
    if dealt.phase is not Phase.BIDDING:
        return []  # annulled as dealt (a petit sec): no bid
    hand = dealt.view(taker).hand.mask
    if hand_points(hand) < THRESHOLDS[players][0] - FLOOR:
        return []  # a hand the heuristic passes without asking the model: not fitted
    rows = []
    for contract in Contract:
        deal = dealt.copy()
        while deal.phase is Phase.BIDDING:
            seat = deal.turn
            assert seat is not None
            deal.apply(Bid(seat, contract if seat == taker else None))
        bots = [HeuristicBot(seed=derive_seed(seed, index, "fit-bids-bot", s)) for s in range(players)]
        play_deal(deal, bots)
        score = deal.result().score
        assert score is not None and score.taker == taker
        rows.append((features(hand), int(contract), score.scores[taker], bool(score.made)))
    return rows


def fit(x: np.ndarray, y: np.ndarray) -> tuple[list[float], float]:
    """Ridge least squares (the intercept unpenalized): the weights and R²."""
    penalty = RIDGE * np.eye(x.shape[1])
    penalty[0, 0] = 0.0
    w = np.linalg.solve(x.T @ x + penalty, x.T @ y)
    residual = y - x @ w
    r2 = 1.0 - float(residual @ residual) / float(((y - y.mean()) ** 2).sum())
    return [round(float(v), 4) for v in w], r2


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40000, help="deals a player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    model: dict[str, dict[str, list[float]]] = {}
    with Pool(args.jobs) as pool:
        for n in args.players:
            tasks = [(n, args.seed, i) for i in range(args.hands)]
            rows = [r for chunk in pool.map(outcomes, tasks, chunksize=50) for r in chunk]
            model[str(n)] = {}
            for contract in Contract:
                mine = [r for r in rows if r[1] == contract]
                x = np.array([r[0] for r in mine], dtype=float)
                y = np.array([r[2] for r in mine], dtype=float)
                w, r2 = fit(x, y)
                model[str(n)][contract.name] = w
                made = sum(r[3] for r in mine) / len(mine)
                print(f"players={n} contract={contract.name} deals={len(mine)} made={made:.3f} "
                      f"mean_score={y.mean():.1f} r2={r2:.3f}", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"features": list(FEATURES), "hands": args.hands, "seed": args.seed,
                                    "weights": model}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
