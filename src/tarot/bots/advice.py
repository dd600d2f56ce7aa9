"""The expert's advice to a seat (the site's hint button, issue 19): the move the search bot
would make, and why, in a few figures a page can say in one line: over how many sampled deals it
scored best, by how much, and the next best move."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from tarot.engine import Action, Bid, Play, View, action_to_dict
from tarot.engine.cards import CARDS, mask_of

from .bidding import MIN_WORLDS as MIN_BID_WORLDS
from .bidding import estimate_bids
from .heuristic import HeuristicBot
from .knowledge import knowledge_of
from .search import MIN_WORLDS, SearchBot


@dataclass(frozen=True)
class Advice:
    action: Action
    why: str  # only (the one legal move), rules (the club rules), bidding, search (the card play)
    worlds: int = 0  # sampled deals it was scored over
    mean: float | None = None  # the seat's mean score with it
    runner_up: Action | None = None  # the next best move, and its mean
    runner_up_mean: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"action": action_to_dict(self.action), "why": self.why, "worlds": self.worlds,
                "mean": None if self.mean is None else round(self.mean, 1),
                "next": None if self.runner_up is None else action_to_dict(self.runner_up),
                "next_mean": None if self.runner_up_mean is None else round(self.runner_up_mean, 1)}


def _runner_up(means: dict[Any, float], best: Any) -> Any | None:
    others = {m: x for m, x in means.items() if m != best}
    return max(others, key=lambda m: others[m]) if others else None


def advise(view: View, seed: int, think: float) -> Advice:
    """What the expert (``SearchBot`` with ``think`` seconds) advises the seat of ``view``."""
    seat = view.seat
    if view.ecart_options is None and len(view.legal) == 1:
        return Advice(view.legal[0], "only")
    expert = SearchBot(seed, think=think)
    if view.phase == "bidding":
        est = estimate_bids(view, expert.rng, expert.bid_budget, time.perf_counter() + think,
                            expert.bid_costs)
        if est.worlds >= MIN_BID_WORLDS:
            best = est.best()
            second = _runner_up(est.means, best)
            return Advice(Bid(seat, best), "bidding", est.worlds, est.means[best],
                          None if second is None else Bid(seat, second),
                          None if second is None else est.means[second])
    elif view.phase == "play" and HeuristicBot(seed).poignee(view) is None:
        plays = [a.card for a in view.legal if isinstance(a, Play)]
        means, worlds = expert.card_means(view, knowledge_of(view), mask_of(plays))
        if worlds >= MIN_WORLDS:
            card = max(means, key=lambda c: (means[c], -c))  # (the search's own choice)
            other = _runner_up(means, card)
            return Advice(Play(seat, CARDS[card]), "search", worlds, means[card],
                          None if other is None else Play(seat, CARDS[other]),
                          None if other is None else means[other])
    return Advice(HeuristicBot(seed).act(view), "rules")
