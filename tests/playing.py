"""Random legal play for tests: every decision of a deal, drawn from what the state offers."""

from __future__ import annotations

import random

from tarot.engine import EXCUSE, Action, Deal, Ecart, Phase, Poignee


def random_ecart(deal: Deal, rng: random.Random) -> Ecart:
    opts = deal.ecart_options()
    assert opts is not None
    allowed = opts.allowed
    if opts.trumps_needed:
        plain = [c for c in allowed if not c.is_trump]
        trumps = [c for c in allowed if c.is_trump]
        return Ecart(opts.seat, plain + rng.sample(trumps, opts.trumps_needed))
    return Ecart(opts.seat, rng.sample(allowed, opts.size))


def random_poignee(deal: Deal, rng: random.Random) -> Poignee | None:
    """Sometimes a random legal poignée of a random open size."""
    opts = deal.poignee_options()
    if opts is None or rng.random() < 0.5:
        return None
    _, count = rng.choice(opts.sizes)
    trumps = [c for c in opts.allowed if not c.is_excuse]
    if count <= len(trumps):
        return Poignee(opts.seat, rng.sample(trumps, count))
    # The Excuse must stand in: then every trump of the hand goes in (R14), and a taker's
    # shown écart trumps may complete it.
    hand_trumps = [c for c in trumps if (1 << c) & opts.must_with_excuse]
    shown = [c for c in trumps if not (1 << c) & opts.must_with_excuse]
    return Poignee(opts.seat, [*hand_trumps, EXCUSE, *rng.sample(shown, count - 1 - len(hand_trumps))])


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
