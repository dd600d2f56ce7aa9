"""The daily challenge's results by R26 (``tarot.engine.duplicate``): each deal's scores ranked
into marks among the accounts who played it, a player's percentage (¼ attack + ¾ defence), the
day's and the month's rankings.

Everybody holds seat 0, so each deal has one field of results: a mark ranks a score among the
scores of that deal (100 the best, 0 the worst, ties sharing). A deal where everybody passed is
not an attack: it counts with the defences. Guests play and see where they would stand, but only
accounts are ranked and only accounts' results make the marks: a guest, who can come back as a
new guest at will, weighs on nobody's mark."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tarot.engine.duplicate import overall_percentage, rank_marks

from .challenge import Entry

MONTH_MIN_DAYS = 3  # complete days an account needs to be ranked in a month


def marks(field: Sequence[Entry], extra: Entry | None = None) -> dict[tuple[str, int], float]:
    """Each entry's mark, by (player, deal), among ``field``'s entries of the same deal
    (``extra``: a guest's, ranked against them and counted in no one else's)."""
    by_deal: dict[int, list[Entry]] = defaultdict(list)
    for e in field:
        by_deal[e.deal].append(e)
    out: dict[tuple[str, int], float] = {}
    for deal, entries in by_deal.items():
        for e, m in zip(entries, rank_marks([float(e.score or 0) for e in entries]), strict=True):
            out[(e.player_id, deal)] = m
    if extra is not None:
        others = [float(e.score or 0) for e in by_deal.get(extra.deal, []) if e.player_id != extra.player_id]
        out[(extra.player_id, extra.deal)] = rank_marks([float(extra.score or 0), *others])[0]
    return out


def percentage(entries: Iterable[Entry], mark: dict[tuple[str, int], float]) -> float:
    attack = [mark[(e.player_id, e.deal)] for e in entries if e.side == "attack"]
    defence = [mark[(e.player_id, e.deal)] for e in entries if e.side != "attack"]
    return overall_percentage(attack, defence)


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    name: str
    percentage: float
    deals: int
    attack: int

    def to_dict(self) -> dict[str, object]:
        return {"rank": self.rank, "player": self.player, "name": self.name,
                "percentage": round(self.percentage, 2), "deals": self.deals, "attack": self.attack}


def _ranked(rows: list[tuple[str, str, float, int, int]]) -> list[Standing]:
    """Best percentage first; equal percentages share a rank (1, 2, 2, 4)."""
    rows.sort(key=lambda r: (-round(r[2], 6), r[1].casefold()))
    out: list[Standing] = []
    for i, (pid, name, pct, deals, attack) in enumerate(rows):
        rank = out[-1].rank if out and round(out[-1].percentage, 6) == round(pct, 6) else i + 1
        out.append(Standing(rank, pid, name, pct, deals, attack))
    return out


def day_ranking(results: Sequence[Entry], deals: int) -> list[Standing]:
    """The accounts that finished every deal of the day, ranked by percentage."""
    field = [e for e in results if e.account]
    mark = marks(field)
    by_player: dict[str, list[Entry]] = defaultdict(list)
    for e in field:
        by_player[e.player_id].append(e)
    return _ranked([(pid, es[0].name, percentage(es, mark), len(es), sum(e.side == "attack" for e in es))
                    for pid, es in by_player.items() if len(es) == deals])


def month_ranking(results: Sequence[Entry], deals: dict[str, int]) -> list[dict[str, object]]:
    """The accounts with ``MONTH_MIN_DAYS`` complete days or more in the month (``deals``: each
    day's number of deals), ranked by the mean percentage of those days."""
    by_day: dict[str, list[Entry]] = defaultdict(list)
    for e in results:
        by_day[e.day].append(e)
    days: dict[str, list[float]] = defaultdict(list)
    names: dict[str, str] = {}
    for day, entries in by_day.items():
        for s in day_ranking(entries, deals[day]):
            days[s.player].append(s.percentage)
            names[s.player] = s.name
    ranked = _ranked([(pid, names[pid], sum(p) / len(p), len(p), 0)
                      for pid, p in days.items() if len(p) >= MONTH_MIN_DAYS])
    return [{"rank": s.rank, "player": s.player, "name": s.name, "percentage": round(s.percentage, 2),
             "days": s.deals} for s in ranked]
