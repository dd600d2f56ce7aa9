"""The floor: a uniformly random legal action."""

from __future__ import annotations

from tarot.engine import Action, Ecart, Poignee, View, cards_of

from .base import Bot


class RandomBot(Bot):
    """Picks uniformly among the legal actions; shows a random poignée half the time."""

    name = "random"

    def act(self, view: View) -> Action:
        rng = self.rng
        if view.ecart_options is not None:
            return Ecart(view.seat, view.ecart_options.choose(rng))
        opts = view.poignee_options
        if opts is not None and rng.random() < 0.5:
            _, count = rng.choice(opts.sizes)
            order = cards_of(opts.allowed_mask)
            rng.shuffle(order)
            cards = opts.choose(count, order)
            if cards is not None:
                return Poignee(view.seat, cards)
        return rng.choice(view.legal)
