"""The search bot's budget: its think time becomes counts measured once per process, so that
its choices then depend on its seed and those counts only (not on how busy the machine is)."""

from __future__ import annotations

import pytest

from tarot.bots import search
from tarot.bots.bidding import BidCosts
from tarot.bots.calibrate import costs
from tarot.bots.search import SHARE, SearchBot
from tarot.engine import Deal, Phase


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


def test_same_seed_and_counts_same_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two calibrated bots with one seed play the same cards: their counts decide, not the wall
    clock. (Its guard, a stop at ``GUARD`` times the think time for a machine much slower than
    at the calibration, is moved out of the way: 0.06 s here, which a loaded machine can pass in
    one search and cut it short; test_bidding tests the guard.)"""
    monkeypatch.setattr(search, "GUARD", 1e6)
    deal = Deal.new(4, 0, seed=2)
    twin = deal.copy()
    bots = [SearchBot(seed=s, think=0.02) for s in range(4)]
    again = [SearchBot(seed=s, think=0.02) for s in range(4)]
    while deal.phase is not Phase.DONE and len(deal.actions) < 24:
        seat = deal.turn
        assert seat is not None
        a, b = bots[seat].act(deal.view(seat)), again[seat].act(twin.view(seat))
        assert a == b
        deal.apply(a)
        twin.apply(b)
