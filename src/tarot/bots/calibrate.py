"""What the search bot's work costs on this machine, measured once per process (issue 19: its
choices must not depend on how busy the machine is while it plays).

``costs()`` times the parts of the search on a few fixed positions, once: a playout (a card
then the policy to the end, scored) at the first tricks, where playouts are longest, so that a
decision rarely takes more than its think time; and, in playouts, a sampled world (drawing it,
building it, its board), a hand drawn for the bidding and a whole deal played from its first
card. ``SearchBot`` turns its think time into counts with them; from then on its choices depend
on its seed and those counts only.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass
from functools import cache

from tarot.engine import Deal, Phase, Play, View, variant

from .bidding import BidCosts, _WorldScores, bid_evidence, candidate_bids, estimate_bids
from .heuristic import HeuristicBot
from .knowledge import knowledge_of
from .playout import Board, score_args, score_of
from .sampler import WorldSampler, sample_before_play

SECONDS = 0.04  # spent on each round of a measurement
ROUNDS = 3
SEEDS = (1, 2, 7, 11)  # 4-player deals the heuristic plays (a bid is made): their openings are measured
CARDS_IN = (1, 4)  # card-play views after this many cards


@dataclass(frozen=True)
class Costs:
    playout_seconds: float  # a unit of the card search's budget (a playout and its share)
    world: float  # in playouts, as the two below
    hand: float
    deal: float
    bid_unit_seconds: float  # a unit of the bidding's budget


def _views(seed: int) -> tuple[list[View], list[View]]:
    """The bidders' views and a few early card-play views of a deal the heuristic plays."""
    deal = Deal.new(4, 0, seed=seed)
    bots = [HeuristicBot(seed=seed * 10 + s) for s in range(4)]
    bids: list[View] = []
    plays: list[View] = []
    played = 0
    while deal.phase is not Phase.DONE and played <= max(CARDS_IN):
        seat = deal.turn
        assert seat is not None
        view = deal.view(seat)
        if deal.phase is Phase.BIDDING:
            bids.append(view)
        elif deal.phase is Phase.PLAY:
            if played in CARDS_IN:
                plays.append(view)
            played += 1
        deal.apply(bots[seat].act(view))
    return bids, plays


def _card_costs(plays: list[View]) -> tuple[float, float]:
    """(seconds a playout, seconds a world drawn) of the card search."""
    rng = random.Random(1)
    samplers = [WorldSampler(view, knowledge_of(view)) for view in plays]  # once a decision
    world_s = playout_s = 0.0
    worlds = playouts = 0
    while world_s + playout_s < SECONDS:
        for sampler in samplers:
            start = time.perf_counter()
            world, draws = sampler.draw(rng)
            if world is None:
                continue
            board = Board(world)
            args = score_args(world)
            middle = time.perf_counter()
            legal = board.legal()
            for c in range(78):
                if legal >> c & 1:
                    score_of(board.after(c), *args)
                    playouts += 1
            world_s += middle - start
            playout_s += time.perf_counter() - middle
            worlds += draws
    return playout_s / playouts, world_s / worlds


def _bid_costs(bids: list[View]) -> tuple[float, float]:
    """(seconds a hand drawn, seconds a whole deal played out) of the bidding."""
    rng = random.Random(1)
    hand_s = deal_s = 0.0
    hands = deals = 0
    while hand_s + deal_s < SECONDS:
        for view in bids:
            start = time.perf_counter()
            dealt, drawn = sample_before_play(view, rng, bid_evidence(view), 400)
            middle = time.perf_counter()
            hands += drawn
            hand_s += middle - start
            if dealt is None:
                continue
            world = Deal.__new__(Deal)
            world._setup(variant(4), view.dealer, dealt[:-1], dealt[-1])
            scores = _WorldScores(world, view, dealt)
            for bid in candidate_bids(view):
                scores.of(bid)
            deals += scores.playouts
            deal_s += time.perf_counter() - middle
    return hand_s / hands, deal_s / max(deals, 1)


@cache
def costs() -> Costs:
    """The costs on this machine, now (measured at the first call: some 0.3 s)."""
    bids: list[View] = []
    plays: list[View] = []
    for seed in SEEDS:
        b, p = _views(seed)
        bids += b
        plays += p
    # medians of short rounds: another process busy for a moment skews one round only
    cards = [_card_costs(plays) for _ in range(ROUNDS)]
    bidding = [_bid_costs(bids) for _ in range(ROUNDS)]
    playout, world = (statistics.median(c[i] for c in cards) for i in range(2))
    hand, deal = (statistics.median(b[i] for b in bidding) for i in range(2))
    parts = Costs(playout, world / playout, hand / playout, deal / playout, playout)
    # Then the seconds a budget unit takes in whole searches on fresh views (new outcomes to
    # score, refused draws): the parts alone come out too cheap.
    card_s = statistics.median(_search_seconds(parts, plays[i::ROUNDS], False) for i in range(ROUNDS))
    bid_s = statistics.median(_search_seconds(parts, bids[i::ROUNDS], True) for i in range(ROUNDS))
    return Costs(card_s, parts.world, parts.hand, parts.deal, bid_s)


def _search_seconds(parts: Costs, views: list[View], bidding: bool) -> float:
    """Seconds a budget unit of ``parts`` takes in searches on ``views``."""
    from .search import SearchBot  # the search imports this module when it needs its costs

    score_of.cache_clear()
    units = SECONDS / parts.playout_seconds / len(views)
    bot = SearchBot(seed=3, playouts=int(units), think=60.0)
    bot.world_cost = parts.world
    bot.bid_costs = BidCosts(parts.hand, parts.deal)
    start = time.perf_counter()
    for view in views:
        if bidding:
            estimate_bids(view, bot.rng, units, start + 60.0, bot.bid_costs)
        else:
            legal = sum(1 << int(a.card) for a in view.legal if isinstance(a, Play))
            bot.card_means(view, knowledge_of(view), legal)
    return (time.perf_counter() - start) / (units * len(views))
