"""Ratings: openskill's Plackett–Luce model, one rating per player count, every player a team of
one, updated once per finished competitive game from the players' ranks (by final totals, ties
shared; who left before the end ranked last)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean
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


def rate_seats(current: Mapping[str, Rating], seats: Sequence[str],
               ranking: Sequence[int]) -> dict[str, Rating]:
    """The new ratings of the players of one game, ``seats[i]`` the player at seat i (ranked
    ``ranking[i]``).

    A player holding several seats (a bot kind seated twice): each seat is rated as a one-person
    team starting from the player's rating (openskill rates seats, not players), then the player
    gets the mean of its seats' new mu and sigma, and one game more."""
    after = rate([current[p] for p in seats], list(ranking))
    new: dict[str, Rating] = {}
    for player in dict.fromkeys(seats):
        mine = [r for p, r in zip(seats, after, strict=True) if p == player]
        mu, sigma = fmean(r.mu for r in mine), fmean(r.sigma for r in mine)
        new[player] = Rating(mu, sigma, current[player].games + 1)
    return new
