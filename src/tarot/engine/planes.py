"""A seat's observation as bits, for learning agents (issue 36; ``tarot.env`` turns it into numpy).

Read straight from the deal's own masks, which the engine keeps up to date as the deal goes on
(the hands, the cards won, the trick under way): nothing is rebuilt from the history, and no
``View`` is built. Only what ``seat`` may see goes in (the same as ``Observer``'s view: the tests
compare the two at every step). Every seat is counted from the observer (0: itself, 1: the next
to play after it…), padded to five. The layout, in order:

| part | bits |
|---|---|
| its hand | 78 |
| the cards each seat has played (from the observer) | 5 × 78 |
| the trick in progress | 78 |
| the chien, once shown | 78 |
| its own écart (the taker) | 78 |
| the écart's trumps, shown to all (R11) | 78 |
| the cards shown in poignées | 78 |
| the called card (5 players) | 78 |
| the écart or poignée being chosen card by card | 78 |
| each seat's last bid (none, pass, prise, garde, garde sans, garde contre) | 5 × 6 |
| the contract (none, prise…garde contre) | 5 |
| the taker, the partner once known, the trick's leader (none or a seat) | 3 × 6 |
| the dealer | 5 |
| who showed a poignée | 5 |
| the phase (bidding, call, écart, chelem, poignée, poignée's trumps, play, over) | 8 |
| the number of players (3, 4, 5) | 3 |
| the chelem announced | 1 |

then, apart (small counts, not bits), each hand's size (5, from the observer).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from .phases import Phase
from .rules import Contract
from .view import chien_shown

if TYPE_CHECKING:
    from .deal import Deal

__all__ = ["BITS", "PHASES", "SEATS", "observation_bits", "pack"]

SEATS: Final = 5
CARD_PLANES: Final = 13
BITS: Final = 78 * CARD_PLANES + SEATS * 6 + 5 + 3 * 6 + 5 + 5 + 8 + 3 + 1
PHASES: Final = ("bidding", "call", "ecart", "announce", "poignee", "poignee_cards", "play", "done")
_PHASE_INDEX: Final = {p: i for i, p in enumerate(PHASES)}
_PLAY: Final = Phase.PLAY
# where each part past the card planes starts
_BIDS_AT: Final = 78 * CARD_PLANES
_CONTRACT_AT: Final = _BIDS_AT + SEATS * 6
_WHO_AT: Final = _CONTRACT_AT + 5
_DEALER_AT: Final = _WHO_AT + 3 * 6
_POIGNEE_AT: Final = _DEALER_AT + 5
_PHASE_AT: Final = _POIGNEE_AT + 5
_PLAYERS_AT: Final = _PHASE_AT + 8
_CHELEM_AT: Final = _PLAYERS_AT + 3
_REL: Final = {n: [[(s - seat) % n for s in range(n)] for seat in range(n)] for n in (3, 4, 5)}


def observation_bits(deal: Deal, seat: int, choosing: str | None = None,
                     chosen: int = 0) -> tuple[int, list[int]]:
    """``seat``'s observation of ``deal`` now: the bits of the layout above as one int (bit ``i``
    is part ``i``), and each hand's size from the observer. ``choosing``: what the seat is in the
    middle of deciding, when the engine's phase does not say it ("poignee": whether to show one;
    "poignee_cards" or "ecart": the cards, ``chosen`` so far)."""
    hands = list(deal.hands)
    won = deal.won
    trick = deal.trick_mask
    played_all = won[0] | won[1] | trick  # every card of the tricks so far
    taker = deal.taker
    chien = deal.chien
    # the chien's cards: only the taker's to play
    played = [held & played_all for held in deal.dealt]
    if taker is not None:
        played[taker] = (deal.dealt[taker] | chien) & played_all
    shown = 0
    for cards in deal.poignees.values():
        shown |= cards
    phase = deal.phase
    return pack(deal.players, seat, hands[seat], played, trick, chien if chien_shown(deal) else 0,
                deal.ecart if seat == taker else 0, deal.ecart_trumps, shown, deal.called, chosen,
                deal.dealer + 1, deal.bids, deal.contract, taker, deal.partner_known_to(seat),
                deal.leader if phase is _PLAY else None, deal.dealer, deal.poignees,
                phase.value if choosing is None else choosing, deal.chelem_announced,
                [h.bit_count() for h in hands])


def pack(n: int, seat: int, hand: int, played: list[int], trick: int, chien: int, ecart: int,
         ecart_trumps: int, shown: int, called: int | None, chosen: int, first_bidder: int,
         bids: Iterable[Contract | None], contract: Contract | None, taker: int | None,
         partner: int | None, leader: int | None, dealer: int, showed: Iterable[int], phase: str,
         chelem: bool, hand_sizes: list[int]) -> tuple[int, list[int]]:
    """The layout's bits and the hands' sizes from its parts (masks; seats as the table counts
    them; ``bids`` in order from ``first_bidder``, each seat's one bid, R7; ``phase``: one of
    ``PHASES``), counted from ``seat``: ``observation_bits`` reads the parts from a deal,
    ``tarot.env.observe.observe_view`` from a seat's ``View``."""
    rel = _REL[n][seat]  # (each seat as the observer counts it)
    # the card planes, from the last one down (one 78-bit plane appended at a time)
    by_rel = [0] * SEATS
    sizes = [0] * SEATS
    for s in range(n):
        by_rel[rel[s]] = played[s]
        sizes[rel[s]] = hand_sizes[s]
    cards = chosen
    for plane in (0 if called is None else 1 << int(called), shown, ecart_trumps, ecart, chien, trick,
                  *reversed(by_rel), hand):
        cards = cards << 78 | plane
    # the small parts, in a small int first (offsets from the bids' part)
    small = 0
    for i, bid in enumerate(bids):
        small |= 1 << (6 * rel[(first_bidder + i) % n] + (1 if bid is None else 1 + bid))
    small |= (1 << (_CONTRACT_AT - _BIDS_AT + (0 if contract is None else contract))
              | 1 << (_WHO_AT - _BIDS_AT + (0 if taker is None else 1 + rel[taker]))
              | 1 << (_WHO_AT + 6 - _BIDS_AT + (0 if partner is None else 1 + rel[partner]))
              | 1 << (_WHO_AT + 12 - _BIDS_AT + (0 if leader is None else 1 + rel[leader]))
              | 1 << (_DEALER_AT - _BIDS_AT + rel[dealer])
              | 1 << (_PHASE_AT - _BIDS_AT + _PHASE_INDEX[phase])
              | 1 << (_PLAYERS_AT - _BIDS_AT + n - 3)
              | int(bool(chelem)) << (_CHELEM_AT - _BIDS_AT))
    for s in showed:
        small |= 1 << (_POIGNEE_AT - _BIDS_AT + rel[s])
    bits = cards | small << _BIDS_AT
    return bits, sizes
