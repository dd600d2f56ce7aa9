"""The 5-player call by simulation: each callable card (R8: the kings, or the next rank when the
taker holds all of them) played out in the same sampled worlds.

In a world (``opening.sample_opening``: the other hands and the hidden chien consistent with the
view and the bids) the call decides who the partner is, then the taker takes the chien and
discards as the heuristic would (``rollout.start_play``), and the deal is played out. The
heuristic's call is kept unless another beats it by ``Z`` standard errors (``Estimates``).
"""

from __future__ import annotations

import random

from tarot.engine import Call, View

from .evaluation import call_choice
from .opening import MIN_WORLDS, Budget, Estimates, estimate
from .rollout import start_play

Z = 1.0  # standard errors by which a call must beat the heuristic's


def estimate_calls(view: View, candidates: list[int], rng: random.Random, budget: Budget) -> Estimates:
    """The taker's score for each callable card in each sampled world."""
    contract = view.contract
    assert contract is not None
    return estimate(view, candidates, rng, budget,
                    lambda world, card: start_play(world, view.seat, contract, card))


def choose_call(view: View, rng: random.Random, budget: Budget, z: float = Z) -> int | None:
    """The card to call, or None when too few consistent worlds were found."""
    candidates = [int(a.card) for a in view.legal if isinstance(a, Call)]
    heuristic = call_choice(view.hand.mask, candidates)
    if len(candidates) == 1:
        return candidates[0]
    # the heuristic's call first: the default, and the tie-break
    candidates = [heuristic, *(c for c in candidates if c != heuristic)]
    estimates = estimate_calls(view, candidates, rng, budget)
    if estimates.worlds < MIN_WORLDS:
        return None
    return estimates.best_over(heuristic, z)
