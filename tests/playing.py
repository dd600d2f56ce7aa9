"""Random legal play for tests: every decision of a deal, drawn from what the state offers."""

from __future__ import annotations

import random

from tarot.engine import Action, Deal, Ecart, Phase, Poignee
from tarot.engine.cards import cards_of


def random_ecart(deal: Deal, rng: random.Random) -> Ecart:
    opts = deal.ecart_options()
    assert opts is not None
    return Ecart(opts.seat, opts.choose(rng))


def random_poignee(deal: Deal, rng: random.Random) -> Poignee | None:
    """Sometimes a random legal poignée of a random open size."""
    opts = deal.poignee_options()
    if opts is None or rng.random() < 0.5:
        return None
    _, count = rng.choice(opts.sizes)
    order = cards_of(opts.allowed_mask)
    rng.shuffle(order)
    cards = opts.choose(count, order)
    return None if cards is None else Poignee(opts.seat, cards)


def random_action(deal: Deal, rng: random.Random) -> Action:
    if deal.phase is Phase.ECART:
        return random_ecart(deal, rng)
    poignee = random_poignee(deal, rng) if deal.phase is Phase.PLAY else None
    if poignee is not None:
        return poignee
    return rng.choice(deal.legal_actions())


def play_out(deal: Deal, rng: random.Random) -> list[Action]:
    """Play the deal to its end with random legal actions; returns them."""
    applied = []
    while not deal.is_over:
        action = random_action(deal, rng)
        deal.apply(action)
        applied.append(action)
    return applied
