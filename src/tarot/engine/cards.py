"""Cards (R1–R3) and card sets as int bitmasks.

A card is its index 0…77 (an ``int`` subclass, so ``1 << card`` is its bit):
suit cards ``suit * 14 + rank - 1`` (spades, hearts, diamonds, clubs; rank 1…14
with J=11, N=12, Q=13, K=14), trumps ``55 + n`` for ``Tn`` and the Excuse 77.
Within a suit and within the trumps, a higher index is a stronger card, which is
what makes "follow suit" and "overtrump" a few mask operations.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final


class Suit(IntEnum):
    """The four plain suits, in card-index order."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "SHDC"[self]


_RANK_TEXT: Final = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")
_SUIT_LETTERS: Final = "SHDC"


class Card(int):
    """One of the 78 cards. Use :meth:`parse` or the module constants; never build one by hand."""

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < 78:
            raise ValueError(f"R1: no card has index {index}")
        return int.__new__(cls, index)

    @staticmethod
    def parse(text: str) -> Card:
        """Read the ASCII notation of R1 (``"KH"``, ``"10S"``, ``"T21"``, ``"EX"``).

        >>> king = Card.parse("kh")
        >>> king, king.suit.name, king.rank, king.points
        (Card.parse('KH'), 'HEARTS', 14, 4.5)
        >>> Card.parse("T21").is_oudler, int(Card.parse("EX"))
        (True, 77)
        >>> Card.parse("ZZ")
        Traceback (most recent call last):
        ...
        ValueError: R1: unknown card 'ZZ'
        """
        card = _BY_CODE.get(text.strip().upper()) if isinstance(text, str) else None
        if card is None:
            raise ValueError(f"R1: unknown card {text!r}")
        return card

    @property
    def code(self) -> str:
        return _CODES[self]

    def __str__(self) -> str:
        return _CODES[self]

    def __repr__(self) -> str:
        return f"Card.parse({_CODES[self]!r})"

    def __format__(self, spec: str) -> str:
        return format(_CODES[self], spec)

    @property
    def is_trump(self) -> bool:
        """True for T1…T21 (not the Excuse)."""
        return 56 <= self <= 76

    @property
    def is_excuse(self) -> bool:
        return self == 77

    @property
    def is_oudler(self) -> bool:
        return self in (56, 76, 77)

    @property
    def suit(self) -> Suit | None:
        """The plain suit, or None for trumps and the Excuse."""
        return Suit(self // 14) if self < 56 else None

    @property
    def rank(self) -> int:
        """1…14 for suit cards (14 = king), 1…21 for trumps, 0 for the Excuse."""
        if self < 56:
            return self % 14 + 1
        return self - 55 if self < 77 else 0

    @property
    def points(self) -> float:
        """Card points of R3."""
        return HALF_POINTS[self] / 2


def _code(index: int) -> str:
    if index < 56:
        return _RANK_TEXT[index % 14] + _SUIT_LETTERS[index // 14]
    if index < 77:
        return f"T{index - 55}"
    return "EX"


_CODES: Final = tuple(_code(i) for i in range(78))
CARDS: Final = tuple(Card(i) for i in range(78))
_BY_CODE: Final = {code: CARDS[i] for i, code in enumerate(_CODES)}

PETIT: Final = CARDS[56]
T21: Final = CARDS[76]
EXCUSE: Final = CARDS[77]

# --- masks -----------------------------------------------------------------

FULL_DECK: Final = (1 << 78) - 1
PLAIN: Final = (1 << 56) - 1  # the 56 cards of the four plain suits
PETIT_BIT: Final = 1 << 56
SUIT_MASKS: Final = tuple(((1 << 14) - 1) << (14 * s) for s in range(4))
TRUMPS: Final = ((1 << 21) - 1) << 56
EXCUSE_BIT: Final = 1 << 77
OUDLERS: Final = (1 << 56) | (1 << 76) | EXCUSE_BIT
KINGS: Final = sum(1 << (14 * s + 13) for s in range(4))
QUEENS: Final = sum(1 << (14 * s + 12) for s in range(4))
KNIGHTS: Final = sum(1 << (14 * s + 11) for s in range(4))
JACKS: Final = sum(1 << (14 * s + 10) for s in range(4))

# Per card: the mask of what "following" it means (its suit, or all trumps); 0 for the Excuse.
FOLLOW_MASK: Final = tuple(SUIT_MASKS[i // 14] if i < 56 else (TRUMPS if i < 77 else 0) for i in range(78))
# ABOVE[i]: the trumps strictly stronger than card i (for i < 56: every trump).
ABOVE: Final = tuple(TRUMPS & ~((1 << (i + 1)) - 1) for i in range(78))

# R3 in half points: 1 for a small card, +8 for king/oudler, +6 queen, +4 knight, +2 jack.
HALF_POINTS: Final = tuple(
    1 + 8 * (((KINGS | OUDLERS) >> i) & 1) + 6 * ((QUEENS >> i) & 1)
    + 4 * ((KNIGHTS >> i) & 1) + 2 * ((JACKS >> i) & 1)
    for i in range(78)
)
_BIG: Final = KINGS | OUDLERS


def half_points(mask: int) -> int:
    """Card points of a set, in half points (R3), by counting bits per value class.

    >>> half_points(mask_of(["KH", "T21", "2S"])) / 2   # 4.5 + 4.5 + 0.5
    9.5
    >>> half_points(FULL_DECK) / 2                     # every card: 91 points
    91.0
    """
    return (
        mask.bit_count()
        + 8 * (mask & _BIG).bit_count()
        + 6 * (mask & QUEENS).bit_count()
        + 4 * (mask & KNIGHTS).bit_count()
        + 2 * (mask & JACKS).bit_count()
    )


def mask_of(cards: Iterable[Card | str]) -> int:
    """The bitmask of some cards (strings are parsed); duplicates are refused."""
    mask = 0
    for item in cards:
        card = Card.parse(item) if isinstance(item, str) else item
        if not isinstance(card, Card):
            raise ValueError(f"R1: not a card: {item!r}")
        bit = 1 << card
        if mask & bit:
            raise ValueError(f"R1: card {card} appears twice")
        mask |= bit
    return mask


def iter_cards(mask: int) -> Iterator[Card]:
    """The cards of a set, weakest index first."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def cards_of(mask: int) -> list[Card]:
    return list(iter_cards(mask))


# The codes of the cards of each byte of a mask (byte k, value v), weakest index first: a set's
# codes in ten lookups. Views are sent after every card, so this is on a server's hot path.
_BYTE_CODES: Final = tuple(
    tuple(tuple(_CODES[8 * k + b] for b in range(8) if v >> b & 1 and 8 * k + b < 78) for v in range(256))
    for k in range(10)
)


def codes_of(mask: int) -> list[str]:
    """The codes of a set's cards, weakest index first (``[str(c) for c in cards_of(mask)]``).
    Not cached: a cache kept every hand shown alive, in the garbage collector's way
    (docs/performance.md, change 25)."""
    out: list[str] = []
    for table in _BYTE_CODES:
        if not mask:
            break
        out += table[mask & 255]
        mask >>= 8
    return out


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse ``"KH T21 EX"`` or ``["KH", "T21"]`` into cards."""
    items = text.split() if isinstance(text, str) else list(text)
    return [Card.parse(item) for item in items]


def format_cards(cards: Iterable[Card] | int) -> str:
    """Space-separated codes; a mask is listed in card-index order."""
    items = iter_cards(cards) if isinstance(cards, int) else cards
    return " ".join(str(c) for c in items)


def sort_for_display(cards: Iterable[Card]) -> list[Card]:
    """Trumps strongest first, then the Excuse, then spades, hearts, diamonds, clubs, kings first."""
    def key(c: Card) -> tuple[int, int]:
        if c == 77:
            return (1, 0)
        return (0, -c) if c >= 56 else (2 + c // 14, -c)

    return sorted(cards, key=key)


class CardSet:
    """An immutable set of cards over the 78-bit mask (as python-chess's ``SquareSet``).

    >>> hand = CardSet.parse("KH T21 EX 7S")
    >>> hand
    CardSet('7S KH T21 EX')
    >>> len(hand), Card.parse("T21") in hand, "KS" in hand
    (4, True, False)
    >>> [str(c) for c in hand & CardSet(TRUMPS)]
    ['T21']
    >>> hand - CardSet.parse("EX") == CardSet.parse("7S KH T21")
    True
    >>> eval(repr(hand)) == hand and hand.mask == mask_of(hand)
    True
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: int | str | Iterable[Card | str] = 0) -> None:
        if isinstance(cards, CardSet):
            mask = cards.mask
        elif isinstance(cards, int) and not isinstance(cards, bool):
            if cards & ~FULL_DECK or cards < 0:
                raise ValueError(f"R1: not a set of the 78 cards: {cards:#x}")
            mask = cards
        elif isinstance(cards, str):
            mask = mask_of(cards.split())
        elif isinstance(cards, bool):
            raise ValueError(f"R1: not a set of cards: {cards!r}")
        else:
            mask = mask_of(cards)
        _set_mask(self, mask)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """``"KH T21 EX"`` (codes separated by spaces; duplicates refused)."""
        return cls(mask_of(text.split()))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a CardSet cannot be changed: build another")

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        """Pickled as its mask (a view goes to a search bot in another process)."""
        return (CardSet, (self.mask,))

    def __iter__(self) -> Iterator[Card]:
        return iter_cards(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            found = _BY_CODE.get(card.strip().upper())
            return found is not None and self.mask >> found & 1 == 1
        return isinstance(card, int) and 0 <= card < 78 and self.mask >> card & 1 == 1

    def __int__(self) -> int:
        return self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __eq__(self, other: object) -> bool:
        """Equal to another CardSet, or to a tuple, list or set of the same cards in any order."""
        if isinstance(other, CardSet):
            return self.mask == other.mask
        if isinstance(other, tuple | list | set | frozenset):
            try:
                return self.mask == mask_of(other)
            except ValueError:
                return False
        return NotImplemented

    def __and__(self, other: CardSet | int) -> CardSet:
        return _card_set(self.mask & _mask(other))

    def __or__(self, other: CardSet | int) -> CardSet:
        return _card_set(self.mask | _mask(other))

    def __xor__(self, other: CardSet | int) -> CardSet:
        return _card_set(self.mask ^ _mask(other))

    def __sub__(self, other: CardSet | int) -> CardSet:
        return _card_set(self.mask & ~_mask(other))

    def __invert__(self) -> CardSet:
        return _card_set(FULL_DECK & ~self.mask)

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__

    def __str__(self) -> str:
        return " ".join(codes_of(self.mask))

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"


_set_mask = CardSet.mask.__set__  # type: ignore[attr-defined,misc]  # the slot's own setter: fast, immutable after


def _card_set(mask: int) -> CardSet:
    """A CardSet of a mask known to be within the deck (the engine's fast path: no check)."""
    cs = object.__new__(CardSet)
    _set_mask(cs, mask)
    return cs


def _mask(other: CardSet | int) -> int:
    if isinstance(other, CardSet):
        return other.mask
    if isinstance(other, int):
        return other & FULL_DECK
    raise TypeError(f"not a card set: {other!r}")
