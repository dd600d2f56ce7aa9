"""A game: a fixed number of deals, dealer rotation, redeals, the score sheet (R4, R25).

A deal knows nothing of the game; the game wraps the current deal and moves on when it is over.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from .actions import Action
from .deal import Deal
from .records import DealRecord
from .rules import variant
from .sheet import KeepsScore, Placing, ScoreSheet
from .view import View


class Game(KeepsScore):
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
        self.score_sheet = ScoreSheet(players, first_dealer)
        self.records: list[DealRecord] = []
        self.deal: Deal | None = None
        self._start_deal()

    # --- progress ----------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.deal is None

    def _start_deal(self) -> None:
        deal_seed = self._rng.getrandbits(64) if self.seed is not None else None
        deal = Deal.new(self.players, self.score_sheet.next_dealer, seed=deal_seed)
        self.deal = deal
        self._deal_seed = deal_seed
        if deal.is_over:  # annulled at once (petit sec, R6)
            self._close_deal()

    def _close_deal(self) -> None:
        deal = self.deal
        assert deal is not None and deal.is_over
        self.score_sheet.add(deal.result(), deal.dealer)
        extra: dict[str, Any] = {"deal": len(self.records) + 1}
        if self._deal_seed is not None:
            extra["seed"] = self._deal_seed
        self.records.append(DealRecord.from_deal(deal, **extra))
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
        return self.score_sheet.to_dicts()

    def ranking(self) -> list[Placing]:
        """Best first; equal totals share a rank."""
        return self.score_sheet.ranking()
