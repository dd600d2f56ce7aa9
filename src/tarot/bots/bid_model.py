"""What a contract is worth to the hand that takes it, learned from outcomes (issue 37).

``tools/fit_bids.py`` plays many deals in which one seat takes each contract in turn (the others
pass) and every seat then plays as the heuristic does, and fits, per player count and contract,
a linear model of the taker's score on the hand's shape (``features``). The weights are shipped
as data (``data/bid_model.json``) and read here with the standard library only (the bots import
no numpy). ``expected_scores(hand, players)`` is each contract's expected score for the taker, and
``best_bid`` the heuristic's bid: the contract of highest expected score, when it is positive.

Measured in duplicate against the club scale it replaces (docs/bots.md, "Bids learned from
outcomes"): the scale's prises made 55% at 4 players; the model takes gardes where they pay.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from tarot.engine import Contract
from tarot.engine.cards import EXCUSE_BIT, KINGS, PETIT_BIT, SUIT_MASKS, TRUMPS

from .evaluation import OUDLER_BITS, T21_BIT, THRESHOLDS, hand_points

HIGH_TRUMPS = sum(1 << c for c in range(71, 77))  # T16…T21
QUEENS = KINGS >> 1
FLOOR = 12  # hands this far below the heuristic's scale for a prise pass without the model
FEATURES = ("one", "trumps", "high_trumps", "oudlers_1", "oudlers_2", "oudlers_3", "t21", "excuse",
            "petit", "petit_guarded", "kings", "queens", "long", "voids", "singletons")


def features(hand: int) -> tuple[int, ...]:
    """The hand's shape, as the model reads it (``FEATURES``, in that order)."""
    trumps = (hand & TRUMPS).bit_count()
    oudlers = (hand & OUDLER_BITS).bit_count()
    lengths = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]
    return (1, trumps, (hand & HIGH_TRUMPS).bit_count(), int(oudlers == 1), int(oudlers == 2),
            int(oudlers == 3), int(bool(hand & T21_BIT)), int(bool(hand & EXCUSE_BIT)),
            int(bool(hand & PETIT_BIT)), int(bool(hand & PETIT_BIT) and trumps >= 6),
            (hand & KINGS).bit_count(), (hand & QUEENS).bit_count(),
            sum(max(0, n - 4) for n in lengths), lengths.count(0), lengths.count(1))


@cache
def weights() -> dict[int, dict[Contract, tuple[float, ...]]]:
    """Per player count and contract, the model's weights (``FEATURES``' order)."""
    raw = json.loads(resources.files("tarot.bots").joinpath("data/bid_model.json").read_text("utf-8"))
    if tuple(raw["features"]) != FEATURES:
        raise ValueError("data/bid_model.json was fitted on other features: run tools/fit_bids.py")
    return {int(n): {Contract[name]: tuple(w) for name, w in by_contract.items()}
            for n, by_contract in raw["weights"].items()}


def expected_scores(hand: int, players: int) -> dict[Contract, float]:
    """Each contract's expected score for the seat holding ``hand`` if it takes it."""
    shape = features(hand)
    return {contract: sum(w * x for w, x in zip(ws, shape, strict=True))
            for contract, ws in weights()[players].items()}


def best_bid(hand: int, players: int, highest: Contract | None) -> Contract | None:
    """The contract above ``highest`` with the highest expected score, if that score is positive;
    None: pass. A hand ``FLOOR`` below the club scale's prise passes without the model (it was
    fitted on the others)."""
    if hand_points(hand) < THRESHOLDS[players][0] - FLOOR:
        return None
    expected = expected_scores(hand, players)
    options = [c for c in Contract if highest is None or c > highest]
    if not options:
        return None
    best = max(options, key=lambda c: (expected[c], -c))
    return best if expected[best] > 0 else None
