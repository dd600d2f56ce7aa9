"""The search bot's budget: its think time becomes counts measured once per process, and a
decision ends at its think time however busy the machine is; a fixed budget (``playouts=``)
ignores the clock, so that its choices depend on the view and the seed only (issue 37)."""

from __future__ import annotations

import time

import pytest

from tarot.bots import search
from tarot.bots.bidding import BidCosts
from tarot.bots.calibrate import costs
from tarot.bots.heuristic import HeuristicBot
from tarot.bots.search import SHARE, SearchBot
from tarot.engine import Action, Bid, Deal, Phase


def test_think_time_becomes_counts_measured_once() -> None:
    measured = costs()
    assert costs() is measured  # once per process
    assert measured.playout_seconds > 0 and measured.world > 0 and measured.hand > 0 and measured.deal > 0
    bot = SearchBot(seed=1, think=0.2)
    assert bot.playouts == int(SHARE * 0.2 / measured.playout_seconds)
    assert bot.bid_budget == SHARE * 0.2 / measured.bid_unit_seconds
    assert bot.world_cost == measured.world
    assert bot.bid_costs == BidCosts(measured.hand, measured.deal)


def test_a_given_count_keeps_the_meaning_it_had() -> None:
    bot = SearchBot(seed=1, playouts=60, think=30)
    assert (bot.playouts, bot.bid_budget, bot.world_cost, bot.bid_costs) == (60, 60.0, 0.0, BidCosts())


class Racing:
    """A ``time.perf_counter`` that jumps a minute each time it is read: a machine as loaded as
    can be, where any deadline has passed at once."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 60.0
        return self.now


def play_opening(bots: list[SearchBot], seed: int, actions: int = 24) -> list[Action]:
    """The first ``actions`` of a 4-player deal (its bidding, écart and first tricks) by ``bots``."""
    deal = Deal.new(4, 0, seed=seed)
    while deal.phase is not Phase.DONE and len(deal.actions) < actions:
        seat = deal.turn
        assert seat is not None
        deal.apply(bots[seat].act(deal.view(seat)))  # (a poignée too: ``act`` shows it before the card)
    return list(deal.actions)


def test_a_fixed_budget_ignores_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``playouts=``, the same seed makes the same bids, écart and cards on a clock whose
    every deadline has passed: the budget decides, never the time."""
    def taken(actions: list[Action]) -> bool:
        return any(isinstance(a, Bid) and a.contract is not None for a in actions)

    # The first deal someone takes (a bid searched, then the écart and cards): which one depends
    # on the bids' calibration, not on what this test checks.
    seed, calm = next((s, opening) for s in range(1, 30)
                      if taken(opening := play_opening([SearchBot(seed=b, playouts=200) for b in range(4)],
                                                       seed=s)))
    monkeypatch.setattr(search.time, "perf_counter", Racing())
    raced = play_opening([SearchBot(seed=s, playouts=200) for s in range(4)], seed=seed)
    assert raced == calm and taken(calm) and len(calm) > 10


def test_on_the_clock_a_card_ends_at_its_think_time() -> None:
    """On the clock, a card search whose count is far beyond this machine (as if calibrated on a
    much faster one, or the machine loaded since) still ends at its think time."""
    deal = Deal.new(4, 0, seed=2)
    bots = [HeuristicBot(seed=s) for s in range(4)]
    while deal.phase is not Phase.PLAY:
        seat = deal.turn
        assert seat is not None
        deal.apply(bots[seat].act(deal.view(seat)))
    seat = deal.turn
    assert seat is not None
    bot = SearchBot(seed=1, think=0.05)
    bot.playouts = 10**12
    start = time.perf_counter()
    card = bot.act(deal.view(seat))
    assert time.perf_counter() - start < 0.05 + 0.1  # one world's playouts past it at most
    assert card in deal.legal_actions()
