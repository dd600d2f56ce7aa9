"""The research environment's fixed discrete action space (issue 36), one id for every decision
of a deal, and the legal ids of a seat's view (its mask).

| ids | what |
|---|---|
| 0–77 | a card (``tarot.engine.cards`` order): the card to play, the card to call (5 players), |
| | the next card of the écart, the next trump of a poignée |
| 78 | pass |
| 79–82 | bid prise, garde, garde sans, garde contre |
| 83, 84 | the chelem: decline, announce |
| 85 | show no poignée |
| 86–88 | show a simple, double, triple poignée (its trumps are then chosen one by one) |

The écart (R10–R11) and a poignée's trumps (R14) are chosen a card at a time (``Selection``): each
step offers only cards that keep the whole choice legal, and the last one completes the engine's
action. Plain ints and masks (a set of ids is an int, bit ``i`` for id ``i``): no numpy here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tarot.engine import (
    Action,
    Bid,
    Call,
    Chelem,
    Contract,
    Deal,
    Ecart,
    EcartOptions,
    Phase,
    Play,
    Poignee,
    PoigneeOptions,
    View,
    variant,
)
from tarot.engine.cards import CARDS, EXCUSE_BIT, TRUMPS, cards_of

CARD_IDS = 78
PASS = 78
BIDS = {PASS: None, 79: Contract.PRISE, 80: Contract.GARDE, 81: Contract.GARDE_SANS,
        82: Contract.GARDE_CONTRE}
BID_ID = {contract: i for i, contract in BIDS.items()}
CHELEM_NO, CHELEM_YES = 83, 84
POIGNEE_NO = 85
POIGNEE_SIZES = (86, 87, 88)  # simple, double, triple
ACTIONS = 89


@dataclass
class Selection:
    """An écart or a poignée being chosen card by card: ``kind`` ("ecart" or "poignee"), the
    number of cards it takes, the cards chosen so far (a mask)."""

    kind: str
    count: int
    chosen: int = 0

    @property
    def done(self) -> bool:
        return self.chosen.bit_count() == self.count


def ids_in(mask: int) -> list[int]:
    """The ids of a mask of ids (bit ``i``: id ``i``), in order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def legal_mask(deal: Deal, selection: Selection | None, poignee_decided: bool = False) -> int:
    """The ids the seat to act at ``deal`` may take now, as a mask (bit ``i``: id ``i``; the cards'
    ids are the engine's card bits): ``selection`` is the choice under way; ``poignee_decided``,
    the seat has declined its poignée (it plays its card now)."""
    phase = deal.phase
    if phase is Phase.PLAY:
        if selection is not None:
            return selectable(selection, None, deal.poignee_options())
        poignee = None if poignee_decided else deal.poignee_options()
        return deal.legal_mask() if poignee is None else _poignee_sizes(deal.players, poignee)
    if phase is Phase.ECART:
        ecart = deal.ecart_options()
        assert ecart is not None
        return selectable(selection or Selection("ecart", ecart.size), ecart, None)
    if phase is Phase.CALL:
        return deal.callable_mask()
    if phase is Phase.ANNOUNCE:
        return 1 << CHELEM_NO | 1 << CHELEM_YES
    return _actions_mask(deal.legal_actions())


def legal_mask_of_view(view: View, selection: Selection | None, poignee_decided: bool = False) -> int:
    """``legal_mask`` from the acting seat's ``View`` (all a bot in ``tarot arena`` is given)."""
    poignee = view.poignee_options
    if poignee is not None and selection is not None:
        return selectable(selection, None, poignee)
    if poignee is not None and not poignee_decided:
        return _poignee_sizes(view.players, poignee)
    if view.ecart_options is not None:
        return selectable(selection or Selection("ecart", view.ecart_options.size), view.ecart_options, None)
    return _actions_mask(view.legal)


def _poignee_sizes(players: int, poignee: PoigneeOptions) -> int:
    mask = 1 << POIGNEE_NO
    for _, count in poignee.sizes:
        mask |= 1 << POIGNEE_SIZES[size_index(players, count)]
    return mask


def _actions_mask(actions: Iterable[Action]) -> int:
    mask = 0
    for action in actions:
        if isinstance(action, Play | Call):
            mask |= 1 << int(action.card)
        elif isinstance(action, Bid):
            mask |= 1 << BID_ID[action.contract]
        elif isinstance(action, Chelem):
            mask |= 1 << (CHELEM_YES if action.announce else CHELEM_NO)
    return mask


def size_index(players: int, count: int) -> int:
    """0, 1, 2 for the simple, double, triple poignée of ``count`` trumps at ``players``."""
    return variant(players).poignee_thresholds.index(count)


def selectable(sel: Selection, ecart: EcartOptions | None, poignee: PoigneeOptions | None) -> int:
    """The cards that may be added to ``sel`` and still complete a legal écart (``ecart``'s
    options) or poignée (``poignee``'s)."""
    if sel.kind == "ecart":
        assert ecart is not None
        allowed = ecart.allowed_mask & ~sel.chosen
        if (sel.chosen & TRUMPS).bit_count() >= ecart.trumps_needed:
            allowed &= ~TRUMPS  # (no trump unless R11 asks for them, and only so many)
        return allowed
    assert poignee is not None
    allowed = poignee.allowed_mask
    plain = allowed & TRUMPS  # (the 21 trumps; the Excuse is not one)
    # R14: the Excuse only in a poignée that shows every trump (it makes up the count)
    if plain.bit_count() + 1 == sel.count and allowed & EXCUSE_BIT:
        return allowed & ~sel.chosen
    return plain & ~sel.chosen


def to_action(at: Deal | View, action_id: int,
              selection: Selection | None) -> tuple[Action | None, Selection | None]:
    """The engine action ``action_id`` of the seat to act makes at ``at`` (the deal, or that seat's
    view; None while an écart or a poignée is still being chosen), and the choice under way after it."""
    if isinstance(at, View):
        seat: int | None = at.seat
        phase = Phase(at.phase)
    else:
        seat, phase = at.turn, at.phase
    assert seat is not None
    if selection is not None or (phase is Phase.ECART and action_id < CARD_IDS):
        sel = selection or Selection("ecart", variant(at.players).chien_size)
        sel.chosen |= 1 << action_id
        if not sel.done:
            return None, sel
        cards = cards_of(sel.chosen)
        return (Ecart(seat, cards) if sel.kind == "ecart" else Poignee(seat, cards)), None
    if action_id == POIGNEE_NO:
        return None, None  # (the seat plays its card next: the caller notes the poignée declined)
    if action_id in POIGNEE_SIZES:
        count = variant(at.players).poignee_thresholds[POIGNEE_SIZES.index(action_id)]
        return None, Selection("poignee", count)
    if action_id in BIDS:
        return Bid(seat, BIDS[action_id]), None
    if action_id in (CHELEM_NO, CHELEM_YES):
        return Chelem(seat, action_id == CHELEM_YES), None
    card = CARDS[action_id]
    return (Call(seat, card) if phase is Phase.CALL else Play(seat, card)), None
