"""Hands the bid tests share (``test_bid_model``, ``test_bid_inference``): 4 players, 18 cards."""

from __future__ import annotations

from tarot.engine.cards import mask_of, parse_cards


def mask(codes: str) -> int:
    return mask_of(parse_cards(codes))


# 12 trumps with the three oudlers, and the kings of hearts and spades.
STRONG = mask("T21 EX T1 T20 T19 T18 T17 T16 T15 T14 T13 T12 KH KS 2H 3H 4D 5D")
# no trump, no honour.
HOPELESS = mask("1H 2H 3H 4H 5H 1S 2S 3S 4S 5S 1D 2D 3D 4D 1C 2C 3C 4C")
