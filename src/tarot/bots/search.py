"""Determinized search (perfect-information Monte Carlo) for card play.

For each decision with a choice of cards, the bot deals the cards it cannot see consistently
with its view (``sampler``), and in every sampled world plays each legal card followed by a fast
playout (``rollout``); the card with the best mean score for its seat wins. The same worlds serve
every card (common random numbers), so differences between cards are measured, not noise.

Bids are chosen by simulation too (``bidding``): each legal bid is scored by playing sampled
whole deals out under the contract it leads to. The call, the écart, the chelem and poignées come
from the heuristic bot.

Budget: ``think`` seconds per decision (default 0.5). So that the same seed gives the same
choices, the budget is counted in work (playouts), at ``PLAYOUTS_PER_SECOND`` measured on the
development machine; the wall clock only cuts a search short on a slower or loaded machine.
``playouts=`` sets the work budget directly.
"""

from __future__ import annotations

import time
from typing import Any

from tarot.engine import CARDS, Bid, View

from .bidding import choose_bid
from .heuristic import HeuristicBot
from .knowledge import Knowledge
from .rollout import play_out
from .sampler import sample_world

# One core of the 2-core development machine, mid-deal playouts plus their share of sampling.
PLAYOUTS_PER_SECOND = 5000
MIN_WORLDS = 4  # below this many consistent worlds, trust the heuristic instead


class SearchBot(HeuristicBot):
    """Bids and card play by sampling worlds and playing them out; the heuristic's écart."""

    name = "search"

    def __init__(self, seed: int | None = None, think: float = 0.5, playouts: int | None = None,
                 **options: Any) -> None:
        super().__init__(seed, **options)
        if think <= 0:
            raise ValueError("think must be a positive number of seconds")
        self.think = think
        self.playouts = playouts if playouts is not None else max(1, int(think * PLAYOUTS_PER_SECOND))

    def bid(self, view: View) -> Bid:
        choice = choose_bid(view, self.rng, self.playouts, time.perf_counter() + self.think)
        return choice if choice is not None else super().bid(view)

    def card(self, view: View, k: Knowledge, legal: int) -> int:
        choice = self.search(view, k, legal)
        return choice if choice is not None else super().card(view, k, legal)

    def search(self, view: View, k: Knowledge, legal: int) -> int | None:
        """The best card by playouts, or None when too few consistent worlds were found."""
        means, worlds = self.card_means(view, k, legal)
        if worlds < MIN_WORLDS:
            return None
        return max(means, key=lambda c: (means[c], -c))

    def card_means(self, view: View, k: Knowledge, legal: int) -> tuple[dict[int, float], int]:
        """Each legal card's mean score for the seat over the sampled worlds, and their number."""
        cards = [c for c in range(78) if legal >> c & 1]
        seat = view.seat
        totals = dict.fromkeys(cards, 0.0)
        deadline = time.perf_counter() + self.think
        budget = self.playouts
        rng = self.rng
        worlds = 0
        failures = 0
        while budget > 0 and time.perf_counter() < deadline and failures < 3:
            world = sample_world(view, k, rng)
            if world is None:
                failures += 1
                continue
            worlds += 1
            for c in cards:
                trial = world.copy()
                trial.play(CARDS[c])
                play_out(trial)
                scores = trial.result().scores
                totals[c] += scores[seat] if scores else 0
            budget -= len(cards)
        return {c: t / max(worlds, 1) for c, t in totals.items()}, worlds
