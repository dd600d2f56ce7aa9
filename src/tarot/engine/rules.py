"""Rules as data: one Variant per player count (R5, R8, R14) and the contract table (R7, R10, R12)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Any, Final

from .cards import half_points, mask_of


class Contract(IntEnum):
    """R7 contracts, low to high; the value orders them."""

    PRISE = 1
    GARDE = 2
    GARDE_SANS = 3
    GARDE_CONTRE = 4

    @property
    def multiplier(self) -> int:
        return _MULTIPLIERS[self]

    @property
    def name_text(self) -> str:
        """The record spelling: ``prise``, ``garde``, ``garde_sans``, ``garde_contre``."""
        return self.name.lower()

    @property
    def chien_shown(self) -> bool:
        """R10: prise and garde show the chien and need an écart."""
        return self <= Contract.GARDE

    @property
    def chien_to_attack(self) -> bool:
        """R10/R12: the chien (or écart) counts for the attack, except at garde contre."""
        return self != Contract.GARDE_CONTRE

    @staticmethod
    def parse(text: str) -> Contract:
        try:
            return Contract[text.strip().upper()]
        except (KeyError, AttributeError):
            raise ValueError(f"R7: unknown contract {text!r}") from None


_MULTIPLIERS: Final = {Contract.PRISE: 1, Contract.GARDE: 2, Contract.GARDE_SANS: 4, Contract.GARDE_CONTRE: 6}


class PoigneeSize(IntEnum):
    """R14/R23 poignée sizes; the value is the prime."""

    SIMPLE = 20
    DOUBLE = 30
    TRIPLE = 40

    @property
    def name_text(self) -> str:
        return self.name.lower()

    @staticmethod
    def parse(text: str) -> PoigneeSize:
        try:
            return PoigneeSize[text.strip().upper()]
        except (KeyError, AttributeError):
            raise ValueError(f"R14: unknown poignée size {text!r}") from None


class Side(Enum):
    ATTACK = "attack"
    DEFENCE = "defence"


@dataclass(frozen=True, slots=True)
class Variant:
    """Everything that changes with the number of players."""

    players: int
    hand_size: int
    chien_size: int
    poignee_thresholds: tuple[int, int, int]  # simple, double, triple (R14)
    calls_card: bool  # R8: 5 players only
    taker_share: int  # R24: the taker's multiple of S when playing alone
    half_points: bool  # R21: only at 3 and 5 players

    @property
    def tricks(self) -> int:
        return self.hand_size

    def poignee_size(self, count: int) -> PoigneeSize | None:
        """The size a poignée of ``count`` cards would be, or None if it is not exactly a threshold."""
        for size, threshold in zip(PoigneeSize, self.poignee_thresholds, strict=True):
            if count == threshold:
                return size
        return None


VARIANTS: Final = {
    3: Variant(3, 24, 6, (13, 15, 18), False, 2, True),
    4: Variant(4, 18, 6, (10, 13, 15), False, 3, False),
    5: Variant(5, 15, 3, (8, 10, 13), True, 4, True),
}


def variant(players: int) -> Variant:
    try:
        return VARIANTS[players]
    except (KeyError, TypeError):
        raise ValueError(f"R5: French Tarot is played by 3, 4 or 5 players, not {players!r}") from None


# R20: target by number of oudlers.
TARGETS: Final = (56, 51, 41, 36)
CONTRACT_BASE: Final = 25  # R22: (25 + the margin) × the multiplier
PETIT_AU_BOUT: Final = 10  # R23: × the multiplier, to the side that took the last trick with it
CHELEM_ANNOUNCED: Final = 400  # R23: announced and made
CHELEM: Final = 200  # made without announcing it (by either side)
CHELEM_FAILED: Final = 200  # announced and missed: paid by the attack


def reference(players: int) -> dict[str, Any]:
    """The figures a player looks up at ``players`` players (the site's cheat sheet): card
    values (R3), targets by oudlers (R20), contracts' multipliers (R7), the score's parts
    (R22–R23), the poignées' sizes and primes (R14, R23) and the taker's share (R24)."""
    var = variant(players)
    examples = {"oudler": "T21", "king": "KH", "queen": "QH", "knight": "NH", "jack": "JH", "other": "2H"}
    return {
        "players": players,
        "card_values": {kind: half_points(mask_of([code])) / 2 for kind, code in examples.items()},
        "targets": list(TARGETS),
        "multipliers": {c.name_text: c.multiplier for c in Contract},
        "contract_base": CONTRACT_BASE,
        "petit_au_bout": PETIT_AU_BOUT,
        "poignees": [{"size": size.name_text, "trumps": trumps, "prime": size.value}
                     for size, trumps in zip(PoigneeSize, var.poignee_thresholds, strict=True)],
        "chelem": {"announced": CHELEM_ANNOUNCED, "unannounced": CHELEM, "failed": -CHELEM_FAILED},
        "taker_share": var.taker_share,
    }
