"""R26 duplicate marks and match points."""

from __future__ import annotations

import pytest

from tarot.engine import defender_mark, match_points, overall_percentage, rank_marks


def test_marks_go_from_100_to_0_in_equal_steps() -> None:
    assert rank_marks([120, -60, 300]) == [50.0, 0.0, 100.0]
    assert rank_marks([10, 20, 30, 40, 50]) == [0.0, 25.0, 50.0, 75.0, 100.0]


def test_ties_share_their_steps() -> None:
    assert rank_marks([100, 100, 0]) == [75.0, 75.0, 0.0]
    assert rank_marks([5, 5, 5, 5]) == [50.0] * 4
    assert rank_marks([7]) == [50.0]
    with pytest.raises(ValueError, match="R26"):
        rank_marks([])


def test_defence_and_overall() -> None:
    assert defender_mark(75.0) == 25.0
    assert overall_percentage([80.0], [40.0, 60.0]) == pytest.approx(0.25 * 80 + 0.75 * 50)
    assert overall_percentage([], [40.0]) == 40.0


def test_match_points_are_the_square_root_of_the_gap() -> None:
    assert match_points(144) == 12.0  # the example of docs/rules.md (R26)
    assert match_points(-144) == -12.0
    assert match_points(0) == 0.0


def test_who_is_ranked_and_how_close_ties_are_are_the_callers() -> None:
    """One ranking for the CLI, the events and the challenge: a bot (or a guest) is marked with
    the others and ranked nowhere; percentages equal to ``digits`` decimals share a rank."""
    from tarot.engine.duplicate import Standing, assign_ranks

    def field() -> list[Standing]:
        return [Standing("bot", defence=[90.0]), Standing("bea", defence=[200 / 3]),
                Standing("al", defence=[66.668]), Standing("cy", defence=[10.0])]

    ranked = assign_ranks(field(), ranked=lambda p: p != "bot")
    assert [(s.rank, s.player) for s in ranked] == [(1, "al"), (2, "bea"), (3, "cy")]
    shown = assign_ranks(field(), ranked=lambda p: p != "bot", digits=2)  # both 66.67
    assert [(s.rank, s.player) for s in shown] == [(1, "al"), (1, "bea"), (3, "cy")]
    assert [s.rank for s in assign_ranks(field())] == [1, 2, 3, 4]
