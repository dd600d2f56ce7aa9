"""A game at a table: deals dealt from ``secrets`` with a commitment, dealer rotation, redeals and
the score sheet (R4, R25). No I/O: the table actor persists and broadcasts around it."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import Any

from tarot.engine import Action, Deal, DealRecord, DealResult, ScoreSheet, SheetRow
from tarot.engine.sheet import KeepsScore


def commitment(seed: str, salt: str) -> str:
    """SHA-256 of ``seed:salt`` (hex): published at deal start, seed and salt revealed at the end."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


@dataclass(frozen=True)
class Etui:
    """A deal imposed on a table (duplicate: the same cards at other tables): its number in its
    set, its dealer, its seed and its commitment's salt."""

    number: int  # 1-based in its set
    dealer: int
    seed: str
    salt: str

    @property
    def commitment(self) -> str:
        return commitment(self.seed, self.salt)

    def to_list(self) -> list[Any]:
        return [self.number, self.dealer, self.seed, self.salt]


def _mac(secret: str, what: str) -> str:
    return hmac.new(secret.encode(), what.encode(), hashlib.sha256).hexdigest()[:32]


def etui(secret: str, players: int, number: int) -> Etui:
    """Deal ``number`` of a duplicate set (a challenge's day, an event) dealt from ``secret``:
    dealt by seat (number − 1) mod players (the first bid goes round the table); its seed is the
    first of HMAC(secret, "seed/N/0"), "seed/N/1"… whose deal has no petit sec (R6 would annul it
    at every table)."""
    dealer = (number - 1) % players
    for k in range(1000):
        seed = _mac(secret, f"seed/{number}/{k}")
        if not Deal.new(players, dealer, seed=seed).is_over:
            return Etui(number, dealer, seed, _mac(secret, f"salt/{number}"))
    raise RuntimeError("no deal without a petit sec in 1000 seeds")  # (about 1 in 10**1000)


@dataclass
class DealInfo:
    number: int  # 1-based among all deals of the game (redeals included)
    dealer: int
    seed: str
    salt: str
    deal: Deal
    db_id: int | None = None
    actions: int = 0  # actions applied (the index of the next one)
    etui: int | None = None  # an imposed deal's number in its set (``Etui``)

    @property
    def commitment(self) -> str:
        return commitment(self.seed, self.salt)


@dataclass
class ServerGame(KeepsScore):
    players: int
    deals: int  # counted deals to play
    first_dealer: int = 0
    number: int = 1  # the game's number at its table
    db_id: int | None = None
    competitive: bool = False  # its end brings ratings, chips and XP (``competition``)
    outcome: list[dict[str, Any]] | None = None  # what its end brought each seat (competitive)
    cancelled: bool = False  # by agreement (``cancelvote``): no ranking
    # Its deals, when they are imposed (duplicate: a daily challenge's, an event's), in order: one
    # dealt is one played, never dealt again, even when everybody passes (its result, 0 each, is
    # compared with the other tables').
    etuis: tuple[Etui, ...] = ()
    current: DealInfo | None = None
    score_sheet: ScoreSheet = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.score_sheet = ScoreSheet(self.players, self.first_dealer)

    @property
    def is_over(self) -> bool:
        return (len(self.rows) if self.etuis else self.played) >= self.deals

    def over_with(self, row: SheetRow) -> bool:
        """The game is over once ``row`` (the current deal's, ``ScoreSheet.row_for``) is added."""
        counted = len(self.rows) + 1 if self.etuis else self.played + (row.number is not None)
        return counted >= self.deals

    def closing_row(self, result: DealResult) -> SheetRow:
        """The row of the finished current deal (its ``result``), not yet on the sheet
        (``end_with``)."""
        info = self.current
        assert info is not None and info.deal.is_over
        return self.score_sheet.row_for(result, info.dealer)

    def end_with(self, row: SheetRow) -> None:
        """The finished current deal's ``row`` (``closing_row``) goes on the sheet; no deal is
        current. (The deal itself is not kept: the store has its record.)"""
        self.score_sheet.put(row)
        self.current = None

    def record(self) -> dict[str, Any]:
        """The finished current deal's record (``DealRecord``, with its commitment revealed)."""
        info = self.current
        assert info is not None and info.deal.is_over
        return DealRecord.from_deal(info.deal, deal=info.number, seed=info.seed,
                                    commitment={"sha256": info.commitment, "salt": info.salt}).to_dict()

    @property
    def next_dealer(self) -> int:
        return self.score_sheet.next_dealer

    def new_deal(self, seed: str | None = None, salt: str | None = None, after: int = 0) -> DealInfo:
        """Deal the next deal (the next imposed one, if any); ``after=1``: the one after the
        current deal, before that deal's row is on the sheet. It is not ``current`` yet: the
        table makes it so once it is stored and the previous deal's end is announced."""
        index = len(self.rows) + after  # (0-based among the game's deals, redeals included)
        if self.etuis:
            e = self.etuis[index]
            return DealInfo(index + 1, e.dealer, e.seed, e.salt,
                            Deal.new(self.players, e.dealer, seed=e.seed), etui=e.number)
        seed = seed or secrets.token_hex(16)
        salt = salt or secrets.token_hex(16)
        dealer = (self.first_dealer + index) % self.players
        return DealInfo(index + 1, dealer, seed, salt, Deal.new(self.players, dealer, seed=seed))

    def apply(self, action: Action) -> None:
        assert self.current is not None
        self.current.deal.apply(action)
        self.current.actions += 1

    def close_deal(self) -> tuple[SheetRow, dict[str, Any], dict[str, Any]]:
        """Put the finished current deal on the sheet; returns its row, its record and its result
        (``DealResult.to_dict``). The deal itself is not kept: the store has its record."""
        info = self.current
        assert info is not None and info.deal.is_over
        result = info.deal.result()
        record = self.record()
        row = self.closing_row(result)
        self.end_with(row)
        return row, record, result.to_dict()

    def sheet(self) -> list[dict[str, Any]]:
        """The score sheet, one dict per row (kept: every full state sends it; do not mutate)."""
        return self.score_sheet.to_dicts()

    def ranking(self) -> list[dict[str, int]]:
        """Best first, ``{seat, total, rank}``: equal totals share a rank (1, 1, 1, 4)."""
        return [p.to_dict() for p in self.score_sheet.ranking()]
