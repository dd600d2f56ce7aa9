"""The chelem announce and the poignée by simulation, just before the first card.

Both are scored in worlds from ``sampler.draw_world`` (consistent with everything the seat's view
shows: the chien, the écart's trumps, earlier poignées), played out by the fast policy.

- **Chelem** (R13, R23): the same world is played out with and without the announce (the
  announcer then leads); announced, a chelem made is worth +400 and a failed one −200, against
  +200 and 0 unannounced. The taker announces when the announce's mean score is higher. A short
  probe first: most hands never make a chelem, and then the decision costs little.
- **Poignée** (R14, R23): its prime goes to the side that wins the deal, whoever showed it. A
  playout sees every card, so what showing reveals is not in it: the playouts only say how often
  the seat's side wins. The seat shows its largest poignée when the prime's mean for it, over
  the worlds, exceeds ``POIGNEE_MARGIN_POINTS`` (what the information given away is taken to
  cost, measured in the arena).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from tarot.engine import Card, Chelem, Deal, Poignee, View
from tarot.engine.cards import EXCUSE, PETIT, cards_of

from .bidding import ATTACK_CORRECTION
from .knowledge import knowledge_of
from .opening import MIN_WORLDS
from .playout import Board, score_args, score_of
from .sampler import draw_world

PROBE_WORLDS = 8  # chelem: worlds played first; no chelem made in any, and the search stops there
POIGNEE_MARGIN_POINTS = 0.0  # the seat's mean gain from the prime must exceed this to show
# The poignée needs only the sign of a win rate, and its worlds (mostly drawing and replaying) run
# slower than the calibration's mix of worlds and playouts says: enough worlds to stay within the
# think time (some 0.04 s at 0.1 s, 2026-11-26, shared machine).
POIGNEE_WORLDS = 150


@dataclass(frozen=True)
class CardBudget:
    """The card search's budget: ``playouts`` units, a sampled world costing ``world_cost`` of
    them; ``deadline`` (``time.perf_counter``) stops it on a much slower machine."""

    playouts: float
    world_cost: float
    deadline: float


def _worlds(view: View, rng: random.Random, budget: CardBudget, playouts_each: int) -> Iterator[Deal]:
    """Consistent worlds at the view's position while the budget lasts; each charged its draws
    and ``playouts_each`` playouts."""
    k = knowledge_of(view)
    units = budget.playouts
    failures = 0
    while units > 0 and time.perf_counter() < budget.deadline and failures < 3:
        world, draws = draw_world(view, k, rng)
        units -= draws * budget.world_cost
        if world is None:
            failures += 1
            continue
        units -= playouts_each
        yield world


def _score(deal: Deal, packed: int, seat: int, poignees: tuple[int, ...] | None = None) -> int:
    players, taker, contract, partner, shown, announced = score_args(deal)
    if poignees is not None:
        shown = poignees
    return score_of(packed, players, taker, contract, partner, shown, announced,
                    ATTACK_CORRECTION[players])[seat]


def chelem_gain(view: View, rng: random.Random, budget: CardBudget) -> tuple[float, int]:
    """The taker's mean score announcing a chelem minus not announcing, and the worlds used."""
    seat = view.seat
    diffs: list[int] = []
    made = 0
    for world in _worlds(view, rng, budget, 2):
        outcomes = []
        for announce in (True, False):
            deal = world.copy()
            deal.apply(Chelem(seat, announce))
            packed = Board(deal).play_out()
            outcomes.append(_score(deal, packed, seat))
            if announce and (packed >> 12 & 3) == 1:  # the attack made every trick (playout.pack)
                made += 1
        diffs.append(outcomes[0] - outcomes[1])
        if len(diffs) == PROBE_WORLDS and not made:
            break  # hopeless: not worth the rest of the budget
    return sum(diffs) / max(len(diffs), 1), len(diffs)


def choose_chelem(view: View, rng: random.Random, budget: CardBudget) -> bool | None:
    """Announce a chelem? None when too few consistent worlds were found."""
    gain, worlds = chelem_gain(view, rng, budget)
    if worlds < min(MIN_WORLDS, PROBE_WORLDS):
        return None
    return gain > 0


def poignee_cards(view: View) -> list[Card] | None:
    """The heuristic's cards for the largest poignée the seat may show: plain trumps first, the
    Petit, the 21 and the Excuse kept hidden where possible."""
    opts = view.poignee_options
    if opts is None:
        return None
    _, count = opts.sizes[-1]
    order = sorted(cards_of(opts.allowed_mask), key=lambda c: (c in (PETIT, 76, EXCUSE), c))
    cards = opts.choose(count, order)
    return cards


def poignee_gain(view: View, count: int, rng: random.Random, budget: CardBudget) -> tuple[float, int]:
    """The seat's mean gain from the prime of a poignée of ``count`` trumps, and the worlds used."""
    gains, worlds = poignee_gains(view, (count,), rng, budget)
    return gains[count], worlds


def poignee_gains(view: View, counts: tuple[int, ...], rng: random.Random,
                  budget: CardBudget) -> tuple[dict[int, float], int]:
    """The seat's mean gain from the prime of a poignée of each of ``counts`` trumps, in the same
    worlds (the review compares the sizes), and the worlds used."""
    seat = view.seat
    totals = dict.fromkeys(counts, 0.0)
    worlds = 0
    for world in _worlds(view, rng, budget, 1):
        packed = Board(world).play_out()
        shown = score_args(world)[4]
        without = _score(world, packed, seat, shown)
        for count in counts:
            totals[count] += _score(world, packed, seat, tuple(sorted((*shown, count)))) - without
        worlds += 1
        if worlds == POIGNEE_WORLDS:
            break
    return {count: total / max(worlds, 1) for count, total in totals.items()}, worlds


def decide_poignee(view: View, rng: random.Random,
                   budget: CardBudget) -> tuple[Poignee | Literal[False] | None, float, int]:
    """``choose_poignee``'s decision with its figures: the prime's mean gain for the seat and
    the worlds it was measured over (the hint says them)."""
    cards = poignee_cards(view)
    if cards is None:
        return None, 0.0, 0
    gain, worlds = poignee_gain(view, len(cards), rng, budget)
    if worlds < MIN_WORLDS:
        return False, gain, worlds
    return (Poignee(view.seat, cards) if gain > POIGNEE_MARGIN_POINTS else None), gain, worlds


def choose_poignee(view: View, rng: random.Random, budget: CardBudget) -> Poignee | Literal[False] | None:
    """The poignée to show, None to show none, or False when too few worlds were found."""
    return decide_poignee(view, rng, budget)[0]
