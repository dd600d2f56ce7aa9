"""What a seat can deduce from its view: cards seen, voids, trump ceilings, known holdings.

Everything here is computed from a ``View`` only, so it never uses a hidden card. Both the
heuristic bot (to play) and the search bot (to sample consistent worlds) build on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from tarot.engine import View
from tarot.engine.cards import (
    ABOVE,
    EXCUSE_BIT,
    FOLLOW_MASK,
    FULL_DECK,
    KINGS,
    OUDLERS,
    TRUMPS,
)

ALL_TRUMPS_CEILING = 77  # a seat may hold any trump below this index


def lead_mask_of(cards: Sequence[int]) -> int:
    """The mask a trick's cards must follow (the Excuse leaves the lead to the next card)."""
    for c in cards:
        if c != 77:
            return FOLLOW_MASK[c]
    return 0


def best_index(cards: Sequence[int]) -> int:
    """Index in ``cards`` of the card winning so far (the Excuse never wins before R19)."""
    lead = lead_mask_of(cards)
    best = -1
    best_key = -1
    for i, c in enumerate(cards):
        bit = 1 << c
        key = 200 + c if bit & TRUMPS else (c if bit & lead else -1)
        if key > best_key:
            best, best_key = i, key
    return best


@dataclass
class Knowledge:
    """Public facts plus this seat's own cards, derived from one view."""

    seat: int
    players: int
    hand: int  # my cards
    played: int  # every card seen played (tricks and the current trick)
    held: dict[int, int]  # seat → cards known to be in that hand now (poignée, chien with the taker)
    voids: list[int] = field(default_factory=list)  # per seat: masks it cannot hold
    ceilings: list[int] = field(default_factory=list)  # per seat: holds no trump at or above this
    played_by: list[int] = field(default_factory=list)  # per seat: cards it played
    taker: int | None = None
    partner: int | None = None  # as known to me (the taker's seat: alone)
    pile_size: int = 0  # cards set aside (chien or écart), in no hand
    pile_known: int = 0  # cards known to be set aside (my écart as taker, the écart's trumps)
    pile_allowed: int = FULL_DECK  # cards that may be set aside
    taker_or_pile: int = 0  # shown chien cards now with the taker or in the écart
    not_partner: frozenset[int] = frozenset()  # 5 players: seats shown not to hold the called card

    @cached_property  # read many times per decision; the knowledge never changes once built
    def unseen(self) -> int:
        """Cards whose place I do not know (in another hand, or in the unseen chien/écart)."""
        known = self.hand | self.played | self.pile_known
        for mask in self.held.values():
            known |= mask
        return FULL_DECK & ~known

    def trumps_out(self) -> int:
        """Trumps (Excuse excluded) not in my hand and not yet played."""
        return TRUMPS & ~self.hand & ~self.played & ~self.pile_known

    def friends(self) -> set[int]:
        """Seats known to play on my side (myself included)."""
        me = self.seat
        taker = self.taker
        if taker is None:
            return {me}
        attack = {taker}
        if self.partner is not None:
            attack.add(self.partner)
        if me in attack:
            return attack
        if self.partner is not None or self.players < 5:
            return set(range(self.players)) - attack
        # 5 players, partner unknown: a seat shown not to hold the called card defends with me.
        return {me} | (self.not_partner - {taker})

    def foes(self) -> set[int]:
        me = self.seat
        taker = self.taker
        if taker is None:
            return set()
        friends = self.friends()
        if self.partner is None and self.players == 5:
            return set(range(self.players)) - {me} if me == taker else {taker}
        return set(range(self.players)) - friends


def knowledge_of(view: View) -> Knowledge:
    """Deduce a :class:`Knowledge` from ``view`` (the view of a player's seat)."""
    n = view.players
    seat = view.seat
    hand = view.hand.mask
    voids = [0] * n
    ceilings = [ALL_TRUMPS_CEILING] * n
    played_by = [0] * n
    played = 0
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick and view.trick_leader is not None:
        tricks.append((view.trick_leader, view.trick))
    for leader, cards in tricks:
        lead = 0
        high = -1  # highest trump so far
        for i, card in enumerate(cards):
            who = (leader + i) % n
            bit = 1 << card
            played |= bit
            played_by[who] |= bit
            if card == 77:
                continue
            if lead and not bit & lead:
                voids[who] |= lead  # R15: did not follow
                if not bit & TRUMPS:
                    voids[who] |= TRUMPS  # nor trumped
            if bit & TRUMPS:
                if lead and high > card:  # undertrumped: R15 says it holds no higher trump
                    ceilings[who] = min(ceilings[who], high)
                high = max(high, card)
            if not lead:
                lead = FOLLOW_MASK[card]
    for s in range(n):
        if voids[s] & TRUMPS:
            ceilings[s] = 0
        voids[s] |= ABOVE[ceilings[s]] if ceilings[s] < ALL_TRUMPS_CEILING else 0
    held: dict[int, int] = {}
    for s, shown in view.poignees.items():
        shown_mask = shown.mask
        if s != seat:
            held[s] = shown_mask & ~played
            if EXCUSE_BIT & shown_mask:
                # R14: a poignée with the Excuse shows every trump the hand held.
                voids[s] |= TRUMPS & ~shown_mask
    taker = view.taker
    contract = view.contract
    pile_size = 78 - sum(view.hand_sizes) - played.bit_count()
    pile_known = 0
    pile_allowed = FULL_DECK  # the chien, before it is taken or when it stays hidden (R12)
    taker_or_pile = 0
    called_bit = 0 if view.called is None else 1 << int(view.called)
    if taker is not None and contract is not None and contract.chien_shown and view.chien is not None:
        chien = view.chien.mask & ~played
        if seat == taker:
            pile_known = view.ecart.mask if view.ecart is not None else 0
        elif view.phase == "ecart":
            held[taker] = held.get(taker, 0) | chien
        else:
            # R11: the écart holds no king, no oudler, not the called card, and no trump but
            # those shown (which the taker may have shown in a poignée too: R14).
            pile_known = view.ecart_trumps.mask
            pile_allowed = FULL_DECK & ~(TRUMPS | KINGS | OUDLERS | called_bit) | pile_known
            held[taker] = (held.get(taker, 0) & ~pile_known) | (chien & ~pile_allowed)
            taker_or_pile = chien & pile_allowed & ~pile_known
            if pile_known:  # trumps went in only because no other card could (R11)
                voids[taker] |= FULL_DECK & ~(TRUMPS | KINGS | OUDLERS | called_bit)
    partner = view.partner
    not_partner: frozenset[int] = frozenset()
    if partner is None and taker is not None and called_bit:
        # R8: the partner holds the called card until it is played, so a seat void in its suit,
        # or a defender's own seat, is not the partner. When none is left, the card lies in the
        # hidden chien (the taker plays alone); when one is left, it is the partner if the chien
        # was shown (the card is not there, or everyone would know) and the écart cannot hold it.
        excluded = {s for s in range(n) if s != taker and voids[s] & called_bit}
        if seat != taker:
            excluded.add(seat)
        candidates = set(range(n)) - excluded - {taker}
        if len(candidates) == 1 and contract is not None and contract.chien_shown:
            partner = candidates.pop()
        elif not candidates:
            partner = taker
        not_partner = frozenset(excluded)
    return Knowledge(seat=seat, players=n, hand=hand, played=played, held=held, voids=voids,
                     ceilings=ceilings, played_by=played_by, taker=taker, partner=partner,
                     pile_size=pile_size, pile_known=pile_known, pile_allowed=pile_allowed,
                     taker_or_pile=taker_or_pile, not_partner=not_partner)
