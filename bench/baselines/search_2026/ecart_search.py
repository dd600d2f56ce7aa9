"""The écart by simulation: a few candidate écarts, each played out in the same sampled worlds.

The candidates follow the heuristic's rules (``evaluation.ecart_choice``) with variations: every
set of suits that can be voided, filled three ways (the heuristic's order, points first, the
smallest cards of the shortest suits); the heuristic's own écart always among them. When R11
forces trumps, every allowed plain card goes in and the trumps shown vary (lowest, highest).
All are legal by construction: cards of ``EcartOptions.allowed`` only (no king, no oudler, not
the called card), trumps only as many as needed.

Each candidate is scored by ``rollout.start_play`` + ``taker_score`` in worlds from
``opening.sample_opening`` (the defenders' hands consistent with the view and the bids); the
heuristic's écart is kept unless another beats it by ``Z`` standard errors (``Estimates``).
"""

from __future__ import annotations

import random
from itertools import combinations

from tarot.engine import View
from tarot.engine.cards import HALF_POINTS, SUIT_MASKS, TRUMPS, cards_of

from .evaluation import discard_value, ecart_choice, ecart_score  # the heuristic's own scales
from .opening import MIN_WORLDS, Budget, Estimates, estimate
from .rollout import start_play

MAX_CANDIDATES = 6  # the best by the heuristic's own score: the budget buys more worlds for them
Z = 1.0  # standard errors by which a candidate must beat the heuristic's écart


def ecart_candidates(hand: int, size: int, allowed: int, trumps_needed: int) -> list[int]:
    """Distinct legal écarts (masks), the heuristic's first, then by the heuristic's score."""
    heuristic = ecart_choice(hand, size, allowed, trumps_needed)
    if trumps_needed:
        plain = allowed & ~TRUMPS
        trumps = cards_of(allowed & TRUMPS)
        shown = [trumps[:trumps_needed], trumps[-trumps_needed:]]
        options = [plain | sum(1 << c for c in t) for t in shown]
        return list(dict.fromkeys([heuristic, *options]))
    by_suit = [allowed & SUIT_MASKS[s] for s in range(4)]
    orders = (
        lambda c: (-discard_value(hand, c), c),  # the heuristic's
        lambda c: (-HALF_POINTS[c], (hand & SUIT_MASKS[c // 14]).bit_count(), c),  # points first
        lambda c: ((hand & SUIT_MASKS[c // 14]).bit_count(), c),  # small cards of short suits
    )
    found: set[int] = set()
    for k in range(5):
        for suits in combinations(range(4), k):
            voided = 0
            for s in suits:
                voided |= by_suit[s]
            if voided.bit_count() > size:
                continue
            rest = [c for c in range(56) if (allowed & ~voided) >> c & 1]
            for order in orders:
                fill = sorted(rest, key=order)[: size - voided.bit_count()]
                mask = voided | sum(1 << c for c in fill)
                if mask.bit_count() == size:
                    found.add(mask)
    found.discard(heuristic)
    ranked = sorted(found, key=lambda m: (-ecart_score(hand, m), m))
    return [heuristic, *ranked[: MAX_CANDIDATES - 1]]


def estimate_ecarts(view: View, candidates: list[int], rng: random.Random, budget: Budget) -> Estimates:
    """The taker's score for each candidate écart in each sampled world."""
    taker, contract = view.taker, view.contract
    assert taker is not None and contract is not None
    called = int(view.called) if view.called is not None else None
    return estimate(view, candidates, rng, budget,
                    lambda world, ecart: start_play(world, taker, contract, called, ecart))


def search_ecart(view: View, rng: random.Random, budget: Budget,
                 z: float = Z) -> tuple[int, Estimates | None] | None:
    """The écart (a mask) to discard and the estimates it was chosen by (None: the only
    candidate), or None when too few consistent worlds were found (the hint's figures too)."""
    options = view.ecart_options
    assert options is not None
    candidates = ecart_candidates(view.hand.mask, options.size, options.allowed_mask, options.trumps_needed)
    if len(candidates) == 1:
        return candidates[0], None
    estimates = estimate_ecarts(view, candidates, rng, budget)
    if estimates.worlds < MIN_WORLDS:
        return None
    return estimates.best_over(candidates[0], z), estimates


def choose_ecart(view: View, rng: random.Random, budget: Budget, z: float = Z) -> int | None:
    """The écart (a mask) to discard, or None when too few consistent worlds were found."""
    found = search_ecart(view, rng, budget, z)
    return None if found is None else found[0]
