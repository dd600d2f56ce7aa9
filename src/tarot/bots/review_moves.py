"""The expert's evaluation of one decision (issue 35): every option the seat had, in expected
points for that seat, measured from its own view only, by the search bot's own models.

- **Bids**: every legal bid in the same sampled worlds (``bidding.estimate_bids``).
- **Call** (5 players): every callable card played out in the same worlds (``call_search``).
- **Écart**: the search's candidates plus the écart played (``ecart_search``).
- **Chelem**: the same worlds played with and without the announce (``announce_search``).
- **Poignée**: the prime of each size the seat may show, against showing none, in the same worlds.
- **Cards**: every legal card in the same worlds (``SearchBot.card_means``).

The budget is one number, ``playouts``, in the card search's units (a mid-deal playout of the
native kernel); the other searches get the same time's worth at fixed exchange rates measured on
the development machine (``WORLD_COST``, ``BID_UNITS_PER_PLAYOUT``, ``BID_COSTS``), never
calibrated at run time: the same record and budget give the same review on any machine.
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable
from dataclasses import dataclass

from tarot.engine import Action, Bid, Call, Chelem, Ecart, Play, Poignee, View
from tarot.engine.cards import CARDS, EXCUSE, PETIT, T21, cards_of, mask_of

from .announce_search import CardBudget, chelem_gain, poignee_gains
from .bidding import BidCosts, estimate_bids
from .call_search import estimate_calls
from .ecart_search import ecart_candidates, estimate_ecarts
from .knowledge import knowledge_of
from .opening import Budget
from .search import SearchBot

# The exchange rates between the searches' units (``calibrate.costs()`` with the native kernel on
# the 2-core development machine, 2026-11-28): a world drawn for the card search costs 26 playouts;
# the bidding's unit takes 4.2 playouts' time; a hand drawn and a deal played out in its units.
WORLD_COST = 26.0
BID_UNITS_PER_PLAYOUT = 0.24
BID_COSTS = BidCosts(hand=3.0, deal=13.6)
UNLIMITED = 10.0**15  # the budget when a decision is given time instead (``think``)
GUARD_SECONDS = 600.0  # a fixed budget never stops on the clock short of this


@dataclass(frozen=True)
class Budgets:
    """What one decision may spend: ``playouts`` card-search units, or ``think`` seconds."""

    playouts: int
    think: float | None = None

    def units(self) -> float:
        return UNLIMITED if self.think else float(self.playouts)

    def deadline(self) -> float:
        return time.perf_counter() + (self.think or GUARD_SECONDS)

    def card(self) -> CardBudget:
        return CardBudget(self.units(), WORLD_COST, self.deadline())

    def opening(self) -> Budget:
        return Budget(self.units() * BID_UNITS_PER_PLAYOUT, self.deadline(), BID_COSTS)


@dataclass(frozen=True)
class Evaluation:
    """Each option's expected points for the seat (``values``, keyed by ``key_of``), the action
    each key stands for, and the worlds measured (0: none was consistent, nothing measured)."""

    values: dict[Hashable, float]
    actions: dict[Hashable, Action | None]
    worlds: int
    relative: bool = False  # values are gains over doing nothing (the chelem, the poignée)


def key_of(action: Action | None) -> Hashable:
    """The key of a decision's option: what distinguishes it for the evaluation."""
    if isinstance(action, Bid):
        return ("bid", action.contract)
    if isinstance(action, Call):
        return ("call", int(action.card))
    if isinstance(action, Ecart):
        return ("ecart", action.mask)
    if isinstance(action, Chelem):
        return ("chelem", action.announce)
    if isinstance(action, Poignee):
        return ("poignee", len(action.cards))
    if action is None:
        return ("poignee", 0)
    assert isinstance(action, Play)
    return ("card", int(action.card))


def evaluate(view: View, kind: str, played: Action | None, budgets: Budgets,
             rng: random.Random) -> Evaluation:
    """The options of the decision ``kind`` (bid, call, ecart, chelem, poignee, card) at ``view``."""
    return _EVALUATORS[kind](view, played, budgets, rng)


def _bids(view: View, played: Action | None, budgets: Budgets, rng: random.Random) -> Evaluation:
    opening = budgets.opening()
    est = estimate_bids(view, rng, opening.units, opening.deadline, BID_COSTS)
    actions = {key_of(a): a for a in view.legal if isinstance(a, Bid)}
    return Evaluation({("bid", bid): mean for bid, mean in est.means.items()}, dict(actions), est.worlds)


def _calls(view: View, played: Action | None, budgets: Budgets, rng: random.Random) -> Evaluation:
    calls = [a for a in view.legal if isinstance(a, Call)]
    est = estimate_calls(view, [int(a.card) for a in calls], rng, budgets.opening())
    return Evaluation({("call", c): est.mean(c) for c in est.scores}, {key_of(a): a for a in calls},
                      est.worlds)


def _ecarts(view: View, played: Action | None, budgets: Budgets, rng: random.Random) -> Evaluation:
    options = view.ecart_options
    assert options is not None and isinstance(played, Ecart)
    candidates = ecart_candidates(view.hand.mask, options.size, options.allowed_mask, options.trumps_needed)
    candidates = list(dict.fromkeys([*candidates, played.mask]))
    est = estimate_ecarts(view, candidates, rng, budgets.opening())
    return Evaluation({("ecart", m): est.mean(m) for m in candidates},
                      {("ecart", m): Ecart(view.seat, cards_of(m)) for m in candidates}, est.worlds)


def _chelem(view: View, played: Action | None, budgets: Budgets, rng: random.Random) -> Evaluation:
    gain, worlds = chelem_gain(view, rng, budgets.card())
    return Evaluation({("chelem", True): gain, ("chelem", False): 0.0},
                      {("chelem", a): Chelem(view.seat, a) for a in (True, False)}, worlds, relative=True)


def _poignee(view: View, played: Action | None, budgets: Budgets, rng: random.Random) -> Evaluation:
    opts = view.poignee_options
    assert opts is not None
    # the cards the heuristic would show for each size: plain trumps first (the review grades
    # the size, not which trumps: what they reveal is not in the playouts)
    order = sorted(cards_of(opts.allowed_mask), key=lambda c: (c in (PETIT, T21, EXCUSE), c))
    counts = tuple(n for _, n in opts.sizes)
    gains, worlds = poignee_gains(view, counts, rng, budgets.card())
    actions: dict[Hashable, Action | None] = {("poignee", 0): None}
    for n in counts:
        cards = opts.choose(n, order)
        actions[("poignee", n)] = Poignee(view.seat, cards) if cards else None
    values: dict[Hashable, float] = {("poignee", 0): 0.0}
    values.update({("poignee", n): gains[n] for n in counts if actions[("poignee", n)] is not None})
    if isinstance(played, Poignee):
        actions[key_of(played)] = played
    return Evaluation(values, actions, worlds, relative=True)


def _cards(view: View, played: Action | None, budgets: Budgets, rng: random.Random) -> Evaluation:
    plays = [a for a in view.legal if isinstance(a, Play)]
    # the card search itself, on the review's budget and deadline
    expert = SearchBot(0, playouts=int(min(budgets.units(), 2**62)))
    expert.world_cost = WORLD_COST
    expert.rng = rng
    means, worlds = expert.card_means(view, knowledge_of(view), mask_of([a.card for a in plays]),
                                      budgets.deadline())
    return Evaluation({("card", c): m for c, m in means.items()},
                      {("card", c): Play(view.seat, CARDS[c]) for c in means}, worlds)


_EVALUATORS = {"bid": _bids, "call": _calls, "ecart": _ecarts, "chelem": _chelem, "poignee": _poignee,
               "card": _cards}
