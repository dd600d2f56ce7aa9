"""A seat's observation for the research environment (issue 36): one fixed-size int8 vector built
from the seat's ``View`` only (never a card it may not see), every seat counted from the
observer (0: itself, 1: the next to play after it…, padded to five).

| part | size |
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
| each hand's size | 5 |
"""

from __future__ import annotations

import numpy as np

from tarot.engine import View
from tarot.engine.cards import mask_of

from .spaces import Selection

SEATS = 5
CARD_PLANES = 13
SIZE = 78 * CARD_PLANES + SEATS * 6 + 5 + 3 * 6 + 5 + 5 + 8 + 3 + 1 + 5
BINARY_BYTES = (SIZE - SEATS + 7) // 8  # every part but the hands' sizes is 0 or 1
PHASES = ("bidding", "call", "ecart", "announce", "poignee", "poignee_cards", "play", "done")


def played_by_seat(view: View) -> list[int]:
    """The cards each seat has played (masks by seat), from the tricks the view shows."""
    played = [0] * view.players
    for trick in view.tricks:
        for s, card in trick.plays:
            played[s] |= 1 << int(card)
    if view.trick_leader is not None:
        for i, card in enumerate(view.trick):
            played[(view.trick_leader + i) % view.players] |= 1 << int(card)
    return played


def observe(view: View, selection: Selection | None, choosing_poignee: bool,
            played_by: list[int] | None = None) -> np.ndarray:
    """The vector of ``view`` (the seat's own), with the choice under way; ``played_by``: the cards
    each seat has played as ``played_by_seat(view)`` says, when the caller keeps them up to date."""
    n, seat = view.players, view.seat

    def rel(s: int) -> int:  # (a seat as the observer counts it)
        return (s - seat) % n

    out = np.zeros(SIZE, np.int8)
    by_seat = played_by if played_by is not None else played_by_seat(view)
    played = [0] * SEATS
    for s, mask in enumerate(by_seat):
        played[rel(s)] = mask
    leader = view.trick_leader
    shown = 0
    for cards in view.poignees.values():
        shown |= cards.mask
    planes = [view.hand.mask, *played, mask_of(view.trick), view.chien.mask if view.chien is not None else 0,
              view.ecart.mask if view.ecart is not None else 0, view.ecart_trumps.mask, shown,
              1 << int(view.called) if view.called is not None else 0,
              selection.chosen if selection is not None else 0]
    # every 0/1 part in one int, each at its place: one conversion to bits, not one write a part
    whole = 0
    for k, plane in enumerate(planes):
        whole |= plane << (78 * k)
    at = 78 * CARD_PLANES
    last_bid: dict[int, int] = {}
    for s, contract in view.bids:  # (in order: the last one stays)
        last_bid[rel(s)] = 1 + (0 if contract is None else int(contract))
    for r, bid in last_bid.items():
        whole |= 1 << (at + 6 * r + bid)
    at += SEATS * 6
    whole |= 1 << (at + (0 if view.contract is None else int(view.contract)))
    at += 5
    for who in (view.taker, view.partner, leader):
        whole |= 1 << (at + (0 if who is None else 1 + rel(who)))
        at += 6
    whole |= 1 << (at + rel(view.dealer))
    at += 5
    for s in view.poignees:
        whole |= 1 << (at + rel(s))
    at += 5
    phase = view.phase
    if selection is not None:
        phase = "poignee_cards" if selection.kind == "poignee" else "ecart"
    elif choosing_poignee:
        phase = "poignee"
    whole |= 1 << (at + PHASES.index(phase if phase in PHASES else "done"))
    at += 8
    whole |= 1 << (at + n - 3)
    at += 3
    whole |= int(view.chelem_announced) << at
    at += 1
    out[:at] = np.unpackbits(np.frombuffer(whole.to_bytes(BINARY_BYTES, "little"), np.uint8),
                             bitorder="little")[:at]
    for s, size in enumerate(view.hand_sizes):
        out[at + rel(s)] = size
    return out
