"""Duplicate scoring (R26): the same deal at several tables, each result ranked against the others."""

from __future__ import annotations

import math
from collections.abc import Sequence


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
