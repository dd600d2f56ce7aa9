"""A seat's observation for the research environment (issue 36): the engine's observation bits
(``tarot.engine.planes``: the layout, read from the deal's own masks and only what the seat may
see) as one fixed-size int8 vector, then each hand's size (5 counts, from the observer). From a
seat's ``View`` too (``observe_view``), for an agent playing as a bot in ``tarot arena``."""

from __future__ import annotations

import numpy as np

from tarot.engine import Deal, View
from tarot.engine.cards import mask_of
from tarot.engine.planes import BITS, SEATS, observation_bits, pack

from .spaces import ACTIONS, Selection

SIZE = BITS + SEATS
_BYTES = (SIZE + 7) // 8  # (the hands' sizes are written over the bits past the layout's, all 0)
_MASK_BYTES = (ACTIONS + 7) // 8


def observe(deal: Deal, seat: int, selection: Selection | None = None,
            choosing_poignee: bool = False) -> np.ndarray:
    """The vector of ``seat``'s observation of ``deal``, with the choice under way (``selection``:
    an écart or a poignée being chosen card by card; ``choosing_poignee``: whether to show one)."""
    choosing, chosen = _choice(selection, choosing_poignee)
    return _vector(*observation_bits(deal, seat, choosing, chosen))


def observe_view(view: View, selection: Selection | None = None,
                 choosing_poignee: bool = False) -> np.ndarray:
    """The same vector from the seat's ``View`` (all a bot in ``tarot arena`` is given): equal to
    ``observe(deal, view.seat, …)`` at every step (tested)."""
    choosing, chosen = _choice(selection, choosing_poignee)
    n = view.players
    played = [0] * n
    for trick in view.tricks:
        for s, card in trick.plays:
            played[s] |= 1 << int(card)
    if view.trick_leader is not None:
        for i, card in enumerate(view.trick):
            played[(view.trick_leader + i) % n] |= 1 << int(card)
    shown = 0
    for cards in view.poignees.values():
        shown |= cards.mask
    return _vector(*pack(
        n, view.seat, view.hand.mask, played, mask_of(view.trick), view.chien.mask if view.chien else 0,
        view.ecart.mask if view.ecart else 0, view.ecart_trumps.mask, shown, view.called, chosen,
        view.dealer + 1, [c for _, c in view.bids], view.contract, view.taker, view.partner,
        view.trick_leader, view.dealer, view.poignees, choosing or view.phase, view.chelem_announced,
        list(view.hand_sizes)))


def _choice(selection: Selection | None, choosing_poignee: bool) -> tuple[str | None, int]:
    if selection is not None:
        return ("poignee_cards" if selection.kind == "poignee" else "ecart"), selection.chosen
    return ("poignee" if choosing_poignee else None), 0


def _vector(bits: int, sizes: list[int]) -> np.ndarray:
    out = np.unpackbits(np.frombuffer(bits.to_bytes(_BYTES, "little"), np.uint8), count=SIZE,
                        bitorder="little")
    out[BITS:] = sizes
    return out.view(np.int8)


def mask_vector(mask: int) -> np.ndarray:
    """The action mask (int8, one a legal id) of a mask of ids (``spaces.legal_mask``'s)."""
    return np.unpackbits(np.frombuffer(mask.to_bytes(_MASK_BYTES, "little"), np.uint8), count=ACTIONS,
                         bitorder="little").view(np.int8)
