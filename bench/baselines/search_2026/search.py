"""Determinized search (perfect-information Monte Carlo) for card play.

For each decision with a choice of cards, the bot deals the cards it cannot see consistently
with its view (``sampler``), and in every sampled world plays each legal card followed by a fast
playout (``rollout``); the card with the best mean score for its seat wins. The same worlds serve
every card (common random numbers), so differences between cards are measured, not noise.

Bids are chosen by simulation too (``bidding``): each legal bid is scored by playing sampled
whole deals out under the contract it leads to. So are the decisions before the first card
(``simulated``) that the duplicate arena measured a gain for (docs/bots.md): the écart
(``ecart_search``: a few candidates played out in the same worlds, on the bidding's budget) and
the poignée (``announce_search``, on the card search's). The 5-player call (``call_search``) and
the chelem (``announce_search``) work the same way but measured no gain, so they stay the
heuristic's unless named in ``simulated``. Each falls back to the heuristic's choice when too few
consistent worlds are found; which trumps a poignée shows stays the heuristic's.

Each world's playouts run on a ``playout.Board``: the native kernel when it was built, else the
pure-Python reference; both play the same cards, so the choices do not depend on which.

Budget (frozen, 2026-11-29: no calibration and no clock, so later speed-ups do not leak in):

- ``think`` seconds a decision (default 0.5): the counts that ``calibrate.costs`` gave for that
  time on the day of the freeze (``FROZEN_COSTS``: ``SHARE`` of it, and what a sampled world, a
  hand drawn and a whole deal cost in playouts with the native kernel), whatever this machine's
  speed; no deadline. So its choices depend only on the view, the seed and ``think``.
- ``playouts=N``: a fixed budget with the pure path's costs (a world costs nothing extra), as the
  search had it on that day (``--playouts`` of the commands).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from tarot.engine import Action, Bid, Call, Chelem, Ecart, Poignee, View
from tarot.engine.cards import CARDS, cards_of

from .announce_search import CardBudget, choose_chelem, choose_poignee
from .bidding import BidCosts, choose_bid
from .call_search import choose_call
from .ecart_search import choose_ecart
from .heuristic import HeuristicBot
from .knowledge import Knowledge
from .opening import Budget
from .playout import Board, score_args, score_of
from .sampler import WorldSampler


@dataclass(frozen=True)
class Costs:
    """``calibrate.Costs``: what its ``costs()`` measures (frozen below)."""

    playout_seconds: float  # a unit of the card search's budget (a playout and its share)
    world: float  # in playouts, as the two below
    hand: float
    deal: float
    bid_unit_seconds: float  # a unit of the bidding's budget


# ``calibrate.costs()`` (that day's code, unchanged since) with the native kernel on the project's
# 2-core machine (AMD EPYC), measured on 2026-11-29,
# the median of five processes: 74,166 playouts and 69,022 bid units at 0.5 s, a world 15.41
# playouts, a hand drawn 4.98, a whole deal 11.32.
FROZEN_COSTS = Costs(0.25 / 74166, 15.41, 4.98, 11.32, 0.25 / 69022)

SHARE = 0.5  # of the think time the calibrated counts aim at: positions differ from the measured
MIN_WORLDS = 4  # below this many consistent worlds, trust the heuristic instead


class SearchBot(HeuristicBot):
    """Bids, the écart, the poignée and card play by sampling worlds and playing them out; the
    heuristic's call and chelem."""

    name = "search"
    # The decisions before the first card made by simulation (the rest: the heuristic's). The
    # call ("call") and the chelem ("chelem") can be too, but measured no gain (docs/bots.md).
    simulated: frozenset[str] = frozenset({"ecart", "poignee"})

    def __init__(self, seed: int | None = None, think: float = 0.5, playouts: int | None = None,
                 **options: Any) -> None:
        super().__init__(seed, **options)
        if think <= 0:
            raise ValueError("think must be a positive number of seconds")
        if playouts is not None and playouts < 1:
            raise ValueError("playouts must be at least 1")
        self.think = think
        self.fixed = playouts is not None  # a fixed budget: no deadline
        self.playouts = playouts if playouts is not None else 1
        self.bid_budget = float(self.playouts)
        self.world_cost = 0.0  # in playouts
        self.bid_costs = BidCosts()
        if playouts is None:  # the frozen counts: FROZEN_COSTS, not a calibration, no clock
            measured = FROZEN_COSTS
            self.fixed = True
            self.playouts = max(1, int(SHARE * think / measured.playout_seconds))
            self.bid_budget = max(1.0, SHARE * think / measured.bid_unit_seconds)
            self.world_cost = measured.world
            self.bid_costs = BidCosts(measured.hand, measured.deal)

    def act(self, view: View) -> Action:
        seat = view.seat
        if view.ecart_options is not None and "ecart" in self.simulated:
            ecart = choose_ecart(view, self.rng, self.opening_budget())
            if ecart is not None:
                return Ecart(seat, cards_of(ecart))
        elif view.phase == "call" and "call" in self.simulated:
            card = choose_call(view, self.rng, self.opening_budget())
            if card is not None:
                return Call(seat, CARDS[card])
        elif view.phase == "announce" and "chelem" in self.simulated:
            announce = choose_chelem(view, self.rng, self.card_budget())
            if announce is not None:
                return Chelem(seat, announce)
        return super().act(view)

    def poignee(self, view: View) -> Poignee | None:
        if view.poignee_options is None or "poignee" not in self.simulated:
            return super().poignee(view)
        shown = choose_poignee(view, self.rng, self.card_budget())
        return super().poignee(view) if shown is False else shown

    def deadline(self) -> float:
        """When a decision that starts now must end (``time.perf_counter``): ``think`` seconds
        from now on the clock, never with a fixed budget."""
        return math.inf if self.fixed else time.perf_counter() + self.think

    def opening_budget(self) -> Budget:
        """The bidding's budget, for the call and the écart (whole deals played out)."""
        return Budget(self.bid_budget, self.deadline(), self.bid_costs)

    def card_budget(self) -> CardBudget:
        """The card search's budget, for the announces (worlds drawn from the view)."""
        return CardBudget(self.playouts, self.world_cost, self.deadline())

    def bid(self, view: View) -> Bid:
        choice = choose_bid(view, self.rng, self.bid_budget, self.deadline(), self.bid_costs)
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

    def card_means(self, view: View, k: Knowledge, legal: int,
                   deadline: float | None = None) -> tuple[dict[int, float], int]:
        """Each legal card's mean score for the seat over the sampled worlds, and their number;
        ``deadline`` (``time.perf_counter``): the bot's own by default."""
        cards = [c for c in range(78) if legal >> c & 1]
        seat = view.seat
        totals = dict.fromkeys(cards, 0.0)
        deadline = self.deadline() if deadline is None else deadline
        budget: float = self.playouts
        rng = self.rng
        worlds = 0
        failures = 0
        sampler = WorldSampler(view, k)
        while budget > 0 and time.perf_counter() < deadline and failures < 3:
            world, draws = sampler.draw(rng)
            budget -= draws * self.world_cost  # refused draws cost as much as the kept one
            if world is None:
                failures += 1
                continue
            worlds += 1
            board = Board(world)
            args = score_args(world)
            for c in cards:
                totals[c] += score_of(board.after(c), *args)[seat]
            budget -= len(cards)
        return {c: t / max(worlds, 1) for c, t in totals.items()}, worlds
