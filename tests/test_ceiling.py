"""The ceiling (``bench/baselines/ceiling.py``): a measuring stick that sees the whole deal, and
the runner's one door to it (``see_deal``), which no other bot gets."""

from __future__ import annotations

import sys
from pathlib import Path

from tarot.bots import play_deal
from tarot.bots.arena import ArenaConfig, run_arena
from tarot.bots.heuristic import HeuristicBot
from tarot.bots.knowledge import knowledge_of
from tarot.engine import Action, Deal, Phase, Play, View

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.baselines.ceiling import (  # noqa: E402
    Ceiling,
    CeilingAttack,
    CeilingBids,
    CeilingCards,
    CeilingDefence,
)


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


def test_the_hybrids_take_each_part_from_the_ceiling_or_the_heuristic() -> None:
    """Where the gap lies: each hybrid decides as the ceiling where its name says, else as the
    heuristic, seat by seat through a whole deal (the heuristic playing it)."""
    deal = Deal.new(4, 0, seed=12)
    players = [HeuristicBot(seed=s) for s in range(4)]
    differ = {"attack": 0, "defence": 0}  # decisions where the two disagree: the test can tell
    checked = {"bid": 0, "attack": 0, "defence": 0}
    while deal.phase is not Phase.DONE:
        seat = deal.turn
        assert seat is not None
        view = deal.view(seat)
        kinds = (Ceiling, CeilingBids, CeilingCards, CeilingDefence, CeilingAttack)
        bots = {cls: cls(seed=9) for cls in kinds}
        for bot in bots.values():
            bot.see_deal(deal.copy())
        heuristic = HeuristicBot(seed=9)
        if deal.phase is Phase.BIDDING:
            assert bots[CeilingBids].bid(view) == bots[Ceiling].bid(view)
            assert bots[CeilingCards].bid(view) == heuristic.bid(view) == bots[CeilingAttack].bid(view)
            checked["bid"] += 1
        elif deal.phase is Phase.PLAY and any(isinstance(a, Play) for a in view.legal):
            k = knowledge_of(view)
            legal = sum(1 << int(a.card) for a in view.legal if isinstance(a, Play))
            ceiling, plain = bots[Ceiling].card(view, k, legal), heuristic.card(view, k, legal)
            attacking = view.taker in k.friends()
            assert bots[CeilingBids].card(view, k, legal) == plain
            assert bots[CeilingCards].card(view, k, legal) == ceiling
            assert bots[CeilingAttack].card(view, k, legal) == (ceiling if attacking else plain)
            assert bots[CeilingDefence].card(view, k, legal) == (plain if attacking else ceiling)
            checked["attack" if attacking else "defence"] += 1
            differ["attack" if attacking else "defence"] += ceiling != plain
        deal.apply(players[seat].act(view))
    assert all(checked.values()) and all(differ.values()), (checked, differ)
