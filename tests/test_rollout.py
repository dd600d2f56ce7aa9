"""The playout policy's plans (``rollout.choose``), on both boards where the kernel is built."""

from __future__ import annotations

import pytest

from tarot.bots.rollout import PETIT_HUNT, choose
from tarot.engine import Bid, Chelem, Contract, Deal, Phase

T20 = 75
KING_RANK = 13


def _defender_to_lead(taker_trumps: list[int]) -> Deal:
    """4 players, seat 0 takes a garde sans with the Petit and ``taker_trumps``; seat 1, a
    defender holding one trump (T20) and no king, leads the first trick."""
    plain = [c for c in range(56)]
    no_kings = [c for c in plain if c % 14 != KING_RANK]
    seat1 = [T20, *no_kings[:17]]
    rest_plain = [c for c in plain if c not in seat1]
    taker = [56, *taker_trumps]
    taker += rest_plain[:18 - len(taker)]
    rest_plain = [c for c in rest_plain if c not in taker]
    trumps = [c for c in range(56, 78) if c not in taker and c != T20]
    both = trumps + rest_plain
    hands = [taker, seat1, both[0:36:2], both[1:36:2]]
    chien = both[36:]
    masks = [sum(1 << c for c in h) for h in hands]
    assert [m.bit_count() for m in masks] == [18, 18, 18, 18] and len(chien) == 6
    deal = Deal(4, 0, masks, sum(1 << c for c in chien))
    for seat, contract in ((1, None), (2, None), (3, None), (0, Contract.GARDE_SANS)):
        deal.apply(Bid(seat, contract))
    while deal.phase is Phase.ANNOUNCE:
        deal.apply(Chelem(0, False))
    assert deal.phase is Phase.PLAY and deal.turn == 1
    return deal


def test_the_defence_hunts_a_petit_short_of_trumps() -> None:
    """The taker holds the Petit and 2 more trumps: the defender leads its top trump, though it
    holds fewer trumps than the taker (which alone would make it lead a small plain card)."""
    deal = _defender_to_lead([57, 58])
    assert (deal.hands[0] & ~((1 << 56) - 1)).bit_count() <= PETIT_HUNT
    assert choose(deal) == T20
    native = pytest.importorskip("tarot.bots._playout", reason="the native playout kernel is not built")
    board = native.Board(deal)
    board.play_out()
    assert board.trace()[0] == T20


def test_no_hunt_when_the_petit_is_well_guarded() -> None:
    deal = _defender_to_lead([57, 58, 59, 60, 61])
    assert choose(deal) < 56  # a plain card
