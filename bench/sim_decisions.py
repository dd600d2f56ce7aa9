"""Plug-ins for the duplicate arena: the heuristic bot plus one decision by simulation each
(issue 19), to measure that decision alone against the heuristic:

    PYTHONPATH=. tarot arena --players 4 --deals 300 --candidate bench.sim_decisions:SimEcart \\
        --baseline heuristic --seed 1 --jobs 1

They bid and play their cards as the heuristic does (``HeuristicBot``), and make only the named
decision as ``SearchBot`` does, at ``THINK`` seconds (the arena's ``--think`` goes to the bot
named "search" only).
"""

from __future__ import annotations

from typing import Any

from tarot.bots.call_search import choose_call
from tarot.bots.ecart_search import choose_ecart
from tarot.bots.heuristic import HeuristicBot
from tarot.bots.knowledge import Knowledge
from tarot.bots.search import SearchBot
from tarot.engine import CARDS, Action, Bid, Call, Ecart, View
from tarot.engine.cards import cards_of

THINK = 0.1


class _HeuristicBut(SearchBot):
    name = "heuristic-but"

    def __init__(self, seed: int | None = None, think: float = THINK, **options: Any) -> None:
        super().__init__(seed, think=think, **options)

    def bid(self, view: View) -> Bid:
        return HeuristicBot.bid(self, view)

    def card(self, view: View, k: Knowledge, legal: int) -> int:
        return HeuristicBot.card(self, view, k, legal)


class SimEcart(_HeuristicBut):
    simulated = frozenset({"ecart"})


class SimCall(_HeuristicBut):
    simulated = frozenset({"call"})


class SimPoignee(_HeuristicBut):
    simulated = frozenset({"poignee"})


class SimChelem(_HeuristicBut):
    simulated = frozenset({"chelem"})


class _WithZ(_HeuristicBut):
    """A variant of the switching threshold: another candidate must beat the heuristic's choice
    by ``z`` standard errors (``opening.Estimates.best_over``)."""

    z = 1.0

    def act(self, view: View) -> Action:
        if view.ecart_options is not None and "ecart" in self.simulated:
            ecart = choose_ecart(view, self.rng, self.opening_budget(), self.z)
            if ecart is not None:
                return Ecart(view.seat, cards_of(ecart))
        if view.phase == "call" and "call" in self.simulated:
            card = choose_call(view, self.rng, self.opening_budget(), self.z)
            if card is not None:
                return Call(view.seat, CARDS[card])
        return super().act(view)


class SimCallZ0(_WithZ):
    simulated = frozenset({"call"})
    z = 0.0


class SimCallZ2(_WithZ):
    simulated = frozenset({"call"})
    z = 2.0


class SimEcartZ0(_WithZ):
    simulated = frozenset({"ecart"})
    z = 0.0


class SimEcartZ2(_WithZ):
    simulated = frozenset({"ecart"})
    z = 2.0


class SimKept(_HeuristicBut):
    """The decisions ``SearchBot`` keeps, together."""

    simulated = SearchBot.simulated
