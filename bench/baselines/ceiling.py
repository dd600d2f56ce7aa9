"""A ceiling to measure against: a bot that bids and plays from the true deal.

It sees every card (the arena hands it the whole deal before each decision: ``see_deal``), so it
is a measuring stick, never a player: the heuristic→ceiling gap, and the share of it a bot closes,
say how much better card play and bids could still do. It bids and plays as the search does, but
in the one true world instead of sampled ones: each legal bid is the deal played out (the others'
later bids as the heuristic's, the heuristic's écart, call and poignée, the playout policy for
every card), each legal card is that card then a playout. The rest (écart, call, chelem,
poignée) is the heuristic's. From the repository root:

    tarot arena --players 4 --deals 500 --candidate bench.baselines.ceiling:Ceiling \\
        --baseline heuristic --seed 1 --jobs 2

Where the gap lies: ``CeilingBids`` bids from the true deal and plays the heuristic's cards,
``CeilingCards`` the other way round; ``CeilingDefence`` and ``CeilingAttack`` play the true
deal's cards only in defence or only in attack (the heuristic's bids).
"""

from __future__ import annotations

from tarot.bots.bid_model import best_bid
from tarot.bots.bidding import bidding_outcome
from tarot.bots.heuristic import HeuristicBot
from tarot.bots.knowledge import Knowledge
from tarot.bots.playout import Board, score_args, score_of
from tarot.bots.rollout import start_play
from tarot.engine import Bid, Contract, Deal, View


class Ceiling(HeuristicBot):
    """Bids and cards from the true deal (``see_deal``); the heuristic's other decisions."""

    name = "ceiling"

    def __init__(self, seed: int | None = None, **options: object) -> None:
        super().__init__(seed)
        self.deal: Deal | None = None

    def see_deal(self, deal: Deal) -> None:
        self.deal = deal

    def bid(self, view: View) -> Bid:
        deal = self._true_deal()
        world = Deal.__new__(Deal)
        world._setup(deal.variant, deal.dealer, list(deal.dealt), deal.chien)
        options = [a.contract for a in view.legal if isinstance(a, Bid)]
        scores = {bid: self._taking(world, view, bid) for bid in options}
        return Bid(view.seat, max(options, key=lambda bid: (scores[bid], -options.index(bid))))

    def _taking(self, world: Deal, view: View, mine: Contract | None) -> int:
        """The seat's score when it bids ``mine`` and the seats after it bid as the heuristic."""
        taker, contract = bidding_outcome(list(world.dealt), view, mine, best_bid)
        if taker is None or contract is None:
            return 0  # all passed: annulled
        deal = start_play(world, taker, contract)
        return score_of(Board(deal).play_out(), *score_args(deal))[view.seat]

    def card(self, view: View, k: Knowledge, legal: int) -> int:
        deal = self._true_deal()
        board = Board(deal)
        args = score_args(deal)
        cards = [c for c in range(78) if legal >> c & 1]
        means = {c: score_of(board.after(c), *args)[view.seat] for c in cards}
        return max(cards, key=lambda c: (means[c], -c))

    def _true_deal(self) -> Deal:
        if self.deal is None:
            raise RuntimeError("the ceiling plays only where it is handed the deal (the arena)")
        return self.deal


class CeilingBids(Ceiling):
    """The ceiling's bids, the heuristic's cards."""

    name = "ceiling-bids"
    card = HeuristicBot.card


class CeilingCards(Ceiling):
    """The heuristic's bids, the ceiling's cards."""

    name = "ceiling-cards"
    bid = HeuristicBot.bid


class _CeilingOnOneSide(CeilingCards):
    """The heuristic's bids; the ceiling's cards on one side (``ceiling_attacking``: in attack,
    else in defence), the heuristic's on the other."""

    ceiling_attacking: bool

    def card(self, view: View, k: Knowledge, legal: int) -> int:
        attacking = view.taker is not None and view.taker in k.friends()
        play = Ceiling.card if attacking == self.ceiling_attacking else HeuristicBot.card
        return play(self, view, k, legal)


class CeilingDefence(_CeilingOnOneSide):
    """The heuristic's bids; the ceiling's cards in defence, the heuristic's in attack."""

    name = "ceiling-defence"
    ceiling_attacking = False


class CeilingAttack(_CeilingOnOneSide):
    """The heuristic's bids; the ceiling's cards in attack, the heuristic's in defence."""

    name = "ceiling-attack"
    ceiling_attacking = True
