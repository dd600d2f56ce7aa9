"""Descriptions of the combinatorial choices (écart, poignée): what may go in and how many."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card, cards_of
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
    def allowed(self) -> list[Card]:
        return cards_of(self.allowed_mask)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "size": self.size, "allowed": [str(c) for c in self.allowed],
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
    def allowed(self) -> list[Card]:
        return cards_of(self.allowed_mask)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "sizes": {s.name_text: n for s, n in self.sizes},
                "allowed": [str(c) for c in self.allowed],
                "must_with_excuse": [str(c) for c in cards_of(self.must_with_excuse)]}
