"""The floor: a uniformly random legal action."""

from __future__ import annotations

import random

from tarot.engine import EXCUSE, Action, Card, Ecart, EcartOptions, Poignee, PoigneeOptions, View
from tarot.engine.cards import cards_of

from .base import Bot


def random_ecart_cards(opts: EcartOptions, rng: random.Random) -> list[Card]:
    """A uniformly random legal écart (R11: all plain cards first when trumps are needed)."""
    allowed = opts.allowed
    if opts.trumps_needed:
        plain = [c for c in allowed if not c.is_trump]
        trumps = [c for c in allowed if c.is_trump]
        return plain + rng.sample(trumps, opts.trumps_needed)
    return list(rng.sample(allowed, opts.size))


def poignee_cards(opts: PoigneeOptions, count: int, prefer: list[Card] | None = None) -> list[Card] | None:
    """``count`` cards for a legal poignée (R14): trumps first (in ``prefer`` order if given),
    the Excuse only when the trumps fall short, and then with every trump of the hand."""
    trumps = [c for c in (prefer or cards_of(opts.allowed_mask)) if c != EXCUSE
              and (1 << c) & opts.allowed_mask]
    if count <= len(trumps):
        return trumps[:count]
    if not opts.allowed_mask >> 77 & 1:
        return None
    in_hand = [c for c in trumps if (1 << c) & opts.must_with_excuse]
    shown = [c for c in trumps if not (1 << c) & opts.must_with_excuse]
    if len(in_hand) + 1 + len(shown) < count:
        return None
    return [*in_hand, EXCUSE, *shown[: count - 1 - len(in_hand)]]


class RandomBot(Bot):
    """Picks uniformly among the legal actions; shows a random poignée half the time."""

    name = "random"

    def act(self, view: View) -> Action:
        rng = self.rng
        if view.ecart_options is not None:
            return Ecart(view.seat, random_ecart_cards(view.ecart_options, rng))
        opts = view.poignee_options
        if opts is not None and rng.random() < 0.5:
            _, count = rng.choice(opts.sizes)
            order = cards_of(opts.allowed_mask)
            rng.shuffle(order)
            cards = poignee_cards(opts, count, order)
            if cards is not None:
                return Poignee(view.seat, cards)
        return rng.choice(view.legal)
