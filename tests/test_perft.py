"""Perft: counts of legal play sequences from fixed positions (tests/data/perft.json).

Each count is checked twice: against the engine, and against a deliberately naive move
generator written here straight from R9, R15 and R16, so a change in either shows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from perft_positions import perft
from tarot.engine import Card, Chelem, DealRecord, Phase

DATA = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())


def naive_legal(hand: set[Card], trick: list[Card], first_lead_ban: Card | None) -> set[Card]:
    """R15 (and R9 when ``first_lead_ban`` is the called card), one card at a time."""
    excuse = {c for c in hand if c.is_excuse}
    led = next((c for c in trick if not c.is_excuse), None)
    if led is None:
        if first_lead_ban is not None and not trick:
            ok = {c for c in hand if c.suit != first_lead_ban.suit or c == first_lead_ban}
            return ok or set(hand)
        return set(hand)
    trumps = {c for c in hand if c.is_trump}
    if not led.is_trump:
        same = {c for c in hand if c.suit == led.suit}
        if same:
            return same | excuse
    if trumps:
        best = max((c.rank for c in trick if c.is_trump), default=0)
        higher = {c for c in trumps if c.rank > best}
        return (higher or trumps) | excuse
    return set(hand)


def naive_winner(trick: list[tuple[int, Card]]) -> int:
    """R16 outside the last trick: highest trump, else highest card of the suit led."""
    trumps = [(c.rank, s) for s, c in trick if c.is_trump]
    if trumps:
        return max(trumps)[1]
    led = next(c for _, c in trick if not c.is_excuse)
    return max((c.rank, s) for s, c in trick if c.suit == led.suit and not c.is_trump)[1]


def naive_perft(hands: list[set[Card]], trick: list[tuple[int, Card]], turn: int, depth: int,
                ban: Card | None) -> int:
    if depth == 0 or not any(hands):
        return 1
    n = len(hands)
    total = 0
    for card in naive_legal(hands[turn], [c for _, c in trick], ban):
        hands[turn].remove(card)
        now = [*trick, (turn, card)]
        if len(now) == n:
            total += naive_perft(hands, [], naive_winner(now), depth - 1, None)
        else:
            total += naive_perft(hands, now, (turn + 1) % n, depth - 1, ban)
        hands[turn].add(card)
    return total


@pytest.mark.parametrize("case", DATA, ids=[f"{c['players']}p-{len(c['counts'])}" for c in DATA])
def test_perft_counts(case: dict[str, Any]) -> None:
    deal = DealRecord.from_dict(case["record"]).replay(complete=False)
    if deal.phase is Phase.ANNOUNCE:  # a declined chelem is absent from records
        deal.apply(Chelem(deal.taker, False))  # type: ignore[arg-type]
    counts = case["counts"]
    assert [perft(deal, d) for d in range(1, len(counts) + 1)] == counts
    hands = [set(deal.hand(s)) for s in range(deal.players)]
    trick = [((deal.leader + i) % deal.players, c) for i, c in enumerate(deal.trick)]
    ban = deal.called if not deal.tricks else None
    assert deal.turn is not None
    naive = [naive_perft([set(h) for h in hands], trick, deal.turn, d, ban)
             for d in range(1, len(counts) + 1)]
    assert naive == counts


def test_the_data_covers_every_player_count_and_the_first_lead() -> None:
    assert {c["players"] for c in DATA} == {3, 4, 5}
    assert any(c["players"] == 5 and not any("play" in a for a in c["record"]["actions"]) for c in DATA)
