"""Worlds for the taker's decisions between the bidding and the first card (the 5-player call,
the écart), and the play-out that scores one choice in one world.

At the call or the écart the taker knows its dealt hand, the bids and, at the écart, the chien.
``sample_opening`` deals the other hands (and the hidden chien, at the call) uniformly among those
consistent with that: no petit sec (R6) and each other bidder's hand one the heuristic bidder would
have bid the same way with (``bidding.bid_evidence``), by rejection, as the bidding search does.
``rollout.start_play`` sets such a world at its first card with the call and the écart given (the
heuristic's for whichever is not), and ``taker_score`` plays it out with the fast policy.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from tarot.engine import Deal, View
from tarot.engine.rules import variant

from .bidding import ATTACK_CORRECTION, DRAWS_PER_WORLD, BidCosts, bid_evidence
from .playout import Board, score_args, score_of
from .sampler import sample_before_play

ATTACK = 0  # ``Deal.side`` of the attack
MIN_WORLDS = 8  # below this many consistent worlds, the heuristic decides instead


@dataclass(frozen=True)
class Budget:
    """The work a decision may do, in the bidding search's units (``calibrate``): ``units`` in
    all, a drawn hand and a whole deal at ``costs``; ``deadline`` (``time.perf_counter``) stops
    it on a machine much slower than at the calibration."""

    units: float
    deadline: float
    costs: BidCosts = BidCosts()  # noqa: RUF009  # frozen: shared safely


def sample_opening(view: View, rng: random.Random,
                   draws: int = DRAWS_PER_WORLD) -> tuple[list[int] | None, int]:
    """Every hand as dealt plus, last, the chien, for the taker at the call or the écart:
    ``(hands + [chien], hands drawn)``, or ``(None, hands drawn)`` when ``draws`` run out."""
    chien = view.chien.mask if view.chien is not None else 0
    tests = [(seat, test) for seat, test in bid_evidence(view) if seat != view.seat]
    return sample_before_play(view, rng, tests, draws, chien)


def world_of(view: View, dealt: list[int]) -> Deal:
    """The deal of ``sample_opening``'s cards, in its bidding (consistent: no checks needed)."""
    world = Deal.__new__(Deal)
    world._setup(variant(view.players), view.dealer, dealt[:-1], dealt[-1])
    return world


def taker_score(deal: Deal) -> int:
    """The taker's score when ``deal`` (at its first card) is played out by the fast policy, the
    attack's points corrected as in the bidding search (``ATTACK_CORRECTION``)."""
    assert deal.taker is not None
    packed = Board(deal).play_out()
    return score_of(packed, *score_args(deal), ATTACK_CORRECTION[deal.players])[deal.taker]


@dataclass(frozen=True)
class Estimates:
    """Each candidate's scores for the seat, one per world, in the same worlds (paired)."""

    scores: dict[int, list[int]]

    @property
    def worlds(self) -> int:
        return min((len(s) for s in self.scores.values()), default=0)

    def mean(self, choice: int) -> float:
        s = self.scores[choice]
        return sum(s) / max(len(s), 1)

    def best_over(self, default: int, z: float) -> int:
        """The candidate with the best mean if it beats ``default`` by more than ``z`` standard
        errors of their paired differences, else ``default``: picking the best of several noisy
        means favours luck, so a change must show itself."""
        best = max(self.scores, key=lambda c: (self.mean(c), c == default))
        if best == default:
            return default
        diffs = [a - b for a, b in zip(self.scores[best], self.scores[default], strict=True)]
        k = len(diffs)
        if k < 2:
            return default
        mean = sum(diffs) / k
        var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
        return best if mean > z * (var / k) ** 0.5 else default


def estimate(view: View, candidates: list[int], rng: random.Random, budget: Budget,
             start: Callable[[Deal, int], Deal]) -> Estimates:
    """The taker's score for each candidate in each sampled world (``sample_opening``), the
    deal set at its first card by ``start(world, candidate)`` (a call, an écart) and played out."""
    scores: dict[int, list[int]] = {c: [] for c in candidates}
    units = budget.units
    failures = 0
    while units > 0 and time.perf_counter() < budget.deadline and failures < 3:
        dealt, drawn = sample_opening(view, rng)
        units -= drawn * budget.costs.hand
        if dealt is None:
            failures += 1
            continue
        world = world_of(view, dealt)
        for candidate in candidates:
            scores[candidate].append(taker_score(start(world, candidate)))
        units -= len(candidates) * budget.costs.deal
    return Estimates(scores)
