"""Scoring (R20–R24): one function shared by played deals and the score calculator, and a
deal's outcome (``DealResult``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .phases import Annulment
from .rules import (
    CHELEM,
    CHELEM_ANNOUNCED,
    CHELEM_FAILED,
    CONTRACT_BASE,
    PETIT_AU_BOUT,
    TARGETS,
    Contract,
    PoigneeSize,
    Side,
    Variant,
    variant,
)

_ATTACK = Side.ATTACK  # (enum attribute lookups cost ~60 ns each)
_DEFENCE = Side.DEFENCE


@dataclass(frozen=True, slots=True)
class Score:
    """How a deal scored, with every figure of the score sheet (R25)."""

    players: int
    taker: int
    partner: int | None  # None when the taker played alone (or at 3/4 players)
    contract: Contract
    oudlers: int
    points: float  # the attack's card points before R21 rounding
    target: int
    made: bool
    margin: int  # d of R22, after R21 rounding
    base: int  # (25 + d) × multiplier, signed
    petit_au_bout: Side | None
    petit_au_bout_prime: int
    poignees: tuple[PoigneeSize, ...]
    poignee_prime: int
    chelem_announced: bool
    chelem: Side | None
    chelem_prime: int
    per_defender: int  # S of R24
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealResult:
    """The outcome of a finished deal: annulled, or scored."""

    annulled: Annulment | None
    score: Score | None
    petit_sec_seat: int | None = None
    players: int = 0  # an annulled deal scores 0 for each of them

    @property
    def scores(self) -> tuple[int, ...]:
        return self.score.scores if self.score else (0,) * self.players

    def to_dict(self) -> dict[str, Any]:
        """The replay result shape of docs/records.md (without ``legal``)."""
        s = self.score
        if s is None:
            return {"annulled": self.annulled.value if self.annulled else None, "taker": None,
                    "partner": None, "contract": None, "oudlers": None, "points": None,
                    "made": None, "scores": list(self.scores)}
        return {"annulled": None, "taker": s.taker, "partner": s.partner,
                "contract": s.contract.name_text, "oudlers": s.oudlers, "points": s.points,
                "made": s.made, "scores": list(s.scores)}


def score_deal(
    *,
    players: int,
    taker: int,
    contract: Contract,
    oudlers: int,
    points: float,
    partner: int | None = None,
    petit_au_bout: Side | None = None,
    poignees: Sequence[PoigneeSize] = (),
    chelem_announced: bool = False,
    chelem: Side | None = None,
) -> Score:
    """Score one deal from its summary. Raises ValueError on impossible inputs."""
    var = variant(players)
    if not 0 <= taker < players:
        raise ValueError(f"R4: taker must be a seat 0…{players - 1}, not {taker!r}")
    if partner == taker:
        partner = None
    if partner is not None:
        if not var.calls_card:
            raise ValueError(f"R8: there is no partner at {players} players")
        if not 0 <= partner < players:
            raise ValueError(f"R4: partner must be a seat 0…{players - 1}, not {partner!r}")
    if not 0 <= oudlers <= 3:
        raise ValueError(f"R2: oudlers must be 0…3, not {oudlers!r}")
    if not 0 <= points <= 91 or (points * 2) != int(points * 2):
        raise ValueError(f"R3: points must be 0…91 in steps of 0.5, not {points!r}")
    if points != int(points) and not var.half_points:
        raise ValueError(f"R21: half points cannot occur at {players} players")
    if len(poignees) > players:
        raise ValueError(f"R14: each player shows at most one poignée ({len(poignees)} given)")
    return score_played(var, taker, contract, oudlers, points, partner, petit_au_bout, tuple(poignees),
                        chelem_announced, chelem)


def score_played(var: Variant, taker: int, contract: Contract, oudlers: int, points: float,
                 partner: int | None, petit_au_bout: Side | None, poignees: tuple[PoigneeSize, ...],
                 chelem_announced: bool, chelem: Side | None) -> Score:
    """``score_deal``'s figures from inputs known to be possible (a played deal's own: both
    engine cores score through here, without ``score_deal``'s checks)."""
    players = var.players
    mult = contract.multiplier
    target = TARGETS[oudlers]
    made = points >= target
    # R21: the half point goes to the side that wins.
    rounded = math.ceil(points) if made else math.floor(points)
    margin = abs(rounded - target)
    sign = 1 if made else -1
    base = (CONTRACT_BASE + margin) * mult * sign

    pab = 0 if petit_au_bout is None else PETIT_AU_BOUT * mult * (1 if petit_au_bout is _ATTACK else -1)
    poignee = sum(poignees) * sign
    chelem_prime = 0
    if chelem is _ATTACK:
        chelem_prime = CHELEM_ANNOUNCED if chelem_announced else CHELEM
    else:
        if chelem_announced:
            chelem_prime -= CHELEM_FAILED
        if chelem is _DEFENCE:
            chelem_prime -= CHELEM

    s = base + pab + poignee + chelem_prime
    scores = [-s] * players
    if partner is None:
        scores[taker] = var.taker_share * s  # R24: alone against all
    else:
        scores[taker] = 2 * s
        scores[partner] = s
    # (positional, in the order of Score's fields: a played deal's score is on every deal's path)
    return Score(players, taker, partner, contract, oudlers, float(points), target, made, margin, base,
                 petit_au_bout, pab, poignees, poignee, chelem_announced, chelem, chelem_prime, s,
                 tuple(scores))
