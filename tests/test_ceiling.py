"""The ceiling (``bench/baselines/ceiling.py``): a measuring stick that sees the whole deal, and
the runner's one door to it (``see_deal``), which no other bot gets."""

from __future__ import annotations

import sys
from pathlib import Path

from tarot.bots import play_deal
from tarot.bots.arena import ArenaConfig, run_arena
from tarot.bots.heuristic import HeuristicBot
from tarot.engine import Action, Deal, View

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.baselines.ceiling import Ceiling  # noqa: E402


class Watcher(HeuristicBot):
    """The heuristic, noting the deal it is handed before each decision."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.seen: list[tuple[Deal, View]] = []
        self.pending: Deal | None = None

    def see_deal(self, deal: Deal) -> None:
        self.pending = deal.copy()
        deal.hands[1] = 0  # a copy: spoiling it changes nothing of the game

    def act(self, view: View) -> Action:
        assert self.pending is not None
        self.seen.append((self.pending, view))
        self.pending = None
        return super().act(view)


def test_a_bot_with_see_deal_is_handed_a_copy_of_the_deal_before_each_decision() -> None:
    watcher = Watcher(seed=1)
    bots = [watcher, HeuristicBot(seed=2), HeuristicBot(seed=3), HeuristicBot(seed=4)]
    deal = play_deal(Deal.new(4, 0, seed=7), bots)
    assert deal.is_over and watcher.seen
    for seen, view in watcher.seen:
        assert seen.dealt == deal.dealt  # the true deal, every hand in it
        assert seen.view(view.seat).hand == view.hand  # at the decision's own position
    assert not hasattr(HeuristicBot(seed=1), "see_deal")  # the players are handed views only


def test_the_ceiling_beats_the_heuristic_and_plays_only_legal_moves() -> None:
    report = run_arena(ArenaConfig(players=4, deals=12, candidate="bench.baselines.ceiling:Ceiling",
                                   baseline="heuristic", seed=1))
    assert report.illegal_candidate == 0
    assert report.mean_gain > 0


def test_the_ceiling_refuses_to_play_blind() -> None:
    deal = Deal.new(4, 0, seed=7)
    view = deal.view(deal.turn)  # type: ignore[arg-type]
    try:
        Ceiling(seed=1).bid(view)
    except RuntimeError as exc:
        assert "handed the deal" in str(exc)
    else:
        raise AssertionError("a ceiling without the deal bid")
