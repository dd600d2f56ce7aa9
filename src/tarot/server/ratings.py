"""Ratings: openskill's Plackett–Luce model, one rating per player count, every player a team of
one, updated once per finished competitive game from the players' ranks (by final totals, ties
shared; who left before the end ranked last)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative skill a ladder ranks by: mu − 3σ (0 for a newcomer)."""
        return self.mu - 3 * self.sigma

    def to_dict(self) -> dict[str, Any]:
        return {"mu": round(self.mu, 3), "sigma": round(self.sigma, 3), "ordinal": round(self.ordinal, 3),
                "games": self.games}


def new_rating() -> Rating:
    r = MODEL.rating()
    return Rating(r.mu, r.sigma, 0)


def ranks(totals: list[int], left: frozenset[int] | set[int] = frozenset()) -> list[int]:
    """Each seat's rank (1 is first): by total, equal totals sharing a rank; the seats in ``left``
    after everyone else, sharing the last rank.

    >>> ranks([120, -40, -40, -40])
    [1, 2, 2, 2]
    >>> ranks([120, -40, 10, -90], left={0})
    [4, 2, 1, 3]
    """
    out = []
    for s, t in enumerate(totals):
        if s in left:
            out.append(len(totals) - len(left) + 1)
        else:
            out.append(1 + sum(1 for s2, t2 in enumerate(totals) if s2 not in left and t2 > t))
    return out


def rate(before: list[Rating], ranking: list[int]) -> list[Rating]:
    """The ratings after one game in which seat i finished ``ranking[i]``."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranking])
    return [Rating(t[0].mu, t[0].sigma, r.games + 1) for t, r in zip(after, before, strict=True)]
