"""Bidding by simulation: the bid whose deals, played out, score best for the seat.

For the seat to bid, the bot samples worlds (the other hands and the chien) consistent with its
view and with the bids already made, and scores every legal bid, pass included, in the same
worlds (common random numbers: the comparison between bids is not blurred by the luck of the
cards). In a world, a bid is scored by finishing the bidding and playing the deal out:

- the seats still to speak bid as the heuristic bot would with their hands in that world (they
  may outbid us, or take after our pass); the highest bid makes the contract;
- if everyone passed, the deal is annulled: 0;
- otherwise the taker calls (5 players), takes the chien, discards and shows a poignée as the
  heuristic bot would, announcing no chelem (``rollout.start_play``); every seat plays the fast
  policy (``rollout.play_out``); the seat's score by the real scoring counts, the attack's card
  points corrected, where the seat itself takes, by ``ATTACK_CORRECTION`` (the playouts' known
  bias, measured on outcomes by ``tools/calibrate_attack.py``).

So "pass" is worth what the later seats make of the deal, not 0. The bids already made are
evidence: a world is kept only if the heuristic bidder, holding that seat's hand in the world,
would have bid as the seat did (``bid_evidence``). Exact against heuristic bidders; against
others (people, other bots) the worlds may be few or none, and then the heuristic's bid is
used instead.

The outcome of a world depends only on the contract and the taker (the call, écart and play
are deterministic), so each (taker, contract) is played once per world, whichever bids lead to
it. Budget: in units of the card search's playouts with the pure path: a whole deal counts
``DEAL_PLAYOUT_COST`` of them, a sampled hand ``1 / HANDS_PER_PLAYOUT`` (``calibrate.rates``
measures how many units a second this machine does); and the search never goes on past the
deadline.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from tarot.engine import Bid, Contract, Deal, View
from tarot.engine.rules import variant

from .evaluation import contract_for, hand_points
from .playout import Board, score_args, score_of
from .rollout import start_play
from .sampler import HandTest, sample_before_play

# Measured on the development machine: a whole deal with its écart takes about twice the time of
# the card search's average playout, and some 25 hands are drawn and tested in that time.
DEAL_PLAYOUT_COST = 2.0
HANDS_PER_PLAYOUT = 25
MIN_WORLDS = 8  # below this many consistent worlds, trust the heuristic instead
# Card points added to the attack's count in a playout where the seat itself takes, per player
# count and contract: how far the playouts understate the attack when the search plays the
# contract (its own écart, its card search), measured on outcomes by `tools/calibrate_attack.py`.
# The bias depends on the defence: against the search's own it is 4-5 points smaller than against
# the heuristic's (`--defenders search`), and the best correction follows the defence met
# (docs/bots.md, "Which defence the correction is measured against"). At 4 players the heuristic
# defence's figures (+8.2 a deal against heuristic-2026, nothing measurable lost against the
# frozen search); at 3 and 5 the search defence's. Rounded to the half point R3 counts in at 3 and
# 5 players, to the point at 4 (no half points there: R21). Where another seat takes, nothing is
# added: the seat's own defence is the search's too.
ATTACK_CORRECTION: dict[int, dict[Contract, float]] = {
    3: {Contract.PRISE: 0.5, Contract.GARDE: 0.5, Contract.GARDE_SANS: -1.5, Contract.GARDE_CONTRE: -1.5},
    4: {Contract.PRISE: 7.0, Contract.GARDE: 7.0, Contract.GARDE_SANS: 3.0, Contract.GARDE_CONTRE: 3.0},
    5: {Contract.PRISE: 0.5, Contract.GARDE: 1.0, Contract.GARDE_SANS: 1.0, Contract.GARDE_CONTRE: 1.0},
}
DRAWS_PER_WORLD = 400  # hands drawn before a world counts as not found (a very unlikely bid)


def attack_correction(players: int, contract: Contract, taker: int, seat: int) -> float:
    """The card points added to the attack's count in a playout scored for ``seat``: the measured
    understatement (``ATTACK_CORRECTION``) when the seat itself took ``contract``, else none."""
    return ATTACK_CORRECTION[players][contract] if seat == taker else 0.0


def heuristic_bid(hand: int, players: int, highest: Contract | None) -> Contract | None:
    """What the club scale bids with ``hand`` after ``highest``: the search's model of how the
    other seats bid. (The heuristic bot bid so until 2026-11-28; it now bids from outcomes,
    ``bid_model``, which the search was not measured with as its model of the others: at 5
    players it made a hopeless hand take, against seats that take more.)"""
    contract = contract_for(hand_points(hand), players)
    return contract if contract is not None and (highest is None or contract > highest) else None


def bid_evidence(view: View) -> list[tuple[int, HandTest]]:
    """For each seat that already bid, a test that its hand fits its bid, the bidders first
    (a contract is rarer than a pass, so their test rejects the most worlds early)."""
    tests: list[tuple[int, HandTest, bool]] = []
    highest: Contract | None = None
    for seat, bid in view.bids:
        tests.append((seat, _fits(bid, view.players, highest), bid is not None))
        if bid is not None:
            highest = bid
    tests.sort(key=lambda t: not t[2])
    return [(seat, test) for seat, test, _ in tests]


def _fits(bid: Contract | None, players: int, highest: Contract | None) -> HandTest:
    return lambda hand: heuristic_bid(hand, players, highest) == bid


Bidder = Callable[[int, int, Contract | None], Contract | None]  # (hand, players, highest) -> bid


def bidding_outcome(hands: list[int], view: View, mine: Contract | None,
                    bidder: Bidder = heuristic_bid) -> tuple[int | None, Contract | None]:
    """The taker and the contract (None, None: all passed) when the seat bids ``mine`` and the
    seats after it bid as ``bidder`` would with ``hands`` (the club scale by default)."""
    n = view.players
    taker: int | None = None
    highest: Contract | None = None
    for seat, bid in view.bids:
        if bid is not None:
            taker, highest = seat, bid
    if mine is not None:
        taker, highest = view.seat, mine
    for i in range(len(view.bids) + 1, n):
        seat = (view.dealer + 1 + i) % n
        bid = bidder(hands[seat], n, highest)
        if bid is not None:
            taker, highest = seat, bid
    return taker, highest


def candidate_bids(view: View) -> list[Contract | None]:
    """The legal bids of the seat, pass first."""
    return [a.contract for a in view.legal if isinstance(a, Bid)]


@dataclass(frozen=True)
class BidEstimates:
    """The seat's mean score for each candidate bid, over ``worlds`` sampled worlds."""

    means: dict[Contract | None, float]
    worlds: int

    def best(self) -> Contract | None:
        """The bid with the best mean; ties (a bid always outbid, say) go to the cheaper bid."""
        order = list(self.means)
        return max(order, key=lambda bid: (self.means[bid], -order.index(bid)))


@dataclass(frozen=True)
class BidCosts:
    """What the bidding's work costs in the budget's units (mid-deal playouts of the card
    search): a drawn hand, a whole deal played out. The defaults are the pure path's, measured
    on the development machine; ``calibrate`` measures them for the playout kernel in use."""

    hand: float = 1 / HANDS_PER_PLAYOUT
    deal: float = DEAL_PLAYOUT_COST


def estimate_bids(view: View, rng: random.Random, budget: float, deadline: float,
                  costs: BidCosts = BidCosts()) -> BidEstimates:  # frozen: shared safely
    """Score every legal bid of the seat in the same sampled worlds until ``budget`` (in
    mid-deal playouts of the card search, at ``costs``) is spent or ``deadline``
    (``time.perf_counter``) is reached."""
    candidates = candidate_bids(view)
    tests = bid_evidence(view)
    rules = variant(view.players)
    totals = dict.fromkeys(candidates, 0.0)
    worlds = 0
    failures = 0
    while budget > 0 and time.perf_counter() < deadline and failures < 3:
        dealt, drawn = sample_before_play(view, rng, tests, DRAWS_PER_WORLD)
        budget -= drawn * costs.hand
        if dealt is None:
            failures += 1
            continue
        world = Deal.__new__(Deal)  # a consistent deal needs no checking
        world._setup(rules, view.dealer, dealt[:-1], dealt[-1])
        scores = _WorldScores(world, view, dealt)
        for bid in candidates:
            totals[bid] += scores.of(bid)
        budget -= costs.deal * scores.playouts
        worlds += 1
    return BidEstimates({bid: total / max(worlds, 1) for bid, total in totals.items()}, worlds)


def choose_bid(view: View, rng: random.Random, budget: float, deadline: float,
               costs: BidCosts = BidCosts()) -> Bid | None:  # frozen: shared safely
    """The bid with the best mean score over the sampled worlds, or None when fewer than
    ``MIN_WORLDS`` consistent worlds were found (the caller then bids by the heuristic)."""
    candidates = candidate_bids(view)
    if len(candidates) == 1:
        return Bid(view.seat, candidates[0])
    estimates = estimate_bids(view, rng, budget, deadline, costs)
    if estimates.worlds < MIN_WORLDS:
        return None
    return Bid(view.seat, estimates.best())


class _WorldScores:
    """The seat's score in one world for each of its bids, each (taker, contract) played once."""

    def __init__(self, world: Deal, view: View, hands: list[int]) -> None:
        self.world = world
        self.view = view
        self.hands = hands
        self.played: dict[tuple[int, Contract], int] = {}

    @property
    def playouts(self) -> int:
        return len(self.played)

    def of(self, bid: Contract | None) -> int:
        taker, contract = bidding_outcome(self.hands, self.view, bid)
        if taker is None or contract is None:
            return 0  # everyone passed: the deal is annulled
        key = (taker, contract)
        if key not in self.played:
            # the seat's score, the attack's card points corrected where the seat takes
            deal = start_play(self.world, taker, contract)
            packed = Board(deal).play_out()
            correction = attack_correction(deal.players, contract, taker, self.view.seat)
            scores = score_of(packed, *score_args(deal), correction)
            self.played[key] = scores[self.view.seat]
        return self.played[key]
