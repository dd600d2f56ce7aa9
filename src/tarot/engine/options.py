"""Descriptions of the combinatorial choices (écart, poignée): what may go in and how many, and
a legal choice of each (for bots, fallbacks and tests)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .cards import EXCUSE, EXCUSE_BIT, TRUMPS, Card, CardSet, cards_of, codes_of
from .rules import PoigneeSize


@dataclass(frozen=True, slots=True)
class EcartOptions:
    """R10/R11. Choose ``size`` cards among ``allowed``; exactly ``trumps_needed`` of them trumps.

    When ``trumps_needed`` is 0 no trump may go in; otherwise every allowed non-trump must go in
    and ``trumps_needed`` trumps (never an oudler) complete the écart.
    """

    seat: int
    size: int
    allowed_mask: int  # non-trump cards that may go in, plus trumps if needed
    trumps_needed: int

    @property
    def allowed(self) -> CardSet:
        return CardSet(self.allowed_mask)

    def choose(self, rng: random.Random | None = None) -> list[Card]:
        """A legal écart: uniformly random with ``rng``, else the weakest cards by index (R11:
        every allowed plain card first when trumps are needed)."""
        allowed = cards_of(self.allowed_mask)
        if self.trumps_needed:
            plain = [c for c in allowed if not c.is_trump]
            trumps = [c for c in allowed if c.is_trump]
            extra = rng.sample(trumps, self.trumps_needed) if rng else trumps[:self.trumps_needed]
            return plain + extra
        return rng.sample(allowed, self.size) if rng else allowed[:self.size]

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "size": self.size, "allowed": codes_of(self.allowed_mask),
                "trumps_needed": self.trumps_needed}


@dataclass(frozen=True, slots=True)
class PoigneeOptions:
    """R14. Show exactly the count of one of ``sizes``, chosen among ``allowed``.

    A poignée containing the Excuse must contain every card of ``must_with_excuse``
    (the trumps still in the hand).
    """

    seat: int
    sizes: tuple[tuple[PoigneeSize, int], ...]  # (size, number of cards) open to this seat
    allowed_mask: int  # trumps and Excuse of the hand, plus a taker's shown écart trumps
    must_with_excuse: int

    @property
    def allowed(self) -> CardSet:
        return CardSet(self.allowed_mask)

    def choose(self, count: int | None = None, prefer: list[Card] | None = None) -> list[Card] | None:
        """``count`` cards (default: the smallest size open) for a legal poignée: trumps first
        (in ``prefer`` order if given), the Excuse only when the trumps fall short, and then with
        every trump of the hand; None if no legal poignée has ``count`` cards."""
        count = self.sizes[0][1] if count is None else count
        allowed = self.allowed_mask
        trumps = [c for c in (prefer or cards_of(allowed & TRUMPS)) if c != EXCUSE and (1 << c) & allowed]
        if count <= len(trumps):
            return trumps[:count]
        if not allowed & EXCUSE_BIT:
            return None
        in_hand = [c for c in trumps if (1 << c) & self.must_with_excuse]
        shown = [c for c in trumps if not (1 << c) & self.must_with_excuse]
        if len(in_hand) + 1 + len(shown) < count:
            return None
        return [*in_hand, EXCUSE, *shown[: count - 1 - len(in_hand)]]

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "sizes": {s.name_text: n for s, n in self.sizes},
                "allowed": codes_of(self.allowed_mask),
                "must_with_excuse": codes_of(self.must_with_excuse)}
