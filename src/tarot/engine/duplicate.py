"""Duplicate scoring (R26): the same deal at several tables, each result ranked against the others."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any


def rank_marks(results: Sequence[float]) -> list[float]:
    """Marks from 100 (best) to 0 (worst) in equal steps; tied results share their steps' mean.

    ``results`` are the scores of the same seat of the same deal at each table (higher is better).
    A single table gets 50: there is nobody to be ranked against.
    """
    n = len(results)
    if n == 0:
        raise ValueError("R26: no results to rank")
    if n == 1:
        return [50.0]
    step = 100 / (n - 1)
    marks = []
    for r in results:
        better = sum(1 for x in results if x > r)
        equal = sum(1 for x in results if x == r)
        marks.append(100 - step * (better + (equal - 1) / 2))
    return marks


def defender_mark(attacker_mark: float) -> float:
    """R26: the defenders of a deal get 100% minus the attacker's mark."""
    return 100 - attacker_mark


def overall_percentage(attack_marks: Sequence[float], defence_marks: Sequence[float]) -> float:
    """R26: ¼ of the mean attack mark plus ¾ of the mean defence mark.

    A player who never attacked (or never defended) is judged on the other side alone.
    """
    if not attack_marks and not defence_marks:
        raise ValueError("R26: no marks")
    if not attack_marks:
        return sum(defence_marks) / len(defence_marks)
    if not defence_marks:
        return sum(attack_marks) / len(attack_marks)
    return sum(attack_marks) / len(attack_marks) / 4 + 3 * sum(defence_marks) / len(defence_marks) / 4


def match_points(gap: float) -> float:
    """R26 team matches: a score gap on a deal is worth √gap match points, with the gap's sign."""
    return math.copysign(math.sqrt(abs(gap)), gap)


@dataclass(frozen=True)
class TableResult:
    """One deal at one table: who sat at each seat (names or ids), each seat's score, and the
    taker's side (``taker`` None: everybody passed)."""

    players: tuple[str, ...]
    scores: tuple[int, ...]
    taker: int | None
    partner: int | None = None

    def attacks(self, seat: int) -> bool:
        return self.taker is not None and seat in (self.taker, self.partner)


@dataclass(frozen=True)
class TableMarks:
    """Each seat's R26 mark (0–100) at one table of a deal, and whether it was an attack mark."""

    marks: tuple[float, ...]
    attack: tuple[bool, ...]


def mark_tables(tables: Sequence[TableResult]) -> list[TableMarks]:
    """R26 marks of one deal played at several tables. The seats are ranked across the tables
    seat by seat (the same seat held the same cards); at each table the taker's side (the taker,
    and the partner at 5 players) gets the taker's seat mark as an attack mark and every defender
    100 minus it as a defence mark; where everybody passed, each player gets their own seat's mark
    as a defence mark."""
    n = len(tables[0].players)
    by_seat = [rank_marks([t.scores[seat] for t in tables]) for seat in range(n)]
    out = []
    for i, t in enumerate(tables):
        attack = tuple(t.attacks(seat) for seat in range(n))
        if t.taker is None:
            marks = tuple(by_seat[seat][i] for seat in range(n))
        else:
            mark = by_seat[t.taker][i]
            marks = tuple(mark if attack[seat] else defender_mark(mark) for seat in range(n))
        out.append(TableMarks(marks, attack))
    return out


@dataclass
class Standing:
    """A player's marks; ``percentage`` is R26's ¼ attack + ¾ defence; ``name``: how the player is
    shown, where ``player`` is an id."""

    player: str
    attack: list[float] = field(default_factory=list)
    defence: list[float] = field(default_factory=list)
    rank: int = 0
    name: str = ""

    @property
    def deals(self) -> int:
        return len(self.attack) + len(self.defence)

    @property
    def percentage(self) -> float:
        return overall_percentage(self.attack, self.defence)


def rank_standings(marked: Iterable[tuple[TableResult, TableMarks]], order: Callable[[str], Any] = str,
                   ranked: Callable[[str], bool] | None = None, digits: int = 9) -> list[Standing]:
    """Every player's standing (``assign_ranks``) from the marks of the tables they sat at."""
    standings: dict[str, Standing] = {}
    for table, m in marked:
        for seat, player in enumerate(table.players):
            s = standings.setdefault(player, Standing(player))
            (s.attack if m.attack[seat] else s.defence).append(m.marks[seat])
    return assign_ranks(standings.values(), order, ranked, digits)


def assign_ranks(standings: Iterable[Standing], order: Callable[[str], Any] = str,
                 ranked: Callable[[str], bool] | None = None, digits: int = 9) -> list[Standing]:
    """The players ``ranked`` says (all if None: a bot or a guest may be marked with the others
    and ranked nowhere), best percentage first; percentages equal to ``digits`` decimals share a
    rank (1, 2, 2, 4), listed by ``order`` of the player."""
    listed = [s for s in standings if ranked is None or ranked(s.player)]
    ordered = sorted(listed, key=lambda s: (-round(s.percentage, 9), order(s.player), s.player))
    for i, s in enumerate(ordered):
        same = i and round(s.percentage, digits) == round(ordered[i - 1].percentage, digits)
        s.rank = ordered[i - 1].rank if same else i + 1
    return ordered
