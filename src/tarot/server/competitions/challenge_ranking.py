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
from collections.abc import Callable, Iterable, Sequence

from tarot.engine.duplicate import Standing, assign_ranks, overall_percentage, rank_marks

from .challenge import Entry

MONTH_MIN_DAYS = 3  # complete days an account needs to be ranked in a month


def marks(field: Sequence[Entry], guests: Iterable[Entry] = ()) -> dict[tuple[str, int], float]:
    """Each entry's mark, by (player, deal), among ``field``'s entries of the same deal
    (``guests``: guests' entries, each ranked against them and counted in no one else's)."""
    grouped = by_deal(field)
    out: dict[tuple[str, int], float] = {}
    for deal, entries in grouped.items():
        for e, m in zip(entries, rank_marks([float(e.score or 0) for e in entries]), strict=True):
            out[(e.player_id, deal)] = m
    for g in guests:
        others = [float(e.score or 0) for e in grouped.get(g.deal, []) if e.player_id != g.player_id]
        out[(g.player_id, g.deal)] = rank_marks([float(g.score or 0), *others])[0]
    return out


def by_deal(entries: Iterable[Entry]) -> dict[int, list[Entry]]:
    out: dict[int, list[Entry]] = defaultdict(list)
    for e in entries:
        out[e.deal].append(e)
    return out


def percentage(entries: Iterable[Entry], mark: dict[tuple[str, int], float]) -> float:
    attack = [mark[(e.player_id, e.deal)] for e in entries if e.side == "attack"]
    defence = [mark[(e.player_id, e.deal)] for e in entries if e.side != "attack"]
    return overall_percentage(attack, defence)


def as_dict(s: Standing) -> dict[str, object]:
    return {"rank": s.rank, "player": s.player, "name": s.name, "percentage": round(s.percentage, 2),
            "deals": s.deals, "attack": len(s.attack)}


def _by_name(standings: dict[str, Standing]) -> Callable[[str], str]:
    return lambda pid: standings[pid].name.casefold()


def day_ranking(results: Sequence[Entry], deals: int) -> list[Standing]:
    """The accounts that finished every deal of the day, ranked by percentage."""
    field = [e for e in results if e.account]
    mark = marks(field)
    standings: dict[str, Standing] = {}
    for e in field:
        s = standings.setdefault(e.player_id, Standing(e.player_id, name=e.name))
        (s.attack if e.side == "attack" else s.defence).append(mark[(e.player_id, e.deal)])
    return assign_ranks(standings.values(), _by_name(standings), lambda pid: standings[pid].deals == deals)


def month_ranking(results: Sequence[Entry], deals: dict[str, int]) -> list[dict[str, object]]:
    """The accounts with ``MONTH_MIN_DAYS`` complete days or more in the month (``deals``: each
    day's number of deals), ranked by the mean percentage of those days."""
    by_day: dict[str, list[Entry]] = defaultdict(list)
    for e in results:
        by_day[e.day].append(e)
    standings: dict[str, Standing] = {}
    for day, entries in by_day.items():
        for d in day_ranking(entries, deals[day]):
            # each day's percentage held as a defence mark: with no attack, the percentage is their mean
            standings.setdefault(d.player, Standing(d.player, name=d.name)).defence.append(d.percentage)
    ranked = assign_ranks(standings.values(), _by_name(standings),
                          lambda pid: standings[pid].deals >= MONTH_MIN_DAYS)
    return [{"rank": s.rank, "player": s.player, "name": s.name, "percentage": round(s.percentage, 2),
             "days": s.deals} for s in ranked]
