"""How likely the other seats' bids were, hand by hand: the card search's worlds weighed by what
was seen (issue 37).

A seat that took a garde holds, more often than not, a hand worth a garde; a seat that passed
rarely holds three oudlers. The card search draws the hidden cards uniformly among the deals
consistent with the play (``sampler``), which ignores this. ``BidLikelihood(view)`` gives each
drawn world the probability that the other seats would have bid as they did, holding the hands
that world deals them; the search weighs the world's playouts by it (importance sampling), so
worlds where the taker holds a hand no one would take with count for little.

The model of a bid is a softmax over the legal bids (pass, prise, garde, garde sans, garde contre)
whose logits are linear in the hand's shape (``bid_model.features`` and its points on the club
scale), the pass's logit 0. ``tools/fit_bid_policy.py`` fits it (numpy) on the bids of the bots'
own self-play: tables whose seats bid by the learned model (``bid_model.best_bid``, the
heuristic's) or by the club scale (``bidding.heuristic_bid``, the frozen 2026 heuristic's), the
two styles a club robot here bids in. The weights are shipped as data
(``data/bid_policy.json``) and read with the standard library only.

Every probability is mixed with the uniform choice among the legal bids (``FLOOR``): a model
fitted on robots must not rule out a human's bid.
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources

from tarot.engine import Contract, View

from .bid_model import FEATURES as SHAPE_FEATURES
from .bid_model import features as shape
from .evaluation import hand_points

FEATURES = (*SHAPE_FEATURES, "points")
CHOICES: tuple[Contract | None, ...] = (None, *Contract)  # pass first: its logit is 0
FLOOR = 0.05  # the share of the uniform choice in every probability
POINTS_SCALE = 0.1  # the club scale's points enter the model in tenths


def hand_features(hand: int) -> tuple[float, ...]:
    """The model's inputs (``FEATURES``): the shape, then the club scale's points in tenths."""
    return (*shape(hand), hand_points(hand) * POINTS_SCALE)


@cache
def weights() -> dict[int, tuple[tuple[float, ...], ...]]:
    """Per player count, each contract's weights (``FEATURES``' order), prise first."""
    raw = json.loads(resources.files("tarot.bots").joinpath("data/bid_policy.json").read_text("utf-8"))
    if tuple(raw["features"]) != FEATURES:
        raise ValueError("data/bid_policy.json was fitted on other features: run tools/fit_bid_policy.py")
    return {int(n): tuple(tuple(by_contract[c.name]) for c in Contract)
            for n, by_contract in raw["weights"].items()}


def bid_probabilities(hand: int, players: int, highest: Contract | None) -> dict[Contract | None, float]:
    """The chance of each legal bid (pass and the contracts above ``highest``) with ``hand``."""
    legal = [i for i, c in enumerate(CHOICES) if c is None or highest is None or c > highest]
    probs = _probabilities(hand_features(hand), weights()[players], legal)
    return {CHOICES[i]: p for i, p in zip(legal, probs, strict=True)}


def _probabilities(x: tuple[float, ...], w: tuple[tuple[float, ...], ...],
                   legal: list[int]) -> list[float]:
    logits = [0.0 if i == 0 else sum(a * b for a, b in zip(w[i - 1], x, strict=True)) for i in legal]
    top = max(logits)
    exps = [math.exp(v - top) for v in logits]
    total = sum(exps)
    uniform = FLOOR / len(legal)
    return [(1 - FLOOR) * e / total + uniform for e in exps]


class BidLikelihood:
    """``likelihood(dealt)``: the chance that the seats other than the view's bid as they did,
    holding the hands ``dealt`` (a world's hands as dealt, ``Deal.dealt``)."""

    def __init__(self, view: View) -> None:
        self.model = weights()[view.players]
        self.turns: list[tuple[int, int, list[int]]] = []  # (seat, its bid's index, the legal)
        highest: Contract | None = None
        for seat, bid in view.bids:
            legal = [i for i, c in enumerate(CHOICES) if c is None or highest is None or c > highest]
            if seat != view.seat and len(legal) > 1:
                self.turns.append((seat, legal.index(CHOICES.index(bid)), legal))
            if bid is not None:
                highest = bid

    def __call__(self, dealt: tuple[int, ...] | list[int]) -> float:
        likelihood = 1.0
        model = self.model
        for seat, chosen, legal in self.turns:
            likelihood *= _probabilities(hand_features(dealt[seat]), model, legal)[chosen]
        return likelihood
