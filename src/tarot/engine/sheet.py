"""The score sheet of a game (R25): one row per deal, annulled deals included, running totals,
the next dealer (R4) and the final ranking. Used by ``Game`` and by the server's games."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .deal import DealResult
from .phases import Annulment
from .scoring import Score


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


@dataclass(frozen=True, slots=True)
class Placing:
    """A seat's place in the ranking: equal totals share a rank (1, 1, 1, 4)."""

    seat: int
    total: int
    rank: int

    def to_dict(self) -> dict[str, int]:
        return {"seat": self.seat, "total": self.total, "rank": self.rank}


class ScoreSheet:
    """The rows of a game of ``players`` players whose first deal is dealt by ``first_dealer``.

    >>> from tarot.engine import Deal
    >>> sheet = ScoreSheet(players=3)
    >>> deal = Deal.new(3, dealer=sheet.next_dealer, seed=7)
    >>> while not deal.is_over:
    ...     _ = deal.apply(deal.legal_actions()[0])   # everyone passes: annulled (R7)
    >>> row = sheet.add(deal.result(), deal.dealer)
    >>> row.number, row.annulled.value, sheet.played, sheet.next_dealer   # R4: the next seat deals
    (None, 'all_pass', 0, 1)
    >>> [p.rank for p in sheet.ranking()]                                # all equal: all first
    [1, 1, 1]
    """

    __slots__ = ("_dicts", "first_dealer", "players", "rows", "totals")

    def __init__(self, players: int, first_dealer: int = 0) -> None:
        self.players = players
        self.first_dealer = first_dealer
        self.rows: list[SheetRow] = []
        self.totals: list[int] = [0] * players
        self._dicts: list[dict[str, Any]] = []

    @property
    def played(self) -> int:
        """Counted deals so far (annulled ones excluded, R25)."""
        return sum(1 for r in self.rows if r.number is not None)

    @property
    def next_dealer(self) -> int:
        """R4: the deal passes to the next seat after every deal, a redeal included."""
        return (self.first_dealer + len(self.rows)) % self.players

    def row_for(self, result: DealResult, dealer: int) -> SheetRow:
        """The row ``add`` would put on the sheet, without putting it there."""
        number = None if result.annulled else self.played + 1
        totals = self.totals if result.score is None else [
            t + s for t, s in zip(self.totals, result.score.scores, strict=True)]
        return SheetRow(number, dealer, result.annulled, result.score, tuple(totals))

    def add(self, result: DealResult, dealer: int) -> SheetRow:
        """Put a finished deal on the sheet: its row, with the running totals."""
        return self.put(self.row_for(result, dealer))

    def put(self, row: SheetRow) -> SheetRow:
        """Put ``row`` on the sheet, as ``row_for`` gave it (the sheet unchanged meanwhile)."""
        self.totals = list(row.totals)
        self.rows.append(row)
        return row

    def undo_last(self) -> SheetRow:
        """Take the last row off again (its end could not be stored): totals as they were."""
        row = self.rows.pop()
        self._dicts = self._dicts[:len(self.rows)]
        if row.score is not None:
            self.totals = [t - s for t, s in zip(self.totals, row.score.scores, strict=True)]
        return row

    def to_dicts(self) -> list[dict[str, Any]]:
        """The rows as plain data (kept from one call to the next: do not mutate)."""
        if len(self._dicts) != len(self.rows):
            self._dicts = [r.to_dict() for r in self.rows]
        return self._dicts

    def ranking(self) -> list[Placing]:
        """Best total first; equal totals share the rank of the first of them (1, 1, 1, 4),
        listed by seat."""
        order = sorted(range(self.players), key=lambda s: (-self.totals[s], s))
        out: list[Placing] = []
        for i, seat in enumerate(order):
            tied = out and out[-1].total == self.totals[seat]
            out.append(Placing(seat, self.totals[seat], out[-1].rank if tied else i + 1))
        return out


class KeepsScore:
    """For a game that keeps its ``ScoreSheet`` in ``score_sheet``: the sheet's rows, totals and
    counted deals as the game's own (``Game`` and the server's games)."""

    score_sheet: ScoreSheet

    @property
    def rows(self) -> list[SheetRow]:
        return self.score_sheet.rows

    @property
    def totals(self) -> list[int]:
        return self.score_sheet.totals

    @property
    def played(self) -> int:
        """Counted deals so far (annulled ones excluded, R25)."""
        return self.score_sheet.played
