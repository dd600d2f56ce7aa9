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
action. Plain ints and masks: no numpy here.
"""

from __future__ import annotations

from dataclasses import dataclass

from tarot.engine import Action, Bid, Call, Chelem, Contract, Ecart, Play, Poignee, View, variant
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


def card_ids(mask: int) -> list[int]:
    return [c for c in range(CARD_IDS) if mask >> c & 1]


def legal_ids(view: View, selection: Selection | None, poignee_decided: bool = False) -> list[int]:
    """The ids the seat of ``view`` may take now (its turn): ``selection`` is the choice under
    way; ``poignee_decided``, the seat has declined its poignée (it plays its card now)."""
    if selection is not None:
        return card_ids(_selectable(view, selection))
    if view.ecart_options is not None:
        return card_ids(_selectable(view, Selection("ecart", view.ecart_options.size)))
    if view.poignee_options is not None and not poignee_decided:
        return [POIGNEE_NO, *(POIGNEE_SIZES[size_index(view, n)] for _, n in view.poignee_options.sizes)]
    ids: list[int] = []
    for action in view.legal:
        if isinstance(action, Play | Call):
            ids.append(int(action.card))
        elif isinstance(action, Bid):
            ids.append(BID_ID[action.contract])
        elif isinstance(action, Chelem):
            ids.append(CHELEM_YES if action.announce else CHELEM_NO)
    return sorted(set(ids))


def size_index(view: View, count: int) -> int:
    """0, 1, 2 for the simple, double, triple poignée of ``count`` trumps at this table."""
    return variant(view.players).poignee_thresholds.index(count)


def _selectable(view: View, sel: Selection) -> int:
    """The cards that may be added to ``sel`` and still complete a legal écart or poignée."""
    if sel.kind == "ecart":
        opts = view.ecart_options
        assert opts is not None
        allowed = opts.allowed_mask & ~sel.chosen
        if (sel.chosen & TRUMPS).bit_count() >= opts.trumps_needed:
            allowed &= ~TRUMPS  # (no trump unless R11 asks for them, and only so many)
        return allowed
    opts_p = view.poignee_options
    assert opts_p is not None
    allowed = opts_p.allowed_mask
    plain = allowed & TRUMPS  # (the 21 trumps; the Excuse is not one)
    # R14: the Excuse only in a poignée that shows every trump (it makes up the count)
    if plain.bit_count() + 1 == sel.count and allowed & EXCUSE_BIT:
        return allowed & ~sel.chosen
    return plain & ~sel.chosen


def to_action(view: View, action_id: int,
              selection: Selection | None) -> tuple[Action | None, Selection | None]:
    """The engine action ``action_id`` makes at ``view`` (None while an écart or a poignée is
    still being chosen), and the choice under way after it."""
    seat = view.seat
    if selection is not None or (view.ecart_options is not None and action_id < CARD_IDS):
        sel = selection or Selection("ecart", view.ecart_options.size)  # type: ignore[union-attr]
        sel.chosen |= 1 << action_id
        if not sel.done:
            return None, sel
        cards = cards_of(sel.chosen)
        return (Ecart(seat, cards) if sel.kind == "ecart" else Poignee(seat, cards)), None
    if action_id == POIGNEE_NO:
        return None, None  # (the seat plays its card next: ``Decisions`` notes the poignée declined)
    if action_id in POIGNEE_SIZES:
        count = variant(view.players).poignee_thresholds[POIGNEE_SIZES.index(action_id)]
        return None, Selection("poignee", count)
    if action_id in BIDS:
        return Bid(seat, BIDS[action_id]), None
    if action_id in (CHELEM_NO, CHELEM_YES):
        return Chelem(seat, action_id == CHELEM_YES), None
    card = CARDS[action_id]
    return (Call(seat, card) if view.phase == "call" else Play(seat, card)), None

