"""Actions: small frozen records, one per kind of decision, mirroring the record format."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import Card, format_cards, mask_of, parse_cards
from .rules import Contract


def _card_tuple(cards: Iterable[Card | str] | str) -> tuple[Card, ...]:
    items = parse_cards(cards) if isinstance(cards, str) else [
        c if isinstance(c, Card) else Card.parse(c) for c in cards
    ]
    mask_of(items)  # refuses duplicates
    return tuple(sorted(items))


@dataclass(frozen=True, slots=True)
class Bid:
    """R7: ``contract`` None is a pass."""

    seat: int
    contract: Contract | None

    def __str__(self) -> str:
        return f"{self.seat}: bid {self.contract.name_text if self.contract else 'pass'}"


def _as_card(card: Card | str) -> Card:
    return Card.parse(card) if isinstance(card, str) else card


@dataclass(frozen=True, slots=True)
class Call:
    """R8: the taker names a card (5 players). ``card`` may be given as a code."""

    seat: int
    card: Card

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", _as_card(self.card))

    def __str__(self) -> str:
        return f"{self.seat}: call {self.card}"


class _CardChoice:
    """A seat's choice of several cards (écart, poignée): codes or cards in, a sorted tuple kept."""

    __slots__ = ()
    kind: ClassVar[str]
    seat: int
    cards: tuple[Card, ...]

    def __init__(self, seat: int, cards: Iterable[Card | str] | str) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", _card_tuple(cards))

    @property
    def mask(self) -> int:
        return mask_of(self.cards)

    def __str__(self) -> str:
        return f"{self.seat}: {self.kind} {format_cards(self.cards)}"


@dataclass(frozen=True, slots=True, init=False)
class Ecart(_CardChoice):
    """R10/R11: the taker's discard."""

    kind: ClassVar[str] = "ecart"
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Chelem:
    """R13: the taker announces a chelem (``announce=True``) or declines."""

    seat: int
    announce: bool = True

    def __str__(self) -> str:
        return f"{self.seat}: chelem {'announced' if self.announce else 'declined'}"


@dataclass(frozen=True, slots=True, init=False)
class Poignee(_CardChoice):
    """R14: trumps shown just before the seat's first card."""

    kind: ClassVar[str] = "poignee"
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Play:
    """R15: ``card`` may be given as a code."""

    seat: int
    card: Card

    def __post_init__(self) -> None:
        if type(self.card) is not Card:
            object.__setattr__(self, "card", _as_card(self.card))

    def __str__(self) -> str:
        return f"{self.seat}: play {self.card}"


Action = Bid | Call | Ecart | Chelem | Poignee | Play


def action_to_dict(action: Action) -> dict[str, Any]:
    """One action as its record object, e.g. ``{"seat": 0, "play": "KH"}``."""
    if isinstance(action, Play):
        return {"seat": action.seat, "play": str(action.card)}
    if isinstance(action, Bid):
        return {"seat": action.seat, "bid": action.contract.name_text if action.contract else "pass"}
    if isinstance(action, Call):
        return {"seat": action.seat, "call": str(action.card)}
    if isinstance(action, Ecart):
        return {"seat": action.seat, "ecart": [str(c) for c in action.cards]}
    if isinstance(action, Poignee):
        return {"seat": action.seat, "poignee": [str(c) for c in action.cards]}
    return {"seat": action.seat, "chelem": action.announce}
