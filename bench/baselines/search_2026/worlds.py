"""A sampled world built straight from the seat's view and the hidden cards drawn (issue 19).

``sampler.rebuild`` replays every public action through the engine, which re-checks each one:
the reference, but it costs a dozen playouts a world. ``WorldBuilder`` reads the view once (the
tricks and who won them, the trick in progress, the contract, the call, the poignées) and then,
for each draw, sets a ``Deal``'s card-play state directly. It refuses exactly the draws the
replay would refuse, with a few mask tests instead of the replay's checks:

- a hand dealt as a petit sec (R6: the deal would have been annulled);
- the call (R8: a queen is called only by a taker who held the four kings, …);
- the écart (R10, R11: no king, no oudler, not the called card, trumps only as many as needed;
  the shown chien's cards are with the taker or in the écart, the écart's trumps those shown);
- a card a seat could not hold given its play: the voids and trump ceilings of ``Knowledge``
  (R15), and every trump of a hand whose poignée showed the Excuse (R14).

``tests/test_worlds.py`` holds it to the replay on thousands of draws, consistent and not.
"""

from __future__ import annotations

from tarot.engine import Deal, Phase, View
from tarot.engine.cards import EXCUSE_BIT, KINGS, OUDLERS, TRUMPS
from tarot.engine.core import ATTACK, DEFENCE
from tarot.engine.rules import variant

from .knowledge import Knowledge, lead_mask_of

_PLAY = Phase.PLAY


class WorldBuilder:
    """Builds the worlds of one card-play view: ``build(hidden)`` for each draw."""

    def __init__(self, view: View, k: Knowledge) -> None:
        if view.phase != "play" or view.taker is None or view.contract is None:
            raise ValueError("a world is built directly only in the play phase")
        n = k.players
        seat = k.seat
        self.players = n
        self.variant = variant(n)
        self.dealer = view.dealer
        self.taker = view.taker
        self.contract = contract = view.contract
        self.chien_shown = contract.chien_shown and view.chien is not None
        self.shown_chien = view.chien.mask if self.chien_shown and view.chien is not None else 0
        self.pile_known = k.pile_known
        self.known = [k.hand if s == seat else k.held.get(s, 0) for s in range(n)]
        self.forbidden = [0 if s == seat else k.voids[s] for s in range(n)]
        self.played_by = k.played_by
        self.bids = [contract for _, contract in view.bids]
        self.called = view.called
        self.called_bit = 0 if view.called is None else 1 << int(view.called)
        self.callable = self._callable_needs()
        self.ecart_trumps = view.ecart_trumps.mask
        self.chelem_announced = view.chelem_announced
        self.poignees = {s: shown.mask for s, shown in view.poignees.items()}
        self.turn = view.turn
        self.leader = view.trick_leader
        self.trick = list(view.trick)
        self.trick_mask = sum(1 << c for c in view.trick)
        self.lead_mask = lead_mask_of(view.trick)
        self.trick_high = max((c for c in view.trick if (1 << c) & TRUMPS), default=0)
        self.tricks = list(view.tricks)
        # Who won what, by seat: the sides are the world's (the partner is at 5 players).
        self.won_by = [0] * n
        self.count_by = [0] * n
        self.excuse: tuple[int, int] | None = None  # (who played it, who won its trick)
        for t in view.tricks:
            self.won_by[t.winner] |= sum(1 << c for c in t.cards)
            self.count_by[t.winner] += 1
            if 77 in t.cards:
                self.excuse = ((t.leader + t.cards.index(77)) % n, t.winner)
        self._by_partner: dict[int | None, tuple[list[int], list[int], list[int], int]] = {}

    def _callable_needs(self) -> int:
        """The cards the taker held when it called (R8): the ranks above the called card's."""
        if self.called is None or self.called_bit & KINGS:
            return 0
        rank = int(self.called) % 14
        return sum(1 << (14 * suit + above) for suit in range(4) for above in range(rank + 1, 14))

    def _sides(self, partner: int | None) -> tuple[list[int], list[int], list[int], int]:
        """(side, won, tricks won, excuse adjustment) of the finished tricks, given the partner."""
        cached = self._by_partner.get(partner)
        if cached is not None:
            return cached
        side = [DEFENCE] * self.players
        side[self.taker] = ATTACK
        if partner is not None:
            side[partner] = ATTACK
        won = [0, 0]
        tricks_won = [0, 0]
        for s in range(self.players):
            won[side[s]] |= self.won_by[s]
            tricks_won[side[s]] += self.count_by[s]
        adjust = 0
        if self.excuse is not None:
            owner, winner = (side[s] for s in self.excuse)
            if owner != winner:  # R17: the Excuse stays with its side, owing half a point
                won[winner] &= ~EXCUSE_BIT
                won[owner] |= EXCUSE_BIT
                adjust = 1 if owner == DEFENCE else -1
        cached = self._by_partner[partner] = (side, won, tricks_won, adjust)
        return cached

    def build(self, hidden: list[int]) -> Deal | None:
        """The world where the hidden cards are ``hidden`` (``sampler.deal_hidden``'s masks), or
        None when the public play rules it out (the replay would refuse it)."""
        n = self.players
        now = self.known[:]
        forbidden = self.forbidden
        for s in range(n):
            now[s] |= hidden[s]  # nothing hidden for the seat itself
            if now[s] & forbidden[s]:
                return None  # R14, R15
        pile = hidden[n] | self.pile_known
        played_by = self.played_by
        dealt = [now[s] | played_by[s] for s in range(n)]
        taker = self.taker
        chien = self.shown_chien
        if self.chien_shown:
            for s in range(n):
                if s != taker and dealt[s] & chien:
                    return None
            dealt[taker] = (dealt[taker] | pile) & ~chien
            if not self._ecart_allowed(dealt[taker] | chien, pile):
                return None
            ecart = pile
        else:
            chien = pile
            ecart = 0
        if self.callable and dealt[taker] & self.callable != self.callable:
            return None  # R8
        partner = None
        if self.called_bit:
            for s in range(n):
                if s != taker and dealt[s] & self.called_bit:
                    partner = s
        deal = Deal.__new__(Deal)
        deal._setup(self.variant, self.dealer, dealt, chien)
        if deal.annulled is not None:  # R6: a petit sec
            return None
        side, won, tricks_won, adjust = self._sides(partner)
        deal.hands = now
        deal.bids = self.bids[:]
        deal.high_bid = deal.contract = self.contract
        deal.taker = taker
        deal.called = self.called
        deal.partner = partner
        deal.side = side[:]
        deal.ecart = ecart
        deal.ecart_trumps = self.ecart_trumps
        deal.chelem_announced = self.chelem_announced
        deal.poignees = self.poignees.copy()
        deal.tricks = self.tricks[:]
        deal.won = won[:]
        deal.tricks_won = tricks_won[:]
        deal.excuse_adjust = adjust
        deal.leader = self.leader  # type: ignore[assignment]
        deal.trick = self.trick[:]
        deal.trick_mask = self.trick_mask
        deal.lead_mask = self.lead_mask
        deal.trick_high = self.trick_high
        deal.phase = _PLAY
        deal.turn = self.turn
        deal._legal = -1
        return deal

    def _ecart_allowed(self, hand: int, ecart: int) -> bool:
        """R10/R11 for the écart ``ecart`` made from ``hand`` (the taker's cards and the chien),
        as ``Deal.ecart_options`` and its check say; the trumps in it must be those shown."""
        if ecart & (KINGS | OUDLERS | self.called_bit) or ecart & TRUMPS != self.ecart_trumps:
            return False
        plain = hand & ~(TRUMPS | KINGS | OUDLERS | self.called_bit)
        need = max(0, self.variant.chien_size - plain.bit_count())
        return (ecart & TRUMPS).bit_count() <= need
