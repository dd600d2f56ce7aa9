"""A game: a fixed number of deals, dealer rotation, redeals, the score sheet (R4, R25).

A deal knows nothing of the game; the game wraps the current deal and moves on when it is over.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .deal import Annulment, Deal
from .records import DealRecord
from .rules import variant
from .scoring import Score
from .view import View


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of the score sheet. Annulled deals have a row but no number and score zero."""

    number: int | None  # 1-based among counted deals; None for an annulled deal
    dealer: int
    annulled: Annulment | None
    score: Score | None
    totals: tuple[int, ...]  # running totals after this deal

    @property
    def scores(self) -> tuple[int, ...]:
        return self.score.scores if self.score else (0,) * len(self.totals)

    def to_dict(self) -> dict[str, Any]:
        s = self.score
        row: dict[str, Any] = {"deal": self.number, "dealer": self.dealer,
                               "annulled": self.annulled.value if self.annulled else None}
        if s is not None:
            row.update({
                "taker": s.taker, "contract": s.contract.name_text, "partner": s.partner,
                "oudlers": s.oudlers, "points": s.points, "target": s.target, "made": s.made,
                "margin": s.margin, "petit_au_bout": s.petit_au_bout.value if s.petit_au_bout else None,
                "poignees": [p.name_text for p in s.poignees], "chelem": s.chelem.value if s.chelem else None,
                "chelem_announced": s.chelem_announced,
                # R22–R24: the base and each prime, signed for the attack; their sum is S
                "multiplier": s.contract.multiplier, "base": s.base,
                "petit_au_bout_prime": s.petit_au_bout_prime, "poignee_prime": s.poignee_prime,
                "chelem_prime": s.chelem_prime, "per_defender": s.per_defender,
            })
        row["scores"] = list(self.scores)
        row["totals"] = list(self.totals)
        return row


class Game:
    """``deals`` counted deals at ``players`` players. With ``seed`` every deal is reproducible."""

    def __init__(self, players: int = 4, deals: int = 5, first_dealer: int = 0,
                 seed: int | str | None = None) -> None:
        variant(players)
        if type(deals) is not int or deals < 1:
            raise ValueError(f"R25: a game has at least one deal, not {deals!r}")
        if not 0 <= first_dealer < players:
            raise ValueError(f"R4: dealer must be a seat 0…{players - 1}, not {first_dealer!r}")
        self.players = players
        self.deals = deals
        self.seed = seed
        self._rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)
        self.rows: list[SheetRow] = []
        self.records: list[DealRecord] = []
        self.totals: list[int] = [0] * players
        self.deal: Deal | None = None
        self._dealer = first_dealer
        self._start_deal()

    # --- progress ----------------------------------------------------------------

    @property
    def played(self) -> int:
        """Counted deals so far (annulled ones excluded, R25)."""
        return sum(1 for r in self.rows if r.number is not None)

    @property
    def is_over(self) -> bool:
        return self.deal is None

    def _start_deal(self) -> None:
        deal_seed = self._rng.getrandbits(64) if self.seed is not None else None
        deal = Deal.new(self.players, self._dealer, seed=deal_seed)
        self.deal = deal
        self._deal_seed = deal_seed
        if deal.is_over:  # annulled at once (petit sec, R6)
            self._close_deal()

    def _close_deal(self) -> None:
        deal = self.deal
        assert deal is not None and deal.is_over
        result = deal.result()
        number = None if result.annulled else self.played + 1
        if result.score is not None:
            self.totals = [t + s for t, s in zip(self.totals, result.score.scores, strict=True)]
        self.rows.append(SheetRow(number, deal.dealer, result.annulled, result.score, tuple(self.totals)))
        extra: dict[str, Any] = {"deal": len(self.records) + 1}
        if self._deal_seed is not None:
            extra["seed"] = self._deal_seed
        self.records.append(DealRecord.from_deal(deal, **extra))
        self._dealer = (self._dealer + 1) % self.players  # R4: redeals included
        if self.played >= self.deals:
            self.deal = None
        else:
            self._start_deal()

    # --- acting ------------------------------------------------------------------

    def _current(self) -> Deal:
        if self.deal is None:
            raise ValueError("R25: the game is over")
        return self.deal

    def legal_actions(self) -> list[Action]:
        return self.deal.legal_actions() if self.deal else []

    def apply(self, action: Action) -> None:
        """Apply an action to the current deal; a finished deal goes on the sheet and the next starts."""
        deal = self._current()
        deal.apply(action)
        if deal.is_over:
            self._close_deal()

    def view(self, seat: int) -> View:
        return self._current().view(seat)

    def sheet(self) -> list[dict[str, Any]]:
        """The score sheet (R25) as plain data: one dict per deal, annulled ones included."""
        return [r.to_dict() for r in self.rows]

    def ranking(self) -> list[tuple[int, int]]:
        """(seat, total) pairs, best first."""
        return sorted(enumerate(self.totals), key=lambda st: -st[1])
