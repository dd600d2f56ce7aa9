"""Fit the model of how the other seats bid (``tarot.bots.bid_inference``) on self-play bids.

    python tools/fit_bid_policy.py --deals 20000 --seed 1     # needs numpy (the research extra)

For each player count, ``--deals`` seeded deals are bid round the table by seats that each bid
in one of the two styles of the site's club robots, drawn per seat: the learned model
(``bid_model.best_bid``, the heuristic's bids) or the club scale (``bidding.heuristic_bid``, the
frozen 2026 heuristic's). Every bid that had a choice is a row: the hand's features
(``bid_inference.FEATURES``), the legal bids, the bid made. A softmax over the legal bids (pass's
logit 0, the others linear in the features) is fitted by Newton's method on the L2-penalized
log-likelihood, on all but the last fifth of the deals; the last fifth is held out and its
log-loss and accuracy printed. The weights go to ``src/tarot/bots/data/bid_policy.json``, which
the bots read without numpy. The same seed gives the same file.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

from tarot.bots.arena import derive_seed
from tarot.bots.bid_inference import CHOICES, FEATURES, hand_features
from tarot.bots.bid_model import best_bid
from tarot.bots.bidding import heuristic_bid
from tarot.engine import Bid, Contract, Deal, Phase

OUT = Path(__file__).resolve().parents[1] / "src" / "tarot" / "bots" / "data" / "bid_policy.json"
PENALTY = 1.0  # L2 on the weights (the intercept's too: the data are nearly separable)
STYLES = (best_bid, heuristic_bid)
Rows = tuple[np.ndarray, np.ndarray, np.ndarray]  # features, legal (0/1), the bid's index


def records(players: int, seed: int, deals: int) -> Rows:
    """The bids with a choice of ``deals`` seeded deals, each seat bidding in a style drawn."""
    x: list[tuple[float, ...]] = []
    legal: list[list[int]] = []
    chosen: list[int] = []
    for index in range(deals):
        deal = Deal.new(players, index % players, seed=derive_seed(seed, index, "fit-bid-policy", players))
        styles = random.Random(derive_seed(seed, index, "fit-bid-policy-styles", players)).choices(
            STYLES, k=players)
        while deal.phase is Phase.BIDDING:
            seat = deal.turn
            assert seat is not None
            hand = deal.hands[seat]
            highest = deal.high_bid
            bid = styles[seat](hand, players, highest)
            mask = [int(c is None or highest is None or c > highest) for c in CHOICES]
            if sum(mask) > 1:
                x.append(hand_features(hand))
                legal.append(mask)
                chosen.append(CHOICES.index(bid))
            deal.apply(Bid(seat, bid))
    return np.array(x), np.array(legal, dtype=float), np.array(chosen)


def probabilities(w: np.ndarray, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Each row's softmax over its legal bids (``w``: a row of weights a contract)."""
    logits = np.concatenate([np.zeros((len(x), 1)), x @ w.T], axis=1)
    logits = np.where(legal > 0, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def fit(x: np.ndarray, legal: np.ndarray, chosen: np.ndarray, iterations: int = 30) -> np.ndarray:
    """The penalized maximum-likelihood weights, by Newton's method (choices but the first ×
    features; the first choice's logit is 0). ``legal``'s columns are the choices (the bids here;
    two columns make it a logistic regression: ``tools/bid_frontier.py``)."""
    k, d = legal.shape[1] - 1, x.shape[1]
    w = np.zeros((k, d))
    target = np.eye(legal.shape[1])[chosen][:, 1:]
    for _ in range(iterations):
        p = probabilities(w, x, legal)[:, 1:]
        gradient = (p - target).T @ x + PENALTY * w  # (k, d)
        # Hessian of the softmax's negative log-likelihood: Σ (diag p − p pᵀ) ⊗ x xᵀ
        a = np.einsum("ni,ij->nij", p, np.eye(k)) - np.einsum("ni,nj->nij", p, p)
        hessian = np.einsum("nij,nk,nl->ikjl", a, x, x, optimize=True).reshape(k * d, k * d)
        hessian += PENALTY * np.eye(k * d)
        step = np.linalg.solve(hessian, gradient.reshape(-1)).reshape(k, d)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return w


def report(w: np.ndarray, x: np.ndarray, legal: np.ndarray, chosen: np.ndarray) -> tuple[float, float]:
    """The mean log-loss and the accuracy of ``w`` on rows."""
    p = probabilities(w, x, legal)
    loss = float(-np.log(p[np.arange(len(x)), chosen] + 1e-12).mean())
    return loss, float((p.argmax(axis=1) == chosen).mean())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20000, help="deals a player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    model: dict[str, dict[str, list[float]]] = {}
    for n in args.players:
        x, legal, chosen = records(n, args.seed, args.deals)
        cut = len(x) * 4 // 5
        w = fit(x[:cut], legal[:cut], chosen[:cut])
        loss, accuracy = report(w, x[cut:], legal[cut:], chosen[cut:])
        base = np.bincount(chosen[:cut], minlength=len(CHOICES)) / cut
        print(f"players={n} bids={len(x)} held_out={len(x) - cut} log_loss={loss:.3f} "
              f"accuracy={accuracy:.3f} bids_made={' '.join(f'{b:.3f}' for b in base)}", flush=True)
        model[str(n)] = {c.name: [round(float(v), 5) for v in w[i]] for i, c in enumerate(Contract)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"features": list(FEATURES), "deals": args.deals, "seed": args.seed,
                                    "weights": model}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
