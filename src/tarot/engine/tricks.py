"""A completed trick (a named tuple: tricks are built in the hot path)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .cards import Card


class Trick(NamedTuple):
    leader: int
    cards: tuple[Card, ...]  # in play order, starting with the leader
    winner: int
    players: int

    @property
    def plays(self) -> tuple[tuple[int, Card], ...]:
        """(seat, card) pairs in play order."""
        return tuple(((self.leader + i) % self.players, c) for i, c in enumerate(self.cards))

    def to_dict(self) -> dict[str, Any]:
        return {"leader": self.leader, "cards": [str(c) for c in self.cards], "winner": self.winner}


def last_tricks_of(tricks: Sequence[Trick], last: int | None) -> Sequence[Trick]:
    """The ``last`` tricks (all of them for None, or when fewer were played)."""
    # max: a negative start would wrap round and give too few
    return tricks if last is None else tricks[max(0, len(tricks) - last):]
